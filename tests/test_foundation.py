"""The project installs, the CLI answers, and shared/ imports under MicroPython."""

import subprocess
import sys

from camelhost import cli


def test_cli_lists_every_command(capsys):
    assert cli.main([]) == 2
    out = capsys.readouterr().out
    for name, _ in cli.COMMANDS:
        assert name in out


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


def test_from_camelup_import_submodule_under_micropython(micropython):
    # MicroPython consults camelup.__getattr__ before looking for a submodule.
    done = micropython(
        "from camelup import protocol, classifier\n"
        "from camelup import Game\n"
        "print(protocol.__name__, classifier.__name__, Game.__name__)"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == ["camelup.protocol", "camelup.classifier", "Game"]
