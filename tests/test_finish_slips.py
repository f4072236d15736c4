"""A finish card typed with a slip stays face down (tester s35 finding 16, RULES 1.8, 5).

``winn green``, ``loose green``, ``lose:green``, ``wn blue``, ``lsoe red``, ``Ann win
green``: the full screen masks the line as it masks ``win green`` while it is typed, the
history never shows its colour, and neither screen's refusal repeats the line or offers a
suggestion naming the colour (``did you mean 'win green'?`` was a line the plain mode
at a terminal then refuses). German too, with the German words for the piles."""

import asyncio
import io
import re

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

P4 = ["Ann", "Ben", "Cy", "Dee"]
BEFORE = scenes.SECOND_MID_LEG[:4]  # setup, three actions: Dee to act

#: (typed, its colour, what the full screen's command line shows while it is typed)
SLIPS = [("winn green", "green", "winn •••"), ("loose green", "green", "loose •••"),
         ("lose:green", "green", "lose •••"), ("wn blue", "blue", "wn •••"),
         ("lsoe red", "red", "lsoe •••"), ("Ann win green", "green", "Ann win •••"),
         ("Dee: winn yellow", "yellow", "Dee: winn •••"), ("WINN purple", "purple", "WINN •••")]
#: German: the table's colour words, and German words for the piles
SLIPS_DE = [("winn grün", "grün", "winn •••"), ("sieger rot", "rot", "sieger •••"),
            ("verlierer gelb", "gelb", "verlierer •••"), ("loose lila", "lila", "loose •••")]


def _plain(lang="en"):
    set_language(lang)
    out = io.StringIO()
    session = Session("second", P4, seed=2, journal=Journal(None))
    table = Table(session, PlainDisplay(out))
    table.start()
    for text in BEFORE:
        table.line(text)
    return table, out


def _said(table, out, typed):
    """What the table says to ``typed``: one line, and nothing played."""
    before, events = len(out.getvalue()), len(table.session.journal.events)
    table.line(typed)
    said = out.getvalue()[before:]
    assert said.count("\n") == 1, said
    assert len(table.session.journal.events) == events  # nothing played
    return said


def _names(text, word):
    return re.search(r"(?i)(?<!\w)%s(?!\w)" % re.escape(word), text) is not None


@pytest.mark.parametrize("typed, colour, _mask", SLIPS)
def test_plain_a_finish_card_slip_is_refused_without_its_colour_or_a_suggestion(
        typed, colour, _mask):
    table, out = _plain()
    said = _said(table, out, typed)
    assert not _names(said, colour), said
    assert "did you mean" not in said
    assert table.session.current == 3  # still Dee's turn
    if not typed.startswith("Ann "):  # (a name first: refused for the name, colour left out)
        assert said == ("! that line reads as a finish card, mistyped: it was not played, "
                        "and is not repeated; type 'win' or 'lose' alone, then the colour "
                        "(not shown) (RULES 1.8)\n")


@pytest.mark.parametrize("typed, colour, _mask", SLIPS_DE)
def test_plain_german_a_finish_card_slip_is_refused_without_its_colour(typed, colour, _mask):
    table, out = _plain("de")
    said = _said(table, out, typed)
    assert not _names(said, colour), said
    assert said.startswith("! diese Zeile liest sich wie eine vertippte Wettkarte")
    assert "meintest du" not in said


@pytest.mark.parametrize("typed, meant", [("tiel 5 +", "tile 5 +"), ("leeg red", "leg red"),
                                          ("undoo", "undo")])
def test_plain_a_slip_of_another_command_still_gets_its_suggestion(typed, meant):
    table, out = _plain()
    assert "did you mean '%s'?" % meant in _said(table, out, typed)


def test_plain_a_finish_card_typed_right_is_still_played():
    table, out = _plain()
    table.line("win green")  # a script (not watched): taken as typed
    assert table.session.journal.events[-1]["action"] == "finish winner green"


def _screen(slips, lang="en"):
    """Type each slip of ``slips`` key by key on the full screen, then Enter: what the
    command line showed while it was typed, and the history lines and error line after."""
    set_language(lang)
    app = scenes.app_for("second", P4)
    seen = []

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, BEFORE)
            await scenes.settle(pilot)
            for typed, _colour, _mask in slips:
                box = app.query_one("#command")
                await pilot.press(*scenes.keys_of(typed))
                await scenes.settle(pilot)
                assert box.value == typed and box.password
                line = box.render_line(0).text.rstrip()
                start = len(app.query_one("#log").lines)
                await pilot.press("enter")
                await scenes.settle(pilot)
                log = "\n".join(list(app.query_one("#log").lines)[start:])
                error = str(app.query_one("#error").content)
                seen.append((line, log, error))
            assert app.session.current == 3  # nothing played
            return seen

    asyncio.run(play())
    return seen


@pytest.mark.screen
def test_screen_a_finish_card_slip_is_masked_while_typed_and_never_shown():
    for (typed, colour, mask), (line, log, error) in zip(SLIPS, _screen(SLIPS), strict=True):
        assert line == mask, typed
        assert "> " + mask in log and "(refused)" in log, log
        for text in (line, log, error):
            assert not _names(text, colour), (typed, text)
            assert "did you mean" not in text


@pytest.mark.screen
def test_screen_german_a_finish_card_slip_is_masked_while_typed_and_never_shown():
    for (typed, colour, mask), (line, log, error) in zip(SLIPS_DE, _screen(SLIPS_DE, "de"),
                                                        strict=True):
        assert line == mask, typed
        assert "vertippte Wettkarte" in error
        for text in (line, log, error):
            assert not _names(text, colour), (typed, text)
