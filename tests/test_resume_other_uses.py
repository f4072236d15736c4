"""A resumed game on a pyramid that other uses of the board served since (s36 tester,
finding 10): another table's dice, doctor's slider push, restarts. The board's store
dropped the journal's boot and the events those hosts acknowledged; the table says they
were another's and asks for no die, so nothing typed plays a die that never came out.

A real table writes the journal; the link's sequencer walks the board's boots as the
firmware answers them (``firmware/pyramid/eventlog.py``: a boot is dropped once a host
acknowledged a later one, acknowledged events are not kept); what it hands out goes to
the resumed table. No port, no thread, no clock.
"""

import io

import pytest
from camelhost.device.events import DieEvent, decode
from camelhost.device.sequencer import Sequencer
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelup.board import protocol
from resumed_tables import resumed

A, B, C, D = "0A9B0E33", "958586CF", "11111111", "22222222"
PLAYERS = ["Ann", "Ben", "Cy"]


def _msg(name, **fields):
    return decode(protocol.encode(name, **fields))


def _played(path, dice):
    """A classic game on a real pyramid: setup drawn, ``dice`` pyramid tickets whose dice
    are seqs 1..dice of boot ``A``."""
    journal = Journal(str(path), pyramid="/dev/ttyACM0")
    session = Session("classic", PLAYERS, seed=3, journal=journal)
    table = Table(session, PlainDisplay(io.StringIO()), pyramid=None, manual=False)
    table.start()
    table.line("draw")
    for seq in range(1, dice + 1):
        assert table.line("pyramid")
        colour = session.game.dice_in_pyramid()[0]
        table.pyramid_event(DieEvent("die", A, seq, raw="EVT %d die" % seq, colour=colour, value=2))
    journal.close()


def _walked(resume):
    """What the link hands the table when the board, now in boot ``D``, restarted three
    times since the journal's boot ``A``, and another host took and acknowledged B:1..2."""
    seq = Sequencer(resume=resume)
    seq.opened(0.0)
    answers = [
        _msg("HELLO", proto=1, fw="0.1.0", uid="0102", boot=D, seq=0, oldest=1, ed="classic",
             sensor="ok", vb=False, prev=(C, 0), acked=0),
        _msg("SYNCED", seq=resume[1], boot=A, next=B, known=False),
        _msg("GAP", first=1, last=2, boot=B),
        _msg("SYNCED", seq=2, boot=B, next=C),
        _msg("SYNCED", seq=0, boot=C, next=D),
        _msg("SYNCED", seq=0, boot=D),
    ]
    events = []
    for n, answer in enumerate(answers):
        events += seq.receive(answer, 0.1 * (n + 1), "raw")[0]
    return events


def test_dice_other_uses_of_the_board_took_are_theirs_and_no_die_is_asked_for(tmp_path):
    path = tmp_path / "g.jsonl"
    _played(path, 2)
    table, out = resumed(path)
    assert table.session.last_pyramid_event == (A, 2)
    before = (path.read_bytes(), table.view())
    said = out.tell()
    for event in _walked(table.session.last_pyramid_event):
        table.pyramid_event(event)
    new = out.getvalue()[said:].splitlines()
    assert not [x for x in new if "BY HAND" in x or "lost" in x], new
    told = [x for x in new if "another table" in x]
    assert told == [
        "the pyramid served another table since this game's last die, or lines were cut from "
        "this journal's end: the pyramid acknowledged events 1, 2 of boot 958586CF, which the "
        "journal does not hold (its last is none of that boot: event 2 of boot 0A9B0E33); they "
        "are left out. If lines were cut, quit and resume a whole copy of the journal. Else put "
        "back in the pyramid any of these dice that are out of it: orange, yellow, white"], new
    # a die typed now is no die of this game: refused, the game unchanged
    said = out.tell()
    table.line("blue 2")
    assert "takes a pyramid ticket" not in out.getvalue()[said:]
    assert path.read_bytes() == before[0]
    assert table.view() == before[1]
    table.session.journal.close()


def _events(link, n, timeout=20.0):
    import time
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        event = link.next_event(0.1)
        if event is not None:
            out.append(event)
    return out


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_on_the_real_firmware_another_use_after_a_restart_is_never_a_lost_die(micropython):
    """The firmware's own store (virtual pyramid): game 1 takes two dice, the board
    restarts, another host takes and acknowledges two dice of the new boot, the board
    restarts again; game 1 resumed hears them named as another's, never as lost, and
    its next die comes."""
    import time

    from camelhost.device.link import Link
    from camelhost.device.virtual import VirtualPyramid

    def taken(link, count):
        got = _events(link, count)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # until the pyramid has their ACK
            hello = link.hello
            if hello is not None and got and hello.get("acked") == got[-1].seq:
                return got
            link.send("HELLO?")
            time.sleep(0.2)
        raise AssertionError("no ACK of %r" % got)

    with VirtualPyramid("classic", seed=3, settings={"stable": 2, "settle_ms": 10}) as vp:
        with Link(vp.port, heartbeat_timeout=2.0) as link:  # game 1: two dice, then quit
            vp.release()
            vp.release()
            game1 = taken(link, 2)
        vp.reboot()
        with Link(vp.port, heartbeat_timeout=2.0) as link:  # doctor, another table: two dice
            vp.release()
            vp.release()
            other = taken(link, 2)
        vp.reboot()
        boot = game1[-1].boot
        with Link(vp.port, heartbeat_timeout=2.0, resume=(boot, 2)) as link:  # game 1 resumed
            said = _events(link, 1)
            assert [(e.kind, e.boot, tuple(e.missing)) for e in said] == [
                ("foreign", other[0].boot, (1, 2))]
            assert link.next_event(1.5) is None  # nothing else: no gap, no die of theirs
            fell = vp.release()
            (die,) = _events(link, 1)
            assert die.kind == "die" and (die.boot, die.seq) == (fell.boot, fell.seq)
