"""``pyramid play --resume FILE`` reads the whole journal (and replays its game to check
each line, ``Session.stale_line``) once for the language and the names it resumes with
(``journal.verified``, given to ``read_last_lang`` and ``read_names``), and once more
under the journal's lock for the resume itself (journal43 item 3): that second read is
needed, as the words it says are in the journal's language, which the first read finds,
what it does depends on ``--upto-damage``/``--retype``, and only a read under the lock
reads what no other program changes meanwhile."""

import pytest
from camelhost import cli
from camelhost.table import journal as journal_module
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from test_journal import SETUP


@pytest.mark.parametrize("extra", [[], ["--players", "Ann,Ben,Cy"], ["--bots", ""],
                                   ["--players", "Ann,Ben,Cy", "--bots", ""]])
def test_a_resume_reads_the_whole_journal_twice_whatever_options_it_checks(
        tmp_path, monkeypatch, capsys, extra):
    path = tmp_path / "g.jsonl"
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in (SETUP, "leg red", "pyramid", "purple 2"):
        s.command(text)
    journal.close()
    whole_reads = []
    read = journal_module._read

    def counted(*args, **kwargs):
        if kwargs.get("data") is None:  # bytes given are no read of the file
            whole_reads.append(args[0])
        return read(*args, **kwargs)

    monkeypatch.setattr(journal_module, "_read", counted)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--plain", "--resume", str(path)] + extra) == 0
    assert "4 events restored" in capsys.readouterr().out
    assert whole_reads == [str(path)] * 2


def test_a_resume_of_a_folder_replays_the_game_it_chose_twice(tmp_path, monkeypatch, capsys):
    # --resume FOLDER: the lines that count, read to choose the language, are the ones
    # the names are checked against too; then the resume's own read, under the lock
    folder = tmp_path / "journals"
    folder.mkdir()
    path = folder / "g.jsonl"
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in (SETUP, "leg red", "pyramid", "purple 2"):
        s.command(text)
    journal.close()
    replays = []
    read = journal_module._read

    def counted(*args, **kwargs):
        if kwargs.get("data") is None and kwargs.get("check") is not None:
            replays.append(args[0])  # the whole file read, the game replayed to check it
        return read(*args, **kwargs)

    monkeypatch.setattr(journal_module, "_read", counted)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--plain", "--resume", str(folder), "--players",
                     "Ann,Ben,Cy"]) == 0
    assert "resuming the newest unfinished game in" in capsys.readouterr().out
    assert replays == [str(path)] * 2


def _whole_reads(monkeypatch):
    """The paths of the whole-journal reads from here on (``_read`` of the file, as
    above), a list that grows."""
    reads = []
    read = journal_module._read

    def counted(*args, **kwargs):
        if kwargs.get("data") is None:  # bytes given are no read of the file
            reads.append(args[0])
        return read(*args, **kwargs)

    monkeypatch.setattr(journal_module, "_read", counted)
    return reads


def _game_at(path, commands, written):
    """A journal of Ann, Ben and Cy at ``path`` after ``commands``, written at second
    ``written``."""
    import os
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in commands:
        s.command(text)
    journal.close()
    os.utime(str(path), (written, written))


def test_a_resume_of_a_folder_reads_each_candidate_once(tmp_path, monkeypatch, capsys):
    # (s44 journal task 2: the one it chose was read four times, each other one twice,
    # before the resume's own read under the lock)
    folder = tmp_path / "journals"
    folder.mkdir()
    older, newer = folder / "a.jsonl", folder / "b.jsonl"
    over = folder / "c.jsonl"
    _game_at(older, (SETUP, "leg red", "pyramid", "purple 2"), 1_000_000)
    _game_at(newer, (SETUP,), 2_000_000)  # started by mistake: nothing played
    over.write_bytes(b"not a journal\n")
    import os
    os.utime(str(over), (3_000_000, 3_000_000))
    reads = _whole_reads(monkeypatch)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--plain", "--resume", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "resuming the newest unfinished game in %s with a move played: %s" % (
        folder, older) in out, out[:400]
    assert "4 events restored" in out
    # chosen: read once to choose it, once under the lock; the others once each
    assert sorted(reads) == sorted([str(older)] * 2 + [str(newer), str(over)]), reads


def test_two_games_of_one_second_are_each_read_once_to_name_them(
        tmp_path, monkeypatch, capsys):
    folder = tmp_path / "journals"
    folder.mkdir()
    first, second = folder / "a.jsonl", folder / "b.jsonl"
    _game_at(first, (SETUP, "leg red"), 1_000_000)
    _game_at(second, (SETUP, "leg blue"), 1_000_000)
    reads = _whole_reads(monkeypatch)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--plain", "--resume", str(folder)]) == 1
    err = capsys.readouterr().err
    assert ("2 unfinished games whose files were last written in the same second (a copy, "
            "cp -r, writes them all at once; cp -p keeps their times): %s (Ann, Ben, Cy: "
            "race 1, leg 1)" % first) in err, err
    assert sorted(reads) == [str(first), str(second)], reads
