"""``x`` (the reset button) typed in ``pyramid emulate`` while a push still holds the
slider down: the board comes back running the pyramid firmware and takes the next die.

Maker tester 15 (s36): Enter and then ``x`` at once left the board mute on USB until
``c``. The emulator's runner (``hardware/emu/board.cjs``) let the slider go by an alarm
on the chip's clock; a reset replaced the chip and its alarm went with it, so the new
chip booted with the slider held, took the safe boot (MicroPython's REPL, the firmware
not started) and sent no protocol line. A hand lets go of the slider on its own time,
whatever the chip does meanwhile.
"""

import os
import queue
import subprocess
import sys
import threading
import time

import pytest
from camelhost.device import emulated
from camelhost.device.link import Link

pytestmark = [pytest.mark.emu, pytest.mark.slow, pytest.mark.process]

#: wall seconds for each line awaited from the console (a loaded machine boots the
#: emulated board in 10-45 s)
LINE_S = 240.0


def _skip_without_emulator():
    if not os.path.exists(emulated.REFERENCE_UF2):
        pytest.skip("the MicroPython rp2 build (../shared/rp2) is absent")
    try:
        emulated.node_runner()
        emulated.bootrom_file()
    except emulated.EmulatorError as exc:
        pytest.skip(str(exc))


def _lines(stream, into):
    for line in stream:
        into.put(line.rstrip("\n"))
    into.put(None)


def _until(lines, start, said, timeout=LINE_S):
    """The console's lines up to the first that starts with ``start`` (that one last);
    fails naming what the console said instead once ``timeout`` wall seconds pass."""
    got = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            break
        got.append(line)
        said.append(line)
        if line.startswith(start):
            return got
    raise AssertionError("no console line %r within %.0f s; it said: %r" % (start, timeout, said))


def test_the_reset_button_during_a_push_brings_the_firmware_back_and_the_next_die_comes():
    _skip_without_emulator()
    exe = os.path.join(os.path.dirname(sys.executable), "pyramid")
    proc = subprocess.Popen([exe, "emulate", "--uf2", emulated.REFERENCE_UF2, "--seed", "4"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines, said = queue.Queue(), []
    threading.Thread(target=_lines, args=(proc.stdout, lines), daemon=True).start()
    try:
        port = _until(lines, "emulated Pico on ", said)[-1].split()[3]
        _until(lines, "keys, each followed by Enter", said)
        # Enter and x in one write: x comes while the slider is still held (150 ms of
        # the chip's time, seconds of wall time)
        proc.stdin.write("\nx\n")
        proc.stdin.flush()
        assert _until(lines, "slider pushed: ", said)[-1] != "slider pushed: nothing"
        _until(lines, "reset button pressed", said)
        # the firmware runs again (its HELLO said by the console): not the safe boot
        _until(lines, "pyramid firmware ", said)
        with Link(port, heartbeat_timeout=120.0) as link:
            proc.stdin.write("\n")
            proc.stdin.flush()
            pushed = _until(lines, "slider pushed: ", said)[-1]
            deadline = time.monotonic() + LINE_S
            event = None
            while event is None and time.monotonic() < deadline:
                event = link.next_event(1.0)
        assert event is not None, "no event from the board after the reset: %r" % said
        assert event.kind == "die" and pushed.startswith("slider pushed: ")
        proc.stdin.write("q\n")
        proc.stdin.flush()
        assert proc.wait(120) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
