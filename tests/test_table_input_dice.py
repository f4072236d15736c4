"""A die typed on a turn (no pyramid ticket pending): taken as a pyramid ticket, said
aloud, only when the dice are typed at the table (manual mode); with a pyramid it
is refused with a hint, unless the pyramid asked for the die by hand (RULES 1.7)."""

import io

from camelhost.device.events import DieEvent, SeqRange
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _table(**kw):
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), **kw)
    t.start()
    t.line(SETUP)
    return t, out


def test_manual_mode_says_a_typed_die_takes_a_pyramid_ticket():
    t, out = _table()
    t.line("red 2")
    assert "Ann takes a pyramid ticket: red 2" in out.getvalue()
    assert table_view(t.session, odds=False)["players"][0]["pyramid_tickets"] == 1


def test_with_a_pyramid_a_bare_typed_die_is_refused_with_a_hint():
    t, out = _table(manual=False)
    t.line("red 2")
    assert "! red 2: a die typed on Ann's turn: type 'pyramid' first, or push the slider" \
        in out.getvalue()
    assert table_view(t.session, odds=False)["players"][0]["pyramid_tickets"] == 0
    assert t.session.phase == "turn"
    t.line("pyramid")
    t.line("red 2")  # completes the ticket just taken
    assert table_view(t.session, odds=False)["players"][0]["pyramid_tickets"] == 1


def test_after_a_gap_the_die_may_be_typed_by_hand():
    t, out = _table(manual=False)
    t.pyramid_event(DieEvent("gap", "B1", 4, "", missing=SeqRange(4, 4)))
    t.line("red 2")
    assert table_view(t.session, odds=False)["players"][0]["pyramid_tickets"] == 1
    t.line("blue 1")  # only the one die the pyramid asked for
    assert "type 'pyramid' first" in out.getvalue()


def test_manual_mode_asks_to_type_the_die_that_came_out_after_a_pyramid_ticket():
    t, out = _table()   # no pyramid: the dice are typed
    t.line("pyramid")
    lines = out.getvalue().splitlines()
    assert lines[-2:] == ["Ann takes a pyramid ticket: type the die that came out",
                          "> Ann: type the die that came out, like blue 2"]
    t.line("leg red")   # refused: the ticket waits for its die, and it says how to give it
    assert out.getvalue().splitlines()[-1] == (
        "! Ann's pyramid ticket waits for its die: type the die that came out, like blue 2 "
        "(or undo)")


def test_with_a_pyramid_the_waiting_ticket_asks_to_release_a_die():
    t, out = _table(manual=False)
    t.line("pyramid")
    assert out.getvalue().splitlines()[-2:] == [
        "Ann takes a pyramid ticket: release one die",
        "> Ann: release a die from the pyramid (or type it, e.g. 'blue 2')"]
    t.line("leg red")
    assert out.getvalue().splitlines()[-1] == (
        "! Ann's pyramid ticket waits for its die: release it (or type it, or undo)")


def test_a_grey_die_typed_without_its_numerals_on_a_turn_is_refused_once_for_being_typed():
    # tester s33 finding 10: 'grey 2' on a turn at a pyramid was refused for its missing
    # numeral colour, then 'grey black 2' for being typed at all: two refusals for one
    # mistake; the refusal that applies to both comes first
    t, out = _table(manual=False)
    t.line("grey 2")
    assert out.getvalue().splitlines()[-1] == (
        "! grey 2: a die typed on Ann's turn: type 'pyramid' first, or push the slider")
    assert t.session.phase == "turn" and t.session.current == 0
    t.line("pyramid")
    t.line("grey 2")  # now a die is awaited: its numeral colour is what it lacks
    assert "needs its numeral colour" in out.getvalue().splitlines()[-1]
    t.line("grey black 2")
    assert table_view(t.session, odds=False)["players"][0]["pyramid_tickets"] == 1
