"""The pyramid link's transport: the serial port, the reader thread, reconnects.

``Transport`` opens a port (a path such as ``/dev/ttyACM0``, the pty of a
``VirtualPyramid``, or any pyserial URL) exclusively, reads it in one thread and
hands every chunk of bytes to ``on_data``; after every read (at most every 50 ms,
the port's read timeout) it calls ``on_idle``. A port that vanishes (unplug) is
closed and the same path reopened every ``retry_interval`` s (``on_open`` after each
opening, ``on_lost`` when it went away), but only while what the path names may be
the device first opened (``PortIdentity``, docs/protocol.md "Reconnecting"): a path
that now names another device (a new pseudo-terminal, another USB board) is neither
opened nor written to (``refused_port`` says why) and watched until the device comes
back. A failure inside the thread is logged, counted (``stats["reader_restarts"]``,
``reader_error``) and the loop starts again. It knows nothing of the protocol:
``camelhost.device.link.Link`` gives it meaning.
"""

import contextlib
import logging
import os
import sys
import threading
import time

import serial

from camelhost.errors import CliError, port_message
from camelhost.i18n import _, pgettext

try:
    import termios
except ImportError:  # not POSIX: no terminal settings to keep
    termios = None

log = logging.getLogger("camelhost.device.link")


class LinkError(OSError):
    """A command got no answer in time, or the device refused it (``NAK``)."""


class NotAPyramid(LinkError):
    """The port answers, but not as a smart pyramid (another device, a REPL, noise,
    silence), or it speaks a protocol version this program does not."""


class PortInUse(LinkError):
    """Another program has the port open (the port is opened exclusively)."""


def in_use(port):
    """The ``PortInUse`` saying that another program holds ``port`` (a path): its one
    wording, for a ``Transport`` that could not lock it and for ``refuse_a_busy_port``."""
    return PortInUse(_("%s is in use by another program (another 'pyramid play' or "
                       "'monitor'?): close it first") % port)


def held_elsewhere(port):
    """True when another program holds ``port`` (a path) locked, as a ``Transport`` locks
    the port it opens (pyserial's ``exclusive``: ``flock``): a ``pyramid play``,
    ``monitor``, ``calibrate`` or ``doctor`` on it. Opened without becoming this
    program's terminal and without waiting, and closed at once: nothing is read or
    written, its terminal settings are left as they are. False for a port that can't be
    opened here (no such path, no permission: the opening says so) or a system without
    ``flock``."""
    try:
        import fcntl
    except ImportError:  # Windows: a port is exclusive there, its opening says so
        return False
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # BlockingIOError: another open file holds the lock
        return True
    finally:
        os.close(fd)  # the lock, if taken, goes with it
    return False


def refuse_a_busy_port(port):
    """Raise ``PortBusy`` (one line, what every command says of a busy port, as
    ``open.open_pyramid`` says a ``PortInUse``: ``cannot open PORT: PORT is in use by
    another program ...: close it first``, ``port_message``) when another program holds
    the serial port ``port`` (``held_elsewhere``: a ``pyramid play``, ``monitor``,
    ``calibrate`` or ``doctor`` on it), before anything is read from it or written to
    it; for a tool that does not open the port through a ``Transport`` (``pyramid
    flash``: mpremote, which does not lock it, would take the running game's lines).
    ``port``: a path, or mpremote's ``port:PATH``; a name that is no path (``auto``,
    ``COM3``) is not checked; ``id:<serial>`` is the port with that serial number
    (``port_path``)."""
    path = port_path(port) or ""
    if "/" not in path or not held_elsewhere(path):
        return
    raise PortBusy(path)


class PortBusy(CliError):
    """The ``CliError`` every command raises for a port another program holds
    (``refuse_a_busy_port``; ``open.open_pyramid`` for a ``Transport``'s ``PortInUse``):
    one line, ``cannot open PORT: PORT is in use by another program (another 'pyramid
    play' or 'monitor'?): close it first``. ``port``: that path, for a fix that names it
    (doctor's: close the other program, not flash the board)."""

    def __init__(self, port):
        # the port exists: port_message's hint (for a missing one) is not said
        CliError.__init__(self, port_message(port, in_use(port), hint=""))
        self.port = port


class PortIsATerminal(CliError):
    """The ``CliError`` a command raises for a port that is the controlling terminal of a
    live program (``TerminalInUse``, ``refuse_a_terminal``; ``open.open_pyramid``): its
    one line as before. ``port``: that path, for a fix that names what to give instead
    (doctor's: the pyramid's own port, with the serial ports seen; not flash the board,
    which is not there)."""

    def __init__(self, port, line):
        CliError.__init__(self, line)
        self.port = port


class NotASerialPort(OSError):
    """The path names no serial port (``serial_port_problem``): a regular file, a folder,
    a device that is not a terminal (``/dev/null``), ``/dev/tty``. Nothing was opened as a
    serial line or written there. ``port``: the path; ``why``: the problem's words."""

    def __init__(self, port, why):
        OSError.__init__(self, _("%(port)s is %(what)s, not a serial port") % {
            "port": port, "what": why})
        self.port = port
        self.why = why


class TerminalInUse(PortInUse):
    """The port is the controlling terminal of a live program (a shell, an editor,
    ``pyramid emulate``'s own console): opening it as a serial line would switch it to
    raw input, with which that program's next read returns end-of-input, and a probe's
    ``HELLO?`` lines would land on its screen (``terminal_owner``)."""


#: mpremote's two prefixes of a port, which ``pyramid flash`` hands on and every command
#: that takes a port (flash, doctor, calibrate, monitor, play's ``--pyramid``) takes
#: (``port_path``): a board by its USB
#: serial number (``id:E6614103E7452D2F``), a port by its path (``port:/dev/ttyACM0``)
BY_SERIAL = "id:"
BY_PATH = "port:"


def by_serial(port):
    """The USB serial number ``port`` names in mpremote's form ``id:<serial>``, else
    ``None`` (a path, ``port:PATH``, ``auto``, ``virtual``)."""
    return port[len(BY_SERIAL):] if port.startswith(BY_SERIAL) else None


def port_path(port):
    """The device path the word ``port`` names (``--port``, play's ``--pyramid``), in each of the forms
    ``pyramid flash`` takes (mpremote's): ``port:PATH`` is ``PATH``; ``id:<serial>`` the
    USB serial port whose serial number it is (pyserial's ``list_ports``, its
    ``serial_number``: a Pico's is its flash chip's unique id, as its ``HELLO``'s
    ``uid``), ``None`` when no port here has it; any other word is itself (a path,
    ``COM3``, ``auto``, ``virtual``: what the caller makes of it). The one parser of those
    forms."""
    number = by_serial(port)
    if number is None:
        return port[len(BY_PATH):] if port.startswith(BY_PATH) else port
    from serial.tools import list_ports

    for info in list_ports.comports():
        # exactly, as mpremote matches it
        if number and getattr(info, "serial_number", None) == number:
            return info.device
    return None


def ports_seen(ids=False):
    """The serial ports pyserial lists now (``list_ports.comports``), sorted and joined
    with commas, or ``none`` in the table's language: what a refusal of a port names.
    ``ids``: each with the ``id:<serial>`` that names it too, when it has a USB serial
    number (``/dev/ttyACM0 (id:E6614103E7452D2F)``: what a refused ``id:`` names)."""
    from serial.tools import list_ports

    def shown(info):
        number = getattr(info, "serial_number", None)
        if ids and number:
            return "%s (%s%s)" % (info.device, BY_SERIAL, number)
        return info.device

    return (", ".join(shown(p) for p in sorted(list_ports.comports(), key=lambda p: p.device))
            or pgettext("ports seen", "none"))


class NotAPort(CliError):
    """A ``CliError`` for a path that names no serial port (``NotASerialPort``):
    ``what``, the fact with the serial ports seen, and ``fix``, what to give instead, by
    the command's option; the error's text is both in one line."""

    def __init__(self, what, fix):
        CliError.__init__(self, "%s; %s" % (what, fix))
        self.what = what
        self.fix = fix


def not_a_port(port, why, option="--pyramid", virtual=True):
    """The ``NotAPort`` error for ``port``, a path that is ``why``
    (``serial_port_problem``'s words: ``a file``, ``a device that is not a terminal``), not
    a serial port: ``/dev/null is a device that is not a terminal, not a serial port
    (serial ports seen: /dev/ttyACM0); give the pyramid's port, --port auto, or --port
    virtual``. ``option``: the command's (``--pyramid`` adds ``manual``); ``virtual``:
    False for ``pyramid flash`` (a board to copy to: no virtual one)."""
    what = (_("%(port)s is %(why)s, not a serial port (serial ports seen: %(seen)s)")
            % {"port": port, "why": why, "seen": ports_seen()})
    if option == "--pyramid":
        fix = (_("give the pyramid's port, %(o)s auto, %(o)s virtual, or %(o)s manual to "
                 "type the dice") % {"o": option})
    elif virtual:
        fix = _("give the pyramid's port, %(o)s auto, or %(o)s virtual") % {"o": option}
    else:
        fix = _("give the board's serial port, or %s auto") % option
    return NotAPort(what, fix)


def _proc_stat(proc, pid):
    """``(name, pgrp, session, tty_nr, tpgid)`` of process ``pid`` from Linux's
    ``/proc/PID/stat`` (proc(5); ``proc``: the folder of ``/proc``), or ``None`` when it
    has gone or can't be read."""
    try:
        with open(os.path.join(proc, pid, "stat"), "rb") as f:
            data = f.read()
    except OSError:
        return None
    head, _sep, rest = data.rpartition(b")")
    fields = rest.split()
    try:
        return (head.partition(b"(")[2].decode("utf-8", "replace"), int(fields[2]),
                int(fields[3]), int(fields[4]), int(fields[5]))
    except (IndexError, ValueError):
        return None


def terminal_owner(port, proc="/proc"):
    """The live program whose controlling terminal ``port`` is, read without opening it:
    ``(pid, name, own)``, ``own`` True when it is this program's own session (the
    terminal ``pyramid`` runs in); ``None`` for no such program, a pyserial URL, a path
    that is not a character device, or a system without Linux's ``/proc`` (``proc``:
    where to read it; proc(5): ``tty_nr``, the controlling terminal's device number in
    the kernel's encoding, and ``tpgid``, its foreground process group). Of several
    programs on one terminal, one of its foreground process group is named, the
    group's leader first: the one that reads what is typed there. A pseudo-terminal the
    virtual pyramid or ``pyramid emulate`` made for its board is nobody's controlling
    terminal (opened with ``O_NOCTTY``), so it never has an owner."""
    import stat

    if "://" in port:
        return None
    try:
        st = os.stat(port)
        pids = [name for name in os.listdir(proc) if name.isdigit()]
    except OSError:
        return None
    if not stat.S_ISCHR(st.st_mode):
        return None
    want = (os.major(st.st_rdev), os.minor(st.st_rdev))
    best = None
    for pid in pids:
        seen = _proc_stat(proc, pid)
        if seen is None or not seen[3]:
            continue
        name, pgrp, session, tty_nr, tpgid = seen
        major = (tty_nr >> 8) & 0xFFF
        minor = (tty_nr & 0xFF) | ((tty_nr >> 12) & 0xFFF00)
        if (major, minor) != want:
            continue
        rank = (pgrp == tpgid, int(pid) == pgrp)  # the foreground group, its leader
        if best is None or rank > best[0]:
            best = (rank, int(pid), name, session)
    if best is None:
        return None
    try:
        own = os.getsid(0) == best[3]
    except OSError:
        own = False
    return best[1], best[2], own


def refuse_a_terminal(port):
    """Raise ``TerminalInUse`` (one line) when ``port`` is the controlling terminal of a
    live program (``terminal_owner``): nothing is opened, read or written there."""
    owner = terminal_owner(port)
    if owner is None:
        return
    pid, name, own = owner
    if own:
        raise TerminalInUse(_("%s is the terminal this command runs in, not a pyramid's port: "
                              "nothing was read or written there") % port)
    raise TerminalInUse(_("%(port)s is the terminal of another program (%(name)s, process "
                          "%(pid)d), not a pyramid's port: nothing was read or written there "
                          "(the emulated Pico's port is the one pyramid emulate printed)")
                        % {"port": port, "name": name, "pid": pid})


#: Linux's major device numbers of the Unix98 pseudo-terminals' slave ends, ``/dev/pts/N``
#: (the kernel's Documentation/admin-guide/devices.txt: char 136-143).
PTY_MAJORS = range(136, 144)


class PortIdentity:
    """What tells one device behind a port path from another, read without opening it.

    ``kind``: ``"pty"`` (a pseudo-terminal: the virtual pyramid, ``pyramid emulate``),
    ``"usb"`` (a USB serial device with a serial number: the RP2040's unique id under
    MicroPython) or ``"tty"`` (anything else: a UART, a USB device without one).
    ``node``: ``(st_rdev, st_ino, st_ctime_ns)`` of the device node (a new pty that gets
    the number of one that ended has the same device and inode numbers, and its change
    time can be the same too, to the kernel's clock tick: no node tells two ptys apart).
    ``usb``: ``(vid, pid, serial number)`` from sysfs (pyserial's ``list_ports``), or
    ``None``. Built by ``of(path, fd)``; ``other(lost)`` says whether it provably names
    another device than ``lost``, the device whose port was lost."""

    __slots__ = ("kind", "node", "usb")

    def __init__(self, kind, node, usb=None):
        self.kind = kind
        self.node = tuple(node)
        self.usb = tuple(usb) if usb is not None else None

    def __repr__(self):
        return "PortIdentity(%r, %r, %r)" % (self.kind, self.node, self.usb)

    @classmethod
    def of(cls, path, fd=None):
        """The identity of the device ``path`` names now (``os.stat``, through any
        symbolic link), or of the open ``fd`` when given (``os.fstat``); ``None`` for a
        pyserial URL (``loop://``, ``socket://...``: nothing to compare). Raises
        ``OSError`` (``FileNotFoundError``: the path names nothing now)."""
        if "://" in path:
            return None
        st = os.fstat(fd) if fd is not None else os.stat(path)
        node = (st.st_rdev, st.st_ino, st.st_ctime_ns)
        real = os.path.realpath(path)
        if os.major(st.st_rdev) in PTY_MAJORS or real.startswith("/dev/pts/"):
            return cls("pty", node)
        usb = _usb_of(real)
        return cls("usb" if usb is not None else "tty", node, usb)

    def other(self, than):
        """Why this device is provably not ``than`` (a ``PortIdentity``: the device whose
        port was lost), in words, or ``None`` when it may be the same one. A
        pseudo-terminal's port is lost only when its other end closed (the program that
        made it, the emulator or the virtual pyramid, ended): it never comes back, so
        whatever its path names afterwards is another program's. A USB device with a
        serial number is the same when that number is; anything else when its device
        number is."""
        if than is None:
            return None
        if than.kind == "pty":
            return _("a new pseudo-terminal, another program's (the pyramid's had ended)")
        if self.kind == "pty":
            return _("a pseudo-terminal, not the pyramid's USB port")
        if self.usb is not None and than.usb is not None:
            if self.usb != than.usb:
                return (_("another USB device (serial number %(serial)s, the pyramid's is "
                          "%(pyramids)s)") % {"serial": self.usb[2], "pyramids": than.usb[2]})
            return None
        if self.usb is None and than.usb is None and self.node[0] != than.node[0]:
            return _("another device (device number %(major)d:%(minor)d, the pyramid's was "
                     "%(was_major)d:%(was_minor)d)") % {
                "major": os.major(self.node[0]), "minor": os.minor(self.node[0]),
                "was_major": os.major(than.node[0]), "was_minor": os.minor(than.node[0])}
        return None


def _usb_of(real):
    """``(vid, pid, serial number)`` of the USB serial device at ``real`` (a resolved
    ``/dev/tty...`` path) from sysfs, or ``None`` (not USB, no serial number, not Linux)."""
    try:
        from serial.tools.list_ports_linux import SysFS
        info = SysFS(real)
    except (ImportError, OSError, ValueError):
        return None
    if info.vid is None or not info.serial_number:
        return None
    return (info.vid, info.pid, info.serial_number)


#: Paths that name a terminal of the program that opens them, never a serial port of
#: their own: the controlling terminal, the console, the pseudo-terminal multiplexer.
TERMINAL_ALIASES = ("/dev/tty", "/dev/console", "/dev/ptmx")
#: Linux's device numbers of those three (the kernel's devices.txt: char 5, 0-2).
TERMINAL_ALIAS_DEVICES = ((5, 0), (5, 1), (5, 2))


def _look(port):
    """``(settings, fd, problem)``: what ``_terminal_settings`` returns, and why
    ``port`` names no serial port (``serial_port_problem``'s words) or ``None``."""
    import errno
    import stat

    if "://" in port:
        return None, None, None
    try:
        st = os.stat(port)
    except OSError:  # names nothing (the opening says so in its own words), or unreadable
        return None, None, None
    if stat.S_ISDIR(st.st_mode):
        return None, None, _("a folder")
    if stat.S_ISREG(st.st_mode):
        return None, None, _("a file")
    if not stat.S_ISCHR(st.st_mode):
        return None, None, _("no character device")
    if (os.path.realpath(port) in TERMINAL_ALIASES
            or os.name == "posix" and sys.platform.startswith("linux")
            and (os.major(st.st_rdev), os.minor(st.st_rdev)) in TERMINAL_ALIAS_DEVICES):
        return None, None, _("the terminal of whichever program opens it")
    if termios is None:
        return None, None, None
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno in (errno.ENXIO, errno.ENODEV):
            return None, None, _("a device node with no device behind it")
        return None, None, None  # permission, busy: the opening says it
    try:
        return termios.tcgetattr(fd), fd, None
    except (OSError, termios.error) as exc:
        os.close(fd)
        code = exc.args[0] if exc.args else None
        if code == errno.ENOTTY:
            return None, None, _("a device that is not a terminal")
        return None, None, None


def serial_port_problem(port):
    """Why the path ``port`` names no serial port, in a few words (``a file``, ``a
    folder``, ``a device that is not a terminal`` for ``/dev/null``, ``the terminal of
    whichever program opens it`` for ``/dev/tty``, ``a device node with no device
    behind it``), or ``None`` when it may be one: a terminal device, a pyserial URL, a path that names
    nothing (the opening's own "no such port"), or one that can't be looked at (no
    permission, busy: the opening says so). Reads ``os.stat`` and, for a character
    device, its terminal attributes (``termios.tcgetattr``, opened without becoming
    this program's terminal and without waiting); nothing is written."""
    _settings, fd, problem = _look(port)
    if fd is not None:
        os.close(fd)
    return problem


def _terminal_settings(port):
    """``(settings, fd)``: the termios attributes of the terminal ``port`` names, read
    before it is opened as a serial line, and the descriptor that read them (closed by
    the caller once the port is open: a pseudo-terminal's other end sees no moment with
    its terminal closed); ``(None, None)`` for a pyserial URL, a path that is no
    terminal or can't be opened, or a system without termios."""
    settings, fd, _problem = _look(port)
    return settings, fd


@contextlib.contextmanager
def terminal_settings_kept(port):
    """Context manager for a look at ``port`` outside a ``Transport`` (``pyramid flash``
    listening for the firmware): the terminal settings (termios) the port has on entry
    are given back on exit, whatever the look did to them (pyserial makes any port a raw
    115200-baud line), so a port that was not the pyramid's is left as it was found.
    Nothing for a pyserial URL, a path that is no terminal, or a system without termios."""
    found, fd = _terminal_settings(port)
    try:
        yield
    finally:
        if fd is not None:
            try:
                termios.tcsetattr(fd, termios.TCSANOW, found)
            except (OSError, termios.error):  # its other end gone
                pass
            os.close(fd)


class Transport:
    """One serial port read by one thread; see the module docstring.

    ``port``: path or pyserial URL; ``baudrate``: for real UARTs (USB CDC and ptys
    ignore it). ``on_open()``, ``on_data(bytes)``, ``on_idle()``, ``on_lost()``: called
    from the reader thread (``on_open`` also from ``open``/``connect``). ``stats``: a
    dict that gets ``reconnects`` and ``reader_restarts``. ``identity``: the
    ``PortIdentity`` of the device first opened (``None`` before, and for a URL);
    ``refused_port``: why the path, after a loss, names another device (one line), or
    ``None``; ``identify``: how a path's identity is read (``PortIdentity.of``; tests
    give a fake).
    """

    def __init__(self, port, baudrate=115200, retry_interval=0.25, on_open=None, on_data=None, on_idle=None,
                 on_lost=None, stats=None):
        self.port = port
        self.baudrate = baudrate
        self.retry_interval = retry_interval
        self.on_open = on_open or (lambda: None)
        self.on_data = on_data or (lambda data: None)
        self.on_idle = on_idle or (lambda: None)
        self.on_lost = on_lost or (lambda: None)
        self.stats = stats if stats is not None else {}
        self.stats.setdefault("reconnects", 0)
        self.stats.setdefault("reader_restarts", 0)
        self.reader_error = None  # the last exception that stopped the reader (restarted)
        self._ser = None
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._thread = None
        self._stop = threading.Event()
        self._want_open = threading.Event()
        self._stall_until = 0.0
        self.identity = None
        self.refused_port = None
        self.identify = PortIdentity.of
        self._found_settings = None  # the port's termios as this transport found them

    @property
    def is_open(self):
        return self._ser is not None

    def open(self):
        """Open the port and start the reader. Raises ``PortInUse`` when another program
        holds it, ``NotASerialPort`` when the path names no serial port
        (``serial_port_problem``), ``serial.SerialException``/``OSError`` when it cannot
        be opened."""
        with self._lock:
            self._open_port()
        self._want_open.set()
        self.start()

    def start(self):
        """Start the reader thread (again, if it stopped)."""
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pyramid-link", daemon=True)
            self._thread.start()

    def revive(self):
        """Restart a reader thread that stopped without ``close()``; True when it had."""
        if self._thread is not None and not self._thread.is_alive() and not self._stop.is_set():
            log.error(_("the pyramid link's reader thread had stopped; starting it again"))
            self.stats["reader_restarts"] += 1
            self._thread = None
            self.start()
            return True
        return False

    def close(self, restore=False):
        """Stop the reader and close the port (safe to call twice). ``restore``: first
        give the port back the terminal settings (termios) it had when this transport
        opened it, as a probe that found no pyramid there does: a terminal that was not
        the pyramid's is left as it was, not as a raw 115200-baud serial line."""
        self._stop.set()
        self._want_open.clear()
        if self._thread is not None:
            if self._thread is not threading.current_thread():
                self._thread.join(5)
            self._thread = None
        with self._lock:
            if restore:
                self._restore_settings()
            self._close_port()

    def _restore_settings(self):
        ser, found = self._ser, self._found_settings
        fd = getattr(ser, "fd", None)
        if ser is None or found is None or not isinstance(fd, int):
            return
        try:
            termios.tcsetattr(fd, termios.TCSANOW, found)
        except (OSError, termios.error):  # its other end gone, not a tty
            pass

    def disconnect(self):
        """Close the port, keep the reader idle until ``connect()``."""
        self._want_open.clear()
        with self._lock:
            self._close_port()

    def connect(self):
        """Reopen after ``disconnect()`` (raises if the port cannot be opened)."""
        with self._lock:
            self._open_port()
        self._want_open.set()

    def stall(self, seconds):
        """Stop reading the port for ``seconds`` (fault injection)."""
        self._stall_until = time.monotonic() + seconds

    def write(self, line):
        """Write ``line`` (bytes). Raises ``LinkError`` when the port is not open or fails."""
        with self._write_lock:
            ser = self._ser
            if ser is None:
                raise LinkError(_("the pyramid's port is not open"))
            try:
                ser.write(line)
            except (serial.SerialException, OSError) as exc:
                raise LinkError(_("writing to the pyramid failed: %s") % exc) from None

    def _open_port(self):
        if self.identity is None:  # first open: another program's terminal is left alone
            refuse_a_terminal(self.port)
        # before pyserial makes it a raw line
        found, held, problem = _look(self.port)
        if problem is not None and self.identity is None:
            # a file, a folder, /dev/null, /dev/tty: no serial port (pyserial would say
            # "Inappropriate ioctl"); at a reopen the device's own loss is what happened
            raise NotASerialPort(self.port, problem)
        try:
            ser = serial.serial_for_url(
                self.port, baudrate=self.baudrate, timeout=0.05, write_timeout=1.0, exclusive=True
            )
        except serial.SerialException as exc:
            if "lock" in str(exc).lower():
                raise in_use(self.port) from None
            raise
        finally:
            if held is not None:
                os.close(held)
        self._found_settings = found
        try:
            ser.reset_input_buffer()
        except (serial.SerialException, OSError, NotImplementedError, AttributeError):
            pass
        if self.identity is None:  # the device this transport serves from now on
            try:
                self.identity = self.identify(self.port, getattr(ser, "fd", None))
            except (OSError, TypeError):
                self.identity = None
        self.refused_port = None
        self._ser = ser
        self.on_open()

    def _other_device(self):
        """Before a reopen: ``None`` when the path may name the device first opened, or
        ``False`` when it names nothing now; else why it is provably another (the line
        ``refused_port`` keeps). Nothing is opened or written."""
        if self.identity is None:
            return None
        try:
            now = self.identify(self.port)
        except OSError:
            return False
        return None if now is None else now.other(self.identity)

    def _close_port(self):
        ser, self._ser = self._ser, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass

    def _run(self):
        while not self._stop.is_set():
            try:
                self._read_loop()
            except Exception as exc:  # a bug must not end delivery: report and go on
                self.stats["reader_restarts"] += 1
                self.reader_error = exc
                log.error(_("the pyramid link's reader failed (%(kind)s: %(problem)s); "
                            "restarting it"), {"kind": type(exc).__name__, "problem": exc})
                self._stop.wait(0.1)

    def _read_loop(self):
        while not self._stop.is_set():
            if not self._want_open.is_set():
                self._stop.wait(0.05)
                continue
            ser = self._ser
            if ser is None:
                self._reopen()
                continue
            if self._stall_until and time.monotonic() < self._stall_until:
                self._stop.wait(0.02)
                continue
            try:
                waiting = ser.in_waiting
                data = ser.read(waiting if waiting > 0 else 1)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                if self._ser is ser:  # not a deliberate disconnect()
                    # the detail for the log; the table says it in its own words
                    log.info("pyramid port lost (%s); reopening %s", exc, self.port)
                    with self._lock:
                        self._close_port()
                    self.on_lost()
                continue
            if data:
                self.on_data(data)
            if self._ser is not None:
                self.on_idle()

    def _reopen(self):
        self._stop.wait(self.retry_interval)
        if self._stop.is_set() or not self._want_open.is_set():
            return
        other = self._other_device()
        if other is False:
            return  # the path names nothing now: nothing to open
        if other is not None:
            if self.refused_port != other:
                self.refused_port = other
                log.info("%s now names another device (%s): not opened, nothing written to it",
                         self.port, other)
            return
        try:
            with self._lock:
                if self._ser is None and self._want_open.is_set():
                    self._open_port()
                    self.stats["reconnects"] += 1
                    log.info("pyramid port %s reopened", self.port)
        except (serial.SerialException, OSError):
            pass
