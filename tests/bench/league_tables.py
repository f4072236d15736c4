"""The coach against the league (issue 31): every table as a ``pyramid tournament``
command, run or only printed, and each table's summary from its game log.

The tables: the coach against three players of each league style
(``camelhost.league.STYLES``) in both editions, but the ``partner`` style only at a
6-seat second-edition table, where partnerships exist (RULES 3.8: with 3..5 players
the cards stay in the box, so at four seats that style plays exactly the ``ev``
table's games); the coach at mixed tables (three different styles); four coaches (each
should win about a quarter: a check of the harness); the coach against three ``ev``
bots, to pair game by game with the logs kept in ``tests/bench/tournaments/``
(``pair_logs.py``).

    python tests/bench/league_tables.py --games 1000            # print the commands
    nice python tests/bench/league_tables.py --games 8 --run --out /tmp/league \
        --workers 1 --only classic                              # a small sample

With ``--run`` each table's games go to ``OUT/<name>.log`` (``--log``, one line a
game; a table whose log already holds its games is read, not played again) and a
summary line is printed: the coach's win share and its coin margin over the mean of
the others at its table (coins, paired per game), each with its 95 % interval.

With ``--cost N`` nothing is written: the first ``N`` games of every table are played
in this process (``tournament.play_game``, one core) and their CPU time a game is
printed with what the whole plan (``--games`` a table; the coach against three ``ev``
bots ``PAIRED_GAMES``, the paired run) costs in CPU-hours on this machine::

    nice python tests/bench/league_tables.py --cost 2 --games 1000
"""

import argparse
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))

import time  # noqa: E402

from camelhost import tournament  # noqa: E402
from camelhost.league import STYLES  # noqa: E402

Z95 = 1.96
#: Games of the coach against three ``ev`` bots: paired game by game with the kept
#: logs (issue 31: 2,000 a edition).
PAIRED_GAMES = 2000
#: The mixed tables: three different styles beside the coach.
MIXED = (("cautious", "tiles", "copycat"), ("ev", "greedy", "random"),
         ("ev", "cautious", "tiles"))


def tables(editions=("classic", "second")):
    """``[(name, edition, seats, bots)]`` of every table, in the order they run."""
    out = []
    for edition in editions:
        for style in STYLES:
            if style == "partner":  # no partnerships at four seats (RULES 3.8)
                continue
            out.append(("%s-coach-%s" % (edition, style), edition, 4,
                        ["coach", style, style, style]))
        if edition == "second":
            out.append(("second-coach-partner6", edition, 6, ["coach"] + ["partner"] * 5))
        for mix in MIXED:
            out.append(("%s-coach-%s" % (edition, "-".join(mix)), edition, 4,
                        ["coach"] + list(mix)))
        out.append(("%s-four-coaches" % edition, edition, 4, ["coach"] * 4))
    return out


def command(edition, seats, bots, games, seed, workers=None, log=None):
    """The ``pyramid tournament`` command line of a table (a list of words)."""
    words = ["pyramid", "tournament", "--edition", edition, "--seats", str(seats),
             "--games", str(games), "--bots", ",".join(bots), "--seed", str(seed)]
    if workers:
        words += ["--workers", str(workers)]
    if log:
        words += ["--log", log]
    return words


def _mean_hw(values):
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def summary(path, games=None):
    """``(games, coach win share, its half-width, coin margin, its half-width)`` from a
    tournament log (the first ``games`` games by index). At a table of coaches only,
    those of the coach in the first seat (each should be near a fair share and 0)."""
    shares = []
    margins = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            index, seats, coins, _winners = line.split()
            if games is not None and int(index) >= games:
                continue
            names = seats.split(",")
            coins = [int(c) for c in coins.split(",")]
            # the seats with the most coins share the victory (RULES 1.13): read from
            # the coins, whichever way the log names the winners (policies or seats)
            won = [s for s, c in enumerate(coins) if c == max(coins)]
            mine = [s for s, n in enumerate(names) if n == "coach"]
            me = mine[0] if len(mine) < len(names) else 0
            shares.append((1.0 / len(won)) if me in won else 0.0)
            others = [c for s, c in enumerate(coins) if s != me]
            margins.append(coins[me] - sum(others) / len(others))
    share, share_hw = _mean_hw(shares)
    margin, margin_hw = _mean_hw(margins)
    return len(shares), share, share_hw, margin, margin_hw


def planned_games(name, games):
    """Games the plan plays at table ``name``: ``games``, or ``PAIRED_GAMES`` for the
    coach against three ``ev`` bots (at least ``games``)."""
    if name.endswith("-coach-ev"):
        return max(games, PAIRED_GAMES)
    return games


def sample_cpu(bots, edition, seed, sample):
    """CPU seconds a game of the first ``sample`` games of a table, played here."""
    started = time.process_time()
    for index in range(sample):
        tournament.play_game(bots, edition, seed, index)
    return (time.process_time() - started) / sample


def cost(todo, games, sample, seed):
    """Play the first ``sample`` games of each table of ``todo`` and print their CPU
    seconds a game and the plan's CPU-hours (``planned_games``). Each table plays in a
    process of its own, as ``pyramid tournament`` would (the odds' caches start empty).
    Returns the total CPU-hours."""
    total = 0.0
    for name, edition, _seats, bots in todo:
        code = ("import sys; sys.path[:0] = %r; import league_tables; "
                "print(league_tables.sample_cpu(%r, %r, %d, %d))"
                % ([HERE], bots, edition, seed, sample))
        out = subprocess.run([sys.executable, "-c", code], check=True,
                             capture_output=True, text=True).stdout
        each = float(out.split()[-1])
        n = planned_games(name, games)
        total += n * each / 3600.0
        print("%-40s %6.2f s CPU a game x %5d games = %6.2f CPU-hours"
              % (name, each, n, n * each / 3600.0), flush=True)
    print("all %d tables: %.1f CPU-hours (%d sample games a table)"
          % (len(todo), total, sample), flush=True)
    return total


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=1000, help="games a table")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--only", default=None, help="only tables whose name contains this")
    p.add_argument("--run", action="store_true", help="play the tables (else print them)")
    p.add_argument("--cost", type=int, default=0, metavar="N",
                   help="play N games of each table here and print the plan's CPU-hours")
    p.add_argument("--out", default="league-logs", help="folder of the game logs")
    p.add_argument("--pyramid", default=os.path.join(os.path.dirname(sys.executable),
                                                     "pyramid"),
                   help="the pyramid command to run")
    a = p.parse_args(argv)
    todo = [t for t in tables() if a.only is None or a.only in t[0]]
    if a.cost:
        cost(todo, a.games, a.cost, a.seed)
        return 0
    if a.run:
        os.makedirs(a.out, exist_ok=True)
    for name, edition, seats, bots in todo:
        log = os.path.join(a.out, name + ".log")
        words = command(edition, seats, bots, a.games, a.seed, a.workers, log)
        if not a.run:
            print(" ".join(words))
            continue
        done = 0
        if os.path.exists(log):
            done = summary(log, a.games)[0]
        if done < a.games:
            if os.path.exists(log):  # a shorter run's log is kept beside, never removed
                kept = next(log + ".%d" % i for i in range(1, 10 ** 6)
                            if not os.path.exists(log + ".%d" % i))
                os.replace(log, kept)
                print("%s: %d of %d games; kept as %s, played again" % (log, done, a.games, kept))
            subprocess.run([a.pyramid] + words[1:], check=True, stdout=subprocess.DEVNULL)
        n, share, share_hw, margin, margin_hw = summary(log, a.games)
        print("%-40s %5d games  coach %5.1f %% ± %4.1f  coins %+6.2f ± %5.2f"
              % (name, n, 100 * share, 100 * share_hw, margin, margin_hw), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
