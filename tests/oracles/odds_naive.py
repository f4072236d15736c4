"""Plain reference for the odds: full enumeration of every order and face.

Deliberately simple and independent of ``camelup.odds``' string boards: stacks are
lists, every sequence of dice is played out from the start on a fresh copy, no
merging, no memo. It is the yardstick the fast enumerator is checked against (tests)
and timed against (``tests/bench/bench_odds.py``). Runs on MicroPython too.
"""

from camelup.odds import CRAZY, GREY, SECOND, TRACK


def _copy(stacks):
    out = {}
    for space in stacks:
        out[space] = list(stacks[space])
    return out


def _where(stacks, camel):
    for space in stacks:
        stack = stacks[space]
        if camel in stack:
            return space, stack.index(camel)
    raise ValueError("camel %r not on the board" % (camel,))


def choose_crazy(stacks, crazy, ink):
    """The crazy camel the grey die with numeral ``ink`` moves (RULES 3.5)."""
    if len(crazy) == 1:
        return crazy[0]
    carriers = []
    for camel in crazy:
        space, h = _where(stacks, camel)
        above = stacks[space][h + 1:]
        for other in above:
            if other not in crazy:
                carriers.append(camel)
                break
    if len(carriers) == 1:  # (a)
        return carriers[0]
    for camel in crazy:  # (b): the top one of two directly stacked crazy camels
        space, h = _where(stacks, camel)
        if h > 0 and stacks[space][h - 1] in crazy:
            return camel
    return ink  # (c)


def play(stacks, tiles, camel, distance, backwards):
    """Move ``camel`` and everything above it; mutates ``stacks``.

    ``tiles``: ``space -> +1/-1``. Returns ``(tile_space or 0, crossed)``. A unit
    that crosses the line is put on space 17+ or 0- (RULES 1.1, 1.13, 3.7).
    """
    space, h = _where(stacks, camel)
    unit = stacks[space][h:]
    del stacks[space][h:]
    if not stacks[space]:
        del stacks[space]
    step = -1 if backwards else 1
    dest = space + step * distance
    hit = 0
    under = False
    if 1 <= dest <= TRACK and dest in tiles:
        hit = dest
        side = tiles[dest]
        under = side < 0
        dest = dest + step * side  # the tile acts in the moving camel's direction
    crossed = dest < 1 or dest > TRACK
    below = stacks.get(dest, [])
    stacks[dest] = unit + below if under else below + unit
    return hit, crossed


def order(stacks, crazy):
    """Racing camels first .. last (RULES 1.11, 3.7)."""
    out = []
    for space in sorted(stacks):
        for camel in stacks[space]:
            if camel not in crazy:
                out.append(camel)
    out.reverse()
    return out


def naive_leg_odds(position):
    """Exact leg odds by playing every order of the revealed dice and every face.

    Returns ``(first, second, last, landings, total)``: dicts colour -> integer
    weight, dict tile space -> weighted landings, and the total weight, counted as
    ``camelup.odds.leg_odds`` counts them (classic: values; second: faces).
    """
    crazy = position.crazy()
    wr = 2 if position.edition == SECOND else 1
    per_die = 3 * wr
    first = {}
    second = {}
    last = {}
    for c in position.racing():
        first[c] = 0
        second[c] = 0
        last[c] = 0
    landings = {}
    totals = [0]
    dice = list(position.dice)
    reveals = position.reveals

    def completions(left, used):
        out = 1
        n = len(dice) - used
        for _ in range(left):
            out *= n * per_die
            n -= 1
        return out

    def finish(stacks, weight):
        ranked = order(stacks, crazy)
        first[ranked[0]] += weight
        if len(ranked) > 1:
            second[ranked[1]] += weight
        last[ranked[-1]] += weight
        totals[0] += weight

    def faces(die):
        if die == GREY:
            out = []
            for ink in CRAZY:
                for v in (1, 2, 3):
                    out.append((ink, v, 1))
            return out
        return [(None, 1, wr), (None, 2, wr), (None, 3, wr)]

    def explore(stacks, weight, depth, inside):
        for die in inside:
            rest = [d for d in inside if d != die]
            for ink, value, w in faces(die):
                after = _copy(stacks)  # every branch on its own copy: no sharing
                if die == GREY:
                    camel = choose_crazy(after, crazy, ink)
                    hit, crossed = play(after, position.tiles, camel, value, True)
                else:
                    hit, crossed = play(after, position.tiles, die, value, False)
                done = depth + 1
                if crossed or done == reveals:
                    # the leg stops here: every completion of it gives this outcome
                    total = weight * w * completions(reveals - done, done)
                    finish(after, total)
                    count = total
                else:
                    count = explore(after, weight * w, done, rest)
                if hit:
                    landings[hit] = landings.get(hit, 0) + count
        # the number of full outcomes below this node, for the landings above it
        return weight * completions(reveals - depth, depth)

    if reveals == 0:
        finish(_copy(position.stacks), 1)
        return first, second, last, landings, 1
    explore(_copy(position.stacks), 1, 0, dice)
    return first, second, last, landings, totals[0]
