"""Plain mode fed by a script (here-doc) with a pyramid: after ``release`` the next
line waits for the die; at the end of the input a die on its way is still taken."""

import io
import queue
import threading

from camelhost.device.events import DieEvent, SeqRange
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.loop import run_plain
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


class SlowPyramid:
    """A virtual pyramid whose die arrives a little after the slider is pushed."""

    def __init__(self, events, dice, delay=0.3):
        self.events = events
        self.dice = list(dice)
        self.delay = delay
        self.seq = 0

    def release(self):
        colour, value = self.dice.pop(0)
        self.seq += 1
        ev = DieEvent("die", "B", self.seq, "EVT %d" % self.seq, colour=colour, value=value)
        threading.Timer(self.delay, self.events.put, (("event", ev),)).start()

    def return_dice(self):
        pass


def _run(script, dice, die_wait_s=5.0):
    events = queue.Queue()
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=SlowPyramid(events, dice))
    run_plain(t, lines=[line + "\n" for line in script], events=events,
              die_wait_s=die_wait_s)
    return s, out.getvalue()


def test_lines_after_release_wait_for_the_die():
    s, out = _run([SETUP, "pyramid", "release", "leg blue", "pyramid", "release"],
                  [("red", 2), ("blue", 1)])
    assert "!" not in out, out
    assert table_view(s, odds=False)["players"][0]["pyramid_tickets"] == 1  # Ann: red 2
    assert s.game.held_tickets(1) == [("blue", 5)]  # Ben
    assert table_view(s, odds=False)["players"][2]["pyramid_tickets"] == 1  # Cy: the last die, after EOF
    assert s.phase == "turn" and s.current == 0


def test_a_die_that_never_comes_is_one_line_and_input_goes_on():
    s, out = _run([SETUP, "pyramid", "release", "undo", "leg red"], [("red", 2)],
                  die_wait_s=0.1)
    s_red = s.game.held_tickets(0)
    assert "! no die from the pyramid after 0.1 s: release it again, or type the die" in out
    assert s_red == [("red", 5)]


def test_without_typed_input_the_wait_for_a_die_is_wait_s():
    import time

    import pytest

    class Waiting(Table):
        def start(self):
            Table.start(self)
            self.waiting_release = True  # a bot's release on its way

    events = queue.Queue()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None))
    t = Waiting(s, PlainDisplay(io.StringIO()), pyramid=SlowPyramid(events, []))
    began = time.monotonic()
    with pytest.raises(TimeoutError, match="0.4 s"):
        run_plain(t, lines=False, events=events, wait_s=0.4, die_wait_s=0.05)
    assert time.monotonic() - began >= 0.35


def test_after_a_gap_the_typed_die_is_read_at_once_not_after_the_die_wait():
    """A real pyramid (not virtual) in a script: it names a gap for the die on its way;
    the next typed line is that die, read at once (it used to wait ``die_wait_s`` for a
    die the pyramid had just said was lost, then say 'no die from the pyramid')."""
    import time

    events = queue.Queue()
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None, manual=False)
    gap = DieEvent("gap", "B", 1, "", missing=SeqRange(1, 1))
    threading.Timer(0.3, events.put, (("event", gap),)).start()
    began = time.monotonic()
    run_plain(t, lines=[SETUP + "\n", "pyramid\n", "red 2\n"], events=events, die_wait_s=5.0)
    assert time.monotonic() - began < 4.0
    assert "no die from the pyramid" not in out.getvalue(), out.getvalue()
    assert "lost events 1" in out.getvalue()
    assert table_view(s, odds=False)["players"][0]["pyramid_tickets"] == 1  # Ann: red 2
