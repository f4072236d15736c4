"""Tester s35 finding 12: ``--journal precious.txt`` (any file with something in it) was
refused with ``precious.txt already holds a game: use --resume precious.txt``, and that
resume then failed (``not a game journal``). A file that holds no game is said so, with
the one thing to do, and left as it was; a game's journal still gets the resume advice."""

import os

from camelhost import cli
from test_resume_newest import _journal


def _start(capsys, *argv):
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--plain", "--pyramid", "manual"]
                  + list(argv))
    return rc, capsys.readouterr().err.strip()


def test_a_file_that_holds_no_game_is_said_so_and_kept(tmp_path, capsys):
    path = tmp_path / "precious.txt"
    path.write_text("precious\n")
    rc, err = _start(capsys, "--journal", str(path))
    assert rc != 0
    assert err == ("pyramid: %s is not empty and holds no game: give another --journal "
                   "(nothing was changed)" % path)
    assert path.read_text() == "precious\n"
    # the demo says the same of it
    assert cli.main(["demo", "--journal", str(path)]) != 0
    assert capsys.readouterr().err.strip() == err
    assert path.read_text() == "precious\n"


def test_a_games_journal_still_gets_the_resume_advice(tmp_path, capsys):
    path = str(tmp_path / "g.jsonl")
    kept = _journal(path)
    rc, err = _start(capsys, "--journal", path)
    assert rc != 0
    assert err == ("pyramid: %s already holds a game: use --resume %s, or another --journal"
                   % (path, path))
    assert open(path, "rb").read() == kept and os.path.getsize(path) > 0
