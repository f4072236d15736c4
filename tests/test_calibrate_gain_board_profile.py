"""``pyramid calibrate --autorange``'s first step, choosing the gain with the brightest die
in the head (classic: white), is judged by the board's running profile as the light
check's and every fitted reading are (``board_judges``): the blue die put in where the
white die was asked for is said in one line and asked again, so the gain is never chosen
on the darkest die unsaid (maker s42: it chose 16x, under which the white die saturates).
And the light check's "looks like the die read just before it" never traps the maker:
when the gain's reading was itself the wrong die, ``g`` chooses the gain again."""

import io

import pytest
from calibrate_prompts import asked_die as _die
from camelhost.tools import calibrate
from camelhost.tools.monitor import connect, one_reading

ASKED = "as the pyramid's profile now reads it"
GAIN = "[to choose the gain] release the white die, then press Enter (q to stop): "
LIGHT = "[to check the light] release the blue die, then press Enter (q to stop): "
WHITE_ASKED = (
    "  the head holds the blue die, not the white die, as the pyramid's profile now reads "
    "it: release the white die, then press Enter to read it again; k keeps this reading "
    "(when that profile is what is wrong); q stops: ")


def _white_clear(pyramid):
    """The white die's clear count (LED on minus LED off) at the settings in force."""
    pyramid.virtual.place("white")
    white = one_reading(pyramid.link)
    return white["on"][0] - white["off"][0]


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_the_blue_die_at_the_gain_step_is_said_and_the_white_die_read_again(micropython):
    out, prompts = io.StringIO(), []
    with connect("virtual", edition="classic", seed=4) as pyramid:

        def person(prompt):
            prompts.append(prompt)
            if len(prompts) > 8:
                raise AssertionError("asked for ever: %r" % prompts)
            # the blue die put in to choose the gain; the white die once asked again
            pyramid.virtual.place("blue" if prompt == GAIN else _die(prompt))
            return ""

        driver = calibrate.HumanDriver(input_fn=person, out=out)
        cfg = calibrate.choose_gain(pyramid, driver, "classic", out)
        cfg = calibrate.reach_light(pyramid, driver, "classic", cfg, out)
        white = _white_clear(pyramid)
    assert prompts == [GAIN, WHITE_ASKED, LIGHT], prompts
    # the gain was chosen on the white die: its reading, not the blue die's
    label, reading = cfg["gain_check"]
    assert label == "white" and abs(reading[0] - white) < 0.3 * white, (reading, white)
    assert "looks like" not in out.getvalue(), out.getvalue()


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_g_at_the_light_check_chooses_the_gain_again_when_its_die_was_wrong(micropython):
    """The blue die kept (``k``) to choose the gain: the light check's blue die then looks
    like it, and Enter alone would ask for ever; ``g`` chooses the gain again, on the white
    die this time, then the light check and the readings follow."""
    out, prompts = io.StringIO(), []
    with connect("virtual", edition="classic", seed=3) as pyramid:

        def person(prompt):
            prompts.append(prompt)
            if len(prompts) > 80:
                raise AssertionError("asked for ever: %r" % prompts[:12])
            if prompt == WHITE_ASKED:
                return "k"  # the maker keeps it: the blue die taken as the white die
            if "g chooses the gain again" in prompt:
                return "g"
            first = prompt == GAIN and prompts.count(GAIN) == 1
            pyramid.virtual.place("blue" if first else _die(prompt))
            return ""

        driver = calibrate.HumanDriver(input_fn=person, out=out)
        result = calibrate.calibrate(pyramid, driver, edition="classic", samples=3, out=out,
                                     save=False, autorange=True)
    assert prompts[:6] == [GAIN, WHITE_ASKED, LIGHT, (
        "  Enter reads it again: first release the blue die; g chooses the gain again (when "
        "the white die was not in the head for it); q stops: "), GAIN, LIGHT], prompts[:7]
    assert prompts[6].startswith("[  1/"), prompts[6]
    assert out.getvalue().count(
        "  this reading looks like the white die read just before it: is the blue die in the "
        "head?") == 1, out.getvalue()
    assert out.getvalue().count("gain set to") == 2, out.getvalue()
    assert not any(ASKED in p for p in prompts[2:]), prompts
    assert not result.saved
