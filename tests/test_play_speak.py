"""``--speak`` (RULES 5, optional speech): each die announcement is handed to
espeak-ng when it is on PATH; without it one clear line, and play goes on. No
audio is played here: only the command lines are checked."""

import io

from camelhost import cli
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.speaker import Speaker
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def test_each_die_is_said_with_espeak_ng():
    calls = []
    speaker = Speaker(which=lambda name: "/usr/bin/" + name,
                      popen=lambda argv, **kw: calls.append(argv))
    s = Session("second", ["Ann", "Ben", "Cy"], journal=Journal(None))
    t = Table(s, PlainDisplay(io.StringIO()), speaker=speaker)
    t.start()
    t.line(SETUP)
    t.line("leg red")
    t.line("blue 3")
    t.line("grey white 2")
    assert calls == [["/usr/bin/espeak-ng", "blue camel, forward 3"],
                     ["/usr/bin/espeak-ng", "white camel, backward 2"]]


def test_without_espeak_ng_nothing_is_run():
    speaker = Speaker(which=lambda name: None, popen=lambda *a, **k: 1 / 0)
    assert not speaker.available and speaker.command("x") is None
    speaker.say("blue camel, forward 3")  # quietly nothing
    assert "espeak-ng is not on PATH" in speaker.missing


def test_speak_without_espeak_ng_is_one_line_and_play_goes_on(tmp_path, capsys, monkeypatch):
    import shutil
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr("sys.stdin", iter(["draw\n", "leg red\n"]))
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--plain", "--speak",
                   "--journal", str(tmp_path / "g.jsonl")])
    captured = capsys.readouterr()
    assert rc == 0 and captured.err.count("\n") == 1
    assert captured.err.startswith("speech: espeak-ng is not on PATH")
    assert "Ann takes the red leg ticket" in captured.out
