"""The table's narration gives translators whole sentences (s46): a line the player reads
is one message of the catalogue with named placeholders, not translated pieces glued
with fixed punctuation or order. German now says each of these lines in its own order:
the grey die at setup ("erst schwarz, dann weiß", was "schwarz dann weiß"), a unit a
booing tile sends back under a stack (was "... auf Feld 3 darunter"), a finish pile
revealed empty (was "Stapel Gesamtsieger, aufgedeckt in Spielreihenfolge: leer"), a
wrong finish card the zero floor forgives; the English lines stay as they were."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.narration import final_lines
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture
def german():
    set_language("de")
    yield
    set_language("en")


def _said(*lines):
    """What a plain table of Ann, Ben and Cy (second edition, dice typed) says to the
    last of ``lines``."""
    out = io.StringIO()
    table = Table(Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None)),
                  PlainDisplay(out), manual=True)
    table.start()
    for line in lines[:-1]:
        table.line(line)
    at = len(out.getvalue())
    table.line(lines[-1])
    return out.getvalue()[at:]


def test_the_grey_die_at_setup_is_one_german_sentence(german):
    said = _said("blue 1", "grey 2")
    assert said.splitlines()[0] == (
        "Aufbau: Kamel schwarz auf Feld 15; noch aufzustellen: grün, gelb, rot, lila, weiß "
        "(beim Aufbau stellt der graue Würfel erst schwarz, dann weiß auf, seine "
        "Ziffernfarbe zählt nicht, RULES 3.2)")


def test_the_grey_die_at_setup_in_english_is_as_it_was():
    said = _said("blue 1", "grey 2")
    assert said.splitlines()[0] == (
        "Setup: black camel on space 15; still to place: green, yellow, red, purple, white "
        "(at setup the grey die places black then white, its numeral colour ignored, "
        "RULES 3.2)")


def test_a_unit_a_booing_tile_sends_under_a_stack_is_said_in_one_german_sentence(german):
    # Ann's booing tile on 4; blue (carrying green) lands on it from 1 and goes back 1,
    # under yellow and purple on 3 (RULES 1.5)
    said = _said(SETUP, "tile 4 -", "pyramid", "blue 3")
    assert "\n  dann 1 zurück auf Feld 3, unter etwaige Kamele dort\n" in said, said
    assert "darunter" not in said


def test_a_unit_a_booing_tile_sends_back_in_english_is_as_it_was():
    said = _said(SETUP, "tile 4 -", "pyramid", "blue 3")
    assert "\n  then back 1 to space 3 underneath\n" in said, said


def test_a_finish_card_played_names_its_pile_and_count_in_one_sentence(german):
    said = _said(SETUP, "lose", "rot")
    assert said.startswith("Ann legt eine Wettkarte verdeckt auf den Stapel Gesamtverlierer "
                           "(jetzt 1 Karte)\n"), said


def _final():
    """A race's end: the winner pile empty, two cards on the loser pile, the second
    wrong and its coin forgiven (Ben had none)."""
    cards = [{"pile": "loser", "player": 0, "colour": "red", "correct": True, "place": 1,
              "reward": 8, "before": 10, "after": 18},
             {"pile": "loser", "player": 1, "colour": "blue", "correct": False,
              "place": None, "reward": -1, "before": 0, "after": 0}]
    notice = {"race": 1, "final": {"winner": "blue", "loser": "red", "cards": cards,
                                   "coins": [18, 0, 5], "winners": [0]}}
    view = {"players": [{"name": n} for n in ("Ann", "Ben", "Cy")], "ranking": [],
            "edition": "second"}
    return final_lines(notice, view)


def test_the_final_reveal_is_one_german_sentence_a_line(german):
    lines = _final()
    assert lines[1:5] == [
        "Stapel Gesamtsieger aufgedeckt: leer",
        "Stapel Gesamtverlierer, aufgedeckt in Spielreihenfolge:",
        "  1. Ann rot: richtig, Platz 1 +8 (10 -> 18)",
        "  2. Ben blau: falsch -1 (0 -> 0) (1 EP erlassen: niemand fällt unter 0, RULES 1.9)"]


def test_the_final_reveal_in_english_is_as_it_was():
    assert _final()[1:5] == [
        "Winner pile revealed in play order: empty",
        "Loser pile revealed in play order:",
        "  1. Ann red: correct, place 1 +8 (10 -> 18)",
        "  2. Ben blue: wrong -1 (0 -> 0) (1 coin forgiven: nobody goes below 0, RULES 1.9)"]
