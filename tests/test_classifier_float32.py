"""The classifier in float32, as the RP2040's MicroPython runs it (issue 13).

The unix port and CPython compute in float64. Here the profile, the readings and
every operation are float32 (numpy float32 scalars: their arithmetic with ints
and Python floats stays float32, and ``math`` is swapped for float32 versions
inside the classifier module), and the decisions and margins are compared with
float64 ones on simulated and real readings.
"""

import math
import os
import sys

import pytest
from camelhost import paths

sys.path[:0] = [paths.SIM_DIR, os.path.join(paths.REPO_ROOT, "tests", "bench")]

import bench_classifier as bench  # noqa: E402
import sim_optics  # noqa: E402
from camelup import calibration  # noqa: E402
from camelup.board import classifier as C  # noqa: E402

#: numpy and its float32 scalar type, imported by the ``_numpy`` fixture
np = F32 = None


@pytest.fixture(scope="module", autouse=True)
def _numpy():
    """Import numpy for this module's tests (skipped, saying so, where it is missing), not
    at collection: each xdist worker collects every module, and the worker that never
    runs these tests would import numpy for nothing (about 0.13 CPU-s)."""
    global np, F32
    np = pytest.importorskip("numpy")
    F32 = np.float32


class _Math32:
    """``math`` for the classifier module, in float32."""

    def log(self, x):
        return F32(np.log(F32(x)))

    def sqrt(self, x):
        return F32(np.sqrt(F32(x)))

    def exp(self, x):
        return F32(np.exp(F32(x)))

    def floor(self, x):
        return math.floor(x)


def _to32(value):
    if isinstance(value, dict):
        return {k: _to32(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_to32(v) for v in value]
    if isinstance(value, float):
        return F32(value)
    return value


@pytest.fixture
def float32(monkeypatch):
    """``run(fn)``: call ``fn()`` with the classifier module computing in float32."""

    def run(fn):
        with monkeypatch.context() as m:
            m.setattr(C, "math", _Math32())
            return fn()

    return run


def _compare(profile, readings, run32, settings=None):
    """``(n, differing decisions, largest margin difference)``: float64 against float32
    (the profile's numbers rounded to float32, the Classifier built and run in float32)."""
    c64 = C.Classifier(profile, settings)
    got64 = [c64.classify(r) for r in readings]

    def in_float32():
        c32 = C.Classifier(_to32(profile), settings)
        return [c32.classify(tuple(F32(v) for v in r)) for r in readings]

    got32 = run32(in_float32)
    n = 0
    differ = []
    worst = 0.0
    for reading, (l64, m64), (l32, m32) in zip(readings, got64, got32, strict=True):
        assert not isinstance(m64, np.floating)
        n += 1
        if l64 != l32:
            differ.append((reading, l64, l32, m64, m32))
        elif l64 != C.DOUBLE:
            worst = max(worst, abs(float(m32) - m64) / (1.0 + abs(m64)))
    return n, differ, worst


def _sim_readings(edition, seed, it=24.0, gain=4, n=100):
    model = sim_optics.OpticalModel(seed)
    out = []
    for label in C.classes_for(edition):
        out += model.samples(label, n, it, gain)
    for a, b in (("blue", "yellow"), ("red", "green")):
        out += model.samples((a, b), 20, it, gain)
    return out


@pytest.mark.parametrize("edition", ["classic", "second"])
def test_float32_gives_the_same_decisions_and_margins_on_simulated_dice(float32, edition):
    cal = sim_optics.calibration_samples(edition, seed=91, n=12)
    profile = calibration.fit(cal, edition, sim_optics.DEFAULT_SETTINGS)
    n, differ, worst = _compare(profile, _sim_readings(edition, 92), float32)
    assert n > 600 and differ == [] and worst < 1e-3, (differ[:3], worst)
    # the built-in profile rescaled to the virtual pyramid's 7.2 ms (the Cholesky runs on the board)
    fast = {"integration_ms": 7.2, "gain": 4}
    n, differ, worst = _compare(C.default_profile(edition), _sim_readings(edition, 93, 7.2), float32,
                                fast)
    assert differ == [] and worst < 1e-3, (differ[:3], worst)


def test_float32_gives_the_same_decisions_on_real_readings(float32):
    sets = {units: data for _name, units, data in bench.real_sets()}
    if not sets:
        pytest.skip("real readings (../shared/data/sensor) absent")
    for units, data in sets.items():
        subset = bench._real_edition(data, "second", "black")
        cal = {label: rows[::4] for label, rows in subset.items()}
        test = [r for label, rows in subset.items() for i, r in enumerate(rows) if i % 4]
        profile = calibration.fit(cal, "second", bench.REAL_SETTINGS)
        n, differ, worst = _compare(profile, test, float32)
        # a reading exactly on a threshold may flip; none did on these sets
        assert len(differ) <= n // 2000, (units, differ[:3])
        assert worst < 1e-3, (units, worst)


def test_float32_arithmetic_really_is_float32(float32):
    """The harness itself: features, distances and margins come out as float32."""
    x = float32(lambda: C.features((F32(1000), 400, 300, 200), F32(5000.0)))
    assert all(isinstance(v, np.float32) for v in x)
    profile = C.default_profile("second")
    label, margin = float32(lambda: C.Classifier(_to32(profile)).classify(
        tuple(F32(v) for v in (1500, 700, 300, 200))))
    assert isinstance(margin, np.float32)
    assert float(F32(1) / F32(3)) != 1 / 3
