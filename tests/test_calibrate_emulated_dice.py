"""``pyramid calibrate`` on an emulated Pico asks only for the dice in its table (maker
s43, finding 2): ``pyramid emulate`` records their edition for its port while it runs
(``sources.publish_emulated_dice``); calibrate refuses another ``--edition`` in one line
before any setting is touched (it asked for the orange die of a second-edition table,
which the emulator's ``p orange`` refuses), and without ``--edition`` calibrates them."""

import io
from types import SimpleNamespace

import pytest
from camelhost import cli
from camelhost.commands import calibrate as calibrate_command
from camelhost.device import emulated, sources, uf2
from pty_board import EMULATED_UID as EMULATED
from test_emulate_edition_line import _Board
from test_play_board_edition import Board


@pytest.mark.process  # a pty and a thread answering on it
def test_another_edition_than_the_emulated_dice_is_refused_in_one_line(monkeypatch, capsys,
                                                                        emulated_dice):
    board = Board("second", uid=EMULATED)
    try:
        emulated_dice("second", board.port)
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        status = cli.main(["calibrate", "--port", board.port, "--edition", "classic",
                           "--samples", "3"])
    finally:
        board.close()
    out, err = capsys.readouterr()
    assert status == 1
    assert err == (
        "pyramid: --edition classic: the dice in the emulated Pico on %s are the second "
        "edition's: calibrate them with --edition second (or leave --edition out), or start "
        "an emulated Pico with the classic edition's dice: pyramid emulate --edition "
        "classic\n" % board.port), err
    assert "release" not in out, out


def _pyramid(port, uid=EMULATED):
    return SimpleNamespace(virtual=None, hello={"uid": uid, "ed": "second"}, port=port)


def test_without_edition_the_emulated_dice_are_calibrated(emulated_dice):
    port = emulated_dice("classic")  # a kept image set to second
    assert calibrate_command.emulated_edition(_pyramid(port), None) == "classic"
    assert calibrate_command.emulated_edition(_pyramid(port), "classic") == "classic"
    # a real board's id, or no emulator running any more: the edition as asked
    assert calibrate_command.emulated_edition(_pyramid(port, "E6614103E7452D2F"), None) is None
    emulated_dice.withdraw(port)
    assert calibrate_command.emulated_edition(_pyramid(port), "classic") == "classic"
    assert sources.emulated_dice(port) is None


def test_emulate_records_its_dice_while_it_runs(monkeypatch, capsys, emulated_dice):
    """``emulated_dice``: the records in a runtime folder of the test's own."""
    monkeypatch.setattr(emulated, "EmulatedPyramid", _Board)
    monkeypatch.setattr(emulated, "node_runner", lambda: None)
    monkeypatch.setattr(emulated, "find_uf2", lambda given: "/tmp/RPI_PICO.uf2")
    monkeypatch.setattr(uf2, "check", lambda image: None)
    seen = []

    class Keys(io.StringIO):  # the console's input: what calibrate would read meanwhile
        def __iter__(self):
            seen.append(sources.emulated_dice("/dev/null"))
            return iter(())

    monkeypatch.setattr("sys.stdin", Keys(""))
    assert cli.main(["emulate", "--edition", "classic"]) == 0
    assert seen == ["classic"]
    assert sources.emulated_dice("/dev/null") is None  # withdrawn when it stopped
