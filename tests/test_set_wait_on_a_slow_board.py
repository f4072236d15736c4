"""The wait for the board's answer to ``SET`` stretches as doctor's push wait does on
the emulated Pico, and a ``SET`` with no answer says what to do (tester s36tm finding
9: "no answer from the pyramid to SET within 3.0 s" on a busy machine, no next step)."""

import pytest
from camelhost.commands import doctor
from camelhost.device import calls
from camelhost.device.link import Link
from camelhost.device.transport import LinkError


def test_the_pseudo_terminal_stretch_is_doctors_push_stretch():
    assert calls.PSEUDO_TERMINAL_STRETCH == doctor.EMULATED_PUSH_TIMEOUT / doctor.PUSH_TIMEOUT


def test_an_unanswered_set_waits_the_stretched_time_and_names_the_next_step(monkeypatch):
    monkeypatch.setattr(calls, "SET_TIMEOUT", 0.05)  # seconds per attempt, x3 attempts
    sent = []
    link = calls.Calls(sent.append, stretch=lambda: calls.PSEUDO_TERMINAL_STRETCH)
    with pytest.raises(LinkError) as info:
        link.configure(gain=16)
    assert len(sent) == 3  # asked again when nothing came
    assert str(info.value) == ("no answer from the pyramid to SET within 0.2 s (the board "
                               "busy, or the link lost): run the same command again")
    assert getattr(info.value, "reason", None) is None


def test_a_refused_set_is_said_as_the_board_said_it():
    from camelup.board import protocol

    link = calls.Calls(lambda line: link.answer(protocol.decode_body("NAK gain")))
    with pytest.raises(LinkError) as info:
        link.configure(gain=16)
    assert str(info.value) == "the pyramid refused SET: gain" and info.value.reason == "gain"


def test_a_link_on_a_pseudo_terminal_gives_set_the_emulated_picos_time():
    assert Link("/dev/pts/4242").calls._stretch() >= calls.PSEUDO_TERMINAL_STRETCH
    assert Link("/dev/ttyACM7").calls._stretch() == 1.0
