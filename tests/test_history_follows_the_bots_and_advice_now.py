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


def test_the_best_actions_at_80_columns_say_what_they_pay_now():
    # s36tp finding 8: at 80 columns the advice showed the coach's balance only,
    # "purple leg ticket -0.36", beside "+1.18" for the same ticket in its odds row: a
    # loss to a player's eye. A balance below zero is followed by the value now, as the
    # wide form and the finish-card lines say it
    import re

    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee"], seed=5)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg green", "tile 7 +",
                                            "pyramid", "purple 2", "leg yellow"])
            await scenes.settle(pilot)
            return str(app.query_one("#odds").content)

    panel = asyncio.run(play())
    rows = {line.split()[0]: line.split()[-2] for line in panel.splitlines()[1:6]}
    advice = " ".join(panel.splitlines()[6:])
    tickets = re.findall(r"(\w+) leg ticket ([+-]\d\.\d\d)( \(now ([+-]\d\.\d\d)\))?", advice)
    assert tickets, panel
    assert any(float(balance) < 0 for _c, balance, _p, _n in tickets), panel
    for colour, balance, now_part, now in tickets:
        if float(balance) < 0:  # read as a loss alone: the value now beside it
            assert now_part, panel
            assert now == rows[colour], (colour, now, panel)  # the odds row's value
    assert "(balance" in panel  # what the first number is, as before


def test_the_bots_line_under_the_race_over_players_never_leaves_a_name_alone():
    # s36tp finding 2: eight seats, seven bots, at 80x24: beside the race-over panel the
    # players table is narrower than in play, and the bots' line, cut to "Fi…", still
    # wrapped: "Hal" alone on a row under the seats, read as one more seat. The line
    # keeps to one row, naming the players who are not bots when the bots don't fit.
    # The race is played out at a plain table (Ann takes pyramid tickets, every die
    # typed; the bots move as at any table), the full screen opened on its end: the
    # race-over panel and the players table beside it, as after the last die typed
    import io
    import random

    from camelhost.table.controller import Table
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from camelhost.ui.plain import PlainDisplay
    from camelhost.ui.tui import TableApp

    players = ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]
    s = Session("classic", players, seed=9, journal=Journal(None), bots=range(1, 8))
    table = Table(s, PlainDisplay(io.StringIO()), manual=True)
    table.start()
    table.line("draw")
    rng = random.Random(1)
    for _step in range(200):
        if s.phase == "over":
            break
        table.line("%s %d" % (rng.choice(sorted(s.game.dice_in_pyramid())), rng.randint(1, 3))
                   if s.phase == "die" else "pyramid")
    assert s.phase == "over"
    app = TableApp(s, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            assert app.query_one("#left").current == "over-box"
            region = app.query_one("#players").region
            lines = app.query_one("#players").render().plain.splitlines()
            return region, lines

    region, lines = asyncio.run(play())
    assert len(lines) == 1 + len(players) + 1, lines  # the heading, the seats, the bots
    assert lines[-1] == " (bot) all but Ann", lines
    assert all(len(line.rstrip()) <= region.width for line in lines), (region, lines)
