"""Ticks and environment for the simulated board's stand-in modules (``machine``, ``rp2``).

On MicroPython (and on CPython once ``cpython_shim`` is installed) the ticks are
``time.ticks_ms``/``ticks_add``/``ticks_diff``; on plain CPython (unit tests importing
``machine`` directly) they are monotonic milliseconds that never wrap.
``getenv(name)``: the environment variable ``name``, or ``None`` where there is none
(or no ``os.getenv``, as on a bare MicroPython build).
"""

try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython without the shim (unit tests): monotonic ms
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b


def getenv(name):
    try:
        import os

        return os.getenv(name)
    except (ImportError, AttributeError):
        return None
