"""``pyramid flash`` on a port that is no MicroPython board (tester s35-2, finding 5).

It built the firmware, waited mpremote's 120 s, blamed a running pyramid firmware, and
left the port a raw 115200-baud line (the next program in that terminal saw end-of-input
and its output staircased). Now it asks the port for MicroPython's prompt first (Return
and Ctrl-C, as mpremote's first step does) and says in one line within seconds that no
board answered, building nothing; and whatever mpremote does to a port's terminal
settings is undone when it ends.
"""

import os
import termios

import pytest
from camelhost import cli
from camelhost.device import flash

pytestmark = pytest.mark.process  # pseudo-terminals, mpremote


@pytest.fixture
def silent_terminal():
    """A pseudo-terminal nobody reads or answers on (cooked, echo, opost), as a pane whose
    program has ended leaves one: ``(path, slave fd)``."""
    master, slave = os.openpty()
    try:
        yield os.ttyname(slave), slave
    finally:
        os.close(master)
        os.close(slave)


def test_a_port_without_a_prompt_is_said_at_once_and_nothing_is_built(silent_terminal,
                                                                       tmp_path, capsys,
                                                                       monkeypatch):
    path, slave = silent_terminal
    before = termios.tcgetattr(slave)
    monkeypatch.setattr(flash, "MPREMOTE_TIMEOUT", 8.0)  # before the fix: its wait, shorter
    rc = cli.main(["flash", "--port", path, "--build-dir", str(tmp_path / "build")])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc != 0 and len(err) == 1, err
    assert err[0] == (
        "pyramid: %s does not look like a MicroPython board: no prompt after Ctrl-C within "
        "3.0 s, so nothing was copied. Check the port (the emulated Pico's is the one pyramid "
        "emulate printed; --port auto finds a Pico on USB); a Pico whose own program ignores "
        "Ctrl-C needs a safe boot first (hardware/README.md)" % path), err
    assert not (tmp_path / "build").exists()
    assert termios.tcgetattr(slave) == before


def test_mpremote_leaves_the_ports_terminal_settings_as_it_found_them(silent_terminal,
                                                                      monkeypatch):
    """Whatever mpremote did to the port (pyserial makes it raw) is given back when it ends,
    here when it gives up on a port that never answers."""
    path, slave = silent_terminal
    before = termios.tcgetattr(slave)
    monkeypatch.setattr(flash, "MPREMOTE_TIMEOUT", 3.0)
    with pytest.raises(flash.CliError, match="mpremote"):
        flash.probe(path)
    assert termios.tcgetattr(slave) == before


@pytest.mark.micropython
def test_a_running_firmware_whose_heartbeat_the_listen_missed_is_said_all_the_same(
        micropython, tmp_path, monkeypatch, capsys):
    """Tester s35-2 finding 11: on the emulated Pico, 5-15 times slower than the chip under
    load, the firmware's 2 s heartbeat can take longer than the 2.5 s listen, and flash
    then waited mpremote's 120 s. The Ctrl-C asking for the prompt also sends a HELLO?
    line, which the firmware answers: the safe boot is said before anything is built."""
    import subprocess

    from camelhost.device.virtual import VirtualPyramid

    real_run = subprocess.run
    started = []

    def hung(cmd, **kwargs):
        if not os.path.basename(cmd[0]).startswith("mpremote"):
            return real_run(cmd, **kwargs)
        started.append(cmd)
        raise subprocess.TimeoutExpired(cmd, kwargs.get("timeout"))

    monkeypatch.setattr(flash.subprocess, "run", hung)
    monkeypatch.setattr(flash, "running_firmware", lambda port, wait=None: None)  # missed
    with VirtualPyramid("second", seed=3) as vp:
        rc = cli.main(["flash", "--port", vp.port, "--build-dir", str(tmp_path / "build")])
    err = capsys.readouterr().err
    assert rc == 1 and started == [], (err, started)
    assert err.startswith("pyramid: the pyramid firmware is running on %s: it ignores "
                          "mpremote, so nothing was copied. Safe boot it first: " % vp.port), err
    assert not (tmp_path / "build").exists()
