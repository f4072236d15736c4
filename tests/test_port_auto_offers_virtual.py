"""``--port auto`` finding no board (calibrate, monitor, doctor, flash) offers what a
missing port's line offers (``sources.instead_of_a_port``, the one source of those
words): a port and the simulated pyramid, then ``pyramid emulate`` (maker s43, finding
4: it offered ``--port PORT`` alone, where a missing ``/dev/ttyACM0`` named ``--port
virtual`` too), in doctor its fix line too (maker s44, finding 1); ``pyramid flash``,
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
    """Its fix line too, as calibrate and monitor offer it (maker s44, finding 1: the fix
    offered ``pyramid emulate`` alone)."""
    assert cli.main(["doctor", "--port", "auto"]) == 1
    out = capsys.readouterr().out
    assert _found_none("--port PORT or --port virtual (the simulated pyramid)") in out, out
    fix = [line.strip() for line in out.splitlines() if line.strip().startswith("fix:")]
    assert fix == ["fix: plug the pyramid in by USB and run pyramid doctor again, or give "
                   "--port PORT or --port virtual (the simulated pyramid); without a board, "
                   "pyramid emulate prints a port to give as --port"], out


def test_flash_without_a_board_offers_no_virtual_pyramid(no_board, tmp_path, capsys):
    assert cli.main(["flash", "--port", "auto", "--build-dir", str(tmp_path / "b")]) == 1
    assert capsys.readouterr().err == "pyramid: %s\n" % _found_none("--port PORT")
