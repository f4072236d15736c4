"""Watchdog, reset cause, safe boot and MemoryError realities of the RP2040 firmware.

CPython with fakes: the supervisor logic (``pyramid.watchdog``), the app feeding a
fake watchdog only while every essential task beats, the HELLO reset cause, safe
boot, a ``MemoryError`` while decoding a host line. Then the simulated board
(``hardware/sim/machine.py``'s biting ``WDT``) under CPython and the MicroPython unix
port: a stalled task resets the board, and the next boot reports ``rst=wdt``.
"""

import asyncio
import os
import subprocess
import sys

import pytest
from camelhost import paths
from camelup.board import protocol

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

from pyramid import app as app_mod  # noqa: E402
from pyramid import settings as settings_mod  # noqa: E402
from pyramid.safeboot import safe_boot  # noqa: E402
from pyramid.watchdog import WDT_MAX_MS, Watchdog, clamp_timeout  # noqa: E402
from test_firmware_units import FakePin, _events, _make_app, _push  # noqa: E402

SIM_DIR = os.path.join(paths.REPO_ROOT, "hardware", "sim")


class FakeWDT:
    def __init__(self):
        self.fed = 0

    def feed(self):
        self.fed += 1


# --- supervisor logic -----------------------------------------------------------------


def test_watchdog_feeds_only_while_every_task_beats():
    now = [0]
    wdt = FakeWDT()
    wd = Watchdog(wdt, 3, 1000, clock=lambda: now[0])
    for t in range(0, 3000, 200):
        now[0] = t
        for i in range(3):
            wd.beat(i)
        assert wd.service()
    assert wdt.fed == 15 and wd.stalled == -1
    # task 1 stops: fed until its last beat is stall_ms old, then never again
    last = now[0]
    for t in range(last + 200, last + 3000, 200):
        now[0] = t
        wd.beat(0)
        wd.beat(2)
        fed = wd.service()
        assert fed == (t - last <= 1000), t
    assert wd.stalled == 1
    wd.restart()
    assert wd.service()


def test_watchdog_timeout_is_clamped_to_what_rp2_accepts():
    assert clamp_timeout(0) == 0
    assert clamp_timeout(None) == 0
    assert clamp_timeout(-5) == 0
    assert clamp_timeout(5000) == 5000
    assert clamp_timeout(10**6) == WDT_MAX_MS == 8388
    assert clamp_timeout(100) == 2000  # slower than one 614 ms two-exposure reading


def test_config_watchdog_reaches_the_settings():
    from pyramid import config

    assert config.WATCHDOG_MS == 5000
    assert settings_mod.load_settings(config, "/nonexistent/settings.json")["watchdog_ms"] == 5000
    assert settings_mod.DEFAULTS["watchdog_ms"] == 0  # off unless the board's config says so


# --- the app feeding a watchdog ------------------------------------------------------


def test_app_feeds_the_watchdog_until_a_task_hangs(capsys):
    world = {"content": "red", "fail": None}

    async def scenario():
        a, slider, port = _make_app(world, watchdog_ms=2000)
        wdt = FakeWDT()
        a.watchdog.wdt = wdt
        a.watchdog.stall_ms = 200  # 50 ms supervisor period
        task = asyncio.create_task(a.main())
        await _push(slider, port, 1)  # a normal release: feeding goes on
        await asyncio.sleep(0.4)
        fed_while_healthy = wdt.fed
        assert a.watchdog.stalled == -1

        # the sensor read never returns (a bus hung without its timeout)
        async def hang():
            await asyncio.Event().wait()

        a.sensor.sample_async = hang
        slider.level = 0
        await asyncio.sleep(0.02)
        slider.level = 1
        await asyncio.sleep(0.5)
        fed_at_stall = wdt.fed
        await asyncio.sleep(0.3)
        stalled = a.watchdog.stalled
        task.cancel()
        return fed_while_healthy, fed_at_stall, wdt.fed, stalled, port

    healthy, at_stall, final, stalled, port = asyncio.run(scenario())
    assert healthy >= 5
    assert final == at_stall  # no feed once the release task stopped beating
    assert stalled == app_mod.TASK_RELEASE
    assert "task release stalled" in capsys.readouterr().out
    assert [m.kind for m in _events(port)] == ["die"]


def test_idle_tasks_with_long_periods_still_beat():
    # heartbeat, stream and sensor sleep in slices: a 3 s heartbeat is no stall
    world = {"content": "red", "fail": None}

    async def scenario():
        a, _slider, _port = _make_app(world, heartbeat_ms=3000, sensor_retry_ms=3000)
        a.watchdog.stall_ms = 400
        task = asyncio.create_task(a.main())
        await asyncio.sleep(1.2)
        result = a.watchdog.fresh()
        task.cancel()
        return result

    assert asyncio.run(scenario()) == -1


def test_hello_reports_the_reset_cause_only_when_known():
    a, _slider, _port = _make_app({"content": "red", "fail": None})
    assert protocol.decode(a.hello_line()).get("rst") is None
    a.reset_cause = "wdt"
    assert protocol.decode(a.hello_line())["rst"] == "wdt"

    class Machine:
        PWRON_RESET = 1
        WDT_RESET = 3

        def __init__(self, cause):
            self.cause = cause

        def reset_cause(self):
            return self.cause

    assert app_mod.reset_cause_word(Machine(3)) == "wdt"
    assert app_mod.reset_cause_word(Machine(1)) == "power"
    assert app_mod.reset_cause_word(Machine(9)) is None
    assert app_mod.reset_cause_word(object()) is None


def test_the_longest_hello_with_a_reset_cause_fits_one_line():
    line = protocol.encode(
        "HELLO",
        proto=protocol.PROTOCOL_VERSION,  # a constant of the build, not a counter
        fw="10.10.10",
        uid="E6614104033F3A2B",
        boot="FFFFFFFF",
        seq=2**32 - 1,
        oldest=2**32 - 1,
        ed="classic",
        sensor="missing",
        vb=True,
        prev=("FFFFFFFF", 2**32 - 1),
        rst=max((w for _n, w in app_mod.RESET_WORDS), key=len),
        acked=2**32 - 1,
        sid="4D",
    )
    # Widest real values: 32-bit counters, an 8-byte RP2040 unique id (16 hex digits),
    # the longest edition, sensor and reset-cause words, a recorded earlier boot, the
    # acknowledged seq, the sensor's chip id.
    assert len(line) <= protocol.MAX_LINE
    assert protocol.decode(line).name == "HELLO"


def test_safe_boot_needs_the_slider_held_throughout():
    held = app_mod.Board(None, FakePin(0), FakePin(0), FakePin(0), (), b"\0" * 8)
    assert safe_boot(held, sleep_ms_=lambda ms: None)
    levels = iter([0, 0, 1, 0, 0])

    class Bouncy:
        def value(self):
            return next(levels)

    bouncy = app_mod.Board(None, Bouncy(), FakePin(0), FakePin(0), (), b"\0" * 8)
    assert not safe_boot(bouncy, sleep_ms_=lambda ms: None)
    free = app_mod.Board(None, FakePin(1), FakePin(0), FakePin(0), (), b"\0" * 8)
    assert not safe_boot(free, sleep_ms_=lambda ms: None)


def test_no_ctrl_c_turns_ctrl_c_into_data_where_it_can(monkeypatch):
    import sys
    import types

    calls = []
    board = types.ModuleType("micropython")
    board.kbd_intr = calls.append
    monkeypatch.setitem(sys.modules, "micropython", board)
    app_mod.no_ctrl_c()  # rp2: a 0x03 byte from the host is data, not KeyboardInterrupt
    assert calls == [-1]
    monkeypatch.setitem(sys.modules, "micropython", types.ModuleType("micropython"))
    app_mod.no_ctrl_c()  # a port without kbd_intr: nothing to turn off, no error
    monkeypatch.delitem(sys.modules, "micropython")
    monkeypatch.setattr(sys, "path", [])  # CPython: no micropython module at all
    app_mod.no_ctrl_c()
    assert calls == [-1]


# --- MemoryError while decoding a host line ------------------------------------------


def test_memory_error_while_decoding_a_line_is_a_nak_and_serving_goes_on(monkeypatch):
    real = app_mod.parse_line
    left = [1]

    def flaky(line):
        if left[0]:
            left[0] -= 1
            raise MemoryError("fragmented heap")
        return real(line)

    monkeypatch.setattr(app_mod, "parse_line", flaky)

    async def scenario():
        a, _slider, port = _make_app({"content": "red", "fail": None})
        task = asyncio.create_task(a.main())
        port.host("PING", token="t1")
        port.host("PING", token="t2")
        for _ in range(500):
            if any(m.name == "PONG" for m in port.lines):
                break
            await asyncio.sleep(0.005)
        task.cancel()
        return a, port

    a, port = asyncio.run(scenario())
    names = [(m.name, m.get("reason") or m.get("token")) for m in port.lines if m.name in ("NAK", "PONG")]
    assert names == [("NAK", "memory"), ("PONG", "t2")]
    assert a.restarts == 0


# --- the simulated board: a stalled task resets it -------------------------------------

SIM_SCRIPT = r"""
import sys
if sys.implementation.name != "micropython":
    import cpython_shim
    cpython_shim.install(stdin=False)
import asyncio
import time
import machine
from pyramid import app as app_mod
from pyramid import settings as settings_mod

MODE = sys.argv[-1]  # "stall": the sensor read never returns; "ok"

class Port:
    def readbyte(self):
        return None
    def write(self, data):
        pass

class Sensor:
    last_on = last_off = (0, 0, 0, 0)
    async def sample_async(self):
        if MODE == "stall":
            await asyncio.Event().wait()
        await asyncio.sleep_ms(1)
        return (100, 1, 2, 3)

class Classifier:
    def classify(self, reading):
        return "red", 2.0

Pin = machine.Pin
board = app_mod.Board(None, Pin(15, Pin.IN, Pin.PULL_UP), Pin(6, Pin.OUT), Pin(25, Pin.OUT), (), machine.unique_id())
settings = dict(settings_mod.DEFAULTS)
settings.update(debounce_ms=5, settle_ms=0, release_timeout_ms=100, stable_readings=2, heartbeat_ms=100, watchdog_ms=2000)
a = app_mod.App(board, settings, Port(), lambda b, s: Sensor(), lambda p, s: Classifier(), False,
                reset_cause=app_mod.reset_cause_word(machine))
print("cause", a.reset_cause)
a.watchdog.stall_ms = 300
a.watchdog.wdt = machine.WDT(timeout=600)
t0 = time.ticks_ms()
pushed_at = [None]

def lever():
    # pushed from 100 ms on, held 50 ms from the firmware's first look at it pushed: a
    # window of wall time alone (100..150 ms) was missed whole when a loaded machine
    # kept the board's loop from polling in it (its event 'alive True 0')
    now = time.ticks_ms()
    if time.ticks_diff(now, t0) < 100:
        return 1
    if pushed_at[0] is None:
        pushed_at[0] = now
    return 0 if time.ticks_diff(now, pushed_at[0]) < 50 else 1

machine.set_input(15, lever)

async def main():
    task = asyncio.create_task(a.main())
    await asyncio.sleep_ms(2500)
    print("alive", a.watchdog.feeds > 5, a.log.seq)
    task.cancel()

asyncio.run(main())
"""


def _run_cpython(script, mode, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([SIM_DIR, paths.FIRMWARE_DIR, paths.SHARED_DIR])
    env.pop("SIM_WDT", None)
    return subprocess.run(
        [sys.executable, script, mode], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def _run_micropython(micropython, script, mode, cwd):
    return micropython([script, mode], [SIM_DIR, paths.FIRMWARE_DIR, paths.SHARED_DIR], timeout=60, cwd=cwd)


def _check_stall_resets_and_next_boot_says_wdt(run, tmp_path):
    script = tmp_path / "wdt_board.py"
    script.write_text(SIM_SCRIPT)
    flash = tmp_path / "flash"
    flash.mkdir()
    healthy = run(str(script), "ok", str(flash))
    assert healthy.returncode == 0, healthy.stdout + healthy.stderr
    assert "cause power" in healthy.stdout
    assert "alive True 1" in healthy.stdout  # fed throughout; the push gave its event

    stalled = run(str(script), "stall", str(flash))
    assert stalled.returncode == 75, stalled.stdout + stalled.stderr  # machine RESET_EXIT
    assert "task release stalled" in stalled.stdout
    assert "sim: board reset (watchdog)" in stalled.stdout
    assert "alive" not in stalled.stdout

    again = run(str(script), "ok", str(flash))
    assert "cause wdt" in again.stdout, again.stdout + again.stderr
    again = run(str(script), "ok", str(flash))
    assert "cause power" in again.stdout  # the cause is read once, like rp2's


@pytest.mark.process
def test_sim_watchdog_resets_a_stalled_board_cpython(tmp_path):
    _check_stall_resets_and_next_boot_says_wdt(_run_cpython, tmp_path)


@pytest.mark.micropython
def test_sim_watchdog_resets_a_stalled_board_micropython(micropython, tmp_path):
    def run(script, mode, cwd):
        return _run_micropython(micropython, script, mode, cwd)

    _check_stall_resets_and_next_boot_says_wdt(run, tmp_path)


@pytest.mark.process
def test_sim_wdt_is_rp2_like():
    code = (
        "import machine\n"
        "try:\n    machine.WDT(timeout=9000)\nexcept ValueError:\n    print('range ok')\n"
        "w = machine.WDT(timeout=8388)\nw.feed()\nprint(machine.reset_cause() == machine.PWRON_RESET)\n"
    )
    env = dict(os.environ, PYTHONPATH=SIM_DIR)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=30)
    assert out.stdout.split("\n")[:2] == ["range ok", "True"], out.stderr


def test_memory_error_while_framing_a_die_still_gives_the_push_one_event():
    async def scenario():
        a, slider, port = _make_app({"content": "red", "fail": None})
        real = a.log.append
        left = [1]

        def flaky(kind, fields):
            if kind == "die" and left[0]:
                left[0] -= 1
                raise MemoryError("fragmented heap")
            return real(kind, fields)

        a.log.append = flaky
        task = asyncio.create_task(a.main())
        await _push(slider, port, 1)
        await _push(slider, port, 2)
        task.cancel()
        return a, port

    a, port = asyncio.run(scenario())
    assert [(m.kind, m.get("code"), m["seq"]) for m in _events(port)] == [("fault", "memory", 1), ("die", None, 2)]
    assert a.restarts == 0


def test_event_log_keeps_numbering_when_the_state_file_cannot_be_written(tmp_path, monkeypatch):
    from pyramid import eventlog

    def no_heap(*args, **kwargs):
        raise MemoryError("fragmented heap")

    log = eventlog.EventLog("0BADCAFE", 4, str(tmp_path / "state"))
    monkeypatch.setattr(eventlog, "open", no_heap, raising=False)
    line = log.append("nodie", {})
    assert protocol.decode(line)["seq"] == 1 and log.get(1) == line


def test_ctrl_c_from_the_host_gets_one_console_hint_and_serving_goes_on(capsys):
    async def scenario():
        a, _slider, port = _make_app({"content": "red", "fail": None})
        task = asyncio.create_task(a.main())
        port.rx += b"\r\x03\x03"
        port.host("PING", token="t1")
        port.rx += b"\x03"
        port.host("PING", token="t2")
        for _ in range(500):
            if sum(m.name == "PONG" for m in port.lines) == 2:
                break
            await asyncio.sleep(0.005)
        task.cancel()
        return port

    port = asyncio.run(scenario())
    assert [m["token"] for m in port.lines if m.name == "PONG"] == ["t1", "t2"]
    assert not [m for m in port.lines if m.name == "NAK"]
    assert capsys.readouterr().out.count(app_mod.CTRL_C_HINT) == 1


@pytest.mark.hil
@pytest.mark.micropython
def test_virtual_pyramid_hung_on_the_bus_is_reset_by_its_watchdog(micropython):
    # the whole board as flashed: main.py -> run() -> machine.WDT(WATCHDOG_MS = 5000)
    from camelhost.device.virtual import VirtualPyramid, VirtualPyramidError

    with VirtualPyramid("classic", seed=3) as vp:
        first = [m for _t, m in vp.emitted if m.name == "HELLO"][-1]
        assert first["rst"] == "power"
        assert vp.release().event is not None
        vp._send("hang", 6500)  # the next sensor transaction blocks everything for 6.5 s
        with pytest.raises(VirtualPyramidError, match="exit status 75"):
            vp.release(timeout=20)
        assert "sim: board reset (watchdog)" in vp.board_log()
        vp.reboot()
        hello = [m for _t, m in vp.emitted if m.name == "HELLO"][-1]
        assert hello["rst"] == "wdt" and hello["boot"] != first["boot"]
        # the earlier boot's events are accounted for: the push the hang cut short is
        # its event 2, an unknown with best=reboot (issue 29, item 2), kept for a host
        assert hello["prev"] == (first["boot"], 2)
        from camelhost.device.link import Link

        with Link(vp.port, resume=(first["boot"], 1)) as link:
            cut = link.next_event(10)
        assert (cut.kind, cut.boot, cut.seq, cut.best) == ("unknown", first["boot"], 2, "reboot")
        fell = vp.release()
        assert fell.event is not None


def test_a_task_failing_over_and_over_stops_the_feeding(capsys, monkeypatch):
    # one failure is a restart; a storm of them (a heap too fragmented to work with)
    # lets the watchdog reset the board, which gives a fresh heap
    monkeypatch.setattr(app_mod.gc, "collect", lambda: 0)  # CPython's is slow: restarts stay frequent

    async def scenario():
        a, _slider, _port = _make_app({"content": "red", "fail": None})
        wdt = FakeWDT()
        a.watchdog.wdt = wdt
        a.watchdog.stall_ms = 400  # 100 ms supervisor period
        # no pause between restarts: a storm is then far more than RESTART_STORM
        # restarts in every 100 ms period, however slowly a loaded machine runs the loop
        # (with a 5 ms pause a starved process could fall under it and feed once more)
        a.restart_pause_ms = 0
        calls = [0]
        real = a.heartbeat_task

        async def flaky_heartbeat():
            calls[0] += 1
            if calls[0] == 1 or calls[0] > 3:
                raise MemoryError("fragmented heap")
            await real()

        a.heartbeat_task = flaky_heartbeat
        task = asyncio.create_task(a.main())
        await asyncio.sleep(0.05)
        calls[0] = 2  # after the first failure it ran fine: feeding goes on
        await asyncio.sleep(0.4)
        fed_after_one = wdt.fed
        calls[0] = 4  # from now on it fails on every start
        task2 = asyncio.create_task(a._supervise("heartbeat2", flaky_heartbeat))
        await asyncio.sleep(0.3)
        fed_in_storm = wdt.fed
        await asyncio.sleep(0.4)
        task2.cancel()
        task.cancel()
        return fed_after_one, fed_in_storm, wdt.fed

    fed_after_one, fed_in_storm, final = asyncio.run(scenario())
    assert fed_after_one >= 3
    assert final == fed_in_storm
    assert "tasks keep failing" in capsys.readouterr().out


def test_a_boot_survives_settings_and_profile_files_that_do_not_fit_the_heap(tmp_path, monkeypatch):
    from pyramid import profile

    (tmp_path / "settings.json").write_text('{"it": 100}')
    (tmp_path / "profile.json").write_text("{}")

    def no_heap(*args, **kwargs):
        raise MemoryError("fragmented heap")

    monkeypatch.setattr(settings_mod.json, "load", no_heap)
    assert settings_mod.load_settings(None, str(tmp_path / "settings.json")) == settings_mod.DEFAULTS
    assert profile.load(str(tmp_path / "profile.json")) is None


SAFE_BOOT_SCRIPT = r"""
import sys
if sys.implementation.name != "micropython":
    import cpython_shim
    cpython_shim.install(stdin=False)
import machine
from pyramid import config
machine.set_input(config.SLIDER, lambda: 0 if config.SLIDER_ACTIVE_LOW else 1)  # held at power-up
from pyramid import app
app.run()
print("returned; watchdog started:", machine._wdt[0] is not None)
"""


@pytest.mark.micropython
def test_slider_held_at_power_up_is_a_safe_boot_without_watchdog(micropython, tmp_path):
    script = tmp_path / "safe.py"
    script.write_text(SAFE_BOOT_SCRIPT)
    for run in (_run_cpython, lambda s, m, c: _run_micropython(micropython, s, m, c)):
        out = run(str(script), "-", str(tmp_path))
        assert out.returncode == 0, out.stdout + out.stderr
        assert "pyramid: safe boot (slider held): firmware not started" in out.stdout
        assert "returned; watchdog started: False" in out.stdout
