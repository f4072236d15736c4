"""The full screen tells what plain mode tells at the start (s36tp tester finding 12):
``--speak`` without espeak-ng and the seed drawn when ``--seed`` is not given were
printed before the full screen opened, where nobody saw them; they are now the first
lines of its history, before the journal line, as plain mode's first lines."""

import asyncio
import re
import shutil

import pytest
from camelhost import cli
from camelhost.ui.tui import TableApp

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

NO_SPEECH = ("speech: espeak-ng is not on PATH (install it, e.g. apt install espeak-ng); "
             "going on without speech")


def _full_screen(monkeypatch, seen, keys=()):
    """``pyramid play`` opens its full screen (as at a terminal); the pilot reads the
    history's first lines, presses ``keys``, then Ctrl-Q."""
    monkeypatch.setattr("camelhost.commands.play._plain", lambda args: False)

    def run(app):
        async def drive():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                for key in keys:
                    await pilot.press(key)
                await pilot.pause()
                seen.extend(app.query_one("#log").history)  # unwrapped
                await pilot.press("ctrl+q")
        asyncio.run(drive())

    monkeypatch.setattr(TableApp, "run", run)


def test_no_speech_and_the_seed_are_the_full_screens_first_lines(tmp_path, monkeypatch,
                                                                 capsys):
    monkeypatch.setattr(shutil, "which", lambda name: None)  # no espeak-ng here
    seen = []
    _full_screen(monkeypatch, seen)
    path = str(tmp_path / "j51.jsonl")
    assert cli.main(["play", "--speak", "--players", "Ann,Ben,Cy", "--pyramid", "manual",
                     "--journal", path]) == 0
    assert seen[0] == NO_SPEECH
    assert re.fullmatch(r"seed: (\d+) \(play this race again with --seed \1\)", seen[1])
    assert seen[2] == "journal: %s" % path
    captured = capsys.readouterr()
    # nothing said behind the full screen's back: only the quit line, after it
    assert captured.err == "" and "seed:" not in captured.out
    assert captured.out.startswith("game saved in %s" % path)


def test_german_table_says_them_in_german(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    seen = []
    _full_screen(monkeypatch, seen)
    path = str(tmp_path / "j.jsonl")
    assert cli.main(["play", "--lang", "de", "--speak", "--players", "Ann,Ben,Cy",
                     "--pyramid", "manual", "--journal", path]) == 0
    assert seen[0] == ("Sprachausgabe: espeak-ng ist nicht im PATH (installiere es, z. B. "
                       "apt install espeak-ng); es geht ohne Sprachausgabe weiter")
    assert re.fullmatch(r"Seed: (\d+) \(dieses Rennen noch einmal mit --seed \1\)", seen[1])
    assert seen[2] == "Protokoll: %s" % path


def test_a_seed_given_and_speech_not_asked_leave_the_journal_line_first(tmp_path,
                                                                       monkeypatch):
    seen = []
    _full_screen(monkeypatch, seen)
    path = str(tmp_path / "j.jsonl")
    assert cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "manual", "--seed", "4",
                     "--journal", path]) == 0
    assert seen[0] == "journal: %s" % path


def test_plain_mode_still_prints_them_first(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    path = str(tmp_path / "j.jsonl")
    assert cli.main(["play", "--plain", "--speak", "--players", "Ann,Ben,Cy",
                     "--pyramid", "manual", "--journal", path]) == 0
    captured = capsys.readouterr()
    assert captured.err == NO_SPEECH + "\n"
    first = captured.out.splitlines()
    assert re.fullmatch(r"seed: (\d+) \(play this race again with --seed \1\)", first[0])
    assert first[1] == "journal: %s" % path
