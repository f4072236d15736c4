"""s32 tester findings 3, 5, 6, 8 and 9: the table's words (suggestions that help, a
name that can be corrected, wording a player trusts) and the maker's next step."""

import os

import pytest
from camelhost import cli

# --- finding 9: the maker's side --------------------------------------------------


def test_a_failed_auto_pyramid_leaves_no_journals_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda *a, **k: [])  # no board
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "auto", "--plain"])
    err = capsys.readouterr().err
    assert rc != 0 and err.startswith("pyramid: ") and err.count("\n") == 1, err
    assert os.listdir(tmp_path) == []


def test_a_failed_start_keeps_a_journals_folder_that_was_there(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "journals").mkdir()
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "/dev/nonexistent-pyr",
                   "--plain"])
    assert rc == 1 and "cannot open" in capsys.readouterr().err
    assert os.listdir(tmp_path) == ["journals"]


@pytest.mark.hil
@pytest.mark.micropython
def test_calibrate_on_the_virtual_pyramid_runs_unattended_without_auto(tmp_path, capsys,
                                                                       micropython):
    rc = cli.main(["calibrate", "--port", "virtual", "--edition", "classic", "--samples", "3",
                   "--no-save"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert out.splitlines()[0] == ("virtual pyramid: the simulated table puts each die in the "
                                   "head itself, so calibrate runs unattended (--auto is "
                                   "implied)")
    here = os.path.dirname(__file__)
    with open(os.path.join(here, "..", "hardware", "README.md"), encoding="utf-8") as f:
        readme = " ".join(f.read().split())
    assert "there `calibrate` runs unattended" in readme and "(`--auto` is implied" in readme


def test_doctors_next_step_names_the_port_and_the_edition_given():
    import argparse

    from camelhost.commands.doctor import next_step
    from camelhost.i18n import set_language
    args = argparse.Namespace(port="/dev/tty ACM0", edition="classic")
    assert next_step(args).endswith(": pyramid calibrate --port '/dev/tty ACM0' --edition "
                                    "classic --autorange")
    set_language("de")
    try:
        assert next_step(args).startswith("als Nächstes der Pyramide diese Würfel beibringen")
    finally:
        set_language("en")
