"""The full screen names the game's journal (s34 tester finding 5, C2): after a crash
(kill -9 of the full screen) with the default journal, a table with many games in
journals/ had to guess the newest by its date-time name; only 'quit' printed it."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.screens import HelpScreen
from camelhost.ui.tui import TableApp

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot


def test_the_full_screen_names_its_journal_at_the_start_and_in_f1_help(tmp_path,
                                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "journals").mkdir()
    path = "journals/20261206-123629.jsonl"  # the default journal's name, as play gives it
    journal = Journal(path)
    journal.resume_command = "pyramid play --resume %s --lang de" % path  # as play sets it
    session = Session("second", ["Ann", "Ben", "Cy"], seed=2, journal=journal)
    app = TableApp(session, odds=scenes.leg_odds_only)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert list(app.query_one("#log").lines)[0] == "journal: %s" % path
            await pilot.press("f1")
            assert isinstance(app.screen, HelpScreen)
            assert app.screen.text.splitlines()[0] == (
                "This game's journal: %s; after a crash, continue it with: pyramid play "
                "--resume %s --lang de" % (path, path))
            await pilot.press("escape")
            await pilot.press("ctrl+q")

    asyncio.run(play())


def test_a_journal_in_memory_is_not_named():
    session = Session("second", ["Ann", "Ben", "Cy"], seed=2, journal=Journal(None))
    app = TableApp(session, odds=scenes.leg_odds_only)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert not any(line.startswith("journal: ") for line in app.query_one("#log").lines)
            await pilot.press("f1")
            assert "journal" not in app.screen.text.splitlines()[0]
            await pilot.press("escape")
            await pilot.press("ctrl+q")

    asyncio.run(play())
