"""QA finding: plain mode's private ``win``/``lose`` prompt must not echo the colour
typed on a real terminal (RULES 1.8, 5). The table runs behind a pty, as at a table."""

import os
import sys
import termios
import time

import pytest
from pty_table import MAIN, pyramid_on_a_pty, read_until

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pty (POSIX)")
def test_private_finish_card_colour_is_not_echoed_on_a_terminal(tmp_path):
    journal = str(tmp_path / "game.jsonl")
    shown = b""
    with pyramid_on_a_pty("play", "--plain", "--players", "Ann,Ben,Cy", "--seed", "3",
                          "--journal", journal) as fd:
        shown = read_until(fd, shown, b"setup")
        os.write(fd, (SETUP + "\n").encode())
        shown = read_until(fd, shown, b"Ann's turn")
        os.write(fd, b"win\n")
        shown = read_until(fd, shown, b"it is not shown")
        # the loop turns the terminal's echo off right after the prompt: wait for it
        # as a player would wait for the prompt (the pty's settings are shared)
        end = time.monotonic() + 10
        while termios.tcgetattr(fd)[3] & termios.ECHO and time.monotonic() < end:
            time.sleep(0.01)
        os.write(fd, b"purple\n")
        shown = read_until(fd, shown, b"Ben's turn")
        os.write(fd, b"quit\n")
        shown = read_until(fd, shown, b"game saved")
    text = shown.decode(errors="replace")
    assert "face down on the overall-winner pile" in text
    assert "purple" not in text.split("it is not shown", 1)[1]
    # the echo is back for what follows: 'quit' shows as typed
    assert "quit" in text.split("Ben's turn", 1)[1]
    # the card was really played (the journal keeps its colour, the screen never)
    with open(journal) as f:
        assert "finish winner purple" in f.read()


@pytest.mark.process
def test_private_finish_card_without_a_terminal_reads_a_line_and_never_prints_it(tmp_path):
    import subprocess
    script = "\n".join([SETUP, "win", "purple", "quit"]) + "\n"
    done = subprocess.run(
        [sys.executable, "-c", MAIN, "play", "--plain", "--players", "Ann,Ben,Cy",
         "--seed", "3", "--journal", str(tmp_path / "g.jsonl")],
        input=script, capture_output=True, text=True, timeout=60)
    out = done.stdout + done.stderr
    assert "face down on the overall-winner pile" in out
    assert "purple" not in out.split("it is not shown", 1)[1]


@pytest.mark.process
def test_a_colour_refused_at_the_private_prompt_is_asked_again_unseen(tmp_path):
    """QA: 'win', then 'pink' (no colour), then 'purple': the prompt was dropped, so
    'purple' was echoed on the shared screen and taken as a die."""
    import subprocess
    script = "\n".join([SETUP, "win", "pink", "purple", "quit"]) + "\n"
    journal = tmp_path / "g.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", MAIN, "play", "--plain", "--players", "Ann,Ben,Cy",
         "--seed", "3", "--journal", str(journal)],
        input=script, capture_output=True, text=True, timeout=60)
    out = done.stdout + done.stderr
    after = out.split("it is not shown", 1)[1]
    assert "type the colour again (it is not shown)" in after
    assert "finish winner|loser" not in out
    assert "face down on the overall-winner pile" in after
    assert "purple" not in after.replace("blue, green, yellow, red, purple", "")
    assert "finish winner purple" in journal.read_text()
