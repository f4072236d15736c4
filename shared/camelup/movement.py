"""Camel movement, grey-die selection and ranking as cheap pure functions.

Shapes used throughout:

- ``stacks``: dict ``space -> list of colours`` (bottom first). Spaces are ints;
  1..16 is the track, 17+ crossed clockwise, 0 and below crossed counterclockwise
  (RULES 1.1). Empty spaces are absent (never an empty list).
- ``tiles``: dict ``space -> (owner, side)``; ``owner`` a player index (or ``None``),
  ``side`` ``"+"`` (oasis / cheering, forward) or ``"-"`` (mirage / booing, backward).
- ``crazy``: the crazy camel colours (``()`` in classic); they move counterclockwise.

These functions mutate only what their docstring says and never look at players,
tickets or turns, so the odds engine can call them in tight loops.
"""

from camelup.editions import TRACK


def on_track(space):
    """True when ``space`` is on the track (1..16), False once crossed (RULES 1.1)."""
    return 1 <= space <= TRACK


def find_camel(stacks, camel):
    """Return ``(space, height)`` of ``camel`` (height 0 = bottom).

    Raises ``KeyError`` when the camel is on no space.
    """
    for space in stacks:
        stack = stacks[space]
        for i in range(len(stack)):
            if stack[i] == camel:
                return space, i
    raise KeyError(camel)


def select_crazy(stacks, crazy, ink):
    """Which crazy camel the grey die moves (RULES 3.5).

    ``crazy``: the two crazy colours; ``ink``: the numeral colour, one of them.
    Returns ``(camel, rule)`` with ``rule`` ``"a"`` (the only one carrying a racing
    camel anywhere above it), ``"b"`` (one sits directly on the other: the top one)
    or ``"c"`` (the numeral colour). Raises ``ValueError`` for an ink that is not
    a crazy colour.
    """
    if ink not in crazy:
        raise ValueError("grey ink must be one of %s, got %r" % (", ".join(crazy), ink))
    carriers = []
    where = {}
    for c in crazy:
        space, h = find_camel(stacks, c)
        where[c] = (space, h)
        stack = stacks[space]
        for above in stack[h + 1:]:
            if above not in crazy:
                carriers.append(c)
                break
    if len(carriers) == 1:
        return carriers[0], "a"
    a, b = crazy[0], crazy[1]
    sa, ha = where[a]
    sb, hb = where[b]
    if sa == sb and (ha - hb == 1 or hb - ha == 1):
        return (a if ha > hb else b), "b"
    return ink, "c"


def move_unit(stacks, tiles, camel, distance, crazy=()):
    """Move ``camel`` and everything above it ``distance`` spaces (RULES 1.2, 1.3, 1.5,
    3.6, 1.13); mutates ``stacks`` in place.

    Direction: clockwise (+1) for racing camels, counterclockwise (-1) for camels in
    ``crazy``. A unit landing on a tile moves one more space in the moving camel's
    forward (``"+"``) or backward (``"-"``) direction, on top / underneath. A unit
    whose landing space is past the finish line stops there (no tile beyond is
    reached). ``distance``: 1..3 (any positive int is accepted).

    Returns a dict: ``camel``, ``direction`` (+1/-1), ``distance``, ``from``,
    ``landed`` (the space the die took it to), ``to`` (final space), ``unit``
    (list, bottom first), ``tile`` (``None`` or ``{"space", "owner", "side"}``: the
    tile that was landed on; its owner earns 1 coin), ``under`` (True when the unit
    went underneath a stack), ``crossed`` (True when the race is over: the unit
    left spaces 1..16). Raises ``KeyError`` when the camel is not on the board.
    """
    space, h = find_camel(stacks, camel)
    stack = stacks[space]
    unit = stack[h:]
    if h == 0:
        del stacks[space]
    else:
        stacks[space] = stack[:h]
    direction = -1 if camel in crazy else 1
    landed = space + direction * distance
    target = landed
    under = False
    tile = None
    if on_track(landed) and landed in tiles:
        owner, side = tiles[landed]
        tile = {"space": landed, "owner": owner, "side": side}
        if side == "+":
            target = landed + direction
        else:
            target = landed - direction
            under = True
    below = stacks.get(target)
    if below is None:
        stacks[target] = list(unit)
    elif under:
        stacks[target] = list(unit) + below
    else:
        stacks[target] = below + list(unit)
    return {
        "camel": camel,
        "direction": direction,
        "distance": distance,
        "from": space,
        "landed": landed,
        "to": target,
        "unit": list(unit),
        "tile": tile,
        "under": under,
        "crossed": not on_track(target),
    }


def ranking(stacks, racing):
    """Racing camels from first to last (RULES 1.11, 3.7).

    Higher space is ahead; in one stack, higher is ahead; crazy camels (anything not
    in ``racing``) are skipped. Crossed spaces (17+, 0-) rank naturally by number.
    Returns a list of colours.
    """
    spaces = sorted(stacks.keys())
    order = []
    i = len(spaces) - 1
    while i >= 0:
        stack = stacks[spaces[i]]
        j = len(stack) - 1
        while j >= 0:
            if stack[j] in racing:
                order.append(stack[j])
            j -= 1
        i -= 1
    return order


def copy_stacks(stacks):
    """Return a copy of ``stacks`` whose lists are new (safe to mutate)."""
    out = {}
    for space in stacks:
        out[space] = list(stacks[space])
    return out
