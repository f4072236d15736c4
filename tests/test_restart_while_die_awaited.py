"""The pyramid restarting while a die is awaited is said at the table in one line
(tester2 s35, finding 15: the emulated Pico's reset button pressed and the slider
pushed at once, the die fell while the firmware was down, and the table said nothing
and kept waiting). Nothing is said when no die is awaited, and the game is unchanged."""

import io
import queue
import time

import pytest
from camelhost.device.open import PyramidRestarted, open_pyramid
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
SAID = ("the pyramid restarted: if a die came out just now and is not announced, type it "
        "(e.g. 'blue 2'), else release again")


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


def _table(out):
    session = Session("second", ["Ann", "Ben", "Cy"], seed=5,
                      journal=Journal(None, pyramid="/dev/pts/8"))
    table = Table(session, PlainDisplay(out), pyramid=None, manual=False)
    table.start()
    table.line(SETUP)
    return table


def _said(out, since):
    return out.getvalue()[since:].splitlines()


def test_a_restart_while_a_die_is_awaited_is_said_and_the_die_can_be_typed():
    out = io.StringIO()
    table = _table(out)
    table.line("pyramid")
    said = out.tell()
    table.pyramid_event(PyramidRestarted("C1BD0E64", "0A11CE55"))
    assert _said(out, said) == [SAID, "> Ann: release a die from the pyramid (or type it, "
                                      "e.g. 'blue 2')"]
    assert table.session.game.dice_out == []  # nothing changed
    table.line("green 2")  # the die that fell during the restart, typed
    assert table.session.game.dice_out == ["green"]


def test_a_restart_on_a_turn_says_nothing_and_changes_nothing():
    out = io.StringIO()
    table = _table(out)
    said = out.tell()
    before = table.session.game.dice_out[:]
    table.pyramid_event(PyramidRestarted("C1BD0E64", "0A11CE55"))
    assert _said(out, said) == []
    assert table.session.game.dice_out == before


def test_the_line_in_german():
    set_language("de")
    out = io.StringIO()
    table = _table(out)
    table.line("pyramid")
    said = out.tell()
    table.pyramid_event(PyramidRestarted("C1BD0E64", "0A11CE55"))
    line = _said(out, said)[0]
    assert line.startswith("die Pyramide ist neu gestartet") and "'blau 2'" in line, line


def _next(events, kind, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            item = events.get(timeout=0.5)[1]
        except queue.Empty:
            continue
        if isinstance(item, kind):
            return item
    return None


@pytest.mark.process
@pytest.mark.micropython
def test_the_pyramid_link_hands_the_table_a_restart_with_both_boots(micropython):
    pyramid = open_pyramid("virtual", "second", seed=3)
    try:
        events = pyramid.events()
        deadline = time.monotonic() + 30
        while pyramid.link.sequencer.hello is None and time.monotonic() < deadline:
            time.sleep(0.1)
        old = pyramid.link.sequencer.hello["boot"]
        assert _next(events, PyramidRestarted, 2) is None  # the first HELLO is no restart
        pyramid.virtual.reboot()
        restarted = _next(events, PyramidRestarted, 30)
    finally:
        pyramid.close()
    assert restarted is not None and restarted.old == old and restarted.new != old
