"""pyramid doctor checks that the board's own profile names the die in the head
(tester 4, finding 2: "all 8 checks passed" on a board that rejects every purple die).

One virtual pyramid for the file; a profile that rejects the purple die is fitted from
its own readings with the purple ones tinted, as a session that never read the purple
die would leave it, and saved on the board as ``pyramid calibrate`` saves one.
"""

import re

import pytest
from camelhost.commands import doctor
from camelhost.tools import monitor
from camelup import calibration
from camelup.board import classifier

pytestmark = [pytest.mark.hil, pytest.mark.micropython, pytest.mark.process,
              pytest.mark.xdist_group("tfixc_doctor")]  # one board, in this order


@pytest.fixture(scope="module")
def pyramid(micropython):
    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        yield pyramid


def _light(steps):
    return [s for s in steps if s.name == "light"][0]


def test_the_light_step_says_the_board_names_the_darkest_die(pyramid):
    steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
    light = _light(steps)
    assert light.status == "ok", light
    assert "enough light for these dice is" in light.detail and \
        light.detail.split("enough light for these dice is ")[1].startswith(
            tuple("0123456789")) and ("counts of clear (the built-in profile's floor, at 24.0 ms "
                                     "and gain 4x); the board names it purple") in light.detail
    reading = [s for s in steps if s.name == "reading"][0]
    assert "sigma (how much nearer it is than the next likeliest class)" in reading.detail
    # the slider step names what the board saw fall, as the emulator's console does
    slider = [s for s in steps if s.name == "slider"][0]
    assert re.match(r"pressed \(event \d+: die (%s)\) and released$"
                    % "|".join(classifier.classes_for("second")), slider.detail), slider


def test_a_profile_that_rejects_the_darkest_die_fails_the_light_step(pyramid):
    vp = pyramid.virtual
    cfg = pyramid.link.configure()
    settings = {"integration_ms": monitor.integration_ms(cfg["it"]), "gain": cfg["gain"]}
    samples = {}
    for label in classifier.classes_for("second"):
        samples[label] = []
        for _ in range(4):
            vp.place(label)
            on, off = pyramid.link.sample()
            samples[label].append(monitor.difference(on, off))
    samples["purple"] = [(c, int(r * 1.4), g, b) for c, r, g, b in samples["purple"]]
    pyramid.link.save_profile(calibration.fit(samples, "second", settings))

    steps = doctor.checklist(pyramid, doctor._Sim(vp), "second")
    light = _light(steps)
    assert light.status == "failed", light
    assert "but the board's profile reads the purple die as unknown" in light.detail, light
    assert "\n" not in light.advice
    assert "does not name the purple die: calibrate again" in light.advice, light
    assert "(pyramid calibrate --port virtual --autorange)" in light.advice  # the real port
