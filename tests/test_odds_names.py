"""One rule for the players' names (s35): ``pyramid odds --players`` refuses the names
``pyramid play --players`` refuses (a seat, a colour or command word at any table,
``camelhost.table.session.new_name_problem``), with the same words; before, odds refused
only a seat and took ``Lila``, ``undo`` or ``hilfe``."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    set_language("en")


SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
POSITION = SETUP[len("setup "):]


def _play_refusal(tmp_path, capsys, players, lang="en"):
    """What ``pyramid play --players PLAYERS`` says on stderr, after ``--players X: ``."""
    path = tmp_path / "g.jsonl"
    rc = cli.main(["play", "--players", players, "--plain", "--journal", str(path),
                   "--lang", lang])
    err = capsys.readouterr().err.strip()
    assert rc != 0 and not path.exists(), err
    head = "pyramid: --players %s: " % players
    assert err.startswith(head), err
    return err[len(head):]


def _odds_refusal(capsys, players, lang="en"):
    """What ``pyramid odds ... --players PLAYERS`` says, after ``argument --players: ``."""
    with pytest.raises(SystemExit) as done:
        cli.main(["odds", POSITION, "--players", players,
                  "--lang", lang])
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert "Leg odds" not in captured.out and "Etappe" not in captured.out, captured.out
    last = captured.err.strip().splitlines()[-1]
    head = " --players: "  # argparse's "argument --players: " in the table's language
    assert head in last, last
    return last.split(head, 1)[1]


@pytest.mark.parametrize("players, lang, clash", [
    ("Ann,Lila,Cy", "en", "Lila is the purple camel's word at a German table"),
    ("Ann,undo,Cy", "en", "undo is the command undo at every table"),
    ("Ann,hilfe,Cy", "en", "hilfe is the command help at a German table"),
    ("Ann,Red,Cy", "en", "Red is the red camel's word at every table"),
    ("Ann,p1,Cy", "en", "p1 is written as a seat"),
    ("Ann,Gruen,Cy", "de", "Gruen ist"),
])
def test_odds_refuses_the_names_play_refuses_with_the_same_words(tmp_path, capsys, players,
                                                                 lang, clash):
    said = _odds_refusal(capsys, players, lang)
    assert said.startswith(clash), said
    assert said == _play_refusal(tmp_path, capsys, players, lang)


def test_odds_still_takes_ordinary_names_and_shows_them(capsys):
    assert cli.main(["odds", POSITION, "--players",
                     "Ludwig,Rotraud,Cy", "--top", "3", "--samples", "200"]) == 0
    assert "Actions for Ludwig, best first" in capsys.readouterr().out
