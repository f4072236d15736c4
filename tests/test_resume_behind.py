"""A resumed journal that ends before the pyramid's last acknowledged die (issue 29, item 9:
a journal cut at its end leaves no trace in its own lines; the pyramid's HELLO does).

The journal is written by a real table, cut at its end as an editor would, resumed; the
link's sequencer is told the journal's last ``(boot, seq)`` and hears the pyramid's
``HELLO``; what it hands out goes to the resumed table. No port, no thread, no clock.
"""

import io
import json
import logging
import time

import pytest
from camelhost.device.events import DieEvent, decode
from camelhost.device.sequencer import Sequencer
from camelhost.table.controller import Table
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelup.board import protocol
from resumed_tables import resumed

BOOT = "0A9B0E33"
PLAYERS = ["Ann", "Ben", "Cy"]


def _hello(seq, acked):
    return protocol.decode(protocol.encode(
        "HELLO", proto=1, fw="0.1.0", uid="0102", boot=BOOT, seq=seq, oldest=1, ed="classic",
        sensor="ok", vb=True, prev=None, acked=acked))


def _release(table, seq):
    """Ann/Ben/Cy's next action a pyramid ticket, and its die from the pyramid."""
    assert table.line("pyramid")
    colour = table.session.game.dice_in_pyramid()[0]
    table.pyramid_event(DieEvent("die", BOOT, seq, raw="EVT %d die" % seq, colour=colour,
                                 value=2))


def _played(path, dice):
    """A classic game on a real pyramid (port path): setup drawn, ``dice`` pyramid dice
    (seqs 1..dice of ``BOOT``); returns the journal's lines (bytes each)."""
    journal = Journal(str(path), pyramid="/dev/ttyACM0")
    session = Session("classic", PLAYERS, seed=3, journal=journal)
    table = Table(session, PlainDisplay(io.StringIO()), pyramid=None, manual=False)
    table.start()
    table.line("draw")
    for seq in range(1, dice + 1):
        _release(table, seq)
    assert session.last_pyramid_event == (BOOT, dice)
    journal.close()
    return path.read_bytes().splitlines(keepends=True)


def _inside(out):
    """The dice the plain table's last status says are in the pyramid (``out``: its lines)."""
    line = [x for x in out if x.startswith("Dice in the pyramid: ")][-1]
    return line[len("Dice in the pyramid: "):].split(";")[0]


def _link_events(resume, hello):
    seq = Sequencer(resume=resume)
    seq.opened(0.0)
    return seq.receive(hello, 0.1, "raw")[0]


def test_a_journal_cut_at_its_end_is_said_in_one_line_when_the_pyramid_acknowledged_more(
        tmp_path, caplog):
    # said once: by the table; the link only logs it below a warning (a warning reaches a
    # player's terminal as a second, bare line: tester 3 finding 5)
    caplog.set_level(logging.DEBUG, "camelhost.device.link")
    path = tmp_path / "g.jsonl"
    lines = _played(path, 3)
    # the last pyramid ticket and its die (seq 3) cut from the end, as 'head -n -2' does
    path.write_bytes(b"".join(lines[:-2]))
    table, out = resumed(path)
    assert table.session.last_pyramid_event == (BOOT, 2)
    before = (path.read_bytes(), table.view())
    # the pyramid acknowledged seq 3 for this table before the journal lost it
    events = _link_events(table.session.last_pyramid_event, _hello(3, 3))
    assert [(e.kind, tuple(e.missing)) for e in events] == [("foreign", (3,))]
    assert "another table" in caplog.text
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    said = out.tell()
    for event in events:
        table.pyramid_event(event)
    new = out.getvalue()[said:].splitlines()
    told = [x for x in new if "another table" in x]
    assert told == [
        "the pyramid served another table since this game's last die, or lines were cut from "
        "this journal's end: the pyramid acknowledged event 3 of boot 0A9B0E33, which the "
        "journal does not hold (its last is event 2); it is left out. If lines were cut, quit "
        "and resume a whole copy of the journal. Else put back in the pyramid any of these "
        "dice that are out of it: orange, yellow, white"], new
    # nothing foreign is pushed: the journal and the table are as they were
    assert path.read_bytes() == before[0]
    assert table.view() == before[1]
    table.session.journal.close()


def test_a_journal_whole_to_its_end_resumes_without_a_word_of_it(tmp_path):
    path = tmp_path / "g.jsonl"
    _played(path, 2)
    table, out = resumed(path)
    events = _link_events(table.session.last_pyramid_event, _hello(2, 2))
    assert events == []
    assert "another table" not in out.getvalue() and "acknowledged" not in out.getvalue()
    table.session.journal.close()


def test_another_tables_dice_after_play_went_on_keep_their_own_words(tmp_path):
    # the pyramid served another table while this one was unplugged (no resume): the
    # foreign dice are said as another table's, not as a journal cut at its end
    path = tmp_path / "g.jsonl"
    _played(path, 1)
    table, out = resumed(path)
    _release(table, 2)
    said = out.tell()
    table.pyramid_event(DieEvent("foreign", BOOT, 3, missing=(3, 4)))
    new = out.getvalue()[said:]
    assert new.splitlines() == ["the pyramid served another table since this game's last die: "
                                "its events 3, 4 were that table's and are left out; put back in "
                                "the pyramid any of these dice that are out of it: orange, "
                                "yellow, white"]
    assert table.line("board")  # what the status says is in it: the same dice
    assert _inside(out.getvalue()[said:].splitlines()) == "orange, yellow, white"
    assert [e.get("seq") for e in read_events(str(path)) if e["type"] == "die"] == [1, 2]
    table.session.journal.close()


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_pyramid_play_resuming_a_cut_journal_on_the_real_firmware_says_it_and_takes_nothing(
        micropython, tmp_path, monkeypatch):
    """The real firmware on the virtual pyramid keeps its events until acknowledged; a
    table takes two dice (acknowledged), its journal loses the last one from its end,
    and ``pyramid play --resume`` on that pyramid says it in one line and pushes nothing."""
    from camelhost import cli
    from camelhost.device.link import Link
    from camelhost.device.virtual import VirtualPyramid

    path = tmp_path / "g.jsonl"
    with VirtualPyramid("classic", seed=3, value_buttons=True) as vp:
        journal = Journal(str(path), pyramid=vp.port)
        session = Session("classic", PLAYERS, seed=3, journal=journal)
        table = Table(session, PlainDisplay(io.StringIO()), pyramid=None, manual=False)
        table.start()
        table.line("draw")
        with Link(vp.port, heartbeat_timeout=2.0, taken=lambda: session.last_pyramid_event) as link:
            for _ in range(2):
                assert table.line("pyramid")
                vp.table.inside = list(session.game.dice_in_pyramid())
                vp.release()
                event = link.next_event(20)
                assert event is not None and event.kind == "die"
                table.pyramid_event(event)
            boot, seq = session.last_pyramid_event
            assert seq == 2
            deadline = time.monotonic() + 20  # the pyramid has the ACK of the journal's last
            while (link.hello is None or link.hello.get("acked") != 2) and time.monotonic() < deadline:
                link.send("HELLO?")
                time.sleep(0.2)
            assert link.hello.get("acked") == 2
        journal.close()
        assert [e["type"] for e in read_events(str(path))] == [
            "game", "setup", "pyramid", "die", "pyramid", "die"]
        lines = path.read_bytes().splitlines(keepends=True)
        cut = b"".join(lines[:-2])  # the last pyramid ticket and its die
        path.write_bytes(cut)
        shown = io.StringIO()
        monkeypatch.setattr("sys.stdout", shown)

        def typed():
            # the players read the table before they quit: the line comes with the
            # pyramid's HELLO, a moment after the resumed table is shown
            deadline = time.monotonic() + 30
            while "another table" not in shown.getvalue() and time.monotonic() < deadline:
                time.sleep(0.05)
            yield "quit\n"

        monkeypatch.setattr("sys.stdin", typed())
        assert cli.main(["play", "--resume", str(path), "--plain", "--pyramid", vp.port]) == 0
    out = shown.getvalue().splitlines()
    said = [x for x in out if "another table" in x]
    assert said == [
        "the pyramid served another table since this game's last die, or lines were cut from "
        "this journal's end: the pyramid acknowledged event 2 of boot %s, which the journal does "
        "not hold (its last is event 1); it is left out. If lines were cut, quit and resume a "
        "whole copy of the journal. Else put back in the pyramid any of these dice that are "
        "out of it: %s" % (boot, _inside(out))], out
    assert path.read_bytes() == cut  # nothing pushed, nothing journaled


def _fault_then_typed(path, after=None, said="sensor fault"):
    """A classic game on a real pyramid: one die (seq 1), then a push the sensor could
    not read (``EVT 2 fault code=timeout``; or the wire line ``after``, e.g. a ``GAP``)
    and its die typed by hand, as the table asks (``said``: a word of that request). The
    link's sequencer runs beside the table with the game's own ``taken`` (the journal's
    last pyramid event), as ``pyramid play`` wires it; returns the last seq the pyramid
    was acknowledged (what its next HELLO says as ``acked=``)."""
    journal = Journal(str(path), pyramid="/dev/ttyACM0")
    session = Session("classic", PLAYERS, seed=3, journal=journal)
    out = io.StringIO()
    table = Table(session, PlainDisplay(out), pyramid=None, manual=False)
    table.start()
    table.line("draw")
    link = Sequencer(taken=lambda: session.last_pyramid_event)
    link.opened(0.0)
    acked = 0
    now = 0.1
    wire = [protocol.encode("HELLO", proto=1, fw="0.1.0", uid="0102", boot=BOOT, seq=0, oldest=1,
                            ed="classic", sensor="ok", vb=True, prev=None, acked=0)]
    assert table.line("pyramid")
    colour = session.game.dice_in_pyramid()[0]
    wire.append(protocol.encode("EVT", "die", seq=1, boot=BOOT, col=colour, val=2, m=300,
                                raw=(1, 2, 3, 4)))
    wire.append(after or protocol.encode("EVT", "fault", seq=2, boot=BOOT, code="timeout"))
    for line in wire:
        events, _ = link.receive(decode(line), now, protocol.unframe(line))
        for event in events:
            link.took(event)
            table.pyramid_event(event)
        now += 0.1
        for sent in link.tick(now)[1]:
            body = protocol.decode(sent)
            if body.name == "ACK":
                acked = max(acked, body["seq"])
    assert said in out.getvalue()
    assert table.line("%s 1" % session.game.dice_in_pyramid()[0])  # typed, as asked
    for sent in link.tick(now + 1.0)[1]:
        body = protocol.decode(sent)
        if body.name == "ACK":
            acked = max(acked, body["seq"])
    journal.close()
    return acked


def test_a_resume_after_a_sensor_fault_raises_no_false_alarm(tmp_path):
    # the fault's event holds no die: the pyramid acknowledged it, and the resumed
    # table must not name it as a die another table took or the journal lost
    path = tmp_path / "g.jsonl"
    acked = _fault_then_typed(path)
    assert acked == 2  # the fault's event too, once the journal kept it
    table, out = resumed(path)
    link = Sequencer(resume=table.session.last_pyramid_event)
    link.opened(0.0)
    events, lines = link.receive(_hello(2, acked), 0.1, "raw")
    said = out.tell()
    for event in events:
        table.pyramid_event(event)
    assert events == [], [(e.kind, tuple(e.missing)) for e in events]
    assert not [x for x in lines if b"SYNC" in x]  # nothing asked again: the fault is not said twice
    assert "another table" not in out.getvalue()[said:]
    table.session.journal.close()


def test_a_fault_cut_from_the_journals_end_is_still_said(tmp_path):
    # if in doubt, say it: the fault's line gone from the journal's end (with the typed
    # die after it) leaves an acknowledged event the journal does not hold
    path = tmp_path / "g.jsonl"
    acked = _fault_then_typed(path)
    lines = path.read_bytes().splitlines(keepends=True)
    kept = [json.loads(x.rsplit(b"*", 1)[0]) for x in lines[-2:]]
    assert [(e["type"], e.get("kind"), e.get("seq")) for e in kept] == [
        ("rejected", "fault", 2), ("die", "die", None)]
    path.write_bytes(b"".join(lines[:-2]))
    table, out = resumed(path)
    assert table.session.last_pyramid_event == (BOOT, 1)
    events = _link_events(table.session.last_pyramid_event, _hello(2, acked))
    said = out.tell()
    for event in events:
        table.pyramid_event(event)
    assert [(e.kind, tuple(e.missing)) for e in events] == [("foreign", (2,))]
    assert "acknowledged event 2 of boot %s, which the journal does not hold" % BOOT \
        in out.getvalue()[said:]
    table.session.journal.close()


def test_a_resume_after_a_gap_the_table_named_raises_no_false_alarm(tmp_path):
    # the pyramid's store lost events 2 and 3 (its GAP reply): the table named them and
    # asked for the die typed, the pyramid was acknowledged past them; the resumed table
    # must not name them again as another table's or as lines cut from the journal
    path = tmp_path / "g.jsonl"
    gap = protocol.encode("GAP", first=2, last=3, boot=BOOT)
    acked = _fault_then_typed(path, after=gap, said="the pyramid lost events 2, 3")
    assert acked == 3
    table, out = resumed(path)
    link = Sequencer(resume=table.session.last_pyramid_event)
    link.opened(0.0)
    events, lines = link.receive(_hello(3, acked), 0.1, "raw")
    said = out.tell()
    for event in events:
        table.pyramid_event(event)
    assert events == [], [(e.kind, tuple(e.missing)) for e in events]
    assert not [x for x in lines if b"SYNC" in x]
    assert "another table" not in out.getvalue()[said:]
    table.session.journal.close()
