"""Odds benchmark: exact leg odds of P1, P2a, P2b (medians of several runs) next to the
plain full enumeration timed in the same run (the ratio holds across machines),
simulated races per second, race odds to +/-1 point, tile values and all action values.

Goals (issue 5): P2a 25 ms median (not done above 100 ms), P1 10 ms (40 ms);
all action values within 100 ms after a die; race odds +/-1 point (95 %) within 1 s.
Benchmarks report, they never fail.
"""

import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))
sys.path.insert(0, os.path.join(HERE, ".."))  # tests/: the oracles

import camelup  # noqa: E402
from camelup.odds import Position, leg_odds, tile_values  # noqa: E402
from camelup.odds.actions import action_values  # noqa: E402
from camelup.odds.race import race_odds, simulate  # noqa: E402
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
    print("exact leg odds (median of %d runs) vs plain full enumeration (1 run)" % RUNS)
    print("  %-5s %10s %10s %8s %12s %8s  %s" % ("pos", "median ms", "best ms", "cpu ms",
                                                  "naive ms", "ratio", "goal / limit"))
    goals = {"P1": (10, 40), "P2a": (25, 100), "P2b": (25, 100)}
    for name, pos in POSITIONS:
        fast = leg_odds(pos)
        med, best = _median_ms(lambda p=pos: leg_odds(p))
        cpu = _median_cpu_ms(lambda p=pos: leg_odds(p))
        t = time.perf_counter()
        first, _second, _last, _land, total = naive_leg_odds(pos)
        naive = 1e3 * (time.perf_counter() - t)
        same = first == fast.first and total == fast.total
        goal, limit = goals[name]
        print("  %-5s %10.1f %10.1f %8.1f %12.1f %7.0fx  %d / %d ms%s" % (
            name, med, best, cpu, naive, naive / med, goal, limit,
            "" if same else "  MISMATCH"))

    print()
    pos = POSITIONS[1][1]
    n = 5000
    t = time.perf_counter()
    simulate(pos, seed=7, samples=n)
    dt = time.perf_counter() - t
    print("simulated races from P2a: %d races in %.2f s = %.0f races/s" % (n, dt, n / dt))
    t = time.perf_counter()
    race = race_odds(pos, seed=7, samples=10000, cache=False)
    dt = time.perf_counter() - t
    print("race odds P2a, 10000 races: %.2f s, widest 95%% half-width %.2f points (goal 1 s, 1 point)"
          % (dt, 100 * race.half_width))
    classic = POSITIONS[0][1]
    t = time.perf_counter()
    race_c = race_odds(classic, seed=7, samples=10000, cache=False)
    dt = time.perf_counter() - t
    print("race odds P1, 10000 races: %.2f s, widest 95%% half-width %.2f points"
          % (dt, 100 * race_c.half_width))

    print()
    for name, p in POSITIONS:
        med, _ = _median_ms(lambda q=p: tile_values(q), runs=5)
        print("tile values, every space and side, %s: %.1f ms median" % (name, med))

    print()
    print("all action values for the seat to act, race odds passed in (a 10,000-race run):")
    game = camelup.Game("second", 6, dict(P2A))
    med, _ = _median_ms(lambda: action_values(game, race=race), runs=5)
    print("  P2a, start of a leg (6 dice inside), 6 seats: %.1f ms median (goal 100 ms)" % med)
    game.push("leg purple")
    game.push("pyramid red 2")
    med, _ = _median_ms(lambda: action_values(game, race=race), runs=5)
    print("  P2a after one die (5 inside):               %.1f ms median" % med)
    cgame = camelup.Game("classic", 4, {1: ["blue", "green"], 2: ["orange"],
                                        3: ["yellow", "white"]})
    med, _ = _median_ms(lambda: action_values(cgame, race=race_c), runs=5)
    print("  P1, start of a leg:                         %.1f ms median" % med)
    print("race odds computed inside, default 1000 races (about +/-3 points):")
    med, _ = _median_ms(lambda: action_values(game, race=race_odds(
        game, samples=1000, cache=False)), runs=3)
    print("  P2a after one die:                          %.1f ms median" % med)
    fresh = camelup.Game("second", 6, dict(P2A))
    med, _ = _median_ms(lambda: action_values(fresh, race=race_odds(
        fresh, samples=1000, cache=False)), runs=3)
    print("  P2a start of a leg:                         %.1f ms median" % med)
    race_odds(fresh, samples=1000)
    med, _ = _median_ms(lambda: action_values(fresh), runs=3)
    print("  same, race odds cached (a ticket taken, no die): %.1f ms median" % med)


if __name__ == "__main__":
    main()
