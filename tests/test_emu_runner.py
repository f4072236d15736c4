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
