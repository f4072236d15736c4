"""A bot's die whose value the pyramid could not read (``val=?``: no value buttons, the
default build). On a real pyramid the die lies on the table showing its face, so the
table waits for a player to key 1, 2 or 3, as for a person's die; before (tester s35-2
finding 6) the table made a value up (``bots.value_for_unknown``) and moved the camel by
it, and the board on the table and the program disagreed from the first bot die on. The
virtual pyramid has no die on a table: its bots keep the seeded value."""

import io
import os
import re
import subprocess
import sys
import threading
import time

import pytest
from camelhost.device.events import DieEvent
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _green_unread(seq=1):
    """The pyramid's die line for the green die, its value not read (``val=?``)."""
    return DieEvent("die", "B1", seq, "EVT %d die col=green val=?*0" % seq, colour="green",
                    value=None)


def _bens_ticket(pyramid=None):
    """Ann (a person) takes the blue leg ticket, then Ben (a bot) a pyramid ticket; the
    table then starts: on a real pyramid (``pyramid=None``) or the virtual one."""
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, bots=[1, 2], journal=Journal(None))
    s.command(SETUP)
    s.command("leg blue")  # Ann
    s.command("pyramid")  # Ben, the bot: his die comes from the pyramid
    t = Table(s, PlainDisplay(out), pyramid=pyramid, manual=False)
    t.start()
    return t, out


def _green(session):
    return next(space for space, stack in session.game.stacks.items() if "green" in stack)


def test_on_a_real_pyramid_a_bots_unread_value_waits_for_a_players_key():
    t, out = _bens_ticket()
    s = t.session
    assert s.phase == "die" and s.current == 1  # nothing released for a bot: the slider is real
    t.pyramid_event(_green_unread())
    # asked at the table, the camel not moved, no value made up in the journal
    assert s.phase == "value" and s.current == 1
    assert _green(s) == 1
    assert s.journal.events[-1]["type"] == "die" and s.journal.events[-1]["value"] is None
    lines = out.getvalue().splitlines()
    assert lines[-2:] == ["The green die is out, value unknown: press 1, 2 or 3",
                          "> value of the die? press 1, 2 or 3"]
    assert not any(line.startswith("DIE green") for line in lines)
    t.line("3")  # the face the die shows on the table
    assert [e for e in s.journal.events if e["type"] == "value"] == [{"type": "value",
                                                                       "value": 3}]
    assert _green(s) == 4
    assert "DIE green 3 (Ben's pyramid ticket): the green camel moves forward 3\n" in \
        out.getvalue()
    assert s.current != 1  # Ben's turn is over: Cy, the other bot, has acted since


def test_a_wrong_key_for_a_bots_die_is_one_line_and_the_die_still_waits():
    t, out = _bens_ticket()
    s = t.session
    t.pyramid_event(_green_unread())
    events = len(s.journal.events)
    t.line("4")
    said = out.getvalue().splitlines()
    assert said[-1].startswith("! ") and s.phase == "value" and len(s.journal.events) == events
    assert _green(s) == 1


class _Virtual:
    """The virtual pyramid's controls, as the table drives them."""

    def __init__(self):
        self.calls = []

    def release(self):
        self.calls.append("release")

    def return_dice(self):
        self.calls.append("return")


def test_the_virtual_pyramid_keeps_the_seeded_value_for_a_bots_die():
    values = []
    for _run in range(2):
        t, out = _bens_ticket(pyramid=_Virtual())
        s = t.session
        t.pyramid_event(_green_unread())
        assert s.phase != "value"  # nobody asked: no die lies on a table
        keyed = [e["value"] for e in s.journal.events if e["type"] == "value"]
        assert len(keyed) == 1 and keyed[0] in (1, 2, 3)
        assert _green(s) == 1 + keyed[0]
        values.append(keyed[0])
    assert values[0] == values[1]  # seeded: the same game gives the same value


@pytest.mark.process
@pytest.mark.hil
@pytest.mark.micropython
def test_a_bots_die_from_the_firmware_on_a_port_waits_for_its_face(micropython, tmp_path):
    """End to end, as the tester played it: the real firmware (value buttons off, as
    shipped) on simulated hardware behind a pty, opened by its path as a real pyramid
    is; every seat a bot. The first die (a bot's) waits for its value; the face keyed is
    the one the die fell with, and that is how far its camel moves."""
    from camelhost.device.virtual import VirtualPyramid
    from camelhost.table.journal import read_events

    exe = os.path.join(os.path.dirname(sys.executable), "pyramid")
    path = str(tmp_path / "race.jsonl")
    with VirtualPyramid("second", seed=4, value_buttons=False) as vp:
        play = subprocess.Popen(
            [exe, "play", "--pyramid", vp.port, "--plain", "--players", "Ann,Ben,Cy",
             "--bots", "Ann,Ben,Cy", "--seed", "4", "--journal", path],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, bufsize=1)
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(
            line.rstrip("\n") for line in play.stdout), daemon=True)
        reader.start()

        def say(text):
            play.stdin.write(text + "\n")
            play.stdin.flush()

        try:
            fell, keyed, i = None, False, 0
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline and play.poll() is None:
                if i >= len(lines):
                    time.sleep(0.05)
                    continue
                line, i = lines[i], i + 1
                if line == "> setup":
                    say("draw")
                elif re.match(r"> \w+: release a die from the pyramid", line):
                    if keyed:
                        break  # the next bot's die: what was asked is done
                    fell = vp.release().dice[0]
                elif line.startswith("> value of the die?"):
                    assert fell is not None and not keyed, lines
                    say(str(fell[1]))  # the face the die shows
                    keyed = True
                elif line.startswith("DIE "):
                    assert keyed, "a bot's die moved before its value was keyed: %r" % lines
            say("quit")
            assert play.wait(60) == 0, lines[-20:]
        finally:
            if play.poll() is None:
                play.kill()
                play.wait(10)
    assert keyed, lines[-30:]
    colour, face = fell[0], fell[1]
    die = next(line for line in lines if line.startswith("DIE "))
    assert die.startswith("DIE %s %d (Ann's pyramid ticket)" % (colour, face)), die
    values = [e["value"] for e in read_events(path) if e["type"] == "value"]
    assert values == [face]
