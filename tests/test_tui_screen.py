"""Full screen on a small terminal: log lines wrapped (never cut), the last error kept
whole in the status line until the next command, the die's distance in large digits
(RULES 5: large clear text)."""

import asyncio

import pytest
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.tui import TableApp, wrap_lines
from textual.widgets import Digits, Log

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def test_wrap_lines_keeps_every_word():
    line = "  Ann: green 5 ticket +5, pyramid ticket +1, copied from Ben +1 => net +7, 3 -> 10"
    pieces = wrap_lines(line, 30)
    assert all(len(p) <= 30 for p in pieces) and len(pieces) > 1
    assert " ".join(p.strip() for p in pieces) == line.strip()


@pytest.mark.screen
def test_small_screen_wraps_the_log_keeps_the_error_and_shows_big_digits():
    session = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=2, journal=Journal(None))
    app = TableApp(session)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            async def typed(text):
                app.query_one("#command").value = text
                await pilot.press("enter")
                await pilot.pause()

            await typed(SETUP)
            await typed("leg green")
            await typed("blue 3")
            assert str(app.query_one("#big", Digits).value) == "+3"
            await typed("leg orange")
            error = str(app.query_one("#error").content)
            assert error.startswith("! 'orange' is not") and error.endswith("purple)")
            assert app.query_one("#error").size.height >= 2  # wrapped, not cut
            log = app.query_one("#log", Log)
            width = log.scrollable_content_region.width
            assert all(len(line) <= width for line in log.lines)
            assert any("one stays inside" in line for line in log.lines)
            await typed("show")  # the next command clears it
            assert str(app.query_one("#error").content) == ""
            await pilot.press("ctrl+q")

    asyncio.run(play())
