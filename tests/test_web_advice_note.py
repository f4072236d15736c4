"""Tester s35 finding 6 (and 10's aside): the advice panel's note in the actions' place
(before the race, while a die is read) was numbered ``1.``, as if it were the best
action. A note is no action: unnumbered, at the panel's edge, as ``none now`` stands
under the odds; the actions keep their numbers."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.session import Session
from camelhost.table.view import odds_view, table_view
from camelhost.web.server import WebBoard
from headless import leave

pytestmark = [pytest.mark.process, pytest.mark.xdist_group("web_browser")]

STACK = "setup 1:blue,green,red,yellow,purple 15:black 16:white"

#: each item of the advice list: its text, its marker's style, its left edge and the
#: panel heading's left edge
ITEMS = """() => { const h = document.getElementById('best-title').getBoundingClientRect();
  return [...document.querySelectorAll('#best li')].map(l => [l.textContent,
    getComputedStyle(l).listStyleType, Math.round(l.getBoundingClientRect().left - h.left)]); }"""


def _view(s):
    return dict(table_view(s, odds=False), odds=odds_view(s, samples=300))


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    p = context.new_page()
    yield p
    leave(p)
    context.close()
    set_language("en")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_note_in_the_advices_place_is_not_numbered_as_an_action(page, lang):
    set_language(lang)
    s = Session("second", ["Ann", "Ben", "Cy"], seed=5)
    with WebBoard("127.0.0.1", 0) as board:
        board.publish(_view(s))  # before the race: what the panel will show
        page.goto(board.url)
        page.wait_for_selector("#best li.none.setup")
        (text, marker, left), = page.evaluate(ITEMS)
        assert ("sobald das Rennen" if lang == "de" else "once the race starts") in text
        assert marker == "none" and left == 0, (marker, left)
        s.command(STACK)
        s.command("pyramid")  # Ann's pyramid ticket: the die is being read
        view = dict(_view(s), version=1001)
        board.publish(view)
        page.wait_for_selector("#best li.none.reading")
        (text, marker, left), = page.evaluate(ITEMS)
        assert marker == "none" and left == 0, (text, marker, left)
        s.command("red 1")  # Ben's turn: three actions, numbered 1, 2, 3
        board.publish(dict(_view(s), version=1002))
        page.wait_for_selector("#best li.advice")
        items = page.evaluate(ITEMS)
        assert len(items) == 3 and {m for _t, m, _l in items} == {"decimal"}, items
        assert all(left > 0 for _t, _m, left in items), items
