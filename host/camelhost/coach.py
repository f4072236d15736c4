"""The coach: a bot policy that plays to win the race, not to grab the most coins now.

``choose(game)`` -> ``(action text, expected coins)`` for the seat to act. The
immediate value of every legal action comes from ``camelup.odds.actions.action_values``
(exact leg odds, tile landings, race odds for finish cards; RULES 1.5-1.13, 3.8). The
winner is whoever ends with the most coins (RULES 1.13), so the coach scores each
candidate against the other players:

* **Lookahead over the next players' replies, a whole round.** After a candidate,
  each other player in turn order, until my next turn, is assumed to take their best
  immediate action (what the ``ev`` bots do): the best leg ticket left (taking it off
  its stack for the players after them; a certain coin from one before a pyramid
  ticket's), a pyramid ticket, their best tile or finish card. Their finish cards are
  valued on the race odds the ``ev`` bots use, and their hands are read from their
  play (``inferred_cards``): a card laid face down is taken to be the colour that was
  that player's best card on that pile when they laid it, so it is not in their hand
  any more (none left once they have laid one of every colour). A pyramid ticket
  reveals a die, mine or one of theirs: every die and face is weighed as the pyramid
  releases it (RULES 1.4, 3.4), and the players after it reply on the exact leg odds
  after that die. So what a reveal gives away counts whoever makes it: a waiting move
  of mine that leaves the next player nothing better than a pyramid ticket hands the
  players after them the die. Score: ``my EV - REPLY_WEIGHT * (their gains, the next
  player's first, each later one times REPLY_DECAY)``.
* **The players it meets, modelled by style** (``opponent_styles``): each other
  player's moves in this race are weighed under every style of the league
  (``camelhost.league``: ``random``, ``greedy``, ``ev``, ``cautious``, ``tiles``,
  ``copycat``, ``partner``), from a prior even over the league, by Bayes' rule
  (``league.style_posterior``; public facts only: a finish card's pile and moment,
  never its colour). In the replies a player's best finish card counts at the chance
  that their style lays one now (``finish_intent``: never for ``greedy``, only late
  for ``cautious``); a card laid by a player who may be ``random`` is read as any
  colour by that chance (``card_guesses``, ``_read_piles``). The table's advice reads
  the same model for every seat.
* **Tiles valued over the rest of the leg.** Besides its expected landings, a tile
  changes the leg: the best few candidates are valued with the exact leg odds with the
  tile placed (my leg tickets held count for me, the others' against me), and the
  replies are played on those odds.
* **Finish cards timed by the race odds and the piles as read.** The race odds are a
  larger seeded run (``FINISH_SAMPLES`` races, cached per die); a card is worth what
  its place pays when its camel wins the pile, the cards before it of its colour
  being those the others' play reads as that colour (``_read_piles``,
  ``inferred_cards``; at ``CROWDED_SEATS`` or more, ``pile_readings``: a share of each
  card as a player who reads the piles would have laid it, so that a table of coaches
  does not take every card for the favourite's and herd onto the next colour), and -1
  otherwise. Waiting risks that a later player takes that
  place: their finish cards are part of the replies, with my card on the pile or not.
  But a card kept is still worth laying in a later leg, once its camel is the
  pile's likely camel: a card laid now scores its value over the rest of the race,
  its value now less ``hold_value`` (what it is expected to pay laid late, right
  with ``HOLD_ACCURACY``, behind the cards of its colour the others lay before then:
  those still holding it, by their style's chance to lay a card now, ``finish_intent``;
  nothing in a leg that surely ends the race). So a long shot waits, and against
  players who lay late the coach waits too; the advice shows both values.
* **Partnerships chosen by value** (6-8 players, RULES 3.8): what I copy from the
  partner, minus what the partner copies from me.
* **The end-game played out to win.** In a leg that likely ends the race
  (``race_ends_this_leg``), the best few candidates by the score above are ranked
  again by my chance to win the race (``win_chances``): each is played out a few
  hundred times through the rules engine on the same dice, the others' hidden finish
  cards as inferred from their play (``card_guesses``: who played which pile and when,
  never the colour), the next players' best immediate replies,
  then the dice to the finish; the engine scores the legs and piles (RULES 1.9-1.13),
  so what matters is coming out ahead of everyone, not the coins alone.

Deterministic: the same game gives the same choice (play-outs are seeded by the public
position). The move-time distribution is ``tests/bench/bench_coach.py``'s (``make
bench``); leg and race odds met in the lookahead are kept for the next moves of the
leg (``camelhost.league.cached_leg_odds``, ``cached_race_odds``), the opponent model
weighs only the moves since its last answer, the choice screens its finish cards on
the replies' race odds (``_scored``), the positions after each die and face are made
once a position (``_reveals_of``), the end-game's replies are worked out once a
position and its play-outs play on a throwaway copy without undo snapshots
(``win_chances``, ``Game.play``), each path of pushes (the actions since, dice
included) played once whatever the guessed piles and kept with its best leg or pyramid
ticket (``_pushed``; a reply's finish cards kept by the hand and the others' cards on
each pile, ``_reply``), the guesses made
once a play-out seed for every candidate and the dice run to the finish without a
check or a report a die (``Game.release_to_end``), and the choice leaves out a tile valued with its effect
on the leg or its own pyramid ticket when a bound of their score, without the leg
odds after a die, is below a score already found (``_score_candidates``' ``prune``;
the advice and ``evaluate`` score every candidate in full): those two are scored after
the rest, their bounds count each player after a die at their least
(``_least_after``), and their round of replies is valued a die at a time, stopping
once it can't come first (``LAZY_REPLIES``). The scoring runs with Python's cyclic
garbage collector paused (``_collector_paused``): it makes no cycles, and a full
collection over the odds caches cost a slow move up to a quarter of a second.
"""

import functools
import gc
import zlib

from camelup.actions import FINISH
from camelup.editions import GREY, INKS, PYRAMID_TICKET_REWARD
from camelup.notation import position_text
from camelup.odds import move
from camelup.odds.actions import (
    action_values,
    finish_card_ev,
    finish_values,
    ladder,
    leg_ticket_ev,
    partnership_ev,
)
from camelup.odds.game import position_from_game
from camelup.randomplay import random_release
from camelup.rng import XorShift32

from camelhost import league
from camelhost.league import cached_leg_and_race, cached_leg_odds, cached_race_odds

#: Weight of the next player's best reply in a candidate's score.
REPLY_WEIGHT = 0.6
#: What a pyramid ticket pays, as a float (``camelup.editions.PYRAMID_TICKET_REWARD``,
#: RULES 1.10): what any player can take instead of another action while tickets are
#: left, in every reply and bound here.
PYRAMID_COIN = float(PYRAMID_TICKET_REWARD)

#: Each later player's reply counts this much less than the one before.
REPLY_DECAY = 0.8
#: Dice weighed face by face in a round of replies: a player after me who takes a
#: pyramid ticket reveals a die, and the players after them reply on the odds after it
#: (a further pyramid ticket in the same round: on the odds before its die).
REPLY_REVEALS = 1
#: Races simulated for the finish-card odds (about +/-2 points at 95 %).
FINISH_SAMPLES = 2000
#: Tile candidates valued with their effect on the leg (the best by landings).
TILE_CANDIDATES = 3
#: Candidates whose immediate EV is this far below the best get the cheap lookahead
#: only (the others' replies on the leg as it is), never the die-by-die or
#: tile-placed one: they can't climb that far.
PRUNE = 2.0
#: What a player can expect from one action at the start of a fresh leg (about a
#: 5 ticket of a camel leading a third of the time, or a pyramid ticket): the replies
#: after a die of mine that ends the leg.
FRESH_LEG_REPLY = 1.2
#: The end-game: when the race ends during this leg with at least this chance if
#: nobody acts (``race_ends_this_leg``, exact), the best ``ENDGAME_CANDIDATES`` by the
#: score above are ranked again by the coach's chance to win the race, each played out
#: ``ENDGAME_SAMPLES`` times on the same dice (``win_chances``).
ENDGAME_SHARE = 0.5
ENDGAME_CANDIDATES = 5
ENDGAME_SAMPLES = 300  # with 4 players; with more, fewer (a play-out is longer)
#: Play-outs go in rounds of this many per candidate; a candidate more than
#: ``ENDGAME_DROP`` standard errors (paired, the same dice) behind the best after a
#: round plays no more (0: every candidate plays every play-out).
ENDGAME_ROUND = 50
ENDGAME_DROP = 3.0
#: 1: in a play-out every player (me too) keeps playing the best immediate action
#: until the leg ends; 0: only the others' one reply each, then dice only.
ENDGAME_WHOLE_LEG = 0
#: Races behind the others' finish cards in the replies (seed 1): the odds the ``ev``
#: bots value their own cards with (``action_values``' default), so the replies
#: expect the cards they lay.
REPLY_RACE_SAMPLES = 1000
#: 1: the others are modelled by the league's styles as their moves tell
#: (``opponent_styles``); 0: every other player is taken to be an ``ev`` bot.
MODEL_STYLES = 1
#: A ``random`` player's finish card: the chance that one of its moves is a finish card
#: worth something to it (half its moves are pyramid tickets, a few of the rest cards).
RANDOM_FINISH = 0.1
#: A player the model gives less than this chance of playing at random lays their
#: finish cards as their style does (the colour read from their play, exactly).
NOISE_FLOOR = 0.01

#: A finish card kept is still worth laying later (``hold_value``): a card laid now
#: scores its value less ``HOLD_VALUE`` times what the same card is expected to pay
#: when laid in a later leg, after the cards of its colour the others lay before then.
#: 0: a card kept counts nothing (the coach before issue 31's first stop).
HOLD_VALUE = 1.0
#: A finish card laid late is right this often (the outside agent of issue 31 laid
#: about 1.1 a race, late, 72 % right).
HOLD_ACCURACY = 0.75

#: From this many seats on, the others' finish cards are read as pile readers lay them
#: too (``pile_readings``, ``READER_SHARE``). A crowded pile is where the reading
#: matters: at eight seats the coaches of ``make demo SEATS=8`` laid five cards in a
#: row on one loser-pile colour, each reading the cards before as the favourite's
#: (docs/odds.md, "Eight coaches on one colour"). Below it the reading is the ``ev``
#: bots' alone, as the league's 4- and 6-seat tables are being played (their choices
#: stay the same to the byte).
CROWDED_SEATS = 7
#: At ``CROWDED_SEATS`` or more, the share of each of the others' cards read as a pile
#: reader's (a player who counts the cards before theirs as read, as the coach does:
#: the colour whose place is worth most) rather than an ``ev`` bot's (the cards
#: before theirs counted by number only, so mostly the favourite). 0: the ``ev``
#: reading alone, as at smaller tables.
READER_SHARE = 0.5

#: 1: the choice (``prune``) scores its pyramid ticket and the tiles valued with their
#: effect on the leg after every other candidate, so their bounds meet the best score
#: of the rest (0: in the order of their value now, as before issue 31's fifth stop).
PRUNE_LAST = 1
#: 1: the choice values the dice of a round of replies one at a time and stops once a
#: candidate can't come first (``_cap``, ``_over_reveals``' ``cap``); 0: every die.
LAZY_REPLIES = 1

#: 1: the choice (``choose``, ``evaluate``) values my finish cards on the replies'
#: ``REPLY_RACE_SAMPLES`` races, as the screen does, and never makes the
#: ``FINISH_SAMPLES`` run outside the end-game (issue 31's seventh stop: a finish card
#: within the screen's margin made that run at most moves after a die, the larger part
#: of the median move at eight seats); 0: the screen's scores stand only when no card
#: comes within ``_screen_margin`` of the best other action. The table's advice always
#: uses the larger run (its numbers are read).
FINISH_ON_REPLIES = 1

#: Finish cards in the public advice (the best by the score above).
FINISH_ADVICE = 2


class _Table:
    """What the replies depend on: leg odds, ticket stacks, pyramid tickets left, the
    best tile each player could place and each player's best finish card."""

    def __init__(self, game, leg, tile_best, finish_best):
        self.game = game
        self.leg = leg
        self.stacks = {}
        for c in game.edition.racing:
            self.stacks[c] = list(game.leg_tickets_left(c))
        self.pyramid_left = game.pyramid_tickets_left
        self.tile_best = tile_best
        self.finish_best = finish_best


def _best_option(stacks, p1, p2, pyramid_left, tile_best, finish):
    """A player's best immediate action as the ``ev`` bots choose it: ``(EV, colour of
    the leg ticket or None, True for a pyramid ticket)``. ``stacks``: colour -> ticket
    values left (top first); ``p1`` / ``p2``: colour -> chance to lead / be second in
    the leg; ``tile_best`` / ``finish``: that player's best tile and finish card."""
    best = max(tile_best, finish)
    pyramid = False
    if pyramid_left > 0 and best < PYRAMID_COIN:
        best = PYRAMID_COIN
        pyramid = True
    choice = None
    for c in stacks:
        left = stacks[c]
        if left:
            ev = leg_ticket_ev(left[0], p1[c], p2[c])
            if ev > best or (pyramid and ev == best):  # a certain coin: no die shown
                best = ev
                choice = c
                pyramid = False
    return best, choice, pyramid


def expected_reply(game):
    """What the coach expects the seat to act to do when it replies in a round (the
    model of ``_best_option``): ``"leg COLOUR"``, ``"pyramid"``, ``"tile"`` or
    ``"finish"``. Their finish cards are valued on the race odds the ``ev`` bots use,
    their hand as inferred from the cards they laid (``inferred_cards``); their best
    tile is valued on its landings (``action_values``)."""
    position = position_from_game(game)
    leg, race = cached_leg_and_race(position, 1, REPLY_RACE_SAMPLES)
    tiles = [av.ev for av in action_values(game, race=race, leg=leg) if av.kind == "tile"]
    tile = tiles[0] if tiles else 0.0
    finish = _finish_best(game, race, public=True).get(game.turn, 0.0)
    stacks = {c: list(game.leg_tickets_left(c)) for c in game.edition.racing}
    p1, p2 = _leg_chances(leg)
    _best, choice, pyramid = _best_option(stacks, p1, p2, game.pyramid_tickets_left, tile,
                                          finish)
    if choice is not None:
        return "leg " + choice
    if pyramid:
        return "pyramid"
    return "tile" if tile >= finish else "finish"


def _leg_chances(leg):
    """(colour -> chance to lead the leg, colour -> chance to be second) of ``leg``."""
    p1 = {}
    p2 = {}
    for c in leg.first:
        p1[c] = leg.first[c] / leg.total
        p2[c] = leg.second[c] / leg.total
    return p1, p2


def _over_reveals(position, value_of, least=None, cap=None):
    """Expected ``value_of(position after the die)`` over the next die the pyramid
    releases: each die inside equally likely, each face equally likely (the grey die:
    1-3 in either ink; RULES 1.4, 3.4, 3.5). A die that takes a camel over the finish
    line ends the race (RULES 1.13): it counts 0, nobody gains any more. Faces giving
    the same position are valued once. The positions after each die and face are
    ``_reveals_of(position)``'s, made once a position.

    ``cap`` (with ``least``, a lower bound of ``value_of`` on every face): after each
    die, once the dice valued so far and ``least`` on the faces of those left (that
    keep the race running) already exceed ``cap``, that lower bound is returned and the
    rest is not valued (the choice drops such a candidate: ``_score_candidates``);
    otherwise the same sum as without ``cap``, to the last bit."""
    reveals = _reveals_of(position)
    if cap is not None:
        floors = []
        ahead = 0.0
        for faces, _boards in reveals:
            alive = 0
            for key in faces:
                if key is not None:
                    alive += 1
            floors.append(least * alive / len(faces))
            ahead += floors[-1]
    total = 0.0
    n = len(position.dice)
    i = 0
    for faces, boards in reveals:
        part = 0.0
        seen = {}
        for key in faces:
            if key is None:  # crossed the line
                continue
            if key not in seen:
                seen[key] = value_of(boards[key])
            part += seen[key]
        total += part / len(faces)
        if cap is not None:
            ahead -= floors[i]
            i += 1
            if i < len(floors) and (total + ahead) / n > cap + CAP_MARGIN:
                return (total + ahead) / n  # above cap already: no need to know more
    return total / n


#: What a lower bound must pass ``cap`` by (``_over_reveals``) to stand for the sum it
#: bounds: far above the rounding of a few dozen additions.
CAP_MARGIN = 1e-9


#: The positions after each die and face of positions met lately (``_reveals_of``):
#: ``repr(position)`` -> its list; the round of replies asks about the same position
#: once a candidate. Those used since the last ``_REVEALS_SIZE`` new ones are kept
#: (about 19 KB an entry at a second-edition leg's start, less later: some 20 MB at
#: most, beside ``league``'s leg odds).
_REVEALS = {}
_REVEALS_OLD = {}
_REVEALS_SIZE = 512


def _reveals_of(position):
    """The next die's outcomes from ``position``, one entry per die inside in
    ``position.dice`` order: ``(faces, boards)``, ``faces`` one key a face (1, 2, 3; the
    grey die's each in black, then in white), ``None`` for a face that takes a camel
    over the finish line, ``boards`` key -> the position after it (``_after_die``;
    the key is its ``repr``: both inks often move the same crazy camel, RULES 3.5).
    Kept in two generations of ``_REVEALS_SIZE``; the positions are shared: read
    them, don't change them."""
    global _REVEALS, _REVEALS_OLD
    key = repr(position)
    hit = _REVEALS.get(key)
    if hit is None:
        hit = _REVEALS_OLD.get(key)
        if hit is None:
            hit = []
            for die in position.dice:
                faces = []
                boards = {}
                for v in (1, 2, 3):
                    for ink in (INKS if die == GREY else (None,)):
                        after, crossed = _after_die(position, die, v, ink)
                        if crossed:
                            faces.append(None)
                            continue
                        face = repr(after)
                        faces.append(face)
                        boards[face] = after
                hit.append((faces, boards))
        if len(_REVEALS) >= _REVEALS_SIZE:
            _REVEALS_OLD = _REVEALS
            _REVEALS = {}
        _REVEALS[key] = hit
    return hit


def _replies(table, seat, p, turn, position, leg, stacks, pyramid_left, tile_best,
             finish_best, reveals, floor=False, cap=None):
    """The weighted gains of the players after ``p`` until the turn comes back to
    ``seat`` (``turn`` of them have played already): each takes their best immediate
    action (``_best_option``) and a leg ticket leaves the next one of its stack to the
    players after. A pyramid ticket releases a die: while ``reveals`` is above 0 every
    die and face is weighed (``_over_reveals``) and the later players reply on the exact
    leg odds after it; a die that ends the leg leaves the rest a fresh leg
    (``FRESH_LEG_REPLY`` each). The ``k``-th reply weighs ``REPLY_DECAY ** k``.
    ``floor``: the replies after a die that would be weighed face by face count their
    least (``_least_after``; ``_replies_floor``). ``cap``: that die's faces are valued
    one die at a time and the valuing stops, returning a lower bound above ``cap``,
    once the dice valued and the others' least (``_least_after``) pass it
    (``_over_reveals``); below it, the same sum as without ``cap``."""
    game = table.game
    total = 0.0
    weight = REPLY_DECAY ** turn
    p1, p2 = _leg_chances(leg)
    while True:
        p = (p + 1) % game.players
        if p == seat:
            return total
        best, choice, pyramid = _best_option(stacks, p1, p2, pyramid_left, tile_best,
                                             finish_best.get(p, 0.0))
        total += weight * best
        weight *= REPLY_DECAY
        turn += 1
        if choice is not None:
            stacks = dict(stacks)
            stacks[choice] = stacks[choice][1:]
        elif pyramid:
            if pyramid_left <= 1:  # their die ends the leg
                return total + _fresh_replies(game, seat, p, turn)
            pyramid_left -= 1
            if reveals > 0 and (p + 1) % game.players != seat:  # someone replies to it
                if floor:  # the rest after their die: each their least (_least_after)
                    rest = _least_after(game, seat, p, turn, pyramid_left, tile_best,
                                        finish_best)
                    return total + _over_reveals(position, lambda after, r=rest: r)
                def after_die(after, p=p, turn=turn, stacks=stacks, left=pyramid_left):
                    return _replies(table, seat, p, turn, after, cached_leg_odds(after),
                                    stacks, left, tile_best, finish_best, reveals - 1)
                if cap is not None:
                    least = _least_after(game, seat, p, turn, pyramid_left, tile_best,
                                         finish_best)
                    return total + _over_reveals(position, after_die, least, cap - total)
                return total + _over_reveals(position, after_die)


def _least_after(game, seat, p, turn, left, tile_best, finish_best):
    """The least weighted gains of the players after ``p`` up to ``seat`` (``turn`` of
    them have played) once a die has come out with ``left`` pyramid tickets (1 or more)
    still in the pyramid, as ``_replies`` plays them. Each player's best is at least
    their tile, their finish card and, a ticket being left to them, a pyramid ticket's
    coin; the leg ends only with the ``left``-th pyramid ticket after the die, so the
    players from the ``left + 1``-th on may meet a fresh leg instead
    (``FRESH_LEG_REPLY`` each): those count the smaller of the two. Multiply by the
    share of faces that leave the race running (those count 0)."""
    total = 0.0
    weight = REPLY_DECAY ** turn
    k = 0
    while True:
        p = (p + 1) % game.players
        if p == seat:
            return total
        least = max(PYRAMID_COIN, tile_best, finish_best.get(p, 0.0))
        if k >= left:
            least = min(least, FRESH_LEG_REPLY)
        total += weight * least
        weight *= REPLY_DECAY
        k += 1


def _replies_floor(table, seat, position, leg, tile_best):
    """A lower bound of ``_replies_to(table, seat, position, leg, tile_best=tile_best)``
    that needs no leg odds after a die: the replies up to the first pyramid ticket
    whose die would be weighed face by face, exactly as ``_replies`` plays them; the
    replies after that die count their least (``_least_after``: a coin, a tile or a
    finish card each; a die that ends the race counts 0)."""
    return _replies(table, seat, seat, 0, position, leg, table.stacks, table.pyramid_left,
                    tile_best, table.finish_best, REPLY_REVEALS, floor=True)


def _my_die_floor(table, seat, position):
    """A lower bound of ``_replies_to_my_die(table, seat, position)`` without the leg
    odds after my die: on every face that does not end the race (those count 0), each
    later player's best is at least their tile, their finish card and a pyramid
    ticket's coin (one is left after mine), or a fresh leg's reply once the pyramid
    may be empty (``_least_after``)."""
    if table.pyramid_left <= 1:
        return _fresh_replies(table.game, seat, seat, 0)
    rest = _least_after(table.game, seat, seat, 0, table.pyramid_left - 1, table.tile_best,
                        table.finish_best)
    return _over_reveals(position, lambda after: rest)


def _my_die_replies_floor(table, seat, position):
    """A lower bound of ``_replies_to_my_die(table, seat, position)`` that needs the
    leg odds after my die only, not those after a second die: after each die and face
    of mine, the replies up to the first pyramid ticket whose die would be weighed face
    by face, exactly as ``_replies`` plays them, the replies after that die counted at
    their least (``_replies``' ``floor``, ``_least_after``). Tighter than ``_my_die_floor``, and
    dearer: the leg odds after my die are worked out (the full replies need them too)."""
    if table.pyramid_left <= 1:
        return _fresh_replies(table.game, seat, seat, 0)

    def after_die(after):
        return _replies(table, seat, seat, 0, after, cached_leg_odds(after), table.stacks,
                        table.pyramid_left - 1, table.tile_best, table.finish_best,
                        REPLY_REVEALS, floor=True)
    return _over_reveals(position, after_die)


def _fresh_replies(game, seat, p, turn):
    """The weighted gains of the players after ``p`` up to ``seat`` in a fresh leg:
    ``FRESH_LEG_REPLY`` each (``turn`` of them have played already)."""
    total = 0.0
    weight = REPLY_DECAY ** turn
    while True:
        p = (p + 1) % game.players
        if p == seat:
            return total
        total += weight * FRESH_LEG_REPLY
        weight *= REPLY_DECAY


def _replies_to(table, seat, position, leg, taken=None, tile_best=None, finish_best=None,
                cap=None):
    """``_replies`` of the round after my action: ``taken`` the colour of the leg ticket
    I took, ``position`` / ``leg`` the board and its odds after it (a tile of mine
    changes them), ``tile_best`` / ``finish_best`` overrides of the table's; ``cap``:
    ``_replies``'."""
    stacks = {}
    for c in table.stacks:
        left = table.stacks[c]
        stacks[c] = left[1:] if c == taken else left
    return _replies(table, seat, seat, 0, position, leg, stacks, table.pyramid_left,
                    table.tile_best if tile_best is None else tile_best,
                    table.finish_best if finish_best is None else finish_best,
                    REPLY_REVEALS, cap=cap)


def _replies_to_my_die(table, seat, position, cap=None):
    """``_replies`` after my own pyramid ticket: every die and face weighed first, the
    round played on the exact leg odds after it (RULES 1.4, 3.4-3.7). ``cap``: my
    die's faces valued one die at a time, stopping with a lower bound above ``cap``
    once the dice valued and the others' least (``_least_after``) pass it
    (``_over_reveals``); below it, the same sum as without ``cap``."""
    if table.pyramid_left <= 1:
        return _fresh_replies(table.game, seat, seat, 0)  # my die ends the leg

    def after_die(after):
        return _replies(table, seat, seat, 0, after, cached_leg_odds(after), table.stacks,
                        table.pyramid_left - 1, table.tile_best, table.finish_best,
                        REPLY_REVEALS)
    if cap is not None:
        least = _least_after(table.game, seat, seat, 0, table.pyramid_left - 1,
                             table.tile_best, table.finish_best)
        return _over_reveals(position, after_die, least, cap)
    return _over_reveals(position, after_die)


def opponent_styles(game, public=False):
    """``{seat: {style: probability}}`` for the other players (every seat with
    ``public``): the league's styles (``camelhost.league.STYLES``) as each player's own
    moves in this race tell (``league.style_posterior``: a prior even over the league,
    updated by each move's likelihood under each style; public facts only, never a
    finish card's colour). With ``MODEL_STYLES`` 0, every seat is an ``ev`` player."""
    seats = [p for p in range(game.players) if public or p != game.turn]
    if not MODEL_STYLES:
        return dict((p, {"ev": 1.0}) for p in seats)
    return league.style_posterior(game, seats)


def finish_intent(game, belief):
    """The chance (0..1) that a player of style ``belief`` (``{style: probability}``)
    lays a finish card now when one is their best action: the ``ev``-like styles
    (``ev``, ``tiles``, ``copycat``, ``partner``) always, ``cautious`` once a camel is
    within ``league.CAUTIOUS_HORIZON`` spaces of the line, ``greedy`` never, ``random``
    ``RANDOM_FINISH``."""
    near = league.late(game)
    total = 0.0
    for style in belief:
        if style in ("ev", "tiles", "copycat", "partner"):
            total += belief[style]
        elif style == "cautious" and near:
            total += belief[style]
        elif style == "random":
            total += belief[style] * RANDOM_FINISH
    return total


def _modelled(finish_best, intents):
    """``finish_best`` ({seat: EV}) with each seat's card counted at its ``intents``
    share (seats not in ``intents``: as they are)."""
    out = {}
    for p in finish_best:
        out[p] = finish_best[p] * intents.get(p, 1.0)
    return out


def _card_noise(game, styles):
    """{seat: the chance its laid cards are any colour (a ``random`` player's)}; below
    ``NOISE_FLOOR`` none (their moves have all but ruled ``random`` out)."""
    out = {}
    for p in styles:
        r = styles[p].get("random", 0.0)
        out[p] = r if r >= NOISE_FLOOR else 0.0
    return out


def _laid_colours(game, public=False, read=None):
    """{seat: [colours ``inferred_cards`` says they laid]} for the others (every seat
    with ``public``); ``read``: ``inferred_cards(game, public)`` if already known."""
    if read is None:
        read = inferred_cards(game, public)
    laid = {}
    for (pile, index), colour in read.items():
        laid.setdefault(game.pile(pile)[index][0], []).append(colour)
    return laid


def _finish_best(game, race, extra=None, public=False, laid=None):
    """{seat: best finish-card EV (>= 0)} for every seat; ``extra``: ``(pile, card)``
    put on that pile first (my card). The others' cards are hidden (RULES 1.8): each
    other player holds every colour but those ``inferred_cards`` says they laid (none
    once they have laid as many cards as there are colours: who laid each card is
    public), and on each pile their own cards are left out (one of that colour would
    mean they can't play it again; one of another colour is never ahead of theirs) and
    everyone else's counted by number only. ``laid``: ``_laid_colours(game, public)``
    if already known.
    ``public``: the player to act is treated like the others (advice for a shared
    screen)."""
    out = {}
    if race is None:
        return out
    piles = {}
    for pile in ("winner", "loser"):
        cards = game.pile(pile)
        if extra is not None and extra[0] == pile:
            cards = cards + [extra[1]]
        piles[pile] = cards
    if laid is None:
        laid = _laid_colours(game, public)
    for p in range(game.players):
        best = 0.0
        mine = p == game.turn and not public
        if mine:
            hand = game.finish_cards_in_hand(p)
        else:
            gone = laid.get(p, ())
            hand = [c for c in game.edition.racing if c not in gone]
        cards = 0
        for pile in piles:
            for owner, _c in piles[pile]:
                if owner == p:
                    cards += 1
        if cards >= len(game.edition.racing):
            hand = ()  # every card laid: public, the piles show who laid each
        seen = {}
        for pile in piles:
            if mine:
                seen[pile] = piles[pile]
            else:  # owners only: never a hidden colour
                seen[pile] = [(owner, None) for owner, _c in piles[pile] if owner != p]
        for c in hand:
            for pile, odds in (("winner", race.winner), ("loser", race.loser)):
                ev = finish_card_ev(odds.get(c, 0.0), seen[pile], p, c)
                if ev > best:
                    best = ev
        out[p] = best
    return out


def _pays(ahead):
    """What a right finish card pays with ``ahead`` (a fraction) cards of its colour
    before it: between ``ladder(1 + k)`` and ``ladder(2 + k)`` by the fraction."""
    k = int(ahead)
    return ladder(1 + k) + (ahead - k) * (ladder(2 + k) - ladder(1 + k))


def hold_value(p, ahead, before_me, ends):
    """What a finish card kept for later is worth now (coins, >= 0): it is laid in a
    later leg, once its camel is the pile's likely camel, and that late call is right
    with ``HOLD_ACCURACY`` (so for every right card ``(1 - A) / A`` wrong ones cost a
    coin each, RULES 1.13); by then ``before_me`` more cards of its colour lie before
    it. ``p``: the chance its camel ends as the pile's camel (race odds); ``ahead``:
    the cards of its colour on the pile now (as read); ``ends``: the chance the race
    ends this leg (``race_ends_this_leg``), when no later leg comes. Times
    ``HOLD_VALUE``."""
    a = HOLD_ACCURACY
    later = p * (_pays(ahead + before_me) - (1.0 - a) / a)
    return HOLD_VALUE * max(0.0, later) * (1.0 - ends)


def _read_piles(game, race, ranked, read, noise=None, intents=None, laid=None,
                readings=None):
    """My finish cards in ``ranked`` (``ActionValue``, re-sorted in place, best first)
    valued on the piles as their play reads: a card of colour ``c`` pays
    ``ladder(1 + k)`` when ``c`` wins that pile, ``k`` the cards before it that
    ``read`` (``inferred_cards``: ``{(pile, index): colour}``) gives as ``c``, and costs
    1 coin otherwise (RULES 1.13). ``finish_card_ev`` counts every hidden card as that
    colour with the colour's own chance, as the ``ev`` bots do; but the others lay
    their best card, mostly on the favourite, so a pile of three read as blue leaves a
    blue card fourth and another colour first. My own cards are not in ``read`` (none
    of them is that colour: one card a colour) unless it is the shared screen's
    reading of every seat (``inferred_cards(public=True)``), which counts them as read
    like the rest. ``race``: the ``RaceOdds`` the cards are valued with. ``noise``:
    {seat: the chance its cards are any colour} (``_card_noise``: a ``random`` player
    lays any card): such a card counts as ``c`` by that chance over the colours.
    ``readings``: ``pile_readings`` at a crowded table (``CROWDED_SEATS``): each card
    counts as ``c`` by its share of ``c`` there instead.

    Returns ``{action: hold}``: each card's ``hold_value``, the others who would lay
    that colour before my later card being those still holding it (``laid``:
    ``_laid_colours``) by their chance to lay a card now (``intents``:
    ``finish_intent``; a player who lays only late lays after me). The reason shows
    the card's value over the rest of the race: its value now less that."""
    noise = noise or {}
    intents = intents or {}
    laid = laid or {}
    colours = len(game.edition.racing)
    ends = race_ends_this_leg(game)
    holds = {}
    changed = False
    for av in ranked:
        if av.kind != "finish":
            continue
        _finish, pile, colour = av.action.split()
        p = (race.winner if pile == "winner" else race.loser).get(colour, 0.0)
        cards = game.pile(pile)
        ahead = _ahead(cards, pile, colour, read, noise, colours, readings)
        av.ev = finish_value_as_read(p, ahead)
        before_me = 0.0
        for q in intents:
            if q != game.turn and colour not in laid.get(q, ()):
                before_me += intents[q]
        hold = hold_value(p, ahead, before_me, ends)
        holds[av.action] = hold
        # the facts of its reason (camelhost.table.view.action_text says them)
        av.facts = {"pile": pile, "colour": colour, "p": p, "cards": len(cards),
                    "read": ahead, "over_hold": av.ev - hold}
        changed = True
    if changed:
        ranked.sort(key=lambda a: (-a.ev, a.action))
    return holds


def _ahead(cards, pile, colour, read, noise, colours, readings=None):
    """The cards of ``cards`` (a pile's ``[(seat, colour)]``, ``pile`` its name) read as
    ``colour`` (a float: a card of a seat with ``noise`` counts ``r / colours`` for any
    colour and ``1 - r`` for the one ``read`` gives it; ``read``: ``inferred_cards``;
    at a crowded table ``readings``, ``pile_readings``: ``1 - r`` times its share of
    ``colour`` there)."""
    ahead = 0.0
    for index in range(len(cards)):
        if (pile, index) not in read:
            continue
        r = noise.get(cards[index][0], 0.0)
        if readings is not None:  # a crowded table: shares of colours
            ahead += r / colours + (1.0 - r) * readings[(pile, index)].get(colour, 0.0)
            continue
        ahead += r / colours + (1.0 - r) * (1.0 if read[(pile, index)] == colour else 0.0)
    return ahead


def finish_value_as_read(p, ahead):
    """A finish card's value now (coins) on a pile as read: ``p`` (0..1) the chance its
    camel ends as the pile's camel, ``ahead`` (>= 0, a float) the cards before it read
    as its colour: ``ladder(1 + ahead)`` (between places for a fraction, ``_pays``) when
    right, -1 coin when wrong (RULES 1.13). The one valuation of the coach's own cards
    (``_read_piles``), the table's advice and ``pyramid odds --read``."""
    return p * _pays(ahead) - (1.0 - p)


def piles_as_read(game):
    """The finish piles as the table's advice reads them (``suggestions(public=True)``:
    every card, the player to act's too, read from who laid which pile and when,
    ``inferred_cards(game, public=True)``, a card of a seat that may play at random
    spread over the colours by that chance, ``_card_noise``): ``{pile: {colour: cards
    read as it}}`` (floats >= 0; a pile without cards, or a colour none is read as, left
    out; from ``CROWDED_SEATS`` on, ``pile_readings``), so that ``pyramid odds --read`` values a finish card as the table does
    (``finish_value_as_read``). Public facts only, never a card's colour (RULES 1.8)."""
    readings = None
    if game.players >= CROWDED_SEATS and READER_SHARE > 0.0:
        read, readings = _crowded_reading(game, True)  # as pile readers lay them too
    else:
        read = inferred_cards(game, True)
    noise = _card_noise(game, opponent_styles(game, True))
    colours = len(game.edition.racing)
    out = {}
    for pile in ("winner", "loser"):
        cards = game.pile(pile)
        for colour in game.edition.racing:
            ahead = _ahead(cards, pile, colour, read, noise, colours, readings)
            if ahead > 0.0:
                out.setdefault(pile, {})[colour] = ahead
    return out


def _after_die(position, die, value, ink):
    """(position after the die with it out of the pyramid, crossed)."""
    moved, _tile, crossed = move(position, die, value, ink)
    moved.dice = [d for d in position.dice if d != die]
    moved.reveals = max(0, position.reveals - 1)
    return moved, crossed


def _held_value(leg, held):
    """Expected leg payout of the tickets ``held`` [(colour, value)] under ``leg``."""
    total = 0.0
    for c, v in held:
        total += leg_ticket_ev(v, leg.first[c] / leg.total, leg.second[c] / leg.total)
    return total


def _with_tile(game, position, base, seat, space, side):
    """(leg odds with my tile on ``space``/``side``, change in my held tickets minus the
    others' (averaged) under them); ``base``: the leg odds without it."""
    placed = _placed(position, seat, space, side)
    leg = cached_leg_odds(placed)
    mine = 0.0
    theirs = 0.0
    for p in range(game.players):
        held = game.held_tickets(p)
        if not held:
            continue
        d = _held_value(leg, held) - _held_value(base, held)
        if p == seat:
            mine += d
        else:
            theirs += d
    return leg, mine - theirs / max(1, game.players - 1), placed


def _placed(position, seat, space, side):
    """``position`` with my tile on ``space``/``side`` (mine elsewhere lifted)."""
    placed = position.copy()
    for s in list(placed.tiles):
        if placed.tile_owners.get(s) == seat:
            del placed.tiles[s]
            del placed.tile_owners[s]
    placed.tiles[space] = side
    placed.tile_owners[space] = seat
    return placed


# -- the end-game: the last leg, ranked by the chance to win ----------------------


def _seed_of(game):
    """Play-out seed from the public position (the finish piles by size only): the
    same game gives the same dice, and the hidden cards' colours never change them."""
    return zlib.crc32(position_text(game, public=True).encode()) & 0x7FFFFFFF


def race_ends_this_leg(game):
    """The chance (0..1) that a camel crosses the finish line before this leg ends
    (RULES 1.9, 1.13) when nobody acts and the dice come out as the pyramid releases
    them (RULES 1.4): exact, the share of the leg's outcomes that end the race
    (``LegOdds.finished`` over ``LegOdds.total``, from the cached leg odds)."""
    if game.is_over:
        return 1.0
    leg = cached_leg_odds(position_from_game(game))
    return leg.finished / leg.total


#: Race odds (``{"winner": {colour: p}, "loser": ...}``) of positions where someone
#: played a finish card: ``Game.position()`` -> odds, kept for the next moves.
_PLAYED = {}
_PLAYED_SIZE = 256


def _pile_odds(game, samples=REPLY_RACE_SAMPLES):
    key = game.position()
    hit = _PLAYED.get(key)
    if hit is None:
        position = position_from_game(game)
        race = cached_leg_and_race(position, 1, samples)[1]
        hit = {"winner": dict(race.winner), "loser": dict(race.loser)}
        if len(_PLAYED) >= _PLAYED_SIZE:
            _PLAYED.clear()
        _PLAYED[key] = hit
    return hit


def _finish_events(game, me):
    """Every finish card laid by a seat other than ``me``, in play order: ``[(pile,
    index on it, seat, the game just before it)]`` (from the undo history: the game
    before each card, ``Game.before``, without undoing the rest)."""
    events = []
    history = game.history
    for i in range(len(history)):
        a = history[i]
        if a.kind == FINISH:
            then = game.before(i)
            if then.turn != me:
                events.append((a.pile, len(then.pile(a.pile)), then.turn, then))
    return events


def inferred_cards(game, public=False):
    """The colours of the others' hidden finish cards as their play suggests (RULES
    1.8): ``{(pile, index): colour}`` for every card of another player on the
    ``"winner"`` / ``"loser"`` pile (``index`` from 0). Each card, in play order, is
    taken to be the colour that was that player's best card on that pile when it was
    laid (``finish_card_ev`` with the race odds of that moment as the ``ev`` bots
    compute them: 1,000 seeded races), among the colours not inferred for them before;
    ties go to the first colour by name. A card the undo history doesn't reach (a
    typed-in position) is inferred after those with today's odds. Only who laid which
    pile and when is read, never a card's colour. ``public``: the player to act's own
    cards too."""
    me = None if public else game.turn
    out = _ev_reading(game, _card_events(game))
    if me is None:
        return out
    return dict((key, colour) for key, colour in out.items()
                if game.pile(key[0])[key[1]][0] != me)


def _card_events(game):
    """Every hidden finish card of a player on the piles, in play order, with the race
    odds of its moment: ``[(pile, index, seat, {colour: chance})]`` (``_finish_events``,
    ``_pile_odds``); a card the undo history doesn't reach (a typed-in position) comes
    after those, with today's odds."""
    events = [(pile, index, seat, _pile_odds(then)[pile])
              for pile, index, seat, then in _finish_events(game, None)]
    known = set((pile, index) for pile, index, _s, _o in events)
    now = None
    for pile in ("winner", "loser"):
        for index, (seat, _colour) in enumerate(game.pile(pile)):
            if seat is None or (pile, index) in known:
                continue
            if now is None:  # before the history (a typed-in position): today's odds
                now = _pile_odds(game)
            events.append((pile, index, seat, now[pile]))
    return events


def _ev_reading(game, events):
    """``{(pile, index): colour}`` for ``events`` (``_card_events``): each card the
    colour that was its player's best by ``finish_card_ev`` then, the cards before it
    counted by number (``inferred_cards``). A seat's reading depends only on the cards
    before it and that seat's own earlier cards, so leaving a seat's cards out changes
    no other seat's."""
    racing = sorted(game.edition.racing)
    used = {}
    out = {}
    for pile, index, seat, odds in events:
        view = [(owner, None) for owner, _c in game.pile(pile)[:index]]
        gone = used.setdefault(seat, [])
        best = None
        for c in racing:
            if c in gone:
                continue
            ev = finish_card_ev(odds.get(c, 0.0), view, seat, c)
            if best is None or ev > best[0]:
                best = (ev, c)
        if best is None:  # more cards than colours: not from a legal game
            continue
        gone.append(best[1])
        out[(pile, index)] = best[1]
    return out


def pile_readings(game, public=False, read=None):
    """The others' hidden finish cards as shares of colours (RULES 1.8): ``{(pile,
    index): {colour: share}}``, the shares of a card summing to 1, for the cards
    ``inferred_cards(game, public)`` reads (``read`` if already known). Below
    ``CROWDED_SEATS`` players (or with ``READER_SHARE`` 0) each card is all the colour
    ``inferred_cards`` gives: the ``ev`` bots' best card, the cards before it on the
    pile counted by number, which is mostly the favourite.

    From ``CROWDED_SEATS`` on, ``READER_SHARE`` of each card is the colour a pile
    reader would have laid: every card on both piles (mine too, as anyone watching reads
    it) is taken in play order, and its player's best colour is the one whose place
    pays most on the cards before it as read so far (``p * ladder(1 + k) - (1 - p)``,
    ``k`` the shares of that colour before it, ``_pays``; ``p``: its chance to end as
    the pile's camel, the race odds of that moment, 1,000 seeded races, as
    ``inferred_cards``), among the colours not read for that player before; ties go
    to the first colour by name. That is how the coach reads and lays its own cards
    (``_read_piles``): at a table of coaches the second card on a pile is not the
    favourite again but the colour whose first place is free, and a reading that
    takes it for the favourite leaves that colour looking free to the next player, and
    the next (``make demo SEATS=8``: five loser-pile cards in a row on green, each read
    as blue). The rest of the card, ``1 - READER_SHARE``, is the ``ev`` reading, which
    the league's styles that lay early play by. Only who laid which pile and when is
    read, never a colour."""
    if game.players < CROWDED_SEATS or READER_SHARE <= 0.0:
        if read is None:
            read = inferred_cards(game, public)
        return dict((key, {colour: 1.0}) for key, colour in read.items())
    return _crowded_reading(game, public, read)[1]


def _crowded_reading(game, public, read=None):
    """``(read, readings)`` at a crowded table: ``inferred_cards(game, public)`` (or
    ``read``) and ``pile_readings`` of the same cards, from one pass over the finish
    cards' history (``_card_events``)."""
    events = _card_events(game)
    everyone = _ev_reading(game, events)  # the ev reading of every card
    if read is None:
        me = None if public else game.turn
        read = dict((key, colour) for key, colour in everyone.items()
                    if me is None or game.pile(key[0])[key[1]][0] != me)
    racing = sorted(game.edition.racing)
    shares = {}
    used = {}
    for pile, index, seat, odds in events:
        before = {}
        for j in range(index):
            for c, w in shares.get((pile, j), {}).items():
                before[c] = before.get(c, 0.0) + w
        gone = used.setdefault(seat, [])
        best = None
        for c in racing:
            if c in gone:
                continue
            p = odds.get(c, 0.0)
            value = p * _pays(before.get(c, 0.0)) - (1.0 - p)
            if best is None or value > best[0]:
                best = (value, c)
        if best is None:  # more cards than colours: not from a legal game
            continue
        gone.append(best[1])
        mix = {best[1]: READER_SHARE}
        ev = everyone.get((pile, index))
        if ev is not None:
            mix[ev] = mix.get(ev, 0.0) + (1.0 - READER_SHARE)
        shares[(pile, index)] = mix
    return read, dict((key, shares.get(key, {read[key]: 1.0})) for key in read)


def _likeliest(readings):
    """``{(pile, index): colour}``: each card's largest share in ``readings``
    (``pile_readings``; ties to the first colour by name)."""
    out = {}
    for key, mix in readings.items():
        out[key] = min(mix, key=lambda c: (-mix[c], c))
    return out


def card_guesses(game, public=False, styles=None):
    """What the player to act can guess about the others' hidden finish cards (RULES
    1.8): ``[(pile, index, seat, [(colour, weight), ...])]``, one entry per card of
    another player on the ``"winner"`` / ``"loser"`` pile (``index`` its place there,
    from 0), weights summing to 1 over the racing colours: all of it on the colour
    ``inferred_cards`` gives (the best card on that pile when it was laid). Only who
    played which pile and when is used, never the card's colour. ``public``: the
    player's own cards are guessed too (what anyone watching the shared screen could
    work out). ``styles``: ``opponent_styles`` if already known: a seat's chance of
    being a ``random`` player is spread evenly over the colours."""
    if styles is None:
        styles = opponent_styles(game, public)
    noise = _card_noise(game, styles)
    n = len(game.edition.racing)
    out = []
    if game.players >= CROWDED_SEATS and READER_SHARE > 0.0:
        readings = _crowded_reading(game, public)[1]
        for key in sorted(readings):
            seat = game.pile(key[0])[key[1]][0]
            r = noise.get(seat, 0.0)
            mix = readings[key]
            out.append((key[0], key[1], seat,
                        [(c, r / n + (1.0 - r) * mix.get(c, 0.0))
                         for c in game.edition.racing]))
        return out
    for (pile, index), colour in sorted(inferred_cards(game, public).items()):
        seat = game.pile(pile)[index][0]
        r = noise.get(seat, 0.0)
        out.append((pile, index, seat,
                    [(c, r / n + (1.0 - r) * (1.0 if c == colour else 0.0))
                     for c in game.edition.racing]))
    return out


def _guessed_piles(game, guesses, rng, holds=None):
    """Both piles with every guessed card drawn from its weights (a seat never gets a
    colour twice: a repeat becomes its likeliest colour not yet drawn). ``holds``:
    ``(seat, colour)``, a card that seat is about to play, so none of its guessed
    cards is that colour."""
    piles = {"winner": game.pile("winner"), "loser": game.pile("loser")}
    drawn = {}
    if holds is not None:
        drawn[holds[0]] = [holds[1]]
    for pile, index, seat, weights in guesses:
        used = drawn.setdefault(seat, [])
        u = rng.below(1 << 24) / float(1 << 24)
        pick = None
        for colour, w in weights:
            u -= w
            if u < 0.0:
                pick = colour
                break
        if pick is None or pick in used:
            pick = None
            for colour, _w in sorted(weights, key=lambda cw: -cw[1]):
                if colour not in used:
                    pick = colour
                    break
        used.append(pick)
        piles[pile][index] = (seat, pick)
    return piles["winner"], piles["loser"]


def _best_immediate(game, race):
    """The best immediate action of the seat to act as the ``ev`` bots value it: the top
    leg ticket, a finish card (``race``'s odds) or a pyramid ticket (tiles left out)."""
    best, action = _best_leg(game)
    if race is None:
        return action
    p = game.turn
    return _best_finish(race, p, game.finish_cards_in_hand(p), game.pile("winner"),
                        game.pile("loser"), best, action)


def _best_leg(game, leg=None):
    """``_best_immediate`` before the finish cards: ``(ev, action text)`` of the best of
    the top leg tickets and a pyramid ticket. Reads the board, the dice out and the leg
    tickets left, never the finish piles. ``leg``: the position's ``LegOdds`` if known
    (else ``cached_leg_odds``)."""
    if leg is None:
        leg = cached_leg_odds(position_from_game(game))
    best = PYRAMID_COIN if game.pyramid_tickets_left > 0 else -99.0
    action = "pyramid"
    for c in game.edition.racing:
        left = game.leg_tickets_left(c)
        if left:
            ev = leg_ticket_ev(left[0], leg.first[c] / leg.total, leg.second[c] / leg.total)
            if ev > best or (action == "pyramid" and ev == best):
                best = ev
                action = "leg " + c
    return best, action


def _best_finish(race, p, hand, winner, loser, best, action):
    """``_best_immediate``'s finish cards: seat ``p``'s cards in ``hand`` (colours) on
    the ``winner`` and ``loser`` piles (``[(seat, colour)]``) valued on ``race``'s odds,
    after ``best``, ``action`` (``_best_leg``); the action text that comes first."""
    for c in hand:
        for name, pile, odds in (("winner", winner, race.winner), ("loser", loser, race.loser)):
            ev = finish_card_ev(odds.get(c, 0.0), pile, p, c)
            if ev > best:
                best = ev
                action = "finish %s %s" % (name, c)
    return action


def _play_out(game, action, rng, race, guesses, memo=None, starts=None):
    """My share of the victory (0, 1/k or 1) in one play-out of ``action``: the others'
    cards guessed, their replies (``_best_immediate``), then every die to the finish.
    ``starts``: a dict shared by the play-outs of one seed ``rng`` (a new
    ``XorShift32`` of the same seed each): the guessed piles and the generator's state
    after the guesses, kept by the card held back (``_guessed_piles``' ``holds``),
    which is all the guesses depend on besides the seed; the same draws as guessing
    again.

    ``memo``: what earlier play-outs of ``game`` on the same ``race`` met, shared by
    all of them, never changed once made (``_node``, ``_pushed``, ``_reply``). The
    actions pushed since ``game`` (dice included) make the whole position but the
    finish piles: the board, the dice and tickets left, the turn, the coins before the
    race's end. So the games after them are kept by those actions alone, played from
    ``game`` with empty piles (every finish card is then in hand, so each pushed card
    is legal), with the best leg ticket or pyramid ticket there (``_best_leg``, which
    reads no pile); a reply's finish cards are valued on the play-out's own piles, its
    guesses with the cards pushed since, kept by what the values read
    (``_reply``). The dice to the finish are then drawn on a copy with those piles
    (``_final``). The same replies and the same game at the finish as playing every
    action on a game with the guessed piles, which ``memo`` None does."""
    me = game.turn
    holds = (me, action.split()[2]) if action.startswith("finish ") else None
    if starts is None:
        piles = _guessed_piles(game, guesses, rng, holds)
    else:
        kept = starts.get(holds)
        if kept is None:
            piles = _guessed_piles(game, guesses, rng, holds)
            kept = starts[holds] = (piles, rng.state)
        else:
            rng.state = kept[1]
        piles = kept[0]
    if memo is None:
        c = game.with_piles(*piles)
        first = random_release(c, rng) if action == "pyramid" else action
        c.play(first)
        leg = c.leg
        turns = 0
        while not c.is_over and c.leg == leg:
            if not ENDGAME_WHOLE_LEG and (c.turn == me or turns >= game.players - 1):
                break
            reply = _best_immediate(c, race)
            c.play(random_release(c, rng) if reply == "pyramid" else reply)
            turns += 1
    else:
        node = _node(game, memo)
        first = random_release(node[0], rng) if action == "pyramid" else action
        path = [str(first)]
        node = _pushed(node, first, path, memo)
        leg = node[0].leg
        turns = 0
        while not node[0].is_over and node[0].leg == leg:
            if not ENDGAME_WHOLE_LEG and (node[0].turn == me or turns >= game.players - 1):
                break
            reply = _reply(node, piles, race, memo)
            pushed = random_release(node[0], rng) if reply == "pyramid" else reply
            path.append(str(pushed))
            node = _pushed(node, pushed, path, memo)
            turns += 1
        c = _final(node, piles)
    c.release_to_end(rng)  # the dice to the finish, drawn as random_release draws them
    winners = c.winners()
    return 1.0 / len(winners) if me in winners else 0.0


def _node(game, memo):
    """``_play_out``'s memo node of ``game`` itself (``memo[()]``), made the first time:
    ``[game with empty piles, None, None, None, None]`` (``_pushed``'s fields)."""
    node = memo.get(())
    if node is None:
        node = memo[()] = [game.with_piles([], []), None, None, None, None]
    return node


def _pushed(node, action, path, memo):
    """The memo node after ``action`` from ``node`` in a play-out whose pushes since
    its game, ``action`` the last, are ``path`` (action texts; ``_play_out``):
    ``memo[tuple(path)]``, made the first time that path is met as ``[game after it,
    None, node, action, None]``: the game played on from a copy of ``node``'s (its
    piles only the finish cards pushed), the place for its ``_best_leg`` (filled by
    ``_reply``), the node before, the action and the place for its leg odds
    (``_leg_of``). ``node`` is not changed."""
    key = tuple(path)
    after = memo.get(key)
    if after is None:
        c = node[0].copy(history=False)
        c.play(action)
        after = memo[key] = [c, None, node, action, None]
    return after


#: Actions that leave the board, the dice out and the race's state as they were: the
#: position of the leg odds (``position_from_game``) is the one before them.
_SAME_POSITION = ("leg", "finish", "partner")


def _leg_of(node):
    """The ``LegOdds`` of the game at memo ``node`` (``cached_leg_odds``), kept in the
    node: after a leg ticket, a finish card or a partnership those of the node before
    (the same position), else worked out."""
    leg = node[4]
    if leg is None:
        before = node[2]
        if before is not None and str(node[3]).split()[0] in _SAME_POSITION:
            leg = _leg_of(before)
        else:
            leg = cached_leg_odds(position_from_game(node[0]))
        node[4] = leg
    return leg


def _reply(node, piles, race, memo):
    """``_best_immediate`` of the game at memo ``node`` with the play-out's guessed
    ``piles`` (``(winner, loser)``) under the cards pushed since: the same action. The
    best leg or pyramid ticket is kept in the node; the finish cards are kept in
    ``memo`` by the hand of the seat to act, how many cards of the others lie on each
    pile and that best (a key whose first item is a tuple, unlike a path of pushes).
    That is all ``finish_card_ev`` reads: a colour still in hand has no card of its
    holder on either pile, so only the others' cards count, by number. The leg odds
    are the node's (``_leg_of``)."""
    c = node[0]
    if node[1] is None:
        node[1] = _best_leg(c, _leg_of(node))
    best, action = node[1]
    if race is None:
        return action
    p = c.turn
    winner = piles[0] + c.pile("winner")
    loser = piles[1] + c.pile("loser")
    mine = [colour for q, colour in winner if q == p]
    mine += [colour for q, colour in loser if q == p]
    hand = tuple(colour for colour in c.edition.racing if colour not in mine)
    key = (hand, len(winner) - sum(1 for q, _c in winner if q == p),
           len(loser) - sum(1 for q, _c in loser if q == p), best, action)
    reply = memo.get(key)
    if reply is None:
        reply = memo[key] = _best_finish(race, p, hand, winner, loser, best, action)
    return reply


def _final(node, piles):
    """The game at memo ``node`` with the play-out's guessed ``piles`` under the cards
    pushed since, a copy to play on. When the last push ended the race, its scoring
    read the piles: that push is played again on the node before, with the piles."""
    c = node[0]
    if c.is_over:
        before = node[2][0]
        c = before.with_piles(piles[0] + before.pile("winner"), piles[1] + before.pile("loser"))
        c.play(node[3])
        return c
    return c.with_piles(piles[0] + c.pile("winner"), piles[1] + c.pile("loser"))


def win_chances(game, actions, race, samples=None, public=False, styles=None):
    """The chance (0..1) that the player to act wins the race after each of ``actions``
    (action texts as ``ActionValue.action``: ``pyramid`` for a pyramid ticket): the
    mean of up to ``samples`` (default ``ENDGAME_SAMPLES`` for 4 players, fewer for
    more: 300 x 4 / players) play-outs, the same dice and guesses for every action. In
    a play-out the others' hidden finish cards are drawn from ``card_guesses``, the
    next players reply once each with their best immediate action
    (``ENDGAME_WHOLE_LEG``: everyone plays on to the leg's end), and the dice then run
    to the finish; the engine scores the legs and the piles (RULES 1.9-1.13).
    Play-outs go in rounds of ``ENDGAME_ROUND``; from the second round on, an action
    whose paired difference from the best so far (the same dice) is more than
    ``ENDGAME_DROP`` standard errors below it plays no more (its chance is the mean of
    the play-outs it had), so a clear choice costs a fraction of a close one
    (``ENDGAME_DROP`` 0: every action gets every play-out). ``race``: the ``RaceOdds``
    the replies' finish cards are valued with. A shared victory counts ``1/k``.
    Deterministic for a given game. Returns a list of floats. ``public``: the player's
    own finish cards are guessed too (``card_guesses``); ``styles``:
    ``opponent_styles`` if already known."""
    samples = samples or ENDGAME_SAMPLES * 4 // max(4, game.players)
    guesses = card_guesses(game, public, styles)
    seed = _seed_of(game)
    results = [[] for _a in actions]
    memo = {}
    live = list(range(len(actions)))
    done = 0
    while done < samples:
        step = min(samples - done, ENDGAME_ROUND if ENDGAME_DROP > 0 else samples)
        for i in range(done, done + step):  # the same results as action by action
            starts = {}  # play-out i's guesses, the same for every action (_play_out)
            for j in live:
                results[j].append(_play_out(game, actions[j], XorShift32(seed + 7919 * i + 1),
                                            race, guesses, memo, starts))
        done += step
        if ENDGAME_DROP > 0 and done < samples and done > ENDGAME_ROUND and len(live) > 1:
            live = _still_in(results, live, done)
    return [sum(r) / len(r) for r in results]


def _still_in(results, live, n):
    """The actions of ``live`` not clearly behind the best: paired over the ``n``
    play-outs each has had, the best's lead over it is less than ``ENDGAME_DROP``
    standard errors (or it is not behind at all)."""
    best = max(live, key=lambda j: (sum(results[j][:n]), -j))
    keep = []
    for j in live:
        if j == best:
            keep.append(j)
            continue
        d = [results[best][i] - results[j][i] for i in range(n)]
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1)
        if mean <= 0.0 or (var > 0.0 and mean < ENDGAME_DROP * (var / n) ** 0.5):
            keep.append(j)
    return keep


def evaluate(game, seed=1, leg=None):
    """Every candidate action of the seat to act with the coach's score, best first.

    Returns a list of ``(score, action text, immediate EV)``; ``action text`` is the
    ``ActionValue.action`` form (``pyramid`` for any pyramid ticket). ``leg``: this
    position's ``LegOdds`` if already computed. The finish cards are screened on the
    replies' race odds first (``_scored``): the same choice as on the coach's larger
    run, which is made only when a card comes close to the best.
    """
    return [(score, av.action, av.ev) for score, av in _scored(game, seed, leg, screen=True)]


def suggestions(game, leg=None, seed=1, public=False, race=None):
    """The table's advice for the seat to act: ``ActionValue`` objects (``.action``,
    ``.ev`` immediate coins, ``.facts`` (its reason's values, said by
    ``camelhost.table.view.action_text``), ``.score`` the coach's score it is ranked by,
    ``.win`` the chance to win in the end-game, which orders the best few first)
    in the coach's order, best first. ``public``: advice for the shared screen, from
    what everyone at the table can see: a finish card of every colour on both piles,
    as if still held (the hand is private, RULES 1.8: a player skips those already
    played), the player's own cards on the piles counted by number like everyone's,
    and in the end-game the play-outs guess them too (never one of the colour about to
    be played), so the order gives nothing away; the best ``FINISH_ADVICE`` finish
    cards only (each is "if you hold it": more would crowd out the rest), and each
    pile's best (``_advice_cards``). ``race``: the
    ``RaceOdds`` to value finish cards with (the table passes the odds it shows, so
    the advice and the odds agree); default the coach's own ``FINISH_SAMPLES`` run."""
    out = []
    for score, av in _scored(game, seed, leg, public, race):
        av.score = score  # what it is ranked by, shown beside its value now
        out.append(av)
    return out


def _collector_paused(fn):
    """``fn`` run with Python's cyclic garbage collector paused (``gc``), resumed after
    it, also on an error, unless it was off already. For the coach's scoring
    (``_scored``): it makes many short-lived containers (the enumerations' boards, the
    end-game's games: some 100,000 in a slow eight-seat move) and no garbage in a cycle
    (none found after any of 29 eight-seat moves), so a collection during it can free
    nothing. Left on, the collector went over every object of the process (some
    150,000: the odds caches) for them, a full pass 40-260 ms, about once a slow
    eight-seat move. Reference counting still frees what the scoring drops; the numbers
    are the same. The pause is the process's (``gc`` has no other): another thread's
    collections wait for it too, and what the scoring keeps counts towards the next
    collection after it."""

    @functools.wraps(fn)
    def paused(*args, **kwargs):
        was = gc.isenabled()
        if was:
            gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was:
                gc.enable()

    return paused


@_collector_paused
def _scored(game, seed, leg, public=False, race=None, screen=False, prune=False):
    """``[(score, ActionValue)]`` best first (``evaluate``, ``suggestions``). With
    ``screen`` (the coach's own choice, not the advice, whose numbers are read) the
    finish cards are screened first on the replies' race odds (``REPLY_RACE_SAMPLES``
    races, which the others' cards need anyway): with ``FINISH_ON_REPLIES``, or when no
    finish card comes within ``_screen_margin`` of the best other action, those scores
    stand; else (and in the
    end-game, whose play-outs read the race odds) the coach's own ``FINISH_SAMPLES``
    run values them and every candidate is scored again on it, as if never screened
    (the others' replies, which read the replies' race odds only, are kept from the
    screen: ``_score_candidates``' ``replies``; so is what the others' play tells,
    which reads no race odds of mine: its ``model``)."""
    position = position_from_game(game)
    if leg is None:
        leg, theirs = cached_leg_and_race(position, 1, REPLY_RACE_SAMPLES)
    else:
        theirs = cached_race_odds(position, seed=1, samples=REPLY_RACE_SAMPLES, leg=leg)
    endgame = race_ends_this_leg(game) >= ENDGAME_SHARE
    replies = {}
    model = {}
    if screen and race is None and not endgame and FINISH_SAMPLES > REPLY_RACE_SAMPLES:
        out, styles = _score_candidates(game, position, leg, theirs, theirs, public, prune,
                                        replies, model)
        if FINISH_ON_REPLIES or _finish_clear(out, theirs):
            return out
    if race is None:
        race = cached_race_odds(position, seed=seed, samples=FINISH_SAMPLES, leg=leg)
    out, styles = _score_candidates(game, position, leg, race, theirs, public,
                                    prune and not endgame, replies, model)
    if len(out) > 1 and endgame:
        top = out[:ENDGAME_CANDIDATES]
        chances = win_chances(game, [av.action for _score, av in top], race, public=public,
                              styles=styles)
        for (_score, av), chance in zip(top, chances, strict=True):
            av.win = chance
        order = sorted(range(len(top)), key=lambda i: -chances[i])  # stable: ties keep
        out = [top[i] for i in order] + out[len(top):]
    return out


#: The screen's margin (``_finish_clear``) in widest 95 % half-widths of the screening
#: race odds: a finish card's value moves by at most ``ladder(1) + 1`` coins per unit of
#: its camel's chance, and the two runs' chances differ by about one half-width each.
SCREEN_WIDTHS = 2.0


def _screen_margin(race):
    """Coins a finish card's score may be off on ``race`` (``RaceOdds``) against the
    ``FINISH_SAMPLES`` run: ``SCREEN_WIDTHS x (ladder(1) + 1) x race.half_width``."""
    return SCREEN_WIDTHS * (ladder(1) + 1) * race.half_width


def _finish_clear(out, race):
    """True when the finish cards of ``out`` (``[(score, ActionValue)]``, best first),
    valued on ``race``, can't be the choice whatever the larger run says: none, or the
    best other action ahead of every one by more than ``_screen_margin(race)``."""
    cards = [score for score, av in out if av.kind == "finish"]
    if not cards:
        return True
    rest = [score for score, av in out if av.kind != "finish"]
    return bool(rest) and rest[0] - max(cards) > _screen_margin(race)


def _score_candidates(game, position, leg, race, theirs, public, prune=False, replies=None,
                      model=None):
    """Every candidate's coach score, best first, and the opponent model (``styles``):
    ``([(score, ActionValue)], styles)``. ``race``: the ``RaceOdds`` my finish cards are
    valued on; ``theirs``: the others' (``REPLY_RACE_SAMPLES`` races). ``prune`` (the
    choice only, ``choose``): a tile valued with its effect on the leg and my pyramid
    ticket are left out, their replies after a die never worked out, when a bound of
    their score (``_replies_floor``; ``_my_die_floor``, then ``_my_die_replies_floor``)
    is below a score already found: they can't come first, so the first stays what it
    is without ``prune``.
    ``replies``: a dict of the others' weighted gains after each candidate (action
    text; ``""`` the round after none), filled here and read by a later call for the
    same game and ``theirs``: they depend on ``theirs``, never on ``race``. ``model``:
    likewise a dict, filled here with what the others' play tells (their cards as read,
    their styles and intents, their best finish cards on ``theirs``) and read by a
    later call for the same game and ``theirs``."""
    seat = game.turn
    ranked = action_values(game, race=race, leg=leg)
    if public:  # every colour as if still held: the hand is private (RULES 1.8)
        ranked = [av for av in ranked if av.kind != "finish"]
        ranked += finish_values(game, race, game.edition.racing)
        ranked.sort(key=lambda a: (-a.ev, a.action))
    if not ranked:
        return [], {}
    tiles = [av for av in ranked if av.kind == "tile"]
    tile_best = tiles[0].ev if tiles else 0.0
    if model is None:
        model = {}
    told = model.get("told")
    if told is None:
        readings = None
        if game.players >= CROWDED_SEATS and READER_SHARE > 0.0:
            # the others' cards as their play tells, and as pile readers lay them too
            read, readings = _crowded_reading(game, public)
            laid = _laid_colours(game, public, _likeliest(readings))
        else:
            read = inferred_cards(game, public)  # the others' cards as their play tells
            laid = _laid_colours(game, public, read)
        styles = opponent_styles(game, public)  # who plays how, from their moves
        intents = dict((p, finish_intent(game, styles[p])) for p in styles)
        told = model["told"] = (
            read, readings, laid, styles, intents, _card_noise(game, styles),
            _modelled(_finish_best(game, theirs, public=public, laid=laid), intents))
    read, readings, laid, styles, intents, noise, their_best = told
    holds = _read_piles(game, race, ranked, read, noise, intents, laid, readings)
    table = _Table(game, leg, tile_best, their_best)
    if replies is None:
        replies = {}
    plain = replies.get("")
    if plain is None:
        plain = replies[""] = _replies_to(table, seat, position, leg)
    holders = any(game.held_tickets(p) for p in range(game.players))
    floor = ranked[0].ev - PRUNE
    if prune and PRUNE_LAST:  # the dear ones last: a higher score to fall below
        cheap = []
        dear = []
        for av in ranked:
            if av.ev >= floor and (av.kind == "pyramid" or (
                    holders and av.kind == "tile" and tiles.index(av) < TILE_CANDIDATES)):
                dear.append(av)
            else:
                cheap.append(av)
        ranked = cheap + dear
    out = []
    top = None  # the best score so far (prune)
    for av in ranked:
        if prune and out:
            top = max(top, out[-1][0]) if top is not None else out[-1][0]
        ev = av.ev
        words = av.action.split()
        if ev < floor and av.kind != "leg" and av.kind != "finish":
            out.append((ev - REPLY_WEIGHT * plain, av))
            continue
        kept = replies.get(av.action)
        if av.kind == "leg":
            reply = kept if kept is not None else _replies_to(table, seat, position, leg,
                                                              taken=words[1])
        elif av.kind == "tile":
            space = int(words[1])
            rest = 0.0  # the best tile left to the others: not on or next to mine
            for other in tiles:
                if abs(int(other.action.split()[1]) - space) > 1:
                    rest = other.ev
                    break
            if holders and tiles.index(av) < TILE_CANDIDATES:
                placed, effect, where = _with_tile(game, position, leg, seat, space,
                                                   1 if words[2] == "+" else -1)
                ev += effect
                if top is not None and (ev - REPLY_WEIGHT * _replies_floor(
                        table, seat, where, placed, rest) < top):
                    continue  # can't come first (prune)
                if kept is None:
                    cap = _cap(ev, top)
                    kept = _replies_to(table, seat, where, placed, tile_best=rest, cap=cap)
                    if cap is not None and ev - REPLY_WEIGHT * kept < top:
                        continue  # can't come first (prune; its sum maybe cut short)
                reply = kept
            else:
                reply = kept if kept is not None else _replies_to(table, seat, position, leg,
                                                                  tile_best=rest)
        elif av.kind == "pyramid":
            if top is not None and (
                    ev - REPLY_WEIGHT * _my_die_floor(table, seat, position) < top
                    or ev - REPLY_WEIGHT * _my_die_replies_floor(table, seat, position) < top):
                continue  # can't come first (prune)
            if kept is None:
                cap = _cap(ev, top)
                kept = _replies_to_my_die(table, seat, position, cap=cap)
                if cap is not None and ev - REPLY_WEIGHT * kept < top:
                    continue  # can't come first (prune; its sum maybe cut short)
            reply = kept
        elif av.kind == "finish":
            if kept is None:
                kept = _replies_to(table, seat, position, leg,
                                   finish_best=_modelled(
                                       _finish_best(game, theirs, (words[1], (seat, words[2])),
                                                    public, laid), intents))
            reply = kept
            ev -= holds.get(av.action, 0.0)  # kept, it is still worth something
        elif av.kind == "partner":
            # the partner copies my best ticket too (RULES 3.8)
            ev -= partnership_ev(leg, game.held_tickets(seat), game.pyramid_tickets(seat))
            reply = plain
        else:
            reply = plain
        replies[av.action] = reply
        out.append((ev - REPLY_WEIGHT * reply, av))
    out.sort(key=lambda t: (-t[0], t[1].action))
    if public:  # the best few finish cards only, before the end-game picks its few
        out = _advice_cards(out)
    return out, styles


def _advice_cards(out):
    """``out`` (``[(score, ActionValue)]``, best first) with its finish cards cut to the
    public advice's: the best ``FINISH_ADVICE``, and each pile's best when none of those
    is on it (tester s35 finding 17: with both on the loser pile, ``best all`` never
    listed the winner pile, as if a card there were illegal). The advice only: the
    coach's own choice never reads it."""
    finish = [t for t in out if t[1].kind == "finish"]
    cards = finish[:FINISH_ADVICE]
    for pile in ("winner", "loser"):
        if not any(t[1].action.split()[1] == pile for t in cards):
            cards += [t for t in finish if t[1].action.split()[1] == pile][:1]
    return [t for t in out if t[1].kind != "finish" or t in cards]


def _cap(ev, top):
    """The replies above which a candidate worth ``ev`` now scores below ``top``, the
    best score found (``None``: no score yet, or ``LAZY_REPLIES`` 0)."""
    if top is None or not LAZY_REPLIES or REPLY_WEIGHT <= 0:
        return None
    return (ev - top) / REPLY_WEIGHT


def choose(game, names=None, seed=1):
    """The coach's action for the seat to act: ``(text, value)``, ``value`` its
    immediate expected value in coins (the ranking itself uses the coach's score).

    ``text`` is a table command (``leg red``, ``pyramid``, ``tile 7 +``, ``finish winner
    red``, ``partner NAME`` with ``names`` the seat names, else the 1-based seat).
    Raises ``ValueError`` when the race is over.
    """
    scored = [(score, av.action, av.ev)
              for score, av in _scored(game, seed, None, screen=True, prune=True)]
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
