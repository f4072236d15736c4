"""A release of the virtual pyramid that comes late (after the table moved on from the
push that let it out: the push taken back, another player to act) is said, put back
and changes nothing, and the journal keeps it (a ``rejected`` line of kind ``late``):
what the player was told is what a crash and ``--resume`` find. Before, it was said
but not journaled: the resumed history never told it, the journal's last pyramid event
was an older one (the link would hand the same die to the resumed table, to be taken
for whoever acted then), and the pyramid's acknowledged event read as missing from
the journal (tester finding at the last stop)."""

import io

from camelhost.device.events import DieEvent
from camelhost.table.controller import Table
from camelhost.table.journal import Journal, behind_pyramid
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelhost.ui.tui import journal_history
from seeded_pyramid import SeededPyramid

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
BOOT = "B1"




def _late_die(path):
    """Ann pushes, takes it back, then the die comes: ``(table, out, colour, seq)``."""
    out = io.StringIO()
    pyramid = SeededPyramid()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(str(path)))
    t = Table(session, PlainDisplay(out), pyramid=pyramid)
    t.start()
    t.line(SETUP)
    t.line("pyramid")
    t.line("release")
    t.line("undo")  # the table moves on while the die is on its way
    (label, value), = pyramid.fell[-1]
    colour = label.partition("-")[0]
    since = len(out.getvalue())
    t.pyramid_event(DieEvent("die", BOOT, 7, "EVT 7 die", colour=colour, value=value))
    return t, out.getvalue()[since:], colour


def test_a_late_virtual_die_is_journaled_as_it_was_said(tmp_path):
    path = tmp_path / "late.jsonl"
    t, said, colour = _late_die(path)
    assert said.splitlines()[0] == (
        "the %s die came out of the virtual pyramid late, from a push on Ann's turn: no "
        "pyramid ticket asks for it now, so it is back in the pyramid and nothing "
        "changed" % colour), said
    last = t.session.journal.events[-1]
    assert (last["type"], last["kind"], last["colour"], last["boot"], last["seq"]) == (
        "rejected", "late", colour, BOOT, 7)
    assert t.session.phase == "turn" and t.session.game.dice_out == []  # nothing changed
    t.session.journal.close()

    # a crash, then --resume: the session the journal makes is the one the table had,
    # the link goes on after the late die (never hands it to whoever acts now), the
    # pyramid's acknowledged event is the journal's own, and the history tells it
    journal = Journal.resume(str(path), check=Session.stale_line)
    try:
        resumed = Session.resume(journal)
        assert resumed.resume_point == (BOOT, 7)
        assert resumed.phase == "turn" and resumed.current == 0
        assert resumed.game.dice_out == []
        assert behind_pyramid(journal.events, BOOT, 7) is None
        history = journal_history(journal.events, str(path))
        assert ("The %s die came out of the virtual pyramid late, from a push the table "
                "had moved on from: it went back in the pyramid and changed nothing"
                % colour) in history, history
    finally:
        journal.close()


def test_a_late_release_without_a_die_is_journaled_too(tmp_path):
    out = io.StringIO()
    pyramid = SeededPyramid()
    journal = Journal(str(tmp_path / "late2.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=journal)
    t = Table(session, PlainDisplay(out), pyramid=pyramid)
    t.start()
    t.line(SETUP)
    t.line("pyramid")
    t.line("release")
    t.line("undo")
    since = len(out.getvalue())
    t.pyramid_event(DieEvent("double", BOOT, 3, "EVT 3 double"))
    assert out.getvalue()[since:].splitlines()[0] == (
        "a release of the virtual pyramid came late, from a push on Ann's turn: no pyramid "
        "ticket asks for it now, so nothing changed")
    last = journal.events[-1]
    assert (last["type"], last["kind"], last["reason"], last["seq"]) == (
        "rejected", "late", "double", 3)
    assert journal_history(journal.events)[-1] == (
        "A release of the virtual pyramid came late, from a push the table had moved on "
        "from: it changed nothing")
    journal.close()
