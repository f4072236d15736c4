"""Finish cards stay hidden until the final reveal, also in undo and refusals
(RULES 1.8, 5); undo names what it took back, also at setup."""

import pytest
from camelhost.table.journal import Journal
from camelhost.table.session import Session, TableError
from camelhost.table.view import table_view
from camelhost.ui import plain

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _lines(s, notices):
    return [line for n in notices for line in plain.notice_lines(n, table_view(s, odds=False))]


def test_undo_of_a_finish_card_keeps_its_colour_hidden():
    s = Session("second", ["Ann", "Ben", "Cy"], journal=Journal(None))
    s.command(SETUP)
    s.command("win purple")
    lines = _lines(s, s.command("undo"))
    assert lines == ["undone: Ann's finish card on the winner pile"]
    s.command("lose purple")
    s.command("leg red")
    s.command("leg red")
    with pytest.raises(TableError) as info:
        s.command("win purple")  # the card is already on the loser pile
    assert "purple" not in str(info.value) and "once" in str(info.value)
    # the journal itself keeps the colour
    assert any(e.get("action") == "finish loser purple" for e in s.journal.events)


def test_undo_at_setup_names_the_die_it_took_back():
    s = Session("second", ["Ann", "Ben", "Cy"])
    s.command("red 2")
    s.command("blue 1")
    assert _lines(s, s.command("undo")) == ["undone: the setup die blue 1"]
    assert s.setup_rolls == [("red", 2)]


def test_undo_of_a_pyramid_action_names_the_player_and_the_die():
    s = Session("second", ["Ann", "Ben", "Cy"])
    s.command(SETUP)
    s.command("pyramid")
    assert _lines(s, s.command("undo")) == ["undone: Ann's pyramid ticket (no die had "
                                           "come out yet)"]
    s.command("pyramid")
    s.command("red ?")
    s.command("3")
    assert _lines(s, s.command("undo")) == ["undone: Ann's pyramid ticket and its die red 3; move the red camel back to space 2; put the red die back in the pyramid (or "
        "type 'redo' to keep red 3)"]
    s.command("leg red")
    assert _lines(s, s.command("undo")) == ["undone: Ann's leg ticket on red"]


@pytest.mark.parametrize("grey", ["grey 1", "grey black 1", "grey white 1", "gray 1"])
def test_setup_takes_the_grey_die_with_or_without_its_ink(grey):
    # RULES 3.2: the ink does not matter at setup
    s = Session("second", ["Ann", "Ben", "Cy"])
    for text in ("red 2", "blue 1", "green 1", "yellow 3", "purple 2", grey, "grey 3"):
        s.command(text)
    assert s.phase == "turn"
    assert s.game.stacks[16] == ["black"] and s.game.stacks[14] == ["white"]
    with pytest.raises(TableError, match="numeral colour"):
        s.command("grey 2")  # during the race the ink chooses the camel (RULES 3.5)
