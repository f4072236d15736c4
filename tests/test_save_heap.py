"""SAVE on a tight heap: the virtual pyramid (the real firmware on the MicroPython
unix port) stores a calibration profile with half the heap margin the heap test
guards (``tests/test_hil.py``: HEAP_MARGIN), and a refused profile leaves the pyramid
naming dice with the profile it had.

Before SAVE made room by letting the classifier in use go while the new one was
built (``pyramid.commands``), a 200 KiB heap (about 15 KB free) refused SAVE with
``NAK memory``, however often it was asked."""

import json
import os

import pytest
from camelhost.device.link import Link, LinkError
from camelhost.device.virtual import VirtualPyramid
from camelup.board.default_profiles import PROFILES

pytestmark = [pytest.mark.hil, pytest.mark.micropython, pytest.mark.process]

#: 24 KiB less than the virtual pyramid's 224 KiB: about 15 KB free after boot,
#: half of tests/test_hil.py's HEAP_MARGIN
TIGHT = "200K"


def _profile(edition):
    profile = json.loads(PROFILES[edition])
    profile["reject"] = profile["reject"] + 0.25  # a profile the board does not hold yet
    return profile


def test_save_stores_a_profile_on_a_tight_heap(micropython):
    with VirtualPyramid("second", seed=7, heapsize=TIGHT) as vp, Link(vp.port, heartbeat_timeout=5.0) as link:
        link.wait_hello()
        assert vp.memory()["free"] < 28 * 1024 // 2 + 2048  # the heap is as tight as meant
        profile = _profile("second")
        link.save_profile(profile)
        with open(os.path.join(vp.flash_dir, "profile.json")) as f:
            assert json.load(f)["reject"] == pytest.approx(profile["reject"])
        # and the pyramid names a released die with it
        vp.return_dice()
        fell = vp.release()
        event = link.next_event(10)
        assert event.kind in ("die", "unknown")
        if event.kind == "die":
            assert event.label() == fell.dice[0][0]
    assert "MemoryError" not in vp.board_log()


def _broken():
    profile = _profile("second")
    profile["classes"]["blue"]["mean"] = [0.1, 0.2]  # the classifier's check refuses it
    return profile


@pytest.mark.parametrize("refused", [lambda: _profile("classic"), _broken], ids=["other_edition", "broken"])
def test_a_refused_profile_leaves_the_pyramid_naming_dice(refused, micropython):
    with VirtualPyramid("second", seed=8, heapsize=TIGHT) as vp, Link(vp.port, heartbeat_timeout=5.0) as link:
        link.wait_hello()
        with pytest.raises(LinkError, match="bad_profile"):
            link.save_profile(refused())
        assert not os.path.exists(os.path.join(vp.flash_dir, "profile.json"))
        vp.return_dice()
        fell = vp.release()
        event = link.next_event(10)
        assert event.kind in ("die", "unknown")
        if event.kind == "die":
            assert event.label() == fell.dice[0][0]
    assert "MemoryError" not in vp.board_log()
