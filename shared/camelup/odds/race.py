"""Overall winner / loser odds by seeded simulation of the rest of the race.

The current leg goes on with the dice still inside and the tiles on the board; every
later leg starts with all dice inside and no tiles (tiles go back to their owners at
leg end, RULES 1.12, and where they come back is the players' choice). Moves use the
same string boards as ``camelup.odds``. Randomness is a xorshift32 generator written
out here, so a seed gives the same races on CPython and MicroPython.

When the current leg ends the race in every outcome, the exact leg enumeration
answers instead (``RaceOdds.exact``).
"""

from camelup.odds.board import (
    BLACK,
    GREY_DIE,
    LEG_REVEALS,
    SEP,
    TRACK,
    WHITE,
    Coded,
    grey_choice,
    step_backward,
    step_forward,
)
from camelup.odds.game import as_position
from camelup.odds.leg import leg_odds

_MASK32 = 0xFFFFFFFF
#: 95 % two-sided normal quantile.
Z95 = 1.96
#: Races that run longer than this many legs are stopped and ranked as they stand
#: (it never happens in practice: racing camels gain ground every leg).
MAX_LEGS = 60


class RaceOdds:
    """Overall winner / loser probabilities (RULES 1.13, 3.7).

    ``winner``, ``loser``: dict racing colour -> probability (float 0..1).
    ``winner_hw``, ``loser_hw``: dict colour -> 95 % confidence half-width (normal
    approximation ``1.96 * sqrt(p (1 - p) / samples)``; 0 when exact).
    ``half_width``: the largest of them. ``samples``: races simulated (0 when
    exact). ``exact``: True when the race is over or the current leg surely ends
    it, and the figures are exact. ``seed``: the seed used.
    """

    def __init__(self, colours, samples, seed):
        self.winner = {}
        self.loser = {}
        self.winner_hw = {}
        self.loser_hw = {}
        for c in colours:
            self.winner[c] = 0.0
            self.loser[c] = 0.0
            self.winner_hw[c] = 0.0
            self.loser_hw[c] = 0.0
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


def simulate(position, seed=1, samples=10000):
    """Play the rest of the race ``samples`` times; returns ``(wins, losses)``.

    ``wins``/``losses``: dict colour -> number of races that colour won / lost.
    Each leg takes two draws of the generator: one picks the order of the dice
    that come out (uniform over every ordered choice, RULES 1.4), the other the
    six-sided face of each (racing value = face mod 3 + 1; grey ink = face div 3).
    """
    coded = Coded(position)
    names = coded.name
    bare = [0] * (TRACK + 2)
    tiles0 = coded.tiles
    if coded.tiles == bare:
        tiles0 = bare
    board0 = coded.board
    first_orders = _orders(list(coded.mask), coded.levels)
    racing_dice = [coded.letter[c] for c in position.racing()]
    racing_dice.sort()
    if coded.crazy:
        racing_dice.append(GREY_DIE)
    later_orders = _orders(racing_dice, LEG_REVEALS[position.edition])
    n_first = len(first_orders)
    n_later = len(later_orders)
    crazy = coded.crazy
    x = _seed_state(seed)
    wins = {}
    losses = {}
    for _ in range(samples):
        s = board0
        orders = first_orders
        count = n_first
        tiles = tiles0
        over = False
        legs = 0
        while True:
            x ^= (x << 13) & _MASK32
            x ^= x >> 17
            x ^= (x << 5) & _MASK32
            order = orders[x % count]
            x ^= (x << 13) & _MASK32
            x ^= x >> 17
            x ^= (x << 5) & _MASK32
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
                        over = True
                        break
                elif tiles is bare:
                    # no tiles: the plain move, inline (RULES 1.2, 1.3); the
                    # separator after the landing space is missing past the line
                    i = s.find(d)
                    j = s.find(SEP, i)
                    q = j
                    v = f % 3 + 1
                    while v:
                        q = s.find(SEP, q + 1)
                        if q < 0:
                            break
                        v -= 1
                    if q < 0:  # crossed the finish line (RULES 1.13)
                        s = s[:i] + s[j:] + s[i:j]
                        over = True
                        break
                    s = s[:i] + s[j:q] + s[i:j] + s[q:]
                else:
                    s, _hit = step_forward(s, d, f % 3 + 1, tiles)
                    if s[-1] != SEP:
                        over = True
                        break
            if over:
                break
            legs += 1
            if legs > MAX_LEGS:
                break
            orders = later_orders
            count = n_later
            tiles = bare
        r = s.replace(SEP, "")
        if crazy:
            r = r.replace(BLACK, "").replace(WHITE, "")
        a = r[-1]
        z = r[0]
        wins[a] = wins.get(a, 0) + 1
        losses[z] = losses.get(z, 0) + 1
    out_w = {}
    out_l = {}
    for letter in wins:
        out_w[names[letter]] = wins[letter]
    for letter in losses:
        out_l[names[letter]] = losses[letter]
    return out_w, out_l


#: Recent results: the table asks again after every action, and only a die (or a
#: tile) changes the answer. Keyed by the position as the simulation sees it.
_CACHE = {}
_CACHE_SIZE = 8


def _signature(position, seed, samples):
    coded = Coded(position)
    tiles = ",".join(["%d" % t for t in coded.tiles])
    return "%s|%s|%s|%s|%d|%d|%d|%d" % (position.edition, coded.board, tiles, coded.mask,
                                          coded.levels, position.over, seed, samples)


def race_odds(obj, seed=1, samples=10000, leg=None, cache=True):
    """Overall winner / loser odds of a ``camelup.Game`` or ``camelup.odds.Position``.

    ``seed``: any int (same seed, same result on both runtimes). ``samples``:
    races to simulate, >= 1 (10,000 keeps every 95 % half-width under one
    percentage point). ``leg``: this position's ``LegOdds`` if already computed.
    ``cache``: reuse the result of an identical earlier call (same board, tiles,
    dice, seed and samples; the last few are kept). Returns ``RaceOdds`` (shared
    when cached: read it, don't change it). Raises ``ValueError`` for
    ``samples < 1``.
    """
    if samples < 1:
        raise ValueError("samples must be at least 1, not %r" % (samples,))
    position = as_position(obj)
    key = None
    if cache:
        key = _signature(position, seed, samples)
        hit = _CACHE.get(key)
        if hit is not None:
            return hit
    result = _race_odds(position, seed, samples, leg)
    if key is not None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = result
    return result


def _race_odds(position, seed, samples, leg):
    colours = position.racing()
    if leg is None:
        leg = leg_odds(position)
    if leg.finished == leg.total or position.over:
        result = RaceOdds(colours, 0, seed)
        result.exact = True
        for c in colours:
            result.winner[c] = leg.first[c] / leg.total
            result.loser[c] = leg.last[c] / leg.total
        return result
    wins, losses = simulate(position, seed, samples)
    result = RaceOdds(colours, samples, seed)
    widest = 0.0
    for c in colours:
        p = wins.get(c, 0) / samples
        q = losses.get(c, 0) / samples
        result.winner[c] = p
        result.loser[c] = q
        hw_p = Z95 * (p * (1 - p) / samples) ** 0.5
        hw_q = Z95 * (q * (1 - q) / samples) ** 0.5
        result.winner_hw[c] = hw_p
        result.loser_hw[c] = hw_q
        if hw_p > widest:
            widest = hw_p
        if hw_q > widest:
            widest = hw_q
    result.half_width = widest
    return result
