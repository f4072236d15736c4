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

Model: one centroid per class with its own spread: a 4x4 covariance whose
brightness variance is pulled towards the one pooled over every die (``POOL``
readings' worth: 12 readings pin a variance only to about +/-40 %), shrunk
towards its diagonal (``SHRINK``) plus a floor per feature, stored as the
inverse of its Cholesky factor. The distance of a reading to a class is the
Mahalanobis distance in units of that class's spread (sigma).

Decision (``Classifier.classify``): the nearest class wins unless

- it is further than ``reject`` sigma (default 5): nothing calibrated looks like
  this, or
- the second nearest is less than ``min_margin`` sigma (default 1) further: the
  reading sits between two classes, or
- the reading is less than the guard (3.9 sigma for 12 + 12 calibration
  readings, less for more: ``GUARD``) from the second nearest class, measured
  in that class's spread along the line from its centroid to the nearest
  one: a reading of the runner-up could well land there. This bites only for
  close pairs (the grey die's two inks): a wrong colour moves the wrong
  camel (RULES 3.5(c)), an ``unknown`` only makes the table ask;

then the answer is ``unknown``. A rejected reading that two dice of the edition
mixed together explain well (a non-negative least-squares fit of the two
class mean readings, residual under the profile's ``double_residual``) is
``double``.

Labels: die colours (``blue green orange yellow white`` for ``classic``;
``blue green yellow red purple grey-black grey-white`` for ``second``; the grey
die split by its numeral ink), ``empty`` (no die), ``unknown``, ``double``.

Profiles are JSON-able dicts (see ``fit``) recording the sensor settings they
were made with. Runs unchanged on MicroPython: no typing, dataclasses, enum,
functools or itertools; no reliance on dict order (classes are visited in
sorted order).
"""

import math

#: Die labels of each edition, in a fixed order.
EDITION_CLASSES = {
    "classic": ("blue", "green", "orange", "yellow", "white"),
    "second": ("blue", "green", "yellow", "red", "purple", "grey-black", "grey-white"),
}
EMPTY = "empty"
UNKNOWN = "unknown"
DOUBLE = "double"
#: Names of the feature vector's components.
FEATURES = ("r/c", "g/c", "b/c", "log(c/ref)")
#: Profile format version (``guard`` and ``guard_se`` are optional keys of
#: format 1: profiles saved without them get ``GUARD`` and ``GUARD_SE``).
FORMAT = 1

#: Shrinkage of each class covariance towards its diagonal (0 = full, 1 = diagonal).
SHRINK = 0.3
#: Smallest spread (sigma) per feature: chromaticity, chromaticity, chromaticity, log.
SIGMA_FLOOR = (0.004, 0.004, 0.004, 0.03)
#: Default rejection distance (sigma) and ambiguity margin (sigma).
REJECT = 5.0
MIN_MARGIN = 1.0
#: Guard (sigma): a die is named only when the reading is at least
#: ``GUARD + GUARD_SE * sqrt(1/n_a + 1/n_b)`` sigma from the runner-up class
#: towards the winner, in the runner-up's spread (``n``: the two classes'
#: calibration readings). The second term is for the centroids' own error:
#: readings taken one after another share the LED's drift, so a 12-reading
#: centroid can sit a sigma off. 12 + 12 readings: 3.93 sigma (a normal
#: runner-up gets that far 0.004 % of the time); 24 + 24: 3.51; 40 + 40: 3.28.
GUARD = 2.5
GUARD_SE = 3.5
#: Weight (in readings) of the variance pooled over all dice when a class's own
#: brightness variance is estimated (the seating and the LED spread every die alike).
POOL = 12
#: Features whose variance is pooled: the log brightness only (the seating's
#: spread). Chromaticity noise is shot noise, larger for dim dice than for bright
#: ones, so each die keeps its own.
POOLED = (3,)
#: A pair of classes closer than this (sigma) is reported as too close.
TOO_CLOSE = 6.0
#: Floor added to the clear count, as a fraction of ``ref_clear``.
_CLEAR_FLOOR = 0.005


def classes_for(edition):
    """Labels a profile of ``edition`` holds: the edition's dice then ``empty``.

    Raises ``ValueError`` for an unknown edition (``classic`` or ``second``).
    """
    if edition not in EDITION_CLASSES:
        raise ValueError("unknown edition %r (classic or second)" % (edition,))
    return EDITION_CLASSES[edition] + (EMPTY,)


def die_label(colour, ink=None):
    """Classifier label of a die: ``die_label("grey", "black") == "grey-black"``."""
    return colour + "-" + ink if colour == "grey" and ink else colour


def split_label(label):
    """``(colour, ink)`` of a label: ``"grey-white" -> ("grey", "white")``, ``"red" -> ("red", None)``."""
    if label.startswith("grey-"):
        return ("grey", label[5:])
    return (label, None)


def features(reading, ref_clear):
    """Feature vector of one reading: ``[r/c, g/c, b/c, log(c/ref)]`` (floats).

    ``reading``: ``(c, r, g, b)`` counts >= 0, ambient-subtracted. ``ref_clear``:
    reference clear count (> 0) at the same settings.
    """
    floor = _CLEAR_FLOOR * ref_clear
    c = reading[0] + floor
    return [reading[1] / c, reading[2] / c, reading[3] / c, math.log(c / ref_clear)]


def exposure(settings):
    """Relative exposure of sensor settings: integration steps x nominal gain."""
    steps = int((settings["integration_ms"] * 10 + 12) // 24)
    return steps * settings["gain"]


def saturation_level(settings):
    """Clear count at which a reading taken with ``settings`` counts as saturated.

    ``min(65535, 1024 * steps)``, and 75 % of that below 64 steps (153.6 ms),
    where the analog front end clips first (TCS3472 datasheet "RGBC Operation";
    ams design note DN40); the same rule as ``pyramid.tcs34725``.
    """
    steps = int((settings["integration_ms"] * 10 + 12) // 24)
    full = min(65535, 1024 * steps)
    return full - full // 4 if steps < 64 else full


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


def _whitened_norm(whiten, diff):
    """|W diff| for a lower-triangular W given as rows."""
    total = 0.0
    for i in range(len(diff)):
        row = whiten[i]
        s = 0.0
        for k in range(i + 1):
            s += row[k] * diff[k]
        total += s * s
    return math.sqrt(total)


def _round(x):
    """Round a float to 6 significant digits (profiles stay small and stable)."""
    if x == 0:
        return 0.0
    digits = 5 - int(math.floor(math.log(abs(x)) / math.log(10)))
    return round(x, digits)


def _sorted(items):
    out = list(items)
    out.sort()
    return out


# --- fitting ---


def fit(samples_by_label, edition, settings, shrink=SHRINK, reject=REJECT, min_margin=MIN_MARGIN,
        guard=GUARD, guard_se=GUARD_SE, pool=POOL):
    """Fit a profile from calibration readings.

    ``samples_by_label``: ``{label: [(c, r, g, b), ...]}`` ambient-subtracted
    counts; labels from ``classes_for(edition)``; at least 3 readings per label
    (12 or more advised: every face, several seatings). ``edition``:
    ``"classic"`` or ``"second"``. ``settings``: ``{"integration_ms": float,
    "gain": int}`` the readings were taken with.

    Returns the profile, a JSON-able dict::

        {"format": 1, "edition": str, "settings": {...}, "ref_clear": float,
         "reject": float, "min_margin": float, "guard": float, "guard_se": float,
         "double_residual": float,
         "features": [...], "classes": {label: {"n": int, "mean": [4 floats],
         "sd": [4 floats], "whiten": [[4 floats] x 4], "unit": [4 floats]}}}

    ``unit`` is the class's mean reading divided by ``ref_clear`` (for the
    two-dice test). Each die's brightness variance (``POOLED`` features) is
    pulled towards the one pooled over all dice with the weight of ``pool``
    readings (0 = own only): ``(dof * own + pool * pooled) / (dof + pool)``,
    correlations kept; the empty head keeps its own. Raises ``ValueError`` for an unknown edition or label, a
    label with fewer than 3 readings, or fewer than two labels.
    """
    allowed = classes_for(edition)
    labels = _sorted(samples_by_label)
    if len(labels) < 2:
        raise ValueError("need readings of at least two classes, got %d" % len(labels))
    for label in labels:
        if label not in allowed:
            raise ValueError("%r is not a class of the %s edition" % (label, edition))
        if len(samples_by_label[label]) < 3:
            raise ValueError("need at least 3 readings of %r" % (label,))
    # brightness reference: the brightest die's median clear count
    ref = 0.0
    for label in labels:
        if label == EMPTY:
            continue
        clears = _sorted(s[0] for s in samples_by_label[label])
        ref = max(ref, float(clears[len(clears) // 2]))
    if ref <= 0:
        ref = 1.0
    moments = {}
    pooled = [0.0] * 4
    pooled_dof = 0
    for label in labels:
        rows = [features(s, ref) for s in samples_by_label[label]]
        n = len(rows)
        mean = [sum(r[k] for r in rows) / n for k in range(4)]
        cov = [[0.0] * 4 for _ in range(4)]
        for r in rows:
            d = [r[k] - mean[k] for k in range(4)]
            for i in range(4):
                for j in range(i + 1):
                    cov[i][j] += d[i] * d[j] / (n - 1)
        moments[label] = (n, mean, cov)
        if label != EMPTY:
            for k in range(4):
                pooled[k] += cov[k][k] * (n - 1)
            pooled_dof += n - 1
    classes = {}
    for label in labels:
        readings = samples_by_label[label]
        n, mean, cov = moments[label]
        if label != EMPTY and pool > 0 and pooled_dof:
            # pull the variances towards the pooled ones; keep the correlations
            scale = [1.0] * 4
            for k in POOLED:
                own = cov[k][k]
                new = ((n - 1) * own + pool * pooled[k] / pooled_dof) / (n - 1 + pool)
                scale[k] = math.sqrt(new / own) if own > 0 else 1.0
                if own <= 0:
                    cov[k][k] = new
            for i in range(4):
                for j in range(i + 1):
                    cov[i][j] *= scale[i] * scale[j]
        for i in range(4):
            for j in range(i):
                cov[i][j] *= 1.0 - shrink
                cov[j][i] = cov[i][j]
            cov[i][i] += SIGMA_FLOOR[i] ** 2
        whiten = _invert_lower(_cholesky(cov))
        unit = [sum(s[k] for s in readings) / n / ref for k in range(4)]
        classes[label] = {
            "n": n,
            "mean": [_round(v) for v in mean],
            "sd": [_round(math.sqrt(cov[k][k])) for k in range(4)],
            "whiten": [[_round(v) for v in row] for row in whiten],
            "unit": [_round(v) for v in unit],
        }
    profile = {
        "format": FORMAT,
        "edition": edition,
        "settings": {"integration_ms": float(settings["integration_ms"]), "gain": int(settings["gain"])},
        "ref_clear": _round(ref),
        "reject": float(reject),
        "min_margin": float(min_margin),
        "guard": float(guard),
        "guard_se": float(guard_se),
        "double_residual": 0.0,
        "features": list(FEATURES),
        "classes": classes,
    }
    # the two-dice residual threshold: well above what single dice leave behind
    residuals = []
    for label in labels:
        if label == EMPTY:
            continue
        for s in samples_by_label[label]:
            x = [v / ref for v in s]
            residuals.append(_single_residual(x, classes[label]["unit"]))
    residuals.sort()
    if residuals:
        profile["double_residual"] = _round(2.0 * residuals[(len(residuals) * 95) // 100])
    return profile


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
    for key in ("guard", "guard_se"):
        value = profile.get(key, 0.0)
        if not isinstance(value, (int, float)) or value < 0:
            raise ValueError("profile %s must be a number >= 0" % key)
    for label in profile["classes"]:
        entry = profile["classes"][label]
        for key in ("mean", "whiten", "unit"):
            if key not in entry:
                raise ValueError("class %r lacks %r" % (label, key))
        if len(entry["mean"]) != 4 or len(entry["whiten"]) != 4 or len(entry["unit"]) != 4:
            raise ValueError("class %r has the wrong vector sizes" % (label,))


# --- two dice ---


def _single_residual(x, u):
    """Relative residual of x fitted as a * u (a >= 0): |x - a u| / |x|."""
    xx = uu = xu = 0.0
    for k in range(4):
        xx += x[k] * x[k]
        uu += u[k] * u[k]
        xu += x[k] * u[k]
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
    if xx <= 0 or det <= 1e-18:
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

    ``profile``: a dict from ``fit`` (or ``default_profile``); checked with
    ``check_profile`` (``ValueError``). ``settings``: the sensor settings the
    readings will be taken with, when they differ from the profile's; brightness
    is rescaled by the exposure ratio (integration steps x nominal gain).
    """

    def __init__(self, profile, settings=None):
        check_profile(profile)
        self.profile = profile
        self.labels = _sorted(profile["classes"])
        self.reject = profile["reject"]
        self.min_margin = profile["min_margin"]
        #: sigma a named reading must keep from the runner-up (older profiles:
        #: ``GUARD``), plus ``guard_se`` x sqrt(1/n_a + 1/n_b)
        self.guard = profile.get("guard", GUARD)
        self.guard_se = profile.get("guard_se", GUARD_SE)
        inv_n = {}
        for label in self.labels:
            n = profile["classes"][label].get("n", 12)
            inv_n[label] = 1.0 / n if n > 0 else 1.0
        self._inv_n = inv_n
        self._axes = {}  # (winner, runner-up) -> the guard's test direction
        self.double_residual = profile.get("double_residual", 0.0)
        scale = 1.0
        if settings is not None:
            scale = exposure(settings) / exposure(profile["settings"])
        self.ref_clear = profile["ref_clear"] * scale
        #: clear count from which a reading is rejected as saturated
        self.saturation = saturation_level(settings or profile["settings"])
        #: LED brightness factor tracked by ``observe`` (1.0 = as at calibration)
        self.drift = 1.0

    def _distance(self, x, entry):
        """Mahalanobis distance (sigma) of feature vector ``x`` to one class."""
        mean = entry["mean"]
        w = entry["whiten"]
        d0 = x[0] - mean[0]
        d1 = x[1] - mean[1]
        d2 = x[2] - mean[2]
        d3 = x[3] - mean[3]
        z0 = w[0][0] * d0
        z1 = w[1][0] * d0 + w[1][1] * d1
        z2 = w[2][0] * d0 + w[2][1] * d1 + w[2][2] * d2
        z3 = w[3][0] * d0 + w[3][1] * d1 + w[3][2] * d2 + w[3][3] * d3
        return math.sqrt(z0 * z0 + z1 * z1 + z2 * z2 + z3 * z3)

    def _guard(self, best, second):
        """The guard (sigma) between classes ``best`` and ``second``."""
        return self.guard + self.guard_se * math.sqrt(self._inv_n[best] + self._inv_n[second])

    def _axis(self, best, second):
        """The guard's test direction for winner ``best`` and runner-up ``second``:
        ``u = v / (|v| * guard)`` with ``v`` the winner's centroid in the
        runner-up's whitened space, or ``None`` when the two centroids
        coincide. Computed once per pair that comes up (a few floats each)."""
        key = (best, second)
        if key in self._axes:
            return self._axes[key]
        classes = self.profile["classes"]
        w = classes[second]["whiten"]
        m = classes[second]["mean"]
        a = classes[best]["mean"]
        e = [a[k] - m[k] for k in range(4)]
        v = [sum(w[i][k] * e[k] for k in range(i + 1)) for i in range(4)]
        norm = math.sqrt(sum(t * t for t in v)) * self._guard(best, second)
        axis = tuple(t / norm for t in v) if norm > 0 else None
        self._axes[key] = axis
        return axis

    def _clear_of(self, x, best, second):
        """True when ``x`` lies at least the guard from class ``second`` towards
        class ``best``: in ``second``'s whitened space, the reading's offset
        from ``second``'s centroid projected on the direction of ``best``'s
        centroid. (A one-sided test under the runner-up's model: a reading of
        ``second`` rarely gets that far; classes the guard or closer apart
        never pass.)"""
        if self.guard <= 0 and self.guard_se <= 0:
            return True
        axis = self._axis(best, second)
        if axis is None:
            return False
        entry = self.profile["classes"][second]
        mean = entry["mean"]
        w = entry["whiten"]
        d0 = x[0] - mean[0]
        d1 = x[1] - mean[1]
        d2 = x[2] - mean[2]
        d3 = x[3] - mean[3]
        dot = (axis[0] * w[0][0] * d0
               + axis[1] * (w[1][0] * d0 + w[1][1] * d1)
               + axis[2] * (w[2][0] * d0 + w[2][1] * d1 + w[2][2] * d2)
               + axis[3] * (w[3][0] * d0 + w[3][1] * d1 + w[3][2] * d2 + w[3][3] * d3))
        return dot >= 1.0

    def distances(self, reading):
        """``[(distance_sigma, label), ...]`` sorted nearest first, for every class."""
        x = features(reading, self.ref_clear * self.drift)
        classes = self.profile["classes"]
        out = [(self._distance(x, classes[label]), label) for label in self.labels]
        out.sort()
        return out

    def classify(self, reading):
        """``(label, margin)`` for one ``(c, r, g, b)`` reading.

        ``label``: a class of the profile, ``unknown`` (also for a clear count at
        or over ``saturation``) or ``double``. ``margin``:
        how much further (sigma) the second nearest class is than the nearest;
        large = confident; for ``double``, the pair fit's residual headroom
        (``double_residual - residual`` over ``double_residual``, 0..1).
        """
        if reading[0] >= self.saturation:
            return (UNKNOWN, 0.0)  # clipped counts: the hue cannot be trusted
        x = features(reading, self.ref_clear * self.drift)
        classes = self.profile["classes"]
        d1 = d2 = 1e30
        best = second = None
        for label in self.labels:
            d = self._distance(x, classes[label])
            if d < d1:
                d2 = d1
                second = best
                d1 = d
                best = label
            elif d < d2:
                d2 = d
                second = label
        margin = d2 - d1
        if (d1 <= self.reject and margin >= self.min_margin
                and self._clear_of(x, best, second)):
            return (best, margin)
        pair = self._two_dice(reading)
        if pair is not None:
            return (DOUBLE, pair[0])
        return (UNKNOWN, margin)

    def classify_detail(self, reading):
        """``(label, margin, detail)``: ``detail`` has ``best``, ``second`` (label,
        sigma) pairs, ``reason`` (``ok``, ``far``, ``between``, ``guard``,
        ``double``, ``saturated``) and, for ``double``, ``pair`` (the two
        labels). ``guard``: within ``guard`` sigma of the runner-up. Same
        decision as ``classify``."""
        ranked = self.distances(reading)
        d1, best = ranked[0]
        d2, second = ranked[1]
        margin = d2 - d1
        detail = {"best": (best, d1), "second": (second, d2), "reason": "ok"}
        if reading[0] >= self.saturation:
            detail["reason"] = "saturated"
            return (UNKNOWN, 0.0, detail)
        x = features(reading, self.ref_clear * self.drift)
        clear = self._clear_of(x, best, second)
        if d1 <= self.reject and margin >= self.min_margin and clear:
            return (best, margin, detail)
        if d1 > self.reject:
            detail["reason"] = "far"
        elif margin < self.min_margin:
            detail["reason"] = "between"
        else:
            detail["reason"] = "guard"
        pair = self._two_dice(reading)
        if pair is not None:
            detail["reason"] = DOUBLE
            detail["pair"] = pair[1]
            return (DOUBLE, pair[0], detail)
        return (UNKNOWN, margin, detail)

    def _two_dice(self, reading):
        limit = self.double_residual
        if not limit or reading[0] <= 0:
            return None
        ref = self.ref_clear * self.drift
        x = [v / ref for v in reading]
        classes = self.profile["classes"]
        dice = [label for label in self.labels if label != EMPTY]
        single = 1.0
        for label in dice:
            r = _single_residual(x, classes[label]["unit"])
            if r < single:
                single = r
        best = None
        for i in range(len(dice)):
            for j in range(i + 1, len(dice)):
                res, a, b = _pair_fit(x, classes[dice[i]]["unit"], classes[dice[j]]["unit"])
                share = a / (a + b) if a + b > 0 else 0.0
                if res < limit and 0.15 <= share <= 0.85 and (best is None or res < best[0]):
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


# --- reports ---


def separation(profile, too_close=TOO_CLOSE):
    """How well each pair of classes separates, worst first.

    Returns ``[{"a": label, "b": label, "sigma": float, "too_close": bool}]``:
    ``sigma`` is the distance of each class's centroid from the other class,
    in the other class's spread, the smaller of the two ways (Mahalanobis).
    Readings of a pair under ``too_close`` (default 6) sigma apart will often be
    ``unknown`` or confused.
    """
    classes = profile["classes"]
    labels = _sorted(classes)
    pairs = []
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            a = classes[labels[i]]
            b = classes[labels[j]]
            ab = [b["mean"][k] - a["mean"][k] for k in range(4)]
            ba = [-v for v in ab]
            sigma = min(_whitened_norm(a["whiten"], ab), _whitened_norm(b["whiten"], ba))
            pairs.append((sigma, labels[i], labels[j]))
    pairs.sort()
    return [
        {"a": a, "b": b, "sigma": _round(s), "too_close": s < too_close} for s, a, b in pairs
    ]


def advice(pairs):
    """One plain line of advice from ``separation()``'s list, for a calibration report.

    Names the pairs that are too close and what to do about them, or says the
    classes separate well (with the closest pair and its distance in sigma).
    """
    if not pairs:
        return "no classes to compare: calibrate at least two"
    close = [p for p in pairs if p["too_close"]]
    if not close:
        worst = pairs[0]
        return "all classes separate well (closest: %s and %s, %.1f sigma)" % (
            worst["a"], worst["b"], worst["sigma"])
    names = ", ".join("%s/%s (%.1f sigma)" % (p["a"], p["b"], p["sigma"]) for p in close)
    hint = "more readings of those dice, a steadier seat in the head, less light at the slider"
    for p in close:
        if p["a"].startswith("grey-") and p["b"].startswith("grey-"):
            hint = "the grey die's inks differ only in brightness: seat the die more tightly, " + hint
            break
    return "too close: %s; expect 'unknown' between them. Try %s." % (names, hint)


def evaluate(classifier, samples_by_label):
    """Score a classifier on labelled readings.

    Returns ``{label: {"n": int, "correct": int, "unknown": int, "double": int,
    "wrong": {other_label: count}}}`` plus ``"_total"`` with the sums and the
    ``accuracy`` (correct / n), ``rejected`` ((unknown + double) / n) and
    ``error`` (wrong / n) rates.
    """
    out = {}
    n_all = correct_all = unknown_all = double_all = wrong_all = 0
    for label in _sorted(samples_by_label):
        n = correct = unknown = double = 0
        wrong: dict = {}
        for reading in samples_by_label[label]:
            got = classifier.classify(reading)[0]
            n += 1
            if got == label:
                correct += 1
            elif got == UNKNOWN:
                unknown += 1
            elif got == DOUBLE:
                double += 1
            else:
                wrong[got] = wrong.get(got, 0) + 1
        out[label] = {"n": n, "correct": correct, "unknown": unknown, "double": double, "wrong": wrong}
        n_all += n
        correct_all += correct
        unknown_all += unknown
        double_all += double
        wrong_all += sum(wrong.values())
    total = n_all or 1
    out["_total"] = {
        "n": n_all,
        "correct": correct_all,
        "unknown": unknown_all,
        "double": double_all,
        "wrong": wrong_all,
        "accuracy": correct_all / total,
        "rejected": (unknown_all + double_all) / total,
        "error": wrong_all / total,
    }
    return out


# --- default profiles ---

# Fitted from the simulated pyramid head (hardware/sim/sim_optics.py: 40 readings
# per class, seed 2026, 24 ms, gain 4) so the virtual pyramid works out of the
# box; a real pyramid needs `pyramid calibrate`. Kept as JSON text so that only
# the edition asked for is parsed (RAM on the device).
# BEGIN DEFAULT PROFILES (generated by `python hardware/sim/sim_optics.py`)
_DEFAULTS = {
    'classic': (
        '{"classes":{"blue":{"mean":[0.157428,0.301359,0.534828,-1.44313],"n":40,"sd":[0.010586'
        '5,0.0105084,0.0188878,0.0826236],"unit":[0.231898,0.0373392,0.0713952,0.12651],"whiten'
        '":[[94.4597,0.0,0.0,0.0],[-17.1944,96.726,0.0,0.0],[32.7316,1.13299,56.0733,0.0],[-4.3'
        '1498,1.12949,19.2548,12.9488]]},"empty":{"mean":[0.234505,0.253567,0.204067,-3.79167],'
        '"n":40,"sd":[0.0621949,0.0565635,0.0365328,0.0957358],"unit":[0.0176491,0.00530495,0.0'
        '0571415,0.00461808],"whiten":[[16.0785,0.0,0.0,0.0],[0.611659,17.692,0.0,0.0],[-2.8515'
        '5,-3.96425,28.4295,0.0],[0.633793,2.91674,-0.361896,10.5874]]},"green":{"mean":[0.2142'
        '94,0.50426,0.217856,-1.17784],"n":40,"sd":[0.00754243,0.011538,0.00727856,0.077142],"u'
        'nit":[0.303702,0.066212,0.155578,0.0672642],"whiten":[[132.583,0.0,0.0,0.0],[8.03677,8'
        '6.8289,0.0,0.0],[-23.4982,-5.52609,139.713,0.0],[-30.5212,20.0783,-3.98049,13.6915]]},'
        '"orange":{"mean":[0.566815,0.19861,0.0886357,-0.866447],"n":40,"sd":[0.0107681,0.00807'
        '447,0.00827008,0.0734265],"unit":[0.416319,0.238728,0.0837539,0.0374074],"whiten":[[92'
        '.8666,0.0,0.0,0.0],[32.6104,131.261,0.0,0.0],[23.3856,-44.0867,135.165,0.0],[9.30744,-'
        '20.0186,-11.4096,14.1144]]},"white":{"mean":[0.320575,0.337049,0.272325,0.00579001],"n'
        '":40,"sd":[0.00544772,0.00614774,0.00501716,0.0774357],"unit":[1.00329,0.323285,0.3398'
        '33,0.274557],"whiten":[[183.563,0.0,0.0,0.0],[-4.70707,162.715,0.0,0.0],[6.80439,-17.2'
        '177,200.546,0.0],[-16.0298,2.1774,8.73478,12.9787]]},"yellow":{"mean":[0.4181,0.373135'
        ',0.089369,-0.304742],"n":40,"sd":[0.0059192,0.00619112,0.00595021,0.0789594],"unit":[0'
        '.734256,0.309036,0.275828,0.0661194],"whiten":[[168.942,0.0,0.0,0.0],[-7.04186,161.662'
        ',0.0,0.0],[-8.12466,10.621,168.596,0.0],[16.2474,3.24801,-19.1947,12.8043]]}},"double_'
        'residual":0.0435777,"edition":"classic","features":["r/c","g/c","b/c","log(c/ref)"],"f'
        'ormat":1,"guard":2.5,"guard_se":3.5,"min_margin":1.0,"ref_clear":5132.0,"reject":5.0,"'
        'settings":{"gain":4,"integration_ms":24.0}}'
    ),
    'second': (
        '{"classes":{"blue":{"mean":[0.1583,0.303031,0.5378,-1.14764],"n":40,"sd":[0.0106206,0.'
        '0105532,0.0191101,0.0835628],"unit":[0.313349,0.0504542,0.0964718,0.170945],"whiten":['
        '[94.157,0.0,0.0,0.0],[-16.9804,96.2864,0.0,0.0],[32.5035,0.732436,55.3834,0.0],[-3.838'
        '96,1.74181,19.5401,12.8346]]},"empty":{"mean":[0.251562,0.276141,0.229549,-3.55261],"n'
        '":40,"sd":[0.0651516,0.0532176,0.0525725,0.116313],"unit":[0.0238283,0.00718799,0.0078'
        '7256,0.00654292],"whiten":[[15.3488,0.0,0.0,0.0],[-2.83926,19.1096,0.0,0.0],[-4.41534,'
        '0.0803515,19.7888,0.0],[1.55337,6.73237,5.38119,9.63912]]},"green":{"mean":[0.215203,0'
        '.506403,0.218782,-0.881058],"n":40,"sd":[0.00754186,0.0116368,0.00729477,0.0780185],"u'
        'nit":[0.410374,0.0894681,0.210222,0.0908899],"whiten":[[132.593,0.0,0.0,0.0],[8.17873,'
        '86.0979,0.0,0.0],[-23.2959,-5.61663,139.377,0.0],[-29.9831,20.622,-3.43865,13.5484]]},'
        '"grey-black":{"mean":[0.31757,0.332545,0.2714,-0.599292],"n":40,"sd":[0.00766422,0.007'
        '99054,0.00593094,0.0785405],"unit":[0.545577,0.174849,0.183024,0.149414],"whiten":[[13'
        '0.476,0.0,0.0,0.0],[-4.33812,125.217,0.0,0.0],[-14.0918,-17.6446,171.33,0.0],[-0.90640'
        '1,18.5432,3.19434,12.8783]]},"grey-white":{"mean":[0.31895,0.334688,0.271339,-0.274756'
        '],"n":40,"sd":[0.00675115,0.00624426,0.00575873,0.0681119],"unit":[0.755918,0.242707,0'
        '.254726,0.206471],"whiten":[[148.123,0.0,0.0,0.0],[-14.4078,160.903,0.0,0.0],[-17.9764'
        ',-18.2444,176.268,0.0],[-1.99851,-22.7502,1.70408,14.8311]]},"purple":{"mean":[0.31330'
        '2,0.205327,0.3794,-1.25039],"n":40,"sd":[0.0103964,0.0120294,0.0104817,0.0881313],"uni'
        't":[0.282399,0.0901001,0.0590771,0.108965],"whiten":[[96.1875,0.0,0.0,0.0],[-7.16259,8'
        '3.3598,0.0,0.0],[13.7014,-2.33439,96.3768,0.0],[-11.7648,-13.1085,18.0071,11.812]]},"r'
        'ed":{"mean":[0.55378,0.162776,0.119512,-1.09421],"n":40,"sd":[0.0150573,0.0116291,0.01'
        '14239,0.094672],"unit":[0.331247,0.185947,0.0549302,0.0403699],"whiten":[[66.4128,0.0,'
        '0.0,0.0],[29.9444,94.3277,0.0,0.0],[12.8088,-40.1653,100.929,0.0],[17.3839,-17.5725,-1'
        '8.2072,11.923]]},"yellow":{"mean":[0.417402,0.37324,0.0900892,-0.00844405],"n":40,"sd"'
        ':[0.00602183,0.00608275,0.0059584,0.0709857],"unit":[0.988369,0.41462,0.370794,0.08952'
        '74],"whiten":[[166.062,0.0,0.0,0.0],[8.53659,164.616,0.0,0.0],[11.9974,-17.3451,169.26'
        '2,0.0],[2.47872,-7.16853,-9.84184,14.1318]]}},"double_residual":0.0480018,"edition":"s'
        'econd","features":["r/c","g/c","b/c","log(c/ref)"],"format":1,"guard":2.5,"guard_se":3'
        '.5,"min_margin":1.0,"ref_clear":3798.0,"reject":5.0,"settings":{"gain":4,"integration_'
        'ms":24.0}}'
    ),
}
# END DEFAULT PROFILES


def default_profile(edition):
    """A fresh copy of the built-in profile of ``edition`` (``classic`` or ``second``).

    Raises ``ValueError`` for an unknown edition.
    """
    import json

    classes_for(edition)
    return json.loads(_DEFAULTS[edition])
