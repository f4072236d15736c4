"""A page left open through a crash reconnects by itself to the resumed game (s36tp
tester finding 21), in Debian's headless Chromium: the board of a LAN game stops (the
laptop crashed), the game is resumed from its journal on the same machine and port,
and the page that was open, at its old address, turns back to "live" and shows the
resumed game, with nobody touching it."""

import pytest
from camelhost.table.display import Seam
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import odds_view
from camelhost.web.follow import LiveBoard
from camelhost.web.server import WebBoard

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"

pytestmark = [pytest.mark.xdist_group("web_browser"), pytest.mark.process]


def quick_odds(session):
    return odds_view(session, samples=500)


def test_an_open_page_reconnects_to_the_resumed_game_at_its_old_address(browser, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = str(tmp_path / "g.jsonl")
    context = browser.new_context()
    page = context.new_page()
    journal = Journal(path)
    s = Session("second", ["Ann", "Ben", "Cy"], seed=63, journal=journal)
    board = WebBoard("127.0.0.1", 0, token=True, game=journal.game_id)  # as --web 0.0.0.0
    with board, LiveBoard(board, Seam(s, compute=quick_odds)) as follower:
        for text in (SETUP, "leg red", "pyramid", "blue 2"):
            s.command(text)
        assert follower.wait_idle()
        address, port, before = board.url, board.port, str(s.version)
        page.goto(address)
        page.wait_for_function("v => document.documentElement.dataset.version === v && "
                               "document.getElementById('link').textContent === 'live'",
                               arg=str(s.version), timeout=20000)
    journal.close()  # the laptop crashed: the board is gone, the journal stays
    page.wait_for_function("() => document.getElementById('link').textContent === "
                           "'reconnecting'", timeout=20000)

    journal = Journal.resume(path)
    s = Session.resume(journal)
    s.command("leg blue")
    assert str(s.version) != before  # what the page shows next can only come from here
    board = WebBoard("127.0.0.1", port, token=True, game=journal.game_id)
    assert board.url == address  # the QR code every phone scanned is still the key
    with board, LiveBoard(board, Seam(s, compute=quick_odds)) as follower:
        assert follower.wait_idle()
        page.wait_for_function("v => document.documentElement.dataset.version === v && "
                               "document.getElementById('link').textContent === 'live'",
                               arg=str(s.version), timeout=30000)
        page.evaluate("() => { location.href = 'about:blank'; }")
        page.wait_for_url("about:blank")
    journal.close()
    context.close()
