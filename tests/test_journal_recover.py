"""Recovering a damaged journal: a damaged line is set aside alone and the intact lines
after it are kept (tester s31 findings 1-4: nothing lost, nothing destroyed)."""

import json

import pytest
import set_aside
from camelhost.table.journal import Journal, JournalError, encode_line, line_hash, read_events
from camelhost.table.session import Session

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 14:black 15:white"


def _game(path, commands):
    """A real journal of a three-player second-edition game, a typed die on each
    ``value`` given (its bytes, split into lines)."""
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in (SETUP,) + tuple(commands):
        s.command(text)
    journal.close()
    return path.read_bytes().splitlines(keepends=True)


def _two_races(path):
    """A real journal of a three-player second-edition game whose first race is played
    to its end (the first die inside released with 3 each time), then race 2 begun
    (``again``, set up, ``leg red``): its bytes, split into lines."""
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    s.command(SETUP)
    while s.phase != "over":  # race 1 to its end, one die after another
        inside = [c for c in s.edition.racing if c not in s.game.dice_out]
        s.command("pyramid")
        s.command("%s 3" % inside[0])
    for text in ("again", SETUP, "leg red"):  # race 2 begins
        s.command(text)
    journal.close()
    return path.read_bytes().splitlines(keepends=True)


COMMANDS = ("leg red", "pyramid", "purple 2", "tile 8 -", "pyramid", "green 1",
            "leg blue", "pyramid", "red 3")
#: a release the pyramid made and the table refused (two dice at once): it changes no game
DOUBLE = {"type": "rejected", "kind": "double", "reason": "two dice", "raw": "EVT 7 DOUBLE",
          "boot": "0A9B0E33", "seq": 7}


def _with_double(path):
    """The lines of a real game's journal with a refused double release after the
    first pyramid ticket (before its die), and the line number of that release."""
    events = read_events(str(path)) if path.exists() else None
    if events is None:
        _game(path, COMMANDS)
        events = read_events(str(path))
        path.unlink()
    at = [e["type"] for e in events].index("pyramid") + 1
    events.insert(at, DOUBLE)
    journal = Journal(str(path))
    for event in events:
        journal.append(event)
    journal.close()
    return path.read_bytes().splitlines(keepends=True), at + 1


def _damage(lines, line, old, new):
    """Line ``line`` (1-based) with ``old`` changed to ``new``, its checksum kept."""
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new)


def _write_damaged(path, lines, line, old, new):
    """``_damage`` the journal's ``lines``, then write them to ``path``; returns the
    bytes written."""
    _damage(lines, line, old, new)
    data = b"".join(lines)
    path.write_bytes(data)
    return data


def test_one_damaged_line_is_set_aside_alone_and_the_lines_after_it_are_kept(tmp_path):
    path = tmp_path / "g.jsonl"
    lines, line = _with_double(path)
    whole = read_events(str(path))
    data = _write_damaged(path, lines, line, b'"seq":7', b'"seq":8')
    # without --upto-damage: refused naming the line, with the command that goes on
    # ... saying what --upto-damage sets aside and keeps before anyone runs it
    with pytest.raises(JournalError, match="line %d is damaged \\(checksum does not match\\); "
                       "nothing was changed \\(to resume without it, setting it aside alone "
                       "in .*g.jsonl.damaged and keeping the %d lines after it: "
                       % (line, len(lines) - line)):
        Journal.resume(str(path), check=Session.stale_line)
    assert path.read_bytes() == data
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line)
    # every event but the damaged line's is kept: the lines after it too
    assert j.events == whole[:line - 1] + whole[line:]
    later = len(lines) - line
    assert j.notes == ["line %d is damaged (checksum does not match): left out, set aside in "
                       "%s.damaged; the %d lines after it are kept. It seems to hold a "
                       "release the table refused (double): a refused release moves no "
                       "camel, so there is nothing to type again" % (line, path, later)]
    s = Session.resume(j)
    s.command("leg green")  # the game goes on, and is journaled
    j.close()
    # the damaged line's bytes are kept, exactly, with everything from it on
    assert set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes()) == [
        (line, len(lines), b"".join(lines[line - 1:]))]
    # the journal's lines before it are as they were, and it reads and resumes plainly
    assert path.read_bytes().startswith(b"".join(lines[:line - 1]))
    again = Journal.resume(str(path), check=Session.stale_line)
    assert again.notes == []
    assert again.events == whole[:line - 1] + whole[line:] + [again.events[-1]]
    assert again.events[-1]["action"] == "leg green"
    again.close()


def test_a_later_line_that_no_longer_applies_without_the_damaged_one_stops_there(tmp_path):
    path = tmp_path / "g.jsonl"
    # the purple die completes Ann's pyramid ticket: without it, Ben's move can't follow
    lines = _game(path, ("leg red", "pyramid", "purple 2", "tile 8 -", "leg blue"))
    line = next(i for i, x in enumerate(lines) if b'"colour":"purple"' in x) + 1
    _damage(lines, line, b'"value":2', b'"value":3')
    path.write_bytes(b"".join(lines))
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line)
    assert len(j.events) == line - 1
    note, = j.notes
    assert note.startswith("resumed up to the damaged line %d; it and the rest are kept in "
                           "%s.damaged (line %d does not follow without it: Ben's pyramid "
                           "ticket waits for its die" % (line, path, line + 1))
    # the die the next line's chain hash proves, not the damaged field (purple 3)
    assert note.endswith("). The next line's chain hash proves it held the die purple 2: "
                         "type it again"), note
    j.close()
    assert set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes()) == [
        (line, len(lines), b"".join(lines[line - 1:]))]
    assert path.read_bytes() == b"".join(lines[:line - 1])


def test_replay_shows_the_lines_after_a_damaged_one_and_changes_nothing(tmp_path):
    path = tmp_path / "g.jsonl"
    lines, line = _with_double(path)
    whole = read_events(str(path))
    data = _write_damaged(path, lines, line, b'"seq":7', b'"seq":8')
    notes = []
    events = read_events(str(path), upto_damage=True, notes=notes, check=Session.stale_line)
    assert events == whole[:line - 1] + whole[line:]
    assert notes[0].startswith("line %d is damaged (checksum does not match): left out, %s is "
                               "unchanged" % (line, path))
    assert path.read_bytes() == data
    assert not (tmp_path / "g.jsonl.damaged").exists()


def test_each_batch_set_aside_gets_a_header_naming_its_lines(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = _game(path, COMMANDS)
    data = b"".join(lines)
    path.write_bytes(data[:-5])  # a torn last line
    Journal.resume(str(path)).close()
    cut = path.read_bytes()
    lines = cut.splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"type":', b'"typo":')  # the new last line damaged
    path.write_bytes(b"".join(lines))
    Journal.resume(str(path), upto_damage=True).close()
    n = len(lines)
    # a second set-aside on the same file: each batch after its own header line
    assert set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes()) == [
        (n + 1, n + 1, data[len(cut):-5]), (n, n, lines[-1])]


# --- blank lines: an editor's last newline is no damage (tester s31 finding 4) ---------

@pytest.mark.parametrize("tail", [b"\n", b"\r\n", b"\n\n", b"  \n"])
def test_blank_lines_at_the_end_are_ignored_and_the_game_resumes(tmp_path, tail):
    path = tmp_path / "g.jsonl"
    lines = _game(path, COMMANDS)
    whole = read_events(str(path))
    path.write_bytes(b"".join(lines) + tail)
    assert read_events(str(path), check=Session.stale_line) == whole
    j = Journal.resume(str(path), check=Session.stale_line)
    assert j.events == whole and j.notes == []
    Session.resume(j).command("leg green")
    j.close()
    # the blank lines were cut (they held nothing), the next line follows the last
    assert read_events(str(path))[-1] == {"type": "action", "player": j.events[-1]["player"],
                                          "action": "leg green"}
    assert not (tmp_path / "g.jsonl.damaged").exists()


def test_a_blank_line_before_the_end_is_named_as_empty(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = _game(path, COMMANDS)
    data = b"".join(lines[:4] + [b"\n"] + lines[4:])
    path.write_bytes(data)
    with pytest.raises(JournalError, match="g.jsonl: line 5 is empty; nothing was changed"):
        Journal.resume(str(path), check=Session.stale_line)
    assert path.read_bytes() == data


# --- the table's language: kept in the journal (tester s31 finding 2) ---------------

def _table(monkeypatch, capsys, lines, *argv):
    from camelhost import cli
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in lines))
    rc = cli.main(["play", "--plain"] + list(argv))
    out = capsys.readouterr()
    assert rc == 0, out.err
    return out.out.splitlines()


def test_a_german_table_resumed_without_lang_speaks_german_and_says_so_on_quit(
        tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "g.jsonl")
    _table(monkeypatch, capsys, [SETUP, "leg red"], "--players", "Ann,Ben,Cy",
           "--journal", path, "--seed", "3", "--lang", "de")
    # as after kill -9: nothing but the journal remembers the language
    assert read_events(path)[0]["lang"] == "de"
    out = _table(monkeypatch, capsys, ["quit"], "--resume", path)
    assert out[1] == "%s fortgesetzt: 2 Ereignisse wiederhergestellt (Rennen 1, Etappe 1)" % path
    assert out[-1] == ("Spiel gespeichert in %s; weiter geht es mit: pyramid play --resume %s "
                       "--plain --lang de" % (path, path))
    # --lang given wins over the journal's
    out = _table(monkeypatch, capsys, ["quit"], "--resume", path, "--lang", "en")
    assert out[-1] == ("game saved in %s; continue it with: pyramid play --resume %s --plain "
                       "--lang en" % (path, path))


def test_a_journal_without_a_language_resumes_in_the_language_in_force(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    _game(path, ["leg red"])  # written without a table: no lang, as older versions wrote
    assert "lang" not in read_events(str(path))[0]
    out = _table(monkeypatch, capsys, ["quit"], "--resume", str(path))
    assert out[-1] == ("game saved in %s; continue it with: pyramid play --resume %s --plain"
                       % (path, path))


# --- a damaged first line: named as the game's, rebuilt (tester s31 finding 1) ------------

def _first_damaged(path):
    """A real journal whose line 1 has 'Ann' changed to 'Anx' (its checksum kept)."""
    lines = _game(path, COMMANDS)
    whole = read_events(str(path))
    data = b"".join(lines)
    damaged = data.replace(b'"Ann"', b'"Anx"', 1)
    path.write_bytes(damaged)
    return whole, data, damaged


def test_a_damaged_first_line_is_named_with_what_it_reads_and_a_command_that_goes_on(
        tmp_path, monkeypatch, capsys):
    import shlex

    from camelhost import cli
    path = tmp_path / "g.jsonl"
    whole, data, damaged = _first_damaged(path)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("pyramid: %s: line 1, the game's first line, is damaged (checksum "
                          "does not match); nothing was changed. It still reads: players Anx, "
                          "Ben, Cy; edition second; seed 4, but the next line's chain hash "
                          "does not confirm it: a field of it is not as written (which one "
                          "can't be told). The %d lines after it are intact: to rebuild the "
                          "first line, correct the wrong one in this command, then resume: "
                          % (path, len(whole) - 1)), err
    # (tester s42-3 finding 5: the reads were offered as a ready command, and following it
    # renamed Ann for good)
    command = shlex.split(err.rsplit("then resume: ", 1)[1])
    assert command == ["pyramid", "play", "--resume", str(path), "--upto-damage", "--plain",
                       "--players", "Anx,Ben,Cy", "--edition", "second", "--seed", "4"]
    assert path.read_bytes() == damaged  # nothing changed
    # replay shows the game from what line 1 still reads, the file untouched
    out = capsys.readouterr()
    assert cli.main(["replay", str(path), "--brief"]) == 0
    out = capsys.readouterr().out.splitlines()
    # said once, as the last line, under the table the rebuilt line leads to
    assert out[-1].startswith("line 1, the game's first line, was damaged (checksum does not "
                              "match) and is rebuilt as players Anx, Ben, Cy; edition second; "
                              "seed 4; it can't be proven the same as written")
    assert sum(x.startswith("line 1, the game's first line") for x in out) == 1
    assert path.read_bytes() == damaged


def test_a_damaged_first_line_rebuilt_from_the_names_given_is_the_line_as_written(
        tmp_path, monkeypatch, capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    whole, data, damaged = _first_damaged(path)
    monkeypatch.setattr("sys.stdin", iter(["leg green\n", "quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain", "--upto-damage",
                     "--players", "Ann,Ben,Cy"]) == 0
    out = capsys.readouterr().out
    assert ("line 1, the game's first line, was damaged (checksum does not match) and is "
            "rebuilt exactly as it was written (the next line's chain hash matches): players "
            "Ann, Ben, Cy; edition second; seed 4; the journal as it was is kept in "
            "%s.damaged" % path) in out
    # the journal is the game as written, and goes on; the damaged file is kept whole
    assert path.read_bytes().startswith(data)
    assert read_events(str(path))[:len(whole)] == whole
    assert set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes()) == [
        (1, len(whole), damaged)]


def test_a_damaged_first_line_the_chain_does_not_confirm_is_never_resumed_from(tmp_path):
    # (s44: it was rebuilt as it reads, and the game resumed from a first line not the
    # one played)
    path = tmp_path / "g.jsonl"
    whole, data, damaged = _first_damaged(path)
    with pytest.raises(JournalError, match="It still reads: players Anx, Ben, Cy; edition "
                       "second; seed 4, but the next line's chain hash does not confirm it"):
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line, rebuild={})
    assert path.read_bytes() == damaged
    assert not (tmp_path / "g.jsonl.damaged").exists()


def test_a_first_line_an_older_version_rebuilt_unproven_still_resumes(tmp_path):
    # such a line keeps the hash line 2 names for it (``hash``), so the chain reads on
    path = tmp_path / "g.jsonl"
    whole, data, damaged = _first_damaged(path)
    first, rest = data.split(b"\n", 1)
    header = json.loads(first.rsplit(b"*", 1)[0])
    path.write_bytes(encode_line(dict(header, players=["Anx", "Ben", "Cy"],
                                      hash=line_hash(first))) + rest)
    j = Journal.resume(str(path), check=Session.stale_line)
    assert j.notes == [] and j.events[1:] == whole[1:]
    Session.resume(j).command("leg green")
    j.close()
    assert read_events(str(path))[-1]["action"] == "leg green"


def test_a_first_line_rebuilt_with_too_few_players_is_refused_unchanged(tmp_path):
    path = tmp_path / "g.jsonl"
    whole, data, damaged = _first_damaged(path)
    with pytest.raises(JournalError):
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       rebuild={"players": ["Ann"]})
    assert path.read_bytes() == damaged
    assert not (tmp_path / "g.jsonl.damaged").exists()


def test_a_first_line_rebuilt_with_another_edition_is_refused_naming_the_line_unchanged(
        tmp_path):
    path = tmp_path / "g.jsonl"
    whole, data, damaged = _first_damaged(path)
    with pytest.raises(JournalError, match="As rebuilt with the values given it reads: "
                       "players Anx, Ben, Cy; edition classic; seed 4, but the next line's "
                       "chain hash does not confirm it"):
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       rebuild={"edition": "classic"})
    assert path.read_bytes() == damaged
    assert not (tmp_path / "g.jsonl.damaged").exists()


# --- a damaged die typed again in its place (tester s31 finding 3, its example) --------

def test_a_damaged_die_typed_again_in_its_place_keeps_every_line_after_it(
        tmp_path, monkeypatch, capsys):
    import shlex

    from camelhost import cli
    path = tmp_path / "g.jsonl"
    lines = _game(path, COMMANDS)
    whole = read_events(str(path))
    line = next(i for i, x in enumerate(lines) if b'"colour":"purple"' in x) + 1
    data = _write_damaged(path, lines, line, b'"value":2', b'"value":3')
    # the refusal offers to type the die again, as the next line's chain hash proves it
    # (purple 2), never as the damaged field reads it (purple 3)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain"]) == 1
    err = capsys.readouterr().err.strip()
    # ... first, since it restores every line; resuming without it second
    assert err.startswith("pyramid: %s: line %d is damaged (checksum does not match); nothing "
                          "was changed; the next line's chain hash proves it held the die "
                          "purple 2: type it again in its place, keeping the lines after it: "
                          % (path, line))
    command, rest = err.split("keeping the lines after it: ", 1)[1].split("; or, ", 1)
    assert shlex.split(command) == ["pyramid", "play", "--resume", str(path), "--upto-damage",
                                    "--retype", "purple 2", "--plain"]
    assert rest.startswith("to resume up to it, moving it and the %d lines after it to "
                           % (len(lines) - line))
    assert path.read_bytes() == data
    # typed again right (purple 2): the game is the one played, every later line kept
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain", "--upto-damage",
                     "--retype", "purple 2"]) == 0
    out = capsys.readouterr().out
    assert ("line %d is damaged (checksum does not match): left out, set aside in %s.damaged; "
            "the %d lines after it are kept. In its place: the die purple 2, typed again"
            % (line, path, len(lines) - line)) in out
    assert read_events(str(path)) == whole
    assert set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes()) == [
        (line, len(lines), b"".join(lines[line - 1:]))]
    again = Journal.resume(str(path), check=Session.stale_line)
    assert again.events == whole and again.notes == []
    again.close()


def test_a_die_typed_again_that_a_later_line_no_longer_fits_stops_at_that_line(tmp_path):
    from camelhost.commands.play import _retyped
    path = tmp_path / "g.jsonl"
    lines = _game(path, COMMANDS)
    whole = read_events(str(path))
    line = next(i for i, x in enumerate(lines) if b'"colour":"purple"' in x) + 1
    green = next(i for i, x in enumerate(lines) if b'"colour":"green"' in x) + 1
    _damage(lines, line, b'"value":2', b'"value":3')
    path.write_bytes(b"".join(lines))
    # typed again as the green die (confirmed, given twice, since the line reads purple):
    # the green die's own line later no longer applies
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped(["green 2", "green 2"]))
    typed = j.events[line - 1]
    assert (typed["type"], typed["colour"], typed["value"]) == ("die", "green", 2)
    assert j.events == whole[:line - 1] + [typed] + whole[line:green - 1]
    assert j.notes == [
        "line %d is damaged (checksum does not match): left out, set aside in %s.damaged; "
        "the %d lines after it are kept. In its place: the die green 2, typed again; not "
        "what the damaged line still reads (the die purple 3, not the die green 2): "
        "confirmed by giving --retype twice"
        % (line, path, green - line - 1),
        "resumed up to line %d, whose event no longer applies (the green die already came "
        "out this leg; it is not in the pyramid (RULES 1.4)); it and the rest are kept in "
        "%s.damaged" % (green, path)]
    j.close()
    # the journal ends with the last line kept before the green die's; it reads back so
    kept = path.read_bytes()
    assert kept.startswith(b"".join(lines[:line - 1]))
    assert kept.endswith(b"".join(lines[line:green - 1]))
    assert kept.count(b"\n") == green - 1
    assert read_events(str(path)) == j.events
    assert set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes()) == [
        (line, len(lines), b"".join(lines[line - 1:]))]


def test_retype_without_a_damaged_line_or_that_cant_be_taken_changes_nothing(tmp_path):
    from camelhost.commands.play import _retyped
    path = tmp_path / "g.jsonl"
    lines = _game(path, COMMANDS)
    data = b"".join(lines)
    with pytest.raises(JournalError, match="--retype: no damaged line"):
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("purple 2"))
    line = next(i for i, x in enumerate(lines) if b'"colour":"purple"' in x) + 1
    data = _write_damaged(path, lines, line, b'"value":2', b'"value":3')
    with pytest.raises(JournalError, match="--retype for line %d: " % line):
        Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       retype=_retyped("tile 8 -"))  # a die is awaited there
    assert path.read_bytes() == data
    assert not (tmp_path / "g.jsonl.damaged").exists()


def test_a_damaged_finish_card_line_never_says_the_cards_colour(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = _game(path, ("win red", "leg blue", "leg green"))
    line = next(i for i, x in enumerate(lines) if b"finish" in x) + 1
    lines[line - 1] = lines[line - 1].replace(b'"player":0', b'"player":0 ')  # damaged
    path.write_bytes(b"".join(lines))
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), check=Session.stale_line)
    assert "line %d is damaged" % line in str(refused.value)
    assert "red" not in str(refused.value)
    # the card can be typed again, its colour left to fill in (tester s33 finding 2)
    assert ("; nothing was changed; if Ann can say that finish card again, type it in its "
            "place, keeping the lines after it (its colour is not said here: the card lies face "
            "down): pyramid play --resume %s --upto-damage --retype 'win COLOUR'; or, to resume "
            % path) in str(refused.value)
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line)
    note, = j.notes
    assert "The next line's chain hash proves it held Ann's finish card: type it again" in note
    assert "red" not in note
    j.close()


def test_a_damaged_partnership_is_offered_again_by_the_partners_name(tmp_path):
    from camelhost.table.journal import _retype_hint, _what_it_held
    chunk = b'{"action":"partner 3","n":6,"player":1,"type":"action"}*00000000'
    players = ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"]
    assert _what_it_held(chunk, players) == "Ben's action 'partner Dee'"
    assert _retype_hint("g.jsonl", chunk, (), players)[1].endswith(
        "--upto-damage --retype 'partner Dee'")


def test_a_german_tables_damaged_first_line_suggests_a_german_resume(
        tmp_path, monkeypatch, capsys):
    import shlex

    from camelhost import cli
    path = str(tmp_path / "g.jsonl")
    _table(monkeypatch, capsys, [SETUP, "leg red"], "--players", "Ann,Ben,Cy",
           "--journal", path, "--seed", "3", "--lang", "de")
    with open(path, "rb") as fh:
        data = fh.read()
    with open(path, "wb") as fh:
        fh.write(data.replace(b'"Ann"', b'"Anx"', 1))
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", path, "--plain", "--lang", "en"]) == 1
    command = capsys.readouterr().err.strip().rsplit("then resume: ", 1)[1]
    words = shlex.split(command)
    assert words.count("--lang") == 1 and words[words.index("--lang") + 1] == "en"  # given
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", path, "--plain"]) == 1
    # said in German, as line 1 reads (tester s31-2 finding 6)
    command = capsys.readouterr().err.strip().rsplit("setze dann fort: ", 1)[1]
    words = shlex.split(command)
    # as line 1 reads (the table now speaks it, so it stands with the table's options)
    assert words.count("--lang") == 1 and words[words.index("--lang") + 1] == "de"
