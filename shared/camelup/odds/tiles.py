"""Tile income: legal spaces (``tile_spaces``), every candidate valued (``tile_values``,
``best_tile``) and the tiles on the board (``tile_landings``). Layer above ``leg``.

Exact expected landings of a tile not yet placed, for every candidate space and side
at once (RULES 1.5, 3.6).

A tile on space ``t`` changes nothing until a unit first lands on ``t``: until then
the race is the race without it. So one enumeration serves every candidate:

* the *undisturbed* world (no candidate tile) carries, for every board, one weight
  per candidate space packed into a single integer (``_FIELD`` bits each): the
  weight of the paths to that board that have not landed on that space yet. Adding
  boards adds all fields at once (one big-integer addition).
* when a unit first lands on candidate ``t``, that field leaves the undisturbed
  world and seeds two *disturbed* worlds, ``(t, +1)`` and ``(t, -1)``, where the tile
  is really there; they are enumerated on their own from then on.

Only landings are counted here, so a camel whose die is out is anonymous: where a
die's unit lands, and whether it crosses the line, depend only on the die camel's
space and on which camels still to move ride on it. Such a camel is written ``.``
while the grey die is inside (the grey rule asks whether a racing camel rides a
crazy camel, RULES 3.5; one ``.`` stands for a run of them) and dropped once the
grey die is out (or in the classic edition). Far more boards merge. Exact: checked
against placing the tile and running ``camelup.odds.leg_odds``.
"""

from camelup.odds.board import (
    BLACK,
    GREY_DIE,
    SEP,
    TRACK,
    WHITE,
    Coded,
    Recent,
    grey_choice,
    perm,
    step_backward,
    step_forward,
)
from camelup.odds.game import as_position
from camelup.odds.leg import expand_forward, expand_grey, leg_odds

_FIELD = 48  # bits per packed weight (a full leg's total is below 2**23)
_ONES = (1 << _FIELD) - 1


def _squeeze(board, mask, letters):
    """Landings-only key of ``board`` with the dice in ``mask`` still inside.

    ``letters``: the racing camel letters of the position.
    """
    if GREY_DIE in mask:
        for letter in letters:
            if letter not in mask:
                board = board.replace(letter, ".")
        while ".." in board:
            board = board.replace("..", ".")
        return board
    for letter in letters:
        if letter not in mask:
            board = board.replace(letter, "")
    return board.replace(".", "")


def _squeeze_one(board, d, grey_inside):
    """Landings-only key of a board just produced by die ``d``: every other camel
    whose die is out is anonymous already, so only ``d``'s camel needs hiding."""
    if d == GREY_DIE:  # crazy camels already dropped; no ``.`` needed any more
        return board.replace(".", "")
    if grey_inside:
        board = board.replace(d, ".")
        while ".." in board:
            board = board.replace("..", ".")
        return board
    return board.replace(d, "")


def _add(table, mask, board, weight):
    boards = table.get(mask)
    if boards is None:
        boards = {}
        table[mask] = boards
    boards[board] = boards.get(board, 0) + weight


def _plain_grey(s, k, w, nmask, shift, counts, cont, calm, stirred_next):
    """The grey die moving a crazy camel (on space ``k``, weight ``w`` per value)
    that carries no racing camel, in the undisturbed world (see ``landing_table``;
    ``calm``: its next level's boards with the dice ``nmask`` inside, board -> packed
    weights)."""
    plain = s.replace(BLACK, "").replace(WHITE, "").replace(".", "")
    for v in (1, 2, 3):
        m = k - v
        if m < 1:  # over the line: the race and its landings end (RULES 3.7)
            continue
        rest = w
        if m in shift:
            f = (w >> shift[m]) & _ONES
            if f:
                rest = w - (f << shift[m])
                for side in (1, -1):
                    counts[(m, side)] += f * cont
                    table = stirred_next.get((m, side))
                    if table is None:
                        table = {}
                        stirred_next[(m, side)] = table
                    _add(table, nmask, plain, f)
        if rest:
            calm[plain] = calm.get(plain, 0) + rest


def _seed(stirred_next, world, nmask, board, weight):
    table = stirred_next.get(world)
    if table is None:
        table = {}
        stirred_next[world] = table
    _add(table, nmask, board, weight)


def _calm_forward(s, c, i, k, w, base, shift, counts, cont, nmask, gi, calm,
                  stirred_next):
    """Racing die ``c`` (at index ``i`` of ``s``, space ``k``) with its three values in
    the undisturbed world, weights packed in ``w`` (see ``landing_table``).

    The unit is lifted once; for each value the board without a candidate tile goes
    on in the undisturbed world, and the field of a candidate space landed on
    seeds the worlds where the tile is there (forward: on top one space further;
    backward: underneath one space back, RULES 1.3, 1.5).
    """
    j = s.find(SEP, i)
    head = s[:i]
    unit = s[i:j]
    below = j  # separator after space m - 1
    for v in (1, 2, 3):
        m = k + v
        if m > TRACK:  # over the line: the race, and its landings, end
            return
        top = s.find(SEP, below + 1)  # separator after space m
        if v == 1:
            back = s.rfind(SEP, 0, i) + 1  # bottom of space k (m - 1)
        else:
            back = s.rfind(SEP, 0, below) + 1  # bottom of space m - 1
        rest = w
        if m in shift:
            f = (w >> shift[m]) & _ONES
            if f:
                rest = w - (f << shift[m])
                counts[(m, 1)] += f * cont
                counts[(m, -1)] += f * cont
                if m < TRACK:
                    q = s.find(SEP, top + 1)
                    ns = head + s[j:q] + unit + s[q:]
                    _seed(stirred_next, (m, 1), nmask, _squeeze_one(ns, c, gi), f)
                if v == 1:
                    ns = s[:back] + unit + s[back:i] + s[j:]
                else:
                    ns = head + s[j:back] + unit + s[back:]
                _seed(stirred_next, (m, -1), nmask, _squeeze_one(ns, c, gi), f)
        if rest:
            t = base[m]
            if t == 0:
                ns = head + s[j:top] + unit + s[top:]
            elif t > 0:
                if m == TRACK:
                    below = top
                    continue
                q = s.find(SEP, top + 1)
                ns = head + s[j:q] + unit + s[q:]
            elif v == 1:
                ns = s[:back] + unit + s[back:i] + s[j:]
            else:
                ns = head + s[j:back] + unit + s[back:]
            ns = _squeeze_one(ns, c, gi)
            calm[ns] = calm.get(ns, 0) + rest
        below = top


def landing_table(position, spaces, base):
    """Weighted landings for a tile on each space of ``spaces``, each side.

    ``base``: the other tiles, a list indexed by space (0 / +1 / -1); every space
    of ``spaces`` must be free of tiles there and not next to one. Returns
    ``({(space, side): weight}, total)``; expected landings = weight / total.
    """
    coded = Coded(position)
    wr = coded.value_weight
    per_die = 3 * wr
    mask0 = coded.mask
    levels = coded.levels
    n = len(mask0)
    total = perm(n, levels) * per_die ** levels
    counts = {}
    shift = {}
    worlds = {}
    packed = 0
    index = 0
    for t in spaces:
        shift[t] = index * _FIELD
        packed |= 1 << (index * _FIELD)
        index += 1
        for side in (1, -1):
            counts[(t, side)] = 0
            tiles = list(base)
            tiles[t] = side
            worlds[(t, side)] = tiles
    if not spaces or levels == 0:
        return counts, total
    board = coded.board
    if coded.crazy and GREY_DIE not in mask0:
        board = board.replace(BLACK, "").replace(WHITE, "")
    letters = [coded.letter[c] for c in position.racing()]
    calm = {mask0: {_squeeze(board, mask0, letters): packed}}  # the undisturbed world
    stirred = {}  # (t, side) -> {mask: {board: weight}}
    sink = {}
    landed = {}  # (t, side) -> {space: weight} from the disturbed expansions
    for world in worlds:
        landed[world] = {}
    for level in range(levels):
        after = levels - level - 1
        cont = perm(n - level - 1, after) * per_die ** after
        calm_next = {}
        stirred_next = {}
        for mask in calm:
            boards = calm[mask]
            for d in mask:
                nmask = mask.replace(d, "")
                gi = GREY_DIE in nmask
                ahead = calm_next.get(nmask)  # the next level's boards, these dice inside
                if ahead is None:
                    ahead = {}
                    calm_next[nmask] = ahead
                for s in boards:
                    w = boards[s]
                    if d == GREY_DIE:
                        who = grey_choice(s)
                        if who is None:
                            moves = ((BLACK, w), (WHITE, w))
                        else:
                            moves = ((who, 2 * w),)
                        step = -1
                    else:
                        moves = ((d, w * wr),)
                        step = 1
                    for c, wc in moves:
                        i = s.find(c)
                        k = s.count(SEP, 0, i)
                        if step < 0 and after and not s[i + 1:s.find(SEP, i)].replace(
                                BLACK, "").replace(WHITE, ""):
                            # a crazy camel with no racing camel on it: every value
                            # (in every world) gives the same board once the crazy
                            # camels are dropped; only who gets which weight differs
                            _plain_grey(s, k, wc, nmask, shift, counts, cont, ahead,
                                        stirred_next)
                            continue
                        if step > 0 and after:
                            _calm_forward(s, c, i, k, wc, base, shift, counts, cont, nmask,
                                          gi, ahead, stirred_next)
                            continue
                        for v in (1, 2, 3):
                            m = k + step * v
                            f = 0
                            if m in shift:
                                f = (wc >> shift[m]) & _ONES
                            if after == 0:
                                if f:
                                    counts[(m, 1)] += f
                                    counts[(m, -1)] += f
                                continue
                            rest = wc
                            if f:
                                rest = wc - (f << shift[m])
                                for side in (1, -1):
                                    counts[(m, side)] += f * cont
                                    tiles = worlds[(m, side)]
                                    if step > 0:
                                        ns, _ = step_forward(s, c, v, tiles)
                                        over = ns[-1] != SEP
                                    else:
                                        ns, _ = step_backward(s, c, v, tiles)
                                        over = ns[0] != SEP
                                        ns = ns.replace(BLACK, "").replace(WHITE, "")
                                    if not over:
                                        table = stirred_next.get((m, side))
                                        if table is None:
                                            table = {}
                                            stirred_next[(m, side)] = table
                                        _add(table, nmask, _squeeze_one(ns, d, gi), f)
                            if not rest:
                                continue
                            if step > 0:
                                ns, _ = step_forward(s, c, v, base)
                                if ns[-1] != SEP:
                                    continue
                            else:
                                ns, _ = step_backward(s, c, v, base)
                                if ns[0] != SEP:
                                    continue
                                ns = ns.replace(BLACK, "").replace(WHITE, "")
                            ns = _squeeze_one(ns, d, gi)
                            ahead[ns] = ahead.get(ns, 0) + rest
        for world in stirred:
            tiles = worlds[world]
            t = world[0]
            land = landed[world]
            for mask in stirred[world]:
                boards = stirred[world][mask]
                for d in mask:
                    if after == 0:
                        got = 0
                        if d != GREY_DIE:
                            for s in boards:
                                if 1 <= t - s.count(SEP, 0, s.find(d)) <= 3:
                                    got += boards[s] * wr
                        else:
                            for s in boards:
                                w = boards[s]
                                who = grey_choice(s)
                                if who is None:
                                    pairs = ((BLACK, w), (WHITE, w))
                                else:
                                    pairs = ((who, 2 * w),)
                                for c, wc in pairs:
                                    if 1 <= s.count(SEP, 0, s.find(c)) - t <= 3:
                                        got += wc
                        counts[world] += got
                        continue
                    nmask = mask.replace(d, "")
                    table = stirred_next.get(world)
                    if table is None:
                        table = {}
                        stirred_next[world] = table
                    target = table.get(nmask)
                    if target is None:
                        target = {}
                        table[nmask] = target
                    fresh = {}
                    if d != GREY_DIE:
                        for s in boards:
                            expand_forward(s, d, boards[s] * wr, tiles, fresh, sink, land,
                                            cont, False)
                    else:
                        for s in boards:
                            expand_grey(s, boards[s], tiles, fresh, sink, land, cont, 0)
                    gi = GREY_DIE in nmask
                    for ns in fresh:
                        key = _squeeze_one(ns, d, gi)
                        target[key] = target.get(key, 0) + fresh[ns]
        calm = calm_next
        stirred = stirred_next
    for world in landed:
        counts[world] += landed[world].get(world[0], 0)
    return counts, total


def tile_spaces(position, player=None):
    """Spaces where ``player`` may put (or move) a tile now (RULES 1.5).

    Not space 1, not a space with a camel or a tile, not next to another tile; the
    player's own tile (``position.tile_owners``) is lifted first and may not stay
    where it is. ``player=None``: a player with no tile on the board. Returns a
    sorted list of spaces.
    """
    position = as_position(position)
    others = []
    own = None
    for space in position.tiles:
        if player is not None and position.tile_owners.get(space) == player:
            own = space
        else:
            others.append(space)
    out = []
    for space in range(2, TRACK + 1):
        if space in position.stacks or space == own:
            continue
        if space in others or space - 1 in others or space + 1 in others:
            continue
        out.append(space)
    return out


def tile_values(position, player=None):
    """Exact expected landings (float coins) for every legal placement of ``player``'s tile.

    Returns a list of ``(expected, space, side)`` for every space of ``tile_spaces``
    and both sides (+1 oasis / cheering, -1 mirage / booing), best first (ties:
    lower space, then +1 first). Other tiles stay; the player's own tile is lifted.
    """
    position = as_position(position)
    base = [0] * (TRACK + 2)
    for space in position.tiles:
        if player is None or position.tile_owners.get(space) != player:
            base[space] = position.tiles[space]
    spaces = tile_spaces(position, player)
    coded = Coded(position)
    key = "%s|%s|%s|%d|%r|%r" % (position.edition, coded.board, coded.mask,
                                 coded.levels, base, spaces)
    hit = _VALUES.get(key)
    if hit is not None:
        return list(hit)
    table, total = landing_table(position, spaces, base)
    out = []
    for space, side in table:
        out.append((-table[(space, side)], space, -side))
    out.sort()
    out = [(-w / total, space, -side) for w, space, side in out]
    _VALUES.put(key, out)
    return list(out)


#: Recent ``tile_values`` results: between two dice every player asks again with the
#: same board, and only the tiles already down (and whose they are) change the answer.
#: Keyed by board, dice inside, the other tiles and the candidate spaces; those used
#: since the last ``_VALUES_SIZE`` new ones are kept (``board.Recent``).
_VALUES_SIZE = 16
_VALUES = Recent(_VALUES_SIZE)


def best_tile(position, player=None):
    """The best space and side for ``player``'s tile: ``(space, side, expected landings)``.

    ``side`` is +1 (oasis / cheering) or -1 (mirage / booing); ``None`` when there is
    no legal space. See ``tile_values``.
    """
    values = tile_values(position, player)
    if not values:
        return None
    expected, space, side = values[0]
    return space, side, expected


def tile_landings(position):
    """Expected landings this leg (float) of every tile on the board: ``{space: value}``.

    Each landing pays the tile's owner 1 coin (RULES 1.5).
    """
    result = leg_odds(position)
    out = {}
    for space in as_position(position).tiles:
        out[space] = result.landings.get(space, 0) / result.total
    return out
