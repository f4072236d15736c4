"""A line of another game, or an exact repeat of a line, inside a journal (tester s41
item 1): when the game's own lines after it chain to the line before it, the refusal
offers to set it aside alone and ``--upto-damage`` keeps the game's later moves (the
line kept in ``FILE.damaged``, no byte lost); lines that do not chain on are handled as
before (resumed up to the line)."""

import pytest
import set_aside
from camelhost import cli
from camelhost.table.journal import read_events
from test_journal import _sample


def _games(tmp_path):
    """Two sample games played alike (only their game ids differ): game A's and game B's
    journal lines (bytes each, newline kept)."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _sample(a)
    _sample(b)
    return a.read_bytes().splitlines(keepends=True), b.read_bytes().splitlines(keepends=True)


def _play(monkeypatch, capsys, path, *flags):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(["play", "--resume", str(path), "--plain"] + list(flags))
    return rc, capsys.readouterr()


@pytest.mark.parametrize("kind", ["foreign", "repeated"])
def test_journal_a_foreign_or_repeated_line_is_set_aside_alone_keeping_the_later_moves(
        tmp_path, monkeypatch, capsys, kind):
    lines_a, lines = _games(tmp_path)
    if kind == "foreign":  # after line 5, a line copied from game A's journal
        data, line = b"".join(lines[:5] + [lines_a[5]] + lines[5:]), 6
        reason = "it belongs to another game ("
    else:  # line 6 doubled (sed -i '6p')
        data, line = b"".join(lines[:6] + [lines[5]] + lines[6:]), 7
        reason = "it is numbered 6, 7 was expected: a line repeated or moved"
    later = len(lines) + 1 - line
    path = tmp_path / "b2.jsonl"
    path.write_bytes(data)
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    err = out.err.strip()
    assert err.startswith("pyramid: %s: line %d is out of place (%s" % (path, line, reason))
    # the advice says what is set aside (it alone) and that the game's later lines are kept
    assert err.endswith("; nothing was changed (to resume without it, setting it aside alone "
                        "in %s.damaged and keeping the %d lines after it: pyramid play "
                        "--resume %s --upto-damage --plain)" % (path, later, path)), err
    assert path.read_bytes() == data and not (tmp_path / "b2.jsonl.damaged").exists()

    rc, out = _play(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 0, out.err
    assert ("line %d is out of place (%s" % (line, reason)) in out.out
    assert ("left out, set aside in %s.damaged; the %d lines after it follow the line before "
            "it and are kept" % (path, later)) in out.out
    # the game's own later moves are in the resumed game: Cy's 'tile 9 +' (after the undo)
    # and the grey die with its value keyed after it
    assert "tiles: 9 Cy cheering" in out.out
    assert "Last die: grey-black 1 (Ann)" in out.out
    assert path.read_bytes() == b"".join(lines)  # the game's journal, as it was written
    assert read_events(str(path))[-3:] == read_events(str(tmp_path / "b.jsonl"))[-3:]
    # nothing lost: the line set aside is in FILE.damaged, with the lines after it as they
    # were (its header says which the journal keeps), so the original bytes come back
    side = (tmp_path / "b2.jsonl.damaged").read_bytes()
    assert set_aside.batches(side) == [(line, len(lines) + 1, data.split(b"\n", line - 1)[-1])]
    assert (b"line %d, removed from the journal, lines %d-%d, a copy, kept in the journal"
            % (line, line + 1, len(lines) + 1)) in side
    first = path.read_bytes()[:len(b"".join(lines[:line - 1]))]
    assert first + set_aside.kept(tmp_path / "b2.jsonl.damaged") == data
    rc, out = _play(monkeypatch, capsys, path)  # the journal now resumes plainly
    assert rc == 0 and "out of place" not in out.out + out.err


def test_journal_a_foreign_line_the_next_line_does_not_chain_past_is_resumed_up_to(
        tmp_path, monkeypatch, capsys):
    # a line of game A in place of game B's line 6: B's line 7 names line 6's hash, not
    # line 5's, so nothing chains on past it: resumed up to it, as before
    lines_a, lines = _games(tmp_path)
    data = b"".join(lines[:5] + [lines_a[5]] + lines[6:])
    path = tmp_path / "b2.jsonl"
    path.write_bytes(data)
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    assert "line 6 is out of place (it belongs to another game (" in out.err
    assert "to resume up to it, moving it and the %d lines after it" % (len(lines) - 6) in out.err
    rc, out = _play(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 0
    assert "resumed up to line 6, which is out of place" in out.out
    assert path.read_bytes() + set_aside.kept(tmp_path / "b2.jsonl.damaged") == data


def test_replay_of_a_journal_with_a_repeated_line_shows_the_later_moves_unchanged(
        tmp_path, capsys):
    _lines_a, lines = _games(tmp_path)
    data = b"".join(lines[:6] + [lines[5]] + lines[6:])
    path = tmp_path / "b2.jsonl"
    path.write_bytes(data)
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert ("line 7 is out of place (it is numbered 6, 7 was expected: a line repeated or "
            "moved): left out, "
            "%s is unchanged; the %d lines after it follow the line before it and are kept"
            % (path, len(lines) - 6)) in out
    assert path.read_bytes() == data and not (tmp_path / "b2.jsonl.damaged").exists()
