"""Commands to the pyramid and their replies: ``PING``, ``SET``, ``CAL``, ``STREAM``,
``PROF``/``SAVE`` (the calibration and monitor calls), and the ``RAW`` reading stream.

``Calls`` sends a command through a ``write(line)`` callable and waits, in the
calling thread, for the reply the link's reader hands to ``answer(msg)``. Separate
from the sequencing of die events (``camelhost.device.sequencer``): a reply never
touches the event sequence. Wire format: docs/protocol.md.
"""

import json
import queue
import threading
import time

from camelup.board import protocol

from camelhost.device.transport import LinkError
from camelhost.i18n import _, decimal

#: Streamed readings kept for a reader that is slow (the newest are dropped beyond).
RAW_KEPT = 1000
#: Bytes of profile JSON per ``PROF`` line (a line is at most ``protocol.MAX_LINE``).
PROFILE_CHUNK = 96
#: ``SAVE`` asked at most this often while the board answers ``NAK memory``.
SAVE_TRIES = 3
#: seconds ``configure`` waits for ``CFG`` per ``SET`` sent, on a real board: the
#: firmware reopens the sensor and rebuilds its classifier before it answers
SET_TIMEOUT = 3.0
#: times ``SET_TIMEOUT`` on a pseudo-terminal (the emulated Pico runs 5-15x slower than
#: the chip, docs/emulator.md): the stretch doctor gives its slider-push wait there
#: (``EMULATED_PUSH_TIMEOUT`` over ``PUSH_TIMEOUT``, 120 s over 30 s)
PSEUDO_TERMINAL_STRETCH = 4.0
#: seconds ``save_profile`` waits for each ``PROF`` and ``SAVE`` reply on a real board
#: (the firmware parses the profile and writes two files before ``OK SAVE``); times the
#: link's stretch, as ``SET``'s (tester s37tm finding 5: a loaded machine's emulated
#: Pico answered a fixed 5 s too late, and the calibration was taken for lost)
SAVE_TIMEOUT = 5.0


class Calls:
    """The command side of one link. ``write(line)``: sends framed bytes, raises
    ``LinkError`` when it cannot."""

    def __init__(self, write, stretch=None):
        self._write = write
        #: ``stretch()``: how many times ``SET_TIMEOUT`` the board gets (>= 1.0)
        self._stretch = stretch or (lambda: 1.0)
        self._lock = threading.Lock()
        self._waiters = []
        self._raw = queue.Queue(maxsize=RAW_KEPT)

    def answer(self, msg):
        """A device message that is neither an event nor a sequence reply: a ``RAW``
        reading goes to ``next_reading``, anything else to the first waiting
        ``request`` that accepts it (else it is dropped)."""
        if msg.name == "RAW":
            try:
                self._raw.put_nowait(msg)
            except queue.Full:
                pass  # nobody is reading the monitor stream: keep the first RAW_KEPT only
            return
        with self._lock:
            for waiter in self._waiters:
                if waiter[0](msg) and waiter[2] is None:
                    waiter[2] = msg
                    waiter[1].set()
                    return

    def request(self, name, expect, timeout=3.0, retries=2, **fields):
        """Send ``name`` and wait for the first reply ``expect(msg)`` accepts, or a ``NAK``.

        Resent up to ``retries`` times when nothing comes (a line can be lost).
        Returns the reply ``protocol.Message``. Raises ``LinkError`` on ``NAK`` or
        no reply within ``timeout`` s per attempt.
        """
        line = protocol.encode(name, **fields)
        waiter = [lambda m: m.name == "NAK" or expect(m), threading.Event(), None]
        with self._lock:
            self._waiters.append(waiter)
        try:
            for _attempt in range(retries + 1):
                self._write(line)
                if waiter[1].wait(timeout):
                    reply = waiter[2]
                    if reply.name == "NAK":
                        refused = LinkError(_("the pyramid refused %(call)s: %(reason)s") % {
                            "call": name, "reason": reply["reason"]})
                        refused.reason = reply["reason"]  # the NAK's reason word (docs/protocol.md)
                        raise refused
                    return reply
            raise LinkError(_("no answer from the pyramid to %(call)s within %(wait)s s") % {
                "call": name, "wait": decimal(timeout, 1)})
        finally:
            with self._lock:
                self._waiters.remove(waiter)

    def ping(self, timeout=3.0):
        """Round trip time in seconds of ``PING``/``PONG``. Raises ``LinkError``."""
        token = "p%d" % (int(time.monotonic() * 1000) % 100000000)
        started = time.monotonic()
        self.request("PING", lambda m: m.name == "PONG" and m["token"] == token, timeout, token=token)
        return time.monotonic() - started

    def configure(self, edition=None, integration_ms=None, gain=None, value_buttons=None, timeout=None):
        """Change settings; ``None`` leaves one as it is. The board keeps them until its
        next boot, unless a profile is saved at them (``save_profile``). Returns the
        device's settings as a dict ``{ed, it, gain, vb}`` (integration time in ms, gain
        1/4/16/60). ``timeout``: seconds per attempt, by default ``SET_TIMEOUT`` times
        the link's stretch (a slow board's, ``PSEUDO_TERMINAL_STRETCH`` on the
        emulated Pico). Raises ``LinkError``: a refusal (``reason``), or no answer, whose
        text says what to do."""
        if timeout is None:
            timeout = SET_TIMEOUT * max(1.0, self._stretch())
        fields = {}
        if edition is not None:
            fields["ed"] = edition
        if integration_ms is not None:
            fields["it"] = int(round(integration_ms))
        if gain is not None:
            fields["gain"] = gain
        if value_buttons is not None:
            fields["vb"] = bool(value_buttons)
        try:
            return dict(self.request("SET", lambda m: m.name == "CFG", timeout, **fields).fields)
        except LinkError as exc:
            if getattr(exc, "reason", None) is not None:
                raise  # a NAK: the board said what it refused, and changed nothing
            raise LinkError(_("%s (the board busy, or the link lost): run the same command "
                              "again") % exc) from None

    def sample(self, timeout=5.0):
        """One calibration sample of whatever is in the head now: ``(on, off)`` raw
        ``(c, r, g, b)`` readings with the LED on and off. Raises ``LinkError``."""
        token = "c%d" % (int(time.monotonic() * 1000) % 100000000)
        reply = self.request("CAL", lambda m: m.name == "SAMPLE" and m["token"] == token, timeout, token=token)
        return reply["on"], reply["off"]

    def stream(self, period_ms, timeout=3.0):
        """Switch the ``RAW`` reading stream on (every ``period_ms``, 20..60000) or off (0).
        Readings come from ``next_reading()``. Raises ``LinkError``."""
        self.request("STREAM", lambda m: m.name == "OK" and m["cmd"] == "STREAM", timeout, period=period_ms)

    def next_reading(self, timeout=None):
        """The next streamed reading as a dict ``{on, off, label, m}``, or ``None`` after ``timeout``."""
        try:
            return dict(self._raw.get(timeout=timeout).fields)
        except queue.Empty:
            return None

    def save_profile(self, profile, timeout=None):
        """Send a calibration profile (JSON-able dict) in chunks and have the device store it.
        ``timeout``: seconds per reply, by default ``SAVE_TIMEOUT`` times the link's
        stretch (as ``configure``). Raises ``LinkError`` when the device rejects it (a
        ``reason``), does not answer in time (no ``reason``: it may have saved all the
        same, ``INFO`` tells), or it is larger than ``protocol.MAX_PROFILE`` bytes of
        compact JSON."""
        if timeout is None:
            timeout = SAVE_TIMEOUT * max(1.0, self._stretch())
        text = json.dumps(profile, sort_keys=True, separators=(",", ":"))
        data = text.encode("ascii")
        if len(data) > protocol.MAX_PROFILE:
            raise LinkError(
                _("profile is %(bytes)d bytes of JSON; a pyramid takes at most %(most)d")
                % {"bytes": len(data), "most": protocol.MAX_PROFILE}
            )
        for offset in range(0, len(data), PROFILE_CHUNK):
            part = text[offset : offset + PROFILE_CHUNK]
            self.request("PROF", _ok_prof(offset + len(part)), timeout, retries=0, offset=offset, chunk=part)
        crc = "%08X" % protocol.crc32(data)
        for attempt in range(SAVE_TRIES):
            try:
                self.request("SAVE", lambda m: m.name == "OK" and m["cmd"] == "SAVE", timeout, retries=0,
                             length=len(data), crc=crc)
                return
            except LinkError as exc:
                # NAK memory: a fragmented heap refused the parse; the board collected its
                # garbage and still holds the received profile, so SAVE is asked again
                if getattr(exc, "reason", None) != "memory" or attempt == SAVE_TRIES - 1:
                    raise


def _ok_prof(received):
    """Reply matcher for one ``PROF`` chunk: ``OK PROF n=<bytes received so far>``."""

    def match(msg):
        return msg.name == "OK" and msg["cmd"] == "PROF" and msg.get("n") == received

    return match
