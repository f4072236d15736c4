"""Scenario files: positions, actions and expected outcomes, checked against the engine.

A file holds one or more cases. Lines (``#`` starts a comment)::

    case E2-01 grey exception (a)         start a case: id, then a title
    edition second                        position builder (or: position <notation line>)
    players 4
    board 3:blue 10:white,red 6:+p1 14:black     track tokens, tiles as space:+pN / space:-pN
    turn p0 | start p0 | leg 2 | coins 3 0 3 3
    tickets p1 red5,blue3                 leg tickets held by a seat
    pyramid p1 2                          pyramid tickets held by a seat
    out red,blue                          dice revealed this leg
    partners p0 p3
    winner p0:red,p2:blue | loser p1:green   finish piles in play order
    do pyramid grey black 1               push an action (must be legal)
    illegal tile 5 +                      must raise IllegalAction and change nothing
    legal tile 13 +                       must be legal (not pushed)
    undo                                  pop the last action
    expect space 9 white,red              one space (``-`` = empty)
    expect board 9:white,red 14:black     the whole track (camels and tiles)
    expect coins 3 4 3 3 | ranking purple,yellow,... | over yes | winner purple
    expect position <notation line>       the exact position

See docs/notation.md for every key. ``run_scenarios`` returns readable mismatches.
"""

from camelup.actions import colour_name, parse_action
from camelup.editions import get_edition
from camelup.errors import IllegalAction, NotationError
from camelup.notation import parse_position, parse_track, position_text, track_text

BUILD_KEYS = ("edition", "players", "board", "rolls", "turn", "start", "leg", "coins", "tickets",
              "pyramid", "out", "partners", "winner", "loser", "position")


class Case:
    """One scenario: ``id``, ``title``, ``source`` (file name), ``line`` (where it
    starts), ``setup`` (list of ``(line, key, value)``) and ``steps`` (list of
    ``(line, verb, text)``; verbs ``do``, ``illegal``, ``legal``, ``undo``, ``expect``)."""

    def __init__(self, case_id, title, source, line):
        self.id = case_id
        self.title = title
        self.source = source
        self.line = line
        self.setup = []
        self.steps = []
        #: camels the board line left out (placed out of the way by ``build_game``)
        self.unlisted = []

    def __repr__(self):
        return "Case(%r)" % self.id


def parse_scenarios(text, source="<text>"):
    """Read scenario text into a list of ``Case``. Raises ``NotationError`` with the
    file name and line number for an unknown line."""
    cases = []
    current = None
    lines = text.split("\n")
    for i in range(len(lines)):
        no = i + 1
        raw = lines[i]
        cut = raw.find("#")
        line = (raw[:cut] if cut >= 0 else raw).strip()
        if not line:
            continue
        parts = line.split(None, 1)
        key = parts[0].lower()
        rest = parts[1].strip() if len(parts) > 1 else ""
        if key == "case":
            words = rest.split(None, 1)
            if not words:
                raise NotationError("%s:%d: 'case' needs an id" % (source, no))
            current = Case(words[0], words[1] if len(words) > 1 else "", source, no)
            cases.append(current)
            continue
        if current is None:
            name = source.split("/")[-1]
            if name.endswith(".scn"):
                name = name[:-4]
            current = Case(name, "", source, no)
            cases.append(current)
        if key in BUILD_KEYS and not current.steps:
            current.setup.append((no, key, rest))
        elif key in ("do", "illegal", "legal", "expect"):
            if not rest:
                raise NotationError("%s:%d: %r needs an argument" % (source, no, key))
            current.steps.append((no, key, rest))
        elif key == "undo":
            current.steps.append((no, key, rest))
        else:
            raise NotationError("%s:%d: unknown scenario line %r" % (source, no, raw.strip()))
    return cases


def _seat(word, where):
    word = word.lower()
    if not word.startswith("p") or not word[1:].isdigit():
        raise NotationError("%s: seat %r must look like p0, p1, ..." % (where, word))
    return int(word[1:])


def _ints(text, where):
    try:
        return [int(w) for w in text.split()]
    except ValueError:
        raise NotationError("%s: expected numbers, got %r" % (where, text)) from None


def _cards(text, where):
    if text == "-":
        return []
    out = []
    for card in text.split(","):
        if ":" not in card:
            raise NotationError("%s: finish card %r must be pN:colour" % (where, card))
        seat, colour = card.split(":", 1)
        out.append((_seat(seat, where), colour))
    return out


def _tickets(text, where):
    out = []
    for t in text.split(","):
        i = len(t)
        while i > 0 and t[i - 1].isdigit():
            i -= 1
        if i == 0 or i == len(t):
            raise NotationError("%s: leg ticket %r must be colour then value, like red5"
                                % (where, t))
        out.append((t[:i], int(t[i:])))
    return out


def _rolls(ed, text, where):
    """``rolls colour:value ...`` in placement order -> stacks (RULES 2.2, 3.2)."""
    from camelup.game import setup_stacks

    racing = []
    crazy = []
    for tok in text.split():
        if ":" not in tok:
            raise NotationError("%s: setup roll %r must be colour:value" % (where, tok))
        colour, value = tok.split(":", 1)
        roll = (colour, _ints(value, where)[0])
        (crazy if colour in ed.crazy else racing).append(roll)
    return setup_stacks(ed, racing, crazy)


def _place_unlisted(ed, stacks, tiles):
    """Put camels the board leaves out where they interfere least (the case files say
    "unlisted camels are placed where they don't interfere"): each missing racing camel
    alone on the lowest free space, each missing crazy camel alone on the highest free
    space (free: no camel, no tile). Camels listed twice or unknown are left for the
    engine to report. Returns the list of camels placed."""
    listed = [c for s in stacks for c in stacks[s]]
    placed = []
    for c in ed.racing:
        if c not in listed:
            space = 1
            while space in stacks or space in tiles:
                space += 1
            stacks[space] = [c]
            placed.append(c)
    for c in ed.crazy:
        if c not in listed:
            space = 16
            while space in stacks or space in tiles:
                space -= 1
            stacks[space] = [c]
            placed.append(c)
    return placed


def _guess_edition(stacks, fields, case):
    """No ``edition`` line: second if any camel or die only the second edition has is
    named, classic if orange is; otherwise ask for the line."""
    words = []
    if stacks:
        for sp in stacks:
            words += stacks[sp]
    if "rolls" in fields:
        words += [colour_name(t.split(":")[0]) for t in fields["rolls"][0].split()]
    for w in words:
        if w in ("red", "purple", "black"):
            return get_edition("second")
        if w == "orange":
            return get_edition("classic")
    raise NotationError("%s:%d: case %s: add an 'edition classic|second' line"
                        % (case.source, case.line, case.id))


def _guess_players(ed, tiles, fields):
    """No ``players`` line: enough seats for every seat the case names, at least the
    edition's minimum."""
    top = -1
    for sp in tiles:
        top = max(top, tiles[sp][0])
    for key in ("tickets", "pyramid"):
        for seat, _, _ in fields.get(key, []):
            top = max(top, seat)
    for key in ("turn", "start"):
        if key in fields:
            top = max(top, _seat(fields[key][0], fields[key][1]))
    for key in ("winner", "loser"):
        if key in fields:
            for seat, _ in _cards(fields[key][0], fields[key][1]):
                top = max(top, seat)
    if "partners" in fields:
        for w in fields["partners"][0].split():
            top = max(top, _seat(w, fields["partners"][1]))
    if "coins" in fields:
        top = max(top, len(fields["coins"][0].split()) - 1)
    return max(ed.min_players, top + 1)


def build_game(case):
    """The case's starting ``Game`` from its setup lines. Raises ``NotationError``."""
    from camelup.game import Game

    fields = {}
    for no, key, value in case.setup:
        where = "%s:%d" % (case.source, no)
        if key == "position":
            return parse_position(value)
        if key in ("tickets", "pyramid"):
            words = value.split(None, 1)
            if len(words) != 2:
                raise NotationError("%s: %s needs a seat and a value" % (where, key))
            fields.setdefault(key, []).append((_seat(words[0], where), words[1], where))
        else:
            fields[key] = (value, where)
    if "board" not in fields and "rolls" not in fields:
        raise NotationError("%s:%d: case %s needs a board or rolls line (or a position line)"
                            % (case.source, case.line, case.id))
    if "board" in fields:
        stacks, tiles = parse_track(fields["board"][0])
    else:
        stacks, tiles = None, {}
    if "edition" in fields:
        ed = get_edition(fields["edition"][0])
    else:
        ed = _guess_edition(stacks, fields, case)
    if stacks is None:
        stacks = _rolls(ed, fields["rolls"][0], fields["rolls"][1])
    else:
        case.unlisted = _place_unlisted(ed, stacks, tiles)
    if "players" in fields:
        n = _ints(fields["players"][0], fields["players"][1])[0]
    else:
        n = _guess_players(ed, tiles, fields)
    kw = {"tiles": tiles}
    if "turn" in fields:
        kw["turn"] = _seat(fields["turn"][0], fields["turn"][1])
    if "start" in fields:
        kw["start"] = _seat(fields["start"][0], fields["start"][1])
    if "leg" in fields:
        kw["leg"] = _ints(fields["leg"][0], fields["leg"][1])[0]
    if "coins" in fields:
        kw["coins"] = _ints(fields["coins"][0], fields["coins"][1])
    if "out" in fields:
        v = fields["out"][0]
        kw["out"] = [] if v == "-" else v.split(",")
    held = [[] for _ in range(n)]
    pyr = [0] * n
    for seat, value, where in fields.get("tickets", []):
        if seat >= n:
            raise NotationError("%s: no seat p%d with %d players" % (where, seat, n))
        held[seat] += _tickets(value, where)
    for seat, value, where in fields.get("pyramid", []):
        if seat >= n:
            raise NotationError("%s: no seat p%d with %d players" % (where, seat, n))
        pyr[seat] += _ints(value, where)[0]
    kw["held"] = held
    kw["pyramid"] = pyr
    if "partners" in fields:
        partners = [None] * n
        words = fields["partners"][0].split()
        if len(words) % 2:
            raise NotationError("%s: partners come in pairs" % fields["partners"][1])
        for j in range(0, len(words), 2):
            a = _seat(words[j], fields["partners"][1])
            b = _seat(words[j + 1], fields["partners"][1])
            partners[a] = b
            partners[b] = a
        kw["partners"] = partners
    if "winner" in fields:
        kw["winner_pile"] = _cards(fields["winner"][0], fields["winner"][1])
    if "loser" in fields:
        kw["loser_pile"] = _cards(fields["loser"][0], fields["loser"][1])
    return Game(ed, n, stacks, **kw)


def _yes(word):
    return word.lower() in ("yes", "true", "1")


def _colours(text):
    if text.strip() == "-":
        return []
    return [colour_name(w) for w in text.replace("[", " ").replace("]", " ")
            .replace(",", " ").split()]


def _space_of(game, word):
    """A space number, or ``F+`` / ``F-``: the stack past the line (clockwise /
    counterclockwise, RULES 1.1). Returns ``None`` when no such stack exists."""
    w = word.upper()
    if w in ("F+", "F-"):
        for s in game.stacks:
            if (w == "F+" and s > 16) or (w == "F-" and s < 1):
                return s
        return None
    return int(word)


def _diff_positions(want, got):
    ws = [s.strip() for s in want.split("|")]
    gs = [s.strip() for s in got.split("|")]
    out = []
    for i in range(max(len(ws), len(gs))):
        w = ws[i] if i < len(ws) else ""
        g = gs[i] if i < len(gs) else ""
        if w != g:
            out.append("    - want: %s\n    + got:  %s" % (w, g))
    return "\n".join(out)


_ALIASES = {"score": "coins", "scores": "coins", "points": "coins", "track": "board",
            "order": "ranking", "race-over": "over", "mover": "moved"}


def _expect(game, last, text, unlisted=()):
    """Return ``None`` when the expectation holds, else a one-line (or few-line) message."""
    parts = text.split(None, 1)
    key = parts[0].lower()
    arg = parts[1].strip() if len(parts) > 1 else ""
    key = _ALIASES.get(key, key)
    if key == "space":
        words = arg.split(None, 1)
        space = _space_of(game, words[0])
        want = _colours(words[1] if len(words) > 1 else "-")
        got = game.stacks.get(space, []) if space is not None else []
        if got != want:
            return "space %s: want %s, got %s" % (words[0], ",".join(want) or "-",
                                                 ",".join(got) or "-")
        return None
    if key == "at":
        words = arg.split()
        camel = colour_name(words[0])
        got = None
        for s in game.stacks:
            if camel in game.stacks[s]:
                got = s
        want = _space_of(game, words[1])
        if got != want:
            return "%s at: want %s, got %s" % (camel, words[1], got)
        return None
    if key == "board":
        want_s, want_t = parse_track(arg)
        want = track_text(want_s, want_t)
        got_s = game.stacks
        named = [c for sp in want_s for c in want_s[sp]]
        for c in unlisted:
            # a camel the case left out of its board is left out of the comparison too,
            # unless the expectation names it
            if c not in named:
                for sp in list(got_s):
                    if c in got_s[sp]:
                        got_s[sp].remove(c)
                        if not got_s[sp]:
                            del got_s[sp]
        got = track_text(got_s, game.tiles)
        if want != got:
            return "board:\n    - want: %s\n    + got:  %s" % (want, got)
        return None
    if key == "position":
        want = position_text(parse_position(arg))
        got = game.position()
        if want != got:
            return "position differs:\n" + _diff_positions(want, got)
        return None
    if key == "coins":
        words = arg.split()
        if words and words[0].lower().startswith("p"):
            # "expect coins p1 4": one seat only
            seat = _seat(words[0], "coins")
            got = game.coins[seat]
            if got != int(words[1]):
                return "p%d coins: want %s, got %d" % (seat, words[1], got)
            return None
        want = [int(w) for w in words]
        if game.coins != want:
            return "coins: want %s, got %s" % (want, game.coins)
        return None
    if key == "ranking":
        want = _colours(arg)
        got = game.ranking()
        if want != got[:len(want)]:  # a shorter list checks the first places only
            return "ranking: want %s, got %s" % (",".join(want), ",".join(got))
        return None
    if key == "over":
        if game.is_over != _yes(arg):
            return "race over: want %s, got %s" % (arg, "yes" if game.is_over else "no")
        return None
    if key in ("winner", "loser"):
        order = game.ranking()
        got = order[0] if key == "winner" else order[-1]
        arg = colour_name(arg)
        if got != arg:
            return "overall %s: want %s, got %s" % (key, arg, got)
        return None
    if key == "winners":
        want = [_seat(w, "winners") for w in _colours(arg)]
        got = game.winners() if game.is_over else []
        if want != got:
            return "winning seats: want %s, got %s" % (want, got)
        return None
    if key in ("turn", "start"):
        want = _seat(arg, key)
        got = game.turn if key == "turn" else game.start_player
        if want != got:
            return "%s: want p%d, got p%d" % (key, want, got)
        return None
    if key == "leg":
        if game.leg != int(arg):
            return "leg number: want %s, got %d" % (arg, game.leg)
        return None
    if key == "out":
        want = _colours(arg)
        if game.dice_out != want:
            return "dice out: want %s, got %s" % (",".join(want) or "-",
                                                  ",".join(game.dice_out) or "-")
        return None
    if key == "in-pyramid":
        want = _colours(arg)
        got = game.dice_in_pyramid()
        if sorted(want) != sorted(got):
            return "dice in pyramid: want %s, got %s" % (",".join(want), ",".join(got))
        return None
    if key == "pyramid":
        if game.pyramid_tickets_left != int(arg):
            return "pyramid tickets left: want %s, got %d" % (arg, game.pyramid_tickets_left)
        return None
    if key == "legs":
        words = arg.split()
        colour = colour_name(words[0])
        want = [] if len(words) < 2 or words[1] == "-" else [int(c) for c in words[1]]
        got = game.leg_tickets_left(colour)
        if want != got:
            return "%s leg tickets left: want %s, got %s" % (colour, want, got)
        return None
    if key == "held":
        words = arg.split(None, 1)
        seat = _seat(words[0], "held")
        want = [] if len(words) < 2 or words[1] == "-" else _tickets(words[1], "held")
        got = game.held_tickets(seat)
        if want != got:
            return "p%d leg tickets: want %s, got %s" % (seat, want, got)
        return None
    if key == "partner":
        words = arg.split()
        seat = _seat(words[0], "partner")
        want = None if words[1] == "-" else _seat(words[1], "partner")
        if game.partner_of(seat) != want:
            return "partner of p%d: want %s, got %s" % (seat, want, game.partner_of(seat))
        return None
    # Expectations about the last push's report.
    if last is None:
        return "%s: no action was pushed yet" % key
    move = last.get("move")
    if key == "moved":
        got = move["camel"] if move else None
        arg = colour_name(arg)
        if got != arg:
            return "camel moved: want %s, got %s" % (arg, got)
        return None
    if key == "rule":
        got = move["rule"] if move else None
        if got != arg:
            return "grey-die rule: want %s, got %s" % (arg, got)
        return None
    if key == "payout":
        tile = move["tile"] if move else None
        if arg == "-":
            return None if tile is None else "tile payout: want none, got p%d" % tile["owner"]
        words = arg.split()
        want = _seat(words[0], "payout")
        if len(words) > 1 and words[1].lstrip("+") != "1":
            return "tile payout: a tile always pays 1 coin per landing unit (RULES 1.5)"
        if tile is None or tile["owner"] != want:
            return "tile payout: want p%d, got %s" % (
                want, "none" if tile is None else "p%d" % tile["owner"])
        return None
    if key == "leg-scored":
        if last["leg_ended"] != _yes(arg):
            return "leg scored: want %s, got %s" % (arg, last["leg_ended"])
        return None
    if key == "net":
        words = arg.split()
        seat = _seat(words[0], "net")
        if not last["leg_scores"]:
            return "net: the last action did not score a leg"
        got = last["leg_scores"][seat]["net"]
        if got != int(words[1]):
            return "p%d leg net: want %s, got %d" % (seat, words[1], got)
        return None
    raise NotationError("unknown expectation %r" % key)


def run_case(case):
    """Run one ``Case``. Returns a list of mismatch messages (empty: the case passes)."""
    problems = []
    try:
        game = build_game(case)
    except ValueError as exc:
        return ["line %d: cannot build the position: %s" % (case.line, exc)]
    last = None
    for no, verb, text in case.steps:
        where = "line %d: %s %s" % (no, verb, text)
        try:
            if verb == "do":
                words = text.split(None, 1)
                if len(words) == 2 and words[0].lower()[:1] == "p" and words[0][1:].isdigit():
                    # "do p1 leg red": the seat must be the one to act
                    seat = int(words[0][1:])
                    if seat != game.turn:
                        problems.append("%s: it is p%d's turn, not p%d's"
                                        % (where, game.turn, seat))
                        break
                    text = words[1]
                last = game.push(text)
            elif verb == "undo":
                game.pop()
                last = None
            elif verb == "legal":
                game.check(text)
            elif verb == "illegal":
                before = game.position()
                action = parse_action(text)
                try:
                    game.push(action)
                except IllegalAction:
                    if game.position() != before:
                        problems.append("%s: the refused action changed the game" % where)
                else:
                    game.pop()
                    problems.append("%s: the engine allowed it" % where)
            else:
                msg = _expect(game, last, text, case.unlisted)
                if msg is not None:
                    problems.append("%s\n  %s" % (where, msg))
        except IndexError:
            problems.append("%s: nothing to undo" % where)
            break
        except ValueError as exc:  # IllegalAction, NotationError, or a bad number
            problems.append("%s: %s" % (where, exc))
            break
    return problems


def run_scenarios(text, source="<text>"):
    """Parse and run every case in ``text``. Returns ``[(case, problems)]``."""
    return [(c, run_case(c)) for c in parse_scenarios(text, source)]
