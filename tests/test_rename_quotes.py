"""A player's name given in quotation marks is read without them, and a name with no
letter or digit is refused, alike in a typed ``rename``, ``pyramid play --players`` and
``pyramid odds --players`` (tester finding, minor: ``rename Ben "Ben Jr"`` made every
line read ``"Ben Jr"'s turn``; ``rename Ben " "`` and ``rename Ben "`` named a player
``" "`` and ``"``)."""

import pytest
from camelhost import cli
from test_odds_names import POSITION, SETUP, _odds_refusal, _play_refusal
from typed_table import refusal, typed_table

PLAYERS = ["Ann", "Ben", "Cy"]


@pytest.mark.parametrize("given", ['"Ben Jr"', "\u201cBen Jr\u201d", "\u201eBen Jr\u201c",
                                   "'Ben Jr'", "\u2018Ben Jr\u2019", "\u00abBen Jr\u00bb",
                                   '  " Ben  Jr "  '])
def test_a_rename_in_quotation_marks_names_the_player_without_them(given):
    table, out = typed_table("second", PLAYERS, SETUP)
    before = len(out.getvalue())
    table.line("rename Ben " + given)
    table.line("leg red")  # Ann's: Ben is to act next, by his new name
    said = out.getvalue()[before:]
    assert said.startswith("Ben is called Ben Jr from now on\n"), said
    assert "Ben Jr's turn" in said and '"' not in said and "\u201c" not in said, said
    assert table.session.names == ["Ann", "Ben Jr", "Cy"]
    assert table.session.journal.events[-2] == {"type": "rename", "player": 1,
                                                "name": "Ben Jr"}


@pytest.mark.parametrize("given, why", [
    ('" "', "the name is empty: give a name with a letter or a digit"),
    ('""', "the name is empty: give a name with a letter or a digit"),
    ("\u201e \u201c", "the name is empty: give a name with a letter or a digit"),
    ('"', 'a name needs a letter or a digit, and " has none'),
    ("?!", "a name needs a letter or a digit, and ?! has none"),
    ('"-"', "a name needs a letter or a digit, and - has none"),
])
def test_a_rename_to_no_name_is_refused_in_one_line_the_game_unchanged(given, why):
    table, out = typed_table("second", PLAYERS, SETUP)
    assert refusal(table, out, "rename Ben " + given) == "rename Ben %s: %s" % (given, why)
    assert table.session.names == PLAYERS


def test_players_given_in_quotation_marks_are_read_without_them(tmp_path, capsys,
                                                                monkeypatch):
    from camelhost.table.journal import read_events
    path = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--players", '"Ann Marie",\u201eBen\u201c,Cy', "--plain",
                     "--pyramid", "manual", "--journal", str(path), "--seed", "3"]) == 0
    assert read_events(str(path))[0]["players"] == ["Ann Marie", "Ben", "Cy"]
    capsys.readouterr()
    assert cli.main(["odds", POSITION, "--players", '"Ann Marie",Ben,Cy', "--top", "3",
                     "--samples", "200"]) == 0
    assert "Actions for Ann Marie, best first" in capsys.readouterr().out


@pytest.mark.parametrize("players, said", [
    ("Ann,?,Cy", "a name needs a letter or a digit, and ? has none"),
    ('Ann,"-",Cy', "a name needs a letter or a digit, and - has none"),
])
def test_players_with_no_letter_or_digit_are_refused_as_rename_refuses_them(
        tmp_path, capsys, players, said):
    assert _play_refusal(tmp_path, capsys, players) == said
    assert _odds_refusal(capsys, players) == said


def test_players_only_quotation_marks_are_refused_as_empty(tmp_path, capsys):
    assert _play_refusal(tmp_path, capsys, 'Ann,"",Cy').startswith(
        "player name 2 of 3 is empty")
    assert _odds_refusal(capsys, 'Ann," ",Cy').startswith("give names separated by commas")


@pytest.mark.parametrize("players", ['"Ann, Ben",Cy', "Dee,\u201eAnn, Ben\u201c , Cy",
                                     "'Ann,Ben',Cy,Dee"])
def test_a_quoted_name_with_a_comma_is_refused_as_rename_refuses_it(tmp_path, capsys,
                                                                    players):
    # the quotation marks are read before the commas: never the names "Ann and Ben"
    said = "a name holds no comma (commas separate the names of --players)"
    assert _play_refusal(tmp_path, capsys, players) == said
    assert _odds_refusal(capsys, players) == said
    table, out = typed_table("second", PLAYERS, SETUP)
    assert refusal(table, out, 'rename Ben "Ben, Jr"') == 'rename Ben "Ben, Jr": ' + said
    assert table.session.names == PLAYERS


def test_a_quoted_name_with_a_comma_is_refused_in_german(tmp_path, capsys):
    assert _play_refusal(tmp_path, capsys, '"Ann, Ben",Cy', lang="de") == (
        "ein Name enthält kein Komma (Kommas trennen die Namen bei --players)")


def test_bots_named_in_quotation_marks_are_read_as_players_reads_them(tmp_path, capsys,
                                                                     monkeypatch):
    from camelhost.table.journal import read_events
    path = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--players", " 'Ann Marie' ,O'Brien,Cy", "--bots",
                     "\u201eCy\u201c,'Ann Marie'", "--plain", "--pyramid", "manual",
                     "--journal", str(path), "--seed", "3"]) == 0
    first = read_events(str(path))[0]
    assert first["players"] == ["Ann Marie", "O'Brien", "Cy"]
    assert first["bots"] == [0, 2]
