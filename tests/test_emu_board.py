"""The firmware on MicroPython's rp2 port, on an emulated RP2040, driven by the real host.

``camelhost.device.emulated`` boots the ``RPI_PICO`` UF2 of ``../shared/rp2`` on npm
``rp2040js``; the firmware is on littlefs in the emulated flash, the TCS34725 and the
slider are ``hardware/sim``'s models, USB CDC is a pty. Every test here is marked
``emu``; the whole module skips, saying why, when ``../shared/rp2`` or the emulator
is missing. The emulator runs 5 to 15 times slower than the chip, so a board boots
once per fixture: ``make test`` runs the tests not marked ``slow`` (one boot), ``make
emu`` runs them all.
"""

import os
import time

import pytest
from camelhost import paths
from camelhost.device import emulated
from camelhost.device.link import Link

pytestmark = pytest.mark.emu

UF2 = emulated.REFERENCE_UF2


def _missing():
    if not os.path.exists(UF2):
        return "the MicroPython rp2 build (../shared/rp2) is absent"
    try:
        emulated.node_runner()
        emulated.bootrom_file()
    except emulated.EmulatorError as exc:
        return str(exc)
    return None


_WHY = _missing()
if _WHY:
    pytest.skip(_WHY, allow_module_level=True)


def _firmware_version():
    with open(os.path.join(paths.FIRMWARE_DIR, "pyramid", "__init__.py")) as f:
        for line in f:
            if line.startswith("VERSION"):
                return line.split("=")[1].strip().strip("\"'")
    raise AssertionError("no VERSION in firmware/pyramid/__init__.py")


def _drain(link, count, timeout=300.0):
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        event = link.next_event(1.0)
        if event is not None:
            got.append(event)
    return got


@pytest.fixture(scope="module")
def board():
    """One emulated board with the pyramid firmware, booted once for the module's
    quick tests (second edition, seed 5)."""
    with emulated.EmulatedPyramid(UF2, edition="second", seed=5) as b:
        b.wait_hello(300)
        yield b


def test_the_firmware_boots_on_the_rp2_port_and_says_hello(board):
    hello = board.wait_hello()
    assert hello["fw"] == _firmware_version()
    assert hello["rst"] == "power"
    assert hello["ed"] == "second"
    assert hello["sensor"] == "ok"  # the chip id read over the emulated I2C0


def test_a_die_from_the_slider_to_the_host_on_the_real_port(board):
    with Link(board.port, heartbeat_timeout=30.0) as link:
        got = board.release(timeout=300)
        event = _drain(link, 1)[0]
    assert (event.kind, event.colour) == ("die", got.dice[0][0])
    assert (event.boot, event.seq) == (got.boot, got.seq)
    # the path of one die in emulated time: the slider's edge to the EVT line on USB
    emitted = [t for t, m in board.emitted if m.name == "EVT" and m["seq"] == got.seq]
    latency = emitted[0] - board.pushes[-1]
    assert 0 < latency < 2000  # ms: settle 150 ms + readings at 24 ms, on the chip's clock
