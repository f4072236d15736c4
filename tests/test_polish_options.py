"""An option means one thing in every command, and the odds report names players by
name (the team's standard: "players are named by their names on every screen, never by
seat numbers"): ``--players`` is names in ``odds`` as in ``play`` (a count is ``--seats``,
as in ``demo`` and ``tournament``), ``flash``'s "do not soft-reset" is ``--no-soft-reset``
(``--resume`` continues a journal in ``play``); each old spelling still works with one
line on stderr saying the new one."""

import argparse

import pytest
from camelhost import cli
from camelhost.commands.options import SEAT_NAMES
from camelhost.i18n import set_language

BOARD = "1:[R,Y,P,B,G] 16:[K,W] 5:+"
FEW = ["--dice", "G,B", "--samples", "50", "--top", "3"]


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


def _odds(capsys, *argv):
    status = cli.main(["odds", BOARD] + FEW + list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("lang, to_act", [("en", "Ann to act"), ("de", "Ann ist am Zug")])
def test_odds_without_players_names_the_seats_as_the_demo_does(capsys, lang, to_act):
    status, out, err = _odds(capsys, "--lang", lang)
    assert status == 0 and err == ""
    assert to_act in out
    for line in out.splitlines():
        assert "p0" not in line and "p1" not in line and "p2" not in line, line
    # the unowned tile goes to a seat, shown without an owner; the best tile is Ann's
    assert ("Best tile for Ann" if lang == "en" else "Bestes Plättchen für Ann") in out
    assert SEAT_NAMES[:3] == ("Ann", "Ben", "Cy")


def test_odds_players_are_names_as_in_play_and_seats_a_count(capsys):
    status, out, err = _odds(capsys, "--players", "Zoe,Yan,Xu,Wil", "--turn", "yan")
    assert status == 0 and err == ""
    assert "leg 1, Yan to act;" in out and "Actions for Yan," in out
    status, out, err = _odds(capsys, "--seats", "5", "--turn", "p4")
    assert status == 0 and err == "" and "Eve to act" in out
    # names and seats that disagree: one line, nothing run
    status, out, err = _odds(capsys, "--players", "Zoe,Yan", "--seats", "4")
    assert status == 2 and out == ""
    assert err == "pyramid: --players: 2 names for --seats 4 (give one per seat)\n"
    status, out, err = _odds(capsys, "--turn", "Zed")
    assert status == 1 and out == ""
    assert err == ("pyramid: --turn takes a player's name (Ann, Ben, Cy) or seat p0, p1, "
                   "..., not 'Zed'\n")


def test_odds_old_spellings_still_work_with_one_line_saying_the_new_one(capsys):
    status, new, err = _odds(capsys, "--seats", "4")
    assert status == 0 and err == ""
    status, out, err = _odds(capsys, "--players", "4")
    assert status == 0 and out == new
    assert err == ("pyramid: note: --players N (a number of seats) is now --seats N; "
                   "--players takes the names, as in play\n")
    status, new, err = _odds(capsys, "--players", "Zoe,Yan,Xu")
    status, out, err = _odds(capsys, "--names", "Zoe,Yan,Xu")
    assert status == 0 and out == new and "Zoe to act" in out
    assert err == "pyramid: note: --names is now --players (the old name still works for now)\n"


def test_odds_help_shows_players_as_names_and_hides_the_old_spellings(capsys):
    with pytest.raises(SystemExit):
        cli.main(["odds", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--players NAMES the players' names in seat order" in text
    assert "--seats N short board form: number of seats: 2-8 classic, 3-8 second" in text
    assert "--names" not in text and "--top N " in text


def test_flash_no_soft_reset_and_its_old_spelling(capsys):
    from camelhost.commands import flash
    parser = argparse.ArgumentParser(prog="pyramid flash")
    flash.add_arguments(parser)
    assert parser.parse_args([]).no_soft_reset is False
    assert capsys.readouterr().err == ""
    assert parser.parse_args(["--no-soft-reset"]).no_soft_reset is True
    assert capsys.readouterr().err == ""
    assert parser.parse_args(["--resume"]).no_soft_reset is True
    assert capsys.readouterr().err == \
        "pyramid: note: --resume is now --no-soft-reset (the old name still works for now)\n"
    text = " ".join(parser.format_help().split())
    assert "--no-soft-reset do not soft-reset the board on connect" in text
    assert "--resume" not in text


def test_the_odds_command_the_table_prints_says_players():
    from camelhost.table.journal import Journal
    from camelhost.table.narration import position_line
    from camelhost.table.session import Session
    s = Session("second", ["Ann Marie", "Ben", "Cy"], seed=4, journal=Journal(None))
    s.command("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    assert position_line(s).endswith(" --players 'Ann Marie,Ben,Cy'")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_odds_columns_line_up_under_their_headings(capsys, lang):
    # German 'Niederl.' was a column wider than its figures ('lose': 'Verl.', as the
    # screen's odds say 'Verl±')
    status, out, err = _odds(capsys, "--lang", lang)
    lines = out.splitlines()
    at = [i for i, x in enumerate(lines) if x.startswith("  camel ") or x.startswith("  Kamel ")][0]
    rows = lines[at + 1:at + 6]
    assert len(rows) == 5 and {len(r) for r in rows} == {len(lines[at])}, [lines[at]] + rows
