"""The grey die with its value reads one way on every screen (s36).

``camelhost.table.narration.die_words`` is the one wording of a die with the value it
showed: ``grey-black 2`` (German ``grau-schwarz 2``), the die by its label
(``camelup.editions.die_label``) then the value, on the die announcement, plain mode's
and the full screen's ``Last die:``, the full screen's detail line, undo and the web
page (they said ``grey black 2``, the typed notation, and ``grey die, black numeral 2``).
The notation ``grey black 2`` is still read when typed.
"""

import asyncio
import io
import json
import urllib.request

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.plain import PlainDisplay
from camelhost.web.server import WebBoard

# Crazy camels apart, nothing on them: RULES 3.5 (c), the numeral's colour decides.
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"

#: The grey die out showing 2 in black numerals, moving the black camel 15 -> 13, as
#: each screen says it, by language: the ticket taken, the die line, `Last die:` (plain
#: and full screen), the full screen's detail line.
SAID = {
    "en": ("Ann takes a pyramid ticket: grey-black 2",
           "DIE grey-black 2 (Ann's pyramid ticket): the black camel",
           "Last die: grey-black 2 (Ann): black camel backward 2, from space 15 to 13",
           "Ann's pyramid ticket: die grey-black 2. From space 15 to 13"),
    "de": ("Ann nimmt ein Pyramidenplättchen: grau-schwarz 2",
           "WÜRFEL grau-schwarz 2 (Pyramidenplättchen von Ann): das Kamel schwarz",
           "Letzter Würfel: grau-schwarz 2 (Ann): Kamel schwarz 2 Felder rückwärts, von Feld 15 "
           "auf 13",
           "Würfel für Ann: grau-schwarz 2. Von Feld 15 auf 13"),
}
#: The one wording of that die (``narration.die_words``), by language.
WORDS = {"en": "grey-black 2", "de": "grau-schwarz 2"}


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


# --- the wording: one function, every screen ---


def _plain_table():
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None, manual=True)
    t.start()
    t.line(SETUP)
    return t, out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_plain_mode_names_the_grey_die_with_its_value_one_way(lang):
    set_language(lang)
    ticket, die, last, _detail = SAID[lang]
    t, out = _plain_table()
    since = len(out.getvalue())
    t.line("grey black 2")  # the typed notation is still read
    said = out.getvalue()[since:].splitlines()
    assert ticket in said, said
    assert [line for line in said if line.startswith(die)], said
    since = len(out.getvalue())
    t.line("show")
    shown = out.getvalue()[since:].splitlines()
    assert last in shown, shown
    text = out.getvalue()
    assert "grey black" not in text and "grau schwarz" not in text  # the notation's words


@pytest.mark.parametrize("lang", ["en", "de"])
def test_undo_names_the_grey_die_as_the_screens_do(lang):
    set_language(lang)
    t, out = _plain_table()
    t.line("grey white 1")
    since = len(out.getvalue())
    t.line("undo")
    undone = out.getvalue()[since:]
    label = {"en": "grey-white 1", "de": "grau-weiß 1"}[lang]
    assert undone.count(label) == 2, undone  # the die undone, and what redo keeps


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_web_page_gets_the_same_words_for_the_last_die(lang):
    set_language(lang)
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9)
    s.command(SETUP)
    s.command("grey black 2")
    view = table_view(s, odds=False)
    with WebBoard("127.0.0.1", 0) as board:
        board.publish(view)
        with urllib.request.urlopen("http://127.0.0.1:%d/view" % board.port) as got:
            sent = json.loads(got.read())
    assert sent["last_die"]["said"] == WORDS[lang]
    assert "said" not in view["last_die"]  # the table's own view is left as it was


@pytest.mark.screen
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_full_screen_names_the_grey_die_with_its_value_one_way(lang):
    import tui_scenes as scenes

    set_language(lang)
    _ticket, die, last, detail = SAID[lang]
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=9)

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, [SETUP, "grey black 2"])
            await scenes.settle(pilot)
            assert str(app.query_one("#detail").content).startswith(detail)
            await scenes.type_lines(pilot, ["show"])
            await scenes.settle(pilot)
            lines = [str(line) for line in app.query_one("#log").lines]
            assert any(line.strip().startswith(die) for line in lines), lines
            assert any(line.strip().startswith(last) for line in lines), lines

    asyncio.run(play())


@pytest.mark.process
@pytest.mark.xdist_group("web_browser")
@pytest.mark.parametrize("lang, shown", [("en", "die grey-black 2"),
                                         ("de", "Würfel grau-schwarz 2")])
def test_the_web_page_names_the_grey_die_with_its_value_one_way(browser, lang, shown):
    from test_web_layout import WIDE, Shown

    set_language(lang)
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9)
    s.command(SETUP)
    s.command("grey black 2")
    view = table_view(s, odds=False)
    context = browser.new_context(viewport={"width": WIDE[1][0], "height": WIDE[1][1]})
    tab = context.new_page()
    tab.problems, tab.board = [], None
    tab.on("pageerror", lambda exc: tab.problems.append(str(exc)))
    try:
        with Shown(tab, view, WIDE[1]) as page:
            detail = page.text_content("#die-detail")
            assert shown in detail, detail
            assert "grey die," not in detail and "grauer" not in detail  # the old wording
            assert page.problems == []
    finally:
        context.close()
        if tab.board is not None:
            tab.board.__exit__(None, None, None)
