"""A line of another game, or a repeated line, that the next line chains past, in a
journal that has another problem further on (s42 task 1): one ``--upto-damage`` handles
each in turn as it would alone (each line set aside kept in ``FILE.damaged``, the
game's own lines between and after them kept), and the refusal before it names every
line it sets aside. Nothing is deleted: the journal and ``FILE.damaged`` together hold
every byte."""

import pytest
import set_aside
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from test_journal import SETUP
from test_journal_out_of_place_alone import _play

COMMANDS = (SETUP, "leg red", "pyramid", "purple 2", "tile 8 -", "undo", "tile 9 +",
            "rename Cy Dee", "grey black ?", "1")


def _games(tmp_path):
    """Two games played alike (only their game ids differ; Cy renamed Dee on line 9):
    game A's and game B's journal lines (bytes each, newline kept)."""
    out = []
    for name in ("a.jsonl", "b.jsonl"):
        journal = Journal(str(tmp_path / name), pyramid="manual")
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        for text in COMMANDS:
            s.command(text)
        journal.close()
        out.append((tmp_path / name).read_bytes().splitlines(keepends=True))
    return out


def _damage(line, old, new):
    assert old in line
    return line.replace(old, new, 1)


def _journal(tmp_path, case):
    """Game B's journal with game A's line 6 after its line 5 (file line 6) and, by
    ``case``: game A's line 9 (its rename) after its line 8 too (file line 10; ``two
    foreign``), its line 9 (the rename) damaged (file line 10; ``damaged``), its last
    line damaged (file line 12; ``damaged last``), or its line 6 repeated (file line 8;
    ``repeated``). Returns ``(path, data, B's own lines)``."""
    lines_a, lines = _games(tmp_path)
    b = list(lines)
    tail = {"two foreign": b[5:8] + [lines_a[8]] + b[8:],
            "damaged": b[5:8] + [_damage(b[8], b'"Dee"', b'"Dex"')] + b[9:],
            "damaged last": b[5:10] + [_damage(b[10], b'"value":1', b'"value":2')],
            "repeated": b[5:6] + [b[5]] + b[6:]}[case]
    data = b"".join(b[:5] + [lines_a[5]] + tail)
    path = tmp_path / "b2.jsonl"
    path.write_bytes(data)
    return path, data, lines


@pytest.mark.parametrize("case, aside", [
    ("two foreign", "line 6 (out of place), line 10 (out of place)"),
    ("repeated", "line 6 (out of place), line 8 (out of place)"),
    ("damaged", "line 6 (out of place), line 10 (damaged)")])
def test_a_foreign_line_and_another_set_aside_alone_keep_every_line_of_the_game(
        tmp_path, monkeypatch, capsys, case, aside):
    path, data, lines = _journal(tmp_path, case)
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    err = out.err.strip()
    assert err.startswith("pyramid: %s: line 6 is out of place (it belongs to another game ("
                          % path), err
    # every line it will set aside, named as the file numbers them, before anyone runs it
    assert err.endswith("nothing was changed (to resume without them, setting aside alone in "
                        "%s.damaged %s, keeping the game's other lines: pyramid play --resume "
                        "%s --upto-damage --plain)" % (path, aside, path)), err
    assert path.read_bytes() == data and not (tmp_path / "b2.jsonl.damaged").exists()

    rc, out = _play(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 0, out.err
    assert ("line 6 is out of place (it belongs to another game (" in out.out
            and "left out, set aside in %s.damaged; the line after it follows the line "
            "before it" % path in out.out), out.out
    # the game's own later moves are in the resumed game
    assert "Last die: grey-black 1 (Ann)" in out.out
    if case == "damaged":
        assert ("line 10 is damaged (checksum does not match): left out, set aside in "
                "%s.damaged; the 2 lines after it are kept" % path) in out.out, out.out
        assert read_events(str(path))[-2:] == read_events(str(tmp_path / "b.jsonl"))[-2:]
    else:
        assert path.read_bytes() == b"".join(lines)  # the game's journal, as written
    # nothing lost: FILE.damaged holds the lines from the first set aside on, as they were
    side = (tmp_path / "b2.jsonl.damaged").read_bytes()
    [(first, last, body)] = set_aside.batches(side)
    assert (first, last) == (6, data.count(b"\n"))
    assert path.read_bytes()[:len(b"".join(lines[:5]))] + body == data
    rc, out = _play(monkeypatch, capsys, path)  # the journal now resumes plainly
    assert rc == 0 and "out of place" not in out.out + out.err, out.err


def test_a_foreign_line_and_a_damaged_last_line_keep_the_lines_between(
        tmp_path, monkeypatch, capsys):
    path, data, lines = _journal(tmp_path, "damaged last")
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    assert out.err.strip().endswith(
        "nothing was changed (to resume without them, setting aside alone in %s.damaged "
        "line 6 (out of place), keeping the game's other lines before line 12, then moving "
        "line 12 there too (checksum does not match): pyramid play --resume %s --upto-damage "
        "--plain)" % (path, path)), out.err
    assert path.read_bytes() == data
    rc, out = _play(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 0, out.err
    assert "resumed up to the damaged line 12; it and the rest are kept in %s.damaged" % (
        path) in out.out, out.out
    # the game's lines 6-10 (file lines 7-11) are kept: the grey die is in the game
    assert path.read_bytes() == b"".join(lines[:10])
    side = (tmp_path / "b2.jsonl.damaged").read_bytes()
    [(first, last, body)] = set_aside.batches(side)
    assert (first, last) == (6, 12)
    assert path.read_bytes()[:len(b"".join(lines[:5]))] + body == data


def test_a_damaged_line_before_a_foreign_line_is_named_first_and_both_set_aside(
        tmp_path, monkeypatch, capsys):
    lines_a, b = _games(tmp_path)
    # B's rename (line 9) damaged, then game A's rename after B's line 10 (file line 11)
    data = b"".join(b[:8] + [_damage(b[8], b'"Dee"', b'"Dex"'), b[9], lines_a[8]] + b[10:])
    path = tmp_path / "b2.jsonl"
    path.write_bytes(data)
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    assert out.err.startswith("pyramid: %s: line 9 is damaged (checksum does not match); "
                              "nothing was changed (to resume without them, setting aside "
                              "alone in %s.damaged line 9 (damaged), line 11 (out of place), "
                              "keeping the game's other lines" % (path, path)), out.err
    rc, out = _play(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 0, out.err
    assert "line 11 is out of place (it belongs to another game (" in out.out
    assert "line 9 is damaged (checksum does not match): left out" in out.out
    assert "Last die: grey-black 1 (Ann)" in out.out
    side = (tmp_path / "b2.jsonl.damaged").read_bytes()
    [(first, last, body)] = set_aside.batches(side)
    assert (first, last) == (9, 12)
    assert path.read_bytes()[:len(b"".join(b[:8]))] + body == data


def test_a_damaged_line_besides_a_foreign_line_is_offered_and_taken_typed_again(
        tmp_path, monkeypatch, capsys):
    # without Cy's 'tile 9 +' (B's line 8, file line 9) the grey die is on another turn:
    # the refusal offers it typed again first (as alone), and that --retype goes on with
    # the foreign line left out and every line of the game kept
    lines_a, b = _games(tmp_path)
    data = b"".join(b[:5] + [lines_a[5]] + b[5:7]
                    + [_damage(b[7], b'"tile 9 +"', b'"tile 9 -"')] + b[8:])
    path = tmp_path / "b2.jsonl"
    path.write_bytes(data)
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    err = out.err.strip()
    assert err.startswith(
        "pyramid: %s: line 6 is out of place (it belongs to another game (" % path), err
    assert ("nothing was changed; line 9 is damaged (checksum does not match); the next "
            "line's chain hash proves it held Cy's action 'tile 9 +': type it again in its "
            "place, keeping the lines after it: pyramid play --resume %s --upto-damage "
            "--retype 'tile 9 +' --plain; or, to resume without them, setting aside alone in "
            "%s.damaged line 6 (out of place), line 9 (damaged), keeping the game's other "
            "lines before line 11, then moving line 11 and the 1 line after it there too"
            % (path, path)) in err, err
    assert path.read_bytes() == data
    rc, out = _play(monkeypatch, capsys, path, "--upto-damage", "--retype", "tile 9 +")
    assert rc == 0, out.err
    assert ("line 9 is damaged (checksum does not match): left out, set aside in %s.damaged; "
            "the 3 lines after it are kept. In its place: Cy's action 'tile 9 +', typed "
            "again; the next line's chain hash proves it is the line as written" % path
            ) in out.out, out.out
    assert "Last die: grey-black 1 (Ann)" in out.out
    assert read_events(str(path))[:len(b)] == read_events(str(tmp_path / "b.jsonl"))
    side = (tmp_path / "b2.jsonl.damaged").read_bytes()
    [(first, last, body)] = set_aside.batches(side)
    assert path.read_bytes()[:len(b"".join(b[:5]))] + body == data


def test_a_damaged_line_where_reading_stops_after_a_foreign_line_is_offered_typed_again(
        tmp_path, monkeypatch, capsys):
    # tester s42-3 finding 1: game A's line after B's line 2 (file line 3), then Ann's
    # 'leg red' (B's line 3, file line 4) damaged: without it Ben's pyramid ticket is out
    # of turn, so a bare --upto-damage stops there. The refusal offers the --retype the
    # next line's chain hash proves first (as the damage alone is refused), and says
    # plainly that the bare --upto-damage moves the lines after it away
    lines_a, b = _games(tmp_path)
    data = b"".join(b[:2] + [lines_a[5], _damage(b[2], b'"leg red"', b'"leg rxd"')] + b[3:])
    path = tmp_path / "b2.jsonl"
    path.write_bytes(data)
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    err = out.err.strip()
    assert err.startswith(
        "pyramid: %s: line 3 is out of place (it belongs to another game (" % path), err
    assert ("nothing was changed; line 4 is damaged (checksum does not match); the next "
            "line's chain hash proves it held Ann's action 'leg red': type it again in its "
            "place, keeping the lines after it: pyramid play --resume %s --upto-damage "
            "--retype 'leg red' --plain; or, to resume without them, setting aside alone in "
            "%s.damaged line 3 (out of place), keeping the game's other lines before line 4, "
            "then moving line 4 and the 8 lines after it there too (checksum does not match)"
            % (path, path)) in err, err
    assert path.read_bytes() == data and not (tmp_path / "b2.jsonl.damaged").exists()
    rc, out = _play(monkeypatch, capsys, path, "--upto-damage", "--retype", "leg red")
    assert rc == 0, out.err
    assert ("line 4 is damaged (checksum does not match): left out, set aside in %s.damaged; "
            "the 8 lines after it are kept. In its place: Ann's action 'leg red', typed "
            "again; the next line's chain hash proves it is the line as written" % path
            ) in out.out, out.out
    assert "Last die: grey-black 1 (Ann)" in out.out
    assert read_events(str(path)) == read_events(str(tmp_path / "b.jsonl"))
    side = (tmp_path / "b2.jsonl.damaged").read_bytes()
    [(first, last, body)] = set_aside.batches(side)
    assert path.read_bytes()[:len(b"".join(b[:2]))] + body == data


def test_a_foreign_line_after_a_damaged_line_is_named_and_left_out_alone_by_the_retype(
        tmp_path, monkeypatch, capsys):
    # tester s42-3 finding 2: Ann's 'leg red' (B's line 3) damaged, then game A's line 6
    # after B's line 8 (file line 9): the refusal names the foreign line too, and the
    # --retype it offers leaves that line out alone, keeping the game's lines after it
    lines_a, b = _games(tmp_path)
    data = b"".join(b[:2] + [_damage(b[2], b'"leg red"', b'"leg rxd"')] + b[3:8]
                    + [lines_a[5]] + b[8:])
    path = tmp_path / "b2.jsonl"
    path.write_bytes(data)
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    err = out.err.strip()
    assert err.startswith("pyramid: %s: line 3 is damaged (checksum does not match); "
                          "nothing was changed" % path), err
    assert ("--upto-damage --retype 'leg red' --plain (line 9 is out of place too (it belongs "
            "to another game (") in err, err
    assert ("): that --retype leaves it out alone, setting it aside in %s.damaged and "
            "keeping the lines after it); or, " % path) in err, err
    assert path.read_bytes() == data and not (tmp_path / "b2.jsonl.damaged").exists()
    rc, out = _play(monkeypatch, capsys, path, "--upto-damage", "--retype", "leg red")
    assert rc == 0, out.err
    assert ("line 3 is damaged (checksum does not match): left out, set aside in %s.damaged"
            % path) in out.out, out.out
    assert "line 9 is out of place (it belongs to another game (" in out.out, out.out
    assert "Last die: grey-black 1 (Ann)" in out.out
    # every line of the game is in the journal, the foreign line left out
    assert read_events(str(path)) == read_events(str(tmp_path / "b.jsonl"))
    side = (tmp_path / "b2.jsonl.damaged").read_bytes()
    [(first, last, body)] = set_aside.batches(side)
    assert (first, last) == (3, data.count(b"\n"))
    assert path.read_bytes()[:len(b"".join(b[:2]))] + body == data


def test_a_damaged_first_line_besides_foreign_lines_names_them_and_keeps_every_line(
        tmp_path, monkeypatch, capsys):
    # tester s42-3 finding 11: game A's lines 6 and 9 in game B's journal (file lines 6
    # and 10) and B's first line damaged (its edition key's quote lost): the refusal
    # names both, and the rebuild leaves them out alone as when line 1 is whole
    path, data, lines = _journal(tmp_path, "two foreign")
    first = _damage(lines[0], b'"edition":', b'"edition:')
    data = first + data[len(lines[0]):]
    path.write_bytes(data)
    rc, out = _play(monkeypatch, capsys, path)
    assert rc == 1
    err = out.err.strip()
    for line in (6, 10):
        assert ("(line %d is out of place (it belongs to another game (" % line) in err, err
    assert ("the command that rebuilds the first line leaves it out alone, setting it aside "
            "in %s.damaged and keeping the lines after it)" % path) in err, err
    # the game's own lines after the first, not the two of another game
    assert "the %d lines after it are intact" % (len(lines) - 1) in err, err
    assert path.read_bytes() == data and not (tmp_path / "b2.jsonl.damaged").exists()

    rc, out = _play(monkeypatch, capsys, path, "--upto-damage", "--players", "Ann,Ben,Cy",
                    "--edition", "second", "--seed", "4")
    assert rc == 0, out.err
    for line in (6, 10):
        assert "line %d is out of place (it belongs to another game (" % line in out.out
    assert "is rebuilt exactly as it was written" in out.out, out.out
    assert "Last die: grey-black 1 (Ann)" in out.out, out.out
    assert path.read_bytes() == b"".join(lines)  # the game's journal, as written
    # nothing lost: FILE.damaged holds the file as it was
    [(first_no, last, body)] = set_aside.batches((tmp_path / "b2.jsonl.damaged").read_bytes())
    assert (first_no, last, body) == (1, data.count(b"\n"), data)
