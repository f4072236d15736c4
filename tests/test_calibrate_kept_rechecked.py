"""A reading kept with ``k`` though the board's running profile named another die is
checked again once the session has fitted its own profile: kept, it went into the fit
and was never looked at again, so the red die left in the head at the blue die's step and
kept by reflex was saved as the blue die. When the session's own profile (the maker's
dice) names it another die too, one line says so, naming the reading and the die, and
the reading is left out and the profile fitted again without it; when that leaves a class
too few readings to fit, nothing is saved (docs/calibration.md)."""

import io
import re

import pytest
from calibrate_prompts import asked_die as _die
from camelhost.tools import calibrate
from camelhost.tools.monitor import connect

ASKED = "as the pyramid's profile now reads it"


@pytest.fixture
def second(virtual_pyramid):
    return virtual_pyramid("second", seed=7)


def _session(vp, samples, wrong=(1,)):
    """A session whose person leaves the red die in the head at the steps ``wrong`` (the
    blue die's) and keeps that reading with ``k`` when asked; every other step right."""
    out, prompts = io.StringIO(), []

    def person(prompt):
        prompts.append(prompt)
        if ASKED in prompt:
            return "k"
        step = re.match(r"\[ *(\d+)/", prompt)
        vp.place("red" if step and int(step.group(1)) in wrong else _die(prompt))
        return ""

    with connect(vp.port) as pyramid:
        try:
            result = calibrate.calibrate(pyramid, calibrate.HumanDriver(input_fn=person, out=out),
                                         samples=samples, out=out)
        except calibrate.CliError as exc:
            return None, out.getvalue(), prompts, str(exc)
    return result, out.getvalue(), prompts, None


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_the_red_die_kept_as_the_blue_dies_reading_is_said_and_left_out_of_the_fit(second):
    """Six readings a class: before, the red die's reading was saved as one of the blue
    die's six, unsaid (the check's bar, half of a die's readings, let it through)."""
    result, out, prompts, failed = _session(second, 6)
    assert failed is None, out + str(failed)
    assert [p for p in prompts if ASKED in p][0].startswith(
        "  the head holds the red die, not the blue die")
    said = [line for line in out.splitlines() if line.startswith("reading 1 of 60 ")]
    assert len(said) == 1, out
    assert re.match(r"reading 1 of 60 \(blue c= *\d+ r= *\d+ g= *\d+ b= *\d+\), kept though "
                    r"the pyramid's profile named another die: the head holds the red die, "
                    r"not the blue die, as the profile this session fitted reads it too; it is "
                    r"left out and the profile fitted again without it$", said[0]), said[0]
    assert out.index(said[0]) < out.index("separation of every pair")  # before the report
    assert result.saved and "profile saved" in out
    assert len(result.samples["blue"]) == 5 and len(result.samples["red"]) == 6
    # the profile saved names the blue die's readings left blue
    from camelup.board import classifier

    clf = classifier.Classifier(result.profile)
    assert all(clf.classify(row)[0] == "blue" for row in result.samples["blue"])


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_two_red_dice_kept_as_the_blue_die_are_both_left_out(second):
    """Each judged by the profile fitted without both: fitted without it alone, the other
    would pull the blue die's spread over it."""
    result, out, prompts, failed = _session(second, 5, (1, 9))  # the blue die's two first
    assert failed is None, out + str(failed)
    assert sum(1 for p in prompts if ASKED in p) == 1  # the second kept unasked (trusted)
    assert "\nreading 1 of 50 (blue" in out and "\nreading 9 of 50 (blue" in out, out
    assert result.saved and len(result.samples["blue"]) == 3


def test_too_few_readings_left_to_fit_is_one_line_naming_the_class_and_the_command():
    line = calibrate.too_few_left_line(["blue"], "/dev/ttyACM0")
    assert line == ("not saved: with those readings left out, blue has fewer than 3 "
                    "readings, too few to fit; put the die asked for in the head at each step "
                    "and run pyramid calibrate --port /dev/ttyACM0 again; the pyramid keeps "
                    "its profile"), line
    assert calibrate.too_few_left_line(["blue", "grey-black"]).startswith(
        "not saved: with those readings left out, blue and grey-black have fewer than 3 "
        "readings each")


def test_leaving_readings_out_keeps_the_doubtful_ones_marks_on_their_readings():
    """``_without``: the readings ``named_by_the_fit`` found go, and a reading that looked
    like another (``suspects``, by its index in its class) keeps its mark."""
    collected = {"blue": [(1,), (2,), (3,), (4,)], "red": [(5,), (6,)]}
    suspects = {"blue": [(3, "empty")], "red": [(0, "blue")]}
    left, marks = calibrate._without(collected, suspects, [("blue", 1, "red", 7)])
    assert left == {"blue": [(1,), (3,), (4,)], "red": [(5,), (6,)]}
    assert marks == {"blue": [(2, "empty")], "red": [(0, "blue")]}
    assert collected["blue"] == [(1,), (2,), (3,), (4,)]  # the session's own left as it was


def test_the_line_is_german_at_a_german_table():
    from camelhost.i18n import set_language

    set_language("de")
    line = calibrate.doubted_line("blue", (216, 123, 37, 25), "red", 1, 120)
    assert line.startswith("Messung 1 von 120 (blau c=216 r=123 g=37 b=25), behalten, obwohl "
                           "das Profil der Pyramide einen anderen Würfel nannte: im Kopf liegt "
                           "der Würfel rot, nicht der Würfel blau, so liest es auch das Profil"), \
        line
    assert calibrate.too_few_left_line(["blue"]).startswith(
        "nicht gespeichert: ohne diese Messungen hat blau weniger als 3 Messungen")
