"""``pyramid play`` on a board that runs other sensor settings than its stored profile was
fitted at (a calibrate session that ended without its goodbye, tester s36tm finding 7):
one line at the start names both and the command that fixes it, as ``pyramid doctor``
and ``monitor`` say it (``tools.monitor.settings_apart``), and the game starts. The
pyramid is ``tests/pty_board.py``'s firmware stand-in on a pseudo-terminal."""

import io

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from pty_board import Board

pytestmark = [pytest.mark.process]  # a pty and a thread answering on it

LINE = ("the board runs 24.0 ms and gain 16x, but its profile was fitted at 24.0 ms and gain "
        "4x (a calibrate session that did not end): unplug the pyramid and plug it back in "
        "(it starts at the settings saved with its profile); if it still says so, calibrate "
        "again (pyramid calibrate --port %s --autorange)")


def _play(board, tmp_path, monkeypatch, capsys, *extra):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    cli.main(["play", "--plain", "--pyramid", board.port, "--players", "Ann,Ben,Cy",
              "--bots", "Ben,Cy", "--seed", "3", *extra])
    return capsys.readouterr()


def test_play_says_the_board_runs_other_settings_than_its_profile_and_starts(
        tmp_path, monkeypatch, capsys):
    board = Board(it=24, gain=16, pit=24, pgain=4)
    try:
        out, err = _play(board, tmp_path, monkeypatch, capsys)
    finally:
        board.close()
    lines = out.splitlines()
    assert lines.count(LINE % board.port) == 1, out
    assert "Race 1 setup" in out, (out, err)  # the game starts all the same
    assert lines.index(LINE % board.port) < lines.index(next(
        line for line in lines if line.startswith("journal: ")))  # said at the start


def test_play_says_nothing_of_settings_that_agree_with_the_profile(tmp_path, monkeypatch,
                                                                     capsys):
    board = Board(it=24, gain=4, pit=24, pgain=4)
    try:
        out, _err = _play(board, tmp_path, monkeypatch, capsys)
    finally:
        board.close()
    assert "its profile was fitted at" not in out and "Race 1 setup" in out


def test_the_line_is_said_in_the_tables_language(tmp_path, monkeypatch, capsys):
    board = Board(it=24, gain=16, pit=24, pgain=4)
    try:
        out, _err = _play(board, tmp_path, monkeypatch, capsys, "--lang", "de")
    finally:
        board.close()
        set_language("en")
    assert ("die Platine läuft mit 24,0 ms und Verstärkung 16x, ihr Profil wurde aber bei "
            "24,0 ms und Verstärkung 4x angepasst") in out, out
    assert "pyramid calibrate --port %s --autorange" % board.port in out
