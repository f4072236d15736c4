"""Hardware in the loop: the real firmware under the MicroPython unix port on simulated
hardware, its serial on a pty, the host link opened by path with pyserial.

What must hold (issue 3): released dice arrive in order, none lost or duplicated,
across host disconnects, device reboots, garbage and dropped bytes; where a loss
cannot be avoided the host is told exactly which seqs are missing; double and empty
releases are reported as such; sensor faults become events and the sensor recovers.
"""

import os
import time

import pytest
import serial
from camelhost.device.link import Link
from camelhost.device.virtual import VirtualPyramid
from camelup.board import protocol

pytestmark = [pytest.mark.hil, pytest.mark.micropython]

# quicker reads for the long run: two agreeing readings, short settle
QUICK = {"stable": 2, "settle_ms": 10}


def _drain(link, count, timeout=60.0):
    """Collect ``count`` events; the timeout only bounds a failure."""
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        event = link.next_event(0.5)
        if event is not None:
            got.append(event)
    return got


def _tapped(vp):
    """(boot, seq, kind, line-free fields) of every event the firmware emitted."""
    return [(m["boot"], m["seq"], m.kind, m.get("col"), m.get("ink")) for m in vp.events]


def _seen(events):
    return [(e.boot, e.seq, e.kind, e.colour, e.ink) for e in events]


@pytest.mark.slow
def test_500_dice_in_order_through_disconnects_reboots_garbage_and_dropped_bytes(micropython, monkeypatch):
    # Wall-clock time is not under test here (the watchdog and the heartbeat have their
    # own tests), and on a loaded machine (seen once at a load of 5) the board's process
    # can wait seconds for a core: the simulated watchdog only feeds (SIM_WDT=0, so a
    # reboot is only the one asked for), and the heartbeat's timeout is 10 s, not 2, so
    # that a slow board is never counted as gone; the noise must still cause no reconnect
    monkeypatch.setenv("SIM_WDT", "0")
    with VirtualPyramid("second", seed=500, settings=QUICK) as vp, Link(vp.port, heartbeat_timeout=10.0) as link:
        received, fell = [], []
        for n in range(1, 501):
            if not vp.dice_inside:
                vp.return_dice()
            if n % 100 == 50:
                link.disconnect()  # the host program goes away; dice keep being released
            if n % 100 == 60:
                link.connect()
            if n == 275:
                # a reboot between dice, once everything so far has been delivered
                received += _drain(link, len(vp.events) - len(received))
                vp.reboot()
            if n % 37 == 0:
                vp.inject(b"\x00\xffgarbage*12345678\nEVT 99 die*00000000\n" + bytes(range(1, 40)) + b"\n")
            if n % 53 == 0:
                vp.drop_bytes(30)  # part of the next line is lost on the wire
            if n % 41 == 0:
                # noise towards the device too (never 0x03: Ctrl-C is the REPL's, not line noise)
                vp.inject_to_device(b"\x00\xfe" + b"Q" * 300 + b"\nSYNC 1*00000000\n" + bytes(range(4, 32)) + b"\n")
            fell.append(vp.release())
            received += link.pending_events()
        received += _drain(link, 500 - len(received))

        emitted = _tapped(vp)
        assert len(emitted) == 500
        assert [e.kind for e in received].count("gap") == 0
        assert _seen(received) == emitted  # in order, none lost, none duplicated
        boots = sorted(set(e.boot for e in received))
        assert len(boots) == 2 and [e.seq for e in received if e.boot == emitted[-1][0]][0] == 1
        # the classifier's share: mostly read, the rest rejected (the host asks), about
        # never a wrong colour or a single die taken for two
        kinds = [e.kind for e in received]
        assert set(kinds) <= {"die", "unknown", "double"}
        assert kinds.count("die") >= 450 and kinds.count("double") <= 3
        wrong = [(e, f.dice) for e, f in zip(received, fell, strict=True) if e.kind == "die" and e.label() != f.dice[0][0]]
        # (the grey die's inks are the closest pair: ~1 % of grey-white readings come
        # out grey-black even at the profile's own 24 ms; see bench_classifier)
        assert len(wrong) <= 5, wrong
        assert link.stats["bad_lines"] >= 10  # the noise was seen, logged and skipped
        assert link.stats["reconnects"] == 0 and link.stats["syncs"] >= 5
        assert link.stats["naks"] >= 30  # the device refused the noise line by line (3 per burst, 12 bursts)


def test_a_reboot_before_delivery_loses_nothing(micropython):
    with VirtualPyramid("classic", seed=3, settings=QUICK) as vp, Link(vp.port, heartbeat_timeout=2.0) as link:
        vp.release()
        first = link.next_event(10)
        assert first.kind in ("die", "unknown") and first.seq == 1
        link.disconnect()
        for _ in range(3):
            vp.release()  # seqs 2, 3, 4: emitted while no host listens
        old_boot = vp.boot_id
        time.sleep(0.2)  # written to the board's flash between releases
        vp.reboot()  # ...the RAM ring is gone, the flash store is not
        vp.release()
        link.connect()
        got = _drain(link, 4)
        assert _seen(got) == _tapped(vp)[1:]
        assert [(e.boot, e.seq) for e in got] == [(old_boot, 2), (old_boot, 3), (old_boot, 4), (vp.boot_id, 1)]
        assert link.next_event(0.5) is None


def test_a_reboot_before_delivery_with_a_failed_flash_names_the_boot_and_first_seq(micropython):
    with VirtualPyramid("classic", seed=3, settings=QUICK) as vp:
        store = os.path.join(vp.flash_dir, "events.log")
        os.unlink(store)
        os.mkdir(store)  # the store can neither be read nor written: RAM only
        vp.reboot()
        with Link(vp.port, heartbeat_timeout=2.0) as link:
            vp.release()
            first = link.next_event(10)
            assert first.kind in ("die", "unknown") and first.seq == 1
            link.disconnect()
            for _ in range(3):
                vp.release()
            old_boot = vp.boot_id
            vp.reboot()
            vp.release()
            link.connect()
            gap = link.next_event(10)
            # nothing on the board knows how far the old boot got: named from seq 2 on
            assert gap.kind == "gap" and gap.boot == old_boot and gap.seq == 2
            assert (gap.missing.first, gap.missing.last) == (2, None) and "count unknown" in str(gap.missing)
            after = link.next_event(10)
            assert after.kind == "die" and after.boot != old_boot and after.seq == 1
            assert link.next_event(0.5) is None


def test_ring_overflow_while_away_is_filled_from_the_flash_store(micropython):
    settings = dict(QUICK, ring=8)
    with VirtualPyramid("classic", seed=4, settings=settings) as vp, Link(vp.port, heartbeat_timeout=2.0) as link:
        link.wait_hello()
        link.disconnect()
        for _ in range(12):
            if not vp.dice_inside:
                vp.return_dice()
            vp.release()
        link.connect()
        events = _drain(link, 12)
        assert [e.seq for e in events] == list(range(1, 13))
        assert _seen(events) == _tapped(vp)


#: Heap the firmware must leave free on the virtual pyramid (224 KiB: the RP2040's
#: ~190 KiB plus the simulated parts) once its RAM ring of events is full. A release
#: makes up to ~14.5 KB of short-lived garbage on the 64-bit unix port, and a heap
#: with less room than this fragmented into a MemoryError fault every few hundred
#: dice (the ring then held 64 events and the PROF buffer 8 KB: 16 KB were free).
#: The virtual pyramid's working room: the simulated parts' growth counts here too.
HEAP_MARGIN = 28 * 1024  # 37,728 free measured (2026-12, docs/protocol.md)

#: What the firmware itself may hold once the ring is full, in the same run: the live
#: heap less the simulated parts' share (``VirtualPyramid.memory()["sim"]``: the board
#: script, the interpreter's start, the sim's modules and models and the optics'
#: caches; the firmware's modules it imports are the firmware's). Measured 137,024 to
#: 137,056 bytes (2026-12, docs/protocol.md); run to run it moves by 32 bytes, and a
#: change to the simulation of up to 100 new names by under 100. One KiB over it
#: fails: about half a KiB on the RP2040 (its pointers are half the 64-bit port's),
#: the size of the smallest costs the heap bisect found (the short HI hello 832 bytes,
#: the flash P records 672): one such change gets by, a second does not. A change
#: that fails here gives the memory back, or raises this figure with its cost and
#: why it is worth it in docs/protocol.md. Raised by issue 32's dice out this leg
#: (``OUT``, the classifier's judgement among the dice in: 139,136 to 139,328 measured,
#: about 2.2 KB, docs/protocol.md "The dice out this leg"). Measured again at s39: main
#: 140,064 to 140,096 (the stops since had taken 768 bytes of the KiB), with ``INFO``'s
#: ``floor`` 140,256 to 140,384 (about 0.2 KB: the field's row and its line in
#: ``Commands.info``), the figure raised to it (docs/protocol.md, ``INFO``).
FIRMWARE_HEAP = 140_384 + 1024


def test_the_heap_keeps_its_margin_once_the_event_ring_is_full(micropython):
    # at the board-sized 224 KiB heap, the guard it has always been (the virtual
    # pyramid's default is larger: camelhost.device.virtual.VirtualPyramid)
    with VirtualPyramid("second", seed=7, settings=QUICK, heapsize="224K") as vp, Link(vp.port, heartbeat_timeout=2.0) as link:
        link.wait_hello()
        link.disconnect()  # the host away: the ring and the flash store fill
        n = 40  # past the RAM ring (pyramid.settings.DEFAULTS["replay_ring"])
        for _ in range(n):
            if not vp.dice_inside:
                vp.return_dice()
            vp.release()
        link.connect()
        assert len(_drain(link, n)) == n  # the older ones replayed from flash
        heap = vp.memory()
    assert heap["free"] >= HEAP_MARGIN, heap
    assert heap["live"] - heap["sim"] <= FIRMWARE_HEAP, heap
    assert "MemoryError" not in vp.board_log()


def test_the_heap_does_not_depend_on_where_the_compiled_firmware_lies(micropython, tmp_path, monkeypatch):
    # every module the port imports keeps its file's path on the heap: the board
    # process reaches them through ../lib from its flash folder, so the folder of the
    # checkout (or of the build cache) takes none of the board's heap
    from camelhost.device import virtual

    tree = virtual.compiled_tree()
    live = []
    for name in ("t", "a-folder-some-sixty-characters-longer-than-the-other-one-is"):
        folder = tmp_path / name
        folder.symlink_to(tree)
        monkeypatch.setattr(virtual, "compiled_tree", lambda folder=folder: str(folder))
        with VirtualPyramid("second", seed=7, settings=QUICK, heapsize="224K") as vp, Link(vp.port) as link:
            link.wait_hello()
            # the least of three readings: what the main loop holds at the moment of
            # one (a line in flight on a loaded machine: 1,792 bytes more once, in a CI
            # rehearsal of stop 39) comes and goes; a path on the heap stays in all three
            readings = []
            for _ in range(3):
                readings.append(vp.memory()["live"])
                time.sleep(0.05)
            live.append(min(readings))
    # a path that reaches the heap costs about 40 bytes a character (the sixty more
    # were some 2,400 bytes before the fix); with none there, the heap's layout still
    # moves the live figure with the folder's length: 180,064-180,384 bytes over sixteen
    # lengths of the temporary folder, 128 apart on CI at stop 32. 512 stays clear of
    # that and a fifth of the fault the test guards against
    assert abs(live[0] - live[1]) <= 512, live


def test_double_and_empty_releases(micropython):
    with VirtualPyramid("second", seed=8) as vp, Link(vp.port) as link:
        assert len(vp.release_double().dice) == 2
        assert link.next_event(10).kind == "double"
        assert vp.release_empty().dice == []
        assert link.next_event(10).kind == "nodie"
        vp.return_dice()
        fell = vp.release()
        event = link.next_event(10)
        assert event.kind in ("die", "unknown")
        if event.kind == "die":
            assert event.label() == fell.dice[0][0]


def test_sensor_faults_become_events_and_the_sensor_comes_back(micropython):
    with VirtualPyramid("second", seed=9) as vp, Link(vp.port) as link:
        vp.sensor_fault(110, 1)  # the bus times out once, mid-read
        vp.release()
        event = link.next_event(10)
        assert (event.kind, event.code) == ("fault", "timeout")
        vp.unplug_sensor()
        vp.release()
        event = link.next_event(10)
        assert event.kind == "fault" and event.code in ("nosensor", "eio")
        vp.replug_sensor()
        since = len(vp.emitted)
        deadline = time.monotonic() + 20
        while _last_hb_sensor(vp, since) != "ok" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _last_hb_sensor(vp, since) == "ok"  # re-opened by the firmware on its own
        vp.return_dice()
        vp.release()
        assert link.next_event(10).kind in ("die", "unknown")


def _last_hb_sensor(vp, since=0):
    for _t, msg in reversed(vp.emitted[since:]):
        if msg.name == "HB":
            return msg["sensor"]
    return None


def test_value_buttons_give_the_value(micropython):
    with VirtualPyramid("classic", seed=12, value_buttons=True) as vp, Link(vp.port) as link:
        for _ in range(3):
            fell = vp.release()
            event = link.next_event(10)
            assert event.kind in ("die", "unknown")
            assert event.value == fell.dice[0][1]


def test_damaged_host_lines_are_refused_and_the_device_carries_on(micropython):
    with VirtualPyramid("classic", seed=5) as vp:
        with serial.Serial(vp.port, timeout=0.2) as port:
            junk = [
                b"\x00\x00\x00\n",
                b"HELLO?\n",  # no CRC
                b"PING x*DEADBEEF\n",  # wrong CRC
                b"Z" * 500 + b"\n",  # too long
                protocol.frame("FROB 1"),  # unknown message
                protocol.frame("SYNC -1"),  # bad field
                protocol.frame("PONG x"),  # a device message sent to the device
                bytes(range(128, 256)) + b"\n",
            ]
            for line in junk:
                port.write(line)
            port.write(protocol.encode("PING", token="alive"))
            naks, pong = [], None
            deadline = time.monotonic() + 10
            while pong is None and time.monotonic() < deadline:
                line = port.readline()
                try:
                    msg = protocol.decode(line)
                except protocol.ProtocolError:
                    continue
                if msg.name == "NAK":
                    naks.append(msg["reason"])
                elif msg.name == "PONG":
                    pong = msg["token"]
            assert pong == "alive"
            assert naks == ["bad_byte", "no_crc", "crc", "too_long", "unknown", "field", "unexpected", "bad_byte"]
        with Link(vp.port) as link:
            vp.release()
            assert link.next_event(10).kind in ("die", "unknown")


def test_firmware_runs_under_cpython_too():
    with VirtualPyramid("classic", seed=6, runtime="cpython") as vp, Link(vp.port) as link:
        for _ in range(3):
            fell = vp.release()
            event = link.next_event(20)
            assert (event.boot, event.seq) == (fell.boot, fell.seq)
            assert event.kind in ("die", "unknown")
        vp.release_double()
        assert link.next_event(20).kind == "double"
        old = vp.boot_id
        vp.reboot()
        vp.release()
        event = link.next_event(20)
        assert event.boot != old and event.seq == 1


# --- issue 10: no silent loss through the real firmware ---------------------------


def test_no_silent_loss_dice_released_before_the_host_connects_are_delivered(micropython):
    with VirtualPyramid("second", seed=31, settings=QUICK) as vp:
        vp.release()
        vp.release()  # no host yet: nobody has acknowledged these
        with Link(vp.port, heartbeat_timeout=2.0) as link:
            got = _drain(link, 2, timeout=20)
            assert _seen(got) == _tapped(vp)
            assert link.next_event(0.5) is None


def test_no_silent_loss_three_restarts_while_the_host_is_away(micropython):
    with VirtualPyramid("classic", seed=32, settings=QUICK) as vp, Link(vp.port, heartbeat_timeout=2.0) as link:
        vp.release()
        assert link.next_event(10).seq == 1
        link.disconnect()
        for _ in range(3):
            vp.release()
            time.sleep(0.2)  # on flash between releases
            vp.reboot()
        vp.release()
        link.connect()
        got = _drain(link, 4, timeout=30)
        assert _seen(got) == _tapped(vp)[1:]  # every boot's events, in order, none named lost
        assert len(set(e.boot for e in got)) == 4
        assert link.next_event(0.5) is None


@pytest.mark.parametrize("edition", ["classic", "second"])
def test_a_profile_larger_than_the_pyramid_takes_is_refused_before_sending(micropython, edition):
    import json

    from camelhost.device.link import LinkError
    from camelup.board import classifier

    profile = classifier.default_profile(edition)
    # a calibrated profile fits the board's PROF buffer with room to spare
    assert len(json.dumps(profile, separators=(",", ":"))) < protocol.MAX_PROFILE * 0.7
    big = dict(profile, note="x" * protocol.MAX_PROFILE)
    with VirtualPyramid(edition, seed=3) as vp, Link(vp.port, heartbeat_timeout=2.0) as link:
        link.wait_hello()
        with pytest.raises(LinkError, match="profile is [0-9]+ bytes of JSON; a pyramid takes at most 4096"):
            link.save_profile(big)
        link.save_profile(profile)  # the link is still fine and the real one goes in
        assert vp.board_log().count("Traceback") == 0
