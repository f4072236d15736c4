"""A pyramid that holds every die again (plugged back after a power-off, an emulator
restarted, a resume) while dice came out this leg (tester s33-2 finding 9, RULES 1.4):
the table names the dice that must stay out of it, on the resume and on its return, and a
die out this leg released again is taken out, not every die returned."""

import io

from camelhost.device.events import DieEvent
from camelhost.device.open import PyramidPresence
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


class _Board:
    """A table on a reporting pyramid (a port: dice put back by hand) and its dice."""

    def __init__(self, journal):
        self.out = io.StringIO()
        self.session = (Session.resume(journal) if journal.events else
                        Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=journal))
        self.table = Table(self.session, PlainDisplay(self.out), pyramid=None, manual=False)
        self.seq = 0
        self.said(self.table.start)

    def said(self, work):
        before = len(self.out.getvalue())
        work()
        return self.out.getvalue()[before:].splitlines()

    def die(self, colour, value):
        self.seq += 1
        return self.said(lambda: self.table.pyramid_event(DieEvent(
            "die", "B1", self.seq, "EVT %d DIE %s" % (self.seq, colour), colour=colour,
            value=value)))

    def line(self, text):
        return self.said(lambda: self.table.line(text))


def _played(path):
    """A game on a port with Ann's green and Ben's red out this leg; the board."""
    board = _Board(Journal(str(path), pyramid="/dev/ttyACM0"))
    board.line(SETUP)
    board.line("pyramid")
    board.die("green", 1)
    board.line("pyramid")
    board.die("red", 2)
    return board


def test_a_die_out_this_leg_released_again_is_taken_out_not_every_die_returned(tmp_path):
    board = _played(tmp_path / "g.jsonl")
    board.line("pyramid")  # Cy's ticket; the pyramid plugged back holds green again
    said = board.die("green", 3)
    assert said[0] == ("TAKE THE GREEN DIE OUT OF THE PYRAMID (it came out this leg) AND "
                       "RELEASE AGAIN; the dice out this leg stay out of it: green, red; the "
                       "pyramid ticket already taken still covers this action")
    assert not any("RETURN THE DICE" in line for line in said)
    assert board.session.game.dice_out == ["green", "red"]
    board.die("blue", 1)  # released again: the ticket's die
    assert board.session.game.dice_out == ["green", "red", "blue"]
    board.session.journal.close()


def test_the_pyramid_answering_again_names_the_dice_that_stay_out_of_it(tmp_path):
    board = _played(tmp_path / "g.jsonl")
    board.said(lambda: board.table.pyramid_event(PyramidPresence(False, "/dev/ttyACM0")))
    said = board.said(lambda: board.table.pyramid_event(PyramidPresence(True, "/dev/ttyACM0")))
    assert said[0] == ("the pyramid answers again: release the dice from it; the green, red "
                       "dice came out this leg: keep them out of the pyramid (take out any "
                       "that is back in it)")
    board.session.journal.close()


def test_a_resume_on_a_port_names_the_dice_that_stay_out_of_the_pyramid(tmp_path):
    path = tmp_path / "g.jsonl"
    _played(path).session.journal.close()
    board = _Board(Journal.resume(str(path)))
    text = board.out.getvalue().splitlines()
    assert ("The green, red dice came out this leg: keep them out of the pyramid (take out any "
            "that is back in it)") in text, text
    board.session.journal.close()
    # typed dice have no pyramid to keep them out of
    other = tmp_path / "manual.jsonl"
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9,
                      journal=Journal(str(other), pyramid="manual"))
    for text in (SETUP, "pyramid", "green 1"):
        session.command(text)
    session.journal.close()
    out = io.StringIO()
    session = Session.resume(Journal.resume(str(other)))
    Table(session, PlainDisplay(out), pyramid=None, manual=True).start()
    assert "resumed" in out.getvalue() and "came out this leg" not in out.getvalue()
    session.journal.close()
