"""``pyramid play`` start-up: a port that does not open is one ``pyramid: ...`` line
and leaves no journal behind; default journal names never collide."""

import os
import time

from camelhost import cli
from camelhost.commands import play


def test_a_missing_port_is_one_clear_line_and_leaves_no_journal(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    argv = ["play", "--players", "Ann,Ben,Cy", "--pyramid", str(tmp_path / "nonexistent"),
            "--plain", "--journal", str(path)]
    rc = cli.main(argv)
    err = capsys.readouterr().err
    assert rc == 1 and err.count("\n") == 1
    assert err.startswith("pyramid: cannot open %s: no such port" % (tmp_path / "nonexistent"))
    assert "Errno" not in err
    assert not path.exists()
    # the next start with the same journal is not blocked
    assert cli.main(argv) == 1
    assert "already holds a game" not in capsys.readouterr().err


def test_default_journal_names_differ_within_one_second(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(time, "strftime", lambda fmt, *a: "20260101-120000")
    first = play._fresh_journal_path()
    second = play._fresh_journal_path()
    assert first != second
    assert os.path.basename(first) == "20260101-120000.jsonl"
    assert os.path.basename(second) == "20260101-120000-2.jsonl"


def test_a_failed_start_with_the_default_journal_leaves_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "/dev/nonexistent-pyr",
                   "--plain"])
    assert rc == 1 and "cannot open /dev/nonexistent-pyr" in capsys.readouterr().err
    assert not (tmp_path / "journals").exists()  # not even the folder it made (tester s32 finding 9)


def test_journal_paths_that_cannot_be_a_journal_get_one_line_saying_why(tmp_path, capsys):
    cases = [
        (["--journal", str(tmp_path)], "--journal %s is a folder: give a file name" % tmp_path),
        (["--journal", str(tmp_path / "no" / "g.jsonl")],
         "--journal %s: the folder %s does not exist" % (tmp_path / "no" / "g.jsonl", tmp_path / "no")),
        (["--resume", str(tmp_path / "missing.jsonl")], "%s: no such journal" % (tmp_path / "missing.jsonl")),
    ]
    for extra, expected in cases:
        rc = cli.main(["play", "--plain", "--players", "Ann,Ben,Cy"] + extra)
        err = capsys.readouterr().err
        assert rc != 0 and err.count("\n") == 1, err
        assert err.startswith("pyramid: " + expected), err
        assert "Errno" not in err
    assert os.listdir(tmp_path) == []


def test_a_slip_of_virtual_or_manual_as_the_port_asks_what_was_meant(tmp_path, capsys):
    # tester s33 finding 10: '--pyramid virtua' said 'no such port. Is the pyramid
    # plugged in? ...', never the word it is a slip of
    for typed, meant in (("virtua", "--pyramid virtual"), ("manul", "--pyramid manual")):
        path = tmp_path / ("%s.jsonl" % typed)
        rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", typed, "--plain",
                       "--journal", str(path)])
        err = capsys.readouterr().err
        assert rc == 1 and err == ("pyramid: cannot open %s: no such port; did you mean "
                                   "%s?\n" % (typed, meant)), err
        assert not path.exists()
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "zzz", "--plain",
                   "--journal", str(tmp_path / "z.jsonl")])
    assert "did you mean" not in capsys.readouterr().err  # no near word: the plain line
