"""How often calibrate's "looks like the die read just before it" check
(``camelup.calibration.alike``) misses a die left in the head, and how often it calls
two different dice the same, on the virtual pyramid's optics (``sim_optics``), seeded.

For each edition, gain (1, 4, 16, 60) and integration time calibrate allows (2.4 ..
153.6 ms, a few of them): every die and the empty head seated once and read ``N + 1``
times in place (consecutive pairs: a die left in the head), and every die seated
afresh ``N`` times (pairs of two different dice). Readings whose LED-on reading has a
channel at the saturation level are left out (calibrate stops on a clipped clear; the
count noise does not hold for a clipped channel either). Settings whose darkest die
gives less clear than the built-in profile's light floor are counted apart ("too
dim"): calibrate says there is too little light.

    nice python tests/bench/alike_rates.py [N] [--before]

``--before``: the check as it was until s42, the count noise taken at gain 1 whatever
the gain. docs/calibration.md quotes the figures of ``N`` = 50.
"""

import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "..", "shared"),
                os.path.join(HERE, "..", "..", "hardware", "sim")]

from camelup import calibration  # noqa: E402
from camelup.board import classifier  # noqa: E402
from camelup.board import tcs34725 as tcs  # noqa: E402
from sim_optics import EDITION_DICE, OpticalModel  # noqa: E402

GAINS = (1, 4, 16, 60)
TIMES_MS = (2.4, 4.8, 12.0, 24.0, 50.4, 100.8, 153.6)


def readings(model, label, n, integration_ms, gain, reseat):
    """``n`` readings (LED on minus LED off) of ``label``; ``None`` for one whose LED-on
    reading has a channel at the saturation level. Returns ``(readings, clipped)``."""
    limit = tcs.saturation_level(integration_ms)
    out = []
    clipped = 0
    for _ in range(n):
        if reseat:
            model._content = label
            model.reseat()
        off = model.counts(label, False, integration_ms, gain)
        on = model.counts(label, True, integration_ms, gain)
        if max(on) >= limit:
            clipped += 1
            out.append(None)
        else:
            out.append(tuple(max(0, on[k] - off[k]) for k in range(4)))
    return out, clipped


def measure(n, before):
    """Print each setting's counts and the totals; return the totals by (edition,
    gain, "ok" or "too dim"): ``[missed, pairs, joined, pairs of two dice]``."""
    totals = {}
    clipped = 0

    def alike(a, b, ref, gain):
        return calibration.alike(a, b, ref, 1 if before else gain)

    for edition in ("classic", "second"):
        dice = list(EDITION_DICE[edition])
        floor = classifier.default_profile(edition).get("floor", 0.0)
        for gain in GAINS:
            for it in TIMES_MS:
                model = OpticalModel(seed=4 + gain * 1000 + int(it * 10), variation=0.05)
                placed = {}
                for label in dice:
                    model._content = label
                    model.reseat()
                    placed[label], c = readings(model, label, n + 1, it, gain, False)
                    clipped += c
                fresh = {}
                for label in dice:
                    fresh[label], c = readings(model, label, n, it, gain, True)
                    clipped += c
                means = [sum(r[0] for r in rows if r) / len([r for r in rows if r])
                         for rows in fresh.values() if any(rows)]
                if not means:
                    continue
                dim = min(means) < floor
                ref = max([1.0] + [r[0] for rows in fresh.values() for r in rows if r])
                missed = pairs = joined = two = 0
                for rows in placed.values():
                    for a, b in zip(rows, rows[1:], strict=False):
                        if a and b:
                            pairs += 1
                            missed += not alike(a, b, ref, gain)
                for x, y in itertools.combinations(dice, 2):
                    for a, b in zip(fresh[x], fresh[y], strict=True):
                        if a and b:
                            two += 1
                            joined += alike(a, b, ref, gain)
                if not pairs and not two:
                    continue
                total = totals.setdefault((edition, gain, "too dim" if dim else "ok"),
                                          [0, 0, 0, 0])
                for i, v in enumerate((missed, pairs, joined, two)):
                    total[i] += v
                print("%-7s gain %2d %6.1f ms%s  left in place missed %3d/%3d  two dice "
                      "called the same %3d/%4d" % (edition, gain, it, " (too dim)" if dim else "",
                                                   missed, pairs, joined, two))
    print("--- %s; %d clipped readings left out" % (
        "before (count noise at gain 1)" if before else "count noise at the gain", clipped))
    grand = [0, 0, 0, 0]
    for key, t in sorted(totals.items()):
        print("%-7s gain %2d %-7s  left in place missed %d/%d  two dice called the same %d/%d"
              % (key + tuple(t)))
        if key[2] == "ok":
            grand = [g + v for g, v in zip(grand, t, strict=True)]
    print("settings with enough light: left in place missed %d/%d, two dice called the "
          "same %d/%d" % tuple(grand))
    return totals


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--before"]
    measure(int(args[0]) if args else 50, "--before" in sys.argv[1:])
