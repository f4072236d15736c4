"""Every advice line that names a command names it with the port it was run with
(tester s37tm findings 1, 2, 10, 11): ``pyramid calibrate --autorange`` alone looks
for the first RP2040 on USB, which on the emulated Pico's pseudo-terminal (or beside
a second board) finds nothing or another board."""

import re

import pytest
from camelhost.commands import doctor
from camelhost.tools.commandline import with_port


def test_the_command_is_named_with_its_port_unless_the_port_was_auto():
    assert with_port("calibrate", "/dev/pts/2", "--autorange") == \
        "pyramid calibrate --port /dev/pts/2 --autorange"
    assert with_port("monitor", "auto") == "pyramid monitor"
    assert with_port("flash", "/tmp/my board") == "pyramid flash --port '/tmp/my board'"


@pytest.mark.micropython
@pytest.mark.process
def test_doctors_light_fix_is_a_calibrate_command_with_the_port(micropython):
    from camelhost.tools import monitor

    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        pyramid.link.configure(integration_ms=3, gain=1)  # 2.4 ms, 1x: a dim board
        steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
    light = [s for s in steps if s.name == "light"][0]
    assert light.status == "failed", light
    # the setting itself follows the counts read (4x, or 4.8 ms and 4x for a purple die
    # a count darker): the command names the port
    assert re.fullmatch(r"set .*: pyramid calibrate --port virtual --integration [\d.]+ "
                        r"--gain \d+ \(or --autorange, which finds it\)", light.advice), \
        light.advice


def test_monitors_dim_hint_is_a_calibrate_command_with_the_port():
    from camelhost.device.events import DieEvent
    from camelhost.tools import monitor

    event = DieEvent("die", "AB12CD34", 2, colour="blue", dim=True)
    line = monitor.format_event(event, "second", "/dev/pts/2")
    assert line.endswith("DIM: the sensor saw too little light (its clear count was under "
                         "what these dice need: pyramid calibrate --port /dev/pts/2 "
                         "--autorange)"), line


def test_monitors_no_reading_line_names_a_cause_and_the_next_step(monkeypatch):
    """Finding 7: 'no reading from the pyramid for 74 s' read as a dead sensor."""
    import io

    from camelhost.errors import CliError
    from camelhost.tools import monitor
    from test_monitor import _quiet_pyramid

    pyramid = _quiet_pyramid(monkeypatch, slowness=1.0, quiet=50.0)
    with pytest.raises(CliError) as info:
        monitor.monitor(pyramid, count=3, out=io.StringIO())
    line = str(info.value)
    assert line.startswith("no reading from the pyramid for 10 s (its reading stream stopped")
    assert line.endswith("run pyramid monitor --port /dev/ttyACM0 again; if it recurs, "
                         "pyramid doctor --port /dev/ttyACM0"), line
