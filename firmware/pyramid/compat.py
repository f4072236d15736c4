"""MicroPython names the firmware uses, with CPython fallbacks: the one copy.

On the board (and the unix port) every name is MicroPython's own: ``const`` from
``micropython``, ``ticks_ms``/``ticks_add``/``ticks_diff``/``sleep_ms`` from ``time``
and ``asyncio.sleep_ms`` (as ``async_sleep_ms``). Under CPython (unit tests, host
tools importing the driver arithmetic) they fall back to plain monotonic
milliseconds without wrap-around; the simulation's CPython runs install
MicroPython-like ``time`` functions first (``hardware/sim/cpython_shim.py``), so
they get those.

``const(x)`` returns ``x``; ticks are ints in ms; ``ticks_diff(a, b)`` is ``a - b``
(signed, wrap-aware on MicroPython); ``sleep_ms(ms)`` blocks, ``async_sleep_ms(ms)``
is awaited.
"""

import asyncio

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):  # type: ignore
        return value


try:
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython: plain monotonic milliseconds, no wrap-around
    import time as _time

    def ticks_ms():  # type: ignore
        return int(_time.monotonic() * 1000)  # type: ignore

    def ticks_add(a, b):  # type: ignore
        return a + b

    def ticks_diff(a, b):  # type: ignore
        return a - b

    def sleep_ms(ms):  # type: ignore
        _time.sleep(ms / 1000)


if hasattr(asyncio, "sleep_ms"):
    async_sleep_ms = asyncio.sleep_ms
else:  # CPython

    async def async_sleep_ms(ms):  # type: ignore
        await asyncio.sleep(ms / 1000)


__all__ = ("const", "ticks_ms", "ticks_add", "ticks_diff", "sleep_ms", "async_sleep_ms")
