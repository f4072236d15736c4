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


def test_tab_and_a_pasted_tab_leave_the_keys_on_the_command_line():
    """Tester s34-2: a Tab (pressed for completion, or in a pasted line) moved the focus
    to a panel, and every key typed after it was dropped without a word; Esc did not
    bring it back. Tab and Shift-Tab now leave the focus where it is, a click on a panel
    takes none, and a Tab pasted into the command line reads as a space: the next
    command typed is taken."""
    from textual import events

    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee"], odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_MID_LEG[:1])
            box = app.query_one("#command")
            for key in ("tab", "tab", "shift+tab", "tab", "tab", "tab"):
                await pilot.press(key)
                assert app.focused is box, (key, app.focused)
            await pilot.click("#players")
            await pilot.click("#log")
            await pilot.pause()
            assert app.focused is box, app.focused
            await pilot.press(*scenes.keys_of("leg blue"), "tab", "enter")
            await pilot.pause()
            assert app.session.game.leg_tickets_left("blue") == [3, 2, 2]  # Ann took the 5
            box.post_message(events.Paste("leg\tgreen\t"))
            await pilot.pause()
            assert box.value == "leg green ", box.value
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.game.leg_tickets_left("green") == [3, 2, 2]  # Ben took the 5
            assert app.focused is box

    asyncio.run(play())
