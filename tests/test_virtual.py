"""VirtualPyramid + Link: the real firmware under the MicroPython unix port, over a pty."""

import pytest
from camelhost.device.link import Link
from camelhost.device.virtual import VirtualPyramid

pytestmark = [pytest.mark.hil, pytest.mark.micropython]


@pytest.fixture(scope="module")
def rig(micropython):  # the fixture skips when the unix port cannot be installed here
    with VirtualPyramid("second", seed=11) as vp, Link(vp.port, heartbeat_timeout=3.0) as link:
        yield vp, link


def test_a_leg_of_dice_arrives_with_the_colours_that_fell(rig):
    vp, link = rig
    vp.return_dice()
    seen = []
    read = 0
    for _ in range(6):
        fell = vp.release()
        event = link.next_event(10)
        assert event is not None, vp.board_log()
        assert (event.boot, event.seq) == (fell.boot, fell.seq)
        # a badly seated die may be rejected as unknown (the host then asks), never misread
        assert event.kind in ("die", "unknown"), event
        if event.kind == "die":
            read += 1
            assert event.label() == fell.dice[0][0]
        assert event.value is None  # no value buttons: the host asks the player
        seen.append(fell.dice[0][0].split("-")[0])
    assert sorted(seen) == sorted(["blue", "green", "yellow", "red", "purple", "grey"])
    assert read >= 4
    # the pyramid is empty now: a push releases nothing
    fell = vp.release()
    assert fell.dice == []
    assert link.next_event(10).kind == "nodie"


def test_double_and_empty_releases_are_reported_as_such(rig):
    vp, link = rig
    vp.return_dice()
    fell = vp.release_double()
    assert len(fell.dice) == 2
    assert link.next_event(10).kind == "double"
    vp.release_empty()
    assert link.next_event(10).kind == "nodie"
    assert link.stats["bad_lines"] == 0


def test_host_commands_answer(rig):
    vp, link = rig
    assert link.ping() < 5.0
    cfg = link.configure()
    assert cfg["ed"] == "second" and cfg["vb"] is False
    vp.place("red")
    on, off = link.sample()
    assert on[1] > on[2] and on[1] > off[1]  # red channel leads, LED adds light
    vp.place("empty")


def test_a_push_the_firmware_first_looks_at_late_is_still_seen_and_lasts_its_length(micropython):
    """The simulated slider (``sim_board.Head``): a firmware kept off the CPU through
    the whole 30 ms push (a loaded machine) finds the slider still held at its first
    read, for the push's length from there, then out; a firmware that looks at once
    sees the push on its own timeline (seed 71's fault-free soak game waited forever
    for a push the board never saw)."""
    from camelhost import paths

    code = (
        "from sim_board import Head\n"
        "h = Head()\n"
        "h.push(1000, 30, 10, 5000, 'red', 0)\n"
        "late = [h.slider_pushed(t) for t in (1100, 1120, 1132, 1140)]\n"
        "h.push(2000, 30, 10, 5000, 'red', 0)\n"
        "prompt = [h.slider_pushed(t) for t in (2000, 2010, 2029, 2033, 2040)]\n"
        "print(late, prompt)\n"
    )
    done = micropython(code, [paths.SIM_DIR, paths.FIRMWARE_DIR, paths.SHARED_DIR])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == "[True, True, False, False] [True, True, True, False, False]".split()


def test_a_value_button_the_firmware_first_looks_at_late_is_still_held(micropython):
    """The simulated value button (``sim_board.Head``): the player holds it for
    ``_BUTTON_MS`` from the firmware's first look at it after the die dropped, so a
    firmware kept off the CPU for over a second after the drop (a loaded machine: the
    grey die's ink test read its value as '?' in 2 runs of 9) still reads it on two
    polls in a row, and so does a prompt one; the other buttons stay up, and the hold
    ends."""
    from camelhost import paths

    code = (
        "from sim_board import Head, _BUTTON_MS\n"
        "h = Head()\n"
        "h.push(1000, 30, 10, 5000, 'red', 2)\n"  # dropped at 1010, button 2
        "late = [h.button(t, v) for t, v in ((3000, 1), (3000, 2), (3010, 2), (3010, 3),"
        " (3000 + _BUTTON_MS, 2))]\n"
        "h.push(5000, 30, 10, 5000, 'red', 3)\n"  # dropped at 5010, button 3
        "prompt = [h.button(t, 3) for t in (5005, 5020, 5030, 5020 + _BUTTON_MS)]\n"
        "print(late, prompt)\n"
    )
    done = micropython(code, [paths.SIM_DIR, paths.FIRMWARE_DIR, paths.SHARED_DIR])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ("[False, True, True, False, False] [False, True, True, False]"
                                   .split())
