"""Host side of the pyramid's serial link: every released die, in order, exactly once.

``Link(port)`` opens the pyramid's serial port (a path such as ``/dev/ttyACM0``,
the pty of a ``VirtualPyramid``, or any pyserial URL such as ``loop://`` or
``spy:///dev/ttyACM0``) and runs a reader thread that:

* discards bytes until a line passes its CRC (REPL banners, tracebacks and
  line noise share the port), logs every damaged line with its reason and skips
  it, never crashing (``stats["bad_lines"]``);
* asks ``HELLO?`` on every (re)connection; the answer gives the boot id and the
  last seq, and the link sends ``SYNC <last delivered> boot=<its boot>`` for the
  rest; when the device restarted meanwhile, the replay walks its boots in order
  (``SYNCED ... next=``) out of the device's flash store;
* delivers events in seq order per boot, de-duplicated on ``(boot, seq)``; events
  ahead of a hole are held (up to ``WINDOW``) and only the hole is asked for
  (``SYNC ... to=``), at once, then again with backoff;
* acknowledges (``ACK``) what the consumer has taken, so the device may forget it;
* reports events that can no longer come as ``gap`` events naming the boot and
  the seq range (two numbers, whatever the count): ``GAP`` replies, or a device
  without a store that rebooted before delivering them;
* refuses a device of another protocol version, and a port on which nothing
  speaks the protocol (``NotAPyramid``); opens the port exclusively (``PortInUse``);
  summarises skipped lines every ``WARN_EVERY_S`` s; restarts its reader thread
  after a failure;
* notices silence (no valid line for ``heartbeat_timeout`` s: state ``stale``,
  ``HELLO?`` again) and a vanished port (unplug): it closes it and reopens the
  same path every ``retry_interval`` s until it is back.

Events (``camelhost.device.events.DieEvent``) come out of ``next_event(timeout)``. Replies to commands
(``ping``, ``configure``, ``sample``, ``stream``, ``save_profile``) are waited for
by the calling thread. Source of the wire format: ``docs/protocol.md``.
"""

import json
import logging
import queue
import threading
import time

import serial
from camelup.board import protocol

from camelhost.device.events import DieEvent, SeqRange

log = logging.getLogger("camelhost.device.link")


class LinkError(OSError):
    """A command got no answer in time, or the device refused it (``NAK``)."""


class NotAPyramid(LinkError):
    """The port answers, but not as a smart pyramid (another device, a REPL, noise,
    silence), or it speaks a protocol version this program does not."""


class PortInUse(LinkError):
    """Another program has the port open (the port is opened exclusively)."""


#: How long ``open()`` waits for a first valid protocol line before it calls the
#: port "not a smart pyramid" (seconds).
IDENTIFY_S = 5.0
#: Events of one boot accepted ahead of the next expected seq (replays come in any
#: order within this window; later ones are asked for again).
WINDOW = 512
#: First retry of an unanswered SYNC (s); doubled per retry up to ``SYNC_MAX_S``.
SYNC_FIRST_S = 0.15
SYNC_MAX_S = 2.0
#: Seconds between two summaries of skipped lines (the first few are logged at once).
WARN_EVERY_S = 5.0


def describe_bytes(sample, total, valid):
    """What a port that is not a pyramid sent, in a few words: ``silence``, ``NMEA
    sentences (a GPS?)``, ``a MicroPython REPL``, ``text lines`` or ``random bytes``,
    with the byte count and the first few characters. ``sample``: the first bytes
    seen (bytes); ``total``: bytes seen; ``valid``: protocol lines that passed."""
    if not total:
        return "silence (no byte in %.0f s)" % IDENTIFY_S
    text = sample.decode("ascii", "replace")
    shown = "".join(c if " " <= c <= "~" else "." for c in text[:40])
    if "$GP" in text or "$GN" in text or "$GL" in text:
        what = "NMEA sentences (a GPS receiver?)"
    elif ">>>" in text or "MicroPython" in text or "Traceback" in text:
        what = "a MicroPython REPL (the board runs no pyramid firmware, or is in safe boot)"
    elif sum(1 for b in sample if 32 <= b < 127 or b in (10, 13)) > 0.9 * len(sample):
        what = "text lines without the protocol's checksums"
    else:
        what = "random bytes"
    return "%s: %d bytes, no valid line, starting %r" % (what, total, shown)


class Link:
    """Serial client of the pyramid; see the module docstring.

    ``port``: path or pyserial URL. ``baudrate``: ignored by USB CDC and ptys,
    used by real UARTs (115200). ``heartbeat_timeout``: seconds of silence before
    the link counts as stale (default 6.0 = three 2 s heartbeats).
    ``resume``: ``(boot, seq)`` of the last event already handled (from the game
    journal): delivery continues after it, through every boot the pyramid went
    through since, and anything that can no longer come is reported as a gap.
    Without it, delivery starts after the last event a host acknowledged
    (``acked=`` in HELLO), so dice released before the first HELLO arrived are
    delivered too. ``retry_interval``: seconds between reopen attempts.
    ``sync_timeout``: the longest wait before an unanswered SYNC is sent again
    (retries start at ``SYNC_FIRST_S`` and double). ``hello_wait``: seconds
    ``open()`` waits for the first HELLO (0 = do not wait). ``taken``: a callable
    returning the ``(boot, seq)`` of the last pyramid event the consumer has made
    safe (the game journal's last, ``Session.last_pyramid_event``) or ``None``; given,
    ``ACK`` acknowledges only that far (plus the gap and fault events after it, which
    no journal keeps), so a host killed between taking an event and writing it down
    finds it still in the pyramid's store; without it, what ``next_event`` handed out.

    Raises from ``open()``: ``PortInUse`` when another program holds the port,
    ``NotAPyramid`` when nothing on it speaks the protocol within ``IDENTIFY_S`` (or
    it speaks another version), ``serial.SerialException`` / ``OSError`` when the
    port cannot be opened the first time (later losses are retried in the background).
    """

    def __init__(
        self, port, baudrate=115200, heartbeat_timeout=6.0, resume=None, retry_interval=0.25, sync_timeout=SYNC_MAX_S, hello_wait=3.0,
        taken=None
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
        self._lines = protocol.LineAssembler()
        self._fresh = False
        #: "closed", "connecting", "connected" (lines flowing), "stale" (silent too long),
        #: "refused" (the device speaks another protocol version: ``refused`` says which)
        self.state = "closed"
        self.refused = None
        #: the last HELLO (``protocol.Message``) or ``None``
        self.hello = None
        self.boot = resume[0] if resume else None
        self.delivered = resume[1] if resume else 0  # last seq handed out in ``boot``
        self._resume = resume is not None
        self._heard = self.delivered  # highest seq known to exist in ``boot``
        self._ahead = {}  # seq -> DieEvent of ``boot`` received before its predecessors
        self._device_boot = None  # the boot the device runs now (its last HELLO)
        self._store = False  # the device keeps events until ACKed (HELLO acked=)
        self._synced = False  # HELLO seen on this connection
        self._sync_sent = 0.0  # monotonic time of the SYNC in flight (0 = none)
        self._sync_wait = SYNC_FIRST_S
        self._last_rx = 0.0
        self._last_hello_ask = 0.0
        self._hello_wanted = False
        self._consumed = None  # (boot, seq) the consumer has taken: what ACK says
        self._taken = taken
        self._kept = None  # (boot, seq) of the last event taken that a journal keeps
        self._ack_sent = None
        self._ack_time = 0.0
        self._stall_until = 0.0
        self._bytes_in = 0
        self._valid_lines = 0
        self._sample = bytearray()
        self._warn = [0, 0.0, ""]  # lines skipped since the last summary, its time, last reason
        self.reader_error = None  # the last exception that stopped the reader (restarted)
        self.stats = {
            "bad_lines": 0, "duplicates": 0, "syncs": 0, "gaps": 0, "reconnects": 0, "naks": 0,
            "replayed": 0, "reader_restarts": 0,
        }

    # --- life cycle ---

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc):
        self.close()

    def open(self):
        """Open the port (raises if it cannot), start the reader thread, and wait up to
        ``hello_wait`` s for the device's ``HELLO``. A device whose HELLO is late is no
        error (the link keeps asking, and events released meanwhile are delivered);
        a port with no valid protocol line at all within ``IDENTIFY_S`` raises
        ``NotAPyramid`` naming what was seen, and so does another protocol version."""
        self._open_port()
        self._want_open.set()
        self._start_reader()
        if self.hello_wait:
            try:
                self.wait_hello(self.hello_wait)
            except NotAPyramid:
                self.close()
                raise
            except LinkError:
                if not self._valid_lines:
                    self.identify(IDENTIFY_S - self.hello_wait)
                log.warning("no HELLO from %s yet; still asking", self.port)

    def identify(self, timeout=IDENTIFY_S):
        """Wait up to ``timeout`` s for one valid protocol line; raise ``NotAPyramid``
        (and close) when none came, saying what the port sent instead."""
        deadline = time.monotonic() + max(0.0, timeout)
        while not self._valid_lines and time.monotonic() < deadline and self.refused is None:
            time.sleep(0.02)
        if self.refused is not None or not self._valid_lines:
            text = self.refused or (
                "%s does not look like a smart pyramid (%s); check the port, or play with "
                "--pyramid manual and type the dice" % (self.port, describe_bytes(bytes(self._sample), self._bytes_in, 0))
            )
            self.close()
            raise NotAPyramid(text)

    def _start_reader(self):
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pyramid-link", daemon=True)
            self._thread.start()

    def close(self):
        """Stop the reader and close the port (safe to call twice)."""
        self._stop.set()
        self._want_open.clear()
        if self._thread is not None:
            if self._thread is not threading.current_thread():
                self._thread.join(5)
            self._thread = None
        self._close_port()
        if self.state != "refused":
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

    def stall(self, seconds):
        """Stop reading the port for ``seconds`` (a host that does not read: fault
        injection for the soak benchmark and tests)."""
        self._stall_until = time.monotonic() + seconds

    def _open_port(self):
        try:
            ser = serial.serial_for_url(
                self.port, baudrate=self.baudrate, timeout=0.05, write_timeout=1.0, exclusive=True
            )
        except serial.SerialException as exc:
            if "lock" in str(exc).lower():
                raise PortInUse(
                    "%s is in use by another program (another 'pyramid play' or 'monitor'?): "
                    "close it first" % self.port
                ) from None
            raise
        try:
            ser.reset_input_buffer()
        except (serial.SerialException, OSError, NotImplementedError, AttributeError):
            pass
        self._ser = ser
        self._lines.reset()
        self._fresh = True  # the first line may be the tail of one the flush above cut
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

    def _sync(self, force=False):
        """Ask the device to replay what follows ``delivered`` of ``boot``: only the
        hole before the first event held ahead (``to=``), retried with backoff."""
        now = time.monotonic()
        if not force and self._sync_sent and now - self._sync_sent < self._sync_wait:
            return
        if self._sync_sent and not force:
            self._sync_wait = min(self._sync_wait * 2, self.sync_timeout)
        self._sync_sent = now
        self.stats["syncs"] += 1
        fields = {"seq": self.delivered}
        if self._store:
            fields["boot"] = self.boot
            if self._ahead:
                fields["to"] = min(self._ahead) - 1
        self._try_write(protocol.encode("SYNC", **fields))

    def _progress(self):
        self._sync_wait = SYNC_FIRST_S

    def _ack_point(self):
        """What ``ACK`` may say: what the consumer took, or with ``taken`` only what it
        made safe (and the unjournaled gap/fault events right after that)."""
        if self._taken is None:
            return self._consumed
        safe = self._taken()
        if safe is not None and safe == self._kept:
            return self._consumed  # everything taken since is a gap or a fault
        return safe

    def _maybe_ack(self, now):
        point = self._ack_point()
        if not self._store or point is None or point == self._ack_sent or now - self._ack_time < 0.05:
            return
        if self._try_write(protocol.encode("ACK", seq=point[1], boot=point[0])):
            self._ack_sent = point
            self._ack_time = now

    # --- the reader thread ---

    def _run(self):
        """The reader thread: a failure inside is logged, counted and the loop starts
        again (``stats["reader_restarts"]``, ``reader_error``); it never dies silently."""
        while not self._stop.is_set():
            try:
                self._read_loop()
            except Exception as exc:  # a bug must not end delivery: report and go on
                self.stats["reader_restarts"] += 1
                self.reader_error = exc
                log.error("the pyramid link's reader failed (%s: %s); restarting it", type(exc).__name__, exc)
                self._stop.wait(0.1)

    def _read_loop(self):
        while not self._stop.is_set():
            if not self._want_open.is_set():
                self._stop.wait(0.05)
                continue
            ser = self._ser
            if ser is None:
                self._reopen()
                continue
            if self._stall_until and time.monotonic() < self._stall_until:
                self._stop.wait(0.02)
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
                self.feed(data)
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
        if self._ser is None or self.state == "refused":
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
        if self._synced and self._sync_sent and now - self._sync_sent > self._sync_wait:
            if self._heard > self.delivered or self._ahead or self._walking():
                self._sync()
            else:
                self._sync_sent = 0.0
        self._maybe_ack(now)
        warn = self._warn
        if warn[0] and now - warn[1] >= WARN_EVERY_S:
            log.warning("skipped %d damaged lines from the pyramid in %.0f s (last: %s)", warn[0], now - warn[1], warn[2])
            warn[0], warn[1] = 0, now

    def _walking(self):
        return self._store and self._device_boot is not None and self.boot != self._device_boot

    def feed(self, data):
        """Take bytes received from the port (the reader thread calls this; tests and
        the fuzz benchmark may call it directly on a link never opened). Never raises
        for any input: every damaged line is counted and skipped."""
        self._bytes_in += len(data)
        if len(self._sample) < 64:
            self._sample += data[: 64 - len(self._sample)]
        for line in self._lines.feed_many(data):
            if line == protocol.LineAssembler.TOO_LONG:
                self._reject(b"", "too_long")
            else:
                self._line(line)

    def _reject(self, line, reason):
        if self._fresh:
            self._fresh = False
            log.info("dropped the first line after opening %s (cut by the open): %r", self.port, line[:80])
            return
        self.stats["bad_lines"] += 1
        warn = self._warn
        now = time.monotonic()
        if self.stats["bad_lines"] <= 3:
            log.warning("skipped a damaged line from the pyramid (%s): %r", reason, line[:80])
            warn[1] = now
        else:
            warn[0] += 1
            warn[2] = reason

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
        self._valid_lines += 1
        self._fresh = False
        self._last_rx = time.monotonic()
        if self.state == "refused":
            return
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
        """One ``gap`` event for seqs ``first..last`` of ``boot`` (``last`` ``None``:
        from ``first`` on, count unknown). Two numbers, whatever the count."""
        if last is not None and last < first:
            return
        self.stats["gaps"] += 1
        if last is None:
            log.warning("pyramid events of boot %s from %d on may be lost (count unknown; %s)", boot, first, why)
        else:
            log.warning("pyramid events %s:%d..%d are lost (%s)", boot, first, last, why)
        self._deliver(DieEvent("gap", boot, first, "", missing=SeqRange(first, last)))

    def _on_hello(self, msg):
        proto = msg["proto"]
        if proto != protocol.PROTOCOL_VERSION:
            self._refuse(proto)
            return
        self.hello = msg
        boot, seq = msg["boot"], msg["seq"]
        self._synced = True
        self._device_boot = boot
        acked = msg.get("acked")
        self._store = acked is not None
        if self.state != "connected":
            self.state = "connected"
        if self.boot is None:
            # first contact, nothing to resume: a device that keeps events until a host
            # acknowledges them hands over the ones no host took (released before this
            # HELLO arrived); an older one only what happens from now on
            start = acked if self._store and acked <= seq else seq
            self.boot, self.delivered, self._heard = boot, start, seq
            self._consumed = self._kept = None
            if seq > start:
                self._sync(force=True)
            return
        if boot != self.boot:
            if self._store:
                self._sync(force=True)  # walk the device's boots from ours on
                return
            self._new_boot(boot, msg.get("prev"), seq)
        self._heard = max(self._heard, seq)
        if seq > self.delivered:
            self._sync(force=True)

    def _refuse(self, proto):
        ours = protocol.PROTOCOL_VERSION
        if proto > ours:
            fix = "update this program (pip install --upgrade the pyramid host package)"
        else:
            fix = "update the pyramid's firmware (pyramid flash --port %s)" % self.port
        text = ("the pyramid on %s speaks protocol version %d, this program version %d: %s"
                % (self.port, proto, ours, fix))
        if self.refused is None:
            log.error("%s", text)
        self.refused = text
        self.state = "refused"

    def _new_boot(self, boot, prev, seq):
        # a device without an event store (no acked= in HELLO): name what its restart took
        old, last = self.boot, self._heard
        if prev is not None and prev[0] == old:
            last = max(last, prev[1])  # the device's own record of the old boot's last event
        self._flush_ahead(old)
        self._report_gap(old, self.delivered + 1, last, "the pyramid restarted before sending them")
        if prev is not None and prev[0] not in (old, boot) and prev[1] > 0:
            # the device restarted more than once while we were away: the boot in between
            # had events we never saw, and the old boot may have had more after ``last``
            self._report_gap(prev[0], 1, prev[1], "a restart in between took them")
            self._report_gap(old, last + 1, None, "a restart in between")
        log.info("pyramid restarted: boot %s -> %s", old, boot)
        self._enter_boot(boot, seq)

    def _enter_boot(self, boot, heard=0):
        self.boot, self.delivered, self._heard = boot, 0, heard
        self._ahead = {}
        self._sync_sent = 0.0
        self._progress()

    def _flush_ahead(self, boot):
        """Deliver events held ahead that are now next in order."""
        ahead = self._ahead
        while ahead:
            nxt = ahead.pop(self.delivered + 1, None)
            if nxt is None:
                return
            self.delivered += 1
            self._deliver(nxt)

    def _on_heartbeat(self, msg):
        if msg["boot"] != self._device_boot or not self._synced:
            self._want_hello()  # a restart we have not heard the HELLO of
            return
        if msg["boot"] != self.boot:
            if self._walking():
                self._sync()  # still walking older boots: keep the replay going
            return
        self._heard = max(self._heard, msg["seq"])
        if msg["seq"] > self.delivered:
            self._sync()

    def _on_event(self, msg, text):
        boot, seq = msg["boot"], msg["seq"]
        if not self._synced or (boot != self.boot and boot != self._device_boot):
            self._want_hello()  # the HELLO (or restart) this event belongs to is unknown yet
            return
        if boot != self.boot:
            return  # a later boot's event while older ones are replayed: asked for in turn
        if seq <= self.delivered or seq in self._ahead:
            self.stats["duplicates"] += 1
            if self._consumed is not None and self._consumed == (boot, seq):
                self._ack_sent = None  # the device resends what we took: our ACK was lost
            return
        event = DieEvent.from_message(msg, text)
        resent = seq <= self._heard
        self._heard = max(self._heard, seq)
        if resent:
            self.stats["replayed"] += 1  # announced before (HB, HELLO, a later event): a resend
        if seq > self.delivered + 1:
            if seq <= self.delivered + WINDOW:
                self._ahead[seq] = event
            self._sync()  # a hole before this one: ask for just the hole
            return
        self.delivered = seq
        self._deliver(event)
        self._flush_ahead(boot)
        self._progress()

    def _on_gap(self, msg):
        if msg["boot"] != self.boot:
            return
        first, last = msg["first"], msg["last"]
        if last <= self.delivered or first > self.delivered + 1:
            return  # old news, or not contiguous with what we have: the next SYNC sorts it out
        start = self.delivered + 1
        self._report_gap(self.boot, start, last, "the pyramid no longer holds them")
        for seq in [s for s in self._ahead if s <= last]:
            del self._ahead[seq]
        self.delivered = last
        self._heard = max(self._heard, last)
        self._flush_ahead(self.boot)
        self._progress()

    def _on_synced(self, msg):
        boot, seq = msg["boot"], msg["seq"]
        if boot != self.boot:
            return
        self._heard = max(self._heard, seq)
        if not msg.get("known", True):
            # the device has no record of our boot: whatever followed is unaccounted for
            self._flush_ahead(boot)
            first = self.delivered + 1
            self._ahead = {}
            self._report_gap(boot, first, None if self._heard < first else self._heard,
                             "the pyramid kept no record of that boot")
            if self._heard >= first:
                self._report_gap(boot, self._heard + 1, None, "the pyramid kept no record of that boot")
            self._next_boot(msg.get("next"))
            return
        if seq > self.delivered:
            self._sync(force=True)  # the replay ended and a line of it was lost: ask again
            return
        nxt = msg.get("next")
        if nxt is not None and self._store:
            if self._heard > seq:
                # we heard of events the device's store does not hold (its flash failed)
                self._report_gap(boot, seq + 1, self._heard, "the pyramid restarted before storing them")
            self._next_boot(nxt)
            return
        self._sync_sent = 0.0
        self._progress()

    def _next_boot(self, nxt):
        """Our boot is fully accounted for: continue with the one after it."""
        if nxt is None or nxt == self.boot:
            nxt = self._device_boot
        log.info("pyramid boot %s done; replaying boot %s", self.boot, nxt)
        self._enter_boot(nxt)
        self._sync(force=True)

    # --- events out ---

    def wait_hello(self, timeout=10.0):
        """Wait until this connection has had its ``HELLO`` (the device's boot and seq are
        known); return that ``protocol.Message``. Raises ``LinkError`` after ``timeout`` s,
        ``NotAPyramid`` at once when the device speaks another protocol version."""
        deadline = time.monotonic() + timeout
        while not (self._synced and self.hello is not None):
            if self.refused is not None:
                raise NotAPyramid(self.refused)
            if time.monotonic() > deadline:
                raise LinkError("no HELLO from the pyramid within %.1f s" % timeout)
            time.sleep(0.01)
        return self.hello

    def next_event(self, timeout=None):
        """The next ``DieEvent`` in order, waiting up to ``timeout`` s (``None`` = forever);
        ``None`` when none came in time."""
        if self._thread is not None and not self._thread.is_alive() and not self._stop.is_set():
            log.error("the pyramid link's reader thread had stopped; starting it again")
            self.stats["reader_restarts"] += 1
            self._thread = None
            self._start_reader()
        try:
            event = self._events.get(timeout=timeout)
        except queue.Empty:
            return None
        self._took(event)
        return event

    def _took(self, event):
        # what the consumer has taken is what the next ACK tells the device
        if event.kind == "gap":
            last = getattr(event.missing, "last", None)
            self._consumed = (event.boot, last if last is not None else event.seq - 1)
        else:
            self._consumed = (event.boot, event.seq)
            if event.kind != "fault":
                self._kept = self._consumed

    def pending_events(self):
        """Every ``DieEvent`` already received, without waiting (list)."""
        out = []
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                return out
            self._took(event)
            out.append(event)

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
        Raises ``LinkError`` when the device rejects it or it is larger than
        ``protocol.MAX_PROFILE`` bytes of compact JSON."""
        text = json.dumps(profile, sort_keys=True, separators=(",", ":"))
        data = text.encode("ascii")
        if len(data) > protocol.MAX_PROFILE:
            raise LinkError(
                "profile is %d bytes of JSON; a pyramid takes at most %d" % (len(data), protocol.MAX_PROFILE)
            )
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
