"""The coach's move time: the distribution of the CPU time of every coach move (median,
90th and 99th percentile, max) in seeded tournament games, coach against ``ev`` bots,
both editions with 4 and 8 seats.

Goal (issue 31): median 50 ms, 99th percentile 0.5 s of CPU time (second edition, 4
and 8 seats). Process time is counted, so a loaded machine changes it less than wall
time; the other seats' moves are played but not timed. ``make bench`` plays
``GAMES`` games a row (a short sample: the 99th percentile of a few hundred moves is
near the max); for a longer run::

    python tests/bench/bench_coach.py --games 40

``--rows second:8`` plays only that row; ``--opponent partner`` seats that bot
policy (any of ``pyramid tournament --bots``) beside the coach instead of ``ev``;
``--actions FILE`` writes every seat's action a line, so two versions of the code can
be compared move for move (``cmp``): a change meant to leave the coach's choices alone
must leave that file alone. The eight-seat rule's check that 4- and 6-seat choices
are main's::

    python tests/bench/bench_coach.py --games 3 --rows second:4,classic:4 --actions A
    python tests/bench/bench_coach.py --games 5 --rows second:6 --opponent partner \
        --actions B

After the move times, the coach's finish-card habits at 4, 6 and 8 seats
(``CARD_ROWS``, second edition, ``pyramid tournament``'s games and its finish-card
figures, ``tournament.Tally.cards``): cards laid a race, the share laid correctly and
the share laid in the 1st leg. At 6 seats the tester of stop 39 saw 36 % in the 1st leg
against 11 % at 4 (12 games): this row says whether that early-card habit returns.
``--card-games N`` plays N games a row there (0: none), ``--cards-only`` skips the
move times; a measurement on a shared machine::

    nice -n 19 python tests/bench/bench_coach.py --cards-only --card-games 30

``--bots coach,ev,ev,ev`` instead prints the CPU time of whole games (second edition,
one policy a seat, rotated as ``pyramid tournament`` rotates them), split by policy:
what a table of the league costs and who spends it.

Benchmarks report, they never fail.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))

from camelhost import tournament  # noqa: E402
from camelhost.table.bots import POLICIES  # noqa: E402
from camelup.game import Game  # noqa: E402
from camelup.rng import XorShift32  # noqa: E402

#: Games a row in ``make bench``.
GAMES = 3
#: (edition, seats) rows: both editions at 4 and 8 seats.
ROWS = (("second", 4), ("second", 8), ("classic", 4), ("classic", 8))
#: Tournament seed of the games.
SEED = 5
#: (edition, seats) rows of the finish-card figures: the coach beside ``ev`` bots at
#: 4, 6 and 8 seats (6: the tester's early cards of stop 39).
CARD_ROWS = (("second", 4), ("second", 6), ("second", 8))


def move_times(edition, seats, games, seed=SEED, opponent="ev", actions=None):
    """CPU seconds of every coach move in ``games`` tournament games (``seed``; game
    ``i`` as ``pyramid tournament`` plays it, the coach at seat ``i % seats``) against
    ``opponent`` bots. Returns a list of floats. With a list ``actions``, every seat's
    action is appended to it as a line ``"edition seats game seat text"``, to compare
    two versions' choices move for move."""
    times = []
    for i in range(games):
        number = tournament.game_seed(seed, i)
        game = Game.random(edition, seats, number)
        dice = XorShift32(number * 7 + 3)
        rngs = [XorShift32(number * 31 + s + 1) for s in range(seats)]
        coach_seat = i % seats
        while not game.is_over:
            seat = game.turn
            name = "coach" if seat == coach_seat else opponent
            started = time.process_time()
            text = POLICIES[name](game, rngs[seat])
            if name == "coach":
                times.append(time.process_time() - started)
            if actions is not None:
                actions.append("%s %d %d %d %s" % (edition, seats, i, seat, text))
            game.push(tournament.engine_action(game, text, dice))
    return times


def game_cpu(edition, bots, games, seed=SEED):
    """CPU seconds of ``games`` whole tournament games (``tournament.play_game``'s
    seating: ``bots`` rotated by the game's index), split by policy: ``({policy:
    seconds}, {policy: moves})`` over all the games."""
    seats = len(bots)
    spent = {}
    moves = {}
    for i in range(games):
        number = tournament.game_seed(seed, i)
        order = [bots[(s + i % seats) % seats] for s in range(seats)]
        game = Game.random(edition, seats, number)
        dice = XorShift32(number * 7 + 3)
        rngs = [XorShift32(number * 31 + s + 1) for s in range(seats)]
        while not game.is_over:
            seat = game.turn
            name = order[seat]
            started = time.process_time()
            text = POLICIES[name](game, rngs[seat])
            spent[name] = spent.get(name, 0.0) + time.process_time() - started
            moves[name] = moves.get(name, 0) + 1
            game.push(tournament.engine_action(game, text, dice))
    return spent, moves


def card_habits(edition, seats, games, seed=SEED, opponent="ev"):
    """The coach's finish cards in ``games`` games of ``pyramid tournament --edition
    edition --seats seats --bots coach,opponent,... --seed seed`` (``tournament.run`` on
    one process: the same games): ``(cards a race, share laid correctly, share laid in
    the 1st leg)``, as ``tournament.Tally.cards`` counts them (the shares 0..1, ``None``
    with no card laid)."""
    bots = ["coach"] + [opponent] * (seats - 1)
    tally = tournament.Tally(bots)
    for _index, result in tournament.run(bots, edition, games, seed, workers=1):
        tally.add(result)
    return dict((c[0], c[1:]) for c in tally.cards())["coach"]


def _share(value):
    return "%7s" % ("-" if value is None else "%.0f %%" % (100 * value))


def percentile(sorted_values, share):
    """The nearest-rank ``share`` (0..1) percentile of an ascending list."""
    if not sorted_values:
        return 0.0
    rank = max(1, int(share * len(sorted_values) + 0.999999))
    return sorted_values[min(len(sorted_values), rank) - 1]


def distribution(times):
    """``(moves, median, 90th, 99th percentile, max, mean)`` of ``times`` (seconds)."""
    s = sorted(times)
    mean = sum(s) / len(s) if s else 0.0
    return (len(s), percentile(s, 0.5), percentile(s, 0.9), percentile(s, 0.99),
            s[-1] if s else 0.0, mean)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=GAMES, help="games a row")
    parser.add_argument("--seed", type=int, default=SEED, help="tournament seed")
    parser.add_argument("--bots", default=None,
                        help="whole games' CPU by policy instead (e.g. coach,ev,ev,ev)")
    parser.add_argument("--edition", default="second", help="with --bots")
    parser.add_argument("--rows", default=None,
                        help="only these rows, e.g. second:8,classic:4")
    parser.add_argument("--opponent", default="ev",
                        help="the bot policy at every other seat (default ev)")
    parser.add_argument("--actions", default=None,
                        help="write every seat's action, a line each, to this file")
    parser.add_argument("--card-games", type=int, default=GAMES,
                        help="games a row of the finish-card figures (0: none)")
    parser.add_argument("--cards-only", action="store_true",
                        help="only the finish-card figures, not the move times")
    args = parser.parse_args(argv if argv is not None else [])
    if args.bots:
        bots = args.bots.split(",")
        spent, moves = game_cpu(args.edition, bots, args.games, args.seed)
        print("%s, %s, seed %d: %.2f s CPU a game (%d games);" % (
            args.edition, ",".join(bots), args.seed, sum(spent.values()) / args.games,
            args.games))
        for name in sorted(spent):
            print("  %-10s %6.2f s a game, %4d moves, %6.1f ms a move" % (
                name, spent[name] / args.games, moves[name], 1e3 * spent[name] / moves[name]))
        return
    if hasattr(os, "getloadavg"):
        print("load average %.2f %.2f %.2f on %d cpus" % (os.getloadavg() + (os.cpu_count(),)))
    if args.opponent not in POLICIES:
        parser.error("--opponent: unknown bot policy %r (one of %s)"
                     % (args.opponent, ", ".join(sorted(POLICIES))))
    if not args.cards_only:
        move_rows(args)
    if args.card_games > 0:
        print("coach's finish cards, coach + %s bots, seed %d, %d games a row:"
              % (args.opponent, args.seed, args.card_games))
        print("  %-8s %5s %13s %7s %7s" % ("edition", "seats", "laid per race", "correct",
                                          "1st leg"))
        for edition, seats in CARD_ROWS:
            per_race, right, first = card_habits(edition, seats, args.card_games, args.seed,
                                                 opponent=args.opponent)
            print("  %-8s %5d %13.2f %s %s" % (edition, seats, per_race, _share(right),
                                               _share(first)), flush=True)


def move_rows(args):
    """Print the coach's move times, a row per ``(edition, seats)`` of ``ROWS`` (or
    ``args.rows``), and write ``args.actions``."""
    print("coach move, CPU ms (goal: median 50, 99th percentile 500), coach + %s bots, "
          "seed %d, %d games a row:" % (args.opponent, args.seed, args.games))
    print("  %-8s %5s %6s %8s %8s %8s %8s %8s" % ("edition", "seats", "moves", "median",
                                                  "90th", "99th", "max", "mean"))
    rows = ROWS
    if args.rows:
        rows = [(r.split(":")[0], int(r.split(":")[1])) for r in args.rows.split(",")]
    actions = [] if args.actions else None
    for edition, seats in rows:
        n, med, p90, p99, top, mean = distribution(move_times(
            edition, seats, args.games, args.seed, opponent=args.opponent, actions=actions))
        print("  %-8s %5d %6d %8.0f %8.0f %8.0f %8.0f %8.0f"
              % (edition, seats, n, 1e3 * med, 1e3 * p90, 1e3 * p99, 1e3 * top, 1e3 * mean))
    if actions is not None:
        with open(args.actions, "w", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in actions))
        print("%d actions written to %s" % (len(actions), args.actions))


if __name__ == "__main__":
    main(sys.argv[1:])
