"""A calibration whose reading saturates the sensor stops at that reading, with the
setting that keeps the brightest die under the saturation level as the readings in hand
tell it, or ``--autorange`` when they cannot (tester s36tm, finding 3: every reading at
60x said ``SATURATED`` and the session asked for all 30 releases, then advised 16x, one
gain step down, where the yellow die saturated again: 8227 counts over the 7680 the
sensor saturates from at 24 ms).

The level is ``tcs34725.saturation_level``'s; counts scale linearly with the gain and
the integration time (TCS34725 datasheet), and below 64 steps (153.6 ms) the level is a
share of full scale, so a shorter time does not help there."""

import io

import pytest
from camelhost.errors import CliError
from camelhost.tools import calibrate
from camelhost.tools.monitor import saturation_level


def test_the_fix_for_the_testers_yellow_die_is_4x_not_16x():
    # 8227 counts at 16x and 24 ms (the tester's --autorange measure): 30851 at 60x
    at_60 = 8227 * 60 / 16
    text, new = calibrate.saturation_fix({"integration_ms": 24.0, "gain": 60}, at_60)
    assert new == {"integration_ms": 24.0, "gain": 4} and text == "gain 4x (--gain 4)"
    assert at_60 * 4 / 60 < saturation_level(24.0)  # what the advice promises
    # the blind step it replaces: 16x, where the die reads 8227, over the level
    assert 8227 >= saturation_level(24.0)
    # a die just over the level at 16x: 4x is enough as well
    assert calibrate.saturation_fix({"integration_ms": 24.0, "gain": 16}, 7721)[1] == {
        "integration_ms": 24.0, "gain": 4}


def test_at_gain_1x_only_a_time_over_64_steps_helps_else_the_hardware():
    # 24 ms is 10 steps: the level is 75 % of full scale at any time that short, so
    # halving the time halves both; the fix is the hardware
    text, new = calibrate.saturation_fix({"integration_ms": 24.0, "gain": 1}, 9000)
    assert new is None and "LED current" in text
    # 614.4 ms (256 steps, full scale 65535): a shorter time under the level fits
    text, new = calibrate.saturation_fix({"integration_ms": 614.4, "gain": 1}, 100000)
    assert new["gain"] == 1 and 153.6 <= new["integration_ms"] < 614.4
    assert "--integration %.1f" % new["integration_ms"] in text
    counts = 100000 * new["integration_ms"] / 614.4
    assert counts < saturation_level(new["integration_ms"])


def test_the_estimate_scales_the_dice_in_hand_to_the_brightest_by_the_profile():
    from camelup.board import classifier
    classes = classifier.default_profile("second")["classes"]
    import math
    ratio = math.exp(classes["yellow"]["mean"][3] - classes["blue"]["mean"][3])
    collected = {"blue": [(1000, 150, 300, 550)], "empty": [(3000, 0, 0, 0)], "yellow": []}
    label, counts = calibrate.brightest_estimate(collected, "second")
    assert label == "yellow" and counts == int(1000 * ratio + 0.5)  # the empty head left out
    # a clipped reading is a lower bound: it counts when it says more
    assert calibrate.brightest_estimate(collected, "second", ("yellow", 9000))[1] == 9000
    # nothing read under the level: the readings cannot tell
    assert calibrate.brightest_estimate({"empty": [(30, 9, 9, 9)]}, "second",
                                        ("blue", 7700)) is None


@pytest.fixture
def second(micropython):
    from camelhost.device.virtual import VirtualPyramid

    with VirtualPyramid("second", seed=3) as vp:
        yield vp


class _Counting(calibrate.VirtualDriver):
    def __init__(self, virtual):
        calibrate.VirtualDriver.__init__(self, virtual)
        self.asked = 0

    def present(self, label, value, index, total, taken=0, purpose=None):
        self.asked += 1
        return calibrate.VirtualDriver.present(self, label, value, index, total, taken,
                                               purpose=purpose)


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_the_session_stops_at_the_first_saturated_reading_and_its_advice_holds(second):
    from camelhost.tools.monitor import connect

    with connect(second.port) as pyramid:
        before = pyramid.link.configure()
        driver = _Counting(second)
        with pytest.raises(CliError) as info:
            calibrate.calibrate(pyramid, driver, samples=3, gain=16, out=io.StringIO())
        line = str(info.value)
        # the virtual pyramid's yellow die, third in the round, saturates at 16x, 7.2 ms
        assert driver.asked == 3, driver.asked  # not all 30 releases
        assert line.startswith("stopped at reading 3 of 30, nothing saved: the yellow die "
                               "saturated the sensor's clear channel ("), line
        assert "it saturates from 2304), so its colour is lost" in line
        assert ("put the brightest die (yellow) near " in line
                and ": set gain 4x (--gain 4), or let --autorange choose the gain" in line)
        assert line.endswith("the pyramid keeps its profile") and "\n" not in line
        assert pyramid.link.configure()["gain"] == before["gain"]  # given back
        # the advice holds: at 4x no reading saturates and the session runs through
        out = io.StringIO()
        result = calibrate.calibrate(pyramid, calibrate.VirtualDriver(second), samples=3,
                                     gain=4, save=False, out=out)
        assert result.saturated == 0 and "SATURATED" not in out.getvalue()


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_a_first_reading_that_saturates_names_autorange(second):
    from camelhost.tools.monitor import connect

    with connect(second.port) as pyramid:
        driver = _Counting(second)
        with pytest.raises(CliError) as info:
            calibrate.calibrate(pyramid, driver, samples=3, gain=60, out=io.StringIO())
    line = str(info.value)
    assert driver.asked == 1
    assert line.startswith("stopped at reading 1 of 30, nothing saved: the blue die saturated")
    assert ("The readings so far cannot tell how bright the dice are: calibrate again with "
            "--autorange, which measures the brightest die and chooses the gain") in line
