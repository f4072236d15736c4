"""Calibration-time code for the colour classifier: fit a profile, report on it.

``fit`` turns labelled readings into the profile ``camelup.board.classifier.Classifier``
runs with; ``separation`` and ``advice`` say how well its classes separate and
what would separate a pair that is too close; ``evaluate`` scores a classifier
on labelled readings. The host runs them (``pyramid calibrate``, the optical
model's default profiles, the benchmarks); the board never does, so this
module is not flashed (``camelhost.device.flash`` follows the firmware's
imports, and ``camelup.board.classifier`` does not import this one): its code would
take heap the firmware needs. It still runs unchanged on MicroPython (the
cross-checks fit there too): no typing, dataclasses, enum, functools or
itertools; classes are visited in sorted order.

Model (regularised discriminant analysis, docs/classifier.md): per die a
centroid, the slopes of its chromaticity on its log brightness, and a residual
spread; spread, brightness variance and slopes are pulled towards the ones
pooled over every die with the weight of ``POOL`` readings (a 12-reading class
cannot pin its own 4x4 covariance; the seating and the LED spread every die
alike; ``pool=None`` is plain shrinkage LDA), correlations shrunk towards the
diagonal (``SHRINK``). The empty head keeps its own spread (its features are
mostly noise). The profile stores that spread as each class's ``base``; the
classifier completes it for the settings it runs at (centroid error, count
noise, floor: ``camelup.board.classifier.class_spread``).
"""

import math

from camelup import editions
from camelup.board.classifier import (
    DOUBLE,
    EMPTY,
    FEATURES,
    FORMAT,
    GUARD,
    GUARD_SE,
    LEAD,
    LIGHT_SHARE,
    MIN_MARGIN,
    MIX_GAIN,
    NEAR,
    POSTERIOR,
    REJECT,
    SHOT,
    STEP,
    TAIL,
    UNKNOWN,
    check_profile,
    class_spread,
    classes_for,
    count_noise,
    features,
    single_die_residual,
    unpack_base,
    whitening,
)
from camelup.errors import Message

#: Shrinkage of the pooled covariance's correlations towards the diagonal (0 = full, 1 = diagonal).
SHRINK = 0.2
#: Weight (in readings) of the pooled covariance in each die's own: a die with
#: ``n`` calibration readings gets ``(n - 2) own + POOL pooled`` over ``n - 2 + POOL``
#: (regularised discriminant analysis: 12 readings, 75 % pooled; 200, 13 %).
#: ``None``: the pooled one only (plain shrinkage LDA).
POOL = 30
#: Share of a feature's measured variance ``fit`` keeps when it takes the count
#: noise out of a class's readings (``_without_noise``).
KEEP = 0.1
#: A pair of classes closer than this (sigma) is reported as too close.
TOO_CLOSE = 6.0
#: Enough light (docs/calibration.md, "Enough light"): at the floor, every pair of
#: the profile's dice is at least ``LIGHT_SIGMA`` apart in its whole spread (count
#: noise included), the separation the report calls enough (``TOO_CLOSE``): the
#: guard (2.5-3.9 sigma) then leaves a pair's readings 2 sigma and more of room. A
#: pair that no light brings there (the dice themselves too alike, or the seat)
#: need only keep ``LIGHT_SHARE`` of the separation it has without count noise.
LIGHT_SIGMA = TOO_CLOSE
#: Two dice too (the mixture test, ``camelup.board.classifier.MIX_GAIN``): at the
#: floor the even mixture of every pair of dice (each half the view) lies at least
#: ``sqrt(MIX_GAIN) + 1`` sigma from each of the two in its chromaticity, in that
#: die's whole spread (count noise included). At ``sqrt(MIX_GAIN)`` a noiseless even
#: double gains just ``MIX_GAIN`` from the mixture and half the noisy ones are named
#: as the die whose colour dominates; one sigma more and about 4 in 5 are caught
#: there, more above the floor (docs/calibration.md, "Enough light"). A pair whose
#: even mixture no light brings there keeps ``LIGHT_SHARE`` of what it has without
#: count noise. The grey die's two inks are one die: never a pair.
DOUBLE_SIGMA = math.sqrt(MIX_GAIN) + 1.0


# --- small helpers ---


#: Classifier label of a die: ``die_label("grey", "black") == "grey-black"``, ``"red"``
#: for red. ``camelup.editions.die_label`` (the one source, which the firmware's
#: edition labels use too), named here for this module's callers.
die_label = editions.die_label


#: ``(colour, ink)`` of a label: ``"grey-white" -> ("grey", "white")``, ``"red" -> ("red",
#: None)``: ``camelup.editions.split_die_label`` (the one source), named here for this
#: module's callers.
split_label = editions.split_die_label


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


def _pack(cov):
    """Lower triangle of a 4x4 matrix, row by row (10 floats)."""
    return [_round(cov[i][j]) for i in range(4) for j in range(i + 1)]


# --- fitting ---


def _without_noise(scatter, dof, noise):
    """``scatter`` (4x4, over ``dof`` degrees of freedom) with each feature's
    variance less ``dof`` times its count-noise variance (``noise``, 4x4): what
    the seating, the LED and the die add. A feature keeps at least ``KEEP`` of
    its variance, and the correlations are the measured ones, so the result is a
    covariance whenever ``scatter`` is."""
    scale = [1.0] * 4
    for i in range(4):
        s = scatter[i][i]
        if s > 0:
            v = s - dof * noise[i][i]
            scale[i] = math.sqrt((v if v > KEEP * s else KEEP * s) / s)
    return [[scatter[i][j] * scale[i] * scale[j] for j in range(4)] for i in range(4)]


def _scatter(rows, mean):
    """Sum of outer products of ``rows - mean`` (4x4)."""
    out = [[0.0] * 4 for _ in range(4)]
    for r in rows:
        d = [r[k] - mean[k] for k in range(4)]
        for i in range(4):
            for j in range(i + 1):
                out[i][j] += d[i] * d[j]
    for i in range(4):
        for j in range(i):
            out[j][i] = out[i][j]
    return out


def _shrunk(scatter, dof, shrink):
    """Covariance ``scatter / dof`` with its correlations scaled by ``1 - shrink``."""
    out = [[0.0] * 4 for _ in range(4)]
    if dof <= 0:
        return out
    for i in range(4):
        for j in range(4):
            v = scatter[i][j] / dof
            out[i][j] = v if i == j else v * (1.0 - shrink)
    return out


class CalibrationError(ValueError):
    """Readings ``fit`` cannot make a profile of (too few, or of a class the edition has
    not). ``str()`` is the English text; ``.message`` the ``camelup.errors.Message`` the
    host translates."""

    def __init__(self, message):
        super().__init__(str(message))
        self.message = message


def fit(samples_by_label, edition, settings, shrink=SHRINK, reject=REJECT, min_margin=MIN_MARGIN,
        guard=GUARD, guard_se=GUARD_SE, posterior=POSTERIOR, shot=None, step=STEP, pool=POOL,
        tail=None, near=None, lead=None, denoise=True, floor=True):
    """Fit a profile from calibration readings.

    ``samples_by_label``: ``{label: [(c, r, g, b), ...]}`` ambient-subtracted
    counts; labels from ``classes_for(edition)``; at least 3 readings per label
    (12 or more advised: every face, several seatings). ``edition``:
    ``"classic"`` or ``"second"``. ``settings``: ``{"integration_ms": float,
    "gain": int}`` the readings were taken with. ``shrink``, ``reject``,
    ``min_margin``, ``guard``, ``guard_se``, ``posterior``, ``shot``, ``step``,
    ``pool`` (readings' weight of the pooled spread; ``None``: plain shrinkage
    LDA, ``0``: each die its own), ``tail``, ``near``, ``lead``: see the
    constants of the same names in capitals (``SHRINK`` and ``POOL`` here, the
    decision's in ``camelup.board.classifier``); ``shot`` defaults to ``SHOT`` x the
    settings' gain. ``denoise``: take the count noise of the readings' own counts
    out of each die's scatter before the dice are pooled, each at its own counts,
    and out of the empty head's spread (the classifier adds it back for the
    counts it runs at; ``False``: keep the measured spread whole). ``floor``: compute
    the profile's ``floor`` (``False``: 0, for the many fits of a check).

    Returns the profile, a JSON-able dict::

        {"format": 1, "edition": str, "settings": {...}, "ref_clear": float,
         "reject": float, "min_margin": float, "posterior": float,
         "guard": float, "guard_se": float, "shot": float, "step": float,
         "tail": float, "near": float, "lead": float,
         "double_residual": float, "floor": float, "features": [...],
         "classes": {label: {"n": int, "mean": [4 floats], "unit": [4 floats],
         "base": [10 floats]}}}

    ``floor``: enough light, the clear count the darkest die must give
    (``light_floor``). ``unit`` is the class's mean reading divided by ``ref_clear`` (for the
    count noise and the two-dice test); ``base`` the lower triangle of the
    class's covariance before its count noise (``camelup.board.classifier.whitening``
    and ``spread`` complete it for given settings). Raises ``CalibrationError`` (a
    ``ValueError``) for an unknown edition or label, a label with fewer than 3 readings,
    or fewer than two labels.
    """
    allowed = classes_for(edition)
    if shot is None:
        shot = SHOT * settings["gain"]
    labels = sorted(samples_by_label)
    if len(labels) < 2:
        raise CalibrationError(Message("need readings of at least two classes, got %d",
                                       len(labels)))
    for label in labels:
        if label not in allowed:
            raise CalibrationError(Message("%(label)r is not a class of the %(edition)s edition",
                                           label=label, edition=Message(edition)))
        if len(samples_by_label[label]) < 3:
            raise CalibrationError(Message("need at least 3 readings of %r", label))
    # brightness reference: the brightest die's median clear count
    ref = 0.0
    for label in labels:
        if label == EMPTY:
            continue
        clears = sorted(s[0] for s in samples_by_label[label])
        ref = max(ref, float(clears[len(clears) // 2]))
    if ref <= 0:
        ref = 1.0
    moments = {}
    pooled = [[0.0] * 4 for _ in range(4)]
    dof = 0
    # brightness-conditioned chromaticity: per die, the slope of each chromaticity
    # on the log brightness (its own), and the residual spread (pooled)
    cond = [[0.0] * 3 for _ in range(3)]
    cond_dof = 0
    log_var = 0.0
    for label in labels:
        readings = samples_by_label[label]
        rows = [features(s, ref) for s in readings]
        n = len(rows)
        mean = [sum(r[k] for r in rows) / n for k in range(4)]
        scatter = _scatter(rows, mean)
        unit = [sum(s[k] for s in readings) / n / ref for k in range(4)]
        if denoise and label != EMPTY and pool is not None:
            # each die's readings hold the count noise of its own counts: taken out
            # before the dice are pooled (a bright die must not inherit a dark
            # one's count noise); the classifier adds it back for the counts it
            # runs at (never twice)
            scatter = _without_noise(scatter, n - 1, count_noise([u * ref for u in unit], ref, shot, step))
        ll = scatter[3][3]
        slope = [scatter[i][3] / ll if ll > 0 else 0.0 for i in range(3)]
        resid = [[scatter[i][j] - slope[i] * scatter[j][3] for j in range(3)] for i in range(3)]
        moments[label] = (n, mean, scatter, unit, slope, resid)
        if label != EMPTY:
            for i in range(4):
                for j in range(4):
                    pooled[i][j] += scatter[i][j]
            for i in range(3):
                for j in range(3):
                    cond[i][j] += resid[i][j]
            dof += n - 1
            cond_dof += n - 2
            log_var += ll
    dice = [label for label in labels if label != EMPTY]
    shared = _shrunk(pooled, dof, shrink)  # the within-class covariance pooled over the dice
    classes = {}
    for label in labels:
        n, mean, scatter, unit, slope, resid = moments[label]
        entry = {"n": n, "mean": [_round(v) for v in mean], "unit": [_round(v) for v in unit]}
        if label == EMPTY or not dice:
            base = _shrunk(scatter, n - 1, shrink)
        elif pool is None:
            base = shared  # plain shrinkage LDA
        else:
            wt = (n - 2) / (n - 2 + pool) if n - 2 + pool > 0 else 0.0
            vl = (wt * scatter[3][3] / (n - 1) + (1 - wt) * log_var / dof) if dof > 0 else 0.0
            # the slopes too: a 12-reading die's own are noisy, so pulled to the pooled ones
            b = [wt * slope[i] + (1 - wt) * (pooled[i][3] / pooled[3][3] if pooled[3][3] > 0 else 0.0)
                 for i in range(3)]
            ll = scatter[3][3]
            base = [[0.0] * 4 for _ in range(4)]
            for i in range(3):
                for j in range(3):
                    # own residual scatter about the slopes b, pooled residual spread
                    own = scatter[i][j] - b[i] * scatter[j][3] - b[j] * scatter[i][3] + b[i] * b[j] * ll
                    r = wt * own / (n - 2) + (1 - wt) * (cond[i][j] / cond_dof if cond_dof > 0 else 0.0)
                    if i != j:
                        r *= 1.0 - shrink
                    base[i][j] = r + b[i] * b[j] * vl
                base[i][3] = base[3][i] = b[i] * vl
            base[3][3] = vl
        if denoise and label == EMPTY:
            # the empty head's readings hold the count noise of its counts (the
            # dice' was taken out of each before pooling)
            base = _without_noise(base, 1, count_noise([u * ref for u in unit], ref, shot, step))
        entry["base"] = _pack(base)
        classes[label] = entry
    profile = {
        "format": FORMAT,
        "edition": edition,
        "settings": {"integration_ms": float(settings["integration_ms"]), "gain": int(settings["gain"])},
        "ref_clear": _round(ref),
        "reject": float(reject),
        "min_margin": float(min_margin),
        "posterior": float(posterior),
        "guard": float(guard),
        "guard_se": float(guard_se),
        "shot": float(shot),
        "step": float(step),
        "tail": float(TAIL if tail is None else tail),
        "near": float(NEAR if near is None else near),
        "lead": float(LEAD if lead is None else lead),
        "double_residual": 0.0,
        "features": list(FEATURES),
        "classes": classes,
    }
    # the two-dice residual threshold: well above what single dice leave behind
    residuals = []
    for label in dice:
        for s in samples_by_label[label]:
            x = [v / ref for v in s]
            residuals.append(single_die_residual(x, classes[label]["unit"]))
    residuals.sort()
    if residuals:
        profile["double_residual"] = _round(2.0 * residuals[(len(residuals) * 95) // 100])
    # enough light for these dice: the darkest die's clear count the pyramid needs
    profile["floor"] = _round(light_floor(profile)) if floor else 0.0
    return profile


# --- enough light ---


def _pair_sigma(profile, whiten, a, b):
    """Sigma between classes ``a`` and ``b``, the smaller of the two ways (as
    ``separation``), given their whitening matrices ``whiten[a]``, ``whiten[b]``."""
    ma = profile["classes"][a]["mean"]
    mb = profile["classes"][b]["mean"]
    ab = [mb[k] - ma[k] for k in range(4)]
    ba = [-v for v in ab]
    one = _whitened_norm(whiten[a], ab)
    two = _whitened_norm(whiten[b], ba)
    return one if one < two else two


def _even_mixture_sigma(profile, whiten, a, b):
    """Sigma between the even mixture of dice ``a`` and ``b`` (half the mean reading of
    each, ``unit``) and the nearer of the two, on the chromaticity only (the first
    three whitened coordinates), each die in its spread ``whiten[label]``: what the
    mixture test (``camelup.board.classifier.Classifier._mixture``) can see of such a
    double."""
    classes = profile["classes"]
    u = classes[a]["unit"]
    v = classes[b]["unit"]
    c = 0.5 * (u[0] + v[0])
    if c <= 0 or u[0] <= 0 or v[0] <= 0:
        return 0.0
    mix = [0.5 * (u[k] + v[k]) / c for k in (1, 2, 3)]
    out = None
    for label, unit in ((a, u), (b, v)):
        diff = [mix[k - 1] - unit[k] / unit[0] for k in (1, 2, 3)]
        sigma = _whitened_norm(whiten[label], diff)
        out = sigma if out is None or sigma < out else out
    return out


def light_floor(profile, shot=None, step=None, doubles=True):
    """Enough light for ``profile``'s dice: the clear count (LED-on minus LED-off,
    counts) its darkest die must give; a float, 1 .. 65535 (65535: no light is
    enough), 0 for a profile without ``base`` spreads (it predates count noise).

    The dice' mean readings are scaled together (a longer integration time, a
    higher gain, a brighter LED or a nearer sensor scale every die alike) until
    every pair of dice is ``LIGHT_SIGMA`` apart (``separation``'s measure) in its
    whole spread, the count noise of those counts included (``shot`` x count +
    ``step`` per channel, default the profile's), or keeps ``LIGHT_SHARE`` of the
    separation it has without count noise when that is less; the darkest die's
    clear count there is the floor (bisection on the scale's logarithm, 20
    steps). Two dice too (``doubles``, default on): the even mixture of every pair
    of dice (the grey die's inks are one die) lies ``DOUBLE_SIGMA`` (the mixture
    test's ``sqrt(MIX_GAIN)`` and one sigma more) from each of the two in
    chromaticity, or keeps
    ``LIGHT_SHARE`` of what it has without count noise (``_even_mixture_sigma``);
    ``doubles=False``: single dice only (the floor before two dice were counted).
    One formula: ``fit`` stores it in the profile as ``floor``, which
    ``pyramid calibrate`` refuses settings under, ``pyramid doctor`` reports
    against, and the firmware marks an event under (``dim``).
    ``ValueError`` (``check_profile``) for a broken profile."""
    check_profile(profile)
    classes = profile["classes"]
    dice = [label for label in sorted(classes) if label != EMPTY]
    for label in dice:
        if "base" not in classes[label]:
            return 0.0
    ref = profile["ref_clear"]
    shot = profile.get("shot", SHOT) if shot is None else shot
    step = profile.get("step", STEP) if step is None else step
    darkest = 0.0
    for label in dice:
        clear = classes[label]["unit"][0] * ref
        if not darkest or clear < darkest:
            darkest = clear
    if darkest <= 0 or len(dice) < 2:
        return 0.0
    quiet = {label: whitening(profile, label, ref, 0.0, 0.0) for label in dice}
    need = {}
    mixed = {}
    for i in range(len(dice)):
        for j in range(i + 1, len(dice)):
            best = LIGHT_SHARE * _pair_sigma(profile, quiet, dice[i], dice[j])
            need[(dice[i], dice[j])] = LIGHT_SIGMA if LIGHT_SIGMA < best else best
            if doubles and not (editions.is_grey_label(dice[i]) and editions.is_grey_label(dice[j])):
                best = LIGHT_SHARE * _even_mixture_sigma(profile, quiet, dice[i], dice[j])
                mixed[(dice[i], dice[j])] = DOUBLE_SIGMA if DOUBLE_SIGMA < best else best

    def enough(scale):
        whiten = {label: whitening(profile, label, ref * scale, shot, step) for label in dice}
        for pair in need:
            if _pair_sigma(profile, whiten, pair[0], pair[1]) < need[pair]:
                return False
        for pair in mixed:
            if _even_mixture_sigma(profile, whiten, pair[0], pair[1]) < mixed[pair]:
                return False
        return True

    lo, hi = math.log(1.0 / darkest), math.log(65535.0 / darkest)
    if not enough(math.exp(hi)):
        return 65535.0
    if enough(math.exp(lo)):
        return 1.0
    for _ in range(20):
        mid = (lo + hi) * 0.5
        if enough(math.exp(mid)):
            hi = mid
        else:
            lo = mid
    return darkest * math.exp(hi)


# --- reports ---


def spread(profile, label):
    """Standard deviation of each feature (4 floats) of class ``label`` at the
    profile's settings (for reports; host-only: it moved here from
    ``camelup.board.classifier`` to keep the board's heap)."""
    entry = profile["classes"][label]
    if "base" not in entry:
        return entry.get("sd", [0.0] * 4)
    ref = profile["ref_clear"]
    counts = [u * ref for u in entry["unit"]]
    cov = class_spread(unpack_base(entry["base"]), entry.get("n", 12), counts, ref,
                       profile.get("shot", SHOT), profile.get("step", STEP))
    return [math.sqrt(cov[k][k]) for k in range(4)]


def distances(classifier, reading):
    """``[(distance_sigma, label), ...]`` of a ``(c, r, g, b)`` reading from every class of
    ``classifier`` (a ``camelup.board.classifier.Classifier``), nearest first (for
    reports and tests; host-only: it moved here from the classifier to keep the
    board's heap)."""
    x = features(reading, classifier.ref_clear * classifier.drift)
    out = [(classifier._distance(x, label), label) for label in classifier.labels]
    out.sort()
    return out


def separation(profile, too_close=TOO_CLOSE):
    """How well each pair of classes separates, worst first.

    Returns ``[{"a": label, "b": label, "sigma": float, "too_close": bool}]``:
    ``sigma`` is the distance of each class's centroid from the other class,
    in the other class's spread, the smaller of the two ways (Mahalanobis).
    Readings of a pair under ``too_close`` (default 6) sigma apart will often be
    ``unknown`` or confused.
    """
    classes = profile["classes"]
    labels = sorted(classes)
    whiten = {}
    for label in labels:
        whiten[label] = whitening(profile, label)
    pairs = []
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            a = classes[labels[i]]
            b = classes[labels[j]]
            ab = [b["mean"][k] - a["mean"][k] for k in range(4)]
            ba = [-v for v in ab]
            sigma = min(_whitened_norm(whiten[labels[i]], ab), _whitened_norm(whiten[labels[j]], ba))
            pairs.append((sigma, labels[i], labels[j]))
    pairs.sort()
    return [
        {"a": a, "b": b, "sigma": _round(s), "too_close": s < too_close} for s, a, b in pairs
    ]


#: What fixes a pair that is too close, in the order to try (docs/calibration.md).
REMEDIES = (
    Message("a longer integration time or a higher gain (more counts: less shot noise and "
            "fewer one-count steps; the brightest die at most at 65 % (of full scale))"),
    Message("more LED current (a brighter die, the same noise)"),
    Message("the sensor closer to the die and square above it, the head matte black, no room "
            "light at the slider gap"),
)
#: The grey die's inks differ only in the small numeral: what fixes them too close.
GREY_REMEDY = Message("the grey die's inks differ only in its small numeral: seat the die in "
                      "one spot right under the sensor (the numeral in its field of view), or "
                      "leave them to the table's one-key ink question (b/w) when the reading "
                      "is unknown")


def advice(pairs):
    """One plain line of advice from ``separation()``'s list, for a calibration report: a
    ``camelup.errors.Message`` (``str()`` is the English line; the host translates it).

    Names the pairs that are too close and what would separate them (integration
    time, gain, LED current, sensor position; for the grey die's two inks, its
    seating or the table's one-key ink question), or says the classes separate
    well (with the closest pair and its distance in sigma). More readings never
    fix a pair that is too close: they pin the centroids, not the spread.
    """
    if not pairs:
        return Message("no classes to compare: calibrate at least two")
    close = [p for p in pairs if p["too_close"]]
    if not close:
        worst = pairs[0]
        return Message("all classes separate well (closest: %(one)s and %(other)s, %(sigma).1f "
                       "sigma)",
                       one=worst["a"], other=worst["b"], sigma=worst["sigma"])
    names = ", ".join("%s/%s (%.1f sigma)" % (p["a"], p["b"], p["sigma"]) for p in close)
    grey = [p for p in close if editions.is_grey_label(p["a"]) and editions.is_grey_label(p["b"])]
    if len(grey) == len(close):
        return Message("too close: %(pairs)s; expect 'unknown' between them. Fix: %(fix)s.",
                       pairs=names, fix=GREY_REMEDY)
    hint = REMEDIES[0]
    for more in REMEDIES[1:]:
        hint = Message("%(first)s; %(second)s", first=hint, second=more)
    if grey:
        hint = Message("%(fixes)s; for the grey inks, %(grey_fix)s",
                       fixes=hint, grey_fix=GREY_REMEDY)
    return Message("too close: %(pairs)s; expect 'unknown' between them. Fix: %(fix)s.",
                   pairs=names, fix=hint)


def evaluate(classifier, samples_by_label):
    """Score a classifier on labelled readings.

    Returns ``{label: {"n": int, "correct": int, "unknown": int, "double": int,
    "wrong": {other_label: count}}}`` plus ``"_total"`` with the sums and the
    ``accuracy`` (correct / n), ``rejected`` ((unknown + double) / n) and
    ``error`` (wrong / n) rates.
    """
    out = {}
    n_all = correct_all = unknown_all = double_all = wrong_all = 0
    for label in sorted(samples_by_label):
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


# --- a die that was not in the head ---

#: Two readings are *alike* (the same content under the sensor, not two dice) when
#: every feature differs by less than this many sigma of what the count noise of
#: both at their gain and the classifier's ``SIGMA_FLOOR`` allow (``alike``).
#: Different dice differ by tens of sigma (on the virtual pyramid the closest, the
#: grey die's two inks, by about 20 in brightness at 24 ms, gain 4 or 16; the blue
#: and purple dice by 13 at 4.8 ms, gain 16); the same die left in the head, by a few
#: (docs/calibration.md gives the rates measured).
ALIKE_SIGMA = 5.0
#: ``refusal``: a die whose readings the check names right less often than this
#: (leave-one-out) makes the session refuse to save (docs/calibration.md).
NAMED_BAR = 0.5


def alike(a, b, ref_clear, gain):
    """True when the readings ``a`` and ``b`` (``(c, r, g, b)`` counts, LED on minus
    LED off, at the settings of ``ref_clear`` > 0 and analog ``gain``: 1, 4, 16 or 60)
    show the same content: every feature (``camelup.board.classifier.features``)
    closer than ``ALIKE_SIGMA`` times the spread the count noise of both readings
    and ``SIGMA_FLOOR`` give (``count_noise`` with ``SHOT`` x ``gain`` per count, as
    ``fit`` takes it: a count at a higher gain carries fewer electrons, so more
    noise). Used to catch a die that was not in the head: its reading is then the
    die read before it, or the empty head."""
    from camelup.board.classifier import SIGMA_FLOOR

    shot = SHOT * gain
    fa = features(a, ref_clear)
    fb = features(b, ref_clear)
    na = count_noise(a, ref_clear, shot)
    nb = count_noise(b, ref_clear, shot)
    for k in range(4):
        sd = math.sqrt(na[k][k] + nb[k][k]) + SIGMA_FLOOR[k]
        if abs(fa[k] - fb[k]) >= ALIKE_SIGMA * sd:
            return False
    return True


def same_die(label, got):
    """True when the classifier's answer ``got`` names the die of ``label`` (either of
    the grey die's inks names the grey die)."""
    return got == label or (editions.is_grey_label(label) and editions.is_grey_label(got))


def refusal(check, suspects, bar=NAMED_BAR):
    """Why a fitted profile must not be saved, or ``None``.

    ``check``: the leave-one-out report (``{label: {"n", "correct", "wrong": {label:
    count}, ...}}`` as ``evaluate`` gives it, classes left unchecked with ``n == 0``);
    ``suspects``: ``{label: [(index, like), ...]}`` (``index`` into the label's readings), the readings of a die that looked
    like the reading just before them or the empty head (``like``: the label they
    looked like). Returns ``(label, reason, detail)``: ``reason`` ``"like"`` (``detail``
    the label its readings looked like and how many of them did: ``(like, count)``) or
    ``"named"`` (``detail`` the share named right, 0..1); the die with the most
    suspects first, then the lowest share. A class (a die or the empty head) named
    right below ``bar`` in the check (the grey die's two inks count as one die there)
    is refused; a single suspect reading is refused too, because it pulls the die's
    centroid and spread."""
    worst = None
    for label in sorted(suspects):
        rows = suspects[label]
        if rows and (worst is None or len(rows) > worst[2][1]):
            likes = {}
            for _index, like in rows:
                likes[like] = likes.get(like, 0) + 1
            like = sorted(likes, key=lambda k: (-likes[k], k))[0]
            worst = (label, "like", (like, len(rows)))
    if worst is not None:
        return worst
    for label in sorted(check):
        if label.startswith("_"):
            continue
        row = check[label]
        if not row.get("n"):
            continue
        named = row["correct"]
        for other, count in row.get("wrong", {}).items():
            if same_die(label, other):
                named += count
        share = named / float(row["n"])
        if share < bar and (worst is None or share < worst[2]):
            worst = (label, "named", share)
    return worst
