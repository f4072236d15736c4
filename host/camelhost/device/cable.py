"""The host side of a simulated pyramid's "USB cable", shared by the virtual pyramid
(``camelhost.device.virtual``: the firmware on the MicroPython unix port) and the
emulated Pico (``camelhost.device.emulated``: MicroPython's rp2 port on rp2040js).

Both put the board's serial line on a pseudo-terminal that a host opens as it would
``/dev/ttyACM0``. What is the same for both lives here: the pty pair and its port link,
the thread that carries what the host writes to the board, reading a pipe line by line,
the tap that records the protocol lines the board sends, and waiting for the board.
What differs stays with each driver: where the host's bytes go (``_to_device``) and
what a wait that fails says (``_stopped_error``, ``_timeout_error``).
"""

import errno
import os
import select
import threading
import time
import tty


def cut_lines(pending, data):
    """``(lines, rest)``: the lines ``pending + data`` (bytes) ends, each without its
    ``b"\\n"``, and the unended rest to keep for the next chunk (``b""`` when none)."""
    lines = (pending + data).split(b"\n")
    return lines, lines.pop()


class PtyCable:
    """Base of a simulated board behind a pty (``VirtualPyramid``, ``EmulatedPyramid``).

    The subclass sets, in its ``__init__``: ``port`` and ``_master``/``_slave`` to
    ``None``, ``_closing`` to ``False``, ``_lock`` (a ``threading.Lock``) and ``_cond``
    (a ``threading.Condition`` on it), ``emitted`` and ``events`` (empty lists),
    ``_last_seq`` (an empty dict) and ``boot_id`` (``None``); and ``_dir`` (the folder
    the port's link goes in) before ``_open_port``. It defines ``start`` and ``close``
    (the context manager calls them), ``_to_device(data)``, which takes the bytes the
    host wrote (possibly ``b""``) to the board, and for ``_wait``
    ``_stopped_error(what)`` (the exception to raise when the board is off or stopped,
    else ``None``) and ``_timeout_error(timeout, what)`` (the one to raise when the
    wait ran out).
    """

    #: how often (seconds) ``_wait`` looks again at a board that does not notify
    WAIT_POLL_S = 0.2

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    # --- the pty ---

    def _open_port(self, name):
        """Make the pty pair (the slave raw, the master non-blocking), link its slave as
        ``port`` (``_dir``/``name``) and start the daemon thread that carries what the
        host writes to ``_to_device`` until ``_closing``. Returns that thread."""
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.port = os.path.join(self._dir, name)
        os.symlink(os.ttyname(self._slave), self.port)
        thread = threading.Thread(target=self._host_to_device, daemon=True)
        thread.start()
        return thread

    def _close_port(self):
        """Close both ends of the pty (safe twice): the host's next read of ``port`` fails,
        and the thread ``_open_port`` started ends at its next look (every 0.2 s)."""
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None

    def _host_to_device(self):
        while not self._closing:
            master = self._master
            if master is None:
                return
            try:
                ready, _w, _x = select.select([master], [], [], 0.2)
            except (OSError, ValueError):
                return
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError as exc:
                if exc.errno in (errno.EAGAIN, errno.EIO):
                    time.sleep(0.01)
                    continue
                return
            self._to_device(data)

    def _write_port(self, data):
        """Write ``data`` (bytes) to the host's end of the pty. Returns how many bytes the
        tty took: fewer than ``len(data)``, even 0, when no host reads and its buffer is
        full (the rest is lost, as MicroPython's USB CDC drops it); ``None`` when the pty
        is closed (nothing written)."""
        master = self._master
        if master is None:
            return None
        try:
            return os.write(master, data)
        except OSError:
            return 0

    # --- the board's pipes ---

    def _read_lines(self, fd, size, on_line):
        """Read the pipe ``fd`` (closed at the end) in chunks of up to ``size`` bytes
        until it ends or fails, calling ``on_line(line)`` for each line (bytes, without
        its ``b"\\n"``; an unended last piece is dropped); then wake every ``_wait``."""
        with os.fdopen(fd, "rb", buffering=0) as f:
            pending = b""
            while True:
                try:
                    data = f.read(size)
                except OSError:
                    data = b""
                if not data:
                    break
                lines, pending = cut_lines(pending, data)
                for line in lines:
                    on_line(line)
        with self._cond:
            self._cond.notify_all()

    def _record(self, at, msg):
        """The tap: note the protocol line ``msg`` (``protocol.Message``) the board sent
        at ``at`` in ``emitted``, its boot id (``HELLO``, ``HB``) in ``boot_id`` and a
        new ``EVT`` in ``events``, then wake every ``_wait``. Call with ``_cond`` held."""
        self.emitted.append((at, msg))
        if msg.name in ("HELLO", "HB"):
            self.boot_id = msg["boot"]
        elif msg.name == "EVT":
            # a SYNC replays old lines: only a seq beyond the last seen is a new event
            boot, seq = msg["boot"], msg["seq"]
            if seq > self._last_seq.get(boot, 0):
                self._last_seq[boot] = seq
                self.events.append(msg)
        self._cond.notify_all()

    # --- waiting ---

    def _wait(self, predicate, timeout, what):
        """Wait until ``predicate()`` (called with ``_cond`` held) returns something true,
        and return it. ``what`` names the awaited thing in the errors: raises
        ``_stopped_error(what)`` when the board is off or stopped, and
        ``_timeout_error(timeout, what)`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                got = predicate()
                if got:
                    return got
                stopped = self._stopped_error(what)
                if stopped is not None:
                    raise stopped
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._timeout_error(timeout, what)
                self._cond.wait(min(left, self.WAIT_POLL_S))
