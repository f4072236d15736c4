"""Web scoreboard benchmark (issue 12): the time from a die reaching the host to the
page showing it, median and p95, with one page open and with several.

A die "reaches the host" when the table takes the pyramid's event
(``Table.pyramid_event``, the call the link thread's queue feeds in ``pyramid
play``); the journal is a real file (fsync included). The page "shows it" when it
has drawn the snapshot holding that die: a MutationObserver the benchmark adds to
the page notes ``Date.now()`` when ``<html data-version>`` changes, and both clocks
are this machine's wall clock. Odds are on (the table's own ``table_view``), so
the die's snapshot goes out first and its odds follow (both timed). Before each
die the board is left to settle, as at a real table, where a die comes out
seconds after its pyramid ticket is taken; a die right behind another change
waits for the odds of that change (a few hundred ms more). Debian's headless Chromium shell (tests/headless.py).
Benchmarks report, they never fail.
"""

import io
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host"))

from camelhost.device.events import DieEvent  # noqa: E402
from camelhost.table.controller import Table  # noqa: E402
from camelhost.table.journal import Journal  # noqa: E402
from camelhost.table.session import Session  # noqa: E402
from camelhost.ui.plain import PlainDisplay  # noqa: E402
from camelhost.web.follow import LiveBoard  # noqa: E402
from camelhost.web.server import WebBoard  # noqa: E402
from camelup.rng import XorShift32  # noqa: E402

sys.path.insert(0, os.path.join(HERE, ".."))
from headless import CHROMIUM, INSTALL  # noqa: E402 (tests/headless.py: one place)
from headless import CHROMIUM_ARGS as ARGS  # noqa: E402

DICE = 40
OBSERVE = """() => {
  window.__shown = {};
  new MutationObserver(() => {
    const v = document.documentElement.dataset.version;
    if (!(v in window.__shown)) window.__shown[v] = Date.now();  // first drawing only
  }).observe(document.documentElement, {attributes: true, attributeFilter: ["data-version"]});
}"""


def _percentile(values, q):
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q * (len(ordered) - 1)))))
    return ordered[k]


def _run(browser, pages_open, dice=DICE, seed=7):
    rng = XorShift32(seed)
    folder = tempfile.mkdtemp(prefix="bench-web-")
    journal = Journal(os.path.join(folder, "game.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=seed, journal=journal)
    table = Table(session, PlainDisplay(stream=io.StringIO(), prompts=False), manual=False)
    latencies, host, full = [], [], []
    with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, table.seam) as follower:
        pages = []
        for _ in range(pages_open):
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(board.url)
            page.evaluate(OBSERVE)
            pages.append(page)
        session.command("draw")
        seq = 0
        while len(latencies) < dice:
            if session.phase == "over":
                session.command("again")
                session.command("draw")
            session.command("pyramid")
            inside = session.game.dice_in_pyramid()
            colour = inside[rng.next32() % len(inside)]
            seq += 1
            event = DieEvent("die", 1, seq, "bench", colour=colour,
                             value=1 + rng.next32() % 3,
                             ink=("black", "white")[rng.next32() % 2] if colour == "grey"
                             else None)
            # A die comes out seconds after the ticket is taken: let the board settle first
            # (the odds of the position with the ticket taken are on the pages).
            follower.wait_idle()
            for page in pages:
                page.wait_for_function("v => document.documentElement.dataset.version === "
                                       "String(v) && document.documentElement.dataset.odds "
                                       "=== 'ready'", arg=session.version, timeout=30000)
            before = len(board.published_at)
            started = time.time()
            table.pyramid_event(event)
            version = session.version
            for page in pages:
                page.wait_for_function("v => document.documentElement.dataset.version === "
                                       "String(v)", arg=version, timeout=30000)
            shown = [page.evaluate("v => window.__shown[String(v)]", version) for page in pages]
            latencies.append(max(shown) / 1000.0 - started)
            follower.wait_idle()
            published = [board.published_at[k] for k in sorted(board.published_at)[before:]]
            if published:
                host.append(published[0] - started)
                full.append(published[-1] - started)
        for page in pages:
            page.close()
        assert table.seam.advice_now is None or table.seam.advice_now.error is None, \
            table.seam.advice_now.error
    journal.close()
    return latencies, host, full


def main():
    if not os.path.exists(CHROMIUM):
        print("(skipped: %s missing; %s)" % (CHROMIUM, INSTALL))
        return
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        print("die at the host -> drawn on the page (ms), %d dice each, odds on" % DICE)
        print("%-8s %8s %8s %8s %12s %14s" % ("pages", "median", "p95", "max", "host part",
                                               "odds follow"))
        for pages in (1, 4):
            lat, host, full = _run(browser, pages)
            print("%-8d %8.0f %8.0f %8.0f %12.0f %14.0f" % (
                pages, 1e3 * statistics.median(lat), 1e3 * _percentile(lat, 0.95),
                1e3 * max(lat), 1e3 * statistics.median(host), 1e3 * statistics.median(full)))
        browser.close()
    print("(medians; host part: die taken -> its snapshot handed to the server; odds follow: "
          "die taken -> the snapshot with its odds handed over)")


if __name__ == "__main__":
    main()
