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


def test_bots_naming_someone_far_from_every_player_gets_no_name(capsys):
    # before: --bots Bob: did you mean Ben?
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--bots", "Bob"]) != 0
    assert capsys.readouterr().err.strip() == (
        "pyramid: --bots names 'Bob', who is not among the players (Ann, Ben, Cy)")
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cyd", "--bots", "Cdy"]) != 0
    assert capsys.readouterr().err.strip().endswith("; did you mean Cyd?")
