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


def test_league_tables_writes_each_tables_intervals_with_plus_minus(tmp_path, capsys):
    import bench.league_tables as lt
    # a table whose log is complete is summed up, never played again
    # (a table of plain planned games: the four coaches' plan plays more than --games)
    (tmp_path / "classic-coach-random.log").write_text(
        "0 coach,random,random,random 9,3,3,3 coach\n"
        "1 random,random,random,coach 9,3,3,3 random\n")
    assert lt.main(["--only", "classic-coach-random", "--run", "--games", "2",
                    "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "classic-coach-random" in out and " coach  50.0 % ± " in out, out
    assert "coins  +2.00 ± " in out and "+/-" not in out, out


def test_no_benchmark_tool_prints_plus_slash_minus():
    # the tools whose output is not cheap to run (bench_odds, race_accuracy): their
    # print calls read, every string written into a printed line
    import ast
    import os
    folder = os.path.dirname(cv.__file__)
    found = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str) \
                            and "+/-" in sub.value:
                        found.append((name, sub.lineno))
    assert found == []
