"""The full screen's history follows the newest line after a die nobody scrolled from
(tester s42 finding 6): at 80x24, five players, the classic edition and a tile on the
track, each die's lines (the die, what it carried, where it went, the tile it landed on
and what that paid, the new leaders) were taller than the history pane, which stopped
at the die's first rows and said newer lines were below (``PgDn or End``), nobody
having scrolled: the tile paid and the leaders stayed below the fold. The banner says
such a die whole (its detail line), so the history follows the newest line, through
the screen's later layouts too (a resize, the help opened and closed); the player's own
scrolling back is kept as before."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.tui import HistoryLog, TableApp
from seeded_pyramid import SeededPyramid, arrives

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

PLAYERS = ["Annika", "Bartholomew", "Chen", "Dagny", "Émile"]
#: the tile paid, a row of the die's lines (``… `` its start on the pane's top row)
TILE_PAID = "lands on Bartholomew's oasis tile there: Bartholomew +1 coin"


def _paid(rows):
    """True when one of ``rows`` says the tile Bartholomew is paid for."""
    return any(row.lstrip(" …") == TILE_PAID for row in rows)


class ScriptedPyramid(SeededPyramid):
    """The virtual pyramid's pushes, each releasing the next of ``dice`` (``(label,
    value)``): the dice the tester's seeded pyramid released."""

    def __init__(self, dice):
        SeededPyramid.__init__(self)
        self.dice = list(dice)

    def _push_content(self, dice, wait, timeout):
        return SeededPyramid._push_content(self, (self.dice.pop(0),), wait, timeout)


def _app():
    """The tester's table: ``pyramid play --players Annika,... --edition classic
    --pyramid virtual --seed 11`` (the camels drawn from the seed), its pyramid
    releasing yellow 3, then white 2."""
    pyramid = ScriptedPyramid([("yellow", 3), ("white", 2)])
    session = Session("classic", PLAYERS, seed=11, journal=Journal(None))
    app = TableApp(Table(session, None, pyramid=pyramid, auto_setup=True))
    app.odds_function = scenes.quick_odds  # the advice's rows shape the 80x24 screen
    return app, pyramid


def _rows(app):
    """The history pane's rows as drawn."""
    log = app.query_one("#log", HistoryLog)
    return [log.render_line(y).text.rstrip()
            for y in range(log.scrollable_content_region.height)]


def _follows(app, newest):
    """The history shows its newest line (``newest``), its marker off."""
    log = app.query_one("#log", HistoryLog)
    rows = _rows(app)
    assert log.following and not app.query_one("#more").display, rows
    assert log.lines[-1] == newest and rows[-1] == newest, rows
    return rows


async def _dice(pilot, pyramid):
    """The tester's game to its second die, each die released by a typed ``release``;
    after each die: the history's rows."""
    app = pilot.app
    shown = []
    for lines in (["leg blue", "tile 4 +", "win blue", "pyramid", "release"],
                  ["lose orange", "pyramid", "release"]):
        for line in lines:
            await scenes.type_line(pilot, line)
        arrives(app, pyramid)
        await scenes.settle(pilot)
        shown.append(_rows(app))
    return shown


@pytest.mark.parametrize("size", [(80, 24), (80, 28), (100, 30)])
def test_the_history_follows_a_die_taller_than_its_pane(size):
    app, pyramid = _app()

    async def play():
        async with app.run_test(size=size) as pilot:
            await scenes.settle(pilot)
            for said, leading in zip(await _dice(pilot, pyramid),
                                     ("Now leading: 1st blue, 2nd yellow",
                                      "Now leading: 1st white, 2nd blue"), strict=True):
                assert said[-1] == leading, said
                assert _paid(said), said
                assert not any("newer below" in row for row in said), said
            _follows(app, "Now leading: 1st white, 2nd blue")
            # the banner says the die whole, the history's first rows did before
            banner = str(app.query_one("#announce").content) + str(
                app.query_one("#detail").content)
            assert "WHITE" in banner and "Annika's pyramid ticket: die white 2" in banner
            assert "Bartholomew +1 coin" in banner

    asyncio.run(play())


def test_the_history_keeps_following_through_a_resize_the_help_and_an_error_line():
    app, pyramid = _app()
    newest = "Now leading: 1st white, 2nd blue"

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            await _dice(pilot, pyramid)
            _follows(app, newest)
            for size in ((80, 30), (80, 24), (100, 24), (80, 24)):
                await pilot.resize_terminal(*size)
                await scenes.settle(pilot)
                assert _paid(_follows(app, newest)), size
            await pilot.press("f1")
            await scenes.settle(pilot)
            await pilot.press("escape")
            await scenes.settle(pilot)
            assert _paid(_follows(app, newest))
            await pilot.press("f3")  # no leg scored yet: the error line takes rows
            await scenes.settle(pilot)
            assert app.query_one("#error").display
            _follows(app, newest)

    asyncio.run(play())


def test_the_players_scrolling_back_is_kept_through_a_resize():
    app, pyramid = _app()

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            await _dice(pilot, pyramid)
            log = app.query_one("#log", HistoryLog)
            for _ in range(4):  # well back: a taller pane still ends above the newest
                await pilot.press("pageup")
            await scenes.settle(pilot)
            assert not log.following and round(log.scroll_y) < log.max_scroll_y
            for size in ((80, 30), (80, 24)):
                await pilot.resize_terminal(*size)
                await scenes.settle(pilot)
                assert not log.following, size  # still where the player scrolled to
                assert app.query_one("#more").display or "newer below" in str(
                    app.query_one("#command").placeholder)
            await pilot.press("end")
            await scenes.settle(pilot)
            _follows(app, "Now leading: 1st white, 2nd blue")

    asyncio.run(play())
