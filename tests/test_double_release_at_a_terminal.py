"""s36 tester finding 16 as the tester met it: ``pyramid play --plain`` at a terminal
(a pty) with the virtual pyramid, ``pyramid`` and then ``release`` typed twice at once
(an impatient double press). The first push's die is Ann's; the second line, read after
that die came, is refused in one line (it was typed before the table moved on): Ben's
turn is not spent on a die Ann's double press released, and the journal holds one
pyramid ticket and one die."""

import os
import pty
import sys

import pytest
from camelhost.table.journal import read_events
from test_play_private_echo import MAIN, _read_until

pytestmark = [pytest.mark.process,  # the table behind a pty, its virtual pyramid's firmware
              pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pty (POSIX)")]


def test_a_double_release_at_a_terminal_is_never_the_next_players_pyramid_ticket(tmp_path):
    journal = str(tmp_path / "j62.jsonl")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the tester's table on the pty's terminal side
        try:
            os.execv(sys.executable, [sys.executable, "-c", MAIN, "play", "--plain",
                                      "--players", "Ann,Ben,Cy", "--pyramid", "virtual",
                                      "--seed", "62", "--journal", journal])
        finally:
            os._exit(127)
    shown = b""
    try:
        shown = _read_until(fd, shown, b"Ann's turn", timeout=60)
        os.write(fd, b"pyramid\n")
        shown = _read_until(fd, shown, b"release a die from the pyramid")
        os.write(fd, b"release\nrelease\n")  # both at once
        shown = _read_until(fd, shown, b"so nothing is done; it is Ben's turn")
        os.write(fd, b"quit\n")
        shown = _read_until(fd, shown, b"game saved")
    finally:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    text = shown.decode(errors="replace").replace("\r", "")
    refused = [line for line in text.splitlines() if line.startswith("! release: typed ")]
    # typed while Ann's ticket waited for its die (or, read before that was noted,
    # before Ann played): either way said, and nothing pushed
    assert len(refused) == 1 and refused[0].endswith("so nothing is done; it is Ben's turn"), text
    assert "Ben takes a pyramid ticket" not in text
    moves = [e for e in read_events(journal) if e["type"] in ("pyramid", "die", "action")]
    assert [e["type"] for e in moves] == ["pyramid", "die"], moves
