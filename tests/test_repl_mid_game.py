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
        "the board: a crash, or a safe boot): nothing is written to it. Type the dice "
        "meanwhile, e.g. 'blue 2'; for the pyramid's dice again, plug it in again, or quit "
        "and resume with its port: pyramid play --resume %s --pyramid PORT")


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
        # from the moment the table says it (what the host wrote while the prompt was on
        # its way over the line, the REPL took as any line)
        board.written_at_prompt = b""
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


def test_a_heartbeat_read_in_one_chunk_with_the_crash_does_not_end_the_prompt():
    """The reader hands the link what the port holds: a heartbeat sent just before the
    crash often comes in the same chunk as the REPL's text. Only a line after the prompt
    says the firmware runs again (a loaded machine read them together, and the table
    took the board for silent)."""
    from camelhost.device.link import Link
    from camelup.board import protocol
    from pty_board import CRASH

    def hello(boot):
        return protocol.encode("HELLO", proto=1, fw="0.1.0", uid="E6614103E7452D2F", boot=boot,
                               seq=0, oldest=1, ed="second", sensor="ok", vb=False, prev=None,
                               acked=0)

    link = Link("loop://")
    link.feed(hello("958586CF"))
    beat = protocol.encode("HB", boot="958586CF", seq=0, up=4000, sensor="ok")
    link.feed(beat + CRASH)
    assert link.at_repl is not None
    assert link.stats["bad_lines"] == 0  # the traceback is the REPL's, no damage
    # the firmware again, after the watchdog's reset (its first line may be joined to the
    # prompt's unended '>>> ', its heartbeats are whole)
    link.feed(hello("A1B2C3D4") + protocol.encode("HB", boot="A1B2C3D4", seq=0, up=10,
                                                  sensor="ok"))
    assert link.at_repl is None
