"""``make demo SEATS=N`` with a number of seats the edition does not take says so in
make's own terms (``SEATS=3..8``), not pyramid's ``--seats``, which the user never typed
(tester s37tp finding 13; ``make flash`` says ``PORT=`` since s36). The range is the
edition's own (``camelup.editions``)."""

import os
import subprocess

import pytest
from camelup.editions import get_edition

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.process
@pytest.mark.parametrize("edition, seats", [("second", "2"), ("classic", "9"), ("second", "x")])
def test_make_demo_refuses_seats_in_makes_terms(edition, seats):
    e = get_edition(edition)
    done = subprocess.run(["make", "-s", "demo", "EDITION=" + edition, "SEATS=" + seats],
                          cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr.splitlines()[0] == (
        "make demo: SEATS=%s: the %s edition seats %d to %d players: give SEATS=%d..%d"
        % (seats, edition, e.min_players, e.max_players, e.min_players, e.max_players)), \
        done.stderr
    assert "--seats" not in done.stderr + done.stdout
    assert "demo:" not in done.stdout  # no game was started
