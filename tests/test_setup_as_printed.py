"""A set-up race is printed as ``1:[blue,green] ...``; typed back after ``setup`` it sets
up the same race (the setup line reads the board as the table writes it, docs/notation.md)."""

import pytest
from camelhost.table import narration
from camelhost.table.session import Session, TableError
from camelhost.table.view import table_view

PLAYERS = ["Ann", "Ben", "Cy"]


@pytest.mark.parametrize("edition", ["classic", "second"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_printed_setup_typed_back_sets_up_the_same_race(edition, seed):
    drawn = Session(edition, PLAYERS, seed=seed)
    notices = drawn.command("draw")
    view = table_view(drawn, odds=False)
    line = next(text for n in notices for text in narration.notice_lines(n, view)
                if "set up" in text)
    board = line.split(": ", 1)[1]
    assert "[" in board  # the form under test: the board as the table prints it
    typed = Session(edition, PLAYERS, seed=seed + 100)
    typed.command("setup " + board)
    assert table_view(typed, odds=False)["track"] == view["track"]


@pytest.mark.parametrize("text", ["setup 1:[blue,green 2:red", "setup 1:blue],green",
                                  "setup 1:[[blue]],green"])
def test_a_bracket_without_its_pair_is_named_and_changes_nothing(text):
    s = Session("classic", PLAYERS, seed=4)
    with pytest.raises(TableError, match="a bracket without its pair"):
        s.command(text)
    assert s.phase == "setup" and s.game is None
