"""The emulator's keys are named only where they work (s35): a pyramid opened through
its pseudo-terminal's path (``pyramid play --pyramid /dev/pts/N``) that stops answering
is said without "x in the emulator's terminal" unless the board behind it is the emulated
Pico (``pyramid emulate``, whose HELLO names ``sources.EMULATED_UID`` and whose terminal
takes that key). A virtual pyramid's pty has no emulator's terminal: the table says it
is a pseudo-terminal, no cable to check, and how to resume, without a key to press."""

import io
import time

import pytest
from camelhost.device.link import Link
from camelhost.device.open import presence
from camelhost.device.sources import EMULATED_UID
from camelhost.device.virtual import VirtualPyramid
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

pytestmark = pytest.mark.process  # the virtual pyramid's firmware, on its pty

KEY = "(x in the emulator's terminal)"


def _away_said(uid):
    """What a plain table says when the pyramid behind a pty path, a virtual pyramid with
    the unique id ``uid``, stops answering (every byte lost on its line, its port open):
    ``(the PyramidPresence, the line said)``."""
    with VirtualPyramid("second", seed=3, uid=uid) as vp:
        link = Link(vp.port, heartbeat_timeout=1.0)  # silence noticed after 1 s
        link.open()
        try:
            assert link.wait_hello(30)["uid"] == uid
            vp.line_faults(loss=1.0)  # the board goes silent, its pty stays open
            deadline = time.monotonic() + 30
            away = presence(link)
            while (away is None or away.present) and time.monotonic() < deadline:
                time.sleep(0.05)
                away = presence(link)
        finally:
            link.close()
    out = io.StringIO()
    journal = Journal(None, pyramid=vp.port)
    journal.resume_command = "pyramid play --resume g.jsonl --plain --pyramid %s" % vp.port
    table = Table(Session("second", ["Ann", "Ben", "Cy"], seed=5, journal=journal),
                  PlainDisplay(out), manual=False)
    table.start()
    table.line("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    said = len(out.getvalue())
    table.pyramid_event(away)
    return away, out.getvalue()[said:].splitlines()[0]


def test_a_virtual_pyramids_pty_gone_silent_names_no_emulator_key():
    away, line = _away_said("E66141040327582E")  # the virtual pyramid's own id
    assert not away.present and away.pty and not away.emulated
    assert KEY not in line and "emulat" not in line, line
    assert line == (
        "the pyramid is not answering: its port %s is a pseudo-terminal (no cable to "
        "check), still open; type the dice meanwhile, e.g. 'blue 2'; it answers again once "
        "the program behind it restarts the board, or quit and resume with its port: "
        "pyramid play --resume g.jsonl --plain --pyramid PORT" % away.port)


def test_the_emulated_picos_pty_gone_silent_names_its_reset_key():
    # the same silence from a board whose HELLO is the emulated Pico's: its terminal
    # takes x, and the table says so
    away, line = _away_said(EMULATED_UID)
    assert not away.present and away.pty and away.emulated
    assert "(an emulated pyramid, no cable to check)" in line and KEY in line, line


def test_an_emulated_image_s_own_id_is_known_by_the_emulator_s_mark():
    # since each --flash image is its own board, its id is the mark then its own four
    # bytes: still the emulator's terminal behind the port
    away, line = _away_said("55565758A1B2C3D4")
    assert away.emulated and KEY in line, line


def test_an_id_without_the_mark_at_its_start_names_no_emulator_key():
    away, line = _away_said("A1B2C3D455565758")
    assert not away.emulated and KEY not in line, line
