"""The count lattice of issue 32's eighth stop (``tests/bench/bench_classifier.py``,
``lattice``; docs/classifier.md, "The count lattice: tried, not landed").

The bench's candidate classifiers of a few counts per channel rest on ``chip_pmf``, the
distribution of one channel of ``sim_optics.led_reading`` worked out from the chip's
arithmetic. These tests hold it to the simulator it claims to be (so the next stop can
build on it), and the lattice models to the first thing the issue asks of a classifier
at low counts: readings of two well-separated colours go to their colour, surely. (The
second, a reading between two colours refused, is what they do not do: a reading four
counts from every light of both dice is one die's by the ratio of two normal tails, at
a posterior of 0.99-1.0; docs/classifier.md.) The ninth stop's k nearest readings with a
reject option (``KnnReject``) is held to both.
"""

import os
import sys

import pytest
from camelhost import paths

sys.path[:0] = [os.path.join(paths.REPO_ROOT, "tests", "bench")]

import bench_classifier as bench  # noqa: E402
from sim_optics import Rng, led_reading  # noqa: E402  (the bench puts hardware/sim on the path)

LEAST = {"integration_ms": 2.4, "gain": 1}

#: numpy, imported by the ``_numpy`` fixture
np = None


@pytest.fixture(scope="module", autouse=True)
def _numpy():
    """numpy (matplotlib's, a dev dependency) for this module's tests, imported when they
    run rather than at collection, as ``tests/test_classifier_float32.py`` does: each
    xdist worker collects every module."""
    global np
    np = pytest.importorskip("numpy")


@pytest.mark.parametrize("gain", [1, 4])
def test_chip_pmf_is_the_distribution_the_simulated_chip_counts(gain):
    """Each row sums to 1, and 20,000 seeded readings of ``led_reading`` at a light of
    0, 2, 9 and 30 counts fall on each count as often as the table says (within four
    standard errors of a binomial share, plus 0.002 for the erfc fit)."""
    settings = {"integration_ms": 2.4, "gain": gain}
    table = np.exp(bench.chip_pmf(60, settings))
    assert np.allclose(table.sum(axis=1), 1.0, atol=1e-6)
    rng = Rng(11)
    draws = 20000
    for light in (0, 2, 9, 30):
        got = np.bincount([led_reading([light] * 4, 1, gain, rng)[0] for _ in range(draws)],
                          minlength=61)[:61] / draws
        p = table[light]
        assert np.all(np.abs(got - p) <= 4 * np.sqrt(p * (1 - p) / draws) + 0.002), (light, got, p)


def test_chip_pmf_refuses_counts_that_reach_the_analog_knee():
    """Above the knee the chip compresses its counts: the table is not exact there and
    says so rather than answering."""
    with pytest.raises(ValueError, match="knee"):
        bench.chip_pmf(800, LEAST)


def _two_dice(n=120):
    """Calibration readings of two synthetic dice at the sensor's least light, the same
    clear count, red and blue swapped (seeded)."""
    rng = Rng(3)
    lights = {"reddish": (20.0, 12.0, 5.0, 3.0), "bluish": (20.0, 3.0, 5.0, 12.0)}
    return {label: [led_reading(light, 1, 1, rng) for _ in range(n)] for label, light in lights.items()}


@pytest.mark.parametrize("make", [bench.ReadingsLattice, lambda cal, s: bench.ClusterLattice(cal, s, 8)],
                         ids=["readings as lights", "8 points a die"])
def test_a_lattice_names_readings_of_well_separated_colours_at_a_few_counts(make):
    """Two dice nine counts apart in red and blue at 20 counts of clear: every fresh
    reading of either (another seed's) is ranked to its die at a posterior of 0.99."""
    model = make(_two_dice(), LEAST)
    rng = Rng(29)
    for label, light in (("reddish", (20.0, 12.0, 5.0, 3.0)), ("bluish", (20.0, 3.0, 5.0, 12.0))):
        for got, post in model.rank([led_reading(light, 1, 1, rng) for _ in range(60)]):
            assert got == label and post >= 0.99, (label, got, post)


def test_knn_reject_names_fresh_readings_of_well_separated_dice_and_refuses_between_and_beyond():
    """``KnnReject`` (issue 32's ninth stop), its k, r and quantile chosen by leave-one-out on
    the two synthetic dice's calibration readings alone: fresh readings (another seed's) of
    either die are named that die, none as the other, at least 9 in 10 (its quantile refuses
    a die's outermost readings, about 1 in 100 of its calibration's); readings of a light
    halfway between them in red and blue, and of a light beyond both (red and blue both
    high), are all refused."""
    model = bench.KnnReject(_two_dice(), LEAST)
    rng = Rng(29)
    for label, light in (("reddish", (20.0, 12.0, 5.0, 3.0)), ("bluish", (20.0, 3.0, 5.0, 12.0))):
        got = model.name([led_reading(light, 1, 1, rng) for _ in range(60)])
        assert set(got) <= {label, None} and got.count(label) >= 54, (label, got, model.chosen)
    for light in ((20.0, 7.5, 5.0, 7.5), (28.0, 12.0, 5.0, 12.0)):
        assert model.name([led_reading(light, 1, 1, rng) for _ in range(60)]) == [None] * 60, (
            light, model.chosen)
