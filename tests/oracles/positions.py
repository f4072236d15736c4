"""Shared pieces of the odds property tests: the edition's camels (from
``camelup.editions``, the one source), random boards, and the equality of two leg
odds' weights."""

from camelup.editions import CLASSIC as _CLASSIC
from camelup.editions import SECOND as _SECOND

CLASSIC = _CLASSIC.racing
SECOND = _SECOND.racing
CRAZY = _SECOND.crazy


def random_board(rnd, camels, lows, spans, max_tiles):
    """``(stacks, tiles)``: ``camels`` (already in the order to place them) spread over
    ``low .. low + span`` (``low`` from ``lows``, ``span`` from ``spans``, capped at 16),
    then up to ``max_tiles`` tiles of either side on free spaces with no tile beside
    them (RULES 1.5). Every draw comes from ``rnd`` (a ``random.Random``)."""
    low = rnd.choice(lows)
    high = min(16, low + rnd.choice(spans))
    stacks = {}
    for camel in camels:
        stacks.setdefault(rnd.randint(low, high), []).append(camel)
    tiles = {}
    for _ in range(rnd.randint(0, max_tiles)):
        space = rnd.randint(2, 16)
        if space in stacks or space in tiles or space - 1 in tiles or space + 1 in tiles:
            continue
        tiles[space] = rnd.choice([1, -1])
    return stacks, tiles


def same_weights(a, b):
    """True when two ``LegOdds`` hold exactly the same weights."""
    return (a.total, a.first, a.second, a.last, a.landings, a.finished, a.joint) == (
        b.total, b.first, b.second, b.last, b.landings, b.finished, b.joint)
