"""A port name without a folder that names nothing on Linux or macOS (``COM3``, copied
from the README's Windows example; tester s43, finding 3) is answered as any missing
port is: the serial ports seen, ``--port auto`` / ``virtual``, ``pyramid emulate``; not
the opening's older words offering ``COM3`` back as an example, not "in use by another
program" from mpremote, and doctor does not send the maker to flash a port nothing is
at. A slip of an option's word (``virtua``) is still asked about."""

import os

import pytest
from camelhost import cli

pytestmark = pytest.mark.skipif(os.name != "posix", reason="bare port names are files here")

SEEN = "no such port"


@pytest.fixture(autouse=True)
def _elsewhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no file named COM3 where the command runs


@pytest.mark.parametrize("argv", [
    ["monitor", "--port", "COM3", "--count", "3"],
    ["calibrate", "--port", "COM3", "--edition", "second"],
    ["play", "--pyramid", "COM3", "--players", "Ann,Bo,Cy", "--plain"],
    ["flash", "--port", "COM3"],
])
def test_a_bare_name_that_names_nothing_is_a_missing_port(argv, capsys, tmp_path):
    rc = cli.main(argv)
    err = capsys.readouterr().err
    assert rc != 0
    assert err.count("\n") == 1 and err.startswith("pyramid: "), err
    assert SEEN in err and "serial ports seen:" in err, err
    assert "auto" in err
    assert "Windows: COM3" not in err and "another program" not in err, err


def test_doctor_says_nothing_is_there_and_does_not_advise_flashing(capsys):
    cli.main(["doctor", "--port", "COM3"])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "serial ports seen:" in text, text
    assert "nothing is at COM3" in text, text
    assert "pyramid flash" not in text, text


@pytest.mark.parametrize("argv, meant", [
    (["monitor", "--port", "virtua", "--count", "3"], "--port virtual"),
    (["play", "--pyramid", "virtua", "--players", "Ann,Bo,Cy", "--plain"],
     "--pyramid virtual"),
])
def test_a_slip_of_an_options_word_is_still_asked_about(argv, meant, capsys):
    assert cli.main(argv) != 0
    err = capsys.readouterr().err
    assert "did you mean %s?" % meant in err, err


@pytest.mark.parametrize("typed, meant", [("virtua", "virtual"), ("atuo", "auto")])
def test_doctors_fix_for_a_slip_names_the_word_not_a_flash(typed, meant, capsys):
    """Maker s44: doctor asked 'did you mean --port virtual?', and its fix said to flash
    ``virtua``."""
    assert cli.main(["doctor", "--port", typed]) == 1
    out = capsys.readouterr().out
    assert "did you mean --port %s?" % meant in out, out
    fix = [line.strip() for line in out.splitlines() if line.strip().startswith("fix:")]
    command = "pyramid doctor" + (" --port virtual" if meant == "virtual" else "")
    assert fix == ["fix: run %s, or give the pyramid's own port" % command], out


def test_flash_asks_about_a_slip_of_auto_before_it_builds(capsys, tmp_path):
    """Maker s44: ``flash --port atuo`` built the firmware and handed ``atuo`` to
    mpremote, which said it was in use by another program."""
    assert cli.main(["flash", "--port", "atuo", "--build-dir", str(tmp_path / "b")]) == 1
    out, err = capsys.readouterr()
    assert err == "pyramid: cannot open atuo: no such port; did you mean --port auto?\n", err
    assert "built" not in out and not (tmp_path / "b").exists(), out


def test_flash_takes_a_slip_of_virtual_for_a_missing_port(capsys, tmp_path):
    """``virtual`` is no board to flash: ``virtua`` is not asked about, but said as a
    port that is not there, before anything is built."""
    assert cli.main(["flash", "--port", "virtua", "--build-dir", str(tmp_path / "b")]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("pyramid: no such port virtua (serial ports seen: "), err
    assert err.count("\n") == 1 and "another program" not in err, err
    assert "built" not in out and not (tmp_path / "b").exists(), out


@pytest.mark.parametrize("command", ["doctor", "calibrate", "monitor", "flash"])
def test_an_empty_port_is_a_usage_error_naming_what_to_give(command, capsys):
    """Maker s44: ``--port "$PORT"`` with ``PORT`` unset said ``cannot open : no such
    port``, in doctor with ``fix: nothing is at :``."""
    with pytest.raises(SystemExit) as stopped:
        cli.main([command, "--port", ""])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "pyramid %s: error: argument --port: empty: give the pyramid's serial port "
        "(/dev/ttyACM0) or auto" % command), err
    assert "cannot open" not in err, err
