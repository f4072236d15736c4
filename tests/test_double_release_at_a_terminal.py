"""s36 tester finding 16 as the tester met it: ``pyramid play --plain`` at a terminal
(a pty) with the virtual pyramid, ``pyramid`` and then ``release`` typed twice at once
(an impatient double press). The first push's die is Ann's; the second line, read after
that die came, is refused in one line (it was typed before the table moved on): Ben's
turn is not spent on a die Ann's double press released, and the journal holds one
pyramid ticket and one die."""

import os

import pytest
from camelhost.table.journal import read_events
from pty_table import pyramid_on_a_pty, read_until

pytestmark = [pytest.mark.process,  # the table behind a pty, its virtual pyramid's firmware
              pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pty (POSIX)")]


def test_a_double_release_at_a_terminal_is_never_the_next_players_pyramid_ticket(tmp_path):
    journal = str(tmp_path / "j62.jsonl")
    shown = b""
    with pyramid_on_a_pty("play", "--plain", "--players", "Ann,Ben,Cy", "--pyramid", "virtual",
                          "--seed", "62", "--journal", journal) as fd:
        shown = read_until(fd, shown, b"Ann's turn", timeout=60)
        os.write(fd, b"pyramid\n")
        shown = read_until(fd, shown, b"release a die from the pyramid")
        os.write(fd, b"release\nrelease\n")  # both at once
        shown = read_until(fd, shown, b"so nothing is done; it is Ben's turn")
        os.write(fd, b"quit\n")
        shown = read_until(fd, shown, b"game saved")
    text = shown.decode(errors="replace").replace("\r", "")
    refused = [line for line in text.splitlines() if line.startswith("! release: typed ")]
    # typed while Ann's ticket waited for its die (or, read before that was noted,
    # before Ann played): either way said, and nothing pushed
    assert len(refused) == 1 and refused[0].endswith("so nothing is done; it is Ben's turn"), text
    assert "Ben takes a pyramid ticket" not in text
    moves = [e for e in read_events(journal) if e["type"] in ("pyramid", "die", "action")]
    assert [e["type"] for e in moves] == ["pyramid", "die"], moves
