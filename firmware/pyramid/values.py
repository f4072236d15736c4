"""Optional value buttons: three push buttons (1, 2, 3) the player presses after a release.

One colour sensor cannot read a die's face value reliably (firmware notes
section 2.2), so a pyramid may carry three buttons; without them the value is
reported as ``?`` and the host asks the player.
"""


class ValueButtons:
    """Three input pins (``value() -> 0/1``), for values 1, 2 and 3 in that order.

    ``active_low``: a pressed button reads 0 (button to GND, internal pull-up).
    A press is accepted after it reads pressed on two polls in a row (contact
    bounce lasts a few ms; polls are 10 ms apart).
    """

    def __init__(self, pins, active_low=True):
        if len(pins) != 3:
            raise ValueError("need exactly 3 value-button pins, got %d" % len(pins))
        self._pins = pins
        self._active = 0 if active_low else 1
        self._last = 0

    def pressed(self):
        """Poll once: the value (1..3) held since the previous poll, else 0.

        When more than one button is held the lowest value wins.
        """
        now = 0
        for i in range(3):
            if self._pins[i].value() == self._active:
                now = i + 1
                break
        confirmed = now if now and now == self._last else 0
        self._last = now
        return confirmed
