"""Lines typed at once on the full screen (a paste of two lines, or keys typed while the
screen was busy with the line before and the bots' moves) are taken one by one, each
dated by its own Enter and judged by the table's moment it was typed in (``Moments``).

The keys arrive as a terminal delivers them, each stamped when it came (a ``Key``
event's ``time``), all before the screen handles the first. The first line was Ann's:
taken for her. The second was typed on her turn too, before she and the bots played: it
is refused in one line naming who played, and nothing is done. A line typed once the
screen shows Cy's turn is Cy's. Before s37 the Enter went up to the app and back
before it submitted, so the second line's keys were in the first: ``leg red`` and
``leg blue`` were taken as ``leg redleg blue``, dated by the second Enter, and
refused as a malformed ``leg``; the second line's keys typed meanwhile were lost."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.tui import TableApp
from textual import events

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot


def keys(text):
    """The key events a terminal sends for ``text`` and Enter, in order."""
    out = []
    for ch in text:
        out.append(events.Key("space" if ch == " " else ch, ch))
    out.append(events.Key("enter", "\r"))
    return out


def actions(journal):
    return [(e["player"], e["action"]) for e in journal.events if e["type"] == "action"]


@pytest.mark.parametrize("seed", range(8))
def test_two_lines_typed_at_once_are_each_judged_by_their_own_moment(tmp_path, seed):
    journal = Journal(str(tmp_path / "once.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=seed, bots=[1, 2],
                      journal=journal)
    app = TableApp(session, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            for key in keys("leg red") + keys("leg blue"):  # both at once
                app.post_message(key)
            await scenes.settle(pilot)
            assert actions(journal)[0] == (0, "leg red")  # Ann's line: hers
            assert session.current == 3 and session.phase == "turn"  # Ben, Cy (bots) played
            error = str(app.query_one("#error").content)
            assert error == ("! leg blue: typed before Ann, Ben (bot) and Cy (bot) "
                             "played, so nothing is done; it is Dee's turn"), error
            assert [a for a in actions(journal) if a[1] == "leg blue"] == []
            history = app.query_one("#log").history
            assert "> leg red" in history and "> leg blue  (refused)" in history, history
            assert app.query_one("#command").value == ""
            # typed once Dee's turn shows: Dee's
            for key in keys("leg blue"):
                app.post_message(key)
            await scenes.settle(pilot)
            assert actions(journal)[-1] == (3, "leg blue")
            await pilot.press("ctrl+q")

    asyncio.run(play())
