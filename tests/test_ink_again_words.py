"""``again`` at the grey die's numerals question (RULES 3.5: the pyramid could not tell
black from white) sends the dice back to be released again under the pyramid ticket
already taken: the table says that, and asks for the release, without a second
``Ann takes a pyramid ticket`` line (``session.py``'s ``again`` retry said one, read as
a second ticket, live and in a resumed table's history; tester finding at the last
stop). At setup the numerals are never asked (the grey die places black, then white,
RULES 3.2), so there is no ``again`` to answer there."""

import io

from camelhost.device.events import DieEvent
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelhost.ui.tui import journal_history

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _table(pyramid=None):
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None))
    t = Table(s, PlainDisplay(out), manual=False)
    t.start()
    return t, out


def test_again_at_the_numerals_question_asks_for_a_release_under_the_same_ticket():
    t, out = _table()
    t.line(SETUP)
    t.pyramid_event(DieEvent("unknown", "B1", 1, "EVT 1 unknown", best="grey-black", value=2))
    assert t.session.phase == "ink"
    since = len(out.getvalue())
    t.line("again")
    said = out.getvalue()[since:].splitlines()
    assert said == [
        "RETURN THE DICE AND RELEASE AGAIN (the grey die's numerals could not be read); the "
        "pyramid ticket already taken still covers this action",
        "> Ann: release a die from the pyramid (or type it, e.g. 'blue 2')"], said
    assert t.session.phase == "die" and t.session.pending_player == 0  # her ticket waits
    # the released die completes that one ticket: Ann's, once
    t.pyramid_event(DieEvent("die", "B1", 2, "EVT 2 die", colour="red", value=1))
    assert t.session.game.pyramid_tickets(0) == 1 and t.session.current == 1
    history = journal_history(t.session.journal.events)
    assert sum("Ann takes a pyramid ticket" in line for line in history) == 1, history


def test_the_numerals_are_never_asked_at_setup():
    t, out = _table()
    # an unread grey die at setup places the next crazy camel: no numerals to ask
    t.pyramid_event(DieEvent("unknown", "B1", 1, "EVT 1 unknown", best="grey-white", value=2))
    assert t.session.phase == "setup" and t.session.setup_rolls == [("black", 2)]
    since = len(out.getvalue())
    t.line("again")  # not the numerals' 'again': another race, refused during this one
    assert out.getvalue()[since:].splitlines() == [
        "! this race is still on: 'again' comes after its end (or after 'unscored')"]
