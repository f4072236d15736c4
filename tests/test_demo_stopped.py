"""A demo stopped midway with ``--journal`` (s36 player tester finding 15): its journal
names the virtual pyramid and the language, as play's does, so ``play --resume`` goes on
with the virtual pyramid's dice instead of waiting for typed ones; and the stop says
where the game is kept and the command that plays it on."""

import pytest
from camelhost import cli
from camelhost.table.journal import read_header


@pytest.mark.process
def test_a_demo_stopped_midway_says_how_to_go_on_and_its_journal_names_the_pyramid(
        tmp_path, capsys, monkeypatch):
    import camelhost.ui.loop as loop
    real = loop.run_plain

    def stopped(table, **kwargs):  # Ctrl-C once the race has begun
        kwargs["stop_when_over"] = True
        table.session.command("leg red") if table.session.phase == "turn" else None
        raise KeyboardInterrupt

    monkeypatch.setattr(loop, "run_plain", stopped)
    path = tmp_path / "demo.jsonl"
    assert cli.main(["demo", "--seed", "9", "--seats", "3", "--journal", str(path)]) == 130
    out, err = capsys.readouterr()
    assert out.splitlines()[-1] == ("game saved in %s; continue it with: pyramid play --resume "
                                    "%s --plain" % (path, path))
    assert err == "pyramid: interrupted\n"
    header = read_header(str(path))
    assert header["pyramid"] == "virtual" and header["lang"] == "en"
    monkeypatch.setattr(loop, "run_plain", real)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain"]) == 0
    out = capsys.readouterr().out
    assert "type the die that came out" not in out  # the virtual pyramid's dice, not typed
