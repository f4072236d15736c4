"""Tester s35 finding 8: ``--resume FOLDER`` (or ``--resume`` alone) said ``no unfinished
game there (1 journal, its race over)`` when the newest game's first line was damaged:
the table was told its game was over, and the rebuild that ``--resume FILE`` offers was
never reached. A file that is no game journal (``{"hello": 1}``) was counted as a race
over. Now a damaged first line with the game's lines after it is an unfinished game
(chosen, and its refusal gives the command that rebuilds it), and a file that is no game
journal is named as such, never counted as a race."""

import os

from camelhost.table.journal import first_line_damaged
from test_resume_newest import _journal, _resume


def _damage_first_line(path):
    data = open(path, "rb").read()
    first, rest = data.split(b"\n", 1)
    assert b'"edition":"second"' in first
    open(path, "wb").write(first.replace(b'"edition":"second"', b'"edition":"secxnd"', 1)
                          + b"\n" + rest)
    return open(path, "rb").read()


def test_a_damaged_first_line_is_an_unfinished_game_and_its_resume_says_how_to_rebuild(
        tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    os.mkdir("journals")
    _journal("journals/over.jsonl", finished=True, written=1_000_000)
    _journal("journals/g.jsonl", written=2_000_000)
    kept = _damage_first_line("journals/g.jsonl")
    os.utime("journals/g.jsonl", (2_000_000, 2_000_000))
    assert first_line_damaged("journals/g.jsonl")
    assert not first_line_damaged("journals/over.jsonl")
    rc, out, err = _resume(monkeypatch, capsys, "--resume")
    assert rc != 0 and out == []
    path = os.path.join("journals", "g.jsonl")
    assert err.startswith("pyramid: %s: line 1, the game's first line, is damaged" % path), err
    assert ("pyramid play --resume %s --upto-damage" % path) in err, err
    assert "race over" not in err
    assert open(path, "rb").read() == kept  # nothing changed


def test_a_file_that_is_no_game_journal_is_named_never_counted_as_a_race_over(
        tmp_path, monkeypatch, capsys):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "zzz.jsonl").write_text('{"hello": 1}\n')
    assert not first_line_damaged(str(folder / "zzz.jsonl"))
    rc, out, err = _resume(monkeypatch, capsys, "--resume", str(folder))
    assert rc != 0 and out == []
    assert err == ("pyramid: --resume %s: no game journal there (zzz.jsonl: not a game "
                   "journal): give --resume FILE" % folder)
    _journal(folder / "over.jsonl", finished=True)
    rc, out, err = _resume(monkeypatch, capsys, "--resume", str(folder))
    assert err == ("pyramid: --resume %s: no unfinished game there (1 journal, its race "
                   "over; not a game journal: zzz.jsonl): give --resume FILE" % folder)
    assert (folder / "zzz.jsonl").read_text() == '{"hello": 1}\n'


def test_a_garbled_edition_is_said_as_none_and_left_out_of_the_rebuild_command(
        tmp_path, monkeypatch, capsys):
    # the related papercut: the rebuild command repeated '--edition secxnd', which the
    # option parser then refused with its usage text
    path = str(tmp_path / "g.jsonl")
    _journal(path)
    kept = _damage_first_line(path)
    rc, out, err = _resume(monkeypatch, capsys, "--resume", path)
    assert rc != 0 and "secxnd" in err
    assert "edition secxnd (not an edition: give classic or second)" in err, err
    command = err[err.index("pyramid play --resume"):]
    assert "--edition EDITION" in command and "secxnd" not in command, command
    # the command as said, the edition given: the game resumes, its first line rebuilt
    argv = command.split()[2:]
    argv[argv.index("EDITION")] = "second"
    rc, out, err = _resume(monkeypatch, capsys, *[a for a in argv if a != "--plain"])
    assert rc == 0, err
    assert any("rebuilt exactly as it was written" in line for line in out), out
    assert kept in open(path + ".damaged", "rb").read()  # the journal as it was, kept
