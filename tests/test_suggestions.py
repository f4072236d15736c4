""""Did you mean" offers only a sensible reading of what was typed (tester s35 finding 5:
``foo 3`` was offered ``boo 3``, a letter of three replaced): a few letters left out,
added, swapped or replaced (``camelhost.suggest.near``), else no suggestion."""

import pytest
from camelhost import cli
from typed_table import refusal, typed_table

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.mark.parametrize("typed", ["foo 3", "moo 3", "foo", "lo", "bob", "Bob leg red"])
def test_a_word_far_from_every_command_gets_no_suggestion(typed):
    # before: 'foo 3' and 'moo 3': did you mean 'boo 3'?; 'lo': did you mean 'lose'?
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP)
    assert "did you mean" not in refusal(table, out, typed)


@pytest.mark.parametrize("typed, meant", [("uno", "undo"), ("sow", "show"), ("pyr", "pyramid"),
                                          ("undp", "undo"), ("tlie 3 +", "tile 3 +"),
                                          ("chere 4", "cheer 4"), ("grean 1", "green 1"),
                                          ("pyramdi", "pyramid")])
def test_a_slip_of_the_fingers_still_gets_the_command(typed, meant):
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP)
    assert refusal(table, out, typed) == (
        "unknown command '%s'; did you mean '%s'? (help lists the commands)" % (typed, meant))


@pytest.mark.parametrize("typed, meant", [("lgo red", "leg red"), ("log blue", "leg blue"),
                                          ("lag green", "leg green"), ("bez red", "bet red"),
                                          ("tyle 3 +", "tile 3 +")])
def test_a_command_with_two_slips_followed_by_its_form_gets_the_command(typed, meant):
    # tester s38 finding 6: 'lgo red' (meant 'leg red') had no suggestion, 'leeg red' had:
    # a word with its first letter right, two slips from a command whose form the rest
    # of the line has, is that command
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP)
    assert refusal(table, out, typed) == (
        "unknown command '%s'; did you mean '%s'? (help lists the commands)" % (typed, meant))


@pytest.mark.parametrize("typed", ["lgo", "lgo 3", "foo red", "wim red", "wen red"])
def test_two_slips_without_the_commands_form_or_of_a_finish_card_get_no_suggestion(typed):
    # without a colour after it 'lgo' is no command's form; a finish card's word is never
    # read so freely: 'wim red' offered 'win red' would say a finish card's colour
    # back (RULES 1.8)
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP)
    said = refusal(table, out, typed)
    assert "did you mean" not in said, said


def test_the_slip_in_german():
    from camelhost.i18n import set_language
    set_language("de")
    try:
        table, out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP)
        assert refusal(table, out, "lgo rot") == (
            "unbekannter Befehl 'lgo rot'; meintest du 'leg rot'? (help zeigt die Befehle)")
    finally:
        set_language("en")


def test_bots_naming_someone_far_from_every_player_gets_no_name(capsys):
    # before: --bots Bob: did you mean Ben?
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--bots", "Bob"]) != 0
    assert capsys.readouterr().err.strip() == (
        "pyramid: --bots names 'Bob', who is not among the players (Ann, Ben, Cy)")
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cyd", "--bots", "Cdy"]) != 0
    assert capsys.readouterr().err.strip().endswith("; did you mean Cyd?")
