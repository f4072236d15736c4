"""The maker's path between the steps (tester 4, finding 16): ``emulate --fresh`` names
the next command, ``q`` says the board stopped, ``flash`` ends with the next step. The
emulator and mpremote are scripted stand-ins here (their own tests start them)."""

import io
import os
import sys

import pytest
from camelhost import cli


class _FakeBoard:
    """What ``emulate`` needs of ``EmulatedPyramid``, without Node or the RP2040."""

    def __init__(self, uf2=None, fresh=False, port=None, **kwargs):
        self.uf2 = uf2
        self.fresh = fresh
        self.port = port
        self.edition = "second"
        self.closed = False
        self.emitted = []  # (time, message) the board sent: emulate watches it for new boots
        self.resets = []  # (emulated ms, reason) of its chip resets: emulate says them too

    def start(self):
        pass

    def wait_hello(self, timeout):
        assert not self.fresh, "a fresh board has no firmware to say HELLO"
        return {"fw": "1.0", "ed": "second"}

    def close(self):
        self.closed = True


@pytest.fixture
def emulator(monkeypatch, tmp_path):
    from camelhost.device import emulated, uf2

    port = tmp_path / "pts5"
    port.write_text("")
    boards = []

    def make(**kwargs):
        boards.append(_FakeBoard(port=str(port), **kwargs))
        return boards[-1]

    monkeypatch.setattr(emulated, "node_runner", lambda: ["node", "board.cjs"])
    monkeypatch.setattr(emulated, "find_uf2", lambda given: "/uf2/pico.uf2")
    monkeypatch.setattr(uf2, "check", lambda path: 1)
    monkeypatch.setattr(emulated, "EmulatedPyramid", make)
    return os.path.realpath(str(port)), boards


def test_a_fresh_emulated_board_names_the_flash_command_and_q_says_it_stopped(
        emulator, monkeypatch, capsys):
    port, boards = emulator
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert cli.main(["emulate", "--fresh"]) == 0
    out = capsys.readouterr().out
    assert "no pyramid firmware on it yet: in another terminal, run pyramid flash --port %s" \
        % port in out, out
    assert out.rstrip().endswith("powered off: the emulated Pico stopped and its serial port "
                                 "is gone"), out
    assert boards[0].closed


def test_a_flashed_emulated_board_does_not_ask_for_the_firmware(emulator, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the end of input powers it off too
    assert cli.main(["emulate"]) == 0
    out = capsys.readouterr().out
    assert "pyramid firmware 1.0 running" in out and "no pyramid firmware" not in out
    assert out.rstrip().endswith("powered off: the emulated Pico stopped and its serial port "
                                 "is gone"), out


@pytest.mark.parametrize("argv, expect", [
    (["--port", "/dev/pts/5"],
     "the board restarts into the pyramid firmware; next, the bring-up checklist: "
     "pyramid doctor --port /dev/pts/5"),
    ([], "next, the bring-up checklist: pyramid doctor"),
    (["--port", "/dev/pts/5", "--no-reset"],
     "press its reset button or plug it in again to start the pyramid firmware, then run "
     "pyramid doctor --port /dev/pts/5"),
])
def test_flash_ends_with_the_next_step(monkeypatch, capsys, argv, expect):
    from camelhost.device import flash

    copied = {}

    def fake_flash(port, **kwargs):
        copied["port"] = port
        return {"lib/pyramid/main.mpy": 1234}

    monkeypatch.setattr(flash, "flash", fake_flash)
    monkeypatch.setattr("camelhost.device.open.find_rp2040_port",
                        lambda option, virtual=True: "/dev/ttyACM0")
    assert cli.main(["flash"] + argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].endswith("lib/pyramid/main.mpy")
    assert lines[-1].endswith(expect), lines


def test_the_doctors_slider_advice_names_a_section_the_hardware_readme_has():
    """A failed slider step points at the checklist for it (NO/NC swapped, the pull-up
    missing), and the checklist before the first power-up is there too."""
    import ast
    import re

    from camelhost import paths
    from camelhost.commands import doctor

    with open(os.path.join(paths.REPO_ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        headings = [line.lstrip("#").strip() for line in f if line.startswith("#")]
    with open(doctor.__file__, encoding="utf-8") as f:
        tree = ast.parse(f.read())  # adjacent literals come joined
    texts = [n.value for n in ast.walk(tree)
             if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    named = [m for t in texts for m in re.findall(r"hardware/README\.md, '([^']+)'", t)]
    assert "When the slider is not seen" in named
    assert [n for n in named if n not in headings] == []
    assert "Before you plug it in" in headings


# --- device options: one meaning each (tester 4, finding 13) ---------------------


def _help(capsys, argv):
    with pytest.raises(SystemExit):
        cli.main(argv + ["--help"])
    return " ".join(capsys.readouterr().out.split())


def test_auto_reads_the_same_in_every_command_that_takes_a_port(capsys):
    said = "'auto' (first RP2040 on USB)"
    for command in ("flash", "doctor", "monitor", "calibrate"):
        assert said in _help(capsys, [command]), command
    assert "first USB serial board" not in _help(capsys, ["flash"])


def test_flash_auto_takes_the_first_rp2040_as_the_other_commands_do(monkeypatch, capsys):
    from camelhost.device import flash
    from serial.tools import list_ports

    class Port:
        def __init__(self, device, vid):
            self.device, self.vid = device, vid

    monkeypatch.setattr(list_ports, "comports",
                        lambda: [Port("/dev/ttyUSB0", 0x0403), Port("/dev/ttyACM1", 0x2E8A)])
    copied = {}

    def fake_flash(port, **kwargs):
        copied["port"] = port
        return {"main.py": 10}

    monkeypatch.setattr(flash, "flash", fake_flash)
    assert cli.main(["flash"]) == 0
    assert copied["port"] == "/dev/ttyACM1"  # not the FTDI adapter listed first
    monkeypatch.setattr(list_ports, "comports", lambda: [Port("/dev/ttyUSB0", 0x0403)])
    assert cli.main(["flash", "--port", "auto"]) == 1
    err = capsys.readouterr().err
    assert "vendor id 0x2E8A" in err and "/dev/ttyUSB0" in err and err.count("\n") == 1, err


def test_doctors_push_wait_is_named_for_what_it_waits_for_and_the_old_name_works(
        monkeypatch, capsys):
    from camelhost.commands import doctor

    assert "--push-wait SECONDS how long to wait for the slider push" in _help(capsys, ["doctor"])
    seen = {}

    def fake_run(args, out=None, hardware=None):
        seen["wait"] = args.push_wait
        return 0

    monkeypatch.setattr(doctor, "run", fake_run)
    assert cli.main(["doctor", "--port", "/dev/pts/5", "--push-wait", "120"]) == 0
    assert seen["wait"] == 120.0 and capsys.readouterr().err == ""
    assert cli.main(["doctor", "--port", "/dev/pts/5", "--wait", "90"]) == 0
    assert seen["wait"] == 90.0
    assert capsys.readouterr().err == \
        "pyramid: note: --wait is now --push-wait (the old name still works for now)\n"
