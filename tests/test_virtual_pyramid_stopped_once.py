"""The virtual pyramid's board stopped mid-leg (its micropython child killed): the
table says so once. Before (tester s40 finding 6) its line, with the whole resume
command, came again after every input (``pyramid``, ``release``: three times in three
inputs), and a typed ``release`` got only that line again. The virtual pyramid never
comes back by itself, unlike a cable plugged back: the prompts ask for the die typed,
and ``release`` is answered in one line."""

import io

from camelhost.device.open import PyramidPresence
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from typed_table import SETUP, StoppedVirtualPyramid

STOPPED = "the virtual pyramid stopped: type the dice meanwhile"


def test_the_virtual_pyramid_stopped_is_said_once_and_release_answered_in_one_line():
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=5,
                      journal=Journal(None, pyramid="virtual"))
    table = Table(session, PlainDisplay(out, reprompt=True), pyramid=StoppedVirtualPyramid(),
                  manual=False)
    table.start()
    table.line(SETUP)
    table.pyramid_event(PyramidPresence(False, StoppedVirtualPyramid.port, reopened=False))
    assert out.getvalue().count(STOPPED) == 1
    said = out.tell()
    table.line("pyramid")  # a die awaited: the prompt asks it typed, the line not again
    assert out.getvalue()[said:].splitlines() == [
        "Ann takes a pyramid ticket: type the die that came out",
        "> Ann: type the die that came out, like blue 2"]
    said = out.tell()
    table.line("release")
    assert out.getvalue()[said:].splitlines() == [
        "! release: the virtual pyramid stopped, so the dice are typed now: type the die, "
        "e.g. 'blue 2'",
        "> Ann: type the die that came out, like blue 2"]
    table.line("blue 2")
    table.line("pyramid")  # Ben: the next die awaited, the line still not again
    assert session.game.dice_out == ["blue"] and session.phase == "die"
    assert out.getvalue().count(STOPPED) == 1
