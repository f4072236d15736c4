"""A journals folder copied with ``cp -r`` (tester s44, finding 4): the copy gives every
journal the time of the copy, and ``pyramid replay FOLDER`` and ``pyramid play --resume
FOLDER`` said the games were "written in the same second", though they were played 23
minutes apart. The journal's lines carry no time of their own to choose by, so neither
command guesses: each opens none and names them, saying what it knows, that their files
carry one time, and why a copy does that; nothing is written."""

import shutil

from camelhost import cli
from camelhost.i18n import set_language
from test_resume_newest import _journal

SAID = ("whose files were last written in the same second (a copy, cp -r, writes them all "
        "at once; cp -p keeps their times)")


def _copied(tmp_path):
    """A folder of three journals written 23 minutes apart (two unfinished, one over),
    copied as ``cp -r`` copies it: every file of the copy with one time."""
    folder = tmp_path / "jf"
    folder.mkdir()
    _journal(folder / "20261207-181000.jsonl", written=1_796_667_000)
    _journal(folder / "20261207-183300.jsonl", written=1_796_668_380, players=["Xa", "Yb", "Zc"])
    _journal(folder / "20261207-190000.jsonl", finished=True, written=1_796_670_000)
    copy = tmp_path / "jf2"
    shutil.copytree(str(folder), str(copy), copy_function=shutil.copyfile)  # times not kept
    import os
    for path in copy.iterdir():
        os.utime(str(path), (1_796_671_000, 1_796_671_000))
    return copy, {path.name: path.read_bytes() for path in copy.iterdir()}


def _run(capsys, monkeypatch, argv):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err.strip()


def test_replay_of_a_copied_folder_says_its_files_carry_one_time(tmp_path, capsys, monkeypatch):
    copy, kept = _copied(tmp_path)
    rc, out, err = _run(capsys, monkeypatch, ["replay", "--brief", str(copy)])
    assert rc != 0 and out == ""
    names = ", ".join(str(copy / name) for name in sorted(kept))
    assert err == ("pyramid: %s: 3 journals %s: %s; give the one to show: pyramid replay FILE"
                   % (copy, SAID, names))
    assert "written in the same second:" not in err  # no longer said of a copy
    assert {path.name: path.read_bytes() for path in copy.iterdir()} == kept


def test_resume_of_a_copied_folder_names_the_unfinished_games_and_opens_none(
        tmp_path, capsys, monkeypatch):
    copy, kept = _copied(tmp_path)
    rc, out, err = _run(capsys, monkeypatch, ["play", "--plain", "--pyramid", "manual",
                                              "--resume", str(copy)])
    assert rc != 0 and out == ""
    assert err == ("pyramid: --resume %s: 2 unfinished games %s: %s (Ann, Ben, Cy: race 1, "
                   "leg 1); %s (Xa, Yb, Zc: race 1, leg 1); give the one to continue: --resume "
                   "FILE" % (copy, SAID, copy / "20261207-181000.jsonl",
                             copy / "20261207-183300.jsonl"))
    assert {path.name: path.read_bytes() for path in copy.iterdir()} == kept


def test_the_copied_folders_refusals_in_german(tmp_path, capsys, monkeypatch):
    copy, _kept = _copied(tmp_path)
    try:
        rc, _out, err = _run(capsys, monkeypatch, ["replay", "--brief", "--lang", "de",
                                                   str(copy)])
        assert rc != 0
        assert err.startswith("pyramid: %s: 3 Protokolle, deren Dateien zuletzt in derselben "
                              "Sekunde geschrieben wurden (eine Kopie mit cp -r schreibt sie "
                              "alle zugleich; cp -p behält ihre Zeiten): " % copy), err
        assert err.endswith("; gib das zu zeigende an: pyramid replay DATEI"), err
        rc, _out, err = _run(capsys, monkeypatch, ["play", "--plain", "--pyramid", "manual",
                                                   "--lang", "de", "--resume", str(copy)])
        assert rc != 0
        assert err.startswith("pyramid: --resume %s: 2 nicht beendete Spiele, deren Dateien "
                              "zuletzt in derselben Sekunde geschrieben wurden (" % copy), err
    finally:
        set_language("en")
