"""``make flash`` without a board names the port in make's form (``make flash
PORT=/dev/ttyACM0``, the README's), not ``--port PORT``, which make does not take (tester
s36tm, finding 17): the Makefile's flash target tells ``pyramid flash`` the form
(``camelhost.device.open.PORT_FORM_ENV``); ``pyramid flash`` run itself keeps ``--port``."""

import os
import shlex
import subprocess

import pytest
from camelhost import cli
from camelhost.device.open import PORT_FORM_ENV
from serial.tools import list_ports

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def no_board(monkeypatch):
    """No serial port at all (a machine without the pyramid plugged in)."""
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    monkeypatch.delenv(PORT_FORM_ENV, raising=False)


def _make_flash_recipe():
    """The command ``make flash`` runs (``make -n``: printed, not run): its environment
    assignments and its words."""
    out = subprocess.run(["make", "-n", "flash", "PORT=auto"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    line = [line for line in out.splitlines() if "pyramid flash" in line][-1]
    words = shlex.split(line)
    program = next(i for i, word in enumerate(words) if word.endswith("/pyramid"))
    return dict(word.split("=", 1) for word in words[:program]), words[program:]


@pytest.mark.process
def test_make_flash_without_a_board_names_the_port_as_make_takes_it(no_board, monkeypatch,
                                                                    tmp_path, capsys):
    env, words = _make_flash_recipe()
    assert words[1:] == ["flash", "--port", "auto"], words
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    build = tmp_path / "b"
    assert cli.main(words[1:] + ["--build-dir", str(build)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pyramid: no smart pyramid found (no USB serial port with vendor id "
                          "0x2E8A; ports seen: none). Plug it in, or name its port: make "
                          "flash PORT=/dev/ttyACM0. Without a board: "), err
    assert "--port" not in err, err
    assert not build.exists()


@pytest.mark.process
def test_make_flash_to_a_missing_port_says_port_auto_and_emulate(no_board, monkeypatch,
                                                                  tmp_path, capsys):
    """Tester s40, finding 1: ``make flash PORT=/dev/ttyACM0`` with no board told the make
    user to give ``--port auto`` and, unlike the other maker's tools, not of ``pyramid
    emulate``."""
    env, words = _make_flash_recipe()
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    missing = str(tmp_path / "ttyACM0")
    build = tmp_path / "b"
    assert cli.main(["flash", "--port", missing, "--build-dir", str(build)]) == 1
    err = capsys.readouterr().err
    assert err == ("pyramid: no such port %s (serial ports seen: none); plug the board in, "
                   "or give PORT=auto for the first RP2040 on USB. Without a board: pyramid "
                   "emulate runs the firmware on an emulated Pico and prints its port "
                   "(docs/emulator.md)\n" % missing), err
    assert not build.exists()


def test_pyramid_flash_itself_without_a_board_keeps_its_option(no_board, tmp_path, capsys):
    assert cli.main(["flash", "--port", "auto", "--build-dir", str(tmp_path / "b")]) == 1
    err = capsys.readouterr().err
    assert "Plug it in, or give --port PORT. Without a board: " in err, err  # no virtual
    assert "make flash" not in err, err


@pytest.mark.process
def test_make_flash_says_it_in_german_too(no_board, monkeypatch, tmp_path, capsys):
    env, words = _make_flash_recipe()
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    try:
        assert cli.main(words[1:] + ["--lang", "de", "--build-dir", str(tmp_path)]) == 1
    finally:
        from camelhost.i18n import set_language
        set_language("en")
    err = capsys.readouterr().err
    assert ("Schließe sie an, oder nenne ihren Anschluss: make flash PORT=/dev/ttyACM0. "
            in err), err
