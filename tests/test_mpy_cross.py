"""mpy-cross compiles every firmware/ and shared/camelup/ file (MicroPython's syntax gate).

mpy-cross rejects syntax MicroPython lacks (match, except*, positional-only
parameters, [*a, *b], {**a, **b}, ...: firmware notes 4b); it does not catch a
missing module, which the MicroPython runs of the other tests do.
"""

import glob
import os
import subprocess

import pytest
from camelhost import paths
from camelhost.device import flash

pytestmark = pytest.mark.process  # runs mpy-cross


def sources():
    files = glob.glob(os.path.join(paths.FIRMWARE_DIR, "**", "*.py"), recursive=True)
    files += glob.glob(os.path.join(paths.SHARED_DIR, "camelup", "**", "*.py"), recursive=True)
    return sorted(files)


def test_every_firmware_and_camelup_file_compiles(tmp_path):
    mpy_cross = flash.mpy_cross()
    failures = []
    for source in sources():
        out = tmp_path / (os.path.basename(source)[:-3] + ".mpy")
        done = subprocess.run(
            [mpy_cross, "-march=armv6m", "-o", str(out), source], capture_output=True, text=True
        )
        if done.returncode != 0 or out.read_bytes()[:2] != b"M\x06":
            failures.append("%s: %s" % (source, done.stderr.strip()))
    assert not failures, "\n".join(failures)
    assert len(sources()) >= 5


@pytest.mark.parametrize(
    "snippet",
    ["match x:\n    case 1:\n        pass\n", "def f(a, /):\n    pass\n", "y = [*a, *b]\n"],
)
def test_syntax_micropython_lacks_is_rejected(tmp_path, snippet):
    source = tmp_path / "bad.py"
    source.write_text(snippet)
    done = subprocess.run(
        [flash.mpy_cross(), str(source)], capture_output=True, text=True
    )
    assert done.returncode != 0 and "SyntaxError" in done.stderr
