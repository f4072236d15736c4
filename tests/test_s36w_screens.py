"""Tester s36tp's findings on the full screen (s36fixw): what a fresh player saw at 80x24."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.device.events import DieEvent

pytestmark = pytest.mark.screen

EIGHT = ["Maria-Theresa", "Jonas", "Leonie", "Tariq", "Sofia", "Ömer", "Kai", "Évelyne"]


def _shown(log):
    top = round(log.scroll_y)
    return log.lines[top:top + log.scrollable_content_region.height]


def test_the_bots_moves_after_a_tall_die_show_when_it_is_the_players_turn():
    # s36tp finding 1: at 80x24 with eight seats the die's lines are taller than the
    # history pane, which showed the die's start; the seven bots' moves after it (one
    # of them a partnership with the player) stayed below the fold though it was her
    # turn and nothing had been scrolled. Once the table waits for her, the history
    # follows the newest line
    pyramid, events = scenes.pyramid_queue()
    app = scenes.app_for("second", EIGHT, seed=12, bots=EIGHT[1:], pyramid=pyramid,
                         odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "pyramid"])
            await scenes.settle(pilot)
            events.put(("event", DieEvent("die", "B", 1, "EVT 1", colour="blue", value=3)))
            for _ in range(500):
                await pilot.pause(0.02)
                if any(report.get("move") for report in app.session.reports):
                    break
            await scenes.settle(pilot)
            log = app.query_one("#log")
            die = next(i for i, line in enumerate(log.lines) if line.startswith("DIE blue 3"))
            assert log.line_count - die > log.scrollable_content_region.height
            assert str(app.query_one("#prompt").content).startswith("> Maria-Theresa's turn")
            shown = _shown(log)
            assert log.following and round(log.scroll_y) == log.max_scroll_y, shown
            assert any(row.startswith("Évelyne ") for row in shown), shown
            assert not app.query_one("#log").marker.display

    asyncio.run(play())

