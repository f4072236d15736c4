"""``pyramid doctor`` and ``monitor`` on an emulated Pico compare ``--edition`` with the
dice in its table, as calibrate does (maker s44, finding 2): ``pyramid emulate`` records
their edition for its port while it runs (``sources.publish_emulated_dice``, done here
as it does it, without starting an emulator). They compared it with the firmware's
edition alone and advised ``pyramid calibrate --edition X``, which calibrate refuses
there. A real board, and the dice asked for on a board running another edition, are
said as before."""

import pytest
from camelhost import cli
from camelhost.commands import monitor as monitor_command
from camelhost.tools import monitor
from pty_board import EMULATED_UID as EMULATED

REAL = "E6614103E7452D2F"


class _Board:
    """A stand-in for ``monitor.connect``'s pyramid on ``port``: its firmware set to
    ``ed``, its ``HELLO`` naming ``uid``."""

    virtual = None

    def __init__(self, port, ed, uid=EMULATED):
        self.port = port
        self.hello = {"ed": ed, "uid": uid}
        self.closed = False

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@pytest.fixture
def emulated(monkeypatch, emulated_dice):
    """``make(dice, ed, uid)``: an emulated Pico with the dice ``dice`` in its table
    (``emulated_dice``, conftest), its firmware set to ``ed`` (``uid``: its id), as
    doctor and monitor connect to it."""

    def make(dice, ed, uid=EMULATED):
        board = _Board(emulated_dice(dice), ed, uid)
        monkeypatch.setattr(monitor, "connect", lambda *a, **k: board)
        monkeypatch.setattr(monitor_command, "connect", lambda *a, **k: board)
        return board

    return make


def _fix(out):
    return [line.strip() for line in out.splitlines() if line.strip().startswith("fix:")]


@pytest.mark.parametrize("dice", ["second", "classic"])
def test_doctor_names_the_emulated_dice_not_a_calibrate_that_would_refuse(emulated, capsys,
                                                                          dice):
    asked = {"second": "classic", "classic": "second"}[dice]
    board = emulated(dice, ed=dice)  # a fresh emulated Pico: its firmware runs its dice
    assert cli.main(["doctor", "--port", board.port, "--edition", asked]) == 1
    out = capsys.readouterr().out
    assert ("  FAILED   edition     --edition %s: the dice in the emulated Pico on %s are the "
            "%s edition's" % (asked, board.port, dice)) in out.splitlines(), out
    assert _fix(out) == [
        "fix: check them with --edition %s (or leave --edition out), or start an emulated "
        "Pico with the %s edition's dice: pyramid emulate --edition %s"
        % (dice, asked, asked)], out
    assert "calibrate" not in out, out
    assert board.closed


def test_monitor_names_the_emulated_dice_in_one_line(emulated, capsys):
    board = emulated("classic", ed="classic")
    assert cli.main(["monitor", "--port", board.port, "--edition", "second"]) == 1
    out, err = capsys.readouterr()
    assert err == (
        "pyramid: --edition second: the dice in the emulated Pico on %s are the classic "
        "edition's: watch their readings with --edition classic (or leave --edition out), "
        "or start an emulated Pico with the second edition's dice: pyramid emulate "
        "--edition second\n" % board.port), err
    assert board.closed


def test_the_emulated_dice_asked_for_on_a_board_running_another_edition_are_set_by_calibrate(
        emulated, capsys):
    """A kept ``--flash`` image set to the other edition: calibrate with the dice's
    edition sets it, as before (and as the emulator's console says)."""
    board = emulated("classic", ed="second")
    assert cli.main(["monitor", "--port", board.port, "--edition", "classic"]) == 1
    assert capsys.readouterr().err == (
        "pyramid: --edition classic: the pyramid is set to the second edition (pyramid "
        "calibrate --edition classic sets it)\n")


def test_a_real_board_is_compared_with_its_firmware_as_before(emulated, capsys):
    board = emulated("second", ed="second", uid=REAL)  # a record cannot make it emulated
    assert cli.main(["monitor", "--port", board.port, "--edition", "classic"]) == 1
    assert capsys.readouterr().err == (
        "pyramid: --edition classic: the pyramid is set to the second edition (pyramid "
        "calibrate --edition classic sets it)\n")
    assert monitor.emulated_dice(board) is None


@pytest.mark.parametrize("asked", [[], ["--edition", "classic"]])
def test_doctor_on_an_emulated_pico_running_the_other_edition_says_so_first(emulated, capsys,
                                                                           asked):
    """A kept ``--flash`` image set to the second edition, classic dice in the table:
    doctor would ask for the purple die, which that table has none of; with ``--edition
    classic`` its fix said to check the pyramid as it is set."""
    board = emulated("classic", ed="second")
    assert cli.main(["doctor", "--port", board.port] + asked) == 1
    out = capsys.readouterr().out
    assert ("  FAILED   edition     the emulated Pico on %s runs the second edition, but the "
            "dice in its table are the classic edition's" % board.port) in out.splitlines(), out
    assert _fix(out) == [
        "fix: pyramid calibrate --port %s --edition classic sets it to their edition with a "
        "profile of those dice, or start an emulated Pico with the second edition's dice: "
        "pyramid emulate --edition second" % board.port], out
    assert board.closed


@pytest.mark.parametrize("dice, ed", [("classic", "second"), ("second", "classic")])
def test_monitor_without_edition_warns_of_a_firmware_running_the_other_edition(
        emulated, capsys, monkeypatch, dice, ed):
    """Maker s45: without ``--edition`` monitor said nothing, and the dice of its table
    read as the firmware's edition's (unknown, or the wrong colour); with it, the line
    is refused above. One line naming both editions and the fix doctor names."""
    board = emulated(dice, ed=ed)
    streamed = []
    monkeypatch.setattr(monitor_command, "monitor",
                        lambda pyramid, **k: streamed.append(pyramid) or 0)
    assert cli.main(["monitor", "--port", board.port]) == 0
    out, err = capsys.readouterr()
    assert err == (
        "pyramid: warning: the emulated Pico on %(port)s runs the %(ed)s edition, but the "
        "dice in its table are the %(dice)s edition's: pyramid calibrate --port %(port)s "
        "--edition %(dice)s sets it to their edition with a profile of those dice, or start "
        "an emulated Pico with the %(ed)s edition's dice: pyramid emulate --edition %(ed)s\n"
        % {"port": board.port, "ed": ed, "dice": dice}), err
    assert streamed == [board] and board.closed  # the readings follow, as before


def test_monitor_without_edition_on_an_emulated_pico_of_its_own_dice_warns_of_nothing(
        emulated, capsys, monkeypatch):
    board = emulated("classic", ed="classic")
    monkeypatch.setattr(monitor_command, "monitor", lambda pyramid, **k: 0)
    assert cli.main(["monitor", "--port", board.port]) == 0
    assert capsys.readouterr().err == ""


def test_monitors_warning_of_the_other_edition_in_german(emulated, capsys, monkeypatch):
    board = emulated("classic", ed="second")
    monkeypatch.setattr(monitor_command, "monitor", lambda pyramid, **k: 0)
    assert cli.main(["monitor", "--lang", "de", "--port", board.port]) == 0
    err = capsys.readouterr().err
    assert err.startswith("pyramid: Warnung: der emulierte Pico an %s läuft mit der "
                          % board.port), err
    assert err.count("\n") == 1 and "pyramid emulate --edition second" in err, err
