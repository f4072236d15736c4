"""On the full screen, an undo's question left without a typed answer says so in the
history (tester46 finding 1): a die from the pyramid, or a line typed instead, is
preceded by ``nothing undone``; a line refused there keeps its ``(refused)`` mark."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.device.events import DieEvent

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

LEG = [("blue", 2), ("red", 2), ("green", 2), ("yellow", 2), ("purple", 2)]


def _die(app, seq, colour, value):
    app.pyramid_event(DieEvent("die", "B1", seq, "EVT %d die" % seq, colour=colour,
                               value=value))


def _history_after_the_question(typed=None, die=None):
    pyramid, _events = scenes.pyramid_queue()
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=4, odds=scenes.no_odds,
                         pyramid=pyramid)

    async def play():
        async with app.run_test(size=(100, 30)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            for seq, (colour, value) in enumerate(LEG, 1):
                _die(app, seq, colour, value)
            await scenes.settle(pilot)
            assert app.session.game.leg == 2
            await scenes.type_line(pilot, "undo")
            await scenes.settle(pilot)
            assert app.table.undo_asked
            history = list(app.query_one("#log").history)
            if die is not None:
                _die(app, len(LEG) + 1, *die)
            else:
                await scenes.type_line(pilot, typed)
            await scenes.settle(pilot)
            assert not app.table.undo_asked and app.session.game.leg == 2
            assert not str(app.query_one("#prompt").content).startswith("> undo")
            return list(app.query_one("#log").history)[len(history):]

    return asyncio.run(play())


def test_a_die_from_the_pyramid_while_the_undo_is_asked_says_nothing_was_undone_first():
    lines = _history_after_the_question(die=("red", 1))
    assert lines[0] == "nothing undone", lines
    assert lines[1].startswith("Cy takes a pyramid ticket: red 1"), lines


def test_an_action_typed_instead_says_nothing_was_undone_after_its_echo():
    lines = _history_after_the_question("leg blue")
    assert lines[:2] == ["> leg blue", "nothing undone"], lines
    assert lines[2].startswith("Cy takes the blue leg ticket"), lines


def test_a_refused_line_typed_instead_keeps_its_refused_mark():
    lines = _history_after_the_question("leg rde")
    assert lines[:2] == ["> leg rde  (refused)", "nothing undone"], lines


def test_a_die_from_the_pyramid_while_the_picker_is_open_closes_it_playing_no_card():
    """The finish-card picker is the full screen's question of a bare ``win``: a die
    from the pyramid (the player pushed the slider instead) closes it, and the history
    says no card was played before the die's lines; a key pressed after it is no card."""
    from camelhost.ui.screens import FinishCardPicker

    pyramid, _events = scenes.pyramid_queue()
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=4, odds=scenes.no_odds,
                         pyramid=pyramid)

    async def play():
        async with app.run_test(size=(100, 30)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            _die(app, 1, "blue", 2)  # Ann's
            await scenes.settle(pilot)
            await scenes.type_line(pilot, "win")  # Ben's picker
            await scenes.settle(pilot)
            assert isinstance(app.screen, FinishCardPicker)
            before = len(app.query_one("#log").history)
            _die(app, 2, "red", 1)  # Ben pushes the slider instead
            await scenes.settle(pilot)
            assert not isinstance(app.screen, FinishCardPicker)
            lines = list(app.query_one("#log").history)[before:]
            assert lines[0] == "(no finish card played)", lines
            assert lines[1].startswith("Ben takes a pyramid ticket: red 1"), lines
            await pilot.press("r")  # a late key: the command line's, no card
            await scenes.settle(pilot)
            assert app.session.game.pile("winner") == [] and app.session.current == 2
            assert app.table.screen_question is None

    asyncio.run(play())
