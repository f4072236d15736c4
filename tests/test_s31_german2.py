"""A second fresh tester on a German table (s31 tester 2): the table's own colour
words may be shortened as English ones are, the help says so in German (finding 4)."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table, help_text
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _table(lang="de"):
    set_language(lang)
    out = io.StringIO()
    table = Table(Session("second", ["Anna", "Ben", "Cora"], seed=5, journal=Journal(None)),
                  PlainDisplay(out), manual=True)
    table.start()
    table.line(SETUP)
    return table, out


@pytest.mark.parametrize("typed, colour", [
    ("li", "purple"), ("lil", "purple"), ("ro", "red"), ("gel", "yellow"),
    ("grü", "green"), ("gru", "green"), ("bl", "blue"), ("pu", "purple"), ("r", "red")])
def test_a_german_table_shortens_its_own_colour_words_for_a_leg_ticket(typed, colour):
    table, out = _table()
    table.line("leg %s" % typed)
    game = table.session.game
    assert [c for c, _v in game.held_tickets(0)] == [colour], out.getvalue()


@pytest.mark.parametrize("typed, colour", [("li 2", "purple"), ("gel 1", "yellow"),
                                           ("ro 3", "red")])
def test_a_german_table_types_a_die_with_a_shortened_german_colour(typed, colour):
    table, out = _table()
    table.line("pyramid")
    table.line(typed)
    assert colour in table.session.game.dice_out, out.getvalue()


def test_a_german_prefix_of_two_dice_is_refused_as_ambiguous_and_changes_nothing():
    table, out = _table()
    table.line("pyramid")
    before = out.getvalue()
    table.line("gr 2")  # grün or grau
    said = out.getvalue()[len(before):]
    assert "grün" in said and "grau" in said
    assert table.session.game.dice_out == []


def test_an_english_table_still_refuses_german_prefixes():
    table, out = _table("en")
    table.line("leg li")
    assert table.session.game.held_tickets(0) == []
    assert "'li' is not a racing camel" in out.getvalue()


def test_the_german_help_shortens_german_colour_words_and_each_example_works():
    set_language("de")
    first = help_text("second").splitlines()[0]
    assert first.endswith("r, l, grü):"), first
    table, out = _table()
    for short in ("l", "grü"):
        table.line("leg %s" % short)
    assert [c for c, _v in table.session.game.held_tickets(0)] == ["purple"]
    assert [c for c, _v in table.session.game.held_tickets(1)] == ["green"]


def test_the_english_help_keeps_its_english_examples():
    set_language("en")
    assert help_text("second").splitlines()[0].endswith("r, pu, gre):")


def _said(table, out, *lines):
    before = len(out.getvalue())
    for line in lines:
        table.line(line)
    return out.getvalue()[before:]


def test_an_ambiguous_german_prefix_is_refused_in_german_words():
    table, out = _table()
    said = _said(table, out, "pyramid", "gr 2", "leg g")
    assert "grün oder grau" in said and "grün oder gelb" in said
    assert " or " not in said


def test_a_bare_colour_word_is_answered_with_a_german_example():
    table, out = _table()
    said = _said(table, out, "lila")
    assert "'lila 2'" in said and "purple" not in said


def test_an_unscored_end_says_it_was_typed_not_that_the_board_was_lost():
    for lang, typed in (("en", "'unscored' was typed"), ("de", "'unscored' wurde getippt")):
        table, out = _table(lang)
        said = _said(table, out, "unscored")
        assert typed in said, said
        assert "restore" not in said and "wiederherstellen" not in said


def test_the_german_help_gives_its_examples_in_german_colour_words_and_they_work():
    set_language("de")
    text = help_text("second", "manual")
    for example in ("leg rot ", "win rot  lose rot", "Wettplättchen rot", "rot 2  grau weiß 3",
                    "'rot ?'", "fix 7:rot,blau", "darauf blau", "setup 1:blau,grün 2:rot"):
        assert example in text, example
    for english in ("red", "blue", "green", "grey", "white"):
        assert english not in text.split(), english
    # the examples are commands the German table takes
    table, out = _table()
    _said(table, out, "leg rot", "win rot", "pyramid", "rot 2")
    game = table.session.game
    assert game.held_tickets(0) == [("red", 5)] and game.dice_out == ["red"]


def test_the_english_help_keeps_english_colour_words():
    set_language("en")
    text = help_text("second", "manual")
    assert "leg red " in text and "fix 7:red,blue" in text and "red 2  grey white 3" in text


def test_the_german_table_calls_the_finish_piles_by_the_rules_words_only():
    table, out = _table()
    said = _said(table, out, "win", "rot", "lose", "blau", "odds")
    assert "Gesamtsieger" in said and "Gesamtverlierer" in said, said
    for other in ("Gesamt-", "-Stapel", "Sieger-", "Verlierer-"):
        assert other not in said, other


def test_a_die_line_names_the_tile_before_the_space_it_sends_the_unit_back_to():
    from camelhost.table.view import move_path
    from camelup.editions import get_edition

    move = {"from": 8, "to": 9, "crossed": False, "tile": {"space": 10, "side": "-", "owner": 4}}
    names = ["Anna", "Ben", "Cora", "Dirk", "Eva"]
    set_language("en")
    assert move_path(move, names, get_edition("second")) == \
        "space 8 to 10 on Eva's booing tile, back 1 to 9"
    set_language("de")
    assert move_path(move, names, get_edition("second")) == \
        "Feld 8 bis 10 auf dem Plättchen von Eva (Ausbuhen), 1 zurück auf 9"
