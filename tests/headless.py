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
