"""``pyramid replay FOLDER``: the newest journal in the folder, finished or not, named
before it is shown; several equally new ones listed in one line, none shown (as ``pyramid
play --resume FOLDER`` chooses; was only 'is a folder, not a journal file')."""

from camelhost import cli
from test_resume_newest import _journal


def _replay(capsys, *argv):
    rc = cli.main(["replay", "--brief"] + list(argv))
    out = capsys.readouterr()
    return rc, out.out.splitlines(), out.err.strip()


def test_replay_of_a_folder_shows_its_newest_journal_even_a_finished_one(tmp_path, capsys):
    folder = tmp_path / "journals"
    folder.mkdir()
    _journal(folder / "old.jsonl", written=1_700_000_000)
    data = _journal(folder / "new.jsonl", finished=True, written=1_700_000_100)
    (folder / "notes.txt").write_text("not a journal")
    rc, out, err = _replay(capsys, str(folder))
    assert rc == 0 and err == ""
    assert out[0] == "replaying the newest journal in %s: %s" % (folder, folder / "new.jsonl")
    # then what the replay of that file shows, line for line
    rc, want, _err = _replay(capsys, str(folder / "new.jsonl"))
    assert out[1:] == want and out[-1] == "The race is over."
    assert (folder / "new.jsonl").read_bytes() == data


def test_replay_of_a_folder_with_two_journals_equally_new_names_both_and_shows_none(
        tmp_path, capsys):
    _journal(tmp_path / "a.jsonl", written=1_700_000_000)
    _journal(tmp_path / "b.jsonl", finished=True, written=1_700_000_000)
    _journal(tmp_path / "c.jsonl", written=1_600_000_000)
    rc, out, err = _replay(capsys, str(tmp_path))
    assert rc != 0 and out == []
    assert err == ("pyramid: %s: 2 journals whose files were last written in the same "
                   "second (a copy, cp -r, writes them all at once; cp -p keeps their "
                   "times): %s, %s; give the one to show: pyramid replay FILE"
                   % (tmp_path, tmp_path / "a.jsonl", tmp_path / "b.jsonl"))


def test_replay_of_a_folder_with_no_journal_says_so_in_one_line(tmp_path, capsys):
    (tmp_path / "g.txt").write_text("{}")
    rc, out, err = _replay(capsys, str(tmp_path))
    assert rc != 0 and out == []
    assert err == "pyramid: %s is a folder with no journal in it (*.jsonl): give FILE" % tmp_path


def test_replay_of_a_folder_speaks_its_newest_journals_language(tmp_path, capsys):
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    with Journal(str(tmp_path / "g.jsonl"), pyramid="manual", lang="de") as journal:
        Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=journal)
    rc, out, err = _replay(capsys, str(tmp_path))
    assert rc == 0 and err == ""
    # the line naming the journal is said in the journal's language, as what follows
    assert out[0] == "zeige das neueste Protokoll in %s: %s" % (tmp_path, tmp_path / "g.jsonl")
