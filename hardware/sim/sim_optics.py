"""Optical model of the pyramid head: what a TCS34725 sees of a die, in counts.

Physics, in the order light travels (all spectra on a 380..720 nm grid, 10 nm):

1. The illumination LED (a phosphor white LED, like the one on the TCS34725
   breakouts): a narrow blue emitter peak at 450 nm plus a broad phosphor hump at
   565 nm. Its output drifts slowly (temperature): intensity within +/- half of
   ``OpticalModel``'s ``led_drift`` (a span), blue/phosphor balance within +/-2 %;
   on top of that the stepwise level of ``SENSOR_NOISE`` (``step_p``, ``step_size``).
2. The die: a diffuse reflectance spectrum per dye (smooth steps and bumps chosen
   to look like the plastic colours of the two editions), a numeral printed on
   the top face covering 13-15 % of it (ink fractions of "1", "2", "3" from the
   project's firmware notes, section 2.2) seen through a field of view that
   shifts with seating, and a small neutral gloss (specular) component.
   Coloured dice carry black ink; the grey die has black or white numerals
   (labels ``grey-black`` and ``grey-white``). ``empty`` is the head's matte black
   floor, further away.
3. Seating (``SEATING``): the die rests ``_NOMINAL_MM`` under the sensor, its height
   within +/- ``SEATING["height_mm"]`` of that and up to ``SEATING["tilt"]`` of its
   light lost to tilt; counts go with (``_NOMINAL_MM`` / distance)^2. A new seating is drawn whenever
   the content changes (or ``reseat()``).
4. Ambient light leaking in at the slider gap (a warm room light, ``OpticalModel``'s
   ``ambient``): the same in the LED-off and LED-on readings up to a flicker of
   +/-5 % (mains flicker not averaged out over a short integration).
5. The sensor: four photodiode channels (clear, red, green, blue) with response
   curves shaped like the TCS3472 datasheet's "Spectral Responsivity" figure,
   counts proportional to integration time and analog gain (another chip's
   gain ratios differ by a few %: ``variation``), then ``chip_count``: dark counts,
   shot noise and read noise as ``SENSOR_NOISE`` gives them (fitted to real logs,
   ``hardware/sim/sim_fit.py``), analog compression above 75 % of full scale for
   integration times under 153.6 ms and digital clipping at
   ``min(65535, 1024 * steps)``.

Scale: ``WHITE_COUNTS_PER_MS_GAIN``, the clear count of a white die's plastic under
the LED per ms of integration and unit of gain; the die itself reads less by its
numeral's ink (item 2), and the constant's comment gives what it reads at 24 ms and
gain 4 (``tests/test_hardware_docs.py`` checks that figure against the model).
The figures of the seating, the noise and the scale live in those constants only:
this text names them rather than repeating their numbers.

Pure Python with its own random generator (xorshift32 + Box-Muller), so the
same seed gives the same counts under CPython and the MicroPython unix port.
"""

import math

import camelup.board.tcs34725 as _tcs
from camelup.editions import EDITIONS

#: Die labels of each edition as the sensor names them (``Edition.sensor_labels``).
EDITION_DICE = {}
for _name in EDITIONS:
    EDITION_DICE[_name] = EDITIONS[_name].sensor_labels
#: Every label the model knows (the dice of both editions), ``empty`` last.
LABELS = tuple(sorted(set(EDITION_DICE["classic"] + EDITION_DICE["second"]))) + ("empty",)

_WAVELENGTHS = tuple(range(380, 721, 10))
# Ink fraction of the top face for the numerals 1, 2, 3 (firmware notes 2.2).
_INK_FRACTION = (0.129, 0.151, 0.154)
_BLACK_INK = 0.045
_WHITE_INK = 0.85
_NOMINAL_MM = 12.0
#: Seating of a die in the head (mechanical): height within +/- ``height_mm``
#: of 12 mm, up to ``tilt`` of light lost to tilt.
SEATING = {"height_mm": 0.25, "tilt": 0.03}
#: Clear counts of a white die per ms of integration and unit of gain (about
#: 2900 at 24 ms and gain 4, under a third of full scale: real breakouts read
#: well below the 50 % the notes aimed at).
WHITE_COUNTS_PER_MS_GAIN = 35.0
#: The sensor's noise, parameters fitted to the real logs (hardware/sim/sim_fit.py,
#: ``make bench``; EV3 set, LED-lit reflectance like the pyramid's head):
#: ``shot``: variance per count at gain 4 (counts^2 / count; shot noise grows with
#: the count); ``read``: read noise (counts, sd); ``dark_per_step``: dark counts
#: per integration step at gain 4; ``step_p``: chance per reading that the
#: slow drift takes a step; ``step_size``: the LED's relative step (the EV3 logs'
#: steps include the cubes moving; a seated die's is the LED's own).
SENSOR_NOISE = {"shot": 0.014, "read": 0.3, "dark_per_step": 0.02, "step_p": 0.10, "step_size": 0.004}
_EMPTY_MM = 20.0  # the head's floor is further than a die's top face


def _logistic(x):
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _step(lam, centre, width, low, high):
    """Smooth step from ``low`` (short wavelengths) to ``high`` around ``centre`` nm."""
    return low + (high - low) * _logistic((lam - centre) / width)


def _bump(lam, centre, sigma, height):
    d = (lam - centre) / sigma
    return height * math.exp(-0.5 * d * d)


def _reflectance(label, lam):
    """Diffuse reflectance (0..1) of a die's plastic (or the head's floor) at ``lam`` nm."""
    if label == "white":
        return 0.82 - _bump(lam, 395, 25, 0.10)
    if label == "yellow":
        return _step(lam, 505, 11, 0.07, 0.80)
    if label == "orange":
        return _step(lam, 578, 11, 0.06, 0.78) + _bump(lam, 545, 20, 0.04)
    if label == "red":
        return _step(lam, 607, 10, 0.05, 0.70)
    if label == "green":
        return 0.06 + _bump(lam, 525, 36, 0.42) + _step(lam, 700, 12, 0.0, 0.10)
    if label == "blue":
        return 0.05 + _bump(lam, 468, 34, 0.40) + _step(lam, 690, 15, 0.0, 0.20)
    if label == "purple":
        return 0.05 + _bump(lam, 430, 34, 0.26) + _step(lam, 628, 16, 0.0, 0.36)
    if label in ("grey-black", "grey-white"):
        return 0.30
    if label == "empty":
        return 0.035
    raise ValueError("unknown die label %r" % (label,))


def _led(lam, blue_balance):
    """Relative spectral power of the white illumination LED."""
    return blue_balance * _bump(lam, 450, 10, 1.0) + _bump(lam, 565, 55, 0.55)


def _ambient(lam):
    """Relative spectral power of warm room light (rises towards red)."""
    return 0.25 + 0.75 * (lam - 380) / 340


def _channels(lam):
    """Relative responsivity of the (clear, red, green, blue) photodiodes at ``lam`` nm."""
    ir_cut = 1.0 - _logistic((lam - 690) / 10)
    clear = (0.35 + 0.65 * _logistic((lam - 450) / 40)) * ir_cut
    red = (_bump(lam, 615, 30, 0.95) + 0.03) * ir_cut
    green = _bump(lam, 530, 32, 0.80) + 0.02 * ir_cut
    blue = _bump(lam, 465, 28, 0.72) + 0.02 * ir_cut
    return (clear, red, green, blue)


class Rng:
    """xorshift32 with Box-Muller normals: the same stream on CPython and MicroPython."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1
        self._spare = None

    def random(self):
        """Uniform float in (0, 1)."""
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return (x + 0.5) / 4294967296.0

    def uniform(self, low, high):
        return low + (high - low) * self.random()

    def normal(self, mean=0.0, sigma=1.0):
        if self._spare is not None:
            z = self._spare
            self._spare = None
        else:
            r = math.sqrt(-2.0 * math.log(self.random()))
            t = 2.0 * math.pi * self.random()
            z = r * math.cos(t)
            self._spare = r * math.sin(t)
        return mean + sigma * z

    def choice(self, seq):
        return seq[int(self.random() * len(seq)) % len(seq)]


def _mix(a, b):
    """A 32-bit hash of two non-negative ints (the same on CPython and MicroPython)."""
    x = (a * 0x9E3779B1 + b * 0x85EBCA77 + 0x7F4A7C15) & 0xFFFFFFFF
    x ^= x >> 16
    x = (x * 0x85EBCA6B) & 0xFFFFFFFF
    x ^= x >> 13
    x = (x * 0xC2B2AE35) & 0xFFFFFFFF
    x ^= x >> 16
    return x


def chip_count(light, steps, gain, rng, noise=1.0):
    """One channel's count as the TCS34725 makes it (an int).

    ``light``: the counts the light alone gives (float >= 0) at ``steps``
    integration steps (1..256) and analog ``gain`` (1, 4, 16, 60). Adds the dark
    counts, shot noise growing with the count (fewer electrons per count at a
    higher gain) and read noise (``SENSOR_NOISE``, times ``noise``; one normal
    drawn from ``rng``, a ``Rng``, when ``noise`` is not 0); compresses above the
    analog front end's knee (``camelup.board.tcs34725.saturation_steps``), rounds to
    the integer count and clips at 0 and the full scale
    (``camelup.board.tcs34725.full_scale_steps``). ``OpticalModel.counts`` and the
    classifier bench's scaled real readings both count through it.
    """
    sn = SENSOR_NOISE
    mean = light + sn["dark_per_step"] * steps * gain / 4.0  # dark counts
    shot = sn["shot"] * (gain / 4.0)  # fewer electrons per count at higher gain
    var = shot * mean + sn["read"] ** 2 if mean > 0 else sn["read"] ** 2
    value = mean + rng.normal(0.0, 1.0) * math.sqrt(var) * noise if noise else mean
    full = _tcs.full_scale_steps(steps)
    knee = _tcs.saturation_steps(steps)
    if value > knee:  # the analog front end compresses, then the counter clips
        value = knee + (value - knee) * 0.3
    value = int(value + 0.5)  # the ADC's integer count
    return 0 if value < 0 else (full if value > full else value)


def led_reading(light, steps, gain, rng, noise=1.0):
    """An ambient-subtracted reading ``(c, r, g, b)`` (ints >= 0) of ``light`` (4
    floats: the counts the LED's light alone gives, see ``chip_count``): the
    LED-on count less the LED-off count of each channel, clipped at 0, as
    ``pyramid.sensor.ColourSensor.sample`` takes it (no ambient light)."""
    out = []
    for k in range(4):
        off = chip_count(0.0, steps, gain, rng, noise)
        on = chip_count(light[k], steps, gain, rng, noise)
        out.append(on - off if on > off else 0)
    return (out[0], out[1], out[2], out[3])


def _integrate(spectrum_fn):
    """(clear, red, green, blue) sums of ``spectrum_fn(lam) * channel(lam)`` over the grid."""
    c = r = g = b = 0.0
    for lam in _WAVELENGTHS:
        s = spectrum_fn(lam)
        ch = _channels(lam)
        c += s * ch[0]
        r += s * ch[1]
        g += s * ch[2]
        b += s * ch[3]
    return (c, r, g, b)


class OpticalModel:
    """Counts a TCS34725 reads of the pyramid head's content.

    ``seed``: int, makes every reading reproducible. ``variation``: 0 for the
    reference box of dice and sensor; > 0 (e.g. 0.05) perturbs every dye's
    spectrum, the LED and the chip's gain ratios (by 0.4 x ``variation``),
    standing in for another copy of the game and another breakout (what a
    calibration has to learn). ``noise``: scales
    every random effect (1.0 = realistic, 0 = noiseless and perfectly seated).
    ``ambient``: mean ambient leak relative to a white die's LED signal
    (default 0.04). ``led_drift``: LED intensity drift span (default 0.06).
    """

    def __init__(self, seed=0, variation=0.0, noise=1.0, ambient=0.04, led_drift=0.06):
        self._seed = seed & 0xFFFFFFFF
        self._rng = Rng(seed)
        self._key = None  # set by begin(): readings keyed by (seed, release, index)
        self._walked = None  # the release the LED drift walk has reached (begin())
        self.noise = noise
        self.ambient = ambient
        self.led_drift = led_drift
        unit = Rng(seed ^ 0x5A5A5A5A)
        # per-chip analog gain error and per-box dye/LED variation
        self._gain_error = {1: 1.0, 4: 1.0, 16: 1.0, 60: 1.0}
        for gain in (4, 16, 60):
            # another chip's gain ratios (the datasheet's spread is a few %)
            self._gain_error[gain] = 1.0 + unit.normal(0.0, 0.4 * variation)
        self._variation = {}
        for label in LABELS:
            self._variation[label] = (
                1.0 + variation * unit.normal(),
                variation * 20.0 * unit.normal(),  # nm shift of the spectrum
            )
        self._blue_balance = 1.0 + variation * unit.normal()
        self._responses = {}
        self._ink_cache = {}
        self._white_clear = self._led_response("white", 0.0, 0.0)[0]
        self._ambient_resp = _integrate(_ambient)
        # state that changes while the model runs
        self.drift = 1.0  # LED intensity factor
        self.balance_drift = 1.0  # LED blue/phosphor factor
        self._content = None
        self._seating = None
        self._steps = [1.0]
        self._step_at = (0, 1.0)

    # --- spectra -> channel responses (cached per label) ---

    def _led_response(self, label, ink_reflectance, ink_fraction):
        scale, shift = self._variation.get(label, (1.0, 0.0))
        balance = self._blue_balance

        def spectrum(lam):
            rho = _reflectance(label, lam - shift) * scale
            if rho > 1.0:
                rho = 1.0
            rho = rho * (1.0 - ink_fraction) + ink_reflectance * ink_fraction
            return rho * _led(lam, balance)

        return _integrate(spectrum)

    def _parts(self, label):
        """(body, ink, gloss) channel responses under the LED for ``label``."""
        parts = self._responses.get(label)
        if parts is None:
            body = self._led_response(label, 0.0, 0.0)
            ink = _WHITE_INK if label == "grey-white" else _BLACK_INK
            balance = self._blue_balance
            ink_resp = _integrate(lambda lam: ink * _led(lam, balance))
            gloss = _integrate(lambda lam: _led(lam, balance))
            parts = (body, ink_resp, gloss)
            self._responses[label] = parts
        return parts

    def _blue_share(self):
        """Per channel, the share of the LED's response due to its blue emitter."""
        share = self._responses.get("_blue")
        if share is None:
            balance = self._blue_balance
            whole = _integrate(lambda lam: _led(lam, balance))
            blue = _integrate(lambda lam: balance * _bump(lam, 450, 10, 1.0))
            share = tuple(blue[k] / whole[k] for k in range(4))
            self._responses["_blue"] = share
        return share

    # --- keyed randomness (a seeded virtual game is the same every run) ---

    def begin(self, release):
        """Start release number ``release`` (int >= 0): from now on the seating is
        drawn from ``(seed, release)`` and each reading's noise from ``(seed,
        release, index)`` (``counts(..., index=)``), so what the firmware reads
        does not depend on how many cycles the machine's load let it take. The
        slow LED drift takes one step per release."""
        self._key = _mix(self._seed, release & 0xFFFFFFFF)
        self._content = None
        self._step_at = (0, 1.0)  # (reading index, the LED's stepwise level there) in this release
        if self.noise and self.led_drift:
            self._walk_drift(release)

    def _walk_drift(self, release):
        """Set ``drift`` and ``balance_drift`` to the slow walk's level at release
        ``release``: one step per release, each drawn from ``(seed, release)``, from
        1.0 before release 1. Only the seed and the release number decide it, so a
        board rebooted before release ``release`` (a new model told the count so
        far) has the LED level one that ran through every release has. Walks on
        from the last release begun when it is an earlier one, else replays from 1."""
        walked = self._walked
        if walked is None or walked > release:
            walked = 0
            self.drift = 1.0
            self.balance_drift = 1.0
        half = self.led_drift / 2
        for r in range(walked + 1, release + 1):
            rng = Rng(_mix(_mix(self._seed, r & 0xFFFFFFFF), 1))
            self.drift = min(1.0 + half, max(1.0 - half, self.drift + rng.normal(0.0, 0.004)))
            self.balance_drift = min(1.02, max(0.98, self.balance_drift + rng.normal(0.0, 0.0015)))
        self._walked = release

    # --- seating ---

    def reseat(self):
        """Draw a new seating (height, tilt, face, gloss, ambient) for the current content."""
        rng = self._rng if self._key is None else Rng(_mix(self._key, 2))
        n = self.noise

        def one():
            face = int(rng.random() * 3) % 3
            return (
                _INK_FRACTION[face] * (1.0 + n * rng.uniform(-0.2, 0.2)),  # ink seen
                n * rng.uniform(0.005, 0.02),  # gloss (specular) fraction
            )

        seat = SEATING
        height = _NOMINAL_MM + n * rng.uniform(-seat["height_mm"], seat["height_mm"])
        tilt = 1.0 - n * rng.uniform(0.0, seat["tilt"])
        first = one()
        second = one()
        # two dice: each covers part of the view; the upper one is closer
        share = rng.uniform(0.3, 0.7)
        closer = rng.uniform(1.0, 1.4)
        leak = self.ambient * rng.uniform(0.2, 1.8) if n else self.ambient
        self._seating = (height, tilt, first, second, share, closer, leak)

    def _die_signal(self, label, seen):
        body, ink, gloss = self._parts(label)
        ink_frac, gloss_frac = seen
        if label == "empty":
            ink_frac = 0.0
            gloss_frac = 0.0
        out = [0.0, 0.0, 0.0, 0.0]
        for k in range(4):
            out[k] = body[k] * (1.0 - ink_frac) + ink[k] * ink_frac + gloss[k] * gloss_frac
        return out

    # --- the reading ---

    def counts(self, content, led_on, integration_ms, gain, index=None):
        """One reading of the head in counts: ``(clear, red, green, blue)``.

        ``content``: a die label (``LABELS``), ``"empty"``, or a tuple of two die
        labels (two dice in the head). ``led_on``: bool, or the fraction 0..1 of
        the integration time the LED was lit. ``integration_ms``: 2.4 .. 614.4.
        ``gain``: 1, 4, 16 or 60. Each count is an int in 0 .. min(65535, 1024 *
        steps) when ``index`` is None and no release was begun. ``index``: the
        reading's number within the release begun by ``begin()``
        (the sensor model counts integration restarts): its noise then depends
        only on ``(seed, release, index)``. Raises ``ValueError`` for an unknown label.
        """
        if content != self._content or self._seating is None:
            self._content = content
            self.reseat()
        keyed = self._key is not None and index is not None
        rng = Rng(_mix(_mix(self._key, 3), index & 0xFFFFFFFF)) if keyed else self._rng
        n = self.noise
        height, tilt, first, second, share, closer, leak = self._seating
        # slow LED drift: a bounded random walk, one step per reading (per release when keyed)
        if n and self.led_drift and not keyed:
            half = self.led_drift / 2
            self.drift = min(1.0 + half, max(1.0 - half, self.drift + rng.normal(0.0, 0.004)))
            self.balance_drift = min(
                1.02, max(0.98, self.balance_drift + rng.normal(0.0, 0.0015))
            )
        if isinstance(content, tuple):
            a = self._die_signal(content[0], first)
            b = self._die_signal(content[1], second)
            geometry = closer * tilt * (_NOMINAL_MM / height) ** 2
            signal = [(share * a[k] + (1.0 - share) * b[k]) * geometry for k in range(4)]
        else:
            distance = _EMPTY_MM if content == "empty" else height
            geometry = tilt * (_NOMINAL_MM / distance) ** 2
            s = self._die_signal(content, first)
            signal = [s[k] * geometry for k in range(4)]
        on = float(led_on)
        blue = self._blue_share()
        amb = self._ambient_resp
        ambient_unit = self._white_clear / amb[0]
        flicker = 1.0 + n * rng.uniform(-0.05, 0.05)
        steps = _tcs.steps(integration_ms)
        exposure = steps * 2.4 * gain * self._gain_error.get(gain, 1.0)
        # one unit of signal = a white die's clear response under the LED
        unit = WHITE_COUNTS_PER_MS_GAIN * exposure / self._white_clear
        level = self._step_level(index, rng) if n else 1.0
        out = []
        for k in range(4):
            led_part = signal[k] * self.drift * level * (1.0 + (self.balance_drift - 1.0) * blue[k])
            light = on * led_part + leak * flicker * amb[k] * ambient_unit
            out.append(chip_count(light * unit, steps, gain, rng, n))
        return (out[0], out[1], out[2], out[3])

    def _step_level(self, index, rng):
        """The LED's stepwise level (about 1.0) at reading ``index`` of the release:
        it keeps its level and, with probability ``SENSOR_NOISE["step_p"]`` per
        reading, moves by a step of ``step_size`` (a colour sits at two or three
        levels). Keyed releases draw each step from ``(seed, release, index)``."""
        noise = SENSOR_NOISE
        if self._key is None or index is None:
            level = self._steps[-1]
            if rng.random() < noise["step_p"]:
                level *= 1.0 + noise["step_size"] * (1.0 if rng.random() < 0.5 else -1.0)
                level = min(1.02, max(0.98, level))
            self._steps[-1] = level
            return level
        # a walk over the indices, kept as its furthest point only: the sim's heap
        # stays the same however many readings a release takes
        at, level = self._step_at
        if index < at:
            at, level = 0, 1.0
        while at < index:
            at += 1
            r = Rng(_mix(_mix(self._key, 5), at))
            if r.random() < noise["step_p"]:
                level *= 1.0 + noise["step_size"] * (1.0 if r.random() < 0.5 else -1.0)
                level = min(1.02, max(0.98, level))
        self._step_at = (at, level)
        return level

    def samples(self, label, n, integration_ms=24, gain=4, reseat=True):
        """``n`` ambient-subtracted readings (LED on minus LED off) of ``label``.

        Each reading is taken with a fresh seating when ``reseat`` is true, as in
        a calibration session (release, read, return). Returns a list of
        ``(c, r, g, b)`` int tuples (negative differences clipped to 0).
        """
        out = []
        for _ in range(n):
            if reseat:
                self._content = label
                self.reseat()
            off = self.counts(label, False, integration_ms, gain)
            on = self.counts(label, True, integration_ms, gain)
            out.append(tuple(max(0, on[k] - off[k]) for k in range(4)))
        return out


#: Seed, readings per class and settings of the default profiles shipped in
#: ``camelup.board.classifier`` (regenerate with ``python hardware/sim/sim_optics.py``).
DEFAULT_SEED = 2026
DEFAULT_SAMPLES = 40
DEFAULT_SETTINGS = {"integration_ms": 24.0, "gain": 4}


def calibration_samples(edition, seed=DEFAULT_SEED, n=DEFAULT_SAMPLES, settings=None, **model):
    """``{label: [(c, r, g, b), ...]}``: ``n`` ambient-subtracted readings of every
    class of ``edition`` (its dice and ``empty``), each with a fresh seating.
    ``model``: keyword arguments for ``OpticalModel``."""
    settings = settings or DEFAULT_SETTINGS
    optics = OpticalModel(seed, **model)
    out = {}
    for label in EDITION_DICE[edition] + ("empty",):
        out[label] = optics.samples(label, n, settings["integration_ms"], settings["gain"])
    return out


#: The default profiles also see ``DEFAULT_BOXES`` other boxes of dice and breakouts
#: (``variation`` 0.05, ``DEFAULT_BOX_SAMPLES`` readings per class each): an
#: uncalibrated pyramid is another box, and a profile of the reference box alone
#: read its grey inks the wrong way round on 7.7 % of another box's grey-black.
DEFAULT_BOXES = 8
DEFAULT_BOX_SAMPLES = 10
DEFAULT_VARIATION = 0.05


def default_profile(edition):
    """The profile ``camelup.board.classifier.default_profile(edition)`` ships, fitted afresh:
    the reference box's ``DEFAULT_SAMPLES`` readings per class plus
    ``DEFAULT_BOX_SAMPLES`` of each of ``DEFAULT_BOXES`` other boxes."""
    from camelup import calibration

    samples = calibration_samples(edition)
    for box in range(DEFAULT_BOXES):
        extra = calibration_samples(edition, seed=3000 + box, n=DEFAULT_BOX_SAMPLES,
                                    variation=DEFAULT_VARIATION)
        for label in extra:
            samples[label] = samples[label] + extra[label]
    return calibration.fit(samples, edition, DEFAULT_SETTINGS)


def main():
    """Print the default profiles as the JSON strings ``camelup.board.default_profiles`` holds."""
    import json

    for edition in ("classic", "second"):
        text = json.dumps(default_profile(edition), sort_keys=True, separators=(",", ":"))
        print("%s = %r" % (edition, text))


if __name__ == "__main__":
    main()
