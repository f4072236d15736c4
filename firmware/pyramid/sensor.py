"""The pyramid head's colour reading: TCS34725 + its illumination LED.

A sample is one reading with the LED off (ambient light leaking in at the
slider gap) and one with the LED on; their difference is the light the die
reflects from the LED alone, which is what the classifier's features need.
Each reading restarts integration after the LED has settled, so no cycle mixes
the two lighting states (TCS3472 datasheet, "System State Machine": a cycle
integrates from AEN until ATIME runs out).
"""

import camelup.board.tcs34725 as _math

from pyramid.compat import async_sleep_ms as _sleep_ms_async
from pyramid.compat import const, sleep_ms

#: ms for the LED's light output to settle after switching (a few ms for a
#: small white LED and its transistor; the datasheet of the breakout gives none)
LED_SETTLE_MS = const(2)

#: auto-range window: the brightest die's clear count as a fraction of full scale
#: (``camelup.board.tcs34725.RANGE_LOW`` / ``RANGE_HIGH``, the host's calibration uses the same)
AUTORANGE_LOW = _math.RANGE_LOW
AUTORANGE_HIGH = _math.RANGE_HIGH


class ColourSensor:
    """Ambient-subtracted colour samples from a ``TCS34725`` and its LED pin.

    ``tcs``: a ``pyramid.tcs34725.TCS34725``. ``led_pin``: a ``machine.Pin``
    set up as output, high = LED lit. The LED is left off between samples.

    After each sample: ``last_on`` and ``last_off`` are the raw ``(c, r, g, b)``
    readings (counts), ``saturated`` is True when the LED-on reading's clear
    channel reached the saturation level (the sample is then not trustworthy).
    Bus errors propagate as ``OSError``; the LED is switched off first.
    """

    def __init__(self, tcs, led_pin):
        self.tcs = tcs
        self.led = led_pin
        self.last_on = (0, 0, 0, 0)
        self.last_off = (0, 0, 0, 0)
        self.saturated = False
        self.led.value(0)

    def _difference(self):
        on = self.last_on
        off = self.last_off
        self.saturated = self.tcs.saturated(on[0])
        c = on[0] - off[0]
        r = on[1] - off[1]
        g = on[2] - off[2]
        b = on[3] - off[3]
        # noise can make a channel of a dark reading dip below its ambient twin
        return (c if c > 0 else 0, r if r > 0 else 0, g if g > 0 else 0, b if b > 0 else 0)

    def sample_ms(self):
        """Nominal ms one ``sample()`` takes on an idle board: two LED settles and two
        integration cycles (``TCS34725.cycle_ms``), int > 0. ``pyramid.release.Release``
        counts a release's settle and timeout in samples of this length."""
        return 2 * (LED_SETTLE_MS + self.tcs.cycle_ms())

    def sample(self):
        """One blocking sample: ``(c, r, g, b)`` counts, LED on minus LED off, each >= 0.

        Takes two integration cycles plus the LED settle time (about 56 ms at
        24 ms). Raises ``OSError`` from the bus (5, 110) or a missing AVALID (110).
        """
        tcs = self.tcs
        try:
            self.led.value(0)
            sleep_ms(LED_SETTLE_MS)
            tcs.start()
            self.last_off = tcs.read()
            self.led.value(1)
            sleep_ms(LED_SETTLE_MS)
            tcs.start()
            self.last_on = tcs.read()
        finally:
            self.led.value(0)
        return self._difference()

    async def sample_async(self):
        """Like ``sample()``, but waits for each integration with ``asyncio`` sleeps."""
        tcs = self.tcs
        try:
            self.led.value(0)
            await _sleep_ms_async(LED_SETTLE_MS)
            tcs.start()
            await _sleep_ms_async(tcs.cycle_ms())
            self.last_off = tcs.read()
            self.led.value(1)
            await _sleep_ms_async(LED_SETTLE_MS)
            tcs.start()
            await _sleep_ms_async(tcs.cycle_ms())
            self.last_on = tcs.read()
        finally:
            self.led.value(0)
        return self._difference()

    def sample_mean(self, n=3):
        """Mean of ``n`` samples (ints), for calibration. Sets ``saturated`` if any was."""
        c = r = g = b = 0
        sat = False
        for _ in range(n):
            s = self.sample()
            sat = sat or self.saturated
            c += s[0]
            r += s[1]
            g += s[2]
            b += s[3]
        self.saturated = sat
        return (c // n, r // n, g // n, b // n)

    def autorange(self, sample_fn=None, gains=(60, 16, 4, 1)):
        """Pick the highest gain whose LED-on clear count is unsaturated and at most
        65 % of full scale (``camelup.board.tcs34725.choose_gain``, the rule the host's
        ``pyramid calibrate --autorange`` follows too).

        Meant for calibration with the brightest die (white, or yellow) in the
        head: the chosen settings then stay fixed for the profile (re-ranging per
        reading would change what the profile's brightness means). Tries gains
        from high to low at the current integration time; ``sample_fn`` (default
        ``self.sample``) takes each reading. Returns the chosen settings dict
        ``{"integration_ms": float, "gain": int}``; when every gain is too bright,
        the lowest is kept. Raises ``OSError``.
        """
        take = sample_fn or self.sample
        tcs = self.tcs

        def measure(gain):
            tcs.gain = gain
            take()
            return self.last_on[0]

        gain = _math.choose_gain(measure, tcs.full_scale, tcs.saturation_level(), gains)[0]
        if tcs.gain != gain:
            tcs.gain = gain
            take()
        return tcs.settings()
