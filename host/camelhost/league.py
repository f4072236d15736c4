"""The league: the playing styles a bot can have, and what each would do at a turn.

A style is a way a person might play Camel Up, written as a deterministic rule on
the public game (``random`` draws from the seeded ``rng`` it is given):

* ``random``, ``greedy``, ``ev``: the bots the project started with;
* ``cautious``, ``tiles``, ``copycat``, ``partner``: ways of playing that differ from
  ``ev`` where it matters (when finish cards go down, how the spectator tile is used,
  whose bets are followed, partnerships in the second edition's 6-8 player game).

``DESCRIPTIONS`` gives each style in one sentence (``pyramid tournament --help`` and
docs/odds.md print them; ``described()`` fills in its numbers, in the table's language). ``choice(style, game, ranked, race)`` is the action the
style takes (``Game.push`` text; ``pyramid`` for a pyramid ticket); ``policy(style)``
is the tournament's ``(game, rng) -> command`` form (partners named from 1).

The coach models the players it meets with the same rules: ``likelihoods(game,
action)`` is the chance of an observed action under each style, and
``style_posterior`` updates a prior over the league with the moves each player made
in this race (``camelhost.coach`` reads it). Only public facts are read: who took
what, on which pile a finish card went and when, never a finish card's colour.
"""

from collections import OrderedDict

from camelup.actions import PARTNER, PYRAMID
from camelup.editions import TRACK
from camelup.odds import leg_odds
from camelup.odds.actions import action_values
from camelup.odds.game import position_from_game
from camelup.odds.race import leg_with_end, race_odds
from camelup.randomplay import random_action

from camelhost.i18n import N_, _, percent

#: Every style a tournament can seat besides ``coach``, in the order the help lists them.
STYLES = ("random", "greedy", "ev", "cautious", "tiles", "copycat", "partner")

#: One sentence a style: what a person playing it does (English, its numbers as
#: placeholders: ``described()`` gives it as shown).
DESCRIPTIONS = {
    "random": N_("any legal action at random, a pyramid ticket half of the time"),
    "greedy": N_("the leading camel's top leg ticket, else a pyramid ticket"),
    "ev": N_("the action worth the most coins now, finish cards from the first leg on"),
    "cautious": N_("like ev, but a leg ticket only on a camel likely to pay (first or second "
                   "at least half of the time) and a finish card only once a camel is within "
                   "%(spaces)d spaces of the line, on a camel with at least a %(odds)s chance "
                   "to win the race (winner pile) or to come last (loser pile)"),
    "tiles": N_("its spectator tile first: placed where the camels land most and moved when "
                "a space is worth half a coin more, else like ev"),
    "copycat": N_("follows the richest other player: their latest leg ticket's colour, and a "
                  "finish card on a pile where they have more cards than it; else like ev"),
    "partner": N_("second edition, 6-8 players: a partnership at once with the player whose "
                  "tickets are worth most to copy; else (and at smaller tables) like ev"),
}

#: ``cautious`` lays a finish card only once the leading camel is this close to the
#: finish line (spaces) and that camel wins (loses) the race with at least
#: ``CAUTIOUS_ODDS``; it takes a leg ticket only on a camel first or second with at
#: least ``CAUTIOUS_LEG``.
CAUTIOUS_HORIZON = 5
CAUTIOUS_ODDS = 0.5
CAUTIOUS_LEG = 0.5
#: ``tiles`` moves its tile when the new space is worth this much more (coins).
TILE_MOVE_GAIN = 0.5


def described(text):
    """A policy's sentence (a value of ``DESCRIPTIONS`` or ``table.bots.DESCRIPTIONS``)
    in the table's language, with the numbers it cites taken from the constants above
    (``CAUTIOUS_HORIZON`` spaces, ``CAUTIOUS_ODDS`` as a percentage, ``i18n.percent``)."""
    return _(text) % {"spaces": CAUTIOUS_HORIZON, "odds": percent(CAUTIOUS_ODDS)}

#: Races behind the finish-card values the styles see (seed 1): what the ``ev`` bots
#: have always used (``action_values``' default).
STYLE_RACE_SAMPLES = 1000

#: Leg odds of positions met lately, least recently used first: ``repr(position)`` ->
#: ``LegOdds``. The coach's lookahead weighs every die and face the pyramid may release
#: next, and the one after (a fresh second-edition leg: about 400 positions); the die
#: that comes out is one of them, so its position's whole tree is here for the next
#: moves of the leg when the cache holds a few legs' worth (about 9 KB an entry: some
#: 18 MB when full).
_LEGS = OrderedDict()
_LEGS_SIZE = 2048


def cached_leg_odds(position):
    """``leg_odds(position)`` kept in ``_LEGS`` (the last ``_LEGS_SIZE`` positions used,
    the least recently used dropped first): between two dice every player's bot asks
    about the same position, and the coach's lookahead about the positions after the
    next dice. The result is shared: read it, don't change it."""
    key = repr(position)
    hit = _LEGS.get(key)
    if hit is None:
        if len(_LEGS) >= _LEGS_SIZE:
            _LEGS.popitem(last=False)
        hit = leg_odds(position)
        _LEGS[key] = hit
    else:
        _LEGS.move_to_end(key)
    return hit


#: Race odds met lately, least recently used first: ``(repr(position), seed,
#: samples)`` -> ``RaceOdds``. The opponent model asks again about the positions of the
#: race's earlier moves, the coach about this one with two sample sizes: more than
#: ``race_odds``' own few.
_RACES = OrderedDict()
_RACES_SIZE = 256


def cached_race_odds(position, seed=1, samples=1000, leg=None):
    """``race_odds(position, seed=seed, samples=samples, leg=leg)`` kept in ``_RACES``
    (the last ``_RACES_SIZE`` used): the same numbers, computed once. ``position``: a
    ``Position``; ``leg``: its ``LegOdds`` if known. The result is shared: read it,
    don't change it."""
    key = (repr(position), seed, samples)
    hit = _RACES.get(key)
    if hit is None:
        if len(_RACES) >= _RACES_SIZE:
            _RACES.popitem(last=False)
        hit = race_odds(position, seed=seed, samples=samples, leg=leg)
        _RACES[key] = hit
    else:
        _RACES.move_to_end(key)
    return hit


def cached_leg_and_race(position, seed=1, samples=1000):
    """``(cached_leg_odds(position), cached_race_odds(position, seed, samples, leg))``,
    the same numbers. When neither is kept yet (and the race goes on), both come from
    one enumeration of the leg (``camelup.odds.race.leg_with_end``): the race odds'
    exact leg end, whose boards ranked give the leg odds, instead of enumerating the
    leg twice. The results are shared: read them, don't change them."""
    key = repr(position)
    if (key not in _LEGS and (key, seed, samples) not in _RACES
            and not position.over):
        leg, ends = leg_with_end(position)
        if len(_LEGS) >= _LEGS_SIZE:
            _LEGS.popitem(last=False)
        _LEGS[key] = leg
        if len(_RACES) >= _RACES_SIZE:
            _RACES.popitem(last=False)
        race = _RACES[(key, seed, samples)] = race_odds(position, seed=seed, samples=samples,
                                                         leg=leg, ends=ends)
        return leg, race
    leg = cached_leg_odds(position)
    return leg, cached_race_odds(position, seed=seed, samples=samples, leg=leg)


def style_race(game):
    """The ``RaceOdds`` every style values finish cards with (``STYLE_RACE_SAMPLES``
    seeded races, ``cached_race_odds``)."""
    return cached_leg_and_race(position_from_game(game), 1, STYLE_RACE_SAMPLES)[1]


#: ``ranked_actions`` of positions met lately, least recently used first:
#: ``(Game.position(), the race odds' winner and loser figures)`` -> the list. A seat's
#: bot ranks its actions, and the coach's model of that player ranks them again when it
#: weighs the move (``likelihoods``): one list serves both.
_RANKED = OrderedDict()
_RANKED_SIZE = 64


def _race_key(race):
    """What of a ``RaceOdds`` the action values read: its winner and loser odds."""
    if race is None:
        return None
    return (tuple(sorted(race.winner.items())), tuple(sorted(race.loser.items())))


def ranked_actions(game, race=None):
    """``action_values`` of the seat to act (best first) on the cached leg odds and,
    for finish cards, ``race`` (default ``style_race``, computed only if a finish card
    is held). Kept in ``_RANKED`` by the position and the race odds' figures (the last
    ``_RANKED_SIZE`` used): the list is shared, read it, don't change it."""
    position = position_from_game(game)
    if race is None and game.finish_cards_in_hand(game.turn):
        leg, race = cached_leg_and_race(position, 1, STYLE_RACE_SAMPLES)
    else:
        leg = cached_leg_odds(position)
    key = (game.position(), _race_key(race))
    hit = _RANKED.get(key)
    if hit is None:
        if len(_RANKED) >= _RANKED_SIZE:
            _RANKED.popitem(last=False)
        hit = _RANKED[key] = action_values(game, race=race, leg=leg)
    else:
        _RANKED.move_to_end(key)
    return hit


def _first_legal(game, ranked, keep=None):
    for av in ranked:
        if keep is not None and not keep(av):
            continue
        if av.kind == "pyramid":
            if game.pyramid_tickets_left > 0:
                return "pyramid"
            continue
        if game.is_legal(av.action):
            return av.action
    return None


def _greedy(game):
    ranking = game.ranking()
    if game.leg_tickets_left(ranking[0]):
        return "leg %s" % ranking[0]
    if game.pyramid_tickets_left > 0:
        return "pyramid"
    for colour in ranking:
        if game.leg_tickets_left(colour):
            return "leg %s" % colour
    raise ValueError("no action left for the greedy bot")


def front(game):
    """The space (1-16) of the racing camel in the lead (crazy camels left out)."""
    leader = game.ranking()[0]
    for space in game.stacks:
        if leader in game.stacks[space]:
            return space
    raise ValueError(_("the leading camel %s is not on the track") % leader)


def late(game):
    """True once the leading camel is within ``CAUTIOUS_HORIZON`` spaces of the line."""
    return front(game) > TRACK - CAUTIOUS_HORIZON


def _cautious(game, ranked, race):
    leg = cached_leg_odds(position_from_game(game))
    near = late(game)

    def keep(av):
        words = av.action.split()
        if av.kind == "finish":
            odds = race.winner if words[1] == "winner" else race.loser
            return near and odds.get(words[2], 0.0) >= CAUTIOUS_ODDS and av.ev > 0
        if av.kind == "leg":
            c = words[1]
            return (leg.first[c] + leg.second[c]) / leg.total >= CAUTIOUS_LEG
        return True
    return _first_legal(game, ranked, keep)


def _tiles(game, ranked):
    have = game.tile_of(game.turn) is not None
    for av in ranked:
        if av.kind == "tile" and game.is_legal(av.action):
            if av.ev > (TILE_MOVE_GAIN if have else 0.0):
                return av.action
            break
    return None


def _richest_other(game):
    me = game.turn
    best = None
    for k in range(1, game.players):
        q = (me + k) % game.players
        if best is None or game.coins[q] > game.coins[best]:
            best = q
    return best


def _copycat(game, ranked):
    q = _richest_other(game)
    held = game.held_tickets(q)
    if held:
        colour = held[-1][0]
        if game.leg_tickets_left(colour):
            return "leg %s" % colour
    me = game.turn
    for pile in ("winner", "loser"):
        cards = game.pile(pile)
        theirs = sum(1 for owner, _c in cards if owner == q)
        mine = sum(1 for owner, _c in cards if owner == me)
        if theirs > mine:
            for av in ranked:
                if av.kind == "finish" and av.action.split()[1] == pile and av.ev > 0:
                    return av.action
    return None


def _partner(game, ranked):
    for av in ranked:
        if av.kind == "partner" and game.is_legal(av.action):
            return av.action
    return None


def choice(style, game, ranked=None, race=None):
    """The action ``style`` (not ``random``: its choice is a draw) takes in ``game``: a
    ``Game.push`` text (partners by 0-based seat) or ``pyramid`` for a pyramid ticket.
    ``ranked``: ``ranked_actions(game, race)`` if already known; ``race``: the
    ``RaceOdds`` the finish cards are valued with (default ``style_race``). Raises
    ``ValueError`` for an unknown style or a race that is over."""
    if game.is_over:
        raise ValueError(_("the race is over: no action for a %s player") % style)
    if style == "greedy":
        return _greedy(game)
    if style not in STYLES or style == "random":
        raise ValueError(_("no deterministic choice for style %(style)r (one of %(known)s)")
                         % {"style": style,
                            "known": ", ".join(s for s in STYLES if s != "random")})
    if ranked is None:
        if race is None and game.finish_cards_in_hand(game.turn):
            race = style_race(game)
        ranked = ranked_actions(game, race)
    picked = None
    if style == "cautious":
        picked = _cautious(game, ranked, race)
    elif style == "tiles":
        picked = _tiles(game, ranked)
    elif style == "copycat":
        picked = _copycat(game, ranked)
    elif style == "partner":
        picked = _partner(game, ranked)
    if picked is None:
        picked = _first_legal(game, ranked)
    if picked is None:
        picked = _greedy(game)
    return picked


def _command(text):
    """A ``Game.push`` text as a tournament command (partners named from 1)."""
    if text.startswith("partner "):
        return "partner %d" % (int(text.split()[1]) + 1)
    return text


def random_command(game, rng):
    """The ``random`` style's draw (``camelup.randomplay.random_action``) as a command."""
    action = random_action(game, rng)
    if action.kind == PARTNER:
        return "partner %d" % (action.player + 1)
    return "pyramid" if action.kind == PYRAMID else str(action)


def policy(style):
    """The tournament policy ``(game, rng) -> command`` of ``style`` (``pyramid`` for a
    pyramid ticket, partners by 1-based seat). Raises ``ValueError`` for an unknown
    style."""
    if style == "random":
        return random_command
    if style not in STYLES:
        raise ValueError(_("unknown style %(style)r (one of %(known)s)")
                         % {"style": style, "known": ", ".join(STYLES)})

    def play(game, rng):
        return _command(choice(style, game))
    play.__doc__ = "The %s style: %s." % (style, described(DESCRIPTIONS[style]))
    return play


# -- the opponent model: which style is this player? --------------------------------

#: The share of a deterministic style's moves that are something else (a person's
#: slip, a move the rule doesn't describe): no style is ruled out by one move.
SLIP = 0.15


def action_key(action):
    """What of an action the model compares (all public): ``pyramid``, ``finish
    winner`` / ``finish loser`` (the colour is hidden, RULES 1.8) or the action's
    text (``leg red``, ``tile 7 +``, ``partner 2``). ``action``: an ``Action`` or a
    ``Game.push`` text."""
    text = str(action)
    if text.startswith("pyramid"):
        return "pyramid"
    if text.startswith("finish "):
        return " ".join(text.split()[:2])
    return text


def _keys(game):
    """{key: how many legal actions share it} for the seat to act, pyramid left out."""
    out = {}
    for a in game.legal_actions():
        if a.kind == PYRAMID:
            continue
        k = action_key(a)
        out[k] = out.get(k, 0) + 1
    return out


#: ``(Game.position(), action key)`` -> ``{style: likelihood}``: each past move is
#: weighed once, whoever asks later in the race.
_SEEN = {}
_SEEN_SIZE = 4096


def likelihoods(game, action):
    """``{style: P(action | style)}`` for every style of ``STYLES``: the chance that a
    player of that style, to act in ``game``, takes ``action`` (an ``Action`` or its
    text; compared by ``action_key``, so a finish card's colour is never read). A
    deterministic style takes its ``choice`` with ``1 - SLIP`` and anything else
    with ``SLIP`` shared evenly; ``random`` as ``random_action`` draws (a pyramid
    ticket half of the time). Cached per position and key."""
    key = action_key(action)
    cache_key = (game.position(), key)
    hit = _SEEN.get(cache_key)
    if hit is not None:
        return hit
    keys = _keys(game)
    pyramid = game.pyramid_tickets_left > 0
    options = len(keys) + (1 if pyramid else 0)
    out = {}
    if key == "pyramid":
        out["random"] = 1.0 if not keys else 0.5
    else:
        share = keys.get(key, 0) / float(max(1, sum(keys.values())))
        out["random"] = share if not pyramid else 0.5 * share
    race = style_race(game) if game.finish_cards_in_hand(game.turn) else None
    ranked = ranked_actions(game, race)
    for style in STYLES:
        if style == "random":
            continue
        if action_key(choice(style, game, ranked, race)) == key:
            out[style] = 1.0 - SLIP if options > 1 else 1.0
        else:
            out[style] = SLIP / max(1, options - 1)
    if len(_SEEN) >= _SEEN_SIZE:
        _SEEN.clear()
    _SEEN[cache_key] = out
    return out


def prior():
    """The model's belief before a player's first move: every style of the league
    alike, so it is right on average over the league."""
    return dict((s, 1.0 / len(STYLES)) for s in STYLES)


def update(belief, likes):
    """Bayes' rule: ``belief`` (``{style: probability}``) times ``likes`` (``{style:
    likelihood}``), normalised. A move no style explains leaves the belief as it was."""
    out = {}
    total = 0.0
    for s in belief:
        out[s] = belief[s] * likes.get(s, 0.0)
        total += out[s]
    if total <= 0.0:
        return dict(belief)
    for s in out:
        out[s] /= total
    return out


#: Every seat's belief after a history: ``(Game.position(), the history's action
#: texts)`` -> ``{seat: {style: probability}}``, the last ``_BELIEFS_SIZE`` used. The
#: next move's posterior starts from the last one and weighs only the moves since.
_BELIEFS = OrderedDict()
_BELIEFS_SIZE = 64


def _history_key(game, actions):
    return (game.position(), actions)


def style_posterior(game, seats=None):
    """``{seat: {style: probability}}``: each seat's style as its moves in this race
    tell, from ``prior()`` through ``update`` with each of its moves in the undo
    history (``likelihoods``; public facts only). ``seats``: the seats to model
    (default every seat). A typed-in position without history gives the prior. The
    beliefs after a history are kept (``_BELIEFS``): a later call weighs only the
    moves since, with the same numbers as weighing them all."""
    if seats is None:
        seats = range(game.players)
    actions = tuple(str(a) for a in game.history)
    g = game.copy()
    moves = []
    start = None
    n = len(actions)
    while True:
        hit = _BELIEFS.get(_history_key(g, actions[:n]))
        if hit is not None:
            _BELIEFS.move_to_end(_history_key(g, actions[:n]))
            start = hit
            break
        if not n:
            break
        a = g.pop()
        n -= 1
        moves.append((g.copy(history=False), a))
    if start is None:
        beliefs = dict((s, prior()) for s in range(game.players))
    else:
        beliefs = dict((s, dict(start[s])) for s in start)
    for before, a in reversed(moves):
        beliefs[before.turn] = update(beliefs[before.turn], likelihoods(before, a))
    if moves:
        if len(_BELIEFS) >= _BELIEFS_SIZE:
            _BELIEFS.popitem(last=False)
        _BELIEFS[_history_key(game, actions)] = dict((s, dict(beliefs[s])) for s in beliefs)
    return dict((s, beliefs[s]) for s in seats)
