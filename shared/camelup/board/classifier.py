"""Colour classifier for the pyramid head: which die (or none, or two) is there.

Input: one ambient-subtracted TCS34725 reading ``(c, r, g, b)`` in counts (LED
on minus LED off, ``pyramid.sensor.ColourSensor.sample``).

Features (``features()``), chosen so that the die's distance and the LED's
brightness cancel out of three of them and are tracked in the fourth:

- chromaticity ``r/c``, ``g/c``, ``b/c`` (each channel over the clear channel);
- relative brightness ``log(c / ref_clear)``, where ``ref_clear`` is the clear
  count of the brightest die at calibration, scaled for the sensor settings
  and for the LED drift tracked by ``Classifier.observe``.

(A small floor, 0.5 % of ``ref_clear``, is added to ``c`` in both so that the
empty head's tiny counts give stable features.)

Model (docs/classifier.md): per class a centroid and a spread (``base``),
fitted at calibration time by ``camelup.calibration.fit`` (regularised
discriminant analysis; host-only code, never flashed). Each class then adds,
at its own mean counts (``class_spread``),

- the centroid's own error (``1/n`` of the spread, ``n`` calibration readings);
- the count noise: shot noise growing with the count (``shot`` x count) plus
  one count squared (``step``: the one-count steps of a quantised low count
  and the LED-off subtraction), carried into the features through their
  derivatives: a one-count change of a dim reading costs about one sigma,
  never eight;
- a small floor per feature (``SIGMA_FLOOR``);

and the ``Classifier`` keeps the inverse of its Cholesky factor, computed at
start-up for the settings it runs at (a profile made at 24 ms used at 7.2 ms
knows its counts are 3.3 times fewer).

Decision (``Classifier.classify``): the class with the highest likelihood wins
(a multivariate Student-t with ``TAIL`` degrees of freedom whose covariance is
the class's spread: ``(TAIL + 4) log(1 + d^2 / (TAIL - 2)) + log det``; real
readings have heavy tails) unless

- it is further than ``reject`` sigma (default 7): nothing calibrated looks
  like this (``far``), or
- its posterior probability (equal priors) is under ``posterior`` (default
  0.95), or the second is less than ``min_margin`` (0.5) sigma further: the
  reading sits between two classes (``between``), or
- the reading is less than the guard (3.9 sigma for 12 + 12 calibration
  readings, less for more: ``GUARD``) from the runner-up class, measured in
  that class's spread along the line from its centroid to the winner's
  (``guard``): this bites only for close pairs (the grey die's two inks); a
  wrong colour moves the wrong camel (RULES 3.5(c)), an ``unknown`` only makes
  the table ask; and when the winner and the runner-up are less than ``near``
  sigma apart at these settings' counts, the smaller of the two ways, and count
  noise is what brings them that close, that guard is ``near`` sigma (the guard's
  pair test, ``LIGHT_SHARE``: at a few counts per channel two dice a count apart
  give each other's readings);

or it is further than ``near`` (4) without leading every other class (the
nearest other, by distance) by ``lead`` (5.5) sigma and a mixture of two dice
explains it (the two-dice test below: a die with another in view, a die
mid-fall; ``far``): such a tail reading is named only when no mixture explains
it (a die's own tail, seated a little off) and its posterior is at least
``TAIL_POSTERIOR`` (0.98); or a mixture of it with another die brings the
reading's chromaticity more than ``MIX_GAIN`` (12, sigma squared) nearer, measured
in the die's own spread with the count noise of its counts (the mixture test: at
a few counts per channel a double sits where the other rules trust the die whose
colour dominates; ``double``, or ``unknown`` when too dim for two dice); or a
brighter die explains its chromaticity better by more than ``DIM_GAIN`` (3, sigma
squared), each die measured with the count noise of the reading's own counts (the
dimmed-die test: a die partly in view, or leaving it, at a few counts per channel;
``dimmed``). Then the answer is ``unknown``. A rejected reading that two dice of the edition
mixed together explain well is ``double``: a non-negative least-squares fit of
the two class mean readings, residual under the profile's ``double_residual``,
each die at least 15 % of it, and the two shares adding up to two dice' worth
of light (``DOUBLE_LIGHT``: at least what 0.8 of one seated die gives; a dim
reading is never "two dice").

Labels: the edition's ``sensor_labels`` (``camelup.editions``: the die colours,
the grey die split by its numeral ink, ``grey-black`` and ``grey-white``),
``empty`` (no die), ``unknown``, ``double``.

Profiles are JSON-able dicts (``camelup.calibration.fit``; checked by
``check_profile``) recording the sensor settings they were made with. Runs unchanged on MicroPython, in float32 on the board
(tests/test_classifier_float32.py): no typing, dataclasses, enum, functools or
itertools; no reliance on dict order (classes are visited in sorted order).
"""

import math

import camelup.board.tcs34725 as _tcs
from camelup.editions import EDITIONS

#: Die labels of each edition, in a fixed order (``Edition.sensor_labels``).
EDITION_CLASSES = {}
for _name in EDITIONS:
    EDITION_CLASSES[_name] = EDITIONS[_name].sensor_labels
EMPTY = "empty"
UNKNOWN = "unknown"
DOUBLE = "double"
#: Names of the feature vector's components.
FEATURES = ("r/c", "g/c", "b/c", "log(c/ref)")
#: Profile format version (``guard``, ``guard_se``, ``posterior``, ``shot``,
#: ``step``, ``tail``, ``near``, ``lead``, ``floor`` and a class's ``base`` are optional keys
#: of format 1: profiles saved without them get the defaults and keep their
#: stored ``whiten``).
FORMAT = 1

#: Smallest spread (sigma) per feature: chromaticity, chromaticity, chromaticity, log.
SIGMA_FLOOR = (0.002, 0.002, 0.002, 0.01)
#: Count noise of one channel of a reading: variance ``SHOT * count + STEP`` (counts^2).
#: ``STEP``: a count is an integer and the reading a difference of two of them:
#: one count's step must not look like a big move.
SHOT = 0.0035
STEP = 0.5
#: Beyond ``NEAR`` sigma from its class (about 1 in 100 of a class's own readings)
#: a reading that every other class is not ``LEAD`` sigma further from still is
#: named only when no mixture of two dice explains it (``Classifier._two_dice``).
NEAR = 4.0
LEAD = 5.5
#: Such a tail reading, when no mixture explains it, needs this posterior (not just
#: ``POSTERIOR``): out in the tail is where a glitch of one channel lives.
TAIL_POSTERIOR = 0.98
#: Degrees of freedom of the Student-t likelihood behind the posterior (0 = normal;
#: otherwise above 2, where a t has a covariance). The class's spread is the t's
#: covariance, so the Mahalanobis distance enters as ``d^2 / (TAIL - 2)``
#: (the t's scale matrix is the covariance times ``(TAIL - 2) / TAIL``). 3: the
#: heaviest whole-number tail with a covariance (real readings have glitches,
#: fades and mixtures a Gaussian calls impossible).
TAIL = 3.0
#: Default rejection distance (sigma), smallest posterior and ambiguity margin (sigma).
REJECT = 7.0
POSTERIOR = 0.95
MIN_MARGIN = 0.5
#: Guard (sigma): a die is named only when the reading is at least
#: ``GUARD + GUARD_SE * sqrt(1/n_a + 1/n_b)`` sigma from the runner-up class
#: towards the winner, in the runner-up's spread (``n``: the two classes'
#: calibration readings). The second term is for the centroids' own error:
#: readings taken one after another share the LED's drift, so a 12-reading
#: centroid can sit a sigma off. 12 + 12 readings: 3.93 sigma; 24 + 24: 3.51.
GUARD = 2.5
GUARD_SE = 3.5
#: The guard's pair test (``Classifier._axis``): when, at the settings' counts, a die
#: and its runner-up are less than ``near`` sigma apart, the smaller of the two ways
#: (each centroid in the other's spread, count noise included, as
#: ``camelup.calibration.separation`` measures), the runner-up's own readings beyond
#: ``near`` (about 1 in 100) reach the die's centroid, and the guard (2.5-3.9 sigma,
#: measured in the runner-up's spread only) passes them (the EV3 red and purple dice
#: at 2.4 ms x1: 3.0-3.2 sigma apart, 3 red readings named purple in 20 splits;
#: docs/classifier.md). So the guard for such a pair is ``near``: the reading must lie
#: where the classifier already counts a reading as its class's tail (until issue
#: 32's fifth stop such a pair was never named). Unless the two are that close
#: without count noise too (the dice themselves that alike, or the seat: no light
#: separates them further): then ``LIGHT_SHARE`` of that separation is enough, as
#: for the light floor (``camelup.calibration.light_floor``), and the guard as it is.
LIGHT_SHARE = 0.8
#: Two dice: the fitted shares must add up to at least this many seated dice' worth
#: of light (two dice in the head each show part of their face, the upper one closer).
DOUBLE_LIGHT = 0.8
#: The mixture test (``Classifier._mixture``): a die is not named when its mixture
#: with another die of the edition (each a quarter to three quarters of the view, ``MIX_SHARES``)
#: brings the reading's chromaticity nearer by more than ``MIX_GAIN`` (sigma squared,
#: in the winner's spread with the count noise at its counts): a 3.5-sigma gain for
#: the one share the mixture fits. At a few counts per channel a die's spread is
#: mostly count noise, so a double can sit where the other rules trust the die
#: whose colour dominates; measured this way the test needs as many sigma at every
#: exposure, and a die's own reading rarely gains that much from one share (9, 3
#: sigma, cost the real EV3 sets up to 0.3 points of named and its replica 0.8;
#: docs/classifier.md).
MIX_GAIN = 12.0
MIX_SHARES = (0.25, 0.35, 0.45, 0.55, 0.65, 0.75)
#: The dimmed-die test (``Classifier._named``): a die is not named when a brighter
#: die, seen with the reading's own counts (partly in view: leaving the view, half
#: outside the sensor's field), explains the reading's chromaticity better than the
#: winner by more than ``DIM_GAIN`` (sigma squared). At a few counts per channel a
#: white die at a fifth of its light reads like a seated blue one by its brightness,
#: and its colour, at those counts, is as much white's as blue's (docs/classifier.md).
DIM_GAIN = 3.0
#: Floor added to the clear count, as a fraction of ``ref_clear``.
_CLEAR_FLOOR = 0.005


def classes_for(edition):
    """Labels a profile of ``edition`` holds: the edition's ``sensor_labels`` then ``empty``.

    Raises ``ValueError`` for an unknown edition (``classic`` or ``second``).
    """
    if edition not in EDITION_CLASSES:
        raise ValueError("unknown edition %r (classic or second)" % (edition,))
    return EDITION_CLASSES[edition] + (EMPTY,)


def features(reading, ref_clear):
    """Feature vector of one reading: ``[r/c, g/c, b/c, log(c/ref)]`` (floats).

    ``reading``: ``(c, r, g, b)`` counts >= 0, ambient-subtracted. ``ref_clear``:
    reference clear count (> 0) at the same settings.
    """
    floor = _CLEAR_FLOOR * ref_clear
    c = reading[0] + floor
    return [reading[1] / c, reading[2] / c, reading[3] / c, math.log(c / ref_clear)]


def saturation_level(settings):
    """Clear count at which a reading taken with ``settings`` counts as saturated.

    ``min(65535, 1024 * steps)``, and 75 % of that below 64 steps (153.6 ms),
    where the analog front end clips first (TCS3472 datasheet "RGBC Operation";
    ams design note DN40): ``camelup.board.tcs34725.saturation_level``, the rule the
    firmware's driver uses.
    """
    return _tcs.saturation_level(settings["integration_ms"])


# --- small linear algebra on lists (4x4), pure Python ---


def _cholesky(a):
    """Lower-triangular L with L L^T = a (a symmetric positive definite, n x n)."""
    n = len(a)
    low = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            s = a[i][j]
            for k in range(j):
                s -= low[i][k] * low[j][k]
            if i == j:
                low[i][i] = math.sqrt(s if s > 1e-18 else 1e-18)
            else:
                low[i][j] = s / low[j][j]
    return low


def _invert_lower(low):
    """Inverse of a lower-triangular matrix (also lower-triangular)."""
    n = len(low)
    inv = [[0.0] * n for _ in range(n)]
    for i in range(n):
        inv[i][i] = 1.0 / low[i][i]
        for j in range(i):
            s = 0.0
            for k in range(j, i):
                s += low[i][k] * inv[k][j]
            inv[i][j] = -s / low[i][i]
    return inv


def _sorted(items):
    out = list(items)
    out.sort()
    return out


def unpack_base(tri):
    """4x4 symmetric matrix from the 10 floats of its lower triangle, row by row
    (a profile's ``base``)."""
    m = [[0.0] * 4 for _ in range(4)]
    k = 0
    for i in range(4):
        for j in range(i + 1):
            m[i][j] = m[j][i] = float(tri[k])
            k += 1
    return m


def count_noise(counts, ref_clear, shot=SHOT, step=STEP):
    """Covariance (4x4 list) the count noise gives the features of a reading ``counts``.

    ``counts``: expected ``(c, r, g, b)`` (floats >= 0) at the settings of
    ``ref_clear``. Each channel's variance is ``shot * count + step`` counts^2
    (shot noise grows with the count; ``step`` keeps a one-count change of a dim
    channel near one sigma); the features' covariance follows from their first
    derivatives (``features()``), channels taken as independent.
    """
    c = counts[0] + _CLEAR_FLOOR * ref_clear
    var = [shot * (v if v > 0 else 0.0) + step for v in counts]
    # d feature / d channel: chroma k = x_k / c, log = log(c / ref)
    jac = [
        [-counts[1] / (c * c), 1.0 / c, 0.0, 0.0],
        [-counts[2] / (c * c), 0.0, 1.0 / c, 0.0],
        [-counts[3] / (c * c), 0.0, 0.0, 1.0 / c],
        [1.0 / c, 0.0, 0.0, 0.0],
    ]
    out = [[0.0] * 4 for _ in range(4)]
    for i in range(4):
        for j in range(i + 1):
            s = 0.0
            for k in range(4):
                s += jac[i][k] * jac[j][k] * var[k]
            out[i][j] = out[j][i] = s
    return out


def class_spread(base, n, counts, ref_clear, shot=SHOT, step=STEP):
    """A class's covariance: ``base`` (the pooled one, or the empty head's own)
    times ``1 + 1/n`` (the centroid's own error), plus ``count_noise`` at the
    class's mean ``counts``, plus ``SIGMA_FLOOR`` squared on the diagonal."""
    noise = count_noise(counts, ref_clear, shot, step)
    grow = 1.0 + 1.0 / n if n > 0 else 2.0
    out = [[0.0] * 4 for _ in range(4)]
    for i in range(4):
        for j in range(4):
            out[i][j] = (base[i][j] + noise[i][j]) * grow
        out[i][i] += SIGMA_FLOOR[i] * SIGMA_FLOOR[i]
    return out


def whitening(profile, label, ref_clear=None, shot=None, step=None):
    """Inverse Cholesky factor (4 rows, lower-triangular) of class ``label``'s
    covariance (``class_spread``) at the clear reference ``ref_clear`` (default:
    the profile's; a Classifier passes the one of its settings). Older profiles
    without ``base``: their stored ``whiten``."""
    entry = profile["classes"][label]
    if "base" not in entry:
        return entry["whiten"]
    ref = profile["ref_clear"] if ref_clear is None else ref_clear
    shot = profile.get("shot", SHOT) if shot is None else shot
    step = profile.get("step", STEP) if step is None else step
    counts = [u * ref for u in entry["unit"]]
    cov = class_spread(unpack_base(entry["base"]), entry.get("n", 12), counts, ref, shot, step)
    return _invert_lower(_cholesky(cov))


def _is_number(value):
    """True for an int or float (or a float32 scalar in the float32 tests), not a str or bool."""
    if isinstance(value, (str, bool)):
        return False
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def check_profile(profile):
    """Raise ``ValueError`` naming the problem unless ``profile`` is usable."""
    if not isinstance(profile, dict):
        raise ValueError("profile is not a dict")
    if profile.get("format") != FORMAT:
        raise ValueError("profile format %r, expected %d" % (profile.get("format"), FORMAT))
    for key in ("edition", "settings", "ref_clear", "classes", "reject", "min_margin"):
        if key not in profile:
            raise ValueError("profile lacks %r" % key)
    classes_for(profile["edition"])
    settings = profile["settings"]
    if "integration_ms" not in settings or "gain" not in settings:
        raise ValueError("profile settings lack integration_ms or gain")
    if not profile["ref_clear"] > 0:
        raise ValueError("profile ref_clear must be > 0")
    if len(profile["classes"]) < 2:
        raise ValueError("profile has fewer than two classes")
    for key in ("guard", "guard_se", "shot", "step", "tail", "near", "lead", "floor"):
        value = profile.get(key, 0.0)
        if not _is_number(value) or value < 0:
            raise ValueError("profile %s must be a number >= 0" % key)
    if 0 < profile.get("tail", 0.0) <= 2:
        raise ValueError("profile tail must be 0 (normal) or above 2 (a Student-t with a covariance)")
    value = profile.get("posterior", 0.0)
    if not _is_number(value) or not 0 <= value < 1:
        raise ValueError("profile posterior must be a number in 0..1")
    for label in profile["classes"]:
        entry = profile["classes"][label]
        for key in ("mean", "unit"):
            if key not in entry:
                raise ValueError("class %r lacks %r" % (label, key))
        if "base" not in entry and "whiten" not in entry:
            raise ValueError("class %r lacks 'base' (or an older profile's 'whiten')" % (label,))
        if len(entry["mean"]) != 4 or len(entry["unit"]) != 4 or len(entry.get("whiten", "1234")) != 4:
            raise ValueError("class %r has the wrong vector sizes" % (label,))
        if "base" in entry and len(entry["base"]) != 10:
            raise ValueError("class %r base covariance must have 10 numbers" % (label,))


# --- two dice ---


def single_die_residual(x, unit):
    """How badly one die explains a reading: ``|x - a unit| / |x|`` for the best
    ``a >= 0`` (least squares), 0..1.

    ``x``: a reading ``(c, r, g, b)`` divided by ``ref_clear`` (4 floats);
    ``unit``: a class's mean reading over ``ref_clear`` (a profile class's
    ``unit``). 1.0 when either is all zero. The two-dice test compares it with
    the pair fit's residual; ``camelup.calibration.fit`` sets the profile's
    ``double_residual`` from the single dice's own."""
    xx = uu = xu = 0.0
    for k in range(4):
        xx += x[k] * x[k]
        uu += unit[k] * unit[k]
        xu += x[k] * unit[k]
    if xx <= 0 or uu <= 0:
        return 1.0
    a = xu / uu if xu > 0 else 0.0
    res = xx - 2 * a * xu + a * a * uu
    return math.sqrt(res / xx) if res > 0 else 0.0


def _pair_fit(x, u, v):
    """Non-negative least squares x ~ a u + b v: returns (residual / |x|, a, b)."""
    uu = uv = vv = xu = xv = xx = 0.0
    for k in range(4):
        uu += u[k] * u[k]
        uv += u[k] * v[k]
        vv += v[k] * v[k]
        xu += x[k] * u[k]
        xv += x[k] * v[k]
        xx += x[k] * x[k]
    det = uu * vv - uv * uv
    if xx <= 0 or det <= 1e-12 * uu * vv:
        return (1.0, 0.0, 0.0)
    a = (xu * vv - xv * uv) / det
    b = (xv * uu - xu * uv) / det
    if a < 0 or b < 0:
        return (1.0, 0.0, 0.0)  # one of the two would be a single die
    res = xx - 2 * a * xu - 2 * b * xv + a * a * uu + 2 * a * b * uv + b * b * vv
    return (math.sqrt(res / xx) if res > 0 else 0.0, a, b)


# --- classifying ---


class Classifier:
    """Classify readings with a profile.

    ``profile``: a dict from ``camelup.calibration.fit`` (or
    ``default_profile``); checked with ``check_profile`` (``ValueError``). ``settings``: the sensor settings the
    readings will be taken with, when they differ from the profile's; brightness
    is rescaled by the exposure ratio (integration steps x nominal gain) and the
    count noise recomputed for the new counts (profiles with ``base``).

    Memory: besides the profile, one 4x4 whitening matrix and a log determinant
    per class (about 3 KB for the second edition on the board).
    """

    def __init__(self, profile, settings=None):
        check_profile(profile)
        self.profile = profile
        self.labels = _sorted(profile["classes"])
        self.reject = profile["reject"]
        self.min_margin = profile["min_margin"]
        self.posterior = profile.get("posterior", 0.0)
        self.tail = profile.get("tail", 0.0)
        self.near = profile.get("near", self.reject)
        self.lead = profile.get("lead", 0.0)
        #: sigma a named reading must keep from the runner-up (older profiles:
        #: ``GUARD``), plus ``guard_se`` x sqrt(1/n_a + 1/n_b)
        self.guard = profile.get("guard", GUARD)
        self.guard_se = profile.get("guard_se", GUARD_SE)
        classes = profile["classes"]
        inv_n = {}
        for label in self.labels:
            n = classes[label].get("n", 12)
            inv_n[label] = 1.0 / n if n > 0 else 1.0
        self._inv_n = inv_n
        self._axes = {}  # (winner, runner-up) -> the guard's test direction
        self._close = {}  # (winner, runner-up) -> True: a pair the guard's pair test holds for (``_axis``)
        self.double_residual = profile.get("double_residual", 0.0)
        #: enough light: the clear count the darkest die must give (stored by
        #: ``camelup.calibration.fit``, ``light_floor``; 0 for older profiles:
        #: nothing is called dim)
        self.floor = profile.get("floor", 0.0)
        scale = 1.0
        if settings is not None:
            scale = _tcs.exposure(settings) / _tcs.exposure(profile["settings"])
        self.ref_clear = profile["ref_clear"] * scale
        #: clear count from which a reading is rejected as saturated
        self.saturation = saturation_level(settings or profile["settings"])
        #: LED brightness factor tracked by ``observe`` (1.0 = as at calibration)
        self.drift = 1.0
        #: per class: whitening matrix (rows) and log determinant of its covariance
        self._whiten = {}
        self._logdet = {}
        shot = profile.get("shot", SHOT)
        step = profile.get("step", STEP)
        if settings is not None:  # shot noise per count grows with the gain
            shot = shot * settings["gain"] / profile["settings"]["gain"]
        self._noise = (shot, step)  # the count noise at these settings (_named)
        for label in self.labels:
            w = whitening(profile, label, self.ref_clear, shot, step)
            self._whiten[label] = w
            logdet = 0.0
            for k in range(4):
                logdet -= 2.0 * math.log(abs(w[k][k]))
            self._logdet[label] = logdet

    def _distance(self, x, label):
        """Mahalanobis distance (sigma) of feature vector ``x`` to class ``label``."""
        mean = self.profile["classes"][label]["mean"]
        w = self._whiten[label]
        d0 = x[0] - mean[0]
        d1 = x[1] - mean[1]
        d2 = x[2] - mean[2]
        d3 = x[3] - mean[3]
        z0 = w[0][0] * d0
        z1 = w[1][0] * d0 + w[1][1] * d1
        z2 = w[2][0] * d0 + w[2][1] * d1 + w[2][2] * d2
        z3 = w[3][0] * d0 + w[3][1] * d1 + w[3][2] * d2 + w[3][3] * d3
        return math.sqrt(z0 * z0 + z1 * z1 + z2 * z2 + z3 * z3)

    def _guard(self, best, second, share=1.0):
        """The guard (sigma) between classes ``best`` and ``second``: ``guard`` plus
        ``guard_se`` x sqrt(1/n_best + 1/n_second) x sqrt(``share``), ``share`` (0..1)
        being the part of the runner-up's variance along the pair's axis that is
        not count noise (what drifts together during a calibration)."""
        return self.guard + self.guard_se * math.sqrt(
            (self._inv_n[best] + self._inv_n[second]) * share)

    def _axis(self, best, second):
        """The guard's test direction for winner ``best`` and runner-up ``second``:
        ``u = v / (|v| * guard)`` with ``v`` the winner's centroid in the
        runner-up's whitened space, or ``None`` when the two centroids
        coincide. The guard's centroid term is scaled by the share of the
        runner-up's spread along ``v`` that is not count noise: count noise is
        new at every reading, so a calibration's centroids are not shifted by it
        together. For two dice less than ``near`` sigma apart at these settings,
        the smaller of the two ways, the guard is ``near`` instead (when larger):
        the reading must lie where the classifier counts a reading of the
        runner-up as its tail, unless ``LIGHT_SHARE`` of the pair's separation
        without count noise is less still (the guard's pair test,
        ``LIGHT_SHARE``; such a pair is kept in ``_close``). Computed once per
        pair that comes up (a few floats each)."""
        key = (best, second)
        if key in self._axes:
            return self._axes[key]
        classes = self.profile["classes"]
        w = self._whiten[second]
        m = classes[second]["mean"]
        a = classes[best]["mean"]
        e = [a[k] - m[k] for k in range(4)]
        v = [sum(w[i][k] * e[k] for k in range(i + 1)) for i in range(4)]
        norm = math.sqrt(sum(t * t for t in v))
        axis = None
        if norm > 0 and EMPTY not in key and "base" in classes[best] and "base" in classes[second]:
            # a pair these settings' counts make close: under ``near`` sigma the
            # smaller of the two ways, unless the dice are that close without count
            # noise too (then LIGHT_SHARE of that separation and the guard will do)
            far = min(norm, self._distance(m, best))
            if far < self.profile.get("near", NEAR):
                quiet = far / LIGHT_SHARE  # the same without count noise, at most
                for label in (second, best):
                    w = whitening(self.profile, label, self.ref_clear, 0.0, 0.0)
                    d = 0.0  # squared, in that spread without count noise
                    for i in range(4):
                        s = 0.0
                        for k in range(i + 1):
                            s += w[i][k] * e[k]
                        d += s * s
                    if d <= quiet * quiet:
                        break  # that close without count noise too: LIGHT_SHARE of it will do
                else:
                    self._close[key] = True  # the guard is ``near`` for this pair
                w = self._whiten[second]
        if norm > 0:
            # t = W^T v / |v|: the axis back in feature space; share = t^T (base) t
            t = [sum(w[i][k] * v[i] for i in range(k, 4)) / norm for k in range(4)]
            entry = classes[second]
            share = 1.0
            if "base" in entry:
                base = unpack_base(entry["base"])
                n = entry.get("n", 12)
                grow = 1.0 + 1.0 / n if n > 0 else 2.0
                share = 0.0
                for i in range(4):
                    for j in range(4):
                        share += t[i] * base[i][j] * t[j]
                share = min(1.0, max(0.0, share * grow))
            guard = self._guard(best, second, share)
            if key in self._close and guard < self.profile.get("near", NEAR):
                guard = self.profile.get("near", NEAR)
            scale = norm * guard
            axis = tuple(x / scale for x in v)
        self._axes[key] = axis
        return axis

    def _clear_of(self, x, best, second):
        """True when ``x`` lies at least the guard from class ``second`` towards
        class ``best``: in ``second``'s whitened space, the reading's offset
        from ``second``'s centroid projected on the direction of ``best``'s
        centroid. (A one-sided test under the runner-up's model: a reading of
        ``second`` rarely gets that far; classes the guard or closer apart
        never pass, nor two dice these settings' counts cannot tell apart:
        ``_axis``.)"""
        if self.guard <= 0 and self.guard_se <= 0:
            return True
        axis = self._axis(best, second)
        if axis is None:
            return False
        mean = self.profile["classes"][second]["mean"]
        w = self._whiten[second]
        d0 = x[0] - mean[0]
        d1 = x[1] - mean[1]
        d2 = x[2] - mean[2]
        d3 = x[3] - mean[3]
        dot = (axis[0] * w[0][0] * d0
               + axis[1] * (w[1][0] * d0 + w[1][1] * d1)
               + axis[2] * (w[2][0] * d0 + w[2][1] * d1 + w[2][2] * d2)
               + axis[3] * (w[3][0] * d0 + w[3][1] * d1 + w[3][2] * d2 + w[3][3] * d3))
        return dot >= 1.0

    def _rank(self, x, labels=None):
        """``(best, second, d_best, d_second, posterior of best, lead)`` for features
        ``x`` among the classes ``labels`` (default every class);
        ``lead``: the distance of the nearest other class less ``d_best`` (sigma).
        With one class in ``labels`` (a profile without the empty head, the last die)
        it is also the runner-up, at ``reject`` sigma (nothing else to tell it from).

        Ranked by likelihood, smallest score first: ``(tail + 4) log(1 + d^2 /
        (tail - 2)) + log det`` (Student-t), ``d^2 + log det`` (normal, tail 0)."""
        scores = []
        dist = {}
        nu = self.tail
        for label in labels or self.labels:
            d = self._distance(x, label)
            if nu > 0:  # Student-t: heavy tails, a far reading needs a larger lead
                score = (nu + 4.0) * math.log(1.0 + d * d / (nu - 2.0)) + self._logdet[label]
            else:
                score = d * d + self._logdet[label]
            dist[label] = d
            scores.append((score, label))
        scores.sort()
        s1, best = scores[0]
        if len(scores) == 1:  # one class can be there: nothing to tell it from but ``reject``
            far = max(self.reject, dist[best])
            return (best, best, dist[best], far, 1.0, far - dist[best])
        s2, second = scores[1]
        total = 0.0
        for s, _label in scores:
            gap = (s - s1) * 0.5
            if gap < 60.0:  # exp(-60) adds nothing, even in float32
                total += math.exp(-gap)
        lead = None  # how much nearer the reading is to ``best`` than to every other class
        for label in dist:
            if label != best and (lead is None or dist[label] - dist[best] < lead):
                lead = dist[label] - dist[best]
        return (best, second, dist[best], dist[second], 1.0 / total, lead)

    def among(self, labels):
        """The classes a reading is judged among when only the dice ``labels`` can be in
        the head (a sequence of the profile's die labels, e.g. the dice still in the
        pyramid this leg, RULES 1.4; the grey die is both its labels): those, and
        ``empty``, in the classifier's order, as a tuple for ``classify_detail``'s
        ``among`` (a label the profile does not hold is left out)."""
        return tuple([lab for lab in self.labels if lab == EMPTY or lab in labels])

    def classify(self, reading, among=None):
        """``(label, margin)`` for one ``(c, r, g, b)`` reading (``among``: as for
        ``classify_detail``).

        ``label``: a class of the profile, ``unknown`` (also for a clear count at
        or over ``saturation``) or ``double``. ``margin``:
        how much further (sigma) the second likeliest class is than the likeliest
        (>= 0 when named; large = confident); for ``double``, the pair fit's
        residual headroom (``double_residual - residual`` over
        ``double_residual``, 0..1).
        """
        label, margin, _detail = self.classify_detail(reading, among)
        return (label, margin)

    def classify_detail(self, reading, among=None):
        """``(label, margin, detail)``: ``detail`` has ``best``, ``second`` (label,
        sigma) pairs, ``posterior`` (of ``best``, 0..1), ``reason`` (``ok``,
        ``far``, ``between``, ``guard``, ``mixture``, ``dimmed``, ``double``,
        ``saturated``), for ``dimmed`` also ``dimmed`` (the brighter die whose
        colour the reading has), and, for ``double``, ``pair`` (the two labels)
        and ``rejected`` (why no single die was named: ``far``, ``between``,
        ``guard`` or ``mixture``). Same decision as ``classify``.

        ``among``: the classes that can be in the head (``among()``: the dice still
        in the pyramid this leg, and ``empty``), or ``None`` for every class of the
        profile. The reading is judged as if the others did not exist (Bayes with a
        prior of zero for a die that cannot come out, equal priors among the rest):
        the ranking, posterior and margin, the guard and its pair test, the tail
        rule's lead, the mixture and dimmed-die tests' other dice and the two-dice
        test's pairs are all among ``among``, the rules themselves unchanged (a
        perfect reading of a die already out is ``far`` from every die that can be
        there: never named)."""
        x = features(reading, self.ref_clear * self.drift)
        best, second, d1, d2, post, lead = self._rank(x, among)
        margin = d2 - d1
        detail = {"best": (best, d1), "second": (second, d2), "posterior": post, "reason": "ok"}
        labels = among or self.labels
        if reading[0] >= self.saturation:
            detail["reason"] = "saturated"
            return (UNKNOWN, 0.0, detail)
        pair = None
        if d1 > self.reject:
            detail["reason"] = "far"
        elif margin < self.min_margin or post < self.posterior:
            detail["reason"] = "between"
        elif second != best and not self._clear_of(x, best, second):
            detail["reason"] = "guard"
        elif d1 > self.near and lead < self.lead:
            # a tail reading without a clear lead: named unless a mixture of two
            # dice explains it (a die half in view of another, a die mid-fall)
            pair = self._two_dice(reading, labels)
            if pair is None and post >= TAIL_POSTERIOR:
                return self._named(x, reading, best, margin, detail, labels)
            detail["reason"] = "far"
        else:
            mixed = self._mixture(x, best, labels)
            if mixed is None:
                return self._named(x, reading, best, margin, detail, labels)
            return self._mixed(reading, mixed, margin, detail)
        if pair is None:
            pair = self._two_dice(reading, labels)
        if pair is not None:
            detail["rejected"] = detail["reason"]  # why no single die was named
            detail["reason"] = DOUBLE
            detail["pair"] = pair[1]
            return (DOUBLE, pair[0], detail)
        return (UNKNOWN, margin, detail)

    def classify_in_play(self, reading, among=None):
        """The pyramid's rule at a table (docs/classifier.md, "In play"): ``(label,
        margin, detail)`` of the single-reading judgement (``classify_detail``, every
        die alike), unless it refuses the reading as ``unknown`` (not saturated) and the
        judgement among ``among`` (``among()``: the dice still in the pyramid this leg)
        names a die: then that die, its margin and detail, with ``detail["prior"]``
        True (the dice already out decided it). A die the single reading names is
        named as it is, out or not (the table refuses a die already out, saying so);
        ``double``, ``empty`` and ``saturated`` keep their meaning; ``among`` ``None``
        is ``classify_detail``."""
        label, margin, detail = self.classify_detail(reading)
        if among is None or label != UNKNOWN or detail["reason"] == "saturated":
            return (label, margin, detail)
        named, m, prior = self.classify_detail(reading, among)
        if named in (UNKNOWN, DOUBLE, EMPTY):
            return (label, margin, detail)
        prior["prior"] = True
        return (named, m, prior)

    def _mixture(self, x, best, labels):
        """The mixture test: ``None``, or ``(gain, other)`` when a mixture of die
        ``best`` with die ``other`` explains the chromaticity of features ``x``
        better than ``best`` alone by more than ``MIX_GAIN`` (sigma squared).

        Both are measured in ``best``'s spread (its centroid error, base spread and
        the count noise at its counts: ``class_spread``), on the chromaticity only
        (the first three whitened coordinates: the marginal of a lower-triangular
        whitening), so the test asks for as many sigma at 2 counts a channel as at
        2,000. The mixture of ``t`` x ``best``'s mean reading and ``1 - t`` x
        ``other``'s (``unit``, ``t`` in ``MIX_SHARES``) moves ``best``'s centroid
        by the chromaticity change it makes. ``best`` may be the empty head (a
        die partly in view of it is no "no die"); ``other`` is always a die.
        Older profiles (no ``unit``) are never tested. ``labels``: the classes the
        reading is judged among (``other`` is one of them)."""
        classes = self.profile["classes"]
        u = classes[best].get("unit")
        if u is None or u[0] <= 0:
            return None
        alone = self._chroma(x, best)
        if alone <= MIX_GAIN:
            return None  # nothing to gain: the reading sits near the die's centroid
        w = self._whiten[best]
        m = classes[best]["mean"]
        d0 = x[0] - m[0]
        d1 = x[1] - m[1]
        d2 = x[2] - m[2]
        k1 = u[1] / u[0]
        k2 = u[2] / u[0]
        k3 = u[3] / u[0]
        found = None
        for other in labels:
            if other == best or other == EMPTY:
                continue
            v = classes[other].get("unit")
            if v is None:
                continue
            for t in MIX_SHARES:
                c = t * u[0] + (1.0 - t) * v[0]
                if c <= 0:
                    continue
                e0 = d0 - (t * u[1] + (1.0 - t) * v[1]) / c + k1
                e1 = d1 - (t * u[2] + (1.0 - t) * v[2]) / c + k2
                e2 = d2 - (t * u[3] + (1.0 - t) * v[3]) / c + k3
                y0 = w[0][0] * e0
                y1 = w[1][0] * e0 + w[1][1] * e1
                y2 = w[2][0] * e0 + w[2][1] * e1 + w[2][2] * e2
                gain = alone - (y0 * y0 + y1 * y1 + y2 * y2)
                if gain > MIX_GAIN and (found is None or gain > found[0]):
                    found = (gain, other)
        return found

    def _named(self, x, reading, best, margin, detail, labels):
        """``(best, margin, detail)``, unless the dimmed-die test refuses die ``best``
        for features ``x`` of ``reading`` (``(c, r, g, b)`` counts): then ``unknown``,
        ``reason`` ``dimmed`` and ``detail["dimmed"]`` the brighter die.

        The test: a die brighter than the reading (its mean log brightness above
        the reading's), seen partly (leaving the view, half outside it), explains
        the reading's chromaticity better than ``best`` by more than ``DIM_GAIN``
        (sigma squared). Both on the chromaticity only (the brightness is what a
        die partly in view loses), each in its die's spread (``class_spread``)
        with the count noise of the reading's own counts at the die's
        chromaticity: the counts the reading has are what its noise is made of,
        whichever die it is. Never for the empty head, nor for older profiles (no
        ``base``). Only a die whose bound on the gain (from the distances at the
        classes' own counts, ``_chroma``: a spread at k times fewer counts is at most
        k^2 times as wide) exceeds ``DIM_GAIN`` is measured exactly, so most
        readings cost a few multiplications per brighter die. ``labels``: the classes
        the reading is judged among (the brighter dice tried are among them)."""
        classes = self.profile["classes"]
        entry = classes[best]
        if best == EMPTY or "base" not in entry or reading[0] <= 0:
            return (best, margin, detail)
        ref = self.ref_clear * self.drift
        cc = reading[0] + _CLEAR_FLOOR * ref  # the features' clear count
        # bounds first (no factorisation): with k times fewer counts a spread is at
        # most k^2 times as wide, so a die's distance at the reading's counts is at
        # least its distance at its own over k^2, and best's at most its own times
        # k^2 when the reading is k times brighter than best (10 % slack: drift)
        k = cc / (entry["unit"][0] * ref + _CLEAR_FLOOR * ref)
        bound = self._chroma(x, best) * 1.1 * (k * k if k > 1 else 1.0)
        if bound <= DIM_GAIN:
            return (best, margin, detail)  # nothing brighter can gain that much
        alone = None
        top = DIM_GAIN
        for other in labels:
            entry = classes[other]
            mo = entry["mean"]
            if other == best or other == EMPTY or mo[3] <= x[3] or "base" not in entry:
                continue  # not brighter than the reading: it would not be dimmed
            k = (entry["unit"][0] * ref + _CLEAR_FLOOR * ref) / cc
            if bound - self._chroma(x, other) / (k * k * 1.1) <= top:
                continue  # it cannot gain more
            for label in (best, other) if alone is None else (other,):
                entry = classes[label]
                mo = entry["mean"]
                cov = class_spread(unpack_base(entry["base"]), entry.get("n", 12),
                                   (reading[0], mo[0] * cc, mo[1] * cc, mo[2] * cc), ref,
                                   self._noise[0], self._noise[1])
                low = _cholesky([cov[0][:3], cov[1][:3], cov[2][:3]])
                # forward substitution, y = L^-1 (x - mean): the chromaticity only
                y0 = (x[0] - mo[0]) / low[0][0]
                y1 = (x[1] - mo[1] - low[1][0] * y0) / low[1][1]
                y2 = (x[2] - mo[2] - low[2][0] * y0 - low[2][1] * y1) / low[2][2]
                d = y0 * y0 + y1 * y1 + y2 * y2
                if alone is None:
                    alone = d
            if alone - d > top:
                top = alone - d
                detail["dimmed"] = other
        if top > DIM_GAIN:
            detail["reason"] = "dimmed"
            return (UNKNOWN, margin, detail)
        return (best, margin, detail)

    def _chroma(self, x, label):
        """Squared distance (sigma^2) of the chromaticity of features ``x`` from class
        ``label``'s, in its spread at the settings' counts (the first three
        coordinates of its lower-triangular whitening: the chromaticity's marginal)."""
        m = self.profile["classes"][label]["mean"]
        w = self._whiten[label]
        d0 = x[0] - m[0]
        d1 = x[1] - m[1]
        z1 = w[1][0] * d0 + w[1][1] * d1
        z2 = w[2][0] * d0 + w[2][1] * d1 + w[2][2] * (x[2] - m[2])
        return w[0][0] * d0 * w[0][0] * d0 + z1 * z1 + z2 * z2

    def _mixed(self, reading, mixed, margin, detail):
        """The answer for a reading the mixture test took from class ``detail["best"]``:
        ``double`` (margin: ``1 - MIX_GAIN / gain``, 0..1) when the two dice give at
        least ``DOUBLE_LIGHT`` of a seated die's light, else ``unknown`` (a dim
        reading is never two dice, nor is the empty head with a die);
        ``detail["rejected"]`` / ``reason`` say ``mixture``."""
        best = detail["best"][0]
        gain, other = mixed
        classes = self.profile["classes"]
        ref = self.ref_clear * self.drift
        x = [v / ref for v in reading]
        _res, a, b = _pair_fit(x, classes[best]["unit"], classes[other]["unit"])
        if best == EMPTY or a + b < DOUBLE_LIGHT:
            detail["reason"] = "mixture"
            return (UNKNOWN, margin, detail)
        detail["rejected"] = "mixture"
        detail["reason"] = DOUBLE
        detail["pair"] = (best, other) if best < other else (other, best)
        return (DOUBLE, 1.0 - MIX_GAIN / gain, detail)

    def _two_dice(self, reading, labels):
        limit = self.double_residual
        if not limit or reading[0] <= 0:
            return None
        ref = self.ref_clear * self.drift
        x = [v / ref for v in reading]
        classes = self.profile["classes"]
        dice = [label for label in labels if label != EMPTY]
        single = 1.0
        for label in dice:
            r = single_die_residual(x, classes[label]["unit"])
            if r < single:
                single = r
        best = None
        for i in range(len(dice)):
            for j in range(i + 1, len(dice)):
                u = classes[dice[i]]["unit"]
                v = classes[dice[j]]["unit"]
                res, a, b = _pair_fit(x, u, v)
                if res >= limit or a + b < DOUBLE_LIGHT:
                    continue  # a poor fit, or too little light for two dice
                share = a / (a + b)
                if 0.15 <= share <= 0.85 and (best is None or res < best[0]):
                    best = (res, (dice[i], dice[j]))
        # the pair must explain the reading much better than any one die does
        if best is None or best[0] > 0.35 * single:
            return None
        return ((limit - best[0]) / limit, best[1])

    def observe(self, label, reading, weight=0.05):
        """Track LED drift from a reading confidently classified as a die.

        Moves ``drift`` a step ``weight`` towards the reading's brightness over
        its class's mean brightness (clamped to 0.8 .. 1.25). Ignores
        ``empty``, ``unknown`` and ``double``.
        """
        entry = self.profile["classes"].get(label)
        if entry is None or label == EMPTY or reading[0] <= 0:
            return
        expected = self.ref_clear * math.exp(entry["mean"][3])
        ratio = reading[0] / expected
        drift = self.drift + weight * (ratio - self.drift)
        self.drift = min(1.25, max(0.8, drift))


# --- default profiles ---


def default_profile(edition):
    """A fresh copy of the built-in profile of ``edition`` (``classic`` or ``second``),
    from ``camelup.board.default_profiles`` (imported on first use: 5 KB of text a
    calibrated pyramid never loads).

    Raises ``ValueError`` for an unknown edition.
    """
    import json

    import camelup.board.default_profiles as defaults  # imported on first use: a calibrated board never needs it

    classes_for(edition)
    return json.loads(defaults.PROFILES[edition])
