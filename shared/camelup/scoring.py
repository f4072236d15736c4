"""Leg scoring and finish-pile scoring as pure functions over integer coins.

Nothing here knows about turns or the board beyond a ranking; ``Game`` calls these
and puts their breakdowns in its reports.
"""

from camelup.editions import FINISH_LADDER, FINISH_LATER, FINISH_WRONG, PYRAMID_TICKET_REWARD


def leg_ticket_reward(colour, value, first, second):
    """Reward of one leg ticket ``colour``/``value`` when ``first``/``second`` lead the leg:
    its printed value on the leader, 1 on the second racing camel, otherwise -1
    (RULES 1.10)."""
    if colour == first:
        return value
    if colour == second:
        return 1
    return -1


def _own_items(tickets, pyramid, first, second):
    items = []
    for colour, value in tickets:
        items.append({"kind": "leg", "colour": colour, "value": value,
                      "reward": leg_ticket_reward(colour, value, first, second)})
    for _ in range(pyramid):
        items.append({"kind": "pyramid", "reward": PYRAMID_TICKET_REWARD})
    return items


def score_leg(order, held, pyramid_held, partners, coins):
    """Score one leg (RULES 1.9, 1.10, 3.8).

    ``order``: racing colours first to last (``movement.ranking``); ``held``: per
    player a list of ``(colour, value)`` leg tickets; ``pyramid_held``: per player the
    number of pyramid tickets; ``partners``: per player the partner's seat or ``None``;
    ``coins``: per player coins before scoring (ints >= 0).

    Each partner may copy the reward of one of the other's leg or pyramid tickets;
    the engine copies the best one and declines when it would be negative. A player's
    net is applied at once, then the zero floor.

    Returns ``(breakdown, new_coins)``: ``breakdown`` is a list (one dict per player,
    seat order) with ``player``, ``items`` (each ``{"kind": "leg", "colour", "value",
    "reward"}``, ``{"kind": "pyramid", "reward": 1}`` or ``{"kind": "copy", "from":
    seat, "ticket": item, "reward"}``), ``net``, ``before``, ``after``.
    """
    first = order[0] if order else None
    second = order[1] if len(order) > 1 else None
    n = len(coins)
    own = []
    for p in range(n):
        own.append(_own_items(held[p], pyramid_held[p], first, second))
    breakdown = []
    new_coins = []
    for p in range(n):
        items = list(own[p])
        mate = partners[p]
        if mate is not None:
            best = None
            for item in own[mate]:
                if best is None or item["reward"] > best["reward"]:
                    best = item
            if best is not None and best["reward"] >= 0:
                items.append({"kind": "copy", "from": mate, "ticket": best,
                              "reward": best["reward"]})
        net = 0
        for item in items:
            net += item["reward"]
        after = coins[p] + net
        if after < 0:
            after = 0
        breakdown.append({"player": p, "items": items, "net": net,
                          "before": coins[p], "after": after})
        new_coins.append(after)
    return breakdown, new_coins


def finish_reward(place):
    """Reward of the ``place``-th correct finish card (1-based): 8, 5, 3, 2, then 1
    (RULES 1.13)."""
    if place <= len(FINISH_LADDER):
        return FINISH_LADDER[place - 1]
    return FINISH_LATER


def score_pile(name, pile, camel, coins):
    """Resolve one finish pile card by card, earliest first (RULES 1.9, 1.13).

    ``name``: ``"winner"`` or ``"loser"``; ``pile``: list of ``(player, colour)`` in play
    order (a hidden card ``(None, None)`` is skipped); ``camel``: the actual overall
    winner / loser; ``coins``: per-player coins,
    **updated in place** (each card applied at once with the zero floor).
    Returns a list of dicts: ``pile``, ``player``, ``colour``, ``correct``,
    ``place`` (1-based among correct cards, ``None`` for a wrong card), ``reward``,
    ``before``, ``after``.
    """
    out = []
    place = 0
    for player, colour in pile:
        if player is None:
            # a hidden card of a public position (docs/notation.md): nobody's, unscored
            continue
        correct = colour == camel
        if correct:
            place += 1
            reward = finish_reward(place)
        else:
            reward = FINISH_WRONG
        before = coins[player]
        after = before + reward
        if after < 0:
            after = 0
        coins[player] = after
        out.append({"pile": name, "player": player, "colour": colour, "correct": correct,
                    "place": place if correct else None, "reward": reward,
                    "before": before, "after": after})
    return out


def winners(coins):
    """Seats with the highest total (a tie shares the victory, RULES 1.13)."""
    best = max(coins)
    return [p for p in range(len(coins)) if coins[p] == best]
