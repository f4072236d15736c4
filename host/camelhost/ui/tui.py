"""The full-screen table display (Textual): the same facts as ``--plain`` (RULES 5),
laid out for a laptop in the middle of the table. Fits 80x24; a bigger terminal
gives the history more lines. ``TableApp.fit`` shares the height out after every
change and resize as ``camelhost.ui.plan`` says (every player's row and the odds
whole; a stack too tall for the rest drawn two, three or four camels a row; then the
players table compact, the last die's detail line left to the history, then the big
digits, the leaders line, the counts' note on a waiting ticket and, while an error shows,
the banner, so that the history keeps at least ``LOG_MIN`` lines and no panel scrolls;
the race-over panel before the track).

Top to bottom:

* the announcement of the last die: its signed distance in big digits on the
  camel's colour, ``BLUE  FORWARD 3`` and where the unit went (hidden before the
  first die, so no empty banner), then the race, leg and the first two racing camels;
* the track: every stack (bottom camel on the bottom row), space numbers, tiles
  (``+Ann`` in the tile's colour);
* left: the odds (leg 1st / 2nd / last of every racing camel, overall winner and
  loser with their 95 % interval, the value of every leg ticket, the pyramid
  ticket, the best tile and the best partnership for the player to act), worked
  out once per change by the table seam's worker (``camelhost.table.display``, the
  same figures the web board shows) and shown when ready; after a leg, the
  leg-scoring panel takes its place (Esc / F3 switch back and forth); once the race
  is over, the race-over panel (final order, the winner, the final ranking with what
  the finish cards paid, each finish pile revealed in play order) stays until
  ``again``: the track makes way for it, and a line under it says when it is longer
  than its room (Down / Up turn its pages);
* right: every player's coins, tickets, finish cards in hand, partner and what the
  leg would pay them now (always in view);
* the public counts (dice that can still come out, pyramid tickets left,
  finish-pile sizes);
* the history (PgUp / PgDn, mouse wheel), the last error, the prompt and the
  command line.

A die reported with value ``?`` is completed by a single key (1, 2 or 3), the
numeral ink of a grey die the pyramid could not read by ``b`` or ``w``. ``win`` or
``lose`` alone opens the finish-card picker (a colour by its number or its first letters, nothing drawn); a
typed ``win red`` shows as ``win •••`` (the same mask whatever its length) and
is never echoed; so does a finish card typed with a slip or after a name (``winn •••``,
``lose •••`` for ``lose:green``, ``Ann win •••``: ``parser.finish_card_cut``). Ctrl-Q, Ctrl-C and
Ctrl-D all quit (every event is already in the journal). The pyramid's events wait in
its link's queue and are handed to the table on the UI thread (a timer, no thread of
the app's own). Everything drawn
comes from the view model (``camelhost.table.view``), colours from
``camelhost.ui.palette``; ``docs/screen.md`` is the user's guide.
"""

import re
import textwrap
from contextlib import contextmanager

from camelup.editions import get_edition
from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.strip import Strip
from textual.theme import Theme
from textual.widgets import ContentSwitcher, Digits, Input, Log, Static

from camelhost.i18n import N_, _, answers_named, colour_list, colour_word, colours_in, ngettext
from camelhost.table.controller import Table, help_text
from camelhost.table.display import Display, Seam, advice_key
from camelhost.table.journal import JournalFull
from camelhost.table.narration import came_out_words, move_die, notice_lines, put_back_words
from camelhost.table.narration import die_words as die_said  # this module's die_words: the banner
from camelhost.table.parser import FINISH_WORDS, finish_card_cut  # noqa: F401  (API)
from camelhost.table.view import CRAZY_WHY, move_path, table_view, which_way
from camelhost.ui import palette, plain, plan, terminal
from camelhost.ui.loop import Moments
from camelhost.ui.odds_view import compute, odds_lines, panel_legend, snapshot
from camelhost.ui.panels import (  # noqa: F401  (track_text: part of this module's API)
    CELL,
    cut,
    info_text,
    leaders_text,
    leg_score_text,
    players_text,
    race_over_text,
    ticket_legend,
    tile_names,
    track_columns,
    track_rows,
    track_text,
)
from camelhost.ui.plan import (  # noqa: F401  (CUT_MARK: the history's top row's mark)
    CUT_MARK,
    LOG_MIN,
    MIN_SIZE,
    text_rows,
    too_small_text,
)
from camelhost.ui.screens import FinishCardPicker, HelpScreen, InLanguage, spelled_rests

#: What stands for everything typed after a finish-card command word, whatever its
#: length (a mask as long as the text would tell ``red`` from ``yellow``).
MASK = "•••"
#: Longest typed command echoed whole in the history; longer ones are shortened.
ECHO_MAX = 60
#: What the notice of a too small terminal stands in for (the prompt, the error line
#: and the command line stay: the game goes on).
MAIN_PARTS = ("#top", "#track", "#middle", "#info", "#log", "#more")
#: Longest error message shown whole; longer ones keep their start and end.
ERROR_MAX = 240
try:  # the clock of a key's ``time``: when the terminal sent it (``Moments``)
    from textual._time import get_time as KEY_CLOCK
except ImportError:  # Textual's clock on POSIX
    from time import monotonic as KEY_CLOCK
#: How often the screen takes the pyramid's waiting events (s), and most at once.
EVENTS_EVERY_S = 0.05
EVENTS_AT_ONCE = 16
#: The panels drawn one row a line, never wrapped (``table.tcss``): a new text with as
#: many lines as the one shown takes the same rows, so the screen is not laid out again.
UNWRAPPED = ("#track", "#odds", "#players")
#: The lines one row high whatever they say (``table.tcss``): never laid out again.
ONE_ROW = ("#prompt",)

THEMES = {
    "dark": Theme(name="camel-dark", primary="#e0a84a", secondary="#7fb8d8",
                  accent="#e0a84a", foreground=palette.FOREGROUNDS["dark"],
                  background=palette.BACKGROUNDS["dark"], surface="#3d3222", panel="#574731",
                  error="#ff6b5e", dark=True),
    "light": Theme(name="camel-light", primary="#8a5a12", secondary="#1f5f8a",
                   accent="#8a5a12", foreground=palette.FOREGROUNDS["light"],
                   background=palette.BACKGROUNDS["light"], surface="#f3e7c6", panel="#d9c593",
                   error="#b00020", dark=False),
}


def default_theme(environ=None):
    """``"light"`` when the terminal says its background is light (``COLORFGBG``
    ending in 7 or 15, as xterm-like terminals and rxvt set it), else ``"dark"``."""
    import os
    value = (os.environ if environ is None else environ).get("COLORFGBG", "")
    background = value.split(";")[-1].strip()
    return "light" if background in ("7", "15") else "dark"


def facts(session):
    """The table's public facts the screen draws: the view model
    (``camelhost.table.view.table_view``) without its odds, which a worker thread
    computes. The one place the screen reads the session's state from."""
    return table_view(session, odds=False)


def state_key(view):
    """Changes whenever the game may have changed (the view model's ``version``):
    the odds are recomputed when it does (``camelhost.table.display.advice_key``, the
    key the table's seam gives its advice)."""
    return advice_key(view)


def names_of(view):
    """Player names by seat, from the view model."""
    return [p["name"] for p in view["players"]]


def odds_text(session):
    """The odds panel for ``session`` as plain text, computed here and now (the
    screen does the same work on a worker thread); ``Odds: none now`` when the
    position has no odds (setup, race over)."""
    view = facts(session)
    return odds_lines(compute(snapshot(session)), view, 80, tile_names(view)).plain


def big_number(notices):
    """What the large digits show for the latest die: its signed distance (``+3``,
    ``-2`` for a move counterclockwise), ``""`` for another announcement, else ``None``."""
    for n in reversed(notices):
        if n["kind"] == "die":
            m = n["move"]
            return "%+d" % (m["direction"] * m["distance"])
        if n["kind"] in ("final", "retry", "ask_value", "ask_ink", "new_race"):
            return ""
    return None


#: a change of coins or spaces, ``3 -> 10``: one piece when a line is cut (a space
#: textwrap does not break at stands for its spaces while it cuts)
ARROW, _HELD_ARROW = " -> ", "\u00a0->\u00a0"


def wrap_lines(line, width):
    """``line`` cut into pieces of at most ``width`` characters (at spaces when it
    can), the pieces after the first indented by two spaces, for the log pane. A
    change ``3 -> 10`` is never cut (a leg's scoring read ``net +7, 3`` / ``-> 10``;
    tester s44b, 3), and the last piece never holds one word alone when the piece
    before it can spare one that fits (``... 0.75 ahead of the`` / ``next`` reads as
    ``... ahead of`` / ``the next``): the same number of rows, no word left on its
    own."""
    width = max(20, width)
    if len(line) <= width:
        return [line]
    indent = " " * min(len(line) - len(line.lstrip(" ")) + 2, width // 2)
    pieces = [piece.replace(_HELD_ARROW, ARROW) for piece in textwrap.wrap(
        line.replace(ARROW, _HELD_ARROW), width=width, subsequent_indent=indent,
        drop_whitespace=True, break_long_words=True)] or [line]
    if len(pieces) > 1 and " " not in pieces[-1].strip():
        head, _space, word = pieces[-2].rstrip().rpartition(" ")
        moved = indent + word + " " + pieces[-1].strip()
        if head.strip() and " " in head.strip() and len(moved) <= width:
            pieces[-2:] = [head, moved]
    return pieces


def without_echo(reason, typed):
    """``reason`` without its leading ``typed: `` (the rules engine names the action it
    refuses, which the history's echo shows already): ``tile 4 +: space 4 holds camels``
    after ``> tile 4 +`` -> ``space 4 holds camels``. Compared without case and extra
    spaces; any other reason is returned as it is."""
    head = " ".join(typed.split()).lower() + ":"
    words = reason.split(" ")
    for n in range(1, len(words)):
        if " ".join(" ".join(words[:n]).split()).lower() == head:
            return " ".join(words[n:]).strip() or reason
    return reason


def shorten(text, limit):
    """``text`` on one line, at most ``limit`` characters: a longer one keeps its
    start and end around ``...`` and says how long it was."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    tail = _("... (%d characters) ...") % len(text)
    keep = max(8, limit - len(tail))
    return text[:keep * 2 // 3] + tail + text[-(keep - keep * 2 // 3):]


def is_finish_command(text, names=()):
    """True when ``text`` plays (or starts to play) a finish card, or reads as one typed
    with a slip (``winn green``, ``lose:green``, ``Ann win green``; ``names``: the
    players'): its colour must not be drawn (``parser.finish_card_cut``)."""
    return finish_card_cut(text, names) is not None


def masked_command(text, names=()):
    """What the command line shows of ``text`` while a finish card is typed: the line as
    typed up to its finish-card word (``parser.finish_card_cut``: ``win``, ``Ann:
    lose``, ``winn``), then ``MASK`` however much (or little) follows it, so neither
    the colour nor its length shows (RULES 1.8, 5)."""
    cut = finish_card_cut(text, names)
    if cut is None:  # no finish card's word: the first word stays, the rest is masked
        cut = len(text) - len(text.lstrip())
        cut += len(text.strip().split()[0]) if text.strip() else 0
    return text[:cut] + " " + MASK


class CommandInput(Input):
    """The command line, through Textual's public ``Input`` API. While ``password`` is
    set (a finish card being typed) it draws ``masked_command(value)`` instead of the
    value, with the cursor after the mask (steady: no blink while masked), and says the
    mask's width wherever the widget's width or its cursor's place is asked
    (``content_width``, ``cursor_screen_offset``): the same picture, and the same
    terminal cursor, for every colour and every partial word."""

    #: After a card is picked by its colour's first letters, the rest of that colour
    #: typed in full (``urple``, or German ``lb`` of gelb, then Enter) must neither show
    #: here nor run as a command: those keys, in that order and each within this long
    #: of the one before, are swallowed; any other key ends it (s).
    SWALLOW_S = 1.0

    #: Tab (and Shift-Tab) keep the focus here: the command line is the screen's one
    #: place for keys (the panels take none: PgUp, End, Down, Up are the app's), and a
    #: Tab that moved the focus to a panel dropped every key typed after it, without a
    #: word (tester s34-2); a Tab in a pasted line becomes a space (``untabbed``).
    BINDINGS = [Binding("tab", "stay", show=False), Binding("shift+tab", "stay", show=False)]

    _swallow = ()  # the key sequences still expected, one per way of spelling it
    _swallow_until = 0.0
    _blink_before = None  # cursor_blink before the mask, given back after it

    def swallow_rest_of(self, rests):
        """Expect one of ``rests`` (the rest of the colour being spelled, in English or
        in the table's language: ``["een", "ün", "uen"]`` after German ``gr``) and an
        Enter as the next keys."""
        import time
        self._swallow = [list(rest) + ["enter"] for rest in rests] or [["enter"]]
        self._swallow_until = time.monotonic() + self.SWALLOW_S

    def swallow_key(self, event):
        """True (and the key stopped) when ``event`` is the next key of a rest expected."""
        import time
        now = time.monotonic()
        if not self._swallow or now > self._swallow_until:
            self._swallow = ()
            return False
        got = "enter" if event.key == "enter" else (event.character or "").lower()
        going = [rest[1:] for rest in self._swallow if rest[0] == got]
        if not going:
            self._swallow = ()
            return False
        self._swallow = [rest for rest in going if rest]
        self._swallow_until = now + self.SWALLOW_S
        event.stop()
        event.prevent_default()
        return True

    def action_stay(self):
        """Tab, Shift-Tab: nothing (the focus stays on the command line)."""

    #: when the last Enter and F5 were pressed (``KEY_CLOCK``), or ``None``: a line or a
    #: push the table takes after it moved on is not taken for another turn (``Moments``)
    _enter_at = None
    f5_at = None

    async def on_key(self, event):
        # runs before Input's own handling of the key (and the app's F5); a swallowed
        # key goes no further
        if event.key == "f5":
            self.f5_at = event.time
        if self.swallow_key(event) or event.key != "enter":
            return
        # Enter submits here, in the keys' order: left to Input's binding it went up to
        # the app and back, and the keys typed after it (a second line typed at once, or
        # while the screen was busy) were in the line first: 'leg red' and 'leg blue'
        # submitted as 'leg redleg blue', dated by the second Enter
        event.stop()
        event.prevent_default()
        self._enter_at = event.time
        await self.action_submit()

    async def action_submit(self):
        """``Input``'s Enter, its ``Submitted`` message carrying when the Enter was
        pressed (``typed_at``; ``None`` if not by a key): the app may take it after the
        line before it, the bots' moves and the next Enter (a double Enter)."""
        result = self.validate(self.value) if "submitted" in self.validate_on else None
        message = self.Submitted(self, self.value, result)
        message.typed_at, self._enter_at = self._enter_at, None
        message.emptied = True
        self.value = ""  # taken: the keys typed after the Enter begin the next line
        self.post_message(message)

    def refresh(self, *regions, repaint=True, layout=False, recompose=False):
        """``Widget.refresh``, never laying the screen out again: the command line is one
        row as wide as the screen (``table.tcss``) whatever it holds, so a key typed
        (``Input`` asks for a layout whenever its value's width changes) redraws the
        line, not every panel."""
        return Input.refresh(self, *regions, repaint=repaint, layout=False,
                             recompose=recompose)

    def watch_password(self, masked):
        # the masked cursor does not blink (its blink state is Input's own affair)
        if masked and self._blink_before is None:
            self._blink_before = self.cursor_blink
            self.cursor_blink = False
        elif not masked and self._blink_before is not None:
            self.cursor_blink, self._blink_before = self._blink_before, None

    #: The players' names, read before a finish card's word (``Ann win •••``).
    names = ()

    def shown(self):
        """What the command line shows: the value, or its mask while ``password``."""
        return masked_command(self.value, self.names) if self.password else self.value

    def shown_cursor(self):
        """The cell of the cursor in ``shown()``: while masked, where the cursor is in
        the command word, else just after the mask."""
        if not self.password:
            return self.cursor_position
        shown = self.shown()
        keep = len(shown) - len(MASK) - 1  # the command word, visible as typed
        return self.cursor_position if self.cursor_position <= keep else len(shown)

    @property
    def content_width(self):
        if not self.password or not self.value:
            return Input.content_width.fget(self)
        return len(self.shown()) + 1

    @property
    def cursor_screen_offset(self):
        if not self.password:
            return Input.cursor_screen_offset.fget(self)
        from textual.geometry import Offset
        x, y, _width, _height = self.content_region
        return Offset(x + self.shown_cursor() - self.scroll_offset[0], y)

    def render_line(self, y):
        if not self.password or y != 0 or not self.value:
            return Input.render_line(self, y)
        from textual.strip import Strip
        text = Text(self.shown(), no_wrap=True, overflow="ignore", end="")
        if self.has_focus:  # the cursor is steady while masked (``watch_password``)
            at = self.shown_cursor()
            if at >= len(text):
                text.pad_right(at + 1 - len(text))
            text.stylize(self.get_component_rich_style("input--cursor"), at, at + 1)
        width = self.scrollable_content_region.width
        strip = Strip(self.app.console.render(
            text, self.app.console_options.update_width(self.content_width)))
        scroll_x = self.scroll_offset[0]
        strip = strip.crop(scroll_x, scroll_x + width + 1).extend_cell_length(width + 1)
        return strip.apply_style(self.rich_style)


def command_hint(width, url=None):
    """What the empty command line says (its placeholder) in ``width`` columns: the
    keys to start with and, while a web scoreboard runs, its address ``url`` (the
    full screen covers where it was printed). The keys are left out from the least
    needed on when the address would not fit beside them; the address never is."""
    if url is None:
        return _("command, then Enter  (F1 help, PgUp history, Ctrl-Q quit)")
    web = _("scoreboard: %s") % url
    for keys in (_("command, then Enter  (F1 help, PgUp history, Ctrl-Q quit)"),
                 _("command, then Enter  (F1 help, Ctrl-Q quit)"),
                 _("(F1 help, Ctrl-Q quit)"), _("F1 help")):
        line = keys + "  " + web
        if len(line) <= width - 3:  # the command line's padding and cursor
            return line
    return web


#: Notices that put a banner at the top (the latest of them is shown).
BANNER_KINDS = ("die", "final", "retry", "ask_ink", "ask_value", "new_race")


def banner_kind(notices):
    """The kind of the notice whose banner ``announce_text`` shows, or ``None``."""
    for n in reversed(notices):
        if n["kind"] in BANNER_KINDS:
            return n["kind"]
    return None


def die_words(move):
    """The banner's line for a die's ``move`` (the rules engine's): its camel, which way
    and how far (``BLUE  FORWARD 3``, German ``BLAU  3 FELDER VORWÄRTS``: the words of
    ``camelhost.table.view.which_way``); a crazy camel the grey die moved with the reason
    that one moved (``WHITE  BACKWARD 1  (it sits directly on the other crazy camel)``,
    RULES 3.5 a, b, c, the plain table's words: ``CRAZY_WHY``)."""
    # which way and how far, every screen's one wording (German ``3 FELDER VORWÄRTS``)
    way = which_way(move["direction"], move["distance"]).upper()
    text = Text()
    text.append(colour_word(move["camel"]).upper(), palette.style(move["camel"]))
    text.append("  %s" % way, "bold")
    why = CRAZY_WHY.get(move.get("rule"))
    if why:  # which crazy camel the grey die moved, and why (RULES 3.5)
        text.append("  (%s)" % _(why))
    return text


def announce_text(notices, view):
    """Large-print line for the latest die or event (RULES 5), or ``None``; a crazy
    camel moved by the grey die says why that one moved (``camelhost.table.view.CRAZY_WHY``,
    the plain table's words: RULES 3.5 a, b, c), so a black numeral moving the white
    camel is explained where the table looks, and so is the plain case (c), the
    numeral's colour, in every language."""
    for at in range(len(notices) - 1, -1, -1):
        n = notices[at]
        if n["kind"] == "die":
            return die_words(n["move"])
        if n["kind"] == "final":
            f = n["final"]
            text = Text(_("RACE OVER: %(winner)s WINS, %(loser)s LAST") % {
                "winner": colour_word(f["winner"]).upper(),
                "loser": colour_word(f["loser"]).upper()}, "bold reverse")
            crazy = next((d["move"] for d in reversed(notices[:at]) if d["kind"] == "die"
                          and d["move"].get("rule")), None)
            if crazy is not None:
                # a crazy camel the grey die moved backward across the finish line ended
                # the race (RULES 1.13): the die's line names which one and how, as for
                # any grey die (the detail line names the die, 'grey-black 3', and may
                # give way to the race-over panel: s35, the result stood alone)
                text.append("\n")
                text.append_text(die_words(crazy))
            return text
        if n["kind"] == "retry" and n.get("grey_for"):  # setup: the grey die again
            return Text(_("PUT THE GREY DIE BACK IN THE PYRAMID AND RELEASE AGAIN"),
                        "bold reverse")
        if n["kind"] == "retry" and n.get("asked"):  # the die asked about stays out
            return Text(put_back_words(n), "bold reverse")
        if n["kind"] == "retry" and n.get("came_out"):  # a die out this leg stays out
            return Text(came_out_words(n), "bold reverse")
        if n["kind"] == "retry":
            return Text(_("RETURN THE DICE AND RELEASE AGAIN"), "bold reverse")
        if n["kind"] == "ask_ink":
            return Text(_("GREY DIE: BLACK OR WHITE NUMERALS? PRESS B OR W"), "bold reverse")
        if n["kind"] == "ask_value":
            return Text(_("%s: PRESS 1, 2 OR 3") % colours_in(n["die"]).upper(), "bold reverse")
        if n["kind"] == "new_race":
            return Text(_("RACE %d: SET UP THE CAMELS") % n["race"], "bold reverse")
    return None


def detail_text(notices, view):
    """The line under a die's announcement: whose pyramid ticket, the die with its
    value as every screen names it (``narration.die_words``: ``die grey-black 2``),
    what the unit carried, where it went, a tile paid (RULES 1.5, 5)."""
    for n in reversed(notices):
        if n["kind"] == "die":
            m = n["move"]
            names = names_of(view)
            who = names[n["player"]] if n.get("player") is not None else "?"
            text = Text(_("%(player)s's pyramid ticket: die %(die)s. ") % {
                "player": who, "die": die_said(move_die(m))})
            if m["unit"][1:]:
                text.append(_("Carries %s. ") % colour_list(m["unit"][1:]))
            path = move_path(m, names, get_edition(view["edition"]))
            path = path[0].upper() + path[1:]
            if m["crossed"]:
                text.append(path + "!", "bold")
            else:
                text.append(path)
            tile = m.get("tile")
            if tile and tile.get("owner") is not None:
                text.append(_("; %s +1 coin.") % names[tile["owner"]])
            return text
    return None


def speech_line(speaker):
    """The F1 help's line on speech (``--speak``, RULES 5): on, each die said aloud;
    asked but espeak-ng missing (``speaker.missing``, the line the table said when it
    opened); or off, with the option that turns it on. ``speaker``: the table's
    ``camelhost.table.speaker.Speaker`` or ``None`` (``--speak`` not given)."""
    if speaker is None:
        return _("Speech: off (pyramid play --speak says each die aloud, with espeak-ng)")
    if not speaker.available:
        return speaker.missing
    return _("Speech: on: each die is said aloud (espeak-ng)")


def told_notices(notices):
    """The notices the history tells, of ``notices`` (a batch the table gave): all but
    the dice that can still come out after a die mid-leg, which the public counts' rows
    above the history show at every size (tester s33-2, finding 11)."""
    return [n for n in notices if not (n["kind"] == "dice_left" and not n["new_leg"])]


def journal_history(events, path=None):
    """The history lines of the game a journal's ``events`` hold (the ``game`` line
    first, as ``Journal.events`` keeps them): every notice of every event in the words
    the history gave it when it happened, told as past (``pyramid replay``'s words: no
    key to press for a die's value long answered), for a resumed table, so that its
    history shows the race so far, not only what came after the resume (s35). Finish
    cards stay face down (their notices never name the colour, RULES 1.8). Raises
    ``ValueError`` as ``Session.from_events`` does (the table's own resume has read the
    same events already)."""
    from camelhost.table.session import Session

    lines = []

    def each(_event, notices, session):
        told = told_notices(notices)
        if told:
            view = table_view(session, odds=False)
            lines.extend(line for n in told for line in notice_lines(n, view, past=True))

    Session.from_events(events, path, each)
    return lines


#: The history's line between a resumed race's lines from its journal and what the
#: table says on resuming (``TableApp.on_mount``).
RESUMED_HERE = N_("──── resumed here: the lines above are from the journal ────")


class TrackView(Static):
    """The track; when its width changes (a resized terminal) the screen is laid out
    again for the new width (the track's cells, the odds panel's form)."""

    _width = None

    def on_resize(self, event):
        if event.size.width != self._width:
            self._width = event.size.width
            self.app.refresh_panels()


class HistoryLog(Log, can_focus=False):
    """The history pane. It keeps every line as written and wraps it to the pane's
    width (again after a resize: nothing is cut). It follows the newest line, through
    every announcement and every change of the panes above, until the player scrolls
    back (PgUp, the wheel); then it stays put and ``marker`` (a widget) is shown, and
    PgDn / the wheel down to the newest line, or End, make it follow again."""

    def __init__(self, **kwargs):
        Log.__init__(self, **kwargs)
        self.history = []  # every line, unwrapped
        self.following = True
        self.marker = None
        self._wrapped_for = None  # the width the lines are wrapped to
        self._start_row = None  # the row of a tall block's start, shown (``add_block``)
        self._block_start = None  # the newest block's first row, while it is the newest
        self._later = False  # lines came after the block whose start is held
        self._continued = []  # per row: True when it is a wrapped line's second piece or later

    def _room(self):
        return (self.scrollable_content_region.width or self.app.size.width or 80) - 3

    def add(self, line):
        """Write ``line`` (wrapped) and keep it; stay on the newest line if following."""
        self.add_lines([line])

    def add_lines(self, lines):
        """``add`` for each of ``lines``, in order, written at once."""
        self._block_start = None  # the newest lines are no block's any more
        self._note_later()
        self._add(lines)

    def _note_later(self):
        if not self.following and self._start_row is not None:
            self._later = True  # held at a block's start, and more comes after it

    def _add(self, lines):
        if not lines:
            return
        room = self._room()
        self.history.extend(lines)
        self._write_wrapped(lines, room)
        if self._wrapped_for is None:
            self._wrapped_for = room
        self._follow_up()

    def add_block(self, lines, start=None, laid_out=True, held=None):
        """Write ``lines`` (one block: the advice, the odds, a help text, the table's
        reply to one command) as ``add`` does; while the block, wrapped, is taller than
        the pane (now, or once the screen is laid out again), its start shows instead of
        its tail: the history stops following there (its marker says the newest lines
        are below; PgDn or End follow again, and so does the next line typed:
        ``TableApp._take_line``). ``start``: the row the block starts on when rows were
        written for it before (the echo of the command it answers); default the next.
        ``laid_out``: False when the screen is about to be laid out for the block (more
        rows for it: ``TableApp.fit``, an ``undo`` asked about; a die's banner): whether
        it fits is judged once the screen is laid out again, not on the pane's rows now.
        ``held``: ``None`` (a block taller than the pane is always held at its start),
        or a function of no arguments, asked when the block is first found taller than
        the pane, returning how many of ``lines``, from the first, need not show there
        (an ``int``: the lines the banner in view says whole, a die's and its leaders':
        ``TableApp.die_in_banner``): ``0`` holds the block at its start; else the rest
        of the block, after those lines, is held at its start when it is taller than
        the pane itself (the scoring of the leg the die ended), and when it is not (or
        no line is left) the history follows the newest line, through every layout
        after it."""
        start = self.line_count if start is None else start
        self._note_later()
        lines = list(lines)
        self._block_rows = (self.line_count, [len(wrap_lines(line, self._room()))
                                              for line in lines])
        self._add(lines)
        self._block_start = start
        self._block_held = held
        if laid_out:
            self._fit_block()
        else:
            self.call_after_refresh(self._fit_block)

    _block_held = None  # the newest block's ``held`` (``add_block``)
    #: the row the newest block's lines start on and the rows each of them takes
    _block_rows = (0, [])

    def _fit_block(self):
        height = self.scrollable_content_region.height
        if (self.following and self._block_start is not None and height
                and self.line_count - self._block_start > height):
            said = self._block_held() if self._block_held is not None else 0
            if said:  # those lines said elsewhere: the rest's start shows, if need be
                first, rows = self._block_rows
                rest = first + sum(rows[:said])
                if self.line_count - rest <= height:
                    # followed for good: no later layout (an error line taking the
                    # banner's detail line, a resize) holds it at its start
                    self._block_start = None
                    return
                self._block_start = rest
            self._start_row, self._block_start = self._block_start, None
            self._later = False
            self.follow(False)
            self._show_row()
            self.call_after_refresh(self._show_row)

    def _fits_again(self):
        """Held at a block's start (``add_block``, the player has not scrolled since)
        while the pane now shows everything from it to the newest line (a taller pane:
        a resize, the banner's rows given back): follow the newest line again. True
        when it does."""
        height = self.scrollable_content_region.height
        if (not self.following and self._start_row is not None and height
                and self.line_count - self._start_row <= height):
            self.follow(True)
            return True
        return False

    def _show_row(self):
        if not self.following and self._start_row is not None:
            self.scroll_to(y=self._start_row, animate=False, immediate=True)

    def _follow_up(self):
        if self.following:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
            self.call_after_refresh(self._settle)

    def _settle(self):
        if self.following:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
            self._fit_block()

    def follow(self, on=True):
        """Follow the newest line again (``on``), or stop following."""
        changed = self.following != on
        self.following = on
        if on:
            self._start_row = self._block_start = None
            self._later = False
            self._follow_up()
        if self.marker is not None and (changed or self.marker.display != (not on)):
            self.marker.display = not on
            # the marker takes a row (the history keeps its LOG_MIN), or the plan puts
            # it on the command line's hint (``TableApp._show_marker``)
            self.app.fit()

    def page(self, pages):
        """PgUp (``pages`` < 0) or PgDn (``pages`` > 0): a page back or on, every row
        reachable: the view then ends on the row just above the first row it showed
        (PgUp), or starts on the row just below its last (PgDn), also when the pane
        changes height on the way (once the history is scrolled back its marker takes a
        row: a whole view's height scrolled skipped a row, tester46 finding 4). The pane
        laid out anew in the next two refreshes is scrolled so again (``on_resize``)."""
        top = round(self.scroll_y)
        if pages < 0:
            self._page_edge = ("up", top)
            self.scroll_page_up(animate=False)
        else:
            self._page_edge = ("down", top + self.scrollable_content_region.height)
            self.scroll_page_down(animate=False)
        self.call_after_refresh(self._to_page_edge, True)

    #: after a page key, for two refreshes: ("up", the row the view ends just above) or
    #: ("down", the row it starts on)
    _page_edge = None

    def _to_page_edge(self, again=False):
        height = self.scrollable_content_region.height
        if self._page_edge is None or self.following or not height:
            self._page_edge = None  # paged to the newest rows: following them again
            return
        way, row = self._page_edge
        y = max(0, row - height) if way == "up" else min(row, self.max_scroll_y)
        if round(self.scroll_y) != y:
            self.scroll_to(y=y, animate=False, immediate=True)
        if again:  # a layout that comes a refresh late (a loaded machine) is seen too
            self.call_after_refresh(self._to_page_edge)
        else:
            self._page_edge = None

    def release_block(self):
        """Follow the newest line again when the history is held at a long block's
        start (``add_block``) and the player has not scrolled since; a history the
        player scrolled back stays put."""
        if not self.following and self._start_row is not None:
            self.follow(True)

    def follow_later(self):
        """The table waits for a person: when the history is held at a tall block's
        start (``add_block``, the player has not scrolled since) and further lines came
        after that block (the bots' moves after a die, one of them a partnership with
        the player to act), follow the newest line again, or show the start of the
        newest block when it is tall itself (a bot's die): what happened since the
        block shows (tester s36tp finding 1)."""
        if self._later and not self.following and self._start_row is not None:
            newest = self._block_start  # the newest block's start, when nothing came after
            self.follow(True)
            if newest is not None:
                self._block_start = newest
                self._fit_block()
                self.call_after_refresh(self._fit_block)

    def watch_scroll_y(self, old_value, new_value):
        Log.watch_scroll_y(self, old_value, new_value)
        at_end = new_value >= self.max_scroll_y
        if self.following and not at_end and new_value < old_value:
            self.follow(False)  # the player scrolled back
        elif (not self.following and self._start_row is not None
              and round(new_value) != self._start_row and round(old_value) == self._start_row):
            self._start_row = None  # the player scrolled from a block's start: theirs now
        elif not self.following and at_end:
            self.follow(True)

    def amend(self, index, line):
        """Put ``line`` in place of the ``index``-th line kept (a refused command's mark
        with its reason) and draw the history again; the view stays where it was."""
        self.history[index] = line
        y = self.scroll_y
        self._wrapped_for = None
        self._rewrap(self._room())
        if not self.following:
            self.scroll_to(y=y, animate=False, immediate=True)
        self._follow_up()

    def _rewrap(self, width):
        if self.history and width != self._wrapped_for:
            self._wrapped_for = width
            # rows wrapped anew: a block's start held (not the player's scrolling) is no
            # row any more, and the history follows the newest line again
            held = not self.following and self._start_row is not None
            self._start_row = self._block_start = None
            self.clear()
            self._continued = []
            self._write_wrapped(self.history, width)
            if held:
                self.follow(True)

    def _write_wrapped(self, lines, width):
        """Write ``lines`` wrapped to ``width``, each row's place in its entry kept: an
        entry is a line with the indented lines after it (a die's ``  carrying ...`` and
        ``  from space ...``, a player's scoring), each wrapped."""
        pieces = []
        for line in lines:
            wrapped = wrap_lines(line, width)
            pieces.extend(wrapped)
            self._continued.extend([line.startswith(" ")] + [True] * (len(wrapped) - 1))
        self.write_lines(pieces, scroll_end=False)

    def render_line(self, y):
        """A row of the pane. The top row, when it is the rest of an entry (a wrapped
        line, or a line with its indented lines) whose start is above the pane, begins
        with ``CUT_MARK``: the history never shows an entry's tail as if it were whole."""
        row = round(self.scroll_y) + y
        if y or row >= len(self._continued) or not self._continued[row]:
            return Log.render_line(self, y)
        text = CUT_MARK + self.lines[row].lstrip()
        style = self.rich_style
        return Strip([Segment(text, style)]).crop_extend(0, self.size.width, style)

    def on_resize(self, event):
        self._sized_for = self.size
        if self._room() != self._wrapped_for:
            self._page_edge = None  # rows wrapped anew: a page key's row is no row now
        self._rewrap(self._room())
        self._follow_up()
        if self._page_edge is not None:
            self._to_page_edge(again=True)  # the marker's row taken after a page key
        # a block's start stays in view as the pane's height changes, and the history
        # follows the newest line again once the pane shows the block whole
        if not self._fits_again():
            self._fit_block()
            self._show_row()

    _sized_for = None  # the pane's size ``on_resize`` last handled

    def on_mount(self):
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out)

    def _laid_out(self, _screen):
        """After every layout of the screen: a size ``on_resize`` was not told of is
        handled as it would have been. Textual sends a widget its ``Resize`` only when
        its own layout pass sees the size change; a scroll's quick layout that comes
        first (a loaded machine: the history scrolled after ``TableApp.fit`` changed the
        panes above, before their layout ran) takes the new size without one, and the
        history stayed scrolled as for its old height, its newest lines below the pane.
        Following, a history left short of its newest line by a layout (a pane that
        shrank after its scroll to the end) is scrolled to it again."""
        if self.size and self.size != self._sized_for:
            self.on_resize(None)
        elif self.following and round(self.scroll_y) < self.max_scroll_y:
            self._follow_up()


class PanelScroll(VerticalScroll, can_focus=False):
    """A panel on the left that may be longer than its room (the race-over panel with
    many players and cards, the leg-scoring panel with many players): ``hint``, a line under it, then says how many lines are
    below or above, and ``Down`` / ``Up`` (or the wheel) scroll it."""

    hint = None

    def watch_scroll_y(self, old_value, new_value):
        VerticalScroll.watch_scroll_y(self, old_value, new_value)
        self.show_hint()

    # Every layout that changes the panel's room or its text's height says it again:
    # the app's ``fit`` asks for the hint after its refresh, but the panel's text may
    # be laid out later (a loaded machine), or the panel resized without a ``fit``.
    def on_resize(self, _event):
        self._sized_for = self.size
        self.show_hint()

    _sized_for = None  # the panel's size ``on_resize`` last handled

    def on_mount(self):
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out)

    def _laid_out(self, _screen):
        """After every layout of the screen: a size ``on_resize`` was not told of is
        handled as it would have been (as ``HistoryLog._laid_out``: a scroll's quick
        layout on a loaded machine can take the panel's new height without a
        ``Resize``, and the hint still counted the lines below its old height)."""
        if self.size and self.size != self._sized_for:
            self.on_resize(None)

    def watch_virtual_size(self, _old, _new):
        self.show_hint()

    def show_hint(self):
        """Say on ``hint`` what of the panel is out of view."""
        if self.hint is None or not self.hint.display:
            return
        below = max(0, self.virtual_size.height - self.scrollable_content_region.height
                    - round(self.scroll_y))
        if below:
            self.hint.update(ngettext("▼ %d more line below: Down (or the wheel)",
                                      "▼ %d more lines below: Down (or the wheel)", below)
                             % below)
        else:
            self.hint.update(_("▲ the end of it; Up goes back"))


class TuiDisplay(Display):
    """The ``Table`` display that writes into the app's widgets. It shows odds: the
    table's seam works them out (the app waits for them on a worker, ``_want_odds``)."""

    wants_advice = True

    def __init__(self, app):
        self.app = app

    def _write(self, line):
        self.app.flush_echo()
        self.app.query_one("#log", HistoryLog).add(line)

    def notices(self, notices, view):
        # after a die, the dice that can still come out and the pyramid tickets left
        # stay out of the history: the public counts' rows above it show both at every
        # size, and at 80x24 the two lines repeated them word for word while they
        # pushed the die's own line out of a short pane (tester s33-2, finding 11)
        told = told_notices(notices)
        lines = [line for n in told for line in notice_lines(n, view)]
        if lines:  # the echo of what was typed first, then every line at once
            log = self.app.query_one("#log", HistoryLog)
            start = log.line_count
            self.app.flush_echo()
            kinds = [n["kind"] for n in told]
            if kinds[0] == "info":
                # the table's answer in words (an undo, a redo, a rename): one block,
                # taller than the pane (a long undo at 80x24) it shows its start with
                # the echo of what was typed (tester s32-2, finding 2); the game's
                # announcements (a die, a leg's scoring) follow the newest line
                log.add_block(lines, start=start)
            elif "die" in kinds and "final" not in kinds:
                # a die: its own line always shows; its lines taller than the pane
                # (eight players' short pane, a tile landed on, a crazy camel's reason,
                # the leg's scoring after the die that ended it) show from it, as a
                # block does (the leaders stand in the banner too; the leg-scoring
                # panel opens with the leg's scoring whole): at 80x24 the scoring of a
                # leg pushed the die that ended it out of the pane (s35). The race's
                # end follows the newest line: the final ranking (the race-over panel
                # and its banner say the rest)
                at = kinds.index("die")
                log.add_lines([line for n in told[:at] for line in notice_lines(n, view)])
                # judged once the screen is laid out for the die (its banner, its
                # detail line or not): the banner in view says the die whole (its
                # detail line: whose ticket, the die, what it carried, where it went,
                # a tile paid; the leaders line), and only what it cannot say is held
                # at its start: a die that ends no leg leaves the history following
                # the newest line, its tail (a tile paid, the new leaders) in view,
                # nobody having scrolled (tester s42 finding 6); after the die that
                # ends a leg, the leg's scoring shows from its start when it is
                # taller than the pane (s43: it held the die's lines, which the banner
                # said, and cut the scoring)
                block = [notice_lines(n, view) for n in told[at:]]
                banner = next((i for i, n in enumerate(told[at:]) if n["kind"] not in
                               ("die", "leaders")), len(block))
                said = sum(len(lines) for lines in block[:banner]) if any(
                    n["kind"] == "leg_scored" for n in told[at:]) else \
                    sum(len(lines) for lines in block)
                log.add_block([line for lines in block for line in lines], laid_out=False,
                              held=lambda: said if self.app.die_in_banner() else 0)
            else:
                log.add_lines(lines)
            # what the table said since it last waited for a person: a die, and the
            # bots' moves after it (the notice of a too small terminal shows them,
            # with the dice that can still come out and the pyramid tickets left, as
            # the plain screen says them: no public counts' rows show there)
            self.app.tell([line for n in notices for line in notice_lines(n, view)])
        self.app.show_notices(notices, view)

    def error(self, message):
        """The error stays in the status line (wrapped, never cut, a very long one
        shortened) until the next command, ``F5`` or event from the pyramid. For a
        refusal of what was typed (or pressed) the game did not change; the history
        keeps the refused command's echo marked ``(refused)``; the reason shows once,
        on the error line, and goes into that mark when the error line is cleared
        (``(refused: REASON)``), so that every refusal's reason stays readable after
        the next one (PgUp). A finish card's refusal keeps its bare mark. An error
        about what the pyramid reported goes to the history too: the pyramid's next
        event clears the status line, and nobody typed anything to look at it."""
        message = shorten(message, ERROR_MAX)
        if self.app.hide_colours:
            message = self.app.masked(message)
        if self.app.answering:
            self.app.refuse_echo(None if self.app.hide_colours else message)
        else:
            self._write("! " + message)
        box = self.app.query_one("#error", Static)
        box.update(Text("! " + message, "bold"))
        box.display = True
        self.app.fit()

    def status(self, view):
        self.app.refresh_panels()

    def text(self, text):
        self.app.flush_echo()
        # what the table says in words is news, so a terminal too small for the full
        # screen shows it under its notice as it shows an announcement: as it opens (a
        # resumed race: where it stands, its last die, plain mode's words) until the
        # first announcement, and its replies to what is typed ('best', 'odds', an
        # undo's question, 'nothing undone': s44, they showed nowhere below 80x24)
        self.app.tell(text.splitlines())
        asked = self.app.table.undo_asked
        if asked:
            # the question of an undo that takes back a scoring (the table asks it
            # before anything else changes): the screen gives the history the rows to
            # show it whole, its answers with it (s35: at 80x24 it showed its start,
            # its answers below the fold), and the scoring it would take back stays in
            # view beside it, not the next leg's odds and advice
            self.app.asked_lines = text.splitlines()
            self.app.show_asked_scoring()
            self.app.fit()
        self.app.query_one("#log", HistoryLog).add_block(text.splitlines(), laid_out=not asked)

    def answered(self, view):
        """The table answered a line of its own (``best``, ``odds``, ``position``) and
        waits for what it waited for: the table waits for a person, so the next
        announcement (a die from the pyramid) starts the news anew, in place of the
        reply under the notice of a too small terminal, as after the screen's own
        answers (``TableApp._told_aside``; s45: added under a long reply, the die was
        cut behind its "… N more lines" row)."""
        self.app.news_told = True

    def prompt(self, view):
        """What the table waits for, on the one-row prompt line: its example die left
        out when the line would not fit the screen's width (``plain.prompt_line``); while
        an ``undo`` is asked about, that ``undo`` again does it (``prompt_text``)."""
        self.app.prompt_view = view
        self.app.news_told = True  # the next announcement starts the news anew
        self.app._put("#prompt", self.app.prompt_text(view, self.app.size.width or 80))
        # the table waits for a person: what came after a tall block shows
        self.app.query_one("#log", HistoryLog).follow_later()


class TableApp(InLanguage, App):
    """The table program's full screen: a display of a ``Table`` (subscribed to its seam,
    as every display is) and where its input comes from (typed lines, one-key answers,
    the pyramid's events, taken on the UI thread).

    ``table``: the ``camelhost.table.controller.Table`` to show, made by the caller as
    for any display (``pyramid play`` makes it as for the plain mode), with ``events``:
    the pyramid's queue of ``("event", DieEvent)`` items (``OpenPyramid.events()``) or
    ``None``; ``web_url``: the web scoreboard's address while one runs (``--web``),
    shown on the empty command line (``command_hint``); ``notices``: lines said before
    the table opened (no espeak-ng for ``--speak``, the seed drawn), its history's
    first. Or, for a table the app makes (tests, tools), a ``Session``, with
    ``pyramid``: what ``camelhost.device.open.open_pyramid`` yields (or ``None`` for
    typed dice; its ``events()`` are read); ``auto_setup``: draw the starting stacks
    (virtual pyramid); ``speaker``: a ``table.Speaker`` (``--speak``); ``seam``: the
    table's ``camelhost.table.display.Seam`` when the caller made one, else the app makes
    its own (and closes it); ``odds``: what the seam it makes works the odds out with,
    ``snapshot -> odds`` (default ``camelhost.table.view.odds_view``, the figures every
    display shows; tests pass a cheap one). ``theme_name``: ``"dark"`` or ``"light"``
    (default: ``default_theme()``; F6 switches). Raises ``ValueError`` given both
    ``seam`` and ``odds`` (the seam's own odds function serves every display), or a
    ``Table`` with what only a table the app makes takes."""

    #: The window's title (in the table's language: ``self.title``).
    TITLE = N_("Camel Up smart pyramid")
    #: The styles, beside this module (shipped in the wheel): the table and its pop-ups.
    CSS_PATH = "table.tcss"
    @classmethod
    def key_bindings(cls):
        """The table's keys, described in the table's language (``InLanguage``)."""
        return [
            Binding("f1", "help", _("Help")),
            Binding("f3", "leg_panel", _("Leg scoring")),
            Binding("f5", "release", _("Release (virtual)")),
            Binding("f6", "toggle_theme", _("Dark/light")),
            Binding("pageup", "history(-1)", _("History back"), show=False),
            Binding("pagedown", "history(1)", _("History on"), show=False),
            Binding("end", "newest", _("Newest history line"), show=False, priority=True),
            Binding("down", "panel(1)", _("Panel on"), show=False),
            Binding("up", "panel(-1)", _("Panel back"), show=False),
            Binding("escape", "back", _("Back to the odds"), show=False),
            Binding("ctrl+q", "quit_table", _("Quit"), priority=True),
            Binding("ctrl+c", "quit_table", _("Quit"), show=False, priority=True),
            Binding("ctrl+d", "quit_table", _("Quit"), show=False, priority=True),
        ]

    def __init__(self, table, pyramid=None, auto_setup=False, speaker=None,
                 theme_name=None, seam=None, odds=None, events=None, web_url=None,
                 notices=()):
        if seam is not None and odds is not None:
            raise ValueError(_("the full screen takes a seam or an odds function, not both: "
                               "the seam's own odds function serves every display"))
        made = not isinstance(table, Table)
        if not made and (pyramid is not None or auto_setup or speaker is not None
                         or seam is not None or odds is not None):
            raise ValueError(_("the full screen shows a table as it was made: its pyramid, "
                               "setup, speaker, seam and odds are the table's"))
        App.__init__(self)
        self.title = _(self.TITLE)
        self.table_display = TuiDisplay(self)
        #: the seam is the app's to close (it made it)
        self._own_seam = made and seam is None
        if made:
            session = table
            if seam is None:
                seam = Seam(session, compute=odds)
            table = Table(session, self.table_display, speaker=speaker,
                          pyramid=pyramid.virtual if pyramid is not None else None,
                          auto_setup=auto_setup,
                          manual=pyramid is None or pyramid.manual, seam=seam)
            if pyramid is not None:
                events = pyramid.events()
        else:
            table.seam.subscribe(self.table_display)
        self.table = table
        # a finish card's colour is masked as it is typed here: no one else reads it
        table.colours_masked = True
        self.session = table.session
        #: the pyramid's events (``("event", DieEvent)`` items), or ``None``
        self.events = events
        self.theme_name = theme_name or default_theme()
        # the theme is chosen before the styles are first applied (set once mounted,
        # every style on the screen would be worked out a second time)
        for theme in THEMES.values():
            self.register_theme(theme)
        self.theme = THEMES.get(self.theme_name, THEMES["dark"]).name
        self.hide_colours = False  # a finish card is being played: mask colour words
        self._refusal = None  # (history index, reason) of the refusal on the error line
        self._hidden_words = []  # ... and the words typed after its command
        self._die_shown = None  # _latest_die() of the die announced
        self._odds_key = None  # state_key of the odds shown (or being computed)
        self._odds_answered = None  # state_key of the odds shown (or of their failure)
        self._odds = None  # figures shown
        self._last_die = []  # notices of the last die announced (for a resize)
        #: the newest announcement's lines, in the history's words: what the table said
        #: since it last waited for a person (a die, the dice that can still come out and
        #: the pyramid tickets left, a leg's scoring, the race's end, the bots' moves
        #: after them); the notice of a too small terminal shows them
        self.news = []
        self.news_told = True  # the table waited for a person since ``news``
        #: what says how many of ``news``' lines the notice leaves out (``tell``)
        self.news_cut = plan.news_cut_line
        self.opening = False  # True while the table starts (``Table.start``, ``on_mount``)
        self._setup_banner = False  # the banner asks for the camels to be set up
        self._view = None  # the facts last drawn
        self._texts = {}  # widget id -> the Text last put in it (for fit)
        self._holding = 0  # > 0 inside ``one_update``: fit() waits for its end
        self._fit_wanted = False  # fit() was asked for while holding
        self._detail_on = False  # the last die's detail line is announced
        self._banner_on = False  # the banner is announced (the plan may hide it)
        self._digits_on = False  # the big digits are announced (the plan may hide them)
        self._leaders_on = True  # the leaders line is wanted (not with the race over)
        self.answering = 0  # > 0 while the table answers what was typed or pressed
        #: the ``JournalFull`` that stopped the table (``run`` raises it), or ``None``
        self.failure = None
        self._echo_waits = None  # the echo of the command being answered, not yet written
        #: the history index of that echo once written before the table's reply ended
        #: (a line said first, then the refusal: ``refuse_echo`` marks it there)
        self._echo_written = None
        self.prompt_view = None  # the view the prompt line was last made for
        #: the lines of the question of the ``undo`` asked about (``Table.undo_asked``)
        self.asked_lines = []
        #: the web scoreboard's address while one runs (``--web``), else ``None``
        self.web_url = web_url
        #: lines said before the table opened (``--speak`` without espeak-ng, the seed
        #: drawn): the first lines of the history, as plain mode's first lines
        self.notices = list(notices)


    @property
    def odds_function(self):
        """What computes the odds panel's figures from a ``snapshot``: the seam's, whose
        one worker runs it for every display (``Seam.compute``); a test that looks past
        the odds may set a cheaper one."""
        return self.table.seam.compute

    @odds_function.setter
    def odds_function(self, function):
        self.table.seam.compute = function
    def compose(self) -> ComposeResult:
        yield Static("", id="too-small")
        with Horizontal(id="top"):
            yield Digits("", id="big")
            with Vertical(id="heads"):
                yield Static("", id="announce")
                yield Static("", id="detail")
                yield Static("", id="leaders")
        yield TrackView("", id="track")
        with Horizontal(id="middle"):
            with ContentSwitcher(initial="odds-box", id="left"):
                with VerticalScroll(id="odds-box", can_focus=False):
                    yield Static("", id="odds")
                with Vertical(id="leg-box"):
                    with PanelScroll(id="leg-scroll"):
                        yield Static("", id="legscore")
                    yield Static("", id="leg-more")
                with Vertical(id="over-box"):
                    with PanelScroll(id="over-scroll"):
                        yield Static("", id="raceover")
                    yield Static("", id="over-more")
            with VerticalScroll(id="info-box", can_focus=False):
                yield Static("", id="players")
        yield Static("", id="info")
        yield HistoryLog(id="log")
        yield Static(_("▲ older lines shown; newer below: PgDn or End"), id="more")
        with Vertical(id="bottom"):  # docked: the command line is never pushed off
            yield Static("", id="error")
            yield Static("", id="prompt")
            yield CommandInput(placeholder=command_hint(self.size.width or 80, self.web_url),
                               id="command")

    def on_mount(self):
        # wired before the table starts: a resumed race that is over shows its
        # race-over panel at once, and ``fit`` sets that panel's hint line
        self.query_one("#log", HistoryLog).marker = self.query_one("#more", Static)
        self.query_one("#over-scroll", PanelScroll).hint = self.query_one("#over-more", Static)
        self.query_one("#leg-scroll", PanelScroll).hint = self.query_one("#leg-more", Static)
        first = list(self.notices)  # already worded (``pyramid play``), in plain's order
        if self._journal_path():  # as plain mode's first line: the file a crash resumes
            first.append(_("journal: %s") % self._journal_path())
        if first:
            self.query_one("#log", HistoryLog).add_lines(first)
        self._race_so_far()
        #: when each of the table's moments began: a line typed in one is taken with it
        self.moments = Moments(self.table, clock=KEY_CLOCK)
        self.opening = True
        try:
            self._journaled(self.table.start)
        finally:
            self.opening = False
        if self.failure is not None:
            return  # the journal could not be written: the table stops
        if self._die_shown != self._latest_die():
            self._show_last_die()  # a resumed race: its last die
        self.query_one("#command", Input).focus()
        if self.events is not None:  # no thread of its own: a timer on the UI thread
            self.set_interval(EVENTS_EVERY_S, self.take_events)

    def _race_so_far(self):
        """A resumed table's history starts with the race so far, from its journal
        (``journal_history``), and a line marking where the table resumed, before what
        the table says on resuming (s35: it started at the resume)."""
        journal = self.session.journal
        events = getattr(journal, "events", None)
        if not self.table.resumed or not events or len(events) < 2:
            return
        # the session was made from these very events (``Session.resume``): they apply
        lines = journal_history(events, getattr(journal, "path", None))
        if lines:
            self.query_one("#log", HistoryLog).add_lines(lines + [_(RESUMED_HERE)])

    def on_resize(self, event):
        """A resized terminal: the panels are laid out again for its width (also
        while the track is hidden, at setup) and its height shared out again."""
        if self._view is not None:
            self.call_after_refresh(self.refresh_panels)
        if self.prompt_view is not None:  # the example die back, or left out
            self._put("#prompt", self.prompt_text(self.prompt_view, event.size.width))
        self.query_one("#command", Input).placeholder = command_hint(event.size.width,
                                                                     self.web_url)

    def prompt_text(self, view, width):
        """The prompt line for ``view`` in ``width`` columns: what the table waits for
        (``plain.prompt_line``), or, while an ``undo`` that takes back a scoring is asked
        about (``Table.undo_asked``), that ``undo`` typed again does it: the question,
        taller than the history at 80x24, shows its start, and its last words (how to
        confirm) were below the fold (tester s34-2)."""
        if self.table.undo_asked:
            yes, no = answers_named()  # as the question names them
            for line in (_("> undo asked above: 'undo' or %(yes)s does it, %(no)s or anything "
                           "else leaves it") % {"yes": yes, "no": no},
                         _("> 'undo' or %(yes)s does it") % {"yes": yes}):
                if len(line) <= width:
                    return line
            return line
        line = plain.prompt_line(view, width)
        name = view.get("turn") or ""
        # a long name is cut (``…``) rather than the choices after it (tester s34-2: a
        # 55-character name left '(leg / tile /' at 80 columns)
        for keep in range(cell_len(name) - 1, 3, -1):  # columns, as ``cut`` takes them
            if cell_len(line) <= width:
                break
            line = plain.prompt_line(dict(view, turn=cut(name, keep)), width)
        return line

    def on_unmount(self):
        self.table.seam.unsubscribe(self.table_display)
        if self._own_seam:
            self.table.seam.close()

    def take_events(self):
        """Hand the pyramid's waiting events to the table, in order, on the UI thread
        (every ``EVENTS_EVERY_S``; at most ``EVENTS_AT_ONCE`` a time, the screen
        redrawn between; those taken together are one screen update)."""
        import queue
        if self.events.empty():
            return
        with self.one_update():
            for _count in range(EVENTS_AT_ONCE):
                if self.failure is not None:
                    return  # the journal could not be written: the table stops
                try:
                    kind, item = self.events.get_nowait()
                except queue.Empty:
                    return
                if kind == "event":
                    self.pyramid_event(item)

    def pyramid_event(self, event):
        """One event from the pyramid, on the UI thread: the last error goes (it was
        about what came before), then the table takes the event (one screen update)."""
        with self.one_update():
            self.clear_error()
            self._journaled(lambda: self.table.pyramid_event(event))

    # -- what the screen shows -------------------------------------------------

    def clear_error(self):
        """The status line's last error goes: a command was sent, or the pyramid
        reported an event."""
        error = self.query_one("#error", Static)
        refusal, self._refusal = self._refusal, None
        if refusal is not None:  # its reason goes into its command's mark
            log = self.query_one("#log", HistoryLog)
            at, reason = refusal
            mark = "  " + _("(refused)")
            if at < len(log.history) and log.history[at].endswith(mark):
                log.amend(at, log.history[at][:-len(mark)] + "  " + _("(refused: %s)") % reason)
        if error.display:
            error.update("")
            error.display = False
            self.fit()

    def show_notices(self, notices, view):
        """Announcement, big digits and panels after a batch of notices."""
        view = facts(self.session)
        big = announce_text(notices, view)
        if big is not None:
            self._announce(notices, view, big)
        elif self._die_shown != self._latest_die():
            self._show_last_die()  # an undo took the announced die back
        if any(n["kind"] == "leg_scored" for n in notices) and view["final"] is None:
            self._open_leg_panel()
        self.refresh_panels()

    def _announce(self, notices, view, big):
        box = self.query_one("#announce", Static)
        box.update(big)
        box.display = self._banner_on = True
        detail = self.query_one("#detail", Static)
        more = detail_text(notices, view)
        detail.update(more or "")
        detail.display = self._detail_on = more is not None
        digits = big_number(notices)
        if digits is not None:
            self._show_digits(digits, notices)
        self._die_shown = self._latest_die()
        self._setup_banner = banner_kind(notices) == "new_race"

    def tell(self, lines, cut_line=plan.news_cut_line):
        """``lines`` (``str`` each, the history's words) are what the table said: the
        start of the news (``news``) when the table has waited for a person since the
        news before, else added to it. Below ``MIN_SIZE`` the notice shows them at once
        (``fit``; inside ``one_update`` at its end): a reply to 'best' or 'odds' comes
        with no re-layout, and showed only at the next one (tester s44b finding 1).
        ``cut_line``: for news started anew, the line saying how many of its lines the
        notice leaves out and where they show (``plan.too_small_news``)."""
        if self.news_told:
            self.news, self.news_cut = list(lines), cut_line
        else:
            self.news = self.news + list(lines)
        self.news_told = False
        if self.query_one("#too-small", Static).display:
            self.fit()

    def die_in_banner(self):
        """True while the banner in view says the last die whole: its announcement and
        its detail line (whose pyramid ticket, the die, what it carried, where it went,
        a tile paid) shown, as the plan left them (``fit``)."""
        return bool(self._banner_on and self._detail_on
                    and self.query_one("#announce").display
                    and self.query_one("#detail").display)

    def show_asked_scoring(self):
        """While the table asks about an ``undo`` that takes back a leg's scoring, that
        scoring's panel is in view (the race-over panel stays for the race's end): the
        odds and the advice of the leg after it would be taken back with it."""
        view = facts(self.session)
        current = self.query_one("#left", ContentSwitcher).current
        if view["leg_scored"] is not None and current == "odds-box":
            self._open_leg_panel()

    def question_rows(self):
        """The history's rows the question an ``undo`` asks takes, wrapped to the pane
        (``HistoryLog``'s width), while it is asked (``Table.undo_asked``); else
        ``LOG_MIN``."""
        if not self.table.undo_asked or not self.asked_lines:
            return LOG_MIN
        room = self.query_one("#log", HistoryLog)._room()
        return sum(len(wrap_lines(line, room)) for line in self.asked_lines)

    def _open_leg_panel(self):
        """A leg was scored: its panel in view, from its top (a page turned in the
        panel of a leg scored before, then undone, is not kept)."""
        self.query_one("#leg-scroll", PanelScroll).scroll_home(animate=False, immediate=True)
        self._switch("leg-box")

    def _latest_die(self):
        """(race, how many reports up to the latest die's) of the session now."""
        reports = self.session.reports
        for i in range(len(reports) - 1, -1, -1):
            if reports[i].get("move"):
                return (self.session.race_no, i + 1)
        return (self.session.race_no, 0)

    def _show_last_die(self):
        """The latest die of the race, as if just announced (after a resume or an
        undo); a race that is over says its result instead, as when it ended (tester
        s34-2: a resume showed the last die's banner); nothing announced when the race
        has none."""
        view = facts(self.session)
        if view["final"] is not None and view["phase"] == "over":
            notices = [{"kind": "final", "final": view["final"]}]
            last = next((r for r in reversed(self.session.reports) if r.get("move")), None)
            if last is not None and last["move"].get("rule"):
                # a crazy camel ended the race: which one and how, as when it happened
                notices.insert(0, {"kind": "die", "player": last["player"],
                                   "move": last["move"]})
            self._announce(notices, view, announce_text(notices, view))
            return
        for report in reversed(self.session.reports):
            if report.get("move"):
                notices = [{"kind": "die", "player": report["player"], "move": report["move"]}]
                if self.session.phase == "over" and self.session.result is not None:
                    notices.append({"kind": "final", "final": self.session.result,
                                    "race": self.session.race_no})
                self._announce(notices, view, announce_text(notices, view))
                return
        for wid in ("#announce", "#detail", "#big"):
            self.query_one(wid).display = False
        self._detail_on = self._digits_on = self._banner_on = False
        self._die_shown = self._latest_die()
        self._setup_banner = False

    def _show_digits(self, digits, notices):
        big = self.query_one("#big", Digits)
        big.update(digits)
        big.display = self._digits_on = bool(digits)
        camel = None
        for n in reversed(notices):
            if n["kind"] == "die":
                camel = n["move"]["camel"]
                break
        if camel is not None:
            p = palette.piece(camel)
            big.styles.background = p.rgb
            big.styles.color = p.ink

    def _switch(self, panel):
        switcher = self.query_one("#left", ContentSwitcher)
        if switcher.current != panel:
            switcher.current = panel
            self.fit()

    def odds_width(self):
        """Columns of the panel on the left (``camelhost.ui.plan.odds_width``)."""
        return plan.odds_width(self._view, self.size.width or 80)

    def refresh_panels(self):
        """Redraw the track, players, counts and the panel on the left from the
        session; start the odds worker when the game changed (one screen update:
        ``one_update``)."""
        with self.one_update():
            self._refresh_panels()

    def _refresh_panels(self):
        view = self._view = facts(self.session)
        left = self.query_one("#left", ContentSwitcher)
        if left.styles.width is None or left.styles.width.value != self.odds_width():
            left.styles.width = self.odds_width()
            if self._odds is not None:
                self._show_odds(self._odds, view)
        over = view["final"] is not None and view["phase"] == "over"
        leaders = self.query_one("#leaders", Static)
        self._put("#leaders", leaders_text(view))
        # the race-over panel has the final order (else the plan may hide it: ``fit``)
        leaders.display = self._leaders_on = not over
        self._put("#players", players_text(view, plan.players_width(view, self.size.width or 80)))
        self._put("#info", info_text(view, self.size.width or 80))
        self._info_brief = info_text(view, self.size.width or 80, waiting=False)
        if self._setup_banner and view["phase"] != "setup":
            self._show_last_die()  # the camels are set up: 'SET UP THE CAMELS' goes
        self.set_class(over, "-over")
        if over:
            self._put("#raceover", race_over_text(view, self.odds_width() - 2))
            self._switch("over-box")
        elif self.query_one("#left", ContentSwitcher).current == "over-box":
            self._switch("odds-box")
        if view["leg_scored"] is not None:
            self._put("#legscore", leg_score_text(view["leg_scored"],
                                                  width=self.odds_width() - 2))
        elif self.query_one("#left", ContentSwitcher).current == "leg-box":
            self._switch("odds-box")  # the leg's end was undone
        self.sub_title = _("race %(race)d, leg %(leg)d") % {"race": view["race"],
                                                            "leg": view["leg"]}
        self.fit()
        self._want_odds(view)

    def _too_small(self):
        """Below ``MIN_SIZE`` the screen shows ``too_small_text`` in place of the race
        (nothing dropped without a word), and under it as many of the newest
        announcement's lines (``news``: a die and its movement, the dice that can still
        come out and the pyramid tickets left, a leg's scoring, the race's end; a resumed
        race's lines on resuming, ``narration.resumed_lines``, until then; in the
        history's and the plain screen's words, wrapped as the history wraps them) as
        fit the rows the error line, the prompt
        and the command line leave (``plan.too_small_news``): the race goes on there,
        as the notice says; True then. Back to the race once big enough."""
        width, height = self.size.width or 80, self.size.height or 24
        small = plan.too_small(width, height)
        notice = self.query_one("#too-small", Static)
        if small:
            text = too_small_text(width, height)
            room = width - notice.styles.padding.width
            error = self.query_one("#error", Static)
            below = plan.BOTTOM_ROWS + (min(plan.ERROR_ROWS, text_rows(str(error.content), width))
                                        if error.display else 0)
            rows = (height - below - notice.styles.padding.height
                    - text_rows(text.plain, room))
            # each line wrapped as the history wraps it: its rows after the first
            # indented under it (a leg's scoring's lines)
            news = plan.too_small_news(["\n".join(wrap_lines(line, room)) for line in self.news],
                                       room, rows, self.news_cut)
            if news:
                text.append("\n\n" + "\n".join(news), style="not bold")
            notice.update(text)
        if notice.display != small:
            notice.display = small
            for wid in MAIN_PARTS:
                self.query_one(wid).display = not small
            if not small:
                log = self.query_one("#log", HistoryLog)
                self.query_one("#more").display = not log.following
        return small

    def _put(self, wid, text):
        """Show ``text`` (a Rich ``Text``, or a ``str`` for a ``ONE_ROW`` line) in the
        widget ``wid`` and keep it for ``fit``. Nothing is drawn again when the widget
        shows that text already, and the screen is not laid out again for a one-row
        line, nor when an unwrapped panel (``UNWRAPPED``) gets as many lines as it had
        (its size cannot change)."""
        old = self._texts.get(wid)
        if old is not None and old == text:
            return
        self._texts[wid] = text
        same_rows = wid in ONE_ROW or (wid in UNWRAPPED and old is not None
                                       and old.plain.count("\n") == text.plain.count("\n"))
        self.query_one(wid, Static).update(text, layout=not same_rows)
        if wid == "#info":
            self._info_shown = text  # shown whole (``fit`` may take the brief form)

    @contextmanager
    def one_update(self):
        """Everything the screen changes inside is one screen update
        (``App.batch_update``) with the height shared out once, at its end: ``fit``
        asked for on the way (a panel switched, the error line shown, the panels
        redrawn) waits for it. Nests; the outermost runs the one ``fit``."""
        with self.batch_update():
            self._holding += 1
            try:
                yield
            finally:
                self._holding -= 1
            if not self._holding and self._fit_wanted:
                self.fit()

    def fit(self):
        """Share the screen's height out as the plan says (``camelhost.ui.plan.plan``:
        the size, the view, the texts shown): the detail line, the track and its rows,
        the panels' band, the race-over panel's hint line. Inside ``one_update`` it
        runs once, at the end."""
        if self._holding:
            self._fit_wanted = True
            return
        self._fit_wanted = False
        if self._too_small():
            return
        view = self._view
        if view is None:
            return
        shown = self.screen_plan()
        self.query_one("#detail", Static).display = shown.detail
        self.query_one("#big").display = shown.digits
        self.query_one("#announce").display = shown.banner and self._banner_on
        self.query_one("#leaders").display = shown.leaders
        self._show_players_form(shown.players_compact)
        if "#info" in self._texts:  # the counts whole, or without whose ticket waits
            info = self._info_brief if shown.info_brief else self._texts["#info"]
            if getattr(self, "_info_shown", None) is not info:
                self._info_shown = info
                self.query_one("#info", Static).update(info)
        self._show_odds_form(shown.odds_noted, shown.odds_single)
        track = self.query_one("#track", Static)
        track.display = shown.track
        if shown.track:
            self._put("#track", track_text(view, self.size.width or 80, rows=shown.track_rows))
        self.query_one("#middle").styles.max_height = shown.middle
        self._show_marker(shown.marker_in_hint)
        current = self.query_one("#left", ContentSwitcher).current
        if current in ("over-box", "leg-box"):
            scroll = self.query_one("#%s" % current.replace("-box", "-scroll"), PanelScroll)
            scroll.hint.display = shown.hint
            scroll.styles.max_height = "100%" if shown.panel_rows is None else shown.panel_rows
            self.call_after_refresh(scroll.show_hint)
        # Panels above may have grown: the history keeps its newest line in view.
        self.query_one("#log", HistoryLog)._follow_up()

    def _show_marker(self, in_hint):
        """The history's marker while it is scrolled back: a row of its own under it, or,
        when the plan has no row for it (``in_hint``: that row would make the panels
        scroll, hiding a player or the bots' line), the empty command line's hint."""
        back = not self.query_one("#log", HistoryLog).following
        more = self.query_one("#more", Static)
        if more.display != (back and not in_hint):
            more.display = back and not in_hint
        hint = (str(more.content) if back and in_hint
                else command_hint(self.size.width or 80, self.web_url))
        command = self.query_one("#command", Input)
        if command.placeholder != hint:
            command.placeholder = hint

    def _players_compact(self):
        """The players table in its compact form (``panels.players_text``), for a
        screen too short for the whole one; made once for each view and width (``fit``
        asks for it every time)."""
        view = self._view
        width = plan.players_width(view, self.size.width or 80)
        made = getattr(self, "_compact_made", None)
        if made is None or made[0] is not view or made[1] != width:
            made = self._compact_made = (view, width, players_text(view, width, compact=True))
        return made[2]

    def _show_players_form(self, compact):
        """The players table whole, or in its compact form (``compact``) as the plan says."""
        if "#players" in self._texts:
            self.query_one("#players", Static).update(
                self._players_compact() if compact else self._texts["#players"])

    def _noted_odds(self):
        """The odds panel shown with its narrow advice's note line
        (``odds_lines(noted=True)``), made with the panel's text now; else ``None``."""
        made = getattr(self, "_odds_noted", None)
        if made is not None and made[0] is self._texts.get("#odds"):
            return made[1]
        return None

    def _single_odds(self):
        """The odds panel with its narrow advice's second action left out
        (``odds_lines(split=False)``), made with the panel's text now, where that text
        has it on two rows of its own; else ``None``."""
        made = getattr(self, "_odds_single", None)
        if made is not None and made[0] is self._texts.get("#odds"):
            return made[1]
        return None

    def _show_odds_form(self, noted, single=False):
        """The odds panel with its narrow advice's note line (``noted``), or with its
        second action left out (``single``), or as it is, as the plan says."""
        if "#odds" in self._texts:
            form = self._noted_odds() if noted else None
            self._odds_shown_noted = form is not None
            alone = self._single_odds() if single and form is None else None
            self._odds_shown_single = alone is not None
            self.query_one("#odds", Static).update(form or alone or self._texts["#odds"])

    def screen_plan(self):
        """The plan (``camelhost.ui.plan.plan``) for what the screen shows now."""
        def content(wid):
            return str(self.query_one(wid, Static).content)

        banner = [content("#announce")] if self._banner_on else []
        leaders = content("#leaders") if self._leaders_on else None
        error = content("#error") if self.query_one("#error").display else None
        panel = {"odds-box": "odds", "leg-box": "leg", "over-box": "over"}[
            self.query_one("#left", ContentSwitcher).current]
        texts = {name: self._texts[wid].plain for name, wid in
                 (("info", "#info"), ("players", "#players"), ("odds", "#odds"),
                  ("legscore", "#legscore"), ("raceover", "#raceover")) if wid in self._texts}
        if self._view is not None:
            texts["players_compact"] = self._players_compact().plain
        noted = self._noted_odds()
        if noted is not None:
            texts["odds_noted"] = noted.plain
        single = self._single_odds()
        if single is not None:
            texts["odds_single"] = single.plain
        brief = getattr(self, "_info_brief", None)
        if brief is not None:
            texts["info_brief"] = brief.plain
        return plan.plan(self._view, (self.size.width or 80, self.size.height or 24), texts,
                         panel=panel, banner=banner, digits=self._digits_on, leaders=leaders,
                         error=error, detail=content("#detail") if self._detail_on else None,
                         scrolled_back=not self.query_one("#log", HistoryLog).following,
                         log_need=self.question_rows())

    def _want_odds(self, view):
        s = self.session
        key = state_key(view)
        if key == self._odds_key:
            return
        self._odds_key = key
        if s.game is None or s.phase in ("over", "unscored", "setup"):
            self._odds = None
            self._odds_answered = key
            self._put("#odds", odds_lines(None, view))
            return
        if self._odds is None:  # else the old figures stay until the new are ready
            self._put("#odds", odds_lines(None, view, waiting=True))
        seam = self.table.seam
        seam.catch_up()  # the seam's worker works them out, once for every display

        def work():
            advice = seam.wait_advice(key)
            if advice is None:
                return None, None, view  # the game moved on: a newer key is wanted
            if advice.error is not None:
                raise RuntimeError(advice.error)
            return key, advice.odds, view

        self.run_worker(work, thread=True, exclusive=True, group="odds", exit_on_error=False)

    def on_worker_state_changed(self, event):
        from textual.worker import WorkerState
        if event.worker.group != "odds" or not self.is_running:
            return  # closing: the odds panel may be gone already
        if event.state == WorkerState.SUCCESS:
            key, figures, view = event.worker.result
            if key != self._odds_key:
                return  # the game moved on; a newer computation is on its way
            self._odds = figures
            self._odds_answered = key
            with self.one_update():
                self._show_odds(figures, view)
        elif event.state == WorkerState.ERROR:
            self._odds_answered = self._odds_key
            self._put("#odds", Text(_("Odds unavailable: %s") % (event.worker.error,)))

    @property
    def odds_pending(self):
        """True while the odds panel waits for the figures of the position in play:
        asked of the table's seam, not yet shown (nor their failure)."""
        return self._odds_key != self._odds_answered

    def _show_odds(self, figures, view):
        """Put the odds panel for ``figures``; the height is shared out again only when
        the panel's lines are more or fewer (the plan counts its rows, nothing else)."""
        old = self._texts.get("#odds")
        self._put("#odds", odds_lines(figures, view, self.odds_width(), tile_names(view),
                                      waiting=figures is None))
        new = self._texts["#odds"]
        noted = odds_lines(figures, view, self.odds_width(), tile_names(view),
                           waiting=figures is None, noted=True)
        before = getattr(self, "_odds_noted", None)
        self._odds_noted = (new, noted)
        single = odds_lines(figures, view, self.odds_width(), tile_names(view),
                            waiting=figures is None, split=False)
        was_single = getattr(self, "_odds_single", None)
        self._odds_single = (new, single) if single.plain != new.plain else None
        # the plan reads the panel's rows, with and without the note line (and with the
        # second action left out, where the panel's text has it on two rows of its own):
        # shared out again when a count changes, or when another form than the plain
        # text _put has just shown is on screen (that text must give way to it)
        if (old is None or before is None or getattr(self, "_odds_shown_noted", False)
                or getattr(self, "_odds_shown_single", False)
                or (was_single is None) != (self._odds_single is None)
                or old.plain.count("\n") != new.plain.count("\n")
                or before[1].plain.count("\n") != noted.plain.count("\n")):
            self.fit()

    # -- input -------------------------------------------------------------------

    def masked(self, message):
        """``message`` with every racing colour's name, and every word typed after
        the finish-card command, replaced by ``MASK`` (a finish card's colour is never
        drawn, RULES 1.8, 5). The list of every racing colour (``blue, green, ...``, as
        an error names the colours to choose from) is public and stays: it tells
        nothing of the card."""
        racing = self.session.edition.racing
        words = (set(self._hidden_words) | set(racing)
                 | {colour_word(c) for c in racing})  # German 'rot' too
        public = colour_list(racing)
        pieces = message.split(public)
        for i, piece in enumerate(pieces):
            for word in sorted(words, key=len, reverse=True):
                piece = re.sub(r"(?i)(?<![A-Za-z])%s(?![A-Za-z])" % re.escape(word), MASK,
                               piece)
            pieces[i] = piece
        return public.join(pieces)

    def _echo(self, text):
        """Echo ``text`` in the history once the table says anything in reply to it
        (or accepts it in silence); refused, it is echoed marked so (``refuse_echo``)."""
        if is_finish_command(text, self.session.names):
            shown = masked_command(text.strip(), self.session.names)
        else:
            shown = shorten(text, ECHO_MAX)
        self._echo_waits = "> " + shown
        self._echo_written = None

    def flush_echo(self):
        """Write the echo waiting for the table's reply, if any (before that reply)."""
        line, self._echo_waits = self._echo_waits, None
        if line is not None:
            log = self.query_one("#log", HistoryLog)
            log.add(line)
            if self.answering:  # written by the reply: a refusal after it marks it there
                self._echo_written = len(log.history) - 1

    def refuse_echo(self, reason=None):
        """The command was refused: its echo goes into the history marked ``(refused)``
        (the history keeps what was typed). ``reason``: the refusal on the error line,
        written into that mark when the error line is cleared (``clear_error``). An
        echo the table's reply already wrote (a line said before the refusal: an undo
        asked about, left by the refused line, says ``nothing undone`` first) is
        marked where it stands."""
        log = self.query_one("#log", HistoryLog)
        at, mark = self._echo_written, "  " + _("(refused)")
        if (self._echo_waits is None and at is not None and at < len(log.history)
                and log.history[at].startswith("> ") and not log.history[at].endswith(mark)):
            log.amend(at, log.history[at] + mark)
            if reason is not None:
                self._refusal = (at, without_echo(reason, log.history[at][2:-len(mark)]))
            return
        if self._echo_waits is not None:
            typed = self._echo_waits[2:]
            self._echo_waits += "  " + _("(refused)")
            self.flush_echo()
            if reason is not None:
                self._refusal = (len(self.query_one("#log", HistoryLog).history) - 1,
                                 without_echo(reason, typed))
        self.flush_echo()

    def _journaled(self, work):
        """Run ``work()`` (the table taking something); returns what it returns. When
        the journal can't be written (``JournalFull``: the disk, a quota, the file-size
        limit) the table stops: the message goes on the error line, the app exits and
        ``run`` raises it (``pyramid`` says its one line, as in the plain mode:
        docs/table.md); returns False then."""
        try:
            with self.one_update():
                result = work()
                moments = getattr(self, "moments", None)
                if moments is not None:  # what the table waits for may have changed
                    moments.note()
        except JournalFull as exc:
            self.failure = exc
            box = self.query_one("#error", Static)
            box.update(Text("! " + str(exc.strerror), "bold"))
            box.display = True
            self.exit(return_code=1)
            return False
        return result

    def get_driver_class(self):
        """Textual's driver for this platform; on a POSIX terminal with its keyboard
        decoded so that a byte that is no UTF-8 text reaches the command line as
        ``terminal.REPLACEMENT`` (``camelhost.ui.terminal``), never ends the table."""
        driver = App.get_driver_class(self)
        try:
            from textual.drivers.linux_driver import LinuxDriver
        except ImportError:  # no termios (Windows): Textual's driver as it is
            return driver
        return terminal.lenient(driver) if driver is LinuxDriver else driver

    def run(self, *args, **kwargs):
        """``App.run``; then raises the ``JournalFull`` that stopped the table, if one
        did (after the full screen is gone, so its one line stays on the terminal)."""
        result = App.run(self, *args, **kwargs)
        if self.failure is not None:
            raise self.failure
        return result

    def _answer(self, work):
        """Run ``work()`` as the table's answer to what was typed or pressed: a refusal
        shows on the error line only (``TuiDisplay.error``). Returns what it returns
        (False when the journal could not be written: ``_journaled``)."""
        self.answering += 1
        try:
            return self._journaled(work)
        finally:
            self.answering -= 1
            self.flush_echo()  # accepted in silence: still echoed
            if not self.answering:  # answered: a refusal later is no refusal of it
                self._echo_written = None

    def _submit(self, text, typed_at=None, emptied=False):
        with self.one_update():  # one screen update for the line, whatever it changes
            self._take_line(text, typed_at, emptied)
            if self.prompt_view is not None and self.is_running:
                # an undo asked about is left by any line, a refused one too
                self._put("#prompt", self.prompt_text(self.prompt_view,
                                                      self.size.width or 80))

    #: the lines (one word, lower case) the screen answers itself, not ``Table.line``:
    #: the help, the board in the history, a bare finish card's picker (``_opens_picker``)
    HELP_WORDS = ("help", "?")
    SHOW_WORDS = ("show", "board", "status")
    PICKER_WORDS = ("win", "winner", "lose", "loser")

    def _opens_picker(self, words):
        """True when the line of ``words`` (its lower-case words) opens the private
        finish-card picker: a bare ``win``/``lose`` on a turn; with every finish card
        laid, the table refuses it in one line instead (RULES 1.8)."""
        return (len(words) == 1 and words[0] in self.PICKER_WORDS
                and self.session.phase == "turn"
                and self.session.no_finish_card_left() is None)

    def _goes_to_table(self, words):
        """False when ``_take_line`` answers the line of ``words`` (its lower-case words,
        at least one) on the screen itself, without ``Table.line``: ``help``, ``show``, a
        bare ``win``/``lose`` opening the picker."""
        return not (len(words) == 1 and words[0] in self.HELP_WORDS + self.SHOW_WORDS
                    or self._opens_picker(words))

    def _take_line(self, text, typed_at=None, emptied=False):
        """The line ``text`` typed (its Enter pressed at ``typed_at``, ``KEY_CLOCK``;
        ``None``: now), taken with the table's moment then (``Table.line``). ``emptied``:
        the command line emptied itself at the Enter (``CommandInput.action_submit``), and
        what it holds now was typed since: left as it is."""
        box = self.query_one("#command", Input)
        if not emptied:
            box.value = ""
            box.password = False
        self.clear_error()
        words = text.strip().lower().split()
        if not words:
            return
        # a line typed while the history is held at a long block's start (the table's
        # doing: 'best', a long undo) brings it back to the newest line, so its reply
        # shows (tester s32-2, finding 2); scrolled back by the player, it stays put
        self.query_one("#log", HistoryLog).release_block()
        self._echo(text)
        # a person typed: what the table says now starts the news anew (its reply to
        # 'best' after the reply to 'odds', not under it)
        self.news_told = True
        if terminal.REPLACEMENT in text or not self._goes_to_table(words):
            # answered here, not by the table: still a line typed between two pushes
            self.table.answered_aside(text)
        if terminal.REPLACEMENT in text:  # a byte the terminal sent that is no UTF-8 text
            self._answer(lambda: self.table.display.error(
                _("that line is not %s text (a byte the table can't read): it was skipped, "
                  "nothing changed; type it again") % "UTF-8"))
            return
        if len(words) == 1 and words[0] in self.HELP_WORDS:
            self.flush_echo()
            # the reply to the line typed, as the table's own replies: below 80x24
            # its first lines show under the notice, the box (F1) has it whole
            self._told_aside([line for line in self.help_words().splitlines() if line.strip()],
                             plan.help_cut_line)
            self.action_help()
            return
        if len(words) == 1 and words[0] in self.SHOW_WORDS:
            lines = plain.status_lines(facts(self.session))
            for line in lines:
                self.table_display._write(line)
            self._told_aside(lines)
            self.refresh_panels()
            return
        if self._opens_picker(words):
            self.flush_echo()
            self.open_picker("winner" if words[0].startswith("w") else "loser")
            return
        if self.query_one("#left", ContentSwitcher).current == "leg-box":
            self._switch("odds-box")  # the next leg goes on: its odds back in view
        cut = finish_card_cut(text, self.session.names)
        self.hide_colours = cut is not None
        self._hidden_words = [w for w in re.findall(r"[^\W\d_]+", text[cut:])
                              if w.lower() not in ("winner", "loser")] \
            if self.hide_colours else []
        try:
            moment = self.moments.at(typed_at)
            go_on = self._answer(lambda: self.table.line(text, moment))
        finally:
            self.hide_colours = False
            self._hidden_words = []
        if not go_on:
            self.exit()

    def open_picker(self, pile):
        """Open the private finish-card picker for the player to act on ``pile``. An
        event from the pyramid that leaves it (a die: ``Table.screen_question``) closes
        it, ``(no finish card played)`` written before the event's lines (tester46
        finding 1); if the turn moves on otherwise while it is open, nothing is
        played."""
        s = self.session
        seat = s.current
        version = facts(s)["version"]
        left = []  # closed by the table: nothing more to say

        def leave():
            left.append(True)
            self.table_display._write(_("(no finish card played)"))
            if not picker.picked:  # else its pick is on its way out: ``chosen`` drops it
                picker.picked = True
                picker.dismiss(None)
                # a colour's keys pressed as it closes never show on the command line
                racing = s.edition.racing
                box.swallow_rest_of([rest for colour in racing
                                     for rest in spelled_rests("", colour)]
                                    + [str(i) for i in range(1, len(racing) + 1)])

        def chosen(colour):
            if self.table.screen_question is leave:
                self.table.screen_question = None
            if left:
                return
            self.clear_error()
            if colour is None:
                self.table_display._write(_("(no finish card played)"))
                return
            if s.current != seat or s.phase != "turn" or facts(s)["version"] != version:
                self._answer(lambda: self.table.display.error(
                    _("the table moved on while the picker was open: no finish card played")))
                return
            cards = len(s.game.pile(pile))
            self.hide_colours = True
            try:
                self._answer(lambda: self.table.play_unseen(pile, colour))
            finally:
                self.hide_colours = False
            if s.game is not None and len(s.game.pile(pile)) == cards:
                # refused (the error line says why): the history's '> win' gets an
                # ending, as when the picker is cancelled
                self.table_display._write(_("(no finish card played)"))

        picker = FinishCardPicker(s.names[seat], pile, s.edition,
                                  release=self.table.pyramid_kind == "virtual")
        box = self.screen.query_one("#command", CommandInput)
        picker.on_pick, picker.swallow_key = box.swallow_rest_of, box.swallow_key
        self.table.screen_question = leave
        self.push_screen(picker, chosen)

    def on_input_submitted(self, message):
        self._submit(message.value, getattr(message, "typed_at", None),
                     getattr(message, "emptied", False))

    def on_input_changed(self, message):
        box = message.input
        value = message.value
        if "\t" in value:  # a Tab pasted: a space, as the parser reads it
            box.value = value.replace("\t", " ")
            return  # changed again: handled then
        phase = self.session.phase
        # One key completes a die reported as '?' (no Enter needed).
        if phase == "value" and value.strip() in ("1", "2", "3"):
            self._submit(value.strip())
            return
        # ... and one key the numeral ink of a grey die the pyramid could not read.
        if phase == "ink" and value.strip().lower() in ("b", "w"):
            self._submit(value.strip().lower())
            return
        # A finish card typed on the shared screen: its colour is masked as it is typed.
        box.names = self.session.names
        masked = phase == "turn" and is_finish_command(value, box.names)
        if box.password != masked:
            box.password = masked

    # -- keys --------------------------------------------------------------------

    def _journal_path(self):
        """The file the game is journaled to, or ``None`` (a journal in memory)."""
        return getattr(getattr(self.session, "journal", None), "path", None)

    def _told_aside(self, lines, cut_line=plan.news_cut_line):
        """The screen's own reply to a line typed (``show``, ``help``: ``lines``, ``str``
        each) is the news, as the table's replies are (``tell``): below ``MIN_SIZE``
        it shows under the notice in place of what stood there (s45: the reply before
        stayed, as if it answered them). The table still waits for a person, so the
        next announcement starts the news anew."""
        self.tell(lines, cut_line)
        self.table_display.answered(self._view)

    def help_words(self):
        """The help's text (``str``), as its box (``HelpScreen``) shows it before the
        keys: the journal and how to resume it, the speech line, the commands, the
        letters' legend and the panels' columns."""
        kind = self.table.pyramid_kind
        # the commands, then how the screen writes a leg ticket and a camel's letter,
        # then what the odds panel's and the players table's columns are
        text = help_text(self.session.edition.name, kind, self.session.names,
                         self.table.cards_typed) + "\n" + \
            ticket_legend(self.session.edition) + "\n" + panel_legend()
        text = speech_line(self.table.speaker) + "\n\n" + text
        path = self._journal_path()
        if path:  # first: after a crash (kill -9) this is the file to resume
            import shlex
            command = (getattr(self.session.journal, "resume_command", None)
                       or shlex.join(["pyramid", "play", "--resume", path]))
            text = _("This game's journal: %(path)s; after a crash, continue it with: "
                     "%(command)s") % {"path": path, "command": command} + "\n" + text
        return text

    def action_help(self):
        # the help looked at, by F1 or typed, is something between two F5s
        # (``Table.answered_aside``): the next F5 is meant
        self.table.answered_aside("help")
        self.push_screen(HelpScreen(self.help_words(),
                                    release=self.table.pyramid_kind == "virtual"))

    #: the table's moment (``Table.moment``) at which an F5 was held back and asked
    #: about (``unasked_ticket``), and when the question showed (``KEY_CLOCK``); or
    #: ``None``: an F5 pressed after it in that same moment pushes
    _f5_asked = None

    def unasked_ticket(self):
        """The name of the player an F5 pressed now would take a pyramid ticket for
        (RULES 1.7: a push on one's turn is a pyramid ticket) when that push reads as a
        second push by mistake: the table's own rule for a ``release`` right after the
        ``release`` that gave the previous player's die (``Table.double_push``: within
        ``Table.DOUBLE_PUSH_S`` of that die, nothing typed between), no die on its way.
        ``None`` when F5 pushes at once (tester38 finding 10: F5 hammered while the
        screen seemed slow took a turn per press)."""
        table = self.table
        if table.pyramid_kind != "virtual" or table.waiting_release:
            return None
        seat = table.double_push()
        return None if seat is None else self.session.names[self.session.current]

    def action_release(self):
        """F5: the virtual pyramid pushed for the player to act (RULES 1.7: a pyramid
        ticket), taken with the table's moment the key was pressed in.

        Hammering F5 books one pyramid ticket per push meant (tester38 finding 10, s39):
        a push that reads as a second push by mistake (``unasked_ticket``: within
        ``Table.DOUBLE_PUSH_S`` of the die the push before gave, nothing typed between)
        is held back and asked about once, in the status line, naming the player; an F5
        pressed after that question showed, in the same moment, is that player's push
        and goes. An F5 pressed before the question showed (the screen busy: hammered
        keys taken late) is the same hammering, no answer: nothing is pushed and the
        question stays. A line typed since the question makes the next F5 push at once
        (``Table.answered_aside``); a die, a move or another turn ends the question."""
        # F5 pressed on the command line: taken with the table's moment it was pressed in
        pressed = None
        for box in self.query("#command").results(CommandInput):  # none under the help
            pressed, box.f5_at = box.f5_at, None
        moment = self.moments.at(pressed)
        now = self.table.moment
        asked, self._f5_asked = self._f5_asked, None
        if asked is not None and asked[0] == now and pressed is not None \
                and pressed < asked[1]:
            self._f5_asked = asked  # pressed before the question showed: no answer
            return
        self.clear_error()
        name = self.unasked_ticket() if moment in (None, now) else None
        confirmed = asked is not None and asked[0] == now
        if name is not None and not confirmed:
            # asked once, in the status line: an F5 pressed after it in this moment pushes
            self._f5_asked = (now, KEY_CLOCK())
            box = self.query_one("#error", Static)
            box.update(Text(_("F5 again for a pyramid ticket for %s (the last die is "
                              "already in)") % name, "bold"))
            box.display = True
            self.fit()
            return
        self._answer(lambda: self.table.line("release", moment, confirmed=confirmed))

    def action_panel(self, pages):
        """Down / Up: the leg-scoring or race-over panel a page on / back (a line under
        the race-over panel says when it is longer than its room)."""
        box = {"leg-box": "#leg-scroll", "over-box": "#over-scroll"}.get(
            self.query_one("#left", ContentSwitcher).current)
        if box is None:
            return
        box = self.query_one(box)
        step = max(1, box.scrollable_content_region.height - 1)
        box.scroll_to(y=box.scroll_y + pages * step, animate=False)

    def action_history(self, pages):
        """PgUp (``pages`` -1) / PgDn (1): the history a page back or on
        (``HistoryLog.page``)."""
        self.query_one("#log", HistoryLog).page(pages)

    def action_newest(self):
        """End while the history is scrolled back: back to its newest line."""
        self.query_one("#log", HistoryLog).follow(True)

    def check_action(self, action, parameters):
        if action == "newest":  # else End stays the command line's (end of the line)
            return not self.query_one("#log", HistoryLog).following
        return True

    def action_leg_panel(self):
        switcher = self.query_one("#left", ContentSwitcher)
        if switcher.current == "leg-box":
            self._switch("odds-box")
        elif self.session.result is None and facts(self.session)["leg_scored"] is not None:
            self._switch("leg-box")
        elif self.session.result is None:  # nothing to show yet: say so, in the status line
            box = self.query_one("#error", Static)
            box.update(Text(_("No leg has been scored yet in this race: F3 shows the "
                              "leg scoring once the first leg ends."), "bold"))
            box.display = True
            self.fit()

    def action_back(self):
        """Esc: back to the odds from the leg-scoring panel; the command line has the
        keys again, wherever they were."""
        if self.query_one("#left", ContentSwitcher).current == "leg-box":
            self._switch("odds-box")
        self.query_one("#command", Input).focus()

    def action_toggle_theme(self):
        self.theme_name = "light" if self.theme_name == "dark" else "dark"
        self.theme = THEMES[self.theme_name].name

    def action_quit_table(self):
        """Ctrl-Q, Ctrl-C, Ctrl-D: the table closes; every event is in the journal."""
        self.table.quit = True
        self.exit()
