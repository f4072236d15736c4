"""Scenario files: a small, strict language of positions, actions and expectations.

A file holds cases. Each case is ``case ID TITLE``, then its setup, then its steps;
``#`` starts a comment, blank lines are ignored. docs/notation.md section 4 is the
reference; in short::

    case E2-02 grey exception (b): the top crazy camel moves
    edition second                        setup: edition, players and the board are
    players 4                             required (or one 'position <line>')
    board 3:[blue] 4:[green] 5:[yellow] 6:[purple] 10:[white,black,red]
    do pyramid grey white 1               steps: do / illegal / legal / undo / expect
    expect rule b
    expect space 9 black,red

Every line has exactly one form; nothing is guessed (no default edition or players,
every camel on the board, every tile with its owner). A line that cannot be read raises
``camelup.errors.ParseError`` (``NotationError``) as ``FILE:LINE: what is wrong``.
Every message, a refusal's and a mismatch's, is a ``camelup.errors.Message`` (``str()``
the English text), which the host says in the table's language (``pyramid check``).
Runs unchanged on MicroPython (the cross-runtime check runs every scenario there).
"""

from camelup.actions import parse_action
from camelup.editions import EDITIONS, get_edition
from camelup.errors import IllegalAction, Message, NotationError
from camelup.game import parse_position
from camelup.notation import position_text, read_board, track_text
from camelup.scenario_odds import PLACES, Value, check_odds

#: Setup keywords (each once per case, except ``tickets`` and ``pyramid``: once per seat,
#: and ``partners``: one or more lines, each giving one or more partnerships).
SETUP = ("position", "edition", "players", "board", "rolls", "leg", "turn", "start", "coins",
         "tickets", "legs", "pyramid", "out", "partners", "winner", "loser", "inside")
#: Step keywords.
STEPS = ("do", "illegal", "legal", "undo", "expect")
#: Expectation keys and how each one reads (docs/notation.md, "Expectations").
EXPECT = {
    "space": Message("expect space 9 white,red (a space number, F+ or F-; - for empty)"),
    "at": Message("expect at white F- (a camel and a space)"),
    "board": Message("expect board 1:[blue] 9:[white,red] 6:+p1 (the whole track)"),
    "tiles": Message("expect tiles 6:+p1 12:-p0 (or -)"),
    "position": Message("expect position <position line>"),
    "coins": Message("expect coins 3 4 3 (every seat, in seat order)"),
    "gain": Message("expect gain p1 +1 (coins won or lost by the last action)"),
    "net": Message("expect net p0 4 (a seat's net at the leg scoring of the last action)"),
    "payout": Message("expect payout p1 (or -: the tile the last move landed on)"),
    "ranking": Message("expect ranking purple,red,yellow (the first places, in order)"),
    "place": Message("expect place 2 yellow (1..5 in the ranking)"),
    "ahead": Message("expect ahead yellow red"),
    "over": Message("expect over yes (or no)"),
    "winners": Message("expect winners p0,p1"),
    "turn": Message("expect turn p1"), "start": Message("expect start p1"),
    "leg": Message("expect leg 2"),
    "out": Message("expect out red,grey (or -)"),
    "in-pyramid": Message("expect in-pyramid red,purple (any order; or -)"),
    "pyramid": Message("expect pyramid 5 (pyramid tickets left)"),
    "legs": Message("expect legs red 322 (or -)"),
    "held": Message("expect held p0 red5,blue3 (or -)"),
    "partner": Message("expect partner p0 p3 (or -)"),
    "moved": Message("expect moved white"), "rule": Message("expect rule b"),
    "leg-scored": Message("expect leg-scored yes (or no)"),
    "odds": Message("expect odds 1st blue 8/81 green 1469/5832 (place 1st..5th, then camel "
                    "value pairs)"),
    "landings": Message("expect landings 4 44012/29160"),
    "ev": Message("expect ev white 5 809/486 (camel, ticket value, expected coins)"),
    "reveals": Message("expect reveals 2 (dice still to come out this leg)"),
    "outcomes": Message("expect outcomes 216 (equally likely outcomes of the leg)"),
}


class Case:
    """One case: ``id``, ``title``, ``source`` (file), ``line`` (of its ``case`` line),
    ``setup`` (``{key: (line, value)}``; ``tickets``/``pyramid``: ``{seat: ...}``;
    ``partners``: ``[(seat, seat, line)]``, one per partnership),
    ``steps`` (``[(line, verb, text, parsed)]``)."""

    def __init__(self, case_id, title, source, line):
        self.id = case_id
        self.title = title
        self.source = source
        self.line = line
        self.setup = {}
        self.steps = []

    def __repr__(self):
        return "Case(%r)" % self.id


#: Where a message is: ``FILE:LINE: message`` (not a word to translate: no catalogue
#: entry, the host's ``_()`` gives it back as it is).
_AT = "%s:%d: %s"


def _fail(msg):
    raise NotationError(msg)


def _why(exc):
    """The ``Message`` (or text) a ``NotationError`` was raised with."""
    return getattr(exc, "message", str(exc))


def _digits(text):
    """True for a non-empty run of ASCII digits (``str.isdigit`` also takes ``²``)."""
    return text != "" and not [c for c in text if c not in "0123456789"]


def _yes_no(text):
    if text not in ("yes", "no"):
        _fail(Message("want yes or no, got %r", text))
    return text == "yes"


def _int(text, what, low=None):
    word = text[1:] if text[:1] in "+-" else text
    if not _digits(word) or len(word) > 9:
        _fail(Message("%(what)s must be a whole number, got %(text)r", what=what, text=text))
    n = int(text)
    if low is not None and n < low:
        _fail(Message("%(what)s must be at least %(least)d, got %(got)d",
                      what=what, least=low, got=n))
    return n


def _seat(text):
    if len(text) < 2 or text[0] != "p" or not _digits(text[1:]) or len(text) > 3:
        _fail(Message("a seat reads p0, p1, ... (0-based), got %r", text))
    return int(text[1:])


def _list(text):
    """``a,b,c`` (no blanks) or ``-`` for none."""
    if text == "-":
        return []
    if " " in text or not text or "" in text.split(","):
        _fail(Message("a list reads a,b,c without blanks (or -), got %r", text))
    return text.split(",")


def _words(text, n, usage):
    words = text.split()
    if len(words) != n:
        _fail(Message("want %s", usage))
    return words


def _space(text):
    if text in ("F+", "F-"):
        return text
    return _int(text, Message("space"))


def _tickets(text):
    out = []
    for tok in _list(text):
        i = len(tok)
        while i > 0 and _digits(tok[i - 1]):
            i -= 1
        if i == 0 or i == len(tok):
            _fail(Message("a leg ticket reads colour then value, like red5, got %r", tok))
        out.append((tok[:i], int(tok[i:])))
    return out


def _cards(text):
    out = []
    for tok in _list(text):
        if ":" not in tok:
            _fail(Message("a finish card reads seat:colour, like p0:red, got %r", tok))
        seat, colour = tok.split(":", 1)
        out.append((_seat(seat), colour))
    return out


def _parse_expect(text):
    """``(key, args)`` of an expectation's text (after ``expect``). Raises NotationError."""
    key, _, rest = text.partition(" ")
    rest = rest.strip()
    if key not in EXPECT:
        _fail(Message("unknown expectation %(key)r (known: %(known)s)",
                      key=key, known=", ".join(sorted(EXPECT))))
    usage = EXPECT[key]
    try:
        return key, _expect_args(key, rest)
    except NotationError as exc:
        _fail(Message("%(problem)s; write it like '%(usage)s'", problem=_why(exc), usage=usage))


def _expect_args(key, rest):
    if key in ("space", "at"):
        a, b = _words(rest, 2, Message("two words"))
        return (_space(a), _list(b)) if key == "space" else (a, _space(b))
    if key == "board":
        return read_board(rest)
    if key == "tiles":
        stacks, tiles, _ = read_board("" if rest == "-" else rest)
        if stacks:
            _fail(Message("tiles only"))
        return tiles
    if key == "position":
        return position_text(parse_position(rest))
    if key == "coins":
        return [_int(w, Message("coins"), 0) for w in rest.split()] or _fail(
            Message("one number per seat"))
    if key in ("gain", "net"):
        a, b = _words(rest, 2, Message("a seat and a number"))
        if key == "gain" and b[:1] not in "+-":
            _fail(Message("a gain carries its sign, like +1 or -1 or +0"))
        return _seat(a), _int(b, key)
    if key in ("payout", "turn", "start"):
        return None if rest == "-" and key == "payout" else _seat(rest)
    if key == "ranking":
        return _list(rest) or _fail(Message("at least one camel"))
    if key == "place":
        a, b = _words(rest, 2, Message("a place and a camel"))
        return _int(a, Message("place"), 1), b
    if key == "ahead":
        return tuple(_words(rest, 2, Message("two camels")))
    if key in ("over", "leg-scored"):
        return _yes_no(rest)
    if key == "winners":
        return [_seat(w) for w in _list(rest)]
    if key in ("leg", "pyramid", "reveals", "outcomes"):
        return _int(rest, key, 0)
    if key in ("out", "in-pyramid"):
        return _list(rest)
    if key == "legs":
        a, b = _words(rest, 2, Message("a camel and the values left"))
        if b != "-" and not _digits(b):
            _fail(Message("values left read like 322 (or -)"))
        return a, [] if b == "-" else [int(c) for c in b]
    if key == "held":
        a, b = _words(rest, 2, Message("a seat and tickets"))
        return _seat(a), _tickets(b)
    if key == "partner":
        a, b = _words(rest, 2, Message("two seats"))
        return _seat(a), None if b == "-" else _seat(b)
    if key in ("moved", "rule"):
        a = _words(rest, 1, Message("one word"))[0]
        if key == "rule" and a not in ("a", "b", "c"):
            _fail(Message("the rule is a, b or c (RULES 3.5)"))
        return a
    if key == "odds":
        words = rest.split()
        if len(words) < 3 or len(words) % 2 == 0 or words[0] not in PLACES:
            _fail(Message("a place (1st..5th) and camel value pairs"))
        pairs = [(words[i], Value(words[i + 1])) for i in range(1, len(words), 2)]
        return PLACES.index(words[0]), pairs
    if key == "landings":
        a, b = _words(rest, 2, Message("a space and a value"))
        return _int(a, Message("space")), Value(b)
    a, b, c = _words(rest, 3, Message("a camel, a ticket value and a value"))  # ev
    return a, _int(b, Message("ticket value"), 1), Value(c)


def parse_scenarios(text, source="<text>"):
    """Read every case of a scenario file. Returns ``[Case]``; raises ``ParseError``
    (``NotationError``) as ``SOURCE:LINE: message`` for anything unreadable, a case
    missing its edition, players or board, or a position the engine refuses."""
    cases = []
    case = None
    lines = text.split("\n")
    for i in range(len(lines)):
        no = i + 1
        line = lines[i].split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        rest = rest.strip()
        try:
            if key == "case":
                if case is not None:
                    _finish(case)
                words = rest.split(None, 1)
                if not words:
                    _fail(Message("a case reads 'case ID title'"))
                if [c for c in cases if c.id == words[0]]:
                    _fail(Message("case %s is given twice", words[0]))
                case = Case(words[0], words[1] if len(words) > 1 else "", source, no)
                cases.append(case)
            elif case is None:
                _fail(Message("a scenario file starts with 'case ID title', got %r", line))
            elif key in SETUP:
                if case.steps:
                    _fail(Message("setup line %r after the first step: setup comes first", key))
                _setup(case, key, rest, no)
            elif key in STEPS:
                case.steps.append((no, key, rest, _step(key, rest)))
            else:
                _fail(Message("unknown keyword %(key)r (setup: %(setup)s; steps: %(steps)s)",
                              key=key, setup=", ".join(SETUP), steps=", ".join(STEPS)))
        except NotationError as exc:
            if str(exc).startswith(source + ":"):
                raise
            raise NotationError(Message(_AT, source, no, _why(exc))) from None
    if case is not None:
        _finish(case)
    return cases


def _setup(case, key, rest, no):
    if not rest:
        _fail(Message("%s needs a value", key))
    setup = case.setup
    if key in ("tickets", "pyramid"):
        seat, _, value = rest.partition(" ")
        seat = _seat(seat)
        value = value.strip()
        table = setup.setdefault(key, (no, {}))[1]
        if seat in table:
            _fail(Message("a second %(key)s line for p%(seat)d", key=key, seat=seat))
        table[seat] = _tickets(value) if key == "tickets" else _int(value, key, 0)
        return
    if key == "partners":
        _add_partners(setup.setdefault(key, (no, []))[1], rest, no)
        return
    if key in setup:
        _fail(Message("a second %(key)r line (the first is line %(first)d)",
                      key=key, first=setup[key][0]))
    if key == "edition":
        value = get_edition(rest) if rest in EDITIONS else _fail(
            Message("the edition is one of %(editions)s, got %(got)r",
                    editions=", ".join(sorted(EDITIONS)), got=rest))
    elif key in ("players", "leg"):
        value = _int(rest, key, 1)
    elif key in ("turn", "start"):
        value = _seat(rest)
    elif key == "board":
        value = read_board(rest)
        if value[2]:
            _fail(Message("the tile on space %(space)d needs its owner, like %(space)d:+p1",
                          space=value[2][0]))
    elif key == "rolls":
        value = []
        for tok in rest.split():
            colour, _, v = tok.partition(":")
            value.append((colour, _int(v, Message("roll"), 1)))
    elif key == "coins":
        value = [_int(w, Message("coins"), 0) for w in rest.split()]
    elif key in ("out", "inside"):
        value = _list(rest)
    elif key == "legs":
        value = {}
        for tok in rest.split():
            colour, _, left = tok.partition(":")
            if not colour or not (left == "-" or _digits(left)):
                _fail(Message("legs reads colour:values, like 'legs blue:52 green:-', got %r",
                              tok))
            value[colour] = [] if left == "-" else [int(c) for c in left]
    elif key in ("winner", "loser"):
        value = _cards(rest)
    else:  # position
        value = rest
    setup[key] = (no, value)


def _add_partners(pairs, rest, no):
    """Read a ``partners`` line (seats two by two, each two a partnership: ``p0 p3 p1 p4``)
    onto ``pairs`` (``[(seat, seat, line)]``, the case's earlier lines' too). Raises
    ``NotationError``: a word not a seat, a seat left without a partner, a seat with
    itself, a partnership given twice, a seat already in another partnership."""
    words = rest.split()
    seats = [_seat(w) for w in words]
    if len(seats) % 2:
        _fail(Message("p%d has no partner on this line: 'partners' takes seats two by two, "
                      "each two a partnership, like 'partners p0 p3 p1 p4'", seats[-1]))
    for i in range(0, len(seats), 2):
        a, b = seats[i], seats[i + 1]
        if a == b:
            _fail(Message("partners p%(seat)d p%(partner)d: a seat cannot partner itself (RULES "
                          "3.8)",
                          seat=a, partner=b))
        for pa, pb, at in pairs:
            if {a, b} == {pa, pb}:
                _fail(Message("partners p%(seat)d p%(partner)d: that partnership is given already "
                              "(p%(given_seat)d p%(given_partner)d, line %(line)d)",
                              seat=a, partner=b, given_seat=pa, given_partner=pb, line=at))
            for seat in (a, b):
                if seat in (pa, pb):
                    _fail(Message("p%(seat)d is in two partnerships: p%(given_seat)d "
                                  "p%(given_partner)d (line %(line)d) and p%(other_seat)d "
                                  "p%(other_partner)d; a seat has one partner a leg (RULES 3.8)",
                                  seat=seat, given_seat=pa, given_partner=pb, line=at, other_seat=a,
                                  other_partner=b))
        pairs.append((a, b, no))


def _partners(case):
    """The case's partners list (seat -> partner or ``None``), or ``None`` without a
    ``partners`` line. Raises ``NotationError`` as ``FILE:LINE: ...`` (the partnership's
    line) for a seat the case has not, or an edition or player count without
    partnerships (RULES 3.8)."""
    if "partners" not in case.setup:
        return None
    ed, n = case.setup["edition"][1], case.setup["players"][1]
    out = [None] * n
    for a, b, no in case.setup["partners"][1]:
        if not ed.has_partnerships(n):
            second = get_edition("second")
            msg = Message("partners p%(seat)d p%(partner)d: partnerships need the %(needed)s "
                          "edition with %(least)d..%(most)d players (RULES 3.8); this case is the "
                          "%(edition)s edition with %(players)d players",
                          seat=a, partner=b, needed=Message(second.name),
                          least=second.partnership_min, most=second.max_players,
                          edition=Message(ed.name), players=n)
        elif a >= n or b >= n:
            msg = Message("partners p%(seat)d p%(partner)d: no seat p%(missing)d with %(players)d "
                          "players (p0..p%(last)d)",
                          seat=a, partner=b, missing=max(a, b), players=n, last=n - 1)
        else:
            out[a], out[b] = b, a
            continue
        raise NotationError(Message(_AT, case.source, no, msg))
    return out


def _step(verb, rest):
    if verb == "undo":
        if rest:
            _fail(Message("undo takes nothing after it"))
        return None
    if verb == "expect":
        return _parse_expect(rest)
    seat = None
    words = rest.split(None, 1)
    if len(words) == 2 and words[0][:1] == "p" and _digits(words[0][1:]):
        seat, rest = _seat(words[0]), words[1]
    action = parse_action(rest)
    if str(action) != rest:
        _fail(Message("write the action as %r (the canonical form, docs/interfaces.md)",
                      str(action)))
    return seat, action


def _finish(case):
    """Check the case's setup is complete and builds a position (errors name the line)."""
    setup = case.setup
    if "position" in setup:
        others = [k for k in setup if k != "position"]
        if others:
            raise NotationError(Message(_AT, case.source, setup[others[0]][0], Message(
                "a case with a position line has no other setup (%s)", others[0])))
    else:
        for key in ("edition", "players"):
            if key not in setup:
                raise NotationError(Message(_AT, case.source, case.line, Message("case %(case)s "
                                                                                 "does not say its "
                                                                                 "%(key)s (add "
                                                                                 "'%(key)s ...')",
                                                                                 case=case.id,
                                                                                 key=key)))
        if ("board" in setup) == ("rolls" in setup):
            raise NotationError(Message(_AT, case.source, case.line, Message(
                "case %s needs exactly one of 'board' or 'rolls'", case.id)))
        _partners(case)
    try:
        game = build_game(case)
    except NotationError as exc:
        line = case.line
        for key in ("position", "board", "rolls"):
            if key in setup:
                line = setup[key][0]
        raise NotationError(Message(_AT, case.source, line, Message(
            "case %(case)s: %(problem)s", case=case.id, problem=_why(exc)))) from None
    for no, verb, _text, parsed in case.steps:
        try:
            _check_names(game, verb, parsed)
        except NotationError as exc:
            raise NotationError(Message(_AT, case.source, no, _why(exc))) from None


#: What each expectation names: ``(camels, racing camels, dice, seats)`` of its args.
_NAMES = {
    "space": lambda a: (a[1], (), (), ()), "at": lambda a: ([a[0]], (), (), ()),
    "moved": lambda a: ([a], (), (), ()), "ranking": lambda a: ((), a, (), ()),
    "ahead": lambda a: ((), a, (), ()), "place": lambda a: ((), [a[1]], (), ()),
    "legs": lambda a: ((), [a[0]], (), ()), "ev": lambda a: ((), [a[0]], (), ()),
    "odds": lambda a: ((), [c for c, _ in a[1]], (), ()),
    "out": lambda a: ((), (), a, ()), "in-pyramid": lambda a: ((), (), a, ()),
    "held": lambda a: ((), [c for c, _ in a[1]], (), [a[0]]),
    "partner": lambda a: ((), (), (), [a[0]] + ([a[1]] if a[1] is not None else [])),
    "gain": lambda a: ((), (), (), [a[0]]), "net": lambda a: ((), (), (), [a[0]]),
    "turn": lambda a: ((), (), (), [a]), "start": lambda a: ((), (), (), [a]),
    "payout": lambda a: ((), (), (), [] if a is None else [a]),
    "winners": lambda a: ((), (), (), a),
}


def _check_names(game, verb, parsed):
    """Refuse a step naming a camel, die or seat the case's game does not have."""
    ed = game.edition
    if verb != "expect":
        seats = [] if parsed is None or parsed[0] is None else [parsed[0]]
        camels = racing = dice = ()
    elif parsed[0] == "coins":
        if len(parsed[1]) != game.players:
            _fail(Message("coins lists %(listed)d seats, the game has %(seats)d",
                          listed=len(parsed[1]), seats=game.players))
        return
    elif parsed[0] in _NAMES:
        camels, racing, dice, seats = _NAMES[parsed[0]](parsed[1])
    else:
        return
    for names, known, what in ((camels, ed.camels, Message("%(name)r is not a camel of the "
                                                         "%(edition)s edition (%(known)s)")),
                               (racing, ed.racing, Message("%(name)r is not a racing camel of the "
                                                           "%(edition)s edition (%(known)s)")),
                               (dice, ed.dice, Message("die %(name)r is not in the %(edition)s "
                                                       "pyramid (%(known)s)"))):
        for name in names:
            if name not in known:
                _fail(Message(what.template, name=name, edition=Message(ed.name),
                              known=", ".join(known)))
    for seat in seats:
        if seat >= game.players:
            _fail(Message("no seat p%(seat)d with %(players)d players (p0..p%(last)d)",
                          seat=seat, players=game.players, last=game.players - 1))


def build_game(case):
    """The case's starting ``Game``. Raises ``NotationError`` when the engine refuses it."""
    from camelup.game import Game, setup_stacks

    s = case.setup
    if "position" in s:
        return parse_position(s["position"][1])
    ed = s["edition"][1]
    n = s["players"][1]
    if "board" in s:
        stacks, tiles, _ = s["board"][1]
    else:
        racing = [r for r in s["rolls"][1] if r[0] not in ed.crazy]
        crazy = [r for r in s["rolls"][1] if r[0] in ed.crazy]
        stacks, tiles = setup_stacks(ed, racing, crazy), {}
    kw = {"tiles": tiles}
    for key in ("leg", "turn", "start", "coins", "out", "legs"):
        if key in s:
            kw[key] = s[key][1]
    for key, empty in (("tickets", []), ("pyramid", 0)):
        table = s.get(key, (0, {}))[1]
        for seat in table:
            if seat >= n:
                _fail(Message("%(key)s for p%(seat)d, but seats are p0..p%(last)d",
                              key=key, seat=seat, last=n - 1))
        kw["held" if key == "tickets" else key] = [table.get(p, empty) for p in range(n)]
    if "partners" in s:
        kw["partners"] = _partners(case)
    for key in ("winner", "loser"):
        if key in s:
            kw[key + "_pile"] = s[key][1]
    if "inside" in s:
        for die in s["inside"][1]:
            if die not in ed.dice:
                _fail(Message("inside: %s", Message("die %(name)r is not in the %(edition)s "
                                                    "pyramid (%(known)s)",
                                                    name=die, edition=Message(ed.name),
                                                    known=", ".join(ed.dice))))
    return Game(ed, n, stacks, **kw)


def run_scenarios(text, source="<text>"):
    """Parse and run every case in ``text``. Returns ``[(case, problems)]``."""
    return [(c, run_case(c)) for c in parse_scenarios(text, source)]


def run_case(case, trace=None):
    """Run one case. Returns its mismatches, one ``Message`` each (empty: it passes).
    ``trace``: a list to receive the position line after every step (the cross-runtime
    check compares them)."""
    game = build_game(case)
    problems = []
    last = None
    before = None
    odds = {}
    for no, verb, text, parsed in case.steps:
        where = Message("line %(line)d: %(text)s", line=no, text=(verb + " " + text).rstrip())
        if trace is not None:
            trace.append(game.position())
        try:
            if verb == "undo":
                if not game.history:
                    problems.append(Message("%s: nothing to undo", where))
                    break
                game.pop()
                last = before = None
                continue
            if verb == "expect":
                msg = _expect(game, case, last, before, parsed, odds)
                if msg is not None:
                    problems.append(Message("%(where)s\n  %(problem)s", where=where, problem=msg))
                continue
            seat, action = parsed
            if seat is not None and seat != game.turn:
                problems.append(Message("%(where)s: it is p%(turn)d's turn, not p%(seat)d's",
                                        where=where, turn=game.turn, seat=seat))
                break
            if verb == "do":
                coins = game.coins
                last = game.push(action)
                before = coins
            elif verb == "legal":
                game.check(action)
            else:
                position = game.position()
                try:
                    game.push(action)
                except IllegalAction:
                    if game.position() != position:
                        problems.append(Message("%s: the refused action changed the game", where))
                else:
                    game.pop()
                    problems.append(Message("%s: the engine allowed it", where))
        except ValueError as exc:  # IllegalAction, NotationError
            problems.append(Message("%(where)s: %(problem)s", where=where, problem=_why(exc)))
            break
    return problems


def _space_of(game, space):
    """A space number, or the crossed stack's space for ``F+`` / ``F-`` (``None``)."""
    if space in ("F+", "F-"):
        for s in game.stacks:
            if (space == "F+" and s > 16) or (space == "F-" and s < 1):
                return s
        return None
    return space


def _want_got(what, want, got):
    return None if want == got else Message("%(what)s: want %(want)s, got %(got)s",
                                            what=what, want=want, got=got)


def _diff(want, got):
    """A want / got pair on two lines of their own, as a ``Message``."""
    return Message("\n    - want: %(want)s\n    + got:  %(got)s", want=want, got=got)


def _names(camels):
    return ",".join(camels) or "-"


#: Expectations of one fact of the game: key -> (what, fact(game, arg)).
_FACTS = {
    "coins": (Message("coins"), lambda g, a: g.coins),
    "over": (Message("race over"), lambda g, a: g.is_over),
    "turn": (Message("turn"), lambda g, a: g.turn),
    "start": (Message("start marker"), lambda g, a: g.start_player),
    "leg": (Message("leg number"), lambda g, a: g.leg),
    "out": (Message("dice out"), lambda g, a: g.dice_out),
    "in-pyramid": (Message("dice in the pyramid"), lambda g, a: g.dice_in_pyramid()),
    "pyramid": (Message("pyramid tickets left"), lambda g, a: g.pyramid_tickets_left),
}


def _shown(key, value):
    """A fact as messages show it, as the expectation writes it: seats as pN (``-`` for
    none), lists comma-separated, dice inside sorted, leg tickets as ``blue5``, the
    values left as ``53``, yes or no."""
    if key in ("turn", "start", "partner"):
        return "-" if value is None else "p%d" % value
    if key == "in-pyramid":
        return _names(sorted(value))
    if key == "winners":
        return _names(["p%d" % p for p in value])
    if key == "held":
        return _names(["%s%d" % t for t in value])
    if key == "legs":
        return "".join([str(v) for v in value]) or "-"
    if key in ("over", "leg-scored"):
        return "yes" if value else "no"
    return _names(value) if key == "out" else value


def _expect(game, case, last, before, parsed, odds):
    """``None`` when the expectation holds, else a message (want / got)."""
    key, arg = parsed
    if key == "space":
        space, want = arg
        at = _space_of(game, space)
        got = game.stacks.get(at, []) if at is not None else []
        return _want_got(Message("space %s", space), _names(want), _names(got))
    if key == "at":
        camel, space = arg
        got = None
        for s in game.stacks:
            if camel in game.stacks[s]:
                got = s
        want = _space_of(game, space)
        return None if want == got else Message("%(camel)s at: want %(want)s, got %(got)s",
                                                camel=camel, want=space, got=got)
    if key == "board":
        want = track_text(arg[0], arg[1])
        got = track_text(game.stacks, game.tiles)
        return None if want == got else Message("board:%s", _diff(want, got))
    if key == "tiles":
        return _want_got(Message("tiles"), track_text({}, arg) or "-",
                         track_text({}, game.tiles) or "-")
    if key == "position":
        got = game.position()
        if arg == got:
            return None
        ws, gs = arg.split(" | "), got.split(" | ")
        out = Message("position differs:")
        for i in range(max(len(ws), len(gs))):
            w = ws[i] if i < len(ws) else ""
            g = gs[i] if i < len(gs) else ""
            if w != g:
                out = Message("%(heading)s%(diff)s", heading=out, diff=_diff(w, g))
        return out
    if key in _FACTS:
        what, fact = _FACTS[key]
        return _want_got(what, _shown(key, arg),
                         _shown(key, fact(game, arg)))
    if key == "ranking":
        got = game.ranking()
        return None if got[:len(arg)] == arg else Message("ranking: want %(want)s, got %(got)s",
                                                          want=_names(arg), got=_names(got))
    if key == "place":
        place, camel = arg
        got = game.ranking()
        if place > len(got):
            _fail(Message("place %(place)d: there are %(racing)d racing camels",
                          place=place, racing=len(got)))
        return _want_got(Message("place %d", place), camel, got[place - 1])
    if key == "ahead":
        a, b = arg
        got = game.ranking()
        return None if got.index(a) < got.index(b) else Message("%(camel)s ahead of %(other)s: no, "
                                                                "the ranking is %(ranking)s",
                                                                camel=a, other=b,
                                                                ranking=_names(got))
    if key == "winners":
        if not game.is_over:
            return Message("winning seats: want %s, but the race is not over",
                           _shown(key, arg))
        return _want_got(Message("winning seats"), _shown(key, arg),
                         _shown(key, game.winners()))
    if key in ("legs", "held", "partner"):
        if key == "legs":
            what, fact = Message("%s leg tickets left", arg[0]), game.leg_tickets_left
        elif key == "held":
            what, fact = Message("p%d leg tickets", arg[0]), game.held_tickets
        else:
            what, fact = Message("partner of p%d", arg[0]), game.partner_of
        return _want_got(what, _shown(key, arg[1]), _shown(key, fact(arg[0])))
    if key in ("reveals", "outcomes", "odds", "landings", "ev"):
        inside = case.setup["inside"][1] if "inside" in case.setup else None
        return check_odds(game, inside, key, arg, odds)
    if last is None:
        return Message("%s: no action was pushed yet (since the start or the last undo)", key)
    move = last.get("move")
    if key == "gain":
        seat, want = arg
        got = game.coins[seat] - before[seat]
        return None if got == want else Message("p%(seat)d coins: want %(want)+d, got %(got)+d "
                                                "(%(before)d -> %(after)d)",
                                                seat=seat, want=want, got=got, before=before[seat],
                                                after=game.coins[seat])
    if key == "net":
        if not last["leg_scores"]:
            return Message("net: the last action did not score a leg")
        return _want_got(Message("p%d leg net", arg[0]), arg[1],
                         last["leg_scores"][arg[0]]["net"])
    if key == "payout":
        tile = move["tile"] if move else None
        got = None if tile is None else tile["owner"]
        return None if got == arg else Message(
            "tile payout: want %(want)s, got %(got)s", want="-" if arg is None else "p%d" % arg,
            got="-" if got is None else "p%d" % got)
    if key == "moved":
        return _want_got(Message("camel moved"), arg, move["camel"] if move else None)
    if key == "rule":
        return _want_got(Message("grey-die rule"), arg, move["rule"] if move else None)
    return _want_got(Message("leg scored"), _shown(key, arg),  # leg-scored
                     _shown(key, bool(last["leg_ended"])))
