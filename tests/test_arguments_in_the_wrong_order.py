"""tester46 finding 5: a command whose arguments are typed in the wrong order, where the
line reads plainly so, is told the order in one line, nothing changed: ``tile + 5``
(the side was right: not "the tile's side is + or -"), a die's value first (``2 red``),
``finish red winner`` (its colour never said back, RULES 1.8), a ``setup`` or ``fix``
token turned around (``blue,green:1``). Not ``rename Jonsa Jonas`` with Jonas a player:
that reads as a correction typed again as well (test_table_words)."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _reply(typed, lang="en", setup=True):
    set_language(lang)
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    if setup:
        t.line(SETUP)
    before, events = len(out.getvalue()), len(s.journal.events)
    t.line(typed)
    said = out.getvalue()[before:]
    assert said.count("\n") == 1 and len(s.journal.events) == events
    assert s.current == (0 if setup else None)
    return said.rstrip("\n")


@pytest.mark.parametrize("typed, said", [
    ("tile + 5", "! 'tile + 5': the space comes first, then the side: 'tile 5 +'"),
    ("tile +5", "! 'tile +5': the space comes first, then the side: 'tile 5 +'"),
    ("t - 9", "! 't - 9': the space comes first, then the side: 't 9 -'"),
    ("tile cheering 5", "! 'tile cheering 5': the space comes first, then the side: "
                        "'tile 5 cheering'"),
    ("2 red", "! '2 red': the die's colour comes first, then its value: 'red 2'"),
    ("3 grey white", "! '3 grey white': the die's colour comes first, then its value: "
                     "'grey white 3'"),
    ("finish red winner", "! finish: the pile comes first, then the colour: "
                          "finish winner|loser <colour>"),
    ("fix red,blue:7", "! the space comes first, then the camels on it: '7:red,blue'"),
])
def test_the_order_is_told(typed, said):
    assert _reply(typed) == said


def test_a_setup_token_turned_around_is_told_the_order():
    assert _reply("setup blue,green:1 2:red 3:yellow,purple 15:black 16:white",
                  setup=False) == "! the space comes first, then the camels on it: '1:blue,green'"


def test_a_wrong_side_is_still_told_the_sides():
    assert _reply("tile 5 x") == "! the tile's side is + (cheering) or - (booing)"
    assert _reply("tile x 5") == "! the tile's side is + (cheering) or - (booing)"


@pytest.mark.parametrize("typed, said", [
    ("tile + 5", "! 'tile + 5': zuerst kommt das Feld, dann die Seite: 'tile 5 +'"),
    ("2 red", "! '2 red': zuerst kommt die Farbe des Würfels, dann sein Wert: 'rot 2'"),
    ("finish rot winner", "! finish: zuerst kommt der Stapel, dann die Farbe: "
                          "finish winner|loser <Farbe>"),
    ("fix rot,blau:7", "! zuerst kommt das Feld, dann die Kamele darauf: '7:rot,blau'"),
])
def test_a_german_table_tells_the_order_in_german(typed, said):
    assert _reply(typed, "de") == said


@pytest.mark.parametrize("typed, said", [
    ("red leg", "! 'red leg': the command comes first, then the colour: 'leg red'"),
    ("red win", "! win: the command comes first, then the colour: type 'win' alone, then "
                "the colour (not shown) (RULES 1.8)"),
    ("red lose", "! lose: the command comes first, then the colour: type 'lose' alone, "
                 "then the colour (not shown) (RULES 1.8)"),
    ("red 2 pyramid", "! 'red 2 pyramid': a die is typed alone on its line: 'red 2'"),
])
def test_a_colour_before_its_command_word_is_told_the_order(typed, said):
    """tester46c finding 7: not "a die shows 1, 2 or 3, not 'leg'"; a finish card's
    colour is never said back (RULES 1.8)."""
    assert _reply(typed) == said


@pytest.mark.parametrize("typed, said", [
    ("rot leg", "! 'rot leg': zuerst kommt der Befehl, dann die Farbe: 'leg rot'"),
    ("rot win", "! win: zuerst kommt der Befehl, dann die Farbe: tippe 'win' allein, dann "
                "die Farbe (wird nicht gezeigt) (RULES 1.8)"),
    ("rot 2 pyramid", "! 'rot 2 pyramid': ein Würfel wird allein in seiner Zeile getippt: 'rot 2'"),
])
def test_a_german_colour_before_its_command_word_is_told_the_order(typed, said):
    assert _reply(typed, "de") == said
