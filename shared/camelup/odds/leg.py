"""Exact leg odds for Camel Up, both editions, in plain Python (CPython and MicroPython).

Layer above ``camelup.odds.board`` and ``camelup.odds.game`` (nothing in the
package above it is imported here).

The leg is enumerated exactly: every order in which the dice still inside can come
out and every face of each die (RULES 1.4, 3.4), with integer weights, so results
are exact rationals ``weight / total``.

How it is fast enough without compiled code:

* A board is one ``str``: ``"|" + space1 + "|" + space2 + ... + "|" + space16 + "|"``,
  each space listing its camels bottom -> top, one letter per camel. Finding a
  camel, its unit (the rest of its segment) and its space (count of ``|`` before
  it) and re-assembling the board are all single C-level string operations, and
  the board is its own hashable, already-hashed dictionary key.
* Dice only matter through the boards they produce, so the enumeration goes
  breadth first, one die reveal per level, keeping for every set of dice still
  inside a dictionary ``board -> integer weight``; different orders that give the
  same board are merged at once.
* Once the grey die is out the crazy camels never move again this leg; a camel
  that never moves changes no landing, payout or racing rank, so they are
  dropped from the boards, which merges many more of them. A crazy camel moved by
  the grey die with no racing camel on it gives one board for all its values.
* The last reveal never builds a board: the unit is lifted out and its insertion
  index in what is left, compared with the indices of the top two and the bottom
  racing camels left, gives the rank key (first, second, last) directly.
* At the last reveal, boards that read the same once every racing camel is written
  ``p`` (die inside) or ``o`` (die out) share one leaf computation: its outcomes are
  kept as string indices and read back from each board (``_last_level``).
* A move that crosses the finish line (RULES 1.13, 3.7) ends the race and the leg:
  the crossing unit is written outside the track (after the last ``|`` when
  crossing forward, before the first ``|`` when carried backwards), so ranking
  such a board needs no special case, and its weight is multiplied by the number
  of ways the rest of the leg could have been revealed.

Public entry points: ``leg_odds(position)`` -> ``LegOdds`` (P(1st), P(2nd), P(last)
as integer weights, the joint outcome, and expected tile landings). ``expand_forward``
and ``expand_grey`` (one die's three values on one board) are shared with
``camelup.odds.tiles``.

Nothing here imports ``fractions``, ``enum``, ``typing`` or ``itertools``: the
module runs unchanged on MicroPython.
"""

import sys

from camelup.odds.board import (
    BLACK,
    GREY_DIE,
    NO_TILES,
    SEP,
    TRACK,
    WHITE,
    Coded,
    backward_landings,
    grey_choice,
    perm,
    rank_key,
)
from camelup.odds.game import as_position


def full_order(s, crazy):
    """Every racing camel letter of board ``s``, last to first (RULES 1.11)."""
    r = s.replace(SEP, "")
    if crazy:
        r = r.replace(BLACK, "").replace(WHITE, "")
    return r


def expand_forward(s, c, w, tiles, target, acc, landings, cont, crazy, ranker=rank_key):
    """All three values of racing die ``c`` on board ``s`` (weight ``w`` per value).

    Boards still racing go to ``target`` (board -> weight); a unit crossing the
    line ends the leg: its rank key goes to ``acc`` with weight ``w * cont``.
    Tile landings go to ``landings`` (space -> weight x completions); the
    finished weight is kept under ``landings[0]``. RULES 1.2-1.5, 1.13.
    """
    i = s.find(c)
    j = s.find(SEP, i)
    k = s.count(SEP, 0, i)
    head = s[:i]
    unit = s[i:j]
    below = j  # separator after space k + v - 1 (top of that space)
    v = 1
    while v < 4:
        m = k + v
        if m > TRACK:  # this value and every higher one cross the line
            ns = head + s[j:] + unit
            key = ranker(ns, crazy)
            acc[key] = acc.get(key, 0) + w * cont * (4 - v)
            landings[0] = landings.get(0, 0) + w * cont * (4 - v)
            return
        top = s.find(SEP, below + 1)  # separator after space m
        t = tiles[m]
        if t == 0:
            ns = head + s[j:top] + unit + s[top:]
        elif t > 0:  # oasis / cheering: one space further, on top
            landings[m] = landings.get(m, 0) + w * cont
            if m == TRACK:
                ns = head + s[j:] + unit
                key = ranker(ns, crazy)
                acc[key] = acc.get(key, 0) + w * cont
                landings[0] = landings.get(0, 0) + w * cont
                below = top
                v += 1
                continue
            q = s.find(SEP, top + 1)
            ns = head + s[j:q] + unit + s[q:]
        else:  # mirage / booing: one space back, underneath
            landings[m] = landings.get(m, 0) + w * cont
            if v == 1:  # under what stayed on the space it left
                p = s.rfind(SEP, 0, i) + 1
                ns = s[:p] + unit + s[p:i] + s[j:]
            else:
                p = s.rfind(SEP, 0, below) + 1
                ns = head + s[j:p] + unit + s[p:]
        target[ns] = target.get(ns, 0) + w
        below = top
        v += 1


def expand_plain(boards, c, wr, target, tiles, acc, landings, cont, crazy, ranker):
    """``expand_forward`` of racing die ``c`` on every board of ``boards`` (board ->
    weight; one value weighs ``wr``) when there is no tile on the track: the three
    moves unrolled, one call for all the boards. A unit that could cross the line
    goes through ``expand_forward``."""
    get = target.get
    for s, w in boards.items():
        i = s.find(c)
        j = s.find(SEP, i)
        rest = s[:i] + s[j:]  # the separator closing space k is now at i
        q1 = rest.find(SEP, i + 1)
        q2 = rest.find(SEP, q1 + 1)
        q3 = rest.find(SEP, q2 + 1)
        if q1 < 0 or q2 < 0 or q3 < 0:  # on space 14 or further: a value may cross
            expand_forward(s, c, w * wr, tiles, target, acc, landings, cont, crazy, ranker)
            continue
        w *= wr
        unit = s[i:j]
        ns = rest[:q1] + unit + rest[q1:]
        target[ns] = get(ns, 0) + w
        ns = rest[:q2] + unit + rest[q2:]
        target[ns] = get(ns, 0) + w
        ns = rest[:q3] + unit + rest[q3:]
        target[ns] = get(ns, 0) + w


def _expand_backward(s, c, w, tiles, target, acc, landings, cont, ranker=rank_key):
    """All three values of the grey die moving crazy camel ``c`` (weight ``w`` each).

    Like ``expand_forward`` but counterclockwise (RULES 3.5-3.7). The boards put
    in ``target`` lose both crazy camels: the grey die is out for the rest of the
    leg, so they will not move again, and a camel that never moves changes no
    landing, tile payout or racing rank (RULES 1.3, 1.11); dropping them merges
    boards that differ only in them.
    """
    i = s.find(c)
    j = s.find(SEP, i)
    unit = s[i:j]
    tail = s[j:]
    for m, t, pos in backward_landings(s, i, tiles):
        if t:
            landings[m] = landings.get(m, 0) + w * cont
        if pos < 0:  # carried backwards over the line (RULES 3.7)
            key = ranker(unit + s[:i] + tail, True)
            acc[key] = acc.get(key, 0) + w * cont
            landings[0] = landings.get(0, 0) + w * cont
        else:
            ns = s[:pos] + unit + s[pos:i] + tail
            ns = ns.replace(BLACK, "").replace(WHITE, "")
            target[ns] = target.get(ns, 0) + w


def _rest_marks(rest, strip):
    """Indices and letters of the top two and the bottom racing camel of ``rest``."""
    t1 = rest.rstrip(strip)
    t2 = t1[:-1].rstrip(strip)
    t0 = rest.lstrip(strip)
    return len(t1) - 1, t1[-1], len(t2) - 1, t2[-1], len(rest) - len(t0), t0[0]


def _leaf_forward(s, c, w, tiles, acc, landings, strip, nracing):
    """Last reveal of the leg: racing die ``c`` with each value, weight ``w`` each.

    ``tiles``: list indexed by space, or ``None`` when there is no tile at all.

    Only the rank key (first, second, last) of each outcome is needed, so the
    final board is never built: the unit is taken out, and its insertion index in
    what is left, compared with the indices of that board's top two and bottom
    racing camels, gives the key (indices follow the race order along the string).
    The three values are counted per zone (above the leader, between the top two,
    in the pack, below the last) and turned into keys once.
    """
    i = s.find(c)
    j = s.find(SEP, i)
    u = s[i:j]
    if len(strip) > 1:
        u = u.replace(BLACK, "").replace(WHITE, "")
    n = len(u)
    if nracing - n < 2:
        _leaf_slow(s, c, w, NO_TILES if tiles is None else tiles, acc, landings,
                   len(strip) > 1, True)
        return
    k = s.count(SEP, 0, i)
    rest = s[:i] + s[j:]
    t1 = rest.rstrip(strip)
    a1 = len(t1) - 1
    t2 = t1[:-1].rstrip(strip)
    a2 = len(t2) - 1
    b0 = len(rest) - len(rest.lstrip(strip))
    above = between = pack = under = 0
    if tiles is None:  # no tile on the board: the plain moves, unrolled
        q = rest.find(SEP, i + 1)
        for v in (1, 2, 3):
            if k + v > TRACK:  # this value and the higher ones cross the line
                above += w * (4 - v)
                landings[0] = landings.get(0, 0) + w * (4 - v)
                break
            if v > 1:
                q = rest.find(SEP, q + 1)
            if q > a1:
                above += w
            elif q > a2:
                between += w
            elif q > b0:
                pack += w
            else:
                under += w
        v = 4
    else:
        v = 1
    below = i  # in rest: separator after space k + v - 1
    while v < 4:
        m = k + v
        if m > TRACK:  # this value and the higher ones cross the line
            above += w * (4 - v)
            landings[0] = landings.get(0, 0) + w * (4 - v)
            break
        top = rest.find(SEP, below + 1)
        t = tiles[m]
        if t == 0:
            pos = top
        else:
            landings[m] = landings.get(m, 0) + w
            if t > 0:
                if m == TRACK:
                    pos = len(rest) + 1
                    landings[0] = landings.get(0, 0) + w
                else:
                    pos = rest.find(SEP, top + 1)
            elif v == 1:
                pos = rest.rfind(SEP, 0, i) + 1
            else:
                pos = rest.rfind(SEP, 0, below) + 1
        if pos > a1:
            above += w
        elif pos > a2:
            between += w
        elif pos > b0:
            pack += w
        else:
            under += w
        below = top
        v += 1
    top1 = t1[-1]
    bot = rest[b0]
    if above:
        key = u[-1] + (u[-2] if n > 1 else top1) + bot
        acc[key] = acc.get(key, 0) + above
    if between:
        key = top1 + u[-1] + bot
        acc[key] = acc.get(key, 0) + between
    if pack:
        key = top1 + t2[-1] + bot
        acc[key] = acc.get(key, 0) + pack
    if under:
        key = top1 + t2[-1] + u[0]
        acc[key] = acc.get(key, 0) + under


def _leaf_backward(s, c, w, tiles, acc, landings, nracing):
    """Last reveal of the leg is the grey die moving crazy camel ``c`` (RULES 3.5-3.7),
    which carries racing camels (``expand_grey`` answers a crazy camel without any)."""
    strip = SEP + BLACK + WHITE
    i = s.find(c)
    j = s.find(SEP, i)
    u = s[i:j].replace(BLACK, "").replace(WHITE, "")
    n = len(u)
    if nracing - n < 2:
        _leaf_slow(s, c, w, tiles, acc, landings, True, False)
        return
    rest = s[:i] + s[j:]
    a1, top1, a2, top2, b0, bot = _rest_marks(rest, strip)
    for m, t, pos in backward_landings(s, i, tiles):  # pos < i: the same in rest
        if t:
            landings[m] = landings.get(m, 0) + w
        if pos < 0:  # over the line
            landings[0] = landings.get(0, 0) + w
        if pos > a1:
            key = u[-1] + (u[-2] if n > 1 else top1) + bot
        elif pos > a2:
            key = top1 + u[-1] + bot
        elif pos > b0:
            key = top1 + top2 + bot
        else:
            key = top1 + top2 + u[0]
        acc[key] = acc.get(key, 0) + w


def _leaf_slow(s, c, w, tiles, acc, landings, crazy, forward, ranker=rank_key):
    """Last reveal by building each final board (few racing camels left outside
    the unit, where the index shortcut of ``_leaf_forward`` does not apply)."""
    boards = {}
    if forward:
        expand_forward(s, c, w, tiles, boards, acc, landings, 1, crazy, ranker)
    else:
        _expand_backward(s, c, w, tiles, boards, acc, landings, 1, ranker)
    for ns in boards:
        key = ranker(ns, crazy)
        acc[key] = acc.get(key, 0) + boards[ns]


def _enumerate(coded, tiles=None, fast=True, ranker=None):
    """Breadth-first exact enumeration of the leg.

    Returns ``(acc, landings, total)``: ``acc`` maps a rank key (letters of the
    first, second and last racing camel; ``-`` for a missing second) to its
    integer weight; ``landings`` maps tile space -> weighted number of landings,
    and ``landings[0]`` is the weight of the outcomes where the race ends;
    ``total`` is the sum of all outcome weights. ``ranker``: ``None`` for those
    three-letter keys, or ``full_order`` for keys naming every racing camel (last
    to first).
    """
    if tiles is None:
        tiles = coded.tiles
    if fast and coded.crazy and GREY_DIE in coded.mask and coded.levels > 0:
        out = _enumerate_blank_grey(coded, tiles, ranker)
        if out is not None:
            return out
    return _walk(coded.board, coded.mask, coded.levels, coded.value_weight, tiles,
                 coded.crazy, None, ranker, fast)


def _enumerate_blank_grey(coded, tiles, ranker=None):
    """The leg when the grey die can change nothing: ``None`` when it might.

    The grey die is blank when no crazy camel shares a space with a racing camel, none
    can be carried back over the line or land on a tile (RULES 3.5-3.7), and no racing
    camel can land on a crazy camel's space before the grey die comes out (checked on
    the boards of the racing-only enumeration). Then, with ``n`` dice inside and ``L``
    reveals, an outcome either leaves the grey die inside (the racing dice alone, all
    ``L`` revealed: enumeration ``A``) or reveals it at one of ``L`` places with one of
    six faces and ``L - 1`` racing dice (``B``, the same enumeration one level
    shorter). Exactly: weights = ``A + 6 L B``. ``B`` costs almost nothing: its final
    boards are ``A``'s boards before the last level, and its crossings are ``A``'s
    early crossings divided by ``6 (n - L)`` (the ratio of the completions).
    """
    board = coded.board
    watch = []
    for ch in (BLACK, WHITE):
        i = board.find(ch)
        if i < 0:
            continue
        seg = board[board.rfind(SEP, 0, i) + 1:board.find(SEP, i)]
        if seg.replace(BLACK, "").replace(WHITE, ""):
            return None  # carries a racing camel or rides on one
        k = board.count(SEP, 0, i)
        if k < 4 or tiles[k - 1] or tiles[k - 2] or tiles[k - 3]:
            return None  # could cross the line backwards or land on a tile
        watch.append(k)
    racing = board.replace(BLACK, "").replace(WHITE, "")
    rear = len(racing) - len(racing.lstrip(SEP))  # space of the last racing camel
    front = TRACK + 1 - (len(racing) - len(racing.rstrip(SEP)))
    ahead = [k for k in watch if k > rear]  # racing camels move forward only
    for k in ahead:
        if k <= front + 3:
            return None  # within one die of a racing camel: not worth trying
    mask = coded.mask.replace(GREY_DIE, "")
    n = len(coded.mask)
    levels = coded.levels
    wr = coded.value_weight
    per_die = 3 * wr
    split = []
    acc, landings, _total = _walk(racing, mask, levels, wr, tiles, False, split, ranker)
    acc_early, land_early, before_last = split
    if ahead:
        if land_early.get(0, 0):
            return None  # a crossing before the last die: the check below can't see it
        near = ahead[0] if len(ahead) == 1 or ahead[0] < ahead[1] else ahead[1]
        for last in before_last:
            d = last[0]
            for s in last[1]:
                front = TRACK + 1 - (len(s) - len(s.rstrip(SEP)))
                if front >= near:
                    return None
                if front + 4 < near:
                    continue
                k = s.count(SEP, 0, s.find(d))
                for v in (1, 2, 3):
                    m = k + v
                    if m in ahead or m - 1 in ahead or (m <= TRACK and tiles[m] > 0
                                                        and m + 1 in ahead):
                        return None
    ratio = per_die * (n - levels)
    factor = per_die * levels
    for key in acc_early:
        acc[key] = acc.get(key, 0) + acc_early[key] // ratio * factor
    for space in land_early:
        landings[space] = landings.get(space, 0) + land_early[space] // ratio * factor
    for last in before_last:
        boards = last[1]
        for s in boards:
            key = rank_key(s, False) if ranker is None else ranker(s, False)
            acc[key] = acc.get(key, 0) + boards[s] * factor
    return acc, landings, perm(n, levels) * per_die ** levels


def _walk(board, mask, levels, wr, tiles, crazy, split, ranker=None, fast=True):
    """The breadth-first enumeration of ``_enumerate`` from ``board`` with the dice of
    ``mask`` inside and ``levels`` reveals (``wr``: weight of one die value; ``crazy``:
    crazy camels on the board). ``split``: ``None``, or a list that receives, before
    the last level, copies of the rank-key and landing weights so far and the
    ``(mask, boards)`` pairs still to reveal. ``ranker``: see ``_enumerate``.
    ``fast``: the last reveal by colour symmetry (``_last_level``); ``False``: every
    board and die on its own (the plain enumeration)."""
    per_die = 3 * wr  # total weight of one die's outcomes (grey: 6 faces of 1)
    n = len(mask)
    total = perm(n, levels) * per_die ** levels
    strip = SEP + BLACK + WHITE if crazy else SEP
    plain = None if not any(tiles) else tiles  # None: no tile on the board at all
    if crazy and GREY_DIE not in mask:
        board = board.replace(BLACK, "").replace(WHITE, "")
    nracing = len(board.replace(strip[0], "").replace(BLACK, "").replace(WHITE, ""))
    acc = {}
    landings = {}
    full = ranker is not None
    if not full:
        ranker = rank_key
    if levels == 0:
        acc[ranker(board, crazy)] = 1
        return acc, landings, 1
    current = {mask: {board: 1}}
    for level in range(levels):
        after = levels - level - 1
        # completions of the rest of the leg once this level's die is out
        cont = perm(n - level - 1, after) * per_die ** after
        following = {}
        if after == 0 and split is not None:
            split.append(dict(acc))
            split.append(dict(landings))
            split.append([(m, current[m]) for m in current])
        if after == 0 and fast and not full and nracing > 1:
            _last_level(current, wr, tiles, plain, acc, landings, strip, nracing)
            break
        for mask in current:
            boards = current[mask]
            for d in mask:
                if after == 0:
                    if full:
                        for s in boards:
                            if d != GREY_DIE:
                                _leaf_slow(s, d, boards[s] * wr, tiles, acc, landings, crazy,
                                           True, ranker)
                            else:
                                expand_grey(s, boards[s], tiles, None, acc, landings, 1,
                                            nracing, ranker)
                    elif d != GREY_DIE:
                        # crazy camels are gone once the grey die is out
                        st = strip if GREY_DIE in mask else SEP
                        for s in boards:
                            _leaf_forward(s, d, boards[s] * wr, plain, acc, landings,
                                          st, nracing)
                    else:
                        for s in boards:
                            expand_grey(s, boards[s], tiles, None, acc, landings, 1, nracing)
                    continue
                nmask = mask.replace(d, "")
                target = following.get(nmask)
                if target is None:
                    target = {}
                    following[nmask] = target
                if d != GREY_DIE and plain is None and fast:
                    expand_plain(boards, d, wr, target, tiles, acc, landings, cont, crazy,
                                  ranker)
                elif d != GREY_DIE:
                    for s in boards:
                        expand_forward(s, d, boards[s] * wr, tiles, target, acc, landings,
                                       cont, crazy, ranker)
                else:
                    for s in boards:
                        expand_grey(s, boards[s], tiles, target, acc, landings, cont, nracing,
                                    ranker)
        current = following
    return acc, landings, total


def _canon_table(board, mask):
    """How ``_last_level`` names the racing camels of a board with dice ``mask`` inside:
    ``(letter, "p")`` for a camel whose die is inside, ``(letter, "o")`` for the others.
    On CPython a ``str.translate`` table doing the same, as a string indexed by
    character code (MicroPython has no ``translate``: the pairs are applied with
    ``replace``, giving the same strings). Either is applied once to all the boards of
    a mask joined by newlines."""
    pairs = []
    for ch in board:
        if ch != SEP and ch != BLACK and ch != WHITE:
            pairs.append((ch, "p" if ch in mask else "o"))
    if _TRANSLATE:
        table = list(_IDENTITY)
        for ch, to in pairs:
            table[ord(ch)] = to
        return "".join(table)
    return pairs


_TRANSLATE = hasattr(SEP, "translate")
#: Every character code below 128 as itself: ``_canon_table``'s start (CPython only).
_IDENTITY = [chr(code) for code in range(128)] if _TRANSLATE else None


def _last_level(current, wr, tiles, plain, acc, landings, strip, nracing):
    """The last reveal of the leg for every ``mask -> {board: weight}`` of ``current``.

    Colour symmetry: a camel only matters at the last reveal through where it is and
    whether its die is still inside, so boards that are the same once every racing
    camel is written ``p`` (die inside) or ``o`` (die out) give the same outcomes up to
    the names, wherever the camels are. The outcomes of one board of such a class are
    worked out once (``_class_outcomes``) as string indices of the first, second and
    last camel and a weight; every other board of the class reads its three letters at
    those indices. Landings depend on the class alone (summed weight x landings per
    unit weight). About 2.5x fewer leaves than boards x dice. The grey die's outcomes
    depend on the shape alone, so classes of one shape share them (``grey_memo``).
    A class met in an earlier enumeration with the same tiles, value weight and
    racing camels is read from ``_KEPT`` (``_kept``), not worked out again.
    """
    plain_classes = {}
    grey_classes = {}
    grey_memo = {}
    packed = {}
    land = {}
    kept_plain = kept_grey = None
    bare_plain = bare_grey = None  # the same board without tiles (``_reaches``)
    if _KEPT_SIZE:
        layout = (wr, tuple(tiles), nracing)
        kept_plain = _kept(layout + (False, SEP))
        kept_grey = _kept(layout + (True, strip))
        if plain is not None:
            spaces = [m for m in range(len(tiles)) if tiles[m]]
            bare = (wr, tuple(NO_TILES), nracing)
            bare_plain = _kept(bare + (False, SEP))
            bare_grey = _kept(bare + (True, strip))
            bare_memo = {}
    for mask in list(current):
        boards = current.pop(mask)  # each mask's boards freed once done (MicroPython heap)
        if not boards:
            continue
        grey = GREY_DIE in mask
        classes = grey_classes if grey else plain_classes
        kept = kept_grey if grey else kept_plain
        st = strip if grey else SEP
        order = list(boards)
        # every board's class at once: one string of all of them, renamed, split again
        table = _canon_table(order[0], mask)
        named = "\n".join(order)
        if _TRANSLATE:
            named = named.translate(table)
        else:
            for ch, to in table:
                named = named.replace(ch, to)
        names = named.split("\n")
        get = acc.get
        for index in range(len(order)):
            s = order[index]
            t = names[index]
            w = boards[s]
            rec = classes.get(t)
            if rec is None:
                store = kept
                alone = bare_plain is not None and not _reaches(t, spaces, grey)
                if alone:  # no move reaches a tile: the class of the board without them
                    store = bare_grey if grey else bare_plain
                known = None
                if store is not None:
                    known = store[0].get(t)
                    if known is None:
                        known = store[1].get(t)
                        if known is not None:
                            store[0][t] = known
                            _KEPT_COUNT[0] += 1
                if known is None:
                    if alone:
                        rec = _class_outcomes(s, t, mask, wr, NO_TILES, None, st, nracing,
                                              bare_memo, packed, land)
                    else:
                        rec = _class_outcomes(s, t, mask, wr, tiles, plain, st, nracing,
                                              grey_memo, packed, land)
                    if store is not None:
                        store[0][t] = (rec[0], rec[1])
                        _KEPT_COUNT[0] += 1
                else:
                    rec = [known[0], known[1], 0]
                classes[t] = rec
            for i1, i2, i3, wt in rec[0]:
                key = s[i1] + s[i2] + s[i3]
                acc[key] = get(key, 0) + w * wt
            if rec[1]:
                rec[2] += w
    for classes in (plain_classes, grey_classes):
        for t in classes:
            rec = classes[t]
            found = rec[1]
            if found:
                for space in found:
                    landings[space] = landings.get(space, 0) + found[space] * rec[2]
    if _KEPT_COUNT[0] > _KEPT_SIZE:  # a new generation: the classes not met since go
        _KEPT[1] = _KEPT[0]
        _KEPT[0] = {}
        _KEPT_COUNT[0] = 0


#: Class outcomes kept between enumerations (``_last_level``): the positions a player
#: asks about in a leg (the board as it is, after each die and face, with a tile
#: placed) end in many of the same last-level classes. Two generations of
#: ``{(value weight, tiles, racing camels, grey die inside, strip): {class: (outcomes,
#: landings)}}``: the newer holds every class used since it started, and once it holds
#: more than ``_KEPT_SIZE`` classes it becomes the older and the older is dropped (a
#: class found only in the older moves to the newer). Results are the same numbers
#: with or without it (``tests/test_odds_fast_paths.py``). Off on MicroPython (its
#: heap is small): ``_KEPT_SIZE`` 0.
_KEPT = [{}, {}]
_KEPT_COUNT = [0]
_KEPT_SIZE = 0 if sys.implementation.name == "micropython" else 30000


def _reaches(t, spaces, grey):
    """True when a move of the last reveal on class ``t`` (``_last_level``) may land on
    one of the tile ``spaces``: a camel whose die is inside (``p``) one to three spaces
    before it (RULES 1.5), or, with the grey die inside (``grey``), a crazy camel one
    to three spaces after it (RULES 3.5, 3.6). A move that lands on no tile is the move
    of the board without tiles: the same outcomes, and no landings on a tile."""
    segments = t.split(SEP)  # segments[k]: space k
    last = len(segments) - 1
    for m in spaces:
        for k in (m - 3, m - 2, m - 1):
            if k >= 1 and "p" in segments[k]:
                return True
        if grey:
            for k in (m + 1, m + 2, m + 3):
                if k < last and (BLACK in segments[k] or WHITE in segments[k]):
                    return True
    return False


def _kept(layout):
    """``(newer, older)`` class dictionaries of ``_KEPT`` for one board layout."""
    newer = _KEPT[0].get(layout)
    if newer is None:
        newer = {}
        _KEPT[0][layout] = newer
    older = _KEPT[1].get(layout)
    return newer, older if older is not None else {}


def _class_outcomes(s, t, mask, wr, tiles, plain, st, nracing, grey_memo, packed, land):
    """``[outcomes, landings, 0]`` of the last reveal on board ``s`` of class ``t``
    (unit weight): outcomes as ``(index of first, second, last in s, weight)``; see
    ``_last_level``. The common case (no tile, enough racing camels outside the unit)
    finds the indices directly (``_index_forward``); the others go through
    ``_leaf_forward`` and look their letters up. The grey die's outcomes depend on the
    board's shape alone (every racing camel alike, whatever its die): they are kept in
    ``grey_memo`` under the class with every ``p`` written ``o`` (``_grey_outcomes``).
    ``packed`` and ``land``: empty scratch dictionaries, left empty (fewer allocations);
    the landings come back as ``None`` when there are none."""
    keys = None
    if plain is None:  # the top, the second and the bottom racing camel of the board
        t1 = len(s.rstrip(st)) - 1
        t2 = len(s[:t1].rstrip(st)) - 1
        t0 = len(s) - len(s.lstrip(st))
    for d in mask:
        if d != GREY_DIE:
            if plain is None and _index_forward(s, d, wr, packed, land, st, nracing, t1, t2,
                                                t0):
                continue
            if keys is None:
                keys = {}
            _leaf_forward(s, d, wr, plain, keys, land, st, nracing)
        else:
            shape = t.replace("p", "o")
            grey = grey_memo.get(shape)
            if grey is None:
                grey = _grey_outcomes(s, tiles, nracing)
                grey_memo[shape] = grey
            for code, wt in grey[0]:
                packed[code] = packed.get(code, 0) + wt
            for space in grey[1]:
                land[space] = land.get(space, 0) + grey[1][space]
    if keys is not None:
        _pack_keys(s, keys, packed)
    outcomes = []
    for code in packed:
        outcomes.append((code >> 12, (code >> 6) & 63, code & 63, packed[code]))
    packed.clear()
    if land:
        found = dict(land)
        land.clear()
        return [outcomes, found, 0]
    return [outcomes, None, 0]


def _pack_keys(s, keys, packed):
    """Add rank-key weights ``keys`` to ``packed`` as string indices of board ``s``."""
    for key in keys:
        code = (s.find(key[0]) << 12) | (s.find(key[1]) << 6) | s.find(key[2])
        packed[code] = packed.get(code, 0) + keys[key]


def _grey_outcomes(s, tiles, nracing):
    """``(list of (packed indices, weight), landings)`` of the grey die as the last
    reveal on board ``s`` (unit weight per face): ``_index_grey`` when it can, else
    ``expand_grey``."""
    packed = {}
    land = {}
    if not _index_grey(s, tiles, packed, land, nracing):
        keys = {}
        expand_grey(s, 1, tiles, None, keys, land, 1, nracing)
        _pack_keys(s, keys, packed)
    out = []
    for code in packed:
        out.append((code, packed[code]))
    return out, land


def _index_forward(s, c, w, packed, land, strip, nracing, t1, t2, b0):
    """``_leaf_forward`` on a board with no tile, writing each outcome as the packed
    string indices (first << 12 | second << 6 | last) of board ``s``. ``t1``, ``t2``,
    ``b0``: string indices of the board's top, second and bottom racing camels
    (``strip``: the separator, and the crazy camels' letters when they are on it).
    Returns ``False``, doing nothing, when fewer than two racing camels stay outside
    the unit (then ``_leaf_slow`` is needed).

    Everything is read on ``s`` itself: the unit ``s[i:j]`` moving to the top of a
    space further on lands just before that space's closing separator ``q > j``, and
    it ends above a camel of the rest exactly when ``q`` is past that camel's index."""
    i = s.find(c)
    j = s.find(SEP, i)
    if len(strip) > 1:
        seg = s[i:j]
        n = j - i - seg.count(BLACK) - seg.count(WHITE)
        if nracing - n < 2:
            return False
        u1 = seg.rstrip(strip)
        top = i + len(u1) - 1  # the unit's top racing camel
        if n > 1:
            second = i + len(u1[:-1].rstrip(strip)) - 1
    else:
        n = j - i
        if nracing - n < 2:
            return False
        top = j - 1
        second = j - 2
    # the top two (a1, a2) and the bottom (b0) racing camels outside the unit
    if t1 > j:
        a1 = t1
        if i <= t2 < j:  # the second camel of the board is in the unit
            a2 = len(s[:i].rstrip(strip)) - 1
        else:
            a2 = t2
    else:  # the unit holds the leader: the rest is all below it
        a1 = len(s[:i].rstrip(strip)) - 1
        a2 = len(s[:a1].rstrip(strip)) - 1
    if b0 == i:  # the unit holds the last camel
        b0 = len(s) - len(s[j:].lstrip(strip))
    above = between = pack = under = 0
    q = j
    for v in (1, 2, 3):
        q = s.find(SEP, q + 1)
        if q < 0:  # past space 16: this value and the higher ones cross the line
            above += w * (4 - v)
            land[0] = land.get(0, 0) + w * (4 - v)
            break
        if q > a1:
            above += w
        elif q > a2:
            between += w
        elif q > b0:
            pack += w
        else:
            under += w
    if above:
        code = (top << 12) | ((second if n > 1 else a1) << 6) | b0
        packed[code] = packed.get(code, 0) + above
    if between:
        code = (a1 << 12) | (top << 6) | b0
        packed[code] = packed.get(code, 0) + between
    if pack:
        code = (a1 << 12) | (a2 << 6) | b0
        packed[code] = packed.get(code, 0) + pack
    if under:
        code = (a1 << 12) | (a2 << 6) | i
        packed[code] = packed.get(code, 0) + under
    return True


def _rest_indices(s, i, j, strip, t1, t2, t0):
    """``(a1, a2, b0)``: string indices of the top two and the bottom racing camels of
    board ``s`` outside the unit ``s[i:j]``, from the board's own ``t1``, ``t2``, ``t0``
    (``_index_forward`` does the same inline)."""
    if t1 > j:
        a1 = t1
        if i <= t2 < j:  # the second camel of the board is in the unit
            a2 = len(s[:i].rstrip(strip)) - 1
        else:
            a2 = t2
    else:  # the unit holds the leader: the rest is all below it
        a1 = len(s[:i].rstrip(strip)) - 1
        a2 = len(s[:a1].rstrip(strip)) - 1
    if t0 >= i and t0 < j:  # the unit holds the last camel
        t0 = len(s) - len(s[j:].lstrip(strip))
    return a1, a2, t0


def _index_grey(s, tiles, packed, land, nracing):
    """The grey die as the last reveal (one weight per face), RULES 3.5-3.7: each
    outcome as packed string indices of board ``s`` like ``_index_forward``, landings
    and crossings into ``land``. A crazy camel with no racing camel on it leaves the
    ranking as it is; one carrying racing camels puts them on top of the space it
    reaches (a cheering tile: one space further, on top; booing: one space back,
    underneath; over the line: below everyone). ``False`` (nothing done) when fewer
    than two racing camels stay outside the unit it moves (``_leaf_slow`` is needed)."""
    strip = SEP + BLACK + WHITE
    who = grey_choice(s)
    if who is None:  # either, half the faces each
        movers = BLACK + WHITE
        w = 1
    else:
        movers = who
        w = 2
    for c in movers:
        i = s.find(c)
        seg = s[i:s.find(SEP, i)]
        n = len(seg) - seg.count(BLACK) - seg.count(WHITE)
        if n and nracing - n < 2:
            return False
    t1 = len(s.rstrip(strip)) - 1
    t2 = len(s[:t1].rstrip(strip)) - 1
    t0 = len(s) - len(s.lstrip(strip))
    for c in movers:
        i = s.find(c)
        j = s.find(SEP, i)
        seg = s[i:j]
        n = len(seg) - seg.count(BLACK) - seg.count(WHITE)
        moves = backward_landings(s, i, tiles)
        for m, t, pos in moves:
            if t:
                land[m] = land.get(m, 0) + w
            if pos < 0:  # over the line: race over (RULES 3.7)
                land[0] = land.get(0, 0) + w
        if n == 0:  # no racing passenger: the ranking can't change
            code = (t1 << 12) | (t2 << 6) | t0
            packed[code] = packed.get(code, 0) + 3 * w
            continue
        u1 = seg.rstrip(strip)
        top_u = i + len(u1) - 1  # the unit's top, second and bottom racing camels
        second_u = i + len(u1[:-1].rstrip(strip)) - 1 if n > 1 else -1
        bottom_u = i + len(seg) - len(seg.lstrip(strip))
        a1, a2, b0 = _rest_indices(s, i, j, strip, t1, t2, t0)
        for _m, _t, pos in moves:  # over the line (pos -1): below everyone (RULES 3.7)
            # pos < i: compared with the rest's indices as they are in s
            if pos > a1:
                code = (top_u << 12) | ((second_u if n > 1 else a1) << 6) | b0
            elif pos > a2:
                code = (a1 << 12) | (top_u << 6) | b0
            elif pos > b0:
                code = (a1 << 12) | (a2 << 6) | b0
            else:
                code = (a1 << 12) | (a2 << 6) | bottom_u
            packed[code] = packed.get(code, 0) + w
    return True


def expand_grey(s, w0, tiles, target, acc, landings, cont, nracing, ranker=rank_key):
    """The grey die on board ``s`` (weight ``w0`` per face), RULES 3.5-3.7.

    ``target`` is the next level's dictionary, or ``None`` for the last reveal.
    A crazy camel with no racing camel above it changes no racing rank wherever it
    goes, and it is dropped from the next boards anyway (see ``_expand_backward``),
    so all its values give one board (or one rank key) and only its tile landings
    and a crossing of the line need looking at value by value.
    """
    who = grey_choice(s)
    if who is None:  # rule 3.5 (c): the numeral's ink decides: either, half the faces
        movers = BLACK + WHITE
        w = w0
    else:
        movers = who
        w = 2 * w0
    key = None
    plain = None
    for c in movers:
        i = s.find(c)
        j = s.find(SEP, i)
        if s[i + 1:j].replace(BLACK, "").replace(WHITE, ""):  # racing passengers
            if target is not None:
                _expand_backward(s, c, w, tiles, target, acc, landings, cont, ranker)
            elif ranker is rank_key:
                _leaf_backward(s, c, w, tiles, acc, landings, nracing)
            else:
                _leaf_slow(s, c, w, tiles, acc, landings, True, False, ranker)
            continue
        k = s.count(SEP, 0, i)
        if key is None and (target is None or k < 4):  # a rank key is needed
            key = ranker(s, True)
        if plain is None and target is not None:
            plain = s.replace(BLACK, "").replace(WHITE, "")
        wc = w * cont
        stay = 0
        v = 1
        while v < 4:
            m = k - v
            if m < 1:  # over the line: race over, ranks unchanged (RULES 3.7)
                acc[key] = acc.get(key, 0) + wc
                landings[0] = landings.get(0, 0) + wc
            else:
                if tiles[m]:
                    landings[m] = landings.get(m, 0) + wc
                stay += w
            v += 1
        if stay:
            if target is None:
                acc[key] = acc.get(key, 0) + stay
            else:
                target[plain] = target.get(plain, 0) + stay


class LegOdds:
    """Exact outcome of the current leg, as integer weights over ``total``.

    ``first``, ``second``, ``last``: dict racing colour -> integer weight of the
    outcomes where that camel is leg leader / second / last (RULES 1.10, 1.11).
    ``landings``: dict tile space -> weighted number of landings on that tile
    (each landing pays its owner 1 coin, RULES 1.5); ``landings[s] / total`` is
    the owner's expected income from it this leg.
    ``total``: sum of the weights of all outcomes (orders x faces, RULES 1.4).
    ``finished``: weight of the outcomes where the race ends during this leg.
    ``joint``: dict ``(first, second, last)`` colour tuple -> weight (``second`` is
    ``None`` with a single racing camel); the joint distribution behind the three
    marginals (partnership values need it).
    ``places``: ``None``, or (``leg_odds(..., places=True)``) dict racing colour ->
    list of integer weights, one per place from 1st to last (3rd and 4th included).
    Probabilities: ``first[c] / total`` (use ``fractions.Fraction`` on CPython for
    exact values).
    """

    def __init__(self, colours, total):
        self.total = total
        self.first = {}
        self.second = {}
        self.last = {}
        for c in colours:
            self.first[c] = 0
            self.second[c] = 0
            self.last[c] = 0
        self.landings = {}
        self.finished = 0
        self.joint = {}
        self.places = None

    def p_first(self, colour):
        """P(colour leads the leg), a float in 0..1."""
        return self.first[colour] / self.total

    def p_second(self, colour):
        """P(colour is second at leg end), a float in 0..1."""
        return self.second[colour] / self.total

    def p_last(self, colour):
        """P(colour is last at leg end), a float in 0..1."""
        return self.last[colour] / self.total

    def expected_landings(self, space):
        """Expected number of landings on the tile on ``space`` (float, coins)."""
        return self.landings.get(space, 0) / self.total

    def __repr__(self):
        return "LegOdds(total=%d first=%r)" % (self.total, sorted(self.first.items()))


def fill_weights(coded, acc, landings, result):
    """Turn rank-key weights ``acc`` (``rank_key`` -> integer weight) and ``landings``
    (tile space -> weight, the race's end under 0) into the per-colour weights, the
    joint outcome, the landings and ``finished`` of ``LegOdds`` ``result``."""
    names = coded.name
    joint = result.joint
    for key in acc:
        w = acc[key]
        triple = (names[key[0]], names.get(key[1]), names[key[2]])
        joint[triple] = joint.get(triple, 0) + w
        result.first[names[key[0]]] += w
        if key[1] != "-":
            result.second[names[key[1]]] += w
        result.last[names[key[2]]] += w
    for space in landings:
        if space:
            result.landings[space] = landings[space]
    result.finished = landings.get(0, 0)


def _fill_places(coded, acc, landings, result):
    """Like ``fill_weights`` for keys naming every racing camel last to first."""
    names = coded.name
    joint = result.joint
    places = {}
    for colour in result.first:
        places[colour] = [0] * len(result.first)
    for key in acc:
        w = acc[key]
        n = len(key)
        for index in range(n):
            places[names[key[index]]][n - 1 - index] += w
        triple = (names[key[-1]], names[key[-2]] if n > 1 else None, names[key[0]])
        joint[triple] = joint.get(triple, 0) + w
        result.first[triple[0]] += w
        if triple[1] is not None:
            result.second[triple[1]] += w
        result.last[triple[2]] += w
    result.places = places
    for space in landings:
        if space:
            result.landings[space] = landings[space]
    result.finished = landings.get(0, 0)


def leg_odds(position, fast=True, places=False):
    """Exact leg odds of a ``Position`` (or anything ``as_position`` accepts).

    Returns ``LegOdds`` with integer weights over ``total`` = (ordered choices of
    the revealed dice) x (faces per die)^(reveals): classic counts the three values
    of a die (5!*3^5 = 29,160 for a full leg); second counts the six faces of each
    die (720*6^5 = 5,598,720 for a full leg). A race that ends mid-leg stops the
    leg there (RULES 1.13, 3.7). ``fast=False``: the plain breadth-first enumeration
    only, without the shortcut for a grey die that can change nothing (same weights,
    slower; for tests and benchmarks). ``places=True``: also every place of every
    camel (``LegOdds.places``), by ranking each final board in full (about twice
    the time). Raises ``ValueError`` for an invalid position.
    """
    position = as_position(position)
    coded = Coded(position)
    acc, landings, total = _enumerate(coded, None, fast, full_order if places else None)
    result = LegOdds(position.racing(), total)
    if places:
        _fill_places(coded, acc, landings, result)
    else:
        fill_weights(coded, acc, landings, result)
    return result
