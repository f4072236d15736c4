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

Leg-odds expectations in the odds cases' words (``leg winner: blue 8/81, ...``,
``pyramid {G,B} -> B 1st, G 2nd, certain``) are read by ``camelup.odds_expect``.

See docs/notation.md for every key. ``run_scenarios`` returns readable mismatches.
"""

from camelup.actions import COLOURS, colour_name, parse_action
from camelup.editions import DICE_PER_LEG, START_COINS, get_edition
from camelup.errors import IllegalAction, NotationError
from camelup.notation import parse_position, parse_track, position_text, track_text
from camelup.odds_expect import is_odds

BUILD_KEYS = ("edition", "players", "board", "rolls", "turn", "start", "leg", "coins", "tickets",
              "pyramid", "out", "partners", "winner", "loser", "position", "inside")


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
        #: expectations written after an arrow on a setup line (``rolls ... -> 15:[K,W]``),
        #: checked on the starting position before the steps
        self.checks = []
        #: dice still inside from a ``pyramid {G,B}`` / ``dice blue, yellow`` line
        self.inside = None
        #: odds ``Position`` when the board's names are labels (``build_game`` -> None)
        self.labels = None
        self.start_leg = 1
        #: read for its leg odds (``pyramid odds``): guess the edition as for odds cases
        self.odds = False

    def __repr__(self):
        return "Case(%r)" % self.id


#: Words that name a tile side in the case files ("P2 cheering on 10", "mirage on 6").
_SIDE_WORDS = {"cheering": "+", "cheer": "+", "oasis": "+", "booing": "-", "boo": "-",
               "mirage": "-"}
#: Expectation keys a line may start with without ``expect`` (``order P, G, B``,
#: ``winner R``, ``race over``); build keys count too once the case has steps.
_BARE_EXPECT = ("space", "at", "order", "ranking", "over", "race-over", "winners", "moved",
                "mover", "rule", "payout", "leg-scored", "net", "in-pyramid", "legs", "held",
                "partner", "position", "owner", "first", "leader", "second", "runner-up",
                "last", "tiles", "ignored", "stays", "final", "totals")


def _tile_words(words):
    """``[seat] side-word [tile] [on] space`` (``P2 booing on 4``, ``P2's mirage on 6``,
    ``cheering on 16``) -> ``(seat word or None, side, space word)``, else ``None``."""
    seat = None
    if words and _is_seat(words[0]):
        seat = words[0]
        words = words[1:]
    if not words or words[0].lower() not in _SIDE_WORDS:
        return None
    side = _SIDE_WORDS[words[0].lower()]
    rest = [w for w in words[1:] if w.lower() not in ("tile", "on", "at", "of", "by", "for")]
    if seat is None and len(rest) == 2 and _is_seat(rest[0]):
        seat = rest[0]  # "mirage P2 6", "oasis of P3 on 5"
        rest = rest[1:]
    if len(rest) != 1 or not rest[0].isdigit():
        return None
    return seat, side, rest[0]


_PLACES = {"first": "leader", "leads": "leader", "second": "second", "last": "loser"}


def _placing(words):
    """``G ahead of B`` / ``G behind B`` -> ``("ahead", G, B)``; ``Y first`` / ``R second`` /
    ``G last`` / ``G leads`` -> ``(key, Y, None)``; else ``None``."""
    if len(words) == 4 and words[1].lower() in ("ahead", "behind") and words[2].lower() == "of":
        return words[1].lower(), words[0], words[3]
    if len(words) == 3 and words[1].lower() == "behind":
        return "behind", words[0], words[2]
    if len(words) == 2 and words[1].lower() in _PLACES:
        return _PLACES[words[1].lower()], words[0], None
    return None


def _words_coins(line):
    """The N of "P1 (N coins) holds ..." (as text)."""
    return line.split("(", 1)[1].split()[0]


def _bare(line, key, rest, has_steps):
    """Classify a line that starts with no scenario keyword, written as the case files
    write it. Returns ``(verb, text)`` (verb ``tile``, ``expect`` or ``do``) or ``None``."""
    words = line.split()
    tile = _tile_words(words)
    if tile is not None and not has_steps:
        return "tile", line
    if not has_steps and _tile_parts(line):
        return "tile", line  # "a mirage on 4 and an oasis on 6"
    if (not has_steps and len(words) > 4 and _is_seat(words[0]) and words[1].startswith("(")
            and words[2].lower().rstrip(")").rstrip(",") in ("coins", "coin")):
        # "P1 (0 coins) holds red-5, ...": the coins, then the rest as usual
        words = [words[0]] + words[3:]
        found = _bare(" ".join(words), words[0].lower(), " ".join(words[1:]), has_steps)
        if found is not None and found[0] == "tickets":
            return "tickets", found[1] + " (coins=%s)" % _words_coins(line)
        return None
    if (not has_steps and len(words) == 4 and _is_seat(words[0])
            and words[1].lower() in ("has", "holds") and words[2].isdigit()
            and words[3].lower().rstrip(".") in ("coin", "coins")):
        return "coins", "%s %s" % (words[0], words[2])  # "P4 has 1 coin"
    if (not has_steps and len(words) > 2 and _is_seat(words[0])
            and words[1].lower() in ("holds", "has", "tickets")):
        return "tickets", words[0] + " " + " ".join(words[2:])  # "P1 holds red-5, blue-3"
    if _is_seat(words[0]) and len(words) > 1 and words[1][:1] in ("+", "-"):
        return "expect", "delta " + _unparen(line).strip()  # "P2 +1 (not +3)", "P1 +8, P2 -1"
    if key == "race":
        said = rest.lower().replace(",", " ").split()
        return "expect", "over " + ("no" if "not" in said or "on" in said else "yes")
    if key in _BARE_EXPECT or key in _ALIASES:
        return "expect", line
    if has_steps and key in BUILD_KEYS:
        return "expect", line
    if ":" in words[0]:
        return "expect", line  # "9:[W,R] 14:[K]"
    if len(words) == 3 and words[1].lower() == "at":
        return "expect", "at %s %s" % (words[0], words[2])  # "W at F-"
    if len(words) == 2 and words[1].lower() == "stays":
        return "expect", "stays " + words[0]  # "K stays" (not part of the last move)
    if words[0].lower() == "exception" and len(words) == 2:
        return "expect", "rule " + words[1]  # "exception (b)"
    if len(words) == 4 and words[1].lower() == "moves" and words[2].lower() == "to":
        return "expect", "at %s %s" % (words[0], words[3])  # "W moves to 13"
    if len(words) == 2 and words[1].lower() == "ignored":
        return "expect", "ignored " + words[0]  # "W ignored" (not ranked)
    if _placing(words) is not None or key == "overall":
        return "expect", line  # "G ahead of B", "Y first", "overall loser G"
    act = line.split("->")[0].split(";")[0]
    try:
        parse_action(_seats_lowered(act, "") if not _is_seat(words[0])
                     else " ".join(act.split()[1:]))
    except (NotationError, ValueError):
        return None
    return "do", line


def parse_scenarios(text, source="<text>"):
    """Read scenario text into a list of ``Case``. Raises ``NotationError`` with the
    file name and line number for an unknown line.

    Besides the keyword lines of the module docstring, lines written the way the case
    files write them are understood: ``P2 booing on 4`` (a tile, before the first step),
    ``P2 +1`` / ``P1 +8, P2 -1`` (coin changes of the last action), ``order P, G, B``,
    ``winner R``, ``loser G``, ``race over``, ``W at F-``, ``9:[W,R] 14:[K]`` (those spaces),
    and a bare action such as ``grey WHITE 1`` (pushed like ``do``)."""
    cases = []
    current = None
    lines = text.split("\n")
    work = []
    for i in range(len(lines)):
        work.append((i + 1, lines[i]))
    work.reverse()
    while work:
        no, raw = work.pop()
        raw = raw.replace("\u2192", "->")  # "grey BLACK 1 \u2192 ..." (an arrow character)
        cut = raw.find("#")
        line = (raw[:cut] if cut >= 0 else raw).strip().replace("`", "").rstrip(".").strip()
        if not line:
            continue
        first_word = line.split(None, 1)[0]
        if _literal_id(first_word) and work:
            # a case-file case spread over several lines (E2-07, E2-23): joined up to
            # the next blank line
            joined = (raw[:cut] if cut >= 0 else raw).strip().replace("`", "")  # keeps its "."
            taken = []
            while work:
                nxt = work[-1][1].replace("\u2192", "->").split("#", 1)[0].strip()
                if not nxt or nxt.split(None, 1)[0].lower() == "case" or _literal_id(
                        nxt.split(None, 1)[0].rstrip(":")):
                    break
                taken.append(work.pop())
                joined += " " + nxt.replace("`", "").rstrip()
            joined = joined.rstrip(".").strip()
            if taken and _case_file_line(joined, source, no) is not None:
                line = joined
            else:
                while taken:
                    work.append(taken.pop())
        lines_of = _case_file_line(line, source, no)
        if lines_of is not None:
            # "E2-13 title: `3:[B,R,G]`, P2 booing on 4, red 1 -> P2 +1, `3:[R,G,B]`":
            # one case written as the case files write it, read as the lines it stands for
            for one in reversed(lines_of):
                work.append((no, one))
            continue
        head = line.split(None, 1)
        if (len(head) == 2 and head[0].endswith(":") and _track_first(head[1])
                and (_case_id(head[0][:-1]) or _literal_id(head[0][:-1]))):
            # "D2: 2:[R,Y,P] 9:[G] ..." as the odds cases open a vector: the id starts a
            # case, unless a 'case' line just started one (that keeps its own id)
            if current is None or _started(current) or [
                    k for _, k, _ in current.setup if k in ("board", "rolls", "position")]:
                current = Case(head[0][:-1], "", source, no)
                cases.append(current)
            line = head[1]
        if _track_first(line) and (current is None or (not _started(current) and not [
                k for _, k, _ in current.setup if k in ("board", "rolls", "position")])):
            line = "board " + line  # "2:[R,Y,P] 9:[G] 14:[K,W]" as the odds cases open
        if line.lower().startswith("board ") and ";" in line.split("->")[0]:
            # "board 2:[R,Y,P] 9:[G]; pyramid {G,B} -> ...": the rest is another line
            head, tail = line.split(";", 1)
            work.append((no, tail))
            line = head.strip()
        low = line.lower()
        for lead in ("in the pyramid", "in pyramid", "dice still inside", "still inside",
                     "dice inside"):
            if low.startswith(lead) and not _has_digit(line.split("->")[0]):
                line = "inside " + line[len(lead):].lstrip(" :=")  # "in the pyramid: G, B"
                break
        plain = _unparen(low).replace(",", " ").replace(":", " ").split()
        if plain and plain[0] in ("classic", "first", "second") and (
                plain == ["classic"] or (len(plain) == 2 and plain[1] == "edition")):
            line = "edition " + plain[0]  # "Second edition", "classic", "First edition:"
        parts = line.split(None, 1)
        key = parts[0].lower()
        if key.endswith(":") and len(key) > 1 and key[:-1].isalpha():
            key = key[:-1]  # "expect: ...", "illegal: ..."
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
        first = rest.split()[0] if rest else ""
        if ((key in ("dice", "die", "inside") or (key == "pyramid" and not _is_seat(first)))
                and not _started(current) and not _has_digit(rest.split("->")[0])):
            key = "inside"  # "pyramid {G,B}", "dice blue, yellow": the dice still inside
        elif key == "dice" and not _started(current):
            key = "rolls"  # "dice green 1, yellow 1, ..." (setup rolls, S-01)
        if (key not in ("do", "expect", "legal", "illegal", "undo", "case", "position",
                        "board", "rolls", "inside", "tickets", "coins", "out")
                and is_odds(line)):
            if ";" in line or "->" in line:
                _split_steps(current, no, "expect", line)
            else:
                current.steps.append((no, "expect", line))  # "leg winner: blue 8/81, ..."
            continue
        use = _may_use(line)
        if use is not None:
            # "P1 may not use 1 (never), 4 or 9, 5, 6, 7": tile legality for each space
            for verb, action in use:
                current.steps.append((no, verb, action))
            continue
        if key == "roll" and rest:
            if "->" in rest or ";" in rest:  # "roll red 2", "roll grey black 1": the die
                _split_steps(current, no, "do", rest)
            else:
                current.steps.append((no, "do", rest))
            continue
        if ((key == "leg" and first and not first.isdigit())
                or (key == "pyramid" and first and not first.isdigit() and not _is_seat(first))
                or (key == "tile" and first.isdigit())):
            if key == "leg" and first.lower() in ("scored", "is", "not", "ends", "ended"):
                current.steps.append((no, "expect", line))  # "leg scored"
            else:
                current.steps.append((no, "do", line))  # a bare action: "leg red", "tile 7 +"
            continue
        if key in ("do", "expect") and (";" in rest or "->" in rest):
            # "do green 2 -> 2:[Y] 4:[R,B,G]; order P, G, B, R, Y"
            _split_steps(current, no, key, rest)
            continue
        if key in ("winner", "loser") and rest != "-" and ":" not in rest and not [
                w for w in rest.replace(",", " ").split() if _is_seat(w)]:
            # "winner R": the overall winner, not a finish pile
            current.steps.append((no, "expect", line))
        elif key in BUILD_KEYS and not _started(current):
            if "->" in rest:
                rest, after = rest.split("->", 1)
                rest = rest.strip()
                for part in after.split(";"):
                    part = part.strip().rstrip(".")
                    if part.lower().startswith("expect "):
                        part = part[7:].strip()
                    if part:
                        current.checks.append((no, "expect", part))
            current.setup.append((no, key, rest))
        elif key in ("tile", "tiles") and not _started(current):
            current.setup.append((no, "tile", rest))
        elif key in ("do", "illegal", "legal", "expect"):
            if not rest:
                raise NotationError("%s:%d: %r needs an argument" % (source, no, key))
            current.steps.append((no, key, rest))
        elif key == "undo":
            current.steps.append((no, key, rest))
        else:
            found = _bare(line, key, rest, _started(current))
            if (found is None and _started(current) and not is_odds(line)
                    and not _literal_id(line.split()[0]) and ": " not in _unparen(line)):
                # "then `8:[P,B,G,Y]`", "P2 +1 (not +3)" (no prose dropped before a colon
                # on a line of its own)
                more = _expectations(line, "", quiet=True)
                if more:
                    for one in more:
                        current.steps.append((no, "expect", one))
                    continue
            if found is None:
                if _literal_id(line.split()[0]):
                    raise NotationError(
                        "%s:%d: case-file line %s is prose the checker does not read: a "
                        "case-file line needs 'ID title: `board`, setup, ..., action -> "
                        "expectation, ...'; write this one as keyword lines (case %s ... / "
                        "board ... / do ... / expect ...), as tests/scenarios/ does%s"
                        % (source, no, line.split()[0], line.split()[0], _SUPPORTED))
                raise NotationError("%s:%d: unknown scenario line %r%s" % (
                    source, no, raw.strip(), _SUPPORTED))
            verb, what = found
            if verb in ("tile", "tickets", "coins"):
                current.setup.append((no, verb, what))
            elif ";" in what or "->" in what:
                _split_steps(current, no, verb, what)
            else:
                current.steps.append((no, verb, what))
    return cases


_SUPPORTED = (" (a line is a keyword line such as 'board 3:[B,R,G]', 'do red 1', 'expect 3:[R,G,B]',"
              " a case-file form such as 'P2 booing on 4', 'red 1 -> P2 +1; 3:[R,G,B]',"
              " 'order B, G, R', 'P1 (0 coins) holds red-5', or one whole case-file line"
              " 'ID title: `board`, setup, ..., action -> expectation, ...';"
              " docs/notation.md section 3 lists every form)")

#: Sentences of a case-file line that say "the same again with another die".
_SAME = (" gives the same", " give the same", " instead gives the same")


def _literal_id(word):
    """``E2-13``, ``X-04``, ``S-01``, ``M11``, ``K4``, ``G-L1``: an upper-case letter, then
    letters, digits and ``-``, with a digit somewhere (case ids of the case files)."""
    if len(word) < 2 or not ("A" <= word[0] <= "Z") or not _has_digit(word) or _is_seat(word):
        return False  # "P2" is the cases' player 2, not an id
    for ch in word:
        if not (ch.isalpha() or ch.isdigit() or ch == "-"):
            return False
    return True


def _top_split(text, seps):
    """Split ``text`` at any of the one-character ``seps`` outside brackets/parentheses."""
    out = []
    depth = 0
    cur = ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])" and depth:
            depth -= 1
        if ch in seps and not depth:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def _clauses(text):
    """A case-file sentence cut at commas and semicolons, keeping lists of colours
    (``order P, G, B``) and coin changes (``P1 +8, P2 -1``) in one clause."""
    out = []
    for part in _top_split(text, ",;"):
        part = _unparen(part).strip()
        if not part:
            continue
        words = part.split()
        if out and len(words) == 1 and colour_name(words[0]) in COLOURS and not _is_seat(
                words[0]):
            out[-1] = out[-1] + ", " + part  # "order Y, R, B": the rest of the list
            continue
        out.append(part)
    return out


def _expectation_clause(part):
    """One expectation of a case-file line, without its prose: "then `8:[P,B,G,Y]`" ->
    ``8:[P,B,G,Y]``; "W moves carrying R: `9:[W,R]`" -> ``9:[W,R]``; "ranking there: G
    ahead of B" -> ``G ahead of B``."""
    low = part.lower()
    for lead in ("then ", "and ", "so "):
        if low.startswith(lead):
            part = part[len(lead):].strip()
            low = part.lower()
    if ": " in part:
        head, tail = part.split(": ", 1)
        if (len(head.split()) > 1 or head.lower() == "leg") and not _track_first(part):
            part = tail.strip()  # prose before the colon
    return part


def _readable(part):
    """True when ``part`` reads as an expectation."""
    part = _expectation_clause(part.strip())
    words = part.split()
    if not words:
        return False
    found = _bare(part, words[0].lower(), " ".join(words[1:]), True)
    if found is None or found[0] != "expect":
        return False
    if _is_seat(words[0]) and len(words) > 1 and words[1][:1] in ("+", "-"):
        toks = part.replace(",", " ").split()  # "P1 +8, P2 -1": seat and amount pairs only
        for i in range(len(toks)):
            if (i % 2 == 0 and not _is_seat(toks[i])) or (i % 2 == 1 and not (
                    toks[i][:1] in ("+", "-") and toks[i][1:].isdigit())):
                return False
        return len(toks) % 2 == 0
    key = _ALIASES.get(words[0].lower(), words[0].lower())
    if key in ("ranking", "winner", "loser", "leader", "second"):
        names = words[1:]  # "second on top" is a remark, "second Y" an expectation
    elif _placing(words) is not None:
        names = [words[0]] + ([words[3]] if len(words) == 4 else [])
    else:
        return True
    for name in names:
        if colour_name(name.rstrip(",")) not in COLOURS:
            return False
    return True


def _with_remarks(part):
    """A clause whose remark in parentheses holds expectations: "the leg is scored (P
    first, Y second)" -> the clause and ``P first``, ``Y second``; the words outside are
    dropped when they are prose ("then finish piles (winner P, loser R)"). Other remarks
    ("(not +3)", "(B leads that space)") are dropped."""
    if "(" not in part or ")" not in part:
        return [part]
    inner = part[part.find("(") + 1:part.rfind(")")]
    if part.strip().lower().startswith("exception (") and len(inner.strip()) == 1:
        tail = part.split(":", 1)[1].strip() if ":" in part else ""
        return ["rule " + inner.strip()] + ([tail] if tail else [])  # "exception (b): ..."
    found = [p.strip() for p in _top_split(inner, ",;") if p.strip()]
    if not found or [p for p in found if not _readable(p)]:
        return [_unparen(part)]
    outer = _unparen(part).strip()
    low = outer.lower()
    for lead in ("then ", "the "):
        if low.startswith(lead):
            outer = outer[len(lead):].strip()
            low = outer.lower()
    return ([outer] if outer and _readable(outer) else []) + found


def _case_file_line(line, source, no):
    """``ID title: `board`, setup..., action -> expectations`` (one whole case as the
    case files write it) -> the scenario lines it stands for, or ``None`` when ``line``
    is not one. Sentences after the first: ``<die> gives the same`` (undo, push the
    other die, the same expectations) and ``Same start with <setup>, <action> -> ...``
    (a second case ``ID/2`` from the same board plus that setup)."""
    words = line.split(None, 1)
    if len(words) < 2 or not _literal_id(words[0]) or words[0].endswith(":"):
        return None
    rest = words[1]
    if "->" not in rest:
        return None
    for sentence in rest.split(". "):
        for part in _top_split(sentence.split("->", 1)[-1], ",;"):
            if "->" in sentence and is_odds(_unparen(part)):
                return None  # odds vectors ("D12 B on 14, ... -> P(B 1st) = 1/2"): elsewhere
    if _track_first(rest):
        title, body = "", rest  # "E1-05 `5:[blue,green,yellow] 7:[orange]`, green 2 -> ..."
    elif ": " in rest:
        title, body = rest.split(": ", 1)
        if _track_first(title):
            return None
    else:
        return None
    sentences = []
    for sentence in body.replace(". ", ".\n").split("\n"):
        sentence = sentence.strip().rstrip(".").strip()
        if sentence:
            sentences.append(sentence)
    out = ["case %s %s" % (words[0], title.strip())]
    state = {"setup": [], "checks": [], "act": None, "count": 1}
    split = []
    for sentence in sentences:
        # "grey BLACK 1 -> `13:[K,B]`; grey WHITE 1 instead -> `9:[W,R]`": two sentences
        pieces = _top_split(sentence, ";")
        cur = pieces[0]
        for piece in pieces[1:]:
            if "->" in piece and "->" in cur:
                split.append(cur.strip())
                cur = piece
            else:
                cur += ";" + piece
        split.append(cur.strip())
    for sentence in split:
        _case_file_sentence(sentence, words[0], title.strip(), out, state, source, no)
    return out


def _new_case(case_id, title, out, state):
    state["count"] += 1
    out.append("case %s/%d %s" % (case_id, state["count"], title))


def _case_file_sentence(sentence, case_id, title, out, state, source, no):
    """One sentence of a case-file line, appended to ``out`` as scenario lines."""
    where = "%s:%d: case-file line %s" % (source, no, case_id)
    low = sentence.lower()
    same = [s for s in _SAME if low.endswith(s)]
    if same and state["act"] is not None:
        # "Grey WHITE 1 gives the same": undo, that die, the same expectations
        out.append("undo")
        out.append(sentence[:len(sentence) - len(same[0])].strip())
        out.extend(state["checks"])
        return
    if low.endswith(" instead") or (" instead ->" in low):
        # "grey WHITE 1 instead -> 9:[W,R]": undo, that die, these expectations
        left, right = (sentence.split("->", 1) + [""])[:2]
        out.append("undo")
        out.append(left.strip()[:-len("instead")].strip())
        checks = _expectations(right, where)
        out.extend(checks)
        state["checks"] = checks
        return
    setup_only = False
    for lead in ("same start with ", "same with ", "and "):
        if low.startswith(lead):
            rest = sentence[len(lead):].strip()
            if lead == "and " and not _track_first(rest):
                break  # "And ..." without a board: not a new case
            _new_case(case_id, title, out, state)
            if lead == "and ":
                state["setup"] = []  # "And `10:[K,R,W,B]`, grey BLACK 1 -> ...": a new board
            elif lead == "same with " and _track_first(rest) and "->" not in rest:
                # "Same with `14:[Y,R,W]`": another board, the same action and expectations
                out.append("board " + _unparen(rest).strip())
                out.extend([line for line in state["setup"] if not line.startswith("board ")])
                if state["act"] is not None:
                    out.append(state["act"])
                out.extend(state["checks"])
                return
            else:
                out.extend(state["setup"])
                setup_only = True
            sentence = rest
            break
    if "->" not in sentence:
        if len(out) > 1 and state["act"] is not None or state["checks"]:
            more = _expectations(sentence, where, quiet=True)
            if more:
                out.extend(more)  # "Leg: Y first, R second; overall loser G"
                state["checks"] = state["checks"] + more
                return
        raise NotationError(
            "%s: can't read %r: each sentence is 'setup, ..., action -> expectation, ...', "
            "'<die> gives the same', '<die> instead -> ...', 'Same start with <setup>, "
            "<action> -> ...', 'Same with `board`' or 'And `board`, <action> -> ...'%s"
            % (where, sentence, _SUPPORTED))
    left, right = sentence.split("->", 1)
    left = _clauses(left)
    if not left:
        raise NotationError("%s: no action before '->'" % where)
    for part in left[:-1]:
        line_of = ("board " + part) if _track_first(part) else part
        out.append(line_of)
        if not setup_only:
            state["setup"].append(line_of)
    act = left[-1]
    for lead in ("first ", "then ", "next ", "the "):
        if act.lower().startswith(lead):
            act = act[len(lead):].strip()
    act = " ".join([w for w in act.split() if w.lower() not in ("reveal", "reveals")])
    checks = _expectations(right, where)
    state["checks"] = checks
    low = act.lower()
    if _track_first(act):
        out.append("board " + act)  # "`board` -> order ...": no action, the start
        if not setup_only:
            state["setup"].append("board " + act)
        out.extend(checks)
        return
    if low.startswith("setup rolls ") or low.startswith("rolls ") or low.startswith("dice "):
        # "setup rolls grey 2 and grey 2 -> 15:[K,W]": checked on the start
        act = "rolls " + act.split(None, 2 if low.startswith("setup") else 1)[-1]
        out.append(act.replace(" and ", ", ") + " -> " + "; ".join(checks))
        state["checks"] = []
        return
    state["act"] = act
    out.append(act)
    out.extend(checks)


def _expectations(text, where, quiet=False):
    """The expectations of a case-file sentence (after its arrow). A clause that is not
    one is refused (or, ``quiet``, makes the answer empty)."""
    found = []
    for part in _top_split(text, ",;"):
        found.extend(_with_remarks(part))
    found = [_expectation_clause(p) for p in _clauses(", ".join(found).replace(";", ","))]
    found = [p for p in found if p]
    for part in found:
        if not _readable(part):
            if quiet:
                return []
            raise NotationError(
                "%s: %r is not an expectation the checker reads; put remarks in parentheses, "
                "or write it as one of 'P2 +1', '3:[R,G,B]', 'order B, G, R', 'W at F-', "
                "'unit at F+', 'G ahead of B', 'Y first', 'race over', 'winner R', 'loser G', "
                "'rule b', 'moved K', 'K stays', 'W moves to 13', 'W ignored', 'leg scored'"
                " (docs/notation.md section 3)" % (where, part))
    return found


def _may_use(line):
    """``P1 may not use 1 (never), 4 or 9, 5`` / ``P1 may use 13`` (E2-16's words) ->
    ``[("illegal", "P1 tile 1 +"), ...]`` (both sides are checked), else ``None``."""
    words = _unparen(line).replace(",", " ").split()
    if len(words) < 4 or not _is_seat(words[0]) or words[1].lower() not in ("may", "can"):
        return None
    i = 2
    verb = "legal"
    if words[i].lower() in ("not", "never"):
        verb = "illegal"
        i += 1
    if i >= len(words) or words[i].lower() not in ("use", "place", "put"):
        return None
    spaces = [w for w in words[i + 1:] if w.lower() not in ("or", "and", "space", "spaces",
                                                             "a", "tile", "on")]
    if not spaces or [w for w in spaces if not w.isdigit()]:
        return None
    out = []
    for w in spaces:
        out.append((verb, "%s tile %s +" % (words[0], w)))
        out.append((verb, "%s tile %s -" % (words[0], w)))
    return out


def _started(case):
    """True once the case has a step other than a leg-odds expectation (those read the
    starting position and may come before more setup lines)."""
    for _, verb, text in case.steps:
        if verb != "expect" or not is_odds(text):
            return True
    return False


def _case_id(word):
    """``D2``, ``P1t``, ``P2a``, ``E2-01``, ``C4``: an upper-case letter, then digits (and
    a lower-case letter or ``-NN``)."""
    if len(word) < 2 or not ("A" <= word[0] <= "Z"):
        return False
    for ch in word[1:]:
        if not (ch.isdigit() or ch == "-" or "a" <= ch <= "z"):
            return False
    return word[1].isdigit()


def _unparen(text):
    """``text`` without its ``( ... )`` remarks (``3:[purple,...] (colours as labels)``)."""
    out = ""
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out += ch
    return out


def _has_digit(text):
    for ch in text:
        if ch.isdigit():
            return True
    return False


def _track_first(line):
    """True for a line that opens with a track token (``2:[R,Y,P] ...``, ``3:blue``)."""
    words = _tokens(_unparen(line).replace(";", " ; "))
    if not words:
        return False
    word = words[0]
    head = word.split(":", 1)[0]
    if ":" in word and head.isdigit() and len(word) > len(head) + 1:
        return True
    # "red on 1, yellow on 3", "[Y,R,P] on 1" (odds cases C4, D12)
    return (len(words) > 2 and words[1].lower() == "on" and words[2].rstrip(";").isdigit()
            and (word.startswith("[") or colour_name(word) in COLOURS))


def _split_steps(case, no, verb, text):
    """``ACTION -> EXPECT; EXPECT`` (the case files' arrow) and ``EXPECT; EXPECT``."""
    if "->" in text:
        left, text = text.split("->", 1)
        left = left.strip()
        if left:
            case.steps.append((no, verb, left))
    elif verb == "do":
        left, text = (text.split(";", 1) + [""])[:2]
        if left.strip():
            case.steps.append((no, verb, left.strip()))
    for part in text.split(";"):
        part = part.strip().rstrip(".")
        if part.lower().startswith("expect "):
            part = part[7:].strip()
        if part:
            for one in _plain_expectations(part):
                case.steps.append((no, "expect", one))


def _plain_expectations(part):
    """One expectation as written after an arrow, or the several a case-file clause list
    holds ("P2 +1, R and G return under what stayed: 3:[R,G,B] (B leads that space)" ->
    ``delta P2 +1``... as ``P2 +1``, ``3:[R,G,B]``); left as it is when it does not read
    that way (odds expectations, or a mistake reported when the step runs)."""
    if is_odds(part):
        return [part]
    found = _expectations(part, "", quiet=True)
    return found if found else [part]


def _is_seat(word):
    """True for a seat token: ``p0``, ``p1``, ... (0-based) or ``P1``, ``P2``, ... (the
    case files' players, 1-based), optionally with ``'s`` (``P2's``)."""
    if word.endswith("'s"):
        word = word[:-2]
    return len(word) > 1 and word[0] in "pP" and word[1:].isdigit()


def _seat(word, where):
    """Seat index of ``p2`` (0-based, as the engine numbers seats) or ``P2`` (upper case:
    the case files' player 2, which is seat ``p1``)."""
    word = word.strip().rstrip(",")
    if word.endswith("'s"):
        word = word[:-2]
    if not _is_seat(word):
        raise NotationError("%s: seat %r must look like p0, p1, ... (0-based) or P1, P2, ... "
                            "(the case files' players)" % (where, word))
    n = int(word[1:])
    if word[0] == "P":
        if n < 1:
            raise NotationError("%s: the case files count players from P1 (P0 does not "
                                "exist; p0 is the 0-based first seat)" % where)
        return n - 1
    return n


def _seats_lowered(text, where):
    """``text`` with every upper-case player token ``P2`` rewritten as the 0-based ``p1``
    (as words, or after ``:+``/``:-`` in track tokens); colours are untouched."""
    out = []
    for word in text.split(" "):
        tail = ""
        while word and word[-1] in ",;":
            tail = word[-1] + tail
            word = word[:-1]
        head = ""
        cut = word.find(":")
        if cut >= 0 and word[cut + 1:cut + 2] in ("+", "-") and word[cut + 1:cut + 2] != "":
            head = word[:cut + 2]
            word = word[cut + 2:]
        if _is_seat(word) and word[0] == "P":
            word = "p%d" % _seat(word, where)
        out.append(head + word + tail)
    return " ".join(out)


def _int1(text, where):
    """Exactly one whole number in ``text`` (else ``NotationError`` naming it)."""
    values = _ints(text, where)
    if len(values) != 1:
        raise NotationError("%s: expected one number, got %r" % (where, text))
    return values[0]


def _ints(text, where):
    try:
        return [int(w) for w in text.replace("[", " ").replace("]", " ").replace(",", " ")
                .split()]
    except ValueError:
        raise NotationError("%s: expected numbers, got %r" % (where, text)) from None


def _tokens(text, stacks=False):
    """Split on blanks and on commas outside brackets: ``9:[W, R], 14:[K]`` ->
    ``["9:[W,R]", "14:[K]"]``; the word ``and`` is dropped (``grey 2 and grey 2``).
    ``stacks``: a comma right after a word (``10:white,red``) joins a stack instead."""
    out = []
    cur = ""
    depth = 0
    n = len(text)
    for i in range(n):
        ch = text[i]
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if depth > 0 and ch in " \t":
            continue
        if (stacks and ch == "," and depth <= 0 and not cur.endswith("]")
                and i + 1 < n and text[i + 1] not in " \t"):
            cur += ch
            continue
        if (depth <= 0 and ch in " \t" and cur.endswith(":") and cur[:-1].isdigit()
                and text[i:].lstrip(" \t")[:1] == "["):
            continue  # "3: [B, R, G]" is "3:[B,R,G]"
        if depth <= 0 and ch in " \t,;":
            if cur:
                out.append(cur)
            cur = ""
            continue
        cur += ch
    if cur:
        out.append(cur)
    return [t for t in out if t.lower() != "and"]


def _cards(text, where):
    """Finish pile in play order: ``p0:red,p2:blue`` or as the case files write it,
    ``P1 R, P2 B`` (seat then colour). Returns ``[(seat, colour)]``."""
    if text.strip() == "-":
        return []
    out = []
    toks = [t for t in _tokens(text) if t.lower().rstrip(":") not in ("pile", "in", "play",
                                                                     "order", "")]
    i = 0
    while i < len(toks):
        tok = toks[i]
        if ":" in tok:
            seat, colour = tok.split(":", 1)
            i += 1
        elif _is_seat(tok) and i + 1 < len(toks):
            seat, colour = tok, toks[i + 1]
            i += 2
        else:
            raise NotationError("%s: finish card %r must be pN:colour (or P1 R)" % (where, tok))
        out.append((_seat(seat, where), colour_name(colour)))
    return out


def _pyramid_phrase(text):
    """Take "N pyramid ticket(s)" out of a tickets text (``red-5, 1 pyramid ticket``).
    Returns ``(rest, N)``. Remarks in parentheses (``blue-3 (-1)``, ``(+6 own)``) and the
    word ``and`` are skipped (E2-22: "red-5 and 1 pyramid ticket")."""
    toks = [t for t in _tokens(_unparen(text)) if t.lower() != "and"]
    keep = []
    count = 0
    i = 0
    while i < len(toks):
        if (toks[i].isdigit() and i + 1 < len(toks)
                and toks[i + 1].lower().startswith("pyramid")):
            count += int(toks[i])
            i += 2
            while i < len(toks) and toks[i].lower().rstrip("s") in ("ticket", "tile"):
                i += 1
            continue
        keep.append(toks[i])
        i += 1
    return (",".join(keep) if keep else "-"), count


def _tickets(text, where):
    """Leg tickets ``red5,blue3`` or ``red-5, blue-3`` or ``R5`` -> ``[(colour, value)]``."""
    if text.strip() == "-":
        return []
    out = []
    toks = _tokens(text)
    joined = []
    for t in toks:
        if t.isdigit() and joined and not _has_digit(joined[-1]):
            joined[-1] = joined[-1] + t  # "red 5" is red5
        else:
            joined.append(t)
    for t in joined:
        i = len(t)
        while i > 0 and t[i - 1].isdigit():
            i -= 1
        colour = t[:i].rstrip("-")
        if not colour or i == len(t):
            raise NotationError("%s: leg ticket %r must be colour then value, like red5"
                                % (where, t))
        out.append((colour_name(colour), int(t[i:])))
    return out


def _rolls(ed, text, where, missing=None):
    """``rolls colour:value ...`` (or ``colour value, ...``) in placement order -> stacks
    (RULES 2.2, 3.2). ``grey:N`` / ``grey N`` is the next crazy camel's setup roll, black
    first (docs/rules-decisions.md)."""
    from camelup.game import setup_stacks

    racing = []
    crazy = []
    toks = _tokens(text.replace("=", ":"))
    i = 0
    while i < len(toks):
        tok = toks[i]
        if (colour_name(tok) in ("grey", "gray") and i + 2 < len(toks)
                and colour_name(toks[i + 1]) in ("black", "white") and toks[i + 2].isdigit()):
            # "grey BLACK 2": the numeral colour is ignored at setup (RULES 3.2)
            colour, value = tok, toks[i + 2]
            i += 3
        elif ":" in tok:
            colour, value = tok.split(":", 1)
            i += 1
        elif i + 1 < len(toks) and toks[i + 1].isdigit():
            colour, value = tok, toks[i + 1]
            i += 2
        else:
            raise NotationError("%s: setup roll %r must be colour:value" % (where, tok))
        colour = colour_name(colour)
        if colour in ("grey", "gray"):
            done = [c for c, _ in crazy]
            left = [c for c in ed.crazy if c not in done]
            if not left:
                raise NotationError("%s: more grey setup rolls than crazy camels (%d)"
                                    % (where, len(ed.crazy)))
            colour = left[0]
        roll = (colour, _int1(value, where))
        (crazy if colour in ed.crazy else racing).append(roll)
    # Camels the rolls leave out (as "setup rolls grey 2 and grey 2" does): racing camels
    # as if they rolled 1 before the others (under them on space 1), crazy camels as if
    # they rolled 1 (space 16). ``missing`` collects them for the expectations to ignore.
    named = [c for c, _ in racing] + [c for c, _ in crazy]
    early = [(c, 1) for c in ed.racing if c not in named]
    late = [(c, 1) for c in ed.crazy if c not in named]
    if missing is not None:
        missing += [c for c, _ in early + late]
    return setup_stacks(ed, early + racing, crazy + late)


def _board(text, tiles=None):
    """A board or expected-spaces text made ready for ``parse_track``: tokens as
    ``_tokens`` splits them, case files' player tokens (``6:+P2``) made 0-based. Tiles
    written into the board as the case files do (``3:[orange,yellow] oasis on 4``,
    ``P2 cheering on 10``) are taken out and appended to ``tiles`` as
    ``(space, seat or None, side)`` (refused when ``tiles`` is None)."""
    toks = [t for t in _tokens(text, True) if t.lower() not in ("a", "an", "plus", "with")]
    keep = []
    i = 0
    while i < len(toks):
        j = i + 1 if _is_seat(toks[i]) else i
        if j < len(toks) and toks[j].lower() in _SIDE_WORDS:
            k = j + 1
            while k < len(toks) and toks[k].lower() in ("tile", "on", "at"):
                k += 1
            if k < len(toks) and toks[k].isdigit():
                if tiles is None:
                    raise NotationError("tiles in %r: write them as 6:+p1 here" % text)
                seat = _seat(toks[i], "board") if j > i else None
                tiles.append((int(toks[k]), seat, _SIDE_WORDS[toks[j].lower()]))
                i = k + 1
                continue
        if (i + 2 < len(toks) and toks[i + 1].lower() == "on" and toks[i + 2].isdigit()
                and ":" not in toks[i]):
            # "red on 1", "[Y,R,P] on 1" (odds cases C4, D12)
            camels = toks[i]
            if not camels.startswith("["):
                camels = "[" + camels + "]"
            keep.append("%s:%s" % (toks[i + 2], camels))
            i += 3
            continue
        keep.append(toks[i])
        i += 1
    return _seats_lowered(" ".join(keep), "board")


def _tile_parts(text):
    """``a mirage on 4 and an oasis on 6`` / ``P2 booing on 4, P3 cheering on 9`` -> one
    text per tile when every part reads as a tile (articles and ``plus`` dropped), else
    ``None``."""
    words = [w for w in text.replace(",", " , ").split()
             if w.lower() not in ("a", "an", "plus", "with")]
    parts = []
    cur = []
    for w in words + [","]:
        if w in (",", "and", "And"):
            if cur:
                if _tile_words(cur) is None:
                    return None
                parts.append(" ".join(cur))
            cur = []
        else:
            cur.append(w)
    return parts or None


def _tile_line(text, where):
    """``P2 booing on 4`` / ``P2 booing 4`` / ``cheering on 16`` (several may be separated
    by commas) -> list of ``(space, seat or None, side)``; ``None``: owner not given."""
    out = []
    for part in _tile_parts(text) or text.split(","):
        words = part.split()
        if not words:
            continue
        found = _tile_words(words)
        if found is None:
            raise NotationError("%s: tile %r must read like 'P2 booing on 4' or "
                                "'p1 cheering 10'" % (where, part.strip()))
        seat, side, space = found
        out.append((int(space), None if seat is None else _seat(seat, where), side))
    return out


def _mentioned(case):
    """Spaces the case's steps and checks name: ``(spaces, tile_spaces)``. ``spaces``:
    every space an expectation or action names (``expect space 9``, ``9:[W,R]``,
    ``W at 12``, ``tile 5``); ``tile_spaces``: the spaces of tile actions (``legal P1
    tile 5``), whose neighbours matter too (RULES 1.5: no tile next to a tile)."""
    spaces = {}
    tile_spaces = {}
    for _, verb, text in case.checks + case.steps:
        if verb in ("do", "legal", "illegal"):
            try:
                a = parse_action(_sided(_seat_action(None, text, "")[1]))
            except (ValueError, IndexError, KeyError, TypeError, AttributeError):
                continue
            if a.kind == "tile":
                spaces[a.space] = True
                tile_spaces[a.space] = True
            continue
        if verb != "expect":
            continue
        words = _tokens(text.replace("[", " [").replace(":", ": "), False)
        for i in range(len(words)):
            w = words[i]
            if w.endswith(":") and w[:-1].isdigit():
                spaces[int(w[:-1])] = True  # "9:[W,R]", "6:+p1"
            elif w.isdigit() and i > 0 and words[i - 1].lower() in ("space", "at", "on"):
                spaces[int(w)] = True  # "space 9", "W at 12", "tile on 5"
            elif w.isdigit() and i == 0 and len(words) > 1:
                spaces[int(w)] = True  # "9 [W,R]"
    return spaces, tile_spaces


def _reach(stacks, ed, listed):
    """Spaces one move of the listed stacks can end on (RULES 1.2-1.5, 3.5, 3.6): a
    stack holding a racing camel 1..3 ahead plus one for a tile; one holding a crazy
    camel 1..3 behind plus one."""
    out = {}
    for s in stacks:
        camels = [c for c in stacks[s] if c in listed]
        if [c for c in camels if c in ed.racing]:
            for d in range(1, 5):
                out[s + d] = True
        if [c for c in camels if c in ed.crazy]:
            for d in range(1, 5):
                out[s - d] = True
    return out


def _unlisted_choices(ed, stacks, tiles, case, racing, crazy):
    """Candidate ``(racing space, crazy space)`` pairs for the camels the board leaves out
    (``racing`` / ``crazy``: their colours, each group one stack; ``None`` when a group is
    empty), best first (docs/rules-decisions.md, 24). Never a listed stack's space or a
    tile's; if at all possible not a space the case names, not next to a tile or a tile
    action's space; then, in this order of preference: out of one move's reach of every
    listed stack, racing camels behind every listed racing camel (crazy camels as high as
    possible), and the placed stack's own moves not reaching anything listed."""
    named, tile_named = _mentioned(case)
    listed = [c for s in stacks for c in stacks[s]]
    reach = _reach(stacks, ed, listed)
    busy = {}
    for s in stacks:
        busy[s] = True
    for s in tiles:
        busy[s] = True
    near = {}
    for s in list(tiles) + list(tile_named):
        for d in (-1, 0, 1):
            near[s + d] = True
    rear = [s for s in stacks for c in stacks[s] if c in ed.racing and c in listed]
    rear = min(rear) if rear else 17

    def free(s):
        return s not in busy

    def clean(s):
        return free(s) and s not in named and s not in near

    def hits(s, step):
        for d in range(1, 5):
            t = s + step * d
            if t in busy or t in named or t in near:
                return True
        return False

    spaces = list(range(1, 17))
    if racing:
        pool = [s for s in spaces if clean(s)] or [s for s in spaces if free(s)]
        keyed = [((s in reach), not s < rear, hits(s, 1), s) for s in pool]
        keyed.sort()
        rspaces = [k[-1] for k in keyed]
    else:
        rspaces = [None]
    out = []
    for r in rspaces[:6]:
        if crazy:
            pool = [s for s in spaces if clean(s) and s != r] or [
                s for s in spaces if free(s) and s != r]
            keyed = []
            for s in pool:
                mine = r is not None and s - 4 <= r < s
                keyed.append(((s in reach) or (r is not None and r < s <= r + 4),
                              hits(s, -1) or mine, -s))
            keyed.sort()
            for k in keyed[:6]:
                out.append((r, -k[-1]))
        else:
            out.append((r, None))
    return out


def _undisturbed(game, case, unlisted):
    """True when the case's actions, pushed on ``game`` (a copy is used), never move,
    carry or land on a camel the board left out (except by that camel's own die)."""
    g = game.copy(history=False)

    def where():
        out = {}
        for s in g.stacks:
            for c in g.stacks[s]:
                if c in unlisted:
                    out[c] = (s, tuple(g.stacks[s]))
        return out

    before = where()
    for _, verb, text in case.steps:
        if verb == "undo":
            if not g.history:
                return True
            g.pop()
            before = where()
            continue
        if verb != "do":
            continue
        try:
            report = g.push(_seat_action(g, text, "")[1])
        except (ValueError, IndexError, KeyError, TypeError, AttributeError):
            return True  # the case's own problem: reported when it runs
        move = report.get("move")
        now = where()
        if move is not None and move["camel"] in unlisted:
            before = now  # moved by its own die: the case asked for it
            continue
        if now != before:
            return False
    return True


def _guess_edition(stacks, fields, case):
    """No ``edition`` line: second if any camel or die only the second edition has is
    named, classic if orange is; otherwise ask for the line."""
    words = []
    if stacks:
        for sp in stacks:
            words += stacks[sp]
        inside = fields["inside"][0].lower() if "inside" in fields else ""
        if ("black" not in words and "grey" not in inside and "gray" not in inside
                and (case.odds or [t for _, v, t in case.checks + case.steps
                                   if v == "expect" and is_odds(t)])):
            # leg odds of a board with no crazy camel: the odds cases' classic vectors
            # (C1-C4 name red and purple as labels); second-edition ones list K and W
            return get_edition("classic")
    if "rolls" in fields:
        words += [colour_name(t.split(":")[0]) for t in _tokens(fields["rolls"][0])]
    for w in words:
        if w in ("red", "purple", "black", "grey", "gray"):
            return get_edition("second")
        if w == "orange":
            return get_edition("classic")
    # the board does not tell: the case's own words may (a mirage, a grey die, ...)
    texts = [v for _, _, v in case.setup] + [t for _, _, t in case.steps]
    for text in texts:
        for w in (text.lower().replace(",", " ").replace(";", " ").replace("{", " ")
                  .replace("}", " ").split()):
            if w in ("mirage", "oasis", "orange"):
                return get_edition("classic")
            if w in ("cheering", "booing", "grey", "gray", "red", "purple", "black"):
                return get_edition("second")
    raise NotationError("%s:%d: case %s: add an 'edition classic|second' line"
                        % (case.source, case.line, case.id))


def _coins(text, where, n=None):
    """``3 0 3`` (every seat) or ``P1 0, P2 0`` (the seats named; the others keep 3).
    With ``n`` None returns the highest seat named (for guessing the players)."""
    toks = _tokens(text)
    if not toks or not _is_seat(toks[0]):
        values = _ints(" ".join(toks), where)
        return len(values) - 1 if n is None else values
    pairs = []
    if len(toks) % 2:
        raise NotationError("%s: coins per seat come in pairs, like 'P1 0, P2 4'" % where)
    for j in range(0, len(toks), 2):
        pairs.append((_seat(toks[j], where), _int1(toks[j + 1], where)))
    if n is None:
        return max([p for p, _ in pairs])
    values = [START_COINS] * n
    for p, c in pairs:
        if p >= n:
            raise NotationError("%s: no seat p%d with %d players" % (where, p, n))
        values[p] = c
    return values


def _guess_players(ed, tiles, fields):
    """No ``players`` line: enough seats for every seat the case names, at least the
    edition's minimum."""
    top = -1
    for sp in tiles:
        if tiles[sp][0] is not None:
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
        for w in _tokens(fields["partners"][0]):
            top = max(top, _seat(w, fields["partners"][1]))
    if "coins" in fields:
        top = max(top, _coins(fields["coins"][0], fields["coins"][1]))
    return max(ed.min_players, top + 1)


def _legs_left(ed, held, where):
    """Leg tickets left per colour when ``held`` are not the top of their stacks (the case
    files name only the tickets that matter, e.g. a blue 3 while nobody is said to hold
    the blue 5): the stack minus the tickets held, highest on top. ``None`` when the held
    tickets are the top of every stack (the usual case)."""
    left = {}
    loose = False
    for c in ed.racing:
        stack = list(ed.leg_values)
        for mine in held:
            for colour, value in mine:
                if colour != c:
                    continue
                if value not in stack:
                    raise NotationError("%s: more %s leg tickets of value %d held than exist "
                                        "(stack %s)" % (where, c, value,
                                                        "".join([str(v) for v in ed.leg_values])))
                stack.remove(value)
        n = len(ed.leg_values) - len(stack)
        if stack != list(ed.leg_values[n:]):
            loose = True
        left[c] = stack
    return left if loose else None


def _dice_out(ed, case, total):
    """No ``out`` line but pyramid tickets held (``1 pyramid ticket``, as the case files
    say): that many dice are out; take the ones the case's actions do not roll, the
    racing dice first, in the edition's order (docs/rules-decisions.md)."""
    rolled = []
    for _, verb, text in case.steps:
        if verb in ("do", "legal", "illegal"):
            try:
                a = parse_action(_seat_action(None, text, "")[1])
            except ValueError:
                continue
            if a.kind == "pyramid":
                rolled.append(a.colour)
    order = [d for d in ed.dice if d not in rolled] + [d for d in ed.dice if d in rolled]
    if total > len(order):
        raise NotationError("%s:%d: case %s: %d pyramid tickets held, but only %d dice"
                            % (case.source, case.line, case.id, total, len(order)))
    return order[:total]


def build_game(case):
    """The case's starting ``Game`` from its setup lines. Raises ``NotationError``."""
    from camelup.game import Game

    fields = {}
    tile_lines = []
    seat_coins = []  # "P1 (0 coins) holds ..."
    for no, key, value in case.setup:
        where = "%s:%d" % (case.source, no)
        if key == "position":
            return parse_position(value)
        if key in ("tickets", "pyramid"):
            words = value.split(None, 1)
            if len(words) != 2:
                raise NotationError("%s: %s needs a seat and a value" % (where, key))
            seat = _seat(words[0], where)
            if words[1].endswith(")") and " (coins=" in words[1]:
                words[1], c = words[1][:-1].split(" (coins=", 1)
                seat_coins.append((seat, _int1(c, where), where))
            fields.setdefault(key, []).append((seat, words[1], where))
        elif key == "tile":
            tile_lines += _tile_line(value, where)
        else:
            if (key == "coins" and key in fields and _tokens(value)
                    and _is_seat(_tokens(value)[0]) and _tokens(fields[key][0])
                    and _is_seat(_tokens(fields[key][0])[0])):
                # "coins P1 0" then "P4 has 1 coin": the seats named add up
                fields[key] = (fields[key][0] + ", " + value, fields[key][1])
                continue
            if key in fields:
                raise NotationError("%s: a second %r line (the first is at %s)"
                                    % (where, key, fields[key][1]))
            fields[key] = (value, where)
    if "board" not in fields and "rolls" not in fields:
        raise NotationError("%s:%d: case %s needs a board or rolls line (or a position line)"
                            % (case.source, case.line, case.id))
    if "board" in fields:
        stacks, tiles = parse_track(_board(_unparen(fields["board"][0]), tile_lines))
    else:
        stacks, tiles = None, {}
    ownerless = []
    for space, seat, side in tile_lines:
        if space in tiles:
            raise NotationError("%s:%d: case %s: two tiles on space %d"
                                % (case.source, case.line, case.id, space))
        if seat is None:
            ownerless.append(space)
        tiles[space] = (seat, side)
    if "edition" in fields:
        name = _unparen(fields["edition"][0]).lower().replace("edition", " ").split()
        ed = get_edition(name[0] if name else fields["edition"][0])
    else:
        ed = _guess_edition(stacks, fields, case)
    case.inside = None
    case.labels = None
    if "inside" in fields:
        case.inside = _inside(fields["inside"][0], fields["inside"][1])
    if stacks is not None:
        strange = [c for sp in stacks for c in stacks[sp] if c not in ed.camels]
        if strange and not [c for c in strange if c not in COLOURS]:
            # C1: "3:[purple,green,blue,yellow,red] (colours as labels)" in a classic leg
            case.labels = _label_position(ed, stacks, tiles, case.inside, strange,
                                          "%s:%d: case %s" % (case.source, case.line, case.id))
            case.unlisted = []
            return None
    if stacks is None:
        case.unlisted = []
        stacks = _rolls(ed, fields["rolls"][0], fields["rolls"][1], case.unlisted)
    else:
        listed = [c for sp in stacks for c in stacks[sp]]
        case.unlisted = [c for c in ed.camels if c not in listed]
    if "players" in fields:
        n = _ints(fields["players"][0], fields["players"][1])
        if len(n) != 1:
            raise NotationError("%s: players needs one number" % fields["players"][1])
        n = n[0]
    else:
        n = _guess_players(ed, tiles, fields)
    for space in ownerless:
        # "cheering on 5" names no owner: give it to the last seat without a tile
        owners = [tiles[sp][0] for sp in tiles]
        seat = n - 1
        while seat > 0 and seat in owners:
            seat -= 1
        tiles[space] = (seat, tiles[space][1])
    kw = {"tiles": tiles}
    if "turn" in fields:
        kw["turn"] = _seat(fields["turn"][0], fields["turn"][1])
    if "start" in fields:
        kw["start"] = _seat(fields["start"][0], fields["start"][1])
        if "turn" not in fields:
            kw["turn"] = kw["start"]  # the marker holder begins the leg (RULES 1.12)
    if "leg" in fields:
        kw["leg"] = _int1(fields["leg"][0], fields["leg"][1])
    if "coins" in fields:
        kw["coins"] = _coins(fields["coins"][0], fields["coins"][1], n)
    if seat_coins:
        kw["coins"] = list(kw.get("coins") or [START_COINS] * n)
        for seat, c, where in seat_coins:
            if seat >= n:
                raise NotationError("%s: no seat p%d with %d players" % (where, seat, n))
            kw["coins"][seat] = c
    if "out" in fields:
        v = fields["out"][0]
        kw["out"] = [] if v.strip() == "-" else [colour_name(d) for d in _tokens(v)]
    held = [[] for _ in range(n)]
    pyr = [0] * n
    for seat, value, where in fields.get("tickets", []):
        if seat >= n:
            raise NotationError("%s: no seat p%d with %d players" % (where, seat, n))
        value, count = _pyramid_phrase(value)
        held[seat] += _tickets(value, where)
        pyr[seat] += count
    for seat, value, where in fields.get("pyramid", []):
        if seat >= n:
            raise NotationError("%s: no seat p%d with %d players" % (where, seat, n))
        words = value.split()
        pyr[seat] += _int1(words[0] if words else "", where)
    kw["held"] = held
    kw["pyramid"] = pyr
    if case.inside is not None and "out" not in fields:
        for d in case.inside:
            if d not in ed.dice:
                raise NotationError("%s: die %r is not in the %s pyramid (%s)"
                                    % (fields["inside"][1], d, ed.name, ", ".join(ed.dice)))
        out = [d for d in ed.dice if d not in case.inside]
        if len(out) < DICE_PER_LEG:
            # the dice not inside are out this leg; their pyramid tickets go round the
            # seats from p0 unless the case says who holds them
            if not sum(pyr):
                for j in range(len(out)):
                    pyr[j % n] += 1
            if sum(pyr) != len(out):
                raise NotationError("%s: %d pyramid tickets held, but %d dice are out "
                                    "(every die not inside)" % (fields["inside"][1], sum(pyr),
                                                                len(out)))
            kw["out"] = out
    if "out" not in fields and sum(pyr) and "out" not in kw:
        kw["out"] = _dice_out(ed, case, sum(pyr))
    if "out" in fields and kw["out"] and not sum(pyr):
        # "out red, blue" and nobody said who holds their pyramid tickets: they go round
        # the seats from p0, as for the dice not inside (docs/rules-decisions.md, 26)
        for j in range(len(kw["out"])):
            pyr[j % n] += 1
    for seat in range(n):
        for colour, _ in held[seat]:
            if colour not in ed.racing:
                raise NotationError("%s:%d: case %s: p%d holds a %s leg ticket, but %s is "
                                    "not a racing camel of the %s edition"
                                    % (case.source, case.line, case.id, seat, colour, colour,
                                       ed.name))
    legs = _legs_left(ed, held, "%s:%d: case %s" % (case.source, case.line, case.id))
    if legs is not None:
        kw["legs"] = legs
    if "partners" in fields:
        partners = [None] * n
        words = _tokens(fields["partners"][0])
        if len(words) % 2:
            raise NotationError("%s: partners come in pairs" % fields["partners"][1])
        for j in range(0, len(words), 2):
            a = _seat(words[j], fields["partners"][1])
            b = _seat(words[j + 1], fields["partners"][1])
            if a >= n or b >= n:
                raise NotationError("%s: no such seat with %d players"
                                    % (fields["partners"][1], n))
            partners[a] = b
            partners[b] = a
        kw["partners"] = partners
    if "winner" in fields:
        kw["winner_pile"] = _cards(fields["winner"][0], fields["winner"][1])
    if "loser" in fields:
        kw["loser_pile"] = _cards(fields["loser"][0], fields["loser"][1])
    racing = [c for c in case.unlisted if c in ed.racing and "board" in fields]
    crazy = [c for c in case.unlisted if c in ed.crazy and "board" in fields]
    if not racing and not crazy:
        return Game(ed, n, stacks, **kw)
    first = None
    for r, k in _unlisted_choices(ed, stacks, tiles, case, racing, crazy):
        placed = dict(stacks)
        if r is not None:
            placed[r] = list(racing)
        if k is not None:
            placed[k] = list(crazy)
        game = Game(ed, n, placed, **kw)
        if first is None:
            first = game
        if _undisturbed(game, case, case.unlisted):
            return game
    return first


def _inside(text, where):
    """``{G,B}`` / ``G, B`` / ``blue, grey`` -> the dice still inside, as die names."""
    out = []
    for w in _tokens(text.replace("{", " ").replace("}", " ").replace(":", " ")
                     .replace("=", " ")):
        if w.lower() in ("die", "dice", "inside", "still", "in", "the", "pyramid", "only",
                         "are", "is"):
            continue
        d = colour_name(w)
        if d == "gray":
            d = "grey"
        if d != "grey" and d not in COLOURS:
            raise NotationError("%s: %r is not a die (a camel colour or grey)" % (where, w))
        if d in out:
            raise NotationError("%s: die %s listed twice" % (where, d))
        out.append(d)
    if not out:
        raise NotationError("%s: which dice are still inside? (like 'pyramid {G,B}')" % where)
    return out


def _label_position(ed, stacks, tiles, inside, strange, where):
    """The odds ``Position`` of a board whose camel names are labels (odds case C1 writes
    purple and red in a classic leg): the listed camels are the whole race, every one a
    racing camel (in second, black and white stay crazy); dice: ``inside`` or each
    listed racing camel's die (and the grey die with a crazy camel in second)."""
    from camelup.odds import Position

    if inside is not None:
        for d in inside:
            if d != "grey" and not [s for s in stacks if d in stacks[s]]:
                raise NotationError("%s: die %s has no camel on the board" % (where, d))
    try:
        return Position(ed.name, stacks, tiles, dice=inside)
    except ValueError as exc:
        raise NotationError("%s: %s" % (where, exc)) from None


def odds_position(game, case):
    """The ``camelup.odds.Position`` leg-odds expectations read: the camels the case
    lists (left-out racing camels and their dice are not part of the race), the dice
    inside from the ``pyramid {..}`` / ``dice ..`` line (less those rolled since) or the
    game's, revealed by the edition's rule (classic all, second k-1). With no crazy camel
    listed (and no grey die named inside) the crazy camels and the grey die are left out
    too."""
    from camelup.odds import Position
    from camelup.odds.game import position_from_game

    if game is None:
        return case.labels
    pos = position_from_game(game)
    drop = [c for c in case.unlisted if c in game.edition.racing]
    for d in case.inside or []:
        if d in drop:
            raise NotationError("die %s is inside, but the board does not list %s: list "
                                "every camel whose die is inside" % (d, d))
    crazy = game.edition.crazy
    if crazy and not [c for c in crazy if c not in case.unlisted] and (
            case.inside is None or "grey" not in case.inside):
        drop += list(crazy) + ["grey"]  # no crazy camel listed: none in the race
    if not drop and (case.inside is None or pos.over):
        return pos
    stacks = {}
    for sp in pos.stacks:
        camels = [c for c in pos.stacks[sp] if c not in drop]
        if camels:
            stacks[sp] = camels
    tiles = {}
    for sp in pos.tiles:
        tiles[sp] = (pos.tiles[sp], pos.tile_owners[sp])
    if pos.over:
        out = Position(pos.edition, stacks, tiles, dice=[], reveals=0)
        out.over = True
        return out
    dice = pos.dice
    if case.inside is not None and game.leg == case.start_leg:
        dice = [d for d in case.inside if d not in game.dice_out]
    return Position(pos.edition, stacks, tiles, dice=[d for d in dice if d not in drop])


def _yes(word):
    return word.lower() in ("yes", "true", "1")


def _colours(text):
    if text.strip() == "-":
        return []
    return [colour_name(w) for w in text.replace("[", " ").replace("]", " ")
            .replace(",", " ").replace(">", " ").replace(";", " ").split()]


def _space_of(game, word):
    """A space number, or ``F+`` / ``F-``: the stack past the line (clockwise /
    counterclockwise, RULES 1.1). Returns ``None`` when no such stack exists."""
    w = word.upper()
    if w in ("F+", "F-"):
        for s in game.stacks:
            if (w == "F+" and s > 16) or (w == "F-" and s < 1):
                return s
        return None
    try:
        return int(word)
    except ValueError:
        raise NotationError("space %r must be a number, F+ or F-" % word) from None


def _hide(camels, unlisted, named):
    """``camels`` without the ones the case left out of its board (and does not name)."""
    return [c for c in camels if c not in unlisted or c in named]


def _expect_spaces(game, text, unlisted):
    """``9:[W,R] 14:[K] F-:[W]``: each space named holds exactly these camels (bottom to
    top; ``-`` or ``[]`` for none); tiles as ``6:+p1``. Other spaces are not checked."""
    problems = []
    toks = []
    for tok in _tokens(text, True):
        if toks and toks[-1].endswith(":"):
            toks[-1] += tok  # "9: [W,R]"
        else:
            toks.append(tok)
    for tok in toks:
        if ":" not in tok:
            raise NotationError("expected space %r must look like 9:[W,R]" % tok)
        left, right = tok.split(":", 1)
        space = _space_of(game, left)
        if right[:1] in ("+", "-") and len(right) > 1:
            side = right[0]
            owner = _seat(right[1:], "expect")
            got = game.tiles.get(space)
            if got != (owner, side):
                problems.append("space %s: want tile %s%s, got %s" % (
                    left, side, "p%d" % owner,
                    "no tile" if got is None else "%sp%d" % (got[1], got[0])))
            continue
        want = _colours(right)
        got = game.stacks.get(space, []) if space is not None else []
        got = _hide(got, unlisted, want)
        if got != want:
            problems.append("space %s: want %s, got %s" % (left, ",".join(want) or "-",
                                                          ",".join(got) or "-"))
    return "; ".join(problems) if problems else None


def _expect_deltas(game, before, text):
    """``P2 +1`` / ``P1 +8, P2 -1``: each seat's coins changed by that much in the last
    ``do`` (or since the start when nothing was pushed yet)."""
    toks = _tokens(text)
    if not toks or len(toks) % 2:
        raise NotationError("coin changes %r must be seat and signed amount pairs, like "
                            "'P2 +1'" % text)
    problems = []
    for j in range(0, len(toks), 2):
        seat = _seat(toks[j], "coin change")
        if seat >= len(before):
            raise NotationError("coin change for %s: there are only %d seats"
                                % (toks[j], len(before)))
        want = _int1(toks[j + 1].lstrip("+"), "coin change")
        got = game.coins[seat] - before[seat]
        if got != want:
            problems.append("%s coins: want %+d, got %+d (%d -> %d)"
                            % (toks[j], want, got, before[seat], game.coins[seat]))
    return "; ".join(problems) if problems else None


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
            "totals": "coins", "total": "coins",
            "order": "ranking", "race-over": "over", "mover": "moved", "first": "leader",
            "runner-up": "second", "last": "loser", "partners": "partner"}


#: How each expectation reads (for messages about a malformed one).
_USAGE = {"space": "space 9 W,R", "at": "at W F-", "board": "board 9:[W,R] 14:[K]",
          "position": "position <position line>", "coins": "coins 3 4 3 (or coins P2 4)",
          "ranking": "order P, G, B, R, Y", "winner": "winner R", "loser": "loser G",
          "leader": "first R", "second": "runner-up Y", "winners": "winners P1, P2",
          "turn": "turn P2", "start": "start P2", "leg": "leg 2", "out": "out red,grey",
          "in-pyramid": "in-pyramid red,purple", "pyramid": "pyramid 5 (tickets left)",
          "legs": "legs red 5322", "held": "held P1 red-5, blue-3", "partner": "partner P1 P4",
          "moved": "moved W", "rule": "rule b", "payout": "payout P2", "net": "net P1 4",
          "owner": "owner +1", "tiles": "tiles 6:+p1 (or -)", "delta": "P2 +1",
          "leg-scored": "leg-scored yes", "over": "over yes"}


def _expect_usage(text):
    """'expect ...' as it should read, for the expectation in ``text`` (or ``None``)."""
    words = text.split()
    key = _ALIASES.get(words[0].lower(), words[0].lower()) if words else ""
    if key in _USAGE:
        return "expect " + _USAGE[key]
    return None


def _expect(game, last, text, unlisted=(), before=None):
    """Return ``None`` when the expectation holds, else a one-line (or few-line) message.
    ``before``: coins before the last ``do`` (for ``P2 +1``)."""
    if before is None:
        before = game.coins
    text = text.strip()
    words = text.split()
    if words[0].endswith(":") and words[0][:-1].replace("-", "").isalpha():
        text = text.replace(":", "", 1)  # "order: P, G, B", "first: P"
        words = text.split()
    if ":" in words[0]:
        return _expect_spaces(game, text, unlisted)
    if len(words) == 3 and words[1].lower() == "at":
        text = "at %s %s" % (words[0], words[2])  # "W at F-"
    if words[0].rstrip(":").isdigit() or words[0].rstrip(":").upper() in ("F+", "F-"):
        text = "space %s %s" % (words[0].rstrip(":"), " ".join(words[1:]))  # "9 [W,R]"
    if words[0].lower() == "leg" and len(words) > 1 and not words[1].isdigit():
        text = "leg-scored " + ("no" if "not" in text.lower() else "yes")  # "leg scored"
    if _is_seat(words[0]):
        text = "delta " + text  # "P2 +1"
    if words[0].lower() == "race":
        text = "over " + ("no" if "not" in text.lower() else "yes")
    if words[0].lower() == "overall" and len(words) > 1:
        text = " ".join(words[1:])  # "overall loser G"
    if words[0].lower() == "final" and len(words) > 1:
        text = " ".join(words[1:])  # "final totals 17, 17, 12", "final coins 3 4 3"
    placing = _placing(words)
    if placing is not None:
        kind, a, b = placing
        if b is None:
            text = "%s %s" % (kind, a)
        else:
            a, b = colour_name(a), colour_name(b)
            order = game.ranking()
            for c in (a, b):
                if c not in order:
                    raise NotationError("%r is not a racing camel of the %s edition"
                                        % (c, game.edition.name))
            if kind == "behind":
                a, b = b, a
            if order.index(a) > order.index(b):
                return "%s ahead of %s: no, the ranking is %s" % (a, b, ",".join(order))
            return None
    parts = text.split(None, 1)
    key = parts[0].lower()
    arg = parts[1].strip() if len(parts) > 1 else ""
    key = _ALIASES.get(key, key)
    if not arg and key not in ("over", "leg-scored", "winners", "out", "in-pyramid", "tiles"):
        if key in _USAGE:
            raise NotationError("expect %s needs more: write it like 'expect %s'"
                                % (key, _USAGE[key]))
    if key == "delta":
        return _expect_deltas(game, before, arg)
    if key == "space":
        words = arg.split(None, 1)
        space = _space_of(game, words[0].rstrip(":"))
        want = _colours(words[1] if len(words) > 1 else "-")
        got = game.stacks.get(space, []) if space is not None else []
        got = _hide(got, unlisted, want)
        if got != want:
            return "space %s: want %s, got %s" % (words[0], ",".join(want) or "-",
                                                 ",".join(got) or "-")
        return None
    if key == "at":
        words = arg.split()
        if len(words) != 2:
            raise NotationError("'at' needs a camel and a space, like 'at W F-'")
        if words[0].lower() in ("unit", "stack"):
            # "unit at F+": every camel of the last move's unit
            if last is None or last.get("move") is None:
                return "unit at: the last action moved no camel"
            camels = last["move"]["unit"]
        else:
            camels = _colours(words[0])
        want = _space_of(game, words[1])
        bad = []
        for camel in camels:
            got = None
            for s in game.stacks:
                if camel in game.stacks[s]:
                    got = s
            if got is None and camel not in game.edition.camels:
                raise NotationError("'at': %r is not a camel of the %s edition"
                                    % (camel, game.edition.name))
            if got != want:
                bad.append("%s at: want %s, got %s" % (camel, words[1], got))
        return "; ".join(bad) if bad else None
    if key == "board":
        toks = []
        for tok in _tokens(_board(arg), True):
            head = tok.split(":", 1)[0].upper()
            if head in ("F+", "F-") and ":" in tok:
                space = _space_of(game, head)
                if space is None:  # no such stack: a space that can never match
                    space = 99 if head == "F+" else -99
                tok = "%d:%s" % (space, tok.split(":", 1)[1])
            toks.append(tok)
        want_s, want_t = parse_track(" ".join(toks))
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
        words = _tokens(arg)
        if words and _is_seat(words[0]):
            if len(words) > 1 and words[1][:1] in ("+", "-"):
                return _expect_deltas(game, before, arg)  # "expect coins P2 +1"
            if len(words) != 2:
                raise NotationError("one seat's coins read 'coins p1 4' (or 'coins P2 4')")
            # "expect coins p1 4": one seat only
            seat = _seat(words[0], "coins")
            if seat >= game.players:
                raise NotationError("coins of %s: there are only %d seats"
                                    % (words[0], game.players))
            got = game.coins[seat]
            if got != _int1(words[1], "coins"):
                return "p%d (P%d) coins: want %s, got %d" % (seat, seat + 1, words[1], got)
            return None
        want = _ints(" ".join(words), "coins")
        if game.coins != want:
            return "coins: want %s, got %s" % (want, game.coins)
        return None
    if key == "ranking":
        want = _colours(arg)
        got = _hide(game.ranking(), unlisted, want)
        if want != got[:len(want)]:  # a shorter list checks the first places only
            return "ranking: want %s, got %s" % (",".join(want), ",".join(got))
        return None
    if key == "ignored":
        camel = colour_name(arg)
        if camel in game.ranking():
            return "%s ignored: no, it is ranked (%s)" % (camel, ",".join(game.ranking()))
        return None
    if key == "over":
        if not arg:
            arg = "yes"
        if game.is_over != _yes(arg):
            return "race over: want %s, got %s" % (arg, "yes" if game.is_over else "no")
        return None
    if key in ("winner", "loser", "leader", "second"):
        arg = colour_name(arg)
        order = _hide(game.ranking(), unlisted, [arg])
        got = order[{"winner": 0, "leader": 0, "second": 1, "loser": -1}[key]]
        if key in ("leader", "second"):
            if got != arg:
                return "%s racing camel: want %s, got %s" % (
                    "first" if key == "leader" else "second", arg, got)
            return None
        if got != arg:
            return "overall %s: want %s, got %s" % (key, arg, got)
        return None
    if key == "winners":
        want = [_seat(w, "winners") for w in _tokens(arg.replace("[", " ").replace("]", " "))
                if w.lower() not in ("and", "share")]
        got = game.winners() if game.is_over else []
        if want and not game.is_over:
            return ("winning seats: want %s, but the race is not over (coins now %s); victory "
                    "is decided when a camel crosses the line: end the race first, e.g. a "
                    "camel on 16 and 'do red 1'" % (want, game.coins))
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
        if game.leg != _int1(arg, "expect leg"):
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
        if game.pyramid_tickets_left != _int1(arg, "expect pyramid (tickets left)"):
            return "pyramid tickets left: want %s, got %d" % (arg, game.pyramid_tickets_left)
        return None
    if key == "tiles":
        want_s, want_t = parse_track(_board(arg if arg.strip() != "-" else ""))
        if want_s:
            raise NotationError("'expect tiles' lists tiles only, like 6:+p1 12:-p0 (or -)")
        got = game.tiles
        if want_t != got:
            return "tiles: want %s, got %s" % (track_text({}, want_t) or "-",
                                               track_text({}, got) or "-")
        return None
    if key == "legs":
        words = arg.split(None, 1)
        colour = colour_name(words[0])
        digits = "".join([c for c in (words[1] if len(words) > 1 else "") if c.isdigit()])
        want = [int(c) for c in digits]
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
        if len(words) != 2:
            raise NotationError("expect partner needs two seats (or a seat and -), like "
                                "'expect partner P1 P4'")
        seat = _seat(words[0], "partner")
        want = None if words[1] == "-" else _seat(words[1], "partner")
        if seat >= game.players:
            raise NotationError("expect partner: no seat %s with %d players"
                                % (words[0], game.players))
        if game.partner_of(seat) != want:
            return "partner of p%d: want %s, got %s" % (seat, want, game.partner_of(seat))
        return None
    # Expectations about the last push's report.
    if last is None:
        return "%s: no action was pushed yet" % key
    move = last.get("move")
    if key == "stays":
        arg = colour_name(arg)
        if move and arg in move["unit"]:
            return "%s stays: no, it moved with %s" % (arg, ",".join(move["unit"]))
        return None
    if key == "moved":
        got = move["camel"] if move else None
        arg = colour_name(arg)
        if got != arg:
            return "camel moved: want %s, got %s" % (arg, got)
        return None
    if key == "rule":
        got = move["rule"] if move else None
        arg = arg.lower().replace("exception", "").replace("(", "").replace(")", "").strip()
        if got != arg:
            return "grey-die rule: want %s, got %s" % (arg, got)
        return None
    if key == "owner":
        # "owner +1": the owner of the tile the last move landed on gained that much
        tile = move["tile"] if move else None
        if tile is None:
            return "tile owner: the last move landed on no tile"
        return _expect_deltas(game, before, "p%d %s" % (tile["owner"], arg))
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
        if not arg:
            arg = "yes"
        if last["leg_ended"] != _yes(arg):
            return "leg scored: want %s, got %s" % (arg, last["leg_ended"])
        return None
    if key == "net":
        words = arg.split()
        seat = _seat(words[0], "net")
        if not last["leg_scores"]:
            return "net: the last action did not score a leg"
        got = last["leg_scores"][seat]["net"]
        if len(words) != 2:
            raise NotationError("expect net: needs a seat and a number, like 'net P1 4'")
        if got != _int1(words[1], "expect net"):
            return "p%d leg net: want %s, got %d" % (seat, words[1], got)
        return None
    raise NotationError("unknown expectation %r; expectations read like %s, or the cases' "
                        "'3:[R,G,B]', 'P2 +1', 'G ahead of B', 'Y first', 'W at F-', 'race "
                        "over', 'W ignored', 'K stays' (docs/notation.md section 3)"
                        % (key, ", ".join(["'%s'" % _USAGE[k] for k in sorted(_USAGE)])))


def _seat_action(game, text, where):
    """Split ``P1 partner P4`` / ``p0 leg red`` into the action text (with case-file
    seats made 0-based) and the seat it names first (``None`` when none)."""
    words = text.split(None, 1)
    seat = None
    if len(words) == 2 and _is_seat(words[0]):
        seat = _seat(words[0], "seat")
        text = words[1]
    return seat, _seats_lowered(text, "seat")


def _sided(text):
    """``tile 5`` (no side) for ``legal``/``illegal``: legality does not depend on the
    side, so check it cheering/oasis side up."""
    words = text.split()
    if len(words) == 2 and words[0].lower() == "tile" and words[1].isdigit():
        return text + " +"
    return text


def run_case(case):
    """Run one ``Case``. Returns a list of mismatch messages (empty: the case passes)."""
    problems = []
    try:
        game = build_game(case)
    except ValueError as exc:
        return ["line %d: cannot build the position: %s" % (case.line, exc)]
    except Exception as exc:  # a malformed line must never end in a traceback
        return ["line %d: cannot build the position: %s: %s"
                % (case.line, type(exc).__name__, exc)]
    if game is None and case.labels is None:
        return ["line %d: cannot build the position" % case.line]
    case.start_leg = game.leg if game is not None else 1
    last = None
    before = game.coins if game is not None else []
    odds_cache = {}
    for no, verb, text in case.checks + case.steps:
        where = "line %d: %s %s" % (no, verb, text)
        try:
            if verb == "expect" and is_odds(text):
                msg = _expect_odds(game, case, text, where, odds_cache)
                if msg is not None:
                    problems.append("%s\n  %s" % (where, msg))
                continue
            if game is None:
                problems.append(
                    "%s: the board names %s, not camels of the %s edition: read as labels, "
                    "for leg-odds expectations only (docs/notation.md)"
                    % (where, ", ".join(_label_names(case)), case.labels.edition))
                break
            if verb in ("do", "legal", "illegal"):
                seat, text = _seat_action(game, text, where)
                if seat is not None and seat != game.turn:
                    # "do p1 leg red": the seat must be the one to act
                    problems.append("%s: it is p%d's turn, not p%d's (case files' numbering: "
                                    "P%d's, not P%d's)"
                                    % (where, game.turn, seat, game.turn + 1, seat + 1))
                    break
            if verb == "do":
                coins = game.coins
                last = game.push(text)
                before = coins
            elif verb == "undo":
                if not game.history:
                    problems.append("%s: nothing to undo" % where)
                    break
                game.pop()
                last = None
                before = game.coins
            elif verb == "legal":
                game.check(_sided(text))
            elif verb == "illegal":
                position = game.position()
                action = parse_action(_sided(text))
                try:
                    game.push(action)
                except IllegalAction:
                    if game.position() != position:
                        problems.append("%s: the refused action changed the game" % where)
                else:
                    game.pop()
                    problems.append("%s: the engine allowed it" % where)
            else:
                msg = _expect(game, last, text, case.unlisted, before)
                if msg is not None:
                    problems.append("%s\n  %s" % (where, msg))
        except ValueError as exc:  # IllegalAction, NotationError, or a bad number
            problems.append("%s: %s" % (where, exc))
            break
        except (IndexError, KeyError, TypeError, AttributeError) as exc:
            hint = _expect_usage(text) if verb == "expect" else None
            far = [w for w in text.replace(",", " ").split()
                   if _is_seat(w) and _seat(w, "seat") >= game.players]
            if far:
                problems.append("%s: there is no seat %s with %d players (seats p0..p%d, "
                                "P1..P%d)" % (where, far[0], game.players, game.players - 1,
                                              game.players))
                break
            problems.append("%s: cannot read this step (%s: %s)%s"
                            % (where, type(exc).__name__, exc,
                               "; write it like '%s'" % hint if hint else ""))
            break
    return problems


def _label_names(case):
    from camelup.editions import get_edition

    ed = get_edition(case.labels.edition)
    return [c for c in case.labels.camels() if c not in ed.camels]


def _expect_odds(game, case, text, where, cache):
    """A leg-odds expectation (``camelup.odds_expect``) on the case's current position."""
    from camelup.odds_expect import OddsError, check, parse

    try:
        checks = parse(text, "odds")
    except OddsError as exc:
        raise OddsError(str(exc)[len("odds: "):]) from None
    pos = odds_position(game, case)
    stacks = []
    for sp in sorted(pos.stacks):
        stacks.append((sp, tuple(pos.stacks[sp])))
    key = (tuple(stacks), tuple(sorted(pos.tiles.items())), tuple(pos.dice), pos.reveals)
    if key not in cache:
        cache.clear()
        cache[key] = {}
    return check(pos, checks, cache[key])


def run_scenarios(text, source="<text>"):
    """Parse and run every case in ``text``. Returns ``[(case, problems)]``."""
    return [(c, run_case(c)) for c in parse_scenarios(text, source)]
