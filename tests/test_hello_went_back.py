"""A pyramid whose record of the game's boot went back (tester2 s35, finding 7c): its
``HELLO`` (or short ``HI``) names the boot the journal followed, with a last event below
the one the journal took of it. A boot's seq never goes back, so it is another board
that drew the same boot id (every emulated Pico did, before s35) or one that lost its
memory: the link says so in one line and takes nothing of it, where it used to drop its
dice as ones it already had, unsaid. The sequencer is driven by hand (messages in,
events and lines out; no port, no clock)."""

from camelhost.device.events import decode
from camelhost.device.sequencer import Sequencer
from camelup.board import protocol

A, B = "F82C7579", "C2538483"
UID = "E6614103E7452D2F"


def _msg(name, kind=None, **fields):
    return decode(protocol.encode(name, kind, **fields))


def _hello(boot, seq, acked=0, prev=None, uid=UID):
    return _msg("HELLO", proto=1, fw="0.1.0", uid=uid, boot=boot, seq=seq, oldest=1, ed="second",
                sensor="ok", vb=False, prev=prev, acked=acked)


def _hi(boot, seq, acked=0, prev=None):
    return _msg("HI", proto=1, boot=boot, seq=seq, prev=prev, acked=acked)


def _evt(boot, seq, colour="green"):
    return _msg("EVT", "die", seq=seq, boot=boot, col=colour, val=None, m=300, raw=(1, 2, 3, 4))


def _feed(seq, *messages):
    handed = []
    for t, message in enumerate(messages, start=1):
        events, _lines = seq.receive(message, 0.1 * t, "raw")
        for event in events:
            seq.took(event)
        handed += events
    return handed


WENT_BACK = ("the pyramid's record of boot F82C7579 went back (event 0 after 11): it is not the "
             "board this game was played on, or its memory was lost: connect that pyramid, or "
             "resume with --pyramid manual and type the dice")


def test_a_resumed_games_boot_said_again_from_event_0_is_refused_in_one_line():
    seq = Sequencer(resume=(A, 11), uid=UID, port="/dev/pts/8")
    seq.opened(0.0)
    handed = _feed(seq, _hello(A, 0), _evt(A, 1), _evt(A, 2), _evt(A, 12), _hb(A, 12))
    assert handed == [] and seq.state == "refused"
    assert seq.refused == WENT_BACK
    assert seq.tick(30.0) == ([], [])  # nothing asked of it, nothing acknowledged


def _hb(boot, seq):
    return _msg("HB", boot=boot, seq=seq, up=1, sensor="ok")


def test_its_short_hi_alone_is_refused_too_and_the_games_own_dice_source_is_named():
    seq = Sequencer(resume=(A, 11), uid=UID)
    seq.board_fix = "resume with --pyramid virtual"
    seq.opened(0.0)
    assert _feed(seq, _hi(A, 3), _evt(A, 1)) == []
    assert seq.refused == ("the pyramid's record of boot F82C7579 went back (event 3 after 11): it "
                           "is not the board this game was played on, or its memory was lost: "
                           "resume with --pyramid virtual")


def test_the_same_board_unplugged_and_back_with_its_boot_gone_back_is_refused_mid_game():
    # no resume: the game's first HELLO, five dice, the cable out and in, and the boot
    # it followed says event 0 (an emulated board killed and started again before s35)
    seq = Sequencer()
    seq.opened(0.0)
    handed = _feed(seq, _hello(A, 0), *[_evt(A, n) for n in range(1, 6)])
    assert [e.seq for e in handed] == [1, 2, 3, 4, 5]
    seq.lost()
    seq.opened(1.0)
    assert _feed(seq, _hello(A, 0), _evt(A, 1)) == []
    assert seq.state == "refused"
    assert seq.refused.startswith("the pyramid's record of boot F82C7579 went back (event 0 after 5)")


def test_the_games_boot_where_the_journal_left_it_or_further_is_taken_as_before():
    at = Sequencer(resume=(A, 11), uid=UID)
    at.opened(0.0)
    assert _feed(at, _hello(A, 11)) == [] and at.state == "connected" and at.refused is None
    on = Sequencer(resume=(A, 11), uid=UID)
    on.opened(0.0)
    handed = _feed(on, _hello(A, 12, acked=11), _evt(A, 12))
    assert [(e.boot, e.seq) for e in handed] == [(A, 12)] and on.refused is None


def test_a_new_boot_after_the_journals_is_walked_not_refused():
    # the board restarted (a new random boot id): its store replays the journal's boot
    seq = Sequencer(resume=(A, 11), uid=UID)
    seq.opened(0.0)
    _feed(seq, _hello(B, 0, prev=(A, 13)))
    assert seq.refused is None and seq.state == "connected"
    handed = _feed(seq, _evt(A, 12), _evt(A, 13))
    assert [(e.boot, e.seq) for e in handed] == [(A, 12), (A, 13)]
