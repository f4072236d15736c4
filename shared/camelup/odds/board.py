"""The odds' board layer: the compact ``Position``, its string board, and one move.

Lowest layer of ``camelup.odds`` (imports only ``camelup.editions``): ``leg``,
``tiles``, ``race`` and ``actions`` build on it. The board is one ``str``:
``"|" + space1 + "|" + ... + space16 + "|"``, one letter per camel bottom -> top
(racing camels ``A``.., the crazy camels ``x`` black and ``y`` white). A crossing
unit is written outside the track (after the last ``|`` forward, before the first
``|`` backwards). Names without a leading underscore here are shared by the
package's modules; the package re-exports the public ones (``docs/odds.md``).

Runs unchanged on MicroPython.
"""

from camelup import editions

CLASSIC = editions.CLASSIC.name
SECOND = editions.SECOND.name
EDITIONS = (CLASSIC, SECOND)

#: Racing camels per edition (RULES 2.1, 3.1), from ``camelup.editions``.
RACING = {CLASSIC: editions.CLASSIC.racing, SECOND: editions.SECOND.racing}
#: Crazy camels (second edition only, RULES 3.1); the grey die's numeral ink of
#: the same name selects that camel under rule 3.5 (c).
CRAZY = editions.SECOND.crazy
GREY = editions.GREY
TRACK = editions.TRACK
#: Number of dice revealed in a full leg (RULES 2.4, 3.4).
LEG_REVEALS = {CLASSIC: editions.DICE_PER_LEG, SECOND: editions.DICE_PER_LEG}

SEP = "|"
_RACING_LETTERS = "ABCDEFGHIJ"
BLACK = "x"  # letter of the black crazy camel inside a board string
WHITE = "y"  # letter of the white crazy camel
GREY_DIE = "*"  # the grey die inside a dice mask
NO_TILES = [0] * (TRACK + 2)


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
    ``reveals``: how many of those dice will still come out this leg. Default: all
    but the edition's ``dice_left_inside`` (classic all of them, RULES 2.4; second
    ``len(dice) - 1``, RULES 3.4: five of six dice are revealed, so with k inside k-1
    come out).

    Raises ``ValueError`` for an unknown edition, a space outside 1..16, a camel
    on two spaces, a crazy camel in the classic edition, a tile on an occupied
    space or on space 1, or a die with no camel on the board.
    """

    def __init__(self, edition, stacks, tiles=None, dice=None, reveals=None):
        if edition not in EDITIONS:
            raise ValueError("unknown edition %r (classic or second)" % (edition,))
        self.edition = edition
        ed = editions.EDITIONS[edition]
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
                if camel in CRAZY and camel not in ed.camels:
                    raise ValueError("the %s edition has no crazy camels" % edition)
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
            if GREY in ed.dice and crazy:
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
            reveals = max(0, len(dice) - ed.dice_left_inside)
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
        crazy = editions.EDITIONS[self.edition].crazy
        return sorted([c for c in self.camels() if c in crazy])

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


class Coded:
    """A ``Position`` turned into the string form the enumerator works on."""

    def __init__(self, position):
        racing = position.racing()
        crazy = position.crazy()
        self.letter = {}
        self.name = {}
        for index in range(len(racing)):
            self.letter[racing[index]] = _RACING_LETTERS[index]
        if "black" in crazy:
            self.letter["black"] = BLACK
        if "white" in crazy:
            self.letter["white"] = WHITE
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
            mask.append(GREY_DIE if die == GREY else self.letter[die])
        mask.sort()
        self.mask = "".join(mask)
        self.levels = position.reveals
        # Integer weight of one racing-die value (Edition.value_weight, RULES 1.4).
        self.value_weight = editions.EDITIONS[position.edition].value_weight
        self.crazy = len(crazy) > 0


def step_forward(s, c, v, tiles):
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


def backward_landings(s, i, tiles, values=3):
    """Where the grey die's values put the crazy camel unit starting at index ``i`` of
    board ``s`` (RULES 3.5-3.7): the one backward move of the odds.

    Returns ``values`` (1 to 3) ``(m, t, pos)``, for 1, 2, ... spaces counterclockwise:
    ``m`` the space reached (``< 1`` past the line), ``t`` the tile there (``+1`` cheering,
    ``-1`` booing, ``0`` none or past the line), ``pos`` the index in ``s`` the unit
    is inserted at (``s[:pos] + unit + s[pos:i] + rest``: with no tile on top of
    space ``m``; cheering one more space counterclockwise, on top; booing one space
    clockwise, underneath), or ``-1`` when it is carried back over the line (the
    race is over). Every ``pos`` is below ``i``, so it holds for ``s`` with the unit
    taken out too.
    """
    k = s.count(SEP, 0, i)
    top = s.rfind(SEP, 0, i)  # the separator after space k - 1
    out = []
    for v in range(1, values + 1):
        m = k - v
        if m < 1:
            out.append((m, 0, -1))
            continue
        t = tiles[m]
        if t == 0:
            pos = top
        elif t < 0:  # booing: one space clockwise, underneath
            pos = top + 1
        elif m == 1:  # cheering on space 1: over the line
            pos = -1
        else:  # cheering: one more space counterclockwise, on top
            pos = s.rfind(SEP, 0, top)
        out.append((m, t, pos))
        top = s.rfind(SEP, 0, top)
    return out


def step_backward(s, c, v, tiles):
    """Move crazy camel letter ``c`` ``v`` spaces counterclockwise (RULES 3.5-3.7;
    ``backward_landings``).

    Returns ``(board, tile_space)`` like ``step_forward``.
    """
    i = s.find(c)
    j = s.find(SEP, i)
    m, t, pos = backward_landings(s, i, tiles, v)[-1]
    if pos < 0:  # carried backwards over the line: race over (RULES 3.7)
        return s[i:j] + s[:i] + s[j:], m if t else 0
    return s[:pos] + s[i:j] + s[pos:i] + s[j:], m if t else 0


def grey_choice(s):
    """The crazy camel letter the grey die moves whatever its ink, or ``None``.

    RULES 3.5: (a) exactly one crazy camel carries a racing camel -> that one;
    else (b) one sits directly on the other -> the top one; else ``None`` (the
    numeral's ink decides, rule (c)).
    """
    ix = s.find(BLACK)
    iy = s.find(WHITE)
    if ix < 0:
        return WHITE
    if iy < 0:
        return BLACK
    # one directly on the other: whatever rides the top one rides both, so (a) can't
    # pick one and (b) gives the top one
    if iy == ix + 1:
        return WHITE
    if ix == iy + 1:
        return BLACK
    above_x = s[ix + 1:s.find(SEP, ix)].replace(WHITE, "")
    above_y = s[iy + 1:s.find(SEP, iy)].replace(BLACK, "")
    if above_x and not above_y:
        return BLACK
    if above_y and not above_x:
        return WHITE
    return None


class Recent:
    """A cache of the results used lately, in two generations (no reliance on dict
    order, MicroPython's included): ``get`` looks in the newer, then the older (moving
    a hit there to the newer); ``put`` adds to the newer, and once that holds more
    than ``size`` results it becomes the older and the older is dropped. So every
    result used since the newer started stays, at most ``2 * size + 1`` in all."""

    def __init__(self, size):
        self.size = size
        self.newer = {}
        self.older = {}

    def get(self, key):
        """The result kept under ``key``, or ``None``."""
        hit = self.newer.get(key)
        if hit is None:
            hit = self.older.get(key)
            if hit is not None:
                self.put(key, hit)
        return hit

    def put(self, key, value):
        """Keep ``value`` under ``key``."""
        self.newer[key] = value
        if len(self.newer) > self.size:
            self.older = self.newer
            self.newer = {}

    def clear(self):
        """Forget everything."""
        self.newer = {}
        self.older = {}

    def __len__(self):
        return len(self.newer) + len(self.older)


def perm(n, r):
    out = 1
    while r > 0:
        out *= n
        n -= 1
        r -= 1
    return out


def rank_key(s, crazy):
    """Three letters: first, second (``-`` if none) and last racing camel of board ``s``."""
    r = s.replace(SEP, "")
    if crazy:
        r = r.replace(BLACK, "").replace(WHITE, "")
    if len(r) > 1:
        return r[-1] + r[-2] + r[0]
    return r + "-" + r


def move(position, colour, value, ink=None):
    """Return a new ``Position`` after one die (the dice inside are not changed).

    ``colour``: a racing camel's die colour, or ``"grey"`` with ``ink`` ``"black"``
    or ``"white"``; ``value`` 1..3. Returns ``(position, tile_space, crossed)``:
    the tile space the unit landed on (0 if none) and whether the race ended
    (then the crossing unit is in ``position.stacks`` at 17+ or 0 and below).
    RULES 1.2-1.5, 1.13, 3.5-3.7. Raises ``ValueError`` for a bad die.
    """
    coded = Coded(position)
    if value not in (1, 2, 3):
        raise ValueError("die value must be 1, 2 or 3, not %r" % (value,))
    s = coded.board
    if colour == GREY:
        if ink not in CRAZY:
            raise ValueError("the grey die needs ink black or white")
        if not coded.crazy:
            raise ValueError("no crazy camel to move")
        who = grey_choice(s)
        if who is None:
            who = BLACK if ink == "black" else WHITE
        ns, hit = step_backward(s, who, value, coded.tiles)
    else:
        if colour not in coded.letter or colour in CRAZY and coded.crazy:
            raise ValueError("no racing camel %r" % (colour,))
        ns, hit = step_forward(s, coded.letter[colour], value, coded.tiles)
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
