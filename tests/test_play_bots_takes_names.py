"""``pyramid play --bots coach``: a player who met ``--bots`` as ``pyramid tournament``
takes it (policies: ``coach,ev,...``) is told that play's takes the players' names, and
which policy the table's bots play (tester s37tp finding 13). A name not among the
players that is no policy keeps its refusal as it was."""

import pytest
from camelhost import cli
from camelhost.table.bots import TABLE_POLICY


@pytest.mark.parametrize("typed", ["coach", "ev", "Greedy"])
def test_play_bots_given_a_policy_says_it_takes_names_and_which_policy_bots_play(typed, capsys):
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--bots", typed]) != 0
    err = capsys.readouterr().err.strip()
    assert err == (
        "pyramid: --bots names %r, who is not among the players (Ann, Ben, Cy): --bots takes "
        "players' names, e.g. --bots Ben,Cy; the bots' policy is always %s (pyramid "
        "tournament's --bots chooses policies)" % (typed, TABLE_POLICY)), err
    assert "\n" not in err


def test_play_bots_given_a_name_near_no_one_is_refused_as_before(capsys):
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--bots", "Bob"]) != 0
    assert capsys.readouterr().err.strip() == (
        "pyramid: --bots names 'Bob', who is not among the players (Ann, Ben, Cy)")


def test_play_bots_in_german_says_it_in_german(capsys):
    from camelhost.i18n import set_language
    try:
        assert cli.main(["play", "--plain", "--lang", "de", "--players", "Ann,Ben,Cy",
                         "--bots", "coach"]) != 0
    finally:
        set_language("en")
    err = capsys.readouterr().err
    assert "--bots takes" not in err and "--bots Ben,Cy" in err, err
