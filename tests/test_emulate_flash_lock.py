"""Two ``pyramid emulate`` on one ``--flash`` image: the second refuses in one line
naming the image and the other process, and writes nothing (tester2 s35, finding 16:
both ran, each overwriting the other's board). The lock is ``fcntl.flock`` on
``IMAGE.lock``, held for the emulated board's life; these tests stop before any
emulator starts."""

import argparse
import os
import subprocess
import sys

import pytest
from camelhost.commands import emulate
from camelhost.device import emulated
from camelhost.errors import CliError
from camelhost.i18n import set_language


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def image(tmp_path):
    path = tmp_path / "board1.img"
    # a board's image as another emulate left it (its filesystem erased: --fresh)
    path.write_bytes(b"\xff" * emulated.FS_BLOCK_SIZE * emulated.FS_BLOCK_COUNT)
    return str(path)


@pytest.fixture
def uf2(tmp_path):
    path = tmp_path / "mp.uf2"
    path.write_bytes(b"UF2")  # never booted: the lock is taken before anything starts
    return str(path)


def test_a_second_board_on_a_held_image_refuses_naming_it_and_writes_nothing(image, uf2):
    held = emulated.lock_flash(image)
    try:
        board = emulated.EmulatedPyramid(uf2=uf2, flash_file=image)
        with pytest.raises(emulated.FlashInUse) as refused:
            board.start()
        board.close()
    finally:
        os.close(held)
    text = str(refused.value)
    assert text == ("%s is in use by another pyramid emulate (pid %d): stop it (q in its "
                    "terminal) or give another --flash image" % (image, os.getpid()))
    assert board.port is None  # no pseudo-terminal made, no emulator started
    with open(image, "rb") as f:
        assert f.read() == b"\xff" * emulated.FS_BLOCK_SIZE * emulated.FS_BLOCK_COUNT
    again = emulated.lock_flash(image)  # released with its holder: the image is free
    os.close(again)


def test_pyramid_emulate_says_it_in_one_line(image, uf2, monkeypatch):
    from camelhost.device import uf2 as uf2_module

    monkeypatch.setattr(emulated, "node_runner", lambda: ["node", "board.cjs"])
    monkeypatch.setattr(uf2_module, "check", lambda path: None)
    held = emulated.lock_flash(image)
    try:
        args = argparse.Namespace(uf2=uf2, edition="second", seed=0, fresh=False, flash=image)
        with pytest.raises(CliError) as refused:
            emulate.run(args)
    finally:
        os.close(held)
    assert str(refused.value).startswith("%s is in use by another pyramid emulate (pid %d)"
                                         % (image, os.getpid()))
    assert "\n" not in str(refused.value)


def test_two_emulated_boards_on_different_images_both_go(tmp_path):
    first = emulated.lock_flash(str(tmp_path / "a.img"))
    second = emulated.lock_flash(str(tmp_path / "b.img"))
    os.close(first)
    os.close(second)


@pytest.mark.process
def test_the_lock_holds_against_another_process_and_names_its_pid(image):
    code = ("import os, sys; from camelhost.device.emulated import lock_flash; "
            "lock_flash(sys.argv[1]); print(os.getpid(), flush=True); sys.stdin.read()")
    other = subprocess.Popen([sys.executable, "-c", code, image], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        pid = int(other.stdout.readline())
        with pytest.raises(emulated.FlashInUse, match=r"\(pid %d\)" % pid):
            emulated.lock_flash(image)
    finally:
        other.stdin.close()
        other.wait(30)
    os.close(emulated.lock_flash(image))  # the other process ended: its lock went with it
