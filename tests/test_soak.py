"""The short seeded soak (``make soak`` runs 200 games): one bot game through the virtual
pyramid under every kind of fault, against the fault-free run of its seed."""

import os
import sys

import pytest

pytestmark = [pytest.mark.hil, pytest.mark.micropython, pytest.mark.slow]

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "bench"))
import soak  # noqa: E402


def test_soak_one_game_under_every_fault_loses_nothing_and_scores_the_same(micropython):
    lines = []
    ok, total, share, same, truth = soak.run(1, 7, "second", 0.01, 0.001, quick=True, out=lines.append)
    report = "\n".join(lines)
    assert total["lost"] == 0 and total["duplicated"] == 0, report
    assert truth == 1, report  # the link changed nothing the table scored
    assert share >= 99.0, report
    assert "2 host disconnects, 2 pyramid reboots" in report and "1 host crashes" in report, report
    assert ok, report
