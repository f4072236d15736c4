"""What each part of the full screen says, as Rich ``Text`` built from the table's
view model (``camelhost.table.view.table_view``: public facts only, players by
name). No Textual here: each function is plain data in, text out, so tests read it
without a screen.

Every camel, die and tile is drawn with ``camelhost.ui.palette`` (its colour *and*
its short label, for colour-blind players). Finish cards appear as counts only until
the race is over; then each pile is revealed in play order (RULES 1.8, 5).
"""

from camelup.editions import get_edition
from rich.cells import cell_len, chop_cells
from rich.text import Text

from camelhost.i18n import _, colour_word, ngettext, pgettext
from camelhost.table.narration import name_list, pile_word, placed_words
from camelhost.table.view import side_word
from camelhost.ui import palette
from camelhost.ui.plain import waiting_words

#: Most characters per track space; the fewest is 4 (fits 18 columns in 80).
CELL = 7


def colour_letters():
    """``{colour: its one capital on the full screen}`` in the table's language, for
    every camel colour of either edition: the compact track's camels (``BGY``) and the
    leg tickets (``G5``). From the catalogue (context ``letter of COLOUR``), each
    language's letters told apart within an edition (German ``G`` grün, ``E`` gelb:
    ``G`` would be both; ``tests/test_tui_german.py``); English's are
    ``camelhost.ui.palette``'s ``Piece.letter``."""
    return {
        "blue": pgettext("letter of blue", "B"), "green": pgettext("letter of green", "G"),
        "yellow": pgettext("letter of yellow", "Y"), "red": pgettext("letter of red", "R"),
        "purple": pgettext("letter of purple", "P"),
        "orange": pgettext("letter of orange", "O"),
        "white": pgettext("letter of white", "W"), "black": pgettext("letter of black", "K"),
    }


def colour_letter(colour):
    """The one capital of camel colour ``colour`` (the English name) on the full screen,
    in the table's language (``colour_letters``); a colour without one (the grey die)
    keeps ``camelhost.ui.palette``'s."""
    return colour_letters().get(colour) or palette.piece(colour).letter


def badge(name, text=None):
    """``text`` (default: the piece's label) on the piece's fill, as ``Text``."""
    label = palette.label(name, colour_word(name)) if text is None else text
    return Text(label, palette.style(name))


def track_columns(view):
    """The track's columns, left to right: ``(label, stack, tile)``, the crossed
    camels in ``<0`` and ``17>`` when there are any."""
    low = [c for b in view["beyond"] if b["space"] < 1 for c in b["stack"]]
    high = [c for b in view["beyond"] if b["space"] > 16 for c in b["stack"]]
    columns = [("<0", low, None)] if low else []
    columns += [(str(t["space"]), t["stack"], t["tile"]) for t in view["track"]]
    if high:
        columns.append(("17>", high, None))
    return columns


def _inner(width, columns):
    """Characters a track space gets in ``width`` for ``columns`` spaces (4 to ``CELL``),
    less the blank between spaces."""
    return max(4, min(CELL, width // columns)) - 1


def _per_row(height, rows, inner):
    """Camels a row in the compact form: as many as a space has characters, ``inner``
    (one letter each; at least 2), whatever the stack's ``height`` and the ``rows`` the
    screen has: a stack of a given height is then drawn one way on every screen (a
    three-high stack was ``BPR`` on one row when a taller one needed it, ``B P`` under
    ``R`` when not: tester 3). ``height`` and ``rows`` are kept for the callers."""
    return max(2, inner)


def track_rows(view, rows=None, width=CELL * 16):
    """Lines ``track_text(view, width, rows)`` takes: the camel rows (the tallest
    stack; in the compact form that divided by the camels a row, rounded up), the space
    numbers and, when a tile lies on the track, the tiles."""
    columns = track_columns(view)
    height = max([len(c) for _, c, _ in columns] + [1])
    if rows is not None and height > rows:
        height = -(-height // _per_row(height, rows, _inner(width, len(columns))))
    return height + 1 + (1 if any(t is not None for _, _, t in columns) else 0)


def track_text(view, width=CELL * 16, rows=None):
    """Rich ``Text`` of the track: spaces 1..16 left to right, stacks drawn upwards
    (bottom camel on the bottom row), crazy camels marked with ``<`` (they run
    counterclockwise), tiles under the space numbers as ``+Ann`` / ``-Ben`` in the
    tile's colour (that row left out while no tile lies on the track). Crossed
    camels show in the columns ``<0`` and ``17>``.
    ``width``: characters available; each space gets 4 to ``CELL`` of them, so 16
    spaces (18 with both crossed columns) fit in 72 characters. ``rows``: most
    camel rows (``None``: no limit); a taller stack is drawn in the compact form, every
    stack as many camels a row as a space has characters, by their capital letters,
    the lowest first, from the bottom row up (``BGY`` at 80 columns: blue, green on it,
    yellow on top; two as ``B G`` and ``<W`` a crazy camel when there is room to spare
    beside them, else ``BG``, never a stack touching its neighbour's space), so a stack
    reads the same whatever the screen's height (a 7-high stack: 3 rows at 80 columns)."""
    columns = track_columns(view)
    height = max([len(c) for _, c, _ in columns] + [1])
    compact = rows is not None and height > rows
    inner = _inner(width, len(columns))  # one blank column between spaces
    cell = inner + 1
    text = Text(no_wrap=True, overflow="crop")
    if compact:
        per = _per_row(height, rows, inner)
        height = -(-height // per)
    for row in range(height - 1, -1, -1):
        for _label, camels, _tile in columns:
            if compact:
                _group(text, camels[per * row:per * row + per], inner)
            elif row < len(camels):
                camel = camels[row]
                mark = "<" if camel["crazy"] else ""
                label = mark + palette.label(camel["colour"], colour_word(camel["colour"]))[
                    :inner - len(mark)]
                text.append(label.center(inner), palette.style(camel["colour"]))
            else:
                text.append(" " * inner)
            text.append(" ")
        text.append("\n")
    for label, _camels, _tile in columns:
        text.append(label.center(inner), "bold underline")
        text.append(" ")
    if any(tile is not None for _, _, tile in columns):
        text.append("\n")
        for _label, _camels, tile in columns:
            if tile is not None:
                mark = (tile["side"] + tile["owner"])[:inner]
                text.append(mark.ljust(inner), palette.style(tile["side"]))
                text.append(" ")
            else:
                text.append(" " * cell)
    return text


def _group(text, camels, inner):
    """Camels (lower first; no more than ``inner``) in ``inner`` columns, each its
    capital letter on its colour, a space between them and ``<`` before a crazy
    camel's when there is room."""
    def token(camel, marks):
        return ("<" if marks and camel["crazy"] else "") + colour_letter(camel["colour"])

    for marks, gap in ((True, " "), (False, " "), (False, "")):
        tokens = [token(c, marks) for c in camels]
        # a gap inside a stack only with room to spare: a stack filling its space
        # edge to edge (W K at 80 columns) reads as two spaces' camels (tester s33)
        if len(gap.join(tokens)) < inner or not gap and len(gap.join(tokens)) <= inner \
                or len(tokens) == 1 and len(tokens[0]) <= inner:
            break
    used = len(gap.join(tokens))
    left = (inner - used) // 2
    text.append(" " * left)
    for i, (camel, tok) in enumerate(zip(camels, tokens, strict=True)):
        if i:
            text.append(gap)
        text.append(tok, palette.style(camel["colour"]))
    text.append(" " * (inner - used - left))


def dice_text(view):
    """``Can still come out: [blu] [gre] [gry] (one stays inside)`` (RULES 5); the verb
    agrees with the dice (German ``Kann`` one die or none, ``Können`` several), as the
    plain mode's line."""
    inside = view["dice_inside"]
    text = Text(ngettext("Can still come out:", "Can still come out:", len(inside) or 1))
    for die in inside:
        text.append(" ")
        text.append_text(badge(die))
    if not inside:
        text.append(_(" none"))
    elif view["dice_left_inside"]:
        text.append(_(" (one stays inside)"))
    return text


def leaders_text(view):
    """The line under the announcement: race, leg and the first two racing camels
    (RULES 5); while no die of the leg has come out yet, it first says which leg the
    last die ended (``Leg 1 ended.``), so the die announced above is not read as the
    new leg's."""
    r = view["ranking"]
    if not view["leg"]:
        if view.get("dice_typed"):  # no pyramid reports the dice (--pyramid manual)
            return Text(_("Race %d: setup (type each camel's die, or the stacks, or 'draw')")
                        % view["race"])
        return Text(_("Race %d: setup (release each camel's die, type the stacks, or 'draw')")
                    % view["race"])
    text = Text()
    ended = view.get("leg_scored")
    if (ended is not None and ended["leg"] == view["leg"] - 1
            and len(view["dice_inside"]) == len(get_edition(view["edition"]).dice)):
        # no die of this leg yet: the die announced above ended the leg before
        text.append(_("Leg %d ended. ") % ended["leg"], "bold")
    text.append(_("Race %(race)d, leg %(leg)d. ") % {"race": view["race"], "leg": view["leg"]},
                "bold")
    if len(r) >= 2:
        text.append(_("Leading: 1st "))
        text.append(colour_word(r[0]), "bold")
        text.append(_(", 2nd "))
        text.append(colour_word(r[1]), "bold")
    return text


def _ticket(colour, value):
    return badge(colour, "%s%d" % (colour_letter(colour), value))


def ticket_legend(edition):
    """The help's lines that read the screen's letters for ``edition`` (an ``Edition``
    or its name): ``R5`` is the red leg ticket 5, and a tall stack on a short screen
    draws each camel as its letter (``BGY``, ``<K`` a crazy camel), the letters of the
    table's language (``colour_letters``), each with the colour's word
    (``B blau, G grün, E gelb, R rot, L lila, S schwarz, W weiß``). Lines in the help's
    columns."""
    ed = get_edition(edition)
    codes = " ".join("%s5" % colour_letter(c) for c in ed.racing)
    letters = ", ".join("%s %s" % (colour_letter(c), colour_word(c)) for c in ed.camels)
    first = "  %-19s%s" % (codes, _("a leg ticket on the screen: its colour's letter, then "
                                     "its value; a tall stack on a short screen: each "
                                     "camel's letter, bottom first"))
    return first + "\n" + " " * 21 + "(%s)" % letters


def cut(text, width):
    """``text`` in at most ``width`` screen columns (Rich's ``cell_len``: a wide
    character such as 山 takes 2, a combining mark none): a longer one ends in ``…``
    (one column), cut between characters, never inside a wide one."""
    if cell_len(text) <= width:
        return text
    return (chop_cells(text, width - 1)[0] if width > 1 else "") + "…"


def pad(text, width):
    """``text`` with spaces after it to ``width`` screen columns (``cell_len``), as
    ``"%-*s"`` pads by characters; a wider ``text`` as it is."""
    return text + " " * max(0, width - cell_len(text))


def _names_in(names, width):
    """The narrowest width (screen columns), from ``width`` up, at which the names
    shortened by ``cut`` are still told apart."""
    longest = max(cell_len(n) for n in names)
    while width < longest and len({cut(n, width) for n in names}) < len(names):
        width += 1
    return min(width, longest)


#: The players table's column sets, widest first: (first heading, the headings and
#: least widths of coins / pyramid tickets / finish cards / leg now); each heading as
#: ``players_heading`` puts it in the table's language, its column as wide as it is
#: (coins at least 3 in the wider forms; in the narrowest at least 2, the most coins a
#: race reaches: German ``EP`` gives the names the column its whole word for the
#: tickets, ``Wette``, takes).
#: Marks a value of the players' ``now`` column that leaves coins forgiven (RULES 1.9);
#: the line under the table says how many.
FORGIVEN_MARK = "*"

_PLAYER_FORMS = (
    ("player", (("coins", 3), ("pyr", 3), ("cards", 5), ("now", 3))),
    ("name", (("coins", 3), ("pyr", 3), ("cards", 5), ("now", 3))),
    ("name", (("coin", 2), ("pyr", 3), ("card", 4), ("now", 3))),
)


def players_heading(key):
    """The players table's heading ``key`` (a key of ``_PLAYER_FORMS``, ``"tickets"``
    or ``"tix"``) in the table's language: short words, as the columns are narrow."""
    return {
        "player": pgettext("players column", "player"),
        "name": pgettext("players column", "name"),
        "coins": pgettext("players column", "coins"),
        "coin": pgettext("players column", "coin"),
        "pyr": pgettext("players column", "pyr"),
        "cards": pgettext("players column", "cards"),
        "card": pgettext("players column", "card"),
        "now": pgettext("players column", "now"),
        "tickets": pgettext("players column", "tickets"),
        "tix": pgettext("players column", "tix"),
    }[key]


def _player_form(form):
    """``form`` of ``_PLAYER_FORMS`` with its headings in the table's language, each
    column at least as wide as its heading: ``(first, ((key, heading, width), ...))``."""
    first, columns = form
    return players_heading(first), tuple(
        (key, players_heading(key), max(w, len(players_heading(key)))) for key, w in columns)


def players_text(view, width=80, compact=False):
    """The players as a table, in seat order, one row each (never wrapped): ``▶``
    for the player to act, name, coins, pyramid tickets, finish cards still in hand,
    what leg scoring would pay now (``now``: ``-3*`` when the zero floor would forgive
    coins, RULES 1.9, a line under the table saying how many, ``* coins forgiven: Ann
    1``), then the partner (``&Dee``, second
    edition, 6-8 players) and the leg tickets held (``G5``: the green 5, on green).
    ``width``: screen columns available (a name measured in columns, as ``cut``
    measures it). The widest column set whose headings, full names and the longest
    row of leg tickets fit is used (in a narrow panel the first column is headed
    ``name``, then ``coin``/``card``: a third ticket at 80 columns takes the narrowest);
    if none fits, names are cut with ``…`` (never to the same text) as far as the
    longest row of tickets needs, and the tickets column keeps at least 4 characters
    (fewer only when the names need them to be told apart). Tickets are never lost
    from view: what does
    not fit a player's row goes on lines of its own under it, indented under the
    name (the row's tickets column then ends in ``…`` when nothing of it fits); when
    partners would crowd the rows, the partnerships are a line under the table
    (``& Ann+Dee Ben+Flo``) instead. A bot's row ends in ``(bot)``; when any bot's
    mark would not fit on its row (a line of its own read as one more seat), no row
    carries one and the bots are named once on a line under the table, as in the
    compact form (tester s34-3). ``compact``: the form for a screen too short
    for the whole table (``camelhost.ui.plan``): the narrowest column set, names cut
    (``…``, never to the same text) as far as the longest row of tickets needs to
    stay on its row, the partnerships' line with names cut so that it takes one
    line, and the bots named once on a line under it (``(bot) Cy Dee``, names cut to
    keep it one line) in place of a ``(bot)`` line under each bot's row."""
    names = [p["name"] for p in view["players"]]
    racing = len(get_edition(view["edition"]).racing)
    room = width
    playing = view["phase"] in ("turn", "die", "ink", "value")
    now = {row["name"]: row["net"] for row in view.get("leg_now") or ()}
    # the coins the zero floor would forgive (RULES 1.9: a player who owes more than
    # they hold keeps 0), marked in the 'now' column and said under the table, as the
    # leg-scoring panel says it: a player at 0 owing 2 read '+0', as if nothing were owed
    forgiven = [(row["name"], row["forgiven"]) for row in view.get("leg_now") or ()
                if row.get("forgiven")]
    cells = {name: "%+d" % net + (FORGIVEN_MARK if any(f[0] == name for f in forgiven)
                                  else "") for name, net in now.items()}
    now_w = max([cell_len(c) for c in cells.values()] + [0])
    partners = any(p["partner"] is not None for p in view["players"])
    longest = max(cell_len(n) for n in names)

    def fixed(columns):  # the marker, the number columns, the space before tickets
        return 1 + sum(w + 1 for key, _head, w in columns if key != "now" or now) + 1

    def form_of(form):  # the 'now' column as wide as its widest value too
        first, columns = _player_form(form)
        return first, tuple((key, head, max(w, now_w) if key == "now" else w)
                            for key, head, w in columns)

    # the longest row of leg tickets (``G5 B5 O5``): a form that leaves it less room
    # spilt a third ticket onto a line of its own under the row, read as one more seat
    # (tester finding, s36: three tickets at 80x24)
    widest = max(len(" ".join(["X0"] * len(p["leg_tickets"]))) for p in view["players"])
    for i, form in enumerate(_PLAYER_FORMS):
        first, columns = form_of(form)
        last = _("&partner tickets") if partners and i == 0 else players_heading("tickets")
        name_w = max(longest, len(first))
        if fixed(columns) + name_w + max(len(last), widest) <= room:
            break
    else:  # nothing fits whole: names cut (never alike) so that the longest row of
        # tickets stays on its row, at least "tix" (whole) for the tickets
        last = players_heading("tix")
        name_w = max(len(first), _names_in(
            names, max(4, room - fixed(columns) - max(4, len(last), widest))))
        name_w = min(name_w, max(len(first), room - fixed(columns) - 1))
    if compact:  # names give the tickets their room (``…``), never cut alike
        first, columns = form_of(_PLAYER_FORMS[-1])
        last = players_heading("tix")
        name_w = max(len(first), min(longest, _names_in(
            names, max(4, room - fixed(columns) - max(widest, len(last))))))
    tickets_w = max(1, room - fixed(columns) - name_w)
    last = last[:tickets_w]
    # partners that crowd the tickets off the rows are said once, under the table
    partners_below = partners and any(
        len(" ".join(["&" + p["partner"]] + ["X0"] * len(p["leg_tickets"]))) > tickets_w
        for p in view["players"] if p["partner"] is not None)

    def pieces_of(p):  # (text, style) for the tickets column, the bot's mark not yet
        pieces = []
        if p["partner"] is not None and not partners_below:
            pieces.append(("&%s" % p["partner"], "italic"))
        for t in p["leg_tickets"]:
            pieces.append(("%s%d" % (colour_letter(t["colour"]), t["value"]),
                           palette.style(t["colour"])))
        return pieces or [("-", "dim")]

    # a bot's mark that would not fit on its row (a line of its own, read as a seat:
    # tester s34-3): the bots are named once, on a line under the table, as compact
    mark = (_("(bot)"), "dim")
    bots_below = compact or any(
        len(_wrap(pieces_of(p) + [mark], tickets_w, room - 3)) > 1
        for p in view["players"] if p.get("bot"))
    text = Text()
    heading = " %-*s" % (name_w, first)
    for key, head, w in columns:
        if key != "now" or now:
            heading += " %*s" % (w, head)
    text.append(heading + " " + last + "\n", "bold")
    for p in view["players"]:
        mine = playing and p["name"] == view["turn"]
        text.append("▶" if mine else " ", "bold")
        text.append(pad(cut(p["name"], name_w), name_w),
                    "bold reverse" if mine else "bold")
        values = {"coins": p["coins"], "coin": p["coins"],
                  "pyr": p["pyramid_tickets"] or "-",
                  "cards": racing - p["finish_cards_played"],
                  "card": racing - p["finish_cards_played"],
                  "now": cells.get(p["name"], "+0")}
        for key, _head, w in columns:
            if key != "now" or now:
                text.append(" %*s" % (w, values[key]))
        text.append(" ")
        pieces = pieces_of(p)  # (text, style): wrapped in the tickets column
        if p.get("bot") and not bots_below:
            pieces.append(mark)
        lines = _wrap(pieces, tickets_w, room - 3)
        text.append_text(lines[0])
        for more in lines[1:]:  # a line of their own, under the name
            text.append("\n   ")
            text.append_text(more)
        text.append("\n")
    if partners_below:  # the partnerships once each, under the table
        pairs = []
        for p in view["players"]:
            if p["partner"] is not None and (p["partner"], p["name"]) not in pairs:
                pairs.append((p["name"], p["partner"]))
        cut_w = _pairs_width(pairs, room - 1) if compact else None

        def spare(cut_w, glued):  # columns left on the line, the pairs cut to cut_w
            return room - 1 - (0 if glued else 1) - sum(
                1 + cell_len(cut(a, cut_w or cell_len(a))) + 1
                + cell_len(cut(b, cut_w or cell_len(b)))
                for a, b in pairs)

        # four pairs of names cut to 3 (``& Öm…+Zo… ...``) took a column too many at 80:
        # the ``&`` then stands against the first pair (``&Öm…+Zo…``), one line
        glued = compact and spare(cut_w, False) < 0 and spare(cut_w, True) >= 0
        flat = [n for pair in pairs for n in pair]
        shown = _whole_where_it_fits(flat, cut_w, spare(cut_w, glued))
        pieces = [("%s+%s" % (shown[2 * i], shown[2 * i + 1]), "italic")
                  for i in range(len(pairs))]
        if glued:
            pieces[0] = ("&" + pieces[0][0], "italic")
        else:
            pieces.insert(0, ("&", "italic"))
        for i, line in enumerate(_wrap(pieces, room - 1, room - 3)):
            text.append("   " if i else " ")
            text.append_text(line)
            text.append("\n")
    if forgiven:  # what the marked 'now' values leave out: the coins forgiven
        pieces = [(_("%s coins forgiven:") % FORGIVEN_MARK, "dim")] + [
            ("%s %d%s" % (cut(name, max(4, room - 8)), count,
                          "," if i < len(forgiven) - 1 else ""), "dim")
            for i, (name, count) in enumerate(forgiven)]
        for i, line in enumerate(_wrap(pieces, room - 1, room - 3)):
            text.append("   " if i else " ")
            text.append_text(line)
            text.append("\n")
    bots = [p["name"] for p in view["players"] if p.get("bot")]
    if bots_below and bots:  # the bots once, on a line under the table, not a line each
        label = mark[0]
        cut_w = _list_width(bots, room - 1 - len(label))
        shown = _whole_where_it_fits(bots, cut_w, room - 1 - len(label) - sum(
            1 + cell_len(cut(n, cut_w or cell_len(n))) for n in bots))
        pieces = [(label, "dim")] + [(n, "dim") for n in shown]
        humans = [p["name"] for p in view["players"] if not p.get("bot")]
        if humans and cell_len(" ".join([label] + shown)) > room - 1:
            # even cut, the bots' names would wrap, one left alone on a row under the
            # table, read as one more seat (tester s36tp finding 2, the race-over
            # panel beside it): the players who are not bots, named instead
            rest = _("all but %s") % name_list(humans)
            if cell_len(label) + 1 + cell_len(rest) <= room - 1:
                pieces = [(label, "dim"), (rest, "dim")]
        for i, line in enumerate(_wrap(pieces, room - 1, room - 3)):
            text.append("   " if i else " ")
            text.append_text(line)
            text.append("\n")
    text.rstrip()
    return text


def _whole_where_it_fits(names, cut_w, spare):
    """``names`` cut to ``cut_w`` (``cut``; ``None``: whole), but a name one character
    longer than that whole, from the first on, while ``spare`` columns last: ``Anna``
    cut to ``An…`` saved one column and lost two letters (tester s34-2)."""
    shown = []
    for n in names:
        if cut_w is not None and cell_len(n) == cut_w + 1 and spare >= 1:
            shown.append(n)
            spare -= 1
        else:
            shown.append(cut(n, cut_w or cell_len(n)))
    return shown


def _pairs_width(pairs, width):
    """The widest cut (``cut``, at least 3 characters a name) of the partners' names
    that puts every pair (``Ann+Dee``) on one line of ``width`` characters after the
    ``&`` with names still told apart; ``None`` when they fit whole."""
    names = [n for pair in pairs for n in pair]
    longest = max(cell_len(n) for n in names)
    for w in range(longest, 2, -1):
        line = 1 + sum(1 + cell_len(cut(a, w)) + 1 + cell_len(cut(b, w)) for a, b in pairs)
        if line <= width and len({cut(n, w) for n in names}) == len(names):
            return None if w == longest else w
    return 3


def _list_width(names, width):
    """The widest cut (``cut``, at least 3 characters a name) that puts ``names``, each
    after a space, in ``width`` characters with names still told apart; ``None`` when
    they fit whole."""
    longest = max(cell_len(n) for n in names)
    for w in range(longest, 2, -1):
        if (sum(1 + cell_len(cut(n, w)) for n in names) <= width
                and len({cut(n, w) for n in names}) == len(names)):
            return None if w == longest else w
    return 3


def _wrap(pieces, first, width):
    """``pieces`` (text, style) joined by spaces in lines (``Text``): the first at
    most ``first`` characters (``…`` when not even the first piece fits there), the
    others at most ``width``, a new line where the next piece would not fit; a piece
    longer than a whole line is cut with ``…``."""
    lines = [Text()]
    used = 0
    for piece, style in pieces:
        room = first if len(lines) == 1 else width
        if len(lines) == 1 and not used and cell_len(piece) > first:
            lines[0].append("…"[:first])
            lines.append(Text())
            room = width
        if cell_len(piece) > width:
            piece = cut(piece, width)
        if used and used + 1 + cell_len(piece) > room:
            lines.append(Text())
            used = 0
        if used:
            lines[-1].append(" ")
            used += 1
        lines[-1].append(piece, style)
        used += cell_len(piece)
    return lines


def info_text(view, width=None, waiting=True):
    """The public counts under the odds and players: dice that can still come out,
    pyramid tickets left (and whose waits for its die, or its value: ``waiting_words``),
    finish-pile sizes (never their colours). With ``width`` (columns), a phrase that would not fit on the line
    starts the next one, so no count is parted from its word (``loser 0`` / ``cards``).
    ``waiting``: say whose pyramid ticket waits for its die (``False``: the count
    alone, for a screen too short for it: the prompt line says whose die is asked
    for, ``camelhost.ui.plan``)."""
    if not view["leg"]:
        if view.get("setup_rolls"):
            return Text(_("Placed so far: ") + placed_words(view))
        return Text("")
    over = view["phase"] in ("over", "unscored")
    phrases = []
    if not over:
        phrases.append(dice_text(view) + Text("."))
    piles = view["piles"]
    phrases.append(Text(_("Pyramid tickets left: %(left)d%(waiting)s") % {
        "left": view["pyramid_tickets_left"],
        "waiting": waiting_words(view, short=True) if waiting else ""} + "."))
    phrases.append(Text(_("Finish piles%(hidden)s: winner %(winner)s, loser %(loser)s") % {
        "hidden": "" if over else _(" (hidden)"),
        "winner": ngettext("%d card", "%d cards", piles["winner"]) % piles["winner"],
        "loser": ngettext("%d card", "%d cards", piles["loser"]) % piles["loser"]}))
    text = Text()
    used = 0
    for i, phrase in enumerate(phrases):
        if i and width and used + 1 + phrase.cell_len > width:
            text.append("\n")
            used = 0
        elif i:
            text.append(" ")
            used += 1
        text.append_text(phrase)
        used += phrase.cell_len
    return text


def leg_score_text(leg, hint=True, width=None):
    """The leg-scoring panel of ``leg`` (the view's ``leg_scored``): the leg's first
    two camels, then per player the coins before -> after (net; with the coins the zero
    floor forgave, ``3 ->  0 (-4, 1 coin forgiven)``, RULES 1.9), and each ticket with
    what it paid (RULES 1.10, 3.8). ``hint``: say that Esc goes back to the odds, on
    the first line when it fits in ``width`` columns (``None``: it does), else last.
    ``width``: the panel's columns, if known (``None``: not wrapped): a player's row
    longer than that goes on between tickets, never inside one, on lines indented by
    ``LEG_INDENT`` (so they never read as another player's row)."""
    r = leg["ranking"]
    text = Text()
    text.append(_("LEG %d SCORED") % leg["leg"], "bold reverse")
    text.append(_(" 1st %(first)s, 2nd %(second)s") % {
        "first": colour_word(r[0]), "second": colour_word(r[1]) if len(r) > 1 else "-"})
    late = hint and width is not None and len(text) + len("  (Esc: odds)") > width
    text.append(_("  (Esc: odds)\n") if hint and not late else "\n", "dim")
    names = [row["name"] for row in leg["players"]]
    name_w = max(cell_len(n) for n in names)
    if width is not None and name_w + LEG_HEAD > width:
        # a long name cut (``…``, never to another's text), as the ranking cuts it: a
        # row padded to a 55-character name wrapped inside it (tester s34-2)
        # to the next longest name (8 at least): the other rows keep their room
        others = sorted(cell_len(n) for n in names)[-2] if len(names) > 1 else 8
        name_w = max(4, _names_in(names, max(4, min(width - LEG_HEAD, max(others, 8)))))
    for row in leg["players"]:
        head = Text()
        head.append(pad(cut(row["name"], name_w), name_w) + " ", "bold")
        head.append("%2d -> %2d (%+d" % (row["before"], row["after"], row["net"]))
        lost = row["after"] - (row["before"] + row["net"])
        if lost > 0:  # the zero floor forgave what could not be paid (RULES 1.9)
            head.append(", " + ngettext("%d coin forgiven", "%d coins forgiven", lost) % lost)
        head.append("):")
        items = []  # each a list of (text, style): a line breaks only between them
        if not row["items"]:
            items.append([(_(" no tickets").strip(), "dim")])
        pyramids = [it for it in row["items"] if it["kind"] == "pyramid"]
        for it in row["items"]:
            if it["kind"] == "pyramid":
                if it is not pyramids[0]:
                    continue  # the pyramid tickets are told once, counted (a row fits)
                it = {"kind": "pyramid", "reward": sum(p["reward"] for p in pyramids)}
            if it["kind"] == "leg":
                t = _ticket(it["colour"], it["value"])
                pieces = [(t.plain, t.style)]
            elif it["kind"] == "pyramid":
                pieces = [(_("pyramid") if len(pyramids) == 1 else _("%d pyramid") % len(pyramids),
                           "")]
            else:
                pieces = [(_("copy of %s") % it["from"], "")]
            pieces.append((" %+d" % it["reward"], "bold" if it["reward"] > 0 else ""))
            items.append(pieces)
        _hang(text, head, items, width, LEG_INDENT)
    text.rstrip()
    if late:
        text.append(_("\n(Esc: back to the odds)"), "dim")
    return text


#: Columns a leg-scoring row goes on by when it is longer than the panel.
LEG_INDENT = 4
#: Columns of a leg-scoring row's head after the name (`` 4 ->  5 (+1):``).
LEG_HEAD = 16


def _hang(text, lead, items, width, indent):
    """``lead`` then ``items`` (each a list of (text, style) pieces) a space apart,
    wrapped between items (never inside one) to ``width`` columns (``None``: one
    line), the lines after the first indented by ``indent``; then a new line."""
    text.append_text(lead)
    used = lead.cell_len
    for pieces in items:
        size = sum(cell_len(t) for t, _ in pieces)
        if width is not None and used > indent and used + 1 + size > width:
            text.append("\n" + " " * indent)
            used = indent
        else:
            text.append(" ")
            used += 1
        for piece, style in pieces:
            text.append(piece, style)
        used += size
    text.append("\n")


def _places(coins):
    """Each total's place, a tie sharing it (RULES 1.13: equal highest totals share the
    victory): ``[16, 9, 9, 7]`` -> ``[1, 2, 2, 4]``."""
    return [1 + sum(1 for c in coins if c > mine) for mine in coins]


def _card_pieces(card, order, name_w=None):
    """One revealed finish card as (text, style) pieces: ``3.Ann pur -1``, what it paid
    bold when it was correct; ``name_w``: the player's name cut to it (``cut``), as the
    ranking cuts it (``None``: whole)."""
    name = card["name"] if name_w is None else cut(card["name"], name_w)
    return [("%d.%s " % (order, name), ""),
            (palette.label(card["colour"], colour_word(card["colour"])),
             palette.style(card["colour"])),
            (" %+d" % card["reward"], "bold" if card["correct"] else "")]


def _flow(text, lead, items, width, indent=2):
    """``lead`` then ``items`` (each a list of (text, style) pieces) two spaces apart,
    wrapped between items (never inside one) to ``width`` columns (``None``: one line),
    the rows after the first indented by ``indent``."""
    text.append_text(lead)
    used = lead.cell_len
    for i, pieces in enumerate(items):
        size = sum(cell_len(t) for t, _ in pieces)
        gap = 1 if i == 0 else 2
        if width is not None and i and used + gap + size > width:
            text.append("\n" + " " * indent)
            used, gap = indent, 0
        text.append(" " * gap)
        for piece, style in pieces:
            text.append(piece, style)
        used += gap + size
    text.append("\n")


def race_over_text(view, width=None, last_leg=True):
    """The race-over panel (the view's ``final``), what matters most first, so a small
    screen shows it without scrolling (RULES 1.13, 5):

    * ``RACE n OVER``, the overall winner and loser (each on its line), the final order
      of the racing camels, the player(s) who won;
    * the final ranking, one row a player, most coins first (a tie shares its place):
      place, name, coins, what their finish cards paid and what the last leg paid;
    * each finish pile revealed in play order, a few cards a row (``3.Ann pur -1``: the
      third card, Ann's purple, wrong: -1);
    * the scoring of the last leg, ticket by ticket.

    ``width``: the panel's columns, if known (``None``: not wrapped): the piles then
    wrap between cards, and names too long for the ranking are cut with ``…``.
    ``last_leg``: ``False`` leaves the last leg's ticket-by-ticket scoring out (what is
    left is the result itself, which a screen keeps in view first)."""
    final = view["final"]
    text = Text()
    head = _("RACE %d OVER") % view["race"]
    text.append(head, "bold reverse")
    winner, loser = _("overall winner"), _("overall loser")
    label_w = max(len(winner), len(loser))  # the two camels one under the other
    text.append("  %s " % winner.ljust(label_w))
    text.append_text(badge(final["winner"], " %s " % colour_word(final["winner"]).upper()))
    text.append("\n" + " " * len(head) + "  %s " % loser.ljust(label_w))
    text.append_text(badge(final["loser"], " %s " % colour_word(final["loser"]).upper()))
    text.append(_("\nFinal order:"))
    for i, c in enumerate(view["ranking"], 1):
        text.append(" %d." % i)
        text.append_text(badge(c))
    text.append("\n")
    winners = final["winners"]
    text.append(ngettext("WINNER: %(winners)s", "WINNERS: %(winners)s", len(winners)) % {
        "winners": name_list(winners)}, "bold reverse")
    text.append(_("  ('again': another race)\n"))
    # the ranking: coins, and where the last of them came from
    cards = {}
    for pile in ("winner", "loser"):
        for c in final["piles"][pile]:
            cards.setdefault(c["name"], []).append(c["reward"])
    leg = {row["name"]: row["net"] for row in (view.get("leg_scored") or {}).get("players", ())}
    rows = final["standings"]
    columns = [(pgettext("ranking column", "coins"), 5),
               (pgettext("ranking column", "finish cards"), 12)]
    if leg:
        columns.append((pgettext("ranking column", "last leg"), 8))
    columns = [(h, max(w, len(h))) for h, w in columns]  # a heading fits its column
    fixed = sum(w + 2 for _h, w in columns)
    names = [row["name"] for row in rows]
    name_w = max(cell_len(n) for n in names)
    if width is not None and 4 + name_w + fixed > width:
        name_w = max(4, _names_in(names, width - fixed - 4))
    first = _("Final ranking")
    lead = max(len(first), 4 + name_w)
    text.append(first.ljust(lead) + "".join("  %*s" % (w, h) for h, w in columns) + "\n",
                "bold")
    for place, row in zip(_places([r["coins"] for r in rows]), rows, strict=True):
        paid = cards.get(row["name"])
        values = ["%d" % row["coins"], "%+d" % sum(paid) if paid else _("none")]
        if leg:
            values.append("%+d" % leg.get(row["name"], 0))
        line = pad("%2d. %s" % (place, cut(row["name"], name_w)), lead)
        line += "".join("  %*s" % (w, v) for (_h, w), v in zip(columns, values, strict=True))
        text.append(line + "\n", "bold" if row["name"] in winners else "")
    for pile in ("winner", "loser"):
        lead = Text(_("%s pile:") % pile_word(pile).capitalize(), "bold")
        pile_cards = final["piles"][pile]
        if not pile_cards:
            text.append_text(lead)
            text.append(_(" empty\n"))
            continue
        # names cut as the ranking's (a 55-character name wrapped inside its card, and
        # left the pile's first card alone on its line: tester s34-2)
        _flow(text, lead, [_card_pieces(c, i, name_w if width is not None else None)
                           for i, c in enumerate(pile_cards, 1)], width)
    if last_leg and view.get("leg_scored") is not None:
        text.append_text(leg_score_text(view["leg_scored"], hint=False, width=width))
    text.rstrip()
    return text


def tile_names(view):
    """The edition's words for the forward and backward tile side, in the table's
    language (``camelhost.table.view.side_word``: RULES 1.5, 3.6)."""
    ed = get_edition(view["edition"])
    return side_word(ed, "+"), side_word(ed, "-")
