"""Wire protocol: one encode and one decode test per message (docs/protocol.md table),
framing checks, and rejection of damaged lines with a reason."""

import binascii

import pytest
from camelup.board import protocol
from camelup.board.protocol import Message, ProtocolError

B = "1A2B3C4D"

# (table key, fields, exact body on the wire) -- one row per message of docs/protocol.md
CASES = [
    (
        "HELLO",
        dict(proto=1, fw="0.1.0", uid="E66141040327582E", boot=B, seq=12, oldest=1, ed="second", sensor="ok", vb=False, prev=None),
        "HELLO proto=1 fw=0.1.0 uid=E66141040327582E boot=1A2B3C4D seq=12 oldest=1 ed=second sensor=ok vb=0 prev=-",
    ),
    (
        "EVT die",
        dict(seq=7, boot=B, col="grey", ink="black", val=None, m=312, raw=(1200, 400, 410, 380)),
        "EVT 7 die boot=1A2B3C4D col=grey ink=black val=? m=312 raw=1200,400,410,380",
    ),
    ("EVT nodie", dict(seq=8, boot=B), "EVT 8 nodie boot=1A2B3C4D"),
    ("EVT double", dict(seq=9, boot=B, raw=(9, 8, 7, 6)), "EVT 9 double boot=1A2B3C4D raw=9,8,7,6"),
    (
        "EVT unknown",
        dict(seq=10, boot=B, best="orange", val=2, raw=(1, 2, 3, 4)),
        "EVT 10 unknown boot=1A2B3C4D best=orange val=2 raw=1,2,3,4",
    ),
    ("EVT fault", dict(seq=11, boot=B, code="eio"), "EVT 11 fault boot=1A2B3C4D code=eio"),
    ("HB", dict(boot=B, seq=11, up=3600, sensor="fault"), "HB boot=1A2B3C4D seq=11 up=3600 sensor=fault"),
    ("GAP", dict(first=3, last=5, boot=B), "GAP 3 5 boot=1A2B3C4D"),
    ("SYNCED", dict(seq=11, boot=B), "SYNCED 11 boot=1A2B3C4D"),
    ("PONG", dict(token="p42"), "PONG p42"),
    ("INFO", dict(impl="micropython", mp="1.24.1", mpy=3078, sl=False), "INFO impl=micropython mp=1.24.1 mpy=3078 sl=0"),
    ("INFO", dict(impl="micropython", mp="1.28.0", mpy=6, cal=True, pit=7, pgain=16, floor=873),
     "INFO impl=micropython mp=1.28.0 mpy=6 cal=1 pit=7 pgain=16 floor=873"),
    (
        "RAW",
        dict(on=(500, 200, 150, 100), off=(50, 20, 15, 10), label="red", m=250),
        "RAW on=500,200,150,100 off=50,20,15,10 label=red m=250",
    ),
    ("SAMPLE", dict(token="c1", on=(1, 2, 3, 4), off=(0, 0, 0, 0)), "SAMPLE c1 on=1,2,3,4 off=0,0,0,0"),
    ("CFG", dict(ed="classic", it=24, gain=16, vb=True), "CFG ed=classic it=24 gain=16 vb=1"),
    ("OK", dict(cmd="SAVE", n=812), "OK SAVE n=812"),
    ("NAK", dict(reason="crc"), "NAK crc"),
    ("HELLO?", dict(), "HELLO?"),
    ("HI", dict(proto=1, boot=B, seq=3, prev=("5E6F7081", 9), acked=2), "HI proto=1 boot=1A2B3C4D seq=3 prev=5E6F7081:9 acked=2"),
    ("SYNC", dict(seq=0), "SYNC 0"),
    ("ACK", dict(seq=4, boot=B), "ACK 4 boot=1A2B3C4D"),
    ("PING", dict(token="abc"), "PING abc"),
    ("INFO?", {}, "INFO?"),
    ("STREAM", dict(period=100), "STREAM 100"),
    ("CAL", dict(token="c7"), "CAL c7"),
    ("SET", dict(ed="second", gain=4), "SET ed=second gain=4"),
    ("PROF", dict(offset=96, chunk='{"a": [1, 2]}'), 'PROF 96 {"a": [1, 2]}'),
    ("SAVE", dict(length=812, crc="0A1B2C3D"), "SAVE 812 0A1B2C3D"),
    ("OUT", dict(mask=24), "OUT 24"),
]


def _split(key):
    parts = key.split(" ")
    return parts[0], (parts[1] if len(parts) > 1 else None)


def _line(body):
    crc = "%08X" % (binascii.crc32(body.encode()) & 0xFFFFFFFF)
    return (body + "*" + crc + "\n").encode()


def test_info_carries_the_free_heap_when_the_board_gives_it():
    line = protocol.encode("INFO", impl="micropython", mp="1.28.0", mpy=2822, sl=False, heap=190880)
    assert line == _line("INFO impl=micropython mp=1.28.0 mpy=2822 sl=0 heap=190880")
    assert protocol.decode(line)["heap"] == 190880
    assert "heap" not in protocol.decode(_line("INFO impl=micropython mp=1.28.0 mpy=2822 sl=0")).fields


def test_every_message_of_the_table_has_a_case():
    assert sorted(set(c[0] for c in CASES)) == sorted(protocol.MESSAGES)


def test_info_carries_the_floor_when_the_board_has_one():
    line = _line("INFO impl=micropython mp=1.28.0 mpy=6 floor=400")
    assert protocol.decode(line)["floor"] == 400
    assert "floor" not in protocol.decode(_line("INFO impl=micropython mp=1.28.0 mpy=6")).fields


@pytest.mark.parametrize("key,fields,body", CASES, ids=[c[0] for c in CASES])
def test_encode(key, fields, body):
    name, kind = _split(key)
    assert protocol.encode(name, kind, **fields) == _line(body)


@pytest.mark.parametrize("key,fields,body", CASES, ids=[c[0] for c in CASES])
def test_decode(key, fields, body):
    name, kind = _split(key)
    assert protocol.decode(_line(body)) == Message(name, fields, kind)


def test_crc_is_zlib_crc32_in_uppercase_hex():
    # the worked example of the firmware notes: identical in CPython and MicroPython
    assert protocol.frame("EVT 1 DIE red 3") == b"EVT 1 DIE red 3*C88E11DA\n"


def test_decoder_ignores_unknown_keyed_fields_from_newer_devices():
    msg = protocol.decode(_line("HB boot=1A2B3C4D seq=3 up=1 sensor=ok temp=31"))
    assert msg.fields == dict(boot=B, seq=3, up=1, sensor="ok")


def test_crlf_and_bare_line_ends_are_accepted():
    line = _line("PING x")
    assert protocol.decode(line[:-1]) == protocol.decode(line[:-1] + b"\r\n") == Message("PING", {"token": "x"})


# every damaged line is rejected with its reason
DAMAGED = [
    (b"", "empty"),
    (b"\n", "empty"),
    (b"PING abc\n", "no_crc"),
    (b"PING abc*1234\n", "no_crc"),
    (b"PING abc*0000zz00\n", "no_crc"),
    (_line("PING abc").replace(b"abc", b"abd"), "crc"),
    (_line("PING abc").lower(), "no_crc"),  # lower-case hex is not the wire format
    (b"PING \x00bc*00000000\n", "bad_byte"),
    (b"PING \x03bc*00000000\n", "bad_byte"),
    ("PING é*00000000\n".encode(), "bad_byte"),
    (b"X" * (protocol.MAX_LINE + 1), "too_long"),
    (_line("FROB 1"), "unknown"),
    (_line("EVT 3 explode boot=1A2B3C4D"), "unknown"),
    (_line("EVT 3"), "field"),
    (_line("SYNC"), "field"),
    (_line("SYNC -1"), "field"),
    (_line("SYNC 007"), "field"),
    (_line("SYNC 99999999999"), "field"),
    (_line("SYNC 1 2"), "field"),
    (_line("HB boot=1A2B3C4D seq=1 up=1"), "field"),
    (_line("HB boot=1a2b3c4d seq=1 up=1 sensor=ok"), "field"),
    (_line("HB boot=1A2B3C4D seq=1 seq=2 up=1 sensor=ok"), "field"),
    (_line("EVT 1 die boot=1A2B3C4D col=red val=4 m=1 raw=1,2,3,4"), "field"),
    (_line("EVT 1 die boot=1A2B3C4D col=red val=1 m=1 raw=1,2,3"), "field"),
    (_line("EVT 1 die boot=1A2B3C4D col=red val=1 m=1 raw=1,2,3,70000"), "field"),
    (_line("HELLO proto=1 fw=0.1 uid=ABC boot=1A2B3C4D seq=1 oldest=1 ed=x sensor=ok vb=0 prev=-"), "field"),
    (_line("HELLO proto=1 fw=0.1 uid=AB boot=1A2B3C4D seq=1 oldest=1 ed=x sensor=ok vb=2 prev=-"), "field"),
]


@pytest.mark.parametrize("line,reason", DAMAGED, ids=[str(i) for i in range(len(DAMAGED))])
def test_damaged_lines_are_rejected_with_a_reason(line, reason):
    with pytest.raises(ProtocolError) as info:
        protocol.decode(line)
    assert info.value.reason == reason
    assert isinstance(info.value, ValueError)


def test_encoder_refuses_bad_fields():
    with pytest.raises(ProtocolError, match="val"):
        protocol.encode("EVT", "die", seq=1, boot=B, col="red", val=4, m=0, raw=(0, 0, 0, 0))
    with pytest.raises(ProtocolError, match="needs boot"):
        protocol.encode("EVT", "nodie", seq=1)
    with pytest.raises(ProtocolError, match="col"):
        protocol.encode("EVT", "die", seq=1, boot=B, col="dark red", val=1, m=0, raw=(0, 0, 0, 0))
    with pytest.raises(ProtocolError) as info:
        protocol.encode("PROF", offset=0, chunk="x" * protocol.MAX_BODY)
    assert info.value.reason == "too_long"
    with pytest.raises(ProtocolError):
        protocol.encode("PROF", offset=0, chunk="tab\there")
    with pytest.raises(ProtocolError) as info:
        protocol.encode("WHAT")
    assert info.value.reason == "unknown"


def test_longest_messages_fit_in_a_line():
    worst_hello = dict(
        proto=99, fw="10.20.30-dev", uid="F" * 16, boot="F" * 8, seq=4294967295, oldest=4294967295,
        ed="classic", sensor="missing", vb=True, prev=("F" * 8, 4294967295),
    )
    assert len(protocol.encode("HELLO", **worst_hello)) <= protocol.MAX_LINE
    worst_die = dict(seq=4294967295, boot=B, col="purple", ink="white", val=3, m=999999, raw=(65535,) * 4)
    assert len(protocol.encode("EVT", "die", **worst_die)) <= protocol.MAX_LINE
