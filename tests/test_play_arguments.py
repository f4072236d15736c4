"""QA finding: ``play`` checks its arguments before it draws (and prints) a seed or
makes a journal; an empty player name is refused, never silently dropped."""

import os

import pytest
from camelhost import cli


@pytest.mark.parametrize("players,why", [
    ("Ann,Ann,Ben", "player names must differ: Ann is given twice"),
    ("Ann,ann,Ben", "player names must differ: ann is given twice"),
    ("Ann,,Ben", "player name 2 of 3 is empty"),
    ("Ann,Ben,Cy,", "player name 4 of 4 is empty"),
    (" ,Ann,Ben,Cy", "player name 1 of 4 is empty"),
    ("Ann,Ben", "the second edition is for 3 to 8 players, not 2"),
])
def test_play_validates_players_before_drawing_the_seed(players, why, capsys, tmp_path,
                                                        monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = cli.main(["play", "--players", players, "--plain"])
    captured = capsys.readouterr()
    assert rc == 1
    assert "seed" not in captured.out and captured.out == ""
    assert why in captured.err and captured.err.count("\n") == 1
    assert "--players" in captured.err and "Traceback" not in captured.err
    # nothing was left behind: no journal folder, no empty journal
    assert not os.path.exists(tmp_path / "journals") or not os.listdir(tmp_path / "journals")


def test_play_prints_no_seed_when_the_pyramid_cannot_be_opened(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--plain",
                   "--pyramid", str(tmp_path / "no-such-port")])
    captured = capsys.readouterr()
    assert rc == 1 and "seed" not in captured.out
    assert captured.err.startswith("pyramid: ") and captured.err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["--players", "Ann,Ben,Cy"],
    ["--players", "Ann,Ben,Cy", "--journal", "g.jsonl", "--seed", "3"],
    [],
])
def test_play_upto_damage_without_resume_is_refused_not_ignored(argv, capsys, tmp_path,
                                                                monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(["play", "--plain", "--upto-damage"] + argv)
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == ""  # no seed, no game started
    assert captured.err == ("pyramid: --upto-damage goes with --resume FILE (it resumes a "
                            "journal up to its first damaged line); no game was started\n")
    assert os.listdir(tmp_path) == []  # no journal made
