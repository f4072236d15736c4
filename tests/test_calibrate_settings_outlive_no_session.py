"""The sensor settings a calibrate session tries do not outlive it unless it saves
(tester s36tm finding 7, with its addenda), on the virtual pyramid (the firmware under
the MicroPython unix port).

A session that ends without its goodbye (terminal closed, laptop lid, cable pulled)
cannot give the board back its settings; the board left at the session's gain under a
profile fitted at another read the yellow die SATURATED on every release, kept it over
power cycles, and ``pyramid doctor`` passed it.

1. ``SET`` lasts until the next boot: the board starts at the settings saved with its
   profile (``SAVE`` writes them).
2. Until then, ``pyramid doctor`` fails the sensor step and ``pyramid monitor`` says
   so, each in one line naming the fix.
"""

import io
import json
import os
import time

import pytest
from camelhost.commands import doctor
from camelhost.tools import monitor
from camelup import calibration
from camelup.board import classifier

pytestmark = [pytest.mark.hil, pytest.mark.micropython, pytest.mark.process]


def _settings_file(vp):
    with open(os.path.join(vp.flash_dir, "settings.json")) as f:
        return json.load(f)


def _save_profile_at_running_settings(pyramid):
    """What a calibrate session that saves leaves: a profile fitted at the board's
    settings, sent with ``PROF``/``SAVE``. Returns the ``CFG`` it was fitted at."""
    vp = pyramid.virtual
    cfg = pyramid.link.configure()
    settings = {"integration_ms": monitor.integration_ms(cfg["it"]), "gain": cfg["gain"]}
    samples = {}
    for label in classifier.classes_for("second"):
        samples[label] = []
        for _ in range(3):
            vp.place(label)
            on, off = pyramid.link.sample()
            samples[label].append(monitor.difference(on, off))
    pyramid.link.save_profile(calibration.fit(samples, "second", settings))
    return cfg


def _reconnected(pyramid, old_boot):
    vp = pyramid.virtual
    vp.reboot()  # unplugged and plugged in again
    assert vp.boot_id != old_boot
    deadline = time.monotonic() + 60
    while pyramid.link.hello is None or pyramid.link.hello["boot"] != vp.boot_id:
        assert time.monotonic() < deadline, "no HELLO of the new boot"
        time.sleep(0.05)
    return pyramid.link.configure()


@pytest.fixture
def pyramid(micropython):
    with monitor.connect("virtual", edition="second", seed=7) as pyramid:
        yield pyramid


def test_a_session_that_never_saves_leaves_nothing_after_a_power_cycle(pyramid):
    vp = pyramid.virtual
    fitted = _save_profile_at_running_settings(pyramid)
    assert _settings_file(vp)["gain"] == fitted["gain"] != 16
    # the session sets its gain, then its terminal is closed: no give-back
    assert pyramid.link.configure(gain=16)["gain"] == 16
    assert _settings_file(vp)["gain"] == fitted["gain"]  # nothing written by SET
    now = _reconnected(pyramid, pyramid.link.hello["boot"])
    assert (now["it"], now["gain"]) == (fitted["it"], fitted["gain"])


def test_a_saved_session_keeps_its_settings_over_a_power_cycle(pyramid):
    vp = pyramid.virtual
    pyramid.link.configure(gain=16)
    _save_profile_at_running_settings(pyramid)  # fitted at 16x, and saved
    assert _settings_file(vp)["gain"] == 16
    assert _reconnected(pyramid, pyramid.link.hello["boot"])["gain"] == 16


def test_doctor_and_monitor_say_the_board_runs_other_settings_than_its_profile(pyramid):
    fitted = _save_profile_at_running_settings(pyramid)
    pyramid.link.configure(gain=16)  # a session's, never given back
    steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
    sensor = [s for s in steps if s.name == "sensor"][0]
    assert sensor.status == "failed", sensor
    want = ("the board runs %s ms and gain 16x, but its profile was fitted at %s ms and "
            "gain %dx" % (monitor.decimal(monitor.integration_ms(fitted["it"]), 1),
                          monitor.decimal(monitor.integration_ms(fitted["it"]), 1),
                          fitted["gain"]))
    assert sensor.advice.startswith(want), sensor.advice
    assert "unplug the pyramid and plug it back in" in sensor.advice
    assert "if it still says so, calibrate again" in sensor.advice
    assert "pyramid calibrate --port virtual --autorange" in sensor.advice
    assert "\n" not in sensor.advice
    out = io.StringIO()
    monitor.monitor(pyramid, count=1, out=out)
    said = [line for line in out.getvalue().splitlines() if want in line]
    assert len(said) == 1 and said[0].startswith("!! "), out.getvalue()
    # back at the profile's settings: nothing to say
    pyramid.link.configure(gain=fitted["gain"])
    steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
    assert [s for s in steps if s.name == "sensor"][0].status == "ok"
