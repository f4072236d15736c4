"""Host side of the pyramid's serial link: every released die, in order, exactly once.

``Link(port)`` opens the pyramid's serial port (a path such as ``/dev/ttyACM0``,
the pty of a ``VirtualPyramid``, or any pyserial URL such as ``loop://`` or
``spy:///dev/ttyACM0``) and runs a reader thread that:

* discards bytes until a line passes its CRC (REPL banners, tracebacks and
  line noise share the port), logs every damaged line with its reason and skips
  it, never crashing (``stats["bad_lines"]``);
* asks ``HELLO?`` on every (re)connection; the answer gives the boot id and the
  last seq, and the link sends ``SYNC <last delivered>`` for the rest;
* delivers events in seq order per boot, de-duplicated on ``(boot, seq)``; a hole
  (an EVT, a heartbeat or a HELLO ahead of what was delivered) triggers a ``SYNC``;
* reports events that can no longer come as ``gap`` events naming exactly the
  missing seqs: when the device's ring has dropped them (``GAP`` reply), or when
  the device rebooted before delivering them (known from heartbeats, or from
  ``prev=`` in the new boot's HELLO);
* notices silence (no valid line for ``heartbeat_timeout`` s: state ``stale``,
  ``HELLO?`` again) and a vanished port (unplug): it closes it and reopens the
  same path every ``retry_interval`` s until it is back.

Events (``DieEvent``) come out of ``next_event(timeout)``. Replies to commands
(``ping``, ``configure``, ``sample``, ``stream``, ``save_profile``) are waited for
by the calling thread. Source of the wire format: ``docs/protocol.md``.
"""

import json
import logging
import queue
import threading
import time

import serial
from camelup import protocol

log = logging.getLogger("camelhost.device.link")

#: Event kinds handed to the session (docs/interfaces.md).
KINDS = ("die", "nodie", "double", "unknown", "fault", "gap")


class LinkError(OSError):
    """A command got no answer in time, or the device refused it (``NAK``)."""


class DieEvent:
    """One outcome of a slider push, or a hole in the sequence.

    ``kind``: ``die``, ``nodie``, ``double``, ``unknown``, ``fault`` or ``gap``.
    ``colour``: die colour (``red``, ``grey``...) for ``die``, else ``None``.
    ``ink``: ``black``/``white`` for the grey die, else ``None``. ``value``: 1..3
    when the pyramid has value buttons, else ``None``. ``boot``: the device's boot
    id (8 hex digits); ``seq``: the event's number in that boot (for ``gap``: the
    first missing one). ``missing``: for ``gap``, the tuple of every missing seq;
    empty when the count cannot be known (the pyramid restarted twice while the
    host was away: events from ``seq`` on *may* be missing).
    ``best``: for ``unknown``, the nearest colour or ``none``. ``code``: for
    ``fault``, ``eio``/``timeout``/``nosensor``. ``reading``: the raw
    ``(c, r, g, b)`` counts when sent. ``margin``: classifier margin in sigma.
    ``raw``: the wire line (str, without newline; ``""`` for ``gap``).
    """

    __slots__ = ("kind", "colour", "ink", "value", "boot", "seq", "raw", "missing", "best", "code", "reading", "margin")

    def __init__(self, kind, boot, seq, raw="", colour=None, ink=None, value=None, missing=(), best=None, code=None, reading=None, margin=None):
        self.kind = kind
        self.boot = boot
        self.seq = seq
        self.raw = raw
        self.colour = colour
        self.ink = ink
        self.value = value
        self.missing = tuple(missing)
        self.best = best
        self.code = code
        self.reading = reading
        self.margin = margin

    @classmethod
    def from_message(cls, msg, raw=""):
        """Build from a decoded ``EVT`` ``protocol.Message``."""
        f = msg.fields
        margin = f.get("m")
        return cls(
            msg.kind,
            f["boot"],
            f["seq"],
            raw,
            colour=f.get("col"),
            ink=f.get("ink"),
            value=f.get("val"),
            best=f.get("best"),
            code=f.get("code"),
            reading=f.get("raw"),
            margin=None if margin is None else margin / 100.0,
        )

    def label(self):
        """Classifier-style label: ``red``, ``grey-black``; ``None`` unless kind is ``die``."""
        if self.kind != "die":
            return None
        return self.colour + ("-" + self.ink if self.ink else "")

    def __repr__(self):
        if self.kind == "gap":
            return "DieEvent(gap %s missing=%r)" % (self.boot, self.missing)
        return "DieEvent(%s %s:%d %s %s %s)" % (self.kind, self.boot, self.seq, self.colour, self.ink, self.value)


class Link:
    """Serial client of the pyramid; see the module docstring.

    ``port``: path or pyserial URL. ``baudrate``: ignored by USB CDC and ptys,
    used by real UARTs (115200). ``heartbeat_timeout``: seconds of silence before
    the link counts as stale (default 6.0 = three 2 s heartbeats).
    ``resume``: ``(boot, seq)`` of the last event already handled (from the game
    journal): delivery continues after it, and anything of that boot that can no
    longer come is reported as a gap. Without it, delivery starts with the first
    event after connecting. ``retry_interval``: seconds between reopen attempts.
    ``sync_timeout``: seconds before an unanswered SYNC is sent again.
    ``hello_wait``: seconds ``open()`` waits for the first HELLO (0 = do not wait).

    Raises ``serial.SerialException`` / ``OSError`` from ``open()`` when the port
    cannot be opened the first time (later losses are retried in the background).
    """

    def __init__(
        self, port, baudrate=115200, heartbeat_timeout=6.0, resume=None, retry_interval=0.25, sync_timeout=1.0, hello_wait=3.0
    ):
        self.port = port
        self.hello_wait = hello_wait
        self.baudrate = baudrate
        self.heartbeat_timeout = heartbeat_timeout
        self.retry_interval = retry_interval
        self.sync_timeout = sync_timeout
        self._events = queue.Queue()
        self._raw = queue.Queue(maxsize=1000)
        self._ser = None
        self._write_lock = threading.Lock()
        self._lock = threading.Lock()
        self._waiters = []
        self._thread = None
        self._stop = threading.Event()
        self._want_open = threading.Event()
        #: "closed", "connecting", "connected" (lines flowing), "stale" (silent too long)
        self.state = "closed"
        #: the last HELLO (``protocol.Message``) or ``None``
        self.hello = None
        self.boot = resume[0] if resume else None
        self.delivered = resume[1] if resume else 0  # last seq handed out in ``boot``
        self._resume = resume is not None
        self._heard = self.delivered  # highest seq known to exist in ``boot``
        self._synced = False  # HELLO seen on this connection
        self._sync_sent = 0.0  # monotonic time of the SYNC in flight (0 = none)
        self._last_rx = 0.0
        self._last_hello_ask = 0.0
        self._hello_wanted = False
        self.stats = {"bad_lines": 0, "duplicates": 0, "syncs": 0, "gaps": 0, "reconnects": 0, "naks": 0}

    # --- life cycle ---

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc):
        self.close()

    def open(self):
        """Open the port (raises if it cannot), start the reader thread, and wait up to
        ``hello_wait`` s for the device's ``HELLO`` (a device that is not there yet is
        no error: the link keeps asking). Events start with the first one after that
        HELLO (or after ``resume``), so this wait keeps a push made right after
        ``open()`` from counting as history."""
        self._open_port()
        self._want_open.set()
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pyramid-link", daemon=True)
            self._thread.start()
        if self.hello_wait:
            try:
                self.wait_hello(self.hello_wait)
            except LinkError:
                log.warning("no HELLO from %s yet; still asking", self.port)

    def close(self):
        """Stop the reader and close the port (safe to call twice)."""
        self._stop.set()
        self._want_open.clear()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        self._close_port()
        self.state = "closed"

    def disconnect(self):
        """Close the port but keep the link's memory (boot, delivered seq): the host
        program going away. ``connect()`` picks up where it left off."""
        self._want_open.clear()
        with self._lock:
            self._close_port()
            self.state = "closed"

    def connect(self):
        """Reopen after ``disconnect()`` (raises if the port cannot be opened)."""
        with self._lock:
            self._open_port()
        self._want_open.set()

    def _open_port(self):
        ser = serial.serial_for_url(self.port, baudrate=self.baudrate, timeout=0.05, write_timeout=1.0)
        try:
            ser.reset_input_buffer()
        except (serial.SerialException, OSError, NotImplementedError, AttributeError):
            pass
        self._ser = ser
        self._buf = bytearray()
        self._skip = False
        self._synced = False
        self._sync_sent = 0.0
        self._last_rx = time.monotonic()
        self.state = "connecting"
        self._ask_hello()

    def _close_port(self):
        ser, self._ser = self._ser, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass

    # --- output ---

    def send(self, name, **fields):
        """Send one host message (``protocol.encode(name, **fields)``). Raises ``LinkError``
        when the port is not open."""
        self._write(protocol.encode(name, **fields))

    def _write(self, line):
        with self._write_lock:
            ser = self._ser
            if ser is None:
                raise LinkError("the pyramid's port is not open")
            try:
                ser.write(line)
            except (serial.SerialException, OSError) as exc:
                raise LinkError("writing to the pyramid failed: %s" % exc) from None

    def _try_write(self, line):
        try:
            self._write(line)
            return True
        except LinkError as exc:
            log.info("%s", exc)
            return False

    def _ask_hello(self):
        self._last_hello_ask = time.monotonic()
        self._hello_wanted = False
        self._try_write(protocol.encode("HELLO?"))

    def _want_hello(self):
        # ask now, or as soon as the last ask is 0.5 s old (no flood while lines pour in)
        if time.monotonic() - self._last_hello_ask > 0.5:
            self._ask_hello()
        else:
            self._hello_wanted = True

    def _sync(self):
        if self._sync_sent and time.monotonic() - self._sync_sent < self.sync_timeout:
            return
        self._sync_sent = time.monotonic()
        self.stats["syncs"] += 1
        self._try_write(protocol.encode("SYNC", seq=self.delivered))

    # --- the reader thread ---

    def _run(self):
        while not self._stop.is_set():
            if not self._want_open.is_set():
                self._stop.wait(0.05)
                continue
            ser = self._ser
            if ser is None:
                self._reopen()
                continue
            try:
                waiting = ser.in_waiting
                data = ser.read(waiting if waiting > 0 else 1)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                if self._ser is ser:  # not a deliberate disconnect()
                    log.warning("pyramid port lost (%s); reopening %s", exc, self.port)
                    with self._lock:
                        self._close_port()
                        self.state = "connecting"
                continue
            if data:
                self._feed(data)
            self._housekeeping()

    def _reopen(self):
        self._stop.wait(self.retry_interval)
        if self._stop.is_set() or not self._want_open.is_set():
            return
        try:
            with self._lock:
                if self._ser is None and self._want_open.is_set():
                    self._open_port()
                    self.stats["reconnects"] += 1
                    log.info("pyramid port %s reopened", self.port)
        except (serial.SerialException, OSError):
            pass

    def _housekeeping(self):
        now = time.monotonic()
        if self._ser is None:
            return
        if now - self._last_rx > self.heartbeat_timeout:
            if self.state != "stale":
                log.warning("no valid line from the pyramid for %.1f s", now - self._last_rx)
                self.state = "stale"
            if now - self._last_hello_ask > self.heartbeat_timeout / 2:
                self._ask_hello()
        elif not self._synced and now - self._last_hello_ask > 1.0:
            self._ask_hello()  # the HELLO answer was lost
        elif self._hello_wanted and now - self._last_hello_ask > 0.5:
            self._ask_hello()
        if self._sync_sent and now - self._sync_sent > self.sync_timeout and self._heard > self.delivered:
            self._sync_sent = 0.0
            self._sync()

    def _feed(self, data):
        buf = self._buf
        for b in data:
            if b == 10:
                if self._skip:
                    self._skip = False
                    self._reject(b"", "too_long")
                else:
                    self._line(bytes(buf))
                buf.clear()
            elif not self._skip:
                buf.append(b)
                if len(buf) >= protocol.MAX_LINE:
                    buf.clear()
                    self._skip = True

    def _reject(self, line, reason):
        self.stats["bad_lines"] += 1
        log.warning("skipped a damaged line from the pyramid (%s): %r", reason, line[:80])

    def _line(self, line):
        if not line.strip():
            return
        try:
            msg = protocol.decode(line)
        except protocol.ProtocolError as exc:
            self._reject(line, exc.reason)
            return
        except (ValueError, UnicodeError) as exc:
            self._reject(line, str(exc))
            return
        self._last_rx = time.monotonic()
        if self.state in ("stale", "connecting") and self._synced:
            self.state = "connected"
        text = line.decode().rstrip("\r")
        name = msg.name
        try:
            if name == "EVT":
                self._on_event(msg, text)
            elif name == "HELLO":
                self._on_hello(msg)
            elif name == "HB":
                self._on_heartbeat(msg)
            elif name == "GAP":
                self._on_gap(msg)
            elif name == "SYNCED":
                self._on_synced(msg)
            elif name == "RAW":
                self._offer_raw(msg)
            else:
                if name == "NAK":
                    self.stats["naks"] += 1
                    log.info("pyramid refused a command: %s", msg["reason"])
                self._answer(msg)
        except (KeyError, TypeError, ValueError) as exc:  # a decoded line we cannot use
            self._reject(line, "unusable: %s" % exc)

    # --- sequence logic ---

    def _deliver(self, event):
        self._events.put(event)

    def _report_gap(self, boot, first, last, why):
        if last < first:
            return
        self.stats["gaps"] += 1
        missing = tuple(range(first, last + 1))
        log.warning("pyramid events %s:%d..%d are lost (%s)", boot, first, last, why)
        self._deliver(DieEvent("gap", boot, first, "", missing=missing))

    def _on_hello(self, msg):
        self.hello = msg
        boot, seq = msg["boot"], msg["seq"]
        self._synced = True
        if self.state != "connected":
            self.state = "connected"
        if self.boot is None:
            # first contact and nothing to resume: deliver what happens from now on
            self.boot, self.delivered, self._heard = boot, seq, seq
            return
        if boot != self.boot:
            self._new_boot(boot, msg.get("prev"), seq)
        self._heard = max(self._heard, seq)
        if seq > self.delivered:
            self._sync_sent = 0.0
            self._sync()

    def _new_boot(self, boot, prev, seq):
        old, last = self.boot, self._heard
        if prev is not None and prev[0] == old:
            last = max(last, prev[1])  # the device's own record of the old boot's last event
        self._report_gap(old, self.delivered + 1, last, "the pyramid restarted before sending them")
        if prev is not None and prev[0] not in (old, boot) and prev[1] > 0:
            # the device restarted more than once while we were away: the boot in between
            # had events we never saw, and the old boot may have had more after ``last``
            self._report_gap(prev[0], 1, prev[1], "a restart in between took them")
            self.stats["gaps"] += 1
            log.warning("pyramid events of boot %s after %d may be lost (count unknown)", old, last)
            self._deliver(DieEvent("gap", old, last + 1, ""))
        log.info("pyramid restarted: boot %s -> %s", old, boot)
        self.boot, self.delivered, self._heard = boot, 0, seq
        self._sync_sent = 0.0

    def _on_heartbeat(self, msg):
        if msg["boot"] != self.boot or not self._synced:
            self._want_hello()  # a restart we have not heard the HELLO of
            return
        self._heard = max(self._heard, msg["seq"])
        if msg["seq"] > self.delivered:
            self._sync()

    def _on_event(self, msg, text):
        boot, seq = msg["boot"], msg["seq"]
        if boot != self.boot or not self._synced:
            self._want_hello()  # the HELLO (or restart) this event belongs to is unknown yet
            return
        self._heard = max(self._heard, seq)
        if seq <= self.delivered:
            self.stats["duplicates"] += 1
            return
        if seq > self.delivered + 1:
            self._sync()  # a hole before this one: have the device replay in order
            return
        self.delivered = seq
        self._deliver(DieEvent.from_message(msg, text))

    def _on_gap(self, msg):
        if msg["boot"] != self.boot:
            return
        first, last = msg["first"], msg["last"]
        if last <= self.delivered:
            return
        start = max(first, self.delivered + 1)
        if start > self.delivered + 1:
            return  # not contiguous with what we have: the next SYNC sorts it out
        self._report_gap(self.boot, start, last, "the pyramid's replay ring no longer holds them")
        self.delivered = last

    def _on_synced(self, msg):
        if msg["boot"] != self.boot:
            return
        self._heard = max(self._heard, msg["seq"])
        self._sync_sent = 0.0
        if msg["seq"] > self.delivered:
            self._sync()  # a replayed line was damaged on the way: ask again

    # --- events out ---

    def wait_hello(self, timeout=10.0):
        """Wait until this connection has had its ``HELLO`` (the device's boot and seq are
        known); return that ``protocol.Message``. Raises ``LinkError`` after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while not (self._synced and self.hello is not None):
            if time.monotonic() > deadline:
                raise LinkError("no HELLO from the pyramid within %.1f s" % timeout)
            time.sleep(0.01)
        return self.hello

    def next_event(self, timeout=None):
        """The next ``DieEvent`` in order, waiting up to ``timeout`` s (``None`` = forever);
        ``None`` when none came in time."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def pending_events(self):
        """Every ``DieEvent`` already received, without waiting (list)."""
        out = []
        while True:
            try:
                out.append(self._events.get_nowait())
            except queue.Empty:
                return out

    # --- commands and replies ---

    def _answer(self, msg):
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
                        raise LinkError("the pyramid refused %s: %s" % (name, reply["reason"]))
                    return reply
            raise LinkError("no answer from the pyramid to %s within %.1f s" % (name, timeout))
        finally:
            with self._lock:
                self._waiters.remove(waiter)

    def ping(self, timeout=3.0):
        """Round trip time in seconds of ``PING``/``PONG``. Raises ``LinkError``."""
        token = "p%d" % (int(time.monotonic() * 1000) % 100000000)
        started = time.monotonic()
        self.request("PING", lambda m: m.name == "PONG" and m["token"] == token, timeout, token=token)
        return time.monotonic() - started

    def configure(self, edition=None, integration_ms=None, gain=None, value_buttons=None, timeout=3.0):
        """Change (and have the device save) settings; ``None`` leaves one as it is.
        Returns the device's settings as a dict ``{ed, it, gain, vb}``. Raises ``LinkError``."""
        fields = {}
        if edition is not None:
            fields["ed"] = edition
        if integration_ms is not None:
            fields["it"] = int(round(integration_ms))
        if gain is not None:
            fields["gain"] = gain
        if value_buttons is not None:
            fields["vb"] = bool(value_buttons)
        return dict(self.request("SET", lambda m: m.name == "CFG", timeout, **fields).fields)

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

    def _offer_raw(self, msg):
        try:
            self._raw.put_nowait(msg)
        except queue.Full:
            pass  # nobody is reading the monitor stream: keep the newest 1000 only

    def next_reading(self, timeout=None):
        """The next streamed reading as a dict ``{on, off, label, m}``, or ``None`` after ``timeout``."""
        try:
            return dict(self._raw.get(timeout=timeout).fields)
        except queue.Empty:
            return None

    def save_profile(self, profile, timeout=5.0):
        """Send a calibration profile (JSON-able dict) in chunks and have the device store it.
        Raises ``LinkError`` when the device rejects it."""
        text = json.dumps(profile, sort_keys=True, separators=(",", ":"))
        data = text.encode("ascii")
        chunk = 96
        for offset in range(0, len(data), chunk):
            part = text[offset : offset + chunk]
            self.request("PROF", _ok_prof(offset + len(part)), timeout, retries=0, offset=offset, chunk=part)
        crc = "%08X" % protocol.crc32(data)
        self.request("SAVE", lambda m: m.name == "OK" and m["cmd"] == "SAVE", timeout, retries=0, length=len(data), crc=crc)


def _ok_prof(received):
    """Reply matcher for one ``PROF`` chunk: ``OK PROF n=<bytes received so far>``."""

    def match(msg):
        return msg.name == "OK" and msg["cmd"] == "PROF" and msg.get("n") == received

    return match
