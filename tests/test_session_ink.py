"""A grey die whose numeral ink the pyramid could not read (``unknown``, ``best``
grey-black/grey-white): the table asks just the ink (RULES 3.5 (c)); ``again`` or
another ``best`` keeps the re-release remedy; resume and undo as for a value."""

import io
import json
import shutil

import pytest
from camelhost.device.events import DieEvent
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session, TableError
from camelhost.table.view import table_view
from camelhost.ui import plain
from camelhost.ui.plain import PlainDisplay

# Crazy camels apart, nothing on them: RULES 3.5 (c), the numeral's colour decides.
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _unknown(best, seq, value=2):
    return DieEvent("unknown", "B1", seq, "EVT %d unknown best=%s" % (seq, best), best=best,
                    value=value)


def _table(tmp_path, path="g.jsonl"):
    out = io.StringIO()
    journal = Journal(str(tmp_path / path))
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=journal)
    t = Table(s, PlainDisplay(out), pyramid=None, manual=False)
    t.start()
    t.line(SETUP)
    return t, out, journal


def _state(s):
    return json.dumps(dict(table_view(s, odds=False), version=0), sort_keys=True, default=str), s.phase, s.current


def test_grey_white_best_asks_the_ink_and_w_moves_the_white_camel(tmp_path):
    t, out, journal = _table(tmp_path)
    s = t.session
    t.line("pyramid")  # Ann
    t.pyramid_event(_unknown("grey-white", 1))
    assert s.phase == "ink" and s.current == 0
    assert "black or white? press b or w" in out.getvalue()
    assert plain.prompt_line(table_view(s, odds=False)).startswith("> grey die: black or white numerals?")
    t.line("w")
    # RULES 3.5 (c): white numeral, white camel 16 -> 14
    assert s.game.stacks[14] == ["white"] and s.game.stacks[15] == ["black"]
    assert s.phase == "turn" and s.current == 1
    assert table_view(s, odds=False)["players"][0]["pyramid_tickets"] == 1
    assert "grey" not in s.game.dice_in_pyramid()
    types = [e["type"] for e in journal.events]
    assert types[-2:] == ["die", "ink"] and "rejected" not in types
    assert journal.events[-2]["best"] == "grey-white" and journal.events[-1]["ink"] == "white"


def test_again_returns_to_the_re_release_with_the_ticket_kept(tmp_path):
    t, out, journal = _table(tmp_path)
    s = t.session
    t.pyramid_event(_unknown("grey-black", 1))  # the slider without 'pyramid' first
    assert s.phase == "ink"
    t.line("again")
    assert "RETURN THE DICE AND RELEASE AGAIN" in out.getvalue()
    assert s.phase == "die" and s.current == 0 and "grey" in s.game.dice_in_pyramid()
    t.pyramid_event(DieEvent("die", "B1", 2, "EVT 2 DIE c=red", colour="red", value=1))
    assert s.game.stacks[3] == ["yellow", "purple", "red"]
    assert table_view(s, odds=False)["players"][0]["pyramid_tickets"] == 1 and s.current == 1
    s.command("undo")  # the whole pyramid action: ticket and die
    assert s.phase == "turn" and s.current == 0
    assert table_view(s, odds=False)["players"][0]["pyramid_tickets"] == 0


@pytest.mark.parametrize("best", ["red", "none", "purple"])
def test_a_best_other_than_a_grey_ink_keeps_the_re_release(tmp_path, best):
    t, out, journal = _table(tmp_path)
    t.line("pyramid")
    t.pyramid_event(_unknown(best, 1))
    assert "RETURN THE DICE AND RELEASE AGAIN (the colour could not be read)" in out.getvalue()
    assert t.session.phase == "die" and t.session.current == 0
    assert journal.events[-1]["type"] == "rejected"


def test_a_bad_answer_is_one_line_and_changes_nothing(tmp_path):
    t, out, journal = _table(tmp_path)
    s = t.session
    t.pyramid_event(_unknown("grey-white", 1))
    before = _state(s)
    lines = (tmp_path / "g.jsonl").read_text()
    with pytest.raises(TableError, match="b \\(black\\) or w \\(white\\)") as info:
        s.command("x")
    assert "\n" not in str(info.value)
    t.line("x")
    assert out.getvalue().splitlines()[-1].startswith("! 'x': the grey die's numerals")
    assert _state(s) == before
    assert (tmp_path / "g.jsonl").read_text() == lines


def test_ink_then_a_question_mark_value_then_resume_and_undo(tmp_path):
    t, out, journal = _table(tmp_path)
    s = t.session
    s.command("leg red")  # Ann
    before = _state(s)
    t.line("pyramid")  # Ben
    t.pyramid_event(_unknown("grey-black", 1, value=None))
    t.line("b")
    assert s.phase == "value" and "The grey-black die is out, value unknown" in out.getvalue()
    mid = _state(s)
    shutil.copy(tmp_path / "g.jsonl", tmp_path / "mid.jsonl")  # the laptop dies here
    again = Session.resume(Journal.resume(str(tmp_path / "mid.jsonl")))
    assert _state(again) == mid
    t.line("3")
    assert s.game.stacks[12] == ["black"]  # RULES 3.5 (c): black numeral, 15 -> 12
    assert s.current == 2
    after = _state(s)
    s.journal.close()
    again = Session.resume(Journal.resume(str(tmp_path / "g.jsonl")))
    assert _state(again) == after
    notices = again.command("undo")
    # the hint to type 'redo' is said at the table only (a replay cannot redo)
    assert notices[0]["text"] + notices[0]["hint"] == (
        "undone: Ben's pyramid ticket and its die grey-black 3; move the black camel back to "
        "space 15; put the grey die back in the "
        "pyramid (or type 'redo' to keep grey-black 3)")
    assert _state(again) == before


def test_undo_while_the_ink_is_asked_takes_the_ticket_back(tmp_path):
    t, out, journal = _table(tmp_path)
    s = t.session
    before = _state(s)
    t.line("pyramid")
    t.pyramid_event(_unknown("grey-white", 1))
    t.line("undo")
    assert _state(s) == before


def test_at_setup_the_grey_ink_does_not_matter(tmp_path):
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(io.StringIO()), manual=False)
    t.start()
    t.pyramid_event(_unknown("grey-white", 1, value=1))  # RULES 3.2: black crazy camel on 16
    assert s.phase == "setup" and s.setup_rolls == [("black", 1)]


class _FakeVirtual:
    def __init__(self):
        self.calls = []

    def release(self):
        self.calls.append("release")

    def return_dice(self):
        self.calls.append("return")


def test_a_bot_with_the_virtual_pyramid_has_the_dice_released_again():
    pyramid = _FakeVirtual()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, bots=[0], journal=Journal(None))
    s.command(SETUP)
    s.command("pyramid")  # the bot's ticket, taken before the table starts
    t = Table(s, PlainDisplay(io.StringIO()), pyramid=pyramid)
    t.pyramid_event(_unknown("grey-white", 1))
    assert s.phase == "die" and s.current == 0  # 'again': the same ticket waits
    assert pyramid.calls == ["release"]
    assert [e["type"] for e in s.journal.events][-2:] == ["die", "ink"]


def test_a_replay_tells_the_ink_and_value_asked_as_past_not_as_prompts(tmp_path, capsys):
    """A replay printed "press b or w" and "press 1, 2 or 3" in the middle of a game's
    history, the live table's prompts; it tells what was asked, then the answer's line."""
    from camelhost import cli
    t, _out, journal = _table(tmp_path)
    t.line("leg red")  # Ann
    t.line("pyramid")  # Ben
    t.pyramid_event(_unknown("grey-black", 1, value=None))
    t.line("b")
    t.line("3")
    journal.close()
    assert cli.main(["replay", str(tmp_path / "g.jsonl")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not any("press" in line for line in lines), lines
    ink = lines.index("GREY DIE (Ben's pyramid ticket), numerals not read for sure "
                      "(looked black): black or white asked at the table")
    assert lines[ink + 1] == "The grey-black die came out, value not read: asked at the table"
    assert lines[ink + 2].startswith("DIE grey-black 3 (Ben's pyramid ticket)")
