"""The full-screen table display (Textual): the same facts as ``--plain`` (RULES 5),
laid out for a laptop in the middle of the table.

Top to bottom: the announcement of the last die in large clear text (its signed
distance in big digits beside camel, direction, distance) and the first two
racing camels; the track with every
stack (bottom row at the bottom) and the tiles; the public state (dice still in
the pyramid, leg tickets left, pyramid tickets left, every player's coins and
tickets, finish-pile sizes: never their colours until the final reveal) beside
the odds panel (exact leg odds and the best actions for the player to move);
the running log (leg-scoring breakdown, final reveal of each pile in play
order); the prompt and the command line.

A die reported with value ``?`` is completed by a single key (1, 2 or 3), the
numeral ink of a grey die the pyramid could not read by ``b`` or ``w``; every
other command is typed and sent with Enter (``help`` lists them). Events from
the pyramid arrive on a thread and are handed to the table on the UI thread.
"""

import textwrap
import threading

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Digits, Input, Log, Static

from camelhost.table.controller import Table, help_text
from camelhost.table.narration import with_names
from camelhost.table.view import table_view
from camelhost.ui import plain

#: Colours of the camels on screen (foreground on background).
STYLE = {
    "blue": "bold white on blue", "green": "bold black on green",
    "yellow": "bold black on yellow", "red": "bold white on red",
    "purple": "bold white on magenta", "orange": "bold black on dark_orange",
    "white": "bold black on white", "black": "bold white on grey30",
}
CELL = 6  # characters per track space


def track_text(view, width=CELL * 16):
    """Rich ``Text`` of the track: spaces 1..16 left to right, stacks drawn upwards,
    crazy camels marked with ``<`` (they run counterclockwise), tiles under the space
    numbers as ``+Ann`` / ``-Ben``. Crossed camels show in the columns ``<0`` and ``17>``.
    ``width``: characters available; each space gets 4 to 6 of them."""
    stacks = {row["space"]: [c["colour"] for c in row["stack"]]
              for row in view["beyond"] + view["track"] if row["stack"]}
    crazy = ("black", "white") if view["edition"] == "second" else ()
    low = [s for s in stacks if s < 1]
    high = [s for s in stacks if s > 16]
    columns = [("<0", sum((stacks[s] for s in sorted(low)), []))] if low else []
    columns += [(str(s), stacks.get(s, [])) for s in range(1, 17)]
    if high:
        columns.append(("17>", sum((stacks[s] for s in sorted(high)), [])))
    height = max([len(c) for _, c in columns] + [1])
    cell = max(4, min(CELL, width // len(columns)))
    inner = cell - 1  # one blank column between spaces
    text = Text()
    for row in range(height - 1, -1, -1):
        for _, camels in columns:
            if row < len(camels):
                camel = camels[row]
                mark = "<" if camel in crazy else ""
                label = mark + camel[:min(3, inner - len(mark))]
                text.append(label.center(inner), STYLE.get(camel, "bold"))
                text.append(" ")
            else:
                text.append(" " * cell)
        text.append("\n")
    for label, _ in columns:
        text.append(label.center(inner) + " ", "bold")
    text.append("\n")
    tiles = {row["space"]: row["tile"] for row in view["track"] if row["tile"]}
    for label, _ in columns:
        mark = ""
        if label.isdigit() and int(label) in tiles:
            tile = tiles[int(label)]
            mark = tile["side"] + tile["owner"][:inner - 1]
        text.append(mark.center(inner) + " ", "bold cyan")
    return text


def info_text(view):
    """The public state as text: dice, tickets, players, pile sizes."""
    if not view["ranking"]:
        return "\n".join(plain.status_lines(view))
    lines = plain.status_lines(view)[2:]  # the track is drawn above
    return "\n".join(lines)


def odds_text(session):
    """Leg odds of every racing camel and the best actions for the player to move.

    Uses ``camelup.odds`` (exact leg enumeration) and, when present,
    ``camelup.odds.actions.action_values``; returns a short note when the position
    has no odds (setup, race over)."""
    g = session.game
    if g is None or session.phase in ("over", "unscored", "setup"):
        return "Odds: none now"
    try:
        from camelup import odds
        from camelup.odds.game import position_from_game
        leg = odds.leg_odds(position_from_game(g))
    except (ValueError, TypeError, KeyError) as exc:
        return "Odds unavailable: %s" % exc
    lines = ["Leg odds   1st   2nd  last"]
    for c in sorted(g.edition.racing, key=lambda c: -leg.first[c]):
        lines.append("%-8s %4.0f%% %4.0f%% %4.0f%%" % (
            c, 100 * leg.p_first(c), 100 * leg.p_second(c), 100 * leg.p_last(c)))
    lines.append("")
    lines.append("Best for %s:" % session.names[g.turn])
    try:
        from camelup.odds.actions import action_values
        # The screen is shared: finish-card advice would show, by what it leaves
        # out, which cards this player has already played (RULES 1.8, 5).
        public = [av for av in action_values(g, leg=leg) if av.kind != "finish"]
        for av in public[:5]:
            lines.append("  %s" % with_names(av.reason, session.names))
        lines.append("  (finish cards: not advised on the shared screen)")
    except ImportError:
        values = []
        for c in g.edition.racing:
            left = g.leg_tickets_left(c)
            if left:
                p1, p2 = leg.p_first(c), leg.p_second(c)
                values.append((left[0] * p1 + p2 - (1 - p1 - p2), "%s leg ticket %d" % (
                    c, left[0])))
        values.append((1.0, "pyramid ticket"))
        values.sort(key=lambda v: -v[0])
        for ev, what in values[:5]:
            lines.append("  %s: %+.2f" % (what, ev))
    except (ValueError, TypeError, KeyError) as exc:
        lines.append("  (unavailable: %s)" % exc)
    return "\n".join(lines)


def big_number(notices):
    """What the large digits show for the latest die: its signed distance (``+3``,
    ``-2`` for a move counterclockwise), ``""`` for another announcement, else ``None``."""
    for n in reversed(notices):
        if n["kind"] == "die":
            m = n["move"]
            return "%+d" % (m["direction"] * m["distance"])
        if n["kind"] in ("final", "retry", "ask_value", "ask_ink"):
            return ""
    return None


def wrap_lines(line, width):
    """``line`` cut into pieces of at most ``width`` characters (at spaces when it
    can), the pieces after the first indented by two spaces, for the log pane."""
    width = max(20, width)
    if len(line) <= width:
        return [line]
    indent = " " * min(len(line) - len(line.lstrip(" ")) + 2, width // 2)
    return textwrap.wrap(line, width=width, subsequent_indent=indent,
                         drop_whitespace=True, break_long_words=True) or [line]


def announce_text(notices, view):
    """Large-print line for the latest die or event (RULES 5), or ``None``."""
    for n in reversed(notices):
        if n["kind"] == "die":
            m = n["move"]
            way = "FORWARD" if m["direction"] > 0 else "BACKWARD"
            return Text("%s  %s %d" % (m["camel"].upper(), way, m["distance"]),
                        STYLE.get(m["camel"], "bold"))
        if n["kind"] == "final":
            f = n["final"]
            return Text("RACE OVER: %s WINS, %s LAST" % (f["winner"].upper(), f["loser"].upper()),
                        "bold reverse")
        if n["kind"] == "retry":
            return Text("RETURN THE DICE AND RELEASE AGAIN", "bold white on red")
        if n["kind"] == "ask_ink":
            return Text("GREY DIE: BLACK OR WHITE NUMERALS? PRESS B OR W", "bold reverse")
        if n["kind"] == "ask_value":
            return Text("%s: PRESS 1, 2 OR 3" % n["die"].upper(), "bold reverse")
    return None


class TuiDisplay:
    """The ``Table`` display that writes into the app's widgets."""

    def __init__(self, app):
        self.app = app

    def _write(self, line):
        log = self.app.query_one("#log", Log)
        width = (log.scrollable_content_region.width or 80) - 1
        for piece in wrap_lines(line, width):
            log.write_line(piece)

    def notices(self, notices, view):
        for n in notices:
            for line in plain.notice_lines(n, view):
                self._write(line)
        big = announce_text(notices, view)
        if big is not None:
            self.app.query_one("#announce", Static).update(big)
        digits = big_number(notices)
        if digits is not None:
            self.app.query_one("#big", Digits).update(digits)
        self.app.refresh_panels()

    def error(self, message):
        """The error goes to the log and stays in the status line (wrapped, never cut)
        until the next command is sent."""
        self._write("! " + message)
        self.app.query_one("#error", Static).update(Text("! " + message, "bold red"))

    def status(self, view):
        self.app.refresh_panels()

    def text(self, text):
        for line in text.splitlines():
            self._write(line)

    def prompt(self, view):
        self.app.query_one("#prompt", Static).update(plain.prompt_line(view))


class TableApp(App):
    """The table program's full screen. ``session``: a ``Session``; ``pyramid``: what
    ``camelhost.device.open.open_pyramid`` yields (or ``None`` for typed dice); ``auto_setup``: draw
    the starting stacks (virtual pyramid); ``speaker``: a ``table.Speaker`` (``--speak``)."""

    TITLE = "Camel Up smart pyramid"
    CSS = """
    Screen { overflow: hidden; }
    #top { height: 3; }
    #big { width: auto; min-width: 6; padding: 0 1; }
    #announce { width: 1fr; height: 3; content-align: center middle; text-style: bold;
                border: round $accent; }
    Input { height: 3; }
    #leaders { height: 1; }
    #track { height: auto; min-height: 4; }
    #middle { height: 1fr; min-height: 3; }
    #info-box { width: 2fr; }
    #odds-box { width: 1fr; min-width: 30; border-left: solid $accent; padding-left: 1; }
    #log { height: 7; border-top: solid $accent; }
    #error { height: auto; max-height: 3; }
    #prompt { height: 1; text-style: bold; }
    """
    BINDINGS = [("f1", "help", "Help"), ("f5", "release", "Release (virtual)")]

    def __init__(self, session, pyramid=None, auto_setup=False, speaker=None):
        App.__init__(self)
        self.session = session
        self.pyramid = pyramid
        self.table = Table(session, TuiDisplay(self), speaker=speaker,
                           pyramid=pyramid.virtual if pyramid is not None else None,
                           auto_setup=auto_setup,
                           manual=pyramid is None or pyramid.manual)
        self._stop = threading.Event()

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Digits("", id="big")
            yield Static("", id="announce")
        yield Static("", id="leaders")
        yield Static("", id="track")
        with Horizontal(id="middle"):
            with VerticalScroll(id="info-box"):
                yield Static("", id="info")
            with VerticalScroll(id="odds-box"):
                yield Static("", id="odds")
        yield Log(id="log")
        yield Static("", id="error")
        yield Static("", id="prompt")
        yield Input(placeholder="command (help)", id="command")

    def on_mount(self):
        self.table.start()
        self.query_one("#command", Input).focus()
        self.events = self.pyramid.events() if self.pyramid is not None else None
        if self.events is not None:
            threading.Thread(target=self._pump, daemon=True).start()

    def on_unmount(self):
        self._stop.set()

    def _pump(self):
        import queue
        while not self._stop.is_set():
            try:
                kind, item = self.events.get(timeout=0.2)
            except queue.Empty:
                continue
            if kind == "event":
                try:
                    self.call_from_thread(self.table.pyramid_event, item)
                except RuntimeError:  # the app is closing
                    return

    def refresh_panels(self):
        """Redraw the track, the public state and the odds from the session."""
        view = table_view(self.session, odds=False)
        track = self.query_one("#track", Static)
        track.update(track_text(view, track.size.width or CELL * 16))
        self.query_one("#info", Static).update(info_text(view))
        self.query_one("#odds", Static).update(odds_text(self.session))
        r = view["ranking"]
        self.query_one("#leaders", Static).update(
            "Race %d, leg %d. Leading: 1st %s, 2nd %s" % (view["race"], view["leg"], r[0], r[1])
            if len(r) >= 2 else "Race %d: setup" % view["race"])
        self.sub_title = "race %d, leg %d" % (view["race"], view["leg"])

    def _submit(self, text):
        box = self.query_one("#command", Input)
        box.value = ""
        self.query_one("#error", Static).update("")
        if not self.table.line(text):
            self.exit()

    def on_input_submitted(self, message):
        self._submit(message.value)

    def on_input_changed(self, message):
        # One key completes a die reported as '?' (no Enter needed).
        if self.session.phase == "value" and message.value.strip() in ("1", "2", "3"):
            self._submit(message.value.strip())
        # ... and one key the numeral ink of a grey die the pyramid could not read.
        elif self.session.phase == "ink" and message.value.strip().lower() in ("b", "w"):
            self._submit(message.value.strip().lower())

    def action_help(self):
        self.table.display.text(help_text(self.session.edition.name))

    def action_release(self):
        self.table.line("release")
