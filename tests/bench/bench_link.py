"""Link benchmark: the wall time a wrong device takes to be called out.

``Link.open()`` promises that a port where nothing speaks the protocol (a GPS
receiver's NMEA sentences, a MicroPython REPL, silence, random bytes) is refused
(``NotAPyramid``) within ``IDENTIFY_S`` (5 s) of the link's clock. The unit test checks
that on a simulated clock (tests/test_link.py); this benchmark times it in wall time on
a real pseudo-terminal, the device's end writing its chatter every 0.1 s from a thread,
with the link's default ``hello_wait`` (3 s) as ``pyramid play`` opens it. A figure over
5 s is the machine's load (its one-minute load average is printed beside it).
Benchmarks report, they never fail. ``BENCH_LINK_RUNS`` (default 2) runs per device.
"""

import logging
import os
import statistics
import sys
import threading
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host"))

from camelhost.device.link import IDENTIFY_S, Link, NotAPyramid  # noqa: E402

DEVICES = (
    ("NMEA (a GPS receiver)", b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n"),
    ("a MicroPython REPL", b"MicroPython v1.22.0 on 2024-01-05; Raspberry Pi Pico with RP2040\r\n>>> "),
    # its banner gone (another tool opened the port first): the prompt and the echo of
    # the link's own HELLO? (s36 tester, finding 6: 33 s and "check the USB cable" before)
    ("a REPL without banner", b">>> HELLO? s=1*17B70798\r\nSyntaxError: invalid syntax\r\n>>> "),
    ("silence", b""),
    ("random bytes", bytes(range(256)) * 4),
)


def called_out_after(talk):
    """Wall seconds from ``Link.open()`` to its ``NotAPyramid`` on a pty whose other end
    writes ``talk`` every 0.1 s (``None`` when the port was taken for a pyramid)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def chatter():
        while talk and not stop.is_set():
            try:
                os.write(master, talk)
            except OSError:
                return
            stop.wait(0.1)

    threading.Thread(target=chatter, daemon=True).start()
    link = Link(os.ttyname(slave))
    started = time.monotonic()
    try:
        link.open()
    except NotAPyramid:
        return time.monotonic() - started
    finally:
        stop.set()
        link.close()
        os.close(master)
        os.close(slave)
    return None


def main():
    runs = int(os.environ.get("BENCH_LINK_RUNS", "2"))
    # the skipped lines' warnings are the link's detail for whoever debugs it
    logging.getLogger("camelhost.device.link").setLevel(logging.ERROR)
    print("a wrong device called out by Link.open() (promise: %.0f s), wall seconds, "
          "%d runs each, load average %.2f" % (IDENTIFY_S, runs, os.getloadavg()[0]))
    for name, talk in DEVICES:
        times = [called_out_after(talk) for _ in range(runs)]
        taken = [t for t in times if t is not None]
        if not taken:
            print("  %-24s taken for a pyramid (never called out)" % name)
            continue
        print("  %-24s median %.3f s   max %.3f s   over %.0f s by at most %+.0f ms"
              % (name, statistics.median(taken), max(taken), IDENTIFY_S,
                 1000 * (max(taken) - IDENTIFY_S)))


if __name__ == "__main__":
    main()
