"""A whole second-edition leg played on the full screen by keys alone: every command
typed key by key, a die value completed by one key, a finish card through the
picker (one key), the leg scored on screen (RULES 1.10, 5)."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.screens import FinishCardPicker
from camelhost.ui.tui import TableApp
from textual.widgets import ContentSwitcher

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot


def test_a_whole_leg_by_keys(tmp_path):
    journal = Journal(str(tmp_path / "keys.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    # the leg-scoring panel, the leaders line and the journal are read, never the odds
    # (test_tui.py's whole leg types keys while the odds arrive)
    app = TableApp(session, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            async def keys(text, enter=True):
                await pilot.press(*scenes.keys_of(text))
                if enter:
                    await pilot.press("enter")
                await pilot.pause()

            await keys(scenes.SECOND_SETUP)
            await keys("leg yellow")          # Ann
            await keys("red 2")               # Ben: a die typed takes his pyramid ticket
            await keys("win")                 # Cy: the picker
            assert isinstance(app.screen, FinishCardPicker)
            await pilot.press("g")            # green, never drawn
            await pilot.pause()
            await keys("tile 9 -")            # Ann
            await keys("grey black ?")        # Ben: value unknown...
            await keys("3", enter=False)      # ... one key, no Enter
            assert session.phase == "turn" and session.current == 2
            await keys("blue 1")              # Cy
            await keys("pyramid")             # Ann takes a ticket
            await keys("purple 2")            # ... and the die
            await keys("leg blue")            # Ben
            await keys("yellow 1")            # Cy: the fifth die ends the leg
            await scenes.settle(pilot)
            assert app.query_one("#left", ContentSwitcher).current == "leg-box"
            panel = str(app.query_one("#legscore").content)
            assert panel.startswith("LEG 1 SCORED")
            for name in ("Ann", "Ben", "Cy"):
                assert any(r.startswith(name) for r in panel.splitlines()), name
            assert "Race 1, leg 2" in str(app.query_one("#leaders").content)
            await pilot.press("ctrl+q")

    asyncio.run(play())
    kinds = [e["type"] for e in journal.events]
    assert kinds.count("die") == 5 and kinds.count("value") == 1
    assert {"type": "action", "player": 2, "action": "finish winner green"} in journal.events
    assert session.game.leg == 2


@pytest.mark.process
def test_one_byte_that_is_no_utf8_gives_one_line_and_the_table_goes_on(tmp_path):
    """Issue 29 item 5 on the full screen: ``pyramid play`` in a terminal (a pty) that
    sends one Latin-1 byte (``leg red`` then ``\\xe9``): that line is refused in one line
    and the full screen goes on; the next line is taken; Ctrl-Q quits with code 0. The
    journal holds the lines before and after, never the damaged one."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import subprocess
    import sys
    import termios
    import time

    from camelhost.table.journal import read_events

    path = str(tmp_path / "g.jsonl")
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    pyramid = os.path.join(os.path.dirname(sys.executable), "pyramid")
    proc = subprocess.Popen([pyramid, "play", "--edition", "second", "--players",
                             "Ann,Ben,Cy", "--pyramid", "manual", "--seed", "3",
                             "--journal", path],
                            stdin=child, stdout=child, stderr=child, env=env,
                            close_fds=True)
    os.close(child)
    seen = bytearray()

    def read_until(text, limit=60.0):
        deadline = time.monotonic() + limit
        while text.encode() not in seen:
            assert proc.poll() is None, seen.decode("utf-8", "replace")[-2000:]
            assert time.monotonic() < deadline, (text, seen.decode("utf-8", "replace")[-2000:])
            if select.select([main], [], [], 0.2)[0]:
                try:
                    seen.extend(os.read(main, 65536))
                except OSError:
                    break

    def events():
        return [e.get("action") for e in read_events(path) if e.get("type") == "action"]

    def until(check, limit=30.0):
        deadline = time.monotonic() + limit
        while not check():
            assert time.monotonic() < deadline
            read_until("", 0.2) if proc.poll() is None else None
            time.sleep(0.1)

    try:
        read_until("F1 help")  # the command line's placeholder: the screen is up
        os.write(main, (scenes.SECOND_SETUP + "\r").encode())
        until(lambda: os.path.exists(path) and '"setup"' in open(path).read())
        os.write(main, b"leg red\xe9\r")
        del seen[:]
        read_until("it was skipped")  # the one line on the error line
        assert proc.poll() is None  # the table goes on
        os.write(main, b"leg blue\r")
        until(lambda: "leg blue" in events())
        os.write(main, b"\x11")  # Ctrl-Q
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    assert events() == ["leg blue"]
