"""The maker's tools keep their word (the maker tester's report, s35-2, its items left
open at the end of s35): calibrate's doubtful-reading question answers a slip in one
line; doctor's reading step after an empty head asks for the die, not a calibration;
``doctor --port manual`` is one line; doctor checks the brightest die against the
sensor's saturation; the German ``--samples`` refusal reads as German."""

import argparse
import io

import pytest
from camelhost import cli
from camelhost.commands import doctor
from camelhost.i18n import set_language


def _driver(answers):
    """A ``calibrate.HumanDriver`` answering each prompt with the next of ``answers``:
    ``(driver, prompts asked, its output)``."""
    from camelhost.tools import calibrate

    prompts, out = [], io.StringIO()

    def person(prompt):
        prompts.append(prompt)
        return answers.pop(0)

    return calibrate.HumanDriver(input_fn=person, out=out), prompts, out


# --- 1. calibrate: a wrong key at the doubtful-reading question --------------------


def test_a_wrong_key_after_a_doubtful_reading_is_one_line_naming_the_keys_and_it_waits():
    """Finding 14 j: ``x`` at ``Enter reads it again ...; k keeps ...; q stops:`` printed
    the whole question again, with no word on what was wrong."""
    driver, prompts, out = _driver(["x", "yes", "k"])
    assert driver.read_again("green", 2, 4) is False  # k, after two slips, keeps it
    assert prompts[0].startswith("  Enter reads it again: first release the green die")
    slip = ("  'x' is none of Enter, k or q: Enter reads it again, k keeps this reading "
            "(then this session will not be saved), q stops: ")
    assert prompts[1] == slip
    assert prompts[2] == slip.replace("'x'", "'yes'")
    assert all("\n" not in p for p in prompts) and out.getvalue() == ""
    assert driver.kept_doubtful
    # after a slip, Enter still reads the step again, and q still asks before stopping
    driver, prompts, out = _driver(["?", ""])
    assert driver.read_again("green", 2, 4) is True and not driver.kept_doubtful
    driver, prompts, out = _driver(["x", "q", "", ""])
    assert driver.read_again("green", 2, 4) is True
    assert prompts[2].startswith("stop? the 4 readings taken so far are lost")
    assert prompts[3] == prompts[1]  # Enter at the stop question: back to the same line


def test_the_wrong_key_line_is_german_at_a_german_table():
    set_language("de")
    driver, prompts, out = _driver(["x", "k"])
    assert driver.read_again("blue", 1, 7) is False
    assert prompts[1] == ("  'x' ist weder Enter noch k noch q: Enter misst noch einmal, k "
                          "behält diese Messung (dann wird diese Sitzung nicht gespeichert), "
                          "q beendet: ")


# --- 2. doctor: the reading step's fix, and --port manual --------------------------


class _EmptyHead(doctor._Sim):
    """The maker presses Enter at the first prompt with nothing in the head."""

    def place_die(self, edition):
        self.vp.place("empty")


@pytest.mark.hil
@pytest.mark.micropython
def test_after_an_empty_head_the_reading_step_asks_for_the_die_not_a_calibration(micropython):
    """Finding 14 k: the LED step's fix was right (``put a die in the pyramid's head when
    asked``), but the reading step added ``check the LED step first; then calibrate:
    pyramid calibrate --port ... --autorange``: calibrating is not the fix."""
    from camelhost.tools import monitor

    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        steps = doctor.checklist(pyramid, _EmptyHead(pyramid.virtual), "second")
    by_name = {s.name: s for s in steps}
    led, reading = by_name["LED"], by_name["reading"]
    assert led.status == reading.status == "failed"
    assert "the die in the head was read as empty" in reading.detail
    assert reading.advice == led.advice == ("put a die in the pyramid's head when asked, then "
                                            "run doctor again")
    # the steps after it, with their dice in the head, pass
    assert by_name["light"].status == by_name["saturation"].status == "ok"


@pytest.mark.hil
@pytest.mark.micropython
def test_with_a_dead_led_the_reading_step_sends_the_maker_to_the_led_not_to_calibrate(
        micropython):
    out = io.StringIO()
    args = argparse.Namespace(port="virtual", edition="second", seed=3)
    assert doctor.run(args, out=out, hardware={"led": "dead"}) == 1
    lines = out.getvalue().splitlines()
    at = [i for i, line in enumerate(lines) if line.split()[:2] == ["FAILED", "reading"]]
    assert at, out.getvalue()
    fix = lines[at[0] + 1].strip()
    assert fix == ("fix: the LED step's fix first (above): no profile can name a die the LED "
                   "does not light; then run doctor again"), fix


def test_the_reading_fix_is_to_calibrate_only_when_the_led_step_passed():
    ok = doctor.Step("LED", "ok", "LED on adds 300 clear counts")
    assert doctor.reading_fix(ok, "/dev/pts/7") == ("calibrate the pyramid with these dice: "
                                                    "pyramid calibrate --port /dev/pts/7 "
                                                    "--autorange")


def test_doctor_port_manual_is_one_line_with_no_fix_to_plug_a_board_in(capsys):
    """Its fix line said ``plug the pyramid in, check --port, flash it``: --port manual
    has no board to check, as calibrate and monitor say in one line."""
    assert cli.main(["doctor", "--port", "manual"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("pyramid: --port manual: this tool needs a pyramid: give --port PORT, "
                   "--port auto or --port virtual\n")
    assert cli.main(["calibrate", "--port", "manual"]) == 1
    assert capsys.readouterr().err == err  # the same words: one source


# --- 3. doctor: the brightest die against saturation -------------------------------


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.parametrize("gain,lower", [(16, 4)])  # 60x: test_doctor_saturation_fix_from_counts
def test_a_saturating_brightest_die_fails_the_saturation_step_naming_a_lower_gain(
        micropython, gain, lower):
    """Only the darkest die was checked for light: at gain 16x the tester's yellow die
    saturated the clear channel and doctor passed it all (finding 1)."""
    from camelhost.tools import monitor

    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        pyramid.link.configure(gain=gain)
        steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
    step = [s for s in steps if s.name == "saturation"][0]
    assert step.status == "failed", step
    # the virtual pyramid integrates 7.2 ms: 3 steps, full scale 3072, saturated from
    # 75 % of it (the analog limit below 64 steps), as calibrate's SATURATED says
    assert ("the sensor saturates from %d" % monitor.saturation_level(7.2)
            == "the sensor saturates from 2304")
    assert step.detail.startswith("the brightest die (yellow) gives ")
    assert step.detail.endswith(" counts of clear with the LED on at 7.2 ms and gain %dx; "
                                "the sensor saturates from 2304" % gain), step.detail
    assert int(step.detail.split(" gives ")[1].split()[0]) >= 2304
    assert step.advice == ("calibrate again at gain %dx: pyramid calibrate --port virtual "
                           "--gain %d (or with --autorange, which chooses the gain)"
                           % (lower, lower))
    assert len(step.lines()) == 2  # one line seen, one fix


@pytest.mark.hil
@pytest.mark.micropython
def test_a_darkest_die_that_saturates_fails_the_light_step_for_the_gain_not_the_profile(
        micropython):
    """At 60x the purple die itself saturates and the board reads it as unknown: the
    light step said the profile did not name it and to calibrate with every die in the
    head, which at 60x gives the same."""
    from camelhost.tools import monitor

    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        pyramid.link.configure(gain=60)
        steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
    light = [s for s in steps if s.name == "light"][0]
    assert light.status == "failed", light
    assert ("; but it saturates the sensor (from 2304 counts of clear with the LED on), so "
            "the board reads it as ") in light.detail, light.detail
    # 16x still saturates this head's yellow die, and every die read at 60x was clipped:
    # calibrate measures it (test_doctor_saturation_fix_from_counts); the saturation step
    # says that one fix, the light step points to it (maker finding 12)
    assert light.advice == doctor.SATURATION_BELOW, light.advice
    saturation = [s for s in steps if s.name == "saturation"][0]
    assert saturation.advice.endswith("pyramid calibrate --port virtual --autorange"), \
        saturation.advice


@pytest.mark.hil
@pytest.mark.micropython
def test_the_brightest_die_under_saturation_passes_and_says_its_counts(micropython):
    from camelhost.tools import monitor

    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
    step = [s for s in steps if s.name == "saturation"][0]
    assert step.status == "ok", step
    counts = int(step.detail.split(" gives ")[1].split()[0])
    assert 0 < counts < 2304 and step.advice == ""
    assert "at 7.2 ms and gain 4x; the sensor saturates from 2304" in step.detail


@pytest.mark.hil
@pytest.mark.micropython
def test_the_saturation_step_refuses_an_empty_head_or_another_die(micropython):
    from camelhost.tools import monitor

    class Wrong(doctor._Sim):
        def __init__(self, vp, instead):
            doctor._Sim.__init__(self, vp)
            self.instead = instead

        def place(self, label):
            self.vp.place(self.instead if label == "yellow" else label)

    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        settings = pyramid.settings()
        empty = doctor.saturation_step(pyramid.link, Wrong(pyramid.virtual, "empty"),
                                       settings, "second")
        blue = doctor.saturation_step(pyramid.link, Wrong(pyramid.virtual, "blue"),
                                      settings, "second")
    assert empty.status == "failed" and "the head reads empty" in empty.detail
    assert "put the yellow die in the pyramid's head" in empty.advice
    assert blue.status == "failed" and "the head holds the blue die, not the yellow" in \
        blue.detail


def test_at_gain_1x_the_saturation_fix_names_the_hardware():
    """At gain 1x under 153.6 ms a shorter integration time saturates at the same share of
    full scale (it named half the time until s37), and at 2.4 ms and 1x nothing shorter
    is left: the hardware."""
    class Board:
        """A link whose sensor gives ``counts`` of clear with the LED on, and streams a
        reading too bright to name while asked to."""

        def __init__(self, counts):
            self.counts = counts
            self.streaming = False

        def sample(self):
            return (self.counts, 10, 10, 10), (5, 1, 1, 1)

        def stream(self, period):
            self.streaming = period > 0

        def next_reading(self, timeout=None):
            return {"label": "unknown", "m": 0} if self.streaming else None

    class Hands:
        def place(self, label):
            self.placed = label

    hands = Hands()
    step = doctor.saturation_step(Board(20000), hands, {"ed": "second", "it": 24, "gain": 1},
                                  "second", "/dev/ttyACM0")
    assert hands.placed == "yellow" and step.status == "failed"
    assert step.advice == ("less LED current or the sensor further from the die "
                           "(hardware/README.md): even gain 1x saturates at any integration "
                           "time")
    step = doctor.saturation_step(Board(900), hands, {"ed": "classic", "it": 2, "gain": 1},
                                  "classic")
    assert hands.placed == "white" and step.status == "failed", step  # 768 at 2.4 ms
    assert step.advice.startswith("less LED current or the sensor further from the die")
    set_language("de")
    step = doctor.saturation_step(Board(20000), hands, {"ed": "second", "it": 24, "gain": 1},
                                  "second", "/dev/ttyACM0")
    assert step.detail == ("der hellste Würfel (gelb) gibt 20000 Zählwerte im Klarkanal bei "
                           "eingeschalteter LED, bei 24,0 ms und Verstärkung 1x; der Sensor "
                           "ist ab 7680 gesättigt")
    assert step.advice.startswith("weniger LED-Strom oder den Sensor weiter weg vom Würfel")
    assert step.lines()[0].split()[:2] == ["FEHLER", "Sättigung"]


# --- 4. the German --samples refusal ------------------------------------------------


def test_the_german_samples_refusal_reads_as_its_siblings_do(capsys):
    """Finding 14 l: ``(12 oder mehr empfohlen; erhalten 2)`` read as a translation of
    "got 2"; the integration time's refusal says ``..., nicht 0``."""
    assert cli.main(["calibrate", "--port", "virtual", "--samples", "2", "--lang", "de"]) != 0
    err = capsys.readouterr().err
    assert err == "pyramid: --samples muss 3..100 sein (12 oder mehr empfohlen), nicht 2\n", err
    assert "erhalten" not in err
