"""The plain table reading its input as bytes: one undecodable line costs that line only
(issue 29, item 5)."""

import os
import shutil
import subprocess
import sys

import pytest
from camelhost.table.journal import read_events

pytestmark = pytest.mark.process

PYRAMID = shutil.which("pyramid", path=os.path.dirname(sys.executable))


def test_an_undecodable_byte_skips_its_line_and_the_table_goes_on(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict", LC_ALL="C.UTF-8")
    done = subprocess.run([PYRAMID, "play", "--players", "A,B,C", "--plain", "--journal",
                           "t.jsonl", "--seed", "3"], input=b"draw\nleg red\xe9\nleg red\n",
                          capture_output=True, cwd=str(tmp_path), env=env, timeout=120)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert "Traceback" not in err and "Traceback" not in out
    assert done.returncode == 0
    said = [x for x in out.splitlines() if "not utf-8 text" in x]
    assert said == ["! that line is not utf-8 text (a byte the table can't read): it was "
                    "skipped, nothing changed; type it again"]
    # the line before it and the line after it were both taken, the bad one never
    kinds = [(e["type"], e.get("action")) for e in read_events(str(tmp_path / "t.jsonl"))]
    assert kinds == [("game", None), ("setup", None), ("action", "leg red")]


class _Stream:
    """A text stream over bytes, as ``sys.stdin`` is: ``encoding`` and a ``buffer``."""

    def __init__(self, data, encoding="utf-8"):
        import io
        self.buffer = io.BytesIO(data)
        self.encoding = encoding


def test_typed_lines_decode_each_line_on_its_own():
    from camelhost.ui.loop import typed_lines
    got = list(typed_lines(_Stream(b"leg red\r\n\xff\xfe\ntile 7 +\nlast")))
    assert got == [("line", "leg red"), ("bad", "utf-8"), ("line", "tile 7 +"),
                   ("line", "last")]
    assert list(typed_lines(["a\n", "b"])) == [("line", "a"), ("line", "b")]
