"""The simulated pyramid board: run the real firmware against simulated hardware.

Run as a script under the MicroPython unix port (or CPython) with this folder,
``firmware/`` and ``shared/`` on the module path and the current directory as
the board's flash::

    MICROPYPATH=.frozen:hardware/sim:firmware:shared micropython hardware/sim/sim_board.py

It wires the fake ``machine`` to the simulated parts, then imports the firmware's
``main`` exactly as the board would. Serial is the process's stdin/stdout; the
host-side launcher (``camelhost.device.virtual``) puts it on a pseudo-terminal.

Simulated parts: the colour sensor (``sim_tcs34725.TCS34725Model`` over
``sim_optics.OpticalModel``), the pyramid's head (what lies in it and when), the
slider switch (with contact bounce) and the value buttons.

Control channel: the environment variable ``SIM_CTRL="RFD:WFD"`` names two file
descriptors. Commands arrive on RFD as lines, each answered on WFD with
``ack <id>`` (or ``err <id> <why>``) once applied; ``ready`` is written at start.
The board serves the channel whenever the firmware polls the slider or reads the
sensor, i.e. the world changes when the firmware looks, as on the real table.

    push <id> <press_ms> <drop_ms> <hold_ms> <content> <value>
        the slider is pushed for press_ms; content ("red", "grey-black",
        "blue+green" for two dice, "empty") lands in the head drop_ms after the
        push and stays hold_ms; value 1..3 is pressed on the value buttons
        (0 = the player presses none)
    place <id> <content>     put content in the head until the next place/push
    fault <id> <errno> <n>   the next n sensor transactions fail with OSError(errno)
    hang <id> <ms>           the next sensor transaction blocks the firmware for ms
                             (with ms > WATCHDOG_MS the fake watchdog resets the board)
    unplug <id> / replug <id>   the sensor's cable
    ping <id>                just the ack
    mem <id>                 ack <id> <live heap> <free heap> <sim's share> (MicroPython, bytes;
                             the share: Board.sim_bytes)

Other environment: ``SIM_SEED`` (optics seed, int), ``SIM_UID`` (hex unique id),
``SIM_NOISE`` (optics noise scale, default 1.0), ``SIM_BOOTSEL`` (``press:release``
ms after power-up: the BOOTSEL button, ``rp2.py``), ``SIM_SAFE_BOOT_WINDOW_MS``
(replaces ``config.SAFE_BOOT_WINDOW_MS``: the launcher's fast timings use 0),
``SIM_CHIP_ID`` (the sensor's id register, default 0x44; e.g. 16 for a 0x10 part),
``SIM_SENSOR=absent`` (no chip on the bus), ``SIM_LED=dead`` (the illumination LED
never lights).
"""

import sys

if sys.implementation.name != "micropython":
    import cpython_shim

    cpython_shim.install()

import gc
import os
import select
from time import ticks_add, ticks_diff, ticks_ms

_HAS_GC = hasattr(gc, "mem_alloc")  # MicroPython only


def _live():
    if not _HAS_GC:
        return 0
    gc.collect()
    return gc.mem_alloc()


# what the heap holds before the firmware's first module: this script (loaded whole
# before its first line runs) and the interpreter's start, the sim's share
_HEAP_AT_START = _live()
# the firmware's own modules the simulation reads too, imported before the simulated
# parts so that the sim's share (Board.sim_bytes) leaves them out: the board holds them
import camelup.board.tcs34725  # noqa: E402,F401  (sim_optics' count arithmetic)
import camelup.editions  # noqa: E402,F401  (sim_optics' labels)
from pyramid import config  # noqa: E402

_FIRMWARE_FIRST = _live() - _HEAP_AT_START

import machine  # noqa: E402

_BOUNCE_MS = 3  # lever microswitch contact bounce after each edge
_BUTTON_MS = 1000  # how long the player holds a value button from the firmware's first look
_REST_MS = 30  # shortest time the slider rests out between two pushes (> the firmware's debounce)


def _getenv(name, default=None):
    value = os.getenv(name)
    return default if value is None else value


class Head:
    """What lies in the pyramid's head, and the slider and buttons, over time (ms)."""

    def __init__(self):
        self.now_content = "empty"
        self.press_at = None
        self.press_ms = 0
        self.drop_at = None
        self.next_content = "empty"
        self.leave_at = None
        self.value = 0
        self.value_at = None
        self.press_seen = False  # the firmware has read the slider of this push pushed
        self.value_seen = False  # the firmware has read the value button of this push

    def push(self, now, press_ms, drop_ms, hold_ms, content, value):
        self._settle(now)
        if self.press_at is not None:
            # a hand cannot push again before the slider is back out: the new push
            # starts a little after the previous one ends (and its bounce settles)
            free = ticks_add(self.press_at, self.press_ms + _BOUNCE_MS + _REST_MS)
            if ticks_diff(free, now) > 0:
                now = free
        self.now_content = "empty"  # the previous die is out of the head when the next drops
        self.press_at = now
        self.press_ms = press_ms
        self.press_seen = False
        self.drop_at = now + drop_ms
        self.next_content = content
        self.leave_at = now + drop_ms + hold_ms
        self.value = value
        self.value_at = now + drop_ms
        self.value_seen = False

    def place(self, content):
        self.press_at = None
        self.drop_at = None
        self.leave_at = None
        self.now_content = content

    def _settle(self, now):
        if self.drop_at is not None and ticks_diff(now, self.drop_at) >= 0:
            self.now_content = self.next_content
            self.drop_at = None
        if self.drop_at is None and self.leave_at is not None and ticks_diff(now, self.leave_at) >= 0:
            self.now_content = "empty"
            self.leave_at = None

    def content(self, now):
        self._settle(now)
        c = self.now_content
        if "+" in c:
            a, b = c.split("+")
            return (a, b)
        return c

    def slider_pushed(self, now):
        """The slider's contact at ``now`` (ms): True while pushed, alternating while
        the contacts bounce. The press is timed from the firmware's first look at it:
        a board that polls every few ms sees it within the bounce, as on the table,
        but a firmware process the machine's load kept off the CPU for the whole push
        (the unix port on a shared machine; the RP2040 is never off its loop that
        long) finds the slider still held at its first read past the bounce, the
        press then lasting ``press_ms`` from there. So every push is seen once, and a
        seeded virtual game does not depend on the load."""
        if self.press_at is None:
            return False
        t = ticks_diff(now, self.press_at)
        if t < 0:
            return False
        if not self.press_seen and t >= _BOUNCE_MS:
            # the first read past the bounce: the contact is closed from here on
            self.press_at = ticks_add(now, -_BOUNCE_MS)
            t = _BOUNCE_MS
        if t >= self.press_ms + _BOUNCE_MS:
            return False
        if t < _BOUNCE_MS or t >= self.press_ms:
            pushed = (t % 2) == 0  # bouncing contacts
        else:
            pushed = True
        if pushed:
            self.press_seen = True
        return pushed

    def button(self, now, value):
        """Whether value button ``value`` (1..3) is held at ``now`` (ms): the push's value,
        from the drop on, for ``_BUTTON_MS`` timed from the firmware's first look at it
        after the drop (as the slider's press is): a firmware process the machine's load
        kept off the CPU for a second after the drop still finds the button held, and
        held on its next poll, as an RP2040, never off its loop that long, always does."""
        if self.value_at is None or self.value != value:
            return False
        t = ticks_diff(now, self.value_at)
        if t < 0:
            return False
        if not self.value_seen:  # the first look after the drop: held from here on
            self.value_seen = True
            self.value_at = now
            t = 0
        return t < _BUTTON_MS


class CountedOptics:
    """The optical model as the sensor model reads it, with the heap its first reading
    of each content keeps (its per-label responses: about 0.8 KB a label on the 64-bit
    port, 6 KB for a second-edition game) added to ``board.sim_bytes``, so the sim's
    share stays the sim's after boot too. Measured around that one call, between two
    collections (the 4-tuple it returns counts too: 64 bytes a content); MicroPython only."""

    def __init__(self, optics, board):
        self.optics = optics
        self.board = board
        self.seen = {}  # contents read once: the simulation's too, in its share

    def begin(self, release):
        self.optics.begin(release)

    def counts(self, content, led_on, integration_ms, gain, index=None):
        if content in self.seen or not _HAS_GC:
            return self.optics.counts(content, led_on, integration_ms, gain, index=index)
        before = _live()
        self.seen[content] = True
        out = self.optics.counts(content, led_on, integration_ms, gain, index=index)
        self.board.sim_bytes += _live() - before
        return out


class Board:
    def __init__(self):
        self.head = Head()
        #: heap held by the simulated parts: this script and the interpreter's start,
        #: their modules and objects (measured in setup, the firmware's modules they
        #: read left out) and what the optics keep later (``CountedOptics``); the live
        #: heap less this is the firmware's own
        self.sim_bytes = 0
        self.sensor = None
        self.led_dead = _getenv("SIM_LED") == "dead"
        self._ctrl_in = None
        self._ctrl_out = None
        self._poll = None
        self._buf = b""
        ctrl = _getenv("SIM_CTRL")
        if ctrl:
            rfd, wfd = ctrl.split(":")
            # unbuffered on both runtimes (MicroPython's FileIO is; CPython needs 0)
            self._ctrl_in = open(int(rfd), "rb", 0)
            self._ctrl_out = open(int(wfd), "wb", 0)
            self._poll = select.poll()
            self._poll.register(self._ctrl_in, select.POLLIN)

    def reply(self, text):
        if self._ctrl_out is not None:
            self._ctrl_out.write((text + "\n").encode())

    def service(self):
        """Apply every control command waiting on the channel (never blocks)."""
        if self._poll is None:
            return
        while True:
            ready = self._poll.poll(0)
            if not ready or not (ready[0][1] & select.POLLIN):
                if ready and ready[0][1] & (select.POLLHUP | select.POLLERR):
                    sys.exit(0)  # the launcher is gone: power off
                return
            b = self._ctrl_in.read(1)
            if not b:
                sys.exit(0)
            if b == b"\n":
                line = self._buf.decode()
                self._buf = b""
                self._command(line.split())
            else:
                self._buf += b

    def _command(self, words):
        if len(words) < 2:
            return
        op, cid = words[0], words[1]
        now = ticks_ms()
        try:
            if op == "push":
                self.head.push(now, int(words[2]), int(words[3]), int(words[4]), words[5], int(words[6]))
                self.sensor.begin_release()  # the readings of a release: (seed, release, index)
            elif op == "place":
                self.head.place(words[2])
                self.sensor.begin_release()
            elif op == "fault":
                self.sensor.fail_next(int(words[2]), int(words[3]))
            elif op == "hang":
                self.sensor.hang_next(int(words[2]))
            elif op == "unplug":
                self.sensor.unplug()
            elif op == "replug":
                self.sensor.replug()
            elif op == "mem":
                self.reply("ack %s %s" % (cid, self.memory()))
                return
            elif op != "ping":
                self.reply("err %s unknown" % cid)
                return
        except (IndexError, ValueError, AttributeError) as exc:
            self.reply("err %s %s" % (cid, type(exc).__name__))
            return
        self.reply("ack " + cid)

    def memory(self):
        """``"<live> <free> <sim>"``: heap bytes in use after a collection, free, and the
        share of the live heap held by the simulated parts (not on a real board)."""
        gc.collect()
        return "%d %d %d" % (gc.mem_alloc(), gc.mem_free(), self.sim_bytes)

    # inputs the fake machine reads

    def slider_level(self):
        self.service()
        pushed = self.head.slider_pushed(ticks_ms())
        active = 0 if config.SLIDER_ACTIVE_LOW else 1
        return active if pushed else 1 - active

    def content(self):
        self.service()
        return self.head.content(ticks_ms())

    def led_lit(self):
        if self.led_dead:
            return 0
        return machine.output_level(config.SENSOR_LED)

    def button_fn(self, value):
        def level():
            return 0 if self.head.button(ticks_ms(), value) else 1

        return level


def setup():
    """Build the simulated parts and attach them to the fake ``machine``; return the ``Board``."""
    from sim_optics import OpticalModel
    from sim_tcs34725 import TCS34725Model

    board = Board()
    seed = int(_getenv("SIM_SEED", "1"))
    noise = float(_getenv("SIM_NOISE", "1.0"))
    uid = _getenv("SIM_UID")
    if uid:
        machine.set_unique_id(bytes(int(uid[i : i + 2], 16) for i in range(0, len(uid), 2)))
    optics = OpticalModel(seed, noise=noise)
    window = _getenv("SIM_SAFE_BOOT_WINDOW_MS")
    if window is not None:
        config.SAFE_BOOT_WINDOW_MS = int(window)
    chip_id = int(_getenv("SIM_CHIP_ID", "68"))
    board.sensor = TCS34725Model(CountedOptics(optics, board), board.content, board.led_lit, chip_id=chip_id)
    # releases begun in earlier boots of this board: the noise keys go on from there
    board.sensor.release = int(_getenv("SIM_RELEASES", "0"))
    if _getenv("SIM_SENSOR") != "absent":
        machine.register_i2c(config.SENSOR_ADDR, board.sensor)
    machine.set_input(config.SLIDER, board.slider_level)
    for i in range(3):
        machine.set_input(config.VALUE_BUTTONS[i], board.button_fn(i + 1))
    # the heap the sim holds: this script, its modules, models and this board (all of
    # the live heap so far but the firmware's modules imported above; the optics'
    # per-label caches are added as they fill: CountedOptics)
    import rp2  # noqa: F401  (the simulated BOOTSEL: built into the board's firmware, so the sim's share)

    board.sim_bytes = _live() - _FIRMWARE_FIRST
    board.reply("ready")
    return board


def _tell_safe_boot_timing():
    """After a safe boot (the firmware returned): when the firmware first read BOOTSEL,
    in ms after power-up, on stderr (the board log), for the bring-up timing."""
    rp2 = sys.modules.get("rp2")
    if rp2 is not None and rp2.first_read_ms() is not None:
        sys.stderr.write("sim: BOOTSEL first read %d ms after power-up\n" % rp2.first_read_ms())


if __name__ == "__main__":
    setup()
    import main  # noqa: F401  (the firmware's own entry point; runs until reset)

    _tell_safe_boot_timing()
