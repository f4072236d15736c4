"""The project installs, the CLI answers, and shared/ imports under MicroPython."""

import subprocess
import sys

import pytest
from camelhost import cli


def test_cli_lists_every_command(capsys):
    assert cli.main([]) == 2
    out = capsys.readouterr().out
    for name, _ in cli.COMMANDS:
        assert name in out


@pytest.mark.process
def test_console_script_reports_version():
    done = subprocess.run(
        [sys.executable, "-m", "camelhost.cli", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout.startswith("pyramid ")


def test_camelup_imports_under_micropython(micropython):
    done = micropython("import camelup; print(camelup.__version__)")
    assert done.returncode == 0, done.stderr
    import camelup

    assert done.stdout.strip() == camelup.__version__


def test_the_board_modules_load_without_the_engine_under_micropython(micropython):
    """On the board, importing the wire protocol and the classifier loads the board's
    modules and the editions, and never the rules engine, the odds or the fitting, nor
    the engine's errors (an unknown edition's refusal imports them when raised)."""
    done = micropython(
        "import sys\n"
        "from camelup.board import protocol, classifier\n"
        "print(protocol.__name__, classifier.__name__)\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('camelup'))))\n"
        "from camelup import editions\n"
        "try:\n"
        "    editions.get_edition('third')\n"
        "except ValueError as exc:\n"
        "    print(type(exc).__name__)\n"
        "from camelup.game import Game\n"
        "print(Game.__name__, 'camelup.game' in sys.modules)"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["camelup.board.protocol", "camelup.board.classifier"]
    assert lines[1].split() == ["camelup", "camelup.board", "camelup.board.classifier",
                                "camelup.board.protocol", "camelup.board.tcs34725",
                                "camelup.editions"]
    assert lines[2] == "NotationError"
    assert lines[3].split() == ["Game", "True"]
