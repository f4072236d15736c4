"""Status LED patterns (one LED, e.g. the Pico's GP25).

Each state is a blink pattern of ``(on_ms, off_ms)``; the LED task shows the
current state's pattern and re-reads the state every cycle, so a change shows
within one pattern period (<= 2 s).
"""

from pyramid.compat import async_sleep_ms as sleep_ms

#: state -> (on ms, off ms)
PATTERNS = {
    "boot": (50, 50),  # fast flicker while starting
    "idle": (30, 1970),  # short blink every 2 s: alive, host or not
    "reading": (1000, 0),  # steady on while a die is being read
    "fault": (150, 150),  # fast blink: sensor fault, re-initialising
    "host": (1970, 30),  # mostly on: a host is talking to us (recent command)
}


class StatusLed:
    """Blinks ``pin`` (an output ``Pin``) in the pattern of ``state`` (a key of ``PATTERNS``)."""

    def __init__(self, pin):
        self._pin = pin
        self.state = "boot"

    async def run(self):
        """Task body: blink forever (cancel it to stop); the LED is left off."""
        try:
            while True:
                on_ms, off_ms = PATTERNS.get(self.state, PATTERNS["idle"])
                if on_ms:
                    self._pin.value(1)
                    await sleep_ms(on_ms)
                if off_ms:
                    self._pin.value(0)
                    await sleep_ms(off_ms)
        finally:
            self._pin.value(0)
