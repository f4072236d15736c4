"""``pyramid monitor`` and ``pyramid doctor`` against a board that never answers ``HELLO?``:
one line after a wait that follows the board's pace, naming what to check, never a hang."""

import os
import select
import threading
import time
import tty

import pytest
from camelhost.device.events import decode
from camelhost.device.link import Link
from camelhost.errors import CliError
from camelhost.tools import monitor
from camelup.board import protocol

A = "AAAAAAAA"


class _Clock:
    """``time`` for the monitor module: ``sleep`` moves the clock on, nothing waits."""

    def __init__(self):
        self.now = 100.0

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def _heard(*lines):
    """A link never opened that received ``lines`` (wire bytes each)."""
    link = Link("loop://")
    for line in lines:
        link.feed(line)
    return link


def _hb():
    return protocol.encode("HB", boot=A, seq=0, up=1, sensor="ok")


def test_a_board_that_beats_but_never_answers_is_one_line_naming_the_cable_and_firmware(
        monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(monitor, "time", clock)
    pyramid = monitor.Pyramid("/dev/ttyACM0", _heard(_hb()))
    with pytest.raises(CliError) as err:
        pyramid.wait_hello(5.0, started=97.0)
    assert str(err.value) == (
        "the pyramid on /dev/ttyACM0 sends lines but did not answer HELLO? in 8 s: check the "
        "USB cable (what this program writes may not reach it) and its firmware (pyramid flash "
        "--port /dev/ttyACM0)")
    assert 105.0 <= clock.now < 105.1  # 5 s after the wait began


def test_a_board_heard_only_by_its_short_hi_is_told_as_a_line_losing_too_much(monkeypatch):
    monkeypatch.setattr(monitor, "time", _Clock())
    hi = protocol.encode("HI", proto=1, boot=A, seq=0, prev=None, acked=0)
    pyramid = monitor.Pyramid("/dev/ttyACM0", _heard(hi))
    with pytest.raises(CliError, match="answered only with its short HI in 5 s, never its "
                                       "full HELLO: the line loses too much; check the USB cable"):
        pyramid.wait_hello(5.0)


def test_a_slow_board_is_waited_for_as_many_times_longer_as_it_beats_slower(monkeypatch):
    # heartbeats 20 s apart (a board at a tenth of real time) before any HELLO: 50 s
    clock = _Clock()
    monkeypatch.setattr(monitor, "time", clock)
    link = Link("loop://")
    for t in (0.0, 20.0, 40.0):  # the link's sequencer hears them at these times
        link.sequencer.receive(decode(_hb()), t)
    assert link.slowness == 10.0
    with pytest.raises(CliError, match="in 50 s: check the USB cable"):
        monitor.Pyramid("/dev/ttyACM0", link).wait_hello(5.0)


class _Beating:
    """The device end of a pty: a heartbeat every 0.5 s, every host line read and never
    answered (``silent``: not even the heartbeat)."""

    def __init__(self, silent=False):
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self.silent = silent
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            if not self.silent:
                os.write(self.master, _hb())
            r, _, _ = select.select([self.master], [], [], 0.5)
            if r:
                os.read(self.master, 4096)

    def close(self):
        self._stop.set()
        self._thread.join(2)
        os.close(self._slave)
        os.close(self.master)


@pytest.mark.process
@pytest.mark.parametrize("silent,said", [
    (False, "sends lines but did not answer HELLO? in 8 s: check the USB cable"),
    (True, "does not look like a smart pyramid (silence, no byte in 5 s); check the USB "
           "cable, that %s is the pyramid's port"),
])
def test_pyramid_doctor_against_a_board_that_never_answers_says_one_line_and_ends(silent, said,
                                                                                 capsys):
    from camelhost import cli
    board = _Beating(silent)
    t0 = time.monotonic()
    try:
        assert cli.main(["doctor", "--port", board.port]) == 1
    finally:
        board.close()
    assert time.monotonic() - t0 < 12
    out, err = capsys.readouterr()
    failed = [x for x in out.splitlines() if "FAILED" in x]
    assert len(failed) == 1 and "connection" in failed[0]
    assert (said % board.port if "%s" in said else said) in failed[0]
    assert "pyramid flash --port %s" % board.port in failed[0]
    assert err == ""  # no link warning besides the step's own line
