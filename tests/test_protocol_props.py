"""Hypothesis: every message round-trips; random and damaged input never crashes
either side (the protocol codec, the firmware's line assembly, the host link)."""

import string
import sys

from camelhost import paths
from camelhost.device.link import Link
from camelup.board import protocol
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

from pyramid.link import LineReader, parse_line  # noqa: E402

HEX = "0123456789ABCDEF"
TYPES = {
    "uint": st.integers(0, 2**32 - 1),
    "hex8": st.text(HEX, min_size=8, max_size=8),
    "hexid": st.integers(1, 16).flatmap(lambda n: st.text(HEX, min_size=2 * n, max_size=2 * n)),
    "word": st.text(string.ascii_letters + string.digits + "._:+-", min_size=1, max_size=24),
    "value": st.sampled_from([None, 1, 2, 3]),
    "quad": st.tuples(*[st.integers(0, 65535)] * 4),
    "bool": st.booleans(),
    "prev": st.none() | st.tuples(st.text(HEX, min_size=8, max_size=8), st.integers(0, 2**32 - 1)),
    "text": st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=60),
}


@st.composite
def messages(draw):
    key = draw(st.sampled_from(sorted(protocol.MESSAGES)))
    _direction, positional, keyed, _since = protocol.MESSAGES[key]
    fields = {}
    for name, ftype in positional:
        fields[name] = draw(TYPES[ftype])
    for name, ftype, required in keyed:
        if required or draw(st.booleans()):
            fields[name] = draw(TYPES[ftype])
    parts = key.split(" ")
    return parts[0], (parts[1] if len(parts) > 1 else None), fields


def _drop_optional_nones(key_name, kind, fields):
    # an optional keyed field given as None is simply not sent
    key = key_name if kind is None else key_name + " " + kind
    out = dict(fields)
    for name, ftype, required in protocol.MESSAGES[key][2]:
        if not required and out.get(name, 0) is None and ftype not in ("value", "prev"):
            del out[name]
    return out


@given(messages())
def test_every_message_round_trips(msg):
    name, kind, fields = msg
    try:
        line = protocol.encode(name, kind, **fields)
    except protocol.ProtocolError as exc:
        # Hypothesis may draw words and ids far longer than the firmware ever sends;
        # the encoder must refuse those with the length reason, never frame them.
        assert exc.reason == "too_long", exc
        return
    assert len(line) <= protocol.MAX_LINE and line.endswith(b"\n")
    assert b"\x00" not in line and b"\x03" not in line
    assert protocol.decode(line) == protocol.Message(name, _drop_optional_nones(name, kind, fields), kind)


@given(messages(), st.data())
def test_any_single_byte_change_is_rejected(msg, data):
    name, kind, fields = msg
    try:
        line = bytearray(protocol.encode(name, kind, **fields))
    except protocol.ProtocolError as exc:
        # drawn fields too long to frame (the round-trip test checks that refusal)
        assert exc.reason == "too_long", exc
        assume(False)
    at = data.draw(st.integers(0, len(line) - 2))  # keep the newline
    new = data.draw(st.integers(0, 255).filter(lambda b: b != line[at] and b != 10))
    line[at] = new
    try:
        protocol.decode(bytes(line))
    except protocol.ProtocolError:
        return
    raise AssertionError("a damaged line was accepted: %r" % bytes(line))


@given(st.binary(max_size=400))
def test_random_bytes_only_ever_raise_protocol_error(data):
    try:
        protocol.decode(data)
    except protocol.ProtocolError as exc:
        assert exc.reason


@given(st.lists(st.binary(max_size=300), max_size=8))
def test_firmware_line_assembly_never_crashes(chunks):
    reader = LineReader()
    for chunk in chunks:
        for b in chunk + b"\n":
            line = reader.feed(b)
            if line is not None and line != LineReader.TOO_LONG:
                msg, reason = parse_line(line)
                assert msg is None or reason is None


def _framed(msg):
    """The wire line of a drawn message, or ``b""`` for one drawn too long to frame."""
    try:
        return protocol.encode(msg[0], msg[1], **msg[2])
    except protocol.ProtocolError as exc:
        assert exc.reason == "too_long", exc
        return b""


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=60,
          deadline=None)
@given(st.lists(st.binary(max_size=300) | messages().map(_framed), max_size=12))
def test_host_link_survives_any_byte_stream(chunks):
    link = Link("loop://")  # never opened: its per-line path alone, fed directly
    bad = 0
    for chunk in chunks:
        link.feed(chunk)
        for line in chunk.split(b"\n")[:-1]:
            try:
                protocol.decode(line)
            except protocol.ProtocolError:
                bad += 1 if line.strip() else 0
    assert link.stats["bad_lines"] >= bad  # every damaged whole line was counted, none crashed it
    for event in link.pending_events():
        assert event.kind in ("die", "nodie", "double", "unknown", "fault", "gap")

