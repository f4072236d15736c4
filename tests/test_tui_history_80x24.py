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
            at = history.index("> leg rot  (refused: 'rot' is German for red: type 'leg "
                               "red' (this table speaks English))")
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


def test_no_scrollbar_thumb_is_drawn_beside_the_history_rows(tmp_path):
    # Testers s31 (finding 8) and s31-2 (finding 10): scrolled back at 80x24, the
    # history's scrollbar thumb stood at the right end of its text rows as block glyphs
    # ('▅▅', '▃▃'), read as part of the rows. The history scrolls as before (PgUp, PgDn,
    # End, the wheel) and says when newer lines are below; no scrollbar is drawn, and
    # its rows keep their width
    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
                         tmp=tmp_path)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg red", "leg blue", "best"])
            await scenes.settle(pilot)
            log = app.query_one("#log")
            await pilot.press("end")
            await scenes.settle(pilot)
            await pilot.press("pageup")
            await scenes.settle(pilot)
            assert log.max_scroll_y > 0 and not log.following  # scrolled back
            region = log.region
            for y in range(region.y, region.y + region.height):
                for x in range(region.x, region.x + region.width):
                    widget, _ = app.screen.get_widget_at(x, y)
                    assert widget is log, (x, y, widget)
            assert log.scrollable_content_region.width == region.width - 2

    asyncio.run(play())


def test_the_next_line_typed_after_a_long_block_shows_its_reply(tmp_path):
    # Tester s32-2, finding 2: after 'best' held the history at the advice's start, the
    # next command's reply ('leg green', a rename) stayed below the pane until End. The
    # next line typed brings the history back to the newest line: its reply shows
    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
                         tmp=tmp_path)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg red", "leg blue",
                                            "best"])
            await scenes.settle(pilot)
            log = app.query_one("#log")
            assert not log.following  # held at the advice's start
            await scenes.type_line(pilot, "leg green")  # Cy takes it
            await scenes.settle(pilot)
            assert log.following and round(log.scroll_y) == log.max_scroll_y
            height = log.scrollable_content_region.height
            shown = log.lines[round(log.scroll_y):round(log.scroll_y) + height]
            assert any(line.startswith("> leg green") for line in shown), shown
            # a rename's reply the same way, after 'best'
            await scenes.type_line(pilot, "best")
            await scenes.settle(pilot)
            assert not log.following
            await scenes.type_line(pilot, "rename Dee Dora")
            await scenes.settle(pilot)
            assert log.following and round(log.scroll_y) == log.max_scroll_y
            assert "Dora" in log.lines[-1], log.lines[-3:]

    asyncio.run(play())


def test_a_reply_taller_than_the_pane_shows_its_start_with_the_command(tmp_path):
    # Tester s32-2, finding 2: a long undo (across a leg's end: the coins back, the
    # tickets, the dice) showed only its tail at 80x24, the coins off the top. A reply
    # taller than the pane shows its start, the command's echo on the top row
    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
                         tmp=tmp_path)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg red", "leg blue",
                                            "red 1", "blue 1", "green 1", "yellow 1",
                                            "purple 1"])
            await scenes.settle(pilot)
            await scenes.type_line(pilot, "undo")
            await scenes.settle(pilot)
            await scenes.type_line(pilot, "undo")  # asked, then done
            await scenes.settle(pilot)
            log = app.query_one("#log")
            height = log.scrollable_content_region.height
            echo = max(i for i, line in enumerate(log.lines) if line.startswith("> undo"))
            assert log.line_count - echo > height, log.lines[echo:]  # taller than the pane
            assert round(log.scroll_y) == echo, (log.lines[echo:], round(log.scroll_y))
            assert not log.following

    asyncio.run(play())


EIGHT = ["Maria-Theresa", "Jonas", "Leonie", "Tariq", "Sofia", "Ömer", "Kai", "Évelyne"]


@pytest.mark.parametrize("lang, lines, die, said, counts", [
    ("en", ["pyramid", "blue 3"], "DIE blue 3 (Maria-Theresa's pyramid ticket)",
     "Maria-Theresa's pyramid ticket: die blue 3.",
     ("Can still come out", "Pyramid tickets left")),
    ("de", ["pyramid", "grau weiß 3"], "WÜRFEL grau-weiß 3 (Pyramidenplättchen von",
     "Würfel für Maria-Theresa: grau-weiß 3.",
     ("Können noch herauskommen", "Pyramidenplättchen übrig")),
    ("de", ["tile 5 +", "pyramid", "blau 3"], "WÜRFEL blau 3 (Pyramidenplättchen von Jonas)",
     "Würfel für Jonas: blau 3.", ("Können noch herauskommen", "Pyramidenplättchen übrig")),
])
def test_a_dies_own_line_always_shows_at_eight_seats(lang, lines, die, said, counts):
    # tester s33-2 finding 11: at 80x24 with eight players the history's few rows showed
    # the die's tail (the dice that can still come out and the pyramid tickets left,
    # word for word the counts' rows just above) and not the die's own line. The die's
    # words show: in the history's rows, held at the die's line, or, when the banner
    # in view says the die whole (its detail line, ``said``), there, the history
    # following its newest line (tester s42 finding 6: its tail, a tile paid and the
    # new leaders, stayed below the fold, nobody having scrolled)
    from camelhost.i18n import set_language
    set_language(lang)
    try:
        app = scenes.app_for("second", EIGHT, seed=12)

        async def play():
            async with app.run_test(size=(80, 24)) as pilot:
                await scenes.type_lines(pilot, [scenes.SECOND_SETUP] + lines)
                await scenes.settle(pilot)
                log = app.query_one("#log")
                rows = [str(line.text).rstrip() for line in
                        (log.render_line(y) for y in range(log.scrollable_content_region.height))]
                detail = str(app.query_one("#detail").content) if app.die_in_banner() else None
                return rows, list(log.history), log.following, detail

        rows, history, following, detail = asyncio.run(play())
    finally:
        set_language("en")
    if not any(row.startswith(die) for row in rows):
        assert detail is not None and detail.startswith(said), (rows, detail)
        assert following and rows[-1] == history[-1], rows
    assert not any(row.startswith(counts) for row in rows), rows
    assert not any(line.startswith(counts) for line in history), history


def test_the_prompt_line_says_how_to_confirm_an_undo_asked_about_at_80x24():
    """Tester s34-2: at 80x24 an undo across a leg's end asked first in a question taller
    than the history, shown from its start: how to confirm (its last words) was below
    the fold, and the prompt line still said whose turn it was. While the undo is asked
    about, the prompt line says that 'undo' again does it; any other line (a refused one
    too) leaves it, and the prompt line says the turn again."""
    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
                         odds=scenes.no_odds)
    prompt = "> undo asked above: 'undo' or y/yes does it, n/no or anything else leaves it"

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg red", "leg blue",
                                            "red 1", "blue 1", "green 1", "yellow 1",
                                            "purple 1"])
            turn = str(app.query_one("#prompt").content)
            assert turn.startswith("> Hal's turn"), turn
            await scenes.type_line(pilot, "undo")
            await scenes.settle(pilot)
            assert str(app.query_one("#prompt").content) == prompt
            await scenes.type_line(pilot, "leg rot")  # refused: the undo is left
            assert str(app.query_one("#prompt").content) == turn
            await scenes.type_line(pilot, "undo")
            assert str(app.query_one("#prompt").content) == prompt
            await scenes.type_line(pilot, "undo")  # done
            assert app.session.game.leg == 1
            assert not str(app.query_one("#prompt").content).startswith("> undo")

    asyncio.run(play())
