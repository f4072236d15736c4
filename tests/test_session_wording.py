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
    assert lines[1:] == ["  carrying purple", "  from space 5 to 8",
                         "  lands on Ann's booing tile there: Ann +1 coin",
                         "  then back 1 to space 7 underneath"]  # as the last-die line


def test_a_mirage_bounce_back_to_the_start_space_says_it_returned():
    s = Session("classic", ["Ann", "Ben"])
    s.command("setup 1:blue 2:green 3:orange,yellow,white")
    s.command("mirage 4")   # Ann
    lines = _die_lines(s, "white 1")  # Ben: white 3 -> 4 -> back to 3
    assert lines[-2:] == ["  lands on Ann's mirage tile there: Ann +1 coin",
                          "  then back to space 3 underneath, where it started"]
    assert not any("from space 3 to 3" in line for line in lines)


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


def _plain_table(edition, names, setup):
    import io

    from camelhost.table.controller import Table
    from camelhost.table.journal import Journal
    from camelhost.ui.plain import PlainDisplay
    out = io.StringIO()
    t = Table(Session(edition, list(names), seed=2, journal=Journal(None)), PlainDisplay(out))
    t.start()
    t.line(setup)
    return t, out


def _shown_last_die(t, out):
    """The ``Last die:`` line of the table's ``show`` command."""
    start = len(out.getvalue())
    t.line("show")
    return [ln for ln in out.getvalue()[start:].splitlines() if ln.startswith("Last die:")]


@pytest.mark.parametrize("edition,setup,tile,die,expected", [
    ("second", "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "boo 4",
     "yellow 1", "Last die: yellow 1 (Bob): yellow camel forward 1, from space 3 to 4 on Ann's "
     "booing tile, back 1 to 3"),
    ("second", "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "cheer 5",
     "red 3", "Last die: red 3 (Bob): red camel forward 3, from space 2 to 5 on Ann's "
     "cheering tile, on to 6"),
    ("classic", "setup 1:blue 2:green 3:orange,yellow,white", "mirage 4",
     "white 1", "Last die: white 1 (Bob): white camel forward 1, from space 3 to 4 on Ann's "
     "mirage tile, back 1 to 3"),
    ("classic", "setup 1:blue 2:green 3:orange,yellow,white", "oasis 5",
     "green 3", "Last die: green 3 (Bob): green camel forward 3, from space 2 to 5 on "
     "Ann's oasis tile, on to 6"),
])
def test_the_last_die_line_tells_the_tile_it_landed_on_and_where_it_sent_the_unit(
        edition, setup, tile, die, expected):
    t, out = _plain_table(edition, ["Ann", "Bob", "Cy"], setup)
    t.line(tile)   # Ann
    t.line(die)    # Bob
    assert _shown_last_die(t, out) == [expected]


def test_a_unit_crossing_the_finish_line_is_told_from_which_space():
    t, out = _plain_table("second", ["Ann", "Bob", "Cy"],
                          "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    t.line("fix 14:purple")
    start = len(out.getvalue())
    t.line("purple 3")   # Ann: purple 14 -> 17
    lines = out.getvalue()[start:].splitlines()
    at = [i for i, ln in enumerate(lines) if ln.startswith("DIE purple 3 (Ann's pyramid")][0]
    assert lines[at + 1] == "  from space 14 across the finish line: the race is over"
    assert _shown_last_die(t, out) == [
        "Last die: purple 3 (Ann): purple camel forward 3, from space 14 across the finish line"]


def test_the_full_screen_and_the_web_page_use_the_same_words_for_the_last_die():
    from camelhost.ui.tui import detail_text
    s = Session("second", ["Ann", "Bob", "Cy"])
    s.command("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    s.command("boo 4")   # Ann
    notices = s.command("yellow 1")  # Bob: yellow (carrying purple) 3 -> 4 -> back to 3
    view = table_view(s, odds=False)
    path = "from space 3 to 4 on Ann's booing tile, back 1 to 3"
    assert view["last_die"]["path"] == path  # what the web page prints
    assert str(detail_text(notices, view)) == (
        "Bob's pyramid ticket: die yellow 1. Carries purple. From space 3 to 4 on Ann's booing "
        "tile, back 1 to 3; Ann +1 coin.")


def test_show_after_the_race_gives_the_result_not_tickets_or_hidden_piles():
    # tester's finding: `show` after the finish still listed the scored leg tickets and
    # said the finish piles were "hidden until the end"
    s = Session("classic", ["Ann", "Ben"])
    s.command("setup 1:blue 2:green 3:orange,yellow,white")
    s.command("fix 16:white")
    s.command("win white")   # Ann
    s.command("leg white")   # Ben
    s.command("lose blue")   # Ann
    s.command("pyramid")     # Ben
    s.command("white 1")     # white crosses the line
    lines = plain.status_lines(table_view(s, odds=False))
    assert lines[0] == "Race 1 is over (leg 1): overall winner white, overall loser blue"
    assert lines[2:5] == ["Winner pile: Ann white +8", "Loser pile: Ann blue +8",
                          "Final ranking: 1. Ann 19, 2. Ben 9"]
    assert lines[5].startswith("Last die: white 1 (Ben)")
    text = "\n".join(lines)
    assert "hidden" not in text and "Leg tickets" not in text and "pyramid" not in text


@pytest.mark.parametrize("command", ["tile 5 +", "tile 16 -", "leg red", "partner Ben",
                                     "win red", "pyramid"])
def test_a_players_command_during_the_setup_says_the_setup_comes_first(command):
    # a tester saw "a seat is a number: None" for these before the race was set up
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"], seed=1)
    with pytest.raises(TableError) as err:
        s.command(command)
    assert "the setup comes first" in str(err.value) and "seat" not in str(err.value)
    assert s.phase == "setup" and s.game is None  # nothing changed
