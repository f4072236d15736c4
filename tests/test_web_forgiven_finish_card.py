"""Tester s35 finding 11 (the web page's part): Ann, at 0 coins, played two wrong finish
cards; the zero floor forgave both losses (RULES 1.9), plain mode says ``wrong -1 (0 ->
0) (1 coin forgiven ...)``, and the page's reveal said ``1. Ann blue −1`` as if she had
paid. Each revealed card now shows what it paid and the coin forgiven, as the leg's
scoring on the page says it; a card that was paid in full shows no note."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.web.server import WebBoard
from headless import leave

pytestmark = [pytest.mark.process, pytest.mark.xdist_group("web_browser")]

#: the tester's game: Ann spends her coins on nothing (tiles), plays a wrong card on
#: each pile with 0 coins; Ben's and Cy's tickets and tiles; red ends the race
ZERO_FLOOR = ["setup 1:blue 2:green 3:yellow,purple,red 15:black 16:white",
              "fix 1:blue 2:green 3:yellow,purple 16:red 14:black 15:white", "leg blue",
              "tile 5 +", "tile 8 +", "leg green", "tile 10 +", "tile 12 +", "leg yellow",
              "tile 6 +", "tile 9 -", "win blue", "tile 11 +", "tile 13 +", "lose red",
              "pyramid", "red 1"]
#: the same race, Ben's and Cy's cards wrong while they have the coins to pay them
PAID = ["setup 1:blue 2:green 3:yellow,purple,red 15:black 16:white",
        "fix 1:blue 2:green 3:yellow,purple 16:red 14:black 15:white", "leg blue",
        "win blue", "lose red", "pyramid", "red 1"]

REVEALED = """() => [...document.querySelectorAll('.revealed li:not(.none)')].map(l =>
  [l.closest('.revealed').dataset.pile, l.textContent,
   l.querySelector('.forgiven') ? l.querySelector('.forgiven').title : null])"""


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    p = context.new_page()
    yield p
    leave(p)
    context.close()
    set_language("en")


def _revealed(page, lines, lang="en"):
    set_language(lang)
    s = Session("second", ["Ann", "Ben", "Cy"], seed=1)
    for text in lines:
        s.command(text)
    assert s.phase == "over"
    with WebBoard("127.0.0.1", 0) as board:
        board.publish(table_view(s, odds=False))
        page.goto(board.url)
        page.wait_for_selector("#final-panel:not([hidden]) .revealed li")
        shown = page.evaluate(REVEALED)
        size = page.evaluate("() => [document.documentElement.scrollWidth, "
                             "document.documentElement.scrollHeight]")
    return s, shown, size


def test_a_finish_cards_loss_the_zero_floor_forgave_is_not_shown_as_paid(page):
    _s, shown, size = _revealed(page, ZERO_FLOOR)
    rules = "nobody goes below 0 (RULES 1.9)"
    assert shown == [["winner", "1.Annblue\u00b101 coin forgiven", rules],
                     ["loser", "1.Annred\u00b101 coin forgiven", rules]]
    assert size[0] <= 1280 and size[1] <= 720, size


def test_in_german_and_a_card_paid_in_full_has_no_note(page):
    _s, shown, _size = _revealed(page, ZERO_FLOOR, "de")
    rules = "niemand f\u00e4llt unter 0 (RULES 1.9)"
    assert shown == [["winner", "1.Annblau\u00b101 EP erlassen", rules],
                     ["loser", "1.Annrot\u00b101 EP erlassen", rules]]
    _s, shown, _size = _revealed(page, PAID)  # Ben and Cy had the coins to pay
    assert shown == [["winner", "1.Benblue\u22121", None], ["loser", "1.Cyred\u22121", None]]
