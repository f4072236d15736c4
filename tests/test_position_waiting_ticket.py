"""s32 tester finding 7: ``position`` while a pyramid ticket waits for its die agrees
with ``show`` (the ticket is taken: one fewer left, the player holds it), and the
``pyramid odds`` command it pastes values no choice the player has already made."""

import io
import shlex

from camelhost import cli
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelup.game import parse_position

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _table():
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    for line in (SETUP, "leg red", "pyramid"):  # Ann's leg ticket; Ben's pyramid ticket waits
        t.line(line)
    return t, out


def _said(t, out, line):
    before = len(out.getvalue())
    t.line(line)
    return out.getvalue()[before:].splitlines()


def test_position_while_a_ticket_waits_says_so_as_show_counts_it(capsys):
    t, out = _table()
    shown = _said(t, out, "show")
    assert "Pyramid tickets left: 4 (Ben's pyramid ticket waits for its die)" in shown
    said = _said(t, out, "position")
    assert said[0].startswith("Position: ") and " | pyramid 5 | " in said[0]
    assert said[1] == ("Ben's pyramid ticket waits for its die: the line above is the "
                       "position before it (the notation counts a pyramid ticket with its "
                       "die: 5 left there, 4 at the table); with --waiting the odds count it "
                       "and value no choice until the die is out")
    command = said[2]
    assert command.endswith(" --players Ann,Ben,Cy --waiting")
    game = parse_position(said[0][len("Position: "):])
    assert game.turn == 1 and game.pyramid_tickets_left == 5
    # the pasted command: the ticket counted, no choice of Ben's valued
    words = shlex.split(command)
    assert words[:2] == ["pyramid", "odds"]
    capsys.readouterr()
    assert cli.main(words[1:] + ["--samples", "200"]) == 0
    report = capsys.readouterr().out.splitlines()
    assert report[0].startswith("second edition, leg 1, Ben's pyramid ticket waits for its "
                                "die; dice inside: ")
    assert report[-1] == ("Ben's choice is made: a pyramid ticket, +1 at leg scoring (RULES "
                          "1.7); pyramid tickets left: 4. No choice is valued until its die "
                          "is out: the next is Cy's")
    assert not any(line.startswith("Actions for") or line.startswith("Best tile for")
                   for line in report)
    assert any(line.startswith("Leg odds (exact") for line in report)


def test_position_on_a_turn_is_the_two_lines_it_was():
    t, out = _table()
    t.line("blue 2")  # Ben's die: Cy's turn
    said = _said(t, out, "position")
    assert len(said) == 2 and said[0].startswith("Position: ")
    assert said[1].endswith(" --players Ann,Ben,Cy")


def test_waiting_is_refused_for_a_race_that_is_over(capsys):
    line = ("second | leg 3 turn p1 start p0 | 2:green 4:yellow 5:red 7:purple 17:blue "
            "14:black,white | out red,blue | legs blue:5322 green:5322 yellow:5322 red:5322 "
            "purple:5322 | pyramid 3 | p0 coins=3 pyramid=1 | p1 coins=3 pyramid=1 | "
            "p2 coins=3 | winner - | loser -")
    assert cli.main(["odds", line, "--waiting"]) == 2
    assert ("--waiting: the race is over in this position, so no pyramid ticket waits for "
            "a die") in capsys.readouterr().err
