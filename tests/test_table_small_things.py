"""Small things at the plain table (tester 4 finding 15): a typed setup is followed by
the whole board; German says 'Können' for several dice still to come out; the
tournament's finish-card table names its columns in words."""

import io

from camelhost import cli
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:orange 3:yellow,white"


def _table(*lines):
    out = io.StringIO()
    s = Session("classic", ["Anna", "Bert", "Carl"], seed=4, journal=Journal(None))
    t = Table(s, PlainDisplay(out))
    t.start()
    for line in lines:
        t.line(line)
    return t, out.getvalue().splitlines()


def test_a_typed_setup_shows_the_whole_board_before_the_first_turn():
    _t, shown = _table(SETUP)
    at = shown.index("Race 1 set up (typed): 1:[blue,green] 2:[orange] 3:[yellow,white]")
    after = shown[at + 1:]
    assert after[0] == "Race 1, leg 1"
    board = after[:after.index("> Anna's turn (leg / tile / win / lose / pyramid)")]
    assert "Leg tickets left: blue 5,3,2; green 5,3,2; orange 5,3,2; yellow 5,3,2; " \
           "white 5,3,2" in board
    assert "Leading: 1st white, 2nd yellow" in board
    assert "Anna: 3 coins; no leg tickets; 0 finish cards played" in board


def test_german_dice_still_to_come_out_take_the_plural():
    set_language("de")
    _t, shown = _table(SETUP, "blue 1", "green 1", "orange 1", "yellow 1")
    left = [line for line in shown if "herauskommen" in line]
    assert left[0] == "Können noch herauskommen: grün, orange, gelb, weiß"
    assert left[-1] == "Kann noch herauskommen: weiß"


def test_the_tournaments_finish_card_columns_are_named_in_words(capsys):
    assert cli.main(["tournament", "--games", "1", "--seats", "3", "--workers", "1",
                     "--bots", "greedy,ev,random"]) == 0
    out = capsys.readouterr().out.splitlines()
    at = out.index("finish cards: laid per race; share laid correctly; share laid in "
                   "the 1st leg")
    assert out[at + 1].split() == ["policy", "laid/race", "correct", "1st", "leg"]
    assert out[at + 2].split()[0] == "greedy"
