"""The same protocol and firmware logic under the MicroPython unix port: identical
bytes on the wire, identical decisions (tables shared with the CPython tests)."""

import json

import pytest
from camelhost import paths
from camelup.board import protocol
from test_firmware_units import BOUNCY_PUSH, RELEASES
from test_protocol import CASES, DAMAGED, _split

pytestmark = pytest.mark.micropython

SCRIPT = r"""
import json
import camelup.board.protocol as protocol
from pyramid.release import Release, verdict
from pyramid.slider import Slider
from pyramid.eventlog import EventLog
from pyramid.link import LineReader

data = json.loads(DATA)
out = {"encoded": [], "decoded": [], "damaged": [], "releases": [], "slider": [], "ring": None}
for name, kind, fields in data["cases"]:
    if "raw" in fields: fields["raw"] = tuple(fields["raw"])
    for k in ("on", "off"):
        if k in fields: fields[k] = tuple(fields[k])
    if "prev" in fields and fields["prev"] is not None: fields["prev"] = tuple(fields["prev"])
    line = protocol.encode(name, kind, **fields)
    out["encoded"].append(line.decode())
    msg = protocol.decode(line)
    out["decoded"].append(msg == protocol.Message(name, fields, kind))
for text in data["damaged"]:
    try:
        protocol.decode(bytes(text))
        out["damaged"].append(None)
    except protocol.ProtocolError as exc:
        out["damaged"].append(exc.reason)
for readings in data["releases"]:
    rel = Release(50, 300, 3)
    rel.start(0)
    result = None
    for t, label in readings:
        result = rel.feed(t, verdict(label, 7, (t, 0, 0, 0)))
    out["releases"].append([result["kind"], result["label"]])

class Pin:
    level = 1
    def value(self):
        return self.level

pin = Pin()
now = [0]
sl = Slider(pin, True, 20, lambda: now[0])
for t, level in data["bouncy"]:
    pin.level = level
    now[0] = t
    ch = sl.update()
    if ch:
        out["slider"].append([t, ch])
log = EventLog("0BADCAFE", 4)
for i in range(6):
    log.append("nodie", {})
out["ring"] = [log.oldest(), log.seq, log.get(2), log.get(6).decode()]
r = LineReader(16)
got = []
for b in b"short\n" + b"x" * 40 + b"\nnext\n":
    x = r.feed(b)
    if x is not None:
        got.append(x if x == -1 else x.decode())
out["lines"] = got
print(json.dumps(out))
"""


def _jsonable(fields):
    out = {}
    for key, value in fields.items():
        out[key] = list(value) if isinstance(value, tuple) else value
    return out


def test_protocol_and_firmware_logic_agree_under_micropython(micropython):
    data = {
        "cases": [list(_split(key)) + [_jsonable(fields)] for key, fields, _body in CASES],
        "damaged": [list(line) for line, _reason in DAMAGED],
        "releases": [readings for _name, readings, _exp in RELEASES],
        "bouncy": BOUNCY_PUSH,
    }
    script = SCRIPT.replace("DATA", repr(json.dumps(data)))
    result = micropython(script, [paths.SHARED_DIR, paths.FIRMWARE_DIR], timeout=120, heapsize="1M")
    assert result.returncode == 0, result.stdout + result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    for (key, fields, _body), line in zip(CASES, out["encoded"], strict=True):
        name, kind = _split(key)
        assert line.encode() == protocol.encode(name, kind, **fields)  # byte-identical on both runtimes
    assert all(out["decoded"])
    assert out["damaged"] == [reason for _line, reason in DAMAGED]
    assert out["releases"] == [list(exp) for _name, _readings, exp in RELEASES]
    assert out["slider"] == [[5, 1], [120, 2]]
    assert out["ring"][:3] == [3, 6, None] and out["ring"][3].startswith("EVT 6 nodie boot=0BADCAFE*")
    assert out["lines"] == ["short", -1, "next"]
