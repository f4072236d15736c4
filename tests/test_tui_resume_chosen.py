"""``pyramid play --resume`` alone with the full screen: the line naming the journal it
chose (``resuming the newest unfinished game in journals: ...``) is the first line of
the full screen's history, where the players see it, as it is plain mode's first line
(tester finding at the last stop: it was printed before the full screen opened, which
hid it)."""

import asyncio
import os

import pytest
from camelhost import cli
from camelhost.ui.tui import TableApp
from test_resume_newest import _journal

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot


def _full_screen(monkeypatch, seen):
    """``pyramid play`` opens its full screen (as at a terminal); the pilot reads the
    history's lines, then presses Ctrl-Q."""
    monkeypatch.setattr("camelhost.commands.play._plain", lambda args: False)

    def run(app):
        async def drive():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                seen.extend(app.query_one("#log").history)  # unwrapped
                await pilot.press("ctrl+q")
        asyncio.run(drive())

    monkeypatch.setattr(TableApp, "run", run)


@pytest.mark.parametrize("lang, words", [
    ("en", "resuming the newest unfinished game in journals: %s (race 1, leg 1)"),
    ("de", "das neueste nicht beendete Spiel in journals wird fortgesetzt: %s (Rennen 1, "
           "Etappe 1)")])
def test_the_journal_resume_chose_is_the_full_screens_first_line(tmp_path, monkeypatch,
                                                                  capsys, lang, words):
    monkeypatch.chdir(tmp_path)
    os.mkdir("journals")
    _journal("journals/20261206-100000.jsonl", written=1_000_000)
    _journal("journals/20261206-110000.jsonl", written=2_000_000)  # the crashed one
    seen = []
    _full_screen(monkeypatch, seen)
    assert cli.main(["play", "--resume", "--pyramid", "manual", "--lang", lang]) == 0
    path = os.path.join("journals", "20261206-110000.jsonl")
    assert seen[0] == words % path, seen[:3]
    captured = capsys.readouterr()
    # nothing said behind the full screen's back: only the quit line, after it
    assert "20261206-110000" not in captured.err
    assert captured.out.splitlines()[0].startswith(("game saved in ", "Spiel gespeichert")), \
        captured.out
