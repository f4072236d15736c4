"""tester46 finding 3: a German table's refusal quotes the line as it was typed, its
English colours kept (``lge red`` is never quoted ``lge rot``), while its suggestion is
said in the table's words (``leg rot``); in the plain mode, at setup and for a line
that names a player first. One line each, nothing changed."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _reply(typed, setup=True):
    set_language("de")
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    if setup:
        t.line(SETUP)
    before, events = len(out.getvalue()), len(s.journal.events)
    t.line(typed)
    said = out.getvalue()[before:]
    assert said.count("\n") == 1 and len(s.journal.events) == events
    return said.rstrip("\n")


@pytest.mark.parametrize("typed, said", [
    ("lge red", "! unbekannter Befehl 'lge red'; meintest du 'leg rot'? (help zeigt die "
                "Befehle)"),
    ("lge rot", "! unbekannter Befehl 'lge rot'; meintest du 'leg rot'? (help zeigt die "
                "Befehle)"),
    ("'red' 2", "! unbekannter Befehl \"'red' 2\" (help zeigt die Befehle)"),
    ("Ben leg red", "! 'Ben leg red': ein Befehl nimmt keinen Spielernamen, er gilt für den "
                    "Spieler am Zug (Ann ist am Zug); tippe 'leg rot'"),
])
def test_a_refusal_quotes_the_line_as_typed(typed, said):
    assert _reply(typed) == said


@pytest.mark.parametrize("typed, inner", [
    ("Ann: lge red", "unbekannter Befehl 'lge red'; meintest du 'leg rot'? (help zeigt die "
                     "Befehle)"),
    ("Ann: 2 red", "'2 red': zuerst kommt die Farbe des Würfels, dann sein Wert: 'rot 2'"),
])
def test_a_line_refused_without_its_name_too_quotes_it_as_typed(typed, inner):
    """tester46c finding 2: the inner refusal, of the line without the player's name,
    quotes it as the same line typed without the name is quoted, never 'lge rot'."""
    assert _reply(typed) == (
        "! '%s': ein Befehl nimmt keinen Spielernamen, er gilt für den Spieler am Zug (Ann "
        "ist am Zug); auch ohne den Namen wird er abgelehnt: %s" % (typed, inner))
    assert _reply(typed[len("Ann: "):]) == "! " + inner


def test_a_refusal_at_setup_quotes_the_line_as_typed():
    said = _reply("lge red", setup=False)
    assert said.startswith("! 'lge red' liest sich als 'leg rot', jetzt nicht genommen: ")
    assert _reply("ix 2:white,green", setup=False) == (
        "! unbekannter Befehl 'ix 2:white,green' (help zeigt die Befehle)")


@pytest.mark.screen
def test_the_full_screen_quotes_the_line_as_typed(tmp_path):
    import asyncio

    import tui_scenes as scenes

    set_language("de")
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], tmp=tmp_path)

    async def play():
        async with app.run_test(size=(100, 30)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "ix 2:white,green", "lge red"])
            await scenes.settle(pilot)
            history = list(app.query_one("#log").history)
            assert any(line.startswith("> ix 2:white,green  (abgewiesen: unbekannter Befehl "
                                       "'ix 2:white,green'")
                       for line in history), history
            assert str(app.query_one("#error").content).startswith(
                "! unbekannter Befehl 'lge red'; meintest du 'leg rot'?")
            assert app.session.current == 0

    asyncio.run(play())
