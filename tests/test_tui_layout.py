"""The full screen at 80x24 and beyond: everything the table needs stays in view
(RULES 5), the history scrolls back, the leg-scoring and race-over panels stay
until they are done with, help fits, and every quit key closes the table with the
journal kept."""

import asyncio
import re
import time

import pytest
import tui_scenes as scenes
from camelhost.table.journal import Journal
from camelhost.ui.odds_view import WIDE_ADVICE
from camelhost.ui.screens import HelpScreen
from textual import events
from textual.widgets import ContentSwitcher, Log

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

P4 = ["Ann", "Ben", "Cy", "Dee"]


def _text(app, wid):
    return str(app.query_one(wid).content)


def _visible(app, wid):
    """True when the widget is shown and lies wholly inside the screen."""
    w = app.query_one(wid)
    r = w.region
    return w.display and r.height > 0 and r.x >= 0 and r.y >= 0 \
        and r.right <= app.size.width and r.bottom <= app.size.height


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_everything_the_table_needs_is_in_view(size):
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=size) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.settle(pilot)
            # no empty banner before the first die
            assert not app.query_one("#big").display and not app.query_one("#announce").display
            await scenes.type_lines(pilot, scenes.SECOND_MID_LEG[1:])
            await scenes.settle(pilot)
            track = _text(app, "#track").splitlines()
            assert all(len(line) <= size[0] for line in track)
            numbers = [line for line in track if " 16" in line][0]
            assert re.search(r"\b1\b.*\b14\b.*\b15\b.*\b16\b", numbers)  # one row, no wrap
            for wid in ("#big", "#announce", "#detail", "#leaders", "#track", "#players",
                        "#odds", "#info", "#log", "#prompt", "#command"):
                assert _visible(app, wid), wid
            announce = app.query_one("#announce")
            banner = "WHITE  BACKWARD 2  (the numeral's colour)"  # RULES 3.5 c
            assert _text(app, "#announce") == banner
            assert announce.region.width >= len(banner)  # never cut off
            players = _text(app, "#players")
            box = app.query_one("#info-box")
            assert box.region.height >= len(players.splitlines())  # every player in view
            for name in P4:
                row = [r for r in players.splitlines() if name in r][0]
                assert re.search(r"%s\s+3\b" % name, row)  # name and coins
            odds = _text(app, "#odds")
            for colour in ("blue", "green", "yellow", "red", "purple"):
                row = [r for r in odds.splitlines() if r.strip().startswith(colour)][0]
                assert len(re.findall(r"\d+", row)) >= 8, row  # 1st 2nd last win± lose± ticket
            # the narrow form's one heading "For Cy:", the wide form's "Best for Cy, ..."
            advice = odds[re.search(r"(Best for|\nFor) Cy[:,] ", odds).start():].lstrip("\n").splitlines()
            # the coach's best first (the wide form: under a heading saying how far it
            # is ahead of the next)
            assert "purple leg ticket +" in advice[0 if size == (80, 24) else 1]
            if size != (80, 24):
                assert re.match(r"Best for Cy, \d+\.\d\d ahead of the next:$", advice[0])
            if size == (80, 24):  # the coach's best two, each whole: the next, "cheering
                # tile on 5 (from 8) -1.08 (now +0.88)", doesn't fit the row with its label,
                # so its words take one row and its numbers the next (never parted
                # mid-phrase: tester 43; nor dropped: s46), then (a row to spare) what
                # their numbers are
                assert advice == ["For Cy: purple leg ticket +0.22;",
                                  "  cheering tile on 5 (from 8)",
                                  "  -1.08 (now +0.88)",
                                  "(balance: now less the next players' gains)"], advice
            else:  # the coach's first actions, its list as plain mode's best reads it
                # (tester s32-2, finding 4), each with its value now, and a note on
                # their order; the heading's lead is the first row's over the second's
                rows = [line for line in advice[1:] if line.startswith("  ")
                        and not line.startswith("    ")]
                assert len(rows) == WIDE_ADVICE, advice
                numbers = [float(re.search(r" ([+-]\d+\.\d\d) \(now ", r).group(1))
                           for r in rows]
                assert numbers == sorted(numbers, reverse=True), advice
                lead = float(re.match(r"Best for Cy, (\d+\.\d\d) ahead", advice[0]).group(1))
                assert abs(lead - (numbers[0] - numbers[1])) <= 0.011, advice
                assert advice[-1].startswith("(coach's order")

    asyncio.run(play())


def test_the_odds_follow_every_change():
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP])
            await scenes.settle(pilot)
            first = _text(app, "#odds")
            assert "\nFor Ann:" in first  # the narrow form's one heading
            await scenes.type_line(pilot, "blue 3")
            await scenes.settle(pilot)
            second = _text(app, "#odds")
            assert "\nFor Ben:" in second and second != first

    asyncio.run(play())


def test_history_scrolls_back_with_page_up_and_down():
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_LEG_SCORED)
            await scenes.settle(pilot)
            log = app.query_one("#log", Log)
            # End follows the newest line
            await pilot.press("end")
            await pilot.pause()
            assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
            await pilot.press("pageup")
            await pilot.pause()
            assert log.scroll_y < log.max_scroll_y
            await pilot.press("pagedown", "pagedown", "pagedown", "pagedown")
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y
            # the mouse wheel over the history scrolls it too
            r = log.region
            wheel = dict(x=1, y=1, delta_x=0, delta_y=0, button=0, shift=False, meta=False,
                         ctrl=False, screen_x=r.x + 1, screen_y=r.y + 1)
            for _ in range(3):
                log.post_message(events.MouseScrollUp(log, **wheel))
            await pilot.pause()
            assert log.scroll_y < log.max_scroll_y

    asyncio.run(play())


def _newest_in_view(log):
    return log.scroll_y + log.scrollable_content_region.height >= log.line_count


def test_the_log_follows_the_newest_line_after_a_multi_line_announcement():
    # the odds arrive after each line and the panel above grows, as with the table's
    # own; the advice, never read, is left out
    app = scenes.app_for("second", P4, odds=scenes.leg_odds_only)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            log = app.query_one("#log", Log)
            more = app.query_one("#more")
            # every die: 'then on to ...', 'Now leading ...', 'Can still come out ...';
            # a refusal also opens the error line under the history (which shrinks)
            for text in scenes.SECOND_LEG_SCORED + [
                    "leg red", "frobnicate the camels please now", "blue 1", "tile 1 +",
                    "tile 12 +", "grey white 3", "bogus", "purple 2", "red 1", "red 1"]:
                await scenes.type_line(pilot, text)
                await scenes.settle(pilot)
                if text == scenes.SECOND_LEG_SCORED[-1]:
                    # the die that ended the leg, said whole by the banner: the leg's
                    # scoring in the history from its start (s43; it showed the die's
                    # own lines, the banner's words, the scoring cut: s35), here
                    # followed by the newest line
                    assert app.die_in_banner()
                    shown = log.lines[round(log.scroll_y):]
                    assert any(line.startswith("LEG 1 SCORED") for line in shown), shown
                assert _newest_in_view(log), text
                assert not more.display
            # scrolled back: the history stays put and says there is more
            await pilot.press("pageup")
            await scenes.settle(pilot)
            back = log.scroll_y
            assert not _newest_in_view(log) and more.display
            assert "PgDn" in str(more.content) and "End" in str(more.content)
            await scenes.type_line(pilot, "red 1")
            await scenes.settle(pilot)
            assert log.scroll_y == back and more.display
            # End: following again (typing goes on in the command line)
            await pilot.press("end")
            await scenes.settle(pilot)
            assert _newest_in_view(log) and not more.display
            await scenes.type_line(pilot, "leg blue")
            await scenes.settle(pilot)
            assert _newest_in_view(log)
            # PgDn down to the newest line follows again too
            await pilot.press("pageup", "pageup")
            await scenes.settle(pilot)
            assert more.display
            for _ in range(8):
                await pilot.press("pagedown")
            await scenes.settle(pilot)
            assert not more.display
            await scenes.type_line(pilot, "pyramid")
            await scenes.settle(pilot)
            assert _newest_in_view(log)

    asyncio.run(play())


def test_leg_scoring_panel_stays_until_the_next_leg_goes_on():
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_LEG_SCORED)
            await scenes.settle(pilot)
            left = app.query_one("#left", ContentSwitcher)
            assert left.current == "leg-box"
            panel = _text(app, "#legscore")
            assert panel.startswith("LEG 1 SCORED 1st yellow, 2nd red")
            ann = [r for r in panel.splitlines() if r.startswith("Ann")][0]
            assert "3 ->  1 (-2): G5 -1 B5 -1" in ann  # each ticket and what it paid
            await pilot.press("escape")
            assert left.current == "odds-box"
            await pilot.press("f3")
            assert left.current == "leg-box"
            await scenes.type_line(pilot, "leg red")  # the next leg goes on
            assert left.current == "odds-box"

    asyncio.run(play())


def test_f3_before_any_leg_is_scored_says_so():
    """Issue 30: F3 before the first leg's end did nothing. It says why now (in the
    status line, gone with the next command); the odds stay."""
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_MID_LEG[:3])
            await scenes.settle(pilot)
            await pilot.press("f3")
            assert app.query_one("#left", ContentSwitcher).current == "odds-box"
            assert _visible(app, "#error")
            assert _text(app, "#error").startswith("No leg has been scored yet in this race")
            await scenes.type_line(pilot, "leg red")
            assert not app.query_one("#error").display

    asyncio.run(play())


def test_race_over_screen_stays_until_another_race():
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "win purple", "lose red"])
            await scenes.play_race_out(pilot)
            await scenes.settle(pilot)
            left = app.query_one("#left", ContentSwitcher)
            assert left.current == "over-box"
            panel = _text(app, "#raceover")
            assert "RACE 1 OVER" in panel and "overall winner" in panel
            # each pile in play order, its first card Ann's (winner) and Ben's (loser)
            assert re.search(r"\nWinner pile: 1\.Ann pur [+-]\d+\n", panel), panel
            assert re.search(r"\nLoser pile: 1\.Ben red [+-]\d+\n", panel), panel
            assert "\nFinal ranking  coins  finish cards  last leg\n 1. " in panel
            assert "WINNER" in panel
            assert _visible(app, "#raceover")
            for text in ("show", "help", "odds"):  # looking around keeps it
                await scenes.type_line(pilot, text)
                if isinstance(app.screen, HelpScreen):
                    await pilot.press("escape")
            assert left.current == "over-box"
            await scenes.type_line(pilot, "again")
            await scenes.settle(pilot)
            assert left.current == "odds-box"
            assert "Race 2" in _text(app, "#leaders")

    asyncio.run(play())


def _banner(app):
    box = app.query_one("#announce")
    return str(box.content) if box.display else ""


def test_the_banner_follows_the_phase_after_again():
    from camelhost.table.session import Session
    from camelhost.ui.tui import TableApp

    # the virtual pyramid's table: 'again' draws the next race's camels at once
    # the banner, the history and the leaders line are read, never the odds
    drawn = TableApp(Session("second", P4, seed=2, journal=Journal(None)), auto_setup=True,
                     odds=scenes.no_odds)
    typed = scenes.app_for("second", P4, odds=scenes.no_odds)

    async def play(app, setup):
        async with app.run_test(size=(80, 24)) as pilot:
            if setup:
                await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.play_race_out(pilot)
            await scenes.settle(pilot)
            assert "RACE OVER" in _banner(app)
            await scenes.type_line(pilot, "again")
            await scenes.settle(pilot)
            if setup:  # the camels still to set up: the banner asks for them
                assert _banner(app) == "RACE 2: SET UP THE CAMELS"
                await scenes.type_line(pilot, scenes.SECOND_SETUP)
                await scenes.settle(pilot)
            assert app.session.race_no == 2 and app.session.phase == "turn"
            log = "\n".join(app.query_one(Log).lines)
            assert "Race 2 set up" in log
            assert "SET UP" not in _banner(app)  # nothing before race 2's first die
            assert not app.query_one("#big").display
            assert "Race 2, leg 1" in _text(app, "#leaders")
            await scenes.type_line(pilot, "blue 2")
            assert _banner(app).startswith("BLUE")

    asyncio.run(play(drawn, False))
    asyncio.run(play(typed, True))


def test_help_opens_in_a_box_that_fits_and_scrolls():
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, "help")
            assert isinstance(app.screen, HelpScreen)
            box = app.screen.query_one("#help-box")
            assert box.region.bottom <= 24 and box.region.right <= 80
            assert box.max_scroll_y > 0  # longer than the box: it scrolls, nothing lost
            await pilot.press("escape")
            assert not isinstance(app.screen, HelpScreen)
            await pilot.press("f1")
            assert isinstance(app.screen, HelpScreen)
            # the dice are typed here: no release command, no F5 (the virtual pyramid's)
            shown = str(app.screen.query_one("#help-text").content)
            assert "release" not in shown and "F5" not in shown

    asyncio.run(play())


def test_show_writes_the_whole_table_into_the_history():
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(120, 40)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_MID_LEG + ["show"])
            log = "\n".join(app.query_one("#log", Log).lines)
            assert "> show" in log
            shown = log.split("> show")[-1]
            assert "Ann" in shown and "coin" in shown and "Track" in shown

    asyncio.run(play())


def test_long_input_is_shortened_in_the_error_and_a_refusal_stays_in_the_history_marked():
    # a refusal's reason shows on the error line only (docs/screen.md): shortened there;
    # the history keeps the command, shortened and marked (refused)
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            log = app.query_one("#log", Log)
            before = list(log.lines)
            await scenes.type_line(pilot, "x" * 4800)
            error = app.query_one("#error")
            assert "4800 characters" in _text(app, "#error")
            assert len(_text(app, "#error")) < 300 and 1 <= error.region.height <= 3
            assert error.region.bottom <= app.query_one("#prompt").region.y
            added = list(log.lines)[len(before):]
            assert "".join(added).replace(" ", "").endswith("(refused)")  # the echo only
            assert added[0].startswith("> xxxxxxxx") and "4800 characters" in "".join(added)
            assert not any("!" in line for line in added)  # not the error
            assert app.session.game.leg == 1 and app.session.current == 0  # nothing changed

    asyncio.run(play())


@pytest.mark.parametrize("key", ["ctrl+q", "ctrl+c", "ctrl+d"])
def test_every_quit_key_closes_the_table_and_keeps_the_journal(key, tmp_path):
    app = scenes.app_for("second", P4, tmp=tmp_path)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg green"])
            app.query_one("#command").value = "half typed"
            await pilot.press(key)
            await pilot.pause()
            assert app.table.quit
            assert app.return_code == 0  # exited, not crashed

    asyncio.run(play())
    app.session.journal.close()  # what 'pyramid play' does once the screen is closed
    resumed = Journal.resume(str(tmp_path / "scene.jsonl"))
    assert [e["type"] for e in resumed.events] == ["game", "setup", "action"]


def test_odds_that_arrive_while_the_table_closes_are_dropped():
    """The odds of the last position, worked out on their thread, may arrive while the
    screen is being taken down (quitting right after a move; a test that ends without
    waiting for them, when a loaded machine makes Pilot's pause take the busy worker
    for idle): they are dropped, and the table closes without an error (it raised
    NoMatches for the odds panel, already removed). Made certain here: the figures are
    handed over only once the odds panel has been removed, and reach the app while it
    closes."""
    import threading

    from textual.worker import Worker, WorkerState

    gate = threading.Event()
    hold = []  # set: the odds wait for the gate
    late = []  # the odds' result, taken by the app while it closes

    def gated(snap):
        figures = scenes.quick_odds(snap)
        if hold:
            gate.wait(10)
        return figures

    app = scenes.app_for("second", P4, odds=gated)

    def odds_panel_gone():
        try:
            return not app.query("#odds")
        except Exception:  # noqa: BLE001 - no screen left: gone too
            return True

    def hook(message):
        if isinstance(message, Worker.StateChanged) and message.worker.group == "odds" \
                and message.state == WorkerState.SUCCESS and not app.is_running:
            late.append(message)
        # the first message once the odds panel is removed (the app closing): the
        # figures go, and the loop waits (0.2 s, no CPU) while the two threads hand them
        # back (the seam's worker, then the app's)
        if hold and not gate.is_set() and odds_panel_gone():
            gate.set()
            time.sleep(0.2)

    async def play():
        async with app.run_test(size=(100, 32), message_hook=hook) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_MID_LEG)
            await scenes.settle(pilot)
            hold.append(True)
            await scenes.type_line(pilot, "leg red")
            assert app.odds_pending

    asyncio.run(play())  # raised NoMatches ('#odds') before the app dropped them
    assert gate.is_set() and len(late) == 1


ILLEGAL = [
    # (command, names the message must hold) on a six-player second-edition table
    ("partner Ann", ["Ann"]),             # Ann with herself
    ("tile 5 +", None),                   # legal: Ann's tile on 5
    ("tile 6 +", ["Ann"]),                # Ben next to Ann's tile
    ("tile 5 -", ["Ann"]),                # Ben onto Ann's tile
    ("partner Ann", None),                # legal: Ben with Ann
    ("partner Ann", ["Ann", "Ben"]),      # Cy: Ann is taken
    ("partner Ben", ["Ben", "Ann"]),      # Cy: Ben is taken
    ("partner Zed", ["Ann", "Flo"]),      # nobody called Zed: the names are listed
    ("win red", None),                    # legal: Cy's card
    ("leg blue", None), ("leg blue", None), ("leg blue", None),
    ("leg blue", None),                   # Dee, Eve, Flo, Ann
    ("pyramid", None),                    # Ben takes a pyramid ticket
    ("leg red", ["Ben"]),                 # Ben's ticket waits for its die
    ("blue 1", None),                     # the die
    ("lose red", ["Cy"]),                 # Cy: red already played
]


def test_every_refusal_names_players_by_name():
    # the error line is read, never the odds
    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"],
                         odds=scenes.no_odds)
    seen = []

    async def play():
        async with app.run_test(size=(120, 40)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            for text, names in ILLEGAL:
                await scenes.type_line(pilot, text)
                error = _text(app, "#error")
                if names is None:
                    assert error == "", (text, error)
                    continue
                seen.append(error)
                assert error.startswith("! "), text
                for name in names:
                    assert name in error, (text, error)
                assert not re.search(r"\bp\d\b|\bseat\b|\bplayer \d", error), error

    asyncio.run(play())
    assert len(seen) == len([n for _, n in ILLEGAL if n is not None])


def test_a_resumed_table_shows_the_last_die_and_the_race_so_far(tmp_path):
    from camelhost.table.session import Session
    from camelhost.ui.tui import TableApp

    path = str(tmp_path / "resume.jsonl")
    first = Session("second", P4, seed=2, journal=Journal(path))
    for text in scenes.SECOND_MID_LEG:
        first.command(text)
    first.journal.close()
    session = Session.resume(Journal.resume(path))
    app = TableApp(session, odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            assert _text(app, "#announce") == "WHITE  BACKWARD 2  (the numeral's colour)"
            assert str(app.query_one("#big").value) == "-2"
            assert "\nFor Cy:" in _text(app, "#odds")
            assert "winner 1 card" in _text(app, "#info")

    asyncio.run(play())


def test_a_resized_terminal_gets_the_track_and_odds_redrawn_to_fit():
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(120, 40)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_MID_LEG)
            await scenes.settle(pilot)
            assert "left" in _text(app, "#odds").splitlines()[0]  # the wide form
            await pilot.resize_terminal(80, 24)
            await scenes.settle(pilot)
            assert all(len(line) <= 80 for line in _text(app, "#track").splitlines())
            assert "left" in _text(app, "#odds").splitlines()[0]  # the narrow form ...
            assert "(coach's order;" not in _text(app, "#odds")  # (no notes)
            assert _visible(app, "#command") and _visible(app, "#players")

    asyncio.run(play())


def test_a_log_line_is_wrapped_not_cut_after_shrinking_to_80_columns():
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(120, 40)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_MID_LEG + ["frobnicate"])
            await scenes.settle(pilot)
            log = app.query_one("#log", Log)
            before = list(log.lines)
            assert max(len(line) for line in before) > 80  # one line as wide as 120 allows
            await pilot.resize_terminal(80, 24)
            await scenes.settle(pilot)
            room = log.scrollable_content_region.width
            assert room < 80 and all(len(line) <= room for line in log.lines)
            assert " ".join(" ".join(log.lines).split()) == " ".join(" ".join(before).split())
            assert _newest_in_view(log)

    asyncio.run(play())


@pytest.mark.parametrize("players, lines", [
    (P4, scenes.SECOND_MID_LEG),
    (["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"], scenes.SIX_PARTNERS),
])
def test_every_column_header_with_data_shows_at_80x24(players, lines):
    app = scenes.app_for("second", players)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, lines)
            await scenes.settle(pilot)
            for wid, heads, rows in (
                    ("#players", ["coins", "pyr", "cards", "now", "tickets"], len(players)),
                    ("#odds", ["1st", "2nd", "last", "win±", "lose±", "ticket", "left"],
                     5)):  # a row per racing camel
                text = _text(app, wid).splitlines()
                assert text[0].split()[-len(heads):] == heads, wid
                room = app.query_one(wid).content_region.width
                assert all(len(line) <= room for line in text[:rows + 1]), wid
                assert app.query_one(wid).region.height >= len(text)  # wholly shown
                assert _visible(app, wid)
            odds = _text(app, "#odds").splitlines()
            purple = [line for line in odds if line.split()[:1] == ["purple"]][0]
            assert purple.split()[-1] == "4"  # 5,3,2,2 left: four leg tickets

    asyncio.run(play())


def test_light_terminals_get_the_light_screen_and_f6_switches():
    from camelhost.ui.tui import default_theme

    assert default_theme({"COLORFGBG": "0;15"}) == "light"
    assert default_theme({"COLORFGBG": "15;default;0"}) == "dark"
    assert default_theme({}) == "dark"
    app = scenes.app_for("classic", ["Ann", "Ben"], theme="light")

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            assert app.theme == "camel-light"
            await pilot.press("f6")
            assert app.theme == "camel-dark"

    asyncio.run(play())


def test_undo_takes_the_announcement_and_the_leg_panel_back_too():
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_LEG_SCORED)
            await scenes.settle(pilot)
            left = app.query_one("#left", ContentSwitcher)
            assert left.current == "leg-box"
            assert _text(app, "#announce") == "YELLOW  FORWARD 3"
            await scenes.type_line(pilot, "undo")  # the leg's last die: asked first,
            await scenes.type_line(pilot, "undo")  # since it takes back the leg's scoring
            await scenes.settle(pilot)
            assert left.current == "odds-box"
            assert _text(app, "#announce") == "PURPLE  FORWARD 2"  # the die before it
            assert str(app.query_one("#big").value) == "+2"
            for _ in range(8):
                await scenes.type_line(pilot, "undo")
            await scenes.settle(pilot)
            assert not app.query_one("#announce").display  # no die left this race
            assert not app.query_one("#big").display

    asyncio.run(play())


def test_leg_scoring_panel_shows_what_a_partner_copied():
    # the leg-scoring panel is read, never the odds
    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"],
                         odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg red", "partner Ann",
                                            "green 3", "blue 1", "red 1", "grey white 1",
                                            "yellow 1"])  # the fifth die ends the leg
            await scenes.settle(pilot)
            rows = _text(app, "#legscore").splitlines()
            ann = [r for r in rows if r.startswith("Ann")][0]
            ben = [r for r in rows if r.startswith("Ben")][0]
            paid = re.search(r"R5 ([+-]\d+)", ann).group(1)
            copied = re.search(r"copy of Ann ([+-]\d+)", ben).group(1)
            assert copied == paid and int(paid) > 0  # RULES 3.8: Ben copies Ann's red 5

    asyncio.run(play())


def _disk_full(monkeypatch):
    import errno
    import os

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)


def test_a_full_disk_stops_the_full_screen_with_the_documented_line(tmp_path, monkeypatch):
    """Issue 29 item 4 on the full screen: a line the journal can't write (the disk is
    full) stops the table; the app exits holding the ``JournalFull`` whose
    message docs/table.md gives; the journal keeps every event before it whole."""
    from camelhost.table.journal import JournalFull
    from camelhost.table.session import Session
    from camelhost.ui.tui import TableApp

    path = tmp_path / "g.jsonl"
    app = TableApp(Session("second", P4, seed=2, journal=Journal(str(path))),
                   odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            before = path.read_bytes()
            _disk_full(monkeypatch)
            await scenes.type_line(pilot, "leg green")
            monkeypatch.undo()
            assert path.read_bytes() == before  # no partial line
            assert app.session.game.leg_tickets_left("green")  # not taken
        assert isinstance(app.failure, JournalFull)
        assert app.failure.strerror.startswith(
            "the disk is full: the game is safe in %s up to the last event; free some "
            "space, then continue with: pyramid play --resume " % path)

    asyncio.run(play())


def test_a_full_disk_at_the_drawn_setup_makes_run_raise_the_one_line(tmp_path, monkeypatch):
    """``TableApp.run`` raises the ``JournalFull`` once the full screen is gone, so
    ``pyramid`` prints its one line on the terminal as in the plain mode (an
    ``OSError``: ``pyramid: the disk is full: ...``)."""
    from camelhost.table.journal import JournalFull
    from camelhost.table.session import Session
    from camelhost.ui.tui import TableApp

    path = tmp_path / "g.jsonl"
    app = TableApp(Session("second", P4, seed=2, journal=Journal(str(path))),
                   auto_setup=True, odds=scenes.quick_odds)
    _disk_full(monkeypatch)
    with pytest.raises(JournalFull, match="the disk is full: the game is safe in"):
        app.run(headless=True, size=(80, 24))


def test_the_keys_and_the_title_are_in_german_under_lang_de():
    """Issue 30 on the full screen: the keys Textual lists (its keys panel) and the
    title are in the table's language; English again after."""
    from camelhost.i18n import set_language
    from camelhost.ui.screens import FinishCardPicker

    def described(app):
        return {key: b.binding.description for key, b in app.screen.active_bindings.items()}

    async def play(app):
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, scenes.SECOND_MID_LEG[:4])
            keys = described(app)
            await scenes.type_line(pilot, "win")
            assert isinstance(app.screen, FinishCardPicker)
            keys["picker escape"] = described(app)["escape"]
            return app.title, keys

    try:
        set_language("de")
        title, keys = asyncio.run(play(scenes.app_for("second", P4, odds=scenes.no_odds)))
    finally:
        set_language("en")
    english, english_keys = asyncio.run(play(scenes.app_for("second", P4, odds=scenes.no_odds)))
    assert english == "Camel Up smart pyramid" and title != english
    for key, word in [("f1", "Help"), ("f3", "Leg scoring"), ("f6", "Dark/light"),
                      ("ctrl+q", "Quit"), ("picker escape", "Cancel")]:
        assert english_keys[key] == word
        assert keys[key] != word and keys[key], (key, keys[key])
