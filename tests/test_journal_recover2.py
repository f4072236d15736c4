"""Recovering a damaged journal, a second tester's findings (s31 tester 2: 1-3): a
``--retype`` the lines after it don't follow is refused with nothing changed, a refusal
always offers ``--retype`` and quotes what the damaged line reads, and what is typed again
is proven the line as written by the next line's chain hash, or warned about."""

import pytest
import set_aside
from camelhost.commands.play import _retyped
from camelhost.table.journal import Journal, JournalError, read_events
from camelhost.table.session import Session
from test_journal_recover import COMMANDS, _damage, _game, _write_damaged


def _broken_leg_red(path):
    """A real journal whose ``leg red`` line no longer parses (one stray character, as
    the tester's ``"player":x0``): its bytes, the line's number and the game's events."""
    lines = _game(path, COMMANDS)
    whole = read_events(str(path))
    line = next(i for i, x in enumerate(lines) if b'"action":"leg red"' in x) + 1
    data = _write_damaged(path, lines, line, b'"player":0', b'"player":x0')
    return data, line, whole


def test_a_retype_the_next_line_does_not_follow_is_refused_with_nothing_changed(tmp_path):
    path = tmp_path / "g.jsonl"
    data, line, whole = _broken_leg_red(path)
    # Ann's pyramid ticket in place of her leg ticket: Ben's pyramid ticket on the next
    # line can't follow it (a die is awaited): refused, the journal as it was
    with pytest.raises(JournalError, match="--retype for line %d: line %d does not follow "
                       "what was typed \\(.*\\); nothing was changed" % (line, line + 1)):
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("pyramid"))
    assert path.read_bytes() == data
    assert not (tmp_path / "g.jsonl.damaged").exists()
    # so the right one can still be typed: every line kept, proven the line as written
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("leg red"))
    assert j.events == whole
    note, = j.notes
    assert note.endswith("In its place: Ann's action 'leg red', typed again; the next line's "
                         "chain hash proves it is the line as written")
    j.close()


def test_an_unreadable_lines_refusal_quotes_it_and_offers_retype(tmp_path):
    path = tmp_path / "g.jsonl"
    data, line, _ = _broken_leg_red(path)
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), check=Session.stale_line, options=["--plain"])
    said = str(refused.value)
    assert "\n" not in said
    assert said.startswith("%s: line %d is damaged (" % (path, line))
    assert '; the line reads: {"action":"leg red",' in said
    assert ("; type what it held again in its place, keeping the lines after it: pyramid "
            "play --resume %s --upto-damage --retype COMMAND --plain; or, to resume " % path) in said
    assert path.read_bytes() == data


def test_a_long_damaged_line_is_quoted_shortened():
    from camelhost.table.journal import QUOTED, _retype_hint
    chunk = b'{"action":"leg red","player":x0,"pad":"' + b"x" * 300 + b'"}*00000000'
    said, _ = _retype_hint("g.jsonl", chunk, (), ["Ann"])
    quoted = said.split("; the line reads: ", 1)[1]
    assert len(quoted) == QUOTED and quoted.endswith("\u2026")
    assert quoted.startswith('{"action":"leg red","player":x0')


def test_a_die_typed_again_is_proven_or_refused_unless_confirmed(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = _game(path, COMMANDS)
    line = next(i for i, x in enumerate(lines) if b'"colour":"purple"' in x) + 1
    _damage(lines, line, b'"raw":"purple 2"', b'"raw":"purple 2 "')  # the value still reads 2
    data = b"".join(lines)
    path.write_bytes(data)
    # another value than the line still reads: refused, nothing changed
    with pytest.raises(JournalError, match="--retype for line %d: the next line's chain hash "
                       "proves it held the die purple 2, not the die purple 1; nothing was "
                       "changed \\(if that "
                       "is what happened at the table, give the same --retype twice to "
                       "confirm it\\)" % line):
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("purple 1"))
    assert path.read_bytes() == data and not (tmp_path / "g.jsonl.damaged").exists()
    for typed, end in (
            (["purple 1", "purple 1"], "; not what the damaged line still reads (the die "
             "purple 2, not the die purple 1): confirmed by giving --retype twice"),
            ("purple 2", "; the next line's chain hash proves it is the line as written"),
            # typed otherwise, the same die: the line as written, its words as typed then
            ("PURPLE  2", "; the next line's chain hash proves it is the line as written")):
        path.write_bytes(data)
        for side in tmp_path.glob("*.damaged"):
            side.unlink()
        j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                           retype=_retyped(typed))
        note, = j.notes
        assert note.endswith(end), note
        j.close()


def test_two_different_retypes_are_refused_before_anything_changes(tmp_path, capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    data, line, _ = _broken_leg_red(path)
    assert cli.main(["play", "--resume", str(path), "--plain", "--upto-damage",
                     "--retype", "leg red", "--retype", "leg blue"]) == 2
    assert "--retype was given different commands ('leg red', 'leg blue')" in (
        capsys.readouterr().err)
    assert path.read_bytes() == data and not (tmp_path / "g.jsonl.damaged").exists()


# --- what a FILE.damaged batch's header says was kept (tester s31-2 finding 8) ----------

def _header(side):
    """The first header line of a ``FILE.damaged``, without its time."""
    line = side.read_bytes().split(b"\n", 1)[0].decode()
    return line.split(" UTC: ", 1)[1]


def test_a_batch_header_says_which_lines_the_journal_still_keeps(tmp_path):
    path = tmp_path / "g.jsonl"
    data, line, whole = _broken_leg_red(path)
    last = data.count(b"\n")
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("leg red"))
    j.close()
    side = tmp_path / "g.jsonl.damaged"
    assert _header(side) == (
        "lines %d-%d of g.jsonl on its resume: line %d, replaced in the journal, lines %d-%d, "
        "a copy, kept in the journal; the %d bytes after this line are those lines as they "
        "were" % (line, last, line, line + 1, last, len(b"".join(
            data.splitlines(keepends=True)[line - 1:]))))
    # the batch holds those lines exactly as they were
    assert set_aside.batches(side.read_bytes()) == [
        (line, last, b"".join(data.splitlines(keepends=True)[line - 1:]))]


def test_a_rebuilt_first_lines_batch_says_the_journal_keeps_the_rest(tmp_path):
    from test_journal_recover import _first_damaged
    path = tmp_path / "g.jsonl"
    whole, data, damaged = _first_damaged(path)
    last = damaged.count(b"\n")
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       rebuild={"players": ["Ann", "Ben", "Cy"]})
    j.close()
    assert _header(tmp_path / "g.jsonl.damaged") == (
        "lines 1-%d of g.jsonl on its resume: line 1, replaced in the journal, lines 2-%d, a "
        "copy, kept in the journal; the %d bytes after this line are those lines as they were"
        % (last, last, len(damaged)))


def test_lines_moved_out_whole_keep_the_old_header(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = _game(path, COMMANDS)
    lines[-1] = lines[-1].replace(b'"value":3', b'"value":2')  # the last line: nothing after
    path.write_bytes(b"".join(lines))
    Journal.resume(str(path), upto_damage=True, check=Session.stale_line).close()
    assert _header(tmp_path / "g.jsonl.damaged") == (
        "lines %d-%d of g.jsonl set aside on its resume; the %d bytes after this line are "
        "those lines as they were" % (len(lines), len(lines), len(lines[-1])))


# --- the language the journal records (tester s31-2 findings 6, 7) ---------------------

def _german_game(path):
    """A real journal of a German table (its ``game`` line records ``"lang":"de"``): its
    lines."""
    journal = Journal(str(path), pyramid="manual", lang="de")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in ("setup 1:blue,green 2:red 3:yellow,purple 14:black 15:white",) + COMMANDS:
        s.command(text)
    journal.close()
    return path.read_bytes().splitlines(keepends=True)


def test_a_german_tables_damaged_first_line_is_refused_and_rebuilt_in_german(
        tmp_path, monkeypatch, capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    lines = _german_game(path)
    data = _write_damaged(path, lines, 1, b'"Ann"', b'"Anx"')
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain"]) == 1
    err = capsys.readouterr().err
    assert "%s: Zeile 1, die erste Zeile des Spiels, ist beschädigt (" % path in err
    assert path.read_bytes() == data
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain", "--upto-damage",
                     "--players", "Ann,Ben,Cy"]) == 0
    out = capsys.readouterr().out
    assert "Zeile 1, die erste Zeile des Spiels, war beschädigt" in out, out[:400]
    # --lang given wins over the journal's
    path.write_bytes(data)
    (tmp_path / "g.jsonl.damaged").unlink()
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain", "--lang", "en"]) == 1
    assert "line 1, the game's first line, is damaged (" in capsys.readouterr().err


def test_replay_speaks_the_language_the_journal_records(tmp_path, capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    lines = _german_game(path)
    line = next(i for i, x in enumerate(lines) if b'"colour":"purple"' in x) + 1
    lines = lines[:line]  # the damaged die is the last line: the replay stops there
    _damage(lines, line, b'"value":2', b'"value":3')
    path.write_bytes(b"".join(lines))
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    # a line of its own: a German line starts with a capital (tester s42 German 4)
    assert any(said.startswith("Gezeigt bis zur beschädigten Zeile %d (" % line)
               for said in out.splitlines()), out
    assert cli.main(["replay", str(path), "--lang", "en"]) == 0
    assert "shown up to the damaged line %d (" % line in capsys.readouterr().out


def test_a_released_die_typed_again_by_hand_the_hash_cant_prove_is_taken_only_twice(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path, COMMANDS)
    events = read_events(str(path))
    at = next(i for i, e in enumerate(events) if e.get("colour") == "purple")
    events[at] = dict(events[at], source="pyramid", raw="EVT 9 DIE purple 2", boot="0A9B0E33",
                      seq=9)  # released by the pyramid
    path.unlink()
    journal = Journal(str(path))
    for event in events:
        journal.append(event)
    journal.close()
    lines = path.read_bytes().splitlines(keepends=True)
    _damage(lines, at + 1, b'"seq":9', b'"seq":8')
    data = b"".join(lines)
    path.write_bytes(data)
    # the next line's chain hash does not match the die typed: evidence against it, so it
    # is not taken on one word (not said to differ from the line: where it came from aside)
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("purple 2"))
    assert str(refused.value) == (
        "%s: --retype for line %d: the die purple 2 can't be proven the line as written "
        "(the next line's chain hash does not match it); nothing was changed (if that is what "
        "happened at the table, give the same --retype twice to confirm it)" % (path, at + 1))
    assert path.read_bytes() == data and not (tmp_path / "g.jsonl.damaged").exists()
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped(["purple 2", "purple 2"]))
    note, = j.notes
    assert note.endswith("In its place: the die purple 2, typed again; that it is the line as "
                         "written can't be proven (the next line's chain hash does not match "
                         "it)"), note
    j.close()


def test_another_action_for_a_line_that_no_longer_parses_is_refused(tmp_path):
    # the tester's line: its JSON broken by one stray character, its action still readable
    path = tmp_path / "g.jsonl"
    data, line, _ = _broken_leg_red(path)
    with pytest.raises(JournalError, match="--retype for line %d: the damaged line still reads "
                       "Ann's action 'leg red', not Ann's action 'leg blue'; nothing was "
                       "changed" % line):
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("leg blue"))
    assert path.read_bytes() == data and not (tmp_path / "g.jsonl.damaged").exists()


# --- a damaged finish-card line: typed again, its colour never said (tester s33 finding 2) --

def _finish_damaged(path):
    """A real journal whose line of Ann's finish card (red, on the winner pile) reads
    another colour (``rex``, its checksum kept): its bytes, the line's number and the
    game's events as written."""
    lines = _game(path, ("win red", "leg blue", "leg green", "pyramid", "red 2"))
    whole = read_events(str(path))
    line = next(i for i, x in enumerate(lines) if b"finish winner red" in x) + 1
    data = _write_damaged(path, lines, line, b"winner red", b"winner rex")
    return data, line, whole


def test_a_damaged_finish_card_is_offered_again_with_its_colour_to_fill_in(tmp_path, capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    data, line, whole = _finish_damaged(path)
    assert cli.main(["play", "--resume", str(path), "--plain"]) != 0
    err = capsys.readouterr().err.rstrip("\n")
    assert ("; if Ann can say that finish card again, type it in its place, keeping the lines "
            "after it (its colour is not said here: the card lies face down): pyramid play "
            "--resume %s --upto-damage --retype 'win COLOUR' --plain; or, to resume " % path
            ) in err, err
    assert "red" not in err and "rex" not in err
    assert path.read_bytes() == data
    # the card typed again as it was: every line kept, proven by the next line's hash
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("win red"))
    assert j.events == whole
    note, = j.notes
    assert note.endswith("In its place: Ann's finish card, typed again; the next line's "
                         "chain hash proves it is the line as written")
    j.close()


def test_another_colour_for_a_damaged_finish_card_is_refused_without_saying_either(tmp_path):
    path = tmp_path / "g.jsonl"
    data, line, _ = _finish_damaged(path)
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("win blue"))
    # the next line's chain hash proves the card written (s41 tester 9), never said
    assert str(refused.value) == (
        "%s: --retype for line %d: the next line's chain hash proves it held Ann's finish "
        "card, but not the one typed (which card is not said here: it lies face down); "
        "nothing was changed (if that is what happened at the table, give the same --retype "
        "twice to confirm it)" % (path, line))
    assert path.read_bytes() == data and not (tmp_path / "g.jsonl.damaged").exists()
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped(["win blue", "win blue"]))
    note, = j.notes
    assert note.endswith("In its place: Ann's finish card, typed again; not the card the "
                         "damaged line still reads (its colour is not said here): confirmed "
                         "by giving --retype twice")
    assert "blue" not in note and "red" not in note
    j.close()


# --- what resuming up to a damaged line moves aside, said before (tester s33 finding 2) ---

def test_the_refusal_says_how_many_lines_and_races_resuming_up_to_it_moves_aside(tmp_path):
    from test_journal_recover import _two_races
    path = tmp_path / "g.jsonl"
    lines = _two_races(path)
    # the first pyramid ticket's die, damaged: the lines after it can't follow without it
    line = next(i for i, x in enumerate(lines) if b'"type":"die"' in x) + 1
    data = _write_damaged(path, lines, line, b'"value":3', b'"value":4')
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), check=Session.stale_line)
    # after the die the chain hash proves (the retype first: it restores every line)
    assert str(refused.value).endswith(
        "; or, to resume up to it, moving it and the %d lines after it (the rest of race 1, "
        "and race 2) to %s.damaged: pyramid play --resume %s --upto-damage"
        % (len(lines) - line, path, path)), str(refused.value)
    assert path.read_bytes() == data


def test_a_damaged_line_no_hash_proves_offers_its_retype_first_and_counts_what_upto_damage_sets_aside(
        tmp_path):
    # s33 tester 2, finding 2: "to resume without it" came first, gave no count, and then
    # set aside the rest of the game; the retype, which restores every line, came second
    from test_journal_recover import SETUP
    path = tmp_path / "g.jsonl"
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in (SETUP, "leg red", "pyramid", "purple 2", "tile 8 -", "pyramid", "green 1",
                 "leg blue", "undo", "leg green"):
        s.command(text)
    journal.close()
    lines = path.read_bytes().splitlines(keepends=True)
    line = next(i for i, x in enumerate(lines, 1) if b'"type":"pyramid"' in x)
    undo = next(i for i, x in enumerate(lines, 1) if b'"type":"undo"' in x)
    # a stray character: no event to try, so no line the next one's chain hash proves
    data = _write_damaged(path, lines, line, b'"player":1', b'"player":x1')
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), check=Session.stale_line, options=["--plain"])
    said = str(refused.value)
    assert said.startswith("%s: line %d is damaged (checksum does not match); nothing was "
                           "changed; the line reads: " % (path, line)), said
    retype, rest = said.split("; type what it held again in its place, keeping the lines "
                              "after it: ", 1)[1].split("; or, ", 1)
    assert retype == "pyramid play --resume %s --upto-damage --retype COMMAND --plain" % path
    # the undo after it would take back another action without it: it and the line after
    # it go too, and the refusal says so before anyone runs it
    assert rest == ("to resume without it, setting it aside in %s.damaged and keeping the %d "
                    "lines after it, then moving line %d and the 1 line after it there too, as "
                    "line %d no longer applies without it: pyramid play --resume %s "
                    "--upto-damage --plain" % (path, undo - line - 1, undo, undo, path))
    assert path.read_bytes() == data
    # what it said is what --upto-damage does
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line)
    assert len(j.events) == len(lines) - 1 - 2  # the damaged line, the undo and after it
    j.close()
    assert set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes())[0][:2] == (
        line, len(lines))


def test_a_refusal_suggests_a_port_only_while_its_path_is_there(tmp_path, monkeypatch, capsys):
    # s33 tester 2: the refusal repeated --pyramid /dev/pts/7, a pseudo-terminal gone
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    _broken_leg_red(path)
    import os
    gone = next("/dev/pts/%d" % n for n in range(4000, 5000)
                if not os.path.exists("/dev/pts/%d" % n))
    for port, said in ((gone, "--pyramid PORT"), (str(path), "--pyramid %s" % path),
                       ("/dev/ttyACM9", "--pyramid /dev/ttyACM9"),  # a board plugged back
                       ("virtual", "--pyramid virtual")):
        assert cli.main(["play", "--resume", str(path), "--plain", "--pyramid", port]) != 0
        err = capsys.readouterr().err.rstrip("\n")
        assert err.endswith("--upto-damage --plain %s" % said), err
        assert gone not in err
