"""Plain line display (``--plain``): every fact of RULES section 5 as short text lines.

For scripts, logs and screen readers: one announcement per line. It reads only the
view model (``camelhost.table.view.table_view``) and the session's notices, worded
by ``camelhost.table.narration``. ``status_lines(view)`` prints the public state
(track, dice, tickets, money, pile sizes); ``odds_lines(view)`` the leg and race odds
and ``best_lines(view)`` the value of every action for the player to act. Finish
cards are shown as pile *sizes* only until the final reveal, which lists each pile in
play order (RULES 1.8, 5).
"""

import sys

from rich.cells import cell_len

from camelhost.i18n import _, colour_list, colour_word, colours_in, ngettext, pgettext
from camelhost.table.display import Display  # noqa: F401  (the contract plain mode keeps)
from camelhost.table.narration import (  # noqa: F401  (the words plain mode prints)
    TYPE_DIE,
    after_race,
    best_lines,
    example_die,
    final_scores_line,
    last_die_line,
    notice_lines,
    odds_lines,
    over_lines,
    placed_words,
    plural,
    position_line,
    resumed_lines,
    side_name,
)


def _stacks_text(view):
    parts = []
    for row in view["beyond"] + view["track"]:
        if row["stack"]:
            parts.append((row["space"], "%d:[%s]" % (
                row["space"], colour_list((c["colour"] for c in row["stack"]), ","))))
    return " ".join(text for _, text in sorted(parts))


def track_line(view):
    """``Track (bottom->top): 1:[red,blue] 3:[green] | tiles: 7 Ann cheering``."""
    line = _("Track (bottom->top): ") + _stacks_text(view)
    tiles = [row for row in view["track"] if row["tile"]]
    if tiles:
        line += _(" | tiles: ") + ", ".join(
            "%d %s %s" % (row["space"], row["tile"]["owner"], row["tile"]["name"])
            for row in tiles)
    return line


def dice_line(view):
    """Dice still inside and those out this leg (RULES 5: which dice can still come),
    the die whose value or numerals are asked among those out."""
    inside = view["dice_inside"]
    line = _("Dice in the pyramid: %s") % (colour_list(inside) or _("none"))
    if view["dice_left_inside"] and inside:
        line += _(" (one of them stays inside this leg)")
    out = list(view["dice_out"])
    asked = view["pending_die"]
    if asked is not None and asked["colour"] not in out:
        out.append(asked["colour"])  # out on the table, its value (or numerals) asked
    if out:
        line += _("; out this leg: %s") % colour_list(out)
    return line


def waiting_words(view, short=False):
    """`` (Ann's pyramid ticket waits for its die)`` while one does, else ``""``; once
    its die is out and its value (or the grey die's numerals) is asked, what it waits
    for is that (`` (Ann's pyramid ticket waits for its die's value)``: tester s40
    finding 13). ``short``: the full screen's words, after its ``Pyramid tickets
    left: N``, where its width is tight (`` (Ann's ticket waits for its die's
    value)``); a string."""
    who = view.get("pyramid_waiting")
    if not who:
        return ""
    if short:
        if view["phase"] == "value":
            return _(" (%s's ticket waits for its die's value)") % who
        if view["phase"] == "ink":
            return _(" (%s's ticket waits for its die's numerals)") % who
        return _(" (%s's ticket waits for its die)") % who
    if view["phase"] == "value":
        return _(" (%s's pyramid ticket waits for its die's value)") % who
    if view["phase"] == "ink":
        return _(" (%s's pyramid ticket waits for its die's numerals: black or white)") % who
    return _(" (%s's pyramid ticket waits for its die)") % who


def status_lines(view):
    """Every public fact of the current position, one topic per line."""
    if not view["ranking"]:
        if view.get("dice_typed"):  # no pyramid reports the dice (--pyramid manual)
            lines = [_("Race %(race)d setup: type each camel's die as it comes out (like "
                       "'%(example)s'), or type '%(setup)s' or 'draw'") % {
                "race": view["race"], "example": example_die(view),
                "setup": colours_in("setup 1:blue,green ...")}]
        else:
            lines = [_("Race %(race)d setup: release each camel's die (or type "
                       "'%(example)s'), or type '%(setup)s' or 'draw'") % {
                "race": view["race"], "example": example_die(view),
                "setup": colours_in("setup 1:blue,green ...")}]
        if view["setup_rolls"]:
            lines.append(_("Placed so far: ") + placed_words(view))
        return lines
    if view["final"]:
        lines = over_lines(view)
        lines.insert(1, track_line(view))
        if view["last_die"]:
            lines.append(last_die_line(view))
        return lines
    lines = [_("Race %(race)d, leg %(leg)d") % {"race": view["race"], "leg": view["leg"]},
             track_line(view), dice_line(view)]
    lines.append(_("Leg tickets left: ") + "; ".join(
        "%s %s" % (colour_word(row["colour"]), ",".join(str(v) for v in row["left"])
                   or _("none"))
        for row in view["leg_tickets"]))
    # its own message: the full screen's panel says it shorter where its width is tight
    # TRANSLATORS: %(waiting)s is empty, or whose pyramid ticket waits for its die
    lines.append(pgettext("status line", "Pyramid tickets left: %(left)d%(waiting)s")
                 % {"left": view["pyramid_tickets_left"], "waiting": waiting_words(view)})
    for p in view["players"]:
        held = ", ".join("%s %d" % (colour_word(t["colour"]), t["value"])
                         for t in p["leg_tickets"]) \
            or _("no leg tickets")
        extra = []
        if p["pyramid_tickets"]:
            # pyramid tickets held, counted: '1 pyramid ticket', '2 pyramid tickets'
            extra.append(ngettext("%d pyramid ticket", "%d pyramid tickets",
                                  p["pyramid_tickets"]) % p["pyramid_tickets"])
        if p["partner"] is not None:
            extra.append(_("partner %s") % p["partner"])
        lines.append(_("%(player)s: %(coins)s; %(tickets)s%(more)s; %(cards)s played") % {
            "player": p["name"], "coins": plural(p["coins"], "coin"), "tickets": held,
            "more": "".join("; " + e for e in extra),
            "cards": plural(p["finish_cards_played"], "finish card")})
    piles = view["piles"]
    lines.append(_("Finish piles: winner %(winner)s, loser %(loser)s (hidden until the "
                   "end)") % {"winner": plural(piles["winner"], "card"),
                              "loser": plural(piles["loser"], "card")})
    if len(view["ranking"]) >= 2:
        lines.append(_("Leading: 1st %(first)s, 2nd %(second)s") % {
            "first": colour_word(view["ranking"][0]),
            "second": colour_word(view["ranking"][1])})
    if view["leg_now"]:
        lines.append(_("If the leg ended now: ") + ", ".join(
            "%s %+d" % (row["name"], row["net"]) + (ngettext(
                " (%d coin forgiven)", " (%d coins forgiven)", row["forgiven"])
                % row["forgiven"] if row.get("forgiven") else "")
            for row in view["leg_now"]))
    if view["last_die"]:
        lines.append(last_die_line(view))
    return lines


def prompt_line(view, width=None):
    """What the table is waiting for, one line. ``width``: the columns it has (the full
    screen's one-row prompt; ``None``: any length): a die's prompt longer than that
    leaves its example die out rather than be cut."""
    phase = view["phase"]
    who = view["turn"]
    if phase == "setup":
        return _("> setup")
    if phase == "turn":
        choices = view.get("choices") or ["leg", "tile", "win", "lose", "pyramid"]
        return _("> %(player)s's turn (%(choices)s)") % {"player": who,
                                                         "choices": " / ".join(choices)}
    if phase == "die":
        if view.get("dice_typed"):  # no pyramid (--pyramid manual): nothing to release
            line = _("> %(player)s: %(ask)s, like %(example)s") % {
                "player": who, "ask": _(TYPE_DIE), "example": example_die(view)}
            short = _("> %(player)s: %(ask)s") % {"player": who, "ask": _(TYPE_DIE)}
        else:
            line = _("> %(player)s: release a die from the pyramid (or type it, e.g. "
                     "'%(example)s')") % {"player": who, "example": example_die(view)}
            short = _("> %s: release a die from the pyramid (or type it)") % who
        return short if width is not None and cell_len(line) > width else line
    if phase == "ink":
        return _("> grey die: black or white numerals? (b/w, or 'again' to release again)")
    if phase == "value":
        return _("> value of the die? press 1, 2 or 3")
    return "> " + after_race(phase, short=True)  # "over" or "unscored": both ways on


class PlainDisplay(Display):
    """Prints notices and status as lines to ``stream`` (default stdout), one
    announcement per line. ``status_every``: print the whole table at each new leg.
    ``prompts``: print what the table waits for (False where nobody types: the demo).
    ``reprompt``: a refusal (``error``) is followed by the prompt again, as every line
    the table takes is: the refused line changed nothing, so the table still waits for
    what the last prompt said (tester s35: after ``! unknown command`` nothing said
    whose turn it was); so is what a line of the table's own answers (``answered``:
    ``show``, ``odds``, ``best``, ``help``, ``position``), whose lines pushed the
    prompt off a terminal's last rows (tester s39 finding 9). For lines typed at a
    terminal (``pyramid play`` sets it from ``Table.watched``); a script, and the tests
    that drive a table, read one answer per line, the prompt only when what the table
    waits for changes. ``asking``: a callable, True while the table asks a question of its own in
    text, whose refusals say what to type (a finish card's colour asked unseen:
    ``pyramid play`` gives ``Table.private``); no prompt follows them then (it comes with
    the table's next ``prompt``). Without ``asking``, no prompt follows a refusal after
    text the table printed (``text``: it may have been such a question)."""

    def __init__(self, stream=None, status_every=True, prompts=True, reprompt=False,
                 asking=None):
        self.stream = stream or sys.stdout
        self.status_every = status_every
        self.prompts = prompts
        self.reprompt = reprompt
        self.asking = asking
        self._just_said = []  # the lines of the last output
        self._view = None  # the latest view the table gave: what a refusal leaves as it is
        self._prompted = False  # a prompt was printed (and, without asking, no text since)

    def _out(self, lines):
        for line in lines:
            self.stream.write(line + "\n")
        self.stream.flush()
        self._just_said = list(lines)

    def notices(self, notices, view):
        self._view = view
        lines = []
        for n in notices:
            lines += notice_lines(n, view)
            if n["kind"] == "dice_left" and n["new_leg"] and self.status_every:
                lines += status_lines(view)  # the new leg's table, in full
        self._out(lines)

    def error(self, message):
        lines = ["! " + message]
        asked = self.asking is not None and self.asking()
        if self.reprompt and self.prompts and self._prompted and not asked \
                and self._view is not None:
            lines.append(prompt_line(self._view))  # what the table still waits for
        self._out(lines)

    def status(self, view):
        self._view = view
        lines = status_lines(view)
        if view["last_die"] and last_die_line(view) in self._just_said:
            lines.remove(last_die_line(view))  # just said (after a resume): once is enough
        self._out(lines)

    def answered(self, view):
        self._view = view
        asked = self.asking is not None and self.asking()
        if self.reprompt and self.prompts and not asked:
            self._prompted = True
            self._out([prompt_line(view)])  # the table still waits for it

    def text(self, text):
        if self.asking is None:  # maybe a question of its own: its refusals say what to type
            self._prompted = False
        self._out(text.splitlines())

    def prompt(self, view):
        self._view = view
        if self.prompts:
            line = prompt_line(view)
            self._prompted = True
            if not (self.reprompt and self._just_said[-1:] == [line]):  # said after a refusal
                self._out([line])
