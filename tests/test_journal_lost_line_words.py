"""What a replay and a resume tell a table about a journal line lost to damage or a crash
(s37 player tester findings 2 and 10): a replay takes no input, so where the line can be
typed again in its place it names the ``--retype`` command (a pyramid ticket, a die as the
pyramid's own record reads it), and never says "type it again"; a ``board`` line moves no
camel, so nothing needs typing (and a refusal has no dangling "or"); a resume that kept the
lines after a line set aside says the game went on without it; a bot's move cut off by a
crash is played again by the bot, so no one is told to type it (which would play it for the
next person), and a person's cut-off move is typed again on their turn, named.
Journals written by a real game against the virtual pyramid (seed 4; Ben a bot), then
damaged here, read through ``pyramid replay`` and ``pyramid play --resume``."""

import json
import shlex

import pytest
from camelhost import cli

pytestmark = pytest.mark.hil


def _play(monkeypatch, capsys, lines, *argv):
    """``pyramid play --plain ARGV`` with ``lines`` typed: ``(rc, stdout, stderr)``."""
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in lines))
    rc = cli.main(["play", "--plain"] + list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The lines of a real journal: the drawn setup, the board line, Ann's pyramid ticket
    and its die, Ben's (a bot) leg ticket, Cy's, Ann's pyramid ticket and its die, and
    last Ben's leg ticket."""
    path = str(tmp_path_factory.mktemp("lost") / "g.jsonl")
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr("sys.stdin", iter(line + "\n" for line in
                                     ["pyramid", "release", "leg blue", "pyramid", "release",
                                      "quit"]))
        assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--bots", "Ben",
                         "--pyramid", "virtual", "--seed", "4", "--journal", path]) == 0
    finally:
        mp.undo()
    with open(path, "rb") as fh:
        return fh.read().splitlines(keepends=True)


def _kinds(lines):
    return [json.loads(line.rstrip(b"\n")[:-9]) for line in lines]


def _line_of(lines, kind):
    """The number of the first line of ``kind`` (its ``type``)."""
    return next(n for n, e in enumerate(_kinds(lines), 1) if e["type"] == kind)


def _damaged(tmp_path, lines, number):
    """``g.jsonl`` in ``tmp_path``: ``lines`` with line ``number``'s checksum spoilt."""
    lines = list(lines)
    lines[number - 1] = lines[number - 1].rstrip(b"\n")[:-3] + b"XYZ\n"
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines))
    return str(path)


def _replay_note(capsys, path):
    assert cli.main(["replay", path]) == 0
    return capsys.readouterr().out.splitlines()[-1]


def test_a_replay_names_the_retype_for_a_pyramid_ticket_set_aside_and_it_works(
        tmp_path, capsys, monkeypatch, game):
    number = _line_of(game, "pyramid")
    path = _damaged(tmp_path, game, number)
    before = open(path, "rb").read()
    note = _replay_note(capsys, path)
    command = "pyramid play --resume %s --upto-damage --retype pyramid" % shlex.quote(path)
    assert note.endswith(". The next line's chain hash proves it held Ann's pyramid ticket: "
                         "to go on with it typed again in its place: " + command), note
    assert "type it again" not in note
    assert open(path, "rb").read() == before
    rc, out, err = _play(monkeypatch, capsys, ["quit"], *shlex.split(command)[2:])
    assert rc == 0, err
    assert "In its place: Ann's pyramid ticket, typed again; the next line's chain hash proves it is the line as written" in out


def test_upto_damage_that_keeps_the_lines_after_says_the_game_went_on_without_it(
        tmp_path, capsys, monkeypatch, game):
    number = _line_of(game, "pyramid")
    path = _damaged(tmp_path, game, number)
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage")
    assert rc == 0, err
    note = next(x for x in out.splitlines() if x.startswith("line %d is damaged" % number))
    assert note.endswith("proves it held Ann's pyramid ticket; the game goes on without it "
                         "(the lines after it apply without it and are kept)"), note


def test_a_replay_names_the_retype_for_a_die_as_the_pyramids_record_reads_it(
        tmp_path, capsys, game):
    number = _line_of(game, "die")
    die = _kinds(game)[number - 1]
    path = _damaged(tmp_path, game, number)
    note = _replay_note(capsys, path)
    typed = "%s %d" % (die["colour"], die["value"])
    assert note.endswith(". The pyramid's own record in it (its CRC checks) reads the die %s: "
                         "to go on with it typed again in its place: pyramid play --resume %s "
                         "--upto-damage --retype %s" % (typed, shlex.quote(path),
                                                        shlex.quote(typed))), note


def test_a_board_line_needs_no_typing_in_a_replay_a_refusal_or_a_resume(
        tmp_path, capsys, monkeypatch, game):
    number = _line_of(game, "board")
    path = _damaged(tmp_path, game, number)
    nothing = ("proves it held a 'board' line: it only names the pyramid the game began on "
               "and moves no camel, so nothing needs typing again")
    note = _replay_note(capsys, path)
    assert note.endswith(nothing) and "type it again" not in note, note
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path)
    assert rc != 0
    refusal = err.strip()
    assert refusal.endswith(nothing), refusal
    assert "; or," not in refusal  # no "or" without a first choice
    assert ("nothing was changed (to resume without it, setting it aside alone in %s.damaged"
            % path) in refusal
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage")
    assert rc == 0, err
    note = next(x for x in out.splitlines() if x.startswith("line %d is damaged" % number))
    assert note.endswith(nothing), note


def _torn(tmp_path, lines, cut):
    """``g.jsonl``: ``lines`` with the last ``cut`` bytes of the last line cut off."""
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines)[:-cut])
    return str(path)


def test_a_bots_move_cut_off_is_played_again_by_the_bot_not_typed(tmp_path, capsys,
                                                                   monkeypatch, game):
    last = _kinds(game)[-1]
    assert last == dict(last, type="action", player=1)  # Ben's, a bot's
    path = _torn(tmp_path, game, 40)
    note = _replay_note(capsys, path)
    assert note.endswith("It held Ben's action '%s', as far as it can be read: Ben (a bot) "
                         "plays again from there when the game is resumed: pyramid play "
                         "--resume %s" % (last["action"], shlex.quote(path))), note
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path)
    assert rc == 0, err
    out = out.splitlines()
    at = next(i for i, x in enumerate(out) if "was cut off" in x)
    assert out[at].endswith("It held Ben's action '%s', as far as it can be read: Ben (a bot) "
                            "plays again from here, nothing to type" % last["action"]), out[at]
    # and so he does, and the table then waits for the next person, Cy
    assert any(x.startswith("Ben takes the blue leg ticket") for x in out[at:])
    assert [x for x in out if x.startswith("> ")][-1].startswith("> Cy's turn")


def test_a_persons_move_cut_off_is_typed_again_on_their_turn_named(tmp_path, capsys,
                                                                   monkeypatch, game):
    number = [n for n, e in enumerate(_kinds(game), 1) if e["type"] == "pyramid"][1]
    path = _torn(tmp_path, game[:number], 30)  # Ann's second pyramid ticket, cut off
    note = _replay_note(capsys, path)
    assert note.endswith("It held Ann's pyramid ticket, as far as it can be read: if that "
                         "happened at the table, resume the game (pyramid play --resume %s) "
                         "and type it again on Ann's turn" % shlex.quote(path)), note
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path)
    assert rc == 0, err
    assert ("It held Ann's pyramid ticket, as far as it can be read: if that happened at the "
            "table, type it again for Ann, whose turn it is") in out
    assert [x for x in out.splitlines() if x.startswith("> ")][-1].startswith("> Ann's turn")
