"""The full screen's history at 80x24 (tester finding 9): each refusal's reason stays
in the history under its command, and a block taller than the history pane (the
advice of ``best``) shows its start, not its tail."""

import asyncio

import pytest
import tui_scenes as scenes

pytestmark = pytest.mark.screen


def test_each_refusals_reason_stays_in_the_history_with_its_command(tmp_path):
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], tmp=tmp_path)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg rot", "tile 1 +",
                                            "leeg red"])
            await scenes.settle(pilot)
            history = list(app.query_one("#log").history)
            at = history.index("> leg rot  (refused: 'rot' is not a racing camel of the "
                               "second edition (one of: blue, green, yellow, red, purple))")
            assert history[at + 1].startswith("> tile 1 +  (refused: a tile may "
                                              "never go on space 1")
            # the newest: its reason once, on the error line, until the next command
            assert history[at + 2] == "> leeg red  (refused)"
            assert str(app.query_one("#error").content).startswith(
                "! unknown command 'leeg red'")
            assert not any(line.startswith("! ") for line in history[at:])
            assert app.session.current == 0

    asyncio.run(play())


def test_the_advice_of_best_shows_its_start_in_a_short_history(tmp_path):
    # eight players: the history pane keeps a few rows, the advice wraps to more
    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
                         tmp=tmp_path)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg red", "leg blue"])
            await scenes.settle(pilot)
            await scenes.type_line(pilot, "best")  # for Cy
            await scenes.settle(pilot)
            log = app.query_one("#log")
            height = log.scrollable_content_region.height
            first = next(i for i, line in enumerate(log.lines) if line.startswith("Best for"))
            assert log.line_count - first > height  # taller than the pane
            assert round(log.scroll_y) == first  # its start at the top, not its tail
            assert not log.following  # the newest lines are below: PgDn, End
            await pilot.press("end")
            await scenes.settle(pilot)
            assert log.following and round(log.scroll_y) == log.max_scroll_y

    asyncio.run(play())
