"""The firmware on the emulated Pico (MicroPython rp2 port on npm rp2040js): its figures.

Boot to ``HELLO`` (emulated and wall seconds), the path of one die (the slider's edge
to the ``EVT`` line on USB, emulated ms; and the wall time of the same), the heap
free on the real port (``INFO``'s ``heap``) after boot and after the releases (the
replay ring of 16 is full from 16 on), and the emulator's speed (emulated ms per wall ms). Runs ``RELEASES`` releases: 500 by
default, the heap figure issue 28 asks of ``make bench`` (10-15 minutes of wall time on
a quiet two-core machine, more under load); ``EMU_RELEASES=5`` for a quick look. Says why and
prints nothing else when ``../shared/rp2`` or the emulator is missing.
"""

import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host"))

from camelhost.device import emulated  # noqa: E402
from camelhost.device.link import Link  # noqa: E402

RELEASES = int(os.environ.get("EMU_RELEASES", "500"))
#: releases between two progress lines of a long run
PROGRESS = 25


def main():
    try:
        uf2 = emulated.find_uf2(emulated.REFERENCE_UF2 if os.path.exists(emulated.REFERENCE_UF2) else None)
        emulated.node_runner()
        emulated.bootrom_file()
    except emulated.EmulatorError as exc:
        print("skipped: %s" % exc)
        return
    started = time.monotonic()
    with emulated.EmulatedPyramid(uf2, edition="second", seed=1) as board:
        usb = time.monotonic() - started
        board.wait_hello(600)
        hello_at = [t for t, m in board.emitted if m.name == "HELLO"][0]
        boot_wall = time.monotonic() - started
        print("boot: USB up %.1f s wall; HELLO at %.2f s emulated, %.1f s wall "
              "(the 1.5 s BOOTSEL safe-boot window included)" % (usb, hello_at / 1000.0, boot_wall),
              flush=True)
        link = Link(board.port, heartbeat_timeout=600.0)
        link.open()
        heap_boot = link.request("INFO?", lambda m: m.name == "INFO", timeout=60.0)["heap"]
        print("heap free after boot: %d bytes" % heap_boot, flush=True)
        emu_ms = []
        wall_s = []
        board.return_dice()
        for n in range(1, RELEASES + 1):
            if not board.dice_inside:
                board.return_dice()
            t0 = time.monotonic()
            got = board.release(timeout=600)
            wall_s.append(time.monotonic() - t0)
            at = [t for t, m in board.emitted if m.name == "EVT" and m["seq"] == got.seq][0]
            emu_ms.append(at - board.pushes[-1])
            if n % PROGRESS == 0 and n < RELEASES:
                # a long run says how it goes (and what it found so far, should it be cut)
                heap = link.request("INFO?", lambda m: m.name == "INFO", timeout=60.0)["heap"]
                print("  %d releases: heap free %d bytes, %.1f s wall since boot, emulator at %.3f"
                      % (n, heap, time.monotonic() - started, board.ratio()), flush=True)
        taken = 0
        deadline = time.monotonic() + 600
        while taken < RELEASES and time.monotonic() < deadline:
            taken += link.next_event(1.0) is not None
        heap_after = link.request("INFO?", lambda m: m.name == "INFO", timeout=60.0)["heap"]
        link.close()
        print("heap free (gc.mem_free after a collection): %d bytes after boot, %d after %d "
              "releases (%d taken by the host)" % (heap_boot, heap_after, RELEASES, taken))
        print("slider edge -> EVT on USB over %d releases: %.0f ms emulated (median; %.0f..%.0f), "
              "%.1f s wall (median)" % (RELEASES, statistics.median(emu_ms), min(emu_ms), max(emu_ms),
                                        statistics.median(wall_s)))
        print("emulator speed: %.3f emulated ms per wall ms (%.1fx slower than the chip)"
              % (board.ratio(), 1.0 / board.ratio() if board.ratio() else float("nan")))


if __name__ == "__main__":
    main()
