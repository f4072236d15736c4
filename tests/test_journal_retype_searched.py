"""A damaged line of a player's action is searched for what it held whatever its kind (s41
tester 9): a partnership, a spectator tile and a finish card, like a leg ticket, are
proven by the next line's chain hash, and the refusal never offers a ``--retype`` the
table itself would refuse."""

import pytest
from camelhost import cli
from camelhost.commands.play import _retyped
from camelhost.table.journal import Journal, JournalError, read_events
from camelhost.table.session import Session
from test_journal_recover import SETUP, _damage, _two_races

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]  # partnerships need 6-8 (RULES 3.8)
COMMANDS = (SETUP, "leg red", "pyramid", "purple 2", "partner Ann", "tile 8 -", "pyramid",
            "green 1", "win red", "leg blue", "pyramid", "red 3")


def _game(path, notes=None):
    """A real journal of a six-player second-edition game (``COMMANDS``): its lines, and
    its events. ``notes``: an action's text whose line gets an extra field ``note``."""
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", PLAYERS, seed=4, journal=journal)
    for text in COMMANDS:
        s.command(text)
    journal.close()
    whole = read_events(str(path))
    if notes is not None:  # the same game, one line holding a field the table never writes
        path.unlink()
        journal = Journal(str(path))
        for event in whole:
            journal.append(dict(event, note="x") if event.get("action") == notes else event)
        journal.close()
    return path.read_bytes().splitlines(keepends=True), whole


def _damaged(path, holding, old, new, notes=None):
    """The game's journal at ``path`` with ``old`` changed to ``new`` in the line that
    holds ``holding``, its checksum kept: its bytes, the line's number, the game's events."""
    lines, whole = _game(path, notes)
    line = next(i for i, x in enumerate(lines, 1) if holding in x)
    _damage(lines, line, old, new)
    data = b"".join(lines)
    path.write_bytes(data)
    return data, line, whole


def _refusal(path):
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), check=Session.stale_line, options=["--plain"])
    return str(refused.value)


def _retype(path, data, *typed):
    """Resume the journal (its bytes ``data`` written back) with ``typed`` given again in
    the damaged line's place: the journal, or the refusal's words."""
    path.write_bytes(data)
    for side in path.parent.glob("*.damaged"):
        side.unlink()
    try:
        return Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                              retype=_retyped(list(typed) if len(typed) > 1 else typed[0]))
    except JournalError as exc:
        return str(exc)


@pytest.mark.parametrize("holding, old, new, held, typed", [
    # Cy partnered Ann (seat 0); the damage names Cy's own seat, which the table refuses
    (b'"partner 0"', b'"partner 0"', b'"partner 2"', "Cy's action 'partner Ann'",
     "partner Ann"),
    (b'"partner 0"', b'"partner 0"', b'"partner 1"', "Cy's action 'partner Ann'",
     "partner Ann"),
    # Dee's tile, its side damaged: the other side is as valid a line
    (b'"tile 8 -"', b'"tile 8 -"', b'"tile 8 +"', "Dee's action 'tile 8 -'", "tile 8 -"),
    (b'"tile 8 -"', b'"tile 8 -"', b'"tile 3 -"', "Dee's action 'tile 8 -'", "tile 8 -"),
    # the action's kind itself damaged: every action of every kind is tried
    (b'"tile 8 -"', b'"tile 8 -"', b'"tyle 8 -"', "Dee's action 'tile 8 -'", "tile 8 -"),
    # a field's name damaged: the action as the table writes it
    (b'"partner 0"', b'"player":2', b'"plyer":2', "Cy's action 'partner Ann'", "partner Ann"),
    # the line's type damaged into another kind: a pyramid ticket read as an action
    (b'"type":"pyramid"', b'"type":"pyramid"', b'"type":"action"', "Ben's pyramid ticket",
     "pyramid"),
])
def test_the_refusal_offers_the_line_the_next_lines_chain_hash_proves(
        tmp_path, holding, old, new, held, typed):
    path = tmp_path / "g.jsonl"
    data, line, whole = _damaged(path, holding, old, new)
    _proven_and_taken(path, data, line, whole, held, typed)


def test_the_tester_s_command_line_offers_the_partner_the_hash_proves(tmp_path, capsys):
    path = tmp_path / "p1.jsonl"
    data, line, whole = _damaged(path, b'"partner 0"', b'"partner 0"', b'"partner 1"')
    assert cli.main(["play", "--resume", str(path), "--plain"]) != 0
    err = capsys.readouterr().err
    assert "--retype 'partner Ann' --plain" in err, err
    assert "partner Ben" not in err  # the damaged text, which the table would refuse
    assert path.read_bytes() == data
    # the damaged text typed again is refused as what the chain hash proves it is not
    said = _retype(path, data, "partner Ben")
    assert said == ("%s: --retype for line %d: the next line's chain hash proves it held "
                    "Cy's action 'partner Ann', not Cy's action 'partner Ben'; nothing was "
                    "changed (if that is what happened at the table, give the same --retype "
                    "twice to confirm it)" % (path, line))


def test_a_finish_cards_colour_is_proven_and_never_said(tmp_path):
    path = tmp_path / "g.jsonl"
    data, line, whole = _damaged(path, b'"finish winner red"', b'"finish winner red"',
                                 b'"finish loser blue"')
    said = _refusal(path)
    # its pile and its player as the chain hash proves them, its colour never said
    assert ("nothing was changed; if Fay can say that finish card again, type it in its "
            "place, keeping the lines after it (its colour is not said here: the card lies "
            "face down): pyramid play --resume %s --upto-damage --retype 'win COLOUR' --plain"
            % path) in said, said
    assert "red" not in said.replace(str(path), "") and "blue" not in said
    refused = _retype(path, data, "lose blue")
    assert refused == ("%s: --retype for line %d: the next line's chain hash proves it held "
                       "Fay's finish card, but not the one typed (which card is not said here: "
                       "it lies face down); nothing was changed (if that is what happened at "
                       "the table, give the same --retype twice to confirm it)" % (path, line))
    j = _retype(path, data, "win red")
    assert j.events == whole
    note, = j.notes
    assert note.endswith("In its place: Fay's finish card, typed again; the next line's chain "
                         "hash proves it is the line as written"), note
    assert "red" not in note.replace(str(path), "")
    j.close()


def test_a_line_no_action_is_proven_for_offers_no_retype_the_table_would_refuse(tmp_path):
    # two things damaged: the partner's seat and a field the search keeps as it reads
    path = tmp_path / "g.jsonl"
    data, line, whole = _damaged(path, b'"partner 0"', b'"partner 0"', b'"partner 1"',
                                 notes="partner 0")
    lines = data.splitlines(keepends=True)
    _damage(lines, line, b'"note":"x"', b'"note":"y"')
    data = b"".join(lines)
    path.write_bytes(data)
    said = _refusal(path)
    assert ("; the next line's chain hash matches none of the actions and pyramid tickets it "
            "could have held (each of them, for every player: the damage may be in more than "
            "one place), so typing it again as it reads would be refused; type what it held "
            "again in its place, keeping the lines after it: pyramid play --resume %s "
            "--upto-damage --retype COMMAND --plain; or, " % path) in said, said
    assert "--retype 'partner Ben'" not in said
    assert path.read_bytes() == data


def _retyped_game(path, lines, line, old, new):
    """``lines`` written to ``path`` with ``old`` changed to ``new`` in line ``line``, its
    checksum kept: the bytes."""
    _damage(lines, line, old, new)
    data = b"".join(lines)
    path.write_bytes(data)
    return data


def _proven_and_taken(path, data, line, whole, held, typed):
    """The refusal of ``path`` (its line ``line`` damaged) names ``held`` as proven and
    offers ``--retype typed``, the file unchanged; that retype is then taken at once,
    every line kept (``whole`` the game's events) and the note saying it is proven."""
    said = _refusal(path)
    assert ("line %d is damaged (checksum does not match); nothing was changed; the next "
            "line's chain hash proves it held %s: type it again in its place, keeping the "
            "lines after it: pyramid play --resume %s --upto-damage --retype %s --plain; or, "
            % (line, held, path, typed if " " not in typed else "'%s'" % typed)) in said, said
    assert path.read_bytes() == data
    j = _retype(path, data, typed)
    assert not isinstance(j, str), j
    assert j.events == whole
    note, = j.notes
    assert note.endswith("In its place: %s, typed again; the next line's chain hash proves "
                         "it is the line as written" % held), note
    j.close()


def test_an_undo_whose_count_of_steps_is_damaged_is_proven(tmp_path):
    from test_journal_recover import _game as three_players
    path = tmp_path / "g.jsonl"
    lines = three_players(path, ("leg red", "pyramid", "purple 2", "tile 8 -", "undo",
                                 "tile 8 +", "pyramid", "green 1"))
    whole = read_events(str(path))
    line = next(i for i, x in enumerate(lines, 1) if b'"type":"undo"' in x)
    data = _retyped_game(path, lines, line, b'"type":"undo"', b'"steps":3,"type":"undo"')
    _proven_and_taken(path, data, line, whole, "an undo", "undo")


def test_the_grey_dies_ink_keyed_is_proven(tmp_path):
    from test_journal_recover import _game as three_players
    path = tmp_path / "g.jsonl"
    three_players(path, ("leg red", "pyramid"))
    whole = read_events(str(path))
    path.unlink()
    # the pyramid could not tell the grey die's numerals apart; white was keyed for it
    whole += [{"type": "die", "colour": "grey", "ink": None, "value": 2, "raw": "EVT 3",
               "boot": "0000ABCD", "seq": 3, "source": "pyramid", "best": "grey-black"},
              {"type": "ink", "ink": "white"}, {"type": "action", "player": 2,
                                                "action": "leg blue"}]
    journal = Journal(str(path))
    for event in whole:
        journal.append(event)
    journal.close()
    lines = path.read_bytes().splitlines(keepends=True)
    line = next(i for i, x in enumerate(lines, 1) if b'"type":"ink"' in x)
    data = _retyped_game(path, lines, line, b'"ink":"white"', b'"ink":"black"')
    _proven_and_taken(path, data, line, whole,
                      "the numeral colour white keyed for the grey die", "white")


def test_another_race_whose_start_marker_is_damaged_is_proven(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = _two_races(path)
    whole = read_events(str(path))
    line = next(i for i, x in enumerate(lines, 1) if b'"type":"race"' in x)
    start = whole[line - 1]["start"]  # the seat the start marker passed to
    data = _retyped_game(path, lines, line, b'"start":%d' % start,
                         b'"start":%d' % ((start + 1) % 3))
    _proven_and_taken(path, data, line, whole, "another race", "again")
