"""Tester s35 finding 5: a race ended again by ``redo`` never said its result on the web
page: the last die's place kept the redo's words (``RACE OVER: ... WINS`` nowhere, live
or in a replay), and a replay's page told its watchers, who hold no pyramid, to take
dice out of it. At the race end the last die's place says the result whatever action
ended it (docs/web.md "At the race end"), the undo's or redo's words beside it; a
replay says them without the pyramid's dice."""

import io

import pytest
from camelhost.i18n import colour_word, set_language
from camelhost.table.controller import Table
from camelhost.table.display import Seam
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import odds_view, table_view
from camelhost.ui.plain import PlainDisplay
from camelhost.web.follow import LiveBoard
from camelhost.web.replay import Replay
from camelhost.web.server import WebBoard
from headless import leave

NAMES = ["Ann", "Ben", "Cy"]
#: a race one die from its end: yellow (carrying red and purple) on 16 (RULES 3.2 setup,
#: then a correction), a card on each finish pile
NEAR_THE_END = ("setup 1:blue 2:green 3:yellow,red,purple 14:black 15:white",
                "fix 14:blue 15:green 16:yellow,red,purple 10:black 11:white",
                "win blue", "lose red")
#: the words a replay must not say: the instructions for the pyramid's dice
PYRAMID = {"en": ("out of the pyramid", "back in the pyramid", "put the"),
           "de": ("aus der Pyramide", "in die Pyramide", "zurück in")}


class Board:
    """A board that keeps the last view published (the replay's unit tests)."""

    def publish(self, view):
        self.view = view


def _race_ended_by_a_redo(lang):
    """A journal whose race ends, is taken back (``undo``) and ends again (``redo``)."""
    set_language(lang)
    journal = Journal(None)
    s = Session("second", NAMES, seed=1, journal=journal)
    for text in NEAR_THE_END + ("pyramid", "yellow 2", "undo", "redo"):
        s.command(text)
    assert s.phase == "over"
    return s, journal.events


@pytest.fixture
def lang():
    yield
    set_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_replays_redo_at_the_race_end_names_no_dice_for_a_pyramid(lang, language):
    s, events = _race_ended_by_a_redo(language)
    board = Board()
    replay = Replay(board, events, view=lambda shadow: table_view(shadow, odds=False))
    replay.command("last")
    words = board.view["undo"]
    assert board.view["final"]["winner"] == "purple"
    # the redo said, the pyramid's dice not: nobody watching a replay holds one
    assert words.startswith(("redone: Cy", "Wiederhergestellt: ")) and "Cy" in words, words
    assert not any(p in words for p in PYRAMID[language]), words
    # the table itself (and its live page) still says what to do with the dice
    live = [n for n in s.command("undo") + s.command("redo") if n.get("dice_moves")]
    assert any(p in live[-1]["text"] for p in PYRAMID[language]), live[-1]["text"]
    # an undo in a replay: the same
    replay.command("previous")
    assert board.view["undo"].startswith(("undone: ", "Zurückgenommen: "))
    assert not any(p in board.view["undo"] for p in PYRAMID[language]), board.view["undo"]
    assert board.view["final"] is None


def _quick(session):
    return dict(table_view(session, odds=False), odds=odds_view(session, samples=300))


def _announced(page):
    return (page.get_attribute("#announce", "class"), page.text_content("#die-camel"),
            page.text_content("#die-detail"))


@pytest.mark.process
@pytest.mark.xdist_group("web_browser")
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_replays_last_step_after_a_redo_says_the_races_result(browser, lang, language):
    _s, events = _race_ended_by_a_redo(language)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    holder = {}
    try:
        with WebBoard("127.0.0.1", 0, controls=lambda c: holder["r"].command(c)) as board:
            replay = holder["r"] = Replay(board, events, view=_quick)
            replay.show()
            page.goto(board.url)
            page.wait_for_selector("#replay:not([hidden])")
            page.click("#replay [data-control=last]")
            page.wait_for_selector("#announce.announce-final")
            box, camel, detail = _announced(page)
            wins = {"en": "race over: %s wins", "de": "Rennen vorbei: %s gewinnt"}[language]
            assert camel.casefold() == (wins % colour_word("purple")).casefold(), camel
            # the redo's words beside the result, without the pyramid's dice
            redone = {"en": "redone: Cy's pyramid ticket", "de": "Wiederhergestellt: das "
                      "Pyramidenplättchen von Cy"}[language]
            last = {"en": "blue is last", "de": "blau ist Letztes"}[language]
            assert detail.startswith("%s \u00B7 \u21B6 %s" % (last, redone)), detail
            assert not any(p in detail for p in PYRAMID[language]), detail
            assert "announce-undo" not in box, box
            replay.stop()
            leave(page)
    finally:
        context.close()
    assert problems == []


@pytest.mark.process
@pytest.mark.xdist_group("web_browser")
def test_the_live_page_says_the_result_when_a_redo_ends_the_race_again(browser, lang):
    out = io.StringIO()
    s = Session("second", NAMES, seed=1, journal=Journal(None))
    seam = Seam(s, compute=lambda session: odds_view(session, samples=300))
    table = Table(s, PlainDisplay(out), pyramid=None, manual=False, seam=seam)
    table.start()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, seam) as follower:
            for line in NEAR_THE_END + ("pyramid", "yellow 2"):
                table.line(line)
            assert follower.wait_idle()
            page.goto(board.url)
            page.wait_for_selector("#announce.announce-final")
            ended = _announced(page)
            assert ended[1].casefold() == "race over: purple wins", ended
            table.line("undo")
            table.line("undo")  # the race's end taken back: asked, then done
            assert s.phase != "over"
            assert follower.wait_idle()
            page.wait_for_selector("#announce.announce-undo")
            table.line("redo")
            assert s.phase == "over"
            assert follower.wait_idle()
            page.wait_for_selector("#announce.announce-final")
            box, camel, detail = _announced(page)
            assert camel == ended[1] and detail.startswith(ended[2] + " \u00B7 \u21B6 redone: "), \
                (camel, detail)
            leave(page)
    finally:
        context.close()


#: Ann's leg ticket, then five bots' moves, the last a die that ends the race
BOTS_TO_THE_END = ("setup 1:blue 2:green 3:red 3:yellow 3:purple 14:black 15:white",
                   "fix 12:blue 13:green 14:red 15:yellow 16:purple 10:black 11:white",
                   "leg blue", "leg green", "leg red", "leg yellow", "tile 6 +", "pyramid",
                   "purple 1")


def _long_names(n):
    """``n`` distinct 24-character names (as tests/test_web_layout.py's)."""
    return [(seat + "wolfeschlegelsteinhausen")[:24]
            for seat in ("Ann", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")[:n]]


def _bots_redo_the_race_end(names):
    s = Session("second", names, seed=1, bots=list(range(1, len(names))),
                journal=Journal(None))
    for text in BOTS_TO_THE_END:
        s.command(text)
    assert s.phase == "over"
    s.command("undo")
    assert s.phase != "over"
    notices = s.command("redo")
    assert s.phase == "over"
    return s, notices


def test_a_redo_for_watchers_counts_more_than_two_bots_moves_as_an_undo_does(lang):
    # the page's words of a redo are brief as an undo's are (docs/web.md): five bots'
    # moves counted, not named; the table's own line still names every one
    from camelhost.web.follow import undo_words
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]
    _s, notices = _bots_redo_the_race_end(names)
    text = notices[0]["text"]
    assert all(name + "'s " in text for name in names), text
    assert undo_words(notices) == ("redone: Ann's leg ticket on blue, and the bots' moves "
                                   "after it: 5 moves; take the purple die out of the "
                                   "pyramid again")
    assert undo_words(notices, replay=True) == ("redone: Ann's leg ticket on blue, and the "
                                                "bots' moves after it: 5 moves")


@pytest.mark.process
@pytest.mark.xdist_group("web_browser")
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_race_end_with_a_redos_words_fits_a_tv_and_a_laptop(browser, lang, language):
    # eight 24-character names, the race ended again by a redo of five bots' moves: the
    # result and the redo's words beside it keep the page on one screen
    from camelhost.web.follow import undo_words
    set_language(language)
    s, notices = _bots_redo_the_race_end(_long_names(8))
    view = dict(_quick(s), undo=undo_words(notices))
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        with WebBoard("127.0.0.1", 0) as board:
            board.publish(view)
            page.goto(board.url)
            page.wait_for_selector("#announce.announce-final")
            for w, h in ((1920, 1080), (1280, 720), (1024, 768)):
                page.set_viewport_size({"width": w, "height": h})
                page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h",
                                       arg=[w, h])
                page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                              "requestAnimationFrame(r)))")
                extent = page.evaluate("() => [document.documentElement.scrollWidth, "
                                       "document.documentElement.scrollHeight]")
                assert extent[0] <= w and extent[1] <= h, (language, (w, h), extent)
                assert view["undo"] in page.text_content("#die-detail")
            leave(page)
    finally:
        context.close()
