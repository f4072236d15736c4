"""The grey die's ink question, end to end: firmware on the virtual pyramid -> link ->
table. An ``unknown`` release whose nearest class is ``grey-black``/``grey-white``
carries that full label as ``best`` (docs/protocol.md), so the table asks only the
numeral's ink (RULES 3.5 (c)) instead of a re-release."""

import io

import pytest
from camelhost.device.link import Link
from camelhost.device.virtual import VirtualPyramid
from camelhost.table.controller import Table
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelup.board import classifier

pytestmark = [pytest.mark.hil, pytest.mark.micropython]

# crazy camels apart, nothing on them: the numeral's ink decides which one moves
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def test_an_unsure_grey_die_reaches_the_table_as_the_ink_question(micropython):
    # every reading rejected as ambiguous (an impossible margin): the firmware must still
    # name the nearest class in full, ink included
    profile = dict(classifier.default_profile("second"), min_margin=1000.0)
    with VirtualPyramid("second", seed=11, value_buttons=True) as vp, Link(vp.port, heartbeat_timeout=2.0) as link:
        link.save_profile(profile)
        vp.table.inside = ["grey"]
        got = vp.release()
        event = link.next_event(10)
    assert got.dice[0][0] in ("grey-black", "grey-white")
    assert event.kind == "unknown"
    assert event.best in ("grey-black", "grey-white")
    assert event.value == got.dice[0][1]

    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9)
    table = Table(session, PlainDisplay(out), pyramid=None, manual=False)
    table.start()
    table.line(SETUP)
    table.line("pyramid")  # Ann takes a pyramid ticket
    table.pyramid_event(event)
    assert session.phase == "ink"
    assert "black or white? press b or w" in out.getvalue()
    table.line("w")
    # the white camel (on 16) moves backwards by the die's value
    assert session.game.stacks[16 - event.value] == ["white"]
    assert session.phase == "turn" and session.current == 1
