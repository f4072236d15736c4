"""Fake ``rp2`` module: the BOOTSEL button of a simulated Pico.

``rp2.bootsel_button()`` returns 1 while BOOTSEL is pressed, as on the rp2 port
(ports/rp2/modrp2.c: it reads the QSPI chip-select line). The simulation presses it
from ``press_ms`` to ``release_ms`` after the simulated power-up: the environment
variable ``SIM_BOOTSEL="<press_ms>:<release_ms>"`` (unset: never pressed), or
``set_bootsel(press_ms, release_ms)``. Power-up is when the board process first
imported ``machine`` (``machine.POWER_UP_MS``).

``first_read_ms()``: when the firmware first read the button, in ms after power-up
(``None`` before), which is how the simulation measures how soon after power-up the
safe-boot check runs.
"""

import machine
from sim_clock import getenv, ticks_diff, ticks_ms

_window = [None]
_first = [None]


def set_bootsel(press_ms=None, release_ms=None):
    """Press BOOTSEL from ``press_ms`` to ``release_ms`` after power-up (None: never)."""
    _window[0] = None if press_ms is None else (press_ms, release_ms)


def _from_env():
    value = getenv("SIM_BOOTSEL")
    if value:
        a, b = value.split(":")
        set_bootsel(int(a), int(b))


_from_env()


def bootsel_button():
    t = ticks_diff(ticks_ms(), machine.POWER_UP_MS)
    if _first[0] is None:
        _first[0] = t
    w = _window[0]
    return 1 if w is not None and w[0] <= t < w[1] else 0


def first_read_ms():
    return _first[0]
