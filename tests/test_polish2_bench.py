"""The benchmark tools write an interval as every screen does: ``±``, never ``+/-``."""

import bench.coach_variants as cv
import bench.pair_logs as pl


def test_coach_variants_writes_the_paired_interval_with_plus_minus(monkeypatch, capsys):
    wins = {"base": [1.0, 0.0, 0.5, 0.0], "PRUNE=1": [1.0, 1.0, 0.0, 0.0]}
    monkeypatch.setattr(cv, "cached_wins",
                        lambda cache, text, *rest: (wins[text], False))
    assert cv.main(["base", "PRUNE=1", "--games", "4", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    mean, hw, changed = cv.paired(wins["PRUNE=1"], wins["base"])
    assert "PRUNE=1 - base: %+.1f points ± %.1f (95 %%), 2 games changed" % (
        100 * mean, 100 * hw) in out
    assert "+/-" not in out


def test_pair_logs_writes_the_difference_with_plus_minus(tmp_path, capsys):
    before = tmp_path / "before.log"
    after = tmp_path / "after.log"
    before.write_text("0 coach,ev 3,5 ev\n1 ev,coach 4,6 coach\n")
    after.write_text("0 coach,ev 6,5 coach\n1 ev,coach 4,6 coach\n")
    assert pl.main([str(before), str(after)]) == 0
    out = capsys.readouterr().out
    assert "difference +50.0 points ± 98.0 (95 %), 1 games changed" in out
    assert "+/-" not in out
