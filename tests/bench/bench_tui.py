"""Full-screen benchmark (issue 11): how long a typed command holds the UI thread,
and how long the odds it triggers take on their worker thread.

A seeded second-edition race is played through the Textual app (headless, 120x40):
each command is put in the command line and sent with Enter. "UI" is the time the
app spends handling the line (``TableApp._submit``: session, journal, every panel
redrawn, the odds worker started); "odds" is the worker's time from start to its
result (``camelhost.table.view.odds_view``: exact leg odds, race simulation, action
values). With the odds worked out inline, each command would hold the screen for
about UI + odds. The odds function is passed to the app (``TableApp(odds=...)``):
the table's own, timed. ``BENCH_TUI_COMMANDS`` (default 60) sets how many commands are
sent. Benchmarks report, they never fail.
"""

import asyncio
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host"))

from camelhost.table.journal import Journal  # noqa: E402
from camelhost.table.session import Session  # noqa: E402
from camelhost.table.view import odds_view  # noqa: E402
from camelhost.ui import tui  # noqa: E402
from camelup.rng import XorShift32  # noqa: E402

COMMANDS = int(os.environ.get("BENCH_TUI_COMMANDS", "60"))
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def main():
    session = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=5, journal=Journal(None))
    ui_times = []
    odds_times = []

    def timed_compute(snap):
        started = time.perf_counter()
        try:
            return odds_view(snap)
        finally:
            odds_times.append(time.perf_counter() - started)

    # the table's own odds, timed: passed in as the seam's odds function
    app = tui.TableApp(session, theme_name="dark", odds=timed_compute)
    rng = XorShift32(11)

    async def play():
        async with app.run_test(size=(120, 40)) as pilot:
            async def send(text):
                app.query_one("#command").value = text
                started = time.perf_counter()
                app._submit(text)
                ui_times.append(time.perf_counter() - started)
                await pilot.pause()
                await app.workers.wait_for_complete()

            await send(SETUP)
            for _ in range(COMMANDS):
                if session.phase != "turn":
                    break
                g = session.game
                if rng.below(4) == 0 and any(g.leg_tickets_left(c) for c in g.edition.racing):
                    colours = [c for c in g.edition.racing if g.leg_tickets_left(c)]
                    await send("leg %s" % colours[rng.below(len(colours))])
                    continue
                inside = g.dice_in_pyramid()
                die = inside[rng.below(len(inside))]
                value = 1 + rng.below(3)
                await send("grey %s %d" % (("black", "white")[rng.below(2)], value)
                           if die == "grey" else "%s %d" % (die, value))

    asyncio.run(play())
    ui_ms = [1000 * t for t in ui_times]
    odds_ms = [1000 * t for t in odds_times]
    print("commands sent: %d, odds computed: %d" % (len(ui_ms), len(odds_ms)))
    print("%-34s %9s %9s" % ("", "median", "p95"))
    print("%-34s %7.1f ms %6.1f ms" % ("UI thread per command", statistics.median(ui_ms),
                                       _p95(ui_ms)))
    print("%-34s %7.1f ms %6.1f ms" % ("odds on the worker thread", statistics.median(odds_ms),
                                       _p95(odds_ms)))
    print("ratio (odds inline would hold the screen x times longer): %.0fx"
          % ((statistics.median(ui_ms) + statistics.median(odds_ms)) / statistics.median(ui_ms)))


if __name__ == "__main__":
    main()
