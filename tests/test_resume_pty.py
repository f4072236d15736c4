"""A game played on a pseudo-terminal's pyramid (``pyramid emulate``) is not resumed onto
that name by itself (tester s34, finding 1): once the emulator ended, the name may be
another program's terminal, which the probe wrote ``HELLO?`` lines into and left set up
as a serial line. The resume asks for the port; the quit line names ``--pyramid PORT``."""

import os
import termios
from types import SimpleNamespace

import pytest
from camelhost import cli
from camelhost.commands.play import resume_command
from camelhost.table.journal import Journal
from camelhost.table.session import Session

pytestmark = pytest.mark.process  # a pseudo-terminal stands for another program's terminal

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


def test_resume_does_not_open_the_journals_pseudo_terminal_by_itself(tmp_path, monkeypatch,
                                                                     capsys):
    master, slave = os.openpty()  # another program's terminal, now holding the old name
    try:
        port = os.ttyname(slave)
        before = termios.tcgetattr(slave)
        path = _journal_played_on(str(tmp_path / "g.jsonl"), port)
        monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
        rc = cli.main(["play", "--plain", "--resume", path])
        err = capsys.readouterr().err
        assert rc != 0
        assert ("the game was played with the pyramid on the pseudo-terminal %s" % port) in err
        assert "pyramid play --resume %s --pyramid PORT" % path in err
        assert _nothing_waiting(master)  # no HELLO? written into that terminal
        assert termios.tcgetattr(slave) == before  # nor set up as a serial line
        # with the port given, the table plays on (here: the dice typed)
        monkeypatch.setattr("sys.stdin", iter(["leg blue\n", "quit\n"]))
        assert cli.main(["play", "--plain", "--resume", path, "--pyramid", "manual"]) == 0
        out = capsys.readouterr().out
        assert "resumed %s" % path in out
    finally:
        os.close(master)
        os.close(slave)


def test_the_quit_line_of_a_pseudo_terminal_game_asks_for_its_port(tmp_path):
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        path = _journal_played_on(str(tmp_path / "g.jsonl"), port)
        journal = Journal.resume(path)
        try:
            # the options resume_command reads: no --speak, --web or --lang given
            args = SimpleNamespace(speak=False, web=None, lang=None)
            command = resume_command(args, journal, port, plain=True)
        finally:
            journal.close()
        assert command == "pyramid play --resume %s --plain --pyramid PORT" % path
    finally:
        os.close(master)
        os.close(slave)
