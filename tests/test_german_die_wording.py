"""Which way and how far a die moved its camel, in German, said one way on every screen
(s43 German finding 1): the distance first, "2 Felder vorwärts", as the plain die line
says it. The full screen's banner said "BLAU  VORWÄRTS 2", the spoken line "Kamel blau,
vorwärts 2", the web page "blau vorwärts 2" (and its speech "Kamel blau, vorwärts 2");
now each says the one wording of ``camelhost.table.view.which_way``."""

import asyncio
import http.client
import io
import json
import time

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.speaker import Speaker
from camelhost.table.view import table_view
from camelhost.ui.plain import PlainDisplay
from camelhost.web.server import WebBoard

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
#: blue 2 forward, then the grey die's black numeral 1: the black camel 1 backward
DICE = [SETUP, "pyramid", "blue 2", "pyramid", "grey black 1"]


@pytest.fixture(autouse=True)
def german():
    set_language("de")
    yield
    set_language("en")


def _table():
    """A German plain table with ``DICE`` typed, its speech caught: ``(table, out,
    said)``, ``said`` the words given to espeak-ng."""
    said = []
    speaker = Speaker(which=lambda name: "/usr/bin/" + name,
                      popen=lambda argv, **kw: said.append(argv[-1]))
    out = io.StringIO()
    table = Table(Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None)),
                  PlainDisplay(out), speaker=speaker, manual=True)
    table.start()
    for line in DICE:
        table.line(line)
    return table, out, said


def test_the_spoken_line_says_the_distance_before_the_direction():
    _table_, _out, said = _table()
    assert said == ["Kamel blau, 2 Felder vorwärts", "Kamel schwarz, 1 Feld rückwärts"]


def test_the_last_die_line_and_the_die_line_say_it_the_same_way():
    table, out, _said = _table()
    at = len(out.getvalue())
    table.line("show")
    shown = out.getvalue()[at:]
    assert "Letzter Würfel: grau-schwarz 1 (Ben): Kamel schwarz 1 Feld rückwärts, " in shown
    # the die line says the same words (s44: it said "... rückwärts (gegen den
    # Uhrzeigersinn)", a wording of its own)
    assert ("WÜRFEL grau-schwarz 1 (Pyramidenplättchen von Ben): das Kamel schwarz (die "
            "Farbe der Ziffer) zieht 1 Feld rückwärts\n") in out.getvalue()[:at]
    assert "Uhrzeigersinn" not in out.getvalue()
    assert "rückwärts 1" not in out.getvalue() and "vorwärts 2" not in out.getvalue()


def test_the_english_die_line_says_the_shared_words():
    """The plain die line in English says which way and how far as ``Last die:``, the
    banner, speech and the web page do (``forward 2``), not "forward 2 spaces" nor
    "backward (counterclockwise) 1 spaces" (s44 German, item 1)."""
    set_language("en")
    table, out, said = _table()
    at = len(out.getvalue())
    table.line("show")
    lines = out.getvalue()[:at].splitlines()
    assert "DIE blue 2 (Ann's pyramid ticket): the blue camel moves forward 2" in lines
    assert ("DIE grey-black 1 (Ben's pyramid ticket): the black camel (the numeral's "
            "colour) moves backward 1") in lines
    assert "Last die: grey-black 1 (Ben): black camel backward 1, " in out.getvalue()[at:]
    assert said == ["blue camel, forward 2", "black camel, backward 1"]


def _view_served(board, version):
    """The view the web page is served (``/view``) once it has ``version``."""
    deadline = time.monotonic() + 20
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", board.port, timeout=10)
        conn.request("GET", "/view")
        view = json.loads(conn.getresponse().read())
        conn.close()
        if view.get("version") == version or time.monotonic() > deadline:
            return view
        time.sleep(0.02)


def test_the_web_page_gets_the_same_words_for_its_last_die_and_its_speech():
    table, _out, said = _table()
    view = table_view(table.session, odds=False)
    with WebBoard("127.0.0.1", 0) as board:
        board.publish(view)
        die = _view_served(board, view["version"])["last_die"]
    assert die["way"] == "1 Feld rückwärts"  # the page shows "schwarz 1 Feld rückwärts"
    assert die["spoken"] == "Kamel schwarz, 1 Feld rückwärts" == said[-1]


def test_the_full_screens_banner_says_the_distance_before_the_direction():
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=4)

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, DICE[:3])
            await scenes.settle(pilot)
            assert "BLAU  2 FELDER VORWÄRTS" in str(app.query_one("#announce").content)
            await scenes.type_lines(pilot, DICE[3:])
            await scenes.settle(pilot)
            banner = str(app.query_one("#announce").content)
            assert banner.startswith("SCHWARZ  1 FELD RÜCKWÄRTS  ("), banner

    asyncio.run(play())
