"""``--port auto`` finding no board (calibrate, monitor, doctor, flash) offers what a
missing port's line offers (``sources.instead_of_a_port``, the one source of those
words): a port and the simulated pyramid, then ``pyramid emulate`` (maker s43, finding
4: it offered ``--port PORT`` alone, where a missing ``/dev/ttyACM0`` named ``--port
virtual`` too), in doctor its step's line too (maker s44, finding 1), whose fix line
adds what to check and the commands to run (maker s45); ``pyramid flash``,
which needs a board, offers no ``--port virtual``."""

import pytest
from camelhost import cli
from camelhost.device.open import PORT_FORM_ENV
from serial.tools import list_ports

WITHOUT_A_BOARD = ("Without a board: pyramid emulate runs the firmware on an emulated Pico "
                   "and prints its port (docs/emulator.md)")


@pytest.fixture
def no_board(monkeypatch):
    """No RP2040 on USB, one other serial port."""
    from types import SimpleNamespace

    monkeypatch.setattr(list_ports, "comports",
                        lambda: [SimpleNamespace(device="/dev/ttyS0", vid=None)])
    monkeypatch.delenv(PORT_FORM_ENV, raising=False)


def _found_none(offered):
    return ("no smart pyramid found (no USB serial port with vendor id 0x2E8A; ports seen: "
            "/dev/ttyS0). Plug it in, or give %s. %s" % (offered, WITHOUT_A_BOARD))


@pytest.mark.parametrize("command", [["calibrate", "--no-save"], ["monitor"]])
def test_port_auto_without_a_board_offers_the_virtual_pyramid(command, no_board, capsys):
    assert cli.main(command + ["--port", "auto"]) == 1
    assert capsys.readouterr().err == "pyramid: %s\n" % _found_none(
        "--port PORT or --port virtual (the simulated pyramid)")


def test_doctors_connection_step_offers_the_virtual_pyramid(no_board, capsys):
    """As calibrate and monitor offer it (maker s44, finding 1); its fix line adds what
    the step's line does not say, what to check and the commands to run, and repeats
    none of its offers (maker s45: it restated them)."""
    assert cli.main(["doctor", "--port", "auto"]) == 1
    out = capsys.readouterr().out
    assert _found_none("--port PORT or --port virtual (the simulated pyramid)") in out, out
    fix = [line.strip() for line in out.splitlines() if line.strip().startswith("fix:")]
    assert fix == ["fix: check that the USB cable carries data (a charge-only one gives no "
                   "port) and that the board has MicroPython (without it, it shows a drive "
                   "called RPI-RP2, no port: hardware/README.md, 'Flashing'); then run "
                   "pyramid doctor again, or pyramid doctor --port PORT with the port "
                   "pyramid emulate printed"], out
    for offer in ("--port virtual", "simulated", "Plug", "plug", "emulated Pico"):
        assert offer not in fix[0], fix


def test_doctors_fix_for_the_port_auto_found_is_that_ports(monkeypatch, tmp_path, capsys):
    """``auto`` found a board that did not answer: the fix names that port, not the
    checks of a board that is not on USB at all."""
    from types import SimpleNamespace

    from camelhost.errors import CliError
    from camelhost.tools import monitor

    board = tmp_path / "ttyACM0"
    board.write_text("")
    board = str(board)
    monkeypatch.setattr(list_ports, "comports",
                        lambda: [SimpleNamespace(device=board, vid=0x2E8A)])

    def silent(port, **options):  # there, but no pyramid answers on it
        raise CliError("no answer from %s in 5 s" % port)

    monkeypatch.setattr(monitor, "connect", silent)
    assert cli.main(["doctor", "--port", "auto"]) == 1
    out = capsys.readouterr().out
    fix = [line.strip() for line in out.splitlines() if line.strip().startswith("fix:")]
    assert fix == ["fix: check that the pyramid is plugged in and that %s is its port; if it "
                   "is and still does not answer, flash it (pyramid flash --port %s), then run "
                   "pyramid doctor --port %s again" % (board, board, board)], out


def test_flash_without_a_board_offers_no_virtual_pyramid(no_board, tmp_path, capsys):
    assert cli.main(["flash", "--port", "auto", "--build-dir", str(tmp_path / "b")]) == 1
    assert capsys.readouterr().err == "pyramid: %s\n" % _found_none("--port PORT")
