"""A damaged first line whose JSON no longer parses is read field by field (s42 task 4):
each of the game's settings (players, edition, seed, ...) whose value still checks. The
error names exactly the ones the damage took; when what it still reads is proven the
line as written by the next line's chain hash, ``--upto-damage`` alone rebuilds it
exactly; when it is not proven, it is never rebuilt on those reads alone (the players,
edition and seed are the user's to give)."""

from camelhost.table.journal import read_events
from test_journal_first_line_settings import _game, _resume


def _broken(data, old=b"", new=b""):
    """``data`` with line 1's JSON broken by a stray comma and ``old`` made ``new`` in it,
    its checksum kept (it no longer matches)."""
    first, rest = data.split(b"\n", 1)
    first = first.replace(b'"lang":"en",', b'"lang":"en",,', 1).replace(old, new, 1)
    return first + b"\n" + rest


def test_a_first_line_read_field_by_field_and_proven_is_rebuilt_by_upto_damage_alone(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    data = _game(path)
    whole = read_events(str(path))
    damaged = _broken(data)
    path.write_bytes(damaged)
    rc, _out, err = _resume(monkeypatch, capsys, path)
    assert rc == 1
    assert err.strip() == (
        "pyramid: %s: line 1, the game's first line, is damaged (checksum does not match); "
        "nothing was changed. It still reads: players Ann, Ben, Cy; edition second; seed 4, "
        "and the next line's chain hash proves that is the line as written. The 3 lines "
        "after it are intact: to rebuild the first line exactly and resume: pyramid play "
        "--resume %s --upto-damage --plain" % (path, path)), err
    assert path.read_bytes() == damaged
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 0, err
    assert ("line 1, the game's first line, was damaged (checksum does not match) and is "
            "rebuilt exactly as it was written (the next line's chain hash matches)") in out
    assert path.read_bytes().startswith(data) and read_events(str(path))[:len(whole)] == whole
    assert (tmp_path / "g.jsonl.damaged").read_bytes().endswith(damaged)  # nothing lost


def test_a_first_line_field_the_damage_took_is_named(tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    damaged = _broken(_game(path), b'"players":["Ann"', b'"players":[Ann"')
    path.write_bytes(damaged)
    rc, _out, err = _resume(monkeypatch, capsys, path)
    assert rc == 1
    assert ("line 1, the game's first line, is damaged (checksum does not match); nothing "
            "was changed. What can't be read: its players (it still reads: edition second; seed "
            "4); the 3 lines after it are intact: to rebuild the first line and resume, give "
            "its players in place of NAMES in this command: pyramid play --resume %s "
            "--upto-damage --plain --players NAMES --edition second --seed 4" % path) in err, err
    rc, _out, err = _resume(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 1 and "What can't be read: its players (" in err, err
    assert path.read_bytes() == damaged


def test_a_first_line_field_read_but_not_proven_is_never_taken_alone(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    data = _game(path)
    damaged = _broken(data, b'"seed":4', b'"seed":5')  # a field still reads, wrong
    path.write_bytes(damaged)
    for words in ([], ["--upto-damage"]):
        rc, _out, err = _resume(monkeypatch, capsys, path, *words)
        assert rc == 1
        assert ("nothing was changed. It still reads: players Ann, Ben, Cy; edition second; "
                "seed 5, but the next line's chain hash does not confirm it: a field of it is "
                "not as written (which one can't be told). The 3 lines after it are intact: "
                "to rebuild the first line, correct the wrong one in this command, then "
                "resume: ") in err, err
        assert path.read_bytes() == damaged
    # the values given (the seed corrected): the line as written again
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage", "--players",
                           "Ann,Ben,Cy", "--edition", "second", "--seed", "4")
    assert rc == 0, err
    assert "is rebuilt exactly as it was written" in out
    assert path.read_bytes().startswith(data)
