"""A folder holding one game twice (tester s44b, finding 6): ``pyramid play --resume
FOLDER`` and ``pyramid replay FOLDER`` said "2 unfinished games" of a journal and its
backup copy written in the same second, the same game. Copies of one game (the same
bytes, or the same game id with one copied before the game went on) are one: the one
to take is chosen (the longest; among the same bytes the one whose name is no copy's,
a name the table gives first) and the line naming it says what the others are; games
that really differ are still named, none opened. And a ``*.jsonl`` there that is no
journal is opened once while choosing (s44b journal task 4)."""

import shutil

import pytest
from camelhost import cli
from camelhost.table import journal as journal_module
from test_resume_newest import _journal

WRITTEN = 1_796_671_000


def _folder(tmp_path, *names):
    """A folder holding one game's journal under each of ``names`` (copies, the same
    bytes), all written in the same second; the bytes."""
    folder = tmp_path / "jf"
    folder.mkdir()
    data = _journal(folder / names[0], written=WRITTEN)
    for name in names[1:]:
        shutil.copyfile(str(folder / names[0]), str(folder / name))
        import os
        os.utime(str(folder / name), (WRITTEN, WRITTEN))
    return folder, data


def _run(monkeypatch, capsys, *argv):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err.strip()


def test_a_journal_and_its_identical_copy_resume_as_one_game(tmp_path, monkeypatch, capsys):
    folder, data = _folder(tmp_path, "backup.jsonl", "20261207-193100.jsonl")
    rc, out, err = _run(monkeypatch, capsys, "play", "--plain", "--pyramid", "manual",
                        "--resume", str(folder))
    assert rc == 0, err
    assert ("resuming the newest unfinished game in %s: %s (race 1, leg 1); %s: a copy of the "
            "same game (the files are identical), left as it is\n"
            % (folder, folder / "20261207-193100.jsonl", folder / "backup.jsonl")) in out, out
    assert "unfinished games" not in err
    assert (folder / "backup.jsonl").read_bytes() == data  # the copy left as it is


def test_replay_shows_one_of_them_saying_the_other_is_a_copy(tmp_path, monkeypatch, capsys):
    folder, data = _folder(tmp_path, "g.jsonl", "g copy.jsonl", "g (2).jsonl")
    rc, out, err = _run(monkeypatch, capsys, "replay", "--brief", str(folder))
    assert rc == 0, err
    assert out.startswith(
        "replaying the newest journal in %s: %s; %s, %s: copies of the same game (the files "
        "are identical), left as they are\n"
        % (folder, folder / "g.jsonl", folder / "g (2).jsonl", folder / "g copy.jsonl")), out
    assert all(path.read_bytes() == data for path in folder.iterdir())


def test_a_copy_made_before_the_game_went_on_gives_the_longer_one(
        tmp_path, monkeypatch, capsys):
    folder, data = _folder(tmp_path, "a.jsonl", "b.jsonl")
    monkeypatch.setattr("sys.stdin", iter(["leg blue\n", "quit\n"]))
    assert cli.main(["play", "--plain", "--pyramid", "manual", "--resume",
                     str(folder / "b.jsonl")]) == 0
    capsys.readouterr()
    import os
    os.utime(str(folder / "b.jsonl"), (WRITTEN, WRITTEN))
    longer = (folder / "b.jsonl").read_bytes()
    assert len(longer) > len(data)  # Ben's ticket
    rc, out, err = _run(monkeypatch, capsys, "replay", "--brief", str(folder))
    assert rc == 0, err
    assert out.startswith(
        "replaying the newest journal in %s: %s; %s: the same game, a copy made before it "
        "went on (each of its lines is in the one taken), left as it is\n"
        % (folder, folder / "b.jsonl", folder / "a.jsonl")), out
    rc, out, err = _run(monkeypatch, capsys, "play", "--plain", "--pyramid", "manual",
                        "--resume", str(folder))
    assert rc == 0, err
    assert "resuming the newest unfinished game in %s: %s (race 1, leg 1); %s: the same " \
           "game" % (folder, folder / "b.jsonl", folder / "a.jsonl") in out, out
    assert (folder / "a.jsonl").read_bytes() == data


def test_copies_that_went_apart_are_still_two_games(tmp_path, monkeypatch, capsys):
    folder, data = _folder(tmp_path, "a.jsonl", "b.jsonl")
    for name, ticket in (("a.jsonl", "leg blue"), ("b.jsonl", "leg yellow")):
        monkeypatch.setattr("sys.stdin", iter([ticket + "\n", "quit\n"]))
        assert cli.main(["play", "--plain", "--pyramid", "manual", "--resume",
                         str(folder / name)]) == 0
        import os
        os.utime(str(folder / name), (WRITTEN, WRITTEN))
    capsys.readouterr()
    kept = {path.name: path.read_bytes() for path in folder.iterdir()}
    rc, out, err = _run(monkeypatch, capsys, "play", "--plain", "--pyramid", "manual",
                        "--resume", str(folder))
    assert rc == 1 and "2 unfinished games whose files were last written" in err, err
    rc, out, err = _run(monkeypatch, capsys, "replay", "--brief", str(folder))
    assert rc != 0 and "2 journals whose files were last written" in err, err
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == kept


def test_a_file_that_is_no_journal_is_opened_once_while_choosing(
        tmp_path, monkeypatch, capsys):
    folder, _data = _folder(tmp_path, "a.jsonl")
    other = folder / "notes.jsonl"
    other.write_bytes(b'{"not": "a journal"}\n')
    import os
    os.utime(str(other), (WRITTEN + 10, WRITTEN + 10))  # newest: looked at first
    opened = []
    real = journal_module._open_read

    def counted(path):
        opened.append(str(path))
        return real(path)

    monkeypatch.setattr(journal_module, "_open_read", counted)
    rc, out, err = _run(monkeypatch, capsys, "play", "--plain", "--pyramid", "manual",
                        "--resume", str(folder))
    assert rc == 0, err
    assert opened.count(str(other)) == 1, opened


def test_a_german_table_says_so_in_german(tmp_path, monkeypatch, capsys):
    folder, _data = _folder(tmp_path, "g.jsonl", "g-Kopie.jsonl")
    rc, out, err = _run(monkeypatch, capsys, "replay", "--lang", "de", "--brief", str(folder))
    assert rc == 0, err
    assert ("%s: eine Kopie desselben Spiels (die Dateien sind gleich), bleibt, wie sie ist\n"
            % (folder / "g-Kopie.jsonl")) in out.splitlines(True)[0], out


def test_a_newest_game_in_copies_with_nothing_played_is_passed_over(
        tmp_path, monkeypatch, capsys):
    # the rule for a newest game started by mistake (s38 tester finding 7) holds when
    # that game is in copies too: the newest older game with a move played is resumed
    import os

    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    folder = tmp_path / "jf"
    folder.mkdir()
    real = folder / "a.jsonl"
    _journal(real, written=WRITTEN - 100)
    empty = folder / "b.jsonl"
    with Journal(str(empty), pyramid="manual") as journal:
        Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=journal)
    shutil.copyfile(str(empty), str(folder / "b copy.jsonl"))
    for path in (empty, folder / "b copy.jsonl"):
        os.utime(str(path), (WRITTEN, WRITTEN))
    kept = {path: path.read_bytes() for path in folder.iterdir()}
    rc, out, err = _run(monkeypatch, capsys, "play", "--plain", "--pyramid", "manual",
                        "--resume", str(folder))
    assert rc == 0, err
    assert out.startswith(
        "resuming the newest unfinished game in %s with a move played: %s (race 1, leg 1); "
        "%s, newer, has nothing played yet (to continue that one: --resume %s)\n"
        % (folder, real, empty, empty)), out
    assert all(path.read_bytes() == data for path, data in kept.items()
               if path != real)  # the copies left as they are


def test_a_backup_made_seconds_later_is_a_copy_not_the_newest_game(
        tmp_path, monkeypatch, capsys):
    # tester s45b finding 1: `cp g.jsonl backup.jsonl` two seconds after the game was
    # saved made the backup "the newest": the resume played on in it, saying nothing of
    # g.jsonl. Copies are one game whatever their files' times.
    import os
    folder, data = _folder(tmp_path, "g.jsonl", "backup.jsonl")
    os.utime(str(folder / "backup.jsonl"), (WRITTEN + 2, WRITTEN + 2))
    rc, out, err = _run(monkeypatch, capsys, "replay", "--brief", str(folder))
    assert rc == 0, err
    assert out.startswith(
        "replaying the newest journal in %s: %s; %s: a copy of the same game (the files are "
        "identical), left as it is\n" % (folder, folder / "g.jsonl", folder / "backup.jsonl")), out
    monkeypatch.setattr("sys.stdin", iter(["leg blue\n", "quit\n"]))
    assert cli.main(["play", "--plain", "--pyramid", "manual", "--resume", str(folder)]) == 0
    out = capsys.readouterr().out
    assert ("resuming the newest unfinished game in %s: %s (race 1, leg 1); %s: a copy of the "
            "same game (the files are identical), left as it is\n"
            % (folder, folder / "g.jsonl", folder / "backup.jsonl")) in out, out
    assert (folder / "backup.jsonl").read_bytes() == data  # the backup left as it is
    assert len((folder / "g.jsonl").read_bytes()) > len(data)  # the game went on in g.jsonl


def test_an_older_copy_made_before_the_game_went_on_is_named(tmp_path, monkeypatch, capsys):
    # a.jsonl copied to b.jsonl, the game then played on in b.jsonl a second later: the
    # longer is taken, the older copy named, whichever file is newer
    import os
    folder, data = _folder(tmp_path, "a.jsonl", "b.jsonl")
    monkeypatch.setattr("sys.stdin", iter(["leg blue\n", "quit\n"]))
    assert cli.main(["play", "--plain", "--pyramid", "manual", "--resume",
                     str(folder / "b.jsonl")]) == 0
    capsys.readouterr()
    os.utime(str(folder / "b.jsonl"), (WRITTEN + 1, WRITTEN + 1))
    for argv, said in ((["replay", "--brief"], "replaying the newest journal in"),
                       (["play", "--plain", "--pyramid", "manual", "--resume"],
                        "resuming the newest unfinished game in")):
        rc, out, err = _run(monkeypatch, capsys, *(argv + [str(folder)]))
        assert rc == 0, err
        assert "%s %s: %s" % (said, folder, folder / "b.jsonl") in out, out
        assert "; %s: the same game, a copy made before it went on (each of its lines is in " \
               "the one taken), left as it is\n" % (folder / "a.jsonl") in out, out
    assert (folder / "a.jsonl").read_bytes() == data


def _sums(folder):
    """Every file's sha256 in ``folder``, by name."""
    import hashlib
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in folder.iterdir()}


def test_copies_with_a_damaged_first_line_are_one_game_for_resume_too(
        tmp_path, monkeypatch, capsys):
    # tester s45b finding 7: a journal whose first line is damaged ("seed" garbled to
    # "sead") and its identical copy: replay called one "a copy", the resume said "2
    # unfinished games ... (?: damaged)". The same bytes are one game even when the first
    # line can't be read: the first line's refusal is said once, for the file taken,
    # naming the copy (then a backup made seconds later: the same)
    import os
    folder, data = _folder(tmp_path, "g.jsonl")
    damaged = data.replace(b'"seed":', b'"sead":', 1)
    for later in (0, 2):
        for name in ("g.jsonl", "backup.jsonl"):
            (folder / name).write_bytes(damaged)
        os.utime(str(folder / "g.jsonl"), (WRITTEN, WRITTEN))
        os.utime(str(folder / "backup.jsonl"), (WRITTEN + later, WRITTEN + later))
        kept = _sums(folder)
        rc, out, err = _run(monkeypatch, capsys, "play", "--plain", "--pyramid", "manual",
                            "--resume", str(folder))
        assert rc == 1, out
        assert err.startswith(
            "pyramid: --resume %s: the newest unfinished game there is %s; %s: a copy of the "
            "same game (the files are identical), left as it is. %s: line 1, the game's "
            "first line, is damaged" % (folder, folder / "g.jsonl", folder / "backup.jsonl",
                                        folder / "g.jsonl")), err
        assert "unfinished games" not in err and len(err.splitlines()) == 1, err
        assert err.count("--upto-damage") == 1, err
        assert err.endswith("pyramid play --resume %s --upto-damage --plain --pyramid manual "
                            "--players Ann,Ben,Cy --edition second --seed SEED"
                            % (folder / "g.jsonl")), err
        rc, out, err = _run(monkeypatch, capsys, "replay", "--brief", str(folder))
        assert out.startswith(
            "replaying the newest journal in %s: %s; %s: a copy of the same game (the files "
            "are identical), left as it is\n"
            % (folder, folder / "g.jsonl", folder / "backup.jsonl")), out
        assert "--resume %s --upto-damage" % (folder / "g.jsonl") in err, err
        assert _sums(folder) == kept  # both refusals leave every file as it was


def _finished_and_its_start(tmp_path, later=60, lines=3):
    """A folder holding a finished game's journal (``long.jsonl``) and a copy of its
    first ``lines`` lines (``short.jsonl``: a backup made before the game went on), the
    copy written ``later`` seconds after it (before it: less than 0); the folder."""
    import os

    from test_resume_newest import _journal as journal
    folder = tmp_path / "jf"
    folder.mkdir()
    data = journal(folder / "long.jsonl", finished=True, written=WRITTEN)
    (folder / "short.jsonl").write_bytes(b"".join(data.splitlines(True)[:lines]))
    os.utime(str(folder / "short.jsonl"), (WRITTEN + later, WRITTEN + later))
    return folder


@pytest.mark.parametrize("later", [60, -60])
def test_a_longer_finished_copy_means_the_game_is_over(tmp_path, monkeypatch, capsys, later):
    # the newest unfinished file the start of another whose race is over (the same game
    # id), older (closing45) or newer (a backup made mid-game, the game played to its
    # end after): the resume took the shorter as if the longer did not exist; now the
    # game is over, as replay shows it (the longer), and the resume says so naming both
    folder = _finished_and_its_start(tmp_path, later)
    kept = _sums(folder)
    rc, out, err = _run(monkeypatch, capsys, "replay", "--brief", str(folder))
    assert rc == 0, err
    assert out.startswith(
        "replaying the newest journal in %s: %s; %s: the same game, a copy made before it "
        "went on (each of its lines is in the one taken), left as it is\n"
        % (folder, folder / "long.jsonl", folder / "short.jsonl")), out
    rc, out, err = _run(monkeypatch, capsys, "play", "--plain", "--pyramid", "manual",
                        "--resume", str(folder))
    assert rc == 1, out
    assert err == (
        "pyramid: --resume %(f)s: no unfinished game there: %(s)s is a copy of "
        "%(l)s made before its game went on, and that game's race is over (pyramid replay "
        "%(l)s shows it; to continue the copy all the same: --resume %(s)s)"
        % {"f": folder, "s": folder / "short.jsonl", "l": folder / "long.jsonl"}), err
    assert _sums(folder) == kept


def test_past_an_over_game_in_copies_the_newest_unfinished_other_game_resumes(
        tmp_path, monkeypatch, capsys):
    # as a finished newest game is passed over for an older unfinished one, so is the
    # start of a finished game, named in the line
    folder = _finished_and_its_start(tmp_path)
    other = folder / "other.jsonl"
    _journal(other, written=WRITTEN - 60, players=["Xa", "Yb", "Zc"])
    kept = _sums(folder)
    rc, out, err = _run(monkeypatch, capsys, "play", "--plain", "--pyramid", "manual",
                        "--resume", str(folder))
    assert rc == 0, err
    assert out.startswith(
        "resuming the newest unfinished game in %(f)s: %(o)s (race 1, leg 1); %(s)s, newer, "
        "is a copy of %(l)s made before its game went on, and that game's race is over (to "
        "continue the copy all the same: --resume %(s)s)\n"
        % {"f": folder, "o": other, "s": folder / "short.jsonl",
           "l": folder / "long.jsonl"}), out
    assert _sums(folder) == kept
    rc, out, err = _run(monkeypatch, capsys, "play", "--lang", "de", "--plain", "--pyramid",
                        "manual", "--resume", str(folder))
    assert rc == 0, err
    assert ("%s, neuer, ist eine Kopie von %s" % (folder / "short.jsonl", folder / "long.jsonl")
            in out.splitlines()[0]), out


def test_the_journals_of_other_games_are_not_read_whole_while_choosing(
        tmp_path, monkeypatch, capsys):
    # a folder of many games: an older journal is read whole only when its first lines
    # give the newest game's id (a copy of it), never another game's
    from camelhost.commands import play
    folder, _data = _folder(tmp_path, "new.jsonl")
    import os
    for i in range(3):
        _journal(folder / ("old%d.jsonl" % i), finished=i > 0, written=WRITTEN - 10 - i,
                 players=["Xa", "Yb", "Zc"])
    whole = []
    real = play.journal_bytes
    monkeypatch.setattr(play, "journal_bytes", lambda path: whole.append(path) or real(path))
    for argv in (["replay", "--brief"], ["play", "--plain", "--pyramid", "manual", "--resume"]):
        rc, out, err = _run(monkeypatch, capsys, *(argv + [str(folder)]))
        assert rc == 0, err
        assert str(folder / "new.jsonl") in out.splitlines()[0], out
    assert not [p for p in whole if os.path.basename(p).startswith("old")], whole


def test_choosing_replays_each_journal_it_looks_at_once(tmp_path, monkeypatch):
    # every finished game newer than the newest unfinished one is looked at (is its
    # race over?): its game was replayed twice, by the read's check and again for where
    # it stands; once is enough (a folder of many games)
    from camelhost.commands import play
    from camelhost.table.session import Session
    folder = tmp_path / "jf"
    folder.mkdir()
    _journal(folder / "old.jsonl", written=WRITTEN - 10)
    for i in range(3):
        _journal(folder / ("done%d.jsonl" % i), finished=True, written=WRITTEN + i,
                 players=["Xa", "Yb", "Zc"])
    replayed = []
    real = Session.from_events.__func__

    def counted(cls, events, path=None, each=None):
        replayed.append(len(events))
        return real(cls, events, path, each)

    monkeypatch.setattr(Session, "from_events", classmethod(counted))
    chosen, skipped = play.newest_unfinished(str(folder))
    assert chosen.path == str(folder / "old.jsonl") and skipped is None
    assert len(replayed) == 4, replayed  # 4 journals, each replayed once
