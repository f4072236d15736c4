"""Host side of the pyramid's serial link: every released die, in order, exactly once.

``Link(port)`` opens the pyramid's serial port (a path such as ``/dev/ttyACM0``,
the pty of a ``VirtualPyramid``, or any pyserial URL such as ``loop://`` or
``spy:///dev/ttyACM0``) and joins three parts behind one lock:

* ``camelhost.device.transport.Transport``: the port, opened exclusively
  (``PortInUse``), read by one thread that is restarted after a failure, reopened
  every ``retry_interval`` s after an unplug;
* ``camelhost.device.sequencer.Sequencer``: the sequencing, without I/O (HELLO,
  dedupe on ``(boot, seq)``, holes asked for with ``SYNC``, boots walked, gaps as
  ranges, ``ACK`` of what the consumer took, staleness);
* ``camelhost.device.calls.Calls``: commands and their replies (``ping``,
  ``configure``, ``sample``, ``stream``, ``save_profile``, ``next_reading``).

The link itself cuts bytes into lines (``camelup.board.protocol.LineAssembler``), discards
bytes until a line passes its CRC (REPL banners, tracebacks and line noise share the
port), logs every damaged line with its reason and skips it, never crashing
(``stats["bad_lines"]``, summarised every ``WARN_EVERY_S`` s), and refuses a port on
which nothing speaks the protocol (``NotAPyramid``, saying what it heard).

Events (``camelhost.device.events.DieEvent``) come out of ``next_event(timeout)``.
Replies to commands are waited for by the calling thread. Source of the wire format:
``docs/protocol.md``.
"""

import collections
import logging
import queue
import threading
import time

from camelup.board import protocol

from camelhost.device.calls import Calls
from camelhost.device.events import decode
from camelhost.device.sequencer import SYNC_FIRST_S, SYNC_MAX_S, WINDOW, Sequencer
from camelhost.device.transport import LinkError, NotAPyramid, PortInUse, Transport
from camelhost.i18n import _, decimal

__all__ = ["Link", "LinkError", "NotAPyramid", "PortInUse", "describe_bytes", "IDENTIFY_S", "WINDOW",
           "SYNC_FIRST_S", "SYNC_MAX_S", "WARN_EVERY_S"]

log = logging.getLogger("camelhost.device.link")

#: How long ``open()`` waits for a first valid protocol line before it calls the
#: port "not a smart pyramid" (seconds).
IDENTIFY_S = 5.0
#: Seconds between two summaries of skipped lines (the first few are logged at once).
WARN_EVERY_S = 5.0
#: The line quality (``Link.quality``) is the share of the last ``QUALITY_LINES`` lines
#: that passed their CRC; below ``NOISY`` the link says the line is noisy (once, and
#: again once it is back above ``CLEAN``).
QUALITY_LINES = 50
NOISY = 0.9
CLEAN = 0.97
#: How often the reader's idle calls reach the sequencer at most (s).
TICK_S = 0.02


def describe_bytes(sample, total, valid):
    """What a port that is not a pyramid sent, in a few words: ``silence``, ``NMEA
    sentences, as a GPS receiver sends``, ``a MicroPython REPL``, ``text lines`` or
    ``random bytes``, with the byte count and the first few characters. ``sample``: the
    first bytes seen (bytes); ``total``: bytes seen; ``valid``: protocol lines that
    passed. No parenthesis: the refusal puts this in one (``does not look like a smart
    pyramid (...)``)."""
    if not total:
        return _("silence, no byte in %.0f s") % IDENTIFY_S
    text = sample.decode("ascii", "replace")
    shown = "".join(c if " " <= c <= "~" else "." for c in text[:40])
    if "$GP" in text or "$GN" in text or "$GL" in text:
        what = _("NMEA sentences, as a GPS receiver sends")
    elif ">>>" in text or "MicroPython" in text or "Traceback" in text:
        what = _("a MicroPython REPL, so the board runs no pyramid firmware or is in "
                 "safe boot")
    elif sum(1 for b in sample if 32 <= b < 127 or b in (10, 13)) > 0.9 * len(sample):
        what = _("text lines without the protocol's checksums")
    else:
        what = _("random bytes")
    # TRANSLATORS: %(what)s is what was heard (e.g. "random bytes"), %(start)r how it starts
    return _("%(what)s: %(bytes)d bytes, no valid line, starting %(start)r") % {
        "what": what, "bytes": total, "start": shown}


#: What only MicroPython's REPL sends (checked in every chunk the port gives, across
#: chunk ends): its prompt (``>>> ``, also before the echo of a line it was sent), its
#: banner and the raw REPL's greeting. A traceback (``Traceback (most recent call
#: last)``, ``SyntaxError:``) counts while no valid line of the device's came: the
#: firmware never prints one while it runs, a REPL that read our lines as Python does.
REPL_MARKS = (b">>> ", b"MicroPython v", b"raw REPL; CTRL-B to exit")
REPL_TRACEBACK = (b"Traceback (most recent call last)", b"SyntaxError:")


def repl_text(port):
    """The one line every tool (play, doctor, monitor, calibrate) says of a board at
    MicroPython's prompt on ``port``: what it is and the two fixes (a board in safe boot
    starts the firmware when plugged in without the slider held, hardware/README.md
    "Watchdog and safe boot"; one never flashed gets it from ``pyramid flash``)."""
    return (_("the board on %(port)s is at the MicroPython prompt, the pyramid firmware not "
              "running (safe boot, or not flashed): unplug and replug it without holding the "
              "slider (an emulated Pico: c in its terminal), or pyramid flash --port %(port)s")
            % {"port": port})


class Link:
    """Serial client of the pyramid; see the module docstring.

    ``port``: path or pyserial URL. ``baudrate``: ignored by USB CDC and ptys,
    used by real UARTs (115200). ``heartbeat_timeout``: seconds of silence before
    the link counts as stale (default 6.0 = three 2 s heartbeats), stretched for a
    board whose heartbeats arrive slower (``slowness``).
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
    ``ACK`` acknowledges only that far (plus the gap and foreign events right after it
    when the consumer keeps none of them; the table journals a sensor fault and a gap
    with a known range, and those wait for it),
    so a host killed between taking an event and writing it down finds it still in
    the pyramid's store; without it, what ``next_event`` handed out. ``uid``: the
    RP2040 unique id of the pyramid the game was played with (the journal's ``board``
    line): nothing is delivered or acknowledged until the full ``HELLO`` names that
    board, and another board is refused (``refused`` names both; ``open()`` waits
    ``hello_wait`` s for it and raises ``NotAPyramid`` when it came in time).
    ``clock``: what the link reads the time from and waits with, an object with
    ``monotonic()`` (seconds, any origin) and ``sleep(seconds)``: the ``time`` module
    by default. Every time the link judges is read from it (``IDENTIFY_S``,
    ``hello_wait``, ``wait_hello``'s timeout, the sequencer's ``now``), so a test drives
    a simulated clock and checks a promise such as "a wrong device is called out within
    ``IDENTIFY_S`` s" without wall time (tests/test_link.py; the wall-time figure is in
    tests/bench/bench_link.py). The reader thread's own waits (the port's read timeout,
    ``retry_interval``) stay in wall time.

    Raises from ``open()``: ``PortInUse`` when another program holds the port,
    ``NotAPyramid`` when nothing on it speaks the protocol within ``IDENTIFY_S`` (or
    it speaks another version), ``serial.SerialException`` / ``OSError`` when the
    port cannot be opened the first time (later losses are retried in the background).
    """

    def __init__(
        self, port, baudrate=115200, heartbeat_timeout=6.0, resume=None, retry_interval=0.25, sync_timeout=SYNC_MAX_S, hello_wait=3.0,
        taken=None, uid=None, clock=time
    ):
        self.port = port
        self.clock = clock
        self.hello_wait = hello_wait
        self.stats = {
            "bad_lines": 0, "duplicates": 0, "syncs": 0, "gaps": 0, "reconnects": 0, "naks": 0,
            "replayed": 0, "reader_restarts": 0,
        }
        self._lock = threading.Lock()  # the sequencer is driven by the reader and the consumer
        self.sequencer = Sequencer(resume, heartbeat_timeout, sync_timeout, taken, port=port, stats=self.stats,
                                   uid=uid)
        self.transport = Transport(port, baudrate, retry_interval, on_open=self._opened, on_data=self.feed,
                                   on_idle=self._idle, on_lost=self._lost, stats=self.stats)
        self.calls = Calls(self._write, stretch=self._stretch)
        self._events = queue.Queue()
        self._lines = protocol.LineAssembler()
        self._fresh = False
        self._last_tick = 0.0
        self._bytes_in = 0
        self._valid_lines = 0
        self._sample = bytearray()
        self._warn = [0, 0.0, ""]  # lines skipped since the last summary, its time, last reason
        self._outcomes = collections.deque(maxlen=QUALITY_LINES)  # True: the line passed
        self._noisy = False  # the line's quality was said to be low
        #: what ``NotAPyramid`` advises after saying what the port sent (``None``: check
        #: the port, or play with ``--pyramid manual``); a command of its own sets it
        self.advice = None
        #: called as ``on_quality(noisy, quality)`` (reader thread) each time the line
        #: falls under ``NOISY`` (``noisy`` True) or is back over ``CLEAN`` (False); while
        #: set, the link logs those two facts at INFO only (its caller says them)
        self.on_quality = None
        #: the line saying the board is at MicroPython's prompt (``repl_text``) once its
        #: REPL was recognised (``REPL_MARKS``, or the echo of a line this link sent),
        #: else ``None``; ``open()``, ``identify`` and ``wait_hello`` raise
        #: ``NotAPyramid`` with it at once. Mid-game (the firmware crashed to the prompt)
        #: nothing is written to the board meanwhile (``_write``: a line would be typed
        #: into its REPL), and it is ``None`` again once the board sends a valid line of
        #: its own (the firmware runs again: a watchdog reset, a replug)
        self.at_repl = None
        self._tail = b""  # the last bytes fed, so a mark cut across two chunks is found

    # --- what the sequencer and the transport know ---

    @property
    def state(self):
        """``closed``, ``connecting``, ``connected`` (lines flowing), ``stale`` (silent
        too long), ``refused`` (another protocol version: ``refused`` says which)."""
        return self.sequencer.state

    @property
    def refused(self):
        return self.sequencer.refused

    @property
    def slowness(self):
        """How many times slower than a real board's the pyramid's heartbeats arrive in
        wall time (1.0 for a real board; about 10 for an emulated one at 0.1x real
        time); ``Sequencer.slowness``. The link's own silence patience
        (``Sequencer.patience``) is ``heartbeat_timeout`` times it."""
        with self._lock:
            return self.sequencer.slowness

    @property
    def hello(self):
        """The last HELLO (``protocol.Message``) or ``None``."""
        return self.sequencer.hello

    @property
    def identity(self):
        """The pyramid this link serves, once its full ``HELLO`` came (``None`` before):
        a dict of ``uid`` (RP2040 unique id), ``fw`` (firmware version), ``ed`` (edition)
        and ``boot``/``seq``, the point delivery began after (``Sequencer.origin``): what
        the game's journal records of its pyramid (its ``board`` line)."""
        with self._lock:
            hello, origin = self.sequencer.hello, self.sequencer.origin
            if hello is None or origin is None or not self.sequencer.confirmed:
                return None
            return {"uid": hello["uid"], "fw": hello["fw"], "ed": hello["ed"],
                    "boot": origin[0], "seq": origin[1]}

    @property
    def lines_heard(self):
        """How many valid protocol lines came since the link was made (any kind: a
        heartbeat counts): a board that beats but never answers ``HELLO?`` has some."""
        return self._valid_lines

    @property
    def quality(self):
        """The line's quality: the share (0.0..1.0) of the last ``QUALITY_LINES`` lines
        received that passed their CRC, or ``None`` before ten lines came. A line losing
        2 % of its bytes reads about 0.5 (a 40-byte heartbeat passes 45 % of the time).
        Below ``NOISY`` the sequencer asks more often (``Sequencer.noisy``)."""
        if len(self._outcomes) < 10:
            return None
        return sum(self._outcomes) / len(self._outcomes)

    @property
    def noisy(self):
        """True from the moment ``quality`` fell under ``NOISY`` until it is back over
        ``CLEAN`` (the two thresholds keep it from flickering)."""
        return self._noisy

    def _judged(self, passed):
        self._outcomes.append(passed)
        quality = self.quality
        if quality is None:
            return
        told = self.on_quality
        level = logging.INFO if told is not None else logging.WARNING
        if not self._noisy and quality < NOISY:
            self._noisy = self.sequencer.noisy = True
            log.log(level, "the line to the pyramid is noisy: %d %% of its lines arrive whole (check the "
                    "cable); every die still arrives, more slowly", round(quality * 100))
        elif self._noisy and quality >= CLEAN:
            self._noisy = self.sequencer.noisy = False
            log.log(level, "the line to the pyramid is clean again (%d %% of its lines arrive whole)",
                    round(quality * 100))
        else:
            return
        if told is not None:
            told(self._noisy, quality)

    @property
    def reader_error(self):
        """The last exception that stopped the reader (it was restarted), or ``None``."""
        return self.transport.reader_error

    # --- life cycle ---

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc):
        self.close()

    def open(self):
        """Open the port (raises if it cannot), start the reader thread, and wait up to
        ``hello_wait`` s for the device's ``HELLO`` or its short form ``HI`` (delivery
        can start; ``wait_hello`` waits for the full one). A device whose HELLO is late is no
        error (the link keeps asking, and events released meanwhile are delivered);
        a port with no valid protocol line at all within ``IDENTIFY_S`` raises
        ``NotAPyramid`` naming what was seen, and so does another protocol version.
        ``IDENTIFY_S`` counts from the call, the wait for the HELLO included: a wrong
        device is called out ``IDENTIFY_S`` s after ``open()`` began on the link's
        ``clock``, not later by the waits' steps."""
        started = self.clock.monotonic()
        self.transport.open()
        try:
            if self.hello_wait:
                try:
                    self._wait_synced(self.hello_wait)
                except NotAPyramid:
                    raise
                except LinkError:
                    if not self._valid_lines:
                        self.identify(IDENTIFY_S - (self.clock.monotonic() - started))
                    log.warning("no HELLO from %s yet; still asking", self.port)
        except BaseException:  # no pyramid there, or interrupted while asking
            self._abandon()
            raise

    def identify(self, timeout=IDENTIFY_S):
        """Wait up to ``timeout`` s for one valid protocol line; raise ``NotAPyramid``
        (and close) when none came, saying what the port sent instead."""
        deadline = self.clock.monotonic() + max(0.0, timeout)
        while not self._valid_lines and self.refused is None and self.at_repl is None:
            left = deadline - self.clock.monotonic()
            if left <= 0:
                break
            self.clock.sleep(min(0.02, left))  # never past the deadline
        if self.refused is not None or self.at_repl is not None or not self._valid_lines:
            what = describe_bytes(bytes(self._sample), self._bytes_in, 0)
            if self.refused is not None:
                text = self.refused
            elif self.at_repl is not None:
                text = self.at_repl
            elif self.advice is not None:
                text = _("%(port)s does not look like a smart pyramid (%(what)s); %(advice)s") % {
                    "port": self.port, "what": what, "advice": self.advice}
            else:
                text = (_("%(port)s does not look like a smart pyramid (%(what)s); check the port, "
                          "or play with --pyramid manual and type the dice")
                        % {"port": self.port, "what": what})
            self._abandon()
            raise NotAPyramid(text)

    def _abandon(self):
        """Close after a failed probe: the port gets back the terminal settings it had
        when it was opened (``Transport.close(restore=True)``), so a terminal that was
        not the pyramid's is not left a raw serial line."""
        self.transport.close(restore=True)
        with self._lock:
            self.sequencer.closed()

    def close(self):
        """Stop the reader and close the port (safe to call twice)."""
        self.transport.close()
        with self._lock:
            self.sequencer.closed()

    def disconnect(self):
        """Close the port but keep the link's memory (boot, delivered seq): the host
        program going away. ``connect()`` picks up where it left off."""
        self.transport.disconnect()
        with self._lock:
            self.sequencer.closed()

    def connect(self):
        """Reopen after ``disconnect()`` (raises if the port cannot be opened)."""
        self.transport.connect()

    def stall(self, seconds):
        """Stop reading the port for ``seconds`` (a host that does not read: fault
        injection for the soak benchmark and tests)."""
        self.transport.stall(seconds)

    # --- the transport's calls (reader thread) ---

    def _opened(self):
        self._lines.reset()
        self._fresh = True  # the first line may be the tail of one the flush cut
        with self._lock:
            events, lines = self.sequencer.opened(self.clock.monotonic())
        self._out(events, lines)

    def _lost(self):
        with self._lock:
            self.sequencer.lost()

    def _idle(self):
        now = self.clock.monotonic()
        if now - self._last_tick < TICK_S:
            return
        self._last_tick = now
        with self._lock:
            events, lines = self.sequencer.tick(now)
        self._out(events, lines)
        warn = self._warn
        if warn[0] and now - warn[1] >= WARN_EVERY_S:
            log.warning("skipped %d damaged lines from the pyramid in %.0f s (last: %s)", warn[0], now - warn[1], warn[2])
            warn[0], warn[1] = 0, now

    def _out(self, events, lines):
        for event in events:
            self._events.put(event)
        for line in lines:
            try:
                self._write(line)
            except LinkError as exc:
                log.info("%s", exc)

    def _write(self, line):
        """Write ``line`` to the board (``Transport.write``), unless it is at MicroPython's
        prompt (``at_repl``): there a protocol line would be typed into its REPL, so
        ``LinkError`` (its text ``at_repl``) is raised instead and nothing is written."""
        if self.at_repl is not None:
            raise LinkError(self.at_repl)
        self.transport.write(line)

    # --- bytes in ---

    def feed(self, data):
        """Take bytes received from the port (the reader thread calls this; tests and
        the fuzz benchmark may call it directly on a link never opened). Never raises
        for any input: every damaged line is counted and skipped."""
        self._bytes_in += len(data)
        if len(self._sample) < 64:
            self._sample += data[: 64 - len(self._sample)]
        if self.at_repl is None:
            seen = self._tail + bytes(data)
            marks = REPL_MARKS if self._valid_lines else REPL_MARKS + REPL_TRACEBACK
            self._tail = seen[-40:]
            if any(mark in seen for mark in marks):
                # the firmware's lines before the REPL's text (its traceback included) are
                # taken first: a valid line after it says the firmware runs again
                # (``_line``), one before it must not (a heartbeat sent just before the
                # crash, read in one chunk with the prompt)
                found = [seen.find(m) for m in REPL_MARKS + REPL_TRACEBACK if m in seen]
                cut = max(0, min(found) - (len(seen) - len(data)))
                self._lines_of(data[:cut])
                self._at_repl()
                data = data[cut:]
        self._lines_of(data)

    def _lines_of(self, data):
        """Cut ``data`` into lines and take each (``_line``; too long: ``_reject``)."""
        for line in self._lines.feed_many(data):
            if line == protocol.LineAssembler.TOO_LONG:
                self._reject(b"", "too_long")
            else:
                self._line(line)

    def _at_repl(self):
        if self.at_repl is None:
            self.at_repl = repl_text(self.port)
            log.info("%s", self.at_repl)

    def _reject(self, line, reason):
        if self.at_repl is not None:
            return  # the REPL's lines: no line quality, no damage to count
        if self._fresh:
            self._fresh = False
            log.info("dropped the first line after opening %s (cut by the open): %r", self.port, line[:80])
            return
        self.stats["bad_lines"] += 1
        self._judged(False)
        warn = self._warn
        now = self.clock.monotonic()
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
            msg = decode(line)
        except protocol.ProtocolError as exc:
            self._reject(line, exc.reason)
            return
        except (ValueError, UnicodeError) as exc:
            self._reject(line, str(exc))
            return
        if protocol.MESSAGES.get(msg.name, ("D",))[0] == "H":
            # a host's line coming back: a REPL echoing what this link wrote (a pyramid
            # never sends one), no device speaking the protocol
            self._at_repl()
            return
        if self.at_repl is not None and self._valid_lines:
            # the board speaks the protocol again after its prompt (the firmware runs
            # again: a watchdog reset, a replug): the link writes to it again
            self.at_repl = None
            log.info("the pyramid on %s runs its firmware again", self.port)
        self._valid_lines += 1
        self._fresh = False
        self._judged(True)
        if msg.name in ("EVT", "HELLO", "HI", "HB", "GAP", "SYNCED"):
            with self._lock:
                events, lines = self.sequencer.receive(msg, self.clock.monotonic(), line.decode().rstrip("\r"))
                unusable = self.sequencer.unusable
            self._out(events, lines)
            if unusable:
                self._reject(line, unusable)
            return
        with self._lock:
            # any valid line: the device lives (an OK OUT answers the dice out, see ``send``)
            events, lines = self.sequencer.receive(msg, self.clock.monotonic())
        self._out(events, lines)
        if self.state == "refused":
            return
        if msg.name == "NAK":
            self.stats["naks"] += 1
            log.info("pyramid refused a command: %s", msg.get("reason"))
        self.calls.answer(msg)

    # --- events out ---

    def wait_hello(self, timeout=10.0):
        """Wait until this connection has had its ``HELLO`` (the device's boot and seq are
        known); return that ``protocol.Message``. Raises ``LinkError`` after ``timeout`` s,
        ``NotAPyramid`` at once when the device speaks another protocol version."""
        deadline = self.clock.monotonic() + timeout
        while not (self.sequencer.synced and self.hello is not None):
            if self.refused is not None:
                raise NotAPyramid(self.refused)
            if self.at_repl is not None:
                raise NotAPyramid(self.at_repl)
            if self.clock.monotonic() > deadline:
                raise LinkError(_("no HELLO from the pyramid within %s s") % decimal(timeout, 1))
            self.clock.sleep(0.01)
        return self.hello

    def _wait_synced(self, timeout):
        # HELLO or its short form HI: delivery can go on (the identity may come later),
        # unless the link must know the board first (``uid``): then its full HELLO
        deadline = self.clock.monotonic() + timeout
        while not (self.sequencer.synced and self.sequencer.confirmed):
            if self.refused is not None:
                raise NotAPyramid(self.refused)
            if self.at_repl is not None:
                raise NotAPyramid(self.at_repl)
            left = deadline - self.clock.monotonic()
            if left <= 0:
                raise LinkError(_("no HELLO from the pyramid within %s s") % decimal(timeout, 1))
            self.clock.sleep(min(0.01, left))  # never past the deadline

    def next_event(self, timeout=None):
        """The next ``DieEvent`` in order, waiting up to ``timeout`` s (``None`` = forever);
        ``None`` when none came in time."""
        self.transport.revive()
        try:
            event = self._events.get(timeout=timeout)
        except queue.Empty:
            return None
        with self._lock:
            self.sequencer.took(event)
        return event

    def pending_events(self):
        """Every ``DieEvent`` already received, without waiting (list)."""
        out = []
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                return out
            with self._lock:
                self.sequencer.took(event)
            out.append(event)

    # --- commands and replies (camelhost.device.calls) ---

    def send(self, name, **fields):
        """Send one host message (``protocol.encode(name, **fields)``). Raises ``LinkError``
        when the port is not open. An ``OUT`` (the dice out this leg) goes through the
        sequencer (``Sequencer.told_out``): written once the board said hello and is
        the game's board (held until then), sent again until the board answers
        ``OK OUT`` with its mask (bounded, ``SYNC``'s back-off), and said again to a
        board that restarted."""
        if name != "OUT":
            self._write(protocol.encode(name, **fields))
            return
        with self._lock:
            events, lines = self.sequencer.told_out(fields["mask"], self.clock.monotonic())
        try:
            for line in lines:
                self._write(line)
        except LinkError:
            with self._lock:
                self.sequencer.out_unsent()
            raise
        for event in events:
            self._events.put(event)

    def request(self, name, expect, timeout=3.0, retries=2, **fields):
        """``Calls.request``: send ``name``, wait for the reply ``expect`` accepts."""
        return self.calls.request(name, expect, timeout, retries, **fields)

    def ping(self, timeout=3.0):
        """``Calls.ping``: round trip time in seconds."""
        return self.calls.ping(timeout)

    def configure(self, edition=None, integration_ms=None, gain=None, value_buttons=None, timeout=None):
        """``Calls.configure``: change settings; the device's settings as a dict."""
        return self.calls.configure(edition, integration_ms, gain, value_buttons, timeout)

    @property
    def stretch(self):
        """How many times a real board's wait for a reply this board gets (``_stretch``)."""
        return self._stretch()

    def _stretch(self):
        """How many times a real board's wait a reply gets (``Calls``): the heartbeats'
        ``slowness``, and at least ``calls.PSEUDO_TERMINAL_STRETCH`` on a
        pseudo-terminal (the emulated Pico)."""
        from camelhost.device.calls import PSEUDO_TERMINAL_STRETCH
        from camelhost.device.sources import pseudo_terminal

        return max(self.slowness, PSEUDO_TERMINAL_STRETCH if pseudo_terminal(self.port) else 1.0)

    def sample(self, timeout=5.0):
        """``Calls.sample``: one ``(on, off)`` calibration sample."""
        return self.calls.sample(timeout)

    def stream(self, period_ms, timeout=3.0):
        """``Calls.stream``: the ``RAW`` stream on every ``period_ms`` or off (0)."""
        return self.calls.stream(period_ms, timeout)

    def next_reading(self, timeout=None):
        """``Calls.next_reading``: the next streamed reading as a dict, or ``None``."""
        return self.calls.next_reading(timeout)

    def save_profile(self, profile, timeout=None):
        """``Calls.save_profile``: send a calibration profile and have the device store it."""
        return self.calls.save_profile(profile, timeout)
