"""Finish cards stay private on the shared full screen (RULES 1.8, 5): played through
the picker (``win`` / ``lose`` alone, one key per colour) or typed (``win red``,
masked as it is typed), the screen is the same whichever colour was played, and so
is the plain output. The journal still holds the real card."""

import asyncio
import io
import shutil

import pytest
import tui_scenes as scenes
from camelhost.device.events import DieEvent
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelhost.ui.screens import FinishCardPicker

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

P4 = ["Ann", "Ben", "Cy", "Dee"]
BEFORE = scenes.SECOND_MID_LEG[:4]  # setup, three actions: Dee to act


def _cards(session):
    return [e["action"] for e in session.journal.events
            if e.get("type") == "action" and e["action"].startswith("finish")]


def _same_folder(tmp_path):
    """One folder for every play a test compares: the full screen names its journal
    (its path in the history's first line), so plays kept in folders of different
    names would differ there, not by the card. Emptied before each play."""
    folder = tmp_path / "game"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    return folder


def _picked(key, tmp_path):
    """The screens (picker open, then after the key) and the app, for ``key``."""
    app = scenes.app_for("second", P4, tmp=tmp_path)
    shots = []

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, BEFORE)
            await scenes.settle(pilot)
            await scenes.type_line(pilot, "win")
            assert isinstance(app.screen, FinishCardPicker)
            await scenes.settle(pilot)
            shots.append(app.export_screenshot())
            await pilot.press(key)
            await scenes.settle(pilot)
            assert not isinstance(app.screen, FinishCardPicker)
            shots.append(app.export_screenshot())
            shots.append("\n".join(app.query_one("#log").lines))

    asyncio.run(play())
    return app, shots


def test_a_card_played_through_the_picker_leaves_no_trace_of_its_colour(tmp_path):
    red_app, red = _picked("r", _same_folder(tmp_path))
    blue_app, blue = _picked("2", _same_folder(tmp_path))  # 2: the second racing colour, green
    assert _cards(red_app.session) == ["finish winner red"]
    assert _cards(blue_app.session) == ["finish winner green"]
    assert red[0] == blue[0]  # the picker, open
    assert red[1] == blue[1]  # the whole screen after the card: identical, styles too
    assert red[2] == blue[2]  # and the history
    assert "Dee plays a finish card face down on the overall-winner pile" in red[2]
    after = red[2].split("> win")[-1]
    assert "red" not in after and "(no finish card played)" not in after


def test_escape_closes_the_picker_without_a_card(tmp_path):
    app = scenes.app_for("second", P4, tmp=tmp_path)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, BEFORE)
            await scenes.type_line(pilot, "lose")
            assert isinstance(app.screen, FinishCardPicker)
            assert "overall-loser pile" in str(app.screen.query_one("#picker-text").content)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, FinishCardPicker)
            assert app.session.current == 3  # still Dee's turn

    asyncio.run(play())
    assert _cards(app.session) == []


def _typed(text, tmp_path):
    app = scenes.app_for("second", P4, tmp=tmp_path)
    shots = []

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, BEFORE)
            await pilot.press(*scenes.keys_of(text))  # key by key, as a player types
            await scenes.settle(pilot)
            box = app.query_one("#command")
            assert box.password and box.value == text  # masked on screen, kept in full
            shots.append(app.export_screenshot())
            await pilot.press("enter")
            await scenes.settle(pilot)
            shots.append(app.export_screenshot())

    asyncio.run(play())
    return app, shots


def test_a_typed_finish_card_is_masked_while_typed_and_never_echoed(tmp_path):
    red_app, red = _typed("win red", _same_folder(tmp_path))
    blue_app, blue = _typed("win blu", _same_folder(tmp_path))
    assert _cards(red_app.session) == ["finish winner red"]
    assert _cards(blue_app.session) == ["finish winner blue"]
    assert red == blue  # while typed, and after Enter


def _while_typed(text, tmp_path):
    """The whole screen with ``text`` typed key by key into the command line."""
    app = scenes.app_for("second", P4, tmp=tmp_path)
    shots = []

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, BEFORE)
            await pilot.press(*scenes.keys_of(text))
            await scenes.settle(pilot)
            assert app.query_one("#command").value == text
            shots.append(app.export_screenshot())
            shots.append(app.query_one("#command").render_line(0).text.rstrip())

    asyncio.run(play())
    return shots


def test_the_typed_mask_does_not_give_the_colour_length_away(tmp_path):
    # red 3 letters, yellow 6: one mask dot per letter told them apart
    red_app, red = _typed("win red", _same_folder(tmp_path))
    yellow_app, yellow = _typed("win yellow", _same_folder(tmp_path))
    assert _cards(red_app.session) == ["finish winner red"]
    assert _cards(yellow_app.session) == ["finish winner yellow"]
    assert red == yellow  # while typed, and after Enter
    # ... nor the length of a word half typed, nor whether anything was typed yet
    shots = [_while_typed(text, _same_folder(tmp_path)) for text in [
        "win ", "win y", "win purp", "win purple", "lose gr"]]
    assert shots[0] == shots[1] == shots[2] == shots[3]  # the screen, styles too
    assert [line for _, line in shots] == ["win •••"] * 4 + ["lose •••"]


def test_a_refused_finish_card_does_not_name_its_colour_either(tmp_path):
    app = scenes.app_for("second", P4, tmp=tmp_path)

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, BEFORE + ["win red", "leg blue", "leg red",
                                                     "leg yellow"])
            await scenes.type_line(pilot, "lose red")  # Dee again: red already played
            error = str(app.query_one("#error").content)
            assert "Dee can't play that finish card" in error
            await scenes.type_line(pilot, "win rex")  # a slip of the finger, not shown
            error = str(app.query_one("#error").content)
            # the colours to choose from are public: listed (issue 30), the slip is not
            assert "rex" not in error and "(blue, green, yellow, red, purple)" in error
            log = "\n".join(app.query_one("#log").lines)
            assert "red" not in log.split("> leg yellow")[-1]
            # the same card through the picker: refused alike, and the history's
            # '> lose' gets its ending (it used to be left alone)
            await scenes.type_line(pilot, "lose")
            await pilot.press("r")
            await scenes.settle(pilot)
            assert not isinstance(app.screen, FinishCardPicker)
            assert list(app.query_one("#log").history)[-2:] == ["> lose",
                                                               "(no finish card played)"]
            assert "Dee can't play that finish card" in str(app.query_one("#error").content)
            assert app.session.current == 3

    asyncio.run(play())
    assert _cards(app.session) == ["finish winner red"]


def _plain(lines):
    out = io.StringIO()
    session = Session("second", P4, seed=2, journal=Journal(None))
    table = Table(session, PlainDisplay(out))
    table.start()
    for text in lines:
        table.line(text)
    return out.getvalue(), session


def test_the_plain_output_is_the_same_whichever_card_was_played():
    red, s1 = _plain(BEFORE + ["win", "red"])
    green, s2 = _plain(BEFORE + ["win", "green"])
    assert red == green and "finish card face down" in red
    assert _cards(s1) == ["finish winner red"] and _cards(s2) == ["finish winner green"]
    typed_red, _ = _plain(BEFORE + ["win red"])
    typed_green, _ = _plain(BEFORE + ["win green"])
    assert typed_red == typed_green


def test_a_die_arriving_while_the_picker_is_open_cancels_the_card(tmp_path, monkeypatch):
    # tester46 finding 1: the picker closes as the die comes, saying so before the
    # die's lines; a colour's key pressed then is swallowed, never shown
    import queue
    import types

    from camelhost.ui.tui import CommandInput, TableApp

    monkeypatch.setattr(CommandInput, "SWALLOW_S", 600.0)  # no wall clock in the test

    events = queue.Queue()
    pyramid = types.SimpleNamespace(events=lambda: events, virtual=None, manual=False)
    session = Session("second", P4, seed=2, journal=Journal(str(tmp_path / "p.jsonl")))
    app = TableApp(session, pyramid=pyramid, odds=scenes.no_odds)  # the odds never read

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "win"])  # Ann's picker
            assert isinstance(app.screen, FinishCardPicker)
            events.put(("event", DieEvent("die", "B", 1, "EVT 1", colour="red", value=1)))
            for _ in range(600):  # the slider was pushed: Ann took a pyramid ticket
                await pilot.pause(0.05)
                if session.current == 1:
                    break
            await scenes.settle(pilot)
            assert not isinstance(app.screen, FinishCardPicker)
            history = list(app.query_one("#log").history)
            at = history.index("(no finish card played)")
            assert history[at - 1] == "> win", history
            assert history[at + 1].startswith("Ann takes a pyramid ticket: red 1"), history
            await pilot.press("r")
            await pilot.pause()
            assert app.query_one("#command").value == ""  # swallowed: not shown

    asyncio.run(play())
    assert _cards(session) == []  # not played for Ben, not for Ann


def test_position_command_on_the_full_screen_shows_pile_sizes_only(tmp_path):
    # QA finding: 'position' printed every finish card's colour and owner
    app = scenes.app_for("second", P4, tmp=tmp_path)
    got = {}

    async def play():
        async with app.run_test(size=(160, 40)) as pilot:
            await scenes.type_lines(pilot, BEFORE)
            await scenes.type_line(pilot, "win purple")  # Dee
            await scenes.type_line(pilot, "lose green")  # Ann
            await scenes.type_line(pilot, "position")
            await scenes.settle(pilot)
            got["log"] = "\n".join(app.query_one("#log").lines)

    asyncio.run(play())
    # the log wraps a long line: join what follows 'Position:', up to the odds command
    line, command = " ".join(got["log"].split("Position:")[-1].split()).split(" pyramid odds ")
    # then the piles as the advice reads them from public facts (who laid which pile and
    # when, never a card's colour: tester s37tp finding 5), then the names
    assert command.startswith("'") and "| winner 1 | loser 1' --read '" in command
    assert command.endswith(" --players Ann,Ben,Cy,Dee")
    assert "| winner 1 | loser 1" in line
    assert "purple" not in line.split("| winner", 1)[1]
    assert ":purple" not in line and ":green" not in line
    assert _cards(app.session) == ["finish winner purple", "finish loser green"]


def _spelled(word, tmp_path):
    """``win`` then the whole colour typed at once, then Enter (QA: the picker took the
    first letter, a later letter tried to close it again: a traceback)."""
    app = scenes.app_for("second", P4, tmp=tmp_path)
    out = {}

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, BEFORE)
            await scenes.settle(pilot)
            await scenes.type_line(pilot, "win")
            assert isinstance(app.screen, FinishCardPicker)
            await pilot.press(*scenes.keys_of(word), "enter")
            await scenes.settle(pilot)
            out["screen"] = app.export_screenshot()
            out["command"] = app.query_one("#command").value
            out["log"] = "\n".join(app.query_one("#log").lines)

    asyncio.run(play())
    return app, out


def test_a_colour_spelled_out_in_the_picker_plays_once_and_shows_nowhere(tmp_path,
                                                                         monkeypatch):
    from camelhost.ui.tui import CommandInput

    # the rest of the word is swallowed while each key comes within SWALLOW_S of the
    # one before: on a loaded machine Pilot's keys can be a second apart (seen once,
    # 'urple' then ran as a command), so the window is as long as the test may take
    monkeypatch.setattr(CommandInput, "SWALLOW_S", 60.0)
    purple_app, purple = _spelled("purple", _same_folder(tmp_path))
    yellow_app, yellow = _spelled("yellow", _same_folder(tmp_path))
    assert _cards(purple_app.session) == ["finish winner purple"]
    assert _cards(yellow_app.session) == ["finish winner yellow"]
    assert purple["command"] == yellow["command"] == ""  # the rest of the word swallowed
    assert purple["screen"] == yellow["screen"]
    assert purple["log"] == yellow["log"]
    assert "purple" not in purple["log"].split("> win")[-1]


def test_win_alone_with_every_finish_card_laid_opens_no_picker(tmp_path):
    # QA: the picker opened for a player with no finish card left, then refused every key
    # the error line and the journal are read, never the odds
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], tmp=tmp_path, odds=scenes.no_odds)
    lines = [scenes.SECOND_SETUP]
    for word, colour in (("win", "red"), ("win", "blue"), ("lose", "green"),
                         ("lose", "yellow"), ("win", "purple")):
        lines += ["%s %s" % (word, colour), "leg %s" % colour, "leg %s" % colour]

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, lines)
            await scenes.settle(pilot)
            events = len(app.session.journal.events)
            for word in ("win", "lose"):
                await scenes.type_line(pilot, word)
                await scenes.settle(pilot)
                assert not isinstance(app.screen, FinishCardPicker)
                assert str(app.query_one("#error").content) == (
                    "! %s: Ann has laid all five finish cards: none is left to play "
                    "(RULES 1.8)" % word)
            assert len(app.session.journal.events) == events and app.session.current == 0

    asyncio.run(play())


def _textual_private_names():
    """Every ``_name`` (not dunder) Textual's own classes define, over the widgets,
    screens and app the full screen builds on."""
    import textual.app
    import textual.containers
    import textual.screen
    import textual.widgets as w

    names = set()
    for base in (textual.app.App, textual.screen.ModalScreen, w.Input, w.Log, w.Static,
                 w.Digits, w.ContentSwitcher, textual.containers.VerticalScroll,
                 textual.containers.Vertical, textual.containers.Horizontal):
        for cls in base.__mro__:
            if cls.__module__.startswith("textual"):
                names |= {n for n in vars(cls) if n.startswith("_") and not n.startswith("__")}
    return names


def test_the_full_screen_uses_no_private_textual_api():
    """No module of the program that imports Textual overrides, reads or calls one of
    Textual's private names (``Input._on_key``, ``Input._value``, ``_cursor_visible``,
    ...): a user with another Textual of the pinned range keeps the command line."""
    import ast
    import os

    import camelhost

    private = _textual_private_names()
    assert {"_on_key", "_value", "_position_to_cell", "_cursor_visible"} <= private
    root = os.path.dirname(camelhost.__file__)
    found, modules = [], 0
    for folder, _dirs, files in os.walk(root):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            if not any(isinstance(n, (ast.Import, ast.ImportFrom)) and "textual" in
                       ast.unparse(n).split()[1] for n in ast.walk(tree)):
                continue
            modules += 1
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr in private:
                    found.append("%s:%d uses %s" % (name, node.lineno, node.attr))
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                        and node.name in private:
                    found.append("%s:%d overrides %s" % (name, node.lineno, node.name))
    assert modules >= 2  # tui.py and screens.py at least
    assert found == []


def _german_picked(keys, tmp_path, pile="lose"):
    """A German table (``--lang de``): ``pile`` alone, then ``keys`` in the picker. The
    app, the picker's text and whether it is still open after each key."""
    from camelhost.i18n import set_language

    out = {"open": []}

    async def play(app):
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, BEFORE)
            await scenes.settle(pilot)
            await scenes.type_line(pilot, pile)
            assert isinstance(app.screen, FinishCardPicker)
            out["text"] = str(app.screen.query_one("#picker-text").content)
            for key in keys:
                await pilot.press(key)
                await scenes.settle(pilot)
                out["open"].append(isinstance(app.screen, FinishCardPicker))
            out["command"] = app.query_one("#command").value

    try:
        set_language("de")
        app = scenes.app_for("second", P4, tmp=tmp_path, odds=scenes.no_odds)
        asyncio.run(play(app))
    finally:
        set_language("en")
    return app, out


def test_the_german_picker_never_reads_g_as_one_of_two_colours(tmp_path):
    # tester s33 F3: 'g' (gelb to a German player) laid grün face down, unseen
    app, out = _german_picked(["g", "e"], tmp_path / "ge")
    assert out["open"] == [True, False]  # 'g' alone picks nothing: grün or gelb
    assert _cards(app.session) == ["finish loser yellow"]
    rows = [" ".join(line.split()) for line in out["text"].splitlines()]
    for row in ("b oder 1 blau", "gr oder 2 grün", "ge oder 3 gelb", "r oder 4 rot",
                "l oder 5 lila"):
        assert row in rows, (row, rows)
    app, out = _german_picked(["g", "r"], tmp_path / "gr")
    assert out["open"] == [True, False] and _cards(app.session) == ["finish loser green"]
    app, out = _german_picked(["l"], tmp_path / "l")  # lila: ignored before
    assert _cards(app.session) == ["finish loser purple"]
    app, out = _german_picked(["3"], tmp_path / "3")
    assert _cards(app.session) == ["finish loser yellow"]


def test_a_german_colour_spelled_in_the_picker_plays_it_and_leaves_no_letters(tmp_path,
                                                                             monkeypatch):
    from camelhost.ui.tui import CommandInput

    monkeypatch.setattr(CommandInput, "SWALLOW_S", 60.0)  # as for the English words
    for word, colour in (("gelb", "yellow"), ("grün", "green"), ("gruen", "green"),
                         ("lila", "purple")):
        app, out = _german_picked(list(word) + ["enter"], tmp_path / word)
        assert _cards(app.session) == ["finish loser %s" % colour], word
        assert out["command"] == "", word  # the rest of the word swallowed, never shown
        assert app.session.current == 0, word  # Dee's card played, Ann to act
