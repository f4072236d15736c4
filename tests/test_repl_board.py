"""A board at MicroPython's prompt (safe boot, or MicroPython without the pyramid
firmware) is said to be one, at once, by every tool, and ``play`` starts no game on it
(s36 tester, finding 6): its echo of the host's lines, its ``>>> `` prompt and its
``SyntaxError`` are recognised, not only the boot banner a first tool consumed.

The board is MicroPython's own REPL (the unix port, the same REPL code as the rp2
build's) behind a pseudo-terminal, its banner read away before the tool opens the port,
as on a board a tool already opened once.
"""

import glob
import os
import select
import subprocess
import threading
import time
import tty

import pytest
from camelhost import cli
from camelhost.device.link import IDENTIFY_S, Link, NotAPyramid
from camelhost.device.micropython import find_micropython, micropython_command
from camelup.board import protocol

SAID = ("the board on %s is at the MicroPython prompt, the pyramid firmware not running (safe "
        "boot, or not flashed): unplug and replug it without holding the slider (an emulated "
        "Pico: c in its terminal), or pyramid flash --port %s")


class ReplBoard:
    """MicroPython's REPL on the far end of a pseudo-terminal pair: ``port`` is the path a
    tool opens; a thread copies bytes between the REPL's terminal and the tool's."""

    def __init__(self):
        exe = find_micropython()
        if exe is None:
            pytest.skip("micropython unix port missing")
        self._repl_master, repl_slave = os.openpty()
        tty.setraw(repl_slave)
        self.proc = subprocess.Popen(micropython_command(exe) + ["-i"], stdin=repl_slave,
                                     stdout=repl_slave, stderr=repl_slave,
                                     env=dict(os.environ, MICROPYPATH=".frozen"))
        os.close(repl_slave)
        self._tool_master, self._tool_slave = os.openpty()
        tty.setraw(self._tool_slave)
        self.port = os.ttyname(self._tool_slave)
        self.banner = self._read_until(b">>> ")  # the banner: gone before any tool opens
        self._stop = False
        self._thread = threading.Thread(target=self._bridge, daemon=True)
        self._thread.start()

    def _read_until(self, mark, timeout=20.0):
        got = b""
        deadline = time.monotonic() + timeout
        while mark not in got and time.monotonic() < deadline:
            ready, _, _ = select.select([self._repl_master], [], [], 0.1)
            if ready:
                got += os.read(self._repl_master, 4096)
        assert mark in got, got
        return got

    def _bridge(self):
        ends = {self._repl_master: self._tool_master, self._tool_master: self._repl_master}
        while not self._stop:
            ready, _, _ = select.select(list(ends), [], [], 0.05)
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                    os.write(ends[fd], data)
                except OSError:
                    return

    def close(self):
        self._stop = True
        self._thread.join(2)
        self.proc.kill()
        self.proc.wait()
        for fd in (self._repl_master, self._tool_master, self._tool_slave):
            os.close(fd)


@pytest.fixture
def board():
    b = ReplBoard()
    yield b
    b.close()


@pytest.mark.process
def test_the_link_refuses_a_repl_without_its_banner_at_once_in_one_line(board):
    assert b"MicroPython" in board.banner
    link = Link(board.port, hello_wait=3.0)
    start = time.monotonic()
    with pytest.raises(NotAPyramid) as info:
        link.open()
    assert str(info.value) == SAID % (board.port, board.port)
    # within the wait for a HELLO, not the 5 s of "does not look like a smart pyramid"
    assert time.monotonic() - start < IDENTIFY_S
    assert not link.transport.is_open
    assert link.stats["bad_lines"] == 0  # the REPL's lines are no damaged lines


@pytest.mark.process
@pytest.mark.parametrize("tool", [["doctor", "--port"], ["monitor", "--count", "1", "--port"],
                                  ["calibrate", "--samples", "3", "--port"]])
def test_every_maker_tool_says_it_in_the_same_one_line(board, tool, capsys):
    status = cli.main(tool + [board.port])
    out, err = capsys.readouterr()
    assert status != 0
    said = SAID % (board.port, board.port)
    assert said in out + err, out + err
    assert "noisy" not in out + err and "USB cable" not in out + err


@pytest.mark.process
def test_play_refuses_it_before_a_game_starts_and_leaves_no_journal(board, capsys, tmp_path,
                                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    status = cli.main(["play", "--plain", "--pyramid", board.port, "--players", "Ann,Ben,Cy",
                       "--bots", "Ben,Cy", "--seed", "3"])
    out, err = capsys.readouterr()
    assert status != 0
    assert err.strip().splitlines() == ["pyramid: " + SAID % (board.port, board.port)], err
    assert "seed:" not in out and "turn" not in out
    assert glob.glob(str(tmp_path / "**" / "*.jsonl"), recursive=True) == []


def test_a_host_line_echoed_back_is_no_line_of_a_pyramid():
    # the REPL's echo of the link's own HELLO? passes its checksum: not a pyramid's line
    link = Link("loop://")
    link.feed(protocol.encode("HELLO?", s=True))
    assert link.lines_heard == 0 and link.at_repl is not None


class _Clock:
    """The link's clock, moved on by its own waits (``Link(clock=...)``): what the REPL
    sends is fed before the wait, as the reader thread would hand it over."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.now += max(0.0, seconds)


@pytest.mark.parametrize("talk", [
    b"MicroPython v1.22.0 on 2024-01-05; Raspberry Pi Pico with RP2040\r\n>>> ",  # the banner
    b">>> ",  # the prompt alone (a tool opened it before)
    b'Traceback (most recent call last):\r\n  File "<stdin>", line 1\r\nSyntaxError: invalid syntax\r\n',
])
def test_any_sign_of_the_repl_is_said_before_the_wait_for_a_hello_ends(talk):
    # on the link's own clock (tests/test_link.py's wrong devices wait out IDENTIFY_S)
    clock = _Clock()
    link = Link("loop://", hello_wait=3.0, clock=clock)
    link.transport.open = lambda: link.feed(talk)  # the port opens with the REPL's bytes
    link.transport.close = lambda restore=False: None
    with pytest.raises(NotAPyramid) as info:
        link.open()
    assert clock.now - 1000.0 < 0.05
    assert str(info.value) == SAID % ("loop://", "loop://")
