"""Overall winner / loser odds by seeded simulation of the rest of the race.

The current leg goes on with the dice still inside and the tiles on the board; every
later leg starts with all dice inside. Tiles go back to their owners at leg end
(RULES 1.12); by default the later legs are raced without them (``later_tiles=False``),
or with tiles coming down as the table's bots were measured to put them
(``LATER_TILES``, ``later_tiles=True``): against real race outcomes the two models
score the same within their intervals, and the tiles cost about half as much time
again (docs/odds.md, "Tiles in later legs"). Moves use the same string boards as ``camelup.odds``.
Randomness is a xorshift32 generator written out here, so a seed gives the same races
on CPython and MicroPython.

When the current leg ends the race in every outcome, the exact leg enumeration
answers instead (``RaceOdds.exact``).
"""

import sys

from camelup.odds.board import (
    BLACK,
    GREY_DIE,
    LEG_REVEALS,
    SEP,
    WHITE,
    Coded,
    Recent,
    backward_landings,
    grey_choice,
    perm,
    rank_key,
    step_backward,
    step_forward,
)
from camelup.odds.game import as_position
from camelup.odds.leg import LegOdds, expand_forward, expand_plain, fill_weights, leg_odds

_MASK32 = 0xFFFFFFFF
#: 95 % two-sided normal quantile.
Z95 = 1.96
#: Races that run longer than this many legs are stopped and ranked as they stand
#: (it never happens in practice: racing camels gain ground every leg).
MAX_LEGS = 60

#: Where tiles come down in the legs after the current one, per edition: measured on
#: the table's bots by ``tests/bench/tile_placements.py`` (policies coach,ev,ev,ev,
#: tournament seed 11, games 0-199 of each edition, the bots of main at commit 1da3fb0,
#: whose race odds had no later tiles; ``--summary`` prints this table).
#: ``count``: ``(tiles on the track when a later leg ended, legs)``; ``place``: ``(dice
#: already out, space minus the leading racing camel's space, side +1 / -1, tile
#: actions)`` over every tile action of those legs. A simulated later leg draws its
#: number of tiles from ``count`` and each tile from ``place``: it goes down when that
#: many dice are out, that far from the leader; a draw that is not a legal space
#: (RULES 1.5: off the track, space 1, a camel there, a tile on it or next to it) is
#: drawn again, at most ``TILE_TRIES`` times, then that tile stays with its owner.
LATER_TILES = {
    "classic": {"count": ((0, 311), (1, 331), (2, 117), (3, 4)),
                "place": ((0, -3, -1, 1), (0, -3, 1, 2), (0, -2, -1, 14), (0, -2, 1, 5),
                          (0, -1, -1, 38), (0, -1, 1, 40), (0, 1, -1, 159), (0, 1, 1, 38),
                          (0, 2, -1, 59), (0, 2, 1, 5), (0, 3, -1, 105), (1, -4, -1, 1),
                          (1, -4, 1, 2), (1, -3, -1, 1), (1, -3, 1, 3), (1, -2, -1, 3),
                          (1, -1, -1, 5), (1, -1, 1, 6), (1, 1, -1, 16), (1, 1, 1, 7),
                          (1, 2, -1, 2), (1, 2, 1, 2), (1, 3, -1, 24), (2, -4, -1, 1),
                          (2, -4, 1, 1), (2, -3, -1, 2), (2, -3, 1, 1), (2, -2, -1, 2),
                          (2, -1, -1, 1), (2, -1, 1, 6), (2, 1, -1, 16), (2, 1, 1, 2),
                          (2, 3, -1, 5), (3, -4, 1, 1), (3, -3, -1, 1), (3, -2, -1, 1),
                          (3, -1, 1, 7), (3, 1, -1, 9), (3, 2, 1, 2), (3, 3, 1, 2),
                          (4, -4, 1, 1), (4, -3, -1, 1), (4, -2, -1, 1), (4, -2, 1, 1),
                          (4, -1, -1, 3), (4, -1, 1, 5), (4, 1, -1, 10), (4, 3, 1, 3))},
    "second": {"count": ((0, 409), (1, 434), (2, 86), (3, 2)),
                "place": ((0, -5, -1, 1), (0, -5, 1, 1), (0, -4, -1, 4), (0, -3, -1, 7),
                          (0, -3, 1, 5), (0, -2, -1, 27), (0, -2, 1, 7), (0, -1, -1, 31),
                          (0, -1, 1, 55), (0, 1, -1, 165), (0, 1, 1, 35), (0, 2, -1, 64),
                          (0, 2, 1, 10), (0, 3, -1, 77), (0, 3, 1, 2), (1, -4, 1, 2),
                          (1, -3, -1, 5), (1, -3, 1, 2), (1, -2, -1, 3), (1, -2, 1, 2),
                          (1, -1, -1, 4), (1, -1, 1, 12), (1, 1, -1, 16), (1, 1, 1, 8),
                          (1, 2, -1, 3), (1, 2, 1, 4), (1, 3, -1, 13), (2, -3, 1, 1),
                          (2, -2, -1, 2), (2, -1, -1, 2), (2, -1, 1, 9), (2, 1, -1, 14),
                          (2, 1, 1, 2), (2, 2, 1, 1), (2, 3, -1, 1), (3, -5, 1, 1),
                          (3, -4, 1, 1), (3, -3, -1, 1), (3, -3, 1, 1), (3, -2, -1, 2),
                          (3, -1, 1, 5), (3, 1, -1, 10), (3, 3, -1, 1), (4, -4, -1, 1),
                          (4, -3, -1, 1), (4, -1, 1, 7), (4, 1, -1, 8), (4, 2, 1, 1),
                          (4, 3, 1, 1))},
}
TILE_TRIES = 3
#: A tile on the string board (``_tile_leg``): its space's segment is this one
#: character (a tile space never holds a camel: a unit landing there moves on).
TILE_MARK = {1: "+", -1: "-"}
_MARKS = "+-"
_MARK_TUPLE = ("+", "-")


class RaceOdds:
    """Overall winner / loser probabilities (RULES 1.13, 3.7).

    ``winner``, ``loser``: dict racing colour -> probability (float 0..1).
    ``winner_hw``, ``loser_hw``: dict colour -> 95 % confidence half-width (normal
    approximation ``1.96 * share * sqrt(var / samples)``; 0 when exact), ``share``
    the probability that the race outlives the current leg.
    ``winner_var``, ``loser_var``: dict colour -> ``var``, the variance of one
    simulated race's verdict on that colour (0 or 1) as the stratified sampling
    measures it: from the pairs of races drawn in the same slice (``_Strata.sample``;
    at most ``p (1 - p)``, the plain binomial figure, up to noise; 0 when exact).
    ``half_width``: the largest half-width. ``samples``: races simulated (0 when
    exact). ``exact``: True when the race is over or the current leg surely ends
    it, and the figures are exact. ``seed``: the seed used.
    """

    def __init__(self, colours, samples, seed):
        self.winner = {}
        self.loser = {}
        self.winner_hw = {}
        self.loser_hw = {}
        self.winner_var = {}
        self.loser_var = {}
        for c in colours:
            self.winner[c] = 0.0
            self.loser[c] = 0.0
            self.winner_hw[c] = 0.0
            self.loser_hw[c] = 0.0
            self.winner_var[c] = 0.0
            self.loser_var[c] = 0.0
        self.samples = samples
        self.seed = seed
        self.exact = False
        self.half_width = 0.0

    def __repr__(self):
        return "RaceOdds(samples=%d winner=%r)" % (self.samples, sorted(self.winner.items()))


def _seed_state(seed):
    x = (int(seed) * 2654435761 + 0x9E3779B9) & _MASK32
    return x or 0x6D2B79F5


def _orders(dice, reveals):
    """Every ordered choice of ``reveals`` dice out of ``dice`` (list of tuples)."""
    if reveals == 0:
        return [()]
    out = []
    for i in range(len(dice)):
        rest = dice[:i] + dice[i + 1:]
        for tail in _orders(rest, reveals - 1):
            out.append((dice[i],) + tail)
    return out


def _next(x):
    """One step of the xorshift32 generator."""
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    return x ^ ((x << 5) & _MASK32)


def _first_leg(s, x, orders, count, tiles):
    """The rest of the current leg from board ``s`` (generator state ``x``): one draw
    picks the order of the dice that come out, one the faces. Returns ``(board, x,
    over)``, ``over`` True when a unit crossed the line (RULES 1.13, 3.7)."""
    x = _next(x)
    order = orders[x % count]
    x = _next(x)
    faces = x
    for d in order:
        f = faces % 6
        faces //= 6
        if d == GREY_DIE:
            who = grey_choice(s)
            if who is None:  # RULES 3.5 (c): the numeral's ink
                who = BLACK if f >= 3 else WHITE
            s, _hit = step_backward(s, who, f % 3 + 1, tiles)
            if s[0] != SEP:
                return s, x, True
        else:
            s, _hit = step_forward(s, d, f % 3 + 1, tiles)
            if s[-1] != SEP:
                return s, x, True
    return s, x, False


def _expand(edition):
    """``LATER_TILES[edition]`` made ready to index with a draw: ``(counts, places,
    radix)``, the tile counts and the ``(dice out, offset, mark)`` entries each repeated
    as often as measured, and ``6 ** dice per leg`` (the faces' part of a draw)."""
    table = LATER_TILES[edition]
    counts = []
    for tiles, legs in table["count"]:
        counts.extend([tiles] * legs)
    places = []
    for out, offset, side, actions in table["place"]:
        places.extend([(out, offset, TILE_MARK[side])] * actions)
    return counts, places, 6 ** LEG_REVEALS[edition]


_TABLES = {}
for _edition in LATER_TILES:
    _TABLES[_edition] = _expand(_edition)


def _run_fresh(s, x, orders, count, tables=None, crazy=False, trace=None):
    """Legs that each start with every die inside (the legs after the current one),
    until a unit crosses the line (or ``MAX_LEGS``). Returns ``(board, x)``. Each leg
    draws its order of the dice and their faces from the generator; a leg without tiles
    is ``_move_leg`` (shared with ``_run_planned``, the same moves).

    ``tables`` (``_TABLES[edition]``) puts tiles down: the faces' draw, past the
    faces, also picks the leg's number of tiles (``counts``); a leg with tiles is
    ``_tile_leg``. ``None``: no tiles. ``crazy``: crazy camels on the board;
    ``trace``: see ``simulate``."""
    if tables is not None:
        counts, places, radix = tables
        n_counts = len(counts)
        strip = SEP + _MARKS + (BLACK + WHITE if crazy else "")
    for _leg in range(MAX_LEGS):
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        order = orders[x % count]
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        faces = x
        if tables is not None:
            k = counts[faces // radix % n_counts]
            if k:
                s, x, over = _tile_leg(s, x, order, faces, k, places, strip, trace)
                if over:
                    return s, x
                continue
        plan = []
        for d in order:
            plan.append((d, faces % 6 if d == GREY_DIE else faces % 3))
            faces //= 6
        s, over = _move_leg(s, plan)
        if over:
            return s, x
    return s, x


#: Largest run whose draws are worked out ahead (``_Draws``): the coach's 2,000 and
#: the replies' 1,000 races are; the table's default run of tens of thousands is not
#: (its draws would take megabytes for no reuse). 0 on MicroPython (a small heap):
#: there every run draws as it goes, the same numbers.
PLANNED_MAX = 0 if sys.implementation.name == "micropython" else 5000
#: Seeds whose draws are kept, or seen once (``_DRAWS``, ``_draws``): the runs of seed 1
#: are most of them.
_DRAWS_SEEDS = 8
_DRAWS = {}


class _Draws:
    """The generator's states from one seed, worked out once and kept, with the leg
    each could start in the later legs (``_run_planned``): the same numbers as drawing
    them one by one (``_run_fresh``), without the generator's arithmetic in the loop.

    ``table``: ``(states, plans)``; ``states[k]``: the state after ``k + 1`` steps of
    the generator from ``_seed_state(seed)``; ``plans[k]``: the leg whose order is
    drawn at ``k`` and faces at ``k + 1``, a tuple of ``(die, value)`` in the order the
    dice come out, ``value`` the face mod 3 (0..2) of a racing die, the face itself
    (0..5) of the grey die (its ink, RULES 3.5 (c), and its value). Grows on demand
    (``extend``) by new lists put in place in one assignment, so a run in another
    thread (the table's odds worker) reading the old ones is never disturbed."""

    def __init__(self, seed, orders):
        self.x0 = _seed_state(seed)
        self.orders = orders
        self.count = len(orders)
        self.table = ([], [])
        self.pairs = {}

    def extend(self, n):
        """``table`` with the states and plans up to index ``n`` (exclusive) at
        least."""
        states, plans = self.table
        if len(plans) >= n:
            return states, plans
        states = states[:]
        plans = plans[:]
        orders = self.orders
        count = self.count
        pairs = self.pairs
        x = states[-1] if states else self.x0
        n += 1024 - n % 1024
        while len(states) < n + 1:
            x ^= (x << 13) & _MASK32
            x ^= x >> 17
            x ^= (x << 5) & _MASK32
            states.append(x)
        for k in range(len(plans), n):
            faces = states[k + 1]
            plan = []
            for d in orders[states[k] % count]:
                pair = (d, faces % 6 if d == GREY_DIE else faces % 3)
                kept = pairs.get(pair)
                if kept is None:
                    kept = pairs[pair] = pair
                plan.append(kept)
                faces //= 6
            plans.append(tuple(plan))
        self.table = (states, plans)
        return states, plans


def _draws(seed, orders):
    """The kept ``_Draws`` of ``seed`` for these ``orders`` (``_later_orders``), or
    ``None`` the first time they are asked for: working the draws out costs about what
    a run of as many races does, so a seed used once draws as it goes."""
    key = (seed, tuple(orders))
    hit = _DRAWS.get(key)
    if hit is None:
        if len(_DRAWS) >= _DRAWS_SEEDS:
            _DRAWS.clear()
        _DRAWS[key] = False  # seen once
        return None
    if hit is False:
        hit = _DRAWS[key] = _Draws(seed, orders)
    return hit


def _move_leg(s, plan):
    """One later leg without tiles on board ``s``: ``plan`` the dice in the order they
    come out, each ``(die, value)`` (``_Draws``: the face mod 3 of a racing die, the face
    itself, 0..5, of the grey die). The GREY_DIE die's choice (RULES 3.5) is
    ``camelup.odds.board.grey_choice`` written out, its move back the separator after
    space k - v (``backward_landings``, no tiles this leg). Returns ``(board, over)``:
    ``over`` when a unit crossed the line, forward (RULES 1.13) or carried back over it
    (RULES 3.7)."""
    for d, v in plan:
        if d == GREY_DIE:
            ix = s.find(BLACK)
            iy = s.find(WHITE)
            if ix < 0:
                i = iy
                j = s.find(SEP, i)
            elif iy < 0:
                i = ix
                j = s.find(SEP, i)
            else:
                jx = s.find(SEP, ix)
                jy = s.find(SEP, iy)
                if jx == jy:  # one stack: the upper one carries the lower's load
                    if iy > ix:  # WHITE above BLACK
                        above_x = jx - ix > 2 or iy != ix + 1
                        above_y = jy - iy > 1
                    else:
                        above_y = jy - iy > 2 or ix != iy + 1
                        above_x = jx - ix > 1
                else:
                    above_x = jx - ix > 1
                    above_y = jy - iy > 1
                if above_x and not above_y:
                    i = ix
                elif above_y and not above_x:
                    i = iy
                elif iy == ix + 1:
                    i = iy
                elif ix == iy + 1:
                    i = ix
                elif v >= 3:  # RULES 3.5 (c): the numeral's ink
                    i = ix
                else:
                    i = iy
                j = jx if i == ix else jy
            q = s.rfind(SEP, 0, i)
            v %= 3
            while v and q > 0:
                q = s.rfind(SEP, 0, q)
                v -= 1
            if q <= 0:  # carried back over the line (RULES 3.7)
                return s[i:j] + s[:i] + s[j:], True
            s = s[:q] + s[i:j] + s[q:i] + s[j:]  # on top of space k - v (3.5)
        else:
            i = s.find(d)
            j = s.find(SEP, i)
            q = s.find(SEP, j + 1)
            if v and q > 0:
                q = s.find(SEP, q + 1)
                if v > 1 and q > 0:
                    q = s.find(SEP, q + 1)
            if q < 0:  # crossed the finish line (RULES 1.13)
                return s[:i] + s[j:] + s[i:j], True
            s = s[:i] + s[j:q] + s[i:j] + s[q:]
    return s, False


def _run_planned(s, k, plans):
    """``_run_fresh`` without tiles, the legs read from ``plans`` (``_Draws.plans``)
    from index ``k`` on: the same board, and the index after the last draw used
    (``_run_fresh``'s state is ``states[k - 1]``). Returns ``(board, k)``."""
    for _leg in range(MAX_LEGS):
        s, over = _move_leg(s, plans[k])
        k += 2
        if over:
            return s, k
    return s, k


def _tile_leg(s, x, order, faces, k, places, strip, trace):
    """One later leg with ``k`` tiles (``_run_fresh``): one draw per tile picks its
    entry in ``places``; each goes down when its number of dice are out (``_place``);
    a unit landing on one moves as RULES 1.5 / 3.6 say (forward tile: one more space,
    on top; backward tile: one space back, underneath; the moves of
    ``camelup.odds.board.step_forward`` / ``step_backward``). A tile is its space's
    segment, one mark (``TILE_MARK``): a tile space never holds a camel. The marks go
    at leg end (RULES 1.12). Returns ``(board, x, over)``."""
    n_places = len(places)
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    x ^= (x << 5) & _MASK32
    tiles = [places[x % n_places]]
    while len(tiles) < k:
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        tiles.append(places[x % n_places])
    if k > 1:
        tiles.sort()  # in the order they go down
    tiles.append((len(order), 0, ""))  # the end of the leg
    start = 0
    for entry in tiles:
        stop = entry[0]
        for d in order[start:stop]:  # the dice before this tile goes down
            if d == GREY_DIE:
                f = faces % 6
                who = grey_choice(s)
                if who is None:  # RULES 3.5 (c): the numeral's ink
                    who = BLACK if f >= 3 else WHITE
                i = s.find(who)
                j = s.find(SEP, i)
                q = s.rfind(SEP, 0, i)  # the separator after space k - 1
                v = f % 3
                while v and q > 0:
                    q = s.rfind(SEP, 0, q)
                    v -= 1
                if q <= 0:  # carried back over the line (RULES 3.7)
                    return s[i:j] + s[:i] + s[j:], x, True
                t = s[q - 1]
                if t == "+":  # cheering: one more space counterclockwise, on top (3.6)
                    q = s.rfind(SEP, 0, q - 1)
                    if q <= 0:
                        return s[i:j] + s[:i] + s[j:], x, True
                elif t == "-":  # booing: one space clockwise, underneath (3.6)
                    q += 1
                s = s[:q] + s[i:j] + s[q:i] + s[j:]
            else:
                i = s.find(d)
                j = s.find(SEP, i)
                q = s.find(SEP, j + 1)
                v = faces % 3
                if v and q > 0:
                    q = s.find(SEP, q + 1)
                    if v > 1 and q > 0:
                        q = s.find(SEP, q + 1)
                if q < 0:  # crossed the finish line (RULES 1.13)
                    return s[:i] + s[j:] + s[i:j], x, True
                t = s[q - 1]
                if t == "+":  # forward tile: one more space, on top (RULES 1.5)
                    q = s.find(SEP, q + 1)
                    if q < 0:
                        return s[:i] + s[j:] + s[i:j], x, True
                    s = s[:i] + s[j:q] + s[i:j] + s[q:]
                elif t == "-":  # backward tile: one space back, underneath (1.5)
                    p = s.rfind(SEP, 0, q - 2) + 1
                    if p <= i:  # back onto the space it left, under what stayed
                        s = s[:p] + s[i:j] + s[p:i] + s[j:]
                    else:
                        s = s[:i] + s[j:p] + s[i:j] + s[p:]
                else:
                    s = s[:i] + s[j:q] + s[i:j] + s[q:]
            faces //= 6
        if entry[2]:
            s, x = _place(s, x, entry, places, strip, trace)
        start = stop
    return s.replace("+", "").replace("-", ""), x, False  # tiles back to their owners


def _place(s, x, entry, places, strip, trace):
    """Put one tile on board ``s`` (generator state ``x``) as ``entry`` (``(dice out,
    offset from the leading racing camel's space, mark)``) says, drawing again from
    ``places`` while that space is not legal (RULES 1.5: on the track, not space 1,
    no camel, no tile on it or next to it), at most ``TILE_TRIES`` entries in all.
    ``strip``: the separator, the marks and the crazy camels' letters (stripped to
    find the leader). Returns ``(board, x)``; ``trace`` (a list or None) gets every
    board a tile went down on."""
    tries = 0
    while True:
        off = entry[1]
        i = len(s.rstrip(strip)) - 1  # the leading racing camel
        if off > 0:
            q = s.find(SEP, i)  # the separator after the leader's space
            while off and q >= 0:
                q = s.find(SEP, q + 1)
                off -= 1
            ok = q >= 0  # q: the separator after the tile's space (at most 16)
        else:
            q = s.rfind(SEP, 0, i)
            while off < -1 and q > 0:
                q = s.rfind(SEP, 0, q)
                off += 1
            ok = q > s.find(SEP, 1)  # beyond space 1
        # the space is empty, its neighbours hold no tile
        if ok and s[q - 1] == SEP and s[q - 2] not in _MARK_TUPLE and \
                s[q + 1:q + 2] not in _MARK_TUPLE:
            s = s[:q] + entry[2] + s[q:]
            if trace is not None:
                trace.append(s)
            return s, x
        tries += 1
        if tries >= TILE_TRIES:
            return s, x
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        entry = places[x % len(places)]


#: ``_later_orders`` by dice letters and reveals: a few lists for every race.
_LATER_ORDERS = {}


def _later_orders(coded, position):
    """Every order of a later leg's dice (``_orders``): the racing dice's letters sorted,
    then the grey die when crazy camels race. The list is shared: read it."""
    racing_dice = [coded.letter[c] for c in position.racing()]
    racing_dice.sort()
    if coded.crazy:
        racing_dice.append(GREY_DIE)
    key = "".join(racing_dice) + "%d" % LEG_REVEALS[position.edition]
    hit = _LATER_ORDERS.get(key)
    if hit is None:
        hit = _LATER_ORDERS[key] = _orders(racing_dice, LEG_REVEALS[position.edition])
    return hit


def _ends(s, crazy):
    """(leader letter, last letter) of a final board (tile marks left out)."""
    r = s.replace(SEP, "").replace("+", "").replace("-", "")
    if crazy:
        r = r.replace(BLACK, "").replace(WHITE, "")
    return r[-1], r[0]


def simulate(position, seed=1, samples=10000, later_tiles=False, trace=None):
    """Play the rest of the race ``samples`` times; returns ``(wins, losses)``.

    ``wins``/``losses``: dict colour -> number of races that colour won / lost.
    Each leg takes two draws of the generator: one picks the order of the dice
    that come out (uniform over every ordered choice, RULES 1.4), the other the
    six-sided face of each (racing value = face mod 3 + 1; grey ink = face div 3).
    ``later_tiles``: True: tiles come down in the later legs as measured
    (``LATER_TILES``, one more draw a leg and one a tile); False (default): no tiles
    after the current leg.
    ``trace``: a list that gets every board string a later-leg tile went down on
    (a tile is its space's one-character segment, ``TILE_MARK``), or None.
    """
    coded = Coded(position)
    names = coded.name
    tiles0 = coded.tiles
    board0 = coded.board
    first_orders = _orders(list(coded.mask), coded.levels)
    later_orders = _later_orders(coded, position)
    n_first = len(first_orders)
    n_later = len(later_orders)
    crazy = coded.crazy
    x = _seed_state(seed)
    wins = {}
    losses = {}
    tables = _TABLES[position.edition] if later_tiles else None
    for _ in range(samples):
        s, x, over = _first_leg(board0, x, first_orders, n_first, tiles0)
        if not over:
            s, x = _run_fresh(s, x, later_orders, n_later, tables, crazy, trace)
        a, z = _ends(s, crazy)
        wins[a] = wins.get(a, 0) + 1
        losses[z] = losses.get(z, 0) + 1
    out_w = {}
    out_l = {}
    for letter in wins:
        out_w[names[letter]] = wins[letter]
    for letter in losses:
        out_l[names[letter]] = losses[letter]
    return out_w, out_l


def _board_itself(s, crazy):
    """``ranker`` for ``camelup.odds.leg.expand_forward`` that keeps the crossing board."""
    return s


def _grey_keep(s, w0, tiles, target, over, cont, landings):
    """The grey die's six faces on board ``s`` (weight ``w0`` each), crazy camels kept
    (they move again in later legs): boards still racing go to ``target``, boards where
    a unit was carried back over the line to ``over`` with weight x ``cont``. Tile
    landings and the crossings go to ``landings`` as ``camelup.odds.leg`` counts them
    (space -> weight x ``cont``; the crossings under 0). RULES 3.5-3.7, as
    ``camelup.odds.board.step_backward``."""
    who = grey_choice(s)
    if who is None:  # RULES 3.5 (c): the ink decides, 3 faces each
        movers = ((BLACK, w0), (WHITE, w0))
    else:
        movers = ((who, 2 * w0),)
    for c, w in movers:
        i = s.find(c)
        j = s.find(SEP, i)
        unit = s[i:j]
        tail = s[j:]
        for m, t, pos in backward_landings(s, i, tiles):
            if t:
                landings[m] = landings.get(m, 0) + w * cont
            if pos < 0:  # carried back over the line (RULES 3.7)
                ns = unit + s[:i] + tail
                over[ns] = over.get(ns, 0) + w * cont
                landings[0] = landings.get(0, 0) + w * cont
            else:
                ns = s[:pos] + unit + s[pos:i] + tail
                target[ns] = target.get(ns, 0) + w


def leg_end(position):
    """The exact end of the current leg, boards and all: ``(boards, over, total)``.

    ``boards``: dict board string -> integer weight of the outcomes where the race goes
    on (crazy camels kept: they move in later legs); ``over``: the same for the
    outcomes where the race ends this leg (the crossing unit outside the track);
    ``total``: the sum of all weights, counted as ``leg_odds`` counts them (RULES 1.4,
    3.4; a crossing stops the leg, RULES 1.13, 3.7). The moves are the leg
    enumeration's (``camelup.odds.leg``), with the crazy camels kept on every board.
    """
    final, over, total, _landings = _leg_end(position)
    return final, over, total


def _leg_end(position):
    """``leg_end``'s ``(boards, over, total)`` and the tile landings it met on the way,
    ``{space: weight}`` with the crossings' weight under 0, as ``leg_odds`` counts them
    (``LegOdds.landings``, ``LegOdds.finished``)."""
    coded = Coded(position)
    wr = coded.value_weight
    per_die = 3 * wr
    mask0 = coded.mask
    n = len(mask0)
    levels = coded.levels
    tiles = coded.tiles
    plain = not any(tiles)
    crazy = coded.crazy
    over = {}
    landings = {}
    current = {mask0: {coded.board: 1}}
    final = {}  # the last reveal's boards, whatever die stays inside
    for level in range(levels):
        after = levels - level - 1
        cont = perm(n - level - 1, after) * per_die ** after
        following = {}
        for mask in current:
            boards = current[mask]
            for d in mask:
                nmask = mask.replace(d, "")
                target = final if after == 0 else following.get(nmask)
                if target is None:
                    target = {}
                    following[nmask] = target
                if d == GREY_DIE:
                    for s in boards:
                        _grey_keep(s, boards[s], tiles, target, over, cont, landings)
                elif plain:
                    expand_plain(boards, d, wr, target, tiles, over, landings, cont, crazy,
                                  _board_itself)
                else:
                    for s in boards:
                        expand_forward(s, d, boards[s] * wr, tiles, target, over, landings,
                                       cont, crazy, _board_itself)
        current = following
    if levels == 0:
        final[coded.board] = 1
    return final, over, perm(n, levels) * per_die ** levels, landings


def leg_with_end(position):
    """The leg odds and the exact leg end of one position from one enumeration:
    ``(LegOdds, ends)``, ``ends`` as ``leg_end`` returns it. The ``LegOdds`` has the
    integer weights of ``leg_odds(position)`` (places not counted): every outcome of
    the leg is one board of ``ends`` (the race going on or ended), so ranking those
    boards (RULES 1.10, 1.11) gives its leader, second and last, and the landings are
    counted on the way. Worth it where both are wanted and neither is known yet
    (``race_odds``' ``ends``): it costs ``leg_end`` and a ranking of its boards.
    Raises ``ValueError`` for an invalid position."""
    position = as_position(position)
    coded = Coded(position)
    final, over, total, landings = _leg_end(position)
    crazy = coded.crazy
    strip = SEP + BLACK + WHITE if crazy else SEP
    acc = {}
    get = acc.get
    for boards in (final, over):
        for s in boards:  # rank_key's three letters, read off the board's two ends
            t1 = s.rstrip(strip)
            t2 = t1[:-1].rstrip(strip)
            if t2:
                key = t1[-1] + t2[-1] + s.lstrip(strip)[0]
            else:  # a single racing camel
                key = rank_key(s, crazy)
            acc[key] = get(key, 0) + boards[s]
    result = LegOdds(position.racing(), total)
    fill_weights(coded, acc, landings, result)
    return result, (final, over, total)


def _tally_pair(s1, s2, strip, wins, losses, split_w, split_l):
    """Count the two races of one slice (``_Strata.sample``): each final board's leader
    in ``wins`` and its last camel in ``losses``; where the two races disagree, each
    side in ``split_w`` / ``split_l`` too (the slice's share of the variance)."""
    a1 = s1.rstrip(strip)[-1]
    z1 = s1.lstrip(strip)[0]
    a2 = s2.rstrip(strip)[-1]
    z2 = s2.lstrip(strip)[0]
    wins[a1] = wins.get(a1, 0) + 1
    wins[a2] = wins.get(a2, 0) + 1
    losses[z1] = losses.get(z1, 0) + 1
    losses[z2] = losses.get(z2, 0) + 1
    if a1 != a2:
        split_w[a1] = split_w.get(a1, 0) + 1
        split_w[a2] = split_w.get(a2, 0) + 1
    if z1 != z2:
        split_l[z1] = split_l.get(z1, 0) + 1
        split_l[z2] = split_l.get(z2, 0) + 1


class _Strata:
    """The current leg's exact end (``leg_end``) made ready for sampling the later legs:
    the race-ending outcomes counted per colour, the boards where the race goes on in
    sorted order (a seed gives the same races on both runtimes) with their weights.
    ``later_tiles``: the later legs' tiles as ``simulate`` has them."""

    def __init__(self, position, ends, later_tiles=False):
        coded = Coded(position)
        self.names = coded.name
        self.crazy = coded.crazy
        self.tables = _TABLES[position.edition] if later_tiles else None
        final, over, total = ends
        self.total = total
        self.exact_w = {}
        self.exact_l = {}
        going = total
        names = self.names
        for s in over:
            a, z = _ends(s, self.crazy)
            self.exact_w[names[a]] = self.exact_w.get(names[a], 0) + over[s]
            self.exact_l[names[z]] = self.exact_l.get(names[z], 0) + over[s]
            going -= over[s]
        self.going = going
        self.boards = sorted(final)
        self.weights = [final[s] for s in self.boards]
        self.orders = _later_orders(coded, position)

    def sample(self, seed, samples, wins, losses, split_w=None, split_l=None):
        """Race ``samples`` boards drawn stratified to the end, adding the winners' and
        losers' letters to ``wins`` / ``losses``.

        The boards' cumulative weight is cut into slices of two races each (one of one
        race when ``samples`` is odd) and two boards are drawn independently and
        uniformly inside every slice. Where the two races of a slice disagree about a
        camel (one won, the other did not), ``split_w`` (``split_l`` for the loser)
        counts it: ``split / samples**2`` is an unbiased estimate of the variance of
        the stratified share (``race_odds``)."""
        going = self.going
        if not going:
            return
        if split_w is None:
            split_w = {}
            split_l = {}
        boards = self.boards
        weights = self.weights
        orders = self.orders
        count = len(orders)
        strip = SEP + BLACK + WHITE if self.crazy else SEP
        tables = self.tables
        crazy = self.crazy
        if tables is not None:
            strip += _MARKS
        elif samples <= PLANNED_MAX:
            draws = _draws(seed, self.orders)
            if draws is not None:
                self._sample_planned(draws, samples, wins, losses, split_w, split_l,
                                     strip)
                return
        x = _seed_state(seed)
        index = 0
        edge = weights[0] * samples  # cumulative weight, in units of 1 / samples
        base = 0
        width = 2 * going
        for _j in range(samples // 2):
            x ^= (x << 13) & _MASK32
            x ^= x >> 17
            x ^= (x << 5) & _MASK32
            p1 = base + x % width  # two points uniform inside the slice
            x ^= (x << 13) & _MASK32
            x ^= x >> 17
            x ^= (x << 5) & _MASK32
            p2 = base + x % width
            base += width
            if p2 < p1:
                p1, p2 = p2, p1
            while p1 >= edge:
                index += 1
                edge += weights[index] * samples
            b1 = boards[index]
            while p2 >= edge:
                index += 1
                edge += weights[index] * samples
            s1, x = _run_fresh(b1, x, orders, count, tables, crazy)
            s, x = _run_fresh(boards[index], x, orders, count, tables, crazy)
            _tally_pair(s1, s, strip, wins, losses, split_w, split_l)
        if samples % 2:  # the last slice holds one race
            x ^= (x << 13) & _MASK32
            x ^= x >> 17
            x ^= (x << 5) & _MASK32
            point = base + x % going
            while point >= edge:
                index += 1
                edge += weights[index] * samples
            s, x = _run_fresh(boards[index], x, orders, count, tables, crazy)
            a = s.rstrip(strip)[-1]
            z = s.lstrip(strip)[0]
            wins[a] = wins.get(a, 0) + 1
            losses[z] = losses.get(z, 0) + 1

    def _sample_planned(self, draws, samples, wins, losses, split_w, split_l, strip):
        """``sample`` without later tiles, its draws read from the kept ``draws`` of its
        seed (``_Draws``, ``_run_planned``): the same races, the same counts."""
        going = self.going
        boards = self.boards
        weights = self.weights
        states, plans = draws.table
        reserve = 2 + 4 * MAX_LEGS  # the most one slice can draw
        k = 0
        index = 0
        edge = weights[0] * samples  # cumulative weight, in units of 1 / samples
        base = 0
        width = 2 * going
        for _j in range(samples // 2):
            if k + reserve > len(plans):
                states, plans = draws.extend(k + reserve)
            p1 = base + states[k] % width  # two points uniform inside the slice
            p2 = base + states[k + 1] % width
            k += 2
            base += width
            if p2 < p1:
                p1, p2 = p2, p1
            while p1 >= edge:
                index += 1
                edge += weights[index] * samples
            b1 = boards[index]
            while p2 >= edge:
                index += 1
                edge += weights[index] * samples
            s1, k = _run_planned(b1, k, plans)
            s, k = _run_planned(boards[index], k, plans)
            _tally_pair(s1, s, strip, wins, losses, split_w, split_l)
        if samples % 2:  # the last slice holds one race
            if k + reserve > len(plans):
                states, plans = draws.extend(k + reserve)
            point = base + states[k] % going
            k += 1
            while point >= edge:
                index += 1
                edge += weights[index] * samples
            s, k = _run_planned(boards[index], k, plans)
            wins[s.rstrip(strip)[-1]] = wins.get(s.rstrip(strip)[-1], 0) + 1
            losses[s.lstrip(strip)[0]] = losses.get(s.lstrip(strip)[0], 0) + 1

    def named(self, counts):
        out = {}
        for letter in counts:
            out[self.names[letter]] = counts[letter]
        return out


def simulate_after_leg(position, seed=1, samples=10000, ends=None, later_tiles=False):
    """Winner / loser counts with the current leg exact and the later legs simulated.

    The current leg's end (``leg_end``, or ``ends`` if already computed) is exact.
    The boards where the race goes on are sampled stratified (``_Strata.sample``):
    the cumulative weight is cut into slices of two races and two boards are drawn
    uniformly inside each slice, then raced to the end from a fresh leg
    (``_run_fresh``). Boards are taken in sorted order: a seed gives the same figures
    on CPython and MicroPython. ``later_tiles``: as ``simulate``.

    Returns ``(exact_wins, exact_losses, wins, losses, share)``: integer weights (over
    ``total``) of the leg's race-ending outcomes per colour, the simulated counts per
    colour over ``samples`` races, and ``share``, the probability that the race goes
    on past this leg.
    """
    strata = _Strata(position, ends if ends is not None else leg_end(position),
                     later_tiles)
    wins = {}
    losses = {}
    strata.sample(seed, samples, wins, losses)
    return (strata.exact_w, strata.exact_l, strata.named(wins), strata.named(losses),
            strata.going / strata.total)


#: Recent results: the table asks again after every action, and only a die (or a
#: tile) changes the answer; the table's players ask about the same few positions
#: (each bot the board as it is, the coach the boards of the race's earlier finish
#: cards too). Keyed by the position as the simulation sees it; the results used
#: since the last ``_CACHE_SIZE`` new ones are kept (``board.Recent``).
_CACHE_SIZE = 32
_CACHE = Recent(_CACHE_SIZE)


def _signature(position, seed, samples):
    coded = Coded(position)
    tiles = ",".join(["%d" % t for t in coded.tiles])
    return "%s|%s|%s|%s|%d|%d|%d|%s" % (position.edition, coded.board, tiles, coded.mask,
                                          coded.levels, position.over, seed, samples)


#: Default precision of ``race_odds``: the widest 95 % half-width aimed at, and the
#: most races it may take to get there (about 0.5 s on this machine).
TARGET = 0.005
MAX_SAMPLES = 40000
FIRST_BATCH = 4000


def race_odds(obj, seed=1, samples=None, leg=None, cache=True, target=TARGET,
              later_tiles=False, ends=None):
    """Overall winner / loser odds of a ``camelup.game.Game`` or ``camelup.odds.Position``.

    The current leg is exact (its end-of-leg distribution, ``leg_end``), the later
    legs are simulated from its boards (``simulate_after_leg``). ``seed``: any int
    (same seed, same result on both runtimes). ``samples``: races to simulate, >= 1;
    ``None`` (default): as many as it takes for every 95 % half-width to be at most
    ``target`` (0.005 = half a percentage point), at most ``MAX_SAMPLES``. ``leg``:
    this position's ``LegOdds`` if already computed. ``cache``: reuse the result of
    an identical earlier call (same board, tiles, dice, seed and samples; the last
    few are kept). ``later_tiles``: True: tiles come down in the later legs as the
    table's bots were measured to put them (``LATER_TILES``, about 1.5x the time);
    False (default): later legs without tiles. ``ends``: this position's ``leg_end``
    if already computed (``leg_with_end`` gives it with ``leg``). Returns ``RaceOdds``
    (shared when cached: read it, don't change it). Raises ``ValueError`` for
    ``samples < 1``.
    """
    if samples is not None and samples < 1:
        raise ValueError("samples must be at least 1, not %r" % (samples,))
    position = as_position(obj)
    key = None
    if cache:
        key = _signature(position, seed, samples) + "|%r|%d" % (target, later_tiles)
        hit = _CACHE.get(key)
        if hit is not None:
            return hit
    result = _race_odds(position, seed, samples, leg, target, later_tiles, ends)
    if key is not None:
        _CACHE.put(key, result)
    return result


#: The last few legs' ends made ready for sampling: a different seed or number of
#: races (the table's bots and the coach ask with their own) reuses the exact part.
#: Those used since the last ``_STRATA_SIZE`` new ones are kept (``board.Recent``; a
#: leg's end boards are large: few, for MicroPython's heap).
_STRATA_SIZE = 2
_STRATA = Recent(_STRATA_SIZE)


def _strata(position, ends, later_tiles):
    """``_Strata`` of ``position`` (``ends``: its ``leg_end`` if already computed),
    kept in ``_STRATA``."""
    key = _signature(position, 0, 0) + "|%d" % later_tiles
    hit = _STRATA.get(key)
    if hit is None:
        hit = _Strata(position, ends if ends is not None else leg_end(position),
                      later_tiles)
        _STRATA.put(key, hit)
    return hit


def _needed(split, n, singles, share, target):
    """Races for the widest half-width to reach ``target``: the per-race variance
    estimated so far (``_variance``, at least 0.01) x (1.96 share / target)^2."""
    worst = 0.01
    for c in split:
        v = _variance(split[c], n, singles)
        if v > worst:
            worst = v
    if singles:
        worst = max(worst, _variance(0, n, singles))
    return int(worst * (Z95 * share / target) ** 2) + 1


def _variance(split, n, singles):
    """Per-race variance of a camel's share from ``split`` disagreeing pairs over ``n``
    races (``_Strata.sample``); a slice of one race counts its bound, 1/4."""
    return (split + 0.25 * singles) / n


def _race_odds(position, seed, samples, leg, target, later_tiles, ends=None):
    colours = position.racing()
    if leg is None and not position.over:
        if ends is None:
            ends = leg_end(position)  # tells whether the leg surely ends the race, too
        if not ends[0]:
            leg = leg_odds(position)
    elif leg is None:
        leg = leg_odds(position)
    if leg is not None and (leg.finished == leg.total or position.over):
        result = RaceOdds(colours, 0, seed)
        result.exact = True
        for c in colours:
            result.winner[c] = leg.first[c] / leg.total
            result.loser[c] = leg.last[c] / leg.total
        return result
    strata = _strata(position, ends, later_tiles)
    share = strata.going / strata.total
    ew = strata.exact_w
    el = strata.exact_l
    wins = {}
    losses = {}
    split_w = {}
    split_l = {}
    if samples is not None:
        strata.sample(seed, samples, wins, losses, split_w, split_l)
        n = samples
        singles = samples % 2
    else:
        # batches, each its own stratified sample, until the widest half-width is
        # at most target: the first tells how many races the interval needs
        n = 0
        singles = 0
        batch = FIRST_BATCH
        batch_seed = seed
        while True:
            strata.sample(batch_seed, batch, wins, losses, split_w, split_l)
            n += batch
            singles += batch % 2
            need = max(_needed(split_w, n, singles, share, target),
                       _needed(split_l, n, singles, share, target))
            if need <= n or n >= MAX_SAMPLES:
                break
            batch = min(MAX_SAMPLES, max(need, n + n // 20)) - n
            batch_seed = batch_seed * 7919 + 17
    wins = strata.named(wins)
    losses = strata.named(losses)
    total = strata.total
    result = RaceOdds(colours, n, seed)
    split_w = strata.named(split_w)
    split_l = strata.named(split_l)
    widest = 0.0
    for c in colours:
        p = wins.get(c, 0) / n
        q = losses.get(c, 0) / n
        result.winner[c] = ew.get(c, 0) / total + share * p
        result.loser[c] = el.get(c, 0) / total + share * q
        vp = _variance(split_w.get(c, 0), n, singles)
        vq = _variance(split_l.get(c, 0), n, singles)
        result.winner_var[c] = vp
        result.loser_var[c] = vq
        hw_p = Z95 * share * (vp / n) ** 0.5
        hw_q = Z95 * share * (vq / n) ** 0.5
        result.winner_hw[c] = hw_p
        result.loser_hw[c] = hw_q
        if hw_p > widest:
            widest = hw_p
        if hw_q > widest:
            widest = hw_q
    result.half_width = widest
    return result
