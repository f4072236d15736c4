"""A file saved by an editor as "UTF-8 with BOM" (Windows Notepad writes ``EF BB BF``
before line 1) reads as if the mark were not there (tester s41 finding, minor): a game
journal resumes and replays, its first line intact, the file kept as it was with the
lines the table appends after it; a scenario file passes ``pyramid check``."""

import os

from camelhost import cli
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from test_journal_recover import COMMANDS, SETUP

BOM = b"\xef\xbb\xbf"
SCENARIOS = os.path.join(os.path.dirname(__file__), "scenarios")


def _game(path, lang=None):
    """A real journal of three players with dice typed, its lines (bytes)."""
    journal = Journal(str(path), pyramid="manual", lang=lang)
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in (SETUP,) + COMMANDS:
        s.command(text)
    journal.close()
    return path.read_bytes()


def _resume(monkeypatch, capsys, path, *typed):
    monkeypatch.setattr("sys.stdin", iter([t + "\n" for t in typed] + ["quit\n"]))
    rc = cli.main(["play", "--resume", str(path), "--plain"])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_a_journal_with_a_byte_order_mark_resumes_as_without_it(tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    held = BOM + _game(path)
    events = read_events(str(path))
    path.write_bytes(held)
    rc, out, err = _resume(monkeypatch, capsys, path, "undo")
    assert rc == 0, err
    assert "damaged" not in out + err and "beschädigt" not in out + err
    assert "resumed %s: %d events restored" % (path, len(events) - 1) in out, out[:400]
    assert "type 'redo' to keep red 3" in out, out[-400:]
    # never rewritten: its bytes kept as they were, the undo appended after them
    data = path.read_bytes()
    assert data.startswith(held) and len(data) > len(held)
    assert read_events(str(path)) == events + [{"type": "undo"}]
    assert cli.main(["replay", str(path), "--brief"]) == 0, capsys.readouterr().err
    # and resumed again: the line appended after the mark's file reads too
    rc, out, err = _resume(monkeypatch, capsys, path)
    assert rc == 0 and "resumed %s: %d events restored" % (path, len(events)) in out, err


def test_a_german_journal_with_a_byte_order_mark_resumes_in_german(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    path.write_bytes(BOM + _game(path, lang="de"))
    rc, out, err = _resume(monkeypatch, capsys, path)
    assert rc == 0, err
    assert out.rstrip().endswith("--plain --lang de"), out[-200:]


def test_a_scenario_file_with_a_byte_order_mark_is_checked(tmp_path, capsys):
    with open(os.path.join(SCENARIOS, "C1.scn"), "rb") as fh:
        text = fh.read()
    path = tmp_path / "C1.scn"
    path.write_bytes(BOM + text)
    rc = cli.main(["check", str(path)])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "1 passed, 0 failed" in out.out
