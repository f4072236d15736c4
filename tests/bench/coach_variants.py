"""Coach settings compared on the same games: win rates and paired differences.

Every variant plays the same seeded tournament games (``camelhost.tournament``: the
same set-ups and dice generators, seats rotated), so games where the coach decides
the same way end the same way and only the games its new settings change count in
the difference. That makes a paired difference far tighter than two independent
win rates: a change that touches one game in ten shows up at a few hundred games.

    nice python tests/bench/coach_variants.py --edition classic --games 400 --seed 11 \
        --cache /tmp/coach-runs base REPLY_DECAY=0.9 PRUNE=1.0,TILE_CANDIDATES=5

``--cache DIR`` keeps each variant's per-game results in ``DIR`` (one JSON file per
variant, edition, games, seed and opponents, named with a hash of every source file
of ``camelup`` and ``camelhost``): a later run on the same code reads them instead of
playing the games again (the ``base`` run is the one every comparison repeats); any
change to the code starts afresh.

A variant is ``base`` (the coach as it is) or ``NAME=VALUE[,NAME=VALUE...]``, each
NAME an upper-case number constant of ``camelhost.coach`` (set in every worker
before its games). Printed per variant: the coach's win rate (a shared win counts
``1/k``); then, for every variant after the first, the mean paired difference from
the first in points with its 95 % interval (normal approximation over games) and how
many games changed result. The opponents are ``--bots`` (default three ``ev``).
"""

import argparse
import hashlib
import json
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


def code_hash():
    """A short hash (12 hex digits) of every ``.py`` file of ``camelup`` and
    ``camelhost`` (their paths and contents): what a cached result was played with."""
    import camelhost
    import camelup
    h = hashlib.sha256()
    for package in (camelup, camelhost):
        root = os.path.dirname(package.__file__)
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    h.update(os.path.relpath(path, root).encode())
                    with open(path, "rb") as fh:
                        h.update(fh.read())
    return h.hexdigest()[:12]


def cached_wins(cache, text, settings, bots, edition, games, seed, workers):
    """``coach_wins`` kept in the folder ``cache`` (``None``: no cache), keyed by the
    variant ``text``, the games and ``code_hash()``. Returns ``(wins, read)``, ``read``
    True when the results came from the cache."""
    if cache is None:
        return coach_wins(settings, bots, edition, games, seed, workers), False
    key = "%s|%s|%s|%d|%d|%s" % (code_hash(), text, ",".join(bots), games, seed, edition)
    path = os.path.join(cache, hashlib.sha256(key.encode()).hexdigest()[:16] + ".json")
    if os.path.exists(path):
        with open(path) as fh:
            return json.load(fh)["wins"], True
    wins = coach_wins(settings, bots, edition, games, seed, workers)
    os.makedirs(cache, exist_ok=True)
    with open(path + ".tmp", "w") as fh:
        json.dump({"key": key, "wins": wins}, fh)
    os.replace(path + ".tmp", path)  # a run stopped half-way leaves no partial result
    return wins, False


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
    p.add_argument("--cache", help="folder keeping each variant's results for the same code")
    a = p.parse_args(argv)
    try:
        variants = [(text, parse_variant(text)) for text in a.variants]
    except ValueError as e:
        p.error(str(e))
    bots = ["coach"] + a.bots.split(",")
    print("%s, %d games, seed %d, coach against %s" % (a.edition, a.games, a.seed, a.bots))
    results = []
    for text, settings in variants:
        wins, read = cached_wins(a.cache, text, settings, bots, a.edition, a.games, a.seed,
                                 a.workers)
        results.append(wins)
        print("  %-40s win %5.1f %%%s" % (text, 100.0 * sum(wins) / a.games,
                                          " (cached)" if read else ""), flush=True)
    for k in range(1, len(results)):
        mean, hw, changed = paired(results[k], results[0])
        print("  %s - %s: %+.1f points ± %.1f (95 %%), %d games changed"
              % (variants[k][0], variants[0][0], 100 * mean, 100 * hw, changed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
