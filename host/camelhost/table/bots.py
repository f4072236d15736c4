"""Bots for empty seats (``pyramid demo``, ``pyramid play --bots``) and the bot
policies of ``pyramid tournament``.

The table's bots play ``TABLE_POLICY``: ``"coach"`` (``camelhost.coach``: plays to
win the race) or ``"ev"`` (below). ``POLICIES`` names every policy a tournament can
seat: the league's styles (``camelhost.league.STYLES``: ``random``, ``greedy``,
``ev``, ``cautious``, ``tiles``, ``copycat``, ``partner``, each described in one
sentence by ``league.DESCRIPTIONS``) and ``coach``.

The ``ev`` bot takes the action with the best expected value in coins. It asks the odds
engine (``camelup.odds.actions.action_values``: exact leg odds, tile landings,
seeded race odds for finish cards, partnerships) and takes the first legal action
of that ranked list. Should that fail, it values a smaller set itself:

* leg ticket of colour c with top value v: ``v*P1(c) + P2(c) - (1 - P1(c) - P2(c))``
  with the exact leg odds of ``camelup.odds`` (RULES 1.10);
* pyramid ticket: 1 coin, certain (RULES 1.7);
* finish card, once a camel is within five spaces of the line: the leg leader on
  the winner pile (the leg-end last camel on the loser pile) valued at
  ``5*P - (1-P)``, discounted while other cards are already on the pile (RULES 1.13);
* tiles and partnerships are left to people.

When the odds can't be computed (an unexpected position), a plain heuristic takes
the leader's leg ticket if it is worth 3 or more, else a pyramid ticket. Bots are
deterministic: the same game state always gives the same choice, so a game
resumed from its journal continues exactly as it would have. Ties go to the
first candidate in a fixed order.
"""

from camelup.editions import PYRAMID_TICKET_REWARD
from camelup.odds.actions import action_values, finish_values
from camelup.odds.game import position_from_game
from camelup.odds.race import race_odds
from camelup.rng import XorShift32

from camelhost import coach, league
from camelhost.i18n import N_

#: The policy the table's bots (demo, play --bots) use: "coach" or "ev".
TABLE_POLICY = "coach"

#: A camel this close to the finish line makes finish cards worth considering.
FINISH_HORIZON = 5


def _position(game):
    return position_from_game(game)


def choose(game, names=None, quick=False):
    """Return ``(text, value)``: the table command the current player's bot types in
    ``game`` (a ``camelup.game.Game`` in play) and its expected value in coins. Commands:
    ``leg red``, ``pyramid``, ``tile 7 +``, ``finish winner red``, ``partner NAME``
    (``names``: seat names; without them the partner's seat number, 1-based).
    The policy is ``TABLE_POLICY``. ``quick``: skip the full action values (about
    0.1 s) and use the leg odds only."""
    if quick:
        return _own_choice(game)
    if TABLE_POLICY == "coach":
        try:
            return coach.choose(game, names)
        except (ValueError, TypeError, KeyError):
            return _own_choice(game)
    return ev_choose(game, names)


def suggestions(game, leg=None, race=None, seed=1):
    """The shared screen's ranked advice for the seat to act (``ActionValue`` list,
    best first) from ``TABLE_POLICY``: the coach's order (``coach.suggestions(public=
    True)``; in the end-game each of its best few carries ``.win``, the chance to win
    the race), or the immediate EV's (``race``: the ``RaceOdds`` for it, ``seed`` its
    simulation's; the coach values finish cards with it too). The hand is private
    (RULES 1.8), so a finish card of every colour is valued as if still held, from
    what the table can see, and the best ``coach.FINISH_ADVICE`` are listed."""
    if TABLE_POLICY == "coach":
        return coach.suggestions(game, leg=leg, public=True, race=race)
    if race is None:
        race = race_odds(_position(game), seed=seed, samples=1000, leg=leg)
    out = [av for av in action_values(game, race=race, seed=seed, leg=leg)
           if av.kind != "finish"]
    out += finish_values(game, race, game.edition.racing)[:coach.FINISH_ADVICE]
    out.sort(key=lambda a: (-a.ev, a.action))
    return out


def ev_choose(game, names=None):
    """The ``ev`` policy: the legal action with the best immediate expected value
    (``camelup.odds.actions.action_values``, through ``league.ranked_actions``: the
    coach's model of this player reads the same list). Returns ``(text, value)`` like
    ``choose``."""
    try:
        ranked = league.ranked_actions(game)
    except (ImportError, ValueError, TypeError, KeyError):
        ranked = []
    for av in ranked:
        if av.kind == "pyramid":
            if game.pyramid_tickets_left > 0:
                return ("pyramid", av.ev)
            continue
        if not game.is_legal(av.action):
            continue
        if av.kind == "partner":
            seat = int(av.action.split()[1])
            return ("partner %s" % (names[seat] if names else seat + 1), av.ev)
        return (av.action, av.ev)
    return _own_choice(game)


def _own_choice(game):
    try:
        # kept by position (league.cached_leg_odds): every seat's quick bot, and a game
        # played again from its journal or its seed, asks about the same positions
        leg = league.cached_leg_odds(_position(game))
    except (ValueError, TypeError, KeyError):
        return _fallback(game)
    candidates = []
    if game.pyramid_tickets_left > 0:
        candidates.append(("pyramid", float(PYRAMID_TICKET_REWARD)))
    for colour in game.edition.racing:
        left = game.leg_tickets_left(colour)
        if not left:
            continue
        p1 = leg.p_first(colour)
        p2 = leg.p_second(colour)
        candidates.append(("leg %s" % colour, left[0] * p1 + p2 - (1.0 - p1 - p2)))
    front = max(s for s in game.stacks)
    if front >= 17 - FINISH_HORIZON:
        me = game.turn
        hand = game.finish_cards_in_hand(me)
        ranking = game.ranking()
        for pile, colour, p in (("win", ranking[0], leg.p_first(ranking[0])),
                                ("lose", ranking[-1], leg.p_last(ranking[-1]))):
            if colour in hand:
                ahead = len(game.pile("winner" if pile == "win" else "loser"))
                value = (5.0 * p - (1.0 - p)) / (1 + ahead)
                candidates.append(("%s %s" % (pile, colour), value))
    best = None
    for text, value in candidates:
        if best is None or value > best[1] + 1e-9:
            best = (text, value)
    if best is None:
        return _fallback(game)
    return best


def _fallback(game):
    leader = game.ranking()[0]
    left = game.leg_tickets_left(leader)
    if left and (left[0] >= 3 or game.pyramid_tickets_left == 0):
        return ("leg %s" % leader, float(left[0]))
    if game.pyramid_tickets_left > 0:
        return ("pyramid", float(PYRAMID_TICKET_REWARD))
    for colour in game.edition.racing:
        if game.leg_tickets_left(colour):
            return ("leg %s" % colour, 0.0)
    raise ValueError("no action left for the bot")  # the rules always leave one


def value_for_unknown(seed, count):
    """A die face 1-3 for a bot seat's die when the virtual pyramid reported ``?`` (no
    value buttons): no die lies on a table there, so this value is its face,
    deterministic in ``seed`` and the ``count`` of events. Never for a real pyramid, whose
    die shows its face on the table: a player keys it (``Table.drive``)."""
    return 1 + XorShift32(seed * 7919 + count).below(3)


# -- tournament policies: (game, rng) -> table command ------------------------------


def random_policy(game, rng):
    """A uniformly random legal action: a pyramid ticket half of the time (when one is
    left), else any other legal action (``camelup.randomplay.random_action``)."""
    return league.random_command(game, rng)


def greedy_policy(game, rng):
    """The top leg ticket of the camel leading now, else a pyramid ticket, else the
    top leg ticket of the best placed camel that has one left."""
    return league.choice("greedy", game)


def ev_policy(game, rng):
    """The ``ev`` bot (``ev_choose``): best immediate expected value."""
    return ev_choose(game)[0]


def coach_policy(game, rng):
    """The coach (``camelhost.coach.choose``): plays to win the race."""
    return coach.choose(game)[0]


#: Policy name -> function ``(game, rng) -> command`` (``pyramid`` for a pyramid
#: ticket, else an action text ``Game.push`` takes; partners by 1-based seat).
POLICIES = {"random": random_policy, "greedy": greedy_policy, "ev": ev_policy}
for _style in league.STYLES:
    if _style not in POLICIES:
        POLICIES[_style] = league.policy(_style)
POLICIES["coach"] = coach_policy

#: One sentence a policy, for ``pyramid tournament --help`` (``league.described()`` gives
#: it as shown).
DESCRIPTIONS = dict(league.DESCRIPTIONS)
DESCRIPTIONS["coach"] = N_("plays to win the race: the others' replies, its own model of "
                           "each player's style, the last leg played out")
