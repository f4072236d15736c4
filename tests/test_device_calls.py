"""The command side of the link (``camelhost.device.calls.Calls``) against a scripted
board: what it sends and how it takes the board's replies."""

import pytest
from camelhost.device import calls as calls_mod
from camelhost.device.calls import Calls
from camelhost.device.transport import LinkError
from camelup.board import protocol


class Board:
    """Answers each framed line at once, from a script of SAVE replies."""

    def __init__(self, save_replies):
        self.save_replies = list(save_replies)
        self.sent = []
        self.calls = Calls(self.write)

    def write(self, line):
        msg = protocol.decode(line)
        self.sent.append(msg.name)
        if msg.name == "PROF":
            reply = protocol.encode("OK", cmd="PROF", n=msg["offset"] + len(msg["chunk"].encode()))
        elif msg.name == "SAVE":
            reason = self.save_replies.pop(0)
            reply = (protocol.encode("NAK", reason=reason) if reason
                     else protocol.encode("OK", cmd="SAVE", n=msg["length"]))
        else:
            raise AssertionError(msg.name)
        self.calls.answer(protocol.decode(reply))


PROFILE = {"edition": "classic", "classes": {"red": {"mean": [0.5, 0.3, 0.2]}}}


def test_save_is_asked_again_while_the_board_says_its_heap_was_too_fragmented():
    # seen in a loaded CI run: SAVE refused with NAK memory, the calibration lost
    board = Board(["memory", "memory", None])
    board.calls.save_profile(PROFILE, timeout=1.0)
    assert board.sent.count("SAVE") == 3


def test_save_gives_up_after_its_tries_and_names_the_reason():
    board = Board(["memory"] * calls_mod.SAVE_TRIES)
    with pytest.raises(LinkError, match="refused SAVE: memory"):
        board.calls.save_profile(PROFILE, timeout=1.0)
    assert board.sent.count("SAVE") == calls_mod.SAVE_TRIES


def test_a_bad_profile_is_not_asked_again():
    board = Board(["bad_profile", None])
    with pytest.raises(LinkError, match="bad_profile"):
        board.calls.save_profile(PROFILE, timeout=1.0)
    assert board.sent.count("SAVE") == 1


class LateBoard(Board):
    """Answers ``SAVE`` only after ``delay`` seconds (a loaded machine's emulated Pico)."""

    def __init__(self, delay, stretch):
        super().__init__([None])
        self.delay = delay
        self.calls = Calls(self.write, stretch=lambda: stretch)

    def write(self, line):
        msg = protocol.decode(line)
        if msg.name != "SAVE":
            return super().write(line)
        import threading

        self.sent.append(msg.name)
        reply = protocol.decode(protocol.encode("OK", cmd="SAVE", n=msg["length"]))
        threading.Timer(self.delay, self.calls.answer, (reply,)).start()


def test_the_save_wait_is_stretched_like_sets_on_a_slow_board(monkeypatch):
    # tester s37tm finding 5: the emulated Pico on a loaded machine answered SAVE after
    # the fixed 5 s, and the host took a saved calibration for lost
    monkeypatch.setattr(calls_mod, "SAVE_TIMEOUT", 0.2)
    LateBoard(0.5, stretch=calls_mod.PSEUDO_TERMINAL_STRETCH).calls.save_profile(PROFILE)
    with pytest.raises(LinkError, match="no answer from the pyramid to SAVE"):
        LateBoard(0.5, stretch=1.0).calls.save_profile(PROFILE)
