"""Typing help at the table (tester 4 finding 11): a misspelt die gets the nearest die
(``grean 1`` -> ``green 1``), a misspelt player's name before a command the words the
right name gets, ``--bots`` a name not among the players names them; a German table
types its colours in German (``leg rot``, ``blau`` at the private prompt) and the
journal keeps the canonical colours. One line each, nothing changed by a refusal."""

import camelup.editions
import pytest
from camelhost import cli
from camelhost.i18n import colour_words, set_language
from camelhost.table import parser
from typed_table import refusal, typed_table

CLASSIC = ["Anna", "Bert", "Carl", "Dora", "Emil"]
SECOND = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _table(edition="classic", players=CLASSIC, *lines):
    return typed_table(edition, players, *lines)


def _reply(t, out, typed):
    return "! " + refusal(t, out, typed)


@pytest.mark.parametrize("typed, meant, setup", [("grean 1", "green 1", False),
                                                  ("yelow 2", "yellow 2", True),
                                                  ("oragne 3", "orange 3", True)])
def test_a_misspelt_die_names_the_nearest_die(typed, meant, setup):
    t, out = _table("classic", CLASSIC, *(["draw"] if setup else []))
    assert _reply(t, out, typed) == ("! unknown command '%s'; did you mean '%s'? (help "
                                     "lists the commands)" % (typed, meant))


def test_a_misspelt_players_name_first_gets_the_words_the_right_name_gets():
    t, out = _table("classic", CLASSIC, "draw")
    right = _reply(t, out, "Emil: leg blue")
    assert right.endswith("a command takes no player's name, it acts for the player to act "
                          "(it is Anna's turn); type 'leg blue'")
    assert _reply(t, out, "Emli: leg blue") == right.replace("Emil", "Emli")
    assert _reply(t, out, "Bret: leg blue").endswith("type 'leg blue'")


def test_a_finish_card_after_a_name_sends_to_the_private_prompt_without_its_colour():
    t, out = _table("classic", CLASSIC, "draw")
    for typed in ("Emli: lose blue", "Emil: lose blue", "Emil finish loser blue"):
        said = _reply(t, out, typed)
        assert "blue" not in said and said.endswith("type 'lose'")
    assert "green" not in _reply(t, out, "Emil: win green")


def test_bots_naming_no_player_names_the_players_and_the_nearest(capsys):
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--bots", "Bne"]) != 0
    err = capsys.readouterr().err
    assert err.strip() == ("pyramid: --bots names 'Bne', who is not among the players "
                           "(Ann, Ben, Cy); did you mean Ben?")


def test_every_camel_colour_has_a_typed_word_in_the_catalogue():
    colours = set(camelup.editions.CLASSIC.dice + camelup.editions.SECOND.dice
                  + camelup.editions.SECOND.crazy)
    assert set(colour_words()) == colours  # the words a table reads and types: one source
    assert parser.local_colours() == {}  # English: the colours as they are


def test_a_german_table_types_its_colours_in_german():
    set_language("de")
    t, out = _table("second", ["Ann", "Ben", "Cy"], SECOND)
    s = t.session
    t.line("leg rot")     # Ann
    t.line("blau 2")      # Ben: a die typed takes a pyramid ticket
    t.line("win")         # Cy, privately
    before = len(out.getvalue())
    t.line("lila")
    shown = out.getvalue()[before:]
    assert "lila" not in shown and "purple" not in shown
    t.line("leg gruen")   # Ann: a keyboard without umlauts
    t.line("leg red")     # Ben: the English words still work
    acts = [e["action"] for e in s.journal.events if e.get("type") == "action"]
    assert acts == ["leg red", "finish winner purple", "leg green", "leg red"]
    assert [e["colour"] for e in s.journal.events if e.get("type") == "die"] == ["blue"]


def test_a_german_colour_the_private_prompt_refuses_is_not_said_to_be_no_colour():
    set_language("de")
    t, out = _table("second", ["Ann", "Ben", "Cy"], SECOND, "win", "blau", "leg rot",
                    "leg rot", "lose")
    before = len(out.getvalue())
    t.line("blau")  # Ann's blue is on the winner pile already
    said = out.getvalue()[before:]
    assert said.startswith("! ") and "blau" not in said
    assert "keine Farbe" not in said  # not 'that is no racing camel's colour'
    assert t.private == "loser"


def test_a_misspelt_german_colour_names_the_german_word():
    set_language("de")
    t, out = _table("second", ["Ann", "Ben", "Cy"], SECOND)
    assert "'gelb 2'" in _reply(t, out, "gelp 2")


@pytest.mark.parametrize("typed, why", [
    # 'rot' is no English colour: never 'loser rot 2' (was), nor 'type rot 2'; the
    # German word named in English, the line taken offered (tester38 finding 13)
    ("Omer rot 2", "'rot' is German for red: type 'red 2' (this table speaks English)"),
    ("Omer leg rot", "'rot' is German for red: type 'leg red' (this table speaks English)"),
    # the refusal of the rest offers only what is taken itself
    ("Omer leeg red", "unknown command 'leeg red'; did you mean 'leg red'? (help lists the "
                      "commands)")])
def test_a_suggestion_is_a_line_the_table_takes_else_the_player_is_named(typed, why):
    t, out = _table("second", ["Ömer", "Ben", "Cy"], SECOND)
    said = _reply(t, out, typed)
    assert said == ("! '%s': a command takes no player's name, it acts for the player to act "
                    "(it is Ömer's turn); without the name it is refused too: %s" % (typed, why))
    # a rest the table takes is still offered as it is
    assert _reply(t, out, "Omer red 2").endswith("(it is Ömer's turn); type 'red 2'")
    # and so is a misspelt command whose line is taken; one that is not, never
    assert _reply(t, out, "leeg red") == ("! unknown command 'leeg red'; did you mean 'leg "
                                          "red'? (help lists the commands)")
    assert "did you mean" not in _reply(t, out, "loser rot 2")
