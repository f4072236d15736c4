"""s31 tester finding 8, the full screen at 80x24: a refused command's echo says the
command once; the history's top row is never the tail of an entry (a die's indented
lines, a wrapped line) shown as if it were whole: it starts with the cut mark; the F1
box shows two commands of one row (``win orange  lose orange``) a row each, never cut
between the words of one."""

import asyncio
import html
import re

import pytest
import tui_scenes as scenes
from camelhost.ui.tui import CUT_MARK

pytestmark = pytest.mark.screen

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
# Ben's green 2 carries orange (an indented 'carrying' and 'from' line); tile 3 + is
# refused (camels there); Dee's blue 3 leaves the pane's top inside its die's entry
LEG = [scenes.CLASSIC_SETUP, "leg orange", "green 2", "tile 3 +", "white 1", "blue 3"]


def _rows(log):
    return [log.render_line(y).text.rstrip() for y in range(log.scrollable_content_region.height)]


def _entry_starts(log):
    """The history's lines that begin an entry (not indented), as a wrap would start them."""
    return [line for line in log.history if not line.startswith(" ")]


def test_a_refused_commands_reason_does_not_repeat_the_command():
    app = scenes.app_for("classic", PLAYERS, seed=11)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, LEG[:4] + ["show"])
            await scenes.settle(pilot)
            history = list(app.query_one("#log").history)
            refused = [line for line in history if line.startswith("> tile 3 +")]
            assert refused == ["> tile 3 +  (refused: space 3 holds camels (yellow, white) "
                               "(RULES 1.5))"], refused

    asyncio.run(play())


def _top_is_whole_or_marked(log):
    """True when the top row is marked; asserts it otherwise starts an entry, and that
    only the top row is ever marked."""
    rows = _rows(log)
    top = rows[0]
    assert not any(row.startswith(CUT_MARK) for row in rows[1:]), rows
    if top.startswith(CUT_MARK):
        # the rest of an entry: its text follows the mark, its indent dropped
        assert any(h.strip() and h.strip().startswith(top[len(CUT_MARK):])
                   for h in log.history), top
        return True
    assert not top.startswith(" "), rows
    assert any(h.startswith(top) for h in _entry_starts(log)), rows
    return False


def test_the_history_top_row_is_an_entry_start_or_carries_the_cut_mark():
    app = scenes.app_for("classic", PLAYERS, seed=11)

    async def play():
        marked = 0
        async with app.run_test(size=(80, 24)) as pilot:
            log = app.query_one("#log")
            for line in LEG:
                await scenes.type_line(pilot, line)
                await scenes.settle(pilot)
                marked += _top_is_whole_or_marked(log)
            # four rows up (Dee's die, its ticket and echo: the dice still in and the
            # tickets left are the counts' rows, not history lines, since tester s33-2
            # finding 11), the pane's top is inside Cy's die: its 'from' line, marked
            log.scroll_relative(y=-4, animate=False, immediate=True)
            await scenes.settle(pilot)
            marked += _top_is_whole_or_marked(log)
            assert _rows(log)[0] == CUT_MARK + "from space 3 to 4"
            # scrolled back row by row (the wheel), every top row is whole or marked:
            # inside Ben's die twice (its 'from' line, its 'carrying' line)
            for _step in range(7):
                log.scroll_relative(y=-1, animate=False, immediate=True)
                await scenes.settle(pilot)
                marked += _top_is_whole_or_marked(log)
            assert marked >= 4

    asyncio.run(play())


def _screen_rows(app):
    svg = app.export_screenshot()
    rows = {}
    for m in re.finditer(r'<text[^>]*y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(float(m.group(1)), []).append(
            html.unescape(re.sub("<[^>]+>", "", m.group(2))))
    return ["".join(rows[y]).replace("\xa0", " ") for y in sorted(rows)]


def test_the_help_box_shows_each_finish_command_whole_on_a_row():
    app = scenes.app_for("classic", PLAYERS, seed=11)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.CLASSIC_SETUP])
            await pilot.press("f1")
            await scenes.settle(pilot)
            rows = _screen_rows(app)
            # the bare commands first (the colour picked next, unseen), then the form
            # with the colour typed (masked as typed): each command whole on its row
            assert any(re.search(r"win  lose +a finish card on the overall winner / loser",
                                 row) for row in rows), rows
            at = next(i for i, row in enumerate(rows) if "win orange" in row)
            assert re.search(r"win orange +the same, its colour typed with it", rows[at]), rows[at]
            assert re.search(r"lose orange +it is typed\)", rows[at + 1]), rows[at + 1]
            # the other two-command rows fit their column whole
            assert any(re.search(r"tile 7 \+  tile 7 - +place or move your tile", row)
                       for row in rows), rows

    asyncio.run(play())
