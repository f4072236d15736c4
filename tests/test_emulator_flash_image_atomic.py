"""The emulated Pico's ``--flash`` image is written whole or not at all, and flushed to
the disk before it takes the image's name: it survived a killed ``emulate`` but maybe
not a power loss (written to a temporary file and renamed, never fsynced; the first
image was written in place). Both writers: ``camelhost.device.emulated.write_image``
(the first image, ``--fresh`` and the firmware's) and ``hardware/emu/image.cjs`` (every
flash program and erase of the running board)."""

import json
import os
import shutil
import subprocess

import pytest
from camelhost.device import emulated


def _record_fsyncs(monkeypatch, events):
    """Record each ``os.fsync`` (what the descriptor is: the image's bytes or a folder)
    and each ``os.replace``, in order, still doing them."""
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        target = os.readlink("/proc/self/fd/%d" % fd)
        events.append(("fsync", "folder" if os.path.isdir(target) else
                       os.path.getsize(target)))
        real_fsync(fd)

    def replace(src, dst):
        events.append(("replace", os.path.dirname(src) == os.path.dirname(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)


def test_an_image_is_fsynced_in_its_folder_before_it_takes_the_name(tmp_path, monkeypatch):
    image = tmp_path / "board.img"
    events = []
    _record_fsyncs(monkeypatch, events)
    emulated.write_image(str(image), b"\x01" * 5000)
    # the bytes on the disk first, then the rename (in the same folder), then the folder
    assert events == [("fsync", 5000), ("replace", True), ("fsync", "folder")]
    assert image.read_bytes() == b"\x01" * 5000
    assert sorted(os.listdir(tmp_path)) == ["board.img"]  # no temporary file left
    assert oct(image.stat().st_mode & 0o777) == oct(0o644 & ~_umask())


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("fails", ["write", "fsync", "replace"])
def test_a_failed_write_keeps_the_previous_image_whole(tmp_path, monkeypatch, fails):
    image = tmp_path / "board.img"
    emulated.write_image(str(image), b"old image")
    def boom(*args):
        raise OSError(28, "No space left on device")

    if fails == "write":  # half the bytes written, then the disk is full
        real_fdopen = os.fdopen
        monkeypatch.setattr(os, "fdopen", lambda fd, mode: _HalfWriter(real_fdopen(fd, mode)))
    else:
        monkeypatch.setattr(os, fails, boom)
    with pytest.raises(OSError):
        emulated.write_image(str(image), b"new image")
    monkeypatch.undo()
    assert image.read_bytes() == b"old image"
    assert sorted(os.listdir(tmp_path)) == ["board.img"]


class _HalfWriter:
    """A file that writes half of what it is given, then fails as a full disk does."""

    def __init__(self, f):
        self.f = f

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()

    def write(self, data):
        self.f.write(data[:len(data) // 2])
        self.f.flush()
        raise OSError(28, "No space left on device")

    def flush(self):
        self.f.flush()

    def fileno(self):
        return self.f.fileno()


def test_a_first_image_that_cannot_be_written_leaves_no_part_of_one(tmp_path, monkeypatch):
    """The first image was written in place: a full disk left a part of one, which the
    next ``emulate`` would have booted as the board's filesystem."""
    image = tmp_path / "new.img"

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        emulated.filesystem_image({"main.py": b"print(1)\n"}, str(image))
    assert os.listdir(tmp_path) == []
    monkeypatch.undo()
    emulated.filesystem_image({"main.py": b"print(1)\n"}, str(image))
    assert emulated.read_filesystem(str(image)) == {"main.py": b"print(1)\n"}


# --- the running board's writes: hardware/emu/image.cjs under Node ------------------

_NODE_SCRIPT = r"""
const realFs = require('fs');
const { writeImage } = require(process.argv[1]);
const [file, mode] = [process.argv[2], process.argv[3]];
const calls = [];
const fs = new Proxy(realFs, {
  get(target, name) {
    const real = target[name];
    if (typeof real !== 'function') return real;
    return (...args) => {
      if (name === 'fsyncSync') {
        const where = realFs.readlinkSync(`/proc/self/fd/${args[0]}`);
        calls.push(['fsync', realFs.statSync(where).isDirectory() ? 'folder'
          : realFs.statSync(where).size]);
      } else if (name === 'renameSync') {
        calls.push(['rename', args[1]]);
      }
      if (mode === 'fail-' + name) {
        const e = new Error('ENOSPC: no space left on device'); e.code = 'ENOSPC'; throw e;
      }
      return real.apply(target, args);
    };
  },
});
let error = null;
try {
  writeImage(file, [Buffer.alloc(3000, 7), Buffer.from('PICOUID1'), Buffer.alloc(8, 1)], fs);
} catch (e) {
  error = e.code;
}
process.stdout.write(JSON.stringify({ calls, error }));
"""


def _node_write(image, mode="ok"):
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is absent (the emulated Pico needs it: docs/emulator.md)")
    module = os.path.join(emulated.EMU_DIR, "image.cjs")
    done = subprocess.run([node, "-e", _NODE_SCRIPT, module, str(image), mode],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.process
def test_the_running_board_s_image_is_fsynced_before_its_rename(tmp_path):
    image = tmp_path / "board.img"
    image.write_bytes(b"old image")
    got = _node_write(image)
    assert got == {"calls": [["fsync", 3016], ["rename", str(image)], ["fsync", "folder"]],
                   "error": None}, got
    assert image.read_bytes() == b"\x07" * 3000 + b"PICOUID1" + b"\x01" * 8
    assert sorted(os.listdir(tmp_path)) == ["board.img"]


@pytest.mark.process
@pytest.mark.parametrize("fails", ["writeSync", "fsyncSync", "renameSync"])
def test_a_running_board_s_failed_write_keeps_the_previous_image(tmp_path, fails):
    image = tmp_path / "board.img"
    image.write_bytes(b"old image")
    got = _node_write(image, "fail-" + fails)
    assert got["error"] == "ENOSPC", got
    assert image.read_bytes() == b"old image"
    assert sorted(os.listdir(tmp_path)) == ["board.img"]  # its temporary file removed
