"""pyramid monitor: live readings from the virtual pyramid, and the failures a builder meets
(no port, no sensor, a board that restarts, a cable pulled) as one plain line."""

import threading
import time

import pytest
from camelhost import cli
from camelhost.tools import monitor


def test_integration_time_from_whole_milliseconds():
    # CFG reports whole ms; the TCS34725 integrates in 2.4 ms steps
    assert monitor.integration_ms(7) == 7.2
    assert monitor.integration_ms(24) == 24.0
    assert monitor.integration_ms(101) == 100.8
    assert monitor.full_scale(24.0) == 10240
    assert monitor.full_scale(614.4) == 65535


def test_reading_line_shows_difference_slider_label_and_flags():
    line = monitor.format_reading(
        3, {"on": (5000, 2000, 1800, 1200), "off": (100, 40, 30, 20), "label": "white",
            "m": 412, "sl": True}, saturation=7680)
    assert line.split()[:7] == ["3", "PUSHED", "4900", "1960", "1770", "1180", "|"]
    assert "white" in line and "4.12" in line
    assert "SATURATED" not in line
    line = monitor.format_reading(
        4, {"on": (7700, 4000, 3600, 2400), "off": (0, 0, 0, 0), "label": "unknown", "m": 3009,
            "sl": False}, saturation=7680)
    assert "SATURATED" in line and "rejected" in line
    assert "30.09" not in line  # a rejected reading has no confidence to show


def test_saturated_and_rejected_flags_are_two_clauses_and_name_the_command():
    """Tester s36tm finding 14: 'SATURATED: lower the gain or the integration time
    rejected' read as one sentence, and named no command."""
    reading = {"on": (7700, 4000, 3600, 2400), "off": (0, 0, 0, 0), "label": "unknown",
               "m": 3009, "sl": False}
    line = monitor.format_reading(4, reading, saturation=7680, port="/dev/ttyACM0")
    assert line.endswith(" rejected; SATURATED: pyramid calibrate --port /dev/ttyACM0 "
                         "--autorange picks a gain that fits"), line
    alone = monitor.format_reading(5, dict(reading, label="white", m=412), saturation=7680)
    assert alone.endswith(" SATURATED: pyramid calibrate --port PORT --autorange picks a gain "
                          "that fits"), alone
    assert ";" not in alone


def _run_in_thread(argv):
    box = {}

    def target():
        box["rc"] = cli.main(argv)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, box


def _wait_for(predicate, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _raw_count(vp):
    return sum(1 for _t, m in vp.emitted if m.name == "RAW")


@pytest.fixture
def virtual(virtual_pyramid):
    return virtual_pyramid("second", seed=3)


@pytest.mark.hil
@pytest.mark.micropython
def test_monitor_shows_versions_readings_and_slider_pushes(virtual, capsys):
    virtual.place("purple")
    thread, box = _run_in_thread(["monitor", "--port", virtual.port, "--count", "12",
                                  "--period", "40"])
    _wait_for(lambda: _raw_count(virtual) >= 3)
    released = virtual.release()  # a push while monitoring
    thread.join(30)
    out, err = capsys.readouterr()
    assert box.get("rc") == 0, err
    assert "firmware 0.1.0, protocol 1" in out
    assert "sensor ok" in out
    assert "integration time 7.2 ms, gain 4x" in out
    readings = [line for line in out.splitlines() if line[:5].strip().isdigit()]
    assert len(readings) == 12
    assert any("purple" in line for line in readings[:3])
    label = released.dice[0][0]
    assert "slider pushed -> event 1: die %s" % label in out


def test_place_is_checked_before_starting_anything(fails_cleanly):
    fails_cleanly(["monitor", "--port", "virtual", "--place", "pink"], "--place takes")


def test_missing_port(fails_cleanly):
    fails_cleanly(["monitor", "--port", "/dev/no-such-pyramid", "--count", "1"],
                  "cannot open /dev/no-such-pyramid", "no such port", "--port virtual")


@pytest.mark.hil
@pytest.mark.micropython
def test_device_without_sensor(virtual, fails_cleanly):
    virtual.unplug_sensor()
    out, err = fails_cleanly(["monitor", "--port", virtual.port, "--count", "3"],
                             "colour sensor", "When the sensor is not found")
    assert "firmware 0.1.0" in out  # what was learnt before the failure is still shown


@pytest.mark.hil
@pytest.mark.micropython
def test_board_restart_is_reported_and_followed(virtual, capsys):
    thread, box = _run_in_thread(["monitor", "--port", virtual.port, "--count", "10",
                                  "--period", "40"])
    _wait_for(lambda: _raw_count(virtual) >= 3)
    old = virtual.boot_id
    virtual.reboot()
    thread.join(30)
    out, err = capsys.readouterr()
    assert box.get("rc") == 0, err
    assert "Traceback" not in out + err
    assert "the pyramid restarted (boot %s -> %s)" % (old, virtual.boot_id) in out
    readings = [line for line in out.splitlines() if line[:5].strip().isdigit()]
    assert len(readings) == 10


@pytest.mark.hil
@pytest.mark.micropython
def test_cable_pulled(virtual, fails_cleanly):
    thread, box = _run_in_thread(["monitor", "--port", virtual.port, "--period", "40"])
    _wait_for(lambda: _raw_count(virtual) >= 2)
    virtual.close()  # the port disappears, as /dev/ttyACM0 does when unplugged
    thread.join(30)
    fails_cleanly([], "lost the connection", rc_box=box)


class _NoisyLink:
    """A link whose line gets noisy after the second reading and clean after the fourth
    (``Link.quality`` and ``Link.noisy`` as the real link sets them)."""

    state = "connected"
    slowness = 1.0

    def __init__(self):
        self.n = 0
        self.quality, self.noisy = None, False

    def request(self, name, expect, timeout=3.0, retries=2, **fields):
        from camelhost.device.link import LinkError

        raise LinkError("no answer from the pyramid to %s" % name)  # a firmware before INFO?

    def stream(self, period_ms, timeout=3.0):
        return {}

    def pending_events(self):
        return []

    def next_reading(self, timeout=None):
        self.n += 1
        self.quality, self.noisy = {1: (None, False), 2: (1.0, False), 3: (0.52, True),
                                    4: (0.6, True), 5: (0.98, False)}.get(self.n, (1.0, False))
        return {"on": (2000, 900, 800, 600), "off": (100, 40, 30, 20), "label": "white",
                "m": 412, "sl": False}


class _Pyramid:
    port = "/dev/ttyACM0"

    def __init__(self):
        self.link = _NoisyLink()
        self.hello = {"fw": "0.1.0", "proto": 1, "uid": "0102", "boot": "AAAAAAAA", "ed": "second", "seq": 0,
                      "sensor": "ok", "vb": False}

    def settings(self):
        return {"it": 7, "gain": 4, "ed": "second", "vb": False}

    def check_alive(self):
        pass


def test_monitor_shows_the_lines_quality_live_and_says_when_it_degrades_and_recovers():
    import io
    out = io.StringIO()
    assert monitor.monitor(_Pyramid(), count=6, out=out) == 6
    lines = out.getvalue().splitlines()
    readings = [line.split("|")[-1].split() for line in lines if line[:5].strip().isdigit()]
    assert [r[-1] for r in readings] == ["-", "100%", "52%", "60%", "98%", "100%"]
    said = [line for line in lines if "line to the pyramid" in line]
    assert said == ["!! the line to the pyramid is noisy: 52% of its lines arrive whole (check "
                    "the USB cable and its plugs)",
                    "!! the line to the pyramid is clean again: 98% of its lines arrive whole"]
    # said before the reading whose line column shows it (that row ends in its 52%)
    assert lines.index(said[0]) < [i for i, x in enumerate(lines)
                                   if x[:5].strip().isdigit() and x.endswith(" 52%")][0]
    assert [x for x in lines if x.strip().startswith("#")][0].split()[-2:] == ["margin", "line"]


class _Clock:
    """The monitor's clock in a test: time passes only while the monitor waits for a
    reading (``next_reading``'s timeout)."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now


class _QuietLink(_NoisyLink):
    """A link whose pyramid sends one reading, then none for ``quiet`` s, then readings
    again; its heartbeats arrive ``slowness`` times slower than a real board's."""

    def __init__(self, clock, slowness, quiet):
        super().__init__()
        self.clock, self.slowness, self.quiet = clock, slowness, quiet
        self.since = None

    def next_reading(self, timeout=None):
        if self.since is not None and self.clock.now - self.since < self.quiet:
            self.clock.now += timeout
            return None
        self.since = self.clock.now
        return super().next_reading(timeout)


def _quiet_pyramid(monkeypatch, slowness, quiet):
    clock = _Clock()
    monkeypatch.setattr(monitor, "time", clock)
    pyramid = _Pyramid()
    pyramid.link = _QuietLink(clock, slowness, quiet)
    pyramid.poll_sensor_state = lambda: "ok"
    return pyramid


def test_monitor_waits_for_a_slow_board_as_many_times_longer_as_its_heartbeats_come_slower(monkeypatch):
    import io
    # the emulated board at 0.1x real time: its 2 s heartbeat arrives every 20 s, and
    # a reading 50 s late is the board's slowness, not a lost board
    pyramid = _quiet_pyramid(monkeypatch, slowness=10.0, quiet=50.0)
    assert monitor.monitor(pyramid, count=3, out=io.StringIO()) == 3


def test_monitor_still_gives_up_on_a_real_board_after_10_s_without_a_reading(monkeypatch):
    import io

    from camelhost.errors import CliError
    pyramid = _quiet_pyramid(monkeypatch, slowness=1.0, quiet=50.0)
    with pytest.raises(CliError, match="no reading from the pyramid for 10 s"):
        monitor.monitor(pyramid, count=3, out=io.StringIO())
    assert 10.0 < pyramid.link.clock.now - 1000.0 < 10.5


def test_monitor_and_calibrate_name_the_sensors_two_limits_in_one_line():
    # tester 2, finding 13: monitor said "full scale 3072", calibrate "saturation at 2304"
    # for the same 7.2 ms and 4x: two limits, each named, one sentence for both tools
    from camelhost.tools import calibrate
    line = monitor.settings_line(7.2, 4)
    assert line == ("integration time 7.2 ms, gain 4x: full scale 3072 counts per channel, "
                    "saturated from 2304 (75% of it, the analog limit below 153.6 ms)")
    assert (calibrate.full_scale(7.2), calibrate.saturation_level(7.2)) == (3072, 2304)
    assert monitor.settings_line(153.6, 1) == (
        "integration time 153.6 ms, gain 1x: full scale 65535 counts per channel, saturated "
        "only there")
    hello = {"fw": "0.1.0", "proto": 1, "uid": "B", "boot": "1", "ed": "second", "vb": False,
             "sensor": "ok", "seq": 0}
    assert line in monitor.describe(hello, {"it": 7, "gain": 4})


def _legend(lang):
    import io

    from camelhost.i18n import set_language
    set_language(lang)
    try:
        out = io.StringIO()
        assert monitor.monitor(_Pyramid(), count=2, out=out) == 2
    finally:
        set_language("en")
    lines = out.getvalue().splitlines()
    return [line for line in lines if line.startswith(("columns: ", "Spalten: "))], lines


def test_the_monitors_legend_says_what_each_columns_marks_mean_in_english_as_in_german():
    # tester s40 finding 11: the English legend never said what the slider column's
    # values mean (the German one did: 'GEDR.: gedrückt'), and its line column's '-
    # until ten lines have come' read as ten rows, while row 2 already shows a share
    # (the pyramid's lines are counted, its hello and heartbeats too, not the rows)
    legend, lines = _legend("en")
    assert legend == [
        "columns: slider: the slider switch now (PUSHED: pushed, -: not pushed); clear, red, "
        "green, blue: LED-on minus LED-off counts; LED off (c,r,g,b): LED-off counts "
        "(ambient light); label: classification; margin: in sigma (-: no class won); line: "
        "share of the pyramid's last lines, readings or any other, that arrived whole (-: "
        "until it has sent ten)"]
    assert lines.index(legend[0]) + 1 == lines.index(monitor.header())  # above the headings
    legend, _lines = _legend("de")
    assert legend[0].startswith("Spalten: Schieber: Schieberschalter jetzt (GEDR.: gedrückt, "
                                "-: nicht gedrückt); ")
    assert "; Ltg.: Anteil der letzten Zeilen der Pyramide, " in legend[0]
