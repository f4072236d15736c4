"""The full screen below 80x24 shows the newest announcement under its notice (tester
s42, 79x24): the notice says the race goes on, the command line below still works,
and a refusal showed under it, but a die released by ``release`` was moved with no line
saying so. Now the die and its movement show under the notice in the history's own
words, as many of its lines as fit the rows left above the error line, the prompt and
the command line; at 80x24 again the full screen shows everything as before."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.ui import plan
from camelhost.ui.tui import CUT_MARK, HistoryLog
from seeded_pyramid import arrives
from test_tui_history_follows_the_die import _app

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

#: The tester's turns up to Dagny's pyramid ticket, its die released by a typed line.
TURNS = ["leg blue", "tile 4 +", "win blue", "pyramid", "release"]


def _rows(app):
    """What the terminal shows, one string per row."""
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


def _words(rows):
    return " ".join(" ".join(rows).split())


def _the_die(app):
    """The die's lines as the history keeps them (its line and the lines after it)."""
    history = app.query_one("#log", HistoryLog).history
    at = max(i for i, line in enumerate(history) if "Dagny" in line and " 3 " in line)
    lines = history[at:]
    return lines[:next((i for i, line in enumerate(lines) if line.startswith(">")),
                       len(lines))]


def _under_the_notice(app):
    """The rows between the notice's last line and the prompt."""
    rows = _rows(app)
    start = max(i for i, row in enumerate(rows) if "--plain" in row) + 1
    end = app.query_one("#bottom").region.y
    return rows[start:end]


async def _turns_then_the_die(pilot, pyramid):
    """The screen settled, ``TURNS`` typed, then ``pyramid``'s next die arrived and the
    screen settled again."""
    await scenes.settle(pilot)
    for line in TURNS:
        await scenes.type_line(pilot, line)
    arrives(pilot.app, pyramid)
    await scenes.settle(pilot)


async def _below_80x24_after(pilot, lines):
    """``lines`` typed (``scenes.type_lines``) and the screen settled, its notice that the
    terminal is too small standing (asserted): returns the history (``HistoryLog``)."""
    await scenes.type_lines(pilot, lines)
    await scenes.settle(pilot)
    assert pilot.app.query_one("#too-small").display
    return pilot.app.query_one("#log", HistoryLog)


@pytest.mark.parametrize("lang, refused", [
    ("en", "! tile 1 +: a tile may never go on space 1 (RULES 1.5)"),
    ("de", "! tile 1 +: auf Feld 1 darf nie ein Plättchen liegen"),
])
def test_a_die_released_below_80x24_shows_under_the_notice(lang, refused):
    set_language(lang)
    app, pyramid = _app()

    async def play():
        async with app.run_test(size=(79, 24)) as pilot:
            await _turns_then_the_die(pilot, pyramid)
            assert app.query_one("#too-small").display
            die = _the_die(app)
            assert len(die) >= 5, die  # the die, what it carried, the tile, the leaders
            shown = _words(_under_the_notice(app))
            for line in die:
                assert " ".join(line.split()) in shown, (line, shown)
            # a refusal meanwhile: shown on the error line, the die still above it
            await scenes.type_line(pilot, "tile 1 +")
            await scenes.settle(pilot)
            rows = _rows(app)
            assert any(row.startswith(refused) for row in rows), rows
            shown = _words(_under_the_notice(app))
            assert " ".join(die[0].split()) in shown and " ".join(die[-1].split()) in shown
            # a window big enough again: the full screen, the history has the die
            await pilot.resize_terminal(80, 24)
            await scenes.settle(pilot)
            assert not app.query_one("#too-small").display
            assert app.query_one("#track").display and app.query_one("#log").display
            assert die[-1] in app.query_one("#log", HistoryLog).history

    asyncio.run(play())


def test_below_80x24_a_short_window_shows_the_first_lines_of_the_die_that_fit():
    app, pyramid = _app()

    async def play():
        async with app.run_test(size=(79, 14)) as pilot:
            await _turns_then_the_die(pilot, pyramid)
            die = _the_die(app)
            under = [row for row in _under_the_notice(app) if row.strip()]
            assert under, _rows(app)
            shown = _words(under)
            assert shown.startswith(" ".join(die[0].split())), shown  # its first line
            assert " ".join(die[-1].split()) not in shown  # no room for the leaders
            # ... and it says so, with how many lines are left out (s43: cut silently)
            told = [line for line in app.news if " ".join(line.split()) in shown]
            assert under[-1].strip() == plan.news_cut_line(len(app.news) - len(told)), under
            assert plan.news_cut_line(1)[:2] == CUT_MARK
            # nothing runs under the prompt: the bottom rows are the prompt's
            assert _rows(app)[-2].startswith("> ")

    asyncio.run(play())


def test_below_80x24_the_bots_moves_after_a_die_show_with_the_die():
    # a bot moves right after the die: the die stays under the notice, its move under it
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], bots=["Ben"], seed=5)

    async def play():
        async with app.run_test(size=(79, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "pyramid", "blue 3"])
            await scenes.settle(pilot)
            history = app.query_one("#log", HistoryLog).history
            at = max(i for i, line in enumerate(history) if line.startswith("DIE blue 3"))
            said = history[at:]
            assert said[-1].startswith("Ben takes the "), said  # the bot's move
            shown = _words(_under_the_notice(app))
            for line in said:
                assert " ".join(line.split()) in shown, (line, shown)
            assert "Race 1 set up" not in shown  # said before the table waited for Ann

    asyncio.run(play())


def test_the_news_under_the_notice_is_whole_lines_that_fit():
    lines = ["DIE blue 3 (Ann's pyramid ticket): the blue camel moves forward 3",
             "  carrying green", "Now leading: 1st blue, 2nd green"]
    assert plan.too_small_news(lines, 40, 10) == lines
    assert plan.too_small_news(lines, 40, 5) == lines[:3]  # a blank row, two, one, one
    # s43: the lines that do not fit are said to be left out, never cut silently
    assert plan.too_small_news(lines, 80, 3) == lines[:1] + [
        "… 2 more lines: a bigger window shows them in the history"]
    assert plan.too_small_news(lines, 80, 2) == [
        "… 3 more lines: a bigger window shows them in the history"]
    assert plan.too_small_news(lines, 40, 4) == [  # the cut line wraps too: 2 rows
        "… 3 more lines: a bigger window shows them in the history"]
    assert plan.too_small_news(lines, 40, 3) == [
        "… 3 more lines: a bigger window shows them in the history"]
    assert plan.too_small_news(lines, 40, 2) == []  # not even the cut line fits
    assert plan.too_small_news([], 40, 10) == []
    assert plan.news_cut_line(1) == "… 1 more line: a bigger window shows it in the history"


@pytest.mark.parametrize("lang, counts", [
    ("en", ["Can still come out: blue, green, orange, white", "Pyramid tickets left: 4"]),
    ("de", ["Können noch herauskommen: blau, grün, orange, weiß", "Pyramidenplättchen übrig: 4"]),
])
def test_below_80x24_the_die_says_the_dice_that_can_still_come_out(lang, counts):
    # tester3 s42 finding 7: the plain screen says them after a die, the banner at 80x24
    # shows them; under the notice they were left out though rows were free (RULES 5)
    set_language(lang)
    app, pyramid = _app()

    async def play():
        async with app.run_test(size=(79, 24)) as pilot:
            await _turns_then_the_die(pilot, pyramid)
            under = [row.strip() for row in _under_the_notice(app) if row.strip()]
            die = " ".join(_the_die(app)[-1].split())  # the leaders' line, the die's last
            assert under[-3:] == [die] + counts, under  # after the die, in plain's words

    asyncio.run(play())


def test_below_80x24_a_leg_scorings_wrapped_lines_stay_indented():
    # tester3 s42 finding 7: a scoring line too long for the width went on at the
    # notice's left edge ("  ticket +1 => net +4, 3 -> 7"); the history indents it
    app = scenes.app_for("second", ["Annabelle", "Benedikt", "Cyrillus"], seed=5)

    async def play():
        async with app.run_test(size=(79, 24)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_LEG_SCORED)
            await scenes.settle(pilot)
            under = _under_the_notice(app)
            start = next(i for i, row in enumerate(under) if "LEG 1 SCORED" in row)
            end = next(i for i, row in enumerate(under) if row.strip().startswith("New leg"))
            scoring = under[start + 1:end]
            assert len(scoring) > 3, under  # three players' lines, one wrapped at least
            assert "Annabelle:" in scoring[0] and "=> net" in " ".join(under[start:end])
            for row in scoring:  # each player's line indented, its continuation more
                assert row.startswith("    "), under
            assert any(row.startswith("      ") for row in scoring), under
            # the new leg's words, wrapped, indented under it too
            assert under[end + 1].startswith("    "), under

    asyncio.run(play())


def test_below_80x24_a_resumed_race_says_where_it_stands_under_the_notice(tmp_path):
    # s43: resumed below 80x24, nothing showed under the notice until the first
    # announcement; now plain mode's resume lines (the race, the leg, the last die) do,
    # the prompt under them saying whose turn it is
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from camelhost.ui.tui import TableApp

    path = str(tmp_path / "resume.jsonl")
    first = Session("second", ["Ann", "Bo", "Cy"], seed=2, journal=Journal(path))
    for text in scenes.SECOND_MID_LEG:
        first.command(text)
    first.journal.close()
    app = TableApp(Session.resume(Journal.resume(path)), odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(79, 24)) as pilot:
            await scenes.settle(pilot)
            assert app.query_one("#too-small").display
            # a long path wraps anywhere: compared without spaces
            shown = "".join(_words(_under_the_notice(app)).split())
            for line in ("resumed %s: 7 events restored (race 1, leg 1)" % path,
                         "Last die: grey-white 2 (Ann): white camel backward 2, "
                         "from space 16 to 14"):
                assert "".join(line.split()) in shown, (line, shown)
            assert _rows(app)[-2].startswith("> Ann's turn"), _rows(app)

    asyncio.run(play())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_below_80x24_the_replies_to_best_odds_and_an_undo_question_show(lang):
    # s44: below 80x24 an undo that would take back a leg's scoring asked its question
    # in the history only, and the replies to 'best' and 'odds' typed then showed
    # nowhere (the prompt said "undo asked above" over the scoring's lines); the table's
    # replies in words are news too, each typed line's reply in place of the one before
    set_language(lang)
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=2, odds=scenes.no_odds)
    dice = ["blue 1", "green 1", "red 1", "yellow 1", "purple 1"]  # the leg's five

    async def reply_shows(pilot, line):
        log = app.query_one("#log", HistoryLog)
        before = len(log.history)
        await scenes.type_line(pilot, line)
        await scenes.settle(pilot)
        reply = [said for said in log.history[before:] if not said.startswith(">")]
        assert reply, log.history[before:]
        shown = _words(_under_the_notice(app))
        for said in reply:
            assert " ".join(said.split()) in shown, (line, said, shown)
        return shown

    async def play():
        async with app.run_test(size=(79, 24)) as pilot:
            await _below_80x24_after(pilot, [scenes.SECOND_SETUP, "leg blue"] + dice)
            assert app.session.game.leg == 2
            asked = await reply_shows(pilot, "undo")  # the question, over the scoring
            assert app.table.undo_asked
            for line in ("best", "undo", "odds", "undo"):
                shown = await reply_shows(pilot, line)
                if line != "undo":  # its reply in place of the question, which it
                    # leaves: said first (tester46 finding 1)
                    nothing = "nothing undone" if lang == "en" else "nichts zurückgenommen"
                    assert shown.startswith(nothing), shown
                    assert shown != asked and "undo" not in shown.replace(nothing, ""), shown
            # the question open, 'undo' again does it: its reply shows, as before
            await reply_shows(pilot, "undo")
            assert app.session.game.leg == 1

    asyncio.run(play())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_below_80x24_with_odds_worked_out_best_and_odds_reply_at_once(lang):
    # tester s44b finding 1: with odds worked out (in a worker), at 79x20 the replies
    # to 'best' and 'odds' showed under the notice only at the next re-layout (a
    # resize, a prompt changed); the table's reply redraws the notice when it arrives
    set_language(lang)
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=2)  # quick_odds: real odds

    async def play():
        async with app.run_test(size=(79, 20)) as pilot:
            log = await _below_80x24_after(pilot, [scenes.SECOND_SETUP, "leg blue"])
            # an undo's reply showed at once; 'best' right after it did not
            for line in ("best", "odds", "undo", "best"):
                before = len(log.history)
                await scenes.type_line(pilot, line)
                await scenes.settle(pilot)
                reply = [said for said in log.history[before:] if not said.startswith(">")]
                assert reply, (line, log.history[before:])
                first = " ".join(reply[0].split())
                shown = _words(_under_the_notice(app))
                # its first line, or at least as much of it as the notice's width shows
                assert first[:40] in shown, (line, first, shown)

    asyncio.run(play())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_below_80x24_show_and_help_answer_under_the_notice(lang):
    # s45: 'show' and 'help', which the screen answers itself, put nothing under the
    # notice: the reply to the line typed before ('odds') stayed there, as if it
    # answered them. Each shows its own answer now, as much as fits, cut with a line
    # saying how much more there is and where it shows
    from camelhost.ui.screens import HelpScreen

    set_language(lang)
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=2, odds=scenes.no_odds)

    def under():
        return [row.strip() for row in _under_the_notice(app) if row.strip()]

    async def play():
        async with app.run_test(size=(79, 17)) as pilot:
            log = await _below_80x24_after(pilot, [scenes.SECOND_SETUP, "leg blue"])
            await scenes.type_line(pilot, "odds")
            await scenes.settle(pilot)
            odds_reply = " ".join(log.history[-1].split())
            assert odds_reply in _words(_under_the_notice(app))
            # 'show': the board in the history's words, its first lines that fit, then
            # how many more the history has
            before = len(log.history)
            await scenes.type_line(pilot, "show")
            await scenes.settle(pilot)
            said = [line for line in log.history[before:] if not line.startswith(">")]
            assert len(said) > 5, said
            shown = under()
            assert odds_reply not in " ".join(shown), shown
            assert " ".join(shown).startswith(" ".join(said[0].split())), shown
            told = next(i for i, line in enumerate(said)
                        if " ".join(line.split()) not in _words(shown))
            assert told > 1, shown
            assert shown[-1] == plan.news_cut_line(len(said) - told), shown
            # 'help': its box opens as F1's; closed, the help's first lines stand under
            # the notice, the last saying how many more its box (F1) shows
            await scenes.type_line(pilot, "help")
            await scenes.settle(pilot)
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await scenes.settle(pilot)
            shown = under()
            lines = [line for line in app.help_words().splitlines() if line.strip()]
            assert " ".join(shown).startswith(" ".join(lines[0].split())), shown
            assert " ".join(said[0].split()) not in " ".join(shown), shown
            told = next(i for i, line in enumerate(lines)
                        if " ".join(line.split()) not in _words(shown))
            assert told > 3, shown
            assert shown[-1] == plan.help_cut_line(len(lines) - told), shown
            assert _rows(app)[-2].startswith("> "), _rows(app)  # nothing under the prompt
            # a bigger window: the full screen, the board's lines in the history
            await pilot.resize_terminal(80, 24)
            await scenes.settle(pilot)
            assert not app.query_one("#too-small").display

    asyncio.run(play())


@pytest.mark.parametrize("lang, why", [
    ("en", "No odds now (not worked out for this position)"),
    ("de", "Jetzt keine Chancen (für diese Stellung nicht berechnet)"),
])
def test_odds_mid_race_without_figures_never_says_the_race_is_over(lang, why):
    # s45: with no odds worked out mid-race (the odds engine refusing the position; the
    # tests' ``no_odds``), 'odds' said "No odds now (race over)"
    from camelhost.table.narration import odds_lines

    set_language(lang)
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=2, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(79, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg blue", "odds"])
            await scenes.settle(pilot)
            history = app.query_one("#log", HistoryLog).history
            assert history[-1] == why, history[-3:]
            assert _words(_under_the_notice(app)) == why

    asyncio.run(play())
    over = {"phase": "over", "odds": None}
    assert odds_lines(over)[0].endswith("(%s)" % ("race over" if lang == "en"
                                                   else "Rennen vorbei"))
    assert odds_lines({"phase": "setup", "odds": None})[0].endswith(
        "(%s)" % ("setup" if lang == "en" else "Aufbau"))


def test_below_80x24_a_die_after_show_replaces_the_board_under_the_notice():
    # the board 'show' put under the notice answers the line typed; the die the
    # pyramid sends next starts the news anew (added under the board, it was cut)
    app, pyramid = _app()

    async def play():
        async with app.run_test(size=(79, 24)) as pilot:
            await scenes.settle(pilot)
            for line in TURNS + ["show"]:
                await scenes.type_line(pilot, line)
            await scenes.settle(pilot)
            board = _words(_under_the_notice(app))
            assert "Pyramid tickets left" in board, board
            arrives(app, pyramid)
            await scenes.settle(pilot)
            shown = _words(_under_the_notice(app))
            die = _the_die(app)
            assert shown.startswith(" ".join(die[0].split())), shown
            assert " ".join(die[-1].split()) in shown, shown

    asyncio.run(play())


@pytest.mark.parametrize("asked", ["best", "odds"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_below_80x24_a_die_after_best_or_odds_replaces_the_reply_under_the_notice(
        lang, asked):
    # s45: the table's reply to 'best' or 'odds' answers the line typed, as 'show's
    # board does; the die the pyramid sends before anything else is typed was added
    # under the reply, and a long reply hid it behind its "… N more lines" row
    set_language(lang)
    app, pyramid = _app()

    async def play():
        async with app.run_test(size=(79, 17)) as pilot:
            await scenes.settle(pilot)
            for line in TURNS + [asked]:
                await scenes.type_line(pilot, line)
            await scenes.settle(pilot)
            log = app.query_one("#log", HistoryLog)
            reply = " ".join(log.history[-1].split())
            assert not reply.startswith(">") and reply[:30] in _words(
                _under_the_notice(app)), (reply, _under_the_notice(app))
            arrives(app, pyramid)
            await scenes.settle(pilot)
            under = [row.strip() for row in _under_the_notice(app) if row.strip()]
            shown = _words(under)
            die = _the_die(app)
            assert shown.startswith(" ".join(die[0].split())), shown  # the die first
            assert reply[:30] not in shown, shown  # the reply is gone
            if under[-1].startswith(CUT_MARK):  # what is left out is the die's, counted
                told = [line for line in app.news if " ".join(line.split()) in shown]
                assert under[-1] == plan.news_cut_line(len(app.news) - len(told)), under

    asyncio.run(play())
