"""The headless browser the web tests and the web benchmark drive (one place for its path
and flags).

Debian's headless Chromium shell (package ``chromium-headless-shell``: Chromium's own
engine built for headless use only, the same version as Debian's ``chromium``), through
Playwright, never a browser of Playwright's own; ``.ci/run`` and ``make browser`` install
it. It costs about half the CPU of the full browser run headless (no GPU process drawing
in software, no browser UI): 1.6 against 3.0 CPU-s for six pages laid out at two sizes
each.
"""

CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: the one command that installs it (Debian)
INSTALL = "apt-get install -y chromium-headless-shell"


def leave(page):
    """Leave ``page`` for a blank one, so no page of a closed board keeps reconnecting.

    The page navigates itself (``location.href``), as a link would: Chromium keeps it in
    its renderer process. ``page.goto("about:blank")`` comes from the browser, and
    Chromium starts a new renderer process for the blank page and another for the next
    board's page: some 0.07 CPU-s a page load (20 loads of a board's page, every process
    Chromium started counted: 5.9 against 4.5 CPU-s)."""
    page.evaluate("() => { location.href = 'about:blank'; }")
    page.wait_for_url("about:blank")
