"""How well the race odds foretell real races: winner / loser odds at every leg start of
recorded tournament games, next to how those races really ended, for the race odds
with the measured tiles in later legs (``later_tiles=True``) and without
(``later_tiles=False``, the default).

Input: JSON lines written by ``tests/bench/tile_placements.py`` (``starts``: the
position at each leg start; ``winner`` / ``loser``: the race's first and last camel).
Use games the tile table was NOT measured on (``LATER_TILES`` comes from seed 11):

    nice python tests/bench/tile_placements.py --edition classic --games 200 --seed 12 \
        --out /tmp/eval-classic.jsonl
    nice python tests/bench/race_accuracy.py /tmp/eval-classic.jsonl

Per position and pile: Brier score ``sum_c (p_c - [c is the one])^2`` (0 best, 2 worst)
and log loss ``-ln p`` of the camel that really won / lost (p floored at 1e-4).
Printed: each model's mean and the mean paired difference (tiles minus no tiles) with
a 95 % interval over games (positions of one game are not independent: the interval
is the cluster-robust one, games as clusters). Negative differences: the tiles model
foretells better. Every race odds call has the same seed and race count for both
models; the sampling noise (a few thousand races) is small next to the outcome noise.
"""

import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))

from camelup.odds.game import position_from_text  # noqa: E402
from camelup.odds.race import race_odds  # noqa: E402

Z95 = 1.96
FLOOR = 1e-4


def _scores(odds, actual):
    """(Brier, log loss) of one pile's odds (dict colour -> p) against ``actual``."""
    brier = 0.0
    for c in odds:
        y = 1.0 if c == actual else 0.0
        brier += (odds[c] - y) ** 2
    return brier, -math.log(max(odds.get(actual, 0.0), FLOOR))


def _mean_ci(per_game):
    """Mean over positions and its cluster-robust 95 % half-width: ``per_game`` is a
    list of ``(sum over the game's positions, number of positions)``."""
    n = sum(k for _s, k in per_game)
    mean = sum(s for s, _k in per_game) / n
    g = len(per_game)
    var = sum((s - mean * k) ** 2 for s, k in per_game) / n ** 2
    var *= g / max(1, g - 1)
    return mean, Z95 * var ** 0.5


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("files", nargs="+")
    p.add_argument("--samples", type=int, default=4000, help="races per race odds call")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=0, help="at most this many games a file")
    a = p.parse_args(argv)
    if hasattr(os, "getloadavg"):
        print("load average %.2f %.2f %.2f" % os.getloadavg())
    by = {}
    for path in a.files:
        with open(path) as f:
            lines = f.readlines()
        if a.games:
            lines = lines[:a.games]
        for line in lines:
            r = json.loads(line)
            by.setdefault(r["edition"], []).append(r)
    metrics = ("winner brier", "winner log loss", "loser brier", "loser log loss")
    for edition in sorted(by):
        games = by[edition]
        # per model, per metric: [(sum over a game's positions, positions)] per game
        sums = {True: {m: [] for m in metrics}, False: {m: [] for m in metrics}}
        diffs = {m: [] for m in metrics}
        positions = 0
        for r in games:
            game_sum = {True: dict.fromkeys(metrics, 0.0), False: dict.fromkeys(metrics, 0.0)}
            starts = r["starts"]
            for text in starts:
                pos = position_from_text(text)
                for later in (True, False):
                    odds = race_odds(pos, seed=a.seed, samples=a.samples, cache=False,
                                     later_tiles=later)
                    wb, wl = _scores(odds.winner, r["winner"])
                    lb, ll = _scores(odds.loser, r["loser"])
                    for m, v in zip(metrics, (wb, wl, lb, ll), strict=True):
                        game_sum[later][m] += v
            positions += len(starts)
            for m in metrics:
                for later in (True, False):
                    sums[later][m].append((game_sum[later][m], len(starts)))
                diffs[m].append((game_sum[True][m] - game_sum[False][m], len(starts)))
        print("%s: %d games (seeds %s), %d leg-start positions, %d races per call"
              % (edition, len(games), sorted({r["seed"] for r in games}), positions,
                 a.samples))
        print("  %-16s %16s %16s %24s" % ("", "no later tiles", "measured tiles",
                                           "tiles - none (95 %)"))
        for m in metrics:
            old, old_hw = _mean_ci(sums[False][m])
            new, new_hw = _mean_ci(sums[True][m])
            d, d_hw = _mean_ci(diffs[m])
            print("  %-16s %9.4f±%.4f %9.4f±%.4f %+10.4f [%+.4f, %+.4f]"
                  % (m, old, old_hw, new, new_hw, d, d - d_hw, d + d_hw))
    return 0


if __name__ == "__main__":
    sys.exit(main())
