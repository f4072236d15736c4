"""Full-screen benchmark: the CPU one typed line costs the screen, and how many times
Textual lays the screen out for it (issue 27's CPU cut).

A seeded second-edition table of four players (Ann, Ben, Cy, Dee) on an 80x24
terminal, driven as the full-screen tests drive it (``tests/tui_scenes.py``): every
line typed on its own (``type_line``) and the screen left to settle (``settle``),
from the setup through a leg played out to its scoring and on. The odds are the
tests' cheap ones (``quick_odds``: 100 race samples) so that the figure is mostly
the screen's own work; their worker's CPU is counted too (``time.process_time``
covers every thread; "UI thread" is the main thread's alone: Textual and the app,
without the odds). "Layouts" counts Textual's ``Screen._refresh_layout`` calls
(one screen-wide layout pass each) while the line is handled and drawn.

Also: the UI thread's CPU and the layouts of one key typed at the command line
(``KEYS``, key by key, as ``pilot.press`` sends them), the CPU an app start costs (up
to its first settled screen), and with
``--profile`` the top functions of a cProfile over the lines. ``BENCH_TUI_LINES``
(default 40) sets how many lines are typed. Benchmarks report, they never fail.
"""

import asyncio
import os
import random
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host"))

import tui_scenes as scenes  # noqa: E402
from textual.screen import Screen  # noqa: E402

LINES = int(os.environ.get("BENCH_TUI_LINES", "40"))
SIZE = (80, 24)
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
#: What is typed key by key for the figure per key (not sent: no Enter).
KEYS = "leg red leg blue leg green "


class LayoutCounter:
    """Counts ``Screen._refresh_layout`` calls while installed (a benchmark's probe:
    Textual's screen-wide layout pass has no public counter)."""

    def __init__(self):
        self.calls = 0
        self._original = None

    def __enter__(self):
        original = self._original = Screen._refresh_layout
        counter = self

        def counted(screen, *args, **kwargs):
            counter.calls += 1
            return original(screen, *args, **kwargs)

        Screen._refresh_layout = counted
        return self

    def __exit__(self, *exc):
        Screen._refresh_layout = self._original


async def _run(count, profile=None):
    app = scenes.app_for("second", PLAYERS)
    cpu = []
    ui = []
    layouts = []
    start_cpu = time.process_time()
    async with app.run_test(size=SIZE) as pilot:
        await scenes.settle(pilot)
        start_cpu = time.process_time() - start_cpu
        lines = list(scenes.SECOND_LEG_SCORED)
        with LayoutCounter() as counter:
            while len(cpu) < count and app.session.phase != "over":
                if not lines:  # on: seeded dice and tickets drawn on a copy of the game
                    lines = scenes.race_out_lines(app.session.game, random.Random(len(cpu)))[:1]
                text = lines.pop(0)
                before_layouts = counter.calls
                before = time.process_time()
                before_ui = time.thread_time()
                if profile is not None:
                    profile.enable()
                await scenes.type_line(pilot, text)
                await scenes.settle(pilot)
                if profile is not None:
                    profile.disable()
                cpu.append(time.process_time() - before)
                ui.append(time.thread_time() - before_ui)
                layouts.append(counter.calls - before_layouts)
        keys = scenes.keys_of(KEYS)
        with LayoutCounter() as counter:
            before_ui = time.thread_time()
            for key in keys:
                await pilot.press(key)
            per_key = ((time.thread_time() - before_ui) / len(keys), counter.calls / len(keys))
    return start_cpu, cpu, ui, layouts, per_key


def main(argv=()):
    profile = None
    if "--profile" in argv:
        import cProfile
        profile = cProfile.Profile()
    start_cpu, cpu, ui, layouts, per_key = asyncio.run(_run(LINES, profile))
    ms = [1000 * c for c in cpu]
    ui_ms = [1000 * c for c in ui]
    print("lines typed: %d at %dx%d (second edition, 4 players, quick odds)"
          % (len(ms), SIZE[0], SIZE[1]))
    print("%-34s %7.1f ms (median %.1f ms)" % ("CPU per line (mean)", statistics.mean(ms),
                                               statistics.median(ms)))
    print("%-34s %7.1f ms (median %.1f ms)" % ("UI thread's CPU per line (mean)",
                                               statistics.mean(ui_ms), statistics.median(ui_ms)))
    print("%-34s %7.2f (median %d, most %d)" % ("layouts per line (mean)",
                                                statistics.mean(layouts),
                                                statistics.median(layouts), max(layouts)))
    print("%-34s %7.1f ms, %.2f layouts" % ("UI thread's CPU per key typed", 1000 * per_key[0],
                                              per_key[1]))
    print("%-34s %7.2f s" % ("CPU of the app's start", start_cpu))
    if profile is not None:
        import pstats
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main(sys.argv[1:])
