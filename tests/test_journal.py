"""Journal: one JSON object per line, fsync per event, torn last line tolerated."""

import json
import os
import random

import pytest
import set_aside
from camelhost.table.journal import Journal, JournalError, read_events
from depth import examples


def _game():
    return {"type": "game", "format": 1, "edition": "second", "players": ["Ann", "Ben"]}


def test_events_round_trip_one_line_each(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal(str(path)) as j:
        j.append(_game())
        j.append({"type": "action", "player": 0, "action": "leg red"})
        j.append({"type": "die", "colour": "grey", "ink": "white", "value": 3, "raw": "EVT 4 DIE*00"})
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    assert [json.loads(x.rsplit("*", 1)[0])["type"] for x in lines] == ["game", "action", "die"]
    assert read_events(str(path))[2]["ink"] == "white"


def test_append_forces_the_line_to_disk(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    path = tmp_path / "g.jsonl"
    j = Journal(str(path))
    j.append(_game())
    assert synced, "append returned before fsync"
    # the line is already readable by another reader before close
    assert read_events(str(path)) == [_game()]
    j.close()


@pytest.mark.parametrize("tail, held", [
    (b'{"type":"action","pla', ". It held an action (its words cut off), as far as it can "
                               "be read: if that happened at the table, type it again"),
    (b'{"type":"undo"}', ". It held an undo, as far as it can be read: if that happened at "
                         "the table, type it again"),
    (b"\x00\x00", ". What it held can't be read")])
def test_torn_last_line_is_dropped_and_cut(tmp_path, tail, held):
    path = tmp_path / "g.jsonl"
    good = json.dumps(_game()).encode() + b"\n"
    path.write_bytes(good + tail)  # no newline at the end: the write was interrupted
    j = Journal.resume(str(path))
    assert j.events == [_game()]
    assert path.read_bytes() == good
    # the cut bytes are kept, and the resume says what it left out
    # exactly: the journal and the .damaged file together give back the original bytes
    assert set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes()) == [(2, 2, tail)]
    assert path.read_bytes() + set_aside.kept(tmp_path / "g.jsonl.damaged") == good + tail
    assert j.notes == ["line 2 was cut off when the program stopped (%d bytes): left out, kept "
                       "in %s.damaged%s" % (len(tail), path, held),
                       # and that its lines get numbers from now on, once
                       "%s was written by an older version (journal format 1): the lines "
                       "appended from now on are numbered and chained, after its 1 line" % path]
    j.append({"type": "undo"})
    j.close()
    assert [e["type"] for e in read_events(str(path))] == ["game", "undo"]


def test_a_torn_tail_set_aside_by_resume_is_kept_byte_for_byte(tmp_path, monkeypatch, capsys):
    # QA: "line 10 was cut off ... (5 bytes)" but FILE.damaged held 6: a newline was
    # added, so the journal and FILE.damaged no longer gave back the file
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    _sample(path)
    torn = path.read_bytes()[:-20]  # truncate -s -20: the last line loses its end
    path.write_bytes(torn)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain"]) == 0
    out = capsys.readouterr().out
    kept = set_aside.kept(tmp_path / "g.jsonl.damaged")
    assert "was cut off when the program stopped (%d bytes)" % len(kept) in out
    assert not kept.endswith(b"\n")
    assert path.read_bytes() + kept == torn


def test_damage_before_the_last_line_is_an_error(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(json.dumps(_game()).encode() + b"\n{oops\n" + b'{"type":"undo"}\n')
    with pytest.raises(JournalError, match="line 2"):
        read_events(str(path))


def test_not_a_journal(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"type":"undo"}\n')
    with pytest.raises(JournalError, match="not a game journal"):
        Journal.resume(str(path))
    empty = tmp_path / "e.jsonl"
    empty.write_text("")
    with pytest.raises(JournalError, match="empty"):
        Journal.resume(str(empty))


# --- issue 10: the journal under damage, hand edits, locks and a full disk ---------

import errno  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from camelhost.table.journal import JournalFull  # noqa: E402
from camelhost.table.session import Session  # noqa: E402
from camelhost.table.view import table_view  # noqa: E402

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _sample(path):
    """A short real game journal (setup, actions, dice, a value, an undo)."""
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in (SETUP, "leg red", "pyramid", "purple 2", "tile 8 -", "undo", "tile 9 +", "grey black ?", "1"):
        s.command(text)
    journal.close()
    return s


def _state(s):
    # the view model, without its version (a count of events applied, not table state)
    return json.dumps(dict(table_view(s, odds=False), version=0), sort_keys=True,
                      default=str), s.phase, s.current


def test_journal_each_line_carries_a_checksum(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    for line in path.read_bytes().splitlines():
        text, crc = line.rsplit(b"*", 1)
        assert crc.decode() == "%08X" % (__import__("binascii").crc32(text) & 0xFFFFFFFF)


def test_journal_a_valid_json_edit_of_a_die_value_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    n = next(i for i, x in enumerate(lines) if b'"value":2' in x)
    lines[n] = lines[n].replace(b'"value":2', b'"value":3')
    path.write_bytes(b"".join(lines))
    before = path.read_bytes()
    with pytest.raises(JournalError, match="line %d is damaged" % (n + 1)):
        Journal.resume(str(path))
    assert path.read_bytes() == before  # untouched


def test_journal_a_damaged_complete_last_line_is_refused_not_dropped(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    data = path.read_bytes()
    damaged = data[:-5] + b"0" + data[-4:]  # a CRC digit of the last line, newline kept
    if damaged == data:
        damaged = data[:-5] + b"1" + data[-4:]
    path.write_bytes(damaged)
    with pytest.raises(JournalError, match="line %d is damaged" % data.count(b"\n")):
        Journal.resume(str(path))
    assert path.read_bytes() == damaged


def test_journal_damage_refusal_names_a_command_play_accepts(tmp_path):
    import argparse
    import shlex

    from camelhost.commands import play

    path = tmp_path / "g.jsonl"
    _sample(path)
    data = path.read_bytes()
    path.write_bytes(data[:-5] + (b"1" if data[-5:-4] == b"0" else b"0") + data[-4:])
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path))
    command = str(refused.value).split(".damaged: ", 1)[1].rstrip(")")
    words = shlex.split(command)
    assert words[:2] == ["pyramid", "play"], command
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    args = parser.parse_args(words[2:])  # an unknown option would exit here
    assert args.resume == str(path) and args.upto_damage


def _rechain(events):
    """Journal bytes of ``events`` (dicts, their line fields ``n``/``game``/``prev`` made
    again): each line numbered and chained to the one before, as an editor who knows the
    format can make them."""
    from camelhost.table.journal import encode_line, line_hash
    out, prev = [], None
    for n, event in enumerate(events, start=1):
        event = dict(event, n=n, game=events[0]["game"])
        event.pop("prev", None)
        if prev is not None:
            event["prev"] = prev
        line = encode_line(event)
        prev = line_hash(line[:-1])
        out.append(line)
    return b"".join(out)


def test_journal_renamed_keys_never_give_a_key_error_traceback(tmp_path):
    from camelhost.table.journal import encode_line
    path = tmp_path / "g.jsonl"
    _sample(path)
    lines = path.read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0].rsplit(b"*", 1)[0])
    header["seats"] = header.pop("players")  # a renamed key, checksum recomputed
    path.write_bytes(encode_line(header) + b"".join(lines[1:]))
    with pytest.raises(JournalError, match="line 1.*players"):
        Journal.resume(str(path))
    # the session's own check, behind a chain made again for the edit (what a deliberate
    # editor can do: the chain is no signature, docs/table.md)
    events = [json.loads(x.rsplit(b"*", 1)[0]) for x in lines]
    events[2]["acton"] = events[2].pop("action")
    path.write_bytes(_rechain(events))
    with pytest.raises(ValueError, match="line 3"):
        Session.resume(Journal.resume(str(path)))


def test_journal_resume_upto_damage_keeps_the_rest_aside(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    lines[3] = lines[3].replace(b"{", b"[", 1)
    path.write_bytes(b"".join(lines))
    j = Journal.resume(str(path), upto_damage=True)
    assert len(j.events) == 3
    j.close()
    assert path.read_bytes() + set_aside.kept(tmp_path / "g.jsonl.damaged") == b"".join(lines)


def test_journal_never_destroys_a_file_that_is_not_a_journal(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"shopping: camels, dice")  # one line, no newline
    with pytest.raises(JournalError, match="not a game journal"):
        Journal.resume(str(notes))
    assert notes.read_bytes() == b"shopping: camels, dice"


def test_journal_a_one_line_journal_without_trailing_newline_is_kept(tmp_path):
    from camelhost.table.journal import encode_line
    path = tmp_path / "g.jsonl"
    head = {"type": "game", "format": 2, "edition": "second", "players": ["Ann", "Ben"], "seed": 1}
    path.write_bytes(encode_line(head)[:-1])  # its newline missing
    j = Journal.resume(str(path))
    assert j.events == [head]
    j.append({"type": "undo"})
    j.close()
    assert [e["type"] for e in read_events(str(path))] == ["game", "undo"]
    legacy = tmp_path / "old.jsonl"
    legacy.write_bytes(json.dumps(dict(head, format=1)).encode())  # format 1, no newline
    assert Journal.resume(str(legacy)).events[0]["players"] == ["Ann", "Ben"]
    assert legacy.read_bytes() == json.dumps(dict(head, format=1)).encode()


def test_journal_header_records_edition_seats_pyramid_and_seed(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    head = read_events(str(path))[0]
    assert (head["edition"], head["players"], head["pyramid"], head["seed"]) == ("second", ["Ann", "Ben", "Cy"], "manual", 4)


def test_journal_resume_refuses_conflicting_players_or_edition(tmp_path, capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    _sample(path)
    before = path.read_bytes()
    assert cli.main(["play", "--resume", str(path), "--players", "Ann,Zed", "--plain"]) != 0
    assert "conflicts with the journal's players" in capsys.readouterr().err
    assert cli.main(["play", "--resume", str(path), "--edition", "classic", "--plain"]) != 0
    assert "conflicts with the journal's edition (second)" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_journal_resume_refuses_a_different_bots_or_seed_and_takes_the_same(
        tmp_path, capsys, monkeypatch):
    # QA: --bots and --seed were silently dropped with --resume (a bot added for a
    # player who left never played, and nobody was told)
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    with Journal(str(path), pyramid="manual") as journal:
        s = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=4, bots=[3], journal=journal)
        s.command(SETUP)
        s.command("leg red")  # Ben to act
    with open(path, "ab") as fh:
        fh.write(b'{"type":"action","pla')  # and a last line cut off by a crash
    before = path.read_bytes()
    for extra, said in (
            (["--bots", "Cy"], "--bots Cy conflicts with the journal's bots (Dee): the journal "
             "keeps the seats as the game started, so a bot can't take over a seat; leave it "
             "out with --resume"),
            (["--bots", "Dee,Cy"], "--bots Dee,Cy conflicts with the journal's bots (Dee)"),
            (["--bots", ""], "--bots '' conflicts with the journal's bots (Dee)"),
            (["--bots", "Zed"], "--bots names 'Zed', who is not among the players"),
            (["--seed", "99"], "--seed 99 conflicts with the journal's seed (4): leave it out "
             "with --resume")):
        assert cli.main(["play", "--resume", str(path), "--plain"] + extra) != 0
        err = capsys.readouterr().err
        assert err.startswith("pyramid: " + said) and err.count("\n") == 1, err
        assert path.read_bytes() == before  # nothing changed, not even the torn tail
    # the journal's own values are taken
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain", "--bots", "dee",
                     "--seed", "4"]) == 0
    assert "2 events restored" in capsys.readouterr().out


@pytest.mark.process
def test_journal_lock_two_programs_cannot_append_to_one_journal(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    first = Journal.resume(str(path))
    try:
        code = ("import sys; from camelhost.table.journal import Journal, JournalError\n"
                "try:\n    Journal.resume(sys.argv[1])\nexcept JournalError as e:\n    print(e); sys.exit(3)\n")
        done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 3 and "in use by another program" in done.stdout
    finally:
        first.close()
    Journal.resume(str(path)).close()  # free again once the first closed it


def test_journal_disk_full_says_the_game_is_safe_and_how_to_resume(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    _sample(path)
    j = Journal.resume(str(path))
    before = path.read_bytes()

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(JournalFull) as info:
        j.append({"type": "undo"})
    assert "safe in %s up to the last event" % path in str(info.value)
    assert "pyramid play --resume %s" % path in str(info.value)
    monkeypatch.undo()
    j.close()
    assert path.read_bytes() == before


@pytest.mark.slow
@pytest.mark.deep  # make test: a seeded quarter of the bytes; make deep: every one
def test_journal_damage_every_single_byte_change_is_refused_or_identical(tmp_path):
    """Each byte of a sample journal replaced by several others (a flipped bit, a
    newline, a space, a digit): resume either refuses naming a line, or rebuilds the
    identical game. Never a traceback, never a different state. ``make deep`` (CI runs
    it) changes every byte; ``make test`` a quarter of them (``depth.examples``), drawn
    with a seeded RNG: the same bytes every run."""
    path = tmp_path / "g.jsonl"
    want = _state(_sample(path))
    data = path.read_bytes()
    outcomes = {"refused": 0, "identical": 0}
    changed = sorted(random.Random(1).sample(range(len(data)), examples(len(data))))
    for i in changed:
        for new in {data[i] ^ 0x01, data[i] ^ 0x20, 0x0A, 0x20, 0x37} - {data[i]}:
            damaged = data[:i] + bytes([new]) + data[i + 1:]
            path.write_bytes(damaged)
            try:
                j = Journal.resume(str(path))
                try:
                    got = _state(Session.resume(j))
                finally:
                    j.close()
            except JournalError as exc:
                assert "line" in str(exc) or "not a game journal" in str(exc), exc
                outcomes["refused"] += 1
                continue
            except ValueError as exc:  # the session's one-line refusal
                assert "line" in str(exc), exc
                outcomes["refused"] += 1
                continue
            assert got == want, (i, new)
            outcomes["identical"] += 1
    assert outcomes["refused"] > 0 and sum(outcomes.values()) >= 4 * len(changed)


# --- a journal that went through a Windows editor or git autocrlf ------------------

def _crlf(data):
    return data.replace(b"\n", b"\r\n")


def test_journal_with_crlf_line_endings_resumes_and_replays(tmp_path, monkeypatch, capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    _sample(path)
    events = read_events(str(path))
    crlf = _crlf(path.read_bytes())
    path.write_bytes(crlf)
    assert read_events(str(path)) == events
    assert cli.main(["replay", str(path), "--brief"]) == 0
    assert "not a game journal" not in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", iter(["undo\n", "quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain"]) == 0
    out = capsys.readouterr()
    assert "resumed %s: %d events restored" % (path, len(events) - 1) in out.out, out.err
    data = path.read_bytes()
    assert data.startswith(crlf)  # the lines that were there are kept as they were
    assert read_events(str(path)) == events + [{"type": "undo"}]  # mixed endings read fine


def test_journal_crlf_last_line_without_its_newline_stands_and_takes_appends(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    events = read_events(str(path))
    path.write_bytes(_crlf(path.read_bytes())[:-1])  # ends in CR: the LF never written
    j = Journal.resume(str(path))
    assert j.events == events and j.notes == []
    j.append({"type": "undo"})
    j.close()
    assert read_events(str(path)) == events + [{"type": "undo"}]


@pytest.mark.parametrize("ending", [b"\r\r\n", b" \r\n", b"\r \n"])
def test_journal_only_one_cr_before_the_newline_is_a_line_ending(tmp_path, ending):
    path = tmp_path / "g.jsonl"
    _sample(path)
    lines = _crlf(path.read_bytes()).splitlines(keepends=True)
    lines[2] = lines[2][:-2] + ending
    path.write_bytes(b"".join(lines))
    before = path.read_bytes()
    with pytest.raises(JournalError, match="line 3 is damaged"):
        Journal.resume(str(path))
    assert path.read_bytes() == before


# --- a line whose checksum is right but whose event no longer applies --------------

def _rechained(lines):
    """Journal ``lines`` (bytes each) numbered and chained again after an edit, their
    checksums made again: what someone who edits lines and redoes the arithmetic writes.
    The chain then holds; only the game can tell that an event no longer applies."""
    from camelhost.table.journal import encode_line, line_hash
    out = []
    for n, line in enumerate(lines, 1):
        row = json.loads(line.rstrip(b"\n").rsplit(b"*", 1)[0])
        row["n"] = n
        if n > 1:
            row["prev"] = line_hash(out[-1].rstrip(b"\n"))
        out.append(encode_line(row))
    return out


def _stale_variants(path, chained=True):
    """name -> (journal bytes, the line that no longer applies) made from the sample:
    two lines swapped, a line duplicated, an illegal action appended with its checksum;
    ``chained``: numbered and chained again after the edit (``_rechained``), so that the
    chain holds and the event is what is refused; else as the edit left them."""
    from camelhost.table.journal import encode_line
    s = _sample(path)
    lines = path.read_bytes().splitlines(keepends=True)
    swapped = lines[:2] + [lines[3], lines[2]] + lines[4:]  # Ben's pyramid before Ann's leg
    duplicated = lines[:3] + [lines[2]] + lines[3:]  # Ann's 'leg red' twice
    turn = Session.from_events(read_events(str(path))).current
    illegal = encode_line({"type": "action", "player": (turn + 1) % 3, "action": "leg red",
                           "game": s.journal.game_id})
    appended = lines + [illegal]
    fix = _rechained if chained else (lambda x: x)
    return {"swapped": (b"".join(fix(swapped)), 3), "duplicated": (b"".join(fix(duplicated)), 4),
            "appended": (b"".join(fix(appended)), len(lines) + 1)}


def _resume_stale(tmp_path, monkeypatch, kind, *flags, chained=True):
    """Write the ``kind`` stale journal (``_stale_variants``) and run ``pyramid play
    --resume FILE --plain FLAGS`` on it (typing ``quit``): ``(path, bytes written, stale
    line, exit code)``."""
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    data, line = _stale_variants(path, chained)[kind]
    path.write_bytes(data)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    return path, data, line, cli.main(["play", "--resume", str(path), "--plain"] + list(flags))


def _moved(data, line):
    """What a refusal says resuming up to ``line`` of the journal ``data`` moves aside:
    it and the lines after it (one race here)."""
    later = len([x for x in data.split(b"\n")[line:] if x.strip()])
    if not later:
        return "it"
    return "it and the %d line%s after it" % (later, "" if later == 1 else "s")


@pytest.mark.parametrize("kind", ["swapped", "duplicated", "appended"])
def test_journal_a_stale_event_is_refused_saying_nothing_changed_and_how_to_go_on(
        tmp_path, monkeypatch, capsys, kind):
    path, data, line, rc = _resume_stale(tmp_path, monkeypatch, kind)
    assert rc == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("pyramid: %s: event on line %d no longer applies (it is " % (path, line))
    # the command reopens the table as it was asked for (here in plain lines)
    # ... and says what it moves aside (tester s33 finding 2)
    assert err[0].endswith("; nothing was changed (to resume up to it, moving %s to "
                           "%s.damaged: pyramid play --resume %s --upto-damage --plain)"
                           % (_moved(data, line), path, path))
    assert path.read_bytes() == data
    assert not (tmp_path / "g.jsonl.damaged").exists()


@pytest.mark.parametrize("kind", ["swapped", "duplicated", "appended"])
def test_journal_upto_damage_stops_at_a_stale_event_and_keeps_the_rest_aside(
        tmp_path, monkeypatch, capsys, kind):
    path, data, line, rc = _resume_stale(tmp_path, monkeypatch, kind, "--upto-damage")
    assert rc == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("resumed %s: %d event" % (path, line - 2))
    note = [x for x in out if "no longer applies" in x]
    assert len(note) == 1 and note[0].startswith("resumed up to line %d, whose event no longer "
                                                 "applies (it is " % line)
    assert note[0].endswith("; it and the rest are kept in %s.damaged" % path)
    side = set_aside.kept(tmp_path / "g.jsonl.damaged")
    assert path.read_bytes() + side == data  # nothing lost, byte for byte
    assert side == b"".join(data.splitlines(keepends=True)[line - 1:])
    Session.resume(Journal.resume(str(path))).journal.close()  # the rest now resumes plainly


@pytest.mark.parametrize("kind,reason", [
    ("swapped", "it is numbered 4, 3 was expected: a line missing or moved before it"),
    ("duplicated", "it is numbered 3, 4 was expected: a line repeated or moved"),
    ("appended", "it carries no line number and game id: a line from elsewhere")])
def test_journal_a_line_removed_repeated_or_moved_is_refused_with_the_chains_reason(
        tmp_path, monkeypatch, capsys, kind, reason):
    # the tester: a line deleted or doubled was refused at the right line, but with the
    # game's reason ("it is Cy's turn"); the chain's check comes first and names the line
    path, data, line, rc = _resume_stale(tmp_path, monkeypatch, kind, chained=False)
    assert rc == 1
    err = capsys.readouterr().err.splitlines()
    if kind == "duplicated":
        # an exact repeat whose next line follows the line before it: set aside alone,
        # the game's own later lines kept (tester s41 item 1)
        later = len([x for x in data.split(b"\n")[line:] if x.strip()])
        advice = ("to resume without it, setting it aside alone in %s.damaged and keeping "
                  "the %d lines after it" % (path, later))
    else:
        advice = "to resume up to it, moving %s to %s.damaged" % (_moved(data, line), path)
    assert err == ["pyramid: %s: line %d is out of place (%s); nothing was changed (%s: "
                   "pyramid play --resume %s --upto-damage --plain)" % (path, line, reason,
                                                                        advice, path)]
    assert path.read_bytes() == data


def test_journal_a_line_taken_out_is_refused_with_the_chains_reason_on_resume(
        tmp_path, monkeypatch, capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    _sample(path)
    lines = _lines(path)
    data = b"".join(lines[:2] + lines[3:])  # Ann's 'leg red' (line 3) taken out
    path.write_bytes(data)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain"]) == 1
    err = capsys.readouterr().err
    assert ("line 3 is out of place (it is numbered 4, 3 was expected: a line missing or "
            "moved before it)") in err
    assert "no longer applies" not in err  # Ben's line on Ann's turn: the chain said it first
    assert path.read_bytes() == data
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))  # --upto-damage: the same reason
    assert cli.main(["play", "--resume", str(path), "--plain", "--upto-damage"]) == 0
    assert ("resumed up to line 3, which is out of place (it is numbered 4, 3 was expected: a "
            "line missing or moved before it); it and the rest are kept in %s.damaged" % path
            in capsys.readouterr().out)


def test_journal_a_stale_event_refusal_leaves_a_torn_tail_in_place_too(tmp_path):
    path = tmp_path / "g.jsonl"
    data, line = _stale_variants(path)["swapped"]
    data += b'{"type":"action","pla'  # and the program died mid-write
    path.write_bytes(data)
    with pytest.raises(JournalError, match="line %d no longer applies.*nothing was changed" % line):
        Journal.resume(str(path), check=Session.stale_line)
    assert path.read_bytes() == data  # the torn tail was not cut before the refusal
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line)
    j.close()
    assert path.read_bytes() + set_aside.kept(tmp_path / "g.jsonl.damaged") == data


# --- replay is a viewer: it shows what it can and changes nothing -------------------

def _replay(capsys, *argv):
    from camelhost import cli
    rc = cli.main(["replay"] + list(argv))
    out = capsys.readouterr()
    assert rc == 0 and out.err == "", out.err
    return out.out.splitlines()


@pytest.mark.parametrize("brief", [False, True])
def test_replay_shows_the_game_up_to_a_damaged_middle_line_and_changes_nothing(
        tmp_path, capsys, brief):
    path = tmp_path / "g.jsonl"
    _sample(path)
    lines = path.read_bytes().splitlines(keepends=True)
    prefix = tmp_path / "prefix.jsonl"
    prefix.write_bytes(b"".join(lines[:5]))
    lines[5] = lines[5].replace(b"tile 8 -", b"tile 8 +")  # line 6, checksum now wrong
    path.write_bytes(b"".join(lines))
    flags = ["--brief"] if brief else []
    out = _replay(capsys, str(path), *flags)
    # Cy's tile is left out, and the undo after it would take back Ben's die instead: the
    # replay stops at the damaged line and says what it held (the next line's chain hash
    # proves the tile's side as written, not the damaged one: s41 tester 9)
    note = ("shown up to the damaged line 6 (checksum does not match); %s is unchanged (line 7 "
            "does not follow without it: an undo, which without line 6 would take back another "
            "action). The next line's chain hash proves it held Cy's action 'tile 8 -': to go "
            "on with it typed again in its place: pyramid play --resume %s --upto-damage "
            "--retype 'tile 8 -'" % (path, path))
    # said once, as the last line, under the table and the next turn (issue 30 said it
    # twice: where the replay stops and last, 15 lines apart)
    assert out.count(note) == 1 and out[-1] == note
    # the game as the good lines leave it: what a replay of those lines alone shows
    want = _replay(capsys, str(prefix), *flags)
    assert [x for x in out if x != note] == [x.replace(str(prefix), str(path)) for x in want]
    assert path.read_bytes() == b"".join(lines)
    assert not (tmp_path / "g.jsonl.damaged").exists()


def test_replay_stops_at_an_event_that_no_longer_applies(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    data, line = _stale_variants(path)["duplicated"]
    path.write_bytes(data)
    out = _replay(capsys, str(path), "--brief")
    # said once, as the last line, under the table where the replay stops
    assert out[-1].startswith("shown up to line %d, whose event no longer applies (it is " % line)
    assert out[-1].endswith("; %s is unchanged" % path)
    assert sum(x.startswith("shown up to") for x in out) == 1
    assert path.read_bytes() == data
    assert not (tmp_path / "g.jsonl.damaged").exists()


def test_replay_says_a_last_line_cut_off_by_a_crash_was_left_out(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    _sample(path)
    data = path.read_bytes() + b'{"type":"action","pla'
    path.write_bytes(data)
    out = _replay(capsys, str(path), "--brief")
    note = ("line %d was cut off when the program stopped (21 bytes): left out; %s "
            "is unchanged. It held an action (its words cut off), as far as it can be read: "
            "if that happened at the table, resume the game (pyramid play --resume %s) and "
            "type it again" % (data.count(b"\n") + 1, path, path))
    assert out[-1] == note and out.count(note) == 1  # once, the last line
    assert path.read_bytes() == data


def test_journal_refusals_name_a_resume_command_that_works_for_a_path_with_a_space(tmp_path):
    import shlex
    path = tmp_path / "a game.jsonl"
    data, line = _stale_variants(path)["swapped"]
    path.write_bytes(data)
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), check=Session.stale_line)
    command = str(refused.value).split(".damaged: ", 1)[1].rstrip(")")
    assert shlex.split(command) == ["pyramid", "play", "--resume", str(path), "--upto-damage"]


def test_a_german_tables_damaged_journal_suggests_a_german_resume(tmp_path, monkeypatch, capsys):
    # tester 2, finding 5: the resume command a refusal names keeps --lang de too
    import shlex

    from camelhost import cli
    path = tmp_path / "g.jsonl"
    data, _line = _stale_variants(path)["swapped"]
    path.write_bytes(data)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--plain", "--resume", str(path), "--lang", "de"]) == 1
    err = capsys.readouterr().err
    assert "nichts wurde geändert" in err  # said in German
    command = "pyramid play" + err.strip().rsplit(": pyramid play", 1)[1].rstrip(")")
    assert shlex.split(command) == ["pyramid", "play", "--resume", str(path), "--upto-damage",
                                    "--plain", "--lang", "de"]
    assert path.read_bytes() == data  # refused, untouched


# --- nothing lost when the disk fills up (issue 29, item 4) -----------------------

PLAY_INPUT = b"draw\nleg red\nleg blue\nleg green\nleg red\nquit\n"


def _play_limited(folder, limit):
    """``pyramid play --plain`` in ``folder`` (seed 3, journal t.jsonl) typing PLAY_INPUT,
    its files limited to ``limit`` bytes (RLIMIT_FSIZE; Python ignores SIGXFSZ, so a
    write past it fails with EFBIG); ``None``: no limit. The finished process."""
    import resource
    import shutil

    def limited():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    exe = shutil.which("pyramid", path=os.path.dirname(sys.executable))
    return subprocess.run([exe, "play", "--players", "A,B,C", "--plain", "--journal", "t.jsonl",
                           "--seed", "3"], input=PLAY_INPUT, capture_output=True,
                          cwd=str(folder), preexec_fn=limited, timeout=120)


@pytest.mark.process
def test_journal_file_size_limit_mid_line_says_the_game_is_safe_and_leaves_no_partial_line(
        tmp_path):
    free = tmp_path / "free"
    free.mkdir()
    assert _play_limited(free, None).returncode == 0
    lines = (free / "t.jsonl").read_bytes().splitlines(keepends=True)
    assert len(lines) == 6  # the game line, the setup, four tickets
    limit = len(b"".join(lines[:4])) + 20  # the fifth line is cut after 20 bytes
    full = tmp_path / "full"
    full.mkdir()
    done = _play_limited(full, limit)
    err = done.stderr.decode().strip().splitlines()
    assert done.returncode == 1
    # the product's own message, once, not "File too large" and no second error after it
    assert len(err) == 1, err
    assert err[0].startswith("pyramid: the disk is full"), err
    assert "the game is safe in t.jsonl up to the last event" in err[0]
    assert err[0].endswith("then continue with: pyramid play --resume t.jsonl --plain")
    data = (full / "t.jsonl").read_bytes()
    # no partial line left: the four lines written before it, whole (the game id differs)
    assert data.count(b"\n") == 4 and data.endswith(b"\n")
    assert [len(x) for x in data.splitlines(keepends=True)] == [len(x) for x in lines[:4]]
    j = Journal.resume(str(full / "t.jsonl"))  # every event taken before it, as typed
    try:
        assert j.notes == []
        assert [e.get("action") for e in j.events[2:]] == ["leg red", "leg blue"]
    finally:
        j.close()


def test_journal_a_write_cut_short_by_a_full_disk_leaves_the_file_as_it_was(tmp_path,
                                                                          monkeypatch):
    path = tmp_path / "g.jsonl"
    _sample(path)
    j = Journal.resume(str(path))
    before = path.read_bytes()
    real = os.write

    def short_then_full(fd, data):
        if len(data) > 12:
            return real(fd, bytes(data[:12]))  # part of the line reaches the disk
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", short_then_full)
    with pytest.raises(JournalFull) as info:
        j.append({"type": "undo"})
    monkeypatch.undo()
    assert info.value.strerror.startswith("the disk is full: the game is safe in %s" % path)
    assert path.read_bytes() == before  # the 12 bytes written were cut again
    j.close()  # nothing buffered: closing raises nothing
    again = Journal.resume(str(path))
    assert again.notes == [] and len(again.events) == len(read_events(str(path)))
    again.append({"type": "undo"})  # and the chain goes on where the file ends
    again.close()
    assert read_events(str(path))[-1] == {"type": "undo"}


# --- never through a link, never into a pipe (issue 29, items 7 and 8) ------------

def _torn_journal(path):
    _sample(path)
    data = path.read_bytes() + b'{"type":"action","pla'  # died mid-write
    path.write_bytes(data)
    return data


def test_journal_a_symlink_planted_at_damaged_is_never_written_through(tmp_path):
    path = tmp_path / "t.jsonl"
    data = _torn_journal(path)
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious\n")
    os.symlink(str(victim), str(tmp_path / "t.jsonl.damaged"))
    with pytest.raises(JournalError, match="t.jsonl.damaged is a symbolic link.*nothing was "
                                           "changed"):
        Journal.resume(str(path))
    assert victim.read_bytes() == b"precious\n"
    assert path.read_bytes() == data  # the torn tail was not cut either
    assert os.path.islink(str(tmp_path / "t.jsonl.damaged"))


def test_journal_a_hard_link_planted_at_damaged_is_refused_too(tmp_path):
    path = tmp_path / "t.jsonl"
    data = _torn_journal(path)
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious\n")
    os.link(str(victim), str(tmp_path / "t.jsonl.damaged"))
    with pytest.raises(JournalError, match="another name"):
        Journal.resume(str(path))
    assert victim.read_bytes() == b"precious\n" and path.read_bytes() == data


def test_journal_an_existing_damaged_file_is_kept_and_added_to(tmp_path):
    path = tmp_path / "t.jsonl"
    data = _torn_journal(path)
    (tmp_path / "t.jsonl.damaged").write_bytes(b"from before\n")
    Journal.resume(str(path)).close()
    side = (tmp_path / "t.jsonl.damaged").read_bytes()
    assert side.startswith(b"from before\n")
    assert [body for _, _, body in set_aside.batches(side[len(b"from before\n"):])] == [
        b'{"type":"action","pla']
    assert path.read_bytes() + b'{"type":"action","pla' == data


def test_journal_a_symlink_as_the_journal_is_refused_for_a_new_game_and_a_resume(tmp_path):
    from camelhost.table.journal import new_path_problem
    real = tmp_path / "real.jsonl"
    _sample(real)
    before = real.read_bytes()
    link = tmp_path / "link.jsonl"
    os.symlink(str(real), str(link))
    assert "symbolic link" in new_path_problem(str(link))
    with pytest.raises(JournalError, match="symbolic link"):
        Journal.resume(str(link))
    with pytest.raises(JournalError, match="symbolic link"):
        Journal(str(link))
    assert real.read_bytes() == before
    assert read_events(str(link)) == read_events(str(real))  # reading through it is fine


def _pyramid(*argv, cwd):
    import shutil
    exe = shutil.which("pyramid", path=os.path.dirname(sys.executable))
    # a hang is the bug: the timeout makes it a failure, not a stuck test run
    return subprocess.run([exe] + list(argv), input=b"quit\n", capture_output=True,
                          cwd=str(cwd), timeout=60)


@pytest.mark.process
@pytest.mark.parametrize("argv", [
    ["play", "--players", "A,B,C", "--plain", "--journal", "f.jsonl"],
    ["play", "--resume", "f.jsonl", "--plain"],
    ["replay", "f.jsonl"],
])
def test_journal_a_fifo_is_refused_at_once_in_one_line(tmp_path, argv):
    os.mkfifo(str(tmp_path / "f.jsonl"))
    done = _pyramid(*argv, cwd=tmp_path)
    err = done.stderr.decode().strip().splitlines()
    assert done.returncode != 0
    assert len(err) == 1 and err[0].startswith("pyramid: ") and "f.jsonl" in err[0], err
    assert "named pipe" in err[0], err
    assert sorted(os.listdir(str(tmp_path))) == ["f.jsonl"]  # nothing made beside it


# --- a journal that proves its own history (issue 29, item 9) ----------------------

def _lines(path):
    return path.read_bytes().splitlines(keepends=True)


def _refused_at(path, data, line, words):
    path.write_bytes(data)
    with pytest.raises(JournalError, match="line %d is out of place \\(%s" % (line, words)):
        Journal.resume(str(path))
    assert path.read_bytes() == data


def test_journal_lines_are_numbered_and_bound_to_their_game_and_the_line_before(tmp_path):
    from camelhost.table.journal import line_hash
    path = tmp_path / "g.jsonl"
    _sample(path)
    rows = [json.loads(x.rsplit(b"*", 1)[0]) for x in path.read_bytes().splitlines()]
    assert [r["n"] for r in rows] == list(range(1, len(rows) + 1))
    assert len({r["game"] for r in rows}) == 1 and len(rows[0]["game"]) == 12
    assert "prev" not in rows[0]
    chunks = path.read_bytes().splitlines()
    assert [r["prev"] for r in rows[1:]] == [line_hash(c) for c in chunks[:-1]]
    assert all("n" not in e and "prev" not in e for e in read_events(str(path)))


def test_journal_a_removed_repeated_or_moved_line_is_refused_naming_it(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    lines = _lines(path)
    # a line taken out of the middle ('tile 8 -', line 6): line 6 is now numbered 7
    _refused_at(path, b"".join(lines[:5] + lines[6:]), 6, "it is numbered 7, 6 was expected")
    # an undo line repeated: the copy names the original's number
    _refused_at(path, b"".join(lines[:8] + [lines[7]] + lines[8:]), 9, "it is numbered 8, 9 was expected")
    # the die and the tile after it swapped (both still legal there)
    _refused_at(path, b"".join(lines[:4] + [lines[5], lines[4]] + lines[6:]), 5,
                "it is numbered 6, 5 was expected")


def test_journal_a_line_from_another_game_is_refused_naming_it(tmp_path):
    path = tmp_path / "g.jsonl"
    other = tmp_path / "other.jsonl"
    _sample(path)
    _sample(other)  # the same seats, seed and moves: only the game id tells them apart
    lines, foreign = _lines(path), _lines(other)
    assert lines[1:] != foreign[1:]
    _refused_at(path, b"".join(lines[:3] + [foreign[3]] + lines[4:]), 4,
                "it belongs to another game")
    # appended at the end: an undo that would take back this game's last move
    _refused_at(path, b"".join(lines + [foreign[7]]), len(lines) + 1, "it belongs to another "
                "game")


def test_journal_an_edit_that_keeps_the_checksum_right_breaks_the_chain(tmp_path):
    from camelhost.table.journal import encode_line
    path = tmp_path / "g.jsonl"
    _sample(path)
    lines = _lines(path)
    row = json.loads(lines[2].rsplit(b"*", 1)[0])
    row["action"] = "leg blue"  # still legal, checksum made again
    _refused_at(path, b"".join(lines[:2] + [encode_line(row)] + lines[3:]), 4,
                "it does not follow line 3")


def test_journal_upto_damage_stops_at_a_line_out_of_place_and_keeps_the_rest(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    lines = _lines(path)
    data = b"".join(lines[:5] + lines[6:])
    path.write_bytes(data)
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line)
    assert len(j.events) == 5
    assert j.notes == ["resumed up to line 6, which is out of place (it is numbered 7, 6 was "
                       "expected: a line missing or moved before it); it and the rest are kept in "
                       "%s.damaged" % path]
    j.append({"type": "undo"})
    j.close()
    assert path.read_bytes().startswith(b"".join(lines[:5]))
    assert set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes()) == [
        (6, len(lines) - 1, b"".join(lines[6:]))]
    assert read_events(str(path))[-1] == {"type": "undo"}  # numbered on from line 5


def test_journal_cut_at_its_end_is_said_when_the_pyramid_acknowledged_more():
    from camelhost.table.journal import behind_pyramid
    events = [{"type": "game"}, {"type": "die", "boot": 7, "seq": 3},
              {"type": "rejected", "boot": 7, "seq": 4}, {"type": "die", "boot": 6, "seq": 9}]
    assert behind_pyramid(events, 7, 4) is None
    assert behind_pyramid(events, 7, 6) == (
        "the pyramid served another table since this game's last die, or lines were cut from "
        "this journal's end: the pyramid acknowledged events 5, 6 of boot 7, which the journal "
        "does not hold (its last is event 4); they are left out. If lines were cut, quit and "
        "resume a whole copy of the journal")
    assert ("acknowledged event 1 of boot 7, which the journal does not hold (its last is none "
            "of that boot); it is left out") in behind_pyramid(events[:1], 7, 1)
    assert behind_pyramid(events, None, None) is None


def _format2(path):
    """The sample game written as this program's format 2 wrote it: no line fields."""
    from camelhost.table.journal import encode_line
    _sample(path)
    events = read_events(str(path))
    events[0] = dict(events[0], format=2)
    path.write_bytes(b"".join(encode_line(e) for e in events))
    return events


def test_journal_of_format_2_resumes_says_once_and_is_chained_from_then_on(tmp_path):
    path = tmp_path / "g.jsonl"
    events = _format2(path)
    before = path.read_bytes()
    j = Journal.resume(str(path))
    assert j.events == events
    assert j.notes == ["%s was written by an older version (journal format 2): the lines "
                       "appended from now on are numbered and chained, after its %d lines"
                       % (path, len(events))]
    j.close()
    assert path.read_bytes() == before  # nothing appended: nothing changed
    j = Journal.resume(str(path))
    j.append({"type": "undo"})
    j.close()
    again = Journal.resume(str(path))  # said once: the chain now stands
    assert again.notes == [] and again.events == events + [{"type": "undo"}]
    again.close()
    # the chain's start covers every older line: one taken out is refused from then on
    lines = _lines(path)
    _refused_at(path, b"".join(lines[:3] + lines[4:]), len(lines) - 2,
                "the start of its chain does not match")


def test_replay_shows_the_game_up_to_a_line_out_of_place_and_changes_nothing(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    _sample(path)
    lines = _lines(path)
    data = b"".join(lines[:5] + lines[6:])  # line 6 taken out
    path.write_bytes(data)
    out = _replay(capsys, str(path))
    note = ("shown up to line 6, which is out of place (it is numbered 7, 6 was expected: a "
            "line missing or moved before it); %s is unchanged" % path)
    # said once, as the last line, under the table and the next turn (issue 30 said it
    # twice: where the replay stops and last, 15 lines apart)
    assert out.count(note) == 1 and out[-1] == note
    assert path.read_bytes() == data and not (tmp_path / "g.jsonl.damaged").exists()


def test_replay_and_the_web_replay_read_a_journal_of_format_2_unchanged(tmp_path, capsys):
    from camelhost.web.replay import Replay
    path = tmp_path / "g.jsonl"
    events = _format2(path)
    before = path.read_bytes()
    out = _replay(capsys, str(path))
    assert out and not any("older version" in x for x in out)  # a viewer migrates nothing

    class Board:
        views = []

        def publish(self, view):
            self.views.append(view)

    board = Board()
    replay = Replay(board, read_events(str(path)))
    assert replay.events == events
    replay.command("last")  # the web replay steps through to the end
    assert board.views[-1]["replay"]["step"] == len(events) - 1
    assert path.read_bytes() == before


def test_journal_a_numbered_line_among_unnumbered_ones_is_refused_naming_it(tmp_path):
    from camelhost.table.journal import encode_line
    path = tmp_path / "g.jsonl"
    events = _format2(path)
    lines = _lines(path)
    row = dict(events[2], n=3, game="abcdefabcdef", prev="0" * 16)  # from a numbered journal
    _refused_at(path, b"".join(lines[:2] + [encode_line(row)] + lines[3:]), 3,
                "a numbered line in a journal whose lines are not yet numbered")


def test_journal_whose_game_line_starts_no_chain_is_refused_untouched(tmp_path):
    path = tmp_path / "g.jsonl"
    _sample(path)
    lines = _lines(path)
    head = json.loads(lines[0].rsplit(b"*", 1)[0])
    head["n"] = 2
    from camelhost.table.journal import encode_line
    data = encode_line(head) + b"".join(lines[1:])
    path.write_bytes(data)
    with pytest.raises(JournalError, match=r"line 1 \(the game header\) does not start a chain "
                                           r"of lines \(line number 1 and a game id\); nothing "
                                           r"was changed"):
        Journal.resume(str(path), upto_damage=True)
    assert path.read_bytes() == data
    path.write_bytes(b"hello world\n" + b"".join(lines[1:]))
    # the lines after it are a game's, chained: named as the game's first line, damaged
    # (tester s31 finding 1; it was 'not a game journal (line 1: not JSON text)')
    with pytest.raises(JournalError, match=r"line 1, the game's first line, is damaged \(not "
                                           r"JSON text\); nothing was changed. What it held "
                                           r"can't be read; the 9 lines after it are intact"):
        read_events(str(path))


@pytest.mark.parametrize("tail", [b"", b'{"type":"action","pla'])
def test_a_resume_reads_the_journal_once(tmp_path, monkeypatch, tail):
    """A resume opens the journal to read it once (it was read twice: once to find where
    appends go on, once for the events); with a torn last line too, which the resume
    cuts, the same events, and appends following the last line kept."""
    path = tmp_path / "g.jsonl"
    with Journal(str(path)) as j:
        j.append(_game())
        j.append({"type": "action", "player": 0, "action": "leg red"})
    with open(path, "ab") as fh:
        fh.write(tail)
    reads = []
    real = os.open

    def counted(name, flags, *args, **kwargs):
        if os.fspath(name) == str(path) and flags & os.O_ACCMODE == os.O_RDONLY:
            reads.append(name)
        return real(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", counted)
    j = Journal.resume(str(path))
    monkeypatch.undo()
    assert len(reads) == 1
    assert j.events == [_game(), {"type": "action", "player": 0, "action": "leg red"}]
    j.append({"type": "undo"})
    j.close()
    assert read_events(str(path))[-1] == {"type": "undo"}
    assert len(path.read_bytes().splitlines()) == 3


def test_journal_resume_checks_bots_and_players_against_the_names_after_renames(
        tmp_path, capsys, monkeypatch):
    # tester s32-2 finding 9: after renames, --bots was checked against the names the
    # game started with, and the refusal listed names nobody used any more
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    with Journal(str(path), pyramid="manual") as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, bots=[1, 2], journal=journal)
        s.command(SETUP)
        for line in ("rename Ben Benno", "rename Ann Anna", "rename Cy Ann"):
            s.command(line)
    before = path.read_bytes()
    # Ann is seat 3's name now (Cy's, a bot); Ben is nobody's
    assert cli.main(["play", "--resume", str(path), "--plain", "--bots", "Ben"]) != 0
    err = capsys.readouterr().err
    assert err == ("pyramid: --bots names 'Ben', who is not among the players (Anna, Benno, "
                   "Ann); did you mean Benno?\n")
    assert cli.main(["play", "--resume", str(path), "--plain", "--bots", "Anna,Benno"]) != 0
    assert capsys.readouterr().err.startswith(
        "pyramid: --bots Anna,Benno conflicts with the journal's bots (Benno,Ann)")
    assert cli.main(["play", "--resume", str(path), "--plain", "--players", "Ann,Zed,Cy"]) != 0
    assert "conflicts with the journal's players (Anna,Benno,Ann)" in capsys.readouterr().err
    assert path.read_bytes() == before
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain", "--bots", "Benno,Ann",
                     "--players", "Anna,Benno,Ann"]) == 0
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain", "--players", "Ann,Ben,Cy"]) == 0


@pytest.mark.parametrize("before, last, cut_after, held", [
    # a journal writes its keys sorted, so a cut line seldom reaches its "type": the kind
    # is told by the keys read (a new name's "name", a die's "colour", a pyramid
    # ticket's "player" with no "action" before it)
    ((), "rename Ben Jonas", b'"name":"Jonas"', "the new name Jonas (whose is cut off)"),
    (("rename Ben Bert",), "rename Bert Jonas", b'"player":1', "Bert's new name Jonas"),
    (("pyramid",), "red 3", b'"ink":null', "the die red (its value cut off)"),
    (("pyramid",), "red 3", b'"value":3', "the die red 3"),
    ((), "pyramid", b'"player":0', "Ann's pyramid ticket"),
    ((), "leg red", b'"action":"leg red"', "the action 'leg red' (whose is cut off)"),
    (("rename Ann Anna",), "leg red", b'"player":0', "Anna's action 'leg red'"),
])
def test_replay_says_what_a_line_cut_off_by_a_crash_still_reads(tmp_path, capsys, before,
                                                                   last, cut_after, held):
    # s33: the note said only "line N was cut off": not whether it was a die, a rename
    # or an action, so the table could not tell what to do again
    path = tmp_path / "g.jsonl"
    with Journal(str(path), pyramid="manual") as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        for text in (SETUP,) + before + (last,):
            s.command(text)
    data = path.read_bytes()
    start = data.rstrip(b"\n").rfind(b"\n") + 1
    cut = data.index(cut_after, start) + len(cut_after) + 3  # 3 bytes of the next field
    path.write_bytes(data[:cut])
    out = _replay(capsys, str(path))
    # a replay types nothing: it names the resume, and whose turn a player's line is for
    turn = " on %s's turn" % held.split("'")[0] if "'s " in held and "new name" not in held else ""
    assert out[-1] == ("line %d was cut off when the program stopped (%d bytes): left out; %s "
                       "is unchanged. It held %s, as far as it can be read: if that happened "
                       "at the table, resume the game (pyramid play --resume %s) and type it "
                       "again%s" % (data.count(b"\n"), cut - start, path, held, path, turn))
    assert path.read_bytes() == data[:cut]
