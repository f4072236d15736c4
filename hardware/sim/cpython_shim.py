"""Make CPython look enough like MicroPython to run the pyramid firmware unchanged.

Only for the simulation (``sim_board`` imports it first when it runs on CPython):
adds ``time.ticks_ms/ticks_us/ticks_diff/ticks_add/sleep_ms``,
``asyncio.sleep_ms``, a ``micropython`` module with ``const``, and makes
``sys.stdin.buffer`` an unbuffered file so a poll-then-``read(1)`` never strands
bytes in a user-space buffer (MicroPython's stdin has no such buffer).
"""

import asyncio
import io
import sys
import time
import types

_T0 = time.monotonic()
_PERIOD = 1 << 30  # MicroPython's ticks wrap at 2**30 on most ports


def _ticks_ms():
    return int((time.monotonic() - _T0) * 1000) % _PERIOD


def _ticks_us():
    return int((time.monotonic() - _T0) * 1000000) % _PERIOD


def _ticks_diff(a, b):
    d = (a - b) % _PERIOD
    return d - _PERIOD if d >= _PERIOD // 2 else d


def _ticks_add(a, delta):
    return (a + delta) % _PERIOD


def install(stdin=True):
    """Install the shims (idempotent). ``stdin``: also make ``sys.stdin.buffer``
    unbuffered (the board process; leave it alone inside a test runner)."""
    if getattr(time, "ticks_ms", None) is None:
        time.ticks_ms = _ticks_ms
        time.ticks_us = _ticks_us
        time.ticks_diff = _ticks_diff
        time.ticks_add = _ticks_add
        time.sleep_ms = lambda ms: time.sleep(ms / 1000)
        time.sleep_us = lambda us: time.sleep(us / 1000000)
    if getattr(asyncio, "sleep_ms", None) is None:

        async def sleep_ms(ms):
            await asyncio.sleep(ms / 1000)

        asyncio.sleep_ms = sleep_ms
    if "micropython" not in sys.modules:
        mp = types.ModuleType("micropython")
        mp.const = lambda value: value
        mp.mem_info = lambda *a: None
        mp.kbd_intr = lambda c: None
        sys.modules["micropython"] = mp
    if stdin and not isinstance(sys.stdin, _Stdin):
        # sys.stdin.buffer must be the raw file (TextIOWrapper.buffer is read-only)
        sys.stdin = _Stdin(io.FileIO(sys.stdin.fileno(), "rb", closefd=False))


class _Stdin:
    def __init__(self, raw):
        self.buffer = raw

    def fileno(self):
        return self.buffer.fileno()

    def read(self, n=-1):
        return self.buffer.read(n).decode()
