"""pyramid calibrate judges each reading by the board's running profile too (tester s41
finding 1): the red die left in the head from ``pyramid monitor`` was taken as the blue
die's first reading without a word, though the board's profile named it red. A reading
that profile names as another die is said in one line, as ``pyramid doctor`` says its
dice (``the head holds the red die, not the blue die``), and asked about before it goes
into the fit: Enter reads it again, ``k`` keeps it. Kept, it is fitted and the session
still saves, since that profile is the one a calibration replaces and may be the wrong
one (a new LED, a moved sensor); a profile that names nothing sure (``unknown``) never
holds a reading up."""

import io

import pytest
from calibrate_prompts import asked_die as _die
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.tools import calibrate
from camelhost.tools.monitor import connect, one_reading

HELD = ("  the head holds the red die, not the blue die, as the pyramid's profile now reads "
        "it: release the blue die with 1 on top, then press Enter to read it again; k keeps "
        "this reading (when that profile is what is wrong); q stops: ")
#: the same on a pseudo-terminal's port (the emulated Pico's, here the virtual pyramid's)
PTY_HELD = HELD.replace("1 on top, then press Enter to", "1 on top: on the emulated Pico, "
                        "type p blue and Enter in its terminal; then press Enter here to")



@pytest.fixture
def second(virtual_pyramid):
    return virtual_pyramid("second", seed=7)


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_the_red_die_left_in_the_head_is_said_and_read_again(second, capsys, monkeypatch):
    """The tester's session: the red die still in the head from ``pyramid monitor``,
    Enter pressed at step 1 without changing it; then the blue die put in."""
    second.place("red")
    prompts = []

    def person(prompt):
        prompts.append(prompt)
        if len(prompts) > 1:  # at step 1 the red die stays in the head
            second.place(_die(prompt))
        return ""

    monkeypatch.setattr("builtins.input", person)
    rc = cli.main(["calibrate", "--port", second.port, "--edition", "second", "--samples", "3"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert prompts[0].startswith("[  1/30] release the blue die with 1 on top")
    assert prompts[1] == PTY_HELD, prompts[1]
    assert prompts[2].startswith("[  2/30] release the green die")  # step 1 read again
    assert sum(1 for p in prompts if "as the pyramid's profile now reads it" in p) == 1
    assert sum(1 for line in out.splitlines() if line.startswith("[  1/30]")) == 2
    assert "profile saved on the pyramid" in out


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_k_keeps_the_reading_in_the_fit_when_the_boards_profile_is_the_wrong_one(second):
    """A board whose profile is wrong (here the blue and red dice swapped in it): the
    maker keeps each reading with ``k``, asked once for each die so misnamed, and the
    session saves a profile fitted on every reading, which names the dice right."""
    from camelup.board import classifier

    wrong = classifier.default_profile("second")
    wrong["classes"]["blue"], wrong["classes"]["red"] = (wrong["classes"]["red"],
                                                         wrong["classes"]["blue"])
    out, prompts = io.StringIO(), []

    def person(prompt):
        prompts.append(prompt)
        if "as the pyramid's profile now reads it" in prompt:
            return "k"
        second.place(_die(prompt))
        return ""

    with connect(second.port) as pyramid:
        pyramid.link.save_profile(wrong)
        second.place("blue")
        assert one_reading(pyramid.link)["label"] == "red"  # the board's profile misnames it
        result = calibrate.calibrate(pyramid, calibrate.HumanDriver(input_fn=person, out=out),
                                     samples=3, out=out)
        asked = [p for p in prompts if "as the pyramid's profile now reads it" in p]
        assert [p.split(",")[0].strip() for p in asked] == [
            "the head holds the red die", "the head holds the blue die"], asked
        assert result.saved, out.getvalue()
        # every reading kept went into the fit: three of each die, none dropped
        assert len(result.samples["blue"]) == len(result.samples["red"]) == 3
        assert "profile saved" in out.getvalue()
        second.place("blue")
        assert one_reading(pyramid.link)["label"] == "blue"  # the new profile: right
        second.place("red")
        assert one_reading(pyramid.link)["label"] == "red"


# --- the question itself (no device) -------------------------------------------------


def _driver(answers, emulated=False):
    prompts, out = [], io.StringIO()

    def person(prompt):
        prompts.append(prompt)
        return answers.pop(0)

    return calibrate.HumanDriver(input_fn=person, out=out, emulated=emulated), prompts, out


def test_a_slip_at_the_question_is_one_line_naming_the_keys_and_k_keeps_without_a_cost():
    driver, prompts, out = _driver(["", "x", "k", ""])
    driver.present("blue", 1, 1, 30)  # the step's prompt, answered with Enter
    assert driver.wrong_die("blue", 1, "red", 1) is False
    assert prompts[1] == HELD
    assert prompts[2] == ("  'x' is none of Enter, k or q: Enter reads it again, k keeps this "
                          "reading, q stops: ")
    assert not driver.kept_doubtful  # the session is not spent: the later prompts say nothing
    driver.present("green", 1, 2, 30)
    assert "will not be saved" not in prompts[-1]
    driver, prompts, out = _driver(["r"])
    assert driver.wrong_die("empty", None, "grey-white", 1) is True
    assert prompts[0].startswith("  the head holds the grey die, where it should be empty, "
                                 "as the pyramid's profile now reads it: take every die out")


def test_on_the_emulated_pico_the_question_names_the_key():
    driver, prompts, out = _driver([""], emulated=True)
    assert driver.wrong_die("purple", 2, "yellow", 3) is True
    assert ("the head holds the yellow die, not the purple die, as the pyramid's profile now "
            "reads it: release the purple die with 2 on top: on the emulated Pico, type p "
            "purple and Enter in its terminal; then press Enter here to read it again") \
        in prompts[0], prompts[0]


def test_the_question_is_german_at_a_german_table():
    set_language("de")
    driver, prompts, out = _driver(["x", ""])
    assert driver.wrong_die("blue", 1, "red", 1) is True
    assert prompts[0].startswith("  im Kopf liegt der Würfel rot, nicht der Würfel blau"), \
        prompts[0]
    assert "k" in prompts[1] and "'x'" in prompts[1] and "none of" not in prompts[1]


def test_only_another_die_named_with_confidence_is_asked_about():
    assert calibrate.named_otherwise("blue", "red") == "red"
    assert calibrate.named_otherwise("empty", "purple") == "purple"
    # nothing sure, the empty head (the comparison with its readings says that), none
    for named in ("unknown", "double", "empty", None, "blue"):
        assert calibrate.named_otherwise("blue", named) is None
    # the grey die's two inks are one die, as the refusal counts them
    assert calibrate.named_otherwise("grey-black", "grey-white") is None
    assert calibrate.named_otherwise("grey-black", "purple") == "purple"
