"""A port path that names no serial port (``/dev/null``, a regular file, a folder,
``/dev/tty``) is one line in the product's words for every tool that opens a port, and
``pyramid flash`` says it before it builds anything (tester s36tm, finding 4: pyserial's
``Could not configure port: (25, 'Inappropriate ioctl for device')``, and flash built
the firmware, then blamed "another program" for a file nobody held).

The check lives where ports are opened (``camelhost.device.transport``), so each tool
gets it; nothing is written to the path and a file named by mistake is left as it was."""

import os
import re

import pytest
from camelhost import cli

MAKER = "give the pyramid's port, --port auto, or --port virtual"
SEEN = r"\(serial ports seen: [^()]*\)"
#: what each kind of path is called: a regular file, a folder, /dev/null, /dev/tty
KINDS = ("a file", "a folder", "a device that is not a terminal",
         "the terminal of whichever program opens it",
         "a device node with no device behind it")


@pytest.fixture
def notes(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping: milk\n", encoding="utf-8")
    return str(path)


def _not_a_port(port, tail):
    return re.compile(r"%s is (%s), not a serial port %s; %s" % (
        re.escape(port), "|".join(KINDS), SEEN, re.escape(tail)))


def _paths(notes, tmp_path):
    return ["/dev/null", notes, str(tmp_path), "/dev/tty"]


@pytest.mark.parametrize("tool", ["monitor", "calibrate"])
def test_the_maker_tools_say_the_path_is_no_serial_port(tool, notes, tmp_path, capsys):
    for port in _paths(notes, tmp_path):
        assert cli.main([tool, "--port", port]) == 1
        out, err = capsys.readouterr()
        assert out == "", port
        lines = err.splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith("pyramid: "), lines
        assert _not_a_port(port, MAKER).fullmatch(lines[0][len("pyramid: "):]), lines[0]
    with open(notes, encoding="utf-8") as f:
        assert f.read() == "shopping: milk\n"  # nothing written to the file named by mistake


def test_doctor_fails_the_connection_with_that_line_and_no_flash_advice(notes, tmp_path,
                                                                         capsys):
    for port in _paths(notes, tmp_path):
        assert cli.main(["doctor", "--port", port]) == 1
        out, _err = capsys.readouterr()
        lines = out.splitlines()
        assert lines[0] == "pyramid doctor: %s" % port
        failed = re.fullmatch(r"  FAILED   connection  (.*)", lines[1])
        assert failed and re.fullmatch(r"%s is (%s), not a serial port %s" % (
            re.escape(port), "|".join(KINDS), SEEN), failed.group(1)), lines
        assert lines[2:] == ["                       fix: " + MAKER], lines
        assert "flash" not in out and "Errno" not in out and "ioctl" not in out


def test_doctor_says_dev_null_is_not_a_terminal_in_plain_english(capsys):
    """Tester s40, finding 3: it said ``/dev/null is a device that is no terminal``."""
    assert cli.main(["doctor", "--port", "/dev/null"]) == 1
    out, _err = capsys.readouterr()
    assert out.splitlines()[1].startswith(
        "  FAILED   connection  /dev/null is a device that is not a terminal, not a serial "
        "port (serial ports seen: "), out


def test_play_names_its_own_options_and_keeps_no_journal(notes, tmp_path, capsys,
                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--pyramid", notes]) == 1
    _out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.startswith("pyramid: ")]
    assert len(lines) == 1 and _not_a_port(notes, (
        "give the pyramid's port, --pyramid auto, --pyramid virtual, or --pyramid manual "
        "to type the dice")).fullmatch(lines[0][len("pyramid: "):]), err
    assert not os.path.exists(tmp_path / "journals") or not os.listdir(tmp_path / "journals")


def test_flash_refuses_before_it_builds(notes, tmp_path, capsys):
    build = tmp_path / "build"
    for port in ["/dev/null", notes]:
        assert cli.main(["flash", "--port", port, "--build-dir", str(build)]) == 1
        out, err = capsys.readouterr()
        assert out == "" and not build.exists(), out  # nothing built
        assert _not_a_port(port, "give the board's serial port, or --port auto").fullmatch(
            err.strip()[len("pyramid: "):]), err
        assert "another program" not in err


def test_the_check_names_the_kinds_of_path_that_are_no_serial_port(notes, tmp_path):
    from camelhost.device.transport import serial_port_problem

    assert serial_port_problem(notes) == "a file"
    assert serial_port_problem(str(tmp_path)) == "a folder"
    assert serial_port_problem("/dev/null") == "a device that is not a terminal"
    assert serial_port_problem("/dev/tty") == "the terminal of whichever program opens it"
    # what it leaves to the opening: a missing path (its own line), a pyserial URL
    assert serial_port_problem(str(tmp_path / "ttyACM9")) is None
    assert serial_port_problem("loop://") is None


@pytest.mark.process
def test_a_port_that_opened_but_stays_silent_is_not_called_unopenable(capsys):
    """Doctor said ``cannot open /dev/ttyS0: ... silence, no byte in 5 s`` for a port it
    did open: the line now says what it heard there, and no "cannot open"."""
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        assert cli.main(["monitor", "--port", port]) == 1
        err = capsys.readouterr().err
        assert err.startswith("pyramid: %s does not look like a smart pyramid (silence, no "
                              "byte in " % port), err
        assert "cannot open" not in err and err.count("\n") == 1
    finally:
        os.close(slave)
        os.close(master)
