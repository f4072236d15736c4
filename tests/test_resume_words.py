"""What ``pyramid play --resume`` says before a game opens (tester s35 findings 2 and 3):
``--resume`` alone said "resuming ..." half in the locale's language, half in the
journal's, and then refused the game it had just said it resumed; the F1 help and the
quit line named two different commands for the same game."""

import asyncio
import os

import pytest
from camelhost import cli
from camelhost.commands import play
from camelhost.i18n import set_language
from camelhost.table.journal import Journal
from camelhost.table.session import Session

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _gone_pseudo_terminal():
    return next("/dev/pts/%d" % n for n in range(4000, 5000)
                if not os.path.exists("/dev/pts/%d" % n))


def _journal(path, lang, pyramid):
    """A game of race 1, leg 1 that a table speaking ``lang`` wrote, its dice from
    ``pyramid``."""
    set_language(lang)
    with Journal(path, pyramid=pyramid, lang=lang) as journal:
        session = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        session.command(SETUP)
        session.command("leg red")
    set_language("en")


def test_resume_alone_says_the_refusal_first_once_and_in_the_tables_language(
        tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    os.mkdir("journals")
    port = _gone_pseudo_terminal()
    path = "journals/20260101-120000.jsonl"
    _journal(path, "de", port)  # a German table on an emulated pyramid's terminal
    kept = open(path, "rb").read()
    rc = cli.main(["play", "--plain", "--resume"])  # the locale: English
    out, err = capsys.readouterr()
    assert rc == 1
    assert out == ""  # no "resuming ..." before a refusal
    assert err.count("\n") == 1  # one line, said once
    assert err == (
        "pyramid: %s wurde an einem Pseudoterminal gespielt (dem einer emulierten "
        "Pyramide), dessen Nummer jetzt das Terminal eines anderen Programms sein kann, darum "
        "öffnet eine Fortsetzung eines nur, wenn sein Anschluss wieder angegeben wird; nichts "
        "wurde geändert. Weiter mit dem Anschluss, den der Emulator nennt: pyramid play "
        "--resume %s --plain --lang de --pyramid ANSCHLUSS (oder mit --pyramid manual, die "
        "Würfel eingetippt)\n" % (path, path))
    assert port not in err  # the game's first port: maybe another program's now
    assert open(path, "rb").read() == kept


def test_resume_alone_names_the_game_it_resumes_in_one_language(tmp_path, monkeypatch,
                                                                capsys):
    monkeypatch.chdir(tmp_path)
    os.mkdir("journals")
    path = "journals/20260101-120000.jsonl"
    _journal(path, "de", "manual")
    monkeypatch.setattr("sys.stdin", open(os.devnull))  # the players leave at once
    assert cli.main(["play", "--plain", "--resume"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    # before: 'das neueste nicht beendete Spiel ... (race 1, leg 1)'
    assert first == ("das neueste nicht beendete Spiel in journals wird fortgesetzt: %s "
                     "(Rennen 1, Etappe 1)" % path)
    # and an English table resumed under a German locale reads English throughout
    path = "journals/20260101-120001.jsonl"
    _journal(path, "en", "manual")
    os.utime(path, (os.path.getmtime(path) + 5,) * 2)  # the newest
    monkeypatch.setenv("LANGUAGE", "de")
    monkeypatch.setattr("sys.stdin", open(os.devnull))
    set_language(None)  # the locale's: German
    assert cli.main(["play", "--plain", "--resume"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("resuming the newest unfinished game in journals: %s (race 1, leg 1)"
                     % path)


@pytest.mark.process  # the virtual pyramid
@pytest.mark.screen  # the full screen driven through Textual's Pilot
def test_f1_help_and_the_quit_line_name_one_resume_command(tmp_path, monkeypatch, capsys):
    # before: F1 said 'pyramid play --resume FILE', the quit line 'pyramid play --resume
    # FILE --pyramid virtual' (the virtual pyramid's own pseudo-terminal taken for a port)
    from camelhost.ui.tui import TableApp
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(play, "_plain", lambda args: False)  # as in a terminal
    helped = []

    def run(app):
        async def drive():
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await pilot.press("f1")
                helped.append(app.screen.text.splitlines()[0])
                await pilot.press("escape")
                await pilot.press("ctrl+q")

        asyncio.run(drive())

    monkeypatch.setattr(TableApp, "run", run)
    path = str(tmp_path / "g.jsonl")
    assert cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "virtual", "--seed", "3",
                     "--journal", path]) == 0
    quit_line = capsys.readouterr().out.splitlines()[-1]
    assert quit_line == "game saved in %s; continue it with: pyramid play --resume %s" % (
        path, path)
    assert helped == ["This game's journal: %s; after a crash, continue it with: pyramid play "
                      "--resume %s" % (path, path)]
