"""Two tournament logs of the same games compared game by game.

``pyramid tournament --log FILE`` writes a header line naming the run
(``tournament.log_header``, skipped here), then one line a game: ``index seats coins
winners`` (seats and coins comma-separated in seat order, winners the policies of the
winning seats; logs written before read as the winners' 0-based seats). Two runs with the same ``--seats``, ``--bots`` order, ``--seed`` and
``--edition`` play the same set-ups and dice, so the games a code change leaves alone
end alike and the difference in one policy's win share is measured far more tightly
than by the two tables' intervals (``coach_variants.paired``)::

    python tests/bench/pair_logs.py tests/bench/tournaments/seed1-classic-coach-ev.log \
        /tmp/new-classic.log

Prints each log's win share for ``--policy`` (default ``coach``; a win shared by ``k``
seats counts ``1/k``, shared among that policy's seats in the game) over the games
both logs hold, then the second minus the first in points with its 95 % interval and
the number of games whose result changed. Exits 2 with a one-line message when a log
line is malformed or the two logs seat the policies differently in a game.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from camelhost.tournament import LOG_HEADER  # noqa: E402
from coach_variants import paired  # noqa: E402


def read_log(path, policy):
    """{game index: (seats text, win share of ``policy`` 0..1)} of a tournament log.
    Raises ``ValueError`` naming the file and line for a malformed line."""
    out = {}
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip() or line.startswith(LOG_HEADER):
                continue  # the run's header (``tournament.log_header``): no game
            try:
                index, seats, coins, winners = line.split()
                names = seats.split(",")
                # the winners' policies (older logs: their seat indexes)
                won = [names[int(w)] if w.isdigit() and int(w) < len(names) else w
                       for w in winners.split(",")]
                if len(coins.split(",")) != len(names) or not all(w in names for w in won):
                    raise ValueError
                share = sum(1 for w in won if w == policy) / len(won)
                out[int(index)] = (seats, share)
            except ValueError:
                raise ValueError("%s line %d: not 'index seats coins winners': %r"
                                 % (path, number, line.strip()[:60])) from None
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("before", help="the first run's --log file")
    p.add_argument("after", help="the second run's --log file, the same games")
    p.add_argument("--policy", default="coach", help="whose win share to compare")
    a = p.parse_args(argv)
    try:
        before = read_log(a.before, a.policy)
        after = read_log(a.after, a.policy)
    except (OSError, ValueError) as e:
        p.exit(2, "pair_logs: %s\n" % e)
    games = sorted(set(before) & set(after))
    if not games:
        p.exit(2, "pair_logs: no game is in both logs\n")
    for i in games:
        if before[i][0] != after[i][0]:
            p.exit(2, "pair_logs: game %d seats %s in one log and %s in the other: not "
                   "the same games\n" % (i, before[i][0], after[i][0]))
    x = [before[i][1] for i in games]
    y = [after[i][1] for i in games]
    mean, hw, changed = paired(y, x)
    print("%d games in both logs; %s win share %.1f %% then %.1f %%"
          % (len(games), a.policy, 100 * sum(x) / len(x), 100 * sum(y) / len(y)))
    print("difference %+.1f points ± %.1f (95 %%), %d games changed"
          % (100 * mean, 100 * hw, changed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
