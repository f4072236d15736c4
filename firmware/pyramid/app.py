"""The pyramid application: asyncio tasks and their supervisor, wiring slider,
sensor, classifier and link. Host commands are handled by ``pyramid.commands``
(a table of handlers), settings come from ``pyramid.settings`` (readable keys).

Tasks (each handle kept, all cancelled by ``deinit``):

* ``rx``: host commands, one byte at a time from the serial port (docs/protocol.md);
* ``slider``: polls the debounced slider and counts pushes;
* ``release``: one release at a time (``pyramid.release.Release``): read the head
  until the die is stable, classify, optionally wait for a value button, report;
* ``heartbeat``: ``HB`` every ``heartbeat_ms`` so the host notices lost lines and reboots;
* ``stream``: ``RAW`` readings for calibration and monitoring while switched on;
* ``sensor``: re-initialises the colour sensor after an I2C fault;
* ``led``: the status LED pattern;
* ``watchdog``: the only feeder of the hardware watchdog (``WATCHDOG_MS``), and only
  while every task above but ``led`` shows progress (``pyramid.watchdog``): a hung
  task resets the board, whose next HELLO says ``rst=wdt``.

On the board (``run``) Ctrl-C is off (``kbd_intr(-1)``); holding the slider at
power-up is a safe boot that leaves the REPL to mpremote. A ``MemoryError`` in a
command or a task is answered (``NAK memory``, ``EVT fault code=memory``) or the task
is restarted; it never stops the firmware.

An I2C ``OSError`` never stops a task: the release in progress is reported as
``EVT <seq> fault code=eio|timeout``, the sensor is marked faulty (``sensor=fault``
in HB and HELLO) and re-opened every ``sensor_retry_ms``; a push while the sensor is
faulty is reported as ``fault code=nosensor``. Every EVT is one slider push.
"""

import asyncio
import gc

import camelup.board.protocol as protocol

from pyramid import VERSION
from pyramid.commands import PROFILE_FILE, Commands
from pyramid.compat import async_sleep_ms as sleep_ms
from pyramid.compat import ticks_add, ticks_diff, ticks_ms
from pyramid.eventlog import EventLog
from pyramid.link import LineReader, nak, parse_line
from pyramid.release import Release, verdict
from pyramid.settings import load_settings
from pyramid.slider import PRESS, Slider
from pyramid.status import StatusLed
from pyramid.values import ValueButtons
from pyramid.watchdog import Watchdog, clamp_timeout

#: Tasks the watchdog supervisor waits on (index = ``Watchdog.beat`` argument); the
#: status LED is not essential (a stuck LED still reports dice).
TASK_RX = 0
TASK_SLIDER = 1
TASK_RELEASE = 2
TASK_HEARTBEAT = 3
TASK_STREAM = 4
TASK_SENSOR = 5
ESSENTIAL = ("rx", "slider", "release", "heartbeat", "stream", "sensor")
#: Task restarts within one watchdog period that count as a failure storm (no feeding).
RESTART_STORM = 5
#: Longest sleep of a task between two beats (ms): long periods are slept in slices.
SLICE_MS = 250
#: console line for the first Ctrl-C from the host (the firmware ignores Ctrl-C)
CTRL_C_HINT = "pyramid: Ctrl-C ignored while running; for the REPL unplug, then plug in holding the slider (safe boot)"
#: reset_cause() constant names on the board -> the word HELLO reports as ``rst=``
RESET_WORDS = (
    ("PWRON_RESET", "power"),
    ("WDT_RESET", "wdt"),
    ("HARD_RESET", "hard"),
    ("SOFT_RESET", "soft"),
    ("DEEPSLEEP_RESET", "deepsleep"),
)

#: Files on the board's flash (relative to the current directory, "/" on the board).
EVENTS_FILE = "events.log"  # events kept until a host acknowledges them (pyramid.eventlog)


def _hex(data):
    out = ""
    for b in data:
        out += "%02X" % b
    return out


def _new_boot_id():
    try:
        import os

        return _hex(os.urandom(4))
    except (ImportError, AttributeError, OSError):
        import random

        return "%08X" % random.getrandbits(32)


def _errno(exc):
    return exc.args[0] if exc.args and isinstance(exc.args[0], int) else 0


class Board:
    """The hardware the application is handed (it builds none of it).

    ``i2c``: bus of the colour sensor; ``slider``: input ``Pin`` of the slider
    switch; ``sensor_led``: output ``Pin`` of the illumination LED;
    ``status_led``: output ``Pin``; ``value_pins``: tuple of 3 input ``Pin``
    (values 1, 2, 3) or ``()``; ``uid``: the chip's unique id (bytes).
    ``sensor_address``: 7-bit I2C address of the TCS34725 (0x29).
    """

    def __init__(self, i2c, slider, sensor_led, status_led, value_pins, uid, sensor_address=0x29, slider_active_low=True):
        self.i2c = i2c
        self.slider = slider
        self.sensor_led = sensor_led
        self.status_led = status_led
        self.value_pins = value_pins
        self.uid = uid
        self.sensor_address = sensor_address
        self.slider_active_low = slider_active_low


def default_open_sensor(board, settings):
    """Build the real sensor chain: ``TCS34725`` on the board's bus + ``ColourSensor``.

    Raises ``OSError`` (bus fault or no chip) like the driver does.
    """
    from pyramid.sensor import ColourSensor
    from pyramid.tcs34725 import TCS34725

    tcs = TCS34725(board.i2c, board.sensor_address, settings["integration_ms"], settings["gain"])
    return ColourSensor(tcs, board.sensor_led)


def default_classifier(profile, settings):
    """Return a ``camelup.board.classifier.Classifier`` for ``profile`` (dict) or, when
    ``None`` or made for another edition, the edition's default profile; readings
    are taken with the sensor settings in ``settings`` (``it``, ``gain``).
    Raises ``ValueError`` for a profile that fails the classifier's check.

    The built-in profiles' module (``camelup.board.default_profiles``: both editions'
    JSON text, 4.6 KB of the 64-bit port's heap) goes once its profile is parsed, as
    ``pyramid.profile`` does: read again from flash at the next ``SET`` or ``SAVE``."""
    import camelup.board.classifier as classifier

    if profile is None or profile.get("edition") != settings["edition"]:
        profile = classifier.default_profile(settings["edition"])
        _forget_module("camelup.board", "default_profiles")
    return classifier.Classifier(profile, {"integration_ms": float(settings["integration_ms"]), "gain": settings["gain"]})


class App:
    """The pyramid firmware.

    ``board``: a ``Board``. ``settings``: dict as from ``pyramid.settings.load_settings``.
    ``port``: byte port (``pyramid.link.StdioPort``): ``readbyte()``, ``write()``.
    ``open_sensor(board, settings)`` -> object with ``sample()`` (or
    ``sample_async()``), ``last_on``, ``last_off``; ``make_classifier(profile,
    settings)`` -> object with ``classify(reading) -> (label, margin)``. Both
    default to the real ones and are injectable for tests.
    ``files``: keep settings, profile and the last-event record on the
    filesystem (``False`` in unit tests).
    ``wdt``: a started ``machine.WDT`` (or a fake with ``feed()``), fed by the
    ``watchdog`` task only while every task in ``ESSENTIAL`` makes progress;
    ``None``: the supervisor still watches but feeds nothing.
    ``reset_cause``: word for HELLO's ``rst=`` (``power``, ``wdt``, ...) or ``None``.
    """

    def __init__(
        self, board, settings, port, open_sensor=None, make_classifier=None, files=True, wdt=None, reset_cause=None
    ):
        self.board = board
        self.s = settings
        self.port = port
        self._open_sensor = open_sensor or default_open_sensor
        self.make_classifier = make_classifier or default_classifier
        self.files = files
        self.boot = _new_boot_id()
        self.log = EventLog(self.boot, settings["replay_ring"], EVENTS_FILE if files else None)
        self.prev = self.log.prev
        self.uid = _hex(board.uid)
        self.slider = Slider(board.slider, board.slider_active_low, settings["debounce_ms"])
        self.values = ValueButtons(board.value_pins) if board.value_pins else None
        self.release = Release(settings["settle_ms"], settings["release_timeout_ms"], settings["stable_readings"])
        self.led = StatusLed(board.status_led)
        self.reader = LineReader()
        self.sensor = None
        self.sensor_state = "missing"
        self.sensor_id = None  # chip id the sensor's id register gave (int), None if unread
        self.stream_ms = 0
        self.pending = 0  # slider pushes not yet handled
        self.pushes = 0  # the seq the last push's event will have
        self.commands = Commands(self)
        self._t0 = ticks_ms()
        self._tasks = []
        self.restarts = 0  # tasks restarted after an unexpected error
        self.restart_pause_ms = 100  # pause before a failed task starts again
        self.guess = None  # nearest die of the last rejected reading
        #: the dice out this leg as the host told them (``OUT``: bit i the edition's die
        #: i), 0 = none told; ``among``: the classes a release judges a refused reading
        #: among (``_among``), set at each release
        self.out = 0
        self.among = None  # type: tuple | None
        self.among_out = 0  # the mask ``among`` was made from
        self._busy = False  # the sensor is in use (release, stream or CAL)
        self.cal_wanted = False  # a CAL is waiting for the sensor
        self.cal_token = None
        #: the last SYNC not yet answered, (boot, after, to): a host that asked again
        #: while the board was busy gets one replay, of what it asked last
        self.sync_wanted = None  # type: tuple[str, int, int | None] | None
        self.reset_cause = reset_cause
        stall = clamp_timeout(settings.get("watchdog_ms", 0)) or 5000
        self.watchdog = Watchdog(wdt, len(ESSENTIAL), stall, ticks_ms)
        self._stall_told = False
        self._told_ctrl_c = False
        self.load_classifier()
        self.reopen_sensor()

    # --- sensor and classifier ---

    def load_classifier(self):
        """(Re)build the classifier from the stored profile (the edition's default when
        there is none, or it fails the classifier's check)."""
        stored = None
        if self.files:
            from pyramid import profile

            stored = profile.load(PROFILE_FILE)
            # read once per boot, SET or SAVE: its RAM back to the event ring meanwhile
            del profile
            _forget_module("pyramid", "profile")
        # INFO's cal: a profile from calibrate (on flash, for this edition) runs, not the
        # built-in one (``default_classifier`` takes that for another edition's)
        self.calibrated = stored is not None and stored.get("edition") == self.s["edition"]
        try:
            self.classifier = self.make_classifier(stored, self.s)
        except (ValueError, KeyError, TypeError):
            self.classifier = self.make_classifier(None, self.s)
            self.calibrated = False
        #: the sensor settings (``integration_ms``, ``gain``) the running profile was
        #: fitted at (INFO's ``pit``/``pgain``), None with the built-in one
        self.fitted = stored.get("settings") if stored is not None and self.calibrated else None
        self.out = 0  # another edition or profile: the host tells the dice out again

    def dice_out(self, mask):
        """``OUT``: the dice out this leg, bit i the edition's die i
        (``camelup.editions.Edition.dice``). False (nothing changed) for a mask naming
        a die the edition does not have, or every die (one is always in the pyramid
        while a die can come out)."""
        from camelup.editions import EDITIONS

        n = len(EDITIONS[self.s["edition"]].dice)
        if mask >= (1 << n) - 1:
            return False
        self.out = mask
        return True

    def _among(self):
        """The classes a refused reading is judged among (``Classifier.among``): the
        dice not out, by the mask ``OUT`` gave; ``None`` when none is out or the
        classifier cannot (a test's stand-in, a profile without a die still in)."""
        if not self.out or not hasattr(self.classifier, "classify_in_play"):
            return None
        from camelup.editions import EDITIONS, split_die_label

        ed = EDITIONS[self.s["edition"]]
        out = [ed.dice[i] for i in range(len(ed.dice)) if self.out & (1 << i)]
        classes = self.classifier.profile["classes"]
        labels = [lab for lab in ed.sensor_labels
                  if lab in classes and split_die_label(lab)[0] not in out]
        try:
            return self.classifier.among(labels)
        except ValueError:
            return None

    def reopen_sensor(self):
        """Open the sensor again; True when it answered (``sensor_state`` says how it went)."""
        try:
            self.sensor = self._open_sensor(self.board, self.s)
            self.sensor_state = "ok"
            tcs = getattr(self.sensor, "tcs", None)
            self.sensor_id = getattr(tcs, "chip_id", None)
        except OSError as exc:
            self.sensor = None
            self.sensor_state = "missing" if _errno(exc) == 19 else "fault"
            # ENODEV from the driver carries the id it read; a bus fault read none
            self.sensor_id = getattr(exc, "chip_id", None)
        return self.sensor_state == "ok"

    async def _sample(self):
        sensor = self.sensor
        if sensor is None:  # the callers check first; a sensor gone meanwhile is a missing chip
            raise OSError(19)
        if hasattr(sensor, "sample_async"):
            return await sensor.sample_async()
        return sensor.sample()

    def _judge(self, reading):
        """The verdict record of one reading (``pyramid.release.verdict``: its label,
        ``m`` the margin in hundredths of a sigma, ``raw`` the reading): the record a
        release hands on as its outcome and the event log numbers.

        A rejected reading stays ``unknown`` even when its nearest class is the
        empty head: a dim die (blue, at a short integration time) is no "no die"
        (``Release`` decides ``nodie`` only from readings named ``empty``). The
        nearest die of a rejected reading is kept in ``self.guess`` for the
        ``unknown`` event's ``best``. During a release with dice out this leg
        (``OUT``, ``self.among``) a reading refused alone is judged again among the
        dice still in the pyramid (``Classifier.classify_in_play``); a die named so
        carries ``out`` (the mask it was judged with: the ``EVT``'s ``out=``).
        """
        detail = getattr(self.classifier, "classify_detail", None)
        prior = False
        if self.among is not None:
            # refused alone, judged again among the dice still in the pyramid
            label, margin, info = self.classifier.classify_in_play(reading, self.among)
            prior = "prior" in info
        elif detail is not None:
            label, margin, info = detail(reading)
        else:
            label, margin = self.classifier.classify(reading)
            info = None
        if info is not None and label == "unknown":
            nearest = info["best"][0]
            if nearest != "empty":
                self.guess = nearest
        m = int(margin * 100) if margin is not None and margin >= 0 else 0
        record = verdict(label, m if m < 999999 else 999999, reading)
        if prior:
            record["out"] = self.among_out  # the EVT's out=: the dice out that decided it
        return record

    # --- output ---

    def send(self, line):
        """Write one framed line; a port error is swallowed (the host resyncs later)."""
        try:
            self.port.write(line)
        except OSError:
            pass

    def say(self, text):
        """A console line for a person at a terminal, never blocking: through the
        port's non-blocking path (``StdioPort.console``), else ``print()``."""
        console = getattr(self.port, "console", None)
        if console is not None:
            console(text)
        else:
            print(text)

    def hello_line(self):
        return protocol.encode(
            "HELLO",
            proto=protocol.PROTOCOL_VERSION,
            fw=VERSION,
            uid=self.uid,
            boot=self.boot,
            seq=self.log.seq,
            oldest=self.log.oldest(),
            ed=self.s["edition"],
            sensor=self.sensor_state,
            vb=bool(self.s["value_buttons"]),
            prev=self.prev,
            rst=self.reset_cause,
            acked=self.log.acked(),
            sid=("%02X" % self.sensor_id) if self.sensor_id is not None else None,
        )

    def hi_line(self):
        """The short HELLO (``HI``): what a host needs to follow the sequence."""
        return protocol.encode(
            "HI", proto=protocol.PROTOCOL_VERSION, boot=self.boot, seq=self.log.seq, prev=self.prev,
            acked=self.log.acked(),
        )

    def emit(self, kind, fields):
        """Number, keep and send one event (``EVT``): on flash first, then on the wire,
        so an event any host could have seen survives a reboot (write-ahead). The
        release's readings are done by then; the append pauses the other tasks for
        about a millisecond (tens of ms when littlefs erases a block), far less than
        a push lasts."""
        line = self.log.append(kind, fields)
        self.log.persist()
        self.send(line)

    def handle(self, msg):
        """Act on one decoded host ``protocol.Message`` (``pyramid.commands``)."""
        self.commands.handle(msg)

    # --- tasks ---

    async def rx_task(self):
        port = self.port
        reader = self.reader
        beat = self.watchdog.beat
        while True:
            beat(TASK_RX)
            got = 0
            while got < 64:
                b = port.readbyte()
                if b is None:
                    break
                got += 1
                if b == 3 and not self._told_ctrl_c:
                    # someone wants the REPL (mpremote, a terminal): say how, once per boot
                    self._told_ctrl_c = True
                    self.say(CTRL_C_HINT)
                line = reader.feed(b)
                if line is None:
                    continue
                if line == LineReader.TOO_LONG:
                    self.send(nak("too_long"))
                    continue
                try:
                    msg, reason = parse_line(line)
                    if reason is not None:
                        self.send(nak(reason))
                    elif msg is not None:
                        self.handle(msg)
                except MemoryError:
                    # a fragmented heap refused this line (decode or command): say so,
                    # keep serving; the NAK itself may fail too, then the host retries
                    line = msg = None
                    gc.collect()
                    try:
                        self.send(nak("memory"))
                    except MemoryError:
                        pass
            if self.sync_wanted is not None and got < 64:
                # at most 8 events from the flash store (the host asks again from the
                # last it got): a stored event takes about 10 ms to read on the rp2
                # port, and the replay holds every task (a push lasts 150 ms)
                self.log.replay(*self.sync_wanted, self.send, 8)
                self.sync_wanted = None  # (no local left holding it while the task sleeps)
            if not self.pending and not self._busy:
                self.log.persist()  # flash writes only between releases (pyramid.eventlog)
            pump = getattr(port, "pump", None)
            if pump is not None:
                pump()  # the rest of a line the host had no room for
            again = self.log.resend(ticks_ms())
            if again is not None:
                self.send(again)  # the newest event, not yet acknowledged
            if got < 64:
                await sleep_ms(10)
            else:
                await sleep_ms(0)

    async def slider_task(self):
        poll = self.s["debounce_ms"]
        poll = 5 if poll < 5 else (20 if poll > 20 else poll)
        beat = self.watchdog.beat
        while True:
            beat(TASK_SLIDER)
            if self.slider.update() == PRESS:
                self.pending += 1
                # on flash before the release is read: a reset from now on still ends
                # this push as one event (pyramid.eventlog, P records)
                self.pushes = (self.pushes if self.pushes > self.log.seq else self.log.seq) + 1
                self.log.pushed(self.pushes)
            await sleep_ms(poll)

    async def release_task(self):
        beat = self.watchdog.beat
        while True:
            beat(TASK_RELEASE)
            if not self.pending:
                # polled, not Event.wait(): an idle task must still show progress
                await sleep_ms(10)
                continue
            self.pending -= 1
            try:
                await self.one_release()
            except MemoryError:
                # e.g. while framing the event: the push still gives one event
                gc.collect()
                try:
                    self.emit("fault", {"code": "memory"})
                except MemoryError:
                    pass
            gc.collect()  # a release makes the most garbage: collect now, not mid-read

    async def one_release(self):
        """Handle one slider push from start to its EVT."""
        if self.sensor is None:
            self.emit("fault", {"code": "nosensor"})
            return
        self._busy = True
        self.led.state = "reading"
        try:
            rel = self.release
            self.guess = None
            self.among = self._among()
            self.among_out = self.out  # what it was made from: an OUT meanwhile waits
            # settle and timeout counted in readings: the outcome does not depend on load
            sample_ms = getattr(self.sensor, "sample_ms", None)
            rel.period_ms = sample_ms() if sample_ms is not None else None
            rel.start(ticks_ms())
            result = None
            while result is None:  # bounded: Release.feed decides by timeout_ms at the latest
                self.watchdog.beat(TASK_RELEASE)
                reading = await self._sample()
                result = rel.feed(ticks_ms(), self._judge(reading))
                if result is None:
                    await sleep_ms(0)
        except OSError as exc:
            self._sensor_fault(exc)
            return
        except MemoryError:
            # the push must still give its one event: the host asks the player instead
            gc.collect()
            self.emit("fault", {"code": "memory"})
            return
        finally:
            self._busy = False
            self.among = None  # the stream (pyramid monitor) judges each reading alone
            if self.led.state == "reading":
                self.led.state = "idle"
        await self._report(result)

    async def _report(self, record):
        """Send the release's outcome: its deciding verdict record (``Release.feed``)
        becomes the event's fields in place, and the event log numbers that record."""
        kind = record.pop("kind")
        label = record.pop("label")
        raw = record["raw"]
        if raw is None:
            raw = record["raw"] = (0, 0, 0, 0)
        # under the profile's floor the sensor saw too little light (docs/calibration.md)
        record["dim"] = True if raw[0] < getattr(self.classifier, "floor", 0.0) else None
        if kind == "nodie":
            record.clear()
        elif kind == "unknown":
            value = await self._value()
            guess = label if label else self.guess
            # the full label: "grey-black"/"grey-white" tells the host the die is the
            # grey one and only its numeral ink is unsure (docs/protocol.md)
            record["best"] = guess if guess else "none"
            record["val"] = value
        elif kind == "die":
            record["val"] = await self._value()
            from camelup.editions import split_die_label

            colour, ink = split_die_label(label)  # "grey-black": the grey die, black numerals
            record["col"] = colour
            record["ink"] = ink
        self.emit(kind, record)  # the kind's fields only reach the line (protocol.MESSAGES)

    async def _value(self):
        """The value button pressed within ``value_ms`` (1..3), else ``None`` (``?``)."""
        if not (self.s["value_buttons"] and self.values):
            return None
        deadline = ticks_add(ticks_ms(), self.s["value_wait_ms"])
        while ticks_diff(deadline, ticks_ms()) > 0:
            self.watchdog.beat(TASK_RELEASE)
            v = self.values.pressed()
            if v:
                return v
            await sleep_ms(10)
        return None

    def _sensor_fault(self, exc):
        code = "timeout" if _errno(exc) == 110 else "eio"
        self.sensor = None
        self.sensor_state = "fault"
        self.led.state = "fault"
        self.emit("fault", {"code": code})

    async def sensor_task(self):
        """Re-open a faulty or missing sensor every ``retry_ms``."""
        while True:
            await self._sleep_beating(TASK_SENSOR, self.s["sensor_retry_ms"])
            if self.sensor is None and not self._busy:
                if self.reopen_sensor():
                    self.led.state = "idle"

    async def _sleep_beating(self, task, ms):
        """Sleep ``ms`` in slices of at most ``SLICE_MS``, beating for ``task`` after each."""
        beat = self.watchdog.beat
        while ms > 0:
            beat(task)
            step = SLICE_MS if ms > SLICE_MS else ms
            await sleep_ms(step)
            ms -= step
        beat(task)

    async def heartbeat_task(self):
        while True:
            up = ticks_diff(ticks_ms(), self._t0) // 1000
            self.send(
                protocol.encode("HB", boot=self.boot, seq=self.log.seq, up=up if up > 0 else 0, sensor=self.sensor_state)
            )
            await self._sleep_beating(TASK_HEARTBEAT, self.s["heartbeat_ms"])

    async def watchdog_task(self):
        """The only feeder of the hardware watchdog: feeds while every essential task
        beats within ``watchdog.stall_ms``; else says which task stalled (once) and
        lets the watchdog reset the board."""
        wd = self.watchdog
        period = wd.stall_ms // 4
        seen_restarts = self.restarts
        while True:
            storm = self.restarts - seen_restarts >= RESTART_STORM
            seen_restarts = self.restarts
            if storm:
                # a task failing over and over (a heap too fragmented to work with):
                # no feeding; if it lasts the watchdog's timeout, the reset cures it
                if not self._stall_told:
                    self._stall_told = True
                    self.say("pyramid: tasks keep failing; watchdog reset follows unless they recover")
            elif not wd.service() and not self._stall_told:
                self._stall_told = True
                self.say("pyramid: task %s stalled; watchdog reset follows" % ESSENTIAL[wd.stalled])
            await sleep_ms(period)

    async def stream_task(self):
        """RAW readings every ``stream_ms`` while streaming; SAMPLE answers to CAL."""
        beat = self.watchdog.beat
        while True:
            beat(TASK_STREAM)
            if (self.stream_ms or self.cal_wanted) and self.sensor is not None and not self.pending and not self._busy:
                self._busy = True
                try:
                    reading = await self._sample()
                    on, off = self.sensor.last_on, self.sensor.last_off
                    if self.cal_wanted:
                        self.cal_wanted = False
                        self.send(protocol.encode("SAMPLE", token=self.cal_token, on=on, off=off))
                    if self.stream_ms:
                        judged = self._judge(reading)
                        self.send(
                            protocol.encode("RAW", on=on, off=off, label=judged["label"], m=judged["m"],
                                            sl=self.slider.pushed)
                        )
                except OSError:
                    self.sensor = None
                    self.sensor_state = "fault"
                    self.led.state = "fault"
                    if self.cal_wanted:
                        self.cal_wanted = False
                        self.send(nak("sensor"))
                finally:
                    self._busy = False
                await self._sleep_beating(TASK_STREAM, self.stream_ms if self.stream_ms else 20)
            else:
                if self.cal_wanted and self.sensor is None:
                    self.cal_wanted = False
                    self.send(nak("sensor"))
                await sleep_ms(20)

    async def main(self):
        """Start every task, announce ourselves with HELLO, and run until cancelled."""
        self.led.state = "idle" if self.sensor is not None else "fault"
        self.send(self.hello_line())
        self.watchdog.restart()  # the time spent booting is no stall
        for name, body in (
            ("rx", self.rx_task),
            ("slider", self.slider_task),
            ("release", self.release_task),
            ("heartbeat", self.heartbeat_task),
            ("stream", self.stream_task),
            ("sensor", self.sensor_task),
            ("led", self.led.run),
            ("watchdog", self.watchdog_task),
        ):
            self._tasks.append(asyncio.create_task(self._supervise(name, body)))
        gc.collect()
        try:
            await asyncio.gather(*self._tasks)
        finally:
            self.deinit()

    async def _supervise(self, name, body):
        """Run task ``body()``; if it ever fails (a ``MemoryError`` on a fragmented heap,
        a bug), print why on the console, collect garbage and start it again: one bad
        moment must not leave a pyramid that no longer reports dice."""
        while True:
            try:
                await body()
                return
            except Exception as exc:  # CancelledError is a BaseException: deinit still works
                self.restarts += 1
                gc.collect()
                try:
                    self.say("pyramid: task %s restarted after %r" % (name, exc))
                except Exception:  # MemoryError formatting the message
                    pass
            # outside the handler: a MemoryError while pausing must not end the task
            try:
                await sleep_ms(self.restart_pause_ms)
            except MemoryError:
                gc.collect()

    def deinit(self):
        """Cancel every task (safe to call twice, and after the loop died with a
        task still current: MicroPython then refuses to cancel that one)."""
        tasks = self._tasks
        self._tasks = []
        for task in tasks:
            try:
                task.cancel()
            except RuntimeError:  # "can't cancel self"
                pass


def build_board(machine, config, value_buttons=False):
    """Make the ``Board`` from ``machine`` and the pin table in ``pyramid.config``.

    ``value_buttons``: set up the three value-button pins (``config.VALUE_BUTTONS``).
    """
    Pin = machine.Pin
    i2c = machine.I2C(config.I2C_ID, scl=Pin(config.I2C_SCL), sda=Pin(config.I2C_SDA), freq=config.I2C_FREQ)
    pull = Pin.PULL_UP if config.SLIDER_ACTIVE_LOW else Pin.PULL_DOWN
    slider = Pin(config.SLIDER, Pin.IN, pull)
    value_pins = ()
    if value_buttons:
        value_pins = tuple(Pin(n, Pin.IN, Pin.PULL_UP) for n in config.VALUE_BUTTONS)
    return Board(
        i2c,
        slider,
        Pin(config.SENSOR_LED, Pin.OUT, value=0),
        Pin(config.STATUS_LED, Pin.OUT, value=0),
        value_pins,
        machine.unique_id(),
        config.SENSOR_ADDR,
        config.SLIDER_ACTIVE_LOW,
    )


def reset_cause_word(machine):
    """``machine.reset_cause()`` as a word for HELLO (``power``, ``wdt``, ...), or ``None``.

    On rp2 ``machine.reset()`` also restarts through the watchdog, so it reads ``wdt``.
    """
    try:
        cause = machine.reset_cause()
    except (AttributeError, OSError):
        return None
    for name, word in RESET_WORDS:
        if getattr(machine, name, None) == cause:
            return word
    return None


def no_ctrl_c():
    """Let a 0x03 byte from the host be data, not ``KeyboardInterrupt`` (on rp2 it
    would also flush the stdin ring buffer and stop the firmware). Guarded: the
    unix port and CPython may lack ``kbd_intr``."""
    try:
        import micropython

        micropython.kbd_intr(-1)
    except (ImportError, AttributeError):
        pass


def _forget_module(package, name):
    """Drop ``package.name`` from ``sys.modules`` and its package, so the heap it holds
    can be collected (a module used only at boot)."""
    import sys

    sys.modules.pop(package + "." + name, None)
    parent = sys.modules.get(package)
    if parent is not None and hasattr(parent, name):
        try:
            delattr(parent, name)
        except (AttributeError, TypeError):
            pass
    gc.collect()


def run():
    """Entry point for ``main.py``: build the board, load settings, serve until reset.

    Slider held at power-up, or BOOTSEL pressed in the safe-boot window after a power-on
    (``pyramid.safeboot``): safe boot (returns to the REPL). Otherwise Ctrl-C
    is turned off, the watchdog (``WATCHDOG_MS``) is started once the app is built, and
    an unexpected end of the event loop resets the board rather than leaving it idle.
    """
    import sys

    import machine

    from pyramid import config
    from pyramid.link import StdioPort

    settings = load_settings(config)
    board = build_board(machine, config, bool(settings["value_buttons"]))
    from pyramid import safeboot

    power_on = getattr(machine, "PWRON_RESET", None) == machine.reset_cause()
    window = getattr(config, "SAFE_BOOT_WINDOW_MS", 0) if power_on else 0
    held = safeboot.safe_boot(board, bootsel=safeboot.bootsel_reader(), window_ms=window)
    # used once per boot: give its RAM back to the firmware
    del safeboot
    _forget_module("pyramid", "safeboot")
    if held:
        print("pyramid: safe boot (%s held): firmware not started" % ("BOOTSEL" if held == "bootsel" else "slider"))
        return
    no_ctrl_c()
    port = StdioPort(sys.stdin.buffer, sys.stdout.buffer)
    app = App(board, settings, port, reset_cause=reset_cause_word(machine))
    gc.collect()
    wd_ms = clamp_timeout(settings["watchdog_ms"])
    if hasattr(gc, "threshold"):
        # collect early and often (short pauses) instead of once the heap is full
        gc.threshold(gc.mem_free() // 4 + gc.mem_alloc())  # type: ignore
    if wd_ms:
        app.watchdog.wdt = machine.WDT(timeout=wd_ms)
    try:
        asyncio.run(app.main())
    except Exception as exc:  # not SystemExit/KeyboardInterrupt
        try:
            sys.print_exception(exc)  # type: ignore  # MicroPython
        except Exception:
            print("pyramid: stopped by %r" % (exc,))
        machine.reset()
    finally:
        app.deinit()
