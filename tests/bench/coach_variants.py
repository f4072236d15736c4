"""Coach settings compared on the same games: win rates and paired differences.

Every variant plays the same seeded tournament games (``camelhost.tournament``: the
same set-ups and dice generators, seats rotated), so games where the coach decides
the same way end the same way and only the games its new settings change count in
the difference. That makes a paired difference far tighter than two independent
win rates: a change that touches one game in ten shows up at a few hundred games.

    nice python tests/bench/coach_variants.py --edition classic --games 400 --seed 11 \
        base REPLY_DECAY=0.9 PRUNE=1.0,TILE_CANDIDATES=5

A variant is ``base`` (the coach as it is) or ``NAME=VALUE[,NAME=VALUE...]``, each
NAME an upper-case number constant of ``camelhost.coach`` (set in every worker
before its games). Printed per variant: the coach's win rate (a shared win counts
``1/k``); then, for every variant after the first, the mean paired difference from
the first in points with its 95 % interval (normal approximation over games) and how
many games changed result. The opponents are ``--bots`` (default three ``ev``).
"""

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor

from camelhost import coach, tournament

Z95 = 1.96


def parse_variant(text):
    """``base`` -> ``{}``; ``A=1,B=0.5`` -> ``{"A": 1, "B": 0.5}`` (each value of the
    setting's own type: int or float). Raises ``ValueError`` naming a setting that is
    not a number constant of the coach, or a value it can't take."""
    if text == "base":
        return {}
    out = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not sep or not name.isupper() or not isinstance(getattr(coach, name, None),
                                                           (int, float)):
            raise ValueError("%r: not NAME=VALUE with NAME a number setting of "
                             "camelhost.coach" % item)
        current = getattr(coach, name)
        try:
            out[name] = type(current)(value)  # an integer setting stays an integer
        except ValueError:
            raise ValueError("%r: %s takes %s" % (item, name, "a whole number" if isinstance(
                current, int) else "a number")) from None
    return out


def _settle(settings):
    for name in settings:
        setattr(coach, name, settings[name])


def _play(job):
    return tournament._play(job)


def coach_wins(settings, bots, edition, games, seed, workers):
    """The coach's win share (0, 1/k or 1) in each of ``games`` games, by index."""
    jobs = [(bots, edition, seed, i) for i in range(games)]
    wins = [0.0] * games
    with ProcessPoolExecutor(workers, initializer=_settle, initargs=(settings,)) as pool:
        for i, result in pool.map(_play, jobs, chunksize=2):
            seat = result["seats"].index("coach")
            if seat in result["winners"]:
                wins[i] = 1.0 / len(result["winners"])
    return wins


def paired(a, b):
    """(mean of a - b, 95 % half-width, games that differ) over paired lists."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
    return mean, Z95 * (var / n) ** 0.5, sum(1 for x in d if x)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("variants", nargs="+", help="base or NAME=VALUE[,NAME=VALUE...]")
    p.add_argument("--edition", default="classic", choices=("classic", "second"))
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--bots", default="ev,ev,ev", help="the coach's opponents")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    a = p.parse_args(argv)
    try:
        variants = [(text, parse_variant(text)) for text in a.variants]
    except ValueError as e:
        p.error(str(e))
    bots = ["coach"] + a.bots.split(",")
    print("%s, %d games, seed %d, coach against %s" % (a.edition, a.games, a.seed, a.bots))
    results = []
    for text, settings in variants:
        wins = coach_wins(settings, bots, a.edition, a.games, a.seed, a.workers)
        results.append(wins)
        print("  %-40s win %5.1f %%" % (text, 100.0 * sum(wins) / a.games), flush=True)
    for k in range(1, len(results)):
        mean, hw, changed = paired(results[k], results[0])
        print("  %s - %s: %+.1f points +/- %.1f (95 %%), %d games changed"
              % (variants[k][0], variants[0][0], 100 * mean, 100 * hw, changed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
