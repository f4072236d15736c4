"""A pyramid's port lost mid-game is reopened only while its path may still name the
device first opened (docs/protocol.md, "Reconnecting"): a pseudo-terminal that ended
never comes back, so a new one at the same path (another program's terminal) is
neither opened nor written to (tester s33 finding F5)."""

import os
import select
import time
import tty

import pytest
from camelhost.device.link import Link
from camelhost.device.transport import PortIdentity, Transport
from camelup.board import protocol

PTY = PortIdentity("pty", (34822, 9, 1000))
BOARD = PortIdentity("usb", (42496, 700, 1000), (0x2E8A, 0x0005, "E6614103E7452D2F"))


def test_a_lost_pseudo_terminal_never_comes_back_whatever_its_path_names():
    # a pty's port is lost when its far end closed: even a node alike in every number
    # (a new pty made within the same clock tick) is another program's
    why = "a new pseudo-terminal, another program's (the pyramid's had ended)"
    assert PortIdentity("pty", PTY.node).other(PTY) == why
    assert PortIdentity("pty", (34822, 9, 2000)).other(PTY) == why
    assert BOARD.other(PTY) == why


def test_a_usb_board_is_the_same_by_its_serial_number_whatever_its_node():
    replugged = PortIdentity("usb", (42497, 812, 5000), BOARD.usb)  # ttyACM1 now, new node
    assert replugged.other(BOARD) is None
    other = PortIdentity("usb", BOARD.node, (0x2E8A, 0x0005, "E66164084B1F3A21"))
    assert other.other(BOARD) == ("another USB device (serial number E66164084B1F3A21, the "
                                  "pyramid's is E6614103E7452D2F)")
    assert PortIdentity("pty", PTY.node).other(BOARD) == ("a pseudo-terminal, not the "
                                                          "pyramid's USB port")


def test_a_device_without_a_serial_number_is_told_apart_by_its_device_number_only():
    uart = PortIdentity("tty", (os.makedev(4, 64), 10, 1))
    assert PortIdentity("tty", (os.makedev(4, 64), 99, 7)).other(uart) is None
    assert PortIdentity("tty", (os.makedev(4, 65), 10, 1)).other(uart) == (
        "another device (device number 4:65, the pyramid's was 4:64)")
    # a USB board with a serial number where one without was: not provably another
    # (its HELLO says which board it is)
    assert BOARD.other(uart) is None
    assert PortIdentity("tty", uart.node).other(None) is None  # a URL: nothing known


def test_a_url_has_no_identity():
    assert PortIdentity.of("loop://") is None


@pytest.mark.process
def test_a_real_pseudo_terminal_is_a_pty_and_a_new_one_at_its_path_is_another(tmp_path):
    master, slave = os.openpty()
    tty.setraw(slave)
    path = str(tmp_path / "ttyP")
    os.symlink(os.ttyname(slave), path)
    first = PortIdentity.of(path, slave)
    assert first.kind == "pty" and first.usb is None
    os.write(master, b"x" * 100)  # traffic changes nothing of its node
    os.read(slave, 100)
    assert PortIdentity.of(path).node == first.node
    os.close(master)
    os.close(slave)
    with pytest.raises(FileNotFoundError):  # its node went with it
        PortIdentity.of(path)
    master2, slave2 = os.openpty()
    try:
        os.unlink(path)
        os.symlink(os.ttyname(slave2), path)
        again = PortIdentity.of(path)
        assert again.kind == "pty" and again.other(first) is not None
    finally:
        os.close(master2)
        os.close(slave2)


class _Pty:
    """A pseudo-terminal behind the symlink ``path`` (its program's end: ``master``)."""

    def __init__(self, path):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        if os.path.lexists(path):
            os.unlink(path)
        os.symlink(os.ttyname(self.slave), path)

    def heard(self, wait):
        """Every byte written to this pty's other end within ``wait`` s."""
        got = b""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            r, _w, _x = select.select([self.master], [], [], 0.05)
            if r:
                try:
                    got += os.read(self.master, 4096)
                except OSError:
                    break
        return got

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def _until(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.02)
    return predicate()


@pytest.mark.process
def test_a_link_whose_pseudo_terminal_ended_never_writes_into_the_next_one_at_its_path(tmp_path):
    path = str(tmp_path / "ttyPYRAMID")
    board = _Pty(path)
    link = Link(path, hello_wait=0, retry_interval=0.05)
    other = None
    try:
        link.open()
        assert b"HELLO?" in board.heard(0.5)  # the pyramid's own port: asked as ever
        board.close()  # its program ended (the emulator powered off)
        assert _until(lambda: not link.transport.is_open)
        other = _Pty(path)  # another program's terminal, at the same path
        assert other.heard(1.5) == b""  # not one byte typed into it
        assert not link.transport.is_open
        assert link.transport.refused_port == ("a new pseudo-terminal, another program's (the "
                                               "pyramid's had ended)")
        assert link.stats["reconnects"] == 0
    finally:
        link.close()
        board.close()
        if other is not None:
            other.close()


@pytest.mark.process
def test_a_transport_reopens_a_port_whose_identity_is_the_same_and_refusal_is_forgotten(tmp_path):
    # a USB board unplugged, another plugged in, then the game's board again (fake identity)
    path = str(tmp_path / "ttyACM")
    board = _Pty(path)
    serial_no = ["E6614103E7452D2F"]

    def identify(p, fd=None):
        if not os.path.exists(p):
            raise FileNotFoundError(p)
        return PortIdentity("usb", (0, 0, 0), (0x2E8A, 5, serial_no[0]))

    transport = Transport(path, retry_interval=0.05)
    transport.identify = identify
    replug = None
    try:
        transport.open()
        board.close()
        assert _until(lambda: not transport.is_open)
        serial_no[0] = "E66164084B1F3A21"
        replug = _Pty(path)
        assert _until(lambda: transport.refused_port is not None)
        assert "E66164084B1F3A21" in transport.refused_port and not transport.is_open
        assert replug.heard(0.3) == b""
        serial_no[0] = "E6614103E7452D2F"  # the game's board is back on that path
        assert _until(lambda: transport.is_open)
        assert transport.refused_port is None and transport.stats["reconnects"] == 1
        transport.write(protocol.encode("PING", token="x"))
        assert b"PING" in replug.heard(0.5)
    finally:
        transport.close()
        board.close()
        if replug is not None:
            replug.close()
