"""The classifier on real third-party sensor readings (../shared/data/sensor).

The data is not in the repository (licences: see its SOURCES.md); the tests
skip when it is absent. Waddl-E: LEGO EV3 colour sensor RGB of coloured cubes,
clear channel taken as R + G + B. Calibrated on every 4th reading, tested on
the rest, for each edition's colours.
"""

import os
import sys

import pytest
from camelhost import paths

sys.path[:0] = [os.path.join(paths.REPO_ROOT, "tests", "bench")]

import bench_classifier as bench  # noqa: E402
from camelup import classifier as C  # noqa: E402

SETTINGS = {"integration_ms": 614.4, "gain": 1}  # other units: never saturated


@pytest.fixture(scope="module")
def waddle(reference_dir):
    folder = os.path.join(reference_dir, "data", "sensor", "Waddl-E")
    if not os.path.isdir(folder):
        pytest.skip("Waddl-E readings absent")
    return bench._read_waddle(folder)


@pytest.mark.parametrize("edition", ["classic", "second"])
def test_waddle_every_4th_reading_calibrates_the_rest(waddle, edition):
    subset = bench._real_edition(waddle, edition, None)
    assert len(subset) == 5
    cal = {label: rows[::4] for label, rows in subset.items()}
    test = {label: [r for i, r in enumerate(rows) if i % 4] for label, rows in subset.items()}
    report = C.evaluate(C.Classifier(C.fit(cal, edition, SETTINGS)), test)
    total = report["_total"]
    assert total["n"] > 2500
    assert total["accuracy"] >= 0.97, total
    assert total["error"] <= 0.005, total


def test_waddle_rejects_rather_than_guesses_when_calibration_is_narrow(waddle):
    """Calibrated on one stretch of each log only: many rejections, still no errors."""
    subset = bench._real_edition(waddle, "second", None)
    cal = {label: rows[: len(rows) // 4] for label, rows in subset.items()}
    test = {label: rows[len(rows) // 4 :] for label, rows in subset.items()}
    total = C.evaluate(C.Classifier(C.fit(cal, "second", SETTINGS)), test)["_total"]
    assert total["rejected"] > 0.05
    assert total["error"] <= 0.005, total
