"""A player's words at the table (s36 player tester findings 4, 5 and 10): a name's
start shared by two players is never guessed to be one of them; ``partner`` alone where
no partnership can be formed gets that reason, not a form to follow; ``release`` when no
die is wanted says why first, whatever the pyramid. Each refusal is one line and changes
nothing."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from typed_table import SETUP, refusal, typed_table

SIX = ["Ann", "Ben", "Bea", "Cy", "Dee", "Eve"]


@pytest.mark.parametrize("lang, said", [
    ("en", "'Be' could be Ben or Bea: type more of the name"),
    ("de", "'Be' könnte Ben oder Bea sein: tippe mehr vom Namen")])
def test_the_start_of_two_names_is_refused_naming_both(lang, said):
    set_language(lang)
    table, out = typed_table("second", SIX, SETUP)
    assert refusal(table, out, "partner Be") == said
    table.line("partner Bea")  # the whole name, or a start of one name only, is taken
    assert table.session.game.partner_of(0) == 2


def test_bots_named_by_a_start_of_two_names_are_refused_naming_both(capsys):
    rc = cli.main(["play", "--plain", "--players", "Ann,Ben,Bea", "--bots", "be",
                   "--pyramid", "manual", "--journal", "/nonexistent/never-written.jsonl"])
    err = capsys.readouterr().err
    assert rc != 0
    assert err == ("pyramid: --bots names 'be', who is not among the players (Ann, Ben, Bea): "
                   "it could be Ben or Bea; give the whole name\n")


@pytest.mark.parametrize("edition, players, said", [
    ("classic", SIX, "partner: partnerships are played in the second edition only, with 6-8 "
                     "players (RULES 3.8)"),
    ("second", ["Ann", "Ben", "Cy"], "partner: partnerships need 6-8 players, and this game "
                                     "has 3 (RULES 3.8)")])
def test_partner_alone_without_partnerships_says_why_not_the_form(edition, players, said):
    set_language("en")
    setup = SETUP if edition == "second" else "setup 1:blue 2:green 3:orange,yellow,white"
    table, out = typed_table(edition, players, setup)
    assert refusal(table, out, "partner") == said


def test_partner_alone_where_partnerships_are_played_teaches_the_form():
    set_language("en")
    table, out = typed_table("second", SIX, SETUP)
    assert refusal(table, out, "partner").startswith("partner: check the form: partner <name>")


def test_release_with_typed_dice_after_the_race_says_it_is_over():
    set_language("en")
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP)
    session = table.session
    while session.phase != "over":
        table.line("pyramid")
        table.line("%s 3" % next(d for d in session.game.dice_in_pyramid() if d != "grey"))
    assert refusal(table, out, "release") == (
        "release: the race is over: 'again' starts another race with the same seats, 'quit' "
        "leaves the table")
