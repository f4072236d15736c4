"""Full-screen papercuts of s35 (tester and engineers), each through what the table
shows at 80x24: the coins the zero floor would forgive in the players' ``now`` column
(RULES 1.9), a leg-ending die's own line in the history with the leg's scoring, the
race so far in the history after a resume, the undo question shown whole with its
answers, the leg's scoring in view (not the next leg's advice) while an undo of it is
asked, and a crazy camel's banner."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.panels import players_text

pytestmark = pytest.mark.screen

P3 = ["Ann", "Ben", "Cy"]
#: Ann takes four leg tickets of camels behind the first two (blue twice, green, red):
#: if the leg ended now she would owe 4 of her 3 coins, 1 forgiven (RULES 1.9)
OWES_MORE = [scenes.SECOND_SETUP, "leg blue", "leg purple", "leg yellow", "leg blue",
             "leg purple", "leg yellow", "leg green", "leg purple", "leg yellow", "leg red"]


def screen_lines(app):
    """What the terminal shows, one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _owing_more():
    s = Session("second", P3, seed=2)
    for line in OWES_MORE:
        s.command(line)
    return s


@pytest.mark.parametrize("lang, words", [("en", "* coins forgiven: Ann 1"),
                                         ("de", "* erlassene EP: Ann 1")])
def test_the_now_column_marks_coins_the_zero_floor_would_forgive(lang, words):
    # s35: Ann at 3 coins owing 4 read '-3' in 'now', and a player at 0 owing 2 read
    # '+0', as if nothing were owed; the leg-scoring panel says '1 coin forgiven'
    set_language(lang)
    try:
        view = table_view(_owing_more(), odds=False)
        assert {r["name"]: (r["net"], r["forgiven"]) for r in view["leg_now"]}["Ann"] == (-3, 1)
        for compact in (False, True):
            rows = players_text(view, 33, compact=compact).plain.splitlines()
            ann = next(r for r in rows if r[1:].startswith("Ann"))
            assert " -3* " in ann, rows
            assert not any("*" in r for r in rows if r[1:].startswith(("Ben", "Cy"))), rows
            assert rows[-1].strip() == words, rows
    finally:
        set_language("en")


def test_nothing_forgiven_adds_no_mark_and_no_line():
    s = Session("second", P3, seed=2)
    for line in OWES_MORE[:4]:
        s.command(line)
    rows = players_text(table_view(s, odds=False), 33).plain
    assert "*" not in rows and "forgiven" not in rows


def test_the_forgiven_coins_show_on_the_full_screen_at_80x24(tmp_path):
    app = scenes.app_for("second", P3, tmp=tmp_path, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, OWES_MORE)
            await scenes.settle(pilot)
            shown = screen_lines(app)
            assert any("Ann" in row and " -3* " in row for row in shown), shown
            assert any("* coins forgiven: Ann 1" in row for row in shown), shown

    asyncio.run(play())


def _pane_rows(log):
    """The history pane's rows as drawn (the cut mark included)."""
    return [log.render_line(y).text.rstrip()
            for y in range(log.scrollable_content_region.height)]


#: The first leg of a second-edition race, ended by the grey die moving the white crazy
#: camel (the sixth die stays inside, RULES 3.4)
LEG_ENDED_BY_GREY = [scenes.SECOND_SETUP, "blue 1", "green 1", "yellow 1", "red 1",
                     "grey white 1"]


@pytest.mark.parametrize("players", [P3, ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]])
def test_a_leg_ending_die_shows_in_the_banner_and_its_scoring_in_the_history_at_80x24(tmp_path, players):
    # s35: the leg's scoring after the die that ended it pushed the die's own line out
    # of the 80x24 history ('… from space 16 to 15' at the top, the die's line gone).
    # s43: the banner says that die whole, so the history holds what it cannot say: the
    # leg's scoring, from its start (the die's own lines may go above it)
    app = scenes.app_for("second", players, tmp=tmp_path, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, LEG_ENDED_BY_GREY[:-1])
            await scenes.settle(pilot)
            await scenes.type_line(pilot, LEG_ENDED_BY_GREY[-1])
            await scenes.settle(pilot)
            log = app.query_one("#log")
            rows = _pane_rows(log)
            assert app.die_in_banner()
            assert str(app.query_one("#announce").content).startswith("WHITE  BACKWARD 1")
            scored = [i for i, line in enumerate(log.lines) if line.startswith("LEG 1 SCORED")]
            top = round(log.scroll_y)
            assert scored and top <= scored[0] < top + len(rows), rows  # its start shown
            if not log.following:  # more below: the marker says so, End shows the rest
                assert app.query_one("#more").display
                await pilot.press("end")
                await scenes.settle(pilot)
                assert log.following
            assert app.query_one("#left").current == "leg-box"  # the scoring, whole

    asyncio.run(play())


def test_a_resumed_tables_history_shows_the_race_so_far_and_where_it_resumed(tmp_path):
    # s35: after a resume the full screen's history started at the resume; it now has
    # the race so far from the journal, a line marking where the table resumed, then
    # what the table says on resuming. Cy's finish cards stay face down
    from camelhost.table.journal import Journal
    from camelhost.ui.tui import TableApp
    path = str(tmp_path / "killed.jsonl")
    first = Session("second", P3, seed=2, journal=Journal(path))
    for text in scenes.SECOND_LEG_SCORED + ["leg red", "pyramid", "blue 2"]:
        first.command(text)
    first.journal.close()  # what survives a SIGKILL: every event already written
    app = TableApp(Session.resume(Journal.resume(path)), odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            history = list(app.query_one("#log").history)
            here = history.index("──── resumed here: the lines above are from the journal ────")
            before, after = history[:here], history[here + 1:]
            assert before[0] == "journal: %s" % path
            assert before[1].startswith("Race 1 set up (typed): 1:[blue,green]")
            for said in ("Ann takes the green leg ticket worth 5",
                         "DIE grey-white 2 (Ann's pyramid ticket)",
                         "Cy plays a finish card face down on the overall-winner pile",
                         "LEG 1 SCORED: 1st yellow, 2nd red",
                         "DIE blue 2 (Cy's pyramid ticket)"):
                assert sum(line.startswith(said) for line in before) == 1, (said, before)
            # the colour Cy laid is never read: green on the winner pile, yellow on the
            # loser pile
            cards = [line for line in before if "finish card" in line]
            assert len(cards) == 2 and not any(c in line for line in cards
                                                for c in ("green", "yellow")), cards
            assert after[0].startswith("resumed %s: 14 events restored (race 1, leg 2)" % path)
            assert not any(line.startswith("DIE ") for line in after)  # said once

    asyncio.run(play())


EIGHT = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.mark.parametrize("lang, answers, best", [
    # the advice's heading, or its short form when that lets one more action in
    ("en", "type 'undo' again or y/yes to do it; n/no or anything else leaves it",
     ("Best for", "For ")),
    ("de", "tippe noch einmal 'undo' oder j/ja, um es zu tun; n/nein oder alles andere "
     "lässt es",
     ("Am besten für", "Für "))])
def test_the_undo_question_after_a_leg_shows_whole_with_the_scoring_and_no_advice(
        tmp_path, lang, answers, best):
    # s35, the tester's hint: undo right after a leg ends, after a crazy camel, at 8
    # seats, in German. The question opened at its start, its answers below the fold
    # (finding 3), and beside it the next leg's advice, with its note line taking a row
    # the question needed (finding 2). Now the question shows whole, its answers with
    # it, and the leg's scoring it would take back is the panel beside it
    set_language(lang)
    try:
        app = scenes.app_for("second", EIGHT, tmp=tmp_path, odds=scenes.quick_odds)

        async def play():
            async with app.run_test(size=(80, 24)) as pilot:
                await scenes.type_lines(pilot, LEG_ENDED_BY_GREY)
                await scenes.settle(pilot)
                await pilot.press("escape")  # the odds and advice of leg 2 in view
                await scenes.settle(pilot)
                assert any(row.startswith(best) for row in screen_lines(app))
                await scenes.type_line(pilot, "undo")
                await scenes.settle(pilot)
                assert app.table.undo_asked
                log = app.query_one("#log")
                question = log.history[-1]
                assert question.startswith("undo ") and question.endswith(answers)
                shown = " ".join(" ".join(row.split()) for row in _pane_rows(log))
                assert " ".join(question.split()) in shown, _pane_rows(log)
                assert log.following and not app.query_one("#more").display
                assert app.query_one("#left").current == "leg-box"
                screen = screen_lines(app)
                assert not any(row.startswith(best) for row in screen), screen
                # anything else leaves it: the game goes on, the odds back in view
                await scenes.type_line(pilot, "leg blue")
                await scenes.settle(pilot)
                assert not app.table.undo_asked
                assert app.query_one("#left").current == "odds-box"
                assert app.session.game.leg == 2

        asyncio.run(play())
    finally:
        set_language("en")


def test_undo_asked_then_done_takes_the_leg_back(tmp_path):
    app = scenes.app_for("second", EIGHT, tmp=tmp_path, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, LEG_ENDED_BY_GREY)
            await scenes.settle(pilot)
            await scenes.type_line(pilot, "undo")
            await scenes.settle(pilot)
            assert app.query_one("#left").current == "leg-box"
            await scenes.type_line(pilot, "undo")
            await scenes.settle(pilot)
            assert not app.table.undo_asked and app.session.game.leg == 1
            assert app.query_one("#left").current == "odds-box"  # no scoring to show
            assert app.query_one("#log").history[-1].startswith("undone: ") or any(
                line.startswith("undone: ") for line in app.query_one("#log").history[-6:])

    asyncio.run(play())


#: The black crazy camel on space 2 (a correction puts it there), moved 3 backward by
#: the grey die: across the finish line, the race is over (RULES 1.13)
CRAZY_ENDS_THE_RACE = [scenes.SECOND_SETUP,
                       "fix 1:blue,green 2:red,black 3:yellow,purple 16:white",
                       "grey black 3"]


@pytest.mark.parametrize("players", [P3, EIGHT])
@pytest.mark.parametrize("lang, result, crazy", [
    ("en", "RACE OVER: PURPLE WINS, BLUE LAST", "BLACK  BACKWARD 3  (the numeral's colour)"),
    ("de", "RENNEN VORBEI: GESAMTSIEGER LILA, GESAMTVERLIERER BLAU",
     "SCHWARZ  3 FELDER RÜCKWÄRTS  (die Farbe der Ziffer)")])
def test_a_crazy_camel_that_ends_the_race_is_named_in_the_banner(tmp_path, players, lang,
                                                                result, crazy):
    # s35: the grey die moved a crazy camel backward across the finish line; the banner
    # said the race's result only, the line under it named the die ('grey black 3'),
    # not which crazy camel moved nor how, and with eight seats it gave way to the
    # race-over panel: nothing at the top said it. The banner's second line says it
    set_language(lang)
    try:
        app = scenes.app_for("second", players, tmp=tmp_path, odds=scenes.no_odds)

        async def play():
            async with app.run_test(size=(80, 24)) as pilot:
                await scenes.type_lines(pilot, CRAZY_ENDS_THE_RACE)
                await scenes.settle(pilot)
                assert app.session.phase == "over"
                top = [row.strip() for row in screen_lines(app)[:2]]
                assert top == [result, crazy], screen_lines(app)[:4]

        asyncio.run(play())
    finally:
        set_language("en")


def test_a_resumed_race_a_crazy_camel_ended_names_it_in_the_banner(tmp_path):
    from camelhost.table.journal import Journal
    from camelhost.ui.tui import TableApp
    path = str(tmp_path / "over.jsonl")
    first = Session("second", P3, seed=2, journal=Journal(path))
    for text in CRAZY_ENDS_THE_RACE:
        first.command(text)
    first.journal.close()
    app = TableApp(Session.resume(Journal.resume(path)), odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            assert [row.strip() for row in screen_lines(app)[:2]] == [
                "RACE OVER: PURPLE WINS, BLUE LAST",
                "BLACK  BACKWARD 3  (the numeral's colour)"]

    asyncio.run(play())
