"""Tester s36tp's findings on the web page at a race's end (s36fixw): on a phone the
revealed finish piles had the tickets panel under them, its piles still "face down" and
the finished leg's tickets left (finding 6); after ``unscored`` an empty "Best now"
panel and "none now" odds stood under a race that is over (finding 11)."""

import io

import pytest
from camelhost.table.controller import Table
from camelhost.table.display import Seam
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import odds_view
from camelhost.ui.plain import PlainDisplay
from camelhost.web.follow import LiveBoard
from camelhost.web.server import WebBoard
from headless import leave

NAMES = ["Ann", "Ben", "Cy"]
#: a race one die from its end (yellow, carrying red and purple, on 16), a card on each
#: finish pile
NEAR_THE_END = ("setup 1:blue 2:green 3:yellow,red,purple 14:black 15:white",
                "fix 14:blue 15:green 16:yellow,red,purple 10:black 11:white",
                "win blue", "lose red")


def _page_after(browser, lines, viewport, check):
    out = io.StringIO()
    s = Session("second", NAMES, seed=1, journal=Journal(None))
    seam = Seam(s, compute=lambda session: odds_view(session, samples=300))
    table = Table(s, PlainDisplay(out), pyramid=None, manual=False, seam=seam)
    table.start()
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    try:
        with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, seam) as follower:
            for line in lines:
                table.line(line)
            assert follower.wait_idle()
            page.goto(board.url)
            check(page, s)
            leave(page)
    finally:
        context.close()
    assert problems == []


@pytest.mark.process
@pytest.mark.xdist_group("web_browser")
@pytest.mark.parametrize("width", [390, 1280])
def test_nothing_says_face_down_once_the_piles_are_revealed(browser, width):
    def check(page, s):
        assert s.phase == "over"
        page.wait_for_selector("#announce.announce-final")
        page.wait_for_selector("#final-piles .pile, #final-piles li, #final-piles div")
        assert page.is_visible("#players-panel") == (width <= 760)  # the phone keeps them
        assert not page.is_visible("#tickets-panel")  # the finished leg's tickets left
        face_down = page.get_by_text("face down")
        assert not any(face_down.nth(i).is_visible() for i in range(face_down.count()))
        assert page.locator("#piles .card-back").count() == 0  # the DOM says it too

    _page_after(browser, NEAR_THE_END + ("pyramid", "yellow 2"),
                {"width": width, "height": 900}, check)


@pytest.mark.process
@pytest.mark.xdist_group("web_browser")
@pytest.mark.parametrize("width", [390, 1280])
def test_a_race_ended_unscored_shows_no_empty_advice(browser, width):
    def check(page, s):
        assert s.phase == "unscored"
        page.wait_for_function("document.getElementById('turn').textContent"
                               ".indexOf('race ended unscored') >= 0")
        for panel in ("#best-panel", "#odds-panel", "#pyramid-panel", "#tickets-panel"):
            assert not page.is_visible(panel), panel
        assert page.is_visible("#players-panel") and page.is_visible("#track-panel")
        assert "Ann" in page.text_content("#players-panel")

    _page_after(browser, NEAR_THE_END[:1] + ("leg red", "unscored"),
                {"width": width, "height": 900}, check)
