"""A game resumed while the table asked a die's value (a pyramid without value buttons:
``The green die is out, value unknown: press 1, 2 or 3``; the table quit or crashed
there). Before (tester s40 finding 13) the resumed table said only ``> value of the
die? press 1, 2 or 3``, no line naming the die, and listed the die among those inside
the pyramid though it lies out on the table: whoever resumed could not tell which die's
value to give."""

import os

from camelhost import cli
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from typed_table import SETUP, typed_table


def _asked(path, *lines):
    """A journal at ``path`` written up to a die whose value is asked: ``lines`` typed
    (a die typed with ``?`` for its value, as a pyramid without value buttons reports
    one), then the table gone."""
    with Journal(str(path), pyramid="manual", lang="en") as journal:
        session = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        for line in lines:
            session.command(line)
        assert session.phase == "value"


def _resume(path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", open(os.devnull))  # the players leave at once
    assert cli.main(["play", "--plain", "--resume", str(path), "--pyramid", "manual"]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_resume_at_a_dies_value_names_the_die_and_keeps_it_out_of_the_pyramid(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "value.jsonl"
    _asked(path, SETUP, "leg red", "pyramid", "green ?")  # Ben's pyramid ticket: green
    said = _resume(path, monkeypatch, capsys)
    assert said[1] == "resumed %s: 4 events restored (race 1, leg 1)" % path
    assert said[2] == "The green die is out, value unknown: press 1, 2 or 3"
    assert ("Dice in the pyramid: blue, yellow, red, purple, grey (one of them stays inside "
            "this leg); out this leg: green") in said
    # the ticket's die is known: what it waits for is its value
    assert "Pyramid tickets left: 4 (Ben's pyramid ticket waits for its die's value)" in said
    assert "> value of the die? press 1, 2 or 3" in said


def test_a_resume_at_a_setup_dies_value_names_the_die_and_the_setup(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "setup.jsonl"
    _asked(path, "green ?")  # the first die of the setup, its value not read
    said = _resume(path, monkeypatch, capsys)
    assert said[1] == "resumed %s: 1 event restored (race 1, setup)" % path  # not 'leg 0'
    assert said[2] == "The green die is out, value unknown: press 1, 2 or 3"


def test_while_a_value_is_asked_the_die_is_out_on_every_show_not_inside():
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP, "pyramid", "purple ?")
    view = table.view()
    assert "purple" not in view["dice_inside"]
    before = len(out.getvalue())
    table.line("show")
    assert ("Dice in the pyramid: blue, green, yellow, red, grey (one of them stays inside "
            "this leg); out this leg: purple") in out.getvalue()[before:].splitlines()
    table.line("2")  # its value keyed: out as every die revealed this leg, said once
    assert table.view()["dice_out"] == ["purple"]
    before = len(out.getvalue())
    table.line("show")
    assert ("Dice in the pyramid: blue, green, yellow, red, grey (one of them stays inside "
            "this leg); out this leg: purple") in out.getvalue()[before:].splitlines()


def test_while_a_grey_dies_numerals_are_asked_the_ticket_waits_for_them():
    import io

    from camelhost.device.events import DieEvent
    from camelhost.table.controller import Table
    from camelhost.ui.plain import PlainDisplay

    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    table = Table(session, PlainDisplay(out), pyramid=None, manual=False)  # a real pyramid
    table.start()
    table.line(SETUP)
    table.line("pyramid")
    table.pyramid_event(DieEvent("unknown", "B1", 1, "EVT 1 unknown best=grey-white",
                                 best="grey-white", value=2))  # its numerals not read
    assert session.phase == "ink"
    before = len(out.getvalue())
    table.line("show")
    assert ("Pyramid tickets left: 4 (Ann's pyramid ticket waits for its die's numerals: "
            "black or white)") in out.getvalue()[before:].splitlines()
