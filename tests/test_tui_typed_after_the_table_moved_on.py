"""The full screen at a terminal (a pty), as the plain mode's
``test_double_release_at_a_terminal.py``: ``pyramid play`` with the virtual pyramid and
two bots, Ann at the keyboard typing each line the instant the screen shows the prompt
it answers, round after round of a whole race (bots playing, dice on their way between).

The full screen dates a typed line by the table's moment noted after each table call
(``TableApp._journaled``), and Textual draws the screen only after the call returns: a
line typed once the prompt shows is dated to the moment the prompt asks in, so it is
taken, never refused as typed before the table moved on (plain mode's race: a prompt
printed inside the call, the moment noted after it, a line typed between refused; it
showed only on a loaded machine). A release pressed twice at once is one push: the
second is refused in one line, whether the screen reads it while the die is on its way
or after the bots played (before s37 the two were taken as one line, ``releaserelease``,
refused as unknown, and no die came). Each race is played out, its every round so; a race
on a loaded machine fails a round. Seeded; the only timing is the hang guard."""

import os
import re

import pytest
from camelhost.table.journal import read_events

pytestmark = [pytest.mark.process,  # the table behind a pty, its virtual pyramid's firmware
              pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pty (POSIX)")]

TURN = b"> Ann's turn"
RELEASE = b"> Ann: release a die"
OVER = b"race over"
#: the race ends well within this many of Ann's turns (three seats, a die each of hers)
MOST_ROUNDS = 40


def screen(raw):
    """The rows ``raw`` (a terminal's bytes) wrote, as text: each row's last words."""
    text = re.sub(r"\x1b\[(\d+);\d+H", lambda m: "\n%s| " % m.group(1),
                  raw.decode(errors="replace"))
    rows = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).splitlines()
    return "\n".join(r for r in rows if not r.startswith("24|"))[-3000:]  # not the cursor


def read_any(fd, needles, timeout=60.0):
    """What the terminal ``fd`` shows until one of ``needles`` (bytes) shows, within
    ``timeout`` seconds of wall time (a hang guard: ``AssertionError`` quoting it)."""
    import select
    import time
    seen, end = b"", time.monotonic() + timeout
    while not any(n in seen for n in needles):
        left = end - time.monotonic()
        assert left > 0, (needles, screen(seen))
        if select.select([fd], [], [], min(left, 0.5))[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            assert chunk, (needles, screen(seen))  # the table ended
            seen += chunk
    return seen


def pyramid_screen(journal, seed):
    """``pyramid play`` on the full screen (80x24) behind a new pty, Ann at the keyboard,
    Ben and Cy bots, the virtual pyramid, ``seed``: ``(pid, fd)``."""
    import fcntl
    import pty
    import struct
    import sys
    import termios

    from pty_table import MAIN
    pid, fd = pty.fork()
    if pid == 0:  # the child: the full screen on the pty's terminal side
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
            os.environ.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8",
                              LANGUAGE="en")
            os.execv(sys.executable, [sys.executable, "-c", MAIN, "play", "--edition", "second",
                                      "--players", "Ann,Ben,Cy", "--bots", "Ben,Cy",
                                      "--pyramid", "virtual", "--seed", str(seed),
                                      "--journal", journal])
        finally:
            os._exit(127)
    return pid, fd


@pytest.mark.parametrize("seed", [62, 7])  # 23 and 20 rounds: a whole race each
def test_lines_typed_the_instant_their_prompt_shows_are_taken_round_after_round(tmp_path, seed):
    journal = str(tmp_path / "j.jsonl")
    pid, fd = pyramid_screen(journal, seed)
    rounds, refusals = 0, []
    try:
        read_any(fd, (TURN,))
        while rounds < MOST_ROUNDS:
            os.write(fd, b"pyramid\r")  # the instant Ann's turn shows
            read_any(fd, (RELEASE,))
            os.write(fd, b"release\rrelease\r")  # the instant the die is asked for: twice
            rounds += 1
            seen = read_any(fd, (TURN, OVER))
            refusals += re.findall(rb"! (\w+): typed before", seen)
            if TURN not in seen:
                break
        os.write(fd, b"\x11")  # Ctrl-Q
    finally:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    events = read_events(journal)
    tickets = [e for e in events if e["type"] == "pyramid"]
    dice = [e for e in events if e["type"] == "die"]
    anns = [e for e in tickets if e.get("player") == 0]
    assert rounds >= 5, rounds
    # every 'pyramid' Ann typed the instant her turn showed was hers
    assert len(anns) == rounds, (rounds, len(anns))
    # never one typed after its prompt refused as typed before (only a double press's
    # second release may be)
    assert set(refusals) <= {b"release"}, refusals
    # one die for each pyramid ticket: a double press pushed once
    assert len(dice) == len(tickets), (len(dice), len(tickets))
