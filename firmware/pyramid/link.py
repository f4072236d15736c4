"""Device side of the serial link: byte port, bounded line assembly, framed output.

On the board the link runs over USB CDC stdio. Reads follow the MicroPython
caveats (firmware notes section 0/7): ``select.poll`` says a byte is ready, then
``read(1)`` exactly one byte (``sys.stdin.read()`` may block on rp2, and text mode
may wait for UTF-8 continuation bytes), so the binary ``sys.stdin.buffer`` is used.
Lines longer than ``protocol.MAX_LINE`` are discarded up to the next newline and
answered with ``NAK too_long``; lines that fail the CRC or the message table are
answered with ``NAK <reason>``. Nothing the host sends can stop the loop.
"""

import select

import camelup.protocol as protocol

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):  # type: ignore
        return value


_READ_MAX = const(64)  # bytes taken per poll round before yielding to other tasks


class StdioPort:
    """Non-blocking byte port over two binary streams (``rx`` must be pollable).

    ``rx``: e.g. ``sys.stdin.buffer``; ``tx``: e.g. ``sys.stdout.buffer``.
    """

    def __init__(self, rx, tx):
        self._rx = rx
        self._tx = tx
        self._poll = select.poll()
        self._poll.register(rx, select.POLLIN)
        self._flush = getattr(tx, "flush", None)

    def readbyte(self):
        """One byte (int 0..255) if one is waiting, else ``None``; never blocks."""
        for _obj, ev in self._poll.poll(0):
            if ev & select.POLLIN:
                b = self._rx.read(1)
                if b:
                    return b[0]
        return None

    def write(self, data):
        """Write ``data`` (bytes) whole. On the board USB CDC drops output when no
        host listens; the protocol's seq/SYNC recovers it."""
        self._tx.write(data)
        if self._flush is not None:
            self._flush()


class LineReader:
    """Assembles bytes into lines in one preallocated buffer of ``protocol.MAX_LINE`` bytes.

    ``feed(byte)`` returns ``None`` while a line is incomplete, the line
    (``bytes``, without the newline) when one ends, or ``TOO_LONG`` once for a line
    that overflowed (its rest is discarded up to the next newline).
    """

    TOO_LONG = -1

    def __init__(self, size=protocol.MAX_LINE):
        self._buf = bytearray(size)
        self._mv = memoryview(self._buf)
        self._n = 0
        self._overflow = False

    def feed(self, byte):
        if byte == 10:  # newline ends a line
            n = self._n
            self._n = 0
            if self._overflow:
                self._overflow = False
                return None
            return bytes(self._mv[:n])
        if self._overflow:
            return None
        if self._n >= len(self._buf) - 1:
            self._overflow = True
            self._n = 0
            return self.TOO_LONG
        self._buf[self._n] = byte
        self._n += 1
        return None


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
