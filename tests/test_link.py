"""Host link against a scripted device on a pty: resume, duplicates, holes, heartbeats,
restarts with and without a record, silence, unplug and replug."""

import logging
import os
import select
import threading
import time
import tracemalloc
import tty

import pytest
from camelhost.device.link import IDENTIFY_S, Link, LinkError, NotAPyramid, PortInUse
from camelhost.device.transport import PortIdentity
from camelup.board import protocol

pytestmark = pytest.mark.process  # a pseudo-terminal or a subprocess each

A, B = "AAAAAAAA", "BBBBBBBB"


class FakeDevice:
    """The device end of a pty; ``port`` is a stable symlink (replug re-points it)."""

    def __init__(self, folder):
        self.port = os.path.join(folder, "ttyFAKE")
        self.master = None
        self.plug()

    def plug(self):
        self._buf = b""  # a new pty: nothing the host wrote to the old one
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self._slave = slave
        if os.path.lexists(self.port):
            os.unlink(self.port)
        os.symlink(os.ttyname(slave), self.port)

    def unplug(self):
        os.close(self.master)
        os.close(self._slave)
        os.unlink(self.port)
        self.master = None

    def send(self, name, kind=None, **fields):
        os.write(self.master, protocol.encode(name, kind, **fields))

    def evt(self, boot, seq, colour="red"):
        self.send("EVT", "die", seq=seq, boot=boot, col=colour, val=None, m=300, raw=(1, 2, 3, 4))

    def hello(self, boot, seq, prev=None, acked=None, proto=1):
        """HELLO; ``acked`` given = a device with a flash store (walks boots on SYNC boot=)."""
        self.send("HELLO", proto=proto, fw="0.1.0", uid="0102", boot=boot, seq=seq, oldest=1, ed="second",
                  sensor="ok", vb=False, prev=prev, acked=acked)

    def expect(self, name, timeout=10.0):
        """The next host message called ``name`` (others are skipped); fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                msg = protocol.decode(line)
                if msg.name == name:
                    return msg
            r, _, _ = select.select([self.master], [], [], 0.1)
            if r:
                self._buf += os.read(self.master, 4096)
        raise AssertionError("the host did not send %s" % name)

    def drain(self, wait=0.1):
        """Forget what the host sent so far (read for ``wait`` s)."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.master], [], [], 0.02)
            if r:
                os.read(self.master, 4096)
        self._buf = b""

    def close(self):
        for fd in (self.master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass


@pytest.fixture
def device(tmp_path):
    dev = FakeDevice(str(tmp_path))
    yield dev
    dev.close()


def _events(link, n, timeout=10.0):
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        e = link.next_event(0.1)
        if e is not None:
            out.append(e)
    return out


def test_resume_from_the_journal_replays_the_rest(device):
    with Link(device.port, hello_wait=0, resume=(A, 5)) as link:
        device.expect("HELLO?")
        device.hello(A, 7)
        assert device.expect("SYNC")["seq"] == 5
        device.evt(A, 6, "blue")
        device.evt(A, 7, "green")
        device.send("SYNCED", seq=7, boot=A)
        got = _events(link, 2)
        assert [(e.seq, e.colour) for e in got] == [(6, "blue"), (7, "green")]


def test_duplicates_are_dropped_and_a_hole_is_filled_in_order(device):
    with Link(device.port, hello_wait=0) as link:
        device.expect("HELLO?")
        device.hello(A, 0)
        device.evt(A, 1)
        device.evt(A, 1)  # resent
        device.evt(A, 3, "green")  # 2 was lost on the wire: 3 is held, only 2 asked for
        sync = device.expect("SYNC")
        assert (sync["seq"], sync.get("to")) == (1, None)  # a device without a store: no range
        device.evt(A, 2, "blue")
        device.evt(A, 3, "green")
        device.send("SYNCED", seq=3, boot=A)
        got = _events(link, 3)
        assert [(e.seq, e.colour) for e in got] == [(1, "red"), (2, "blue"), (3, "green")]
        assert link.stats["duplicates"] >= 1
        assert link.next_event(0.2) is None


def test_a_heartbeat_ahead_asks_for_the_missing_events(device):
    with Link(device.port, hello_wait=0) as link:
        device.expect("HELLO?")
        device.hello(A, 4)  # events before connecting are history: not delivered
        device.send("HB", boot=A, seq=5, up=9, sensor="ok")
        assert device.expect("SYNC")["seq"] == 4
        device.evt(A, 5)
        assert _events(link, 1)[0].seq == 5


def test_gap_reply_becomes_one_gap_event(device):
    with Link(device.port, hello_wait=0, resume=(A, 2)) as link:
        device.expect("HELLO?")
        device.hello(A, 9)
        assert device.expect("SYNC")["seq"] == 2
        device.send("GAP", first=3, last=6, boot=A)
        for seq in (7, 8, 9):
            device.evt(A, seq)
        got = _events(link, 4)
        assert got[0].kind == "gap" and got[0].missing == (3, 4, 5, 6) and got[0].boot == A
        assert [e.seq for e in got[1:]] == [7, 8, 9]


def test_a_restart_names_the_events_it_took_with_it(device):
    with Link(device.port, hello_wait=0) as link:
        device.expect("HELLO?")
        device.hello(A, 0)
        device.evt(A, 1)
        assert _events(link, 1)[0].seq == 1
        # the device restarts; its flash record says boot A reached seq 4
        device.hello(B, 1, prev=(A, 4))
        assert device.expect("SYNC")["seq"] == 0
        device.evt(B, 1, "white")
        got = _events(link, 2)
        assert got[0].kind == "gap" and got[0].boot == A and got[0].missing == (2, 3, 4)
        assert (got[1].boot, got[1].seq, got[1].colour) == (B, 1, "white")


def test_a_restart_without_a_record_still_names_what_heartbeats_announced(device):
    with Link(device.port, hello_wait=0) as link:
        device.expect("HELLO?")
        device.hello(A, 0)
        device.send("HB", boot=A, seq=2, up=1, sensor="ok")
        device.expect("SYNC")  # the device dies before answering
        device.send("HB", boot=B, seq=0, up=0, sensor="ok")
        device.expect("HELLO?")
        device.hello(B, 0, prev=None)
        got = _events(link, 1)
        assert got[0].kind == "gap" and got[0].missing == (1, 2)


def test_two_restarts_while_away_are_never_silent(device):
    with Link(device.port, hello_wait=0, resume=(A, 3)) as link:
        device.expect("HELLO?")
        # boot A (ours), then B with 2 events we never saw, now C
        device.hello("CCCCCCCC", 0, prev=(B, 2))
        got = _events(link, 2)
        assert link.next_event(0.3) is None
        assert [(e.kind, e.boot, e.missing) for e in got] == [("gap", B, (1, 2)), ("gap", A, ())]
        assert got[1].seq == 4  # from A:4 on, an unknown number may be missing


def test_silence_makes_the_link_stale_and_it_asks_again(device):
    with Link(device.port, hello_wait=0, heartbeat_timeout=0.3) as link:
        device.expect("HELLO?")
        device.hello(A, 0)
        # the reader thread takes the HELLO when it runs (on a loaded machine, later
        # than the 50 ms this once slept): waited for, the bound a failure's only
        assert _state_becomes(link, "connected")
        device.drain(0.05)  # the asks of the opening
        device.expect("HELLO?", timeout=5)  # asked again after the silence
        assert link.state == "stale"
        device.hello(A, 0)
        assert _state_becomes(link, "connected")


def _state_becomes(link, state, timeout=5.0):
    """Whether ``link.state`` is ``state`` within ``timeout`` s (polled every 20 ms)."""
    deadline = time.monotonic() + timeout
    while link.state != state and time.monotonic() < deadline:
        time.sleep(0.02)
    return link.state == state


def test_a_board_whose_heartbeats_come_slower_than_its_timeout_stretches_the_links_patience(device):
    # heartbeat_timeout 0.3 s means heartbeats 0.1 s apart; these come 0.4 s apart (or
    # later, on a loaded machine): a board four times slower, not a silent one
    with Link(device.port, hello_wait=0, heartbeat_timeout=0.3) as link:
        device.expect("HELLO?")
        device.hello(A, 0)
        time.sleep(0.05)
        assert link.slowness == 1.0
        for _beat in range(3):
            device.send("HB", boot=A, seq=0, up=1, sensor="ok")
            time.sleep(0.4)
        assert link.slowness > 1.0  # about 4 (the reader's delays can only blur it)


def _usb_board(path, fd=None):
    """The fake device's identity as a USB board's (a new pty each plug, one serial
    number): a pseudo-terminal that ended never comes back (tests/test_port_identity.py),
    a USB board replugged does."""
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    return PortIdentity("usb", (0, 0, 0), (0x2E8A, 0x0005, "E6614103E7452D2F"))


def test_unplug_and_replug_of_the_same_path(device):
    link = Link(device.port, hello_wait=0, retry_interval=0.05)
    link.transport.identify = _usb_board  # the same board replugged
    with link:
        device.expect("HELLO?")
        device.hello(A, 0)
        device.evt(A, 1)
        assert _events(link, 1)[0].seq == 1
        device.unplug()
        time.sleep(0.3)  # the link notices and keeps trying to reopen the path
        device.plug()
        device.expect("HELLO?")
        device.hello(A, 2)
        assert device.expect("SYNC")["seq"] == 1
        device.evt(A, 2)
        assert _events(link, 1)[0].seq == 2
        assert link.stats["reconnects"] >= 1


def test_commands_time_out_or_report_a_refusal(device):
    with Link(device.port, hello_wait=0) as link:
        device.expect("HELLO?")
        device.hello(A, 0)
        with pytest.raises(LinkError, match="no answer"):
            link.request("PING", lambda m: m.name == "PONG", timeout=0.2, retries=1, token="x")
        outcome = []

        def ask():
            try:
                link.request("SET", lambda m: m.name == "CFG", timeout=10, retries=0, gain=16)
            except LinkError as exc:
                outcome.append(str(exc))

        asker = threading.Thread(target=ask)
        asker.start()
        assert device.expect("SET")["gain"] == 16
        device.send("NAK", reason="gain")
        asker.join(10)
        assert outcome and "refused SET: gain" in outcome[0]


def test_opening_a_missing_port_fails_clearly(tmp_path):
    with pytest.raises(OSError):
        Link(str(tmp_path / "nothing")).open()


# --- issue 10: lose nothing, say everything ---------------------------------------


def test_no_silent_loss_dice_before_the_first_hello_are_delivered(device):
    # a device with a store says what a host acknowledged: everything after it is handed over
    with Link(device.port, hello_wait=0) as link:
        device.expect("HELLO?")
        device.hello(A, 2, acked=0)  # two dice fell before this HELLO got through
        sync = device.expect("SYNC")
        assert (sync["seq"], sync["boot"]) == (0, A)
        device.evt(A, 1, "blue")
        device.evt(A, 2, "green")
        device.send("SYNCED", seq=2, boot=A)
        got = _events(link, 2)
        assert [(e.seq, e.colour) for e in got] == [(1, "blue"), (2, "green")]
        acks = [device.expect("ACK")]
        while acks[-1]["seq"] < 2:  # one per event taken, or one for both
            acks.append(device.expect("ACK"))
        assert [(a["boot"], a["seq"]) for a in acks][-1] == (A, 2)


def test_no_silent_loss_three_restarts_while_away_name_each_boot_and_seq(device):
    C, D = "CCCCCCCC", "DDDDDDDD"
    with Link(device.port, hello_wait=0, resume=(A, 3)) as link:
        device.expect("HELLO?")
        device.hello(D, 1, prev=(C, 2), acked=0)  # A (ours), then B, C, and now D
        sync = device.expect("SYNC")
        assert (sync["seq"], sync["boot"]) == (3, A)
        device.evt(A, 4)
        device.send("GAP", first=5, last=5, boot=A)  # A:5 never reached flash
        device.send("SYNCED", seq=5, boot=A, next=B)
        assert device.expect("SYNC")["boot"] == B
        device.send("GAP", first=1, last=2, boot=B)
        device.send("SYNCED", seq=2, boot=B, next=C)
        assert device.expect("SYNC")["boot"] == C
        device.evt(C, 1)
        device.evt(C, 2)
        device.send("SYNCED", seq=2, boot=C, next=D)
        assert device.expect("SYNC")["boot"] == D
        device.evt(D, 1)
        device.send("SYNCED", seq=1, boot=D)
        got = [(e.kind, e.boot, e.seq, tuple(e.missing)) for e in _events(link, 6)]
        assert got == [("die", A, 4, ()), ("gap", A, 5, (5,)), ("gap", B, 1, (1, 2)),
                       ("die", C, 1, ()), ("die", C, 2, ()), ("die", D, 1, ())]
        assert link.next_event(0.3) is None


def test_recovery_under_loss_replayed_events_in_any_order_fill_the_hole(device):
    with Link(device.port, hello_wait=0) as link:
        device.expect("HELLO?")
        device.hello(A, 0, acked=0)
        for seq in (1, 4, 5):  # 2 and 3 lost on the wire
            device.evt(A, seq)
        sync = device.expect("SYNC")
        assert (sync["seq"], sync["to"]) == (1, 3)  # only the hole is asked for
        device.evt(A, 3)  # the replay arrives out of order
        device.evt(A, 2)
        got = _events(link, 5)
        assert [e.seq for e in got] == [1, 2, 3, 4, 5]
        t0 = time.monotonic()
        device.evt(A, 7)
        device.expect("SYNC", timeout=2)
        device.expect("SYNC", timeout=2)  # unanswered: asked again quickly
        assert time.monotonic() - t0 < 1.5


def test_bounded_state_a_huge_seq_never_allocates_per_missing_event(device):
    with Link(device.port, hello_wait=0) as link:
        device.expect("HELLO?")
        device.hello(A, 0)
        tracemalloc.start()
        device.send("HB", boot=A, seq=4294967295, up=1, sensor="ok")
        time.sleep(0.2)
        device.hello(B, 0, prev=(A, 4294967295))
        gap = link.next_event(5)
        _size, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert gap.kind == "gap" and len(gap.missing) == 4294967295 and peak < 2_000_000
        assert str(gap.missing) == "1..4294967295"
        device.evt(B, 1)
        assert link.next_event(5).seq == 1  # the reader lives on


def test_bounded_state_a_reader_that_dies_is_noticed_reported_and_restarted(device, monkeypatch, caplog):
    with Link(device.port, hello_wait=0) as link:
        device.expect("HELLO?")
        device.hello(A, 0)
        real = link.transport.on_idle
        calls = []

        def broken():
            if not calls:
                calls.append(1)
                raise MemoryError("simulated")
            real()

        monkeypatch.setattr(link.transport, "on_idle", broken)
        device.evt(A, 1)
        assert link.next_event(5).seq == 1 or link.next_event(5).seq == 1
        device.evt(A, 2)
        assert link.next_event(5).seq == 2
        assert link.stats["reader_restarts"] >= 1 and isinstance(link.reader_error, MemoryError)
        assert "reader failed" in caplog.text


def test_a_newer_protocols_refusal_says_its_fix_in_german(device):
    from camelhost.i18n import set_language
    set_language("de")
    link = Link(device.port, hello_wait=5)
    threading.Timer(0.2, lambda: device.hello(A, 0, proto=2)).start()
    with pytest.raises(NotAPyramid) as info:
        link.open()
    assert str(info.value).endswith(
        ": aktualisiere dieses Programm (pip install --upgrade für das Host-Paket der Pyramide)")


def test_protocol_version_an_unknown_proto_is_refused_naming_both_versions(device):
    link = Link(device.port, hello_wait=5)
    threading.Timer(0.2, lambda: device.hello(A, 0, proto=2)).start()
    with pytest.raises(NotAPyramid) as info:
        link.open()
    text = str(info.value)
    assert "protocol version 2" in text and "version 1" in text and "update this program" in text
    link2 = Link(device.port, hello_wait=0)
    link2.open()
    device.hello(A, 0, proto=0)
    with pytest.raises(NotAPyramid, match="update the pyramid's firmware"):
        link2.wait_hello(5)
    link2.close()


class SimulatedClock:
    """The link's clock (``Link(clock=...)``), driven by the test: ``sleep`` moves it on
    at once, and what ``at`` scheduled meanwhile runs at its simulated time. A device's
    bytes go to ``Link.feed`` as the reader thread would hand them over (the pty stays
    silent), so a promise in seconds is checked on this clock, not on a loaded machine's
    wall time (the wall-time figure: tests/bench/bench_link.py)."""

    def __init__(self, start=1000.0):
        self.now = self.start = start
        self._due = []  # (time, what) in order

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        until = self.now + max(0.0, seconds)
        while self._due and self._due[0][0] <= until:
            self.now, what = self._due.pop(0)
            what()
        self.now = until

    def at(self, seconds, what):
        """Run ``what()`` once ``seconds`` have passed on this clock since its start."""
        self._due.append((self.start + seconds, what))
        self._due.sort(key=lambda due: due[0])

    def every(self, period, until, what):
        """Run ``what()`` every ``period`` s of this clock up to ``until`` s."""
        for i in range(int(until / period) + 1):
            self.at(i * period, what)


@pytest.mark.parametrize("talk, seen", [
    (b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n", "NMEA"),
    (b"", "silence"),
    (bytes(range(256)) * 4, "random bytes"),
])
def test_wrong_device_is_called_out_within_5_s(device, talk, seen):
    # on the link's own clock: a loaded machine's wall time no longer decides the test
    clock = SimulatedClock()
    link = Link(device.port, hello_wait=1.0, clock=clock)
    if talk:
        clock.every(0.1, 10.0, lambda: link.feed(talk))
    with pytest.raises(NotAPyramid) as info:
        link.open()
    waited = clock.now - clock.start
    # called out within IDENTIFY_S (5 s), having listened that long (hello_wait, then
    # the rest of the 5 s): what a device says late in the 5 s still counts
    assert IDENTIFY_S - 0.05 <= waited <= IDENTIFY_S
    text = str(info.value)
    assert "does not look like a smart pyramid" in text and seen in text and "--pyramid manual" in text
    assert not link.transport.is_open


def test_a_pyramid_whose_first_line_comes_late_in_the_5_s_is_not_called_out(device):
    # the other side of the promise: noise for 4.9 s on the link's clock, then one valid
    # line (a board whose firmware starts slowly behind a chatty bootloader) is a pyramid
    clock = SimulatedClock()
    link = Link(device.port, hello_wait=1.0, clock=clock)
    clock.every(0.1, 4.8, lambda: link.feed(bytes(range(256))))
    hello = protocol.encode("HELLO", proto=1, fw="0.1.0", uid="0102", boot=A, seq=0, oldest=1,
                            ed="second", sensor="ok", vb=False, prev=None, acked=None)
    clock.at(4.9, lambda: link.feed(b"\n" + hello))
    try:
        link.open()
        assert 4.9 <= clock.now - clock.start < IDENTIFY_S
        assert link.lines_heard == 1 and link.hello is not None
    finally:
        link.close()


def test_wrong_device_warnings_are_rate_limited(caplog):
    link = Link("loop://")  # never opened: the per-line path alone
    caplog.set_level(logging.WARNING, "camelhost.device.link")
    for _ in range(100):
        link.feed(bytes(range(11, 255)) * 40 + b"\n")
    assert link.stats["bad_lines"] >= 100
    assert len(caplog.records) <= 4


def test_one_program_per_port_the_second_is_told_in_use(device):
    with Link(device.port, hello_wait=0):
        with pytest.raises(PortInUse, match="in use"):
            Link(device.port, hello_wait=0).open()


def test_ack_waits_for_the_journal_so_a_host_killed_before_writing_a_die_down_finds_it_kept(device):
    # the pyramid drops acknowledged events from its store at its next boot: a host that
    # acknowledged a die it never journaled (killed in between) would get a gap for it
    journaled = [None]
    with Link(device.port, hello_wait=0, taken=lambda: journaled[0]) as link:
        device.expect("HELLO?")
        device.hello(A, 0, acked=0)
        device.evt(A, 1, "blue")
        (got,) = _events(link, 1)
        assert (got.boot, got.seq) == (A, 1)
        with pytest.raises(AssertionError, match="did not send ACK"):
            device.expect("ACK", timeout=0.6)  # taken, not yet written down
        journaled[0] = (A, 1)
        ack = device.expect("ACK")
        assert (ack["boot"], ack["seq"]) == (A, 1)
        # a sensor fault holds no die but is journaled too (a resume compares the
        # journal's last pyramid event with the pyramid's acked=): acknowledged once written
        device.send("EVT", "fault", seq=2, boot=A, code="eio")
        (fault,) = _events(link, 1)
        assert fault.kind == "fault"
        with pytest.raises(AssertionError, match="did not send ACK"):
            device.expect("ACK", timeout=0.6)
        journaled[0] = (A, 2)
        ack = device.expect("ACK")
        assert (ack["boot"], ack["seq"]) == (A, 2)


# --- issue 29, item 10: a noisy line -----------------------------------------------


@pytest.mark.hil
@pytest.mark.micropython
def test_the_firmware_answers_the_short_ask_with_hi_and_the_plain_one_with_hello(micropython):
    import serial
    from camelhost.device.virtual import VirtualPyramid

    with VirtualPyramid("classic", seed=5) as vp, serial.Serial(vp.port, timeout=0.2) as port:
        port.write(protocol.encode("HELLO?", s=True))
        port.write(protocol.encode("HELLO?"))
        got = {}
        deadline = time.monotonic() + 10
        while len(got) < 2 and time.monotonic() < deadline:
            try:
                msg = protocol.decode(port.readline())
            except protocol.ProtocolError:
                continue
            if msg.name in ("HI", "HELLO"):
                got[msg.name] = (msg, len(protocol.encode_body(msg.name, dict(msg.fields), None)))
    (hi, hi_len), (full, full_len) = got["HI"], got["HELLO"]
    assert (hi["boot"], hi["seq"], hi["acked"], hi["proto"]) == (full["boot"], full["seq"], full["acked"], 1)
    assert hi_len < full_len / 2  # what makes it get through a noisy line


def test_the_line_quality_is_exposed_and_said_once_as_it_drops(caplog):
    link = Link("loop://")  # never opened: the line path alone
    caplog.set_level(logging.WARNING, "camelhost.device.link")
    good = protocol.encode("HB", boot=A, seq=0, up=1, sensor="ok")
    assert link.quality is None
    for _ in range(50):
        link.feed(good)
    assert link.quality == 1.0
    bad = bytearray(good)
    bad[5] ^= 1  # one bit flipped: the CRC fails
    for n in range(50):
        link.feed(bytes(bad) if n % 3 else good)
    assert 0.3 < link.quality < 0.4
    noisy = [r.getMessage() for r in caplog.records if "noisy" in r.getMessage()]
    assert len(noisy) == 1 and "% of its lines arrive whole" in noisy[0]
    assert link.sequencer.noisy  # the sequencer asks more often now
    for _ in range(50):
        link.feed(good)
    assert link.quality == 1.0 and any("clean again" in r.getMessage() for r in caplog.records)
    assert not link.sequencer.noisy


def test_the_line_quality_changes_are_handed_to_whoever_listens_once_each(caplog):
    link = Link("loop://")  # never opened: the line path alone
    caplog.set_level(logging.INFO, "camelhost.device.link")
    told = []
    link.on_quality = lambda noisy, quality: told.append((noisy, round(quality, 2)))
    good = protocol.encode("HB", boot=A, seq=0, up=1, sensor="ok")
    bad = bytearray(good)
    bad[5] ^= 1
    for _ in range(20):
        link.feed(good)
    assert told == [] and not link.noisy
    for n in range(60):  # two lines in three damaged: under 90 %, said once
        link.feed(bytes(bad) if n % 3 else good)
    assert told == [(True, 0.88)] and link.noisy
    for _ in range(60):  # whole again: over 97 %, said once
        link.feed(good)
    assert told == [(True, 0.88), (False, 0.98)] and not link.noisy
    # the caller says it: the link's own record of it is INFO, not a warning on the terminal
    said = [r for r in caplog.records if "noisy" in r.getMessage() or "clean again" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.INFO, logging.INFO]


# --- issue 29, item 1: another game's dice on resume ---------------------------------


def _taken_and_acknowledged(link, count, timeout=20.0):
    """Take ``count`` events and wait until the pyramid says it has their ACK."""
    got = _events(link, count, timeout)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        hello = link.hello
        if hello is not None and got and hello.get("acked") == got[-1].seq:
            return got
        link.send("HELLO?")
        time.sleep(0.2)
    raise AssertionError("the pyramid never had the ACK of %r" % got)


@pytest.mark.hil
@pytest.mark.micropython
def test_a_resumed_game_never_takes_the_dice_another_game_took_on_its_pyramid(micropython):
    import io

    from camelhost.device.virtual import VirtualPyramid
    from camelhost.table.controller import Table
    from camelhost.table.session import Session
    from camelhost.ui.plain import PlainDisplay

    with VirtualPyramid("classic", seed=3, settings={"stable": 2, "settle_ms": 10}) as vp:
        with Link(vp.port, heartbeat_timeout=2.0) as link:  # game 1: two dice, then quit
            vp.release()
            vp.release()
            game1 = _taken_and_acknowledged(link, 2)
        with Link(vp.port, heartbeat_timeout=2.0) as link:  # game 2: three dice, then quit
            for _ in range(3):
                vp.release()
            game2 = _taken_and_acknowledged(link, 3)
        assert [e.seq for e in game1 + game2] == [1, 2, 3, 4, 5]
        boot = game1[-1].boot
        with Link(vp.port, heartbeat_timeout=2.0, resume=(boot, 2)) as link:  # game 1 resumed
            (foreign,) = _events(link, 1)
            assert (foreign.kind, foreign.boot, tuple(foreign.missing)) == ("foreign", boot, (3, 4, 5))
            assert link.next_event(1.0) is None  # game 2's dice never come
            fell = vp.release()
            (die,) = _events(link, 1)
            assert (die.boot, die.seq) == (fell.boot, fell.seq) == (boot, 6)
    out = io.StringIO()
    table = Table(Session("classic", ["Ann", "Ben", "Cy"], seed=9), PlainDisplay(out), pyramid=None, manual=False)
    table.start()
    table.pyramid_event(foreign)
    said = [line for line in out.getvalue().splitlines() if "another table" in line]
    assert len(said) == 1 and "3, 4, 5" in said[0], out.getvalue()


# --- issue 29, item 2: a reboot right after a slider push ---------------------------


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.parametrize("delay", [0.0, 0.03, 0.1, 0.3])
def test_a_reboot_right_after_a_push_still_ends_the_push_as_one_event(micropython, delay):
    from camelhost.device.virtual import VirtualPyramid

    with VirtualPyramid("classic", seed=41) as vp, Link(vp.port, heartbeat_timeout=2.0) as link:
        vp.release()
        first = _events(link, 1)[0]
        vp.return_dice()
        vp.release(wait=False)
        # from the moment the firmware has the push (its debounced slider, INFO sl=1): a
        # reset inside the contact's bounce and debounce (about 25 ms) comes before any
        # push the board could know of
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                if link.request("INFO?", lambda m: m.name == "INFO", timeout=0.5, retries=0).get("sl"):
                    break
            except LinkError:
                pass
        time.sleep(delay)
        vp.reboot()  # a power dip, the watchdog, a brown-out: whatever instant
        got = _events(link, 1, timeout=20)
        assert link.next_event(1.5) is None, "more than one event for one push"
        assert len(got) == 1, "the push ended without an event"
        (event,) = got
        assert (event.boot, event.seq) == (first.boot, 2)
        assert event.kind in ("die", "unknown", "nodie")
        if event.kind == "unknown" and event.best == "reboot":
            assert event.reading == (0, 0, 0, 0)  # no reading: the table asks to release again


@pytest.mark.parametrize("talk", [b"", b"user@host:~$ "])
def test_a_terminal_that_is_no_pyramid_keeps_its_terminal_settings(talk):
    # s34 tester S1: a resume probed the journal's /dev/pts/6, by then another program's
    # terminal, found no pyramid, and left it a raw 115200-baud line (-opost -icrnl: its
    # output staircased until 'stty sane')
    import termios

    master, slave = os.openpty()  # a terminal as a shell has it: cooked, echo, opost
    try:
        before = termios.tcgetattr(slave)
        assert before[1] & termios.OPOST and before[3] & termios.ICANON
        # the link's own clock: its IDENTIFY_S of listening pass at once, whatever the
        # machine's load; the terminal's talk handed over as its reader thread would
        clock = SimulatedClock()
        link = Link(os.ttyname(slave), hello_wait=1.0, clock=clock)
        if talk:
            clock.every(0.5, 4.5, lambda: link.feed(talk))
        with pytest.raises(NotAPyramid):
            link.open()
        assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


def test_a_probe_interrupted_keeps_the_terminal_settings(monkeypatch):
    import termios
    master, slave = os.openpty()
    try:
        before = termios.tcgetattr(slave)
        link = Link(os.ttyname(slave), hello_wait=2.0)

        def interrupted(timeout):
            raise KeyboardInterrupt

        monkeypatch.setattr(link, "_wait_synced", interrupted)
        with pytest.raises(KeyboardInterrupt):
            link.open()
        assert termios.tcgetattr(slave) == before
        assert not link.transport.is_open
    finally:
        os.close(master)
        os.close(slave)
