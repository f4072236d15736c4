"""pyramid monitor and a slider push made before it started (tester s44, finding 5): the
board's unacknowledged events come after the monitor's HELLO, and one pushed before it
started read as a live ``slider pushed -> event 9`` above the first reading, a push
nobody made while watching. It is said as an earlier one; a push while watching stays
``slider pushed -> event N``."""

import io

import pytest
from camelhost import cli
from camelhost.device.events import DieEvent
from camelhost.i18n import set_language
from camelhost.tools import monitor

EARLIER = "slider pushed before the first reading -> event %d: "
LIVE = "slider pushed -> event %d: "


@pytest.mark.hil
@pytest.mark.micropython
def test_a_push_before_the_monitor_started_is_said_as_an_earlier_one(virtual_pyramid, capsys):
    virtual = virtual_pyramid("second", seed=44)
    released = virtual.release()  # no program reading the pyramid: nobody acknowledges it
    assert released.seq == 1
    assert cli.main(["monitor", "--port", virtual.port, "--count", "2", "--period", "40"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    said = [line for line in lines if "-> event 1: " in line]
    assert said == ["      " + EARLIER % 1 + "die %s (margin %s)"
                    % (released.dice[0][0], said[0].split("(margin ")[1][:-1])], out
    assert LIVE % 1 not in out
    assert "1 event this boot" in out  # the header's count agrees: it was there before


class _Link:
    """A stand-in link: ``events`` (a list per call of ``pending_events``, the rest
    empty) and readings from the first call of ``next_reading`` on, or from the
    ``readings_from``-th call (a reading already queued when the events were taken)."""

    state = "connected"
    slowness = 1.0
    quality, noisy = None, False

    def __init__(self, events, readings_from=1):
        self.events = list(events)
        self.readings_from = readings_from
        self.calls = 0

    def request(self, name, expect, timeout=3.0, retries=2, **fields):
        from camelhost.device.link import LinkError

        raise LinkError("no answer to %s" % name)

    def stream(self, period_ms, timeout=3.0):
        return {}

    def pending_events(self):
        return self.events.pop(0) if self.events else []

    def next_reading(self, timeout=None):
        self.calls += 1
        if self.calls < self.readings_from:
            return None
        return {"on": (2000, 900, 800, 600), "off": (100, 40, 30, 20), "label": "white",
                "m": 412, "sl": False}


class _Pyramid:
    port = "/dev/ttyACM0"

    def __init__(self, link):
        self.link = link
        self.hello = {"fw": "0.1.0", "proto": 1, "uid": "0102", "boot": "AAAAAAAA",
                      "ed": "second", "seq": 8, "sensor": "ok", "vb": False}

    def settings(self):
        return {"it": 7, "gain": 4, "ed": "second", "vb": False}

    def check_alive(self):
        pass


def _event(seq, colour="red", boot="AAAAAAAA"):
    return DieEvent("die", boot, seq, "EVT %d die" % seq, colour=colour, margin=37.57)


def _watch(link, count=3):
    out = io.StringIO()
    assert monitor.monitor(_Pyramid(link), count=count, out=out) == count
    return out.getvalue()


def test_a_push_still_being_read_when_the_monitor_started_is_an_earlier_one():
    # the board's HELLO said 8 events; event 9, pushed before, was still being read (the
    # emulated Pico is slow) and came before any reading: the board holds its stream
    # while it reads a release, so no reading came first
    out = _watch(_Link([[_event(9)], [], [_event(10, "blue")]], readings_from=2))
    assert "      " + EARLIER % 9 + "die red (margin 37.57)" in out
    assert "      " + LIVE % 10 + "die blue" in out  # pushed while watching
    assert out.index(EARLIER % 9) < out.index("    1 -")


def test_an_event_of_the_boot_already_reported_is_earlier_even_after_readings():
    # a slow replay of the board's store: events up to the HELLO's seq came before it
    # was said, whenever they arrive; another boot's or a later one's are live
    out = _watch(_Link([[], [_event(7), _event(9), _event(3, "blue", boot="BBBBBBBB")]]))
    assert EARLIER % 7 in out
    assert LIVE % 9 in out and LIVE % 3 in out


def test_an_event_with_a_reading_already_there_is_judged_by_the_hello_alone():
    # a reading had come by the time the events were taken: which came first is not
    # known, so the push counts as one made while watching unless the HELLO had it
    out = _watch(_Link([[_event(9), _event(8, "blue")]]))
    assert LIVE % 9 in out and EARLIER % 8 in out


def test_the_earlier_push_line_in_german():
    set_language("de")
    try:
        line = monitor.format_event(_event(9), "second", earlier=True)
    finally:
        set_language("en")
    assert line == ("      Schieber gedrückt vor dem ersten Messwert -> Ereignis 9: Würfel rot "
                    "(Abstand 37,57)")
