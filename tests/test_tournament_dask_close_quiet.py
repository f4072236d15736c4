"""``pyramid tournament --engine dask`` on its own local cluster: Dask's chatter while that
cluster shuts down after the games (``distributed.nanny - WARNING - Worker process still
alive after 4.0 seconds, killing``, in English, between the progress and the results: s37
player tester finding 13) is not printed into the results; the table of results is."""

import logging

import pytest
from camelhost import tournament
from camelhost.cli import main

pytest.importorskip("distributed")


def test_the_local_clusters_shutdown_warnings_stay_out_of_the_results(monkeypatch, capsys,
                                                                       caplog):
    real = tournament.dask_client

    def client_whose_nanny_warns(address=None, workers=None, processes=True):
        # threads, not processes (a test's speed); its shutdown says what a loaded
        # machine's worker processes made the nanny say
        client = real(address, workers, processes=False)
        close = client.cluster.close

        def warning_then_close(*args, **kwargs):
            logging.getLogger("distributed.nanny").warning(
                "Worker process still alive after 4.0 seconds, killing")
            return close(*args, **kwargs)

        monkeypatch.setattr(client.cluster, "close", warning_then_close)
        return client

    monkeypatch.setattr(tournament, "dask_client", client_whose_nanny_warns)
    before = logging.getLogger("distributed").level
    assert main(["tournament", "--seats", "3", "--games", "2", "--bots", "random",
                 "--edition", "classic", "--seed", "4", "--workers", "1",
                 "--engine", "dask"]) == 0
    assert "2 games in" in capsys.readouterr().out
    # Dask's own handler (stderr, bound as Dask was imported) sits where the records pass:
    # none of its warnings at the shutdown is emitted at all
    assert [r.getMessage() for r in caplog.records
            if r.name.startswith("distributed") and r.levelno >= logging.WARNING] == []
    # and the logger is as it was for whatever runs after the command in this process
    assert logging.getLogger("distributed").level == before
