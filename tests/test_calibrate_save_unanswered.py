"""A SAVE the board answers too late (tester s37tm finding 5): on a loaded machine the
emulated Pico saved the profile after the host had given up, and the host said "nothing
was saved", then set the board back to the old settings under the new profile. Now the
host asks the board (``INFO``) what it holds before it says anything or puts anything
back. On the virtual pyramid, its ``OK SAVE`` reply lost on the way."""

import io
import json
import os

import pytest
from camelhost.device import calls as calls_mod
from camelhost.errors import CliError
from camelhost.tools import calibrate
from camelhost.tools.monitor import connect

pytestmark = [pytest.mark.hil, pytest.mark.micropython, pytest.mark.process]


def _lose_replies(pyramid, *names):
    """The board's replies named ``names`` (``OK SAVE``, ``INFO``) never reach the host,
    from the first ``SAVE`` on (as a reply that comes after the host gave up)."""
    calls = pyramid.link.calls
    answer = calls.answer
    state = {"saving": False}
    write = calls._write

    def writing(line):
        if line.startswith(b"SAVE") if isinstance(line, bytes) else line.startswith("SAVE"):
            state["saving"] = True
        return write(line)

    def answering(msg):
        said = "OK SAVE" if msg.name == "OK" and msg.get("cmd") == "SAVE" else msg.name
        if state["saving"] and said in names:
            return None
        return answer(msg)

    calls._write = writing
    calls.answer = answering


@pytest.fixture
def second(micropython, monkeypatch):
    from camelhost.device.virtual import VirtualPyramid

    monkeypatch.setattr(calls_mod, "SAVE_TIMEOUT", 0.5)
    with VirtualPyramid("second", seed=3) as vp:
        yield vp


def _settings_on_flash(vp):
    with open(os.path.join(vp.flash_dir, "settings.json")) as f:
        return json.load(f)


def test_a_save_answered_too_late_is_found_saved_and_keeps_its_settings(second):
    out = io.StringIO()
    with connect(second.port) as pyramid:
        _lose_replies(pyramid, "OK SAVE")
        result = calibrate.calibrate(pyramid, calibrate.VirtualDriver(second), samples=3,
                                     gain=4, integration=24.0, out=out)
        said = out.getvalue()
        assert result.saved, said
        assert "answered SAVE late" in said and "holds the new profile" in said, said
        assert "nothing was saved" not in said
        now = pyramid.link.configure()
        assert (now["it"], now["gain"]) == (24, 4)  # the new profile's, not put back
    kept = _settings_on_flash(second)
    assert (kept["integration_ms"], kept["gain"]) == (24, 4)


def test_a_board_that_does_not_say_what_it_holds_is_left_at_the_sessions_settings(second):
    with connect(second.port) as pyramid:
        _lose_replies(pyramid, "OK SAVE", "INFO")
        with pytest.raises(CliError) as info:
            calibrate.calibrate(pyramid, calibrate.VirtualDriver(second), samples=3,
                                gain=4, integration=24.0, out=io.StringIO())
        line = str(info.value)
        assert "nothing was saved" not in line and "\n" not in line, line
        assert ("may have saved it or not: unplug it and plug it back in, then pyramid "
               "monitor --port %s --count 1 shows the settings it runs (24.0 ms and "
               "gain 4x if it saved the new profile)" % second.port) in line, line
        now = pyramid.link.configure()
        assert (now["it"], now["gain"]) == (24, 4)  # no old settings under a new profile
