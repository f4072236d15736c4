"""`pyramid doctor`: the bring-up checklist passes on the virtual pyramid and names the
failing step when a simulated part is missing or dead."""

import argparse
import io

import pytest
from camelhost import cli
from camelhost.commands import doctor

pytestmark = [pytest.mark.hil, pytest.mark.micropython]

STEPS = ["connection", "versions", "bytecode", "sensor", "LED", "reading", "slider"]


def _run(hardware=None):
    out = io.StringIO()
    args = argparse.Namespace(port="virtual", edition="second", seed=3)
    status = doctor.run(args, out=out, hardware=hardware)
    return status, out.getvalue()


def _status_of(text):
    got = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in ("ok", "FAILED", "skipped") and words[1] in STEPS:
            got[words[1]] = words[0]
    return got


def test_doctor_passes_on_the_virtual_pyramid(micropython, capsys):
    assert cli.main(["doctor", "--port", "virtual"]) == 0
    out = capsys.readouterr().out
    assert _status_of(out) == {name: "ok" for name in STEPS}
    assert "MicroPython 1.29.0" in out and "chip id 0x44" in out and "all 7 checks passed" in out


def test_a_missing_sensor_fails_the_sensor_step_with_its_advice(micropython):
    status, out = _run({"sensor": "absent"})
    assert status == 1
    got = _status_of(out)
    assert got["sensor"] == "FAILED" and got["LED"] == got["reading"] == "skipped"
    assert got["slider"] == "ok"  # the push still arrives (as a sensor fault event)
    assert "fix: the pyramid's colour sensor is not answering on the I2C bus" in out
    assert "checks failed: sensor" in out


def test_a_dead_led_fails_the_led_step_with_its_advice(micropython):
    status, out = _run({"led": "dead"})
    assert status == 1
    got = _status_of(out)
    assert got["sensor"] == "ok" and got["LED"] == "FAILED"
    assert "the illumination LED does not light" in out
    assert "checks failed: LED" in out


def test_a_foreign_chip_fails_the_sensor_step_naming_its_id(micropython):
    status, out = _run({"chip_id": 0x23})
    assert status == 1 and _status_of(out)["sensor"] == "FAILED"
    assert "sensor missing, chip id 0x23" in out
