"""Odds benchmark: exact leg odds of P1, P2a, P2b (medians of several runs) next to the
plain breadth-first enumeration (``leg_odds(fast=False)``) and the naive full
enumeration timed in the same run (the ratios hold on a loaded machine), every place
(3rd, 4th), simulated races per second, race odds to half a point with their
interval, tile values, all action values, a short tournament of the coach
against three ``ev`` bots, and how long a Ctrl-C takes to stop ``pyramid tournament``
on either engine (the process pool and Dask's local cluster), in wall seconds.

Goals (issue 15): P1 6 ms, P2a 10 ms, P2b 15 ms (median, CPython); action values 50 ms
at leg start and 15 ms after a die; race odds +/-0.5 points (95 %) in 0.5 s.
Benchmarks report, they never fail. Wall times scale with the load average; the
"cpu ms" columns (process time) much less.
"""

import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))
sys.path.insert(0, os.path.join(HERE, ".."))  # tests/: the oracles

from camelhost import coach, tournament  # noqa: E402
from camelup.game import Game  # noqa: E402
from camelup.odds import Position, leg_odds, tile_values  # noqa: E402
from camelup.odds.actions import action_values  # noqa: E402
from camelup.odds.game import as_position  # noqa: E402
from camelup.odds.race import leg_end, race_odds, simulate  # noqa: E402
from oracles.odds_naive import naive_leg_odds  # noqa: E402

P1 = Position("classic", {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]})
P2A = {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"], 15: ["black"], 16: ["white"]}
P2B = {4: ["blue", "green"], 5: ["red"], 6: ["yellow", "purple"], 7: ["black", "white"]}
POSITIONS = [("P1", P1), ("P2a", Position("second", P2A)), ("P2b", Position("second", P2B))]
RUNS = 9


def _median_ms(fn, runs=RUNS):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1e3 * statistics.median(times), 1e3 * min(times)


def _median_cpu_ms(fn, runs=RUNS):
    """Median process CPU time: steadier than wall time when the machine is shared."""
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return 1e3 * statistics.median(times)


def main():
    if hasattr(os, "getloadavg"):
        print("load average %.2f %.2f %.2f on %d cpus (figures scale with it; the ratio "
              "to the plain enumeration does not)" % (os.getloadavg() + (os.cpu_count(),)))
    print("exact leg odds (median of %d runs) vs the plain breadth-first enumeration "
          "(fast=False, same runs) and the naive full enumeration (1 run)" % RUNS)
    print("  %-5s %9s %8s %9s %9s %7s %9s %7s  %s" % (
        "pos", "median ms", "cpu ms", "plain ms", "plain cpu", "ratio", "naive ms", "ratio",
        "goal"))
    goals = {"P1": 6, "P2a": 10, "P2b": 15}
    for name, pos in POSITIONS:
        fast = leg_odds(pos)
        plain = leg_odds(pos, fast=False)
        med, _best = _median_ms(lambda p=pos: leg_odds(p))
        cpu = _median_cpu_ms(lambda p=pos: leg_odds(p))
        pmed, _pbest = _median_ms(lambda p=pos: leg_odds(p, fast=False))
        pcpu = _median_cpu_ms(lambda p=pos: leg_odds(p, fast=False))
        t = time.perf_counter()
        first, _second, _last, _land, total = naive_leg_odds(pos)
        naive = 1e3 * (time.perf_counter() - t)
        same = (first == fast.first and total == fast.total and plain.first == fast.first
                and plain.second == fast.second and plain.last == fast.last)
        print("  %-5s %9.1f %8.1f %9.1f %9.1f %6.1fx %9.1f %6.0fx  %d ms%s" % (
            name, med, cpu, pmed, pcpu, pcpu / cpu, naive, naive / med, goals[name],
            "" if same else "  MISMATCH"))
    print("every place (3rd, 4th: leg_odds(places=True)) vs the naive place oracle:")
    from oracles.odds_expect import place_weights
    for name, pos in POSITIONS:
        med, _ = _median_ms(lambda p=pos: leg_odds(p, places=True), runs=5)
        t = time.perf_counter()
        weights, _total = place_weights(pos)
        naive = 1e3 * (time.perf_counter() - t)
        same = weights == leg_odds(pos, places=True).places
        print("  %-5s %8.1f ms   naive %8.1f ms  %5.0fx%s" % (
            name, med, naive, naive / med, "" if same else "  MISMATCH"))

    print()
    pos = POSITIONS[1][1]
    n = 5000
    t = time.perf_counter()
    simulate(pos, seed=7, samples=n)
    dt = time.perf_counter() - t
    print("simulated races from P2a: %d races in %.2f s = %.0f races/s" % (n, dt, n / dt))
    print("race odds (current leg exact, later legs simulated; default precision: batches "
          "until every 95% half-width is at most 0.5 points), goal 0.5 s at race start (P2a):")
    print("  %-8s %6s %8s %8s %8s %8s %10s" % (
        "pos", "races", "wall s", "cpu s", "leg end", "sim us", "half-width"))
    mid = Game("second", 4, {9: ["blue", "green"], 10: ["red"], 12: ["yellow", "purple"],
                                     15: ["black"], 13: ["white"]})
    mid.push("pyramid red 2")
    race = race_c = None
    cases = (("P1", POSITIONS[0][1], False), ("P2a", pos, False), ("mid-race", mid, False),
             ("P1 +t", POSITIONS[0][1], True), ("P2a +t", pos, True))
    for name, where, later in cases:
        cpus = []
        for _ in range(3 if name.startswith("P2a") else 1):  # median CPU of P2a's runs
            t = time.perf_counter()
            c = time.process_time()
            got = race_odds(where, seed=7, cache=False, later_tiles=later)
            cpus.append(time.process_time() - c)
            dt = time.perf_counter() - t
        cpu = statistics.median(cpus)
        c = time.process_time()
        leg_end(as_position(where))
        end_cpu = time.process_time() - c
        print("  %-8s %6d %8.2f %8.2f %6.0f ms %8.1f %7.2f pt" % (
            name, got.samples, dt, cpu, 1e3 * end_cpu,
            1e6 * max(0.0, cpu - end_cpu) / got.samples, 100 * got.half_width))
        if name == "P1":
            race_c = got
        elif name == "P2a":
            race = got
    print("  (leg end: CPU of the exact current leg's boards; sim us: the rest of the CPU per "
          "race; half-width: the widest 95% interval reached, winner and loser piles;\n"
          "  +t: later legs carry the measured tiles, later_tiles=True; the others are the "
          "default, later legs without tiles; P2a: median CPU of 3 runs)")

    print()
    for name, p in POSITIONS:
        med, _ = _median_ms(lambda q=p: tile_values(q), runs=5)
        print("tile values, every space and side, %s: %.1f ms median" % (name, med))

    print()
    print("all action values for the seat to act, race odds passed in (default precision):")
    game = Game("second", 6, dict(P2A))
    med, _ = _median_ms(lambda: action_values(game, race=race), runs=5)
    cpu = _median_cpu_ms(lambda: action_values(game, race=race), runs=5)
    print("  P2a, start of a leg (6 dice inside), 6 seats: %.1f ms median, cpu %.1f ms "
          "(goal 50 ms)" % (med, cpu))
    game.push("leg purple")
    game.push("pyramid red 2")
    med, _ = _median_ms(lambda: action_values(game, race=race), runs=5)
    cpu = _median_cpu_ms(lambda: action_values(game, race=race), runs=5)
    print("  P2a after one die (5 inside):               %.1f ms median, cpu %.1f ms "
          "(goal 15 ms)" % (med, cpu))
    cgame = Game("classic", 4, {1: ["blue", "green"], 2: ["orange"],
                                        3: ["yellow", "white"]})
    med, _ = _median_ms(lambda: action_values(cgame, race=race_c), runs=5)
    print("  P1, start of a leg:                         %.1f ms median" % med)
    print("race odds computed inside, default 1000 races (about ±3 points):")
    med, _ = _median_ms(lambda: action_values(game, race=race_odds(
        game, samples=1000, cache=False)), runs=3)
    print("  P2a after one die:                          %.1f ms median" % med)
    fresh = Game("second", 6, dict(P2A))
    med, _ = _median_ms(lambda: action_values(fresh, race=race_odds(
        fresh, samples=1000, cache=False)), runs=3)
    print("  P2a start of a leg:                         %.1f ms median" % med)
    race_odds(fresh, samples=1000)
    med, _ = _median_ms(lambda: action_values(fresh), runs=3)
    print("  same, race odds cached (a ticket taken, no die): %.1f ms median" % med)

    fresh4 = Game("second", 4, dict(P2A))
    cpu = _median_cpu_ms(lambda: coach.choose(fresh4), runs=3)
    print("  coach's move, P2a start of a leg, 4 seats (budget 1 s): cpu %.1f ms median" % cpu)
    last = Game("classic", 4, {15: ["blue"], 13: ["green"], 11: ["orange"],
                                       9: ["yellow"], 7: ["white"]})
    for text in ("finish winner blue", "finish winner green"):
        last.push(text)
    share = coach.race_ends_this_leg(last)
    cpu = _median_cpu_ms(lambda: coach.choose(last), runs=3)
    print("  coach's move in the end-game (race ends this leg in %.0f %% of dice-only "
          "play-outs), 4 seats: cpu %.1f ms median" % (100 * share, cpu))

    print()
    games = int(os.environ.get("BENCH_GAMES", "8"))
    bots = ["coach", "ev", "ev", "ev"]
    print("short tournament: %d games, second edition, %s, seed 1, %d workers "
          "(the 2,000-game tables are in docs/odds.md)" % (games, ",".join(bots),
                                                          os.cpu_count() or 1))
    tally = tournament.Tally(bots)
    t = time.perf_counter()
    for _index, result in tournament.run(bots, "second", games, 1):
        tally.add(result)
    dt = time.perf_counter() - t
    for name, n, rate, (low, high), coins, chw in tally.rows():
        print("  %-6s %3d seats  win rate %5.1f%% (%4.1f..%4.1f)   coins %5.1f ± %4.1f"
              % (name, n, 100 * rate, 100 * low, 100 * high, coins, chw))
    print("  %.1f s per game" % (dt / max(games, 1)))

    print()
    print("Ctrl-C during pyramid tournament (SIGINT to its process group, as a terminal "
          "sends it, once 3 games are in its log): wall seconds to its exit")
    for engine in ("process", "dask"):
        print("  --engine %-8s %s" % (engine, stop_words(engine)))


def ctrl_c_stop(engine, workers=2, games_first=3, wait=180.0):
    """Time a Ctrl-C during ``pyramid tournament --engine ENGINE --workers WORKERS``
    (100,000 games, 3 seats, classic, seed 4, so it never ends by itself): SIGINT to
    its whole process group once ``games_first`` games are in its ``--log``. Returns
    ``(seconds from the signal to its exit, its exit status, games in its log)``, or
    ``None`` when it did not get that far within ``wait`` s (a string: why)."""
    import signal
    import subprocess
    import tempfile

    pyramid = os.path.join(os.path.dirname(sys.executable), "pyramid")
    with tempfile.TemporaryDirectory() as folder:
        log = os.path.join(folder, "t.log")

        def games():
            if not os.path.exists(log):
                return 0
            with open(log) as fh:  # the run's header line is no game
                return sum(1 for line in fh if line.endswith("\n")
                           and not line.startswith(tournament.LOG_HEADER))

        def default_sigint():  # as from a shell, whatever this process ignores
            signal.signal(signal.SIGINT, signal.SIG_DFL)

        proc = subprocess.Popen(
            [pyramid, "tournament", "--seats", "3", "--games", "100000", "--bots",
             "random,greedy,random", "--edition", "classic", "--seed", "4", "--workers",
             str(workers), "--engine", engine, "--log", log],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            preexec_fn=default_sigint, start_new_session=True)
        try:
            deadline = time.monotonic() + wait
            while games() < games_first and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            if proc.poll() is not None or games() < games_first:
                return "no %d games within %.0f s (%s)" % (
                    games_first, wait, (proc.stderr.read() if proc.poll() is not None
                                        else "still starting").strip().splitlines()[-1:])
            started = time.monotonic()
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait(timeout=wait)
            return time.monotonic() - started, proc.returncode, games()
        except subprocess.TimeoutExpired:
            return "not stopped %.0f s after the Ctrl-C" % wait
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def stop_words(engine):
    """``ctrl_c_stop(engine)`` in one line."""
    if engine == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            return "not timed: Dask distributed is not installed (pip install 'smart-pyramid[cluster]')"
    got = ctrl_c_stop(engine)
    if isinstance(got, str):
        return "not timed: " + got
    seconds, status, done = got
    return "stopped in %.2f s (exit status %d, %d games finished and tabled)" % (
        seconds, status, done)


if __name__ == "__main__":
    main()
