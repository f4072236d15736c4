"""USB CDC realities of the RP2040 firmware's serial port (``pyramid.link``).

On rp2 a write to a connected host that does not read waits 500 ms and is then
truncated, and with kbd_intr(-1) a Ctrl-C arrives as a 0x03 data byte. The port
must never block on such a host, and a 0x03 must not spoil the line it lands in.
"""

import os
import sys
import threading
import time

import pytest
import serial
from camelhost import paths
from camelhost.device.micropython import run_micropython
from camelhost.device.virtual import VirtualPyramid
from camelup.board import protocol

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

from pyramid.link import LineReader, StdioPort, parse_line  # noqa: E402

# --- USB CDC: Ctrl-C bytes, writes that must not block --------------------------------


def test_ctrl_c_bytes_are_dropped_from_lines():
    reader = LineReader()
    line = None
    for b in b"\r\x03\x03" + protocol.encode("PING", token="a1")[:-1] + b"\x03\n":
        got = reader.feed(b)
        if got is not None:
            line = got
    msg, reason = parse_line(line)
    assert reason is None and msg.name == "PING"
    for b in b"\x01PING\n":  # other control bytes still spoil the line (NAK bad_byte)
        got = reader.feed(b)
    assert parse_line(got) == (None, "bad_byte")


def test_a_host_that_reads_nothing_never_blocks_the_writer():
    r, w = os.pipe()
    try:
        os.set_blocking(w, False)
        try:
            while True:
                os.write(w, b"x" * 4096)
        except BlockingIOError:
            pass
        os.set_blocking(w, True)  # like a USB CDC port: a blocking write would hang
        rx_r, rx_w = os.pipe()
        tx = open(w, "wb", buffering=0, closefd=False)
        rx = open(rx_r, "rb", buffering=0, closefd=False)
        port = StdioPort(rx, tx)
        done = threading.Event()

        def write_some():
            for _ in range(5):
                port.write(b"HB seq=1*00000000\n")
            done.set()

        t = threading.Thread(target=write_some, daemon=True)
        t.start()
        t.join(3)
        assert done.is_set(), "StdioPort.write blocked on a full port"
        assert port.dropped == 5
        assert port.readbyte() is None
        os.write(rx_w, b"\x03")
        assert port.readbyte() == 3
    finally:
        for fd in (r, w):
            os.close(fd)


def test_a_slow_write_makes_the_port_drop_lines_for_a_while():
    now = [0]

    class SlowTx:
        # connected host not reading: rp2 waits MICROPY_HW_USB_CDC_TX_TIMEOUT per write
        def __init__(self):
            self.writes = 0

        def write(self, data):
            self.writes += 1
            now[0] += 500

    r, w = os.pipe()
    try:
        tx = SlowTx()
        port = StdioPort(open(r, "rb", buffering=0, closefd=False), tx, clock=lambda: now[0])
        port.write(b"a\n")
        assert (tx.writes, port.stalls) == (1, 1)
        for _ in range(10):
            now[0] += 50
            port.write(b"b\n")
        assert tx.writes == 1 and port.dropped == 10
        now[0] += StdioPort.BACKOFF_MS
        port.write(b"c\n")
        assert tx.writes == 2
    finally:
        os.close(r)
        os.close(w)


# --- on the simulated board (MicroPython unix port) -------------------------------------


@pytest.mark.hil
@pytest.mark.micropython
def test_ctrl_c_from_the_host_does_not_stop_the_board(micropython):
    with VirtualPyramid("classic", seed=5) as vp:
        with serial.Serial(vp.port, timeout=0.2) as port:
            port.write(b"\x03\x03\r\x03")  # what a terminal or mpremote sends to interrupt
            port.write(b"\x03" + protocol.encode("PING", token="alive"))
            port.write(protocol.encode("HELLO?"))
            got = {}
            deadline = time.monotonic() + 10
            while len(got) < 2 and time.monotonic() < deadline:
                try:
                    msg = protocol.decode(port.readline())
                except protocol.ProtocolError:
                    continue
                if msg.name in ("PONG", "HELLO"):
                    got[msg.name] = msg
        assert got["PONG"]["token"] == "alive"
        assert got["HELLO"]["rst"] == "power"  # the sim's first boot: power-on
        fell = vp.release()
        assert fell.event is not None and fell.event.kind in ("die", "unknown")


ALLOC_SCRIPT = r"""
import gc
import sys
from pyramid.link import StdioPort

port = StdioPort(sys.stdin.buffer, sys.stdout.buffer)
got = [port.readbyte(), port.readbyte()]
gc.collect()
gc.disable()
before = gc.mem_alloc()
for _ in range(1000):
    port.readbyte()
idle = gc.mem_alloc() - before
gc.enable()
print("got", got, "idle", idle)
"""


@pytest.mark.micropython
def test_idle_serial_polling_allocates_nothing_on_micropython(micropython, tmp_path):
    # the rx task polls every 10 ms: a list per poll would be ~10 KB/s of garbage
    script = tmp_path / "alloc.py"
    script.write_text(ALLOC_SCRIPT)
    r, w = os.pipe()
    try:
        os.write(w, b"\x03A")
        # the fixture skips where the unix port is missing; it takes no stdin, so run directly
        out = run_micropython([str(script)], [paths.FIRMWARE_DIR, paths.SHARED_DIR], timeout=60, stdin=r)
    finally:
        os.close(r)
        os.close(w)
    words = out.stdout.split()
    assert words[:3] == ["got", "[3,", "65]"], out.stdout + out.stderr
    assert int(words[-1]) < 1000, out.stdout


# --- issue 10/13: a host that does not read never blocks the slider or the releases ----


def test_a_line_that_does_not_fit_waits_in_the_port_never_blocking():
    room = [5]
    now = [0]

    class Fifo:
        # rp2 USB CDC with a connected host that stopped reading: a byte beyond the
        # room would wait 500 ms; the port must never write one
        def __init__(self):
            self.data = bytearray()

        def write(self, data):
            if room[0] <= 0:
                now[0] += 500
                return 0
            room[0] -= len(data)
            self.data += data
            return len(data)

    r, w = os.pipe()
    try:
        fifo = Fifo()
        port = StdioPort(open(r, "rb", buffering=0, closefd=False), fifo, clock=lambda: now[0],
                         writable=lambda: room[0] > 0)
        line = protocol.encode("HB", boot="0BADCAFE", seq=1, up=2, sensor="ok")
        port.write(line)
        assert bytes(fifo.data) == line[:5] and now[0] == 0  # what fits went, nothing blocked
        port.write(b"another\n")  # queued behind it, whole
        port.write(b"x" * StdioPort.QUEUE_BYTES)  # beyond the queue: dropped whole, never torn
        assert port.dropped == 1
        assert port.pump() is False
        room[0] = 1000  # the host reads again
        assert port.pump() is True
        assert bytes(fifo.data) == line + b"another\n" and now[0] == 0 and port.stalls == 0
        port.console("pyramid: a console line \u00e9")
        assert bytes(fifo.data).endswith(b"pyramid: a console line ?\n")
        room[0] = 0
        port.console("never blocks")
        assert now[0] == 0
    finally:
        os.close(r)
        os.close(w)


@pytest.mark.hil
@pytest.mark.micropython
def test_a_paused_host_never_blocks_the_slider_or_the_releases(micropython):
    from camelhost.device.link import Link

    with VirtualPyramid("second", seed=21) as vp, Link(vp.port, heartbeat_timeout=3.0) as link:
        link.wait_hello()
        link.stream(20)  # RAW readings every 20 ms: the line fills while the host pauses
        vp.pause_host(8.0)  # ~3.6 KB/s of output fills the 16 KiB pipe after ~4.5 s
        time.sleep(4.5)
        for _ in range(4):
            vp.release(wait=False)  # pushes while the board's output is backed up
            time.sleep(0.6)
        got = []
        deadline = time.monotonic() + 30
        while len(got) < 4 and time.monotonic() < deadline:
            e = link.next_event(0.5)
            if e is not None:
                got.append(e)
        link.stream(0)
        # every push was seen and released while nobody read: the tasks never blocked
        assert [e.seq for e in got] == [1, 2, 3, 4]
        assert [(m["boot"], m["seq"]) for m in vp.events] == [(e.boot, e.seq) for e in got]
