"""``open_pyramid``: the one way every command opens a dice source.

``manual`` (dice typed at the table: no link), ``virtual`` (the real firmware on
simulated hardware behind a pty, ``camelhost.device.virtual``), ``auto`` (the first
USB serial port with the RP2040's vendor id 0x2E8A) or a serial port path. The
result, an ``OpenPyramid``, holds the ``link`` and the ``virtual`` pyramid and stops
both on ``close()``; ``events()`` starts a thread that hands every link event (a
``camelhost.device.events.DieEvent``, as the link made it) to a queue; the table turns
it into its own event (``camelhost.table.events.from_link``).
"""

import os
import queue
import threading
import time

from camelhost.device import sources
from camelhost.device.events import DieEvent
from camelhost.errors import CliError, port_message
from camelhost.i18n import _, pgettext, port_word

#: USB vendor id of Raspberry Pi RP2040 boards running MicroPython.
RP2040_VID = 0x2E8A
#: What the dice sources are called on the command line (``camelhost.device.sources``).
AUTO, MANUAL, VIRTUAL = sources.AUTO, sources.MANUAL, sources.VIRTUAL
#: the port checks every opening and ``pyramid flash`` share (``sources``)
names_nothing, _meant = sources.names_nothing, sources.meant
#: whether a dice source names a pseudo-terminal (its one source: ``sources``)
pseudo_terminal = sources.pseudo_terminal


#: the environment variable naming the form of a maker's command (``make flash``): its
#: one source is ``sources``
PORT_FORM_ENV = sources.PORT_FORM_ENV


def find_rp2040_port(option="--pyramid", virtual=True, uid=None):
    """Return the device path of the first serial port with USB VID 0x2E8A.

    Raises ``CliError`` listing the ports seen when there is none, and what ``option``
    (the command's option that names a port) offers instead
    (``sources.instead_of_a_port``, as a missing port's line says it: ``missing_port``):
    a port, the simulated pyramid (``virtual`` False: ``pyramid flash``, which needs a
    board) and, for play's ``--pyramid``, the dice typed; ``--port`` (the maker's
    tools: flash, doctor, calibrate, monitor) adds ``pyramid emulate`` for a maker
    without a board (docs/emulator.md), and names the port in the form
    ``PORT_FORM_ENV`` gives when it is set (``make flash PORT=/dev/ttyACM0``). ``uid``:
    the board a resumed game was played with (``sources.emulator_hint``)."""
    import os

    from serial.tools import list_ports
    ports = list(list_ports.comports())
    for p in ports:
        if p.vid == RP2040_VID:
            return p.device
    seen = ", ".join(p.device for p in ports) or pgettext("ports seen", "none")
    form = os.environ.get(PORT_FORM_ENV, "").strip() if option == "--port" else ""
    if form:  # a command that is not pyramid's own (make flash): its form
        text = (_("no smart pyramid found (no USB serial port with vendor id 0x2E8A; "
                  "ports seen: %(seen)s). Plug it in, or name its port: %(form)s")
                % {"seen": seen, "form": form})
    else:  # the simulated pyramid too, and for play typed dice (maker s43, finding 4)
        text = (_("no smart pyramid found (no USB serial port with vendor id 0x2E8A; "
                  "ports seen: %(seen)s). Plug it in, or give %(instead)s")
                % {"seen": seen, "instead": sources.instead_of_a_port(
                    option, first="PORT", virtual=virtual)})
    hint = sources.emulator_hint(option, uid)
    if hint:
        text += ". " + hint
    raise CliError(text)


def missing_port(port, option="--port", uid=None):
    """Raise ``CliError`` when ``port`` is a device path that names nothing: one line
    naming the serial ports seen and what ``option`` offers instead
    (``sources.instead_of_a_port``: auto, the simulated pyramid, and for play's
    ``--pyramid`` the dice typed), then, for the maker's ``--port``, ``pyramid emulate``
    for a maker without a board, as ``pyramid flash`` and ``--port auto`` say it, or
    while ``pyramid emulate`` runs the emulated Pico's port to give, which play's
    ``--pyramid`` names too (``sources.without_a_board``; tester s45, finding 3; tester
    s35-2 finding 14 c; play's ``--pyramid``: tester s42 finding 2; ``names_nothing``
    says which words name nothing). A slip of ``virtual``, and on Windows a bare name
    (``COM3``), are left to the opening, which says it in its own words. ``uid``: the
    board a resumed game was played with: of several emulated Picos running, the one that
    can be it is named (``sources.emulator_hint``)."""
    if not names_nothing(port, option):
        return
    from camelhost.device.transport import by_serial, ports_seen

    if by_serial(port) is not None:
        # id:<serial>: the serial numbers there are, in the form to give
        raise CliError(sources.no_such_serial(port, option, uid=uid))
    text = (_("cannot open %(port)s: no such port (serial ports seen: %(seen)s). Plug the "
              "pyramid in, or give %(instead)s") % {
                  "port": port, "seen": ports_seen(),
                  "instead": sources.instead_of_a_port(option)})
    # the maker's --port: pyramid emulate, or the port of the emulated Pico running now;
    # play's --pyramid: that port only (tester s45, finding 3), the game's board's
    hint = sources.emulator_hint(option, uid)
    if hint:
        text += ". " + hint
    raise CliError(text)


def _first_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class LineQuality:
    """The line to the pyramid changed its quality (``Link.on_quality``): ``noisy`` True
    when under ``link.NOISY`` (90 %) of its last lines arrived whole, False once over
    ``link.CLEAN`` (97 %) again; ``quality``: that share, 0.0..1.0. What
    ``OpenPyramid.events()`` hands the table beside the link's ``DieEvent``s."""

    __slots__ = ("noisy", "quality")

    def __init__(self, noisy, quality):
        self.noisy = bool(noisy)
        self.quality = float(quality)

    def __repr__(self):
        return "LineQuality(noisy=%r, %.2f)" % (self.noisy, self.quality)


class PyramidIdentity:
    """The pyramid the link serves, once its full ``HELLO`` came (``Link.identity``):
    ``fields``, a dict of ``uid``, ``fw``, ``ed``, ``boot`` and ``seq`` (where delivery
    began). What ``OpenPyramid.events()`` hands the table once per link, before the
    dice that follow it; the table records it in its journal (its ``board`` line)."""

    __slots__ = ("fields",)

    def __init__(self, fields):
        self.fields = dict(fields)

    def __repr__(self):
        return "PyramidIdentity(%r)" % (self.fields,)


class PyramidRestarted:
    """The pyramid restarted while the link was up: its ``HELLO`` names a new boot
    (``old`` -> ``new``, boot ids): a reset, a power dip or a crash. What
    ``OpenPyramid.events()`` hands the table, so that a die released during the restart
    (lost with the firmware down) is not lost silently (tester2 s35, finding 15)."""

    __slots__ = ("old", "new")

    def __init__(self, old, new):
        self.old, self.new = old, new

    def __repr__(self):
        return "PyramidRestarted(%r, %r)" % (self.old, self.new)


class PyramidPresence:
    """The pyramid stopped answering, or answers again: what ``OpenPyramid.events()``
    hands the table at each change. ``present``: False when its port went away (the
    USB cable pulled, the emulator or virtual board stopped) or nothing valid came from
    it for twice the link's patience (``Link.state`` ``stale``, and as long again: the
    emulated board, slower than real time, is silent for longer until the link learnt its
    heartbeat), True once it says hello again (``connected``). ``port``: the port's path. ``other``: why that path now names
    another device, which the link neither opens nor writes to
    (``Transport.refused_port``, one clause), or that its board sits at MicroPython's
    prompt, to which the link writes nothing (``at_prompt_words``), or ``None``. ``reopened``: False when the
    port lost is never opened again (a pseudo-terminal: the emulator's or the virtual
    pyramid's, whose loss means its program ended; docs/protocol.md, "Reconnecting"), so
    plugging in again cannot bring the pyramid back, only a resume on its port can.
    ``pty``: the port is a pseudo-terminal (an emulated pyramid's or a virtual one's: no
    cable to check; one still open but silent may come back when the program behind it
    restarts the board). ``emulated``: the board behind it said it is an emulated Pico
    (``pyramid emulate``: its ``HELLO`` names ``sources.EMULATED_UID``), whose terminal
    takes the emulator's keys (``x`` restarts the board): the only port where the table
    may name those keys; a virtual pyramid's pty, or a real board's, has none. A lost
    pseudo-terminal's path that a running ``pyramid emulate`` recorded as its emulated
    Pico's port, one that can be the game's board (``sources.emulators_of``), is
    ``emulated`` too, ``other`` saying so (``emulated_pico_words``), not
    another program's: the table offers the resume on that port. ``emulator``: for a
    pseudo-terminal lost for good (ended, or its path now another program's), the port
    of the one emulated Pico a running ``pyramid emulate`` recorded that can be the game's
    board (``sources.emulators_of``: the one whose record names the board's uid, the
    link's ``sequencer.uid``; started again on another number), which the table names for
    the resume; else ``None`` (tester s45b, finding 3). ``emulators``: when several can be
    (two emulators, neither known to be the game's board), their ports (a tuple), which
    the table names as "one of these"; else empty.
    The virtual pyramid's board ended is said at once (``VirtualPyramid.stopped``)."""

    __slots__ = ("present", "port", "other", "reopened", "pty", "emulated", "emulator",
                 "emulators")

    def __init__(self, present, port=None, other=None, reopened=True, pty=False, emulated=False,
                 emulator=None, emulators=()):
        self.present = bool(present)
        self.port = port
        self.other = other
        self.reopened = bool(reopened)
        self.pty = bool(pty)
        self.emulated = bool(emulated)
        self.emulator = emulator
        self.emulators = tuple(emulators)

    def _fields(self):
        return (self.present, self.port, self.other, self.reopened, self.pty, self.emulated,
                self.emulator, self.emulators)

    def __repr__(self):
        return ("PyramidPresence(present=%r, %r, other=%r, reopened=%r, pty=%r, emulated=%r, "
                "emulator=%r, emulators=%r)" % self._fields())

    def __eq__(self, other):
        return isinstance(other, PyramidPresence) and self._fields() == other._fields()

    __hash__ = None


def emulated_board(link):
    """True when the board ``link`` (a ``Link``) serves said, in its last full ``HELLO``,
    that it is an emulated Pico (its unique id starts with ``sources.EMULATED_UID_MARK``):
    the emulator's terminal, where its keys work, is behind the port. False before a
    ``HELLO`` named the board."""
    hello = getattr(link, "hello", None)
    uid = hello.get("uid") if hello is not None else None
    return sources.emulated_uid(uid)


def at_prompt_words(emulated=False):
    """What the pyramid's port is while its board sits at MicroPython's prompt mid-game
    (the firmware crashed there, or the board was plugged in holding the slider: a safe
    boot; ``Link.at_repl``), one clause for ``PyramidPresence``'s
    ``other``, which the table says as ``the pyramid's port PORT is now ...: nothing is
    written to it`` with the dice typed meanwhile and the replug that restarts the
    firmware; ``emulated``: the board is the emulated Pico, whose replug is ``c`` in
    the emulator's terminal (the same fix ``link.repl_text`` names at the start)."""
    if emulated:
        return _("MicroPython's prompt (the pyramid firmware stopped on the emulated Pico: "
                 "a crash, or a safe boot; c in its terminal plugs it in again)")
    return _("MicroPython's prompt (the pyramid firmware stopped on the board: a crash, or a "
             "safe boot)")


def emulated_pico_words():
    """What a lost pseudo-terminal's path names once a running ``pyramid emulate``
    recorded it as its emulated Pico's port (``sources.emulated_dice``): one clause for
    ``PyramidPresence``'s ``other``, said as ``the pyramid's port PORT is now ...``; the
    link still writes nothing to it, a resume on that port opens it."""
    return _("a new pseudo-terminal, on which an emulated Pico runs (pyramid emulate)")


def _game_uid(link):
    """The unique id of the board ``link``'s game takes its dice from (the uid its
    sequencer checks: the journal's ``board`` line, else the board's first ``HELLO``),
    or ``None`` while not known."""
    return getattr(getattr(link, "sequencer", None), "uid", None)


def _game_emulators(link):
    """``(emulator, emulators)`` for a ``PyramidPresence`` of ``link`` (a ``Link``) lost
    for good: the running emulated Picos that can be its game's board
    (``sources.emulators_of`` the uid the link checks, ``sequencer.uid``: the journal's
    board, else the board's first ``HELLO``), the one port when one can, else ``None``
    and all of them (none or several)."""
    ports = sources.emulators_of(_game_uid(link))
    return (ports[0], ()) if len(ports) == 1 else (None, tuple(ports))


def presence(link):
    """The pyramid's ``PyramidPresence`` as ``link`` (a ``Link``) stands now, or ``None``
    while that can't be told (a port opened and asked, not answered yet). A board at
    MicroPython's prompt (``Link.at_repl``: its firmware crashed mid-game) is away, its
    ``other`` saying so (``at_prompt_words``), until it speaks the protocol again."""
    transport = link.transport
    pty = getattr(getattr(transport, "identity", None), "kind", None) == "pty"
    emulated = pty and emulated_board(link)
    if transport.refused_port is not None:
        if pty and sources.may_be_board(link.port, _game_uid(link)):
            # a running pyramid emulate recorded this port: an emulated Pico is on the
            # new pseudo-terminal, not another program (tester s45, finding 1); not when
            # its record names another board than the game's, or another names the game's
            return PyramidPresence(False, link.port, emulated_pico_words(), False, pty, True)
        # another program's now; an emulated Pico started again elsewhere is named (the
        # one whose record names the game's board, tester s45b, finding 3)
        emulator, several = _game_emulators(link) if pty else (None, ())
        return PyramidPresence(False, link.port, transport.refused_port, not pty, pty,
                               emulator=emulator, emulators=several)
    if getattr(link, "at_repl", None) is not None:
        return PyramidPresence(False, link.port, at_prompt_words(emulated), True, pty, emulated)
    state = link.state
    if state == "connected" and transport.is_open:
        return PyramidPresence(True, link.port)
    if state == "stale" or state == "connecting" and not transport.is_open:
        ended = pty and not transport.is_open  # never opened again: another emulator's?
        emulator, several = _game_emulators(link) if ended else (None, ())
        return PyramidPresence(False, link.port, reopened=not ended, pty=pty, emulated=emulated,
                               emulator=emulator, emulators=several)
    return None


class OpenPyramid:
    """An open dice source: ``spec`` (what was asked for), ``port`` (the serial path,
    ``None`` in manual mode), ``link`` (``camelhost.device.link.Link`` or ``None``),
    ``virtual`` (the ``VirtualPyramid`` in virtual mode, else ``None``: it has
    ``release()`` and ``return_dice()``). A context manager; ``close()`` stops all."""

    def __init__(self, spec):
        self.spec = spec
        self.port = None
        self.link = None
        self.virtual = None
        self._queue = None
        self._stop = threading.Event()
        self._thread = None

    @property
    def manual(self):
        """True when the dice are typed (no link)."""
        return self.link is None

    def events(self):
        """A ``queue.Queue`` of ``("event", DieEvent)`` items filled by a thread reading
        the link (a link that fails for good ends with a ``fault`` event whose ``raw``
        says why), ``("event", LineQuality)`` each time the line's quality crosses
        a threshold (at once when the line is already noisy), and one ``("event",
        PyramidIdentity)`` once the pyramid's full ``HELLO`` came, ``("event",
        PyramidPresence)`` each time the pyramid stops answering or answers again (its
        port lost, silent, or its path now another device's; then back), ``("event",
        PyramidRestarted)`` each time its ``HELLO`` names a new boot; a link that refused
        the board (``Link.refused``: another board than the game's) ends with a
        ``fault`` event whose ``raw`` is that line. ``None`` in manual mode. Started once."""
        if self.link is None:
            return None
        if self._queue is None:
            self._queue = queue.Queue()
            self.link.on_quality = self._quality
            if self.link.noisy and self.link.quality is not None:
                self._quality(True, self.link.quality)
            self._thread = threading.Thread(target=self._pump, daemon=True)
            self._thread.start()
        return self._queue

    def _quality(self, noisy, quality):
        self._queue.put(("event", LineQuality(noisy, quality)))

    def _pump(self):
        identified = False
        was = None  # the link opened on the pyramid: present
        booted = None  # the boot of the pyramid's first HELLO on this link, then its latest
        stale_since = None
        while not self._stop.is_set():
            if not identified:
                identity = self.link.identity
                if identity is not None:
                    identified = True
                    self._queue.put(("event", PyramidIdentity(identity)))
            if self.link.refused is not None:  # another board (or protocol): nothing taken
                self._queue.put(("event", DieEvent("fault", None, None, raw=self.link.refused)))
                return
            now = presence(self.link)
            if self.virtual is not None and getattr(self.virtual, "stopped", False):
                # the virtual pyramid's board ended (killed, crashed): its pty stays open
                # (this process holds both ends), so it would be said only after the
                # silence; it never answers again: said at once
                now = PyramidPresence(False, self.link.port, reopened=False)
            elif now is not None and not now.present and self.link.state == "stale":
                # silent, its port open: said once the silence lasted the link's patience
                # again (a board slower than real time is silent for longer before the link
                # learnt its heartbeat: the emulated one at its start)
                stale_since = stale_since if stale_since is not None else time.monotonic()
                if time.monotonic() - stale_since < self.link.sequencer.patience:
                    now = None
            else:
                stale_since = None
            if now is not None and now != (was or PyramidPresence(True, now.port)):
                was = now
                self._queue.put(("event", now))
            # a new boot in HELLO: the pyramid restarted (a stand-in link may have no HELLO)
            hello = getattr(self.link.sequencer, "hello", None)
            boot = hello["boot"] if hello is not None else booted
            if booted is not None and boot != booted:
                self._queue.put(("event", PyramidRestarted(booted, boot)))
            booted = boot
            try:
                ev = self.link.next_event(0.5)
            except OSError as exc:  # the link reports its own reconnects; this is final
                self._queue.put(("event", DieEvent("fault", None, None, raw=str(exc))))
                return
            if ev is not None:
                self._queue.put(("event", ev))

    def close(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        if self.link is not None:
            self.link.close()
        if self.virtual is not None:
            self.virtual.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def open_pyramid(spec, edition="second", seed=1, resume=None, value_buttons=True,
                 option="--pyramid", hint=None, taken=None, uid=None, played_on=None):
    """Open the dice source ``spec`` (``manual``, ``virtual``, ``auto``, a port path, or
    mpremote's ``id:<serial>`` or ``port:PATH``: ``transport.port_path``)
    and return an ``OpenPyramid``. ``edition``, ``seed``, ``value_buttons``: for the
    virtual pyramid. ``resume``: ``(boot, seq)`` of the last pyramid event already
    taken, so the link continues after it. ``taken``: a callable giving the last
    ``(boot, seq)`` the journal holds, so the link acknowledges only what is written
    down (``Link``'s ``taken``). ``uid``: the unique id of the board the game was
    played with (``Link``'s ``uid``: another board is refused; a ``CliError`` naming
    both when its ``HELLO`` comes while the port opens, ending with what to do:
    ``played_on`` is the dice source the game was played with, the journal's
    ``pyramid``: ``virtual`` makes it ``--pyramid virtual``, as that board is not one
    that can be connected; an emulated board's refusal names the port of the running
    ``pyramid emulate`` that recorded ``uid``, ``sources.emulators_of``, and a missing
    port's line that emulated Pico among several). ``option``/``hint``: how the calling
    command names a port, for the messages. Raises ``CliError`` (one line) when the
    port can't be opened (``transport.PortBusy`` when another program holds it, ``transport.NotAPort`` when the path names no serial port:
    a file, ``/dev/null``, ``/dev/tty``), the virtual pyramid does not start, the link
    is missing, or a maker's tool (``option`` other than ``--pyramid``) is given
    ``manual``.
    """
    p = OpenPyramid(spec)
    if spec == MANUAL:
        if option != "--pyramid":  # a maker's tool reads the board: no dice to type instead
            raise CliError(_("%(option)s manual: this tool needs a pyramid: give %(option)s "
                             "%(port)s, %(option)s auto or %(option)s virtual")
                           % {"option": option, "port": port_word()})
        return p
    if hint is None:
        hint = sources.instead_of_a_port(option)
    try:
        from camelhost.device.link import Link
    except ImportError:
        raise CliError(_("the serial link is not available in this build: use %s manual")
                       % option) from None
    port = spec
    if spec not in (AUTO, VIRTUAL):
        missing_port(spec, option, uid)  # a path that names nothing: the ports seen, the others
        # id:<serial>, port:PATH: mpremote's forms, in every command that takes a port
        from camelhost.device.transport import port_path
        port = port_path(spec)
    if spec == AUTO:
        port = find_rp2040_port(option, uid=uid)
    elif spec == VIRTUAL:
        from camelhost.device.virtual import VirtualPyramid
        p.virtual = VirtualPyramid(edition, seed=seed, value_buttons=value_buttons)
        try:
            p.virtual.start()
        except (RuntimeError, OSError) as exc:  # VirtualPyramidError: the board did not boot
            raise CliError(_("the virtual pyramid did not start: %s") % _first_line(exc)) from None
        port = p.virtual.port
    p.port = port
    if spec == VIRTUAL:
        # A virtual pyramid is a new board every time (its simulated flash is new): it
        # holds no record of the journal's boots, and asking it for them would only
        # report a loss that never happened.
        resume = uid = None
    from camelhost.device.transport import (
        NotAPyramid,
        NotASerialPort,
        PortBusy,
        PortInUse,
        PortIsATerminal,
        TerminalInUse,
        not_a_port,
    )
    try:
        p.link = Link(port, resume=resume, taken=taken, uid=uid)
        if played_on == VIRTUAL:
            p.link.sequencer.board_fix = _(
                "this game was played on the virtual pyramid: resume with --pyramid "
                "virtual, or with --pyramid manual and type the dice")
        elif sources.emulated_uid(uid):
            # each emulate without --flash is a new board (tester s40, finding 12:
            # nothing said why the game's emulated Pico was refused, or how to keep one)
            from camelhost.device.sequencer import BOARD_FIX
            p.link.sequencer.board_fix = _(BOARD_FIX) + ". " + _(
                "An emulated Pico is the same board only when started from the same image "
                "(pyramid emulate --flash FILE); without --flash each start is a new board "
                "(docs/emulator.md)")
            ours = [other for other in sources.emulators_of(uid, exact=True)
                    if other != os.path.realpath(port)]
            if len(ours) == 1:  # the game's board runs in another emulate (tester s45b, 4)
                p.link.sequencer.board_fix = _(
                    "this game's board runs on %(port)s (its pyramid emulate recorded it): "
                    "resume with --pyramid %(port)s, or with --pyramid manual and type the "
                    "dice") % {"port": ours[0]}
        if option != "--pyramid":  # a maker's tool: no game to play by hand instead
            p.link.advice = (_("check the USB cable, that %(port)s is the pyramid's port "
                               "(%(hint)s) and that it runs the pyramid firmware (pyramid flash "
                               "%(option)s %(port)s)")
                             % {"port": port, "hint": hint, "option": option})
        p.link.open()
    except NotASerialPort as exc:  # a file, /dev/null, /dev/tty: nothing opened
        p.link = None
        p.close()
        raise not_a_port(exc.port, exc.why, option) from None
    except NotAPyramid as exc:
        refused = p.link.refused if p.link is not None else None
        if refused is None and p.link is not None:
            refused = p.link.at_repl  # a board at MicroPython's prompt: its own line
        p.link = None
        p.close()
        # another board, or another protocol, or a port opened that does not answer as
        # a pyramid: the line names the port and what it sent (it did open: no "cannot
        # open")
        raise CliError(refused if refused is not None else str(exc)) from None
    except OSError as exc:  # serial.SerialException is one
        p.link = None
        p.close()
        if isinstance(exc, PortInUse) and not isinstance(exc, TerminalInUse):
            raise PortBusy(port) from None  # another program holds it: its one line
        line = port_message(port if spec == AUTO else spec, exc, hint, _meant(spec, option))
        if isinstance(exc, TerminalInUse):  # a program's terminal: the same line, its kind
            raise PortIsATerminal(port, line) from None
        raise CliError(line) from None
    except BaseException:
        p.link = None
        p.close()
        raise
    return p
