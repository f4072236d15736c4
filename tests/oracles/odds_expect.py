"""Test oracle: leg-odds expectations worded the way ../shared/cases/odds-cases.md words
them, read and checked on a ``camelup.odds.Position``. The scenario files state odds in
one strict form (docs/notation.md); tests/test_scenarios.py checks the odds cases' own
text against the strict files' positions with this reader.

Understood (one expectation per line, or several separated by ``;``)::

    leg winner: blue 8/81, green 1469/5832, orange 857/7290   first place (fractions)
    first: B 6/12, G 4/12, R 2/12          also 1st / winner / leader
    second: B .109974, G .154510           decimals: compared to the places written
    last: B .409088                        also loser
    1st (of 216): P 144, B 48, R 24        weights out of a total (also "out of 5,598,720")
    B 1st, G 2nd, P 3rd, Y 4th, R last, certain       every place named has probability 1
    G and B each 1st 6/12 and 2nd 6/12     several camels, several places
    red 191/486, yellow 67/243, purple 0   no place word: the leg winner (case C1)
    P(B 1st) = 1/2                         one probability
    expected landings: mirage on 4 = 44012/29160 (1.5093), oasis on 6 = 20911/29160
    nothing is revealed / exactly one is revealed / reveals 2     dice still to come out
    EV(B 5) = 1.23 / ev blue 5 = 37/12     leg ticket of value 5 on blue (odds-cases' formula)

Probabilities: ``a/b`` (exact), ``0``, ``1``, ``certain``, a decimal (``.109974``,
``0.5``, ``39.5%``) which must be the exact value rounded to the places written.
Everything is integer arithmetic (cross-multiplication): no ``fractions``, so it runs
on MicroPython too. Places other than 1st, 2nd and last come from a plain enumeration
of every place (``place_weights``), slower but exact.
"""

from camelup.actions import COLOURS, colour_name
from camelup.odds import CRAZY, GREY, SECOND, TRACK, Position, leg_odds, move

from oracles.odds_naive import choose_crazy, order, play

#: Place words -> 0-based place (-1 last).
PLACES = {"1st": 0, "first": 0, "winner": 0, "leader": 0, "leads": 0, "wins": 0, "2nd": 1,
          "second": 1, "runner-up": 1, "3rd": 2, "third": 2, "4th": 3, "fourth": 3,
          "5th": 4, "fifth": 4, "last": -1, "loser": -1}
_NUMBER_WORDS = {"nothing": 0, "none": 0, "no": 0, "zero": 0, "one": 1, "two": 2,
                 "three": 3, "four": 4, "five": 5}
_FILLER = ("and", "each", "exactly", "=", "is", "are", "leg", "prob", "probability",
           "odds", "with", "at", "place", "places", "camel", "the", "in", "for", "both",
           "expect", "exact", "weights", "weight", "->", "all")
#: Words that make an expectation a leg-odds one (besides numbers with / . or %).
_MARKERS = ("certain", "landing", "landings", "revealed", "reveals", "reveal", "outcomes")
#: Expectation keys that never are leg odds.
_NOT_ODDS = ("position", "board", "track", "coins", "score", "scores", "points", "tiles",
             "legs", "held", "partner", "partners", "net", "space", "at", "turn", "start",
             "out", "in-pyramid", "pyramid", "payout", "owner", "delta", "rule", "moved",
             "mover", "over", "race-over", "winners", "leg-scored")


class OddsError(ValueError):
    """A leg-odds expectation that cannot be read (the message names the text)."""


def _plain(text):
    """Lower case; commas inside numbers dropped (``5,598,720``); brackets, colons and
    separators turned into blanks (``P(B 1st)`` -> ``p b 1st``)."""
    out = ""
    n = len(text)
    for i in range(n):
        ch = text[i]
        if ch == "," and 0 < i < n - 1 and text[i - 1].isdigit() and text[i + 1].isdigit():
            continue
        if ch in ",;:{}[]":
            ch = " "
        out += ch
    out = out.lower().replace("p(", " ( ").replace("ev(", " ev ( ")
    return out.replace("(", " ( ").replace(")", " ) ").replace("=", " = ")


def _is_number(word):
    w = word.rstrip("%")
    if not w:
        return False
    if "/" in w:
        a, b = w.split("/", 1)
        return a.isdigit() and b.isdigit()
    if w.startswith("-") or w.startswith("+"):
        w = w[1:]
    if w.count(".") > 1:
        return False
    digits = w.replace(".", "")
    return digits.isdigit()


def is_odds(text):
    """True when ``text`` (an expectation) is a leg-odds one."""
    words = text.split()
    if not words:
        return False
    head = words[0].lower().rstrip(":")
    if head in _NOT_ODDS:
        return False
    plain = _plain(text).split()
    if plain and plain[0] == "ev":
        return True
    for w in plain:
        if w in _MARKERS:
            return True
        if ("/" in w or "." in w or w.endswith("%")) and _is_number(w):
            return True
    if text.lower().replace(" ", "").startswith("p("):
        return True
    if head == "leg" and len(plain) > 1 and plain[1] == "winner":
        return True  # "leg winner: B 1, G 0"
    if head in PLACES and len(plain) > 2 and [w for w in plain[1:] if _is_number(w)]:
        return True  # "1st: B 3" (a weight without its total: reported as such)
    for i in range(len(plain) - 1):
        if plain[i] == "of" and plain[i + 1].isdigit():
            return True  # "1st (of 216): ...", "weights out of 5,598,720: ..."
    return False


class Value:
    """A probability as written: ``("frac", a, b)``, ``("dec", digits, places)`` (value
    digits / 10**places, compared after rounding), or ``("int", n)`` (a weight out of
    ``of`` when given, else 0 or 1)."""

    def __init__(self, word, where):
        self.text = word
        w = word
        if w == "certain":
            self.kind, self.a, self.b = "frac", 1, 1
            return
        percent = w.endswith("%")
        w = w.rstrip("%")
        if "/" in w:
            a, b = w.split("/", 1)
            if int(b) == 0:
                raise OddsError("%s: %r divides by zero" % (where, word))
            self.kind, self.a, self.b = "frac", int(a), int(b)
            return
        sign = 1
        if w[:1] in "+-":
            sign = -1 if w[0] == "-" else 1
            w = w[1:]
        if "." in w or percent:
            whole, frac = (w.split(".", 1) + [""])[:2]
            places = len(frac) + (2 if percent else 0)
            self.kind, self.a, self.b = "dec", sign * int((whole or "0") + frac), places
            return
        self.kind, self.a, self.b = "int", sign * int(w), None

    def matches(self, num, den, of=None):
        """Does the exact value ``num / den`` (integers, den > 0) match?"""
        if self.kind == "frac":
            return num * self.b == self.a * den
        if self.kind == "int":
            if of is not None:
                return num * of == self.a * den
            return num * 1 == self.a * den
        scale = 10 ** self.b
        # |num/den - a/scale| <= 1/(2 scale): the exact value rounds to what is written;
        # more than six places written: compared to six (within half a millionth)
        diff = num * scale - self.a * den
        if diff < 0:
            diff = -diff
        if self.b > 6:
            return 2 * diff * 1000000 <= den * scale
        return 2 * diff <= den

    def needs_total(self, of):
        return self.kind == "int" and of is None and self.a not in (0, 1)


def _show(num, den):
    """``num/den`` reduced, and as a 6-place decimal (``8/81 = 0.098765``)."""
    a, b = num, den
    while b:
        a, b = b, a % b
    g = a if a else 1
    if den == 0:
        return "%d/0" % num
    # rounded to 6 places with integers (no float formatting differences across runtimes)
    neg = num < 0
    n = -num if neg else num
    micro = (n * 1000000 * 2 + den) // (2 * den)
    dec = "%s%d.%06d" % ("-" if neg else "", micro // 1000000, micro % 1000000)
    if den // g == 1:
        return "%d (%s)" % (num // g, dec)
    return "%d/%d = %s" % (num // g, den // g, dec)


def _known(word):
    cut = len(word)
    while cut > 0 and word[cut - 1].isdigit():
        cut -= 1
    if 0 < cut < len(word) and _colour(word[:cut].rstrip("-")) is not None:
        return True  # "blue-2", "B5"
    return (word in PLACES or word in _FILLER or word in _MARKERS or word in _NUMBER_WORDS
            or _is_number(word) or _colour(word) is not None
            or word in ("(", ")", "of", "out", "certain", "ev", "on", "expected", "mirage",
                        "oasis", "cheering", "booing", "tile", "space", "revealed", "this",
                        "outcomes", "total", "ticket", "tickets", "value", "camel"))


def _remarks_dropped(words):
    """``words`` without parenthesised remarks (``(1.0 means the engine wrongly rolled the
    last die.)``): a ``( ... )`` group with a word that is none of camel, place, number or
    the words above. ``(of 216)``, ``(1.5093)``, ``P(B 1st)`` and ``(exact weights out of
    5,598,720: B 425760, ...)`` stay."""
    out = []
    i = 0
    while i < len(words):
        if words[i] == "(":
            j = i + 1
            depth = 1
            while j < len(words) and depth:
                if words[j] == "(":
                    depth += 1
                elif words[j] == ")":
                    depth -= 1
                j += 1
            group = words[i:j]
            if [w for w in group if not _known(w.rstrip("."))]:
                i = j
                continue
            out += group
            i = j
            continue
        out.append(words[i])
        i += 1
    return out


def parse(text, where="odds"):
    """Read one leg-odds expectation into checks: a list of tuples
    ``("place", colour, place, Value, of)``, ``("landing", space, Value)``,
    ``("reveals", n)``, ``("ev", colour, ticket value, Value)``, ``("total", n)``.
    Raises ``OddsError`` naming the text it cannot read."""
    words = _remarks_dropped([w for w in _plain(text).split()])
    words = [w.rstrip(".") if not _is_number(w) else w for w in words]
    checks = []
    # "29,160 equally likely outcomes", "outcomes 29160", "total 216"
    for i in range(len(words)):
        if words[i] in ("outcomes", "total"):
            n = None
            if i + 1 < len(words) and words[i + 1].isdigit():
                n = int(words[i + 1])
            else:
                for j in (i - 1, i - 2, i - 3):
                    if 0 <= j and words[j].isdigit():
                        n = int(words[j])
                        break
            if n is None:
                raise OddsError("%s: how many outcomes in %r? (like 'outcomes 29160')"
                                % (where, text))
            return [("total", n)]
    # "nothing is revealed", "exactly one is revealed", "reveals 2", "2 revealed"
    for i in range(len(words)):
        if words[i] in ("revealed", "reveals", "reveal"):
            n = None
            for j in (i - 1, i - 2, i + 1):
                if 0 <= j < len(words):
                    w = words[j]
                    if w.isdigit():
                        n = int(w)
                    elif w in _NUMBER_WORDS:
                        n = _NUMBER_WORDS[w]
                    if n is not None:
                        break
            if n is None:
                raise OddsError("%s: how many dice are revealed in %r? (e.g. 'nothing is "
                                "revealed', 'reveals 2')" % (where, text))
            checks.append(("reveals", n))
            # the rest of the line (after "...revealed:") may hold more
            rest = [w for w in words[i + 1:] if w not in ("(", ")")]
            if rest and not (rest[0].isdigit() and len(rest) == 1):
                more = " ".join(words[i + 1:])
                if more.strip():
                    checks += parse(more, where)
            return checks
    if "landing" in words or "landings" in words:
        return _parse_landings(words, text, where)
    if words and words[0] == "ev":
        return _parse_ev(words, text, where)
    default = 0
    of = None
    certain = "certain" in words
    toks = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("(", ")") or w in _FILLER or w == "certain" or w == "odds":
            if w == "(" and i + 2 < len(words) and words[i + 1] == "of" and words[i + 2].isdigit():
                of = int(words[i + 2])
                i += 3
                continue
            i += 1
            continue
        if w in ("of", "out") and i + 1 < len(words):
            j = i + 1
            if words[j] == "of" and j + 1 < len(words):
                j += 1
            if words[j].isdigit():
                of = int(words[j])
                i = j + 1
                continue
        toks.append(w)
        i += 1
    if toks and toks[0] in PLACES and (len(toks) < 2 or not _is_number(toks[1])):
        # "leg winner: ...", "first: ...", "1st (of 216): ..." (a leading place word)
        if len(toks) > 1:
            default = PLACES[toks[0]]
            toks = toks[1:]
    group = []
    place = None
    prev = None  # kind of the previous token: "colour", "place" or "value"
    pending = []  # (colour, place) named without a value yet
    for w in toks:
        c = _colour(w)
        if c is not None:
            if prev != "colour":  # "B 1st, G 2nd": a new camel starts a new group
                group = []
                place = None
            group.append(c)
            prev = "colour"
            continue
        if w in PLACES:
            if not group:
                raise OddsError("%s: %r has no camel before it in %r" % (where, w, text))
            place = PLACES[w]
            for c in group:
                pending.append((c, place))
            prev = "place"
            continue
        if _is_number(w):
            if not group:
                raise OddsError("%s: %r has no camel before it in %r" % (where, w, text))
            v = Value(w, where)
            if v.needs_total(of):
                raise OddsError("%s: %r is a weight: give the total, like '1st (of 216): "
                                "P 144' or 'P 144/216'" % (where, w))
            p = default if place is None else place
            for c in group:
                checks.append(("place", c, p, v, of))
                if (c, p) in pending:
                    pending.remove((c, p))
            prev = "value"
            continue
        raise OddsError("%s: cannot read %r in %r (camels, places like 1st / last, "
                        "probabilities like 6/12, .5, 50%%, certain)" % (where, w, text))
    if pending:
        if not certain:
            c, p = pending[0]
            raise OddsError("%s: no probability for %s %s in %r (add one, or 'certain')"
                            % (where, c, _place_word(p), text))
        one = Value("certain", where)
        for c, p in pending:
            checks.append(("place", c, p, one, None))
    elif certain and not checks:
        raise OddsError("%s: 'certain' of what? write it like 'B 1st, G 2nd, certain'" % where)
    if not checks:
        raise OddsError("%s: no probabilities in %r" % (where, text))
    return checks


def _colour(word):
    """The camel a word names (a colour name or letter, any case), else ``None``."""
    c = colour_name(word.rstrip("'s"))
    if c in COLOURS:
        return c
    return None


def _place_word(p):
    return {0: "1st", 1: "2nd", 2: "3rd", 3: "4th", 4: "5th", -1: "last"}.get(p, str(p))


def _parse_landings(words, text, where):
    """``expected landings: mirage on 4 = 44012/29160 (1.5093), oasis on 6 = ...``."""
    checks = []
    space = None
    for i in range(len(words)):
        w = words[i]
        if w.isdigit() and i > 0 and words[i - 1] in ("on", "space", "tile"):
            space = int(w)
            continue
        if w.isdigit() and space is None and i + 1 < len(words) and words[i + 1] == "=":
            space = int(w)  # "landings 4 = ..."
            continue
        if _is_number(w) and space is not None and (
                "/" in w or "." in w or w.endswith("%") or w in ("0", "1")):
            checks.append(("landing", space, Value(w, where)))
    if not checks:
        raise OddsError("%s: expected landings read like 'expected landings: mirage on 4 = "
                        "44012/29160', got %r" % (where, text))
    return checks


def _parse_ev(words, text, where):
    """``EV(B 5) = 1.23``, ``ev blue 5 = 37/12`` (a leg ticket of value 5 on blue); several
    on one line (``EV(Y 5) = 7/3, EV(G 5) = 11/3``) are read one by one."""
    starts = [i for i in range(len(words)) if words[i] == "ev"]
    if len(starts) > 1:
        out = []
        for j in range(len(starts)):
            end = starts[j + 1] if j + 1 < len(starts) else len(words)
            out += _parse_ev(words[starts[j]:end], text, where)
        return out
    toks = [w for w in words[1:] if w not in ("(", ")", "=", "ticket", "of", "value", "on",
                                             "camel", "tickets")]
    colour = None
    ticket = None
    value = None
    split = []
    for w in toks:
        cut = len(w)
        while cut > 0 and w[cut - 1].isdigit():
            cut -= 1
        if 0 < cut < len(w) and _colour(w[:cut].rstrip("-")) is not None:
            split += [w[:cut].rstrip("-"), w[cut:]]  # "blue-5", "B5"
        else:
            split.append(w)
    for w in split:
        c = _colour(w)
        if c is not None and colour is None:
            colour = c
        elif w.isdigit() and ticket is None:
            ticket = int(w)
        elif _is_number(w) and value is None:
            value = Value(w, where)
        else:
            raise OddsError("%s: a leg-ticket EV names one camel, one ticket value and one "
                            "figure, like 'EV(B 5) = 1.23' (several: 'EV(B 5) = 1.23, "
                            "EV(G 3) = -0.5'); %r is extra in %r" % (where, w, text))
    if colour is None or ticket is None or value is None:
        raise OddsError("%s: a leg-ticket EV reads like 'EV(B 5) = 1.23', got %r"
                        % (where, text))
    return [("ev", colour, ticket, value)]


def place_weights(position):
    """Every racing camel's weight in every place at the end of the leg, by playing every
    order and face (merging equal boards). Returns ``({colour: [w place 1, ...]},
    total)``, counted as ``leg_odds`` counts them."""
    crazy = position.crazy()
    racing = position.racing()
    wr = 2 if position.edition == SECOND else 1
    n = len(racing)
    out = {}
    for c in racing:
        out[c] = [0] * n
    total = [0]
    dice0 = list(position.dice)
    reveals = position.reveals

    def completions(left, used):
        r = 1
        k = len(dice0) - used
        for _ in range(left):
            r *= k * 3 * wr
            k -= 1
        return r

    def finish(stacks, weight):
        ranked = order(stacks, crazy)
        for i in range(len(ranked)):
            out[ranked[i]][i] += weight
        total[0] += weight

    def key(stacks):
        return tuple([(s, tuple(stacks[s])) for s in sorted(stacks)])

    def thaw(k):
        d = {}
        for s, st in k:
            d[s] = list(st)
        return d

    if reveals == 0 or getattr(position, "over", False):
        finish(position.stacks, 1)
        return out, 1
    level = {(key(position.stacks), tuple(dice0)): 1}
    depth = 0
    while level:
        nxt = {}
        for state in level:
            board, inside = state
            weight = level[state]
            for die in inside:
                rest = tuple([d for d in inside if d != die])
                faces = []
                if die == GREY:
                    for ink in CRAZY:
                        for v in (1, 2, 3):
                            faces.append((ink, v, 1))
                else:
                    for v in (1, 2, 3):
                        faces.append((None, v, wr))
                for ink, v, w in faces:
                    after = thaw(board)
                    if die == GREY:
                        camel = choose_crazy(after, crazy, ink)
                        _, crossed = play(after, position.tiles, camel, v, True)
                    else:
                        _, crossed = play(after, position.tiles, die, v, False)
                    done = depth + 1
                    if crossed or done == reveals:
                        finish(after, weight * w * completions(reveals - done, done))
                    else:
                        k = (key(after), rest)
                        nxt[k] = nxt.get(k, 0) + weight * w
        level = nxt
        depth += 1
    return out, total[0]


class _Odds:
    """What ``check`` reads of ``camelup.odds.LegOdds``, summed by ``split_leg_odds``."""

    def __init__(self, racing):
        self.total = 0
        self.first = {}
        self.second = {}
        self.last = {}
        for c in racing:
            self.first[c] = 0
            self.second[c] = 0
            self.last[c] = 0
        self.landings = {}


def _clamped(position, stacks):
    """A finished race's stacks (17+ / 0-) merged onto 16 / 1 in board order, which keeps
    the ranking (as ``camelup.odds.game`` does), with nothing left to reveal."""
    track = {}
    for space in sorted(stacks):
        target = min(TRACK, max(1, space))
        track[target] = track.get(target, []) + list(stacks[space])
    return Position(position.edition, track, {}, dice=[], reveals=0)


def split_leg_odds(position):
    """``leg_odds`` computed one first reveal at a time (every die still inside, every
    face) and summed: the same integer weights with far less memory at once (the
    MicroPython unix port's default heap cannot hold a full second-edition leg with the
    crazy camels in the race, P2b). Used when ``leg_odds`` raises ``MemoryError``."""
    if position.reveals == 0 or getattr(position, "over", False):
        return leg_odds(position)
    second = position.edition == SECOND
    per_face = 2 if second else 1
    faces_per_die = 6 if second else 3
    dice = list(position.dice)
    left = position.reveals - 1
    sub_total = 1
    n = len(dice) - 1
    for _ in range(left):
        sub_total *= n * faces_per_die
        n -= 1
    result = _Odds(position.racing())
    tiles = {}
    for space in position.tiles:
        tiles[space] = (position.tiles[space], position.tile_owners.get(space))
    for die in dice:
        rest = [d for d in dice if d != die]
        if die == GREY:
            faces = [(ink, v, 1) for ink in CRAZY for v in (1, 2, 3)]
        else:
            faces = [(None, v, per_face) for v in (1, 2, 3)]
        for ink, value, weight in faces:
            after, hit, crossed = move(position, die, value, ink)
            if crossed:
                sub = leg_odds(_clamped(position, after.stacks))
            else:
                sub = _leg(Position(position.edition, after.stacks, tiles, dice=rest,
                                    reveals=left))
            scale = weight * (sub_total // sub.total)
            for table, part in ((result.first, sub.first), (result.second, sub.second),
                                (result.last, sub.last)):
                for c in part:
                    table[c] = table.get(c, 0) + scale * part[c]
            if hit:
                result.landings[hit] = result.landings.get(hit, 0) + weight * sub_total
            for space in sub.landings:
                result.landings[space] = (result.landings.get(space, 0)
                                          + scale * sub.landings[space])
            result.total += weight * sub_total
    return result


def _leg(position):
    """``leg_odds``, or ``split_leg_odds`` when the heap is too small for it."""
    try:
        return leg_odds(position)
    except MemoryError:
        import gc

        gc.collect()
        return split_leg_odds(position)


def check(position, checks, cache=None):
    """Check parsed ``checks`` against ``position`` (a ``camelup.odds.Position``). Returns
    ``None`` when all hold, else one message per mismatch joined by ``"; "`` (want / got,
    both exact). ``cache``: a dict to keep the leg odds in between calls."""
    if cache is None:
        cache = {}
    racing = position.racing()
    problems = []
    odds = None
    places = None
    for chk in checks:
        kind = chk[0]
        if kind == "reveals":
            if position.reveals != chk[1]:
                problems.append("dice revealed this leg: want %d, got %d (of %d inside: %s)"
                                % (chk[1], position.reveals, len(position.dice),
                                   ", ".join(position.dice) or "none"))
            continue
        if kind == "total":
            if odds is None:
                odds = cache.get("leg") or _leg(position)
                cache["leg"] = odds
            if odds.total != chk[1]:
                problems.append("equally likely outcomes: want %d, got %d" % (chk[1], odds.total))
            continue
        if odds is None:
            odds = cache.get("leg")
            if odds is None:
                odds = _leg(position)
                cache["leg"] = odds
        total = odds.total
        if kind == "landing":
            space, v = chk[1], chk[2]
            if space not in position.tiles:
                problems.append("landings on %d: there is no tile on space %d" % (space, space))
                continue
            got = odds.landings.get(space, 0)
            if not v.matches(got, total):
                problems.append("expected landings on %d: want %s, got %s"
                                % (space, v.text, _show(got, total)))
            continue
        colour = chk[1]
        if colour not in racing:
            problems.append("%s is not a racing camel in this race (racing: %s)"
                            % (colour, ", ".join(racing)))
            continue
        if kind == "ev":
            ticket, v = chk[2], chk[3]
            w1 = odds.first[colour]
            w2 = odds.second[colour]
            num = ticket * w1 + w2 - (total - w1 - w2)
            if not v.matches(num, total):
                problems.append("EV of %s leg ticket %d: want %s, got %s"
                                % (colour, ticket, v.text, _show(num, total)))
            continue
        _, colour, place, v, of = chk
        n = len(racing)
        if place == -1 or place == n - 1:
            got = odds.last[colour]
        elif place == 0:
            got = odds.first[colour]
        elif place == 1:
            got = odds.second[colour]
        elif place >= n:
            problems.append("%s %s: only %d racing camels in this race"
                            % (colour, _place_word(place), n))
            continue
        else:
            if places is None:
                places = cache.get("places")
                if places is None:
                    places = place_weights(position)
                    cache["places"] = places
            got = places[0][colour][place] * total // places[1] if places[1] else 0
            if places[1] != total:  # same outcomes counted: never differs, but be exact
                got_num, got_den = places[0][colour][place], places[1]
                if not v.matches(got_num, got_den, of):
                    problems.append("P(%s %s): want %s, got %s" % (
                        colour, _place_word(place), _want(v, of), _got(got_num, got_den, of)))
                continue
        if not v.matches(got, total, of):
            problems.append("P(%s %s): want %s, got %s" % (colour, _place_word(place),
                                                            _want(v, of), _got(got, total, of)))
    return "; ".join(problems) if problems else None


def _got(num, den, of):
    """The exact value, and as a weight out of ``of`` when that is whole."""
    text = _show(num, den)
    if of is not None and den and (num * of) % den == 0:
        text = "%d/%d, i.e. %s" % (num * of // den, of, text)
    return text


def _want(v, of):
    if v.kind == "int" and of is not None:
        return "%s/%d" % (v.text, of)
    if v.kind == "frac" and v.text == "certain":
        return "1 (certain)"
    return v.text
