"""``pyramid doctor``'s saturation fix is worked out from the counts it read, as
``pyramid calibrate``'s is (``calibrate.brightest_estimate``, ``saturation_fix``), so the
settings its one fix line names do not saturate the sensor.

It stepped the gain down one notch blindly: at 60x on the virtual pyramid it said 16x,
where the yellow die still saturates, and at gain 1x it said half the integration time,
which below 153.6 ms saturates at the same share of full scale (TCS3472 datasheet,
"RGBC Timing Register": 75 % of 1024 counts per step below 64 steps)."""

import math
import re

import pytest
from camelhost.commands import doctor
from camelhost.i18n import set_language


def _named(advice):
    """The ``(gain, integration ms)`` a fix line's command sets (None for what it leaves)."""
    gain = re.search(r"--gain (\d+)", advice)
    it = re.search(r"--integration ([\d.]+)", advice)
    return (int(gain.group(1)) if gain else None, float(it.group(1)) if it else None)


# --- on the virtual pyramid: the fix followed does not saturate --------------------


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.parametrize("gain", [16, 60])
def test_the_settings_doctors_saturation_fix_names_keep_the_brightest_die_unsaturated(
        micropython, gain):
    from camelhost.tools import monitor

    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        pyramid.link.configure(gain=gain)
        steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
        step = [s for s in steps if s.name == "saturation"][0]
        assert step.status == "failed", step
        named_gain, named_it = _named(step.advice)
        if named_gain is None and named_it is None:
            # nothing to scale: every die doctor read saturated at this gain, so the fix
            # is calibrate's measuring of the brightest die, with this port
            assert step.advice.startswith("calibrate again with --autorange"), step.advice
            assert step.advice.endswith("pyramid calibrate --port virtual --autorange")
            for die in (doctor.any_die("second"), "purple"):
                pyramid.virtual.place(die)
                assert pyramid.link.sample()[0][0] >= monitor.saturation_level(7.2)
        else:
            pyramid.link.configure(gain=named_gain or gain,
                                   **({"integration_ms": named_it} if named_it else {}))
            it = monitor.integration_ms(pyramid.settings()["it"])
            pyramid.virtual.place("yellow")
            clear = pyramid.link.sample()[0][0]
            assert clear < monitor.saturation_level(it), (step.advice, clear)


@pytest.mark.hil
@pytest.mark.micropython
def test_a_darkest_die_that_saturates_names_no_gain_that_saturates_too(micropython):
    """At 60x the purple die saturates in the light step: 16x (the notch below) still
    saturates the yellow die on this head, and every die read so far was clipped."""
    from camelhost.tools import monitor

    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        pyramid.link.configure(gain=60)
        steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
        light = [s for s in steps if s.name == "light"][0]
        saturation = [s for s in steps if s.name == "saturation"][0]
        assert light.status == "failed" and "saturates the sensor" in light.detail
        # one fix, the saturation step's, decided from every count (maker finding 12)
        assert light.advice == doctor.SATURATION_BELOW, light.advice
        assert "--gain 16" not in saturation.advice, saturation.advice
        assert saturation.advice.endswith("pyramid calibrate --port virtual --autorange")


# --- a head brighter than the virtual one: the counts, not a notch -----------------


class Head:
    """A sensor following the TCS34725's arithmetic: each die's clear count is its rate
    (counts per 2.4 ms step at gain 1x, the dice brighter than each other as the built-in
    profile's) times steps times gain, clipped at the saturation level; the board names
    the die in the head unless it saturates. Works as doctor's link and hands."""

    def __init__(self, yellow_rate, settings, edition="second"):
        from camelup.board import classifier

        classes = classifier.default_profile(edition)["classes"]
        top = classes["yellow"]["mean"][3]
        self.rates = {label: yellow_rate * math.exp(c["mean"][3] - top)
                      for label, c in classes.items()}
        self.settings = settings
        self.placed = None
        self.streaming = False

    def clear(self, label, gain, it):
        from camelup.board import tcs34725

        return self.rates[label] * gain * tcs34725.steps(it)

    def saturates(self, label, gain, it):
        from camelup.board import tcs34725

        return self.clear(label, gain, it) >= tcs34725.saturation_level(it)

    def place(self, label):
        self.placed = label

    def sample(self):
        from camelup.board import tcs34725

        it = tcs34725.integration_ms(self.settings["it"])
        clear = min(int(self.clear(self.placed, self.settings["gain"], it)),
                    tcs34725.saturation_level(it))
        return (clear + 5, clear // 3, clear // 3, clear // 4), (5, 1, 1, 1)

    def stream(self, period):
        self.streaming = period > 0

    def next_reading(self, timeout=None):
        if not self.streaming:
            return None
        on, _off = self.sample()
        from camelup.board import tcs34725

        it = tcs34725.integration_ms(self.settings["it"])
        clipped = on[0] >= tcs34725.saturation_level(it)
        return {"label": "unknown" if clipped else self.placed, "m": 0 if clipped else 900}


def _doctor_steps(head, edition="second", port="/dev/ttyACM0"):
    """The light and saturation steps as the checklist runs them, with the LED step's
    die (blue) read first: ``(light, saturation)``."""
    seen = {}
    head.place("blue")
    on, off = head.sample()
    reading = head.next_reading() if head.stream(100) is None else None
    head.stream(0)
    if reading and reading["label"] not in ("empty", "unknown", "double"):
        doctor._keep(seen, reading["label"], on, off, head.settings)
    return (doctor.light_step(head, head, head.settings, edition, port, seen),
            doctor.saturation_step(head, head, head.settings, edition, port, seen))


def test_at_gain_1x_under_153_6_ms_the_fix_is_the_hardware_not_half_the_time():
    """At 24 ms and gain 1x the yellow die saturates while purple does not: half the
    time (12 ms, the old fix) saturates it at the same share of full scale; no shorter
    time keeps it under 65 % of full scale, so the fix is the light itself."""
    from camelup.board import tcs34725

    head = Head(900.0, {"ed": "second", "it": 24, "gain": 1})
    assert head.saturates("yellow", 1, 24.0) and not head.saturates("purple", 1, 24.0)
    assert head.saturates("yellow", 1, 12.0)  # what the blind fix named
    _light, step = _doctor_steps(head)
    assert step.status == "failed"
    assert _named(step.advice) == (None, None), step.advice
    assert step.advice.startswith("less LED current or the sensor further from the die")
    assert all(head.saturates("yellow", 1, n * tcs34725.STEP_MS) for n in range(1, 64))


def test_at_gain_1x_over_153_6_ms_the_fix_names_a_time_that_does_not_saturate():
    """Over 64 steps the full scale is 65535 whatever the time: a shorter time helps,
    and the one named keeps the yellow die under the saturation level and is one
    ``calibrate --integration`` takes (153.6 ms at most)."""
    from camelhost.tools import calibrate

    head = Head(400.0, {"ed": "second", "it": 614, "gain": 1})
    assert head.saturates("yellow", 1, 614.4) and not head.saturates("purple", 1, 614.4)
    _light, step = _doctor_steps(head)
    assert step.status == "failed"
    gain, it = _named(step.advice)
    assert gain is None and it is not None, step.advice
    assert not head.saturates("yellow", 1, it), step.advice
    assert calibrate.integration_used(it) == (it, None)  # taken as it is named
    assert step.advice.endswith("--integration %.1f" % it)


def test_at_gain_4x_when_1x_at_that_time_still_saturates_the_fix_names_both():
    """A head so bright that gain 1x at 307.2 ms still saturates the yellow die while the
    blue and purple dice read under the level at 4x: the fix names gain 1x and a shorter
    time, both in one command."""
    head = Head(400.0, {"ed": "second", "it": 307, "gain": 4})
    assert head.saturates("yellow", 4, 307.2) and not head.saturates("purple", 4, 307.2)
    _light, step = _doctor_steps(head)
    assert step.status == "failed", step
    gain, it = _named(step.advice)
    assert (gain, it is not None) == (1, True), step.advice
    assert not head.saturates("yellow", gain, it), step.advice
    assert it <= 153.6 and step.advice.startswith(
        "calibrate again at gain 1x and integration time ")
    set_language("de")
    try:
        _light, step = _doctor_steps(head)
        assert step.advice.startswith("kalibriere neu mit Verstärkung 1x und Integrationszeit ")
    finally:
        set_language("en")
