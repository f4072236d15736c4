"""A player's name is theirs. A German table turns a colour word it reads where a
colour is expected into the colour (``leg rot``), but a colour word inside a longer name
(``Anna Rot``) stays as it was typed, in a rename and in a line that starts with a name."""

import pytest
from camelhost.i18n import set_language
from typed_table import refusal, typed_table


@pytest.fixture
def german():
    set_language("de")
    yield
    set_language("en")


def test_a_rename_to_a_name_holding_a_german_colour_word_keeps_it_as_typed(german):
    t, out = typed_table("second", ["Ann", "Ben", "Cy"], "draw")
    t.line("rename Ann Anna Rot")
    t.line("rename Ben Blau Ben")
    assert t.session.names == ["Anna Rot", "Blau Ben", "Cy"]
    journaled = [e for e in t.session.journal.events if e.get("type") == "rename"]
    assert [e["name"] for e in journaled] == ["Anna Rot", "Blau Ben"]
    assert "Ann heißt ab jetzt Anna Rot" in out.getvalue()
    t.line("rename Anna Rot Anna Grün")  # the old name found as it is written too
    assert t.session.names == ["Anna Grün", "Blau Ben", "Cy"]
    t.line("leg rot")  # where a colour is expected, the colour word is still the colour
    assert t.session.game.held_tickets(0) == [("red", 5)]


def test_a_lone_german_colour_is_still_refused_as_a_name(german):
    t, out = typed_table("second", ["Ann", "Ben", "Cy"], "draw")
    said = refusal(t, out, "rename Ann Rot")
    assert said.startswith("rename Ann Rot: ") and "Kamel" in said, said
    assert t.session.names == ["Ann", "Ben", "Cy"]


def test_a_line_starting_with_a_name_holding_a_colour_word_says_the_name_as_written(german):
    t, out = typed_table("second", ["Anna Rot", "Ben", "Cy"], "draw")
    # the name said back as the player is called, not 'Anna rot' (its colour word read as
    # the colour red, then said back in German)
    assert refusal(t, out, "Anna Rot: leg rot") == (
        "'Anna Rot: leg rot': ein Befehl nimmt keinen Spielernamen, er gilt für den Spieler "
        "am Zug (Anna Rot ist am Zug); tippe 'leg rot'")
