"""The pyramid's firmware crashes to MicroPython's ``>>>`` prompt mid-game: the table says
so in one line (what happened, the dice typed meanwhile, the replug that restarts the
firmware), writes nothing into the REPL, takes the dice typed, and says when the board
runs its firmware again; the game loses nothing. Until s37 the link only logged the
prompt, and after the heartbeats' silence the table said to check the USB cable.

The board is ``tests/pty_board.py``'s firmware stand-in on a pseudo-terminal; the table
takes what ``open_pyramid``'s event queue hands it, as ``pyramid play`` does."""

import io
import queue
import time

import pytest
from camelhost.device.open import open_pyramid
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from pty_board import Board

pytestmark = [pytest.mark.process]  # a pty and a thread answering on it

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
SAID = ("the pyramid's port %s is now MicroPython's prompt (the pyramid firmware stopped on "
        "the board: a crash): nothing is written to it. Type the dice meanwhile, e.g. "
        "'blue 2'; for the pyramid's dice again, plug it in again, or quit and resume with "
        "its port: pyramid play --resume %s --pyramid PORT")


def _pump(events, table, out, text, timeout=20.0):
    """Hand the table the pyramid's events until ``text`` is in what it said; fails
    naming what it said instead."""
    deadline = time.monotonic() + timeout
    while text not in out.getvalue() and time.monotonic() < deadline:
        try:
            _kind, event = events.get(timeout=0.1)
        except queue.Empty:
            continue
        table.pyramid_event(event)
    assert text in out.getvalue(), out.getvalue()


def test_a_crash_to_the_prompt_mid_game_is_said_in_one_line_and_the_game_goes_on(tmp_path):
    board = Board()
    journal = Journal(str(tmp_path / "g.jsonl"), pyramid=board.port)
    pyramid = open_pyramid(board.port, "second", 1)
    try:
        out = io.StringIO()
        session = Session("second", ["Ann", "Ben", "Cy"], seed=5, journal=journal)
        table = Table(session, PlainDisplay(out), manual=False, link=pyramid.link)
        table.start()
        table.line(SETUP)
        events = pyramid.events()
        board.crash()
        _pump(events, table, out, "MicroPython's prompt")
        said = [line for line in out.getvalue().splitlines() if "MicroPython" in line]
        assert said == [SAID % (board.port, journal.path)], said
        # the dice typed meanwhile: the pyramid ticket takes one
        table.line("pyramid")
        table.line("blue 2")
        assert session.game.dice_out == ["blue"]
        time.sleep(1.0)  # the link's resends (SYNC, ACK, OUT) would come meanwhile
        assert board.written_at_prompt == b"", board.written_at_prompt
        board.reboot()  # the watchdog, or the replug: the firmware runs again
        _pump(events, table, out, "the pyramid answers again")
        assert session.game.dice_out == ["blue"]  # nothing of the game lost
        table.line("pyramid")  # and its dice are awaited from it again
        assert "release a die from the pyramid" in out.getvalue().splitlines()[-1]
    finally:
        pyramid.close()
        journal.close()
        board.close()
