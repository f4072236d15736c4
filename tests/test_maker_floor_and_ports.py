"""The maker tester's leftover findings (s38): the light floor said and marked where the
board judges by it, and every next command named with the port the maker gave.

- 2b: ``pyramid monitor`` marks a die's reading under the floor ``DIM`` and its header
  says the floor, with the exposure it is for.
- 8: doctor's light step judges by the floor the board judges by
  (``monitor.board_floor``): the floor its ``INFO`` reports (s39), or from an older
  firmware the built-in profile's stored one, or on a board running a saved profile the
  floor estimated at the exposure that profile was fitted at; said with its exposure.
- 10: doctor's connection fix names the port given and the commands to type with it.
- 11: calibrate's refusal lines name the calibrate command with the session's port.
"""

import argparse
import io

import pytest
from camelhost.commands import doctor
from camelhost.tools import calibrate, monitor
from camelup import calibration
from camelup.board import classifier

READING = {"on": (36, 12, 9, 14), "off": (6, 1, 1, 1), "label": "purple", "m": 484,
           "sl": False}


# --- 2b: monitor ----------------------------------------------------------------------


def test_a_dies_reading_under_the_floor_is_marked_dim_and_the_empty_head_is_not():
    floor = monitor.board_floor("second")
    line = monitor.format_reading(1, READING, saturation=768, floor=floor)
    assert line.endswith(" DIM: under 40 counts of clear"), line
    bright = dict(READING, on=(260, 80, 50, 100))
    assert "DIM" not in monitor.format_reading(2, bright, saturation=768, floor=floor)
    empty = dict(READING, label="empty", on=(20, 6, 5, 6), m=3168)
    assert "DIM" not in monitor.format_reading(3, empty, saturation=768, floor=floor)
    rejected = dict(READING, label="unknown")
    assert monitor.format_reading(4, rejected, saturation=768, floor=floor).endswith(
        " rejected; DIM: under 40 counts of clear")


@pytest.mark.hil
@pytest.mark.micropython
def test_monitor_says_the_floor_and_marks_the_dim_rows_of_a_dim_board(micropython):
    """The virtual pyramid at 2.4 ms and gain 1x: purple gives about 15 counts of clear,
    under the built-in profile's 40, the figure its firmware marks a release dim by."""
    with monitor.connect("virtual", edition="second", seed=7) as pyramid:
        pyramid.link.configure(integration_ms=3, gain=1)
        pyramid.virtual.place("purple")
        out = io.StringIO()
        monitor.monitor(pyramid, count=2, out=out)
    text = out.getvalue()
    assert ("enough light for a die: 40 counts of clear (the built-in profile's floor, at "
            "24.0 ms and gain 4x); a die's reading under it is marked DIM") in text, text
    rows = [line for line in text.splitlines() if line.lstrip()[:1].isdigit()]
    assert len(rows) == 2 and all(row.endswith("DIM: under 40 counts of clear")
                                  for row in rows), rows


# --- 8: the floor doctor judges by -------------------------------------------------------


def test_the_built_in_profile_floor_is_the_one_the_firmware_compares_with():
    for edition in ("classic", "second"):
        profile = classifier.default_profile(edition)
        floor = monitor.board_floor(edition, {"cal": False})
        assert (floor.counts, floor.saved) == (profile["floor"], False)
        assert (floor.it_ms, floor.gain) == (profile["settings"]["integration_ms"],
                                             profile["settings"]["gain"])
        assert monitor.board_floor(edition, None).counts == profile["floor"]


def test_a_saved_profile_floor_follows_from_the_gain_it_was_fitted_at():
    """Its count noise grows with the gain (``fit``'s ``shot``): at 16x the dice need more
    than twice the counts they need at 4x."""
    profile = classifier.default_profile("second")
    at16 = monitor.board_floor("second", {"cal": True, "pit": 7, "pgain": 16})
    assert at16.saved and (at16.it_ms, at16.gain) == (7.2, 16)
    assert at16.counts == pytest.approx(calibration.light_floor(
        profile, shot=calibration.SHOT * 16))
    assert at16.counts > 2 * profile["floor"]
    assert at16.words() == ("87 counts of clear (the floor at 7.2 ms and gain 16x, the "
                            "exposure the board's profile was fitted at)")


def test_the_floor_the_board_reports_is_the_one_judged_by_at_its_profiles_exposure():
    """``INFO``'s ``floor`` wins over the built-in profile's and over the estimate; an
    older firmware's ``INFO`` without it keeps those."""
    saved = monitor.board_floor("second", {"cal": True, "pit": 7, "pgain": 16, "floor": 612})
    assert (saved.counts, saved.it_ms, saved.gain, saved.saved) == (61.2, 7.2, 16, True)
    assert saved.words().startswith("62 counts of clear (the floor at 7.2 ms and gain 16x")
    built = monitor.board_floor("classic", {"cal": False, "floor": 355})
    assert (built.counts, built.it_ms, built.gain, built.saved) == (35.5, 24.0, 4, False)
    older = monitor.board_floor("second", {"cal": True, "pit": 7, "pgain": 16})
    assert older.counts > 2 * classifier.default_profile("second")["floor"] != 61.2


def _info(pyramid):
    return pyramid.link.request("INFO?", lambda m: m.name == "INFO", 30.0).fields


def _tenths_up(counts):
    return int(counts * 10 + 0.999)


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_the_firmware_reports_the_floor_it_marks_dim_by(micropython):
    """The virtual pyramid (the firmware under the MicroPython unix port): its ``INFO``
    names the built-in profile's floor, then the floor of a profile saved on it, and
    ``board_floor`` takes that."""
    with monitor.connect("virtual", edition="second", seed=7) as pyramid:
        built = _info(pyramid)
        cfg = pyramid.link.configure(gain=16)
        fitted_at = {"integration_ms": monitor.integration_ms(cfg["it"]), "gain": 16}
        samples = {}
        for label in classifier.classes_for("second"):
            samples[label] = []
            for _ in range(3):
                pyramid.virtual.place(label)
                on, off = pyramid.link.sample()
                samples[label].append(monitor.difference(on, off))
        profile = calibration.fit(samples, "second", fitted_at)
        pyramid.link.save_profile(profile)
        saved = _info(pyramid)
    assert built["floor"] == _tenths_up(classifier.default_profile("second")["floor"])
    assert saved["cal"] and saved["floor"] == _tenths_up(profile["floor"]) != built["floor"]
    judged = monitor.board_floor("second", saved)
    assert (judged.counts, judged.gain, judged.saved) == (saved["floor"] / 10, 16, True)


class _Hands:
    def __init__(self, vp):
        self.vp = vp

    def place(self, label):
        self.vp.place(label)


@pytest.mark.hil
@pytest.mark.micropython
def test_doctors_light_step_judges_by_the_boards_floor_and_says_its_exposure(micropython):
    """Purple at 2.4 ms and gain 4x gives about 57 counts: enough for the built-in
    profile (40), not for a profile fitted at gain 16x (87 at that exposure)."""
    with monitor.connect("virtual", edition="second", seed=7) as pyramid:
        pyramid.link.configure(integration_ms=3, gain=4)
        settings = pyramid.settings()
        hands = _Hands(pyramid.virtual)
        built_in = doctor.light_step(pyramid.link, hands, settings, "second", "virtual",
                                     info={"cal": False})
        saved = doctor.light_step(pyramid.link, hands, settings, "second", "virtual",
                                  info={"cal": True, "pit": 3, "pgain": 16})
    assert built_in.status == "ok", built_in
    assert ("enough light for these dice is 40 counts of clear (the built-in profile's "
            "floor, at 24.0 ms and gain 4x)") in built_in.detail
    assert saved.status == "failed", saved
    assert ("enough light for these dice is 87 counts of clear (the floor at 2.4 ms and gain "
            "16x, the exposure the board's profile was fitted at)") in saved.detail
    assert "pyramid calibrate --port virtual" in saved.advice


# --- 10: doctor's connection fix -----------------------------------------------------------


def _doctor(port):
    out = io.StringIO()
    args = argparse.Namespace(port=port, edition=None, seed=1, push_wait=None)
    status = doctor.run(args, out=out)
    return status, out.getvalue()


def test_doctors_connection_fix_names_the_port_given_and_the_commands_with_it(tmp_path):
    port = tmp_path / "ttyACM0"  # there, but no pyramid answered on it
    port.write_text("")
    port = str(port)
    assert doctor.connection_fix(port) == (
        "check that the pyramid is plugged in and that %s is its port; if it is and still "
        "does not answer, flash it (pyramid flash --port %s), then run pyramid doctor "
        "--port %s again" % (port, port, port))


def test_doctors_connection_fix_for_a_port_that_is_not_there_does_not_say_flash_it(tmp_path):
    """Tester s40, finding 2: for a port that names nothing the fix said to flash it,
    a dead end (flash fails on it the same way)."""
    port = str(tmp_path / "ttyACM0")  # names nothing
    status, out = _doctor(port)
    assert status == 1
    fix = [line.strip() for line in out.splitlines() if line.strip().startswith("fix:")]
    assert fix == ["fix: nothing is at %s: plug the pyramid in by USB, then run pyramid "
                   "doctor, which finds it there, or give the port it gets" % port], out
    assert "flash" not in out, out


def test_doctors_connection_fix_for_auto_names_no_port():
    assert doctor.connection_fix("auto") == (
        "check that the USB cable carries data (a charge-only one gives no port) and that "
        "the board has MicroPython (without it, it shows a drive called RPI-RP2, no port: "
        "hardware/README.md, 'Flashing'); then run pyramid doctor again, or pyramid doctor "
        "--port PORT with the port pyramid emulate printed")


def test_doctors_next_commands_leave_out_port_auto():
    args = argparse.Namespace(port="auto", edition=None)
    assert doctor.next_step(args, False).endswith(": pyramid calibrate --autorange")
    assert doctor.saturation_advice(24.0, 16, "auto", {}, ("yellow", 9000)).endswith(
        "pyramid calibrate --autorange")


# --- 11: calibrate's refusal lines --------------------------------------------------------


def test_calibrates_light_refusal_names_the_command_with_the_port():
    samples = {"purple": [(15, 5, 4, 6)] * 3, "yellow": [(56, 20, 20, 4)] * 3}
    settings = {"integration_ms": 2.4, "gain": 1}
    line = calibrate.light_problem({"floor": 40.0}, samples, settings, "/dev/pts/4")
    assert line.endswith("set gain 4x (--gain 4) and calibrate again: pyramid calibrate "
                         "--port /dev/pts/4 --integration 2.4 --gain 4"), line


def test_calibrates_refusals_name_the_command_with_the_port():
    collected = {"blue": [(200, 40, 60, 100)] * 4, "empty": [(16, 5, 5, 5)] * 4}
    line = calibrate.refusal_line(("blue", "like", ("empty", 2)), collected, "/dev/pts/4")
    assert "read it again (pyramid calibrate --port /dev/pts/4)" in line, line
    line = calibrate.refusal_line(("blue", "named", 0.4), collected, "/dev/pts/4")
    assert "and run pyramid calibrate --port /dev/pts/4 again;" in line, line


@pytest.mark.hil
@pytest.mark.micropython
def test_calibrate_on_a_dim_board_refuses_with_the_command_and_its_port(micropython, capsys):
    from camelhost import cli

    assert cli.main(["calibrate", "--port", "virtual", "--integration", "2.4", "--gain", "1",
                     "--samples", "3"]) != 0
    err = capsys.readouterr().err
    assert ("set gain 4x (--gain 4) and calibrate again: pyramid calibrate --port virtual "
            "--samples 3 --integration 2.4 --gain 4 (nothing was saved)") in err, err
