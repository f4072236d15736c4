"""Wording of the narration and hints: edition colours in examples, a tile landing
told in order (move, tile, final space), a bounce back to the start space, an
ambiguous colour prefix (RULES 1.5, 5)."""

import re

import pytest
from camelhost.table.controller import help_text
from camelhost.table.session import Session, TableError
from camelhost.table.view import table_view
from camelhost.ui import plain


def _die_lines(s, text):
    notices = s.command(text)
    return plain.notice_lines([n for n in notices if n["kind"] == "die"][0], table_view(s, odds=False))


def test_classic_hints_use_a_classic_colour():
    s = Session("classic", ["Ann", "Ben"])
    assert "'orange 2'" in plain.status_lines(table_view(s, odds=False))[0]
    s.command("setup 1:blue 2:green 3:orange,yellow,white")
    s.command("pyramid")
    prompt = plain.prompt_line(table_view(s, odds=False))
    assert "red" not in prompt and "e.g. 'blue 2'" in prompt
    words = re.findall(r"[a-z]+", help_text("classic"))  # 'unscored' is no red camel
    assert "red" not in words and "grey" not in words


def test_a_tile_landing_is_told_move_then_tile_then_final_space():
    s = Session("second", ["Ann", "Ben", "Cy"])
    s.command("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    s.command("fix 5:yellow,purple")  # a correction: yellow and purple on 5, Ann still to act
    s.command("boo 8")      # Ann
    lines = _die_lines(s, "yellow 3")  # Ben: yellow (carrying purple) 5 -> 8 -> 7
    assert lines[1:] == ["  carrying purple", "  from space 5 to space 8",
                         "  lands on Ann's booing tile there: Ann +1 coin",
                         "  then on to space 7 underneath"]


def test_a_mirage_bounce_back_to_the_start_space_says_it_returned():
    s = Session("classic", ["Ann", "Ben"])
    s.command("setup 1:blue 2:green 3:orange,yellow,white")
    s.command("mirage 4")   # Ann
    lines = _die_lines(s, "white 1")  # Ben: white 3 -> 4 -> back to 3
    assert lines[-2:] == ["  lands on Ann's mirage tile there: Ann +1 coin",
                          "  then back to space 3 underneath, where it started"]
    assert not any("from space 3 to space 3" in line for line in lines)


def test_an_ambiguous_colour_prefix_says_so():
    s = Session("second", ["Ann", "Ben", "Cy"])
    s.command("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    s.command("fix 5:yellow,purple")  # a correction: yellow and purple on 5, Ann still to act
    with pytest.raises(TableError, match="ambiguous: green or grey"):
        s.command("gr 1")


def test_a_die_of_the_other_edition_is_named_as_such():
    s = Session("classic", ["Ann", "Ben"])
    with pytest.raises(TableError, match="'red' is not a die of the classic edition "
                       r"\(dice: blue, green, orange, yellow, white\)"):
        s.command("red 2")
    with pytest.raises(TableError, match="unknown command"):
        s.command("dance 2x")
