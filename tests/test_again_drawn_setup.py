"""s31 tester finding 7: a race set up by the table's own draw (the virtual pyramid's
``auto_setup``) shows the whole board after ``again`` too, as race 1 does and as
docs/table.md says: track, dice, leg tickets, players' coins and who leads."""

import io

from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay


def _status_block(lines, race):
    """The board's lines from 'Race N, leg 1' to the prompt."""
    start = lines.index("Race %d, leg 1" % race)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("> "))
    return lines[start:end]


def test_again_with_a_drawn_setup_shows_the_whole_board_as_race_one_does():
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None))
    t = Table(s, PlainDisplay(out), auto_setup=True)
    t.start()
    first = _status_block(out.getvalue().splitlines(), 1)
    assert any(line.startswith("Leg tickets left:") for line in first)
    for _turn in range(80):
        if s.phase == "over":
            break
        inside = [c for c in s.edition.racing if c not in s.game.dice_out]
        t.line("%s 3" % inside[0])
    assert s.phase == "over"
    before = len(out.getvalue())
    t.line("again")
    said = out.getvalue()[before:].splitlines()
    assert s.race_no == 2 and s.phase == "turn"
    second = _status_block(said, 2)
    assert said.index("Race 2, leg 1") > next(
        i for i, line in enumerate(said) if line.startswith("Race 2 set up (drawn):"))
    # the same kinds of line as race 1's board: track, dice, tickets, every player, the lead
    assert [line.split(":")[0] for line in second[1:]] == [line.split(":")[0] for line in first[1:]]
    assert "Ann: 3 coins; no leg tickets; 0 finish cards played" in second
