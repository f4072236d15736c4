"""Expected value, in coins, of every legal action of the seat to act, ranked.

Formulas (docs/odds.md has the reasoning):

* leg ticket, top value ``v`` of colour ``c`` (RULES 1.6, 1.10):
  ``v * P(c 1st) + P(c 2nd) - (1 - P(c 1st) - P(c 2nd))``;
* pyramid ticket: ``+1`` (RULES 1.7);
* tile on a space and side: exact expected landings this leg (RULES 1.5); when
  the player's tile is already on the board, minus what it is expected to earn
  where it is (moving it gives that up);
* finish card ``c`` on a pile: ``P(c) * E[ladder place] - (1 - P(c))`` with race
  odds from ``camelup.odds.race`` and the place estimated from the pile size
  (RULES 1.13);
* partnership with seat ``q`` (RULES 3.8): the expected best non-negative reward
  among ``q``'s tickets held now, from the exact joint leg outcome.

Runs on MicroPython too; needs a ``camelup.game.Game`` (tickets, piles, partners).
"""

from camelup.editions import PYRAMID_TICKET_REWARD
from camelup.odds.game import position_from_game
from camelup.odds.leg import leg_odds
from camelup.odds.race import race_odds
from camelup.odds.tiles import tile_values

#: Finish pile payouts by place among the correct cards (RULES 1.13).
LADDER = (8, 5, 3, 2)


def ladder(place):
    """Coins paid to the ``place``-th correct finish card (1-based): 8, 5, 3, 2, then 1."""
    if place <= len(LADDER):
        return LADDER[place - 1]
    return 1


class ActionValue:
    """One action with its expected value.

    ``action``: canonical action text (``leg red``, ``tile 7 +``, ``finish winner
    red``, ``partner 3``) or ``pyramid`` (take a pyramid ticket); ``kind``: ``leg``,
    ``pyramid``, ``tile``, ``finish`` or ``partner``; ``ev``: expected coins
    (float); ``facts``: what the reason for it is made of, as values (a dict; the
    host says it in the table's language, ``camelhost.table.view.action_text``):

    * ``leg``: ``colour``, ``value`` (the top leg ticket's printed value);
    * ``pyramid``: none (it pays 1 at leg scoring, RULES 1.7);
    * ``tile``: ``space`` (1..16), ``side`` (``"+"`` or ``"-"``), ``landings``
      (expected camel landings there this leg, a coin each, RULES 1.5) and, when the
      player's tile is already down, ``lost`` (what it is expected to earn where it
      is) and ``lost_on`` (its space);
    * ``finish``: ``pile`` (``winner``/``loser``), ``colour``, ``p`` (the chance,
      0..1, that the colour is that pile's camel), ``cards`` (cards on the pile);
      the coach adds ``read`` (how many of them it reads as that colour);
    * ``partner``: ``player`` (the partner's seat index).

    ``win``: the player's chance (0..1) to win the race after it, when the coach
    played it out (the end-game, ``camelhost.coach.win_chances``), else ``None``.
    ``score``: the value the coach ranks it by (coins: the value now less the next
    players' replies, a finish card's less what it is worth kept for a later leg;
    ``camelhost.coach.suggestions``), else ``None`` (ranked by ``ev``).
    """

    def __init__(self, kind, action, ev, facts=None):
        self.kind = kind
        self.action = action
        self.ev = ev
        self.facts = facts if facts is not None else {}
        self.win = None
        self.score = None

    def __repr__(self):
        return "ActionValue(%r, %.4f)" % (self.action, self.ev)


def leg_ticket_ev(value, p_first, p_second):
    """EV of a leg ticket of printed ``value`` (odds-cases.md, RULES 1.10)."""
    return value * p_first + p_second - (1 - p_first - p_second)


#: ``_binomial_ladder``'s answers by their arguments (a lookahead asks about the same
#: few chances again and again: every reply's best finish card); emptied when full.
_LADDERS = {}
_LADDERS_SIZE = 4096


def _binomial_ladder(known, others, p):
    """E[ladder(1 + known + X)] with X ~ Binomial(others, p): kept in ``_LADDERS``."""
    key = (known, others, p)
    hit = _LADDERS.get(key)
    if hit is None:
        if len(_LADDERS) >= _LADDERS_SIZE:
            _LADDERS.clear()
        hit = _LADDERS[key] = _binomial_ladder_of(known, others, p)
    return hit


def _binomial_ladder_of(known, others, p):
    """``_binomial_ladder`` worked out."""
    out = 0.0
    prob = (1 - p) ** others
    for x in range(others + 1):
        if x > 0:
            # P(X = x) from P(X = x - 1)
            if p >= 1:
                prob = 1.0 if x == others else 0.0
            else:
                prob = prob * (others - x + 1) / x * p / (1 - p)
        out += prob * ladder(1 + known + x)
    return out


def finish_card_ev(p, pile, seat, colour):
    """EV of putting ``colour`` on a finish pile now (RULES 1.13).

    ``p``: probability that ``colour`` ends as that pile's camel (overall winner or
    loser); ``pile``: the cards already there ``[(seat, colour)]`` in play order (only
    the player's own colours are used: the others count by number only).
    """
    own = 0
    others = 0
    for owner, card in pile:
        if owner == seat:
            if card == colour:
                own += 1
        else:
            others += 1
    return p * _binomial_ladder(own, others, p) - (1 - p)


def partnership_ev(leg, held, pyramid):
    """Expected best non-negative reward to copy from a partner (RULES 3.8).

    ``leg``: ``LegOdds``; ``held``: the partner's leg tickets ``[(colour, value)]``;
    ``pyramid``: the partner's pyramid tickets this leg.
    """
    if not held and not pyramid:
        return 0.0
    total = 0
    for triple in leg.joint:
        first, second, _last = triple
        best = 1 if pyramid else 0
        for colour, value in held:
            if colour == first:
                reward = value
            elif colour == second:
                reward = 1
            else:
                reward = -1
            if reward > best:
                best = reward
        total += best * leg.joint[triple]
    return total / leg.total


def _finish_value(game, race, pile, colour):
    cards = game.pile(pile)
    p = race.winner[colour] if pile == "winner" else race.loser[colour]
    # a player holds one card of each colour, so none of theirs on the pile is this
    # colour: the pile counts by owner only and no hidden colour is read
    ev = finish_card_ev(p, [(owner, None) for owner, _c in cards], game.turn, colour)
    return ActionValue("finish", "finish %s %s" % (pile, colour), ev,
                       {"pile": pile, "colour": colour, "p": p, "cards": len(cards)})


def finish_values(game, race, colours=None):
    """The finish cards of ``game.turn`` with their EV (RULES 1.13): ``ActionValue``
    list, best first, one per colour of ``colours`` on each pile (``"winner"`` first).
    ``colours``: default the cards in the player's hand; ``game.edition.racing`` for
    advice on a shared screen, which must not show which cards the player still holds
    (RULES 1.8): only the race odds ``race`` (``RaceOdds``) and how many cards each
    pile holds are read, never a colour on a pile. Empty when the player has no finish
    card left or the race is over."""
    if game.is_over or not game.finish_cards_in_hand(game.turn):
        return []
    if colours is None:
        colours = game.finish_cards_in_hand(game.turn)
    out = [_finish_value(game, race, pile, c) for c in colours for pile in ("winner", "loser")]
    out.sort(key=lambda a: (-a.ev, a.action))
    return out


def action_values(game, race=None, seed=1, samples=1000, leg=None):
    """Every legal action of ``game.turn`` with its EV, best first.

    ``race``: a ``RaceOdds`` to use for finish cards (computed with ``seed`` and
    ``samples`` races when not given and a finish card is legal: 1,000 races give
    about +/-3 points; pass the table's own, larger, run to be both fast and
    precise; identical calls are cached by ``race_odds``). ``leg``: a ``LegOdds``
    of this position, if already computed (saves one enumeration). Returns a list
    of ``ActionValue`` sorted by EV (ties: action text). The pyramid actions (one
    per die face) appear once, as ``pyramid``. Partnerships' copies are valued
    only in the ``partner`` action itself.
    """
    seat = game.turn
    legal = game.legal_actions()
    if not legal:
        return []
    position = position_from_game(game)
    if leg is None:
        leg = leg_odds(position)
    out = []
    tiles_wanted = False
    finish_wanted = False
    for action in legal:
        if action.kind == "tile":
            tiles_wanted = True
        elif action.kind == "finish":
            finish_wanted = True
    tile_ev = {}
    if tiles_wanted:
        for expected, space, side in tile_values(position, seat):
            tile_ev[(space, "+" if side > 0 else "-")] = expected
    if finish_wanted and race is None:
        race = race_odds(position, seed=seed, samples=samples, leg=leg)
    own_tile = None
    own_income = 0.0
    for space in position.tiles:
        if position.tile_owners.get(space) == seat:
            own_tile = space
            own_income = leg.landings.get(space, 0) / leg.total
    pyramid_done = False
    for action in legal:
        kind = action.kind
        if kind == "leg":
            c = action.colour
            values = game.leg_tickets_left(c)
            if not values:
                continue
            v = values[0]
            ev = leg_ticket_ev(v, leg.first[c] / leg.total, leg.second[c] / leg.total)
            out.append(ActionValue(kind, str(action), ev, {"colour": c, "value": v}))
        elif kind == "pyramid":
            if pyramid_done:
                continue
            pyramid_done = True
            out.append(ActionValue(kind, "pyramid", float(PYRAMID_TICKET_REWARD), {}))
        elif kind == "tile":
            key = (action.space, action.side)
            if key not in tile_ev:
                continue
            gain = tile_ev[key]
            facts = {"space": action.space, "side": action.side, "landings": gain}
            ev = gain
            if own_tile is not None:
                # moving the tile gives up what it earns where it is (RULES 1.5)
                ev = gain - own_income
                facts["lost"] = own_income
                facts["lost_on"] = own_tile
            out.append(ActionValue(kind, str(action), ev, facts))
        elif kind == "finish":
            out.append(_finish_value(game, race, action.pile, action.colour))
        elif kind == "partner":
            q = action.player
            ev = partnership_ev(leg, game.held_tickets(q), game.pyramid_tickets(q))
            out.append(ActionValue(kind, str(action), ev, {"player": q}))
    out.sort(key=lambda a: (-a.ev, a.action))
    return out
