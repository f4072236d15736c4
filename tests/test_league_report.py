"""``league_tables.py --report LOGDIR``: the league's tables read from their game logs
(issue 31), on small hand-made logs whose shares and intervals are known.

The Wilson intervals below are the textbook ones (5 wins in 10: 23.7-76.3 %; 0 in 10:
0-27.8 %; 10 in 10: 72.2-100 %; 3 in 10: 10.8-60.3 %; 8 in 10: 49.0-94.3 %; 2 in 4:
15.0-85.0 %).
"""

import bench.league_tables as lt
import pytest
from camelhost import tournament


def seated(bots, index):
    # the rotation pyramid tournament plays: game i seats the policies i seats on
    n = len(bots)
    return [bots[(s + index) % n] for s in range(n)]


def line(index, bots, coins_by_policy_seat):
    """A log line of game ``index`` of a table of ``bots``; ``coins_by_policy_seat`` are
    the coins in the order of ``bots`` (before the rotation), so the coach's are first."""
    n = len(bots)
    names = seated(bots, index)
    # seat s holds bots[(s + index) % n]: its coins are that policy seat's
    coins = [coins_by_policy_seat[(s + index) % n] for s in range(n)]
    best = max(coins)
    won = ",".join(names[s] for s in range(n) if coins[s] == best)
    return "%d %s %s %s\n" % (index, ",".join(names), ",".join(str(c) for c in coins), won)


def report(tmp_path, capsys, logs, *args):
    for name, text in logs.items():
        (tmp_path / (name + ".log")).write_text(text)
    assert lt.main(["--report", str(tmp_path)] + list(args)) == 0
    out, err = capsys.readouterr()
    rows = {}
    for row in out.splitlines():
        cells = [c.strip() for c in row.strip("|").split("|")]
        rows[cells[0]] = cells
    return rows, err


EV = ["coach", "ev", "ev", "ev"]
WIN = [30, 20, 20, 20]     # the coach alone first: +10 over the others' mean
LOSS = [20, 30, 20, 20]    # an ev bot first: 20 - 70/3 = -3.33


def test_a_tables_win_share_has_its_wilson_interval_and_coins_their_margin(tmp_path, capsys):
    text = "".join(line(i, EV, WIN if i % 2 else LOSS) for i in range(10))
    rows, err = report(tmp_path, capsys, {"classic-coach-ev": text}, "--only", "classic-coach-ev")
    # 5 wins in 10; margins five +10 and five -10/3: mean +3.33, s = 7.03, 1.96 s / sqrt(10)
    assert rows["classic-coach-ev"] == [
        "classic-coach-ev", "classic", "3 × `ev`", "10 / 2000", "50.0 % (23.7–76.3)",
        "+3.33 ± 4.36", "≥ 42.8 %, coins > 0", "too few games"]
    assert err == ""


def test_a_shared_win_counts_a_share_to_each_winner(tmp_path, capsys):
    greedy = ["coach", "greedy", "greedy", "greedy"]
    text = (line(0, greedy, [30, 30, 10, 10])     # shared by two: 1/2
            + line(1, greedy, [30, 30, 30, 10])   # by three: 1/3
            + line(2, greedy, [30, 10, 10, 10])   # alone: 1
            + line(3, greedy, [10, 30, 10, 10]))  # lost: 0
    rows, _err = report(tmp_path, capsys, {"second-coach-greedy": text},
                        "--only", "second-coach-greedy")
    # (1/2 + 1/3 + 1 + 0) / 4 = 45.8 %, Wilson's interval at that rate over 4 games
    assert rows["second-coach-greedy"][3:5] == ["4 / 1000", "45.8 % (12.9–82.8)"]


def test_a_damaged_last_line_is_skipped_with_one_warning(tmp_path, capsys):
    whole = "".join(line(i, EV, WIN if i % 2 else LOSS) for i in range(10))
    cut = line(10, EV, WIN)[:19]   # a game still being written: '10 coach,ev,ev,ev 3'
    rows, err = report(tmp_path, capsys, {"classic-coach-ev": whole + cut},
                       "--only", "classic-coach-ev")
    assert rows["classic-coach-ev"][3:6] == ["10 / 2000", "50.0 % (23.7–76.3)", "+3.33 ± 4.36"]
    warning = err.strip().splitlines()
    assert len(warning) == 1, err
    assert "classic-coach-ev.log line 11: skipped, not a whole game" in warning[0], err


def test_a_line_cut_in_its_winners_is_no_game(tmp_path, capsys):
    # game 10's coach and an ev bot share the victory: written 'ev,coach'; cut after 'ev'
    # it still has four words, and its coins say who won
    tie = line(10, EV, [30, 20, 30, 20])
    assert tie.endswith(" ev,coach\n")
    whole = "".join(line(i, EV, WIN if i % 2 else LOSS) for i in range(10))
    rows, err = report(tmp_path, capsys, {"second-coach-ev": whole + tie[:-7] + "\n"},
                       "--only", "second-coach-ev")
    assert rows["second-coach-ev"][3] == "10 / 2000"
    assert "second-coach-ev.log line 11: skipped" in err and len(err.splitlines()) == 1


def test_a_game_read_twice_or_seated_otherwise_counts_once_or_not_at_all(tmp_path, capsys):
    text = "".join(line(i, EV, WIN if i % 2 else LOSS) for i in range(10))
    again = line(3, EV, WIN)
    # game 10 as another table seats it (the coach's seat not rotated)
    other = "10 coach,ev,ev,ev 30,20,20,20 coach\n"
    rows, err = report(tmp_path, capsys, {"classic-coach-ev": text + again + other},
                       "--only", "classic-coach-ev")
    assert rows["classic-coach-ev"][3:5] == ["10 / 2000", "50.0 % (23.7–76.3)"]
    assert "line 11: skipped, game 3 already read" in err
    assert "game 10 skipped, seated coach,ev,ev,ev, not ev,ev,coach,ev" in err


@pytest.mark.parametrize("results, games, share, verdict", [
    ([WIN] * 10, "10", "100.0 % (72.2–100.0)", "met"),
    ([LOSS] * 10, "10", "0.0 % (0.0–27.8)", "not met"),
    # 5 in 10 straddles 40 %: 10 more games planned, or the plan played (the
    # estimates decide: 50 % and +3.33 coins)
    ([WIN, LOSS] * 5, "20", "50.0 % (23.7–76.3)", "too few games"),
    ([WIN, LOSS] * 5, "10", "50.0 % (23.7–76.3)", "met (estimate)"),
    ([WIN, LOSS, LOSS, WIN, LOSS, LOSS, WIN, LOSS, LOSS, LOSS], "10", "30.0 % (10.8–60.3)",
     "not met (estimate)"),
])
def test_the_verdict_against_the_issues_line(tmp_path, capsys, results, games, share,
                                              verdict):
    random = ["coach", "random", "random", "random"]
    text = "".join(line(i, random, r) for i, r in enumerate(results))
    rows, _err = report(tmp_path, capsys, {"classic-coach-random": text},
                        "--only", "classic-coach-random", "--games", games)
    row = rows["classic-coach-random"]
    assert (row[3], row[4], row[6], row[7]) == (
        "10 / %s" % games, share, "≥ 40.0 %, coins > 0", verdict)


def test_a_coin_margin_below_zero_is_not_met_whatever_the_share():
    # the share's interval above the line, the coins' below 0
    assert lt.verdict([(0.5, 0.7, 0.6, 0.4, None), (-3.0, -1.0, -2.0, 0.0, None)],
                      False) == "not met"
    assert lt.verdict([(0.5, 0.7, 0.6, 0.4, None), (-1.0, 3.0, 1.0, 0.0, None)],
                      False) == "too few games"


def test_four_coaches_give_each_coachs_share_against_the_band(tmp_path, capsys):
    """Each coach is followed round the table (game i seats them i seats on): the band
    checks the harness, not the start player's advantage."""
    coaches = ["coach"] * 4
    text = ("0 coach,coach,coach,coach 30,10,10,10 coach\n"     # seat 1: coach 1
            "1 coach,coach,coach,coach 30,10,10,10 coach\n"     # seat 1: coach 2
            "2 coach,coach,coach,coach 10,30,10,10 coach\n"     # seat 2: coach 4
            "3 coach,coach,coach,coach 10,10,30,30 coach,coach\n")  # seats 3, 4: coaches 2, 3
    assert all(text.splitlines()[i].split()[1] == ",".join(seated(coaches, i))
               for i in range(4))
    rows, _err = report(tmp_path, capsys, {"second-four-coaches": text},
                        "--only", "second-four-coaches")
    shares = [rows["second-four-coaches, coach %d" % k][4] for k in (1, 2, 3, 4)]
    assert shares == ["25.0 % (4.6–69.9)", "37.5 % (9.2–78.1)", "12.5 % (1.3–60.4)",
                      "25.0 % (4.6–69.9)"]
    assert {rows["second-four-coaches, coach %d" % k][6] for k in (1, 2, 3, 4)} == {
        "23.0 %–27.0 %"}
    # coach 1 sits at seats 1, 4, 3, 2: +20, -20/3, -20/3, -40/3 over the others' mean
    assert rows["second-four-coaches, coach 1"][5].startswith("-1.67 ± ")


def test_a_mixed_table_is_read_against_35_percent(tmp_path, capsys):
    mix = ["coach", "ev", "greedy", "random"]
    # 8 wins in 10: 49.0-94.3 %, above 35 % (not 40: a mixed table's line)
    text = "".join(line(i, mix, LOSS if i in (0, 5) else WIN) for i in range(10))
    rows, _err = report(tmp_path, capsys, {"classic-coach-ev-greedy-random": text},
                        "--only", "classic-coach-ev-greedy-random")
    assert rows["classic-coach-ev-greedy-random"][2:5] == [
        "`ev`, `greedy`, `random`", "10 / 1000", "80.0 % (49.0–94.3)"]
    assert rows["classic-coach-ev-greedy-random"][6:] == ["≥ 35.0 %", "met"]


def test_the_plan_has_no_partner_table_at_four_seats(tmp_path, capsys):
    # RULES 3.8: no partnerships below six players, so that table played the ev games
    tables = lt.tables()
    assert not [t for t in tables if t[2] < 6 and "partner" in t[3]]
    assert ("second-coach-partner6", "second", 6, ["coach"] + ["partner"] * 5) in tables
    # an old run's log of one is named and not read; every other table has its row
    rows, err = report(tmp_path, capsys, {"classic-coach-partner": line(0, EV, WIN)})
    assert "classic-coach-partner.log: not a table of the plan, not read" in err
    assert "classic-coach-partner" not in rows
    assert rows["second-coach-partner6"][2:5] == ["5 × `partner`", "0 / 1000", "-"]
    assert rows["second-coach-partner6"][7] == "too few games"
    assert len([r for r in rows if r.startswith(("classic-", "second-"))]) == len(tables) + 6


def test_a_report_of_no_folder_is_one_clear_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        lt.main(["--report", str(tmp_path / "nowhere")])
    assert stop.value.code == 2
    assert "--report: %s is not a folder of logs" % (tmp_path / "nowhere") in \
        capsys.readouterr().err


def test_run_sums_a_played_log_up_past_its_damaged_line(tmp_path, capsys):
    # --run reads a table's log before playing it: a log holding its games is summed up
    # (the same reader: the cut line skipped with one warning), never played again
    # (--only names this one table alone)
    copycat = ["coach", "copycat", "copycat", "copycat"]
    text = line(0, copycat, WIN) + line(1, copycat, LOSS) + line(2, copycat, WIN)[:12]
    (tmp_path / "classic-coach-copycat.log").write_text(text)
    assert [t[0] for t in lt.tables() if "classic-coach-copycat" in t[0]] == [
        "classic-coach-copycat"]
    assert lt.main(["--only", "classic-coach-copycat", "--run", "--games", "2",
                    "--out", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "classic-coach-copycat" in out and "    2 games (0 now)  coach  50.0 % ± " in out, out
    # margins +10 and -10/3: +3.33
    assert "coins  +3.33 ± " in out, out
    assert err.splitlines() == [
        "%s line 3: skipped, not a whole game ('index seats coins winners'): %r"
        % (tmp_path / "classic-coach-copycat.log", text.splitlines()[2])], err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classic-coach-copycat.log"]
    assert (tmp_path / "classic-coach-copycat.log").read_text() == text


def test_run_plays_only_the_games_a_log_lacks_and_keeps_what_it_holds(tmp_path):
    # a league run stopped mid-table (a game cut mid-line, game 1 never written) goes on
    # where it stopped: games 1 and 2 are played, each as pyramid tournament would play
    # it, appended after the kept text; nothing already there is rewritten
    bots = ["coach", "random", "random", "random"]
    text = line(0, bots, WIN) + line(2, bots, WIN)[:9]
    log = tmp_path / "classic-coach-random.log"
    log.write_text(text)
    assert lt.missing(str(log), 3) == [1, 2]
    assert lt.resume(str(log), bots, "classic", 1, 3, workers=1) == 2
    after = log.read_text()
    assert after.startswith(text + "\n")
    played = sorted(after[len(text) + 1:].splitlines())
    assert played == [tournament.log_line(i, tournament.play_game(bots, "classic", 1, i))
                      .rstrip("\n") for i in (1, 2)]
    assert lt.missing(str(log), 3) == []
    assert lt.resume(str(log), bots, "classic", 1, 3, workers=1) == 0
    assert log.read_text() == after


def test_the_kept_league_logs_are_whole_games_of_their_tables():
    # the league's logs kept in the repository (tests/bench/league, committed as the run
    # grows) are what the next run goes on from and what docs/odds.md reports: every line
    # a whole game, none twice, each seated as its table seats it, no log of another table
    import os

    folder = os.path.join(os.path.dirname(lt.__file__), "league")
    plan = dict((name, bots) for name, _edition, _seats, bots in lt.tables())
    logs = sorted(n for n in os.listdir(folder) if n.endswith(".log"))
    assert logs, folder
    warned = []
    for log in logs:
        name = log[:-len(".log")]
        assert name in plan, log
        games = lt.read_log(os.path.join(folder, log), warn=warned.append)
        assert games and all(g[1] == lt.seated(plan[name], g[0]) for g in games), log
        assert max(g[0] for g in games) < lt.planned_games(name, 1000), log
    assert warned == []
