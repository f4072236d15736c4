"""A game resumed in the middle of its setup (``pyramid play --resume`` after a crash
while the dice were being released) says where each camel placed so far stands, as the
live table did, and says again that the grey die goes back into the pyramid when its
first roll placed one crazy camel and it must come out again for the other (RULES 2.2,
3.2; tester 3 finding 2)."""

import io

from camelhost.device.events import DieEvent
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from resumed_tables import resumed


def _crashed_in_setup(path):
    """A second-edition table on a reporting pyramid: the grey die (white numerals) came
    out showing 2, placing the black camel on space 15; then the table stopped."""
    journal = Journal(str(path), pyramid="/dev/ttyACM0")
    session = Session("second", ["Ann", "Ben", "Cy"], seed=5, journal=journal)
    out = io.StringIO()
    table = Table(session, PlainDisplay(out), pyramid=None, manual=False)
    table.start()
    table.pyramid_event(DieEvent("die", "B1", 1, "EVT 1 DIE grey", colour="grey",
                                 ink="white", value=2))
    journal.close()  # what kill -9 leaves: every line written so far
    return out.getvalue()


def test_a_setup_resumed_names_the_spaces_and_the_grey_die_to_put_back(tmp_path):
    live = _crashed_in_setup(tmp_path / "g.jsonl")
    assert "Setup: black camel on space 15" in live
    table, out = resumed(tmp_path / "g.jsonl")
    said = out.getvalue().splitlines()
    assert "Placed so far: black on space 15" in said
    assert "Put the grey die back in the pyramid: it comes out again for the white camel" \
        in said
    before = len(out.getvalue())
    table.pyramid_event(DieEvent("die", "B1", 2, "EVT 2 DIE blue", colour="blue", value=1))
    assert table.line("board")
    assert "Placed so far: black on space 15, blue on space 1" \
        in out.getvalue()[before:].splitlines()


def test_a_setup_resumed_once_both_crazy_camels_stand_asks_for_no_grey_die(tmp_path):
    _crashed_in_setup(tmp_path / "g.jsonl")
    table, _out = resumed(tmp_path / "g.jsonl")
    table.pyramid_event(DieEvent("die", "B1", 2, "EVT 2 DIE grey", colour="grey",
                                 ink="black", value=3))
    table.session.journal.close()
    _table, out = resumed(tmp_path / "g.jsonl")
    said = out.getvalue().splitlines()
    assert "Placed so far: black on space 15, white on space 14" in said
    assert not any("grey die back" in line for line in said)


def test_another_tables_dice_during_a_resumed_setup_name_the_dice_still_to_release(tmp_path):
    # the other table let dice out of the pyramid: those this setup still needs go back
    _crashed_in_setup(tmp_path / "g.jsonl")
    table, out = resumed(tmp_path / "g.jsonl")
    before = len(out.getvalue())
    table.pyramid_event(DieEvent("foreign", "B1", 2, missing=(2, 3)))
    assert out.getvalue()[before:].splitlines()[0] == (
        "the pyramid served another table since this game's last die, or lines were cut from "
        "this journal's end: the pyramid acknowledged events 2, 3 of boot B1, which the journal "
        "does not hold (its last is event 1); they are left out. If lines were cut, quit and "
        "resume a whole copy of the journal. Else put back in the pyramid any of these dice "
        "that are out of it: blue, green, yellow, red, purple, grey")
