"""The coach: a bot policy that plays to win the race, not to grab the most coins now.

``choose(game)`` -> ``(action text, score)`` for the seat to act. The immediate value
of every legal action comes from ``camelup.odds.actions.action_values`` (exact leg
odds, tile landings, race odds for finish cards; RULES 1.5-1.13, 3.8). The coach then
scores each candidate as a race between players, because the winner is whoever ends
with the most coins (RULES 1.13), not whoever gains most on average:

* **Lookahead over the next player's reply.** After each candidate the next player is
  assumed to take their best immediate action (what the ``ev`` bots do). A leg ticket
  leaves them the next ticket of that colour; a tile blocks its space and the two next
  to it; a pyramid ticket reveals a die, which sharpens the leg for them (every die
  face is weighed with its probability, each with the exact leg odds after it). The
  score is ``my EV - REPLY_WEIGHT * (their best EV)``.
* **Tiles valued over the rest of the leg.** Besides its expected landings, a tile
  changes the leg: the best few candidates are valued with the exact leg odds with
  the tile placed, counting the change in value of the leg tickets already held (mine
  counted for me, the others' against me).
* **Finish cards timed by the race odds and pile sizes.** The race odds are a larger
  seeded run (``FINISH_SAMPLES`` races, cached per die). A card is worth its EV with
  the place on the pile estimated from the pile size (``finish_card_ev``); waiting
  also risks that the next player takes that place, which the reply model counts.
* **Partnerships chosen by value.** A partnership (6-8 players, RULES 3.8) is worth
  what I copy from the partner minus what the partner copies from me.

Deterministic: the same game gives the same choice. About 0.05-0.3 s per move on this
machine (well under the 1 s budget).
"""

from camelup.editions import GREY, INKS
from camelup.odds import leg_odds, move
from camelup.odds.actions import action_values, finish_card_ev, leg_ticket_ev, partnership_ev
from camelup.odds.game import position_from_game
from camelup.odds.race import race_odds

#: Weight of the next player's best reply in a candidate's score (1 = zero-sum with
#: the next player; the other opponents gain from my loss too, so a little less).
REPLY_WEIGHT = 0.8
#: Races simulated for the finish-card odds (about +/-1.4 points at 95 %).
FINISH_SAMPLES = 5000
#: Tile candidates valued with their effect on the leg (the best by landings).
TILE_CANDIDATES = 3
#: Candidates (best immediate EV first) that get the reply lookahead.
LOOKAHEAD = 8
#: What the next player can expect at the start of a fresh leg (a 5 ticket of a
#: camel leading about a third of the time, or a pyramid ticket): used when my die
#: ends the leg, instead of enumerating every next leg.
FRESH_LEG_REPLY = 1.2


def _ticket_evs(game, leg, taken=None):
    """{colour: EV of its top leg ticket} with ``taken`` (a colour) already taken once."""
    out = {}
    for c in game.edition.racing:
        left = game.leg_tickets_left(c)
        if c == taken:
            left = left[1:]
        if left:
            out[c] = leg_ticket_ev(left[0], leg.first[c] / leg.total, leg.second[c] / leg.total)
    return out


def _held_value(leg, held):
    """Expected leg payout of the tickets ``held`` [(colour, value)] under ``leg``."""
    total = 0.0
    for c, v in held:
        total += leg_ticket_ev(v, leg.first[c] / leg.total, leg.second[c] / leg.total)
    return total


def _finish_reply(game, seat, race, extra=None):
    """Best finish-card EV seat ``seat`` has now (0.0 when none is worth playing);
    ``extra``: ``(pile, card)`` a card put on that pile first (mine)."""
    best = 0.0
    if race is None:
        return best
    for c in game.finish_cards_in_hand(seat):
        for pile, odds in (("winner", race.winner), ("loser", race.loser)):
            cards = game.pile(pile)
            if extra is not None and extra[0] == pile:
                cards = cards + [extra[1]]
            ev = finish_card_ev(odds.get(c, 0.0), cards, seat, c)
            if ev > best:
                best = ev
    return best


def _after_die(position, die, value, ink):
    """(position after the die with it out of the pyramid, crossed)."""
    moved, _tile, crossed = move(position, die, value, ink)
    dice = [d for d in position.dice if d != die]
    moved.dice = dice
    moved.reveals = max(0, position.reveals - 1)
    return moved, crossed


def _pyramid_reply(game, position, floor):
    """Expected best immediate EV of the next player after my pyramid ticket.

    Every die inside, every value (grey: both inks when the ink decides), weighted as
    the pyramid releases them (RULES 1.4, 3.4). ``floor``: what they have whatever the
    die (best tile or finish card). Returns 0 for a leg-ending reveal replaced by
    ``FRESH_LEG_REPLY``.
    """
    left_after = game.pyramid_tickets_left - 1
    if left_after <= 0:
        return max(FRESH_LEG_REPLY, floor)
    dice = list(position.dice)
    total = 0.0
    count = 0
    for die in dice:
        faces = []
        for v in (1, 2, 3):
            if die == GREY:
                for ink in INKS:
                    faces.append((v, ink))
            else:
                faces.append((v, None))
        for v, ink in faces:
            after, crossed = _after_die(position, die, v, ink)
            if crossed:
                best = 0.0  # the race ends on my die: nobody replies
            else:
                leg = leg_odds(after)
                evs = _ticket_evs(game, leg)
                best = max([1.0, floor] + list(evs.values()))
            total += best / len(faces)
        count += 1
    return total / count


def _tile_leg_effect(game, position, seat, space, side):
    """Change in (my held tickets) - (others' held tickets, averaged) when my tile goes
    on ``space`` with ``side`` (+1/-1), from the exact leg odds with it there."""
    holders = [p for p in range(game.players) if game.held_tickets(p)]
    if not holders:
        return 0.0
    base = leg_odds(position)
    placed = position.copy()
    for s in list(placed.tiles):
        if placed.tile_owners.get(s) == seat:
            del placed.tiles[s]
            del placed.tile_owners[s]
    placed.tiles[space] = side
    placed.tile_owners[space] = seat
    leg = leg_odds(placed)
    mine = 0.0
    theirs = 0.0
    for p in holders:
        d = _held_value(leg, game.held_tickets(p)) - _held_value(base, game.held_tickets(p))
        if p == seat:
            mine += d
        else:
            theirs += d
    return mine - REPLY_WEIGHT * theirs / max(1, game.players - 1)


def _tile_blocks(space, other):
    return abs(space - other) <= 1


def evaluate(game, seed=1):
    """Every candidate action of the seat to act with the coach's score, best first.

    Returns a list of ``(score, action text, immediate EV)``; ``action text`` is the
    ``ActionValue.action`` form (``pyramid`` for any pyramid ticket).
    """
    seat = game.turn
    position = position_from_game(game)
    leg = leg_odds(position)
    race = None
    if game.finish_cards_in_hand(seat):
        race = race_odds(position, seed=seed, samples=FINISH_SAMPLES, leg=leg)
    ranked = action_values(game, race=race, leg=leg)
    if not ranked:
        return []
    nxt = (seat + 1) % game.players
    tickets = _ticket_evs(game, leg)
    best_tile = None
    tile_list = [av for av in ranked if av.kind == "tile"]
    if tile_list:
        best_tile = tile_list[0]
    finish_next = _finish_reply(game, nxt, race)
    pyramid_ok = game.pyramid_tickets_left > 0
    tile_effects = {}
    for av in tile_list[:TILE_CANDIDATES]:
        space = int(av.action.split()[1])
        side = 1 if av.action.split()[2] == "+" else -1
        tile_effects[av.action] = _tile_leg_effect(game, position, seat, space, side)
    out = []
    for index in range(len(ranked)):
        av = ranked[index]
        ev = av.ev
        if av.kind == "tile":
            if av.action not in tile_effects:
                if index >= LOOKAHEAD:
                    continue
            else:
                ev += tile_effects[av.action]
        if index >= LOOKAHEAD and av.kind not in ("pyramid", "finish"):
            out.append((ev - REPLY_WEIGHT * _static_reply(tickets, best_tile, finish_next,
                                                           pyramid_ok), av.action, av.ev))
            continue
        if av.kind == "leg":
            colour = av.action.split()[1]
            after = _ticket_evs(game, leg, taken=colour)
            reply = _best(after, best_tile, finish_next, pyramid_ok)
        elif av.kind == "tile":
            space = int(av.action.split()[1])
            tile_floor = 0.0
            for other in tile_list:
                if not _tile_blocks(int(other.action.split()[1]), space):
                    tile_floor = other.ev
                    break
            reply = max([tile_floor, finish_next, 1.0 if pyramid_ok else 0.0]
                        + list(tickets.values()))
        elif av.kind == "pyramid":
            floor = finish_next
            if best_tile is not None and best_tile.ev > floor:
                floor = best_tile.ev
            reply = _pyramid_reply(game, position, floor)
        elif av.kind == "finish":
            pile = av.action.split()[1]
            colour = av.action.split()[2]
            # my card takes a place on that pile ahead of the next player's
            after = _finish_reply(game, nxt, race, (pile, (seat, colour)))
            reply = _best(tickets, best_tile, after, pyramid_ok)
        elif av.kind == "partner":
            # the partner copies my best ticket too (RULES 3.8)
            given = partnership_ev(leg, game.held_tickets(seat), game.pyramid_tickets(seat))
            ev -= REPLY_WEIGHT * given
            reply = _best(tickets, best_tile, finish_next, pyramid_ok)
        else:
            reply = _static_reply(tickets, best_tile, finish_next, pyramid_ok)
        out.append((ev - REPLY_WEIGHT * reply, av.action, av.ev))
    out.sort(key=lambda t: (-t[0], t[1]))
    return out


def _best(tickets, best_tile, finish_next, pyramid_ok):
    values = list(tickets.values())
    values.append(finish_next)
    if pyramid_ok:
        values.append(1.0)
    if best_tile is not None:
        values.append(best_tile.ev)
    return max(values)


def _static_reply(tickets, best_tile, finish_next, pyramid_ok):
    return _best(tickets, best_tile, finish_next, pyramid_ok)


def choose(game, names=None, seed=1):
    """The coach's action for the seat to act: ``(text, value)``, ``value`` its
    immediate expected value in coins (the ranking itself uses the coach's score).

    ``text`` is a table command (``leg red``, ``pyramid``, ``tile 7 +``, ``finish winner
    red``, ``partner NAME`` with ``names`` the seat names, else the 1-based seat).
    Raises ``ValueError`` when the race is over.
    """
    scored = evaluate(game, seed=seed)
    for _score, action, ev in scored:
        if action == "pyramid":
            if game.pyramid_tickets_left > 0:
                return ("pyramid", ev)
            continue
        if not game.is_legal(action):
            continue
        if action.startswith("partner "):
            q = int(action.split()[1])
            return ("partner %s" % (names[q] if names else q + 1), ev)
        return (action, ev)
    raise ValueError("no legal action for the coach (is the race over?)")

