"""``pyramid emulate --flash FILE`` adopts only a missing file (a new board) or one of
its own images, and refuses anything else in one line, writing nothing (tester s36tm,
finding 8: ``--flash /tmp/RPI_PICO.uf2``, the natural slip of reading "--flash" as
"flash this", replaced the MicroPython UF2 by a 1.4 MB filesystem image without a word,
and a text file went the same way; a missing folder named a ``.lock`` file the maker
never typed; a folder gave ``EISDIR`` after the boot wait)."""

import hashlib
import os
import struct

import pytest
from camelhost import cli
from camelhost.device import emulated

IMAGE = emulated.FS_BLOCK_SIZE * emulated.FS_BLOCK_COUNT


@pytest.fixture
def emulate(monkeypatch, tmp_path):
    """``pyramid emulate --flash PATH`` as the maker types it, its Node runner and UF2
    taken as found (no emulator is started for a refused image)."""
    from camelhost.device import uf2

    monkeypatch.setattr(emulated, "node_runner", lambda: ["node", "board.cjs"])
    monkeypatch.setattr(emulated, "find_uf2", lambda given: "/uf2/pico.uf2")
    monkeypatch.setattr(uf2, "check", lambda path: 1)

    def run(path):
        return cli.main(["emulate", "--flash", str(path)])

    return run


def _uf2_bytes(blocks=4):
    out = b""
    for i in range(blocks):
        head = struct.pack("<IIIIIIII", 0x0A324655, 0x9E5D5157, 0x2000, 0x10000000 + 256 * i,
                           256, i, blocks, 0xE48BFF56)
        out += head + b"\0" * (512 - 32 - 4) + struct.pack("<I", 0x0AB16F30)
    return out


def _digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _assert_untouched(path, digest, tmp_path, before):
    assert _digest(path) == digest  # nothing written
    assert sorted(os.listdir(tmp_path)) == before  # no .lock, no temporary file


def test_a_uf2_given_as_the_flash_image_is_refused_and_kept(emulate, tmp_path, capsys):
    path = tmp_path / "RPI_PICO.uf2"
    path.write_bytes(_uf2_bytes())
    digest, before = _digest(path), sorted(os.listdir(tmp_path))
    assert emulate(path) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("pyramid: %s is not an emulated board's flash image (it is a UF2: give it "
                   "as --uf2); give a new file name for a new board; nothing was written\n"
                   % path)
    _assert_untouched(path, digest, tmp_path, before)


def test_any_other_file_is_refused_and_kept(emulate, tmp_path, capsys):
    path = tmp_path / "config.py"
    path.write_text("I2C_SDA = 4\n" * 250, encoding="utf-8")
    size = os.path.getsize(path)
    digest, before = _digest(path), sorted(os.listdir(tmp_path))
    assert emulate(path) == 1
    err = capsys.readouterr().err
    assert err == ("pyramid: %s is not an emulated board's flash image (%d bytes; an image "
                   "is %d, or %d with the board's unique id); give a new file name for a new "
                   "board; nothing was written\n" % (path, size, IMAGE, IMAGE + 16))
    _assert_untouched(path, digest, tmp_path, before)
    # the size of an image but not its contents: refused as well
    path.write_bytes(b"\0" * IMAGE)
    digest = _digest(path)
    assert emulate(path) == 1
    assert "is not an emulated board's flash image (no littlefs filesystem" in \
        capsys.readouterr().err
    _assert_untouched(path, digest, tmp_path, before)


def test_a_folder_or_a_missing_folder_is_one_line_before_anything_starts(emulate, tmp_path,
                                                                          capsys):
    before = sorted(os.listdir(tmp_path))
    assert emulate(tmp_path) == 1
    assert capsys.readouterr().err == (
        "pyramid: %s is a folder: --flash takes the file of the board's flash image (a new "
        "file name makes a new board)\n" % tmp_path)
    assert sorted(os.listdir(tmp_path)) == before and not os.path.exists(str(tmp_path) + ".lock")
    missing = tmp_path / "nonexist" / "b.img"
    assert emulate(missing) == 1
    assert capsys.readouterr().err == (
        "pyramid: no folder %s for the flash image %s\n" % (missing.parent, missing))
    assert sorted(os.listdir(tmp_path)) == before


def test_the_boards_own_images_are_adopted(tmp_path):
    made = tmp_path / "made.img"
    emulated.filesystem_image({"main.py": b"print(1)\n"}, str(made))
    assert emulated.check_flash_image(str(made)) is None
    with open(made, "ab") as f:  # once the board ran: its unique id after the region
        f.write(b"PICOUID1" + bytes.fromhex("5556575801020304"))
    assert emulated.check_flash_image(str(made)) is None
    erased = tmp_path / "fresh.img"  # --fresh: erased, MicroPython formats it at boot
    erased.write_bytes(b"\xff" * IMAGE)
    assert emulated.check_flash_image(str(erased)) is None
    assert emulated.check_flash_image(str(tmp_path / "new.img")) is None  # a new board
