"""``pyramid calibrate --autorange``'s light check (the darkest die in the head, to choose
the integration time and gain that give it enough light) is judged by the board's
running profile as every reading fitted is: the red die in the head where the purple die
was asked for is said in one line and asked again (Enter), so the light is never chosen
on another die unsaid; ``k`` keeps it (when that profile is what is wrong), and the
session's steps then do not ask about that die so named again."""

import io

import pytest
from calibrate_prompts import asked_die as _die
from camelhost.tools import calibrate
from camelhost.tools.monitor import connect, one_reading

ASKED = "as the pyramid's profile now reads it"
GAIN = "[to choose the gain] release the yellow die, then press Enter (q to stop): "
LIGHT = "[to check the light] release the purple die, then press Enter (q to stop): "


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_the_red_die_at_the_light_check_is_said_and_the_purple_die_read_again(micropython):
    out, prompts = io.StringIO(), []
    with connect("virtual", edition="second", seed=4) as pyramid:

        def person(prompt):
            prompts.append(prompt)
            # the red die put in for the light check; the purple die once asked again
            pyramid.virtual.place("red" if prompt == LIGHT else _die(prompt))
            return ""

        driver = calibrate.HumanDriver(input_fn=person, out=out)
        cfg = calibrate.choose_gain(pyramid, driver, "second", out)
        cfg = calibrate.reach_light(pyramid, driver, "second", cfg, out)
        pyramid.virtual.place("purple")
        purple = one_reading(pyramid.link)
    assert prompts == [GAIN, LIGHT, (
        "  the head holds the red die, not the purple die, as the pyramid's profile now "
        "reads it: release the purple die, then press Enter to read it again; k keeps this "
        "reading (when that profile is what is wrong); q stops: ")], prompts
    # the light was checked on the purple die: its reading, not the red die's
    label, reading = cfg["light_check"]
    on = [a - b for a, b in zip(purple["on"], purple["off"], strict=True)]
    assert label == "purple" and abs(reading[0] - on[0]) < 0.3 * on[0], (reading, on)
    assert "darkest die: purple clear %d count" % reading[0] in out.getvalue()


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_k_at_the_light_check_keeps_it_and_the_steps_do_not_ask_again(micropython):
    """A board whose profile has the purple and blue dice swapped: the maker keeps the
    light check's purple die with ``k``, and the session's purple steps are not asked
    about again (the blue die's are, once)."""
    from camelup.board import classifier

    wrong = classifier.default_profile("second")
    wrong["classes"]["blue"], wrong["classes"]["purple"] = (wrong["classes"]["purple"],
                                                            wrong["classes"]["blue"])
    out, prompts = io.StringIO(), []
    with connect("virtual", edition="second", seed=4) as pyramid:

        def person(prompt):
            prompts.append(prompt)
            if ASKED in prompt:
                return "k"
            pyramid.virtual.place(_die(prompt))
            return ""

        pyramid.link.save_profile(wrong)
        result = calibrate.calibrate(pyramid, calibrate.HumanDriver(input_fn=person, out=out),
                                     samples=3, out=out, autorange=True)
    asked = [(i, p.split(", as the")[0].strip()) for i, p in enumerate(prompts) if ASKED in p]
    assert asked[0] == (2, "the head holds the blue die, not the purple die"), prompts[:4]
    assert [words for _i, words in asked] == [
        "the head holds the blue die, not the purple die",
        "the head holds the purple die, not the blue die"], asked
    assert result.saved, out.getvalue()
