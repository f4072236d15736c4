"""The full screen never acts a late line or push for another player (s36 tester
findings 19 and 16): an Enter pressed while the screen still answered the line before
(Ann's move, then the bots') is taken with the table's moment it was pressed in, so
Ann's retyped ``leg red`` is refused, not played as Cy's; F5 pressed again while the
virtual pyramid's die is on its way pushes nothing."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.tui import KEY_CLOCK, TableApp
from textual import events

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot


def _error(app):
    return str(app.query_one("#error").content)


def test_an_enter_pressed_while_the_bots_moved_is_not_taken_for_the_next_player(tmp_path):
    journal = Journal(str(tmp_path / "late.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy"], seed=65, bots=[1], journal=journal)
    app = TableApp(session, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await pilot.press(*scenes.keys_of("leg red"))
            # the second Enter: pressed while the screen answered the first (a terminal
            # stamps each key when it comes; a busy screen takes it afterwards)
            pressed = KEY_CLOCK()
            await pilot.press("enter")
            await pilot.pause()
            assert session.current == 2  # Ann, then Ben (bot): Cy's turn
            await pilot.press(*scenes.keys_of("leg red"))
            enter = events.Key("enter", None)
            enter.time = pressed
            app.post_message(enter)
            await scenes.settle(pilot)
            assert _error(app) == ("! leg red: typed before Ann and Ben (bot) played, so "
                                   "nothing is done; it is Cy's turn"), _error(app)
            assert session.game.held_tickets(2) == []
            await scenes.type_line(pilot, "leg red")  # Cy types it now: Cy's
            assert session.game.held_tickets(2) == [("red", 3)]
            await pilot.press("ctrl+q")

    asyncio.run(play())
    actions = [(e["player"], e["action"]) for e in journal.events if e["type"] == "action"]
    assert actions[0] == (0, "leg red") and actions[-1] == (2, "leg red")
    assert len(actions) == 3  # Ann's, Ben's (bot), Cy's own


class _Pyramid:
    """The virtual pyramid's slider: each push recorded; its die on its way until the
    test hands it over (here: never)."""

    def __init__(self):
        self.pushes = 0

    def release(self):
        self.pushes += 1

    def return_dice(self):
        pass


def test_f5_again_while_the_die_is_on_its_way_pushes_nothing(tmp_path):
    pyramid = _Pyramid()
    journal = Journal(str(tmp_path / "f5.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy"], seed=61, journal=journal)
    table = Table(session, None, pyramid=pyramid)
    app = TableApp(table)
    app.odds_function = scenes.no_odds

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.type_line(pilot, "pyramid")
            await pilot.press("f5")
            await pilot.press("f5")  # pressed again: the first push's die still comes
            await scenes.settle(pilot)
            assert pyramid.pushes == 1
            assert _error(app) == "! release: Ann's die is on its way", _error(app)
            await pilot.press("ctrl+q")

    asyncio.run(play())
    assert [e["type"] for e in journal.events].count("pyramid") == 1
