"""Exact leg odds for Camel Up, both editions, in plain Python (CPython and MicroPython).

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
* A move that crosses the finish line (RULES 1.13, 3.7) ends the race and the leg:
  the crossing unit is written outside the track (after the last ``|`` when
  crossing forward, before the first ``|`` when carried backwards), so ranking
  such a board needs no special case, and its weight is multiplied by the number
  of ways the rest of the leg could have been revealed.

Public entry points (see ``docs/odds.md`` for the stable API):

* ``Position``: the compact position this module works on (edition, stacks, tiles,
  dice inside).
* ``leg_odds(position)`` -> ``LegOdds`` (P(1st), P(2nd), P(last) as integer
  weights, the joint outcome, and expected tile landings).
* ``tile_landings``, ``tile_spaces``, ``tile_values``, ``best_tile``: tile income
  (``camelup.odds.tiles`` does the candidates).
* ``move(position, colour, value, ink=None)``: one die applied to a ``Position``
  (used to cross-check the rules engine).

Nothing here imports ``fractions``, ``enum``, ``typing`` or ``itertools``: the
module runs unchanged on MicroPython.
"""

CLASSIC = "classic"
SECOND = "second"
EDITIONS = (CLASSIC, SECOND)

#: Racing camels per edition (RULES 2.1, 3.1).
RACING = {
    CLASSIC: ("blue", "green", "orange", "yellow", "white"),
    SECOND: ("blue", "green", "yellow", "red", "purple"),
}
#: Crazy camels (second edition only, RULES 3.1); the grey die's numeral ink of
#: the same name selects that camel under rule 3.5 (c).
CRAZY = ("black", "white")
GREY = "grey"
TRACK = 16
#: Number of dice revealed in a full leg (RULES 2.4, 3.4).
LEG_REVEALS = {CLASSIC: 5, SECOND: 5}

SEP = "|"
_RACING_LETTERS = "ABCDEFGHIJ"
_BLACK = "x"  # letter of the black crazy camel inside a board string
_WHITE = "y"  # letter of the white crazy camel
_GREY_DIE = "*"  # the grey die inside a dice mask
_NO_TILES = [0] * (TRACK + 2)


class Position:
    """A race position as far as one leg's odds care.

    ``edition``: ``"classic"`` or ``"second"``.
    ``stacks``: dict ``space -> list of camel colours bottom -> top``; spaces 1..16.
    Any racing colour names are accepted (the acceptance cases use labels); in the
    second edition ``black`` and ``white`` are the crazy camels (RULES 3.1).
    ``tiles``: dict ``space -> side`` with side ``+1`` or ``"+"`` (oasis / cheering,
    RULES 1.5), ``-1`` or ``"-"`` (mirage / booing); or ``space -> (side, owner)``;
    the rules engine's ``(owner, "+"/"-")`` is recognised by its text side. Owners
    are kept for the caller (``tile_owners``); the odds do not depend on them.
    ``dice``: colours of the dice still inside the pyramid; the grey die is
    ``"grey"``. Default: all dice of the edition (a fresh leg).
    ``reveals``: how many of those dice will still come out this leg. Default:
    classic all of them (RULES 2.4); second ``len(dice) - 1`` (RULES 3.4: five of
    six dice are revealed, so with k inside k-1 come out).

    Raises ``ValueError`` for an unknown edition, a space outside 1..16, a camel
    on two spaces, a crazy camel in the classic edition, a tile on an occupied
    space or on space 1, or a die with no camel on the board.
    """

    def __init__(self, edition, stacks, tiles=None, dice=None, reveals=None):
        if edition not in EDITIONS:
            raise ValueError("unknown edition %r (classic or second)" % (edition,))
        self.edition = edition
        self.stacks = {}
        seen = {}
        for space in stacks:
            camels = list(stacks[space])
            if not camels:
                continue
            if not 1 <= space <= TRACK:
                raise ValueError("space %r is not on the track (1..16)" % (space,))
            for camel in camels:
                if camel in seen:
                    raise ValueError("camel %r is on two spaces" % (camel,))
                if edition == CLASSIC and camel == "black":
                    raise ValueError("the classic edition has no crazy camels")
                seen[camel] = space
            self.stacks[space] = camels
        self.tiles = {}
        self.tile_owners = {}
        for space in tiles or {}:
            side = tiles[space]
            owner = None
            if isinstance(side, tuple):
                if side[0] in ("+", "-"):
                    side, owner = side
                elif side[1] in ("+", "-"):  # the rules engine's (owner, side)
                    owner, side = side
                else:
                    side, owner = side
            if side == "+":
                side = 1
            elif side == "-":
                side = -1
            if side not in (1, -1):
                raise ValueError("tile side must be +1 or -1, not %r" % (side,))
            if not 2 <= space <= TRACK:
                raise ValueError("a tile can't be on space %r" % (space,))
            if space in self.stacks:
                raise ValueError("a tile can't share space %d with camels" % space)
            self.tiles[space] = side
            self.tile_owners[space] = owner
        crazy = self.crazy()
        if dice is None:
            dice = [c for c in self.racing()]
            if edition == SECOND and crazy:
                dice.append(GREY)
        dice = list(dice)
        for die in dice:
            if die == GREY:
                if not crazy:
                    raise ValueError("the grey die needs a crazy camel on the board")
            elif die not in seen or die in crazy:
                raise ValueError("die %r has no racing camel on the board" % (die,))
        if len(set(dice)) != len(dice):
            raise ValueError("a die is listed twice: %r" % (dice,))
        self.dice = dice
        #: True for a finished race (``camelup.odds.game`` sets it): nothing moves any more.
        self.over = False
        if reveals is None:
            reveals = len(dice) if edition == CLASSIC else max(0, len(dice) - 1)
        if not 0 <= reveals <= len(dice):
            raise ValueError("can't reveal %r of %d dice" % (reveals, len(dice)))
        self.reveals = reveals

    def camels(self):
        """All camel colours on the board (unordered list)."""
        out = []
        for space in self.stacks:
            out.extend(self.stacks[space])
        return out

    def crazy(self):
        """The crazy camels on the board (second edition), sorted."""
        if self.edition != SECOND:
            return []
        return sorted([c for c in self.camels() if c in CRAZY])

    def racing(self):
        """The racing camels on the board, sorted by name."""
        crazy = self.crazy()
        return sorted([c for c in self.camels() if c not in crazy])

    def ranking(self):
        """Racing camels from first to last (RULES 1.11); crazy camels ignored."""
        crazy = self.crazy()
        order = []
        for space in sorted(self.stacks):
            for camel in self.stacks[space]:
                if camel not in crazy:
                    order.append(camel)
        order.reverse()
        return order

    def copy(self):
        """An independent copy."""
        tiles = {}
        for space in self.tiles:
            tiles[space] = (self.tiles[space], self.tile_owners[space])
        stacks = {}
        for space in self.stacks:
            stacks[space] = list(self.stacks[space])
        out = Position(self.edition, stacks, tiles, list(self.dice), self.reveals)
        out.over = self.over
        return out

    def __repr__(self):
        parts = []
        for space in sorted(self.stacks):
            parts.append("%d:[%s]" % (space, ",".join(self.stacks[space])))
        for space in sorted(self.tiles):
            parts.append("%s%d" % ("+" if self.tiles[space] > 0 else "-", space))
        return "Position(%s %s dice=%s reveals=%d)" % (
            self.edition, " ".join(parts), ",".join(self.dice), self.reveals)


class _Coded:
    """A ``Position`` turned into the string form the enumerator works on."""

    def __init__(self, position):
        racing = position.racing()
        crazy = position.crazy()
        self.letter = {}
        self.name = {}
        for index in range(len(racing)):
            self.letter[racing[index]] = _RACING_LETTERS[index]
        if "black" in crazy:
            self.letter["black"] = _BLACK
        if "white" in crazy:
            self.letter["white"] = _WHITE
        for colour in self.letter:
            self.name[self.letter[colour]] = colour
        segments = [""] * (TRACK + 1)
        for space in position.stacks:
            segments[space] = "".join([self.letter[c] for c in position.stacks[space]])
        self.board = SEP.join(segments) + SEP
        self.tiles = [0] * (TRACK + 2)
        for space in position.tiles:
            self.tiles[space] = position.tiles[space]
        mask = []
        for die in position.dice:
            mask.append(_GREY_DIE if die == GREY else self.letter[die])
        mask.sort()
        self.mask = "".join(mask)
        self.levels = position.reveals
        # Integer weight of one racing-die value: the second edition counts every
        # face of six (1,1,2,2,3,3 -> 2 per value, matching the grey die's six
        # faces of weight 1); the classic edition counts values (RULES 1.4).
        self.value_weight = 1 if position.edition == CLASSIC else 2
        self.crazy = len(crazy) > 0


def _step_forward(s, c, v, tiles):
    """Move racing camel letter ``c`` of board ``s`` ``v`` spaces clockwise.

    Returns ``(board, tile_space)``: the new board string and the space of the tile
    the unit landed on (0 when none). RULES 1.2, 1.3, 1.5, 1.13.
    """
    i = s.find(c)
    j = s.find(SEP, i)
    k = s.count(SEP, 0, i)
    m = k + v
    if m > TRACK:  # crossed the finish line: race over (RULES 1.13)
        return s[:i] + s[j:] + s[i:j], 0
    t = tiles[m]
    if t == 0:
        q = j
        while v:
            q = s.find(SEP, q + 1)
            v -= 1
        return s[:i] + s[j:q] + s[i:j] + s[q:], 0
    if t > 0:  # oasis / cheering: one more space forward, on top
        if m == TRACK:
            return s[:i] + s[j:] + s[i:j], m
        q = j
        while v >= 0:
            q = s.find(SEP, q + 1)
            v -= 1
        return s[:i] + s[j:q] + s[i:j] + s[q:], m
    # mirage / booing: one space back, underneath (RULES 1.3, 1.5)
    if v == 1:  # back onto the space it left, under what stayed there
        p = s.rfind(SEP, 0, i) + 1
        return s[:p] + s[i:j] + s[p:i] + s[j:], m
    q = j
    v -= 2
    while v:
        q = s.find(SEP, q + 1)
        v -= 1
    q += 1
    return s[:i] + s[j:q] + s[i:j] + s[q:], m


def _step_backward(s, c, v, tiles):
    """Move crazy camel letter ``c`` ``v`` spaces counterclockwise (RULES 3.5-3.7).

    Returns ``(board, tile_space)`` like ``_step_forward``.
    """
    i = s.find(c)
    j = s.find(SEP, i)
    k = s.count(SEP, 0, i)
    m = k - v
    if m < 1:  # carried backwards over the line: race over (RULES 3.7)
        return s[i:j] + s[:i] + s[j:], 0
    t = tiles[m]
    q = s.rfind(SEP, 0, i)  # the separator before space k
    if t == 0:
        v -= 1
        while v:
            q = s.rfind(SEP, 0, q)
            v -= 1
        return s[:q] + s[i:j] + s[q:i] + s[j:], 0
    if t > 0:  # cheering: one more space counterclockwise, on top (RULES 3.6)
        if m == 1:
            return s[i:j] + s[:i] + s[j:], m
        while v:
            q = s.rfind(SEP, 0, q)
            v -= 1
        return s[:q] + s[i:j] + s[q:i] + s[j:], m
    # booing: one space clockwise, underneath (RULES 3.6)
    v -= 1
    while v:
        q = s.rfind(SEP, 0, q)
        v -= 1
    q += 1
    return s[:q] + s[i:j] + s[q:i] + s[j:], m


def _grey_choice(s):
    """The crazy camel letter the grey die moves whatever its ink, or ``None``.

    RULES 3.5: (a) exactly one crazy camel carries a racing camel -> that one;
    else (b) one sits directly on the other -> the top one; else ``None`` (the
    numeral's ink decides, rule (c)).
    """
    ix = s.find(_BLACK)
    iy = s.find(_WHITE)
    if ix < 0:
        return _WHITE
    if iy < 0:
        return _BLACK
    above_x = s[ix + 1:s.find(SEP, ix)].replace(_WHITE, "")
    above_y = s[iy + 1:s.find(SEP, iy)].replace(_BLACK, "")
    if above_x and not above_y:
        return _BLACK
    if above_y and not above_x:
        return _WHITE
    if iy == ix + 1:
        return _WHITE
    if ix == iy + 1:
        return _BLACK
    return None


def _perm(n, r):
    out = 1
    while r > 0:
        out *= n
        n -= 1
        r -= 1
    return out


def _rank_key(s, crazy):
    """Three letters: first, second (``-`` if none) and last racing camel of board ``s``."""
    r = s.replace(SEP, "")
    if crazy:
        r = r.replace(_BLACK, "").replace(_WHITE, "")
    if len(r) > 1:
        return r[-1] + r[-2] + r[0]
    return r + "-" + r


def _expand_forward(s, c, w, tiles, target, acc, landings, cont, crazy):
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
            key = _rank_key(ns, crazy)
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
                key = _rank_key(ns, crazy)
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


def _expand_backward(s, c, w, tiles, target, acc, landings, cont):
    """All three values of the grey die moving crazy camel ``c`` (weight ``w`` each).

    Like ``_expand_forward`` but counterclockwise (RULES 3.5-3.7). The boards put
    in ``target`` lose both crazy camels: the grey die is out for the rest of the
    leg, so they will not move again, and a camel that never moves changes no
    landing, tile payout or racing rank (RULES 1.3, 1.11); dropping them merges
    boards that differ only in them.
    """
    i = s.find(c)
    j = s.find(SEP, i)
    k = s.count(SEP, 0, i)
    unit = s[i:j]
    tail = s[j:]
    top = s.rfind(SEP, 0, i)  # separator after space k - v (v = 1 first)
    v = 1
    while v < 4:
        m = k - v
        t = tiles[m] if m > 0 else 0
        if t:
            landings[m] = landings.get(m, 0) + w * cont
        if m < 1 or (t > 0 and m == 1):  # carried backwards over the line (RULES 3.7)
            key = _rank_key(unit + s[:i] + tail, True)
            acc[key] = acc.get(key, 0) + w * cont
            landings[0] = landings.get(0, 0) + w * cont
        else:
            if t == 0:
                ns = s[:top] + unit + s[top:i] + tail
            elif t > 0:  # cheering: one more space counterclockwise, on top
                q = s.rfind(SEP, 0, top)
                ns = s[:q] + unit + s[q:i] + tail
            else:  # booing: one space clockwise, underneath
                p = top + 1
                ns = s[:p] + unit + s[p:i] + tail
            ns = ns.replace(_BLACK, "").replace(_WHITE, "")
            target[ns] = target.get(ns, 0) + w
            top = s.rfind(SEP, 0, top)
        v += 1


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
        u = u.replace(_BLACK, "").replace(_WHITE, "")
    n = len(u)
    if nracing - n < 2:
        _leaf_slow(s, c, w, _NO_TILES if tiles is None else tiles, acc, landings,
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
    """Last reveal of the leg is the grey die moving crazy camel ``c`` (RULES 3.5-3.7)."""
    strip = SEP + _BLACK + _WHITE
    i = s.find(c)
    j = s.find(SEP, i)
    u = s[i:j].replace(_BLACK, "").replace(_WHITE, "")
    n = len(u)
    if n and nracing - n < 2:
        _leaf_slow(s, c, w, tiles, acc, landings, True, False)
        return
    k = s.count(SEP, 0, i)
    if n == 0:  # no racing passenger: the ranking can't change
        key = _rank_key(s, True)
        v = 1
        while v < 4:
            m = k - v
            if m < 1:
                landings[0] = landings.get(0, 0) + w
            else:
                t = tiles[m]
                if t:
                    landings[m] = landings.get(m, 0) + w
                    if t > 0 and m == 1:
                        landings[0] = landings.get(0, 0) + w
            v += 1
        acc[key] = acc.get(key, 0) + 3 * w
        return
    rest = s[:i] + s[j:]
    a1, top1, a2, top2, b0, bot = _rest_marks(rest, strip)
    top = rest.rfind(SEP, 0, i)  # separator after space k - v
    v = 1
    while v < 4:
        m = k - v
        if m < 1:
            pos = -1
            landings[0] = landings.get(0, 0) + w
        else:
            t = tiles[m]
            if t == 0:
                pos = top
            else:
                landings[m] = landings.get(m, 0) + w
                if t < 0:
                    pos = top + 1
                elif m == 1:
                    pos = -1
                    landings[0] = landings.get(0, 0) + w
                else:
                    pos = rest.rfind(SEP, 0, top)
            top = rest.rfind(SEP, 0, top)
        if pos > a1:
            key = u[-1] + (u[-2] if n > 1 else top1) + bot
        elif pos > a2:
            key = top1 + u[-1] + bot
        elif pos > b0:
            key = top1 + top2 + bot
        else:
            key = top1 + top2 + u[0]
        acc[key] = acc.get(key, 0) + w
        v += 1


def _leaf_slow(s, c, w, tiles, acc, landings, crazy, forward):
    """Last reveal by building each final board (few racing camels left outside
    the unit, where the index shortcut of ``_leaf_forward`` does not apply)."""
    boards = {}
    if forward:
        _expand_forward(s, c, w, tiles, boards, acc, landings, 1, crazy)
    else:
        _expand_backward(s, c, w, tiles, boards, acc, landings, 1)
    for ns in boards:
        key = _rank_key(ns, crazy)
        acc[key] = acc.get(key, 0) + boards[ns]


def _enumerate(coded, tiles=None):
    """Breadth-first exact enumeration of the leg.

    Returns ``(acc, landings, total)``: ``acc`` maps a rank key (letters of the
    first, second and last racing camel; ``-`` for a missing second) to its
    integer weight; ``landings`` maps tile space -> weighted number of landings,
    and ``landings[0]`` is the weight of the outcomes where the race ends;
    ``total`` is the sum of all outcome weights.
    """
    if tiles is None:
        tiles = coded.tiles
    wr = coded.value_weight
    per_die = 3 * wr  # total weight of one die's outcomes (grey: 6 faces of 1)
    mask = coded.mask
    levels = coded.levels
    n = len(mask)
    total = _perm(n, levels) * per_die ** levels
    crazy = coded.crazy
    strip = SEP + _BLACK + _WHITE if crazy else SEP
    plain = None if not any(tiles) else tiles  # None: no tile on the board at all
    board = coded.board
    if crazy and _GREY_DIE not in mask:
        board = board.replace(_BLACK, "").replace(_WHITE, "")
    nracing = len(board.replace(strip[0], "").replace(_BLACK, "").replace(_WHITE, ""))
    acc = {}
    landings = {}
    if levels == 0:
        acc[_rank_key(board, crazy)] = 1
        return acc, landings, 1
    current = {mask: {board: 1}}
    for level in range(levels):
        after = levels - level - 1
        # completions of the rest of the leg once this level's die is out
        cont = _perm(n - level - 1, after) * per_die ** after
        following = {}
        for mask in current:
            boards = current[mask]
            for d in mask:
                if after == 0:
                    if d != _GREY_DIE:
                        # crazy camels are gone once the grey die is out
                        st = strip if _GREY_DIE in mask else SEP
                        for s in boards:
                            _leaf_forward(s, d, boards[s] * wr, plain, acc, landings,
                                          st, nracing)
                    else:
                        for s in boards:
                            _grey(s, boards[s], tiles, None, acc, landings, 1, nracing)
                    continue
                nmask = mask.replace(d, "")
                target = following.get(nmask)
                if target is None:
                    target = {}
                    following[nmask] = target
                if d != _GREY_DIE:
                    for s in boards:
                        _expand_forward(s, d, boards[s] * wr, tiles, target, acc, landings,
                                        cont, crazy)
                else:
                    for s in boards:
                        _grey(s, boards[s], tiles, target, acc, landings, cont, nracing)
        current = following
    return acc, landings, total


def _grey(s, w0, tiles, target, acc, landings, cont, nracing):
    """The grey die on board ``s`` (weight ``w0`` per face), RULES 3.5-3.7.

    ``target`` is the next level's dictionary, or ``None`` for the last reveal.
    A crazy camel with no racing camel above it changes no racing rank wherever it
    goes, and it is dropped from the next boards anyway (see ``_expand_backward``),
    so all its values give one board (or one rank key) and only its tile landings
    and a crossing of the line need looking at value by value.
    """
    who = _grey_choice(s)
    if who is None:  # rule 3.5 (c): the numeral's ink decides
        movers = ((_BLACK, w0), (_WHITE, w0))
    else:
        movers = ((who, 2 * w0),)
    key = None
    plain = None
    for c, w in movers:
        i = s.find(c)
        j = s.find(SEP, i)
        if s[i + 1:j].replace(_BLACK, "").replace(_WHITE, ""):  # racing passengers
            if target is None:
                _leaf_backward(s, c, w, tiles, acc, landings, nracing)
            else:
                _expand_backward(s, c, w, tiles, target, acc, landings, cont)
            continue
        if key is None:
            key = _rank_key(s, True)
            if target is not None:
                plain = s.replace(_BLACK, "").replace(_WHITE, "")
        k = s.count(SEP, 0, i)
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


def _fill(coded, acc, landings, result):
    """Turn rank-key weights into per-colour weights of ``result``."""
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


def leg_odds(position):
    """Exact leg odds of a ``Position`` (or anything ``as_position`` accepts).

    Returns ``LegOdds`` with integer weights over ``total`` = (ordered choices of
    the revealed dice) x (faces per die)^(reveals): classic counts the three values
    of a die (5!*3^5 = 29,160 for a full leg); second counts the six faces of each
    die (720*6^5 = 5,598,720 for a full leg). A race that ends mid-leg stops the
    leg there (RULES 1.13, 3.7). Raises ``ValueError`` for an invalid position.
    """
    position = as_position(position)
    coded = _Coded(position)
    acc, landings, total = _enumerate(coded)
    result = LegOdds(position.racing(), total)
    _fill(coded, acc, landings, result)
    return result


def as_position(obj):
    """Return ``obj`` as a ``Position``: a ``Position`` itself, or a rules-engine
    game (via ``camelup.odds.game.position_from_game``). Raises ``TypeError``."""
    if isinstance(obj, Position):
        return obj
    try:
        from camelup.odds.game import position_from_game
    except ImportError:
        raise TypeError("can't compute odds for %r" % (obj,)) from None
    return position_from_game(obj)


def move(position, colour, value, ink=None):
    """Return a new ``Position`` after one die (the dice inside are not changed).

    ``colour``: a racing camel's die colour, or ``"grey"`` with ``ink`` ``"black"``
    or ``"white"``; ``value`` 1..3. Returns ``(position, tile_space, crossed)``:
    the tile space the unit landed on (0 if none) and whether the race ended
    (then the crossing unit is in ``position.stacks`` at 17+ or 0 and below).
    RULES 1.2-1.5, 1.13, 3.5-3.7. Raises ``ValueError`` for a bad die.
    """
    coded = _Coded(position)
    if value not in (1, 2, 3):
        raise ValueError("die value must be 1, 2 or 3, not %r" % (value,))
    s = coded.board
    if colour == GREY:
        if ink not in CRAZY:
            raise ValueError("the grey die needs ink black or white")
        if not coded.crazy:
            raise ValueError("no crazy camel to move")
        who = _grey_choice(s)
        if who is None:
            who = _BLACK if ink == "black" else _WHITE
        ns, hit = _step_backward(s, who, value, coded.tiles)
    else:
        if colour not in coded.letter or colour in CRAZY and coded.crazy:
            raise ValueError("no racing camel %r" % (colour,))
        ns, hit = _step_forward(s, coded.letter[colour], value, coded.tiles)
    return _decode(position, coded, ns), hit, ns[0] != SEP or ns[-1] != SEP


def _decode(position, coded, s):
    stacks = {}
    head = s.find(SEP)
    if head > 0:  # carried backwards over the line: ranked below everyone (RULES 3.7)
        stacks[0] = [coded.name[ch] for ch in s[:head]]
    segments = s[head + 1:].split(SEP)
    for index in range(len(segments)):
        if segments[index]:
            stacks[index + 1] = [coded.name[ch] for ch in segments[index]]
    result = position.copy()
    result.stacks = stacks
    return result


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
    from camelup.odds.tiles import landing_table

    position = as_position(position)
    base = [0] * (TRACK + 2)
    for space in position.tiles:
        if player is None or position.tile_owners.get(space) != player:
            base[space] = position.tiles[space]
    table, total = landing_table(position, tile_spaces(position, player), base)
    out = []
    for space, side in table:
        out.append((-table[(space, side)], space, -side))
    out.sort()
    return [(-w / total, space, -side) for w, space, side in out]


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
