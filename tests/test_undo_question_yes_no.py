"""The undo question answered yes or no (tester s39 finding 15). After a leg's scoring
``undo`` asks first ("... type 'undo' again or y/yes to do it; n/no or anything else
leaves it", which named only 'undo' before s40); a
player answering ``n`` read "unknown command 'n'", and ``y`` "type the die as e.g.
'yellow 2'" (read as the yellow die). A yes (``y``, ``yes``, German ``j``, ``ja``) does
the undo, as a second ``undo`` does; a no (``n``, ``no``, German ``nein``) leaves the
game as it was, in one line. Elsewhere ``y`` is still the yellow die."""

import pytest
from camelhost.i18n import set_language
from typed_table import typed_table

#: a leg typed at the table, its last die scoring it
LEG = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg red", "pyramid",
       "blue 2", "pyramid", "red 1", "pyramid", "green 3", "pyramid", "yellow 2", "pyramid",
       "purple 1"]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _scored(lang="en"):
    """A table right after leg 1's scoring, the undo question asked."""
    set_language(lang)
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], *LEG, seed=4)
    assert table.session.game.leg == 2
    asked = _said(table, out, "undo")
    assert table.undo_asked, asked
    return table, out


def _said(table, out, typed):
    before = len(out.getvalue())
    table.line(typed)
    return out.getvalue()[before:].splitlines()


@pytest.mark.parametrize("lang, yes", [("en", "y"), ("en", "yes"), ("en", "Y"),
                                       ("de", "j"), ("de", "ja"), ("de", "y")])
def test_a_yes_to_the_undo_question_does_the_undo(lang, yes):
    table, out = _scored(lang)
    said = _said(table, out, yes)
    assert said[0].startswith("undone: " if lang == "en" else "Zurückgenommen: "), said
    assert table.session.game.leg == 1 and not table.undo_asked
    assert not any(line.startswith("! ") for line in said), said


@pytest.mark.parametrize("lang, no", [("en", "n"), ("en", "no"), ("de", "n"),
                                      ("de", "nein")])
def test_a_no_to_the_undo_question_leaves_the_game_in_one_line(lang, no):
    table, out = _scored(lang)
    events = len(table.session.journal.events)
    said = _said(table, out, no)
    assert said[0] == ("nothing undone" if lang == "en" else "nichts zurückgenommen"), said
    assert not any(line.startswith("! ") for line in said), said
    assert table.session.game.leg == 2 and len(table.session.journal.events) == events
    assert not table.undo_asked


def test_y_is_no_answer_when_no_question_waits():
    table, out = _scored()
    _said(table, out, "n")
    said = _said(table, out, "y")  # no question now: refused as before, nothing undone
    assert len(said) >= 1 and said[0].startswith("! "), said
    assert table.session.game.leg == 2


@pytest.mark.parametrize("lang, answers", [
    ("en", ": type 'undo' again or y/yes to do it; n/no or anything else leaves it"),
    ("de", ": tippe noch einmal 'undo' oder j/ja, um es zu tun; n/nein oder alles andere "
           "lässt es")])
def test_the_undo_question_names_the_answers_it_takes(lang, answers):
    """s40: the question read only "type 'undo' again to do it, anything else leaves it"
    though a yes does it and a no leaves it: it names them, in the table's language."""
    set_language(lang)
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], *LEG, seed=4)
    said = _said(table, out, "undo")
    assert said[0].endswith(answers), said
