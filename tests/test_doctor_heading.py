"""``pyramid doctor`` with ``--port auto`` (its default) names the port it found, or
that it found none (tester s35 finding 7: its heading read ``pyramid doctor: auto``
either way)."""

from types import SimpleNamespace

import pytest
from camelhost import cli


def _usb(monkeypatch, *ports):
    """The serial ports the system lists: ``(path, USB vendor id)`` each."""
    import serial.tools.list_ports
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [
        SimpleNamespace(device=path, vid=vid) for path, vid in ports])


def test_doctor_auto_names_the_port_it_found(tmp_path, monkeypatch, capsys):
    board = str(tmp_path / "ttyACM7")  # an RP2040 listed, gone before it opens
    _usb(monkeypatch, ("/dev/ttyS0", None), (board, 0x2E8A))
    assert cli.main(["doctor"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "pyramid doctor: %s (found by --port auto)" % board
    assert lines[1].split()[:2] == ["FAILED", "connection"] and board in lines[1]


@pytest.mark.parametrize("lang, heading", [
    ("en", "pyramid doctor: --port auto found no pyramid on USB"),
    ("de", "pyramid doctor: --port auto hat keine Pyramide am USB gefunden")])
def test_doctor_auto_says_it_found_none(monkeypatch, capsys, lang, heading):
    _usb(monkeypatch, ("/dev/ttyS0", None))
    assert cli.main(["doctor", "--lang", lang]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == heading
    assert lines[1].split()[1] in ("connection", "Verbindung")
    assert "0x2E8A" in lines[1] and "/dev/ttyS0" in lines[1]  # what it looked for and saw
    assert len(lines) == 3  # the heading, the failed step and its fix
