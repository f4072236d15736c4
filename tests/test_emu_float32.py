"""The board's single-precision floats, on the float32 MicroPython unix port.

The RP2040's MicroPython computes in float32 (``1.1 + 2.2`` is ``3.3000002``); CPython
and the PyPI unix port in float64. ``../shared/rp2/micropython-v1.28.0-unix-float32``
is MicroPython v1.28 built with ``MICROPY_FLOAT_IMPL_FLOAT``: the classifier's
decisions on every real reading of ``../shared/data`` (profiles fitted by CPython, as
``pyramid calibrate`` fits them on the host and stores them on the board) must be
the decisions CPython takes, and the firmware's wire format of a reading must not
change. Skipped, saying why, when the reference build or the data is absent.
"""

import json
import os
import subprocess
import sys

import pytest
from camelhost import paths
from camelhost.device.micropython import micropython_env

sys.path[:0] = [os.path.join(paths.REPO_ROOT, "tests", "bench")]

import bench_classifier as bench  # noqa: E402
from camelup import calibration  # noqa: E402
from camelup.board import classifier as C  # noqa: E402

pytestmark = pytest.mark.emu

FLOAT32 = os.path.join(paths.REFERENCE_DIR, "rp2", "micropython-v1.28.0-unix-float32")
SETTINGS = {"integration_ms": 614.4, "gain": 1}  # as tests/test_classifier_real.py

_DECIDE = r"""
import json, sys
from camelup.board import classifier as C
with open(sys.argv[1]) as f:
    jobs = json.load(f)
for job in jobs:
    clf = C.Classifier(job["profile"])
    print(" ".join(clf.classify(r)[0] for r in job["readings"]))
"""


@pytest.fixture(scope="module")
def float32():
    if not os.path.exists(FLOAT32):
        pytest.skip("the float32 MicroPython unix port (../shared/rp2) is absent")

    def run(args, timeout=600):
        return subprocess.run([FLOAT32, "-X", "heapsize=64M"] + list(args), capture_output=True,
                              text=True, timeout=timeout, env=micropython_env([paths.SHARED_DIR]))

    return run


@pytest.fixture(scope="module")
def real_sets():
    sets = bench.real_sets()
    if not sets:
        pytest.skip("real readings (../shared/data/sensor) absent")
    return sets


def test_the_port_computes_in_single_precision(float32):
    got = float32(["-c", "print(1.1 + 2.2)"])
    assert got.stdout.strip() == "3.3000002"


def _jobs(real_sets):
    """One job per real set and edition: the profile fitted on every 4th reading of each
    class (CPython, as the host fits it), and every reading of the set to decide."""
    jobs = []
    for name, _units, data in real_sets:
        for edition in ("classic", "second"):
            subset = bench._real_edition(data, edition, "black")
            cal = {label: rows[::4] for label, rows in sorted(subset.items())}
            profile = calibration.fit(cal, edition, SETTINGS)
            readings = [list(r) for label in sorted(subset) for r in subset[label]]
            jobs.append({"name": "%s, %s" % (name, edition), "profile": profile,
                         "readings": readings})
    return jobs


def test_classifier_decisions_in_float32_equal_cpythons_on_every_real_reading(float32, real_sets, tmp_path):
    jobs = _jobs(real_sets)
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs))
    script = tmp_path / "decide.py"
    script.write_text(_DECIDE)
    got = float32([str(script), str(path)])
    assert got.returncode == 0, got.stderr[-2000:]
    lines = got.stdout.splitlines()
    assert len(lines) == len(jobs)
    differ = []
    total = 0
    for job, line in zip(jobs, lines, strict=True):
        clf = C.Classifier(job["profile"])
        ours = [clf.classify(r)[0] for r in job["readings"]]
        theirs = line.split()
        assert len(theirs) == len(ours)
        total += len(ours)
        differ += [(job["name"], r, a, b) for r, a, b in zip(job["readings"], ours, theirs, strict=True) if a != b]
    assert total > 1000
    assert not differ, "%d of %d decisions differ in float32: %r" % (len(differ), total, differ[:10])


def _tokens(text):
    import re

    return re.split(r"(-?\d+\.\d+(?:e[-+]?\d+)?)", text)


def test_the_odds_cross_run_in_float32_differs_only_past_float32_precision(float32, capsys, tmp_path):
    """The odds never run on the board, but the cross-run of shared/ must hold there too:
    ``tests/test_odds_micropython.py``'s script prints every count, order and label as
    CPython does; only the printed decimals past single precision differ (``0.555555600``
    for ``0.555555556``), within 1e-6 relative. (``make emu`` runs the other cross-runtime
    tests of shared/ unchanged on this port.)"""
    sys.path.insert(0, os.path.join(paths.REPO_ROOT, "tests"))
    try:
        import test_odds_micropython as odds
    finally:
        sys.path.pop(0)
    script = tmp_path / "odds.py"
    script.write_text(odds.SCRIPT)
    got = float32([str(script)])
    assert got.returncode == 0, got.stderr[-2000:]
    exec(compile(odds.SCRIPT, "odds_script", "exec"), {})
    expected = capsys.readouterr().out
    ours, theirs = _tokens(expected), _tokens(got.stdout)
    assert len(ours) == len(theirs)
    floats = differ = 0
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        if i % 2 == 0:
            assert a == b  # everything between the decimals: counts, labels, order
        else:
            floats += 1
            differ += a != b
            assert abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(a))), (a, b)
    assert floats > 50 and differ > 0  # the float32 port really printed other digits
