"""Firmware logic on CPython with fakes and an injected clock: slider debounce, the
release state machine, the event ring, line assembly, value buttons, and the whole
application driven through a fake port (the same modules run on MicroPython in
test_firmware_micropython.py and on the simulated board in test_hil.py)."""

import asyncio
import os
import sys

import pytest
from camelhost import paths
from camelup.board import protocol

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

from pyramid import app as app_mod  # noqa: E402
from pyramid import settings as settings_mod  # noqa: E402
from pyramid.eventlog import EventLog  # noqa: E402
from pyramid.link import LineReader, parse_line  # noqa: E402
from pyramid.release import Release, verdict  # noqa: E402
from pyramid.slider import PRESS, RELEASE, Slider  # noqa: E402
from pyramid.values import ValueButtons  # noqa: E402

BOOT = "0BADCAFE"


class FakePin:
    def __init__(self, level=1):
        self.level = level

    def value(self, x=None):
        if x is None:
            return self.level
        self.level = 1 if x else 0


# --- slider -----------------------------------------------------------------------

# (time ms, pin level) samples; a pushed slider reads 0; debounce 20 ms
BOUNCY_PUSH = [(0, 1), (5, 0), (6, 1), (7, 0), (9, 1), (12, 0), (30, 0), (120, 1), (121, 0), (123, 1), (160, 1)]


def test_slider_acts_on_the_first_edge_and_ignores_bounce():
    pin = FakePin(1)
    clock = [0]
    slider = Slider(pin, active_low=True, debounce_ms=20, clock=lambda: clock[0])
    seen = []
    for t, level in BOUNCY_PUSH:
        pin.level = level
        clock[0] = t
        change = slider.update()
        if change:
            seen.append((t, change))
    assert seen == [(5, PRESS), (120, RELEASE)]
    assert slider.presses == 1


def test_slider_held_at_power_up_is_not_a_push():
    pin = FakePin(0)
    slider = Slider(pin, debounce_ms=20, clock=lambda: 0)
    assert slider.update(100) is None
    pin.level = 1
    assert slider.update(200) == RELEASE
    pin.level = 0
    assert slider.update(300) == PRESS


# --- release state machine ---------------------------------------------------------

# (readings as (t, label), expected outcome kind, label); settle 50, timeout 300, stable 3
RELEASES = [
    ("clean", [(60, "red"), (80, "red"), (100, "red")], ("die", "red")),
    ("falling die ignored while settling", [(10, "blue"), (30, "green"), (60, "red"), (70, "red"), (80, "red")], ("die", "red")),
    ("flicker resets the count", [(60, "red"), (70, "orange"), (80, "red"), (90, "red"), (100, "red")], ("die", "red")),
    ("empty head", [(60, "empty"), (200, "empty"), (300, "empty")], ("nodie", None)),
    ("empty head with odd rejects", [(60, "empty"), (100, "unknown"), (200, "empty"), (300, "empty")], ("nodie", None)),
    ("never stable", [(60, "red"), (100, "orange"), (200, "red"), (300, "orange")], ("unknown", "orange")),
    ("rejected die", [(60, "unknown"), (100, "unknown"), (200, "unknown"), (300, "unknown")], ("unknown", None)),
    ("two dice", [(60, "double"), (70, "double"), (80, "double")], ("double", None)),
    ("grey die keeps its ink", [(60, "grey-white"), (70, "grey-white"), (80, "grey-white")], ("die", "grey-white")),
]


@pytest.mark.parametrize("name,readings,expected", RELEASES, ids=[r[0] for r in RELEASES])
def test_release_outcomes(name, readings, expected):
    rel = Release(settle_ms=50, timeout_ms=300, stable=3)
    rel.start(0)
    result = None
    for t, label in readings:
        assert result is None, "decided too early"
        result = rel.feed(t, verdict(label, 7, (t, 0, 0, 0)))
    assert result is not None and (result["kind"], result["label"]) == expected
    assert not rel.busy()


def _decide(rel, times, labels):
    rel.start(0)
    for n, (t, label) in enumerate(zip(times, labels, strict=True)):
        result = rel.feed(t, verdict(label, 7, (n, 0, 0, 0)))
        if result is not None:
            return n + 1, result
    return None


def test_a_release_counted_in_readings_decides_on_the_same_readings_however_late_they_come():
    """With ``period_ms`` (one reading's nominal length) the settle and timeout are
    counted in readings: the same labels give the same outcome at the same reading
    whether they come every 25 ms or every 90 ms (a CPU shared with other work)."""
    labels = ["unknown", "grey-white"] * 30  # never stable: decided at the timeout
    outcomes = []
    for gap in (25, 90):
        rel = Release(settle_ms=50, timeout_ms=300, stable=3)
        rel.period_ms = 25
        outcomes.append(_decide(rel, [gap * (n + 1) for n in range(60)], labels))
    assert outcomes[0] == outcomes[1]
    n, result = outcomes[0]
    assert n == 12 and (result["kind"], result["label"]) == ("unknown", "grey-white")  # 12 x 25 ms = the 300 ms timeout
    # by the clock (no period), the slow feed times out after fewer readings
    rel = Release(settle_ms=50, timeout_ms=300, stable=3)
    assert _decide(rel, [90 * (n + 1) for n in range(60)], labels)[0] == 4


def test_release_refuses_bad_setup_and_unstarted_feed():
    with pytest.raises(ValueError):
        Release(settle_ms=100, timeout_ms=100)
    with pytest.raises(ValueError):
        Release(stable=0)
    with pytest.raises(ValueError):
        Release().feed(0, verdict("red"))


def test_the_deciding_verdict_is_the_outcome_and_the_record_the_event_log_numbers():
    """One record from the classifier's verdict to the EVT line (issue 27): the release
    hands on the verdict that decided, and the event log numbers that same record."""
    rel = Release(settle_ms=0, timeout_ms=300, stable=2)
    rel.start(0)
    assert rel.feed(10, verdict("red", 410, (50, 30, 10, 9))) is None
    second = verdict("red", 390, (51, 30, 10, 9))
    out = rel.feed(20, second)
    assert out is second and out == {"kind": "die", "label": "red", "m": 390, "raw": (51, 30, 10, 9)}
    out.update(col="red", val=None)
    line = EventLog(BOOT, capacity=4).append(out.pop("kind"), out)
    assert (out["seq"], out["boot"]) == (1, BOOT)
    msg = protocol.decode(line)
    assert (msg.kind, msg["col"], msg["m"], msg["raw"], msg["val"]) == ("die", "red", 390, (51, 30, 10, 9), None)
    # unknown at the timeout: the last reading not of an empty head is the outcome
    rel.start(0)
    rel.feed(100, verdict("unknown", 80, (69, 20, 20, 20)))
    kept = verdict("grey-white", 120, (70, 20, 20, 20))
    rel.feed(200, kept)
    out = rel.feed(300, verdict("empty", 0, (5, 1, 1, 1)))
    assert out is kept and (out["kind"], out["label"], out["raw"]) == ("unknown", "grey-white", (70, 20, 20, 20))
    # no die: the last reading, with no margin
    rel.start(0)
    out = rel.feed(300, verdict("empty", 55, (5, 1, 1, 1)))
    assert (out["kind"], out["label"], out["m"]) == ("nodie", None, 0)


# --- event ring --------------------------------------------------------------------


def test_event_ring_keeps_the_last_events_framed(tmp_path):
    store = str(tmp_path / "events.log")
    log = EventLog(BOOT, capacity=4, path=store)
    assert (log.seq, log.oldest()) == (0, 1)
    lines = [log.append("nodie", {}) for _ in range(6)]
    assert (log.seq, log.oldest()) == (6, 3)
    assert log.get(1) is None and log.get(2) is None and log.get(7) is None
    for seq in range(3, 7):
        msg = protocol.decode(log.get(seq))
        assert (msg.kind, msg["seq"], msg["boot"]) == ("nodie", seq, BOOT)
        assert log.get(seq) == lines[seq - 1]
    log.persist()
    assert EventLog("0BADCAFE", 4, store).prev == (BOOT, 6)


def test_event_ring_bad_field_uses_no_seq():
    log = EventLog(BOOT, capacity=4)
    with pytest.raises(protocol.ProtocolError):
        log.append("die", {"col": "red"})
    assert log.seq == 0


def test_previous_boot_record_tolerates_junk(tmp_path):
    path = tmp_path / "events.log"
    assert EventLog(BOOT, 4, str(path)).prev is None  # a fresh store: one boot marker
    path.write_bytes(b"garbage\n" + protocol.frame("B 0BADCAFE -") + b"torn EVT 3 nod")
    log = EventLog(BOOT, 4, str(path))
    assert log.prev == ("0BADCAFE", 0)
    (tmp_path / "events.log").write_bytes(
        protocol.frame("B 0BADCAFE -") + protocol.encode("EVT", "nodie", seq=12, boot="0BADCAFE") + b"\xff\x00junk\n"
    )
    assert EventLog(BOOT, 4, str(path)).prev == ("0BADCAFE", 12)


# --- line assembly and host lines ----------------------------------------------------


def test_line_reader_bounds_lines_and_resyncs():
    reader = LineReader(size=16)
    out = []
    for b in b"short\n" + b"x" * 40 + b"\nnext\n":
        got = reader.feed(b)
        if got is not None:
            out.append(got)
    assert out == [b"short", LineReader.TOO_LONG, b"next"]


def test_parse_line_reasons():
    assert parse_line(protocol.encode("PING", token="a").rstrip(b"\n"))[0].name == "PING"
    assert parse_line(b"PING a*00000000") == (None, "crc")
    assert parse_line(protocol.encode("PONG", token="a").rstrip(b"\n")) == (None, "unexpected")
    assert parse_line(b"") == (None, None)


def test_value_buttons_need_two_polls():
    pins = (FakePin(1), FakePin(1), FakePin(1))
    buttons = ValueButtons(pins)
    assert buttons.pressed() == 0
    pins[1].level = 0
    assert buttons.pressed() == 0  # first sighting may be bounce
    assert buttons.pressed() == 2
    with pytest.raises(ValueError):
        ValueButtons(pins[:2])


# --- the application on a fake board --------------------------------------------------


class FakePort:
    def __init__(self):
        self.rx = bytearray()
        self.lines = []
        self._partial = b""

    def readbyte(self):
        if not self.rx:
            return None
        b = self.rx[0]
        del self.rx[0]
        return b

    def write(self, data):
        self._partial += data
        while b"\n" in self._partial:
            line, self._partial = self._partial.split(b"\n", 1)
            self.lines.append(protocol.decode(line))

    def host(self, name, **fields):
        self.rx += protocol.encode(name, **fields)


class FakeSensor:
    """``content`` decides the reading; ``fail`` = errno to raise on the next sample."""

    def __init__(self, world):
        self.world = world
        self.last_on = self.last_off = (0, 0, 0, 0)

    async def sample_async(self):
        await asyncio.sleep(0.001)
        if self.world["fail"]:
            errno, self.world["fail"] = self.world["fail"], None
            raise OSError(errno)
        code = {"empty": 1, "red": 2, "double": 3, "grey-black": 4}[self.world["content"]]
        self.last_on, self.last_off = (code * 100, 1, 2, 3), (5, 0, 0, 0)
        return (code * 100 - 5, 1, 2, 3)


class FakeClassifier:
    def classify(self, reading):
        return {95: "empty", 195: "red", 295: "double", 395: "grey-black"}[reading[0]], 2.5


def _make_app(world, **overrides):
    settings = dict(settings_mod.DEFAULTS, debounce_ms=1, settle_ms=0, release_timeout_ms=80, stable_readings=2, heartbeat_ms=40, sensor_retry_ms=20)
    settings.update(overrides)
    slider = FakePin(1)
    board = app_mod.Board(None, slider, FakePin(0), FakePin(0), (), b"\x01\x02\x03\x04\x05\x06\x07\x08")
    port = FakePort()

    def open_sensor(_board, _settings):
        if world.get("missing"):
            raise OSError(19)
        return FakeSensor(world)

    def make_classifier(profile, settings_):
        if profile is not None and profile.get("edition") != settings_["edition"]:
            raise ValueError("edition")
        return FakeClassifier()

    a = app_mod.App(board, settings, port, open_sensor, make_classifier, files=False)
    return a, slider, port


async def _until(predicate, timeout=10.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.002)


def _events(port):
    return [m for m in port.lines if m.name == "EVT"]


async def _push(slider, port, count):
    slider.level = 0
    await asyncio.sleep(0.01)
    slider.level = 1
    await _until(lambda: len(_events(port)) >= count)
    await asyncio.sleep(0.005)  # the slider rests out longer than the debounce


def test_app_reports_each_push_once_and_recovers_from_a_sensor_fault():
    world = {"content": "red", "fail": None}

    async def scenario():
        a, slider, port = _make_app(world)
        task = asyncio.create_task(a.main())
        await _until(lambda: port.lines)
        assert port.lines[0].name == "HELLO" and port.lines[0]["uid"] == "0102030405060708"
        await _push(slider, port, 1)
        world["content"] = "grey-black"
        await _push(slider, port, 2)
        world["content"] = "empty"
        await _push(slider, port, 3)
        world["content"] = "double"
        await _push(slider, port, 4)
        world["content"], world["fail"] = "red", 110
        await _push(slider, port, 5)
        await _until(lambda: a.sensor_state == "ok")  # re-opened by the sensor task
        await _push(slider, port, 6)
        await _until(lambda: any(m.name == "HB" and m["seq"] == 6 for m in port.lines))
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        assert a._tasks == []  # deinit cancelled every task
        return port

    port = asyncio.run(scenario())
    got = [(m.kind, m["seq"], m.get("col"), m.get("ink"), m.get("code")) for m in _events(port)]
    assert got == [
        ("die", 1, "red", None, None),
        ("die", 2, "grey", "black", None),
        ("nodie", 3, None, None, None),
        ("double", 4, None, None, None),
        ("fault", 5, None, None, "timeout"),
        ("die", 6, "red", None, None),
    ]
    assert _events(port)[0]["val"] is None and _events(port)[0]["m"] == 250


def test_app_answers_host_commands():
    world = {"content": "red", "fail": None}

    async def scenario():
        a, slider, port = _make_app(world, replay_ring=2)
        task = asyncio.create_task(a.main())
        for n in range(1, 4):
            await _push(slider, port, n)
        start = len(port.lines)
        port.host("SYNC", seq=0)  # 1 is gone from a ring of 2
        await _until(lambda: any(m.name == "SYNCED" for m in port.lines))
        replay = [m for m in port.lines[start:] if m.name != "HB"]
        port.host("PING", token="t1")
        port.host("SET", it=700)
        port.host("SET", ed="classic", gain=16)
        port.rx += b"garbage\n" + b"Z" * 300 + b"\n"
        port.host("HELLO?")
        await _until(lambda: any(m.name == "HELLO" for m in port.lines[start:]))
        answers = [m for m in port.lines[start + len(replay) :] if m.name not in ("HB", "SYNCED")]
        task.cancel()
        return replay, answers

    replay, answers = asyncio.run(scenario())
    assert [(m.name, m.get("first"), m.get("seq")) for m in replay] == [
        ("GAP", 1, None),
        ("EVT", None, 2),
        ("EVT", None, 3),
        ("SYNCED", None, 3),
    ]
    assert [m.name for m in answers] == ["PONG", "NAK", "CFG", "NAK", "NAK", "HELLO"]
    assert answers[1]["reason"] == "it"
    assert answers[2].fields == {"ed": "classic", "it": 24, "gain": 16, "vb": False}
    assert (answers[3]["reason"], answers[4]["reason"]) == ("no_crc", "too_long")
    assert answers[5]["seq"] == 3 and answers[5]["oldest"] == 2 and answers[5]["ed"] == "classic"


def test_app_takes_a_profile_in_chunks():
    world = {"content": "red", "fail": None}
    text = '{"edition": "second", "classes": {}, "pad": "%s"}' % ("x" * 150)
    data = text.encode()

    async def scenario():
        a, slider, port = _make_app(world)
        task = asyncio.create_task(a.main())
        for offset in range(0, len(text), 60):
            port.host("PROF", offset=offset, chunk=text[offset : offset + 60])
        port.host("SAVE", length=len(data), crc="%08X" % protocol.crc32(data))
        port.host("PROF", offset=5, chunk="out of order")
        port.host("PROF", offset=0, chunk='{"edition": "classic"}')
        port.host("SAVE", length=22, crc="%08X" % protocol.crc32(b'{"edition": "classic"}'))
        await _until(lambda: len([m for m in port.lines if m.name in ("OK", "NAK")]) >= 8)
        task.cancel()
        return [(m.name, m.get("cmd") or m.get("reason"), m.get("n")) for m in port.lines if m.name in ("OK", "NAK")]

    got = asyncio.run(scenario())
    assert got == [
        ("OK", "PROF", 60),
        ("OK", "PROF", 120),
        ("OK", "PROF", 180),
        ("OK", "PROF", len(data)),
        ("OK", "SAVE", len(data)),
        ("NAK", "offset", None),
        ("OK", "PROF", 22),
        ("NAK", "bad_profile", None),  # a profile for the other edition is refused
    ]


def test_app_without_a_sensor_reports_pushes_as_faults():
    world = {"content": "red", "fail": None, "missing": True}

    async def scenario():
        a, slider, port = _make_app(world)
        task = asyncio.create_task(a.main())
        await _push(slider, port, 1)
        task.cancel()
        return a, port

    a, port = asyncio.run(scenario())
    assert a.sensor_state == "missing"
    assert port.lines[0]["sensor"] == "missing"
    assert (_events(port)[0].kind, _events(port)[0]["code"]) == ("fault", "nosensor")


def test_settings_file_overrides_config_and_ignores_junk(tmp_path):
    class Config:
        INTEGRATION_MS = 50
        GAIN = 16

    path = tmp_path / "settings.json"
    assert settings_mod.load_settings(Config, str(path))["integration_ms"] == 50
    path.write_text('{"it": 100, "gain": "loud", "nonsense": 1}')
    s = settings_mod.load_settings(Config, str(path))
    assert (s["integration_ms"], s["gain"]) == (100, 16)
    path.write_text("{broken")
    assert settings_mod.load_settings(None, str(path)) == settings_mod.DEFAULTS
    assert os.path.exists(path)


def test_app_survives_memory_errors():
    world = {"content": "red", "fail": None}

    class Flaky(FakeClassifier):
        left = [1]

        def classify(self, reading):
            if self.left[0]:
                self.left[0] -= 1
                raise MemoryError("fragmented heap")
            return FakeClassifier.classify(self, reading)

    async def scenario():
        a, slider, port = _make_app(world)
        a.classifier = Flaky()
        task = asyncio.create_task(a.main())
        await _push(slider, port, 1)
        await _push(slider, port, 2)
        task.cancel()
        return port

    port = asyncio.run(scenario())
    assert [(m.kind, m.get("code")) for m in _events(port)] == [("fault", "memory"), ("die", None)]


def test_a_failing_task_is_restarted(capsys):
    calls = []

    async def body():
        calls.append(1)
        if len(calls) < 3:
            raise RuntimeError("boom %d" % len(calls))

    a, _slider, _port = _make_app({"content": "red", "fail": None})
    asyncio.run(a._supervise("test", body))
    assert len(calls) == 3 and a.restarts == 2
    assert "task test restarted after RuntimeError('boom 1')" in capsys.readouterr().out


def test_the_built_in_profiles_go_from_the_heap_once_the_classifier_is_built():
    # a pyramid never calibrated runs all game on its built-in profile: both editions'
    # profile text stays on flash, not in the board's heap, and is read again when a
    # SET or SAVE builds another classifier
    import camelup.board

    settings = dict(settings_mod.DEFAULTS, edition="second")
    first = app_mod.default_classifier(None, settings)
    assert "camelup.board.default_profiles" not in sys.modules
    assert not hasattr(camelup.board, "default_profiles")
    again = app_mod.default_classifier(None, dict(settings, edition="classic"))
    assert "camelup.board.default_profiles" not in sys.modules
    reading = (4200, 2600, 900, 700)
    assert first.classify(reading) == app_mod.default_classifier(None, settings).classify(reading)
    assert "grey-black" in first.labels and "grey-black" not in again.labels  # each edition's own


def test_status_led_shows_the_state_pattern():
    from pyramid.status import PATTERNS, StatusLed

    class Recorder(FakePin):
        def __init__(self):
            FakePin.__init__(self, 0)
            self.writes = []

        def value(self, x=None):
            if x is not None:
                self.writes.append(1 if x else 0)
            return FakePin.value(self, x)

    async def scenario():
        pin = Recorder()
        led = StatusLed(pin)
        led.state = "fault"  # 150 ms on, 150 ms off
        task = asyncio.create_task(led.run())
        await asyncio.sleep(0.4)
        led.state = "reading"  # steady on (generous: a loaded machine oversleeps)
        await asyncio.sleep(0.9)
        writes_reading = len(pin.writes)
        level = pin.level
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        return pin, writes_reading, level

    pin, _writes, level = asyncio.run(scenario())
    assert PATTERNS["fault"] == (150, 150) and PATTERNS["reading"][1] == 0
    assert pin.writes[:3] == [1, 0, 1]  # blinking while faulty
    assert level == 1  # steady on while reading
    assert pin.level == 0  # cancelled: the LED is left off
