"""A whole second-edition leg played on the full screen by keys alone: every command
typed key by key, a die value completed by one key, a finish card through the
picker (one key), the leg scored on screen (RULES 1.10, 5)."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.screens import FinishCardPicker
from camelhost.ui.tui import TableApp
from textual.widgets import ContentSwitcher

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot


def test_a_whole_leg_by_keys(tmp_path):
    journal = Journal(str(tmp_path / "keys.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    app = TableApp(session, odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            async def keys(text, enter=True):
                await pilot.press(*scenes.keys_of(text))
                if enter:
                    await pilot.press("enter")
                await pilot.pause()

            await keys(scenes.SECOND_SETUP)
            await keys("leg yellow")          # Ann
            await keys("red 2")               # Ben: a die typed takes his pyramid ticket
            await keys("win")                 # Cy: the picker
            assert isinstance(app.screen, FinishCardPicker)
            await pilot.press("g")            # green, never drawn
            await pilot.pause()
            await keys("tile 9 -")            # Ann
            await keys("grey black ?")        # Ben: value unknown...
            await keys("3", enter=False)      # ... one key, no Enter
            assert session.phase == "turn" and session.current == 2
            await keys("blue 1")              # Cy
            await keys("pyramid")             # Ann takes a ticket
            await keys("purple 2")            # ... and the die
            await keys("leg blue")            # Ben
            await keys("yellow 1")            # Cy: the fifth die ends the leg
            await scenes.settle(pilot)
            assert app.query_one("#left", ContentSwitcher).current == "leg-box"
            panel = str(app.query_one("#legscore").content)
            assert panel.startswith("LEG 1 SCORED")
            for name in ("Ann", "Ben", "Cy"):
                assert any(r.startswith(name) for r in panel.splitlines()), name
            assert "Race 1, leg 2" in str(app.query_one("#leaders").content)
            await pilot.press("ctrl+q")

    asyncio.run(play())
    kinds = [e["type"] for e in journal.events]
    assert kinds.count("die") == 5 and kinds.count("value") == 1
    assert {"type": "action", "player": 2, "action": "finish winner green"} in journal.events
    assert session.game.leg == 2

