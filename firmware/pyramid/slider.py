"""Debounced slider switch, read by polling (no IRQ).

The pyramid's slider closes a lever microswitch to GND, so a pushed slider reads 0
(``active_low``). The pin needs the external pull-up ``pyramid.config`` and
hardware/README.md ("Pins") name; the RP2040's internal pull-up is also on, but alone
it passes too little current for the switch's contacts. Debounce follows Peter Hinch's
micropython-async ``Switch``: act at once on the first edge, then ignore the pin
for ``debounce_ms`` while the contacts bounce. Polling (rather than a pin IRQ)
keeps the unix-port simulation faithful and needs no ISR-safe code.
"""

from pyramid.compat import ticks_add, ticks_diff, ticks_ms

PRESS = 1
RELEASE = 2


class Slider:
    """Debounced switch on ``pin`` (any object with ``value() -> 0/1``).

    ``active_low``: ``True`` when a pushed slider reads 0 (switch to GND, pull-up).
    ``debounce_ms``: time after an accepted edge during which the pin is ignored
    (ms, >= 0). ``clock``: function returning milliseconds (``time.ticks_ms`` on
    the board; tests inject their own).

    Tunables are class attributes, as in micropython-async.
    """

    debounce_ms = 20

    def __init__(self, pin, active_low=True, debounce_ms=None, clock=None):
        self._pin = pin
        self._active = 0 if active_low else 1
        if debounce_ms is not None:
            self.debounce_ms = debounce_ms
        self._clock = clock if clock is not None else ticks_ms
        self.pushed = self._read()  # a slider held at power-up is not a release
        # no edge yet: the first push counts at once
        self._since = ticks_add(self._clock(), -self.debounce_ms)
        self.presses = 0  # accepted pushes since start

    def _read(self):
        return self._pin.value() == self._active

    def update(self, now=None):
        """Poll the pin once; return ``PRESS``, ``RELEASE`` or ``None`` (no accepted change).

        ``now``: the time in ms (default: the clock). Call at least every
        ``debounce_ms``; a push shorter than one polling period may be missed,
        which is why the period is far shorter than a human push (>= 50 ms).
        """
        if now is None:
            now = self._clock()
        if ticks_diff(now, self._since) < self.debounce_ms:
            return None
        state = self._read()
        if state == self.pushed:
            return None
        self.pushed = state
        self._since = now
        if state:
            self.presses += 1
            return PRESS
        return RELEASE
