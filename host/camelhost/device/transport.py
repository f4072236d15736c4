"""The pyramid link's transport: the serial port, the reader thread, reconnects.

``Transport`` opens a port (a path such as ``/dev/ttyACM0``, the pty of a
``VirtualPyramid``, or any pyserial URL) exclusively, reads it in one thread and
hands every chunk of bytes to ``on_data``; after every read (at most every 50 ms,
the port's read timeout) it calls ``on_idle``. A port that vanishes (unplug) is
closed and the same path reopened every ``retry_interval`` s (``on_open`` after each
opening, ``on_lost`` when it went away). A failure inside the thread is logged,
counted (``stats["reader_restarts"]``, ``reader_error``) and the loop starts again.
It knows nothing of the protocol: ``camelhost.device.link.Link`` gives it meaning.
"""

import logging
import threading
import time

import serial

from camelhost.i18n import _

log = logging.getLogger("camelhost.device.link")


class LinkError(OSError):
    """A command got no answer in time, or the device refused it (``NAK``)."""


class NotAPyramid(LinkError):
    """The port answers, but not as a smart pyramid (another device, a REPL, noise,
    silence), or it speaks a protocol version this program does not."""


class PortInUse(LinkError):
    """Another program has the port open (the port is opened exclusively)."""


class Transport:
    """One serial port read by one thread; see the module docstring.

    ``port``: path or pyserial URL; ``baudrate``: for real UARTs (USB CDC and ptys
    ignore it). ``on_open()``, ``on_data(bytes)``, ``on_idle()``, ``on_lost()``: called
    from the reader thread (``on_open`` also from ``open``/``connect``). ``stats``: a
    dict that gets ``reconnects`` and ``reader_restarts``.
    """

    def __init__(self, port, baudrate=115200, retry_interval=0.25, on_open=None, on_data=None, on_idle=None,
                 on_lost=None, stats=None):
        self.port = port
        self.baudrate = baudrate
        self.retry_interval = retry_interval
        self.on_open = on_open or (lambda: None)
        self.on_data = on_data or (lambda data: None)
        self.on_idle = on_idle or (lambda: None)
        self.on_lost = on_lost or (lambda: None)
        self.stats = stats if stats is not None else {}
        self.stats.setdefault("reconnects", 0)
        self.stats.setdefault("reader_restarts", 0)
        self.reader_error = None  # the last exception that stopped the reader (restarted)
        self._ser = None
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._thread = None
        self._stop = threading.Event()
        self._want_open = threading.Event()
        self._stall_until = 0.0

    @property
    def is_open(self):
        return self._ser is not None

    def open(self):
        """Open the port and start the reader. Raises ``PortInUse`` when another program
        holds it, ``serial.SerialException``/``OSError`` when it cannot be opened."""
        with self._lock:
            self._open_port()
        self._want_open.set()
        self.start()

    def start(self):
        """Start the reader thread (again, if it stopped)."""
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pyramid-link", daemon=True)
            self._thread.start()

    def revive(self):
        """Restart a reader thread that stopped without ``close()``; True when it had."""
        if self._thread is not None and not self._thread.is_alive() and not self._stop.is_set():
            log.error(_("the pyramid link's reader thread had stopped; starting it again"))
            self.stats["reader_restarts"] += 1
            self._thread = None
            self.start()
            return True
        return False

    def close(self):
        """Stop the reader and close the port (safe to call twice)."""
        self._stop.set()
        self._want_open.clear()
        if self._thread is not None:
            if self._thread is not threading.current_thread():
                self._thread.join(5)
            self._thread = None
        with self._lock:
            self._close_port()

    def disconnect(self):
        """Close the port, keep the reader idle until ``connect()``."""
        self._want_open.clear()
        with self._lock:
            self._close_port()

    def connect(self):
        """Reopen after ``disconnect()`` (raises if the port cannot be opened)."""
        with self._lock:
            self._open_port()
        self._want_open.set()

    def stall(self, seconds):
        """Stop reading the port for ``seconds`` (fault injection)."""
        self._stall_until = time.monotonic() + seconds

    def write(self, line):
        """Write ``line`` (bytes). Raises ``LinkError`` when the port is not open or fails."""
        with self._write_lock:
            ser = self._ser
            if ser is None:
                raise LinkError(_("the pyramid's port is not open"))
            try:
                ser.write(line)
            except (serial.SerialException, OSError) as exc:
                raise LinkError(_("writing to the pyramid failed: %s") % exc) from None

    def _open_port(self):
        try:
            ser = serial.serial_for_url(
                self.port, baudrate=self.baudrate, timeout=0.05, write_timeout=1.0, exclusive=True
            )
        except serial.SerialException as exc:
            if "lock" in str(exc).lower():
                raise PortInUse(
                    _("%s is in use by another program (another 'pyramid play' or 'monitor'?): "
                    "close it first") % self.port
                ) from None
            raise
        try:
            ser.reset_input_buffer()
        except (serial.SerialException, OSError, NotImplementedError, AttributeError):
            pass
        self._ser = ser
        self.on_open()

    def _close_port(self):
        ser, self._ser = self._ser, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass

    def _run(self):
        while not self._stop.is_set():
            try:
                self._read_loop()
            except Exception as exc:  # a bug must not end delivery: report and go on
                self.stats["reader_restarts"] += 1
                self.reader_error = exc
                log.error(_("the pyramid link's reader failed (%s: %s); restarting it"), type(exc).__name__, exc)
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
                    self.on_lost()
                continue
            if data:
                self.on_data(data)
            if self._ser is not None:
                self.on_idle()

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
