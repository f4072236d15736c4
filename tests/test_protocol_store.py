"""The device's event store (``pyramid.eventlog``): events on flash until acknowledged,
earlier boots replayed in order, compaction, torn records, a failed flash, resends."""

import os
import shutil
import sys

import pytest
from camelhost import paths
from camelup.board import protocol

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

from pyramid import eventlog  # noqa: E402
from pyramid.eventlog import EventLog  # noqa: E402

A, B, C = "AAAAAAAA", "BBBBBBBB", "CCCCCCCC"


def _replay(log, boot, after, to=None):
    out = []
    log.replay(boot, after, to, out.append, -1)
    return [protocol.decode(line) for line in out]


def _brief(msgs):
    return [(m.name, m.get("seq", m.get("first")), m.get("boot"), m.get("next")) for m in msgs]


def test_a_reboot_loses_nothing_the_store_keeps_events_of_earlier_boots(tmp_path):
    store = str(tmp_path / "events.log")
    a = EventLog(A, 4, store)
    for _ in range(6):
        a.append("nodie", {})
    a.persist()
    b = EventLog(B, 4, store)  # a reboot: the RAM ring is gone
    assert b.prev == (A, 6)
    b.append("nodie", {})
    b.persist()
    got = _replay(b, A, 2)
    assert _brief(got) == [("EVT", 3, A, None), ("EVT", 4, A, None), ("EVT", 5, A, None), ("EVT", 6, A, None),
                           ("SYNCED", 6, A, B)]
    assert _brief(_replay(b, B, 0)) == [("EVT", 1, B, None), ("SYNCED", 1, B, None)]
    assert _brief(_replay(b, A, 2, to=3)) == [("EVT", 3, A, None), ("SYNCED", 6, A, B)]


def test_three_restarts_keep_a_chain_the_host_can_walk(tmp_path):
    store = str(tmp_path / "events.log")
    a = EventLog(A, 4, store)
    a.append("nodie", {})
    a.persist()
    b = EventLog(B, 4, store)  # no event in B
    b.persist()
    c = EventLog(C, 4, store)
    c.append("nodie", {})
    c.persist()
    d = EventLog("DDDDDDDD", 4, store)
    assert _brief(_replay(d, A, 0)) == [("EVT", 1, A, None), ("SYNCED", 1, A, B)]
    assert _brief(_replay(d, B, 0)) == [("SYNCED", 0, B, C)]
    assert _brief(_replay(d, C, 0)) == [("EVT", 1, C, None), ("SYNCED", 1, C, "DDDDDDDD")]
    unknown = _replay(d, "EEEEEEEE", 3)
    assert unknown[0].name == "SYNCED" and unknown[0]["known"] is False


def test_acknowledged_events_are_compacted_away_and_stay_acknowledged(tmp_path, monkeypatch):
    monkeypatch.setattr(eventlog, "COMPACT_BYTES", 2000)
    store = str(tmp_path / "events.log")
    log = EventLog(A, 8, store)
    for _ in range(100):
        log.append("die", {"col": "red", "val": 2, "m": 300, "raw": (1, 2, 3, 4)})
        log.ack(A, log.seq - 1)
        log.persist()
    assert os.path.getsize(store) < 2500  # rewritten without what the host has
    again = EventLog(B, 8, store)
    assert again.prev == (A, 100)
    assert _brief(_replay(again, A, 99)) == [("EVT", 100, A, None), ("SYNCED", 100, A, B)]
    assert _brief(_replay(again, A, 50))[0] == ("GAP", 51, A, None)  # acknowledged, so forgotten


def test_a_store_nobody_acknowledges_is_not_rewritten_at_every_event(tmp_path, monkeypatch):
    """A host away for hundreds of events: compaction can drop nothing, so the store is
    rewritten only each time it has grown by half the compaction size again, not at
    every event (each rewrite copies the whole store before the event goes out); and
    every event is still there for the host."""
    monkeypatch.setattr(eventlog, "COMPACT_BYTES", 2000)
    rewrites = []
    compact = EventLog._compact
    monkeypatch.setattr(EventLog, "_compact", lambda self, ram=False: rewrites.append(self._size) or compact(self, ram))
    store = str(tmp_path / "events.log")
    log = EventLog(A, 8, store)
    for _ in range(100):
        log.append("die", {"col": "red", "val": 2, "m": 300, "raw": (1, 2, 3, 4)})
        log.persist()
    assert os.path.getsize(store) > 6000  # nothing acknowledged, nothing dropped
    assert len(rewrites) <= 12, len(rewrites)  # the boot's and one per 1000 bytes grown
    again = EventLog(B, 8, store)
    assert again.prev == (A, 100)
    assert [m["seq"] for m in _replay(again, A, 0) if m.name == "EVT"] == list(range(1, 101))
    log.ack(A, 100)  # the host is back: the next rewrite drops what it has
    log.append("nodie", {})
    log.persist()
    assert os.path.getsize(store) < 2000


def test_a_torn_store_record_is_skipped(tmp_path):
    store = tmp_path / "events.log"
    log = EventLog(A, 4, str(store))
    log.append("nodie", {})
    log.append("nodie", {})
    log.persist()
    with open(store, "ab") as f:
        f.write(protocol.encode("EVT", "nodie", seq=3, boot=A)[:12])  # power lost mid-write
    b = EventLog(B, 4, str(store))
    assert b.prev == (A, 2)
    assert _brief(_replay(b, A, 0)) == [("EVT", 1, A, None), ("EVT", 2, A, None), ("SYNCED", 2, A, B)]


def test_a_failed_flash_is_the_only_gap(tmp_path):
    store = tmp_path / "events.log"
    store.mkdir()  # can be neither read nor written
    log = EventLog(A, 2, str(store))
    for _ in range(5):
        log.append("nodie", {})
    log.persist()
    assert log.store_errors >= 1
    assert _brief(_replay(log, A, 0)) == [("GAP", 1, A, None), ("EVT", 4, A, None), ("EVT", 5, A, None),
                                          ("SYNCED", 5, A, None)]


def test_the_newest_event_is_resent_with_backoff_until_acknowledged():
    log = EventLog(A, 4)
    log.acking = True  # a host that acknowledges listens
    line = log.append("nodie", {})
    assert log.resend(0) is None  # armed
    assert log.resend(100) is None
    assert log.resend(150) == line
    assert log.resend(400) is None and log.resend(450) == line  # then 300 ms later
    log.ack(A, 1)
    assert log.resend(5000) is None
    quiet = EventLog(B, 4)  # no host acknowledges: nothing is resent
    quiet.append("nodie", {})
    quiet.resend(0)
    assert quiet.resend(10_000) is None


def _evening(store, count):
    """A store holding ``count`` unacknowledged events of boot A (a host away), written
    by the firmware's own EventLog; returns the log of the boot after it (B)."""
    log = EventLog(A, 8, store)
    for _ in range(count):
        log.pushed(log.seq + 1)
        log.append("die", {"col": "red", "val": 2, "m": 300, "raw": (1, 2, 3, 4)})
        log.persist()
    return EventLog(B, 8, store)


def test_a_host_catching_up_on_a_large_store_never_makes_the_board_copy_it(tmp_path, monkeypatch):
    """A host back after an evening away walks boot A and acknowledges as it goes. No
    rewrite while it does so copies the store (on the rp2 port a copy of 480 events
    blocked every task for about 7 s: the watchdog reset the board and a push in those
    seconds was never seen); what it has not acknowledged stays; once everything is
    (the table's next die too), the store is rewritten from RAM, a few records."""
    monkeypatch.setattr(eventlog, "COMPACT_BYTES", 2000)
    store = str(tmp_path / "events.log")
    log = _evening(store, 100)
    assert log.prev == (A, 100) and os.path.getsize(store) > 6000
    copies = []
    compact = EventLog._compact
    monkeypatch.setattr(EventLog, "_compact",
                        lambda self, ram=False: (self is log and not ram and copies.append(self._size)) or compact(self, ram))
    for upto in range(10, 101, 10):  # the host takes ten at a time
        assert [m["seq"] for m in _replay(log, A, upto - 10, upto) if m.name == "EVT"] == list(
            range(upto - 9, upto + 1))
        log.ack(A, upto)
        log.persist()
        if upto < 100:  # a reboot now (on a copy of the store) still has the rest
            shutil.copy(store, store + ".now")
            assert [m["seq"] for m in _replay(EventLog(C, 8, store + ".now"), A, upto) if m.name == "EVT"] == list(
                range(upto + 1, 101))
    assert copies == [], copies
    log.append("nodie", {})  # the table's next die, acknowledged at once
    log.persist()
    log.ack(B, 1)
    log.persist()
    assert copies == [], copies
    assert os.path.getsize(store) < 200  # B's boot and its acknowledgement
    again = EventLog(C, 8, store)
    assert again.prev == (B, 1)
    assert [m["seq"] for m in _replay(again, A, 0) if m.name == "EVT"] == []  # acknowledged, forgotten


def test_a_rewrite_from_ram_keeps_the_unacknowledged_events_and_the_push_being_read(tmp_path, monkeypatch):
    monkeypatch.setattr(eventlog, "COMPACT_BYTES", 2000)
    store = str(tmp_path / "events.log")
    log = EventLog(A, 8, store)
    for _ in range(60):
        log.pushed(log.seq + 1)
        log.append("die", {"col": "red", "val": 2, "m": 300, "raw": (1, 2, 3, 4)})
        log.ack(A, log.seq - 3)  # the host three events behind
        log.persist()
    log.pushed(61)  # a push whose release is still being read
    log.ack(A, 58)
    log.persist()
    assert os.path.getsize(store) < 2000  # rewritten
    again = EventLog(B, 8, store)  # a reset before event 61 was numbered
    assert again.prev == (A, 61)
    got = _replay(again, A, 58)
    assert [(m.kind, m["seq"]) for m in got if m.name == "EVT"] == [("die", 59), ("die", 60), ("unknown", 61)]
    assert got[2]["best"] == "reboot"


def test_a_store_read_only_in_part_at_boot_is_not_rewritten_from_that_part(tmp_path, monkeypatch):
    """A boot whose read of the store fails half way (a fragmented heap refusing one
    line) must not rewrite the store from what it read: the events of the boots it did
    not reach would be gone. They are still there at the next boot."""
    store = str(tmp_path / "events.log")
    a = EventLog(A, 4, store)
    a.append("nodie", {})
    a.persist()
    b = EventLog(B, 4, store)
    for _ in range(3):
        b.append("nodie", {})
    b.persist()
    unframe = protocol.unframe
    calls = [0]

    def refuse_once(line):
        calls[0] += 1
        if calls[0] == 3:  # A's records read, B's not yet
            raise MemoryError("fragmented heap")
        return unframe(line)

    monkeypatch.setattr(protocol, "unframe", refuse_once)
    c = EventLog(C, 4, store)
    assert c.store_errors == 1
    monkeypatch.setattr(protocol, "unframe", unframe)
    d = EventLog("DDDDDDDD", 4, store)
    assert [m["seq"] for m in _replay(d, B, 0) if m.name == "EVT"] == [1, 2, 3]


@pytest.mark.micropython
def test_the_store_caught_up_by_a_host_on_the_micropython_unix_port(micropython, tmp_path):
    """The catch-up above on the MicroPython unix port (the firmware's runtime): no
    rewrite copies the store while the host takes it in parts, none of it is lost,
    and the store is small once all is acknowledged."""
    script = r"""
import os
from pyramid import eventlog
from pyramid.eventlog import EventLog
eventlog.COMPACT_BYTES = 2000
store = "events.log"
log = EventLog("AAAAAAAA", 8, store)
for _ in range(100):
    log.pushed(log.seq + 1)
    log.append("die", {"col": "red", "val": 2, "m": 300, "raw": (1, 2, 3, 4)})
    log.persist()
log = EventLog("BBBBBBBB", 8, store)
copies = []
compact = EventLog._compact
def counted(self, ram=False):
    if not ram:
        copies.append(self._size)
    compact(self, ram)
EventLog._compact = counted
kept = []
for upto in range(10, 101, 10):
    log.ack("AAAAAAAA", upto)
    log.persist()
    out = []
    log.replay("AAAAAAAA", upto, None, out.append, -1)
    kept.append(sum(1 for line in out if line.startswith(b"EVT ")))
log.append("nodie", {})
log.persist()
log.ack("BBBBBBBB", 1)
log.persist()
size = os.stat(store)[6]
copied = len(copies)
after = EventLog("CCCCCCCC", 8, store)
print("copies", copied, "kept", kept, "size", size, "prev", after.prev)
"""
    result = micropython(script, [paths.SHARED_DIR, paths.FIRMWARE_DIR], timeout=120, heapsize="1M",
                         cwd=str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.strip().splitlines()[-1]
    copies, kept, size = last.split(" kept ")[0], last.split(" kept ")[1].split(" size ")[0], last.split(" size ")[1]
    assert copies == "copies 0"
    # what the host has not acknowledged yet stays on flash
    assert kept == "[90, 80, 70, 60, 50, 40, 30, 20, 10, 0]", last
    assert 0 < int(size.split(" prev ")[0]) < 200, last
    assert size.endswith("prev ('BBBBBBBB', 1)"), last


def test_a_replay_stops_where_the_port_is_full_and_the_next_goes_on_from_there(tmp_path, monkeypatch):
    """A host catching up on 100 stored events, five read from the store per SYNC (the
    board's ``App.rx_task`` replays 8): each replay sends those and ``SYNCED`` (no
    GAP for the rest), the next
    SYNC from the last one received goes on from that record of the file, not from its
    start (on the rp2 port a read of the whole store per SYNC held every task for
    seconds), and every event comes once."""
    store = str(tmp_path / "events.log")
    log = _evening(store, 100)
    unframe = protocol.unframe
    read = [0]

    def counted(line):
        read[0] += 1
        return unframe(line)

    monkeypatch.setattr(protocol, "unframe", counted)
    got, reads, after = [], [], 0
    while after < 100:
        out = []
        read[0] = 0
        log.replay(A, after, None, out.append, 5)
        msgs = [protocol.decode(line) for line in out]
        assert [m.name for m in msgs] == ["EVT"] * (len(msgs) - 1) + ["SYNCED"], msgs
        assert msgs[-1]["seq"] == 100 and msgs[-1]["next"] == B
        got += [m["seq"] for m in msgs if m.name == "EVT"]
        after = got[-1]
        reads.append(read[0])
    assert got == list(range(1, 101))
    # the records of about six events (each with its push record) per SYNC; from the
    # file's start the last SYNCs would read about 200
    assert max(reads) <= 20, reads


def test_a_replay_that_reaches_the_last_stored_event_reads_no_further(tmp_path, monkeypatch):
    """A host catching up on 100 stored events acknowledges each one it takes (an ``A``
    record on flash per ``ACK``, after the events). The replay that sends the last
    stored event stops reading there: on the rp2 port the replay that read on through
    the acknowledgements after it held every task for 1.4 s, and a die released at that
    moment was never seen (its push lasts 150 ms)."""
    store = str(tmp_path / "events.log")
    log = _evening(store, 100)
    unframe = protocol.unframe
    read = [0]

    def counted(line):
        read[0] += 1
        return unframe(line)

    monkeypatch.setattr(protocol, "unframe", counted)
    got, reads = [], []
    while not got or got[-1] < 100:
        out = []
        read[0] = 0
        log.replay(A, got[-1] if got else 0, None, out.append, 8)
        reads.append(read[0])
        msgs = [protocol.decode(line) for line in out]
        assert msgs[-1].name == "SYNCED" and msgs[-1]["next"] == B, msgs
        for m in msgs[:-1]:
            got.append(m["seq"])
            log.ack(A, m["seq"])
            log.persist()
    assert got == list(range(1, 101))
    # the records of the events sent and of those sent last time, each with its push
    # record; read on, the last replay would also read the 100 acknowledgements
    assert max(reads) <= 40, reads
    log.pushed(1)
    log.append("nodie", {})  # the table's next die is this boot's first event
    log.persist()
    assert [(m.name, m["seq"]) for m in _replay(log, B, 0)] == [("EVT", 1), ("SYNCED", 1)]


@pytest.mark.micropython
def test_a_replay_stops_at_the_last_stored_event_on_the_micropython_unix_port(micropython, tmp_path):
    """The catch-up above on the MicroPython unix port: the replay that sends the last
    stored event reads none of the acknowledgements written after it."""
    script = r"""
import camelup.board.protocol as protocol
from pyramid.eventlog import EventLog
store = "events.log"
log = EventLog("AAAAAAAA", 8, store)
for _ in range(100):
    log.pushed(log.seq + 1)
    log.append("die", {"col": "red", "val": 2, "m": 300, "raw": (1, 2, 3, 4)})
    log.persist()
log = EventLog("BBBBBBBB", 8, store)
unframe = protocol.unframe
read = [0]
def counted(line):
    read[0] += 1
    return unframe(line)
protocol.unframe = counted
got, reads = [], []
while not got or got[-1] < 100:
    out = []
    read[0] = 0
    log.replay("AAAAAAAA", got[-1] if got else 0, None, out.append, 8)
    reads.append(read[0])
    for line in out[:-1]:
        seq = int(line.split(b" ")[1])
        got.append(seq)
        log.ack("AAAAAAAA", seq)
        log.persist()
print("in order", got == list(range(1, 101)), "most read", max(reads))
"""
    result = micropython(script, [paths.SHARED_DIR, paths.FIRMWARE_DIR], timeout=120, heapsize="1M",
                         cwd=str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("in order True most read "), last
    # 8 events sent and the 8 sent last time, each with its push record (109 read on)
    assert int(last.split()[-1]) <= 40, last
