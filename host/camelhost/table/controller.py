"""The table driver: joins a session, a display, the pyramid and the bots.

``Table`` is synchronous and single-threaded; whoever runs it (the plain line
loop below, or the Textual app in ``camelhost.ui.tui``) hands it typed lines with
``line(text)`` and pyramid events with ``pyramid_event(event)``, one at a time.
After each one it lets bots act while it is their turn, asks the pyramid to
release a die for a bot's pyramid ticket, and puts the dice back at leg end.

Pyramid events (``docs/interfaces.md``) are dicts with ``kind`` ``die``,
``nodie``, ``double``, ``unknown``, ``fault`` or ``gap`` (plus ``colour``,
``ink``, ``value``, ``boot``, ``seq``, ``raw``). A die the game state makes
impossible is flagged and journaled as rejected, never applied. An ``unknown``
release whose ``best`` is ``grey-black``/``grey-white`` is taken as the grey die
with its ink asked at the table (one key, ``b``/``w``, or ``again``).
"""

import queue
import shutil
import subprocess
import sys
import threading
import time

from camelhost.table import bots
from camelhost.table.manual import die_text
from camelhost.table.session import GREY_BEST, TableError
from camelhost.ui import plain

HELP = """Commands (the current player acts; colours may be shortened: r, pu, gre):
  leg red            take the top red leg ticket
  tile 7 +  tile 7 - place or move your tile on space 7, forward (+) or backward (-) side
  win red  lose red  red finish card on the overall winner / loser pile
  partner Ben        partnership with Ben (second edition, 6-8 players)
  pyramid            take a pyramid ticket; the next die released completes it
  red 2  grey white 3  a die typed by hand (also for a GAP); 'red ?' asks the value
  1 2 3              value of a die the pyramid reported as ?
  b  w  again        numeral ink of a grey die the pyramid could not read (again: release again)
  release            push the virtual pyramid's slider
  fix 7:red,blue     correct the board: space 7 holds red then blue on top
  undo               take back the last action
  unscored           end this race unscored (the board can't be restored)
  again              another race with the same seats
  setup 1:blue,green 2:red ...   starting stacks typed in; 'draw' draws them
  show               the whole table;  help;  quit"""


def help_text(edition):
    """``HELP`` in the colours of ``edition`` (classic has no red camel, no grey die)."""
    if edition != "classic":
        return HELP
    text = "\n".join(line for line in HELP.splitlines() if not line.startswith("  b  w"))
    text = text.replace("r, pu, gre", "o, wh, gre").replace(
        "  red 2  grey white 3  a die typed by hand", "  orange 2           a die typed by hand")
    return text.replace("'red ?'", "'orange ?'").replace("red", "orange")


def spoken_text(notice):
    """Words to say for a die notice (RULES 5, optional speech), else ``None``:
    ``"blue camel, forward 3"``."""
    if notice.get("kind") != "die":
        return None
    m = notice["move"]
    return "%s camel, %s %d" % (m["camel"], "forward" if m["direction"] > 0 else "backward",
                               m["distance"])


class Speaker:
    """Says each die announcement with ``espeak-ng`` (``--speak``), without waiting
    for it. ``which``/``popen``: ``shutil.which``/``subprocess.Popen`` (for tests).
    ``available`` is false when ``espeak-ng`` is not on PATH (``missing`` says so in
    one line); ``say`` then does nothing."""

    PROGRAM = "espeak-ng"

    def __init__(self, which=None, popen=None):
        self.exe = (which or shutil.which)(self.PROGRAM)
        self.popen = popen or subprocess.Popen

    @property
    def available(self):
        return self.exe is not None

    missing = ("speech: espeak-ng is not on PATH (install it, e.g. apt install espeak-ng); "
               "going on without speech")

    def command(self, text):
        """The command line that says ``text``, or ``None`` without espeak-ng."""
        return None if self.exe is None else [self.exe, text]

    def say(self, text):
        argv = self.command(text)
        if argv is None:
            return
        try:
            self.popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        except OSError:
            self.exe = None  # it went away: stay quiet from now on

    def notices(self, notices):
        for n in notices:
            text = spoken_text(n)
            if text:
                self.say(text)


class PlainDisplay:
    """Prints notices and status as lines (``camelhost.ui.plain``) to ``stream``."""

    def __init__(self, stream=None, status_every=True):
        self.stream = stream or sys.stdout
        self.status_every = status_every

    def _out(self, lines):
        for line in lines:
            self.stream.write(line + "\n")
        self.stream.flush()

    def notices(self, notices, view):
        lines = []
        for n in notices:
            lines += plain.notice_lines(n, view)
            if n["kind"] == "dice_left" and n["new_leg"] and self.status_every:
                lines += plain.status_lines(view)  # the new leg's table, in full
        self._out(lines)

    def error(self, message):
        self._out(["! " + message])

    def status(self, view):
        self._out(plain.status_lines(view))

    def text(self, text):
        self._out(text.splitlines())

    def prompt(self, view):
        self._out([plain.prompt_line(view)])


class _Speaking:
    """A display that also hands each batch of notices to a ``Speaker``."""

    def __init__(self, inner, speaker):
        self.inner = inner
        self.speaker = speaker

    def notices(self, notices, view):
        self.inner.notices(notices, view)
        self.speaker.notices(notices)

    def __getattr__(self, name):
        return getattr(self.inner, name)


class Table:
    """One table: ``session`` (``camelhost.table.session.Session``), ``display`` (see
    ``PlainDisplay``), ``pyramid``: ``None`` (dice typed) or an object with
    ``release()`` and ``return_dice()`` (the virtual pyramid) or just the
    events (a real pyramid: ``release`` is the players' slider).
    ``auto_setup``: draw the starting stacks from the seed (virtual mode).
    ``manual``: dice are typed at the table (no pyramid); default: ``pyramid is None``.
    Only then does a die typed on a turn take a pyramid ticket by itself; with a
    pyramid (real or virtual) it is refused with a hint, unless the pyramid just
    asked for the die by hand (a gap or a sensor fault). ``speaker``: a ``Speaker``
    that says each die announcement (``--speak``), or ``None``.
    """

    def __init__(self, session, display, pyramid=None, auto_setup=False, manual=None,
                 speaker=None):
        self.session = session
        self.speaker = speaker
        if speaker is not None:
            display = _Speaking(display, speaker)
        self.display = display
        self.pyramid = pyramid
        self.auto_setup = auto_setup
        self.manual = pyramid is None if manual is None else bool(manual)
        self.hand_die_ok = False  # the pyramid asked for a die typed by hand
        self.waiting_release = False  # a bot's release is on its way
        self.quit = False

    # -- entry points ---------------------------------------------------------

    def start(self):
        """Show the table and let bots (and the drawn setup) go first."""
        self._auto_setup()
        self.display.status(self.session.view())
        self.drive()
        self.display.prompt(self.session.view())

    def line(self, text):
        """One line typed at the table. Returns False once the table should close."""
        words = text.strip().lower().split()
        if not words:
            return True
        head = words[0]
        if head in ("quit", "exit") and len(words) == 1:
            self.quit = True
            return False
        if head in ("help", "?") and len(words) == 1:
            self.display.text(help_text(self.session.edition.name))
            return True
        if head in ("show", "board", "status") and len(words) == 1:
            self.display.status(self.session.view())
            return True
        if head == "release" and len(words) == 1:
            self._release(manual=True)
            return True
        try:
            event = self.session.parse_command(text)
            if (event["type"] == "die" and self.session.phase == "turn"
                    and not self.manual and not self.hand_die_ok):
                raise TableError("%s: a die typed on %s's turn: type 'pyramid' first, or push "
                                 "the slider" % (text.strip(),
                                                 self.session.names[self.session.current]))
            seat = self.session.current if self.session.phase == "turn" else None
            notices = self.session.feed(event)
        except TableError as exc:
            self.display.error(str(exc))
            return True
        if event["type"] == "die":
            self.hand_die_ok = False
            if seat is not None:  # a die typed without 'pyramid' first: say what it did
                notices = [{"kind": "pyramid", "player": seat,
                            "die": die_text(event)}] + notices
        self._shown(notices)
        return True

    def pyramid_event(self, event):
        """One event from the pyramid link (already de-duplicated there or here)."""
        s = self.session
        kind = event.get("kind")
        self.waiting_release = False
        grey = kind == "unknown" and event.get("best") in GREY_BEST and s.phase != "value"
        if kind == "die" or grey:
            self.hand_die_ok = False
            die = {"type": "die", "colour": event.get("colour"), "ink": event.get("ink"),
                   "value": event.get("value"), "raw": event.get("raw"),
                   "boot": event.get("boot"), "seq": event.get("seq"), "source": "pyramid"}
            if grey:  # surely the grey die, only its numeral ink unsure: ask just that
                die.update(colour="grey", ink=None, best=event.get("best"))
            seat = s.current if s.phase == "turn" else None
            try:
                notices = s.feed(die)
                if seat is not None and notices:  # the slider, pushed without 'pyramid'
                    notices = [{"kind": "pyramid", "player": seat,
                                "die": die_text(die)}] + notices
            except TableError as exc:
                try:
                    notices = s.reject(event, str(exc))
                except TableError:
                    notices = []
                self.display.error("pyramid: %s" % exc)
            self._shown(notices)
        elif kind in ("double", "nodie", "unknown"):
            try:
                notices = s.reject(event, kind)
            except TableError as exc:
                self.display.error(str(exc))
                return
            self._shown(notices)
        elif kind == "gap":
            self.hand_die_ok = True
            self.display.notices([{"kind": "manual", "text": "the pyramid lost events %s; "
                                   "type the die that came out (e.g. '%s')"
                                   % (event.get("missing", ""), plain.example_die(s.view()))}],
                                 s.view())
        elif kind == "fault":
            self.hand_die_ok = True
            self.display.notices([{"kind": "manual", "text": "pyramid sensor fault (%s); "
                                   "type the die by hand" % (event.get("code") or
                                                             event.get("reason") or "sensor")}],
                                 s.view())
        else:
            self.display.error("pyramid sent an event the table does not know: %r" % (kind,))

    @property
    def over(self):
        """True when the race is over (or ended unscored)."""
        return self.session.phase in ("over", "unscored")

    # -- internals ------------------------------------------------------------

    def _shown(self, notices):
        view = self.session.view()
        self.display.notices(notices, view)
        for n in notices:
            if n["kind"] == "dice_left" and n["new_leg"] or n["kind"] in ("final", "new_race"):
                if self.pyramid is not None and hasattr(self.pyramid, "return_dice"):
                    self.pyramid.return_dice()
        if any(n["kind"] == "new_race" for n in notices):
            self._auto_setup()
        self.drive()
        self.display.prompt(self.session.view())

    def _auto_setup(self):
        if self.auto_setup and self.session.phase == "setup" and not self.session.setup_rolls:
            self.display.notices(self.session.command("draw"), self.session.view())

    def _release(self, manual=False):
        if self.pyramid is None or not hasattr(self.pyramid, "release"):
            self.display.error("no virtual pyramid here: release the real one, or type the die")
            return
        if self.session.phase not in ("turn", "die"):
            self.display.error("no die is wanted now")
            return
        self._sync_virtual_dice()
        self.waiting_release = True
        try:
            self.pyramid.release()
        except RuntimeError as exc:  # the simulated board stopped or did not answer
            self.waiting_release = False
            self.display.error("virtual pyramid: %s; type the die instead" % _first_line(exc))
            if not manual:
                raise

    def _sync_virtual_dice(self):
        """Virtual pyramid only: put exactly the dice the game has inside back into the
        simulated pyramid, as players do after an undo, a resume or a leg end."""
        sim = getattr(self.pyramid, "table", None)
        if sim is None or not hasattr(sim, "inside") or self.session.game is None:
            return
        inside = list(self.session.game.dice_in_pyramid())
        sim.inside = inside
        sim.out = [d for d in self.session.edition.dice if d not in inside]

    def drive(self):
        """Let bots act while it is a bot's turn (at most one pending release)."""
        s = self.session
        for _ in range(200):  # bounded: a bot never loops on the same state
            seat = s.current
            if seat is None or not s.is_bot(seat) or self.waiting_release:
                return
            if s.phase == "turn":
                text, _ = bots.choose(s.game, s.names)
                notices = s.command(text)
                self.display.notices(notices, s.view())
                if text != "pyramid":
                    self._check_leg_end(notices)
                continue
            if s.phase == "die":
                if self.pyramid is not None and hasattr(self.pyramid, "release"):
                    self._release()
                return
            if s.phase == "ink":
                if self.pyramid is not None and hasattr(self.pyramid, "release"):
                    # the virtual pyramid: the bot has the dice released again
                    self.display.notices(s.command("again"), s.view())
                    continue
                return  # a real die on the table: the players key its ink
            if s.phase == "value":
                count = len(s.journal.events) if s.journal is not None else 0
                notices = s.command(str(bots.value_for_unknown(s.seed, count)))
                self.display.notices(notices, s.view())
                self._check_leg_end(notices)
                continue
            return

    def _check_leg_end(self, notices):
        for n in notices:
            if n["kind"] == "dice_left" and n["new_leg"]:
                if self.pyramid is not None and hasattr(self.pyramid, "return_dice"):
                    self.pyramid.return_dice()


#: Longest wait, in plain mode, for the die of a release before reading on (seconds).
DIE_WAIT_S = 20.0


def run_plain(table, lines=None, events=None, stop_when_over=False, wait_s=None,
              die_wait_s=DIE_WAIT_S):
    """Run ``table`` in the plain line mode until input ends or ``quit``.

    ``lines``: an iterable of typed lines (default: stdin), read on a thread
    (``False``: none); ``events``: a ``queue.Queue`` the pyramid link fills with
    ``("event", dict)`` items (or ``None``); ``stop_when_over``: return once the race
    is over (demo). ``wait_s``: longest wait for the next input (``None``: forever);
    raises ``TimeoutError`` after it.

    While a die is on its way (after ``release``, a bot's release, or in a script
    after ``pyramid`` with a real pyramid), the next typed line waits for it, at most
    ``die_wait_s`` seconds (then a one-line message, and typed lines are read again);
    at the end of the input a die on its way is waited for the same way before
    returning. Returns 0.
    """
    typed = queue.Queue()
    if lines is None:
        lines = sys.stdin
    interactive = False
    if lines is sys.stdin:
        try:
            interactive = sys.stdin.isatty()
        except (AttributeError, ValueError):
            interactive = False

    def feed():
        try:
            for text in lines:
                typed.put(("line", text.rstrip("\n")))
        finally:
            typed.put(("eof", None))

    eof = False
    if lines is not False:
        threading.Thread(target=feed, daemon=True).start()
    table.start()
    gave_up = False  # the last wait for a die timed out: read typed lines again

    def die_due():
        if events is None or gave_up:
            return False
        if table.waiting_release:
            return True
        # a real pyramid in a script: its slider is pushed by hand after 'pyramid'
        # (a virtual one waits for 'release')
        real = not table.manual and not hasattr(table.pyramid, "release")
        return not interactive and real and table.session.phase == "die"

    last = time.monotonic()
    while not table.quit:
        if stop_when_over and table.over:
            break
        if die_due():
            if lines is False:  # nothing typed can come: wait as long as wait_s says
                limit = wait_s
            else:
                limit = die_wait_s if wait_s is None else min(die_wait_s, wait_s)
            try:
                _, item = events.get(timeout=limit)
            except queue.Empty:
                if lines is False:
                    raise TimeoutError("no die from the pyramid for %s s" % limit) from None
                table.waiting_release = False
                gave_up = True
                table.display.error("no die from the pyramid after %g s: release it again, "
                                    "or type the die" % limit)
                continue
            table.pyramid_event(item)
            last = time.monotonic()
            continue
        if eof:
            break
        got = None
        if events is not None:
            try:
                got = events.get_nowait()
            except queue.Empty:
                got = None
        if got is None:
            try:
                got = typed.get(timeout=0.05)
            except queue.Empty:
                if wait_s is not None and time.monotonic() - last > wait_s:
                    raise TimeoutError("no die from the pyramid for %s s" % wait_s) from None
                continue
        last = time.monotonic()
        gave_up = False
        kind, item = got
        if kind == "eof":
            eof = True
        elif kind == "line":
            if not table.line(item):
                break
        else:
            table.pyramid_event(item)
    return 0


def _first_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _event_dict(ev):
    """A link event (object with attributes, or dict) as the table's event dict."""
    if isinstance(ev, dict):
        get = ev.get
    else:
        def get(name, default=None):
            return getattr(ev, name, default)
    out = {}
    for key in ("kind", "colour", "ink", "value", "boot", "seq", "raw", "code", "best"):
        out[key] = get(key)
    missing = get("missing") or ()
    # a link gap is a SeqRange (two numbers, whatever the count): its own short text
    out["missing"] = str(missing) if hasattr(missing, "first") else ", ".join(str(m) for m in missing)
    return out


class _Pyramid:
    """What ``open_pyramid`` yields: ``events`` (a ``queue.Queue`` of ``("event",
    dict)`` items the link thread fills, or ``None`` for typed dice), ``driver``
    (the ``VirtualPyramid`` in virtual mode, else ``None``) and ``link``."""

    def __init__(self):
        self.events = None
        self.driver = None
        self.link = None
        self._stop = threading.Event()
        self._thread = None
        self._virtual = None

    def _pump(self):
        while not self._stop.is_set():
            try:
                ev = self.link.next_event(0.5)
            except OSError as exc:  # the link reports its own reconnects; this is final
                self.events.put(("event", {"kind": "fault", "reason": str(exc)}))
                return
            if ev is not None:
                self.events.put(("event", _event_dict(ev)))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self.link is not None:
            self.link.close()
        if self._virtual is not None:
            self._virtual.close()
        return False


def open_pyramid(spec, edition, seed, resume=None):
    """Open the dice source ``spec``: ``manual`` (typed dice), ``virtual`` (the real
    firmware on simulated hardware behind a pty, with value buttons), or a serial
    port path. ``resume``: ``(boot, seq)`` of the last pyramid event in the journal,
    so the link continues after it. Returns a context manager (``_Pyramid``).
    Raises ``CliError`` (one line) when the port can't be opened or the link is
    not in this build.
    """
    from camelhost.errors import CliError, port_message
    p = _Pyramid()
    if spec == "manual":
        return p
    try:
        from camelhost.device.link import Link
    except ImportError:
        raise CliError("the serial link is not available in this build: use --pyramid "
                       "manual") from None
    port = spec
    if spec == "virtual":
        from camelhost.device.virtual import VirtualPyramid
        p._virtual = VirtualPyramid(edition, seed=seed, value_buttons=True)
        try:
            p._virtual.start()
        except RuntimeError as exc:  # VirtualPyramidError: the simulated board did not boot
            raise CliError("the virtual pyramid did not start: %s" % _first_line(exc)) from None
        p.driver = p._virtual
        port = p._virtual.port
    try:
        p.link = Link(port, resume=resume)
        p.link.open()
    except OSError as exc:  # serial.SerialException is one
        if p._virtual is not None:
            p._virtual.close()
        raise CliError(port_message(
            spec, exc, "--pyramid auto finds it, --pyramid manual lets you type the dice")) from None
    except BaseException:
        if p._virtual is not None:
            p._virtual.close()
        raise
    p.events = queue.Queue()
    p._thread = threading.Thread(target=p._pump, daemon=True)
    p._thread.start()
    return p
