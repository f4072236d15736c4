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

Model: one centroid per class with its own spread: a 4x4 covariance shrunk
towards its diagonal (``SHRINK``) plus a floor per feature, stored as the
inverse of its Cholesky factor. The distance of a reading to a class is the
Mahalanobis distance in units of that class's spread (sigma).

Decision (``Classifier.classify``): the nearest class wins unless

- it is further than ``reject`` sigma (default 5): nothing calibrated looks like
  this, or
- the second nearest is less than ``min_margin`` sigma (default 1) further: the
  reading sits between two classes;

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
#: Profile format version.
FORMAT = 1

#: Shrinkage of each class covariance towards its diagonal (0 = full, 1 = diagonal).
SHRINK = 0.3
#: Smallest spread (sigma) per feature: chromaticity, chromaticity, chromaticity, log.
SIGMA_FLOOR = (0.004, 0.004, 0.004, 0.03)
#: Default rejection distance (sigma) and ambiguity margin (sigma).
REJECT = 5.0
MIN_MARGIN = 1.0
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


def fit(samples_by_label, edition, settings, shrink=SHRINK, reject=REJECT, min_margin=MIN_MARGIN):
    """Fit a profile from calibration readings.

    ``samples_by_label``: ``{label: [(c, r, g, b), ...]}`` ambient-subtracted
    counts; labels from ``classes_for(edition)``; at least 3 readings per label
    (12 or more advised: every face, several seatings). ``edition``:
    ``"classic"`` or ``"second"``. ``settings``: ``{"integration_ms": float,
    "gain": int}`` the readings were taken with.

    Returns the profile, a JSON-able dict::

        {"format": 1, "edition": str, "settings": {...}, "ref_clear": float,
         "reject": float, "min_margin": float, "double_residual": float,
         "features": [...], "classes": {label: {"n": int, "mean": [4 floats],
         "sd": [4 floats], "whiten": [[4 floats] x 4], "unit": [4 floats]}}}

    ``unit`` is the class's mean reading divided by ``ref_clear`` (for the
    two-dice test). Raises ``ValueError`` for an unknown edition or label, a
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
    classes = {}
    for label in labels:
        readings = samples_by_label[label]
        rows = [features(s, ref) for s in readings]
        n = len(rows)
        mean = [sum(r[k] for r in rows) / n for k in range(4)]
        cov = [[0.0] * 4 for _ in range(4)]
        for r in rows:
            d = [r[k] - mean[k] for k in range(4)]
            for i in range(4):
                for j in range(i + 1):
                    cov[i][j] += d[i] * d[j] / (n - 1)
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
        "double_residual": 0.0,
        "features": list(FEATURES),
        "classes": classes,
    }
    # the two-dice residual threshold: well above what single dice leave behind
    residuals = []
    for label in labels:
        if label == EMPTY:
            continue
        unit = classes[label]["unit"]
        for s in samples_by_label[label]:
            residuals.append(_single_residual([v / ref for v in s], unit))
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
        self.double_residual = profile.get("double_residual", 0.0)
        scale = 1.0
        if settings is not None:
            scale = exposure(settings) / exposure(profile["settings"])
        self.ref_clear = profile["ref_clear"] * scale
        #: LED brightness factor tracked by ``observe`` (1.0 = as at calibration)
        self.drift = 1.0

    def distances(self, reading):
        """``[(distance_sigma, label), ...]`` sorted nearest first, for every class."""
        x = features(reading, self.ref_clear * self.drift)
        out = []
        for label in self.labels:
            entry = self.profile["classes"][label]
            mean = entry["mean"]
            diff = [x[k] - mean[k] for k in range(4)]
            out.append((_whitened_norm(entry["whiten"], diff), label))
        out.sort()
        return out

    def classify(self, reading):
        """``(label, margin)`` for one ``(c, r, g, b)`` reading.

        ``label``: a class of the profile, ``unknown`` or ``double``. ``margin``:
        how much further (sigma) the second nearest class is than the nearest;
        large = confident; for ``double``, the pair fit's residual headroom
        (``double_residual - residual`` over ``double_residual``, 0..1).
        """
        return self.classify_detail(reading)[:2]

    def classify_detail(self, reading):
        """``(label, margin, detail)``: ``detail`` has ``best``, ``second`` (label,
        sigma) pairs, ``reason`` (``ok``, ``far``, ``between``, ``double``) and,
        for ``double``, ``pair`` (the two labels)."""
        ranked = self.distances(reading)
        d1, best = ranked[0]
        d2, second = ranked[1]
        margin = d2 - d1
        detail = {"best": (best, d1), "second": (second, d2), "reason": "ok"}
        if d1 <= self.reject and margin >= self.min_margin:
            return (best, margin, detail)
        detail["reason"] = "far" if d1 > self.reject else "between"
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
        if best is None or best[0] > 0.5 * single:
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


def evaluate(classifier, samples_by_label):
    """Score a classifier on labelled readings.

    Returns ``{label: {"n": int, "correct": int, "unknown": int, "double": int,
    "wrong": {other_label: count}}}`` plus ``"_total"`` with the sums and the
    ``accuracy`` (correct / n), ``rejected`` ((unknown + double) / n) and
    ``error`` (wrong / n) rates.
    """
    out = {}
    total = {"n": 0, "correct": 0, "unknown": 0, "double": 0, "wrong": 0}
    for label in _sorted(samples_by_label):
        row = {"n": 0, "correct": 0, "unknown": 0, "double": 0, "wrong": {}}
        for reading in samples_by_label[label]:
            got = classifier.classify(reading)[0]
            row["n"] += 1
            if got == label:
                row["correct"] += 1
            elif got == UNKNOWN:
                row["unknown"] += 1
            elif got == DOUBLE:
                row["double"] += 1
            else:
                row["wrong"][got] = row["wrong"].get(got, 0) + 1
        out[label] = row
        total["n"] += row["n"]
        total["correct"] += row["correct"]
        total["unknown"] += row["unknown"]
        total["double"] += row["double"]
        total["wrong"] += sum(row["wrong"].values())
    n = total["n"] or 1
    total["accuracy"] = total["correct"] / n
    total["rejected"] = (total["unknown"] + total["double"]) / n
    total["error"] = total["wrong"] / n
    out["_total"] = total
    return out


# --- default profiles ---

# Fitted from the simulated pyramid head (hardware/sim/sim_optics.py: 40 readings
# per class, seed 2026, 24 ms, gain 4) so the virtual pyramid works out of the
# box; a real pyramid needs `pyramid calibrate`. Kept as JSON text so that only
# the edition asked for is parsed (RAM on the device).
# BEGIN DEFAULT PROFILES (generated by `python hardware/sim/sim_optics.py`)
_DEFAULTS = {
    'classic': (
        '{"classes":{"blue":{"mean":[0.155969,0.307016,0.536843,-1.4523],"n":40,"sd":[0.01823'
        '31,0.0255871,0.0373038,0.0954306],"unit":[0.22998,0.0365844,0.0720076,0.125692],"whi'
        'ten":[[54.8453,0.0,0.0,0.0],[-6.38671,39.3463,0.0,0.0],[0.130061,-3.5423,26.9162,0.0'
        '],[5.79406,4.95754,10.8473,11.4982]]},"empty":{"mean":[0.230714,0.246992,0.193767,-3'
        '.7724],"n":40,"sd":[0.138189,0.132078,0.0846498,0.188669],"unit":[0.0183787,0.005175'
        '3,0.00554935,0.00443837],"whiten":[[7.23647,0.0,0.0,0.0],[-0.362408,7.58077,0.0,0.0]'
        ',[-0.816689,-2.04748,12.3274,0.0],[2.04859,2.13102,0.952879,5.78528]]},"green":{"mea'
        'n":[0.215353,0.505316,0.218138,-1.18363],"n":40,"sd":[0.0148547,0.0249713,0.0157768,'
        '0.079347],"unit":[0.301976,0.06614,0.154985,0.0668993],"whiten":[[67.3188,0.0,0.0,0.'
        '0],[-12.9037,40.775,0.0,0.0],[-8.15599,-10.2424,66.2285,0.0],[-7.33234,6.46959,5.831'
        '02,12.8801]]},"orange":{"mean":[0.564998,0.198178,0.088575,-0.867912],"n":40,"sd":[0'
        '.0201848,0.0143607,0.0122005,0.074057],"unit":[0.415766,0.2376,0.0834636,0.0372879],'
        '"whiten":[[49.5423,0.0,0.0,0.0],[8.15509,70.5718,0.0,0.0],[0.560918,-22.1717,86.069,'
        '0.0],[6.4568,-7.43963,0.251813,13.722]]},"white":{"mean":[0.319629,0.337759,0.274291'
        ',-0.00321283],"n":40,"sd":[0.0106101,0.0131205,0.00904751,0.0781902],"unit":[0.99432'
        '2,0.319501,0.337422,0.274023],"whiten":[[94.2501,0.0,0.0,0.0],[-2.21314,76.2378,0.0,'
        '0.0],[6.40621,-16.3055,113.241,0.0],[-6.86869,4.99641,7.55517,12.8946]]},"yellow":{"'
        'mean":[0.418961,0.373079,0.0894091,-0.309666],"n":40,"sd":[0.0125019,0.0130136,0.008'
        '08217,0.0828095],"unit":[0.730834,0.308134,0.274425,0.065805],"whiten":[[79.9881,0.0'
        ',0.0,0.0],[-2.52297,76.8807,0.0,0.0],[-20.0734,2.34515,127.593,0.0],[12.1526,6.87011'
        ',-7.05624,12.2629]]}},"double_residual":0.0945394,"edition":"classic","features":["r'
        '/c","g/c","b/c","log(c/ref)"],"format":1,"min_margin":1.0,"ref_clear":4478.0,"reject'
        '":5.0,"settings":{"gain":4,"integration_ms":24.0}}'
    ),
    'second': (
        '{"classes":{"blue":{"mean":[0.156858,0.308767,0.539911,-1.15151],"n":40,"sd":[0.0183'
        '441,0.0257657,0.0376653,0.0959123],"unit":[0.312454,0.0497042,0.0978307,0.170768],"w'
        'hiten":[[54.5136,0.0,0.0,0.0],[-6.40927,39.0786,0.0,0.0],[0.0146413,-3.62825,26.6653'
        ',0.0],[5.86424,5.02471,10.8415,11.4646]]},"empty":{"mean":[0.260898,0.281144,0.25046'
        '8,-3.55636],"n":40,"sd":[0.171929,0.136286,0.132851,0.272226],"unit":[0.0245146,0.00'
        '690989,0.00778975,0.00678853],"whiten":[[5.81636,0.0,0.0,0.0],[-1.75822,7.6654,0.0,0'
        '.0],[-2.62733,0.302219,8.22836,0.0],[2.19571,2.28501,2.93631,4.64377]]},"green":{"me'
        'an":[0.216288,0.507512,0.219086,-0.881497],"n":40,"sd":[0.0149073,0.0251217,0.015853'
        '9,0.0796392],"unit":[0.41027,0.0898589,0.210566,0.0908905],"whiten":[[67.0813,0.0,0.'
        '0,0.0],[-12.8816,40.5336,0.0,0.0],[-8.13658,-10.2305,65.9293,0.0],[-7.17616,6.56403,'
        '5.90106,12.8406]]},"grey-black":{"mean":[0.315995,0.32975,0.270325,-0.594395],"n":40'
        ',"sd":[0.0179641,0.0188115,0.0123623,0.082377],"unit":[0.548468,0.174818,0.182213,0.'
        '149507],"whiten":[[55.6667,0.0,0.0,0.0],[-2.55642,53.2151,0.0,0.0],[-7.76316,-11.046'
        '1,83.4899,0.0],[2.76252,12.8782,7.45011,12.6232]]},"grey-white":{"mean":[0.318343,0.'
        '334081,0.268482,-0.272657],"n":40,"sd":[0.0150075,0.0132506,0.0117568,0.0641512],"un'
        'it":[0.757539,0.242703,0.254847,0.204672],"whiten":[[66.6334,0.0,0.0,0.0],[-9.91276,'
        '76.2988,0.0,0.0],[-12.219,-13.3255,88.162,0.0],[3.13337,-10.487,7.71916,15.7788]]},"'
        'purple":{"mean":[0.310735,0.206262,0.385359,-1.25906],"n":40,"sd":[0.0255842,0.02537'
        '02,0.02434,0.0949161],"unit":[0.280044,0.0886605,0.0587454,0.109694],"whiten":[[39.0'
        '867,0.0,0.0,0.0],[-1.16197,39.4338,0.0,0.0],[4.3538,-8.5423,42.2582,0.0],[-3.16748,0'
        '.791039,6.2981,10.7142]]},"red":{"mean":[0.555381,0.16303,0.119578,-1.09396],"n":40,'
        '"sd":[0.0272467,0.0171128,0.0163848,0.105421],"unit":[0.331561,0.186537,0.0549909,0.'
        '0403747],"whiten":[[36.7017,0.0,0.0,0.0],[3.06466,58.6391,0.0,0.0],[-5.9403,-13.6578'
        ',63.2658,0.0],[11.666,-4.68405,-11.6578,10.1192]]},"yellow":{"mean":[0.416346,0.3725'
        '53,0.0900079,-0.00531797],"n":40,"sd":[0.0120239,0.0129838,0.0086598,0.0687488],"uni'
        't":[0.99155,0.414859,0.371283,0.0896617],"whiten":[[83.1675,0.0,0.0,0.0],[6.23922,77'
        '.2357,0.0,0.0],[-3.85521,-16.4985,118.133,0.0],[3.07283,-1.53435,5.28606,14.5725]]}}'
        ',"double_residual":0.102895,"edition":"second","features":["r/c","g/c","b/c","log(c/'
        'ref)"],"format":1,"min_margin":1.0,"ref_clear":3296.0,"reject":5.0,"settings":{"gain'
        '":4,"integration_ms":24.0}}'
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
