"""Noise model fitted to real colour-sensor logs, and logs simulated from the fit.

Host-side (CPython) companion of ``sim_optics``: the pyramid's optical model
takes its sensor-noise parameters from these fits (``sim_optics.SENSOR_NOISE``),
and the benchmark and tests compare simulated logs with the real ones under the
same statistics and the same classifier protocol.

A real log (one class, readings one after another) is modelled, per reading
``t`` and channel ``k`` (red, green, blue), as::

    log x[k,t] = m[k] + s[k] L[t] + q[k] (L[t]^2 - sigma_l^2) + S[k,t]   (then shot noise, quantisation)

- ``L``: the object's brightness (distance, tilt, reseating): an AR(1) process
  in log brightness with spread ``sigma_l`` and lag-1 autocorrelation ``rho_l``;
  ``s[k]``, ``q[k]``: how a channel follows it (1 and 0 for a linear sensor; the
  TCS230's pulse-width front end bends its chromaticity with brightness);
- ``S``: slow stepwise drift of each channel: it keeps its level and, with
  probability ``p`` per reading, jumps to a new one (spread ``sigma_s[k]``), so a
  colour sits at two or three levels (lag-1 autocorrelation ``1 - p``);
- shot noise: white, variance ``shot * x`` in native counts (growing with the
  count);
- quantisation: the sensor's integer output (EV3 counts; the TCS230's pulse
  width in whole microseconds, read back as ``10000 / width``).

Fit (``fit_class``): ``m`` and ``s`` by least squares of ``log x`` on the centred
``log c``; ``L``'s spread and autocorrelation from ``log c``; the residual's
lag-1 and lag-2 autocovariances give ``p`` (``1 - A2 / A1``) and ``sigma_s``;
what the residual's variance leaves over is shot noise. Pure Python.

Statistics compared (``log_stats``): noise against level (the spread of the
first differences over sqrt 2, per channel, with its mean level), the
chromaticity spread (standard deviation of ``r/c``, ``g/c``, ``b/c``) and the
lag-1 autocorrelation of each channel.
"""

import math

from sim_optics import Rng

#: Native units of the real sets: ``ev3`` counts (clear = R + G + B);
#: ``tcs230`` pulse widths in us, intensity ``10000 / width``.
UNITS = ("ev3", "tcs230")


def _mean(xs):
    return sum(xs) / len(xs)


def _autocov(xs, lag):
    m = _mean(xs)
    n = len(xs)
    if n <= lag + 1:
        return 0.0
    return sum((xs[i] - m) * (xs[i + lag] - m) for i in range(n - lag)) / (n - lag)


def _autocorr(xs):
    v = _autocov(xs, 0)
    return _autocov(xs, 1) / v if v > 0 else 0.0


def _sd(xs):
    return math.sqrt(max(0.0, _autocov(xs, 0)))


def movement(path):
    """How fast a brightness path moves at each reading: ``(L[t+1] - L[t-1]) / 2``
    (one-sided at the ends, 0 for a path of one reading)."""
    n = len(path)
    if n < 2:
        return [0.0] * n
    out = [path[1] - path[0]]
    for t in range(1, n - 1):
        out.append((path[t + 1] - path[t - 1]) / 2)
    out.append(path[n - 1] - path[n - 2])
    return out


def _solve3(a, b):
    """``x`` with ``a x = b`` for a 3x3 ``a`` (Gaussian elimination, partial pivoting);
    zeros when ``a`` is singular."""
    m = [list(a[i]) + [b[i]] for i in range(3)]
    for i in range(3):
        pivot = max(range(i, 3), key=lambda r: abs(m[r][i]))
        if abs(m[pivot][i]) < 1e-15:
            return [0.0, 0.0, 0.0]
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(i + 1, 3):
            f = m[r][i] / m[i][i]
            for c in range(i, 4):
                m[r][c] -= f * m[i][c]
    x = [0.0, 0.0, 0.0]
    for i in (2, 1, 0):
        x[i] = (m[i][3] - sum(m[i][c] * x[c] for c in range(i + 1, 3))) / m[i][i]
    return x


def fit_lag(data):
    """The channels' lag behind a moving object, pooled over a set's classes: per
    class and channel, ``log x[k]`` regressed on its log brightness ``L``, ``L^2``
    and ``movement(L)``; the last coefficient, weighted by readings, over the
    classes. A sensor that reads its filters one after another (the TCS230: red
    first, blue last) reads a brightening object darker in its first channel and
    brighter in its last: about -0.3, 0, +0.35 there; one that reads its channels at
    once (the EV3), about 0. ``data``: ``{label: rows}``. Returns 3 floats."""
    total = 0
    lag = [0.0, 0.0, 0.0]
    for label in sorted(data):
        rows = data[label]
        if len(rows) < 10:
            continue
        logc = [math.log(max(row[0], 1e-9)) for row in rows]
        mc = _mean(logc)
        lc = [v - mc for v in logc]
        vl = _mean([v * v for v in lc])
        xs = [lc, [v * v - vl for v in lc], movement(lc)]
        xs = [[v - _mean(x) for v in x] for x in xs]
        a = [[_mean([xs[i][t] * xs[j][t] for t in range(len(rows))]) for j in range(3)]
             for i in range(3)]
        for k in range(1, 4):
            y = [math.log(max(row[k], 0.5)) for row in rows]
            my = _mean(y)
            b = [_mean([xs[i][t] * (y[t] - my) for t in range(len(rows))]) for i in range(3)]
            lag[k - 1] += len(rows) * _solve3(a, b)[2]
        total += len(rows)
    return [v / total for v in lag] if total else lag


def fit_class(rows, lag=None):
    """Fit one class's log. ``rows``: ``[(c, r, g, b), ...]`` in intensity units,
    in the order they were read (at least 10). Returns a dict: ``m``, ``s``, ``q``,
    ``sigma_s`` (3 floats each), ``sigma_l``, ``rho_l``, ``p``, ``shot``, ``n``.
    With ``lag`` (3 floats, ``fit_lag``): each channel's part that follows how fast
    the brightness moves (``lag[k] x movement(L)``) is taken out before the rest is
    fitted, and the dict has ``lag`` and ``shots`` too (each channel's own white
    noise; ``shot`` is their mean)."""
    logc = [math.log(max(row[0], 1e-9)) for row in rows]
    mc = _mean(logc)
    lc = [v - mc for v in logc]
    moved = movement(lc) if lag else None
    vl = _autocov(lc, 0)
    rho = _autocorr(lc)
    out = {"n": len(rows), "sigma_l": math.sqrt(vl), "rho_l": min(0.999, max(0.0, rho)),
           "m": [], "s": [], "sigma_s": [], "p": 0.0, "shot": 0.0}
    ps = []
    shots = []
    # the curvature of each channel's response to brightness: regress on L and L^2 - E[L^2]
    l2 = [v * v - vl for v in lc]
    vq = _mean([v * v for v in l2])
    clq = _mean([lc[i] * l2[i] for i in range(len(lc))])
    det = vl * vq - clq * clq
    out["q"] = []
    for k in range(1, 4):
        y = [math.log(max(row[k], 0.5)) for row in rows]
        if lag:
            y = [y[i] - lag[k - 1] * moved[i] for i in range(len(y))]
        my = _mean(y)
        cy = _mean([lc[i] * (y[i] - my) for i in range(len(y))])
        qy = _mean([l2[i] * (y[i] - my) for i in range(len(y))])
        if det > 1e-12:
            slope = (cy * vq - qy * clq) / det
            curve = (qy * vl - cy * clq) / det
        else:
            slope, curve = (cy / vl if vl > 0 else 1.0), 0.0
        out["q"].append(curve)
        res = [y[i] - my - slope * lc[i] - curve * l2[i] for i in range(len(y))]
        a0 = _autocov(res, 0)
        a1 = _autocov(res, 1)
        a2 = _autocov(res, 2)
        p = 1.0 - a2 / a1 if a1 > 0 and a2 > 0 else 0.5
        p = min(0.9, max(0.01, p))
        step = a1 / (1.0 - p) if a1 > 0 else 0.0
        step = min(step, a0)
        level = math.exp(my)
        # what the residual's variance leaves over: white (shot) noise and quantisation,
        # in relative units; shot noise in counts is var / level
        white = max(0.0, a0 - step) * level * level - 1.0 / 12
        shots.append(max(0.0, white) / level)
        ps.append(p)
        out["m"].append(my)
        out["s"].append(slope)
        out["sigma_s"].append(math.sqrt(step))
    out["p"] = _mean(ps)
    out["shot"] = _mean(shots)
    if lag:
        out["lag"] = list(lag)
        out["shots"] = shots
    return out


def fit_set(data, units=None, rounds=2, seed=99, lag=False):
    """``{label: fit_class(rows)}`` for a whole set ``{label: rows}``.

    With ``units`` (``ev3`` or ``tcs230``), each class's drift steps are then
    scaled, ``rounds`` times, so that a simulated log of it has the real log's
    chromaticity spread (the autocovariances alone leave slow components out):
    a moment-matching fit of ``sigma_s``, each channel's factor within 0.5 .. 3.

    ``lag``: for a replica that follows the real logs' brightness paths
    (``LogModel(paths=brightness_paths(data))``): the set's channel lag
    (``fit_lag``) is fitted and each class refitted with it, and the moment
    matching simulates on those paths, so the lag's share of the chromaticity
    spread is not given to the drift steps too.
    """
    out = {}
    lags = fit_lag(data) if lag else None
    for label in sorted(data):
        out[label] = fit_class(data[label], lags)
    if units is None:
        return out
    paths = brightness_paths(data) if lag else None
    for r in range(rounds):
        model = LogModel(out, units, seed + r, paths=paths)
        for label in sorted(data):
            real = log_stats(data[label])["chroma_sd"]
            sim = log_stats(model.log(label, len(data[label])))["chroma_sd"]
            ratio = [real[k] / sim[k] if sim[k] > 0 else 1.0 for k in range(3)]
            mean = sum(ratio) / 3
            mean = 0.5 if mean < 0.5 else (3.0 if mean > 3.0 else mean)
            f = out[label]
            f["sigma_s"] = [v * mean for v in f["sigma_s"]]
    return out


def pooled(fits):
    """The set's sensor-noise parameters pooled over its classes (weighted by
    readings): ``{"shot", "p", "sigma_s", "sigma_l", "rho_l"}`` (``sigma_s`` is
    the mean over channels)."""
    total = sum(f["n"] for f in fits.values())
    out = {"shot": 0.0, "p": 0.0, "sigma_s": 0.0, "sigma_l": 0.0, "rho_l": 0.0}
    for f in fits.values():
        w = f["n"] / total
        out["shot"] += w * f["shot"]
        out["p"] += w * f["p"]
        out["sigma_s"] += w * _mean(f["sigma_s"])
        out["sigma_l"] += w * f["sigma_l"]
        out["rho_l"] += w * f["rho_l"]
    return out


class LogModel:
    """Simulated logs of a fitted set. ``fits``: ``fit_set``'s dict; ``units``:
    ``ev3`` or ``tcs230``; ``seed``: int. ``noise``: scales every random part."""

    def __init__(self, fits, units, seed=0, noise=1.0, paths=None):
        if units not in UNITS:
            raise ValueError("units must be one of %s, not %r" % (", ".join(UNITS), units))
        self.fits = fits
        self.units = units
        self.noise = noise
        self.rng = Rng(seed)
        #: per class, a brightness path to follow instead of drawing one
        #: (``brightness_paths``); None: the AR(1) of the fit
        self.paths = paths or {}

    def log(self, label, n):
        """``n`` readings ``(c, r, g, b)`` of class ``label``, one after another,
        in the set's intensity units (as ``bench_classifier`` reads the real files)."""
        f = self.fits[label]
        rng = self.rng
        g = self.noise
        rho = f["rho_l"]
        lvl = rng.normal(0.0, f["sigma_l"] * g)
        steps = [rng.normal(0.0, f["sigma_s"][k] * g) for k in range(3)]
        innov = f["sigma_l"] * math.sqrt(max(0.0, 1.0 - rho * rho)) * g
        out = []
        path = self.paths.get(label)
        lag = f.get("lag") if path else None  # the lag needs the path's movement
        moved = movement(path) if lag else None
        shots = f.get("shots") or [f["shot"]] * 3
        for t in range(n):
            lvl = rho * lvl + rng.normal(0.0, innov)
            if path:
                lvl = path[t % len(path)]
            row = []
            for k in range(3):
                if rng.random() < f["p"]:
                    steps[k] = rng.normal(0.0, f["sigma_s"][k] * g)
                curve = f["q"][k] * (lvl * lvl - f["sigma_l"] ** 2) if "q" in f else 0.0
                if lag:
                    curve += lag[k] * moved[t % len(path)]
                x = math.exp(f["m"][k] + f["s"][k] * lvl + curve + steps[k])
                x += rng.normal(0.0, math.sqrt(shots[k] * x) * g) if shots[k] > 0 else 0.0
                row.append(self._quantise(x))
            out.append((row[0] + row[1] + row[2], row[0], row[1], row[2]))
        return out

    def _quantise(self, x):
        if self.units == "ev3":
            v = int(x + 0.5)
            return v if v > 0 else 0
        width = int(10000.0 / x + 0.5) if x > 0 else 10000
        return 10000.0 / (width if width >= 1 else 1)

    def sets(self, lengths):
        """``{label: log}`` with ``lengths[label]`` readings each (e.g. the real set's)."""
        return {label: self.log(label, lengths[label]) for label in sorted(lengths)}


def brightness_paths(data):
    """``{label: [L[t], ...]}``: each real log's own brightness path, its log clear
    count less its mean (the ``L`` of the model), for ``LogModel(paths=...)``: a
    replica that keeps the real set's distances and seating, reading after
    reading, and simulates the rest (colours, drift, noise, counts)."""
    out = {}
    for label in sorted(data):
        logc = [math.log(max(row[0], 1e-9)) for row in data[label]]
        mc = _mean(logc)
        out[label] = [v - mc for v in logc]
    return out


def log_stats(rows):
    """Statistics of one class's log: ``level`` and ``noise`` (3 floats each: mean
    and first-difference spread over sqrt 2, per channel), ``chroma_sd`` (3),
    ``lag1`` (3: lag-1 autocorrelation per channel)."""
    out = {"level": [], "noise": [], "chroma_sd": [], "lag1": []}
    for k in range(1, 4):
        xs = [float(row[k]) for row in rows]
        diffs = [xs[i + 1] - xs[i] for i in range(len(xs) - 1)]
        out["level"].append(_mean(xs))
        out["noise"].append(math.sqrt(_mean([d * d for d in diffs]) / 2))
        out["chroma_sd"].append(_sd([row[k] / row[0] if row[0] else 0.0 for row in rows]))
        out["lag1"].append(_autocorr(xs))
    return out
