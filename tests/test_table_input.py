"""What the table does with each kind of pyramid event and with table-level commands."""

import io

import pytest
from camelhost.device.events import DieEvent, SeqRange
from camelhost.table.controller import Table
from camelhost.table.errors import TableError
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


class FakePyramid:
    """Stands in for the virtual pyramid's controls; records what the table asked."""

    def __init__(self):
        self.calls = []

    def release(self):
        self.calls.append("release")

    def return_dice(self):
        self.calls.append("return")


def _table(pyramid=None, bots=()):
    out = io.StringIO()
    journal = Journal(None)
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, bots=bots, journal=journal)
    t = Table(s, PlainDisplay(out), pyramid=pyramid)
    t.start()
    t.line(SETUP)
    return t, out, journal


def _die(colour, value, seq, ink=None):
    return DieEvent("die", "B1", seq, "EVT %d DIE %s*0" % (seq, colour), colour=colour,
                    ink=ink, value=value)


def test_impossible_die_from_the_pyramid_is_flagged_and_not_applied():
    t, out, journal = _table()
    t.pyramid_event(_die("red", 2, 1))
    before = t.session.game.stacks
    t.pyramid_event(_die("red", 3, 2))  # red already out this leg (RULES 1.4)
    assert t.session.game.stacks == before
    text = out.getvalue()
    # that die stays out: taken out, the others left in (tester s33-2 finding 9)
    assert "TAKE THE RED DIE OUT OF THE PYRAMID (it came out this leg) AND RELEASE AGAIN" in text
    assert "RETURN THE DICE" not in text
    rejected = [e for e in journal.events if e["type"] == "rejected"]
    assert rejected and rejected[0]["raw"].startswith("EVT 2")
    assert t.session.phase == "die" and t.session.current == 1  # Ben's ticket still covers it
    t.pyramid_event(_die("blue", 1, 3))
    assert table_view(t.session, odds=False)["players"][1]["pyramid_tickets"] == 1


def test_double_nodie_unknown_ask_for_a_new_release():
    t, out, _ = _table()
    for seq, kind in enumerate(("double", "nodie", "unknown"), 1):
        t.pyramid_event(DieEvent(kind, "B1", seq, "EVT %d" % seq))
    text = out.getvalue()
    assert "two dice came out at once" in text and "no die came out" in text
    assert "colour could not be read" in text
    assert t.session.phase == "die" and t.session.current == 0
    assert t.session.game.pyramid_tickets_left == 5  # taken only when the die completes it


def test_gap_and_fault_ask_for_the_die_by_hand():
    t, out, journal = _table()
    t.pyramid_event(DieEvent("gap", "B1", 12, "", missing=SeqRange(12, 13)))
    t.pyramid_event(DieEvent("fault", "B1", 14, "EVT 14 FAULT code=eio*0", code="eio"))
    text = out.getvalue()
    assert "TYPE THE DIE BY HAND: the pyramid lost events 12, 13" in text
    assert ("TYPE THE DIE BY HAND: pyramid: sensor fault: its I2C bus failed during the read "
            "(the pyramid starts the sensor again); type the die by hand") in text
    # both kept for the resume (no die, nothing changed): the gap by its range's last seq
    assert journal.events[-2:] == [
        {"type": "rejected", "kind": "gap", "reason": "12, 13", "raw": "", "colour": None,
         "ink": None, "value": None, "boot": "B1", "seq": 13},
        {"type": "rejected", "kind": "fault", "reason": "eio", "raw": "EVT 14 FAULT code=eio*0",
         "colour": None, "ink": None, "value": None, "boot": "B1", "seq": 14}]
    assert t.session.last_pyramid_event == ("B1", 14)
    assert t.session.phase == "turn" and t.session.game.pyramid_tickets_left == 5
    t.line("green 1")  # typed instead
    assert t.session.game.stacks[2] == ["red", "green"]


@pytest.mark.slow
def test_bots_release_the_virtual_pyramid_and_dice_go_back_at_leg_end():
    pyramid = FakePyramid()
    t, out, _ = _table(pyramid=pyramid, bots=[1, 2])
    t.line("pyramid")  # Ann (a person) takes a ticket; nothing released for her
    assert pyramid.calls == []
    t.line("release")
    assert pyramid.calls == ["release"]
    dice = [("red", 1), ("blue", 2), ("green", 1), ("grey", 2), ("yellow", 1)]
    seq = 0
    while t.session.game.leg == 1:
        if t.session.phase == "die":
            colour, value = dice[seq]
            seq += 1
            t.pyramid_event(_die(colour, value, seq, ink="black" if colour == "grey" else None))
        else:
            t.line("pyramid")  # Ann again
            t.line("release")
    assert "return" in pyramid.calls
    assert "LEG 1 SCORED" in out.getvalue()


def test_table_commands_and_unknown_ones():
    t, out, _ = _table()
    t.line("help")
    t.line("show")
    t.line("release")
    t.line("flap 3")
    text = out.getvalue()
    assert "partner Ben" in text and "Pyramid tickets left: 5" in text
    assert "If the leg ended now: Ann +0, Ben +0, Cy +0" in text
    assert "no pyramid is attached (dice are typed): type the die, e.g. 'blue 2'" in text
    assert "! unknown command 'flap 3'" in text
    assert t.line("quit") is False


def test_virtual_pyramid_gets_back_the_dice_the_game_has_inside():
    import types
    pyramid = FakePyramid()
    pyramid.table = types.SimpleNamespace(inside=[], out=[])
    t, _, _ = _table(pyramid=pyramid)
    t.line("release")
    t.pyramid_event(_die("red", 2, 1))
    t.line("undo")  # players put the red die back in the pyramid
    t.line("release")
    assert sorted(pyramid.table.inside) == sorted(t.session.game.dice_in_pyramid())
    assert "red" in pyramid.table.inside


def test_undo_with_bots_after_a_player_takes_back_the_players_move_and_the_bots_replies(
        tmp_path):
    """Tester's finding: with bots seated after a person, each ``undo`` took back the
    last bot move and the bot played it again at once, so a person could never take
    their own move back. ``undo`` now takes back the person's last move with the bots'
    moves after it, in one step and one journal line: the table is back at that
    person's turn, the bots wait, a released die goes back into the virtual pyramid,
    and a resume gives the same table."""
    import types
    pyramid = FakePyramid()
    pyramid.table = types.SimpleNamespace(inside=[], out=[])
    out = io.StringIO()
    path = str(tmp_path / "bots.jsonl")
    s = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=21, bots=[2, 3],
                journal=Journal(path))
    t = Table(s, PlainDisplay(out), pyramid=pyramid)
    t.start()
    t.line(SETUP)
    t.line("leg red")  # Ann
    t.line("pyramid")  # Ben
    t.line("release")
    t.pyramid_event(_die("green", 2, 1))
    seq = 1
    while s.current in (2, 3):  # Cy and Dee (bots) play; their dice come out
        seq += 1
        die = [d for d in s.game.dice_in_pyramid() if d != "grey"][0]
        t.pyramid_event(_die(die, 1, seq))
    assert s.current == 0 and s.phase == "turn"  # Ann's turn again
    played = len(s.journal.events)
    t.line("undo")
    text = out.getvalue()
    assert "undone: Ben's pyramid ticket and its die green 2, and the bots' moves after it: Cy's" \
        in text
    assert "put the green" in text
    assert s.current == 1 and s.phase == "turn"  # back at Ben's turn; the bots wait
    assert len(s.journal.events) == played + 1 and s.journal.events[-1]["type"] == "undo"
    assert "green" in s.game.dice_in_pyramid()
    assert table_view(s, odds=False)["players"][1]["pyramid_tickets"] == 0
    t.line("undo")  # and then Ann's leg ticket
    assert s.current == 0 and table_view(s, odds=False)["players"][0]["leg_tickets"] == []
    t.line("release")  # the green die is back in the virtual pyramid
    assert "green" in pyramid.table.inside
    s.journal.close()
    again = Session.resume(Journal.resume(path))
    assert (again.current, again.phase, again.game.position()) == \
        (s.current, s.phase, s.game.position())


def test_help_lists_only_the_commands_the_attached_pyramid_takes():
    """Tester's finding: with the dice typed (``--pyramid manual``), ``help`` listed
    ``release`` and ``release two / release none``, which are refused there. Each
    pyramid's help lists what it takes: ``release`` with the virtual pyramid only."""
    helps = {}
    for kind, pyramid, manual in (("manual", None, True), ("real", None, False),
                                  ("virtual", FakePyramid(), None)):
        out = io.StringIO()
        t = Table(Session("second", ["Ann", "Ben", "Cy"], seed=9), PlainDisplay(out),
                  pyramid=pyramid, manual=manual)
        t.line("help")
        helps[kind] = out.getvalue()
    for kind in ("manual", "real"):
        assert "  release " not in helps[kind] and "release two" not in helps[kind]
        assert "pyramid            take a pyramid ticket" in helps[kind]
    assert "  release            push the virtual pyramid's slider" in helps["virtual"]
    assert "release two  release none" in helps["virtual"]
    # typed dice: no pyramid reports an unread grey die's ink or a die as '?'
    assert "b  w  again" not in helps["manual"] and "b  w  again" in helps["real"]
    assert "the next die typed completes it" in helps["manual"]
    assert "release" not in helps["manual"], helps["manual"]


def test_a_gap_of_unknown_count_and_another_tables_dice_are_not_journaled():
    t, out, journal = _table()
    before = len(journal.events)
    t.pyramid_event(DieEvent("gap", "B1", 5, "", missing=SeqRange(5, None)))
    t.pyramid_event(DieEvent("foreign", "B1", 6, "", missing=SeqRange(6, 7)))
    assert "the pyramid lost events 5 and after" in out.getvalue()
    assert len(journal.events) == before and t.session.last_pyramid_event is None
    with pytest.raises(TableError, match="only a sensor fault or a gap"):
        t.session.dieless(DieEvent("foreign", "B1", 6, "", missing=SeqRange(6, 7)))


def test_if_the_leg_ended_now_applies_the_zero_floor_as_leg_scoring_does():
    # purple 1st, yellow 2nd: Ann's four tickets on red, green and blue lose 1 each
    # (RULES 1.10), 4 coins from her 3: she would lose 3, 1 forgiven (RULES 1.9)
    t, out, _ = _table()
    for line in ("leg blue", "leg purple", "leg purple", "leg green", "leg yellow",
                 "leg yellow", "leg red", "leg purple", "leg yellow", "leg blue"):
        t.line(line)
    t.line("show")
    assert "If the leg ended now: Ann -3 (1 coin forgiven), Ben +8, Cy +5" in out.getvalue()
    now = {row["name"]: row for row in table_view(t.session, odds=False)["leg_now"]}
    assert (now["Ann"]["net"], now["Ann"]["forgiven"]) == (-3, 1)
    assert (now["Ben"]["net"], now["Ben"]["forgiven"]) == (8, 0)
    # the full screen's players table, its 'now' column, the same number
    from camelhost.ui.panels import players_text
    rows = players_text(table_view(t.session, odds=False), width=80).plain.splitlines()
    ann = [r for r in rows if " Ann " in " %s " % r or r.lstrip("▶ ").startswith("Ann ")]
    # '-3*': the mark of coins forgiven, said under the table (s35)
    assert ann and " -3* " in ann[0] + " " and " -4" not in ann[0] + " ", rows
    assert rows[-1].strip() == "* coins forgiven: Ann 1", rows
