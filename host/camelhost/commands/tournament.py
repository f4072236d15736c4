"""``pyramid tournament``: seeded games between bot policies through the rules engine
(no pyramid), on every core, with each policy's win rate and mean final coins.

    pyramid tournament --seats 4 --games 2000 --bots coach,ev,ev,ev --seed 1 --edition second

Seats are rotated game by game (``camelhost.tournament``); a shared win counts
``1/k`` to each of the ``k`` winners. Intervals are 95 % (normal approximation).
"""

import os
import sys
import time

from camelup.editions import get_edition
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from camelhost import tournament
from camelhost.errors import CliError
from camelhost.table.bots import POLICIES

HELP = ("Seeded games between bot policies (random, greedy, ev, coach) through the rules "
        "engine, seats rotated, on every core: win rate and mean coins per policy.")


def add_arguments(parser):
    parser.add_argument("--seats", type=int, default=4, help="players per game (default 4)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--bots", default="coach,ev,ev,ev",
                        help="one policy per seat, comma separated, from: %s "
                        "(default coach,ev,ev,ev)" % ", ".join(sorted(POLICIES)))
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    parser.add_argument("--edition", default="second", help="classic or second (default second)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes (default: one per core)")
    parser.add_argument("--log", default=None, metavar="FILE",
                        help="append one line per finished game to FILE (seats, coins, winners)")


def _policies(args):
    names = [n.strip().lower() for n in args.bots.split(",") if n.strip()]
    if len(names) == 1:
        names = names * args.seats
    if len(names) != args.seats:
        raise CliError("--bots names %d policies for %d seats" % (len(names), args.seats))
    for name in names:
        if name not in POLICIES:
            raise CliError("unknown bot policy %r (one of %s)"
                           % (name, ", ".join(sorted(POLICIES))))
    return names


def _summary(tally):
    parts = []
    for name, _n, rate, _hw, _coins, _chw in tally.rows():
        parts.append("%s %.1f%%" % (name, 100 * rate))
    return " ".join(parts)


def run(args):
    edition = get_edition(args.edition)
    if not edition.min_players <= args.seats <= edition.max_players:
        raise CliError("the %s edition is for %d..%d players, not %d"
                       % (edition.name, edition.min_players, edition.max_players, args.seats))
    if args.games < 1:
        raise CliError("--games must be at least 1")
    names = _policies(args)
    if args.workers is not None and args.workers < 1:
        raise CliError("--workers must be at least 1")
    # no more processes than games: the others would only start and stop
    workers = min(args.workers or os.cpu_count() or 1, args.games)
    tally = tournament.Tally(names)
    console = Console(file=sys.stdout)
    console.print("tournament: %s edition, %d seats, %d games, bots %s, seed %d, %d workers"
                  % (edition.name, args.seats, args.games, ",".join(names), args.seed, workers),
                  soft_wrap=True)
    log = open(args.log, "a") if args.log else None
    started = time.perf_counter()
    try:
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                      transient=not console.is_terminal) as progress:
            task = progress.add_task("games", total=args.games)
            for index, result in tournament.run(names, edition.name, args.games, args.seed,
                                                workers):
                tally.add(result)
                if log is not None:
                    log.write("%d %s %s %s\n" % (index, ",".join(result["seats"]),
                                                 ",".join(str(c) for c in result["coins"]),
                                                 ",".join(str(w) for w in result["winners"])))
                    log.flush()
                progress.update(task, advance=1, description=_summary(tally))
    finally:
        if log is not None:
            log.close()
    elapsed = time.perf_counter() - started
    console.print("%d games in %.0f s (%.2f s per game)"
                  % (tally.games, elapsed, elapsed / max(1, tally.games)))
    console.print("%-8s %6s %18s %20s" % ("policy", "seats", "win rate (95%)", "mean coins (95%)"))
    for name, n, rate, hw, coins, chw in tally.rows():
        console.print("%-8s %6d %10.1f%% +/- %4.1f %12.2f +/- %5.2f"
                      % (name, n, 100 * rate, 100 * hw, coins, chw))
    return 0
