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


@pytest.mark.parametrize("typed, said", [
    ('""', "--bots '\"\"': bot name 1 of 1 is empty"),
    (",", "--bots ,: bot name 1 of 2 is empty"),
    ("Ben,", "--bots Ben,: bot name 2 of 2 is empty"),
    ("Ben, ,Cy", "--bots 'Ben, ,Cy': bot name 2 of 3 is empty"),
])
def test_play_bots_with_an_empty_name_is_refused_in_one_line(typed, said, tmp_path, capsys):
    # as --players with an empty name is: never dropped without a word (journal43 item 5)
    path = tmp_path / "g.jsonl"
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--bots", typed,
                     "--journal", str(path)]) != 0
    err = capsys.readouterr().err
    assert err == ("pyramid: %s: give the players whose seats bots play by name, e.g. "
                   "--bots Ben,Cy (no bots: leave --bots out); no game was started\n"
                   % said), err
    assert not path.exists()


def test_a_resume_with_an_empty_bot_name_is_refused_the_journal_unchanged(tmp_path, capsys,
                                                                         monkeypatch):
    path = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--seed", "3",
                     "--journal", str(path)]) == 0
    capsys.readouterr()
    before = path.read_bytes()
    assert cli.main(["play", "--plain", "--resume", str(path), "--bots", ","]) != 0
    err = capsys.readouterr().err
    assert err.startswith("pyramid: --bots ,: bot name 1 of 2 is empty") and err.count(
        "\n") == 1, err
    assert path.read_bytes() == before
