"""Options that mean the same are spelt the same (the last round's leftovers):
``--edition`` in the maker's tools is the edition of the pyramid's dice, with one help
in calibrate, doctor and monitor, and a board set to another edition is refused by
doctor and monitor in one line; the wait for the pyramid after a push is
``--push-wait`` in demo as in doctor, demo's old ``--wait`` still taken with a note."""

import pytest
from camelhost import cli
from camelhost.errors import CliError


def _help(capsys, argv):
    with pytest.raises(SystemExit):
        cli.main(argv + ["--help"])
    return " ".join(capsys.readouterr().out.split())


def _option_help(text, option):
    """The help of ``option`` in a ``--help`` text (up to the next option)."""
    options = text[text.index("options:"):]
    start = options.index(option + " ")
    rest = options[start + len(option):]
    end = min(i for i in (rest.find(" --"), len(rest)) if i >= 0)
    return rest[:end]


def test_the_maker_tools_edition_has_one_meaning_and_one_help(capsys):
    helps = {command: _option_help(_help(capsys, [command]), "--edition")
             for command in ("calibrate", "doctor", "monitor")}
    assert len(set(helps.values())) == 1, helps
    assert "the edition of the pyramid's dice" in helps["doctor"]
    assert "virtual pyramid's dice (default second)" not in helps["doctor"]


class _Board:
    """A stand-in for ``monitor.connect``'s pyramid: a board set to the second edition."""
    virtual = None
    hello = {"ed": "second"}
    closed = False

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def test_a_board_set_to_another_edition_is_refused_in_one_line(monkeypatch, capsys):
    from camelhost.tools import monitor
    board = _Board()
    monkeypatch.setattr(monitor, "connect", lambda *a, **k: board)
    monkeypatch.setattr("camelhost.commands.monitor.connect", lambda *a, **k: board)
    assert cli.main(["monitor", "--port", "/dev/pts/9", "--edition", "classic"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == ("pyramid: --edition classic: the pyramid is set to the second edition "
                   "(pyramid calibrate --edition classic sets it)"), err
    assert board.closed
    with pytest.raises(CliError):  # the board's own edition, or none given, passes
        monitor.check_edition(board, "classic")
    monitor.check_edition(board, "second")
    monitor.check_edition(board, None)
    assert cli.main(["doctor", "--port", "/dev/pts/9", "--edition", "classic"]) == 1
    out = capsys.readouterr().out
    assert "--edition classic: the pyramid is set to the second edition" in out, out


def test_demo_waits_with_push_wait_as_doctor_does_and_the_old_wait_still_works(
        monkeypatch, capsys):
    text = _help(capsys, ["demo"])
    assert "--push-wait SECONDS how long to wait for the pyramid's die after a push" in text
    assert "--wait " not in text  # the old spelling is hidden from --help
    assert cli.main(["demo", "--wait", "-5"]) == 1
    err = capsys.readouterr().err
    assert err == ("pyramid: note: --wait is now --push-wait (the old name still works for "
                   "now)\npyramid: --push-wait must be a positive number of seconds, not -5\n")
