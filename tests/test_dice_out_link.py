"""The dice out this leg reach the board from every table and after every restart (issue 32,
part A; docs/classifier.md "In play", docs/protocol.md ``OUT``): ``pyramid demo``'s board
hears them as ``pyramid play``'s does (the table tells any link it is given), and a board
that restarted mid-leg is told them again as soon as it says hello (the link keeps the last
``OUT``), not only at the table's next journal write."""

import io
import time

import pytest
from camelhost.device.events import out_mask
from camelhost.device.link import Link
from camelhost.device.sequencer import Sequencer
from camelhost.device.virtual import VirtualPyramid
from camelhost.table.controller import Table
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelup.board import protocol
from camelup.editions import get_edition
from camelup.game import Game

SECOND = get_edition("second")
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _hello(boot, seq=0, name="HI"):
    fields = {"proto": protocol.PROTOCOL_VERSION, "boot": boot, "seq": seq}
    if name == "HELLO":
        fields.update(uid="E66141040327582E", fw="t", ed="second")
    return protocol.Message(name, fields)


def _outs(lines):
    return [protocol.decode(line)["mask"] for line in lines if line.startswith(b"OUT ")]


def test_the_sequencer_tells_a_restarted_board_the_last_dice_out_once():
    seq = Sequencer()
    seq.opened(0.0)
    _events, lines = seq.receive(_hello("0A000001"), 0.1)
    assert _outs(lines) == []  # nothing told yet: nothing to say again
    seq.told_out(24)  # the table told the board: red and purple are out
    _events, lines = seq.receive(_hello("0A000001", name="HELLO"), 0.2)
    assert _outs(lines) == []  # the same boot already knows it
    _events, lines = seq.receive(_hello("0B000002"), 5.0)  # the board restarted
    assert _outs(lines) == [24]
    _events, lines = seq.receive(_hello("0B000002", name="HELLO"), 5.1)
    assert _outs(lines) == []  # told once a boot


def test_an_out_the_port_could_not_take_is_said_at_the_next_hello():
    seq = Sequencer()
    seq.opened(0.0)
    seq.receive(_hello("0A000001"), 0.1)
    seq.told_out(8, sent=False)  # the port was reconnecting
    seq.opened(3.0)
    _events, lines = seq.receive(_hello("0A000001"), 3.1)
    assert _outs(lines) == [8]


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


def _board_answered_out(vp, since, timeout=5.0):
    """Wait up to ``timeout`` s for the board's ``OK`` to an ``OUT`` among the lines it sent
    after the first ``since``; True when it came."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(m.name == "OK" and m.get("cmd") == "OUT" for _t, m in vp.emitted[since:]):
            return True
        time.sleep(0.02)
    return False


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
        old, since = vp.boot_id, len(vp.emitted)
        vp.reboot()  # unplugged and plugged in again: the board forgets the dice out
        assert vp.boot_id != old
        _board_answered_out(vp, since)  # without the link's word, nothing comes: released alone
        since = len(out.getvalue())
        third = release()
        said = out.getvalue()[since:]
        assert (third.kind, third.colour, third.out) == (
            "die", "purple", out_mask(SECOND, ["green", "grey"])), said
        assert session.game.dice_out == ["green", "grey", "purple"]
        assert "the pyramid read the purple die among the dice still in it" in said, said
