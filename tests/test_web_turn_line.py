"""Tester s35 finding 10: at 1024x768 (a small laptop, a size docs/web.md promises) the
header cut the one instruction the table needs while a die is awaited: ``Alexandra: lass
einen…``. The words around the player's name stay whole (the name gives way first, with
an ellipsis, its whole in its title), and at 1000-1279 px the speech button is a sign,
its words for a screen reader, so that the line fits whole with eight seats."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.session import Session
from camelhost.table.view import odds_view, table_view
from camelhost.web.server import WebBoard
from headless import leave

pytestmark = [pytest.mark.process, pytest.mark.xdist_group("web_browser")]

SEATS = ["Alexandra", "Bartholomew", "Cy", "Dee", "Evangeline", "Fay", "Gus", "Hal"]
#: mid-leg, tickets, tiles and a partnership; Hal's die, then Alexandra's pyramid ticket
#: waits for its die
LINES = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg blue", "leg red",
         "tile 6 +", "partner Alexandra", "leg yellow", "tile 9 -", "leg green", "pyramid",
         "red 2", "pyramid"]
SMALL_LAPTOP = {"width": 1024, "height": 768}
TURN = """() => { const turn = document.getElementById('turn'), box = turn.getBoundingClientRect();
  const name = turn.querySelector('.name'), words = [...turn.querySelectorAll('.words')];
  return {text: turn.textContent, cut: turn.scrollWidth > turn.clientWidth,
          name_cut: name.scrollWidth > name.clientWidth, title: name.title,
          words_inside: words.every(w => w.getBoundingClientRect().right <= box.right + 0.5),
          page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
          speech: document.getElementById('speech').textContent}; }"""


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=SMALL_LAPTOP)
    p = context.new_page()
    yield p
    leave(p)
    context.close()
    set_language("en")


def _waiting(names, lang):
    set_language(lang)
    s = Session("second", names, seed=4)
    for text in LINES:
        s.command(text)
    assert s.phase == "die" and s.pending_player == 0
    return dict(table_view(s, odds=False), odds=odds_view(s, samples=300),
                replay={"step": 21, "steps": 41, "playing": False})


def _shown(page, view):
    with WebBoard("127.0.0.1", 0) as board:
        board.publish(view)
        page.goto(board.url)
        page.wait_for_function("v => document.documentElement.dataset.version === String(v)",
                               arg=view["version"])
        return page.evaluate(TURN)


@pytest.mark.parametrize("lang, line, speech", [
    ("de", "Alexandra: lass einen W\u00fcrfel heraus", "Sprachausgabe aus"),
    ("en", "Alexandra: release a die", "speech off")])
def test_the_turn_line_is_whole_on_a_small_laptop(page, lang, line, speech):
    shown = _shown(page, _waiting(SEATS, lang))
    assert shown["text"] == line and not shown["cut"], shown
    assert shown["page"] == [1024, 768], shown  # the page still fits the screen
    assert shown["speech"] == speech  # the button's words, for a screen reader


def test_a_long_name_gives_way_never_the_instruction(page):
    long = ["Alexandrawolfeschlegels"] + SEATS[1:]  # 23 letters, no space to break at
    shown = _shown(page, _waiting(long, "de"))
    assert shown["text"] == long[0] + ": lass einen W\u00fcrfel heraus"
    assert shown["name_cut"] and shown["title"] == long[0], shown
    assert shown["words_inside"], shown


def test_on_a_tablet_the_turn_line_stands_on_a_line_of_its_own(page):
    # beside the title and the buttons it had some 50 px at 820 px
    page.set_viewport_size({"width": 820, "height": 1180})
    shown = _shown(page, _waiting(SEATS, "de"))
    assert shown["text"] == "Alexandra: lass einen W\u00fcrfel heraus" and not shown["cut"], shown
    assert shown["page"][0] <= 820, shown
