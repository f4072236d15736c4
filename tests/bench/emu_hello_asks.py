"""How many ``HELLO?`` asks a reopened link sends to the emulated Pico before its ``HI``
comes, and how many ``HI`` answers the board sends for them, with the link's learnt pace
(``Sequencer.pace``) and with the pace forced to 1 (the fixed 0.15 s of before).

Each round closes the link's port, pushes the slider (the board reads a die meanwhile),
reopens the port and counts. Not part of ``make bench`` (the emulated boot and the rounds
take about 90 s of wall time, one core for the emulator):

    nice .venv/bin/python tests/bench/emu_hello_asks.py [ROUNDS]

Needs Node.js with ``hardware/emu``'s npm packages and ``../shared/rp2`` (docs/emulator.md).
"""

import sys
import time

from camelhost.device import sequencer
from camelhost.device.emulated import EmulatedPyramid
from camelhost.device.link import Link

LEARNT = sequencer.Sequencer.pace
FIXED = property(lambda self: 1.0)


def one_round(emu, link):
    """``(asks, wall seconds to the HI, HI answers)`` of one reopen during a push."""
    asks = []
    write = link.transport.write

    def counting(line):
        if line.startswith(b"HELLO?"):
            asks.append(line)
        return write(line)

    link.disconnect()
    time.sleep(1.0)
    answers_before = sum(1 for _t, m in emu.emitted if m.name == "HI")
    emu.release(wait=False)
    time.sleep(0.3)  # the push is under way on the chip
    link.transport.write = counting
    link.connect()
    started = time.monotonic()
    while not link.sequencer.synced and time.monotonic() - started < 60:
        time.sleep(0.01)
    waited = time.monotonic() - started
    time.sleep(15.0)  # the board answers every ask it read; the die's event comes
    link.transport.write = write
    while link.next_event(0.1) is not None:
        pass
    answers = sum(1 for _t, m in emu.emitted if m.name == "HI") - answers_before
    return len(asks), waited, answers


def main(rounds=2):
    begun = time.monotonic()
    with EmulatedPyramid(edition="second", seed=3) as emu:
        emu.wait_hello()
        print("emulated board up after %.0f s" % (time.monotonic() - begun))
        link = Link(emu.port, hello_wait=60.0)
        link.open()
        while link.slowness <= 1.0 and time.monotonic() - begun < 200:
            time.sleep(0.2)  # its heartbeats teach the link its pace
        emulated, wall = emu.clock
        try:
            for _ in range(rounds):
                for label, pace in (("learnt", LEARNT), ("fixed", FIXED)):
                    sequencer.Sequencer.pace = pace
                    asks, waited, answers = one_round(emu, link)
                    print("%-6s pace %5.2f: %d asks before the HI came (%.2f s), %d HI answers"
                          % (label, link.sequencer.pace, asks, waited, answers))
        finally:
            sequencer.Sequencer.pace = LEARNT
            link.close()
        emulated2, wall2 = emu.clock
        print("emulator at %.3f of real time" % ((emulated2 - emulated) / (wall2 - wall)))
    print("total %.0f s" % (time.monotonic() - begun))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
