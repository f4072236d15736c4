"""``pyramid tournament --engine dask``: a Ctrl-C stops it and prints the table of the
games finished, exit status 130, as on the process pool (README: "Ctrl-C stops it at
once"). With Dask's worker processes (not threads) the Ctrl-C reached every worker of
the terminal's process group: each died with a traceback, and closing the client after
cancelling the long run's 100,000 submitted games waited until Dask's 60 s timeout,
then said 'pyramid: timed out after 60 s' (exit status 1, no table). The stop's wall
time is a benchmark's figure (tests/bench/bench_odds.py), not asserted here."""

import os
import signal
import subprocess
import sys
import time

import pytest
from camelhost import tournament


def _games_in(log):
    """The whole games' lines of a ``--log`` file (its run's header is none)."""
    return sum(1 for line in log.read_text().splitlines(True)
               if line.endswith("\n") and not line.startswith(tournament.LOG_HEADER))


pytest.importorskip("distributed")

BOTS = ["random", "greedy", "random"]


def test_a_dask_run_plays_the_same_games_as_the_pool_beyond_what_it_keeps_ahead():
    # a run keeps DASK_AHEAD games a worker thread submitted, one more as each finishes:
    # ten games on one thread go through that refill, and are the pool's games
    client = tournament.dask_client(workers=1, processes=False)
    try:
        games = 3 * tournament.DASK_AHEAD - 2
        dask = dict(tournament.run(BOTS, "classic", games, 4, engine="dask", client=client))
    finally:
        client.close()
    assert sorted(dask) == list(range(games))
    assert dask == dict(tournament.run(BOTS, "classic", games, 4, workers=1))


@pytest.mark.process
def test_ctrl_c_on_dask_worker_processes_prints_the_finished_games(tmp_path):
    pyramid = os.path.join(os.path.dirname(sys.executable), "pyramid")
    log = tmp_path / "t.log"

    def default_sigint():  # as from a shell, whatever the test runner ignores
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen([pyramid, "tournament", "--seats", "3", "--games", "100000",
                             "--bots", ",".join(BOTS), "--edition", "classic", "--seed", "4",
                             "--workers", "2", "--engine", "dask", "--log", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint, start_new_session=True)
    try:
        for _i in range(1200):  # until a few games are in the log (a hang guard, 120 s)
            if log.exists() and _games_in(log) >= 3:
                break
            time.sleep(0.1)
        # to the whole process group, as a terminal's Ctrl-C: Dask's workers too
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)  # a hang guard, not a timing
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err and "timed out" not in err, err
    done = _games_in(log)  # the run's header line is no game
    assert 3 <= done < 100000
    assert ("interrupted after %d of 100000 games: the table below is of those games only "
            "(%s keeps the finished games)" % (done, log)) in out, out
    rows = out[out.index("policy"):].splitlines()
    seats = {r.split()[0]: int(r.split()[1]) for r in rows[1:3]}
    assert seats == {"random": 2 * done, "greedy": done}
