"""The tester's s35 noticed items: ``pyramid replay --brief`` says a race ended unscored,
``pyramid odds`` of a race's last position (``position`` after its end) names the dice
still inside, and German ``pyramid rules 1.13`` says Wettplättchen (leg tickets)."""

import io

from camelhost import cli
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.narration import position_line
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue 2:green 3:yellow,purple,red 15:black 16:white"
NAMES = ["Ann", "Ben", "Cy"]


def _play(lines, path=None):
    session = Session("second", NAMES, seed=3, journal=Journal(path))
    table = Table(session, PlainDisplay(io.StringIO()), pyramid=None)
    table.start()
    for text in lines:
        table.line(text)
    return session


def _replay_brief(tmp_path, lines, capsys):
    path = str(tmp_path / "game.jsonl")
    _play(lines, path)
    capsys.readouterr()
    assert cli.main(["replay", "--brief", path]) == 0
    return capsys.readouterr().out


def test_replay_brief_says_the_race_in_view_ended_unscored(tmp_path, capsys):
    out = _replay_brief(tmp_path, [SETUP, "leg red", "unscored"], capsys)
    assert ("Race 1 ended unscored: its last leg and the finish piles were not scored.\n"
            "Next: race ended unscored: 'again' for another race, 'quit' to leave\n") in out


def test_replay_brief_says_an_earlier_race_ended_unscored(tmp_path, capsys):
    out = _replay_brief(tmp_path, [SETUP, "leg red", "unscored", "again", "draw"], capsys)
    lines = out.splitlines()
    assert lines[1] == "Race 1 ended unscored ('unscored' was typed)"
    assert lines[2].startswith("Race 2, leg 1")
    assert "Race 2 ended unscored" not in out


def test_replay_brief_forgets_an_unscored_end_undone(tmp_path, capsys):
    out = _replay_brief(tmp_path, [SETUP, "leg red", "unscored", "undo"], capsys)
    assert "ended unscored" not in out


def test_odds_of_the_position_after_the_race_end_names_the_dice_inside(capsys):
    session = _play([SETUP, "fix 1:blue 2:green 3:yellow,purple 16:red 14:black 15:white",
                     "leg red", "pyramid", "red 1"])
    assert session.phase == "over"
    text = position_line(session).splitlines()[0].split(" ", 1)[1]
    capsys.readouterr()
    assert cli.main(["odds", text, "--players", ",".join(NAMES)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("second edition, leg 1: the race is over, no die comes out (dice still "
                     "inside: blue, green, yellow, purple, grey)")


def test_german_rules_1_13_says_wettplaettchen_for_the_tickets_held(capsys):
    assert cli.main(["rules", "1.13", "--lang", "de"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "einmal gewertet, mit den Wettplättchen, die in diesem Moment gehalten werden" in said
