"""The table session: commands, dice, remedies, undo, resume (RULES 1.4-1.8, 3.4, 4, 5)."""

import json

import pytest
from camelhost.table.events import Release
from camelhost.table.journal import Journal
from camelhost.table.session import Session, TableError
from camelhost.table.view import table_view

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _session(tmp_path=None, players=("Ann", "Ben", "Cy", "Dee"), edition="second"):
    journal = Journal(str(tmp_path / "g.jsonl") if tmp_path else None)
    s = Session(edition, list(players), seed=4, journal=journal)
    return s, journal


def _state(s):
    return json.dumps(dict(table_view(s, odds=False), version=0), sort_keys=True, default=str), s.phase, s.current


@pytest.mark.parametrize("text,why", [
    ("dance", "unknown command"),                      # unknown command
    ("tile 1 +", "tile 1 +"),                          # illegal action: never space 1 (RULES 1.5)
    ("tile 3 +", "tile 3 +"),                          # a camel is there
    ("leg orange", "not a racing camel"),              # colour of the other edition
    ("red 1", "already came out this leg"),            # die for a camel already moved (RULES 1.4)
    ("red 5", "1, 2 or 3"),                            # malformed typed die
    ("grey 2", "numeral colour"),                      # grey without its ink
    ("partner Ben", "6-8 players, and this game has 4"),  # partnership with four seats (RULES 3.8)
    ("partner Zed", "no player called"),
    ("win", "check the form"),
    ("1", "check the form"),                           # a value when none is asked
])
def test_bad_input_explains_in_one_line_and_changes_nothing(tmp_path, text, why):
    s, journal = _session(tmp_path)
    s.command(SETUP)
    s.command("red 2")  # Ann: pyramid ticket, red moves; red is now out this leg
    before = _state(s)
    lines = (tmp_path / "g.jsonl").read_text()
    with pytest.raises(TableError, match=why) as info:
        s.command(text)
    assert "\n" not in str(info.value)
    assert _state(s) == before
    assert (tmp_path / "g.jsonl").read_text() == lines


def test_leg_ticket_then_pyramid_die_moves_and_announces():
    s, _ = _session()
    s.command(SETUP)
    s.command("leg green")
    assert s.game.leg_tickets_left("green") == [3, 2, 2]
    notices = s.command("pyramid")
    assert s.phase == "die" and s.current == 1
    notices = s.command("blue 3")  # RULES 1.2: blue carries green
    die = [n for n in notices if n["kind"] == "die"][0]["move"]
    assert (die["camel"], die["direction"], die["distance"]) == ("blue", 1, 3)
    assert s.game.stacks[4] == ["blue", "green"]
    leaders = [n for n in notices if n["kind"] == "leaders"][0]["ranking"]
    assert leaders[:2] == ["green", "blue"]
    left = [n for n in notices if n["kind"] == "dice_left"][0]["dice"]
    assert "blue" not in left and "grey" in left
    assert table_view(s, odds=False)["players"][1]["pyramid_tickets"] == 1
    assert s.current == 2


def test_double_release_keeps_the_ticket_for_the_same_action():
    s, journal = _session()
    s.command(SETUP)
    s.command("pyramid")  # Ann
    notices = s.reject(Release(kind="double", raw="EVT 3 DOUBLE*0", boot="b1", seq=3),
                       "double")
    assert notices[0]["kind"] == "retry"
    assert s.phase == "die" and s.current == 0
    # a release without 'pyramid' first that comes out empty: the ticket is taken then
    s.command("purple 1")
    s.reject(Release(kind="nodie", raw="EVT 4 NODIE*0", boot="b1", seq=4), "nodie")
    assert s.phase == "die" and s.current == 1
    s.command("yellow 1")
    assert table_view(s, odds=False)["players"][1]["pyramid_tickets"] == 1
    assert [e["type"] for e in journal.events].count("rejected") == 2


def test_question_mark_value_completed_by_one_key():
    s, _ = _session()
    s.command(SETUP)
    s.feed({"type": "die", "kind": "die", "colour": "grey", "ink": "white", "value": None,
            "raw": "EVT 1 DIE c=grey-white v=?*00", "boot": "b", "seq": 1})
    assert s.phase == "value"
    with pytest.raises(TableError, match="1, 2 or 3"):
        s.command("7")
    s.command("2")
    assert s.game.stacks[14] == ["white"]  # RULES 3.5 (c): white numeral moves white


def test_resume_tells_the_link_where_the_journal_ends(tmp_path):
    # The (boot, seq) dedupe is the link's alone (tests/test_link.py: a resent event is
    # dropped, a resume continues after the journal's last): the session's part is to
    # say, after a resume, the last pyramid event its journal holds.
    s, journal = _session(tmp_path)
    s.command(SETUP)
    s.feed({"type": "die", "kind": "die", "colour": "red", "ink": None, "value": 1,
            "raw": "x", "boot": "b", "seq": 7})
    s.reject(Release(kind="double", raw="EVT 8 DOUBLE*0", boot="b", seq=8), "double")
    s.command("blue 1")  # a die typed for Ben's ticket: no (boot, seq) of its own
    assert s.last_pyramid_event == ("b", 8)
    journal.close()
    again = Session.resume(Journal.resume(str(tmp_path / "g.jsonl")))
    assert again.last_pyramid_event == ("b", 8)
    again.journal.close()


def test_setup_from_released_dice_black_then_white():
    s, _ = _session()
    for text in ("red 2", "blue 1", "green 1", "yellow 3", "purple 2", "grey white 3"):
        s.command(text)
    assert s.phase == "setup"
    with pytest.raises(TableError, match="already placed"):
        s.command("red 1")
    s.command("grey black 1")
    assert s.game.stacks == {1: ["blue", "green"], 2: ["red", "purple"], 3: ["yellow"],
                           14: ["black"], 16: ["white"]}
    assert s.phase == "turn" and s.current == 0


def test_undo_restores_the_previous_table():
    s, _ = _session()
    s.command(SETUP)
    s.command("leg red")
    before = _state(s)
    s.command("pyramid")
    s.command("grey black ?")
    s.command("3")
    assert _state(s) != before
    s.command("undo")
    assert _state(s) == before
    s.command("undo")
    assert s.game.leg_tickets_left("red") == [5, 3, 2, 2]


def test_correction_unscored_and_another_race():
    s, _ = _session()
    s.command(SETUP)
    s.command("leg red")
    s.command("fix 2:red,purple 3:yellow")  # a bumped stack put back as the table agrees
    assert s.game.stacks[2] == ["red", "purple"]
    assert s.game.held_tickets(0) == [("red", 5)]
    with pytest.raises(TableError, match="still on"):
        s.command("again")
    s.command("unscored")
    assert s.phase == "unscored"
    with pytest.raises(TableError, match="unscored"):
        s.command("leg blue")
    s.command("again")
    assert s.phase == "setup" and s.race_no == 2
    s.command("draw")
    assert [p["coins"] for p in table_view(s, odds=False)["players"]] == [3, 3, 3, 3]


def test_resume_rebuilds_exactly_and_tolerates_a_torn_line(tmp_path):
    s, journal = _session(tmp_path)
    for text in (SETUP, "leg red", "pyramid", "purple 2", "tile 8 -", "undo", "tile 9 +",
                 "grey black ?", "1", "win red"):
        s.command(text)
    journal.close()
    with open(tmp_path / "g.jsonl", "ab") as fh:
        fh.write(b'{"type":"action","player":3,"act')  # killed mid-write
    again = Session.resume(Journal.resume(str(tmp_path / "g.jsonl")))
    assert _state(again) == _state(s)
    assert again.game.position() == s.game.position()


def test_a_failed_journal_write_takes_nothing(tmp_path, monkeypatch):
    import os
    s, journal = _session(tmp_path)
    s.command(SETUP)
    s.command("leg red")
    before = _state(s)

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        s.command("blue 2")
    assert _state(s) == before
    s.journal.close()
    from camelhost.table.journal import read_events
    assert [e["type"] for e in read_events(str(tmp_path / "g.jsonl"))] == ["game", "setup", "action"]


def test_setup_dice_without_value_buttons_ask_one_key_each():
    s, _ = _session()
    for colour in ("red", "blue", "green", "yellow", "purple"):
        s.feed({"type": "die", "colour": colour, "ink": None, "value": None, "raw": colour})
        assert s.phase == "value"
        s.command("1")
    s.feed({"type": "die", "colour": "grey", "ink": "white", "value": None, "raw": "g"})
    s.command("3")
    s.feed({"type": "die", "colour": "grey", "ink": "black", "value": None, "raw": "g"})
    s.command("undo")  # takes back the unanswered grey die
    assert s.phase == "setup"
    s.command("grey black 2")
    assert s.phase == "turn"
    assert s.game.stacks == {1: ["red", "blue", "green", "yellow", "purple"],
                                  14: ["black"], 15: ["white"]}


def test_partnership_with_a_named_player_six_seats():
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"], seed=1)
    s.command(SETUP)
    s.command("partner fi")  # RULES 3.8: Ann and Finn
    v = table_view(s, odds=False)
    assert v["players"][0]["partner"] == "Finn" and v["players"][5]["partner"] == "Ann"
    with pytest.raises(TableError, match="partner"):
        s.command("partner Ann")  # Ben can't pick Ann: she already has a partner


def test_grey_die_announcement_names_the_camel_and_why():
    from camelhost.ui import plain
    s, _ = _session()
    s.command("setup 1:blue,green 2:red 3:yellow,purple 14:black,white")
    notices = s.command("grey black 2")  # RULES 3.5 (b): white sits on black, so white moves
    # typed without 'pyramid' first: Ann takes the ticket, said first
    assert notices[0] == {"kind": "pyramid", "player": 0, "die": "grey black 2"}
    lines = plain.notice_lines(notices[1], table_view(s, odds=False))
    assert lines[0] == ("DIE grey-black 2 (Ann's pyramid ticket): the white camel (it "
                        "sits directly on the other crazy camel) moves backward 2")
    assert lines[1] == "  from space 14 to 12"


@pytest.mark.parametrize("edition,text,why", [
    ("second", "setup 1:blue,green 2:red 9:yellow,purple 15:black 16:white", "yellow camel starts on space 1, 2 or 3 (RULES 2.2), not 9"),
    ("second", "setup 1:blue,green 2:red 3:yellow,purple 15:black 10:white", "crazy white camel starts on space 14, 15 or 16 (RULES 3.2), not 10"),
    ("second", "setup 1:white 2:red 3:yellow,purple 4:blue,green 15:black", "crazy white camel starts on space 14, 15 or 16"),
    ("second", "setup 1:blue,green 2:red 3:yellow,purple 15:black", "setup is missing: white"),
    ("classic", "setup 1:blue,green 2:orange 3:yellow 16:white", "white camel starts on space 1, 2 or 3 (RULES 2.2), not 16"),
])
def test_a_typed_setup_only_takes_a_board_the_setup_rolls_can_give(edition, text, why):
    s = Session(edition, ["Ann", "Ben", "Cy"], seed=4)
    before = _state(s)
    with pytest.raises(TableError, match=why.replace("(", r"\(").replace(")", r"\)")):
        s.command(text)
    assert _state(s) == before and s.phase == "setup"
    # crazy camels stacked on one space and racing camels in any order are fine
    good = ("setup 3:red,blue 1:green 2:yellow,purple 14:white,black" if edition == "second"
            else "setup 3:orange,blue 1:green 2:yellow,white")
    s.command(good)
    assert s.phase == "turn"


def test_a_refused_die_is_said_without_words_the_player_did_not_type():
    # tester's finding: 'red 2' typed for a die already out answered 'pyramid red 2: ...',
    # the engine's action, not what was typed
    s, _ = _session()
    s.command(SETUP)
    s.command("red 2")
    with pytest.raises(TableError) as info:
        s.command("red 1")
    assert str(info.value) == ("the red die already came out this leg; it is not in the "
                               "pyramid (RULES 1.4)")
    s.command("pyramid")
    with pytest.raises(TableError) as info:
        s.command("red 3")
    assert str(info.value).startswith("the red die already came out this leg")
