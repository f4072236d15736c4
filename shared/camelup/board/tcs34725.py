"""TCS34725 arithmetic, the one copy: integration steps, full scale, saturation, gain ranging.

Used by the firmware's driver (``pyramid.tcs34725``, flashed with this module),
the classifier (``camelup.board.classifier``) and the host tools (``camelhost.tools``:
monitor, calibrate). Pure integer arithmetic where the chip counts, so the
board (float32) and the host (float64) round alike.

Source: ams TCS3472 datasheet, "RGBC Timing Register (0x01)" (ATIME counts down
in 2.4 ms steps, ``n = 256 - ATIME`` = 1 .. 256; each step can add 1024 counts,
so the digital full scale is ``min(65535, 1024 * n)``), "Control Register
(0x0F)" (AGAIN: 1, 4, 16, 60 times) and ams design note DN40 (below 64 steps,
153.6 ms, the analog front end clips before the counter fills: treat 75 % of the
digital full scale as saturated).

Runs unchanged on MicroPython (no typing, no dict-order reliance).
"""

#: Allowed analog gains (times); the index is CONTROL.AGAIN.
GAINS = (1, 4, 16, 60)
#: One integration step, ms (as tenths: 24 = 2.4 ms, to keep step arithmetic exact).
STEP_TENTHS_MS = 24
STEP_MS = 2.4
#: Integration steps: 1 .. 256 (2.4 .. 614.4 ms).
STEPS_MIN = 1
STEPS_MAX = 256
INTEGRATION_MIN_MS = 2.4
INTEGRATION_MAX_MS = 614.4
#: Below this many steps the analog front end saturates first (DN40).
ANALOG_STEPS = 64
#: Auto-ranging window: the brightest die's LED-on clear count as a fraction of
#: full scale (bright enough for resolution, headroom for seating and LED drift).
RANGE_LOW = 0.35
RANGE_HIGH = 0.65


def steps(integration_ms):
    """Whole 2.4 ms steps nearest to ``integration_ms`` (a float or int, ms), clamped to 1..256.

    ``steps(24) == 10``, ``steps(7) == 3`` (a ``CFG``'s whole ms), ``steps(100.8) == 42``.
    Integer arithmetic on tenths of a ms (``(ms * 10 + 12) // 24``), so every
    caller rounds alike.
    """
    n = int((integration_ms * 10 + 12) // STEP_TENTHS_MS)
    return STEPS_MIN if n < STEPS_MIN else (STEPS_MAX if n > STEPS_MAX else n)


def integration_ms(integration):
    """The exact integration time (ms, a multiple of 2.4) nearest to ``integration`` ms."""
    return steps(integration) * STEP_TENTHS_MS / 10


def check_integration(integration_ms_):
    """``integration_ms_`` if within 2.4 .. 614.4 ms, else ``ValueError`` naming it."""
    if not INTEGRATION_MIN_MS <= integration_ms_ <= INTEGRATION_MAX_MS:
        raise ValueError("integration time %r ms not in 2.4..614.4" % (integration_ms_,))
    return integration_ms_


def gain_index(gain):
    """CONTROL.AGAIN value (0..3) of ``gain`` (1, 4, 16 or 60); ``ValueError`` otherwise."""
    for i in range(4):
        if GAINS[i] == gain:
            return i
    raise ValueError("gain %r not one of 1, 4, 16, 60" % (gain,))


def full_scale_steps(n):
    """Digital full scale (counts) at ``n`` integration steps: ``min(65535, 1024 * n)``."""
    full = 1024 * n
    return 65535 if full > 65535 else full


def saturation_steps(n):
    """Clear count at or above which a reading at ``n`` steps is saturated: the
    full scale from 64 steps on, 75 % of it (rounded down) below (DN40)."""
    full = full_scale_steps(n)
    return full - full // 4 if n < ANALOG_STEPS else full


def full_scale(integration_ms_):
    """Digital full scale (counts) at ``integration_ms_`` ms (rounded to its step)."""
    return full_scale_steps(steps(integration_ms_))


def saturation_level(integration_ms_):
    """Saturation clear count at ``integration_ms_`` ms (see ``saturation_steps``)."""
    return saturation_steps(steps(integration_ms_))


def exposure(settings):
    """Relative exposure of ``{"integration_ms": ms, "gain": times}``: steps x nominal gain."""
    return steps(settings["integration_ms"]) * settings["gain"]


def choose_gain(measure, full, saturation, gains=(60, 16, 4, 1)):
    """Gain auto-ranging, the one rule: the highest gain whose LED-on clear count
    of the brightest die is under saturation and at most ``RANGE_HIGH`` of full
    scale.

    ``measure(gain)`` -> LED-on clear count (int) with that gain set (it sets the
    gain on the chip and takes a reading). ``full``, ``saturation``: counts at the
    current integration time. Tries ``gains`` from high to low and stops at the
    first that fits. Returns ``(gain, clear, seen)``: the gain to use, its clear
    count, and ``[(gain, clear), ...]`` in the order tried. When even the lowest
    gain is too bright, the lowest is returned (the caller says "shorten the
    integration time"); ``clear < RANGE_LOW * full`` at the highest gain means
    "lengthen it". Errors from ``measure`` propagate.
    """
    seen = []
    for gain in gains:
        clear = measure(gain)
        seen.append((gain, clear))
        if clear < saturation and clear <= RANGE_HIGH * full:
            return (gain, clear, seen)
    return (gains[-1], seen[-1][1], seen)
