"""A damaged die line from the pyramid is recovered from what the line itself proves
(tester s33 finding F1): its ``raw`` field keeps the pyramid's own wire record with its
CRC, so when that still checks, the record is the evidence. The refusal suggests the die
it reads (never a damaged field's), ``--retype`` of that die is taken at once as what the
pyramid sent, and a ``--retype`` that contradicts it is refused unless given twice.
Journals written by a real game against the virtual pyramid (the firmware on the
simulated sensor), then damaged here, resumed through ``pyramid play``."""

import shlex

import pytest
from camelhost import cli
from camelhost.table.journal import read_events

pytestmark = pytest.mark.hil


def _play(monkeypatch, capsys, lines, *argv):
    """``pyramid play --plain ARGV`` with ``lines`` typed: ``(rc, stdout, stderr)``."""
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in lines))
    rc = cli.main(["play", "--plain"] + list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def _journal_of(folder, lines, pyramid=None):
    """The bytes of the journal a real game wrote: ``pyramid play`` at the virtual
    pyramid (``pyramid``: a ``VirtualPyramid`` subclass in its place), seed 5, Ann, Ben
    and Cy, fed ``lines`` then ``quit``."""
    from camelhost.device import virtual

    path = str(folder / "g.jsonl")
    mp = pytest.MonkeyPatch()
    try:
        if pyramid is not None:
            mp.setattr(virtual, "VirtualPyramid", pyramid)
        mp.setattr("sys.stdin", iter(line + "\n" for line in list(lines) + ["quit"]))
        assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--pyramid",
                         "virtual", "--seed", "5", "--journal", path]) == 0
    finally:
        mp.undo()
    with open(path, "rb") as fh:
        return fh.read()


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The bytes of a real journal: Ann's pyramid ticket and the die the virtual pyramid
    released for it, then Ben's leg ticket, Cy's pyramid ticket and its die (seeded)."""
    return _journal_of(tmp_path_factory.mktemp("wire"),
                       ["pyramid", "release", "leg blue", "pyramid", "release"])


def _die_line(data):
    """The number, bytes and event of the first die line the pyramid sent."""
    lines = data.splitlines(keepends=True)
    for number, event in enumerate(_json_of(lines), 1):
        if event.get("type") == "die" and event.get("source") == "pyramid":
            return number, lines, event
    raise AssertionError("no die from the pyramid in the journal")


def _json_of(lines):
    """Each line's JSON (its checksum cut off), as a dict."""
    import json
    return [json.loads(line.rstrip(b"\n")[:-9]) for line in lines]


def _damaged(tmp_path, data, old, new):
    """``g.jsonl`` in ``tmp_path``: ``data`` with ``old`` changed to ``new`` in the first
    die from the pyramid (the line's own checksum kept, so it no longer matches); returns
    ``(path, damaged bytes, line number, the die as written)``."""
    number, lines, die = _die_line(data)
    old, new = (x % die if "%" in x else x for x in (old, new))
    assert old.encode() in lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old.encode(), new.encode())
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines))
    return str(path), path.read_bytes(), number, die


def _later(data, number):
    """How many lines follow line ``number`` in the journal ``data`` (the virtual
    pyramid's ``board`` line comes when its hello does, so the lines' numbers vary)."""
    return data.count(b"\n") - number


def _other(value):
    return value % 3 + 1


@pytest.mark.parametrize("damage", ["value", "json"])
def test_the_refusal_suggests_the_die_its_pyramid_record_reads_not_the_damaged_field(
        tmp_path, monkeypatch, capsys, game, damage):
    number, _, die = _die_line(game)
    if damage == "value":  # another value, as the tester's edit
        old, new = '"value":%(value)d}', '"value":%d}' % _other(die["value"])
    else:  # a byte lost: the line's JSON no longer parses, its record still reads
        old, new = '"ink":null', '"ink":nul'
    path, data, _, _ = _damaged(tmp_path, game, old, new)
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    assert err.startswith("pyramid: %s: line %d is damaged (checksum does not match); "
                          "nothing was changed" % (path, number)), err
    # the die first (it restores every line), then resuming without it or up to it (which
    # of the two depends on where the virtual pyramid's board line fell)
    assert ("; type again in its place the die the pyramid sent, as its own record in the "
            "line reads it (its CRC checks), keeping the lines after it: pyramid play --resume "
            "%s --upto-damage --retype '%s %d' --plain; or, to resume "
            % (path, die["colour"], die["value"])) in err, err
    assert err.rstrip("\n").endswith(": pyramid play --resume %s --upto-damage --plain" % path)
    assert "\n" not in err.rstrip("\n")
    with open(path, "rb") as fh:
        assert fh.read() == data


def test_the_die_its_pyramid_record_reads_is_taken_at_once_as_the_line_was_written(
        tmp_path, monkeypatch, capsys, game):
    number, _, die = _die_line(game)
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(game)
    path, data, _, _ = _damaged(tmp_path, game, '"value":%(value)d}',
                                '"value":%d}' % _other(die["value"]))
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                         "--retype", "%s %d" % (die["colour"], die["value"]))
    assert rc == 0, err
    assert ("line %d is damaged (checksum does not match): left out, set aside in "
            "%s.damaged; the %d lines after it are kept. In its place: the die %s %d, as "
            "the pyramid sent it (its own record in the line reads it and passes its CRC "
            "check), given again with --retype; the next line's chain hash "
            "proves it is the line as written"
            % (number, path, _later(data, number), die["colour"], die["value"])
            ) in out.splitlines(), out
    # the game is the one played: the die as the pyramid sent it, its record, boot and
    # seq kept (a resume knows the table took that event of the pyramid's)
    assert read_events(path) == read_events(str(whole))
    # nothing destroyed: the damaged line as it was, in FILE.damaged
    assert data.splitlines()[number - 1] in open(path + ".damaged", "rb").read().splitlines()


def test_a_retype_the_pyramid_record_contradicts_is_refused_unless_given_twice(
        tmp_path, monkeypatch, capsys, game):
    number, _, die = _die_line(game)
    wrong = "%s %d" % (die["colour"], _other(die["value"]))
    path, data, _, _ = _damaged(tmp_path, game, '"value":%(value)d}',
                                '"value":%d}' % _other(die["value"]))
    # the damaged field's value: the pyramid's record says otherwise; nothing changed
    rc, _, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                       "--retype", wrong)
    assert rc != 0
    assert err.rstrip("\n") == (
        "pyramid: %s: --retype for line %d: the pyramid's own record in the damaged line (its "
        "CRC checks) reads the die %s %d, not the die %s; nothing was changed (if that is "
        "what happened at the table, give the same --retype twice to confirm it)"
        % (path, number, die["colour"], die["value"], wrong))
    with open(path, "rb") as fh:
        assert fh.read() == data
    assert not (tmp_path / "g.jsonl.damaged").exists()
    # given twice: the table's word stands, said to differ from the pyramid's record
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                         "--retype", wrong, "--retype", wrong)
    assert rc == 0, err
    assert ("In its place: the die %s, typed again; not what the pyramid sent (its own "
            "record in the line reads the die %s %d, not the die %s): confirmed by giving "
            "--retype twice" % (wrong, die["colour"], die["value"], wrong)) in out, out
    assert [e for e in read_events(path) if e.get("type") == "die"][0]["value"] == (
        _other(die["value"]))


def test_a_line_whose_own_checksum_alone_is_damaged_is_proven_by_its_record(
        tmp_path, monkeypatch, capsys, game):
    number, lines, die = _die_line(game)
    crc = lines[number - 1].rstrip(b"\n")[-8:].decode()
    path, _, _, _ = _damaged(tmp_path, game, "*" + crc, "*" + crc[::-1])
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                         "--retype", "%s %d" % (die["colour"], die["value"]))
    assert rc == 0, err
    assert ("as the pyramid sent it (its own record in the line reads it and passes its CRC "
            "check), given again with --retype; the next line's chain hash "
            "proves it is the line as written") in out, out


def test_upto_damage_alone_says_the_die_the_pyramid_record_reads(
        tmp_path, monkeypatch, capsys, game):
    number, _, die = _die_line(game)
    path, _, _, _ = _damaged(tmp_path, game, '"value":%(value)d}',
                             '"value":%d}' % _other(die["value"]))
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage")
    assert rc == 0, err
    assert ("The pyramid's own record in it (its CRC checks) reads the die %s %d: type it "
            "again as it reads" % (die["colour"], die["value"])) in out, out


def test_a_record_that_fails_its_crc_proves_nothing_the_line_read_as_before(
        tmp_path, monkeypatch, capsys, game):
    # the damage in the record itself: its CRC fails, so the record proves nothing; the
    # die the next line's chain hash proves (the line's own fields) is offered
    number, _, die = _die_line(game)
    path, _, _, _ = _damaged(tmp_path, game, "val=%(value)d ", "val=%d " % _other(die["value"]))
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    assert (
        "; the next line's chain hash proves it held the die %s %d: type it again in its "
        "place, keeping the lines after it: pyramid play --resume %s --upto-damage --retype "
        "'%s %d' --plain; or, to resume " % (die["colour"], die["value"], path,
                                                     die["colour"], die["value"])) in err, err


# --- a release the table refused: its line carries the pyramid's record too --------------

@pytest.fixture(scope="module")
def refused(tmp_path_factory):
    """The bytes of a real journal: Ann's pyramid ticket, two dice released at once (the
    table refused them: a ``rejected`` line, the pyramid's last event the game took), the
    die then typed by hand, and Ben's leg ticket."""
    return _journal_of(tmp_path_factory.mktemp("refused"),
                       ["pyramid", "release two", "red 1", "leg blue"])


def _refused_damaged(tmp_path, data, old, new):
    lines = data.splitlines(keepends=True)
    number = next(i for i, e in enumerate(_json_of(lines), 1) if e["type"] == "rejected")
    assert old in lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old, new)
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines))
    return str(path), number, _json_of(lines)[number - 1]


def test_a_refused_release_proven_by_its_record_is_put_back_keeping_the_pyramid_event(
        tmp_path, monkeypatch, capsys, refused):
    from camelhost.table.journal import behind_pyramid
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(refused)
    path, number, line = _refused_damaged(tmp_path, refused, b'"kind":"double"',
                                          b'"kind":"dooble"')
    later = _later(refused, number)
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage")
    assert rc == 0, err
    assert ("line %d is damaged (checksum does not match): left out, set aside in %s.damaged; "
            "the %d lines after it are kept. In its place: a release the table refused "
            "(double), read again from the pyramid's own record in it (its CRC checks); the next line's "
            "chain hash proves it is the line as written" % (number, path, later)
            ) in out.splitlines(), out
    events = read_events(path)
    assert events == read_events(str(whole))
    # the pyramid's last event the game took is still known: a resume on that pyramid
    # (which acknowledged it) names no event as lost
    assert behind_pyramid(events, line["boot"], line["seq"]) is None


def test_a_refused_release_its_record_cant_prove_is_set_aside_with_nothing_to_type(
        tmp_path, monkeypatch, capsys, refused):
    path, number, _ = _refused_damaged(tmp_path, refused, b'"reason":"double"',
                                       b'"reason":"doubel"')
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage")
    assert rc == 0, err
    assert ("line %d is damaged (checksum does not match): left out, set aside in %s.damaged; "
            "the %d lines after it are kept. It seems to hold a release the table refused "
            "(double): a refused release moves no camel, so there is nothing to type again"
            % (number, path, _later(refused, number))) in out.splitlines(), out
    assert [e for e in read_events(path) if e["type"] == "rejected"] == []


# --- a die whose value was keyed after it (a pyramid without value buttons) ---------------

@pytest.fixture(scope="module")
def keyed(tmp_path_factory):
    """The bytes of a real journal played against the virtual pyramid with no value
    buttons fitted: its die's record says ``val=?`` and a ``value`` line (the key the
    table pressed) follows it; then Ben's leg ticket."""
    from camelhost.device import virtual

    class NoValueButtons(virtual.VirtualPyramid):
        def __init__(self, *args, **kwargs):
            kwargs["value_buttons"] = False
            super().__init__(*args, **kwargs)

    return _journal_of(tmp_path_factory.mktemp("keyed"), ["pyramid", "release", "2", "leg blue"],
                       NoValueButtons)


def test_a_die_whose_value_was_keyed_after_it_is_put_back_from_its_record(
        tmp_path, monkeypatch, capsys, keyed):
    # such a die can't be typed again (a die typed has its value, and the value line
    # after it would no longer follow): its record, proven by the chain hash, puts it back
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(keyed)
    number, _, die = _die_line(keyed)
    assert die["value"] is None and "val=?" in die["raw"]
    path, data, _, _ = _damaged(tmp_path, keyed, '"colour":"%(colour)s"', '"colour":"pirple"')
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    assert err.startswith(
        "pyramid: %s: line %d is damaged (checksum does not match); nothing was changed (to "
        "resume with it read again from the pyramid's own record in it, which the next "
        "line's chain hash proves the line as written, keeping the lines after it and the "
        "line as it is in %s.damaged: pyramid play --resume %s --upto-damage --plain); the "
        "line reads: " % (path, number, path, path)), err
    assert "--retype" not in err
    with open(path, "rb") as fh:
        assert fh.read() == data
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage")
    assert rc == 0, err
    assert ("line %d is damaged (checksum does not match): left out, set aside in %s.damaged; "
            "the %d lines after it are kept. In its place: the die %s, read again from the "
            "pyramid's own record in it (its CRC checks); the next line's chain hash "
            "proves it is the line as written" % (number, path, _later(data, number),
                                                  die["colour"])) in out.splitlines(), out
    assert read_events(path) == read_events(str(whole))


def test_a_die_line_cut_off_by_a_crash_is_said_as_the_pyramids_record_in_it_reads(
        tmp_path, game, capsys):
    # a journal's keys are sorted, so a die line cut after its "raw" has lost its
    # "value": the pyramid's own record, whole and passing its CRC, still gives the die,
    # which is put back in its place (as a resume puts it back: tester s42-3 finding 3)
    number, lines, die = _die_line(game)
    line = lines[number - 1]
    cut = line.index(b'"source":') + 12
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines[:number - 1]) + line[:cut])
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == ("line %d was cut off when the program stopped (%d bytes): left out; %s "
                       "is unchanged. It held the die %s %d, which the pyramid's own record "
                       "in it reads whole (its CRC checks): put back in its place, as the "
                       "pyramid sent it" % (number, cut, path, die["colour"], die["value"]))


# --- the one line the next line's chain hash proves, suggested (tester s33-2 1, 2, 3, 13) --

def _damage_line(tmp_path, data, kind, old, new):
    """``g.jsonl`` in ``tmp_path``: ``data`` with ``old`` changed to ``new`` in the first
    line of type ``kind`` holding it (its checksum kept); ``(path, damaged bytes, line)``."""
    lines = data.splitlines(keepends=True)
    number = next(n for n, (line, event) in enumerate(zip(lines, _json_of(lines), strict=True), 1)
                  if event.get("type") == kind and old.encode() in line)
    lines[number - 1] = lines[number - 1].replace(old.encode(), new.encode())
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines))
    return str(path), path.read_bytes(), number


def _proven_suggestion(monkeypatch, capsys, path, data, number, held, typed):
    """The refusal of ``path`` names what the next line's chain hash proves line
    ``number`` held (``held``) and the ``--retype`` of it (``typed``); nothing changed.
    Following it keeps every line, the line proven as written."""
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    assert "\n" not in err.rstrip("\n")
    # the retype first (it restores every line), then resuming without it or up to it
    assert err.startswith(
        "pyramid: %s: line %d is damaged (checksum does not match); nothing was changed; the "
        "next line's chain hash proves it held %s: type it again in its place, keeping the "
        "lines after it: pyramid play --resume %s --upto-damage --retype %s --plain; or, to "
        "resume " % (path, number, held, path, shlex.quote(typed))), err
    with open(path, "rb") as fh:
        assert fh.read() == data
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                         "--retype", typed)
    assert rc == 0, err
    later = _later(data, number)
    assert ("line %d is damaged (checksum does not match): left out, set aside in %s.damaged; "
            "the %d %s after it %s kept. In its place: %s, typed again; the next line's "
            "chain hash proves it is the line as written"
            % (number, path, later, "line" if later == 1 else "lines",
               "is" if later == 1 else "are", held)) in out.splitlines(), out


def test_a_die_damaged_in_its_field_and_its_record_alike_is_offered_as_the_hash_proves(
        tmp_path, monkeypatch, capsys, game):
    # the tester's hand "fix": the value and the record's val= changed alike (the record's
    # CRC then fails): the die written is the one offered, never the damaged value
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(game)
    number, _, die = _die_line(game)
    wrong = _other(die["value"])
    lines = game.splitlines(keepends=True)
    lines[number - 1] = lines[number - 1].replace(
        b'"value":%d}' % die["value"], b'"value":%d}' % wrong).replace(
        b"val=%d " % die["value"], b"val=%d " % wrong)
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines))
    data = path.read_bytes()
    assert data != game
    # the damaged value, given once: the chain hash proves another die; nothing changed
    rc, _, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path), "--upto-damage",
                       "--retype", "%s %d" % (die["colour"], wrong))
    assert rc != 0
    assert err.rstrip("\n") == (
        "pyramid: %s: --retype for line %d: the next line's chain hash proves it held the die "
        "%s %d, not the die %s %d; nothing was changed (if that is what happened at the "
        "table, give the same --retype twice to confirm it)"
        % (path, number, die["colour"], die["value"], die["colour"], wrong))
    assert path.read_bytes() == data and not (tmp_path / "g.jsonl.damaged").exists()
    truth = "%s %d" % (die["colour"], die["value"])
    _proven_suggestion(monkeypatch, capsys, str(path), data, number, "the die " + truth, truth)
    # the game is the one played: the die as the pyramid sent it, its record kept
    assert read_events(str(path)) == read_events(str(whole))


def test_a_leg_ticket_with_its_colour_damaged_is_offered_as_the_hash_proves(
        tmp_path, monkeypatch, capsys, game):
    path, data, number = _damage_line(tmp_path, game, "action", "leg blue", "leg bluf")
    _proven_suggestion(monkeypatch, capsys, path, data, number, "Ben's action 'leg blue'",
                       "leg blue")


def test_a_pyramid_ticket_with_its_player_damaged_is_offered_as_the_hash_proves(
        tmp_path, monkeypatch, capsys, game):
    path, data, number = _damage_line(tmp_path, game, "pyramid", '"player":0', '"player":2')
    _proven_suggestion(monkeypatch, capsys, path, data, number, "Ann's pyramid ticket",
                       "pyramid")


def test_a_value_pressed_for_a_die_damaged_is_offered_as_the_hash_proves(
        tmp_path, monkeypatch, capsys, keyed):
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(keyed)
    path, data, number = _damage_line(tmp_path, keyed, "value", '"value":2', '"value":3')
    _, _, die = _die_line(keyed)
    _proven_suggestion(monkeypatch, capsys, path, data, number,
                       "the value 2 pressed for the %s die" % die["colour"], "2")
    assert read_events(path) == read_events(str(whole))


def test_a_retype_the_chain_hash_contradicts_is_refused_on_one_word(
        tmp_path, monkeypatch, capsys, game):
    # no candidate proven (Ben's leg ticket now reads a finish card, whose colour is never
    # tried): a retype the next line's chain hash does not match, even one that agrees
    # with what the damaged line still reads, is taken only when given twice
    path, data, number = _damage_line(tmp_path, game, "action", '"action":"leg blue"',
                                      '"action":"finish winner blue"')
    rc, _, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                       "--retype", "win blue")
    assert rc != 0
    assert err.rstrip("\n") == (
        "pyramid: %s: --retype for line %d: Ben's finish card can't be the line as "
        "written (the next line's chain hash does not match it); nothing was changed (if "
        "that is what happened at the table, give the same --retype twice to confirm it)"
        % (path, number))
    with open(path, "rb") as fh:
        assert fh.read() == data
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                         "--retype", "win blue", "--retype", "win blue")
    assert rc == 0, err
    assert "In its place: Ben's finish card, typed again; that it is the line as " \
        "written can't be proven (the next line's chain hash does not match it)" in out, out


def test_a_die_line_with_its_type_damaged_is_offered_as_the_hash_proves(
        tmp_path, monkeypatch, capsys, game):
    # "type":"dle": the line is tried as each kind of line the table journals
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(game)
    _, _, die = _die_line(game)
    path, data, number = _damage_line(tmp_path, game, "die", '"type":"die"', '"type":"dle"')
    truth = "%s %d" % (die["colour"], die["value"])
    _proven_suggestion(monkeypatch, capsys, path, data, number, "the die " + truth, truth)
    assert read_events(path) == read_events(str(whole))


def test_a_value_pressed_whose_value_no_longer_reads_offers_its_retype_and_wants_it_bare(
        tmp_path, monkeypatch, capsys, keyed):
    # s33 tester 2, finding 3: only --upto-damage was offered (setting aside the rest of
    # the game), and --retype 'purple 2' was answered with the table's key prompt
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(keyed)
    _, _, die = _die_line(keyed)
    path, data, number = _damage_line(tmp_path, keyed, "value", '"value":2', '"valeu":2')
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    assert ("; type again in its place the value pressed for the %s die (1, 2 or 3 alone), "
            "keeping the lines after it (correct it if the damage is in it): pyramid play "
            "--resume %s --upto-damage --retype VALUE --plain; or, to resume "
            % (die["colour"], path)) in err, err
    with open(path, "rb") as fh:
        assert fh.read() == data
    rc, _, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                       "--retype", "%s 2" % die["colour"])
    assert rc != 0
    assert err.rstrip("\n") == (
        "pyramid: %s: --retype for line %d: the line before it is the %s die, read without "
        "its value, so the damaged line held the value pressed for it: give that value "
        "alone, 1, 2 or 3 (--retype 2); nothing was changed" % (path, number, die["colour"]))
    with open(path, "rb") as fh:
        assert fh.read() == data
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                         "--retype", "2")
    assert rc == 0, err
    assert ("In its place: the value 2 pressed for the %s die, typed again; the next line's "
            "chain hash proves it is the line as written" % die["colour"]) in out, out
    assert read_events(path) == read_events(str(whole))


def test_upto_damage_alone_says_what_the_chain_hash_proves_not_the_damaged_field(
        tmp_path, monkeypatch, capsys, game):
    # s33 tester 2, finding 2: the note named the damaged player ("It seems to hold
    # Cy's pyramid ticket"), though the next line's chain hash proves it was Ann's
    path, _, number = _damage_line(tmp_path, game, "pyramid", '"player":0', '"player":2')
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage")
    assert rc == 0, err
    note = next(line for line in out.splitlines() if line.startswith("line %d " % number))
    # the lines after it were kept: the game went on without it, nothing to type (s37
    # tester 2: "type it again" there gave the ticket to whoever's turn it was)
    assert note.endswith(". The next line's chain hash proves it held Ann's pyramid ticket; "
                         "the game goes on without it (the lines after it apply without it "
                         "and are kept)"), note
    assert "Cy" not in note


def _last_die_damaged(tmp_path, game):
    """``g.jsonl`` in ``tmp_path``: the ``game`` journal whose whole last line (the die
    the virtual pyramid released for Cy's pyramid ticket) is damaged outside the
    pyramid's own record (``"n":`` made ``"n" :``, its CRC kept: it no longer matches);
    ``(path, damaged bytes, its line number, the die as written)``."""
    import json
    lines = game.splitlines(keepends=True)
    die = json.loads(lines[-1].rstrip(b"\n")[:-9])
    assert die["type"] == "die" and die["source"] == "pyramid"
    assert json.loads(lines[-2].rstrip(b"\n")[:-9])["type"] == "pyramid"
    lines[-1] = lines[-1].replace(b'"n":', b'"n" :')
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines))
    return str(path), path.read_bytes(), len(lines), die


def test_a_damaged_last_line_names_the_die_its_record_reads_and_takes_its_retype(
        tmp_path, monkeypatch, capsys, game):
    # s41 tester item 3: the die a damaged last line held was neither said nor retypable
    path, data, number, die = _last_die_damaged(tmp_path, game)
    typed = "%s %d" % (die["colour"], die["value"])
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    err = err.rstrip("\n")
    assert err.startswith("pyramid: %s: line %d is damaged (checksum does not match); "
                          "nothing was changed" % (path, number)), err
    assert ("; type again in its place the die the pyramid sent, as its own record in the "
            "line reads it (its CRC checks): pyramid play --resume %s --upto-damage --retype "
            "'%s' --plain; or, to resume up to it, moving it to %s.damaged: pyramid play "
            "--resume %s --upto-damage --plain" % (path, typed, path, path)) in err, err
    assert "\n" not in err
    with open(path, "rb") as fh:
        assert fh.read() == data
    # a die the record does not read is refused, nothing changed
    rc, _, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                       "--retype", "%s %d" % (die["colour"], _other(die["value"])))
    assert rc != 0 and ("the pyramid's own record in the damaged line (its CRC checks) "
                        "reads the die %s, not the die %s %d" % (typed, die["colour"],
                                                                 _other(die["value"]))) in err
    with open(path, "rb") as fh:
        assert fh.read() == data
    # the die it reads goes back in its place, as the pyramid sent it
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                         "--retype", typed)
    assert rc == 0, err
    assert ("line %d, the last line, is damaged (checksum does not match): left out, set "
            "aside in %s.damaged. In its place: the die %s, as the pyramid sent it (its own "
            "record in the line reads it and passes its CRC check), given again with --retype"
            % (number, path, typed)) in out.splitlines(), out
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(game)
    assert read_events(path) == read_events(str(whole))  # the die, its record, boot, seq
    # nothing destroyed: the damaged line as it was, in FILE.damaged
    assert data.splitlines()[-1] in open(path + ".damaged", "rb").read().splitlines()
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path)  # resumes plainly
    assert rc == 0 and "is damaged" not in out + err, out + err


def test_upto_damage_alone_names_the_die_a_damaged_last_line_held(
        tmp_path, monkeypatch, capsys, game):
    path, _, number, die = _last_die_damaged(tmp_path, game)
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage")
    assert rc == 0, err
    assert ("resumed up to the damaged line %d; it and the rest are kept in %s.damaged. The "
            "pyramid's own record in it (its CRC checks) reads the die %s %d: type it again "
            "as it reads" % (number, path, die["colour"], die["value"])) in out.splitlines(), out


@pytest.mark.parametrize("old, new", [
    ('"raw":"EVT', '"raw":EVT'),  # the quote before the record lost: raw reads no JSON
    ('"raw":"EVT', 'raw":"EVT'),  # its key's quote lost
    ('"raw":"EVT', '"rAw":"EVT'),  # its key damaged
    ('"type":"die"', '"type:"die"'),  # the type key's quote lost (tester s42-3 finding 4)
    ('"type":"die"', '"tYpe":"die"')])  # the type key damaged: no other kind reads so
def test_a_die_line_whose_raw_field_no_longer_reads_is_read_by_the_record_in_its_bytes(
        tmp_path, monkeypatch, capsys, game, old, new):
    # s42 task 2: the record is found in the line's bytes by its own strict format and
    # its CRC; the die it reads is named and its --retype taken as the pyramid sent it
    number, _, die = _die_line(game)
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(game)
    path, data, _, _ = _damaged(tmp_path, game, old, new)
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    assert ("; type again in its place the die the pyramid sent, as its own record in the "
            "line reads it (its CRC checks), keeping the lines after it: pyramid play --resume "
            "%s --upto-damage --retype '%s %d' --plain; or, "
            % (path, die["colour"], die["value"])) in err, err
    with open(path, "rb") as fh:
        assert fh.read() == data
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                         "--retype", "%s %d" % (die["colour"], die["value"]))
    assert rc == 0, err
    assert ("In its place: the die %s %d, as the pyramid sent it (its own record in the line "
            "reads it and passes its CRC check), given again with --retype"
            % (die["colour"], die["value"])) in out, out
    assert read_events(path) == read_events(str(whole))  # its raw, boot and seq kept


def test_a_record_found_in_a_damaged_lines_bytes_must_pass_its_crc(
        tmp_path, monkeypatch, capsys, game):
    # the quote lost and a digit of the record's own CRC changed: no record proves the
    # die, so none is said to be the pyramid's
    number, lines, die = _die_line(game)
    crc = lines[number - 1].split(b'"raw":"')[1].split(b'"')[0][-8:].decode()
    wrong = crc[:-1] + ("0" if crc[-1] != "0" else "1")
    path, _, _, _ = _damaged(tmp_path, game, '"raw":"EVT', '"raw":EVT')
    data = open(path, "rb").read().replace(("*%s\"" % crc).encode(), ("*%s\"" % wrong).encode())
    open(path, "wb").write(data)
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    assert "the die the pyramid sent, as its own record" not in err, err


def test_a_typed_die_the_chain_cant_prove_is_said_unproven_not_impossible(
        tmp_path, monkeypatch, capsys, game):
    # tester s42-3 finding 4: no record proves the die (its CRC changed too), and the die
    # typed again lacks what the line held besides (its record): the chain hash can't
    # prove it, which does not say it is wrong
    number, lines, die = _die_line(game)
    crc = lines[number - 1].split(b'"raw":"')[1].split(b'"')[0][-8:].decode()
    wrong = crc[:-1] + ("0" if crc[-1] != "0" else "1")
    path, _, _, _ = _damaged(tmp_path, game, '"raw":"EVT', '"raw":EVT')
    data = open(path, "rb").read().replace(("*%s\"" % crc).encode(), ("*%s\"" % wrong).encode())
    open(path, "wb").write(data)
    typed = "%s %d" % (die["colour"], die["value"])
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path, "--upto-damage",
                       "--retype", typed)
    assert rc != 0
    assert ("--retype for line %d: the die %s can't be proven the line as written (the next "
            "line's chain hash does not match it); nothing was changed" % (number, typed)
            ) in err, err
    with open(path, "rb") as fh:
        assert fh.read() == data
