"""A last line cut off when the program stopped that held a die from the pyramid whose
own wire record (``EVT ...*CRC``) was written whole before the cut (tester s42-3 finding
3): the record, passing its CRC, is what the pyramid sent and the table took, so the die
is put back in its place on the resume (the line's bytes kept in ``FILE.damaged``).
Left out, a bot's pyramid ticket would wait for a die and the virtual pyramid release
another one at once, before anyone could type the lost one again. A real game against
the virtual pyramid (the firmware on the simulated sensor), resumed through
``pyramid play``."""

import json

import pytest
import set_aside
from camelhost import cli
from camelhost.table.journal import read_events

pytestmark = pytest.mark.hil

GAME = ["play", "--plain", "--pyramid", "virtual", "--players", "Ann,Ben,Cy", "--bots",
        "Ben,Cy", "--seed", "11"]


def _play(monkeypatch, capsys, lines, *argv):
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in lines))
    rc = cli.main(GAME[:2] + list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The lines of a real journal (bytes each, newline kept): Ann takes pyramid tickets
    and releases their dice, the bots Ben and Cy play theirs (seeded)."""
    path = tmp_path_factory.mktemp("torn") / "g.jsonl"
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr("sys.stdin", iter(["pyramid\n", "release\n"] * 8 + ["quit\n"]))
        assert cli.main(GAME + ["--journal", str(path)]) == 0
    finally:
        mp.undo()
    return path.read_bytes().splitlines(keepends=True)


def _bot_die(lines, seat=2):
    """The number of the first line holding a die the pyramid released for the pyramid
    ticket of ``seat`` (2: Cy's, a bot's), and that die's event."""
    events = [json.loads(line.rstrip(b"\n")[:-9]) for line in lines]
    for number, (ticket, die) in enumerate(zip(events, events[1:], strict=False), 2):
        if (ticket.get("type") == "pyramid" and ticket.get("player") == seat
                and die.get("type") == "die" and die.get("source") == "pyramid"):
            return number, die
    raise AssertionError("no pyramid ticket of seat %d in the game" % seat)


def _says_the_die_put_back(out, number, data, path, die):
    """``out`` says the cut last line ``number`` of ``data`` (the file at ``path``) held
    ``die`` and that the die is back from the pyramid's own record."""
    said = " ".join(str(die[k]) for k in ("colour", "ink", "value") if die.get(k) is not None)
    assert ("line %d was cut off when the program stopped (%d bytes): left out, kept in "
            "%s.damaged. It held the die %s, which the pyramid's own record in it reads "
            "whole (its CRC checks): put back in its place, as the pyramid sent it"
            % (number, len(data.split(b"\n")[-1]), path, said)) in out, out


def _resumes_whole(monkeypatch, capsys, path):
    """The file at ``path``, once recovered, resumes with nothing cut or damaged."""
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path))
    assert rc == 0 and "cut off" not in out + err and "is damaged" not in out + err, out + err


def test_a_cut_last_line_whose_die_record_is_whole_is_put_back_before_the_bot_plays(
        tmp_path, monkeypatch, capsys, game):
    number, die = _bot_die(game)
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(game[:number]))
    path = tmp_path / "g.jsonl"
    data = b"".join(game[:number])[:-40]  # the cut takes its value and type, not its record
    assert ("EVT " in data.split(b"\n")[-1].decode() and b'"value"' not in
            data.split(b"\n")[-1])
    path.write_bytes(data)
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path))
    assert rc == 0, err
    _says_the_die_put_back(out, number, data, path, die)
    # the bot's ticket has its die: the virtual pyramid released no other for it
    assert "(Cy's pyramid ticket)" not in out.split("put back in its place")[-1], out
    assert read_events(str(path)) == read_events(str(whole))
    # nothing lost: the cut bytes are in FILE.damaged, as they were
    [(first, last, body)] = set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes())
    assert (first, last, body) == (number, number, data.split(b"\n")[-1])
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path))
    assert rc == 0 and "cut off" not in out + err, err


def test_a_repeated_line_and_a_cut_die_line_are_named_as_they_are_and_the_die_put_back(
        tmp_path, monkeypatch, capsys, game):
    # tester s42-3 finding 3, case C: a line repeated (sed -i '10p') besides: the refusal
    # names both as the file numbers them, the cut line as cut off with its die put back,
    # and --upto-damage leaves the repeat out and puts the die back
    number, die = _bot_die(game)
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(game[:number]))
    lines = game[:number]
    data = b"".join(lines[:10] + [lines[9]] + lines[10:])[:-40]
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path))
    assert rc == 1
    assert err.strip().endswith(
        "nothing was changed (to resume without them, setting aside alone in %s.damaged line "
        "11 (out of place), line %d (cut off, its die put back), keeping the game's other "
        "lines: pyramid play --resume %s --upto-damage --plain)" % (path, number + 1, path)), err
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path), "--upto-damage")
    assert rc == 0, err
    said = " ".join(str(die[k]) for k in ("colour", "ink", "value") if die.get(k) is not None)
    assert ("line %d was cut off when the program stopped (%d bytes): left out, kept in "
            "%s.damaged. It held the die %s, which the pyramid's own record" % (
                number + 1, len(data.split(b"\n")[-1]), path, said)) in out, out
    assert "(Cy's pyramid ticket)" not in out.split("put back in its place")[-1], out
    assert read_events(str(path)) == read_events(str(whole))
    [(first, last, body)] = set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes())
    assert (first, last) == (11, number + 1)
    assert path.read_bytes()[:len(b"".join(lines[:10]))] + body == data


def _first_die(lines):
    """The number of the first line holding a die from the pyramid, and that die's event."""
    for number, line in enumerate(lines, 1):
        event = json.loads(line.rstrip(b"\n")[:-9])
        if event.get("type") == "die" and event.get("source") == "pyramid":
            return number, event
    raise AssertionError("no die from the pyramid in the game")


def test_a_damaged_middle_line_and_a_cut_die_line_both_come_back(
        tmp_path, monkeypatch, capsys, game):
    # a die line in the middle damaged (a byte changed, its checksum kept) and the last
    # line cut: --upto-damage --retype types the middle one again and the cut line's die
    # comes back from its own record, as when the cut line is alone (journal43 item 1)
    number, die = _bot_die(game)
    middle, held = _first_die(game)
    assert middle < number - 2
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(game[:number]))
    lines = list(game[:number])
    lines[middle - 1] = lines[middle - 1].replace(b'"source":"pyramid"', b'"source":"pyramie"')
    data = b"".join(lines)[:-40]
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    typed = "%s %d" % (held["colour"] if held["colour"] != "grey" else "grey " + held["ink"],
                       held["value"])
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path),
                         "--upto-damage", "--retype", typed)
    assert rc == 0, err
    assert ("line %d is damaged (checksum does not match): left out, set aside in %s.damaged"
            % (middle, path)) in out, out
    _says_the_die_put_back(out, number, data, path, die)
    assert "(Cy's pyramid ticket)" not in out.split("put back in its place")[-1], out
    # every move the file holds is back, the middle line's die as the pyramid sent it
    assert read_events(str(path)) == read_events(str(whole))
    [(first, last, body)] = set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes())
    assert (first, last) == (middle, number)
    assert path.read_bytes()[:len(b"".join(lines[:middle - 1]))] + body == data
    _resumes_whole(monkeypatch, capsys, path)


def test_a_damaged_first_line_and_a_cut_die_line_rebuild_it_and_put_the_die_back(
        tmp_path, monkeypatch, capsys, game):
    # line 1 damaged (its checksum's last digit changed: the line still reads whole and
    # the next line's chain hash proves it) and the last line cut: the rebuild puts the
    # cut line's die back from its own record too (journal43 item 4)
    number, die = _bot_die(game)
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(game[:number]))
    lines = list(game[:number])
    first = lines[0].rstrip(b"\n")
    lines[0] = first[:-1] + (b"0" if first[-1:] != b"0" else b"1") + b"\n"
    data = b"".join(lines)[:-40]
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path), "--upto-damage")
    assert rc == 0, err
    assert "is rebuilt exactly as it was written" in out, out
    _says_the_die_put_back(out, number, data, path, die)
    assert "(Cy's pyramid ticket)" not in out.split("put back in its place")[-1], out
    assert read_events(str(path)) == read_events(str(whole))
    [(low, high, body)] = set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes())
    assert (low, high, body) == (1, number, data)  # the whole file, as it was
    _resumes_whole(monkeypatch, capsys, path)


def test_a_damaged_line_set_aside_alone_and_a_cut_die_line_say_what_each_becomes(
        tmp_path, monkeypatch, capsys, game):
    # the board line damaged (the lines after it apply without it) and the last line cut:
    # the refusal counts the lines kept and names the die put back, as the resume does
    number, die = _bot_die(game)
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(game[:number]))
    lines = list(game[:number])
    board = next(n for n, line in enumerate(lines, 1) if b'"type":"board"' in line)
    lines[board - 1] = lines[board - 1].replace(b'"fw":"', b'"fw":"9')
    data = b"".join(lines)[:-40]
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path))
    assert rc == 1 and path.read_bytes() == data
    assert ("line %d is damaged (checksum does not match); nothing was changed (to resume "
            "without it, setting it aside alone in %s.damaged and keeping the %d lines after "
            "it, and putting back the die of line %d, cut off when the program stopped: "
            "pyramid play --resume %s --upto-damage --plain)" % (
                board, path, number - board - 1, number, path)) in err, err
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path), "--upto-damage")
    assert rc == 0, err
    assert "the %d lines after it are kept" % (number - board - 1) in out, out
    assert "put back in its place, as the pyramid sent it" in out, out
    assert "(Cy's pyramid ticket)" not in out.split("put back in its place")[-1], out
    board_event = json.loads(game[board - 1].rstrip(b"\n")[:-9])
    assert read_events(str(path)) == [e for e in read_events(str(whole))
                                      if e.get("type") != "board"], board_event


def test_a_damaged_line_right_before_a_cut_die_line_is_typed_again_and_the_die_put_back(
        tmp_path, monkeypatch, capsys, game):
    # Ann's pyramid ticket damaged (its checksum's last digit changed) and the die line
    # after it, the last, cut: --retype puts the ticket back and the die comes back from
    # its own record; the retype was dropped without a word and the read stopped before
    # the ticket (journal43 item 1)
    number, _die = _bot_die(game, seat=0)  # Ann's
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(game[:number]))
    lines = list(game[:number])
    ticket = lines[number - 2].rstrip(b"\n")
    lines[number - 2] = ticket[:-1] + (b"0" if ticket[-1:] != b"0" else b"1") + b"\n"
    data = b"".join(lines)[:-40]
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path),
                         "--upto-damage", "--retype", "pyramid")
    assert rc == 0, err
    assert ("line %d is damaged (checksum does not match): left out, set aside in %s.damaged. "
            "In its place: Ann's pyramid ticket, typed again" % (number - 1, path)) in out, out
    assert "put back in its place, as the pyramid sent it" in out, out
    # every move back (the bots then played on before the quit was read)
    restored = read_events(str(path))[:number]
    assert restored == read_events(str(whole))
    [(first, last, body)] = set_aside.batches((tmp_path / "g.jsonl.damaged").read_bytes())
    assert (first, last) == (number - 1, number) and data.endswith(body)
    _resumes_whole(monkeypatch, capsys, path)
