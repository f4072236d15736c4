"""tester46 finding 2: a finish card typed with a crazy camel's colour (or the grey
die's), typed in full, is told that crazy camels have no finish cards (RULES 1.8), not
to "type the colour in full"; a whole colour of the other edition is not told so either,
a typo still is. One line each, in English and German, nothing changed."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _reply(typed, lang="en"):
    set_language(lang)
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    t.line(SETUP)
    before, events = len(out.getvalue()), len(s.journal.events)
    t.line(typed)
    said = out.getvalue()[before:]
    assert said.count("\n") == 1 and len(s.journal.events) == events
    return said.rstrip("\n")


@pytest.mark.parametrize("typed", ["win black", "lose white", "win grey", "lose gray",
                                   "finish winner white"])
def test_a_crazy_camels_colour_is_told_it_has_no_finish_card(typed):
    said = _reply(typed)
    assert said.endswith(": crazy camels have no finish cards, nor has the grey die "
                         "(RULES 1.8); a finish card is a racing camel's: blue, green, "
                         "yellow, red, purple")
    assert "in full" not in said


@pytest.mark.parametrize("typed", ["win schwarz", "lose weiß", "win grau", "win black"])
def test_a_german_table_says_so_in_german(typed):
    assert _reply(typed, "de") == (
        "! win <Farbe>: verrückte Kamele haben keine Wettkarten, der graue Würfel auch nicht "
        "(RULES 1.8); eine Wettkarte gehört einem Rennkamel: blau, grün, gelb, rot, lila"
        if typed.startswith("win") else
        "! lose <Farbe>: verrückte Kamele haben keine Wettkarten, der graue Würfel auch nicht "
        "(RULES 1.8); eine Wettkarte gehört einem Rennkamel: blau, grün, gelb, rot, lila")


def test_a_colour_of_the_other_edition_is_no_typo_and_a_typo_is_one():
    assert _reply("win orange") == ("! win <colour>: that is not a racing camel of the "
                                    "second edition (blue, green, yellow, red, purple)")
    assert _reply("win purpel").endswith(": type the colour in full")
