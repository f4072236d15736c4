"""The Textual table display, driven with Textual's Pilot: keys in, screen read back.

A whole second-edition leg is played in manual mode (dice typed), including a die
completed by one key and a bad command, and the screen must show what RULES 5 asks.
"""

import asyncio
import re

import pytest
import tui_scenes as scenes
from camelhost.device.events import DieEvent
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.tui import TableApp
from textual.widgets import Log

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _keys(text):
    return [{" ": "space", ":": "colon", ",": "comma", "+": "plus", "-": "minus",
             "?": "question_mark"}.get(ch, ch) for ch in text]


def _screen(app, wid):
    widget = app.query_one(wid)
    if isinstance(widget, Log):
        return "\n".join(widget.lines)
    return str(widget.content)


def test_a_whole_leg_through_the_keyboard(tmp_path):
    journal = Journal(str(tmp_path / "tui.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=2, journal=journal)
    # keys typed while odds arrive; the panel's leg odds read, never the advice
    app = TableApp(session, odds=scenes.leg_odds_only)

    async def play():
        async with app.run_test(size=(150, 50)) as pilot:
            async def typed(text, enter=True, keys=False):
                if keys:  # key by key, as a player types
                    await pilot.press(*_keys(text))
                else:  # paste the text (keeps the test quick), then the keys
                    app.query_one("#command").value = text
                if enter:
                    await pilot.press("enter")
                await pilot.pause()

            await typed(SETUP)
            track = _screen(app, "#track")
            assert "<bla" in track and "pur" in track and "16" in track
            await typed("leg green", keys=True)                     # Ann
            ann = [r for r in _screen(app, "#players").splitlines() if "Ann" in r][0]
            assert ann.split()[:2] == ["Ann", "3"] and "G5" in ann  # 3 coins, green 5
            await typed("blue 3", keys=True)                        # Ben: die typed = pyramid ticket
            assert "BLUE  FORWARD 3" in _screen(app, "#announce")
            assert "Leading: 1st green, 2nd blue" in _screen(app, "#leaders")
            # if the leg ended now: Ann +5, Ben +1, Cy +0, Dee +0 (the players' "now" column)
            rows = _screen(app, "#players").splitlines()
            assert " now " in rows[0]
            assert [r.split()[4] for r in rows[1:]] == ["+5", "+1", "+0", "+0"]
            await typed("leg orange")                      # bad input: one line, no change
            assert "not a racing camel" in _screen(app, "#error")
            assert session.current == 2
            await typed("grey white ?")                    # Cy: value unknown
            assert "PRESS 1, 2 OR 3" in _screen(app, "#announce")
            await typed("2", enter=False, keys=True)                 # one key, no Enter
            assert "WHITE  BACKWARD 2" in _screen(app, "#announce")
            await typed("red 1")                           # Dee
            await typed("tile 8 +")                        # Ann
            assert "+Ann" in _screen(app, "#track")
            await typed("purple 2")                        # Ben
            await typed("win green")                       # Cy: finish card, hidden
            assert "winner 1 card," in _screen(app, "#info")
            card = _screen(app, "#log").splitlines()[-1]
            assert "Cy plays a finish card face down" in card and "green" not in card
            await typed("yellow 3")                        # Dee: the fifth die ends the leg
            log = _screen(app, "#log")
            assert "LEG 1 SCORED" in log
            assert "Ann: green 5 ticket" in log
            assert "Race 1, leg 2" in _screen(app, "#leaders")
            assert "Pyramid tickets left: 5" in _screen(app, "#info")
            assert "Leg odds" in _screen(app, "#odds")
            await pilot.press("ctrl+q")

    asyncio.run(play())
    # what the screen showed is what the journal holds
    assert session.game.leg == 2
    assert [e["type"] for e in journal.events].count("die") == 5


def test_pyramid_events_reach_the_screen_from_the_link_thread():
    import queue
    import types

    events = queue.Queue()
    pyramid = types.SimpleNamespace(events=lambda: events, virtual=None, manual=False)
    session = Session("classic", ["Ann", "Ben"], seed=1, journal=Journal(None))
    app = TableApp(session, pyramid=pyramid, odds=scenes.no_odds)  # the odds never read

    async def play():
        async with app.run_test(size=(150, 50)) as pilot:
            app.query_one("#command").value = "setup 1:blue 2:green 3:orange,yellow,white"
            await pilot.press("enter")
            events.put(("event", DieEvent("double", "B", 1, "EVT 1")))
            events.put(("event", DieEvent("die", "B", 2, "EVT 2", colour="orange", value=3)))
            for _ in range(600):  # until the screen has handed both over
                await pilot.pause(0.05)
                if session.game.pyramid_tickets_left == 4:
                    break
            assert "RETURN THE DICE AND RELEASE AGAIN" in _screen(app, "#log")
            assert "ORANGE  FORWARD 3" in _screen(app, "#announce")
            assert session.game.stacks[6] == ["orange", "yellow", "white"]
            await pilot.press("ctrl+q")

    asyncio.run(play())


def test_odds_panel_never_hints_at_finish_cards_already_played(tmp_path):
    # RULES 1.8, 5: finish cards stay hidden. Advice that listed "finish winner X" for
    # every colour but the ones a player has played would reveal them by omission, so
    # the panel reads the same whichever colour Ann played
    from camelhost.ui.tui import odds_text

    texts = []
    for colour in ("purple", "blue"):
        session = Session("second", ["Ann", "Ben", "Cy"], seed=2,
                          journal=Journal(str(tmp_path / ("odds-%s.jsonl" % colour))))
        session.command(SETUP)
        session.command("finish winner " + colour)  # Ann
        session.command("leg blue")                 # Ben
        session.command("leg green")                # Cy
        texts.append(odds_text(session))            # Ann to act again
    assert texts[0] == texts[1]
    assert re.search(r"Best for Ann[:,]", texts[0])
    assert "purple" in texts[0].split("Best for")[0]  # leg odds still list every camel
    # the coach's first actions (the list plain mode's best reads); the note on finish
    # cards under them when one of them is a finish card, by its pile
    said = " ".join(texts[0].split())
    card = re.search(r"(win \(a winner card\)|lose \(a loser card\)) [+-]\d", said)
    assert ("(coach's order; finish cards by pile, colours chosen unseen)" in said) == bool(card)
    assert card or said.endswith("(coach's order)"), said


def test_the_full_screen_is_a_display_of_a_table_made_as_for_any_display():
    """Issue 27: the app does not own the table nor a thread of its own. ``pyramid
    play`` makes the ``Table`` as for the plain mode (its seam, its pyramid) and the app
    subscribes to the table's seam; the pyramid's events, put in their queue from
    another thread, reach the table on the UI thread; on leaving, the app unsubscribes
    and leaves the seam (the caller's) open."""
    import queue
    import threading

    from camelhost.table.controller import Table
    from camelhost.table.display import Seam

    events = queue.Queue()
    session = Session("classic", ["Ann", "Ben"], seed=1, journal=Journal(None))
    seam = Seam(session, compute=scenes.quick_odds)
    table = Table(session, None, pyramid=None, manual=False, seam=seam)
    app = TableApp(table, events=events, theme_name="dark")
    assert app.table is table and app.session is session
    with pytest.raises(ValueError, match="as it was made"):
        TableApp(table, odds=scenes.quick_odds)

    threads = {t.ident for t in threading.enumerate()}

    async def play():
        async with app.run_test(size=(120, 40)) as pilot:
            assert app.table_display in seam.displays
            await scenes.type_line(pilot, "setup 1:blue 2:green 3:orange,yellow,white")
            sender = threading.Thread(target=events.put, args=(("event", DieEvent(
                "die", "B", 1, "EVT 1", colour="orange", value=3)),))
            sender.start()
            sender.join()
            for _ in range(600):
                await pilot.pause(0.05)
                if session.game.pyramid_tickets_left == 4:
                    break
            assert "ORANGE  FORWARD 3" in _screen(app, "#announce")
            # none of the app's own: the seam's odds worker, Textual's worker threads
            new = {t.name for t in threading.enumerate() if t.ident not in threads}
            assert all(name == "table-odds" or name.startswith("asyncio_") for name in new), new
            await pilot.press("ctrl+q")

    asyncio.run(play())
    assert app.table_display not in seam.displays
    assert seam.odds_now() is not None or session.phase != "turn"  # the seam still works
    seam.close()
