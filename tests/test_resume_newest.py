"""``pyramid play --resume`` alone, or given a folder: the newest unfinished game there,
named before it starts (s34 tester finding 5: after a crash with the default journal a
table had to guess the newest of many date-time names in journals/)."""

import os
import random

from camelhost import cli
from camelhost.table import bots
from camelhost.table.journal import Journal
from camelhost.table.session import Session

PLAYERS = ["Ann", "Ben", "Cy"]
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _journal(path, finished=False, written=None, players=None):
    """A game's journal at ``path``: its race played to the end by the table's bots
    (dice typed from a seeded draw) when ``finished``, else a setup and one ticket; its
    time of writing set to ``written`` (seconds since the epoch); ``players`` default
    ``PLAYERS``."""
    with Journal(str(path), pyramid="manual") as journal:
        s = Session("second", players or PLAYERS, seed=3, journal=journal)
        s.command(SETUP)
        s.command("leg red")
        rng = random.Random(5)
        while finished and s.phase != "over":
            text, _value = bots.choose(s.game, s.names, quick=True)
            if text == "pyramid":
                s.command(text)
                die = rng.choice(s.game.dice_in_pyramid())
                ink = " %s" % rng.choice(("black", "white")) if die == "grey" else ""
                text = "%s%s %d" % (die, ink, rng.randint(1, 3))
            s.command(text)
    if written is not None:
        os.utime(str(path), (written, written))
    return open(str(path), "rb").read()


def _resume(monkeypatch, capsys, *argv):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(["play", "--plain", "--pyramid", "manual"] + list(argv))
    out = capsys.readouterr()
    return rc, out.out.splitlines(), out.err.strip()


def test_resume_alone_continues_the_newest_unfinished_game_in_journals(tmp_path, monkeypatch,
                                                                         capsys):
    monkeypatch.chdir(tmp_path)
    os.mkdir("journals")
    _journal("journals/20261206-100000.jsonl", written=1_000_000)
    _journal("journals/20261206-110000.jsonl", written=2_000_000)  # the crashed one
    _journal("journals/20261206-120000.jsonl", finished=True, written=3_000_000)  # over
    rc, out, err = _resume(monkeypatch, capsys, "--resume")
    assert rc == 0, err
    path = os.path.join("journals", "20261206-110000.jsonl")
    assert out[0] == ("resuming the newest unfinished game in journals: %s (race 1, leg 1)"
                      % path)
    assert out[1:3] == ["journal: %s" % path,
                        "resumed %s: 2 events restored (race 1, leg 1)" % path]
    # a folder given: the same, in that folder
    monkeypatch.chdir(tmp_path / "journals")
    rc, out, err = _resume(monkeypatch, capsys, "--resume", ".")
    assert rc == 0, err
    assert out[0] == ("resuming the newest unfinished game in .: %s (race 1, leg 1)"
                      % os.path.join(".", "20261206-110000.jsonl"))


def test_resume_of_a_folder_with_two_games_equally_new_names_both_and_opens_none(
        tmp_path, monkeypatch, capsys):
    folder = tmp_path / "games"
    folder.mkdir()
    kept = [_journal(folder / "a.jsonl", written=2_000_000),
            _journal(folder / "b.jsonl", written=2_000_000, players=["Xa", "Yb", "Zc"])]
    rc, out, err = _resume(monkeypatch, capsys, "--resume", str(folder))
    assert rc != 0 and out == []
    # two tables' games at the same point: their players tell them apart (s36 tester 3)
    assert err == ("pyramid: --resume %s: 2 unfinished games whose files were last written "
                   "in the same second (a copy, cp -r, writes them all at once; cp -p keeps "
                   "their times): %s (%s: race 1, leg 1); %s (Xa, Yb, Zc: race 1, leg 1); give the one to "
                   "continue: --resume FILE" % (folder, folder / "a.jsonl", ", ".join(PLAYERS),
                                                folder / "b.jsonl"))
    assert [open(str(folder / n), "rb").read() for n in ("a.jsonl", "b.jsonl")] == kept


def test_resume_of_a_folder_without_an_unfinished_game_says_so_in_one_line(
        tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rc, out, err = _resume(monkeypatch, capsys, "--resume")
    assert rc != 0
    assert err == ("pyramid: --resume: no journals%s folder here (new games are kept in "
                   "it): give --resume FILE" % os.sep)
    os.mkdir("journals")
    rc, out, err = _resume(monkeypatch, capsys, "--resume", "journals")
    assert err == "pyramid: --resume journals: no journal there (*.jsonl): give --resume FILE"
    _journal("journals/over.jsonl", finished=True)
    rc, out, err = _resume(monkeypatch, capsys, "--resume")
    assert rc != 0
    assert err == ("pyramid: --resume journals: no unfinished game there (1 journal, its race "
                   "over): give --resume FILE")
