"""The numbers inside a refusal's or a note's reason name lines as the file numbers them
(what a user sees in an editor) when a line out of place before them is left out alone
(journal43 item 2): "it does not follow line 7", "an undo, which without line 7 would
take back another action", counted with the left-out line, as the line the reason is
about is."""

import pytest
from camelhost.table.journal import Journal, JournalError, encode_line, read_events
from camelhost.table.session import Session
from test_journal import SETUP

COMMANDS = (SETUP, "leg red", "pyramid", "purple 2", "tile 8 -", "undo", "tile 9 +")


def _lines(tmp_path):
    """A game's journal lines (bytes each, newline kept): 1 game, 2 setup, 3 leg red,
    4 pyramid, 5 purple 2, 6 tile 8 -, 7 undo, 8 tile 9 +."""
    path = tmp_path / "a.jsonl"
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in COMMANDS:
        s.command(text)
    journal.close()
    return path.read_bytes().splitlines(keepends=True)


def _event(line):
    import json
    return json.loads(line.rstrip(b"\n")[:-9])


def _write(tmp_path, lines):
    path = tmp_path / "b.jsonl"
    path.write_bytes(b"".join(lines))
    return str(path)


def test_a_line_that_does_not_follow_is_named_with_the_line_before_it_as_in_the_file(
        tmp_path):
    b = _lines(tmp_path)
    edited = dict(_event(b[6]), prev="0" * 16)  # the undo's prev edited, its checksum made again
    # line 3 repeated (file line 4, left out alone), the undo (file line 8) edited
    path = _write(tmp_path, b[:3] + [b[2]] + b[3:6] + [encode_line(edited)] + b[7:])
    with pytest.raises(JournalError) as refused:
        read_events(path, check=Session.stale_line)
    said = str(refused.value)
    assert ("then moving line 8 and the 1 line after it there too (it does not follow line "
            "7: one of the two was changed)") in said, said
    notes = []
    read_events(path, upto_damage=True, notes=notes, check=Session.stale_line)
    assert ("shown up to line 8, which is out of place (it does not follow line 7: one of "
            "the two was changed); %s is unchanged" % path) in notes, notes


def test_an_undo_after_a_damaged_line_names_it_as_in_the_file(tmp_path):
    b = _lines(tmp_path)
    damaged = b[5].replace(b'"tile 8 -"', b'"tile 8 +"')  # its checksum kept: damaged
    # line 3 repeated (file line 4, left out alone), line 6 damaged (file line 7)
    path = _write(tmp_path, b[:3] + [b[2]] + b[3:5] + [damaged] + b[6:])
    notes = []
    read_events(path, upto_damage=True, notes=notes, check=Session.stale_line)
    said = " ".join(notes)
    assert "an undo, which without line 7 would take back another action" in said, notes


def test_a_retype_refused_after_a_line_left_out_says_why_naming_the_line_as_in_the_file(
        tmp_path, monkeypatch, capsys):
    from camelhost import cli
    b = _lines(tmp_path)
    damaged = b[5].replace(b'"tile 8 -"', b'"tile 8 +"')  # its checksum kept: damaged
    # line 3 repeated (file line 4, left out alone), line 6 damaged (file line 7)
    path = _write(tmp_path, b[:3] + [b[2]] + b[3:5] + [damaged] + b[6:])
    before = open(path, "rb").read()
    monkeypatch.setattr("sys.stdin", iter([]))
    assert cli.main(["play", "--plain", "--resume", path, "--upto-damage", "--retype",
                     "tile 9 +"]) == 1
    err = capsys.readouterr().err
    # what was typed is refused as it is (it was "no damaged line ... to type again")
    assert err == ("pyramid: %s: --retype for line 7: the next line's chain hash proves it "
                   "held Cy's action 'tile 8 -', not Cy's action 'tile 9 +'; nothing was "
                   "changed (if that is what happened at the table, give the same --retype "
                   "twice to confirm it)\n" % path), err
    assert open(path, "rb").read() == before


def test_a_line_out_of_place_after_a_line_left_out_names_the_number_expected(
        tmp_path, monkeypatch, capsys):
    # (s44: "line 8 is out of place (it is numbered 8: ...)": the number it carries is the
    # file's line number, and which one its place needs was not said)
    from camelhost import cli
    b = _lines(tmp_path)
    # line 3 repeated (file line 4, left out alone), the undo (line 7) taken out: the
    # tile after it is file line 8, numbered 8 where the game's line 7 was expected
    path = _write(tmp_path, b[:3] + [b[2]] + b[3:6] + b[7:])
    before = open(path, "rb").read()
    reason = "it is numbered 8, 7 was expected: a line missing or moved before it"
    notes = []
    read_events(path, upto_damage=True, notes=notes, check=Session.stale_line)
    assert ("shown up to line 8, which is out of place (%s); %s is unchanged"
            % (reason, path)) in notes, notes
    monkeypatch.setattr("sys.stdin", iter([]))
    assert cli.main(["play", "--plain", "--resume", path, "--lang", "de"]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert ("Zeile 4 ist fehl am Platz (sie hat die Nummer 3, erwartet war 4: eine Zeile "
            "wiederholt oder verschoben)") in err, err
    assert ("Zeile 8 dorthin verschoben werden (sie hat die Nummer 8, erwartet war 7: eine "
            "Zeile davor fehlt oder wurde verschoben)") in err, err
    assert open(path, "rb").read() == before
