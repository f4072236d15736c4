"""The F1 help box says, in one line, whether the dice are said aloud (tester finding at
the last stop: it said nothing about speech): on (``--speak`` with espeak-ng), asked but
espeak-ng missing (the same line the table said when it opened), or off, with the option
that turns it on."""

import asyncio
import shutil

import pytest
import tui_scenes as scenes
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.speaker import Speaker
from camelhost.ui.tui import TableApp

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

P3 = ["Ann", "Ben", "Cy"]
NO_SPEECH = ("speech: espeak-ng is not on PATH (install it, e.g. apt install espeak-ng); "
             "going on without speech")


def _help_lines(app):
    """The F1 help's lines on ``app`` at 80x24."""
    lines = []

    async def drive():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("f1")
            await pilot.pause()
            lines.extend(app.screen.text.splitlines())
            await pilot.press("escape")
            await pilot.press("ctrl+q")

    asyncio.run(drive())
    return lines


@pytest.mark.parametrize("lang, words", [
    ("en", "Speech: off (pyramid play --speak says each die aloud, with espeak-ng)"),
    ("de", "Sprachausgabe: aus (pyramid play --speak sagt jeden Würfel laut an, mit espeak-ng)")])
def test_the_help_says_speech_is_off_and_how_to_turn_it_on(lang, words):
    set_language(lang)
    assert words in _help_lines(scenes.app_for("second", P3, odds=scenes.no_odds))


def test_the_help_says_speech_is_on():
    said = []
    speaker = Speaker(which=lambda name: "/usr/bin/" + name,
                      popen=lambda argv, **kw: said.append(argv))
    session = Session("second", P3, seed=2, journal=Journal(None))
    app = TableApp(session, speaker=speaker, odds=scenes.no_odds)
    assert "Speech: on: each die is said aloud (espeak-ng)" in _help_lines(app)


def test_the_help_says_speech_was_asked_but_espeak_ng_is_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)  # no espeak-ng here
    monkeypatch.setattr("camelhost.commands.play._plain", lambda args: False)
    helped = []
    monkeypatch.setattr(TableApp, "run", lambda app: helped.extend(_help_lines(app)))
    assert cli.main(["play", "--speak", "--players", "Ann,Ben,Cy", "--pyramid", "manual",
                     "--journal", str(tmp_path / "j.jsonl")]) == 0
    assert NO_SPEECH in helped, helped[:4]
