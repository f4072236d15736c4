"""The odds panel of the full screen: computed off the UI thread, laid out as text.

The figures are the view model's (``camelhost.table.view.odds_view``: exact leg
odds, seeded race simulation, the value of every public action of the player to
act). ``snapshot(session)`` copies what that computation reads, so a worker thread
can run ``compute(snap)`` while the table goes on changing the real game.
``odds_lines(odds, view, width)`` lays the result out: one row per racing camel
(leg 1st / 2nd / last, overall winner / loser with their 95 % interval, the value
of its top leg ticket, the leg tickets left), then the coach's first actions, the list
plain mode's ``best`` and the web page read, in its order with its numbers. A finish card
is advised as if the player still held every colour (advice that left out the colours a
player already played would reveal them), and by its pile only: the table reads the
screen, and which colour a player lays is private (RULES 1.8, 5).
"""

import re
import textwrap

from camelup.editions import get_edition
from rich.cells import cell_len, chop_cells
from rich.text import Text

from camelhost.i18n import _, colour_word, percent
from camelhost.table.display import snapshot  # noqa: F401  (part of this module's API)
from camelhost.table.narration import BEST_SHOWN, lead_words, now_note
from camelhost.table.view import odds_view, side_word, signed
from camelhost.ui import palette
from camelhost.ui.panels import FORGIVEN_MARK, players_heading

#: Widest odds panel laid out in the narrow form (80-column terminals).
NARROW = 56
#: Lines of advice in the narrow form: as many of the coach's best actions as fit
#: (one at least), so the history keeps its room at 80x24.
NARROW_ADVICE_LINES = 2
#: Actions of the advice in the wide form: the first of the coach's list, as many as
#: plain mode's ``best`` says (the list the web page reads too); the narrow form shows
#: the first of these that fit its lines (tester s32-2, finding 4). Four keep the wide
#: panel within a 120x24 terminal's room.
WIDE_ADVICE = BEST_SHOWN
#: Most lines of the narrow form's note on its numbers (``narrow_note``), when it shows.
NARROW_NOTE_LINES = 2


def compute(snap):
    """The view model's ``odds`` entry for a ``snapshot`` (``None``: no odds now)."""
    return odds_view(snap)


def _pct(p):
    return "%3.0f" % (100 * p)


def interval_text(p, hw):
    """A race chance in the odds panel's five columns: ``p`` (0-1) with ``hw``, the
    half-width of its 95 % interval (0-1; 0: exact). ``23±2`` (percent, the half-width
    at least 1 and at most 9 when simulated), `` 23`` when exact; an interval that
    would pass an end of the scale shows the end it reaches instead, `` ≥99`` or
    ``  ≤1`` (never ``100±1``: a chance stays within 0-100 %)."""
    if hw <= 0:
        return "%3.0f  " % (100 * p)
    centre, half = round(100 * p), min(9, max(1, round(100 * hw)))
    if centre + half > 100:
        return "%4s " % ("≥%d" % (centre - half))
    if centre - half < 0:
        return "%4s " % ("≤%d" % (centre + half))
    return "%3d±%-1d" % (centre, half)






def best_actions(odds, view, count=WIDE_ADVICE):
    """``{"leg": {colour: ev}, "shown": [(kind, words, entry), ...]}`` from the odds'
    action values: every colour's leg ticket value, and the first ``count`` actions of
    the advice (``None``: every one) in the coach's order, best first: the same list
    plain mode's ``best`` and the web page read (``camelhost.table.narration``), of which
    the narrow form shows the first that fit. ``words``: the colour for a leg ticket,
    ``(space, side)`` for a tile, the pile (``"winner"`` / ``"loser"``, never a colour)
    for a finish card, the partner's name; ``entry``: the view's action entry (``ev``,
    ``score``, ``win``, a finish card's ``hold``: ``camelhost.table.view``)."""
    out = {"leg": {}, "shown": []}
    actions = odds.get("actions") or {"values": []}
    for av in actions["values"]:
        if av["kind"] == "leg":
            out["leg"][av["action"].split()[1]] = av["ev"]
    values = actions["values"] if count is None else actions["values"][:count]
    for av in values:
        kind = av["kind"]
        if kind == "leg":
            words = av["action"].split()[1]
        elif kind == "tile":
            _, space, side = av["action"].split()
            words = (int(space), side)
        elif kind == "finish":
            words = av["pile"]
        elif kind == "partner":
            words = view["players"][int(av["action"].split()[1])]["name"]
        else:
            words = None
        out["shown"].append((kind, words, av))
    return out


def odds_heading(wide):
    """The odds panel's heading row in the table's language (no newline): its wide form
    (``wide``, ``NARROW`` columns or more) or its tighter one, where "left" counts the
    leg tickets left. Its last seven words head the seven columns (``panel_legend``)."""
    if wide:
        return _("Leg odds 1st 2nd last   win±  lose±  ticket  left\n").rstrip("\n")
    return _("Leg odds 1st 2nd last win± lose±   ticket left\n").rstrip("\n")


def panel_legend():
    """The help's lines (``F1``) that read the odds panel's columns and the players
    table's, each headed by the column's own word as the 80-column screen shows it
    (``odds_heading``'s tighter form, ``panels.players_heading``), in the help's columns
    (the words from column 3, their meaning from column 22, as ``panels.ticket_legend``).
    What the numbers are: RULES 1.6 (leg tickets), 1.9 (the zero floor), docs/odds.md."""
    first, second, last, win, lose, ticket, left = odds_heading(False).split()[-7:]
    rows = (
        ("%s %s %s" % (first, second, last),
         _("each racing camel's chance (%) to be first, second or last when this leg "
           "ends, worked out exactly")),
        ("%s %s" % (win, lose),
         _("its chance (%%) to win or to lose the whole race, ± the %s interval of the "
           "simulation that works it out") % percent(0.95)),
        (ticket, _("its top leg ticket and what it is worth, in coins, to the player to "
                   "act (none: no leg ticket of that colour left)")),
        (left, _("how many of its leg tickets are left (their values on a wider screen)")),
        ("%s %s %s" % (players_heading("coin"), players_heading("pyr"),
                       players_heading("card")),
         _("each player's coins, pyramid tickets and finish cards still in hand")),
        (players_heading("now"),
         _("what this leg's scoring would pay the player if the leg ended now (%s: "
           "coins the zero floor would forgive)") % FORGIVEN_MARK),
    )
    return "\n".join([_("The odds panel's and the players table's columns:")]
                     + ["  %-19s%s" % row for row in rows])


def odds_lines(odds, view, width=80, tile_names=None, waiting=False, noted=False,
               split=True):
    """The odds panel as a Rich ``Text``: one row per racing camel (best leg odds
    first), then the best actions for the player to act.

    ``odds``: the view model's ``odds`` entry (``None``: none now, or still being
    worked out when ``waiting``); ``view``: the view model (names, leg tickets, phase);
    ``width``: characters available (below ``NARROW``, 46 is enough: tighter columns,
    how many leg tickets are left instead of their values, no notes); ``tile_names``: the edition's words
    for the forward and backward side (default: the view's edition's, in the table's language).
    ``noted``: in the narrow form, a line under the advice says what its numbers are
    (``narrow_note``: a negative overall value is no loss of coins) instead of the short
    label at its end, a line more (the screen asks for it when it has the row to spare:
    ``camelhost.ui.plan``). ``split``: in the narrow form, a second action that fits no
    row beside the first with the label (noted: alone) stands on two rows of its own
    (its words, then its figures and the label), a row more, where ``False`` leaves it
    out (the screen takes that form when it has no row to spare: ``plan``'s
    ``odds_single``)."""
    if tile_names is None:
        edition = get_edition(view["edition"])
        tile_names = (side_word(edition, "+"), side_word(edition, "-"))
    # Laid out for ``width`` here, the "Best for" sentence wrapped at its words: the
    # screen draws it unwrapped (``text-wrap: nowrap``), so the panel's height never
    # depends on a scrollbar taking two columns (rows wrapped under one, the panel
    # grew, the scrollbar stayed: after a resize the panel stayed broken).
    text = Text(no_wrap=True, overflow="crop")
    if odds is None:
        text.append(_("Leg odds: working them out...") if waiting else _("Odds: none now"), "italic")
        return text
    wide = width >= NARROW
    text.append(odds_heading(wide) + "\n", "bold")
    race = odds.get("race") or {}
    wins = {r["colour"]: r for r in race.get("winner", [])}
    losses = {r["colour"]: r for r in race.get("loser", [])}
    left = {t["colour"]: t for t in view["leg_tickets"]}
    best = best_actions(odds, view)
    acting = view["phase"] == "turn" and odds.get("actions") is not None
    for row in sorted(odds["leg"], key=lambda r: (-r["first"], r["colour"])):
        c = row["colour"]
        text.append(" %-6s " % colour_word(c), palette.style(c))
        w = wins.get(c, {"p": 0.0, "hw": 0.0})
        lo = losses.get(c, {"p": 0.0, "hw": 0.0})
        text.append((" %s %s  %s  %s  %s  " if wide else " %s %s  %s %s %s  ") % (
            _pct(row["first"]), _pct(row["second"]), _pct(row["last"]),
            interval_text(w["p"], w["hw"]) if wins else "   - ",
            interval_text(lo["p"], lo["hw"]) if losses else "   - "))
        ticket = left.get(c)
        if acting and c in best["leg"] and ticket and ticket["top"] is not None:
            text.append("%d %5s" % (ticket["top"], signed(best["leg"][c])))
        elif acting:
            text.append(_("none   "), "dim")
        else:
            text.append("       ")
        if wide and ticket is not None:
            text.append("  %s" % (",".join(str(v) for v in ticket["left"]) or "-"))
        elif ticket is not None:  # the values follow: the top one is under "ticket"
            text.append(" %3d" % len(ticket["left"]))
        text.append("\n")
    if wide:
        text.append(_("(%%; win/lose: the whole race, ± its %(level)s interval%(exact)s)\n") % {
            "level": percent(0.95), "exact": _(", exact") if race.get("exact") else ""}, "dim")
    if not acting:
        text.rstrip()
        return text
    head = _("Best for %s:") % odds["actions"]["player"]
    parts = []  # in the advice's order (the coach's), like plain mode's 'best'
    for kind, words, entry in best["shown"]:
        number = order_number(entry)
        if kind == "leg":
            part = _("%(colour)s leg ticket %(worth)s") % {"colour": colour_word(words),
                                                           "worth": number}
        elif kind == "pyramid":
            part = _("pyramid ticket %s") % number
        elif kind == "tile":
            space, side = words
            # a tile already down is moved: its value is what it gains over where it
            # is (RULES 1.5), so "from 4" says why it can be below zero
            mine = [p["tile"]["space"] for p in view["players"]
                    if p["name"] == odds["actions"]["player"] and p["tile"]]
            part = _("%(tile)s tile on %(space)d%(from)s %(worth)s") % {
                "tile": tile_names[0] if side == "+" else tile_names[1], "space": space,
                "from": _(" (from %d)") % mine[0] if mine and mine[0] != space else "",
                "worth": number}
        elif kind == "finish":
            # the command that plays it, its pile named, never its colour (the table
            # reads the screen, RULES 1.8): short enough for the narrow form's line
            part = (_("win (a winner card) %s") if words == "winner"
                    else _("lose (a loser card) %s")) % number
        else:
            part = _("partner %(partner)s %(worth)s") % {"partner": words, "worth": number}
        if (not wide and entry.get("win") is None and entry.get("score") is not None
                and (kind == "finish" or entry["score"] < 0 <= entry["ev"])):
            # a balance is less what the next players gain: below zero where the action
            # pays now, the narrow form says that too, or a leg ticket worth +2.22 read
            # -0.07, a loss, beside the +2.22 of its odds row (tester s36tp finding 8);
            # a finish card's always (its sure +8 read -0.56: tester s32-2, 4)
            part += " (%s)" % (_("now %s") % signed(entry["ev"]))
        # the wide form says why: the value now and a finish card's reason, which may
        # break across lines (the action and its number never do)
        parts.append((part, reason_words(kind, words, entry) if wide else "", number))

    def order_note(count):
        """The narrow form's label of its numbers (the first ``count`` actions'): the
        coach's overall value, the chance to win, or both (the end-game's best few by
        their chance, then the rest); plain mode's ``best`` says the same in full."""
        return number_label([entry for _kind, _words, entry in best["shown"][:count]])

    def words(head, parts, note=""):
        # the words of the advice as said, whatever its lines: each of ``wrapped``'s
        # lines must have them all, none broken
        return (" ".join([head, "; ".join(p + (" " + why if why else "")
                                          for p, why, _number in parts), note])).split()

    def wrapped(head, parts, note="", held=False):
        # an action and its number are never split, nor a word (``glued``); ``held``:
        # the note kept with the last action's number and its value now, the three
        # whole, free to go on the next line from the action's words, themselves whole
        # (``glued``'s ``figures``: "For Cat: green leg ticket" / "-0.60 (now +0.93)
        # (balance)")
        keep = [glued(p, number, max(20, width) - 2) + (" " + why if why else "")
                for p, why, number in parts]
        tail = " " + note.replace(" ", "\u00a0") if note else ""
        if held and parts and note:
            tail = "\u00a0" + note.replace(" ", "\u00a0")

        def wrap():
            return [line.replace("\u00a0", " ") for line in wrap_columns(
                head + " " + "; ".join(keep) + tail, width=max(20, width),
                subsequent_indent="  ", break_long_words=True, break_on_hyphens=False)]

        def parted(at, ways, good):
            # the action ``at`` parted the first of ``ways`` (``glued``'s) that lays the
            # advice out ``good`` with every word whole, its words whole on their line
            # and its number with what follows it on the next ("figures"), then only
            # its value now after its number, for a part whose words before its number
            # are one long word (a German compound: "Pyramidenplättchen -1,11" /
            # "(jetzt +2,37)": "loose"); one path for every action, the first and the
            # second alike (s45: the second was never parted "loose"); ``None`` where
            # none does, the action left as it was
            part, why, number = parts[at]
            first = keep[at]
            one_word = " " not in part[:part.rfind(number)].strip(" ")
            for how in ways if one_word else [how for how in ways if how != "loose"]:
                keep[at] = glued(part, number, 0, loose=how == "loose",
                                 figures=how == "figures") + (
                    " " + why if why else "")
                again = wrap()
                if good(again) and " ".join(again).split() == words(head, parts, note):
                    return again
            keep[at] = first
            return None

        if held and parts and note:
            # the label goes with the last action's figures, which part from its words
            # as the first action's do beside a heading (never its words parted to
            # make room for a label: tester 43 finding 1)
            lines = parted(len(parts) - 1, ("figures", "loose"),
                           lambda again: len(again) <= NARROW_ADVICE_LINES
                           and again[0] != head and again[-1].strip() != note)
            if lines is not None:
                return lines
            part, why, number = parts[-1]
            keep[-1] = glued(part, number, 0, figures=True) + (" " + why if why else "")
        lines = wrap()
        if len(lines) > 1 and lines[0] == head and parts:
            # the first action too long to stand beside the heading: its number and
            # value now go on the next line, its words whole beside the heading ("For
            # Cy: booing tile on 7" / "-0.37 (now +1.32)"); where even its words do not
            # fit there, they part (its number staying with the word before it), so the
            # heading never stands alone, looking like advice with nothing in it (tester
            # s33); where its words before its number are one long word, its value now
            # after the number may part too. Taken only where every word stays whole
            # (a number broken, "-1,1" / "1", is worse than the heading alone: s40);
            # lines more than the caller's are its to refuse (fewer actions, the label
            # left out)
            again = parted(0, ("figures", "words", "loose"), lambda again: again[0] != head)
            if again is not None:
                return again
        return lines

    def laid_out(count, note):
        # the first ``count`` actions ended by ``note`` (the label, or none): as they
        # wrap; where that takes more lines than the narrow form's, or leaves the
        # label alone on a line (a bare "(balance)", naming nothing: tester s38 finding
        # 1), the label with the last action's number and value now, the three on the
        # next line from its words where that fits the lines (``wrapped``'s ``held``):
        # the second action as the first ("Für Cy: Pyramidenplättchen" / "-0,08 (jetzt
        # +1,00) (Bilanz)")
        lines = wrapped(head, parts[:count], note)
        if note and (len(lines) > NARROW_ADVICE_LINES or lines[-1].strip() == note):
            held = wrapped(head, parts[:count], note, held=True)
            if (len(held) <= NARROW_ADVICE_LINES and held[-1].strip() != note
                    and " ".join(held).split() == words(head, parts[:count], note)):
                return held
        return lines

    def split_last(count, note):
        # the first ``count`` actions with the last of them on two rows of its own, its
        # words whole on the first, its number, value now and label on the next ("Für
        # Ben: Wettplättchen grün +1,85;" / "  Pyramidenplättchen" / "  -2,88 (jetzt
        # +1,00) (Bilanz)", ``note`` the label, or none), where the actions before it
        # take one row: one row more than the narrow form's (``NARROW_ADVICE_LINES``),
        # else ``None``
        part, why, number = parts[count - 1]
        at = part.rfind(number) if number else -1
        earlier = wrapped(head, parts[:count - 1])
        if at <= 0 or len(earlier) != NARROW_ADVICE_LINES - 1:
            return None
        rows = earlier[:-1] + [earlier[-1] + ";", "  " + part[:at].rstrip(" "),
                               "  " + " ".join(x for x in (part[at:], why, note) if x)]
        if any(cell_len(row) > max(20, width) for row in rows) or \
                " ".join(rows).split() != words(head, parts[:count], note):
            return None
        return rows

    if wide:
        # the wide form: how far the best is ahead of the next on the heading (as plain
        # mode's best says it), then one action a line, its reason wrapped under it
        lead = lead_words(odds["actions"]["values"])
        head = (_("Best for %(player)s, %(lead)s:") % {"player": odds["actions"]["player"],
                                                       "lead": lead} if lead
                else head)
        lines = [head]
        for part, why, number in parts:
            lines.extend(wrap_columns(
                "  " + glued(part, number, max(20, width) - 2) + (" " + why if why else ""),
                width=max(20, width), subsequent_indent="    ", break_long_words=True,
                break_on_hyphens=False))
        lines = [line.replace("\u00a0", " ") for line in lines]
    else:
        lines = wrapped(head, parts)
    note_line = None  # noted: what the narrow form's numbers are, a line of its own
    if not wide and parts:
        # the coach's best that fit the narrow form's lines (one at least), with the
        # label of their numbers (noted: their note under them, when it fits a line),
        # always under the short "For NAME:" (it was "Best for NAME:" where that let as
        # many actions in, so the heading changed from one turn to the next: tester
        # s37tp finding 6; the wide form says "Best for NAME, ...")
        head = _("For %s:") % odds["actions"]["player"]
        for count in range(len(parts), 0, -1):
            note = narrow_note([e for _k, _w, e in best["shown"][:count]]) if noted else ""
            alone = textwrap.wrap(note, width=max(20, width)) if note else None
            alone = alone if alone and len(alone) <= NARROW_NOTE_LINES else None
            lines = laid_out(count, "" if alone else order_note(count))
            if len(lines) <= NARROW_ADVICE_LINES or count == 1:
                break
        shown_count, note_line, fits = count, alone, len(lines) <= NARROW_ADVICE_LINES
        labelled = note_line is None and bool(order_note(shown_count))
        if labelled and (not fits or lines[-1].strip() == order_note(shown_count)):
            # the label, with its number and value now (``laid_out``), on a third line
            # (one action as long as the lines: a German finish card beside a
            # heading), or on a line of its own: it is left out, the advice's own lines
            # as they were (never an action's words parted to make room for it: "green
            # leg" / "ticket -0.60 ...", tester 43 finding 1)
            bare = wrapped(head, parts[:shown_count])
            if len(bare) <= NARROW_ADVICE_LINES:
                lines, labelled = bare, False
        if split and shown_count == 1 < len(parts):
            # the second action left out because it doesn't fit a row with the label (a
            # German "Pyramidenplättchen -2,88 (jetzt +1,00) (Bilanz)" 49 columns beside
            # the first action's row, closing 45), or noted, alone ("Plättchen
            # (Anfeuern) auf 4 -0,19 (jetzt +1,22)", 47): on two rows of its own instead,
            # under the note of both when noted
            note = narrow_note([e for _k, _w, e in best["shown"][:2]]) if noted else ""
            alone = textwrap.wrap(note, width=max(20, width)) if note else None
            alone = alone if alone and len(alone) <= NARROW_NOTE_LINES else None
            if (note_line is None) == (alone is None):
                two = split_last(2, "" if alone else order_note(2))
                if two is not None:
                    lines, shown_count, note_line = two, 2, alone
                    labelled = note_line is None and bool(order_note(2))
    else:
        shown_count = len(parts)
        labelled = False
    start = len(text)
    text.append("\n".join(lines))
    text.stylize("bold", start, start + len(head))
    if wide:
        entries = [entry for _kind, _words, entry in best["shown"]]
        for line in textwrap.wrap(numbers_note(entries), width=max(20, width)):
            text.append("\n" + line, "dim")
        # an action's "now" beside its chance to win, said as plain mode's best says it
        why_now = now_note(entries)
        if why_now:
            for line in textwrap.wrap("(%s)" % why_now, width=max(20, width)):
                text.append("\n" + line, "dim")
    if wide and any(kind == "finish" for kind, _words, _entry in best["shown"]):
        # wrapped as the note above it is: a language's words may be longer
        for line in textwrap.wrap(_("(coach's order; finish cards by pile, colours chosen "
                                    "unseen)"), width=max(20, width)):
            text.append("\n" + line, "dim")
    elif wide:
        text.append("\n" + _("(coach's order)"), "dim")
    elif note_line is not None:
        text.append("\n" + "\n".join(note_line), "dim")
    elif labelled:  # the narrow form's label, at the end of its lines
        text.stylize("dim", len(text) - len(order_note(shown_count)), len(text))
    return text


class _ColumnWrapper(textwrap.TextWrapper):
    """``textwrap.TextWrapper`` that measures in screen columns (Rich's ``cell_len``:
    a wide character such as 山 takes 2), as the full screen draws, where the standard
    one counts characters (a name of 10 wide characters, 20 columns, ran 10 columns
    past the line: tester s34 part 3). ``max_lines`` is not supported."""

    def _wrap_chunks(self, chunks):
        # textwrap's own loop (CPython 3.11), every length a cell_len
        lines = []
        chunks.reverse()
        while chunks:
            line, used = [], 0
            indent = self.subsequent_indent if lines else self.initial_indent
            width = self.width - cell_len(indent)
            if self.drop_whitespace and chunks[-1].strip() == "" and lines:
                del chunks[-1]
            while chunks and used + cell_len(chunks[-1]) <= width:
                used += cell_len(chunks[-1])
                line.append(chunks.pop())
            if chunks and cell_len(chunks[-1]) > width:
                self._handle_long_word(chunks, line, used, width)
            if self.drop_whitespace and line and line[-1].strip() == "":
                del line[-1]
            if line:
                lines.append(indent + "".join(line))
        return lines

    def _handle_long_word(self, reversed_chunks, cur_line, cur_len, width):
        room = max(1, width - cur_len)
        chunk = reversed_chunks[-1]
        if self.break_long_words:
            head = chop_cells(chunk, room)[0]
            if not head:  # a wide character wider than the room left: a line of its own
                if cur_line:
                    return
                head = chunk[0]
            cur_line.append(head)
            reversed_chunks[-1] = chunk[len(head):]
        elif not cur_line:
            cur_line.append(reversed_chunks.pop())


def wrap_columns(text, width, **options):
    """``textwrap.wrap(text, width, **options)`` with ``width`` in screen columns
    (``cell_len``) rather than characters: lines of at most ``width`` columns
    (``max_lines`` not taken; a ``width`` below 1 taken as 1)."""
    return _ColumnWrapper(width=max(1, width), **options).wrap(text)


#: a word that is a number ("6", "-0.75", "62%", "4)"; not "(from"), which ``glued`` keeps
#: with the word before it
_NUMBER = re.compile(r"\(?[+\-\u2212]?\d")


def glued(part, number, room, loose=False, figures=False):
    """``part`` (an advice action, ``number`` its number in it) with no-break spaces
    (U+00A0) where a line must not break: all of them when it fits ``room`` columns,
    else those of its words before its number and those of its number and what follows
    it, when each fits ``room`` (``figures``), else only from the word before its number
    to its end (``Gesamtverlierer) -2,61 (jetzt +2,37)``) and between any other number
    and the word before it (``on 6``), so a part longer than a line breaks between its
    words, never
    inside a word or a number nor between a word and its number (tester s34-2: a
    German finish card, longer than the 46-column panel, read ``eine W`` / ``ettkarte``
    and ``-1`` / ``,59``). A part without ``number`` is glued whole. ``loose``: the
    words after the number (the value now, ``(jetzt +2,37)``, itself whole) may part
    from it too, for a part whose words before its number are one long word
    (``Pyramidenplättchen -0,08``) with nothing else to part. ``figures``: the action's
    words before its number kept whole (``green leg ticket``), and its number with
    what follows it whole (``-0.60 (now +0.93)``), the one place the part may break
    being between the two (tester 43: ``green leg`` / ``ticket -0.60 ...`` parted the
    action's own words)."""
    whole = part.replace(" ", "\u00a0")
    at = part.rfind(number) if number else -1
    if cell_len(whole) <= room or at <= 0:
        return whole
    end = at + len(number)
    if figures or (cell_len(part[:at].rstrip(" ")) <= room and cell_len(part[at:]) <= room):
        return part[:at].rstrip(" ").replace(" ", "\u00a0") + " " + part[at:].replace(
            " ", "\u00a0")
    if loose and part[end:].strip(" "):
        return glued(part[:end], number, 0) + " " + part[end:].strip(" ").replace(
            " ", "\u00a0")
    before, after = part[:at].rstrip(" "), part[at:]
    # every number in the words before stays with the word before it too: a tile's
    # space with its "on" ("booing tile on" / "6 -0.75" read as two things: tester
    # s37tp finding 6), a "(from 4)" whole
    words = before.split(" ")
    text = words[0]
    for word in words[1:]:
        text += ("\u00a0" if _NUMBER.match(word) else " ") + word
    return text + "\u00a0" + after.replace(" ", "\u00a0")


def narrow_note(entries):
    """The narrow form's short note on what the numbers of ``entries`` (view action
    entries, in order) are, for a line of its own under them (``noted``): what the
    coach's overall value is (``numbers_note`` says it at length in the wide form), the
    chance to win, or both; a finish card's overall value is also less its value kept
    for a later leg, and the note says so when one is among them; empty when the
    numbers are the values now."""
    win = any(e.get("win") is not None for e in entries)
    score = any(e.get("win") is None and e.get("score") is not None for e in entries)
    if score and any(e["kind"] == "finish" and e.get("score") is not None for e in entries):
        return _("(balance: now less the next players' gains, and a finish card's value "
                 "kept for later)")
    if win and score:
        return _("(chance to win, then balance: now less the next players' gains)")
    if win:
        return _("(chance to win the race)")
    if score:
        return _("(balance: now less the next players' gains)")
    return ""


def order_number(entry):
    """The number an advice entry (the view's action entry) is ordered by, as the full
    screen shows it: its chance to win (``62%``) in the end-game's best few, else the
    coach's overall value (``-0.37``), else its value now (advice ranked by that)."""
    if entry.get("win") is not None:
        return percent(entry["win"])
    if entry.get("score") is not None:
        return signed(entry["score"])
    return signed(entry["ev"])


def reason_words(kind, words, entry):
    """The wide form's reason beside an action's number: its value now, and a finish
    card's worth in a later leg, taken off, in the words of plain mode's ``best`` and
    the web page (``narration.advice_words``): ``(now +1.52, -0.92 the card's worth in a
    later leg)`` (it read ``kept -0.92``, a label of the screen's own and a negative
    "kept": tester s35); never its camel's chance, which would name its colour beside
    the race odds; the cards on the piles are in the players' rows, the full sentence
    in plain mode's ``best``); empty when the number shown is the value now."""
    if entry.get("win") is None and entry.get("score") is None:
        return ""
    why = _("now %s") % signed(entry["ev"])
    if kind == "finish" and entry.get("hold") is not None:
        # taken off the balance, with the sign and the words plain mode's best and the
        # web page give it (``narration._figure_words``)
        why += ", " + _("%s the card's worth in a later leg") % signed(-entry["hold"])
    return "(%s)" % why


def number_label(entries):
    """The narrow form's label of the numbers of ``entries`` (view action entries, in
    order): ``(chance to win, then overall)``, ``(chance to win)``, ``(overall)``, or
    empty when they are the values now."""
    win = any(e.get("win") is not None for e in entries)
    score = any(e.get("win") is None and e.get("score") is not None for e in entries)
    if win and score:
        return _("(chance to win, then balance)")
    if win:
        return _("(chance to win)")
    if score:
        return _("(balance)")
    return ""


def numbers_note(entries):
    """The wide form's note on what its first numbers are (``entries``: the view's action
    entries shown), which order the list: the chance to win, then the overall value (the
    value now less the next players' gains, a finish card's less its worth in a later
    leg); plain mode's ``best`` says it in full."""
    if any(e.get("win") is not None for e in entries):
        return _("(first: your chance to win, then balance: less the next players' gains)")
    if any(e["kind"] == "finish" and e.get("score") is not None for e in entries):
        return _("(balance: less the next players' gains and a finish card's worth in a "
                 "later leg)")
    if any(e.get("score") is not None for e in entries):
        return _("(balance: the value now less the next players' gains)")
    return ""
