"""The full screen's history after the die that ends a leg (s43): the banner says the
die whole (its detail line and the leaders line in view), and the history holds only
what the banner cannot say. It held the die's own lines at the pane's top (s35, when
the banner could give the die's detail line up) and cut the leg's scoring under them,
``▲ older lines shown`` with nobody having scrolled; now the leg's scoring shows from
its start when it is taller than the pane, and the history follows the newest line
when it fits. A die the banner does not say whole still shows from its own line, and
the replies the banner never says (the advice of ``best``, an ``undo``) still show from
their start while the banner says the last die."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.ui.tui import HistoryLog

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

THREE = ["Annabelle", "Benedikt", "Cyrillus"]
FIVE = ["Ann", "Bo", "Cy", "Dee", "Eve"]
LAST_DIE = "DIE yellow 3 ("
SCORED = "LEG 1 SCORED: 1st yellow, 2nd red"


def _shown(app):
    """The history pane's rows as drawn."""
    log = app.query_one("#log", HistoryLog)
    return [log.render_line(y).text.rstrip()
            for y in range(log.scrollable_content_region.height)]


async def _leg_ended(pilot):
    """The leg played to its end, the last die typed on its own line."""
    await scenes.type_lines(pilot, scenes.SECOND_LEG_SCORED[:-1])
    await scenes.settle(pilot)
    await scenes.type_line(pilot, scenes.SECOND_LEG_SCORED[-1])
    await scenes.settle(pilot)


def _banner_says_the_die(app):
    assert app.die_in_banner()
    assert str(app.query_one("#detail").content).endswith("die yellow 3. From space 3 to 6")


def test_a_leg_scoring_that_fits_leaves_the_history_on_its_newest_line():
    app = scenes.app_for("second", THREE, odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await _leg_ended(pilot)
            _banner_says_the_die(app)
            log = app.query_one("#log", HistoryLog)
            rows = _shown(app)
            assert log.following and not app.query_one("#more").display, rows
            assert rows[-1] == log.lines[-1], rows  # the new leg's words, the newest
            assert SCORED in rows, rows  # the scoring whole above them
            assert "  Cyrillus: nothing => net +0, 3 -> 3" in rows, rows

    asyncio.run(play())


def test_a_leg_scoring_taller_than_the_pane_shows_from_its_start():
    app = scenes.app_for("second", FIVE, odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await _leg_ended(pilot)
            _banner_says_the_die(app)
            log = app.query_one("#log", HistoryLog)
            rows = _shown(app)
            assert rows[0] == SCORED, rows  # not the die's lines, which the banner says
            assert not log.following and app.query_one("#more").display, rows
            # the next line typed follows the newest line again, its reply in view
            await scenes.type_line(pilot, "leg blue")
            await scenes.settle(pilot)
            assert log.following and _shown(app)[-1] == log.lines[-1]

    asyncio.run(play())


def test_a_leg_ending_die_the_banner_does_not_say_shows_from_its_own_line(monkeypatch):
    # the plan gave the die's detail line up (a short screen): the history has the die
    app = scenes.app_for("second", FIVE, odds=scenes.quick_odds)
    monkeypatch.setattr(app, "die_in_banner", lambda: False)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await _leg_ended(pilot)
            rows = _shown(app)
            assert rows[0].startswith(LAST_DIE), rows
            assert not app.query_one("#log", HistoryLog).following

    asyncio.run(play())


@pytest.mark.parametrize("lines, top", [
    (["best"], "Best for "),  # the advice, under the echo of 'best'
    # the new leg's die undone, then the leg's end: asked (it takes back a scoring),
    # then done
    (["undo", "undo", "undo"], "> undo"),
])
def test_a_reply_the_banner_never_says_shows_from_its_start(lines, top):
    app = scenes.app_for("second", FIVE, odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await _leg_ended(pilot)
            await scenes.type_line(pilot, "blue 1")  # a die of the new leg in the banner
            await scenes.settle(pilot)
            assert app.die_in_banner()
            for line in lines:
                await scenes.type_line(pilot, line)
                await scenes.settle(pilot)
            log = app.query_one("#log", HistoryLog)
            echo = max(i for i, line in enumerate(log.lines) if line.startswith(top))
            height = log.scrollable_content_region.height
            assert log.line_count - echo > height, log.lines[echo:]  # taller than the pane
            assert _shown(app)[0] == log.lines[echo], _shown(app)
            assert not log.following and app.query_one("#more").display
            assert app.session.game.leg == (1 if top == "> undo" else 2)

    asyncio.run(play())
