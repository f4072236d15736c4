"""Position notation: one line of text that captures a whole race position.

Sections are separated by ``" | "`` in this order (docs/notation.md has the details)::

    second | leg 1 turn p2 start p0 | 1:blue,green 3:yellow 6:+p1 15:black 16:white,red
      | out red,grey | legs blue:5322 green:22 yellow:5322 red:5322 purple:5322
      | pyramid 3 | p0 coins=3 tickets=green5,green3 pyramid=1 | p1 coins=4 pyramid=1
      | p2 coins=0 | winner p0:red,p2:blue | loser -

(all on one line). ``position_text`` and ``parse_position`` round-trip exactly:
``position_text(parse_position(t)) == t`` for every ``t`` that ``position_text`` made.
"""

from camelup.actions import COLOURS, LETTERS
from camelup.editions import TRACK, get_edition
from camelup.errors import Message, NotationError

SEP = " | "


def _seat(p):
    return "p%d" % p


def track_text(stacks, tiles):
    """The track section: ``space:camel,camel`` (bottom first) and ``space:+pN`` /
    ``space:-pN`` tile tokens, ascending by space."""
    keys = []
    for s in stacks:
        keys.append(s)
    for s in tiles:
        if s not in stacks:
            keys.append(s)
    keys.sort()
    toks = []
    for s in keys:
        if s in stacks:
            toks.append("%d:%s" % (s, ",".join(stacks[s])))
        if s in tiles:
            owner, side = tiles[s]
            toks.append("%d:%s%s" % (s, side, _seat(owner)))
    return " ".join(toks)


def position_text(game, public=False):
    """The one-line notation of ``game``'s position.

    ``public=True`` hides the finish piles' colours and owners (only their sizes,
    ``winner 2 | loser 1``, as the table may see them, RULES 1.8 and the display
    rules); ``read_position`` reads that form back with the cards hidden.
    """
    ed = game.edition
    parts = [ed.name]
    parts.append("leg %d turn %s start %s" % (game.leg, _seat(game.turn),
                                              _seat(game.start_player)))
    parts.append(track_text(game._stacks, game._tiles))
    out = game._out
    parts.append("out " + (",".join(out) if out else "-"))
    legs = []
    for c in ed.racing:
        left = game.leg_tickets_left(c)
        legs.append("%s:%s" % (c, "".join([str(v) for v in left]) if left else "-"))
    parts.append("legs " + " ".join(legs))
    parts.append("pyramid %d" % game.pyramid_tickets_left)
    for p in range(game.players):
        toks = [_seat(p), "coins=%d" % game._coins[p]]
        held = game._held[p]
        if held:
            toks.append("tickets=" + ",".join(["%s%d" % (c, v) for c, v in held]))
        if game._pyramid[p]:
            toks.append("pyramid=%d" % game._pyramid[p])
        if game._partners[p] is not None:
            toks.append("partner=" + _seat(game._partners[p]))
        parts.append(" ".join(toks))
    for name in ("winner", "loser"):
        parts.append(pile_text(name, game._piles[name], public))
    return SEP.join(parts)


def pile_text(name, pile, public=False):
    """One finish-pile section: ``winner p0:red,p2:blue`` (play order), ``winner -``
    when empty, or ``winner N`` (its size only) when ``public`` or when every card in
    it is hidden (``(None, None)``, as read from a public line). A hidden card among
    known ones is written ``?``."""
    hidden = [card for card in pile if card[1] is None]
    if public or (pile and len(hidden) == len(pile)):
        return "%s %d" % (name, len(pile))
    if not pile:
        return "%s -" % name
    toks = []
    for p, c in pile:
        toks.append("?" if c is None else "%s:%s" % (_seat(p), c))
    return "%s %s" % (name, ",".join(toks))


#: Characters of the user's text an error message quotes at most.
ECHO_MAX = 40


def quoted(text, limit=ECHO_MAX):
    """``text`` quoted for an error message (``repr``, so control characters are
    visible), cut to ``limit`` characters with ``...`` and its full length when longer:
    ``quoted("x" * 300)`` -> ``'xxx...x'... (300 characters)``: a ``Message`` then (its
    ``str()`` that English text; the host says the length in the table's language), the
    text itself quoted when it is whole."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return Message("%(text)r... (%(length)d characters)", text=text[:limit], length=len(text))


_q = quoted


def _err(msg, text):
    raise NotationError(Message("%(problem)s in position %(position)s",
                                problem=msg, position=_q(text)))


def _parse_int(word, what, text):
    digits = word[1:] if word[:1] == "-" else word
    if not digits or [c for c in digits if c not in "0123456789"] or len(digits) > 9:
        _err(Message("%(what)s %(word)s is not a number", what=what, word=_q(word)), text)
    return int(word)


def _parse_seat(word, text):
    word = word.lower()
    if not word.startswith("p"):
        _err(Message("seat %s must look like p0, p1, ...", _q(word)), text)
    return _parse_int(word[1:], Message("seat"), text)


#: Where a stack may stand: the track (RULES 1.1), or past the line once the race is
#: over (RULES 1.13, 3.7): a move is 1..3 spaces plus at most one for a tile, so a
#: crossing stack stands on 17..19 (clockwise) or -2..0 (counterclockwise).
CROSSED_FORWARD = (17, 19)
CROSSED_BACKWARD = (-2, 0)


def _check_space(space, text):
    if 1 <= space <= TRACK:
        return space
    if (CROSSED_FORWARD[0] <= space <= CROSSED_FORWARD[1]
            or CROSSED_BACKWARD[0] <= space <= CROSSED_BACKWARD[1]):
        return space
    _err(Message("space %(space)d is off the track (spaces 1..%(last)d; a stack that crossed the "
                 "line stands on %(ahead_from)d..%(ahead_to)d or %(behind_from)d..%(behind_to)d)",
                 space=space, last=TRACK, ahead_from=CROSSED_FORWARD[0],
                 ahead_to=CROSSED_FORWARD[1], behind_from=CROSSED_BACKWARD[0],
                 behind_to=CROSSED_BACKWARD[1]), text)


def parse_track(section, text=None):
    """Read a track section into ``(stacks, tiles)``; see ``track_text``: tokens
    ``space:camel,camel`` (lowercase names, bottom first) and ``space:+pN`` /
    ``space:-pN``. Spaces 1..16, or 17..19 / -2..0 for the stack of a finished race.

    Raises ``NotationError`` on a malformed token, a space off the track or a space
    given twice."""
    text = section if text is None else text
    stacks = {}
    tiles = {}
    for tok in section.split():
        if ":" not in tok:
            _err(Message("track token %s needs space:contents", _q(tok)), text)
        left, right = tok.split(":", 1)
        space = _check_space(_parse_int(left, Message("space"), text), text)
        if right[:1] in ("+", "-"):
            if space in tiles:
                _err(Message("two tiles on space %d", space), text)
            tiles[space] = (_parse_seat(right[1:], text), right[0])
        else:
            if space in stacks:
                _err(Message("space %d given twice", space), text)
            camels = right.split(",") if right else []
            if not camels or "" in camels:
                _err(Message("space %d: camels read a,b,c", space), text)
            for c in camels:
                if c not in COLOURS:
                    _err(Message("%(word)s is not a camel colour (%(colours)s)",
                                 word=_q(c), colours=", ".join(COLOURS)), text)
            stacks[space] = camels
    return stacks, tiles


#: The short board form's one-letter camels (capitals, as the case files write them).
BOARD_LETTERS = {}
for _k in LETTERS:
    BOARD_LETTERS[_k.upper()] = LETTERS[_k]


def read_board(text):
    """Read the short board form (docs/notation.md, "Short board form") into
    ``(stacks, tiles, unowned)``.

    Tokens, separated by blanks: ``space:[camel,camel,...]`` or, as the position
    line's track writes a stack, ``space:camel,camel,...`` (bottom to top; a camel
    is its lowercase name or its capital letter B G O Y W R P K), ``space:+pN`` /
    ``space:-pN`` (a tile and its owner) or ``space:+`` / ``space:-`` (a tile given
    without an owner: ``tiles[space] = (None, side)``, its space listed in
    ``unowned``). Spaces 1..16 (a finished race's stack: 17..19 or -2..0). Raises
    ``NotationError`` naming the bad token."""
    stacks = {}
    tiles = {}
    unowned = []
    for tok in text.split():
        left, colon, right = tok.partition(":")
        digits = left[1:] if left[:1] == "-" else left
        if not colon or not digits or [c for c in digits if c not in "0123456789"] \
                or len(left) > 3:
            raise NotationError(Message("board token %s must look like 3:[blue,red], 3:blue,red or "
                                        "6:+p1", _q(tok)))
        space = _check_space(int(left), text)
        if space in stacks or space in tiles:
            raise NotationError(Message("board: space %d given twice", space))
        if right in ("+", "-"):
            tiles[space] = (None, right)
            unowned.append(space)
        elif right[:1] in ("+", "-"):
            tiles[space] = (_parse_seat(right[1:], text), right[0])
        elif (right[:1] == "[" and right[-1:] == "]") or \
                (right and "[" not in right and "]" not in right):
            # the bracketed stack, or the position line's (section 1): one and the same
            inner = right[1:-1] if right[:1] == "[" else right
            camels = []
            for c in inner.split(","):
                name = BOARD_LETTERS.get(c, c)
                if name not in COLOURS:
                    raise NotationError(Message("board: %(word)s on space %(space)d is not a camel "
                                                "(a name like blue, or a capital letter B G O Y W "
                                                "R P K)",
                                                word=_q(c), space=space))
                camels.append(name)
            stacks[space] = camels
        else:
            raise NotationError(Message("board token %s must look like 3:[blue,red], 3:blue,red or "
                                        "6:+p1", _q(tok)))
    return stacks, tiles, unowned


#: Colours (and the grey die) only the second edition has; ``orange`` only classic has.
_SECOND_ONLY = ("red", "purple", "black", "grey")
_CLASSIC_ONLY = ("orange",)


def board_edition(colours):
    """The edition that a short board's colours (and dice) name: ``"second"`` when they
    include red, purple, black or the grey die, ``"classic"`` with orange, ``None``
    when they name neither (blue, green, yellow and white are in both). Raises
    ``NotationError`` when they name both."""
    second = [c for c in colours if c in _SECOND_ONLY]
    classic = [c for c in colours if c in _CLASSIC_ONLY]
    if second and classic:
        raise NotationError(Message("the board names %(second)s (second edition only) and "
                                    "%(classic)s (classic only)",
                                    second=second[0], classic=classic[0]))
    if second:
        return "second"
    if classic:
        return "classic"
    return None


def read_position(text):
    """Read a position line (as made by ``position_text``) into the ``Game``
    constructor's arguments: ``(edition, players, stacks, fields, pyramid_left)``,
    ``fields`` a dict of keyword arguments, ``pyramid_left`` the line's ``pyramid N``
    (``None`` when absent). ``camelup.game.parse_position`` builds the ``Game``; this
    module never imports the engine (one-way: game -> notation).

    A pile given as a number (the public form, ``winner 2``) or with ``?`` cards
    holds that many hidden cards ``(None, None)``: owner and colour unknown.

    Raises ``NotationError`` naming the bad part: unknown section or malformed token.
    """
    if not isinstance(text, str):
        raise NotationError(Message("a position is text, got %r", text))
    parts = [s.strip() for s in text.strip().split("|")]
    if len(parts) < 3:
        _err(Message("too few sections (need edition | leg ... | track | ...)"), text)
    ed = get_edition(parts[0])
    leg = 1
    turn = 0
    start = None
    stacks = None
    tiles = {}
    out = []
    legs = None
    pyramid_left = None
    players = []
    piles = {"winner": [], "loser": []}
    for sec in parts[1:]:
        words = sec.split()
        if not words:
            _err(Message("empty section"), text)
        head = words[0]
        if head == "leg":
            if len(words) != 6 or words[2] != "turn" or words[4] != "start":
                _err(Message("header must be 'leg N turn pN start pN', got %s", _q(sec)), text)
            leg = _parse_int(words[1], Message("leg"), text)
            turn = _parse_seat(words[3], text)
            start = _parse_seat(words[5], text)
        elif head == "out":
            if len(words) != 2:
                _err(Message("'out' takes one comma list or '-', got %s", _q(sec)), text)
            out = [] if words[1] == "-" else words[1].split(",")
        elif head == "legs":
            legs = {}
            for tok in words[1:]:
                if ":" not in tok:
                    _err(Message("legs token %s must be colour:values", _q(tok)), text)
                c, v = tok.split(":", 1)
                legs[c] = [] if v == "-" else [_parse_int(ch, Message("ticket value"), text)
                                               for ch in v]
        elif head == "pyramid":
            if len(words) != 2:
                _err(Message("'pyramid' takes the number of tickets left"), text)
            pyramid_left = _parse_int(words[1], Message("pyramid tickets left"), text)
        elif head in ("winner", "loser"):
            if len(words) != 2:
                _err(Message("%s pile must be 'pN:colour,...', a number of hidden cards or '-'",
                             head), text)
            if words[1].isdigit():
                count = _parse_int(words[1], Message("%s pile size", head), text)
                for _ in range(count):
                    piles[head].append((None, None))
            elif words[1] != "-":
                for card in words[1].split(","):
                    if card == "?":
                        piles[head].append((None, None))
                        continue
                    if ":" not in card:
                        _err(Message("finish card %s must be pN:colour (or ? when hidden)",
                                     _q(card)), text)
                    seat, colour = card.split(":", 1)
                    piles[head].append((_parse_seat(seat, text), colour))
        elif len(head) > 1 and head[0] == "p" and head[1:].isdigit():
            seat = _parse_int(head[1:], Message("seat"), text)
            if seat != len(players):
                _err(Message("player sections must be p0, p1, ... in order; got %s", head), text)
            entry = {"coins": None, "tickets": [], "pyramid": 0, "partner": None}
            for tok in words[1:]:
                if "=" not in tok:
                    _err(Message("player token %s must be key=value", _q(tok)), text)
                k, v = tok.split("=", 1)
                if k == "coins":
                    entry["coins"] = _parse_int(v, Message("coins"), text)
                elif k == "tickets":
                    for t in v.split(","):
                        i = len(t)
                        while i > 0 and t[i - 1] in "0123456789":
                            i -= 1
                        if i == 0 or i == len(t):
                            _err(Message("leg ticket %s must be colour then value, like red5",
                                         _q(t)), text)
                        entry["tickets"].append((t[:i], int(t[i:])))
                elif k == "pyramid":
                    entry["pyramid"] = _parse_int(v, Message("pyramid tickets"), text)
                elif k == "partner":
                    entry["partner"] = _parse_seat(v, text)
                else:
                    _err(Message("unknown player key %s", _q(k)), text)
            if entry["coins"] is None:
                _err(Message("%s needs coins=N", head), text)
            players.append(entry)
        elif ":" in head:
            if stacks is not None:
                _err(Message("two track sections"), text)
            stacks, tiles = parse_track(sec, text)
        else:
            _err(Message("unknown section %s", _q(sec)), text)
    if stacks is None:
        _err(Message("no track section"), text)
    if not players:
        _err(Message("no player sections (p0 coins=3 | p1 coins=3 | ...)"), text)
    fields = {"tiles": tiles, "turn": turn, "start": start,
              "coins": [e["coins"] for e in players],
              "held": [e["tickets"] for e in players],
              "pyramid": [e["pyramid"] for e in players], "out": out,
              "partners": [e["partner"] for e in players],
              "winner_pile": piles["winner"], "loser_pile": piles["loser"], "leg": leg,
              "legs": legs}
    return ed, len(players), stacks, fields, pyramid_left
