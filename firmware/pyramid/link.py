"""Device side of the serial link: byte port, bounded line assembly, framed output.

On the board the link runs over USB CDC stdio. Reads follow the MicroPython
caveats (firmware notes section 0/7): ``select.poll`` says a byte is ready, then
``read(1)`` exactly one byte (``sys.stdin.read()`` may block on rp2, and text mode
may wait for UTF-8 continuation bytes), so the binary ``sys.stdin.buffer`` is used.
A Ctrl-C byte (0x03, from a terminal or mpremote) and a CR at the start of a
line are dropped.
Lines longer than ``protocol.MAX_LINE`` are discarded up to the next newline and
answered with ``NAK too_long``; lines that fail the CRC or the message table are
answered with ``NAK <reason>``. Nothing the host sends can stop the loop.
"""

import select

import camelup.board.protocol as protocol

from pyramid.compat import const, ticks_add, ticks_diff, ticks_ms

_READ_MAX = const(64)  # bytes taken per poll round before yielding to other tasks


class StdioPort:
    """Non-blocking byte port over two binary streams (``rx`` must be pollable).

    ``rx``: e.g. ``sys.stdin.buffer``; ``tx``: e.g. ``sys.stdout.buffer``.
    ``writable``: optional callable saying whether ``tx`` takes one more byte now
    (default: ``POLLOUT`` on ``tx`` when it is pollable; tests pass their own).

    Writing never blocks the slider or release tasks. On rp2 USB CDC a write with no
    host (DTR low) goes to the FIFO, older bytes lost; with a host that is connected
    but not reading, each write waits up to 500 ms (``MICROPY_HW_USB_CDC_TX_TIMEOUT``)
    and is then truncated. ``POLLOUT`` on stdio follows the same rule
    (shared/tinyusb/mp_usbd_cdc.c ``mp_usbd_cdc_poll_interfaces``: writable when not
    connected, else only while the TX FIFO has room), and room for one byte is not
    room for a line. So a line is written one byte per ``POLLOUT``: what fits goes
    now, the rest waits in the port with the lines after it (up to ``QUEUE_BYTES``;
    ``pump()``, called by the ``rx`` task every few ms, sends them as room comes); a
    line beyond that, or when ``tx`` is not writable at all, is dropped whole and
    counted (``dropped``): the
    protocol's seq, resend, HB and SYNC recover it. As a last guard a single byte
    write that took ``STALL_MS`` or more marks the host stalled, and lines are
    dropped for ``BACKOFF_MS``. ``console(text)`` writes a console line (for a
    person at a terminal) through the same path, instead of a blocking ``print()``.
    """

    STALL_MS = 250  # rp2 waits 500 ms when the host stalls; a loaded machine can pause ~100 ms
    BACKOFF_MS = 1000

    def __init__(self, rx, tx, clock=None, writable=None):
        self._rx = rx
        self._tx = tx
        self._poll = select.poll()
        self._poll.register(rx, select.POLLIN)
        # MicroPython's ipoll reuses one result tuple; CPython has only poll
        self._ipoll = getattr(self._poll, "ipoll", self._poll.poll)
        self._flush = getattr(tx, "flush", None)
        self._b1 = bytearray(1)
        self._o1 = bytearray(1)
        self._clock = clock or ticks_ms
        self._wpoll = None
        self._writable_fn = writable
        if writable is None:
            try:
                wpoll = select.poll()
                wpoll.register(tx, select.POLLOUT)
                self._wpoll = wpoll
                self._iwpoll = getattr(wpoll, "ipoll", wpoll.poll)
            except (OSError, TypeError, ValueError, AttributeError):
                pass  # not pollable (a test double): write whole lines and time them
        self._quiet_until = None  # ticks until which output is dropped (host stalled)
        self._queue = []  # lines waiting for room, oldest first (the first maybe half sent)
        self._queued = 0  # bytes in the queue
        self._pos = 0  # bytes of the first queued line already sent
        self.dropped = 0
        self.stalls = 0

    def readbyte(self):
        """One byte (int 0..255) if one is waiting, else ``None``; never blocks.

        Allocation-free on MicroPython (``ipoll``; ``poll`` builds a list per call,
        about 96 bytes, i.e. ~10 KB/s of garbage at the rx task's idle rate)."""
        for _obj, ev in self._ipoll(0):
            if ev & select.POLLIN:
                # exactly one byte after poll (rp2: a longer read may block), into a
                # preallocated buffer
                if self._rx.readinto(self._b1):
                    return self._b1[0]
        return None

    def _writable(self):
        fn = self._writable_fn
        if fn is not None:
            return fn()
        wpoll = self._wpoll
        if wpoll is None:
            return True
        for _obj, ev in self._iwpoll(0):
            if ev & select.POLLOUT:
                return True
        return False

    def _quiet(self):
        quiet = self._quiet_until
        if quiet is not None:
            if ticks_diff(quiet, self._clock()) > 0:
                return True
            self._quiet_until = None
        return False

    def _send_from(self, data, i):
        """Write ``data[i:]`` one byte per writable check; return the index reached."""
        tx = self._tx
        o1 = self._o1
        n = len(data)
        while i < n:
            if not self._writable():
                break
            o1[0] = data[i]
            t0 = self._clock()
            tx.write(o1)
            i += 1
            if ticks_diff(self._clock(), t0) >= self.STALL_MS:
                self.stalls += 1
                self._quiet_until = ticks_add(self._clock(), self.BACKOFF_MS)
                break
        if self._flush is not None:
            self._flush()
        return i

    #: Bytes of whole lines that may wait for room (beyond: new lines are dropped).
    QUEUE_BYTES = 768

    def pump(self):
        """Send queued lines as far as there is room (never blocks); True when none waits."""
        queue = self._queue
        while queue:
            if self._quiet():
                return False
            data = queue[0]
            i = self._send_from(data, self._pos)
            if i < len(data):
                self._pos = i
                return False
            queue.pop(0)
            self._queued -= len(data)
            self._pos = 0
        return True

    def write(self, data):
        """Write ``data`` (bytes, one line): now as far as it fits, the rest by ``pump()``;
        or drop it whole (host absent or stalled, or the queue full). Never blocks
        longer than one byte's write, and that once per backoff."""
        if not self.pump():
            if self._queued + len(data) <= self.QUEUE_BYTES and not self._quiet():
                self._queue.append(data)
                self._queued += len(data)
            else:
                self.dropped += 1
            return
        if self._quiet() or not self._writable():
            self.dropped += 1
            return
        if self._wpoll is None and self._writable_fn is None:
            # a test double without poll: the whole line, timed
            t0 = self._clock()
            self._tx.write(data)
            if self._flush is not None:
                self._flush()
            now = self._clock()
            if ticks_diff(now, t0) >= self.STALL_MS:
                self.stalls += 1
                self._quiet_until = ticks_add(now, self.BACKOFF_MS)
            return
        i = self._send_from(data, 0)
        if i < len(data):
            self._queue.append(data)
            self._queued += len(data)
            self._pos = i

    def console(self, text):
        """A console line for a person (``str``), never blocking; bytes outside
        printable ASCII are sent as ``?``."""
        out = bytearray()
        for ch in text:
            o = ord(ch)
            out.append(o if 32 <= o < 127 else 63)
        out.append(10)
        self.write(bytes(out))


#: Line assembly is shared with the host: ``camelup.board.protocol.LineAssembler``.
LineReader = protocol.LineAssembler


def nak(reason):
    """Framed ``NAK <reason>`` line (bytes)."""
    return protocol.encode("NAK", reason=reason)


def parse_line(line):
    """Decode a host line (bytes, no newline) into a ``protocol.Message`` or a NAK reason (str).

    Returns ``(message, None)`` or ``(None, reason)``; never raises for bad input.
    Empty lines (a bare newline, e.g. a terminal's keep-alive) give ``(None, None)``.
    """
    if not line or line == b"\r":
        return None, None
    try:
        msg = protocol.decode(line)
    except protocol.ProtocolError as exc:
        return None, exc.reason
    except (ValueError, UnicodeError):
        return None, "bad"
    if protocol.MESSAGES.get(msg.name, ("H",))[0] != "H":
        return None, "unexpected"
    return msg, None
