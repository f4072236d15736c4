"""The device's event store (``pyramid.eventlog``): events on flash until acknowledged,
earlier boots replayed in order, compaction, torn records, a failed flash, resends."""

import os
import sys

from camelhost import paths
from camelup.board import protocol

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

from pyramid import eventlog  # noqa: E402
from pyramid.eventlog import EventLog  # noqa: E402

A, B, C = "AAAAAAAA", "BBBBBBBB", "CCCCCCCC"


def _replay(log, boot, after, to=None):
    out = []
    log.replay(boot, after, to, out.append)
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
    monkeypatch.setattr(EventLog, "_compact", lambda self: rewrites.append(self._size) or compact(self))
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
