"""The command line of the full screen while a line longer than the screen is typed
key by key: it shows the end being typed, Home shows its start, End its end again,
keys deleted come off what it shows, and Enter leaves it empty (its placeholder) (the line is one row
as wide as the screen; the screen is not laid out again for a key)."""

import asyncio
import html
import re

import pytest
import tui_scenes as scenes

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

LONG = ("leg red and then some more words to make the line longer than the screen "
        "is wide, a good deal longer")


def _shown(app):
    """What the command line shows on the screen as drawn (the screenshot's bottom
    row: the SVG's text on that row, in order)."""
    svg = app.export_screenshot()
    rows = {}
    for row, chunk in re.findall(r'<text [^>]*clip-path="url\(#[^"]*-line-(\d+)\)"[^>]*>'
                                 r'(.*?)</text>', svg):
        rows[int(row)] = rows.get(int(row), "") + html.unescape(chunk).replace("\xa0", " ")
    return rows[max(rows)]


def test_a_line_longer_than_the_screen_shows_where_it_is_typed():
    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee"])

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_MID_LEG[:2])
            await scenes.settle(pilot)
            await pilot.press(*scenes.keys_of(LONG))
            await pilot.pause()
            assert len(LONG) > 80
            shown = _shown(app).rstrip()
            assert LONG.endswith(shown[-40:]) and not shown.startswith(" leg red")
            await pilot.press("home")
            await pilot.pause()
            assert _shown(app).strip().startswith("leg red and then")
            await pilot.press("end", *["backspace"] * 12)
            await pilot.pause()
            assert _shown(app).rstrip().endswith(LONG[:-12][-30:])
            await pilot.press("enter")
            await pilot.pause()
            assert app.query_one("#command").value == ""
            box = app.query_one("#command")
            assert _shown(app).strip() == box.placeholder  # empty: its placeholder
            await pilot.press(*scenes.keys_of("leg red"))
            await pilot.pause()
            assert _shown(app).strip() == "leg red"

    asyncio.run(play())
