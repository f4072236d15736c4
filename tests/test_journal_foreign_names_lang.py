"""A ``rename`` or ``lang`` line of another game inside a journal never changes the
names or the language the resume starts with: ``read_names`` and ``read_last_lang`` read
the lines a resume keeps (``verified``), not every line of the file (s42 task 3)."""

import pytest
from camelhost import cli
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from test_journal import SETUP, _sample


def _other_game(path):
    """Another game's journal (the same seats) with a rename of Ann and a German table:
    its lines, the rename line and the lang line (bytes, newline kept)."""
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    s.command(SETUP)
    s.command("rename Ann Zed")
    s.record_lang("de")
    journal.close()
    lines = path.read_bytes().splitlines(keepends=True)
    return (next(x for x in lines if b'"type":"rename"' in x),
            next(x for x in lines if b'"type":"lang"' in x))


def _play(monkeypatch, capsys, path, *flags):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(["play", "--resume", str(path), "--plain"] + list(flags))
    return rc, capsys.readouterr()


@pytest.mark.parametrize("where", [5, 9])  # left out alone; the last line: resumed up to
def test_a_foreign_rename_line_never_renames_a_player(tmp_path, monkeypatch, capsys, where):
    rename, _lang = _other_game(tmp_path / "a.jsonl")
    _sample(tmp_path / "b.jsonl")
    lines = (tmp_path / "b.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "b2.jsonl"
    data = b"".join(lines[:where] + [rename] + lines[where:])
    path.write_bytes(data)
    rc, out = _play(monkeypatch, capsys, path, "--players", "Ann,Ben,Dee")
    assert rc == 1
    # the journal's players as its own lines leave them: Ann is not renamed Zed
    assert "conflicts with the journal's players (Ann,Ben,Cy)" in out.err, out.err
    assert path.read_bytes() == data


def test_a_foreign_lang_line_never_changes_the_tables_language(tmp_path, monkeypatch, capsys):
    _rename, lang = _other_game(tmp_path / "a.jsonl")
    _sample(tmp_path / "b.jsonl")
    lines = (tmp_path / "b.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "b2.jsonl"
    data = b"".join(lines[:5] + [lang] + lines[5:])
    path.write_bytes(data)
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    # refused in the game's own language (English), not the other game's German
    assert "line 6 is out of place (it belongs to another game" in out.err, out.err
    rc, out = _play(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 0, out.err
    assert "left out, set aside in %s.damaged" % path in out.out, out.out
