"""German: the advice's balance note says what the English says (tester s39 finding
12): below zero an action costs the player no coins, it only means the others together
gain more than it pays. It read "die anderen gewinnen zusammen nur mehr" ("the others
only win more together")."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.narration import best_lines
from camelhost.table.session import Session
from camelhost.table.view import table_view

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
CLASSIC_SETUP = "setup 1:blue,green 2:orange 3:yellow,white"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _note(edition, names, setup):
    set_language("de")
    s = Session(edition, names, seed=2)
    s.command(setup)
    notes = [line for line in best_lines(table_view(s, odds=True), count=None)
             if line.startswith("(Bilanz: ")]
    assert len(notes) == 1, notes
    return notes[0]


def test_the_german_balance_note_says_the_others_gain_more_than_it_pays():
    note = _note("second", ["Ann", "Ben", "Cy", "Dee"], SETUP)
    assert ("unter null kostet sie dich keine EP, es heißt nur, dass die anderen zusammen "
            "mehr gewinnen, als sie dir bringt:") in note, note
    assert "nur mehr" not in note


def test_the_german_balance_note_of_two_players_says_the_other_gains_more():
    note = _note("classic", ["Ann", "Ben"], CLASSIC_SETUP)  # two: the classic
    assert ("unter null kostet sie dich keine EP, es heißt nur, dass der andere mehr "
            "gewinnt, als sie dir bringt:") in note, note
    assert "nur mehr" not in note
