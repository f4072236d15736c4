"""s34 tester 2: an ``undo`` typed right after a ``rename`` took back the step before
it and said nothing of the rename, which stays (a rename is no step of the race: it
changes no game). The undo now says so and how a rename is corrected: by another
rename (``'rename Änne Anna' corrects it``), in its question too when it would take
back a scoring, and in the refusal when there is nothing to undo. Plain table, typed
lines."""

import random

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from typed_table import refusal, typed_table

P3 = ["Ann", "Ben", "Cy"]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _said(table, out, line):
    before = len(out.getvalue())
    table.line(line)
    return out.getvalue()[before:]


def test_an_undo_right_after_a_rename_says_the_rename_stays_and_how_to_correct_it():
    t, out = typed_table("second", P3, scenes.SECOND_SETUP, "leg blue", "rename Ann Anna")
    said = _said(t, out, "undo")
    assert "undone: Anna's leg ticket on blue" in said, said
    assert ("the rename of Ann to Anna is not undone (a rename is no step of the race): "
            "'rename Anna Ann' corrects it") in said, said
    assert t.session.names == ["Anna", "Ben", "Cy"]  # the rename stays
    assert t.session.game.held_tickets(0) == []  # the step before it is undone
    t.line("rename Anna Ann")  # and is corrected as the words say
    assert t.session.names == P3


def test_an_undo_after_another_step_says_nothing_of_an_older_rename():
    t, out = typed_table("second", P3, scenes.SECOND_SETUP, "rename Ann Anna", "leg blue")
    said = _said(t, out, "undo")
    assert "undone: Anna's leg ticket on blue" in said and "rename" not in said, said


def test_the_undo_question_after_the_race_end_and_a_rename_says_the_rename_stays():
    set_language("de")
    t, out = typed_table("second", P3, scenes.SECOND_SETUP)
    for line in scenes.race_out_lines(t.session.game, random.Random(7)):
        t.line(line)
    assert t.session.phase == "over"
    t.line("rename Ann Änne")
    said = _said(t, out, "undo")
    assert t.undo_asked and t.session.phase == "over", said
    assert ("die Umbenennung von Ann in Änne wird nicht rückgängig gemacht (eine Umbenennung "
            "ist kein Schritt des Rennens): 'rename Änne Ann' berichtigt sie") in said, said


def test_nothing_to_undo_after_a_rename_at_the_setup_says_the_rename_stays():
    t, out = typed_table("second", P3)
    t.line("rename Cy Cyd")
    said = refusal(t, out, "undo")
    assert said.startswith("nothing to undo in this race; the rename of Cy to Cyd is not "
                           "undone"), said
