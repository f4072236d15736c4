"""The dice out this leg reach the board from every table and after every restart (issue 32,
part A; docs/classifier.md "In play", docs/protocol.md ``OUT``): ``pyramid demo``'s board
hears them as ``pyramid play``'s does (the table tells any link it is given), and a board
that restarted mid-leg is told them again as soon as it says hello (the link keeps the last
``OUT``), not only at the table's next journal write; an ``OUT`` the board does not answer is
sent again (bounded, ``SYNC``'s back-off), a damaged one is never taken, and a resumed game's
is held until its board is confirmed (issue 32; docs/protocol.md "How an ``OUT``
is delivered")."""

import asyncio
import io
import logging
import sys
import time

import pytest
from camelhost import paths
from camelhost.device.events import out_mask
from camelhost.device.link import Link
from camelhost.device.sequencer import OUT_TRIES, SYNC_FIRST_S, Sequencer
from camelhost.device.virtual import VirtualPyramid
from camelhost.table.controller import Table
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelup.board import protocol
from camelup.editions import get_edition
from camelup.game import Game
from test_firmware_units import _make_app, _until

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

SECOND = get_edition("second")
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _hello(boot, seq=0, name="HI"):
    fields = {"proto": protocol.PROTOCOL_VERSION, "boot": boot, "seq": seq}
    if name == "HELLO":
        fields.update(uid="E66141040327582E", fw="t", ed="second")
    return protocol.Message(name, fields)


def _outs(lines):
    return [protocol.decode(line)["mask"] for line in lines if line.startswith(b"OUT ")]


def _ok_out(mask):
    return protocol.Message("OK", {"cmd": "OUT", "n": mask})


def _nak(reason):
    return protocol.Message("NAK", {"reason": reason})


def test_the_sequencer_tells_a_restarted_board_the_last_dice_out_once():
    seq = Sequencer()
    seq.opened(0.0)
    _events, lines = seq.receive(_hello("0A000001"), 0.1)
    assert _outs(lines) == []  # nothing told yet: nothing to say again
    _events, lines = seq.told_out(24, 0.15)  # the table tells the board: red and purple are out
    assert _outs(lines) == [24]
    seq.receive(_ok_out(24), 0.16)
    assert seq.out_answered == "0A000001"
    _events, lines = seq.receive(_hello("0A000001", name="HELLO"), 0.2)
    assert _outs(lines) == []  # the same boot already knows it
    _events, lines = seq.receive(_hello("0B000002"), 5.0)  # the board restarted
    assert _outs(lines) == [24]
    _events, lines = seq.receive(_hello("0B000002", name="HELLO"), 5.01)
    assert _outs(lines) == []  # told once a boot (its answer is on its way)
    seq.receive(_ok_out(24), 5.02)
    _events, lines = seq.receive(_hello("0B000002"), 5.1)
    assert _outs(lines) == [] and seq.out_answered == "0B000002"


def test_an_out_the_port_could_not_take_is_said_at_the_next_hello():
    seq = Sequencer()
    seq.opened(0.0)
    seq.receive(_hello("0A000001"), 0.1)
    _events, lines = seq.told_out(8, 0.2)
    assert _outs(lines) == [8]
    seq.out_unsent()  # the port was reconnecting: the line was not written
    assert _outs(seq.tick(1.0)[1]) == []  # no retry into a closed port
    seq.opened(3.0)
    _events, lines = seq.receive(_hello("0A000001"), 3.1)
    assert _outs(lines) == [8]


def _told(mask=24):
    """A sequencer whose board said hello, told ``mask`` at t=1.0; the ``OUT`` lines it wrote."""
    seq = Sequencer()
    seq.opened(0.0)
    seq.receive(_hello("0A000001"), 0.1)
    return seq, _outs(seq.told_out(mask, 1.0)[1])


def _ticks(seq, start, end, step=0.01):
    """Tick ``seq`` from ``start`` to ``end``; the times at which it wrote an ``OUT``."""
    at = []
    for i in range(int(round((end - start) / step))):
        t = start + i * step
        if _outs(seq.tick(t)[1]):
            at.append(t)
    return at


@pytest.mark.parametrize("noisy, longest", [(False, 2.0), (True, 0.5)])
def test_an_out_the_board_does_not_answer_is_sent_again_with_syncs_backoff_a_bounded_number_of_times(
        caplog, noisy, longest):
    """The ``OUT`` (or its ``OK OUT``) was lost on the cable: sent again after 0.15 s, then
    0.3, 0.6, ... up to 2 s (the waits of an unanswered ``SYNC``; on a noisy line up to
    0.5 s), ``OUT_TRIES`` writes in all, then given up and said in the log."""
    caplog.set_level(logging.WARNING, "camelhost.device.link")
    seq, lines = _told(24)
    seq.noisy = noisy
    assert lines == [24]
    at = _ticks(seq, 1.0, 40.0)
    waits = [b - a for a, b in zip([1.0] + at[:-1], at, strict=True)]
    assert len(at) == OUT_TRIES - 1
    wanted = [min(SYNC_FIRST_S * 2 ** n, longest) for n in range(OUT_TRIES - 1)]
    assert waits == [pytest.approx(w, abs=0.015) for w in wanted]
    assert seq.stats["outs_resent"] == OUT_TRIES - 1
    assert "did not answer OUT 24" in caplog.text
    assert seq.out_answered is None


def test_an_out_answered_is_not_sent_again_and_an_answer_to_an_earlier_mask_is_not_its_answer():
    seq, _lines = _told(8)  # red is out
    seq.told_out(24, 1.05)  # and purple: the table wrote again before the board answered
    seq.receive(_ok_out(8), 1.1)  # the board's answer to the first OUT
    assert seq.out_answered is None
    assert _ticks(seq, 1.1, 1.3) == [pytest.approx(1.2, abs=0.015)]  # 0.15 s after the second: again
    seq.receive(_ok_out(24), 1.3)
    assert seq.out_answered == "0A000001"
    assert _ticks(seq, 1.3, 40.0) == []


def test_a_board_that_refuses_out_is_not_asked_again_but_a_damaged_line_is_retried():
    seq, _lines = _told(24)
    seq.receive(_nak("crc"), 1.05)  # a line of ours arrived damaged: maybe the OUT
    assert _ticks(seq, 1.05, 1.2) == [pytest.approx(1.15, abs=0.015)]
    seq.receive(_nak("unknown"), 1.2)  # a firmware without OUT read it and refused it
    assert _ticks(seq, 1.2, 40.0) == []
    seq.told_out(64, 40.0)  # a die the board's edition lacks
    seq.receive(_nak("range"), 40.05)
    assert _ticks(seq, 40.05, 80.0) == []


def _damaged(line):
    """Every way the virtual pyramid's ``line_faults`` can damage ``line`` once: each bit
    of each byte flipped, each byte lost; and the line's newline lost, running it into
    the next ``OUT``."""
    out = []
    for i in range(len(line)):
        for bit in range(8):
            flipped = bytearray(line)
            flipped[i] ^= 1 << bit
            out.append(bytes(flipped))
        out.append(line[:i] + line[i + 1:])
    out.append(line[:-1] + protocol.encode("OUT", mask=16))
    return out


def test_the_board_never_takes_a_damaged_out_line():
    """The firmware (``pyramid.app``'s rx task on a fake port) fed every single damage of
    ``OUT 24`` while it holds ``OUT 8``: each line is either refused with a ``NAK`` of its
    framing (the CRC-32 over the body catches every one-bit error and every lost byte
    here), the mask unchanged, or, when only its newline was hit, taken whole as 24. No
    other mask is ever taken or answered."""
    line = protocol.encode("OUT", mask=24)
    damaged = _damaged(line)

    async def scenario():
        a, _slider, port = _make_app({"content": "empty", "fail": None}, edition="second")
        task = asyncio.create_task(a.main())

        async def answered(data, token):
            since = len(port.lines)
            port.rx += data + protocol.encode("PING", token=token)
            await _until(lambda: any(m.name == "PONG" and m["token"] == token for m in port.lines[since:]))
            return [m for m in port.lines[since:] if m.name in ("OK", "NAK")]

        assert [(m.name, m.get("n")) for m in await answered(protocol.encode("OUT", mask=8), "t")] == [("OK", 8)]
        seen = []
        for n, data in enumerate(damaged):
            ends = data if data.endswith(b"\n") else data + b"\n"
            answers = await answered(ends, "d%d" % n)
            seen.append((a.out, [(m.name, m.get("n"), m.get("reason")) for m in answers]))
            if a.out != 8:
                await answered(protocol.encode("OUT", mask=8), "r%d" % n)
        task.cancel()
        return seen

    seen = asyncio.run(scenario())
    taken = [got for got in seen if got[0] != 8]
    assert taken == [(24, [("OK", 24, None)])] * len(taken)
    assert len(taken) <= 2, taken  # the newline flipped to a carriage return, or lost
    refused = [answers for mask, answers in seen if mask == 8]
    assert all(answers and all(name == "NAK" for name, _n, _r in answers) for answers in refused), refused
    reasons = {r for answers in refused for _name, _n, r in answers}
    assert reasons <= {"crc", "no_crc", "bad_byte", "empty", "unknown", "field"}, reasons
    assert "crc" in reasons


@pytest.mark.hil
def test_the_board_on_micropython_answers_no_damaged_out_line_with_another_mask(micropython):
    """The same damaged lines written to the firmware of the virtual pyramid (the MicroPython
    unix port, the modules as flashed), one at a time: every one is answered, none with an
    ``OK OUT`` of another mask than the line's own 24 (a taken line is always answered so),
    and all but the newline's damage with a ``NAK``."""
    damaged = _damaged(protocol.encode("OUT", mask=24))
    with VirtualPyramid("second", seed=5) as vp:

        def answers(since):
            return [m for _t, m in vp.emitted[since:] if m.name in ("OK", "NAK")]

        def written(data, since):
            vp.inject_to_device(data if data.endswith(b"\n") else data + b"\n")
            deadline = time.monotonic() + 5.0
            while not answers(since) and time.monotonic() < deadline:
                time.sleep(0.005)
            return answers(since)

        assert [(m.name, m.get("n")) for m in written(protocol.encode("OUT", mask=8), len(vp.emitted))] == [
            ("OK", 8)]
        since = len(vp.emitted)
        unanswered = [data for data in damaged if not written(data, len(vp.emitted))]
        got = answers(since)
    assert unanswered == []
    oks = [m.get("n") for m in got if m.name == "OK"]
    assert oks == [24] * len(oks) and len(oks) <= 2, oks
    naks = [m for m in got if m.name == "NAK"]
    assert len(naks) >= len(damaged) - len(oks)  # the rest: a NAK each (a line split in two: two)


def test_a_resumed_game_holds_its_dice_out_until_the_board_is_its_own():
    """A resumed game names its board (``uid``): the mask the table tells at once is held
    until a HELLO names that board (or the board's store holds the journal's boot), so a
    board of another game is never told this game's dice out."""
    uid = "E66141040327582E"
    seq = Sequencer(resume=("0A000001", 3), uid=uid)
    seq.opened(0.0)
    assert _outs(seq.told_out(24, 0.01)[1]) == []  # the port is open, no hello yet
    _events, lines = seq.receive(protocol.Message("HI", {"proto": 1, "boot": "0C000003", "seq": 0,
                                                         "acked": 0}), 0.1)
    assert not seq.confirmed and _outs(lines) == []  # a HI names no board
    assert _outs(seq.told_out(24, 0.2)[1]) == []  # the table wrote again meanwhile
    assert _outs(seq.tick(2.0)[1]) == []
    _events, lines = seq.receive(_hello("0C000003", name="HELLO"), 2.1)
    assert seq.confirmed and _outs(lines) == [24]  # its own board: told at once

    other = Sequencer(resume=("0A000001", 3), uid="0102030405060708")
    other.opened(0.0)
    other.told_out(24, 0.01)
    _events, lines = other.receive(_hello("0C000003", name="HELLO"), 0.1)
    assert other.state == "refused" and _outs(lines) == []
    assert _outs(other.told_out(24, 0.2)[1]) == [] and _outs(other.tick(5.0)[1]) == []


def test_a_resumed_links_dice_out_reach_the_port_only_after_its_boards_hello():
    """Through ``Link.send`` (what the table's ``DiceOut`` calls): nothing is written to the
    port for a resumed game's board until its HELLO came; then the mask held goes at once."""
    uid = "E66141040327582E"
    link = Link("loop://", resume=("0A000001", 3), uid=uid)
    written = []
    link.transport.write = written.append
    link.send("OUT", mask=24)
    assert _outs(written) == []
    hello = protocol.encode("HELLO", proto=1, fw="0.1.0", uid=uid, boot="0C000003", seq=0, oldest=1,
                            ed="second", sensor="ok", vb=False, prev=("0A000001", 3), acked=3)
    link.feed(hello)
    assert link.sequencer.confirmed and _outs(written) == [24]


def test_a_resumed_game_tells_its_board_once_the_store_vouches_for_it():
    seq = Sequencer(resume=("0A000001", 3), uid="E66141040327582E")
    seq.opened(0.0)
    seq.told_out(8, 0.01)
    seq.receive(protocol.Message("HI", {"proto": 1, "boot": "0C000003", "seq": 0, "acked": 0}), 0.1)
    _events, lines = seq.receive(protocol.Message("SYNCED", {"seq": 3, "boot": "0A000001"}), 0.2)
    assert seq.confirmed and _outs(lines) == [8]


def _subsequence(wanted, got):
    it = iter(got)
    return all(any(g == w for g in it) for w in wanted)


def _masks_after_each_die(events):
    """The mask of the dice out this leg after each die of a journal, by the engine alone."""
    head, game, masks = events[0], None, []
    for ev in events[1:]:
        if ev["type"] == "setup":
            game = Game(head["edition"], len(head["players"]), {int(k): v for k, v in ev["stacks"]})
        elif ev["type"] == "action":
            game.push(ev["action"])
        elif ev["type"] == "die":
            ink = " %s" % ev["ink"] if ev["colour"] == "grey" else ""
            game.push("pyramid %s%s %d" % (ev["colour"], ink, ev["value"]))
            masks.append(out_mask(get_edition(head["edition"]), game.dice_out))
    return masks


@pytest.mark.hil
def test_the_demos_board_hears_the_dice_out_after_every_die(tmp_path, monkeypatch, micropython):
    from camelhost import cli
    from camelhost.device import open as opening
    opened = []
    real = opening.open_pyramid

    def spy(*args, **kwargs):
        opened.append(real(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(opening, "open_pyramid", spy)
    journal = str(tmp_path / "demo.jsonl")
    # the smallest table (two seats, classic): the shortest demo that still plays a race
    assert cli.main(["demo", "--quiet", "--seats", "2", "--edition", "classic",
                     "--journal", journal]) == 0
    told = [m["n"] for _t, m in opened[0].virtual.emitted if m.name == "OK" and m.get("cmd") == "OUT"]
    masks = _masks_after_each_die(read_events(journal))
    assert len(masks) > 5 and any(masks)
    assert _subsequence(masks, told), (masks, told)


def _boot_answered_out(vp, boot, mask, timeout=30.0):
    """Wait up to ``timeout`` s (the link's tries of an ``OUT`` span 26 s at most) for boot
    ``boot``'s ``OK OUT n=<mask>``: one tapped after that boot's first line (the relay taps
    a boot's lines only once the boot before it is gone, so the boot before's answer to an
    ``OUT`` written just before a ``reboot``, however late it came, is never taken for the
    new boot's). True when it came."""
    deadline = time.monotonic() + timeout
    while True:
        lines = [m for _t, m in vp.emitted]
        first = next((i for i, m in enumerate(lines)
                      if m.name in ("HELLO", "HI", "HB") and m.get("boot") == boot), None)
        if first is not None and any(m.name == "OK" and m.get("cmd") == "OUT" and m.get("n") == mask
                                     for m in lines[first:]):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


@pytest.mark.hil
def test_a_board_restarted_mid_leg_names_a_die_among_the_dice_still_in(micropython):
    """The virtual pyramid at the sensor's shortest integration and lowest gain, its optics'
    noise tripled (seed 3): its third release, a purple die, is refused alone (the sensor saw
    too little light) and named among the dice still in once green and grey are out. The
    board is power-cycled after Cy took the pyramid ticket for it (nothing written to the
    journal after the restart): the link tells the new boot the dice out as soon as it says
    hello, so the table takes the purple die without asking for it again."""
    with VirtualPyramid("second", seed=3, settings={"integration_ms": 2.4, "gain": 1}, noise=3.0,
                        value_buttons=True) as vp, Link(vp.port, heartbeat_timeout=2.0) as link:
        out = io.StringIO()
        session = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None))
        table = Table(session, PlainDisplay(out), pyramid=vp, link=link)
        table.start()
        table.line(SETUP)

        def release():
            table.line("release")
            event = link.next_event(10)
            assert event is not None, out.getvalue()[-600:]
            table.pyramid_event(event)
            return event

        for _die in range(2):
            table.line("pyramid")
            assert release().kind == "die"
        assert session.game.dice_out == ["green", "grey"]
        table.line("pyramid")  # Cy's ticket, written down before the restart
        old = vp.boot_id
        vp.reboot()  # unplugged and plugged in again: the board forgets the dice out
        assert vp.boot_id != old
        # the new boot's own answer, not the old boot's to the ticket's OUT (written just
        # before the restart, it may be tapped after it began): a release before the new
        # boot holds the dice out is judged alone, the purple die refused as too dim
        held = out_mask(SECOND, ["green", "grey"])
        assert _boot_answered_out(vp, vp.boot_id, held), "the link did not tell the restarted board the dice out"
        since = len(out.getvalue())
        third = release()
        said = out.getvalue()[since:]
        assert (third.kind, third.colour, third.out) == ("die", "purple", held), said
        assert session.game.dice_out == ["green", "grey", "purple"]
        assert "the pyramid read the purple die among the dice still in it" in said, said


def _board_mask(vp):
    """The mask the board holds, by its answers: the ``n`` of its last ``OK OUT`` (no
    reboot, ``SET`` or ``SAVE`` here, which would clear it), ``None`` before any."""
    oks = [m.get("n") for _t, m in vp.emitted if m.name == "OK" and m.get("cmd") == "OUT"]
    return oks[-1] if oks else None


@pytest.mark.hil
def test_on_a_noisy_cable_the_board_ends_up_with_every_dice_out_the_table_told(micropython):
    """A leg and the next one's start through the virtual pyramid on a cable losing 3 % of
    its bytes both ways and flipping a bit in 0.5 % (seeded): ``OUT`` lines and their
    ``OK OUT`` are lost, and after every journal write the board comes to hold the leg's
    dice out (its own answers say so) within the link's retries, never left with an
    earlier mask until the table's next write."""
    with VirtualPyramid("second", seed=11, value_buttons=True) as vp, Link(vp.port) as link:
        written = []
        write = link.transport.write

        def spy(line):
            if line.startswith(b"OUT "):
                written.append(protocol.decode(line)["mask"])
            return write(line)

        link.transport.write = spy
        out = io.StringIO()
        session = Session("second", ["Ann", "Ben", "Cy"], seed=11, journal=Journal(None))
        table = Table(session, PlainDisplay(out), pyramid=vp, link=link)
        table.start()
        table.line(SETUP)
        vp.line_faults(loss=0.02, flip=0.005, seed=11)

        def holds_the_legs_mask(why):
            wanted = out_mask(SECOND, session.game.dice_out)
            deadline = time.monotonic() + 30.0  # the link gives up after 16 writes, 26 s at most
            while _board_mask(vp) != wanted and time.monotonic() < deadline:
                time.sleep(0.02)
            assert _board_mask(vp) == wanted, (why, wanted, _board_mask(vp), written, out.getvalue()[-400:])

        legs_dice = []
        while len(legs_dice) < 6:  # the leg's five dice, the leg scored, one of the next
            table.line("pyramid")
            holds_the_legs_mask("the pyramid ticket taken")
            while True:
                table.line("release")
                event = link.next_event(30)
                assert event is not None, out.getvalue()[-600:]
                table.pyramid_event(event)
                if event.kind == "die":
                    break
            legs_dice.append(list(session.game.dice_out))
            holds_the_legs_mask("die %d" % len(legs_dice))
        vp.line_faults()
        assert legs_dice[4] == [] and len(legs_dice[5]) == 1, legs_dice  # a new leg began
        oks = sum(1 for _t, m in vp.emitted if m.name == "OK" and m.get("cmd") == "OUT")
        assert link.stats["outs_resent"] > 0 and oks < len(written), (link.stats, oks, written)
        assert vp.mangled["lost"] > 0
