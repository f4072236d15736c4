"""Firmware figures on the virtual pyramid (MicroPython unix port, mpy-cross output):
heap in use and its peak (gc.mem_alloc), the smallest heap that still serves a leg,
link latency and throughput. Reports numbers; never fails on them."""

import logging
import statistics
import time

from camelhost.device.link import Link
from camelhost.device.virtual import VirtualPyramid, VirtualPyramidError


def _workout(vp, link, dice):
    for _ in range(dice):
        if not vp.dice_inside:
            vp.return_dice()
        vp.release()
        link.next_event(10)
    vp.return_dice()
    vp.release_double()
    vp.release_empty()
    link.next_event(10)
    link.next_event(10)
    vp.place("white")
    link.stream(20)
    for _ in range(10):
        link.next_reading(5)
    link.stream(0)
    link.sample()
    vp.place("empty")
    # a full-ring replay: the host away while 64 dice fall, then SYNC
    link.disconnect()
    for _ in range(64):
        if not vp.dice_inside:
            vp.return_dice()
        vp.release()
    link.connect()
    got = 0
    while got < 64 and link.next_event(10) is not None:
        got += 1
    return got


def heap(heapsize="224K", mpy=True, dice=60):
    with VirtualPyramid("second", seed=1, heapsize=heapsize, mpy=mpy) as vp, Link(vp.port) as link:
        boot = vp.memory()
        replayed = _workout(vp, link, dice)
        end = vp.memory()
    return boot, end, replayed


def _serves_a_leg(size, mpy=True):
    try:
        with VirtualPyramid("second", seed=2, heapsize=size, mpy=mpy, start_timeout=15) as vp:
            with Link(vp.port) as link:
                for _ in range(6):
                    vp.release(timeout=5)  # raises at once if the board died (MemoryError)
                    if link.next_event(5) is None:
                        return False
                vp.release_double(timeout=5)
                link.sample(timeout=5)
                return "MemoryError" not in vp.board_log()
    except (VirtualPyramidError, OSError):
        return False


def smallest_heap(mpy=True, low=16, high=256):
    """Smallest heap (KiB, 8 KiB steps) that boots and serves a leg, by bisection.

    The probes below the answer run out of memory on purpose; the link's warnings
    about the board's traceback lines are silenced while they run.
    """
    link_log = logging.getLogger("camelhost.device.link")
    level = link_log.level
    link_log.setLevel(logging.ERROR)
    try:
        if not _serves_a_leg("%dK" % high, mpy):
            return None
        while high - low > 8:
            mid = (low + high) // 2 // 8 * 8
            if _serves_a_leg("%dK" % mid, mpy):
                high = mid
            else:
                low = mid
        return high
    finally:
        link_log.setLevel(level)


def latency(n=100):
    with VirtualPyramid("second", seed=3) as vp, Link(vp.port) as link:
        pings = [link.ping() for _ in range(50)]
        delays = []
        started = time.perf_counter()
        for _ in range(n):
            if not vp.dice_inside:
                vp.return_dice()
            t0 = time.perf_counter()
            vp.release(wait=False)
            link.next_event(10)
            delays.append(time.perf_counter() - t0)
        rate = n / (time.perf_counter() - started)
    return pings, delays, rate


def _ms(x):
    return "%.1f ms" % (1000 * x)


def main():
    boot, end, replayed = heap()
    print("live heap after gc.collect (224K heap = RP2040 ~190K + the sim's share; mpy-cross modules):")
    print("  after boot:    %6d B in use, of which the sim (board script, sensor and optics models) %6d B"
          % (boot["live"], boot["sim"]))
    print("  firmware after boot: %6d B (the live heap less the sim's share, which holds the board script)"
          % (boot["live"] - boot["sim"]))
    print("  after 60 dice, double, empty, RAW stream, CAL and a 64-event replay: %6d B in use"
          " (firmware %6d B), %6d B free" % (end["live"], end["live"] - end["sim"], end["free"]))
    print("  replayed after reconnect: %d of 64 events" % replayed)
    for mpy in (True, False):
        print("smallest heap that boots and serves a leg (%s, sim parts included): %s KiB" % (
            "mpy-cross modules" if mpy else ".py sources compiled on the device", smallest_heap(mpy)))
    pings, delays, rate = latency()
    print("link round trip (PING/PONG over the pty): median %s, p95 %s" % (
        _ms(statistics.median(pings)), _ms(sorted(pings)[int(0.95 * len(pings))])))
    print("slider push -> event at the host (fast sim timings): median %s, p95 %s; %.1f dice/s" % (
        _ms(statistics.median(delays)), _ms(sorted(delays)[int(0.95 * len(delays))]), rate))


if __name__ == "__main__":
    main()
