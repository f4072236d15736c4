"""Dim readings reported as dim (issue 32): the firmware marks an event whose clear
count is under its profile's floor (``dim=1`` on the EVT line, docs/protocol.md),
the host's link keeps the mark, the table says the sensor saw too little light
instead of "the colour could not be read", and ``pyramid monitor`` shows it."""

import io

import pytest
from camelhost.device.events import DieEvent, decode
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.tools import monitor
from camelhost.ui.plain import PlainDisplay
from camelup.board import classifier, protocol

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def test_an_evt_line_carries_dim_and_a_line_without_it_is_not_dim():
    line = protocol.encode("EVT", kind="unknown", seq=7, boot="0000ABCD", best="purple",
                           val=None, raw=(14, 4, 3, 5), dim=True)
    assert b" dim=1*" in line
    msg = decode(line)
    assert msg.fields["dim"] is True and msg.dim is True
    # what an older firmware sends: no dim field, parsed as before, and not dim
    old = protocol.encode("EVT", kind="unknown", seq=8, boot="0000ABCD", best="purple",
                          val=None, raw=(14, 4, 3, 5))
    assert b"dim" not in old
    msg = decode(old)
    assert "dim" not in msg.fields and msg.dim is False
    for kind, fields in (("die", {"col": "red", "val": 2, "m": 501, "raw": (15, 9, 2, 2)}),
                         ("double", {"raw": (30, 12, 8, 9)})):
        got = protocol.decode(protocol.encode("EVT", kind=kind, seq=9, boot="0000ABCD",
                                                  dim=True, **fields))
        assert got.fields["dim"] is True


def _table():
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None))
    table = Table(session, PlainDisplay(out))
    table.start()
    table.line(SETUP)
    return table, out


@pytest.mark.parametrize("dim, says", [(True, "the sensor saw too little light"),
                                       (False, "the colour could not be read")])
def test_the_table_says_the_sensor_saw_too_little_light(dim, says):
    table, out = _table()
    start = len(out.getvalue())
    table.pyramid_event(DieEvent("unknown", "B1", 1, raw="EVT 1 unknown*0", best="purple",
                                 dim=dim))
    said = out.getvalue()[start:]
    assert "RETURN THE DICE AND RELEASE AGAIN (%s)" % says in said, said


def test_monitor_shows_a_dim_event():
    dim = DieEvent("unknown", "0000ABCD", 3, best="purple", dim=True)
    assert "the sensor saw too little light" in monitor.format_event(dim)
    plain = DieEvent("unknown", "0000ABCD", 4, best="purple")
    assert "too little light" not in monitor.format_event(plain)


@pytest.mark.hil
@pytest.mark.micropython
def test_the_firmware_marks_a_release_under_the_floor_as_dim(micropython):
    """The virtual pyramid at 2.4 ms and gain 1 with its built-in second-edition profile
    (floor about 39 counts, two dice counted): the purple die (about 14 counts of
    clear) comes out marked dim, the yellow one (about 55) does not; the host's link
    keeps the mark."""
    with monitor.connect("virtual", edition="second", seed=7) as pyramid:
        vp = pyramid.virtual
        pyramid.link.configure(integration_ms=3, gain=1)  # 2.4 ms, one step
        seen = {}
        for _ in range(len(vp.dice_inside)):
            released = vp.release()
            seen[released.dice[0][0]] = released.event
        events = {(e.boot, e.seq): e for e in pyramid.link.pending_events()}
    floor = classifier.default_profile("second")["floor"]
    purple, yellow = seen["purple"], seen["yellow"]
    assert purple["raw"][0] < floor and purple.get("dim") is True, purple
    assert yellow["raw"][0] >= floor and "dim" not in yellow.fields, yellow
    assert events[(purple["boot"], purple["seq"])].dim is True
    assert events[(yellow["boot"], yellow["seq"])].dim is False


@pytest.mark.parametrize("dim", [True, False])
def test_a_named_die_read_in_little_light_gets_a_short_note_and_still_moves(dim):
    """Maker finding 6b: a die the pyramid named under its light floor (``dim=1``) said
    nothing; now one line says the sensor saw little light, and the die counts."""
    table, out = _table()
    start = len(out.getvalue())
    table.pyramid_event(DieEvent("die", "B1", 1, raw="EVT 1 die*0", colour="blue", value=2,
                                 dim=dim))
    said = out.getvalue()[start:]
    note = ("the sensor saw little light on the blue die (it counts; more light keeps such "
            "readings from being refused: pyramid doctor checks it)")
    assert (note in said) is dim, said
    assert table.session.game.dice_out == ["blue"], said
