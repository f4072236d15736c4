"""A damaged first line whose text still reads is rebuilt by ``--upto-damage`` only when
the next line's chain hash confirms it (s44 journal task 1): its seed changed by a bit
flip (4 to 5) still reads as a game line, but it is not the line the chain was built
on; it was rebuilt all the same and the game resumed from a first line not the one
played. Now the resume is refused in one line naming line 1 and why, the file
byte-identical; with the seed corrected the line is the one written and the game
resumes."""

from camelhost import cli
from camelhost.table.journal import read_events
from test_journal_recover import COMMANDS, _game


def _seed_flipped(path):
    """A real journal (seed 4) whose line 1 reads seed 5, its checksum kept: its bytes
    as written, then as damaged."""
    data = b"".join(_game(path, COMMANDS))
    first, rest = data.split(b"\n", 1)
    assert first.count(b'"seed":4') == 1
    damaged = first.replace(b'"seed":4', b'"seed":5') + b"\n" + rest
    path.write_bytes(damaged)
    return data, damaged


def _resume(monkeypatch, capsys, path, *words):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(["play", "--resume", str(path), "--plain"] + list(words))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_a_first_line_the_chain_does_not_confirm_is_refused_the_file_unchanged(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    _data, damaged = _seed_flipped(path)
    later = damaged.count(b"\n") - 1
    command = ("pyramid play --resume %s --upto-damage --plain --players Ann,Ben,Cy "
               "--edition second --seed 5" % path)
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 1 and "resumed" not in out
    assert err == (
        "pyramid: %s: line 1, the game's first line, is damaged (checksum does not match); "
        "nothing was changed. It still reads: players Ann, Ben, Cy; edition second; seed 5, "
        "but the next line's chain hash does not confirm it: a field of it is not as "
        "written (which one can't be told). The %d lines after it are intact: to rebuild "
        "the first line, correct the wrong one in this command, then resume: %s\n"
        % (path, later, command)), err
    assert path.read_bytes() == damaged  # byte-identical
    assert not (tmp_path / "g.jsonl.damaged").exists()
    # the command as offered, not corrected: the values it reads are refused too, said
    # so, not "correct the wrong one" (tester s44b, 2 and 4)
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage", "--players",
                           "Ann,Ben,Cy", "--edition", "second", "--seed", "5")
    assert rc == 1 and len(err.splitlines()) == 1, err
    assert ("line 1, the game's first line, is damaged (checksum does not match); nothing "
            "was changed. The values given are the ones it reads (players Ann, Ben, Cy; "
            "edition second; seed 5; pyramid manual), but the next line's chain hash does not "
            "confirm the line rebuilt with them") in err, err
    # a value given that is not the one it reads: still unproven, that one to correct
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage", "--seed", "6")
    assert rc == 1 and len(err.splitlines()) == 1, err
    assert ("As rebuilt with the values given it reads: players Ann, Ben, Cy; edition "
            "second; seed 6, but the next line's chain hash does not confirm it") in err, err
    assert path.read_bytes() == damaged
    assert not (tmp_path / "g.jsonl.damaged").exists()


def test_a_first_line_the_chain_confirms_is_rebuilt_and_the_game_resumes(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    data, damaged = _seed_flipped(path)
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage", "--players",
                           "Ann,Ben,Cy", "--edition", "second", "--seed", "4")
    assert rc == 0, err
    assert ("line 1, the game's first line, was damaged (checksum does not match) and is "
            "rebuilt exactly as it was written (the next line's chain hash matches): players "
            "Ann, Ben, Cy; edition second; seed 4") in out, out[:800]
    assert path.read_bytes().startswith(data)  # the line as played, every line after it
    assert read_events(str(path))[0]["seed"] == 4
    assert (tmp_path / "g.jsonl.damaged").read_bytes().endswith(damaged)  # nothing lost
