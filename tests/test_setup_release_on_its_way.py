"""At setup, a second ``release`` (or F5) while the virtual pyramid's die is on its way
pushes nothing and says so, as during play (``release: Ann's die is on its way``;
tester finding at the last stop: at setup it pushed again, two dice on their way for
one camel). Setup has nobody to act, so the line names no player."""

import asyncio
import io

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelhost.ui.tui import TableApp
from seeded_pyramid import SeededPyramid, arrives


def _arrives(t, pyramid):
    """The last push's die reaches the table from the link."""
    label, _value = arrives(t, pyramid)
    return label.partition("-")[0]


@pytest.mark.parametrize("lang, words", [
    ("en", ["! release: a die is on its way", "! red 2: a die is on its way: wait for it"]),
    ("de", ["! release: ein Würfel ist unterwegs",
            "! red 2: ein Würfel ist unterwegs: warte auf ihn"])])
def test_a_second_release_at_setup_while_the_die_is_on_its_way_pushes_nothing(lang, words):
    set_language(lang)
    out = io.StringIO()
    pyramid = SeededPyramid()
    journal = Journal(None)
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=journal)
    t = Table(session, PlainDisplay(out), pyramid=pyramid)
    t.start()
    assert session.phase == "setup"
    t.line("release")
    since = len(out.getvalue())
    before = list(journal.events)
    t.line("release")  # an impatient double press
    t.line("red 2")    # nor a die typed while the pushed one comes
    assert len(pyramid.fell) == 1  # one push only
    assert out.getvalue()[since:].splitlines() == words
    assert journal.events == before  # nothing journaled
    colour = _arrives(t, pyramid)  # the die that was on its way sets its camel
    assert [e.get("colour") for e in journal.events if e["type"] == "die"] == [colour]
    t.line("release")  # once it came, the next push goes
    assert len(pyramid.fell) == 2


class _Slider:
    """The virtual pyramid's slider: each push counted; its die never comes."""

    virtual = None
    table = None

    def __init__(self):
        self.pushes = 0

    def release(self):
        self.pushes += 1

    def return_dice(self):
        pass


@pytest.mark.screen
def test_f5_again_at_setup_while_the_die_is_on_its_way_pushes_nothing(tmp_path):
    pyramid = _Slider()
    journal = Journal(str(tmp_path / "f5.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy"], seed=61, journal=journal)
    app = TableApp(Table(session, None, pyramid=pyramid))
    app.odds_function = scenes.no_odds

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            assert session.phase == "setup"
            await pilot.press("f5")
            await pilot.press("f5")  # pressed again: the first push's die still comes
            await scenes.settle(pilot)
            assert pyramid.pushes == 1
            assert str(app.query_one("#error").content) == "! release: a die is on its way"
            await pilot.press("ctrl+q")

    asyncio.run(play())


def _files(folder):
    """Every file under ``folder``: its bytes and its modification time (ns), by path."""
    import os
    found = {}
    for root, _dirs, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as fh:
                found[path] = (fh.read(), os.stat(path).st_mtime_ns)
    return found


@pytest.mark.screen
def test_f5_pressed_again_changes_no_file(tmp_path, monkeypatch):
    """Tester s38 finding 4 ("a second F5 re-dates the first file"): F5 pushes the virtual
    pyramid's slider and writes no file of its own; pressed again, every file in the
    folder the table runs in (its journal among them) and in the home folder (where a
    screenshot would go) is as the first press left it, none renamed, re-dated or new."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    pyramid = _Slider()
    journal = Journal(str(tmp_path / "f5.jsonl"))
    session = Session("second", ["Ann", "Ben", "Cy"], seed=61, journal=journal)
    app = TableApp(Table(session, None, pyramid=pyramid))
    app.odds_function = scenes.no_odds
    seen = []

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            await pilot.press("f5")
            await scenes.settle(pilot)
            seen.append(_files(tmp_path))
            await pilot.press("f5")
            await scenes.settle(pilot)
            seen.append(_files(tmp_path))
            assert pyramid.pushes == 1
            await pilot.press("ctrl+q")

    asyncio.run(play())
    first, second = seen
    assert str(tmp_path / "f5.jsonl") in first
    assert second == first
