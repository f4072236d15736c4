"""``--port id:<serial>`` (mpremote's form for a board by its USB serial number, which
``pyramid flash`` hands on) in every maker's tool (maker s45, finding 3): monitor,
doctor and calibrate read it as a missing port, and ``pyramid flash --port id:ABC``
built the firmware before mpremote refused it. One parser of the port forms
(``transport.port_path``): a board with that serial number is opened at its port; none
is one line naming the port and the serial ports seen, each with its ``id:``, before
anything is read, built or copied. ``port:PATH``, mpremote's other form, is that
path."""

from types import SimpleNamespace

import pytest
from camelhost import cli
from camelhost.device import flash, transport
from camelhost.device.open import PORT_FORM_ENV
from camelhost.tools import monitor
from pty_board import Board
from serial.tools import list_ports

PICO = "E6614103E7452D2F"
SEEN = "/dev/ttyACM0 (id:%s), /dev/ttyS0" % PICO
WITHOUT_A_BOARD = ("Without a board: pyramid emulate runs the firmware on an emulated Pico "
                   "and prints its port (docs/emulator.md)")


def _ports(monkeypatch, *ports):
    """The serial ports the system lists: ``(path, USB serial number or None)`` each."""
    monkeypatch.setattr(list_ports, "comports", lambda: [
        SimpleNamespace(device=path, serial_number=number, vid=0x2E8A if number else None)
        for path, number in ports])


@pytest.fixture
def another_pico(monkeypatch):
    """A Pico with another serial number, and a port without one."""
    _ports(monkeypatch, ("/dev/ttyS0", None), ("/dev/ttyACM0", PICO))
    monkeypatch.delenv(PORT_FORM_ENV, raising=False)


def _none_has(offered):
    return ("cannot open id:ABC: no USB serial port has the serial number ABC (serial ports "
            "seen: %s). Plug the pyramid in, or give %s. %s" % (SEEN, offered, WITHOUT_A_BOARD))


@pytest.mark.parametrize("argv", [["monitor", "--count", "1"], ["calibrate", "--no-save"]])
def test_a_serial_number_no_port_has_is_one_line_naming_the_ids_seen(argv, another_pico,
                                                                      capsys):
    assert cli.main(argv + ["--port", "id:ABC"]) == 1
    assert capsys.readouterr().err == "pyramid: %s\n" % _none_has(
        "--port auto (the first RP2040 on USB) or --port virtual (the simulated pyramid)")


def test_doctors_connection_step_names_the_serial_number_and_nothing_to_flash(another_pico,
                                                                             capsys):
    assert cli.main(["doctor", "--port", "id:ABC"]) == 1
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert lines[1] == "FAILED   connection  " + _none_has(
        "--port auto (the first RP2040 on USB) or --port virtual (the simulated pyramid)")
    assert lines[2:] == ["fix: nothing is at id:ABC: plug the pyramid in by USB, then run "
                         "pyramid doctor, which finds it there, or give the port it gets"]


def test_flash_refuses_a_serial_number_no_port_has_before_building(another_pico, monkeypatch,
                                                                  tmp_path, capsys):
    started = []
    monkeypatch.setattr(flash.subprocess, "run", lambda cmd, **k: started.append(cmd))
    build = tmp_path / "build"
    assert cli.main(["flash", "--port", "id:ABC", "--build-dir", str(build)]) == 1
    assert capsys.readouterr().err == "pyramid: %s\n" % _none_has(
        "--port auto (the first RP2040 on USB)")
    assert started == [] and not build.exists()  # no mpy-cross, no mpremote


def test_make_flash_names_its_own_form(another_pico, monkeypatch, capsys):
    monkeypatch.setenv(PORT_FORM_ENV, "make flash PORT=/dev/ttyACM0")
    assert cli.main(["flash", "--port", "id:ABC"]) == 1
    assert "or give PORT=auto. " in capsys.readouterr().err


def test_the_port_forms_have_one_parser(monkeypatch):
    _ports(monkeypatch, ("/dev/ttyS0", None), ("/dev/ttyACM3", PICO))
    assert transport.port_path("id:" + PICO) == "/dev/ttyACM3"
    assert transport.port_path("id:" + PICO.lower()) is None  # exactly, as mpremote
    assert transport.port_path("id:") is None
    assert transport.port_path("port:/dev/ttyACM3") == "/dev/ttyACM3"
    assert transport.port_path("/dev/ttyACM3") == "/dev/ttyACM3"
    assert transport.port_path("auto") == "auto"


@pytest.fixture
def listed_pico(monkeypatch):
    """A board answering as the firmware does on a pseudo-terminal (``pty_board.Board``,
    its uid ``PICO``), listed by the system as the USB serial port of that serial number,
    beside a port without one; closed when the test ends."""
    board = Board(uid=PICO)
    _ports(monkeypatch, ("/dev/ttyS0", None), (board.port, PICO))
    yield board
    board.close()


@pytest.mark.process  # a pseudo-terminal and a thread answering on it
@pytest.mark.parametrize("form", ["id:" + PICO, "port:%s"])
def test_monitor_opens_the_board_a_port_form_names(form, listed_pico):
    with monitor.connect(form.replace("%s", listed_pico.port)) as pyramid:
        assert pyramid.port == listed_pico.port
        assert pyramid.hello["uid"] == PICO


@pytest.mark.process  # a pseudo-terminal and a thread answering on it
def test_flash_hears_the_firmware_running_on_the_board_its_serial_number_names(monkeypatch,
                                                                              tmp_path):
    """Said before the build (``check_not_running``), as on a port given by its path;
    the id went unchecked to mpremote, which waited on the running firmware."""
    board = Board(uid=PICO, beat=0.2)
    try:
        _ports(monkeypatch, (board.port, PICO))
        assert flash.running_firmware("id:" + PICO) in ("HB", "HELLO")
    finally:
        board.close()


def test_play_refuses_a_serial_number_no_port_has_in_one_line(another_pico, tmp_path, capsys):
    """``play --pyramid id:ABC`` (maker s45b): read as a missing port before, naming no
    ids; now the line the maker's tools say, with play's offers, and no journal left."""
    journal = tmp_path / "g.jsonl"
    assert cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "id:ABC", "--plain",
                     "--journal", str(journal)]) == 1
    assert capsys.readouterr().err == (
        "pyramid: cannot open id:ABC: no USB serial port has the serial number ABC (serial "
        "ports seen: %s). Plug the pyramid in, or give --pyramid auto (the first RP2040 on "
        "USB), --pyramid virtual (the simulated pyramid) or --pyramid manual to type the "
        "dice\n" % SEEN)
    assert not journal.exists()


@pytest.mark.process  # a pseudo-terminal and a thread answering on it
@pytest.mark.parametrize("form", ["id:" + PICO, "port:%s"])
def test_plays_pyramid_opens_the_board_a_port_form_names(form, listed_pico):
    from camelhost.device.open import open_pyramid

    with open_pyramid(form.replace("%s", listed_pico.port), option="--pyramid") as pyramid:
        assert pyramid.port == listed_pico.port
        assert pyramid.link.hello["uid"] == PICO


@pytest.mark.parametrize("lang", ["en", "de"])
def test_doctors_heading_names_the_port_a_serial_number_found(lang, monkeypatch,
                                                              tmp_path, capsys):
    """The heading said ``id:E661...``, where ``auto`` names the port it found (maker
    s45b): the port and the id that found it."""
    gone = str(tmp_path / "ttyACM7")  # listed, gone before it opens
    _ports(monkeypatch, ("/dev/ttyS0", None), (gone, PICO))
    assert cli.main(["doctor", "--lang", lang, "--port", "id:" + PICO]) == 1
    heading = capsys.readouterr().out.splitlines()[0]
    tail = {"en": "found by --port id:%s)", "de": "von --port id:%s gefunden)"}[lang] % PICO
    assert heading.endswith(": %s (%s" % (gone, tail)), heading


def test_doctors_heading_names_the_path_of_port_path(monkeypatch, tmp_path, capsys):
    gone = str(tmp_path / "ttyACM7")
    _ports(monkeypatch, ("/dev/ttyS0", None))
    cli.main(["doctor", "--port", "port:" + gone])
    assert capsys.readouterr().out.splitlines()[0] == "pyramid doctor: %s" % gone
