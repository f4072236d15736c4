"""tester46 finding 4: PgUp and PgDn reach every row of the full screen's history. The
first PgUp from the newest rows used to scroll a whole view's height while the
scrolled-back view has a row fewer (its "older lines" marker takes one), so one row
was shown in neither view; now each PgUp ends on the row just above the view it
left, and each PgDn starts on the row just below it, back to the newest rows."""

import asyncio

import pytest
import tui_scenes as scenes

pytestmark = pytest.mark.screen


def _view(log):
    """(first row shown, last row shown) of the history pane."""
    top = round(log.scroll_y)
    return top, top + log.scrollable_content_region.height - 1


def test_page_up_and_down_show_every_row(tmp_path):
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], tmp=tmp_path)

    async def play():
        async with app.run_test(size=(100, 30)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP]
                                    + ["zz%d" % n for n in range(1, 41)])
            await scenes.settle(pilot)
            log = app.query_one("#log")
            assert log.following
            first, last = _view(log)
            assert last == log.line_count - 1 and first > 2 * (last - first + 1)  # newest rows
            seen = [_view(log)]
            for key in ("pageup", "pageup", "pagedown", "pagedown"):
                await pilot.press(key)
                await scenes.settle(pilot)
                seen.append(_view(log))
            (top0, _b0), (top1, bottom1), (top2, bottom2), (top3, bottom3), (top4, bottom4) = seen
            assert not log.following  # scrolled back
            assert bottom1 == top0 - 1, seen  # the row just above the newest view
            assert bottom2 == top1 - 1, seen
            assert top3 == bottom2 + 1, seen  # PgDn: the row just below
            assert top4 <= bottom3 + 1, seen
            await pilot.press("end")
            await scenes.settle(pilot)
            assert log.following and _view(log)[1] == log.line_count - 1
            assert app.session.current == 0  # the refusals changed nothing

    asyncio.run(play())
