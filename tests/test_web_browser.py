"""The web scoreboard in a real browser (issue 12): Debian's headless Chromium driven
by Playwright. One browser for every browser test of the run (``browser`` in
tests/conftest.py; the web modules are kept on one xdist worker); every page talks to
a board on 127.0.0.1 only.

What the page shows is read from the DOM (the track's stacks, the coins, the odds
as printed) and compared with the engine's own state and an independent odds
computation after each die."""

import functools
import io

import pytest
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

NAMES = ["Ann", "Ben", "Cy", "Dee"]
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"

pytestmark = [pytest.mark.xdist_group("web_browser"), pytest.mark.process]

#: Races simulated for the race odds the boards here send and the checks work out again:
#: the page prints whatever it is sent, and the table's own ``RACE_SAMPLES`` (5,000)
#: cost ten times as much.
WEB_SAMPLES = 500


def quick_odds(session):
    """The boards' odds (``Seam(compute=...)``): the table's own, ``odds_view``, with a
    race simulation of ``WEB_SAMPLES`` seeded races."""
    return odds_view(session, samples=WEB_SAMPLES)


def quick_view(session):
    """``table_view(session)`` with ``quick_odds``: a replay's view (``Replay(view=...)``)."""
    return dict(table_view(session, odds=False), odds=quick_odds(session))


#: the size of the page each test starts with
SIZE = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def tab(browser):
    """One browser page for the module's tests (``page`` resets it for each): a new
    context for each test cost Chromium about 0.1 CPU-s more than a page load."""
    context = browser.new_context(viewport=SIZE)
    p = context.new_page()
    p.problems = []
    p.on("pageerror", lambda exc: p.problems.append(str(exc)))
    p.on("console", lambda m: p.problems.append(m.text) if m.type == "error" else None)
    yield p
    context.close()


@pytest.fixture
def page(tab):
    """The module's page at ``SIZE``, online, with no routes, showing nothing yet;
    ``problems``: its page errors and console errors during this test. Left blank after
    the test, so no page of a closed board keeps reconnecting."""
    tab.set_viewport_size(SIZE)
    tab.problems.clear()
    yield tab
    tab.unroute_all(behavior="ignoreErrors")
    tab.context.set_offline(False)
    leave(tab)


def shown_version(page, version, timeout=20000):
    """Wait until the page has drawn ``version`` with its odds."""
    page.wait_for_function("v => document.documentElement.dataset.version === String(v) && "
                           "document.documentElement.dataset.odds === 'ready'",
                           arg=version, timeout=timeout)


def percent(p):
    """How the page prints a probability: as the terminal does (English), a whole percent
    rounded half to even (``camelhost.i18n.percent``)."""
    from camelhost.i18n import percent as terminal_percent
    return terminal_percent(p)


def check_page_matches_engine(page, session):
    """The stacks, coins, last die and odds on the page are the engine's."""
    from camelup import odds
    from camelup.odds.game import position_from_game
    from camelup.odds.race import race_odds
    g = session.game
    spaces = page.eval_on_selector_all(
        "#track g.space", "gs => gs.map(g => [Number(g.dataset.space), g.dataset.camels])")
    on_track = {space: camels for space, camels in spaces if 1 <= space <= 16}
    assert on_track == {s: ",".join(g.stacks.get(s, [])) for s in range(1, 17)}
    coins = page.eval_on_selector_all(
        ".player", "ps => ps.map(p => [p.dataset.name, p.querySelector('.coins').textContent])")
    assert coins == [[n, str(c)] for n, c in zip(session.names, g.coins, strict=True)]
    last = [r["move"] for r in session.reports if r.get("move")][-1]
    assert page.get_attribute("#announce", "data-camel") == last["camel"]
    assert page.text_content("#die-distance") == str(last["distance"])
    if session.phase == "over":
        return
    position = position_from_game(g)
    leg = odds.leg_odds(position)
    rows = page.eval_on_selector_all(
        "#leg-odds .odds-row", "rs => rs.map(r => [r.dataset.camel, "
        "r.querySelector('.pct-first').textContent, r.querySelector('.pct-second').textContent,"
        " r.querySelector('.pct-last').textContent])")
    assert sorted(rows) == sorted([c, percent(leg.p_first(c)), percent(leg.p_second(c)),
                                   percent(leg.p_last(c))] for c in g.edition.racing)
    race = race_odds(position, seed=session.seed, samples=WEB_SAMPLES, leg=leg)
    rows = page.eval_on_selector_all(
        "#race-odds .odds-row", "rs => rs.map(r => [r.dataset.camel, "
        "r.querySelector('.pct-winner').textContent, r.querySelector('.pct-loser').textContent])")
    assert sorted(rows) == sorted([c, percent(race.winner[c]), percent(race.loser[c])]
                                  for c in g.edition.racing)


def _dice(journal):
    return sum(1 for e in journal.events if e["type"] == "die")


@pytest.mark.hil
def test_page_follows_a_virtual_game_die_by_die(page, micropython, monkeypatch):
    # Bots at four seats; the dice come from the real firmware on the virtual pyramid.
    # The bots choose from the leg odds alone (``bots.choose(quick=True)``): what they
    # choose only feeds the page, and the coach's search was most of this test's CPU.
    from camelhost.device.open import open_pyramid
    from camelhost.table import bots
    monkeypatch.setattr(bots, "choose", functools.partial(bots.choose, quick=True))
    journal = Journal(None)
    session = Session("second", NAMES, seed=2, bots=range(4), journal=journal)
    seam = Seam(session, compute=quick_odds)
    with open_pyramid("virtual", "second", 2) as pyramid, WebBoard("127.0.0.1", 0) as board, \
            LiveBoard(board, seam) as follower:
        page.goto(board.url)
        table = Table(session, PlainDisplay(stream=io.StringIO()), pyramid=pyramid.virtual,
                      auto_setup=True, seam=seam)
        table.start()
        events = pyramid.events()
        seen = 0
        legs = session.game.leg
        while session.game.leg == legs and session.phase != "over":  # until a leg is scored
            _, event = events.get(timeout=30)
            table.pyramid_event(event)
            if _dice(journal) == seen:
                continue  # a release the table refused: it asked for another
            seen = _dice(journal)
            assert follower.wait_idle()
            shown_version(page, session.version)
            check_page_matches_engine(page, session)
        assert session.game.leg > legs  # a leg was scored on the way
        # the bots took the new leg's first action at once: the players are back with
        # their coins (checked above), each with the net of the leg just scored
        scored = table_view(session, odds=False)["leg_scored"]
        assert not scored["latest"] and not session.game.dice_out
        assert page.is_hidden("#leg-panel") and page.is_visible("#players-panel")
        nets = page.eval_on_selector_all(
            "#players .player", "ps => ps.map(p => [p.dataset.name, p.querySelector('.leg-net').textContent])")
        signs = {1: "+", -1: "\u2212", 0: "\u00b1"}
        assert nets == [[r["name"], "leg %d scored: %s%d" % (
            scored["leg"], signs[(r["net"] > 0) - (r["net"] < 0)], abs(r["net"]))]
            for r in scored["players"]]
    assert page.problems == []


def test_page_reconnects_after_the_stream_drops_and_shows_the_same_state(page):
    context = page.context
    journal = Journal(None)
    s = Session("second", NAMES[:3], seed=5, journal=journal)
    with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, Seam(s, compute=quick_odds)) as follower:
        for text in (SETUP, "leg red", "pyramid", "blue 2"):
            s.command(text)
        assert follower.wait_idle()
        page.goto(board.url)
        shown_version(page, s.version)
        check_page_matches_engine(page, s)
        stale = s.version
        context.set_offline(True)  # the wifi goes ...
        board.drop_clients()  # ... and the stream with it
        page.wait_for_function("() => document.getElementById('link').textContent === "
                               "'reconnecting'")
        for text in ("tile 6 +", "pyramid", "green 3", "leg yellow", "pyramid", "grey white 1"):
            s.command(text)
        assert follower.wait_idle()
        page.wait_for_timeout(1500)
        assert page.evaluate("() => document.documentElement.dataset.version") == str(stale)
        context.set_offline(False)  # ... and comes back: the page resyncs by itself
        shown_version(page, s.version)
        check_page_matches_engine(page, s)
        assert page.text_content("#link") == "live"
        tile = page.eval_on_selector("#track .tile", "t => [t.dataset.owner, t.dataset.side]")
        assert tile == ["Cy", "+"]


def test_page_shows_the_table_right_after_load_without_the_stream(page):
    """QA finding: a headless screenshot right after load showed "waiting for the table..."
    and empty panels until the stream connected. The page now draws the snapshot it
    arrives with: here the stream is cut off entirely, and the table is there anyway the
    moment the page has loaded (no waiting)."""
    journal = Journal(None)
    s = Session("second", NAMES[:3], seed=5, journal=journal)
    with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, Seam(s, compute=quick_odds)) as follower:
        for text in (SETUP, "leg red", "pyramid", "blue 2"):
            s.command(text)
        assert follower.wait_idle()
        streams = []

        def no_stream(route):
            streams.append(route.request.url)
            route.abort()

        page.route("**/events", no_stream)
        page.goto(board.url)  # returns at the load event; nothing is awaited after it
        drawn = page.evaluate("() => [document.documentElement.dataset.version, "
                              "document.documentElement.dataset.odds, "
                              "document.getElementById('where').textContent]")
        png = page.screenshot()
        assert drawn[0] == str(s.version) and drawn[1] == "ready", drawn
        assert "waiting" not in drawn[2], drawn
        check_page_matches_engine(page, s)
        assert page.eval_on_selector_all(".player .player-name",
                                         "ns => ns.map(n => n.textContent)") == NAMES[:3]
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert streams  # the page did try its stream: what it shows did not come from it
        assert page.text_content("#link") != "live"
    assert [p for p in page.problems if "ERR_FAILED" not in p and "events" not in p] == []


def test_lan_mode_page_works_with_its_token_and_is_refused_without(page):
    journal = Journal(None)
    s = Session("second", NAMES[:3], seed=1, journal=journal)
    s.command(SETUP)
    with WebBoard("127.0.0.1", 0, token=True) as board, LiveBoard(board, Seam(s, compute=quick_odds)) as follower:
        assert follower.wait_idle()
        base = "http://127.0.0.1:%d/" % board.port
        assert page.goto(base).status == 403
        assert page.goto(base + "board.js").status == 403
        response = page.goto(board.url)
        assert response.status == 200
        assert "unsafe-inline" not in response.headers["content-security-policy"]
        shown_version(page, s.version)
        # the first view can come before the stream opens: wait for it (a loaded CI
        # machine once read "connecting" here), then it must say live
        page.wait_for_function("() => document.getElementById('link').textContent === "
                               "'live'", timeout=20000)
        assert page.eval_on_selector_all(".player .player-name", "ns => ns.map(n => n.textContent)") \
            == NAMES[:3]
    assert [p for p in page.problems if "403" not in p] == []  # the refused loads only


def test_replay_buttons_step_through_a_finished_game(page):
    journal = Journal(None)
    s = Session("second", NAMES[:3], seed=1, journal=journal)
    for text in ("setup 1:blue 2:green 3:yellow,red,purple 14:black 15:white",  # RULES 3.2
                 "fix 14:blue 15:green 16:yellow,red,purple 10:black 11:white",  # near the end
                 "win blue", "lose red", "pyramid", "yellow 2"):
        s.command(text)
    holder = {}
    with WebBoard("127.0.0.1", 0, controls=lambda c: holder["r"].command(c)) as board:
        replay = holder["r"] = Replay(board, journal.events, play_s=0.1, view=quick_view)
        replay.show()
        page.goto(board.url)
        page.wait_for_selector("#replay:not([hidden])")
        assert page.text_content("#replay-step") == "step 0 of 6"
        page.click("#replay [data-control=next]")
        page.wait_for_function("() => document.getElementById('replay-step').textContent === "
                               "'step 1 of 6'")
        page.click("#replay [data-control=next]")
        page.wait_for_function("() => document.getElementById('replay-step').textContent === "
                               "'step 2 of 6'")
        assert page.get_attribute("#track g.space[data-space='16']", "data-camels") == \
            "yellow,red,purple"
        page.click("#replay [data-control=last]")
        page.wait_for_selector("#final-panel:not([hidden])")
        cards = page.eval_on_selector_all(".revealed[data-pile=winner] .chip",
                                          "cs => cs.map(c => c.dataset.colour)")
        assert cards == ["blue"]
        page.click("#replay [data-control=previous]")
        page.wait_for_selector("#final-panel", state="hidden")
        assert page.eval_on_selector_all(".revealed .chip", "cs => cs.length") == 0
        replay.stop()
    assert page.problems == []


def test_live_page_has_no_controls(page):
    journal = Journal(None)
    s = Session("second", NAMES[:3], seed=1, journal=journal)
    s.command(SETUP)
    with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, Seam(s, compute=quick_odds)) as follower:
        assert follower.wait_idle()
        page.goto(board.url)
        shown_version(page, s.version)
        assert page.is_hidden("#replay")
        assert page.eval_on_selector_all("input, textarea, select, form", "x => x.length") == 0
        status = page.evaluate("() => fetch('control/next', {method: 'POST'}).then(r => r.status)")
        assert status in (404, 405)


#: Runs before the page's own script: note what the page asks the browser to say.
SPOKEN = """
  window.__said = [];
  if (!("speechSynthesis" in window)) {
    window.speechSynthesis = {};
    window.SpeechSynthesisUtterance = function (text) { this.text = text; };
  }
  window.speechSynthesis.speak = (u) => window.__said.push(u.text);
"""


def test_speech_is_off_until_asked_then_says_each_new_die_once(browser):
    context = browser.new_context()
    context.add_init_script(script=SPOKEN)
    page = context.new_page()
    journal = Journal(None)
    s = Session("second", NAMES[:3], seed=1, journal=journal)
    with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, Seam(s, compute=quick_odds)) as follower:
        for text in (SETUP, "pyramid", "blue 2"):
            s.command(text)
        assert follower.wait_idle()
        page.goto(board.url)
        shown_version(page, s.version)
        assert page.text_content("#speech") == "speech off"
        s.command("pyramid")
        s.command("red 1")
        assert follower.wait_idle()
        shown_version(page, s.version)
        assert page.evaluate("() => window.__said") == []  # off: nothing said
        page.click("#speech")
        assert page.get_attribute("#speech", "aria-pressed") == "true"
        for text in ("pyramid", "grey black 3"):
            s.command(text)
        assert follower.wait_idle()
        shown_version(page, s.version)
        said = page.evaluate("() => window.__said")
        assert said == ["speech on", "%s camel, backward 3" % s.reports[-1]["move"]["camel"]]
        board.drop_clients()  # a reconnect does not say the same die again
        page.wait_for_timeout(1500)
        shown_version(page, s.version)
        assert page.evaluate("() => window.__said") == said
        s.command("leg yellow")  # not a die: nothing said
        assert follower.wait_idle()
        shown_version(page, s.version)
        assert page.evaluate("() => window.__said") == said
    context.close()


def test_page_asks_to_type_the_die_when_the_game_has_no_pyramid(page):
    # a game played with --pyramid manual: the page's header asks for the die typed,
    # as the table's own prompt does; with a pyramid it asks to release one
    for source, words in (("manual", "Ann: type the die that came out"),
                          ("virtual", "Ann: release a die")):
        journal = Journal(None, pyramid=source)
        s = Session("second", NAMES[:3], seed=5, journal=journal)
        with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, Seam(s, compute=quick_odds)) as follower:
            for text in (SETUP, "pyramid"):
                s.command(text)
            assert follower.wait_idle()
            page.goto(board.url)
            shown_version(page, s.version)
            assert page.text_content("#turn") == words
    assert page.problems == []


def test_a_phone_sees_the_whole_page_width_however_full_the_finish_piles(page):
    """Tester's finding: the finish piles drew one card back per card in a row that
    never wrapped, so 40 cards on the winner pile made the page 702 px wide on a
    375 px phone (the track cut off). Eight players play all their finish cards: on a
    phone the page still fits its width, and every card is still drawn and counted."""
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
    journal = Journal(None)
    s = Session("second", names, seed=5, journal=journal)
    s.command(SETUP)
    for colour in ("red", "blue", "green", "yellow", "purple"):
        for _ in names:
            s.command("win %s" % colour)
    assert len(s.game.pile("winner")) == 40
    with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, Seam(s, compute=quick_odds)) as follower:
        assert follower.wait_idle()
        for width in (320, 375, 414):
            page.set_viewport_size({"width": width, "height": 800})
            page.goto(board.url)
            shown_version(page, s.version)
            assert page.evaluate("() => window.innerWidth") == width
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, (width, wide)
            backs = page.eval_on_selector_all(
                "#piles .pile[data-pile=winner] .card-back", "bs => bs.length")
            assert backs == 40
            assert page.text_content("#piles .pile[data-pile=winner] .pile-count") == \
                "40 cards"


def test_the_page_shows_a_noisy_line_to_the_pyramid_while_it_lasts(page):
    # issue 29, item 10: the line's quality shown as it degrades, on the board too
    from camelhost.device.open import LineQuality
    journal = Journal(None, pyramid="/dev/ttyACM0")
    s = Session("second", NAMES[:3], seed=5, journal=journal)
    seam = Seam(s, compute=quick_odds)
    table = Table(s, PlainDisplay(io.StringIO()), pyramid=None, manual=False, seam=seam)
    table.start()
    with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, seam) as follower:
        table.line(SETUP)
        assert follower.wait_idle()
        page.goto(board.url)
        shown_version(page, s.version)
        assert page.is_hidden("#pyramid-line")  # nothing measured yet: nothing shown
        table.pyramid_event(LineQuality(True, 0.52))
        page.wait_for_selector("#pyramid-line", state="visible", timeout=20000)
        assert page.text_content("#pyramid-line") == "noisy line to the pyramid: 52% of its lines whole"
        table.pyramid_event(LineQuality(False, 0.98))
        page.wait_for_selector("#pyramid-line", state="hidden", timeout=20000)
    assert page.problems == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_undo_is_said_on_the_page_in_the_tables_words_until_the_next_action(page, lang):
    # tester s32-2, section 6: after an undo the TV showed the coins jump back with no
    # word why; the page now shows the table's own notice (undo and redo) in place of
    # the last die until the next action, in the table's language
    from camelhost.i18n import colour_words, set_language
    set_language(lang)
    try:
        out = io.StringIO()
        s = Session("second", NAMES[:3], seed=5, journal=Journal(None))
        seam = Seam(s, compute=quick_odds)
        table = Table(s, PlainDisplay(out), pyramid=None, manual=False, seam=seam)
        table.start()
        with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, seam) as follower:
            for line in (SETUP, "leg blue", "pyramid", "blue 2"):  # Ben's pyramid ticket
                table.line(line)
            assert follower.wait_idle()
            page.goto(board.url)
            shown_version(page, s.version)
            die = page.text_content("#die-camel")
            def held():  # Ben's pyramid tickets, as his card shows them
                return page.eval_on_selector_all("#players .player[data-name='Ben'] .chip.pyramid",
                                                 "cs => cs.map(c => c.textContent)")
            assert held() == ["\u25B21"]
            for line, word, ben in (("undo", "undone: %s", []), ("redo", "redone: %s", ["\u25B21"])):
                said = len(out.getvalue())
                table.line(line)
                assert follower.wait_idle()
                page.wait_for_selector("#announce.announce-undo", timeout=20000)
                shown = page.text_content("#die-camel")
                # the plain table's line, word for word (a hint for the typist after it)
                printed = out.getvalue()[said:].splitlines()
                assert any(p.startswith(shown) for p in printed), (shown, printed)
                assert shown.startswith(_translated(word).split("%s")[0]), shown
                assert "Ben" in shown and colour_words()["blue"] in shown, shown
                shown_version(page, s.version)
                assert page.is_visible("#announce.announce-undo")  # the odds came: it stays
                assert held() == ben
            # the next action: the notice has had its time, the last die is back in its place
            table.line("leg red")
            assert follower.wait_idle()
            shown_version(page, s.version)
            assert page.is_hidden("#announce.announce-undo") and page.is_visible("#announce.announce-die")
            assert page.text_content("#die-camel") == die
        assert page.problems == []
    finally:
        set_language("en")


def _translated(word):
    from camelhost.i18n import _
    return _(word)


def test_an_undo_never_says_the_die_before_it_again(browser):
    # after an undo the last die is the one before, said already: the page shows the
    # undo's words and says nothing (its view, without them, comes first), nor at the
    # next action; a die released again is said
    context = browser.new_context()
    context.add_init_script(script=SPOKEN)
    page = context.new_page()
    s = Session("second", NAMES[:3], seed=1, journal=Journal(None))
    seam = Seam(s, compute=quick_odds)
    with WebBoard("127.0.0.1", 0) as board, LiveBoard(board, seam) as follower:
        s.command(SETUP)
        assert follower.wait_idle()
        page.goto(board.url)
        shown_version(page, s.version)
        page.click("#speech")
        for text in ("pyramid", "blue 2", "pyramid", "red 1"):
            s.command(text)
            assert follower.wait_idle()
            shown_version(page, s.version)
        said = page.evaluate("() => window.__said")
        assert said == ["speech on", "blue camel, forward 2", "red camel, forward 1"]
        seam.notices(s.command("undo"), seam.latest)  # as the table tells its displays
        assert follower.wait_idle()
        page.wait_for_selector("#announce.announce-undo", timeout=20000)
        shown_version(page, s.version)
        s.command("leg yellow")
        assert follower.wait_idle()
        shown_version(page, s.version)
        assert page.text_content("#die-camel") == "blue forward 2"
        assert page.evaluate("() => window.__said") == said
        # the same die released again is a new die: said
        for text in ("pyramid", "red 1"):
            s.command(text)
        assert follower.wait_idle()
        shown_version(page, s.version)
        assert page.evaluate("() => window.__said") == said + ["red camel, forward 1"]
    context.close()
