"""On the full screen with the virtual pyramid, F5 (its slider) pressed while the
finish-card picker is open is the table's F5 (tester46c finding 1): the picker closes,
``(no finish card played)`` in the history, then the push; the die's lines follow and a
colour key pressed after it plays no card. Before, F5 did nothing there and the next
colour key played a card."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.screens import FinishCardPicker
from camelhost.ui.tui import TableApp
from seeded_pyramid import SeededPyramid, arrives

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot


def test_f5_in_the_picker_closes_it_playing_no_card_and_pushes():
    pyramid = SeededPyramid()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=61, journal=Journal(None))
    table = Table(session, None, pyramid=pyramid)
    table.clock = lambda: 100.0
    app = TableApp(table)
    app.odds_function = scenes.no_odds

    async def play():
        async with app.run_test(size=(100, 30)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.type_line(pilot, "leg blue")  # Ann
            await scenes.type_line(pilot, "win")  # Ben's picker
            await scenes.settle(pilot)
            assert isinstance(app.screen, FinishCardPicker)
            before = len(app.query_one("#log").history)
            await pilot.press("f5")  # Ben pushes the slider instead
            await scenes.settle(pilot)
            assert not isinstance(app.screen, FinishCardPicker)
            assert len(pyramid.fell) == 1, "F5 in the picker pushed nothing"
            arrives(app, pyramid)
            await scenes.settle(pilot)
            lines = list(app.query_one("#log").history)[before:]
            assert lines[0] == "(no finish card played)", lines
            assert lines[1].startswith("Ben takes a pyramid ticket: "), lines
            assert session.current == 2
            await pilot.press("r")  # a colour key after it: the command line's, no card
            await scenes.settle(pilot)
            assert session.game.pile("winner") == [] and session.current == 2
            assert app.table.screen_question is None

    asyncio.run(play())
