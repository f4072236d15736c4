"""The full screen as a fresh tester found it: after a resize the odds panel must
come back whole, every player stays in view at 80x24, a stale error goes at the
next command or pyramid event, no ``-0.00``, the help wraps to its box, and a
pyramid ticket waiting for its die after a crash is shown and counted (RULES 5)."""

import asyncio
import queue
import re
import types

import pytest
import tui_scenes as scenes
from camelhost.device.events import DieEvent
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui import palette
from camelhost.ui.odds_view import signed
from camelhost.ui.panels import colour_letter
from camelhost.ui.screens import HelpScreen
from camelhost.ui.tui import ECHO_MAX, TableApp, shorten, without_echo

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

P3 = ["Ann", "Ben", "Cy"]
P4 = ["Ann", "Ben", "Cy", "Dee"]
RACING = ("blue", "green", "yellow", "red", "purple")


def screen_lines(app):
    """What the terminal shows, one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _text(app, wid):
    return str(app.query_one(wid).content)


def _above_space(track, row, space=5):
    """The track's lines above ``space`` (found by its number on line ``row``, the
    numbers row), two columns either side, top to bottom, as one string."""
    at = re.search(r"\b%d\b" % space, track[row]).start()
    return "".join(line[at - 2:at + 3] for line in track[:row])


def _odds_whole(app):
    """The odds panel is drawn as laid out: no scrollbar, one screen row per line,
    every camel's row whole on the screen."""
    box = app.query_one("#odds-box")
    odds = app.query_one("#odds")
    lines = _text(app, "#odds").splitlines()
    assert not box.show_vertical_scrollbar
    assert odds.region.width == app.odds_width() and odds.region.height == len(lines)
    shown = screen_lines(app)
    left = odds.region.x
    for y, line in enumerate(lines, odds.region.y):
        assert shown[y][left:left + len(line)] == line, (y, line)
    assert lines[0].split()[-2:] == ["ticket", "left"]
    rows = lines[:next((i for i, line in enumerate(lines) if line.startswith(("Best for", "For "))),
                       len(lines))]  # the camels' rows, not the advice under them
    assert sum(1 for line in rows if line.split()[:1] and line.split()[0] in RACING) == 5


@pytest.mark.parametrize("sizes", [[(120, 30), (80, 24)], [(120, 30), (120, 24), (80, 24)]])
def test_the_odds_panel_comes_back_whole_after_a_resize_and_back(sizes):
    app = scenes.app_for("second", P3, seed=21)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.settle(pilot)
            _odds_whole(app)
            for size in sizes:
                await pilot.resize_terminal(*size)
                await scenes.settle(pilot)
                _odds_whole(app)
            await scenes.type_lines(pilot, ["leg green", "blue 3"])  # and after later moves
            await scenes.settle(pilot)
            _odds_whole(app)

    asyncio.run(play())


def test_an_expected_value_that_rounds_to_zero_prints_as_zero():
    assert [signed(x) for x in (-0.001, -0.0, 0.0, 0.004, 1.915, -0.32)] == \
        ["0.00", "0.00", "0.00", "0.00", "+1.92", "-0.32"]
    # seed 11, drawn setup: green's leg ticket is worth -0.00... coins: shown 0.00
    app = TableApp(Session("second", P4, seed=11, journal=Journal(None)), auto_setup=True,
                   odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            odds = _text(app, "#odds")
            green = [r for r in odds.splitlines() if r.split()[:1] == ["green"]][0]
            assert re.search(r" 5  0\.00 ", green), green
            assert "-0.00" not in odds and "+0.00" not in odds

    asyncio.run(play())


def test_a_stale_error_goes_at_the_next_command_or_pyramid_event():
    events = queue.Queue()
    pyramid = types.SimpleNamespace(events=lambda: events, virtual=None, manual=False)
    session = Session("second", P4, seed=2, journal=Journal(None))
    # the error line and the history's last lines are read, never the odds
    app = TableApp(session, pyramid=pyramid, odds=scenes.no_odds)

    def error(app):
        box = app.query_one("#error")
        return _text(app, "#error") if box.display else ""

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_line(pilot, scenes.SECOND_SETUP)
            await scenes.type_line(pilot, "xyzzy")
            assert error(app).startswith("! unknown command 'xyzzy'")
            assert any("xyzzy" in line for line in screen_lines(app))
            # the pyramid reports dice (the slider pushed): each an event for the table
            for seq, (colour, value) in enumerate(
                    [("blue", 1), ("green", 1), ("red", 1), ("yellow", 1), ("purple", 1)], 1):
                events.put(("event", DieEvent("die", "B", seq, "EVT %d" % seq, colour=colour,
                                              value=value)))
                for _ in range(600):
                    await pilot.pause(0.02)
                    if len([r for r in session.reports if r.get("move")]) == seq:
                        break
                assert error(app) == "", seq
                assert not any("xyzzy" in line for line in screen_lines(app)[-4:])
            assert session.game.leg == 2  # the leg was scored on the way
            await scenes.type_line(pilot, "xyzzy")
            assert error(app).startswith("! unknown")
            await scenes.type_line(pilot, "leg red")  # an accepted command
            assert error(app) == ""
            await pilot.press("ctrl+q")

    asyncio.run(play())


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_the_help_wraps_to_its_box_and_its_scrollbar_stays_off_the_text(size):
    app = scenes.app_for("second", P3)

    async def play():
        async with app.run_test(size=size) as pilot:
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            box = app.screen.query_one("#help-box")
            assert box.show_vertical_scrollbar
            shown = screen_lines(app)
            rows = range(box.region.y + 1, box.region.bottom - 1)
            text = [shown[y][box.region.x + 1:box.region.right - 1] for y in rows]
            # the box's own line breaks are gone: the sentence wraps at the box's width
            assert any("pile, face down: its" in line for line in text), text
            assert not any(line.rstrip().endswith("pile, face") for line in text)
            # the column left of the scrollbar is blank on every row: no text under it
            bar = box.region.right - 1 - box.styles.scrollbar_size_vertical
            assert all(shown[y][bar - 1] == " " for y in rows)

    asyncio.run(play())


def _crashed_while_a_ticket_waits(tmp_path):
    """A journal cut off (as by SIGKILL) after Cy took a pyramid ticket, its die not
    yet out; the session resumed from it."""
    path = str(tmp_path / "killed.jsonl")
    first = Session("second", P4, seed=2, journal=Journal(path))
    for text in [scenes.SECOND_SETUP, "leg green", "blue 3", "pyramid"]:
        first.command(text)
    first.journal.close()  # what survives a SIGKILL: every event already written
    return Session.resume(Journal.resume(path))


def test_a_resumed_pyramid_ticket_waiting_for_its_die_is_shown_and_counted(tmp_path):
    session = _crashed_while_a_ticket_waits(tmp_path)
    assert session.phase == "die"
    app = TableApp(session, odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            info = " ".join(_text(app, "#info").split())
            assert "Pyramid tickets left: 3 (Cy's ticket waits for its die)." in info
            rows = _text(app, "#players").splitlines()
            cy = [r for r in rows if "Cy" in r][0]
            assert cy.split()[1:3] == ["3", "1"], cy  # 3 coins, one pyramid ticket
            log = app.query_one("#log")
            assert sum("Last die:" in line for line in log.lines) == 1
            await scenes.type_line(pilot, "show")
            shown = "\n".join(log.lines).split("> show")[-1]
            assert "Pyramid tickets left: 3 (Cy's pyramid ticket waits for its die)" in shown
            assert "Cy: 3 coins; no leg tickets; 1 pyramid ticket;" in shown
            await scenes.type_line(pilot, "red 2")  # the die comes: the ticket is complete
            await scenes.settle(pilot)
            assert "Pyramid tickets left: 3." in " ".join(_text(app, "#info").split())
            assert "waits" not in _text(app, "#info")

    asyncio.run(play())


@pytest.mark.parametrize("lang, die, said", [
    ("en", "green ?", "Pyramid tickets left: 4 (Ben's ticket waits for its die's value)."),
    ("en", None, "Pyramid tickets left: 4 (Ben's ticket waits for its die's numerals)."),
    ("de", "green ?", "Noch 4 Pyramidenplättchen (das von Ben wartet auf den Würfelwert)."),
    ("de", None, "Noch 4 Pyramidenplättchen (das von Ben wartet auf die Ziffernfarbe)."),
])
def test_a_ticket_whose_die_is_out_says_it_waits_for_the_value_in_words(lang, die, said):
    """s42: at the die-value prompt the counts read ``(Ben's waits for its die)``: no
    English (``Ben's`` what?) and no longer true, the die lying out on the table. They
    name the ticket and what it waits for now, as the plain screen's ``show`` does, in
    the shorter words the panel's width asks for. ``die``: the die typed with its value
    unknown, ``None``: the grey die reported by a pyramid, its numerals' colour unread."""
    from camelhost.i18n import set_language
    set_language(lang)
    session = Session("second", P4, seed=2, journal=Journal(None))
    for text in [scenes.SECOND_SETUP, "leg green", "pyramid"] + [die] * (die is not None):
        session.command(text)
    if die is None:
        from camelhost.table.events import from_link  # as the pyramid's link gives it
        session.feed(from_link(DieEvent("unknown", "B1", 1, "EVT 1 unknown best=grey-white",
                                        best="grey-white", value=2)))
    assert session.phase == ("value" if die else "ink")
    app = TableApp(session, odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            info = _text(app, "#info").splitlines()
            # said whole on one row of the 80 columns: the counts keep to their rows
            assert any(said in row for row in info) and max(map(len, info)) <= 80, info

    asyncio.run(play())


def _plain_table(edition, players, manual):
    """(a started plain-mode ``Table`` without a pyramid, the ``StringIO`` it prints
    to): ``manual`` True for typed dice."""
    import io

    from camelhost.table.controller import Table
    from camelhost.ui.plain import PlainDisplay

    out = io.StringIO()
    session = Session(edition, players, seed=2, journal=Journal(None))
    table = Table(session, PlainDisplay(out), pyramid=None, manual=manual)
    table.start()
    return table, out


def test_plain_show_says_whose_pyramid_ticket_waits_for_its_die(tmp_path):
    table, out = _plain_table("second", P4, manual=False)
    for text in [scenes.SECOND_SETUP, "pyramid", "show"]:
        table.line(text)
    text = out.getvalue().split("> Ann: release")[-1]
    assert "Pyramid tickets left: 4 (Ann's pyramid ticket waits for its die)" in text
    assert "Ann: 3 coins; no leg tickets; 1 pyramid ticket;" in text


def test_a_pyramid_ticket_waiting_for_its_die_counts_in_if_the_leg_ended_now():
    """Tester's finding: the ticket was listed ("1 pyramid") but not counted in "If
    the leg ended now" (+0). Taken, it pays 1 at leg scoring whatever the die shows
    (RULES 1.7, 1.10): +1 while it waits, the same +1 once its die is out."""
    table, out = _plain_table("classic", ["Ann", "Ben", "Cy"], manual=True)
    for text in [scenes.CLASSIC_SETUP, "pyramid", "show"]:
        table.line(text)
    text = out.getvalue().split("> show")[-1]
    assert "Ann's pyramid ticket waits for its die" in text
    assert "If the leg ended now: Ann +1, Ben +0, Cy +0" in text
    table.line("blue 1")
    table.line("show")
    assert "If the leg ended now: Ann +1, Ben +0, Cy +0" in out.getvalue().split("> show")[-1]


LONG4 = ["Alexandria", "Bartholomew", "Christopher", "Dominique"]
EIGHT = ["Augustine", "Beatrice", "Cornelius", "Desmond", "Evangeline", "Frederick",
         "Gwendolyn", "Harrison"]


def _player_rows(rows):
    """The players table's rows without the lines that carry a row's tickets on (a
    line of their own, indented under the name) and the partnerships' line under the
    table (`` & Ann+Dee ...``): ``players_text``."""
    return [row for row in rows if not row.startswith(("   ", " & ", " (bot) "))]


def _tickets_shown(rows):
    """Per player row, every leg ticket shown (``G5``: on the row and the lines
    under it), in order."""
    out = []
    for row in rows[1:]:
        if row.startswith((" & ", " (bot) ")):
            break  # the partnerships, the bots (the compact table)
        words = [w for w in row.split() if re.fullmatch("[A-Z][0-9]", w)]
        if row.startswith("   "):
            out[-1] += words
        else:
            out.append(words)
    return out


def _players_in_view(app, names):
    """Every player has one whole row in the players panel, by name (a long one cut
    with an ellipsis, never to the same text as another's), and every ticket held is
    in view (on lines of their own under the row when the row has no room)."""
    box = app.query_one("#info-box")
    assert not box.show_vertical_scrollbar
    r = app.query_one("#players").region
    assert r.bottom <= app.query_one("#bottom").region.y
    rows = [line[r.x:r.right] for line in screen_lines(app)[r.y:r.bottom]]
    view = app._view
    held = [sum(len(p["leg_tickets"]) for p in view["players"])]
    shown = [w for ws in _tickets_shown(rows) for w in ws if w[0] != "&"]
    assert [len(shown)] == held, rows
    rows = _player_rows(rows)
    assert len(rows) == len(names) + 1  # the heading, then one row a player
    assert rows[0].split()[-1] in ("tickets", "tix")
    shown = []
    for name, row in zip(names, rows[1:], strict=True):
        word = row[1:].split()[0]
        assert word == name or (word.endswith("…") and name.startswith(word[:-1])
                                and len(word) >= 7), (name, row)
        shown.append(word)
    assert len(set(shown)) == len(names)


def _in_view(app, wid):
    w = app.query_one(wid)
    r = w.region
    return w.display and r.height > 0 and r.bottom <= app.query_one("#bottom").region.y


@pytest.mark.parametrize("names, lines", [
    (P4, [scenes.SECOND_SETUP, "leg green", "blue 3"]),
    (LONG4, [scenes.SECOND_SETUP, "leg green", "blue 3", "leg blue"]),
    (EIGHT, [scenes.SECOND_SETUP, "leg green", "partner Desmond", "blue 3", "leg red",
             "partner Augustine", "leg green", "leg yellow", "leg blue"]),
])
def test_every_player_stays_in_view_by_name_at_80x24(names, lines):
    app = scenes.app_for("second", names, seed=11)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, lines)
            await scenes.settle(pilot)
            _players_in_view(app, names)
            _odds_whole(app)
            assert _in_view(app, "#info") and app.query_one("#log").region.height >= 3

    asyncio.run(play())


def test_the_race_over_screen_shows_every_player_the_coins_and_the_winner_at_80x24():
    app = scenes.app_for("second", P4, seed=11)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await _play_to_the_end(app, pilot, ["win purple", "lose red"])
            _players_in_view(app, P4)
            panel = app.query_one("#raceover").region
            rows = [line[panel.x:panel.right].rstrip()
                    for line in screen_lines(app)[panel.y:panel.bottom]]
            final = app.session.result
            winner, loser = final["winner"].upper(), final["loser"].upper()
            assert rows[0].startswith("RACE 1 OVER") and rows[0].endswith(
                "overall winner  %s" % winner)  # never split across lines
            assert rows[1].strip() == "overall loser   %s" % loser
            # the final ranking: a row a player, most coins first, names and coins
            ranking = [i for i, row in enumerate(rows) if row.startswith("Final ranking")][0]
            coins = final["coins"]
            order = sorted(range(4), key=lambda i: (-coins[i], i))
            for seat, row in zip(order, rows[ranking + 1:ranking + 5], strict=True):
                assert re.match(r" ?\d\. %s +%d " % (P4[seat], coins[seat]), row), rows
            assert any(row.startswith("WINNER") for row in rows)
            assert _in_view(app, "#info") and app.query_one("#log").region.height >= 3

    asyncio.run(play())


def test_the_leg_scoring_panel_shows_every_player_at_80x24():
    """Tester's finding: at 80x24 the leg-scoring panel showed three players of four
    (the fourth only in the history) and wrapped a row. Every player's row is on the
    screen, whole, by name."""
    # the leg-scoring panel is read (its band's height never depends on the odds panel,
    # camelhost.ui.plan), never the odds
    app = scenes.app_for("second", P4, odds=scenes.no_odds)
    # Ann ends the leg holding a leg ticket and two pyramid tickets (the longest row)
    lines = [scenes.SECOND_SETUP, "leg green", "blue 3", "tile 8 +", "grey white 2",
             "red 1", "leg blue", "purple 2", "win green", "yellow 3"]

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, lines)
            await scenes.settle(pilot)
            assert app.query_one("#left").current == "leg-box"
            panel = app.query_one("#legscore").region
            box = app.query_one("#leg-box").region
            shown = [line[panel.x:panel.right].rstrip()
                     for line in screen_lines(app)[box.y:box.bottom]]
            assert shown[0].startswith("LEG 1 SCORED"), shown
            for name, row in zip(P4, shown[1:5], strict=True):
                assert re.match(r"%s +\d+ -> +\d+ \([+-]\d+\):" % name, row), shown
            assert shown[1].endswith("G5 -1 2 pyramid +2"), shown
            assert _in_view(app, "#info") and app.query_one("#log").region.height >= 3

    asyncio.run(play())


@pytest.mark.parametrize("stack", ["blue,green,yellow,red,purple,white,black",
                                   "blue,green,yellow,red,purple,white"])
def test_a_tall_stack_leaves_the_history_and_the_status_line_whole_at_80x24(stack):
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(80, 40)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "blue 1",
                                            "fix 5:%s" % stack])
            await scenes.settle(pilot)
            tall = _text(app, "#track").splitlines()
            assert len(tall) >= len(stack.split(","))  # room enough: one camel a row
            await pilot.resize_terminal(80, 24)
            await scenes.settle(pilot)
            assert app.query_one("#big").display  # the die's banner takes its 3 rows
            track = _text(app, "#track").splitlines()
            assert len(track) <= 5  # two camels a row: at most 4 rows, then the numbers
            column = _above_space(track, -1)
            for colour in stack.split(","):
                assert palette.piece(colour).letter in column, (colour, column)
            for wid in ("#track", "#odds", "#players", "#info"):
                assert _in_view(app, wid), wid
            info = _text(app, "#info")
            shown = " ".join(" ".join(screen_lines(app)).split())
            assert " ".join(info.split()) in shown  # the status line whole
            assert app.query_one("#log").region.height >= 3
            _players_in_view(app, P4)
            _odds_whole(app)

    asyncio.run(play())


def test_plain_resume_says_the_last_die_once_and_the_waiting_ticket(tmp_path):
    import io

    from camelhost.table.controller import Table
    from camelhost.ui.plain import PlainDisplay

    out = io.StringIO()
    session = _crashed_while_a_ticket_waits(tmp_path)
    table = Table(session, PlainDisplay(out), pyramid=None, manual=False, resumed=True)
    table.start()
    text = out.getvalue()
    assert text.startswith("resumed ")
    assert text.count("Last die: blue 3 (Ben)") == 1
    assert "Pyramid tickets left: 3 (Cy's pyramid ticket waits for its die)" in text
    assert text.rstrip().endswith("> Cy: release a die from the pyramid (or type it, "
                                  "e.g. 'green 2')")
    table.line("show")  # asked for: the whole table again, its last die too
    assert out.getvalue()[len(text):].count("Last die: blue 3 (Ben)") == 1


def test_names_cut_to_fit_are_never_cut_to_the_same_text():
    from camelhost.table.view import table_view
    from camelhost.ui.panels import players_text

    names = ["Christopher", "Christophine", "Christa", "Ann"]
    session = Session("second", names, seed=2, journal=Journal(None))
    session.command(scenes.SECOND_SETUP)
    for text in ("leg green", "leg green", "leg blue", "leg red", "leg green", "leg blue"):
        session.command(text)
    view = table_view(session, odds=False)
    lines = players_text(view, 33).plain.splitlines()
    assert all(len(row) <= 33 for row in lines), lines
    rows = _player_rows(lines)
    shown = [row[1:].split()[0] for row in rows[1:]]
    assert len(set(shown)) == 4 and shown[3] == "Ann"
    for name, word in zip(names, shown, strict=True):
        assert word == name or (word.endswith("…") and name.startswith(word[:-1]))
    # Christopher's tickets do not all fit his row: none is lost, the rest under it
    assert _tickets_shown(lines) == [["%s%d" % (t["colour"][0].upper(), t["value"])
                                      for t in p["leg_tickets"]] for p in view["players"]]
    assert len(lines) > len(rows)


def test_the_history_keeps_three_lines_scrolled_back_with_a_four_high_stack_at_80x24():
    """Tester's finding: with a four-high stack (and a tile) on the board the history
    had its 3 lines, but scrolled back (PgUp) the line saying newer lines are below
    took one of them: 2 left. Scrolled back, the screen is shared out again."""
    app = scenes.app_for("second", P4)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "blue 1",
                                            "fix 5:blue,green,yellow,red", "leg red",
                                            "tile 9 +"])
            await scenes.settle(pilot)
            log, more = app.query_one("#log"), app.query_one("#more")
            assert len(_text(app, "#track").splitlines()) == 6  # 4 camels, numbers, tiles
            assert log.region.height >= 3 and not more.display
            await pilot.press("pageup")
            await scenes.settle(pilot)
            assert not log.following and more.display
            assert _in_view(app, "#more")
            assert log.scrollable_content_region.height >= 3
            shown = screen_lines(app)
            assert shown[more.region.y].startswith("▲ older lines shown")
            for wid in ("#track", "#odds", "#players", "#info"):
                assert _in_view(app, wid), wid
            _players_in_view(app, P4)
            _odds_whole(app)
            track = _text(app, "#track").splitlines()
            column = _above_space(track, -2)
            for colour in ("blue", "green", "yellow", "red"):
                assert palette.piece(colour).letter in column, (colour, column)
            await pilot.press("end")  # following again: the marker's row back to the track
            await scenes.settle(pilot)
            assert log.following and not more.display
            assert len(_text(app, "#track").splitlines()) == 6
            assert log.region.height >= 3

    asyncio.run(play())


def test_a_refused_command_shows_on_the_error_line_only_and_a_pyramid_error_in_both():
    """Tester's finding: each refusal showed twice, in the history and on the error
    line. What was typed (or pressed) and refused: the reason on the error line only,
    where the eye is; the history keeps what was typed, marked ``(refused)`` (a later
    tester: the full screen lost a refused command from its log); once the error line
    is cleared, the reason goes into that mark (a later tester: only the last reason
    was kept), so it is never shown twice at once. An
    error about what the pyramid sent: the error line and the history (its next event
    clears the error line)."""
    events = queue.Queue()
    pyramid = types.SimpleNamespace(events=lambda: events, virtual=None, manual=False)
    session = Session("second", P4, seed=2, journal=Journal(None))
    app = TableApp(session, pyramid=pyramid, odds=scenes.quick_odds)

    def error():
        return _text(app, "#error") if app.query_one("#error").display else ""

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg green"])
            log = app.query_one("#log")
            last = None  # (history index, reason) of the previous refusal
            for text, said in [("xyzzy", "unknown command 'xyzzy'"),
                               ("leg orange", "'orange' is not"),
                               ("tile 1 +", "a tile may never go on space 1"),
                               ("win", None),  # the picker: nothing played with Esc
                               ("x" * 300, "(300 characters)")]:
                before = list(log.history)
                state = (session.game.leg, session.current, len(session.reports))
                await scenes.type_line(pilot, text)
                kept = list(before)
                if last is not None:  # the previous refusal's reason is in its mark now
                    at, reason = last
                    kept[at] = before[at].replace("(refused)", "(refused: %s)" % reason)
                    last = None
                assert log.history[:len(before)] == kept, log.history[:len(before)]
                if said is None:
                    await pilot.press("escape")
                    await pilot.pause()
                    assert log.history[len(before):] == ["> win", "(no finish card played)"]
                    continue
                assert said in error(), (text, error())
                echo = "> %s  (refused)" % shorten(text, ECHO_MAX)
                assert log.history[len(before):] == [echo], (text, log.history[len(before):])
                last = (len(before), without_echo(error()[2:], shorten(text, ECHO_MAX)))
                assert (session.game.leg, session.current, len(session.reports)) == state
                shown = screen_lines(app)
                # the reason once, on the error line (a shortened echo says the length too)
                assert sum(said in line for line in shown) == 1 + (said in echo), (text, shown)
            before = list(log.history)
            await pilot.press("f5")  # a key refused: the error line only (nothing typed)
            await pilot.pause()
            assert "no pyramid is attached" in error() or "real one" in error(), error()
            at, reason = last  # F5 cleared the error line: that reason went into its mark
            before[at] = before[at].replace("(refused)", "(refused: %s)" % reason)
            assert log.history == before
            await scenes.type_line(pilot, "leg blue")  # accepted: echoed, then its reply
            assert error() == ""
            assert log.history[len(before)] == "> leg blue"
            assert "blue leg ticket" in log.history[len(before) + 1]
            # the pyramid sends what the table cannot take: said in the history too
            events.put(("event", DieEvent("hiccup", "B", 1, "EVT 1")))
            for _ in range(200):
                await pilot.pause(0.02)
                if error():
                    break
            assert error() == "! pyramid sent an event the table does not know: 'hiccup'"
            assert log.history[-1] == error()
            await pilot.press("ctrl+q")

    asyncio.run(play())


def _over_rows(app):
    """The rows of the race-over panel on the screen now (its scrolled view)."""
    r = app.query_one("#over-scroll").scrollable_content_region  # not its scrollbar
    return [line[r.x:r.right].rstrip() for line in screen_lines(app)[r.y:r.bottom]]


def _hint(app):
    hint = app.query_one("#over-more")
    return _text(app, "#over-more") if hint.display and hint.region.height else ""


async def _play_to_the_end(app, pilot, lines):
    """Type the setup and ``lines``, play the race out, and wait for the race-over
    screen (with no odds computed on the way: the race-over screen shows none)."""
    app.odds_function = scenes.no_odds
    await scenes.type_lines(pilot, [scenes.SECOND_SETUP] + lines)
    await scenes.play_race_out(pilot)
    await scenes.settle(pilot)
    assert app.session.phase == "over"


def _result_facts(session):
    """From the session's result: each player's (coins, what their finish cards paid),
    and each pile's cards as shown (``3.Ann pur -1``), in play order."""
    from camelhost.table.view import table_view
    final = table_view(session, odds=False)["final"]
    paid = {}
    shown = {}
    for pile in ("winner", "loser"):
        shown[pile] = []
        for i, c in enumerate(final["piles"][pile], 1):
            paid.setdefault(c["name"], []).append(c["reward"])
            shown[pile].append("%d.%s %s %+d" % (i, c["name"], palette.piece(c["colour"]).label,
                                                 c["reward"]))
    coins = {row["name"]: row["coins"] for row in final["standings"]}
    return coins, paid, shown, final


def _check_ranking(rows, coins, paid, final):
    """One ranking row a player, most coins first (a tie sharing its place): place,
    name, coins, what the finish cards paid."""
    head = [i for i, row in enumerate(rows) if row.startswith("Final ranking")]
    assert head, rows
    assert rows[head[0]].split()[2:5] == ["coins", "finish", "cards"], rows[head[0]]
    got = [row.split() for row in rows[head[0] + 1:head[0] + 1 + len(coins)]]
    totals = sorted(coins.values(), reverse=True)
    for words, row in zip(got, final["standings"], strict=True):
        name = row["name"]
        assert words[1] == name and int(words[2]) == coins[name], (words, row)
        assert int(words[0].rstrip(".")) == 1 + sum(1 for c in totals if c > coins[name])
        assert words[3] == ("%+d" % sum(paid[name]) if name in paid else "none"), words
    assert any(row.startswith("WINNER") and all(w in row for w in final["winners"])
               for row in rows[:head[0]])


@pytest.mark.parametrize("names, detail", [(P4, True), (LONG4, False)])
def test_the_race_over_panel_shows_both_piles_the_payouts_and_the_ranking_at_80x24(
        names, detail):
    """Tester's finding: at 80x24 the race-over panel cut the loser pile (its cards
    only in the history). Four players, five cards on each pile: the whole result is
    on the screen at once, the rest of the panel (the last leg) a key away, said so.
    With long names the piles take more rows: the last die's detail line under the
    banner makes way for them."""
    app = scenes.app_for("second", names, seed=11)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await _play_to_the_end(app, pilot, scenes.FINISH_CARDS_4)
            coins, paid, piles, final = _result_facts(app.session)
            assert [len(piles[p]) for p in piles] == [5, 5]
            rows = _over_rows(app)
            assert rows[0].startswith("RACE 1 OVER")
            shown = " ".join(" ".join(rows).split())
            for pile in ("winner", "loser"):
                for card in piles[pile]:
                    assert card in shown, (card, rows)
                start = shown.index("%s pile:" % pile.capitalize())
                at = [shown.index(card, start) for card in piles[pile]]
                assert at == sorted(at)  # in play order
            _check_ranking(rows, coins, paid, final)
            _players_in_view(app, names)
            assert _in_view(app, "#info") and app.query_one("#log").region.height >= 3
            assert app.query_one("#detail").display == detail
            assert _in_view(app, "#announce") and not app.query_one("#track").display
            # the last leg's scoring comes next: out of view at 80x24, and said so
            text = _text(app, "#raceover").splitlines()
            below = len(text) - len(rows)
            assert below > 0 and _hint(app) == "▼ %d more lines below: Down (or the wheel)" \
                % below
            await pilot.press("down")
            await scenes.settle(pilot)
            assert _over_rows(app)[-1] == text[-1].rstrip()  # the last leg's last row
            assert _hint(app).startswith("▲ the end")
            await pilot.press("up")
            await scenes.settle(pilot)
            assert _over_rows(app) == rows

    asyncio.run(play())


def test_the_race_over_panel_scrolls_with_a_hint_for_eight_players_and_forty_cards():
    """Eight players, forty finish cards: more than 80x24 can hold. The ranking shows
    whole; the piles follow in a panel that says how much is below, and Down shows
    every line of it in turn (nothing cut)."""
    app = scenes.app_for("second", EIGHT, seed=11)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await _play_to_the_end(app, pilot, scenes.finish_cards(8))
            coins, paid, piles, final = _result_facts(app.session)
            assert [len(piles[p]) for p in piles] == [20, 20]
            rows = _over_rows(app)
            _check_ranking(rows, coins, paid, final)
            _players_in_view(app, EIGHT)
            assert app.query_one("#log").region.height >= 3
            text = [line.rstrip() for line in _text(app, "#raceover").splitlines()]
            assert re.fullmatch(r"▼ (\d+) more lines below: Down \(or the wheel\)", _hint(app))
            assert int(_hint(app).split()[1]) == len(text) - len(rows)
            seen = list(rows)
            for _ in range(20):
                if _hint(app).startswith("▲"):
                    break
                await pilot.press("down")
                await scenes.settle(pilot)
                now = _over_rows(app)
                assert now[0] in seen  # a page on keeps one line of the last page
                seen += now
                left = len(text) - text.index(now[0]) - len(now)
                assert _hint(app) == ("▼ %d more line%s below: Down (or the wheel)"
                                      % (left, "" if left == 1 else "s") if left
                                      else "▲ the end of it; Up goes back")
            assert _hint(app).startswith("▲ the end")
            assert all(line in seen for line in text)  # every line of the panel shown
            shown = " ".join(" ".join(text).split())
            for pile in ("winner", "loser"):
                for card in piles[pile]:
                    assert card in shown, card

    asyncio.run(play())


def _squeezed(names, high):
    """At 80x24: a stack ``high`` high on space 5, a tile, an error showing and the
    history scrolled back (everything that takes a row at once)."""
    app = scenes.app_for("second", names)
    stack = ["blue", "green", "yellow", "red", "purple", "white", "black"]
    spare = ["%d:%s" % (9 + i, c) for i, c in enumerate(stack[high:])]
    fix = " ".join(["fix 5:%s" % ",".join(stack[:high])] + spare)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "blue 1", fix, "leg red",
                                            "tile 3 +", "xyzzy"])
            await scenes.settle(pilot)
            await pilot.press("pageup")
            await scenes.settle(pilot)
            assert app.query_one("#error").display and app.query_one("#more").display
            for wid in ("#track", "#odds", "#players", "#info", "#more"):
                assert _in_view(app, wid), wid
            _players_in_view(app, names)
            _odds_whole(app)
            track = _text(app, "#track").splitlines()
            column = _above_space(track, -2)
            compact = len(track) - 2 < high
            for colour in stack[:high]:
                piece = palette.piece(colour)
                assert (piece.letter if compact else piece.label) in column, (colour, column)
            return len(track) - 2, app.query_one("#log").scrollable_content_region.height

    return asyncio.run(play())


@pytest.mark.parametrize("names, high", [(["Ann", "Ben", "Cy", "Dee", "Eve"], 7),
                                         (EIGHT, 4), (EIGHT, 3)])
def test_the_history_keeps_three_lines_with_many_players_a_tall_stack_an_error_scrolled_back(
        names, high):
    """At 80x24 with five or eight players, a tile, an error showing and the history
    scrolled back, two camels a row left the history 2 lines: the track then puts
    three or four a row (``BGYR``), every camel still in its space's column."""
    camel_rows, history = _squeezed(names, high)
    assert camel_rows < (high + 1) // 2  # fewer rows than two camels a row
    assert history >= 3


@pytest.mark.parametrize("names", [EIGHT[:6], EIGHT])
def test_six_to_eight_long_names_a_tile_an_error_scrolled_back_keep_three_history_lines(names):
    """Six to eight players (the odds up to 10 rows), a tile, an error and the history
    scrolled back: every player and the odds stay whole (docs/screen.md), and the
    history keeps 3 lines (it had 2 while the advice took a line for every kind; it
    takes two lines at most in the narrow form now)."""
    camel_rows, history = _squeezed(names, 1)
    assert camel_rows == 1 and history >= 3


def _race_over_journal(tmp_path):
    """A journal whose race is over (a crazy camel carried the stack over the line),
    closed as a crash would leave it: its path."""
    path = str(tmp_path / "over.jsonl")
    first = Session("second", P3, seed=3, journal=Journal(path))
    for text in [scenes.SECOND_SETUP, "fix 1:black,red,blue,green", "pyramid",
                 "grey white 1"]:  # the crazy camel carries the stack over the line
        first.command(text)
    assert first.phase == "over"
    first.journal.close()
    return path


def test_a_resumed_race_that_is_over_opens_on_the_race_over_panel_and_again_goes_on(
        tmp_path):
    """Tester's finding: ``play --resume`` of a journal whose race was already over
    crashed the full screen at 80x24 (the race-over panel was fitted before its hint
    line was wired). It opens on the race-over panel, and ``again`` starts race 2."""
    path = _race_over_journal(tmp_path)
    app = TableApp(Session.resume(Journal.resume(path)), odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            assert app.query_one("#left").current == "over-box"
            assert any(row.startswith("WINNER") for row in _over_rows(app))
            assert any(row.startswith("Final ranking") for row in _over_rows(app))
            await scenes.type_line(pilot, "again")
            await scenes.settle(pilot)
            assert app.session.phase == "setup" and app.session.race_no == 2
            assert app.query_one("#left").current == "odds-box"

    asyncio.run(play())


def test_below_80x24_the_screen_names_the_size_it_needs_and_comes_back_when_bigger():
    """Issue 30: at 60x20 the full screen dropped space 16 and the crazy camel on it
    without a word. Below 80x24 it now says the size it needs (the command line still
    works), and the race is back, whole, once the terminal is big enough."""
    app = scenes.app_for("second", P4, seed=11)

    async def play():
        async with app.run_test(size=(60, 20)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "leg green", "blue 3"])
            await scenes.settle(pilot)
            notice = app.query_one("#too-small")
            assert notice.display and not app.query_one("#track").display
            words = " ".join(" ".join(screen_lines(app)).split())
            assert "This terminal is 60x20; the full screen needs at least 80x24." in words
            await scenes.type_line(pilot, "leg red")  # the race goes on meanwhile
            assert app.session.game.held_tickets(2) == [("red", 5)]
            await pilot.resize_terminal(80, 24)
            await scenes.settle(pilot)
            assert not notice.display and app.query_one("#track").display
            _players_in_view(app, P4)
            assert "16" in screen_lines(app)[app.query_one("#track").region.bottom - 1]

    asyncio.run(play())


def test_eight_partnered_players_leave_the_answer_to_a_command_in_view_at_80x24():
    """Tester 2's finding 1: eight players, three partnerships, a player's second leg
    ticket and a die whose detail took two lines left the history one line at 80x24:
    Eve's ``tile 11 +`` showed, the table's answer did not. The history keeps its 3
    lines (the players table compact, the die's detail left to the history), every
    player and ticket in view."""
    from test_tui_plan import TESTER_8, TESTER_8_LINES

    app = scenes.app_for("second", TESTER_8, seed=11)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, TESTER_8_LINES)
            await scenes.type_line(pilot, "tile 11 +")
            await scenes.settle(pilot)
            log = app.query_one("#log")
            assert log.region.height >= 3
            shown = screen_lines(app)[log.region.y:log.region.bottom]
            answer = shown[-1].strip()  # the table's answer, whole
            assert answer.startswith("Eve places the tile on space 11"), shown
            assert any(line.startswith("> tile 11 +") for line in shown), shown
            _players_in_view(app, TESTER_8)
            _odds_whole(app)
            players = _text(app, "#players").splitlines()
            assert players[-1].startswith(" & ") and "Cy+Eve" in players[-1]

    asyncio.run(play())


#: The tester's 8-player leg 1 played to its end (Gudrun's die ends it).
TESTER_8_LEG_END = ["leg blue", "green 1", "red 2"]
#: What Textual draws a scrollbar with.
SCROLLBAR = re.compile("[▁▂▃▄▅▆▇█]")


def test_the_leg_scoring_panel_says_what_is_below_and_opens_at_its_top_again_at_80x24():
    """Tester 2's findings 2, 3 and 12: with eight players the leg-scoring panel ran
    past its room with no word of it, its long rows went on at column 0 (reading as
    another player's row), a scrollbar was drawn mid-screen, and after Down, undo and
    the die again the new panel opened on its second page. Now a line under it says
    what is below, a row goes on indented, no scrollbar shows, and a new panel starts
    at its top."""
    from test_tui_plan import TESTER_8, TESTER_8_LINES

    # the leg-scoring panel is read (its band's height never depends on the odds panel,
    # camelhost.ui.plan), never the odds
    app = scenes.app_for("second", TESTER_8, seed=11, odds=scenes.no_odds)

    def panel_rows():
        box = app.query_one("#leg-box").region
        return [line[box.x:box.right].rstrip() for line in screen_lines(app)[box.y:box.bottom]]

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, TESTER_8_LINES + TESTER_8_LEG_END[:-1])
            await scenes.type_line(pilot, TESTER_8_LEG_END[-1])
            await scenes.settle(pilot)
            assert app.query_one("#left").current == "leg-box"
            rows = panel_rows()
            assert rows[0].startswith("LEG 1 SCORED"), rows
            assert re.fullmatch(r"▼ \d+ more lines? below: Down \(or the wheel\)", rows[-1]), rows
            for row in rows[1:-1]:  # a player's row, or its tickets going on, indented
                assert row.startswith("    ") or row.split()[0] in TESTER_8, rows
            assert rows[2].startswith("    copy of Bartholomew"), rows
            assert not any(SCROLLBAR.search(line) for line in screen_lines(app))
            assert app.query_one("#log").region.height >= 3
            await pilot.press("down")
            await scenes.settle(pilot)
            assert not panel_rows()[0].startswith("LEG 1 SCORED")
            assert panel_rows()[-1].startswith("▲ the end of it")
            await scenes.type_line(pilot, "undo")  # asked first: it takes back the scoring
            await scenes.type_line(pilot, "undo")
            await scenes.settle(pilot)
            assert app.query_one("#left").current == "odds-box"
            await scenes.type_line(pilot, TESTER_8_LEG_END[-1])  # the die again
            await scenes.settle(pilot)
            rows = panel_rows()
            assert app.query_one("#left").current == "leg-box"
            assert rows[0].startswith("LEG 1 SCORED"), rows
            assert rows[-1].startswith("▼ "), rows

    asyncio.run(play())


def test_a_race_chance_and_its_interval_stay_within_0_to_100_percent():
    """Tester 2's finding 12: the odds panel drew ``0±1`` and ``100±1``, intervals past
    the ends of the scale; such an interval shows the end it reaches (``≥99``)."""
    from camelhost.ui.odds_view import interval_text

    assert interval_text(1.0, 0.01) == " ≥99 "
    assert interval_text(0.995, 0.03) == " ≥97 "
    assert interval_text(0.0, 0.01) == "  ≤1 "
    assert interval_text(0.02, 0.04) == "  ≤6 "
    assert interval_text(0.25, 0.012) == " 25±1"
    assert interval_text(0.97, 0.03) == " 97±3"  # reaches 100, not past it
    assert interval_text(0.5, 0.0) == " 50  "  # exact
    for p in (0.0, 0.004, 0.5, 0.996, 1.0):
        for hw in (0.001, 0.01, 0.05, 0.2):
            assert len(interval_text(p, hw)) == 5  # the column's width


def test_the_grey_die_banner_says_why_the_other_crazy_camel_moved():
    """Tester 2's finding 12: a black numeral moved the white camel (it sat directly
    on the black one, RULES 3.5 b) and the banner said only ``WHITE BACKWARD 1``; the
    reason was in the history alone. The banner gives it, in the plain table's words."""
    from camelhost.table.view import CRAZY_WHY

    app = scenes.app_for("second", P4, seed=11, odds=scenes.no_odds)  # the banner read

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [
                "setup 1:blue,green 2:red 3:yellow,purple 15:black,white", "grey black 1"])
            await scenes.settle(pilot)
            banner = _text(app, "#announce")
            assert banner.startswith("WHITE  BACKWARD 1"), banner
            assert banner.endswith("(%s)" % CRAZY_WHY["b"]), banner
            assert any(CRAZY_WHY["b"] in line for line in screen_lines(app)[:4])

    asyncio.run(play())


def test_the_web_scoreboards_address_stays_on_the_full_screen(tmp_path, monkeypatch, capsys):
    """Tester 2's finding 6: ``play --web`` printed the scoreboard's address and the
    full screen covered it at once. The empty command line says it while the board
    runs, at 80 columns too."""
    import socket

    from camelhost import cli
    from camelhost.commands import play
    from camelhost.ui.tui import command_hint

    spare = socket.socket()
    spare.bind(("127.0.0.1", 0))
    port = spare.getsockname()[1]
    spare.close()
    url = "http://127.0.0.1:%d/" % port
    seen = {}

    async def look(pilot):
        await pilot.pause()
        for size in ((80, 24), (120, 40)):
            await pilot.resize_terminal(*size)
            await scenes.settle(pilot)  # the resize's layout answered, not only drawn
            box = pilot.app.query_one("#command")
            seen[size] = str(box.placeholder)
            line = screen_lines(pilot.app)[box.region.y]
            assert url in line, line
        pilot.app.exit()

    monkeypatch.setattr(play, "_plain", lambda args: False)  # as in a terminal
    run = TableApp.run
    monkeypatch.setattr(TableApp, "run",
                        lambda app: run(app, headless=True, size=(80, 24), auto_pilot=look))
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "manual", "--seed", "3",
                   "--journal", str(tmp_path / "g.jsonl"), "--web", "127.0.0.1:%d" % port])
    assert rc == 0, capsys.readouterr().err
    assert seen[(80, 24)].endswith("scoreboard: " + url) and "F1 help" in seen[(80, 24)]
    assert seen[(120, 40)].startswith("command, then Enter  (F1 help, PgUp history")
    assert command_hint(80) == "command, then Enter  (F1 help, PgUp history, Ctrl-Q quit)"
    long = "http://192.168.1.20:8080/%s/" % ("x" * 32)  # a LAN address and its key
    assert command_hint(80, long).endswith(long) and len(command_hint(80, long)) <= 77


def test_the_narrow_advice_says_what_its_numbers_are_at_80x24():
    """Tester 2's finding 9: at 80x24 the advice at a leg's start showed only negative
    numbers, labelled ``(overall)``, which reads as "the best move loses coins". With
    the row to spare, a line under the advice says what the overall number is, as the
    wide form's note does."""
    app = scenes.app_for("second", P4, seed=11)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP])
            await scenes.settle(pilot)
            odds = _text(app, "#odds").splitlines()
            at = next(i for i, line in enumerate(odds) if line.startswith(("Best for", "For ")))
            advice = odds[at:]
            assert advice[-1] == "(balance: now less the next players' gains)", advice
            assert len(advice) <= 3 and all(len(line) <= 46 for line in advice)
            actions = " ".join(advice[:-1])
            assert "(balance)" not in actions  # the note says it
            # the numbers of the order (a balance below zero is followed by its value
            # now, "(now +1.29)": tester s36tp finding 8)
            values = [float(v) for v in re.findall(r"(?<!now) ([+-]\d+\.\d\d)\b", actions)]
            assert len(values) >= 2 and values == sorted(values, reverse=True), advice
            _odds_whole(app)
            assert app.query_one("#log").region.height >= 3

    asyncio.run(play())


#: Tester 3's table (finding 1): eight players, six of them played by bots.
TESTER3_8 = ["Annabelle", "Bartholomew", "Cy", "Dee", "Eve", "Fritz", "Gudrun", "Hal"]


def _history(app):
    """The history's rows on the screen, right-stripped."""
    log = app.query_one("#log")
    return [line.rstrip() for line in screen_lines(app)[log.region.y:log.region.bottom]]


def test_eight_players_six_bots_keep_three_history_lines_through_a_pyramid_die_at_80x24():
    """Tester 3's finding 1: eight players, six of them bots, on a pyramid (the setup
    drawn from the seed, as the virtual pyramid's), ``partner Bartholomew``, ``tile 11
    +``, ``pyramid`` and the die released: no history line was left at 80x24 (every
    bot's row took a second line for its ``(bot)`` mark, and the odds panel's note line
    undid the plan's last resort), PgUp showed nothing, and after the die the public
    counts went off the screen. The history keeps its 3 lines through the bots' moves,
    the pyramid's event and PgUp; every player, the bots' line, the counts and the odds
    stay in view, also while the history is scrolled back (the marker then says it on
    the empty command line: its row of its own made the players panel scroll the bots'
    line away)."""
    pyramid, events = scenes.pyramid_queue()
    app = scenes.app_for("second", TESTER3_8, seed=42, bots=TESTER3_8[2:],
                         pyramid=pyramid, auto_setup=True)

    def whole_screen():
        assert len(_history(app)) >= 3, screen_lines(app)
        _players_in_view(app, TESTER3_8)
        for wid in ("#track", "#odds", "#info"):
            assert _in_view(app, wid), wid
        _odds_whole(app)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, ["partner Bartholomew", "tile 11 +"])
            await scenes.settle(pilot)
            whole_screen()
            await scenes.type_line(pilot, "pyramid")
            await scenes.settle(pilot)
            whole_screen()
            command = app.query_one("#command")
            hint = command.placeholder  # the empty command line's own words
            events.put(("event", DieEvent("die", "B", 1, "EVT 1", colour="blue", value=2)))
            for _ in range(600):  # until the app's timer has handed the event over
                await pilot.pause(0.05)
                if "blue" not in app.session.game.dice_in_pyramid():
                    break
            await scenes.settle(pilot)
            whole_screen()
            assert "Can still come out:" in _text(app, "#info")
            # the die's words in view (tester s33-2 finding 11: taller than the pane, its
            # tail showed and the die's line was gone): the banner says it whole, its
            # detail line and the leaders, and the history follows its newest line, the
            # die's tail (tester s42 finding 6: held at the die's line, nobody scrolled)
            assert app.die_in_banner()
            assert "Annabelle's pyramid ticket: die blue 2." in _text(app, "#detail")
            assert "Leading: 1st blue, 2nd red" in "\n".join(screen_lines(app)[:3])
            assert app.query_one("#log").following and command.placeholder == hint
            before = _history(app)
            await pilot.press("pageup")
            await scenes.settle(pilot)
            # scrolled back, a row for the marker would make the players panel scroll:
            # the empty command line says it, the history keeps its 3 lines
            assert not app.query_one("#more").display
            assert command.placeholder == "\u25b2 older lines shown; newer below: PgDn or End"
            assert _history(app) != before
            whole_screen()
            players = app.query_one("#players").region
            bots = [line[players.x:players.right].strip()
                    for line in screen_lines(app)[players.y:players.bottom]]
            assert [b for b in bots if b.startswith("(bot) Cy Dee Eve")], bots
            await pilot.press("end")
            await scenes.settle(pilot)
            assert command.placeholder == hint and not app.query_one("#more").display

    asyncio.run(play())


TESTER_S34 = ["Ömer", "Zoë", "Anna", "Bernd", "Chloé", "Dieter", "Emma", "Fritz"]


def test_eight_german_seats_keep_every_player_and_ticket_in_view_through_long_refusals():
    """Tester s34-2: eight players, six of them bots, German, at 80x24, in leg 2 while a
    bot's pyramid ticket waits for its die: a two-line refusal (``grau 2``), then a
    three-line one (``rename Bernd`` with a 55-character name in the list) made the
    players panel scroll (a scrollbar over the tickets, ``B5 B`` cut, the player asked
    for the die, the partnerships and the bots' line hidden). The big digits, then the
    leaders line, then (while the error line shows) the banner give way first: the
    panel never scrolls, every player, ticket, partnership and the bots show."""
    import random

    from camelhost.i18n import colour_word, set_language

    set_language("de")
    app = scenes.app_for("second", TESTER_S34, seed=34, bots=TESTER_S34[2:], odds=scenes.no_odds)
    rng = random.Random(1)

    def whole():
        box = app.query_one("#info-box")
        assert not box.show_vertical_scrollbar, screen_lines(app)
        r = app.query_one("#players").region
        assert r.bottom <= app.query_one("#info").region.y
        rows = [line[r.x:r.right].rstrip() for line in screen_lines(app)[r.y:r.bottom]]
        view = app._view
        # the heading whole: the whole table's Wetten (the bots named on one line
        # under it since tester s34-3, it fits where it can) or the compact Wette
        assert rows[0].split()[-1] in ("Wetten", "Wette"), rows
        for row, p in zip(rows[1:9], view["players"], strict=True):
            name = re.match(r"(.+?)\s{2,}", row[1:]).group(1)  # the name column
            assert name == p["name"] or (name.endswith("…")
                                         and p["name"].startswith(name[:-1])), (name, rows)
        for row, p in zip(rows[1:9], view["players"], strict=True):
            held = ["%s%d" % (colour_letter(t["colour"]), t["value"])
                    for t in p["leg_tickets"]]
            assert row.split()[-(len(held) or 1):] == (held or ["-"]), (row, held)
        pairs = {(p["name"], p["partner"]) for p in view["players"] if p["partner"]}
        # the partnerships under the table, every one (the whole form, names whole, may
        # go on to an indented line; the compact form cuts names to keep one line)
        below = 10
        while rows[below].startswith("   "):
            below += 1
        shown = " ".join(rows[9:below]).split()
        assert pairs and rows[9].startswith(" & ") and len(shown) == 1 + len(pairs) // 2, rows
        assert rows[below].startswith(" (Bot) ") and len(rows[below].split()) == 7, rows
        assert len(_history(app)) >= 3

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, ["draw", "partner Zoë", "leg grün"])
            s = app.session
            for _step in range(60):  # the humans take pyramid tickets, dice typed
                await scenes.settle(pilot)
                if s.phase == "die" and s.current >= 2 and s.game.leg > 1:
                    break  # a bot's pyramid ticket waits for its die in leg 2
                if s.phase == "die":
                    die = rng.choice(sorted(s.game.dice_in_pyramid()))
                    value = rng.randint(1, 3)
                    line = ("grau schwarz %d" % value if die == "grey"
                            else "%s %d" % (colour_word(die), value))
                else:
                    line = "pyramid"
                await scenes.type_line(pilot, line)
            # a bot's pyramid ticket waits (whose depends on the bots' choices: Bernd's
            # before the eight-seat reading of the finish piles, Anna's since)
            assert s.phase == "die" and s.names[s.current] in TESTER_S34[2:]
            whole()
            await scenes.type_line(pilot, "grau 2")
            await scenes.settle(pilot)
            assert app.query_one("#error").region.height == 2
            whole()
            await scenes.type_lines(pilot, [
                "rename Zoë Zoë Marie-Luise Schmidt-Leutheusser von Hohenzollern"])
            await scenes.type_line(pilot, "rename Bernd")
            await scenes.settle(pilot)
            assert app.query_one("#error").region.height == 3
            whole()
            await scenes.type_line(pilot, "rot 1")  # the refusal goes: the banner is back
            await scenes.settle(pilot)
            assert app.query_one("#announce").display
            whole()

    try:
        asyncio.run(play())
    finally:
        set_language("en")


def test_a_55_character_name_cuts_neither_the_prompt_nor_a_race_over_row_at_80x24():
    """Tester s34-2: with a 55-character name the prompt line lost its choices
    (``... von Hohenzollern ist am Zug (leg / tile /``), and at the race's end the
    race-over panel's rows wrapped inside them (a finish card's name, the last leg's
    rows padded to the name). The name is cut (``…``) where it would not fit: the
    prompt keeps every choice, and every row of the panel fits its width."""
    from camelhost.i18n import set_language
    from camelhost.ui.panels import race_over_text

    set_language("de")
    long = "Zoë Marie-Luise Schmidt-Leutheusser von Hohenzollern"
    names = ["Anna", long, "Bernd", "Chloé", "Dieter", "Emma", "Fritz", "Ömer"]
    app = scenes.app_for("second", names, seed=34, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "win green"])
            prompt = str(app.query_one("#prompt").content)
            assert len(prompt) <= 80 and prompt.startswith("> Zoë Marie"), prompt
            assert prompt.endswith("(leg / tile / win / lose / partner / pyramid)"), prompt
            await scenes.type_lines(pilot, ["lose red", "leg blue", "win blue"])
            await scenes.play_race_out(pilot)
            await scenes.settle(pilot)
            width = app.odds_width() - 2
            rows = race_over_text(app._view, width).plain.splitlines()
            assert all(len(row) <= width for row in rows), [r for r in rows if len(r) > width]
            assert any(row.startswith("Zoë M") for row in rows[rows.index(
                next(r for r in rows if r.startswith("ETAPPE"))):]), rows

    try:
        asyncio.run(play())
    finally:
        set_language("en")


def test_a_resumed_race_that_is_over_says_race_over_in_its_banner(tmp_path):
    """Tester s34-2, finding 9: after a crash on the race-over screen, ``--resume``
    showed the last die's banner (``GRÜN VORWÄRTS 1``, its big digits) where the table
    had read ``RACE OVER: ... WINS, ... LAST``. The resumed screen's banner says the
    race's result, as before the crash."""
    path = _race_over_journal(tmp_path)
    app = TableApp(Session.resume(Journal.resume(path)), odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.settle(pilot)
            banner = _text(app, "#announce")
            assert banner.startswith("RACE OVER: ") and " WINS, " in banner, banner
            assert not app.query_one("#big").display

    asyncio.run(play())


def _cells(line, start, end):
    """The screen row ``line`` from column ``start`` up to ``end`` (columns, not
    characters: a wide character such as 山 takes two)."""
    from rich.cells import cell_len

    out, at = [], 0
    for ch in line:
        if start <= at and at + cell_len(ch) <= end:
            out.append(ch)
        at += cell_len(ch)
    return "".join(out)


def test_a_name_of_wide_characters_fits_the_players_row_and_the_advice_at_80x24():
    """Tester s34 part 3: a 20-column name of wide characters (10 characters) was
    fitted by its characters: at 80x24, German, 8 seats, its players row ran past the
    panel (``jetzt`` cut, the ticket gone) and the advice heading was cut mid-word
    (``Am besten für 山田太郎山田太郎山田: Wettplättc``). Names are measured in columns:
    every row fits, the row's ``jetzt`` and ticket show, the advice breaks between
    words."""
    from camelhost.i18n import set_language
    from rich.cells import cell_len

    set_language("de")
    wide = "山田太郎山田太郎山田"
    names = [wide, "Zoë", "Anna", "Bernd", "Chloé", "Dieter", "Emma", "Fritz"]
    app = scenes.app_for("second", names, seed=34)

    def rows_of(wid):
        """(the widget's own lines, the screen's columns where it stands, row by row)."""
        w = app.query_one(wid)
        r = w.region
        lines = _text(app, wid).splitlines()
        shown = [_cells(line, r.x, r.right).rstrip()
                 for line in screen_lines(app)[r.y:r.y + len(lines)]]
        assert all(cell_len(line) <= r.width for line in lines), lines
        assert [line.rstrip() for line in lines] == shown, (lines, shown)
        return shown

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP])
            await scenes.settle(pilot)
            prompt = str(app.query_one("#prompt").content)
            assert cell_len(prompt) <= 80 and prompt.endswith("pyramid)"), prompt
            advice = rows_of("#odds")
            at = next(i for i, line in enumerate(advice)
                      if line.startswith(("Am besten für", "Für ")))
            assert wide in advice[at], advice
            words = " ".join(_text(app, "#odds").split()).split(" ")
            for line in advice[at:]:
                assert all(word in words for word in line.split()), (line, advice)
            await scenes.type_lines(pilot, ["leg grün"])
            await scenes.settle(pilot)
            rows = rows_of("#players")
            assert rows[0].split()[-2:] == ["jetzt", "Wette"], rows
            row = next(row for row in rows if row[1:].startswith(wide[:2]))
            name = row[1:].split()[0]  # the name, whole or cut (``…``) by columns
            assert name == wide or (name.endswith("…") and wide.startswith(name[:-1])), rows
            assert re.fullmatch(r"[+-]\d+", row.split()[-2]) and row.split()[-1] == "G5", rows

    try:
        asyncio.run(play())
    finally:
        set_language("en")


def test_a_bots_mark_never_takes_a_row_of_its_own_at_80x24():
    """Tester s34-3, finding 2: eight seats at 80x24, Ben, Dora and Fritzi bots; once
    Ben held a leg ticket and a partnership his ``(bot)`` mark dropped onto a line of
    its own under his row (``  (bot)``), read as a ninth seat, while the other bots kept
    theirs on their rows. When a bot's mark would not fit on its row, the bots are
    named once, on the bots' line under the table, and no row carries a mark."""
    names = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fritzi", "Gustav", "Hanne"]
    app = scenes.app_for("second", names, seed=5, bots=["Ben", "Dora", "Fritzi"],
                         odds=scenes.no_odds, auto_setup=True)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, ["partner Ben", "leg blue", "leg green", "leg red"])
            await scenes.settle(pilot)
            assert app._view["players"][1]["leg_tickets"], "Ben holds a leg ticket"
            r = app.query_one("#players").region
            rows = [line[r.x:r.right].rstrip() for line in screen_lines(app)[r.y:r.bottom]]
            _players_in_view(app, names)
            assert not [row for row in rows if row.strip() in ("(bot)", "")], rows
            marked = [row for row in rows if "(bot)" in row]
            assert marked == [" (bot) Ben Dora Fritzi"], rows
            assert rows[-1] == marked[0] and rows[-2] == " & Anna+Ben", rows

    asyncio.run(play())
