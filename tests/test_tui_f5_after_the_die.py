"""On the full screen, F5 pressed again right after the pushed die has landed does not
take a pyramid ticket for the next player unasked (tester38 finding 10: F5 hammered
while the screen seemed slow took a turn per press): the status line asks once, naming
the player, and a second F5 pushes, with no word about a second push. The table's rule
for a ``release`` right after the one that gave the die (``Table.double_push``, s38
finding 1: a typed one is booked and says how to undo it) decides when: a push with
nothing to doubt (after a leg ticket, after 'pyramid', or ``Table.DOUBLE_PUSH_S`` after
the die) goes at once. The table's clock is the test's: no wall clock asserted."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.tui import KEY_CLOCK, TableApp
from seeded_pyramid import SeededPyramid, arrives
from textual import events

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot




def _lands(app, pyramid):
    """The last push's die reaches the screen from the link."""
    arrives(app, pyramid)


def _status(app):
    box = app.query_one("#error")
    return str(box.content) if box.display else ""


def _app(clock):
    pyramid = SeededPyramid()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=61,
                      journal=Journal(None))
    table = Table(session, None, pyramid=pyramid)
    table.clock = clock
    app = TableApp(table)
    app.odds_function = scenes.no_odds
    return app, session, pyramid


def _tickets(session):
    return [p["pyramid_tickets"] for p in table_view(session, odds=False)["players"]]


@pytest.mark.parametrize("lang, asked", [
    ("en", "F5 again for a pyramid ticket for Cy (the last die is already in)"),
    ("de", "F5 noch einmal für ein Pyramidenplättchen für Cy (der letzte Würfel ist "
           "schon da)")])
def test_f5_after_the_die_landed_asks_once_before_the_next_players_ticket(lang, asked):
    set_language(lang)
    app, session, pyramid = _app(lambda: 100.0)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.type_line(pilot, "leg blue")  # Ann
            await scenes.type_line(pilot, "pyramid")   # Ben
            await pilot.press("f5")
            _lands(app, pyramid)
            await scenes.settle(pilot)
            assert len(pyramid.fell) == 1 and session.current == 2
            assert _tickets(session) == [0, 1, 0]
            await pilot.press("f5")  # once too often: Cy typed nothing
            await scenes.settle(pilot)
            assert len(pyramid.fell) == 1, "pushed for Cy unasked"
            assert _status(app) == asked
            assert _tickets(session) == [0, 1, 0] and session.current == 2
            await pilot.press("f5")  # Cy means it: the push goes
            await scenes.settle(pilot)
            assert len(pyramid.fell) == 2
            _lands(app, pyramid)
            await scenes.settle(pilot)
            assert _tickets(session) == [0, 1, 1] and session.current == 0
            history = "\n".join(app.query_one("#log").history)
            assert "'undo'" not in history  # no word about a second push: Cy meant it
            await pilot.press("ctrl+q")

    try:
        asyncio.run(play())
    finally:
        set_language("en")


def test_f5_after_a_move_that_is_no_die_or_after_pyramid_pushes_at_once():
    app, session, pyramid = _app(lambda: 100.0)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.type_line(pilot, "leg blue")  # Ann: no die just booked
            await pilot.press("f5")                     # Ben's push on his turn
            await scenes.settle(pilot)
            assert len(pyramid.fell) == 1 and _status(app) == ""
            _lands(app, pyramid)
            await scenes.settle(pilot)
            await scenes.type_line(pilot, "pyramid")    # Cy typed it: no doubt
            await pilot.press("f5")
            await scenes.settle(pilot)
            assert len(pyramid.fell) == 2 and _status(app) == ""
            _lands(app, pyramid)
            await scenes.settle(pilot)
            assert _tickets(session) == [0, 1, 1]
            await pilot.press("ctrl+q")

    asyncio.run(play())


def test_f5_a_while_after_the_die_is_the_players_ticket_at_once():
    now = [100.0]
    app, session, pyramid = _app(lambda: now[0])

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.type_line(pilot, "pyramid")  # Ann
            await pilot.press("f5")
            _lands(app, pyramid)
            await scenes.settle(pilot)
            now[0] += Table.DOUBLE_PUSH_S  # Ben looked at the board first
            await pilot.press("f5")
            await scenes.settle(pilot)
            assert len(pyramid.fell) == 2 and _status(app) == ""
            _lands(app, pyramid)
            await scenes.settle(pilot)
            assert _tickets(session) == [1, 1, 0]
            await pilot.press("ctrl+q")

    asyncio.run(play())


@pytest.mark.parametrize("between", ["show", "help", "F1"])
def test_a_line_the_screen_answers_itself_between_two_f5s_lets_the_second_push(between):
    app, session, pyramid = _app(lambda: 100.0)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.type_line(pilot, "leg blue")  # Ann
            await scenes.type_line(pilot, "pyramid")   # Ben
            await pilot.press("f5")
            _lands(app, pyramid)
            await scenes.settle(pilot)
            if between == "F1":                        # Cy looked at the help by its key
                await pilot.press("f1")
                await scenes.settle(pilot)
            else:
                await scenes.type_line(pilot, between)  # Cy looked: something between
            if between in ("help", "F1"):
                await pilot.press("escape")
                await scenes.settle(pilot)
            await pilot.press("f5")
            await scenes.settle(pilot)
            assert _status(app) == "" and len(pyramid.fell) == 2
            _lands(app, pyramid)
            await scenes.settle(pilot)
            assert _tickets(session) == [0, 1, 1]
            await pilot.press("ctrl+q")

    asyncio.run(play())


def test_f5_with_the_help_open_closes_it_and_pushes():
    app, session, pyramid = _app(lambda: 100.0)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.type_line(pilot, "leg blue")  # Ann
            await pilot.press("f1")
            await scenes.settle(pilot)
            assert type(app.screen).__name__ == "HelpScreen"
            await pilot.press("f5")                     # Ben pushes from the help
            await scenes.settle(pilot)
            assert type(app.screen).__name__ != "HelpScreen"
            assert len(pyramid.fell) == 1
            _lands(app, pyramid)
            await scenes.settle(pilot)
            assert _tickets(session) == [0, 1, 0] and session.current == 2
            await pilot.press("ctrl+q")

    asyncio.run(play())


def test_f5_hammered_a_second_apart_books_one_ticket_per_push_meant():
    """Hammered F5s, a second apart (the test clock): first F5: Ben's ticket. Second, a second later: asks once for Cy. Third, a second
    later again, stamped before the question showed (the screen was busy): the same
    hammering, no answer to it; nothing booked, the question stays. An F5 pressed after
    it was shown is Cy's push."""
    now = [100.0]
    app, session, pyramid = _app(lambda: now[0])
    asked = "F5 again for a pyramid ticket for Cy (the last die is already in)"

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.type_line(pilot, "leg blue")  # Ann
            await pilot.press("f5")                     # Ben's push
            _lands(app, pyramid)
            await scenes.settle(pilot)
            now[0] += 1
            hammered = KEY_CLOCK()                      # the third F5's key, sent now
            await pilot.press("f5")                     # the second: asks once
            await scenes.settle(pilot)
            assert _status(app) == asked and len(pyramid.fell) == 1
            now[0] += 1
            f5 = events.Key("f5", None)
            f5.time = hammered                          # taken after the question showed
            app.post_message(f5)
            await scenes.settle(pilot)
            assert len(pyramid.fell) == 1, "a hammered F5 booked Cy's ticket"
            assert _status(app) == asked
            assert _tickets(session) == [0, 1, 0] and session.current == 2
            await pilot.press("f5")                     # Cy read it and means it
            await scenes.settle(pilot)
            assert len(pyramid.fell) == 2
            _lands(app, pyramid)
            await scenes.settle(pilot)
            assert _tickets(session) == [0, 1, 1]
            await pilot.press("ctrl+q")

    asyncio.run(play())


def test_a_leg_ending_die_of_a_second_release_ends_the_history_with_the_scoring():
    """A ``release`` typed right after the one whose die ended the turn before (within
    ``Table.DOUBLE_PUSH_S``) is booked and says how to take it back; when its die ends the
    leg, that line came after the leg's scoring, the last line of the history (s44).
    It comes before the die's lines now: the history ends with the die and the scoring."""
    set_language("en")
    app, session, pyramid = _app(lambda: 100.0)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            for _turn in range(4):  # four pyramid tickets, nothing doubted
                await scenes.type_line(pilot, "pyramid")
                await scenes.type_line(pilot, "release")
                _lands(app, pyramid)
                await scenes.settle(pilot)
            assert session.game.leg == 1 and session.current == 1
            await scenes.type_line(pilot, "release")  # right after Ann's: Ben's, the fifth
            _lands(app, pyramid)
            await scenes.settle(pilot)
            assert session.game.leg == 2
            history = app.query_one("#log").history
            hint = next(i for i, line in enumerate(history) if "second push" in line)
            assert history[hint] == (
                "Ben's pyramid ticket came from a 'release' right after the one that gave "
                "Ann's die: type 'undo' if that was a second push by mistake"), history
            # after it the die, then the leg's scoring, which ends the history
            after = history[hint + 1:]
            assert after[0].startswith("Ben takes a pyramid ticket: "), after
            assert any(line.startswith("DIE ") for line in after), after
            scored = next(i for i, line in enumerate(after) if line.startswith("LEG 1 SCORED"))
            assert all(line.startswith(("  ", "New leg:")) for line in after[scored + 1:]), after
            assert after[-1].startswith("New leg: all dice back in the pyramid"), after
            await pilot.press("ctrl+q")

    try:
        asyncio.run(play())
    finally:
        set_language("en")
