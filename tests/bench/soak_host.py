"""``pyramid play`` as the soak's host program: the real command line (``camelhost.cli``),
with the bots on their quick policy (leg odds only) as in the soak's fault-free run.

    python tests/bench/soak_host.py play --pyramid PORT --plain --players ... --bots ...

Everything else is the shipped program: argument checks, the journal and its lock,
the link, the table, ``--resume``. The soak kills it with SIGKILL and restarts it.
"""

import contextlib
import sys

from camelhost.table import bots


def quick_bots():
    """Make ``bots.choose`` use its quick policy (idempotent)."""
    full = bots.choose
    if getattr(full, "quick_policy", False):
        return

    def choose(game, names=None, quick=True):
        return full(game, names, quick=True)

    choose.quick_policy = True
    bots.choose = choose


@contextlib.contextmanager
def quick_bots_here():
    """``quick_bots`` while the block runs in this process, the full policy back after
    it: a caller that goes on (a test process) plays its other tables as shipped."""
    full = bots.choose
    quick_bots()
    try:
        yield
    finally:
        bots.choose = full


if __name__ == "__main__":
    quick_bots()
    from camelhost.cli import main

    sys.exit(main(sys.argv[1:]))
