"""Full screen: a grey die whose numeral ink the pyramid could not read is completed
by one key, ``b`` or ``w`` (RULES 3.5 (c)), like a ``?`` value by 1-3."""

import asyncio
import queue
import types

import pytest
import tui_scenes as scenes
from camelhost.device.events import DieEvent
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.tui import TableApp
from textual.widgets import Log

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _screen(app, wid):
    widget = app.query_one(wid)
    if isinstance(widget, Log):
        return "\n".join(widget.lines)
    return str(widget.content)


def test_one_key_b_answers_the_grey_ink(tmp_path):
    events = queue.Queue()
    pyramid = types.SimpleNamespace(events=lambda: events, virtual=None, manual=False)
    journal = Journal(str(tmp_path / "ink.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy"], seed=1, journal=journal)
    app = TableApp(session, pyramid=pyramid, odds=scenes.no_odds)  # the odds never read

    async def play():
        async with app.run_test(size=(150, 50)) as pilot:
            app.query_one("#command").value = SETUP
            await pilot.press("enter")
            app.query_one("#command").value = "pyramid"
            await pilot.press("enter")
            events.put(("event", DieEvent("unknown", "B", 1, "EVT 1 unknown", best="grey-black",
                                          value=3)))
            for _ in range(600):  # until the pump thread has handed it over
                await pilot.pause(0.05)
                if session.phase == "ink":
                    break
            assert "PRESS B OR W" in _screen(app, "#announce")
            assert "black or white numerals?" in _screen(app, "#prompt")
            await pilot.press("b")  # one key, no Enter
            await pilot.pause()
            assert session.phase == "turn" and session.current == 1
            assert "BLACK  BACKWARD 3" in _screen(app, "#announce")
            assert session.game.stacks[12] == ["black"]  # 15 -> 12
            assert app.query_one("#command").value == ""
            await pilot.press("ctrl+q")

    asyncio.run(play())
    assert [e["type"] for e in journal.events][-2:] == ["die", "ink"]
