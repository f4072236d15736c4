"""A game played on a pseudo-terminal's pyramid (``pyramid emulate``) is not resumed onto
that name once it is another program's terminal (tester s34, finding 1): the emulator
ended, a terminal window got its ``/dev/pts/N``, and ``--resume`` wrote ``HELLO?`` lines
into it and left it set up as a serial line. A pyramid's pseudo-terminal is no program's
controlling terminal; a terminal window's is its shell's."""

import os
import subprocess
import sys
import termios

import pytest
from camelhost import cli
from camelhost.table.journal import Journal
from camelhost.table.session import Session

pytestmark = pytest.mark.process  # a pseudo-terminal, and a program that has it

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _journal_played_on(path, port):
    with Journal(path, pyramid=port) as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=journal)
        for line in (SETUP, "leg red"):
            s.command(line)
    return path


def _nothing_waiting(fd):
    os.set_blocking(fd, False)
    try:
        return os.read(fd, 4096) == b""
    except BlockingIOError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc (Linux)")
def test_resume_does_not_open_a_pseudo_terminal_that_is_another_programs_terminal(
        tmp_path, monkeypatch, capsys):
    master, slave = os.openpty()
    # a terminal window's shell: the pseudo-terminal is its controlling terminal
    shell = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                             preexec_fn=lambda: os.login_tty(slave), pass_fds=(slave,))
    try:
        port = os.ttyname(slave)
        path = _journal_played_on(str(tmp_path / "g.jsonl"), port)
        before = termios.tcgetattr(slave)
        monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
        rc = cli.main(["play", "--plain", "--resume", path])
        err = capsys.readouterr().err
        assert rc != 0
        assert err == ("pyramid: the game was played with the pyramid on %s, which is now "
                       "another program's terminal (the pseudo-terminal the pyramid had "
                       "ended): it is not opened; give the pyramid's port now: pyramid play "
                       "--resume %s --pyramid PORT (or --pyramid manual to type the dice)\n"
                       % (port, path))
        assert _nothing_waiting(master)  # no HELLO? written into that terminal
        assert termios.tcgetattr(slave) == before  # nor set up as a serial line
        # with the port given, the table plays on (here: the dice typed)
        monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
        assert cli.main(["play", "--plain", "--resume", path, "--pyramid", "manual"]) == 0
        assert "resumed %s" % path in capsys.readouterr().out
    finally:
        shell.kill()
        shell.wait()
        os.close(master)
        os.close(slave)


def test_a_pyramids_own_pseudo_terminal_is_no_programs_terminal(tmp_path):
    from camelhost.commands.play import another_programs_terminal
    master, slave = os.openpty()  # as pyramid emulate and the virtual pyramid make theirs
    try:
        assert not another_programs_terminal(os.ttyname(slave))
        assert not another_programs_terminal("virtual")
        assert not another_programs_terminal(str(tmp_path / "gone"))
    finally:
        os.close(master)
        os.close(slave)
