"""The maker's tools, small things a maker tester met (tester s35-2, findings 2b and 14 a,
c, d, e): each said in one clear line, in the right number, naming what helps."""

import pytest
from camelhost import cli
from camelhost.commands import doctor
from camelhost.i18n import set_language
from camelhost.table.manual import typed_label as place_label


def _reading(label):
    return {"label": label, "m": 1.0}


def test_the_led_step_counts_each_figure_in_its_own_number():
    """14 a: at 2.4 ms and gain 1 'an empty head adds about 1 clear counts': the plural
    followed the LED's count, not the empty head's."""
    low = {"ed": "second", "it": 2.4, "gain": 1, "vb": False}
    led = doctor.led_step((30, 10, 10, 10), (5, 1, 1, 1), _reading("purple"), low, "second")
    assert led.status == "ok"
    assert led.detail == ("LED on adds 25 clear counts with the die (LED on 30, LED off 5: "
                          "the room's light); an empty head adds about 1 clear count")
    dim = doctor.led_step((6, 10, 10, 10), (5, 1, 1, 1), _reading("purple"), low, "second")
    assert dim.detail.startswith("LED on adds only 1 clear count (LED on 6, LED off 5) with "
                                 "a die in the head; a lit die adds at least "), dim.detail
    assert dim.detail.endswith(" clear counts")


@pytest.mark.parametrize("wait", ["-5", "0", "7200"])
def test_a_push_wait_that_never_waits_or_waits_hours_is_refused(capsys, wait):
    """14 d: --push-wait -5 and 0 were taken, and doctor then never waited for the push."""
    assert cli.main(["doctor", "--port", "virtual", "--push-wait", wait]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["pyramid: --push-wait must be more than 0 and at most 3600 seconds, not %s"
                   % wait], err


@pytest.mark.parametrize("tool", [["monitor"], ["calibrate"], ["doctor"]])
def test_a_port_that_is_not_there_names_the_ports_seen_and_the_emulator(capsys, tool):
    """14 c: flash and --port auto named the ports seen and pyramid emulate; doctor,
    monitor and calibrate with a wrong path only said 'no such port'."""
    rc = cli.main(tool + ["--port", "/dev/no-such-pyramid"])
    captured = capsys.readouterr()
    said = captured.err + captured.out
    assert rc != 0
    assert "cannot open /dev/no-such-pyramid: no such port (serial ports seen: " in said, said
    assert "--port auto (the first RP2040 on USB) or --port virtual" in said, said
    assert "Without a board: pyramid emulate runs the firmware on an emulated Pico" in said


def test_place_takes_either_languages_colour_words_and_lists_the_editions_dice(capsys):
    """14 e: at an English table '--place lila' was refused, listing both editions' dice;
    docs/calibration.md says --place takes either language's colour words."""
    set_language("en")
    assert place_label("lila") == "purple" and place_label("grau-schwarz") == "grey-black"
    assert place_label("red+lila") == "red+purple"
    assert cli.main(["monitor", "--port", "virtual", "--place", "pink"]) != 0
    err = capsys.readouterr().err.strip()
    assert err == ("pyramid: --place takes a die label (blue green yellow red purple "
                   "grey-black grey-white), two joined by '+', or empty"), err
    set_language("de")
    try:
        assert place_label("purple") == "purple" and place_label("lila") == "purple"
    finally:
        set_language("en")


@pytest.mark.hil
@pytest.mark.micropython
def test_doctor_says_how_to_check_a_board_set_to_the_other_edition(capsys, micropython):
    """2b: --edition classic on a second-edition board failed the connection step with
    'plug the pyramid in, check --port, flash it'; the board had answered."""
    from camelhost.device.virtual import VirtualPyramid

    with VirtualPyramid("second", seed=1) as vp:
        assert cli.main(["doctor", "--port", vp.port, "--edition", "classic"]) == 1
        out = capsys.readouterr().out
    assert "FAILED   edition     --edition classic: the pyramid is set to the second " \
           "edition" in out, out
    assert ("fix: to check the pyramid as it is set, leave --edition out; pyramid calibrate "
            "--port %s --edition classic sets it to the classic edition with a profile of "
            "those dice" % vp.port) in out, out
    assert "flash it" not in out


@pytest.mark.parametrize("tool", [["monitor"], ["calibrate"], ["doctor"], ["flash"]])
def test_a_mistyped_port_while_an_emulated_pico_runs_names_its_port(
        capsys, tmp_path, emulated_dice, tool):
    """Tester s45, finding 3: with ``pyramid emulate`` running on /dev/pts/5, ``calibrate
    --port /dev/pts/55`` told the maker to start an emulator and never named the one
    running, the one port that works; now its port, as its record names it."""
    port = tmp_path / "pts5"
    port.write_text("")  # the emulated Pico's pseudo-terminal, there while it runs
    emulated_dice("classic", str(port))
    rc = cli.main(tool + ["--port", str(tmp_path / "pts55"), "--build-dir", str(tmp_path / "b")]
                  if tool == ["flash"] else tool + ["--port", str(tmp_path / "pts55")])
    captured = capsys.readouterr()
    said = captured.err + captured.out
    assert rc != 0
    line = [text for text in said.splitlines() if "no such port" in text]
    assert len(line) == 1 and line[0].endswith(
        ". An emulated Pico runs on %s: give --port %s" % (port, port)), said
    if tool == ["doctor"]:  # its fix: doctor on that port, not a board to plug in
        assert "fix: nothing is at %s: run pyramid doctor --port %s, the port of the " \
               "emulated Pico running now" % (tmp_path / "pts55", port) in said, said
    else:
        assert said.count("\n") == 1, said
    assert "Without a board" not in said and "plug the pyramid in by USB" not in said, said
    assert not (tmp_path / "b").exists()


def test_a_mistyped_pyramid_for_play_names_the_running_emulated_picos_port(
        capsys, tmp_path, emulated_dice):
    """Tester s45, finding 3, for play's --pyramid: its form of the port to give; and the
    record of an emulator no longer running names nothing."""
    port = tmp_path / "pts5"
    port.write_text("")
    emulated_dice("second", str(port))
    rc = cli.main(["play", "--players", "Ann,Ben", "--pyramid", str(tmp_path / "pts55"),
                   "--plain"])
    said = capsys.readouterr().err
    assert rc != 0 and said.count("\n") == 1, said
    assert said.rstrip().endswith(
        "--pyramid manual to type the dice. An emulated Pico runs on %s: give --pyramid %s"
        % (port, port)), said
    port.unlink()  # the emulator ended, its pseudo-terminal gone: nothing named
    assert cli.main(["play", "--players", "Ann,Ben", "--pyramid", str(tmp_path / "pts55"),
                     "--plain"]) != 0
    said = capsys.readouterr().err
    assert "emulated Pico" not in said, said


def test_play_with_an_id_no_usb_port_has_names_the_running_emulated_picos_port(
        capsys, tmp_path, emulated_dice):
    """Tester s45b, finding 2: ``play --pyramid id:DEADBEEF`` (or the emulated board's own
    uid, which doctor's HELLO shows) with no such USB port named every way but the running
    emulated Pico's port, which the other tools and a mistyped path name."""
    port = tmp_path / "pts1"
    port.write_text("")
    emulated_dice("classic", str(port))
    for serial in ("DEADBEEF", "55565758A9226454"):
        rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "id:" + serial,
                       "--plain"])
        said = capsys.readouterr().err
        assert rc != 0 and said.count("\n") == 1, said
        assert said.startswith("pyramid: cannot open id:%s: no USB serial port has the "
                               "serial number %s" % (serial, serial)), said
        assert said.rstrip().endswith(
            "--pyramid manual to type the dice. An emulated Pico runs on %s: give --pyramid %s"
            % (port, port)), said
    port.unlink()  # the emulator ended: nothing named
    assert cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "id:DEADBEEF",
                     "--plain"]) != 0
    said = capsys.readouterr().err
    assert "emulated Pico" not in said and said.rstrip().endswith(
        "--pyramid manual to type the dice"), said


def test_make_flash_names_the_running_emulated_picos_port_in_makes_form(
        capsys, tmp_path, monkeypatch, emulated_dice):
    """Tester s45, finding 3, under ``make flash PORT=/dev/ttyACM0``: ``PORT=``, which make
    takes, for the running emulated Pico's port."""
    from camelhost.device import sources

    port = tmp_path / "pts5"
    port.write_text("")
    emulated_dice("second", str(port))
    monkeypatch.setenv(sources.PORT_FORM_ENV, "make flash PORT=/dev/ttyACM0")
    assert cli.main(["flash", "--port", str(tmp_path / "ttyACM0"),
                     "--build-dir", str(tmp_path / "b")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.rstrip().endswith(
        "or give PORT=auto for the first RP2040 on USB. An emulated Pico runs on %s: give "
        "PORT=%s" % (port, port)), err
    assert not (tmp_path / "b").exists()
