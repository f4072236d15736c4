"""What comes back on a port the pyramid was lost from is not taken for the game's pyramid
until its HELLO says so (docs/protocol.md, "Reconnecting"): sans-IO, through the
link's ``Sequencer``."""

from camelhost.device.events import decode
from camelhost.device.sequencer import Sequencer
from camelup.board import protocol

A, B = "AAAAAAAA", "BBBBBBBB"
OURS, THEIRS = "E6614103E7452D2F", "E66164084B1F3A21"


def msg(name, kind=None, **fields):
    return decode(protocol.encode(name, kind, **fields))


def hello(boot, seq, uid, acked=0, prev=None):
    return msg("HELLO", proto=1, fw="0.1.0", uid=uid, boot=boot, seq=seq, oldest=1, ed="second",
               sensor="ok", vb=False, prev=prev, acked=acked)


def hi(boot, seq, acked=0, prev=None):
    return msg("HI", proto=1, boot=boot, seq=seq, prev=prev, acked=acked)


def evt(boot, seq):
    return msg("EVT", "die", seq=seq, boot=boot, col="red", val=2, m=300, raw=(1, 2, 3, 4))


def _names(lines):
    return [protocol.unframe(line).split(" ")[0] for line in lines]


def _playing():
    """A sequencer that served board OURS (boot A, one die taken), then lost its port."""
    seq = Sequencer()
    seq.opened(0.0)
    seq.receive(hello(A, 0, OURS), 0.1)
    events, _lines = seq.receive(evt(A, 1), 0.2)
    assert [e.seq for e in events] == [1]
    seq.took(events[0])
    seq.tick(0.3)
    seq.lost()
    return seq


def test_another_board_on_the_port_after_a_loss_is_refused_before_anything_is_asked_of_it():
    seq = _playing()
    _events, lines = seq.opened(5.0)
    assert _names(lines) == ["HELLO?"]  # the probe, nothing else
    events, lines = seq.receive(hi(B, 3), 5.1)  # a board, but which?
    events2, lines2 = seq.receive(evt(B, 3), 5.2)
    assert events == events2 == []
    # asked of it: only its record of boot A (a SYNC that replays nothing, to= its seq)
    for line in lines + lines2:
        body = protocol.unframe(line)
        assert body.startswith("HELLO?") or body == "SYNC 1 boot=%s to=1" % A, body
    events, lines = seq.receive(hello(B, 3, THEIRS), 5.3)
    assert events == [] and lines == []
    assert seq.state == "refused"
    assert THEIRS in seq.refused and OURS in seq.refused


def test_the_same_board_back_after_a_loss_goes_on_at_once():
    # unplugged and plugged in again: it restarted, its HI names the boot before
    seq = _playing()
    seq.opened(5.0)
    _events, lines = seq.receive(hi(B, 0, prev=(A, 1)), 5.1)
    assert seq.confirmed and seq.state == "connected"
    assert "SYNC" in _names(lines)  # the walk from boot A on starts at once


def test_the_same_boards_hello_after_a_loss_is_taken():
    seq = _playing()
    seq.opened(5.0)
    seq.receive(hello(A, 2, OURS, acked=1), 5.1)
    assert seq.confirmed and seq.refused is None
    events, _lines = seq.receive(evt(A, 2), 5.2)
    assert [e.seq for e in events] == [2]
