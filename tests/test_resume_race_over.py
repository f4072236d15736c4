"""s34 tester 2: a table killed after its race ended and resumed says the race is over,
as before the kill: the resume line says after which leg it ended (never ``(race 1,
leg 4)`` as if a leg were on), and the full screen's top banner is the race-over one
(``RACE OVER: ... WINS, ... LAST``), not the last die's big words."""

import asyncio
import io
import random

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from resumed_tables import resumed

P4 = ["Ann", "Ben", "Cy", "Dee"]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _race_over_journal(path):
    """A second-edition race typed at a plain table to its end, journaled at ``path``;
    returns the leg it ended in."""
    session = Session("second", P4, seed=2, journal=Journal(str(path)))
    table = Table(session, PlainDisplay(io.StringIO()), pyramid=None, manual=True)
    table.start()
    table.line(scenes.SECOND_SETUP)
    for line in scenes.race_out_lines(session.game, random.Random(7)):
        table.line(line)
    assert session.phase == "over"
    leg = session.game.leg
    session.journal.close()
    return leg


@pytest.mark.parametrize("lang,words", [("en", "(race 1, over after leg %d)"),
                                        ("de", "(Rennen 1, vorbei nach Etappe %d)")])
def test_the_resume_line_of_a_race_over_says_it_is_over(tmp_path, lang, words):
    leg = _race_over_journal(tmp_path / "g.jsonl")
    set_language(lang)
    _table, out = resumed(tmp_path / "g.jsonl")
    first = out.getvalue().splitlines()[0]
    assert first.endswith(words % leg), first


def test_the_resume_line_of_a_race_ended_unscored_says_so(tmp_path):
    path = tmp_path / "u.jsonl"
    session = Session("second", P4, seed=2, journal=Journal(str(path)))
    table = Table(session, PlainDisplay(io.StringIO()), pyramid=None, manual=True)
    table.start()
    for line in (scenes.SECOND_SETUP, "leg blue", "unscored"):
        table.line(line)
    session.journal.close()
    _table, out = resumed(path)
    assert out.getvalue().splitlines()[0].endswith("(race 1, ended unscored in leg 1)")


@pytest.mark.screen
def test_the_full_screen_resumed_after_the_race_shows_the_race_over_banner(tmp_path):
    from camelhost.ui.tui import TableApp
    _race_over_journal(tmp_path / "g.jsonl")
    journal = Journal.resume(str(tmp_path / "g.jsonl"), check=Session.stale_line)
    app = TableApp(Session.resume(journal), odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            box = app.query_one("#announce")
            assert box.display and str(box.content).startswith("RACE OVER: "), box.content
            assert app.query_one("#left").current == "over-box"  # as before the kill
    asyncio.run(play())
    journal.close()
