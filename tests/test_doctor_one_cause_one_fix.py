"""Maker finding 12: doctor's steps about the light gave fixes that contradicted each other
in one report: at gain 60x and 614 ms on the virtual pyramid the LED step said "the
illumination LED does not light: check the wire" (its LED-on and LED-off counts were both
clipped, so the LED seemed to add nothing) while the light and saturation steps said the
sensor saturates; and a light step's "a higher gain" could stand beside a saturation
step's "a lower gain". The fix is decided in one place (``doctor.exposure_fix``) from
every count read: one cause, one fix."""

import pytest
from camelhost.commands import doctor
from camelhost.tools import monitor


@pytest.mark.hil
@pytest.mark.micropython
def test_a_saturated_board_gets_one_cause_not_a_dead_led(micropython):
    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        pyramid.link.configure(gain=60, integration_ms=614)
        steps = {s.name: s for s in doctor.checklist(pyramid, doctor._Sim(pyramid.virtual),
                                                      "second")}
    led, saturation = steps["LED"], steps["saturation"]
    assert led.status == "failed" and "the sensor saturates from" in led.detail, led.detail
    assert led.advice == "too much light, the sensor saturates: the saturation step's fix " \
                         "(below) is the one fix"
    assert saturation.status == "failed" and "pyramid calibrate --port virtual" in \
        saturation.advice
    for step in steps.values():
        assert "LED does not light" not in step.advice, step
        if step.status == "failed" and step.name in ("LED", "reading", "light"):
            assert step.advice == led.advice, step


class RoomLitHead:
    """A head whose room light (the LED-off count) is large: the yellow die's LED-on count
    saturates at 24 ms and gain 4x while the purple die adds only 30 counts with the LED,
    under the built-in floor (40). Works as doctor's link and hands."""

    def __init__(self):
        self.settings = {"ed": "second", "it": 24, "gain": 4}
        self.adds = {"purple": 30, "blue": 60, "yellow": 112}
        self.room = 7600
        self.placed = None
        self.streaming = False

    def place(self, label):
        self.placed = label

    def sample(self):
        add = self.adds[self.placed]
        on = min(add + self.room, 7680)  # the saturation level at 24 ms
        return (on, add // 3, add // 3, add // 4), (self.room, 1, 1, 1)

    def stream(self, period):
        self.streaming = period > 0

    def next_reading(self, timeout=None):
        if not self.streaming:
            return None
        return {"label": self.placed if self.placed != "yellow" else "unknown", "m": 500}


def test_too_little_light_and_too_much_at_once_get_one_fix_in_both_steps():
    head = RoomLitHead()
    brightest = ("yellow",) + doctor.measure(head, head, "yellow")
    light = doctor.light_step(head, head, head.settings, "second", "/dev/ttyACM0", {},
                              brightest=brightest)
    saturation = doctor.saturation_step(head, head, head.settings, "second", "/dev/ttyACM0",
                                        {}, brightest, light.dim)
    assert light.status == saturation.status == "failed"
    assert light.advice == saturation.advice, (light.advice, saturation.advice)
    assert light.advice == (
        "the yellow die saturates the sensor while the purple die gets too little light at "
        "every setting: keep the room's light out of the head (the slider gap) and check "
        "that the sensor looks straight at the die, then pyramid calibrate --port "
        "/dev/ttyACM0 --autorange")


def test_no_setting_is_named_when_one_die_saturates_and_another_is_too_dim():
    """Every count scales alike with gain and integration time: one would have to go up,
    the other down, so the one fix is the light itself, whatever the settings."""
    for it, gain in ((614.4, 16), (24.0, 4), (2.4, 1)):
        fix = doctor.exposure_fix(it, gain, "/dev/pts/3", "second", {},
                                  clipped=("yellow", 65535), dim=("purple", 30, 40.0))
        assert "--gain" not in fix and "--integration" not in fix, fix
        assert fix.endswith("then pyramid calibrate --port /dev/pts/3 --autorange"), fix
