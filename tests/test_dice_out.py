"""The dice out this leg, from the table to the pyramid and back (issue 32; docs/classifier.md
"In play", docs/protocol.md ``OUT``): the table tells the board after every journal write
(``camelhost.table.prior.DiceOut``), the board judges a reading it refuses alone once more
among the dice still in the pyramid and says so (``out=``), and the table takes such a die
only while the mask is the leg's (undo, resume)."""

import asyncio
import io
import sys

from camelhost import paths
from camelhost.device.events import decode, out_dice, out_mask
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.prior import DiceOut
from camelhost.table.session import Session
from camelhost.tools.monitor import format_event
from camelhost.ui.plain import PlainDisplay
from camelup import calibration
from camelup.board import classifier as C
from camelup.board import protocol
from camelup.editions import get_edition
from test_classifier_among import BETWEEN, CLOSE, SETTINGS, _counted
from test_firmware_units import _events, _make_app, _push, _until

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

SECOND = get_edition("second")
BOOT = "0A9B0E33"


class FakeLink:
    def __init__(self):
        self.sent = []

    def send(self, name, **fields):
        self.sent.append((name, fields))


def _die(seq, colour, out=None):
    line = protocol.encode("EVT", "die", seq=seq, boot=BOOT, col=colour, val=2, m=120,
                           raw=(17, 13, 2, 1), out=out)
    event = decode(line[:-1])
    event.raw = line[:-1].decode()
    return event


def _table(journal=None):
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=journal or Journal(None))
    table = Table(session, PlainDisplay(out), manual=False)
    link = FakeLink()
    table.seam.subscribe(DiceOut(link))
    table.start()
    table.line("draw")
    return table, out, link


def _said(out, since):
    return out.getvalue()[since:]


def test_the_mask_names_the_editions_dice_in_order():
    assert out_mask(SECOND, ["red"]) == 8 and out_mask(SECOND, ["grey", "blue"]) == 33
    assert out_dice(SECOND, 8 + 16) == ["red", "purple"]


def test_a_die_named_among_the_dice_in_is_taken_and_said_while_the_mask_is_the_legs():
    table, out, link = _table()
    g = table.session.game
    table.pyramid_event(_die(1, "red"))
    assert g.dice_out == ["red"] and link.sent[-1] == ("OUT", {"mask": 8})
    since = len(out.getvalue())
    table.pyramid_event(_die(2, "purple", out=8))
    assert g.dice_out == ["red", "purple"]
    assert "the pyramid read the purple die among the dice still in it (red already out this leg)" \
        in _said(out, since)
    assert link.sent[-1] == ("OUT", {"mask": 24})
    since = len(out.getvalue())
    table.pyramid_event(_die(3, "yellow", out=8))  # judged with the mask before purple: stale
    assert g.dice_out == ["red", "purple"]
    assert "the colour could not be read" in _said(out, since), _said(out, since)


def test_a_die_that_is_out_is_refused_saying_so():
    table, out, _link = _table()
    table.pyramid_event(_die(1, "red"))
    since = len(out.getvalue())
    table.pyramid_event(_die(2, "red"))  # a perfect red reading: red is out this leg
    assert table.session.game.dice_out == ["red"]
    # it stays out of the pyramid: taken out, not every die returned (tester s33-2, 9)
    assert ("TAKE THE RED DIE OUT OF THE PYRAMID (it came out this leg) AND RELEASE AGAIN"
            in _said(out, since)), _said(out, since)


def test_undo_tells_the_pyramid_and_a_die_judged_before_it_is_read_again():
    table, out, link = _table()
    table.pyramid_event(_die(1, "red"))
    table.pyramid_event(_die(2, "purple", out=8))
    assert link.sent[-1] == ("OUT", {"mask": 24})
    table.line("undo")
    assert table.session.game.dice_out == ["red"]
    assert link.sent[-1] == ("OUT", {"mask": 8})
    since = len(out.getvalue())
    table.pyramid_event(_die(3, "yellow", out=24))  # judged while purple was out: stale now
    assert table.session.game.dice_out == ["red"]
    assert "the colour could not be read" in _said(out, since)
    table.pyramid_event(_die(4, "purple", out=8))
    assert table.session.game.dice_out == ["red", "purple"]


def test_a_resumed_table_tells_the_pyramid_the_legs_dice_out(tmp_path):
    path = tmp_path / "g.jsonl"
    table, _out, _link = _table(Journal(str(path)))
    table.pyramid_event(_die(1, "red"))
    table.pyramid_event(_die(2, "purple", out=8))
    table.session.journal.close()
    journal = Journal.resume(str(path), check=Session.stale_line)
    session = Session.resume(journal)
    again = Table(session, PlainDisplay(io.StringIO()), manual=False)
    link = FakeLink()
    again.seam.subscribe(DiceOut(link))
    assert link.sent == [("OUT", {"mask": 24})]
    journal.close()


def test_the_monitor_says_a_die_was_named_among_the_dice_in():
    assert "named among the dice still in the pyramid (out this leg: red)" in format_event(
        _die(2, "purple", out=8), "second")
    assert "among" not in format_event(_die(2, "purple"))


# --- on the board: the App judges a refused reading among the dice the host said are in ---


class _Between:
    """A sensor whose every reading lies between the red and the purple die."""

    sample_ms = None

    def __init__(self):
        self.last_on = self.last_off = (0, 0, 0, 0)

    async def sample_async(self):
        await asyncio.sleep(0.001)
        return BETWEEN


def test_the_board_names_a_refused_reading_among_the_dice_the_host_says_are_in():
    cal = {label: _counted(mean, 120, seed) for seed, (label, mean) in enumerate(sorted(CLOSE.items()))}
    clf = C.Classifier(calibration.fit(cal, "second", SETTINGS))

    async def scenario():
        a, slider, port = _make_app({"content": "red", "fail": None}, edition="second",
                                    release_timeout_ms=60)
        a.classifier, a.sensor = clf, _Between()
        task = asyncio.create_task(a.main())

        async def told(mask, n):  # the board answered the n-th OUT
            port.host("OUT", mask=mask)
            await _until(lambda: len([m for m in port.lines if m.name in ("OK", "NAK")]) >= n)

        await _push(slider, port, 1)  # nothing said: refused between red and purple
        await told(8, 1)  # red is out this leg
        await _push(slider, port, 2)
        await told(16, 2)  # purple is out instead (an undo, another leg)
        await _push(slider, port, 3)
        await told(0, 3)
        await _push(slider, port, 4)
        await told(63, 4)  # every die: refused, the mask kept
        await _push(slider, port, 5)
        task.cancel()
        return a, port

    a, port = asyncio.run(scenario())
    got = [(m.kind, m.get("col") or m.get("best"), m.get("out")) for m in _events(port)]
    assert got == [("unknown", "red", None), ("die", "purple", 8), ("die", "red", 16),
                   ("unknown", "red", None), ("unknown", "red", None)], got
    oks = [(m.name, m.get("cmd"), m.get("n"), m.get("reason")) for m in port.lines
           if m.name in ("OK", "NAK")]
    assert oks == [("OK", "OUT", 8, None), ("OK", "OUT", 16, None), ("OK", "OUT", 0, None),
                   ("NAK", None, None, "range")]


def test_the_table_and_the_board_together_name_the_die_the_leg_allows():
    """The table's ``DiceOut`` writes to the board's port, the board's events go to the
    table as the link decodes them: a red die, then a reading between red and purple is
    named purple (said), then a perfect red reading is refused (red is out)."""
    cal = {label: _counted(mean, 120, seed) for seed, (label, mean) in enumerate(sorted(CLOSE.items()))}
    clf = C.Classifier(calibration.fit(cal, "second", SETTINGS))
    red = next(r for r in _counted(CLOSE["red"], 300, 12) if clf.classify(r)[0] == "red")
    out = io.StringIO()
    table = Table(Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None)),
                  PlainDisplay(out), manual=False)

    class Sensor(_Between):
        reading = BETWEEN

        async def sample_async(self):
            await asyncio.sleep(0.001)
            return self.reading

    async def scenario():
        a, slider, port = _make_app({"content": "red", "fail": None}, edition="second",
                                    release_timeout_ms=60)
        sensor = Sensor()
        a.classifier, a.sensor = clf, sensor

        class PortLink:
            def send(self, name, **fields):
                port.host(name, **fields)

        task = asyncio.create_task(a.main())
        table.seam.subscribe(DiceOut(PortLink()))
        table.start()
        table.line("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
        for n, (reading, value) in enumerate(((red, "2"), (BETWEEN, "3"), (red, None)), 1):
            table.line("pyramid")
            await _until(lambda: a.out == out_mask(SECOND, table.session.game.dice_out))
            sensor.reading = reading
            await _push(slider, port, n)
            event = _events(port)[n - 1]
            line = protocol.encode(event.name, event.kind, **event.fields)[:-1]
            got = decode(line)
            got.raw = line.decode()
            table.pyramid_event(got)
            if value:
                table.line(value)
        task.cancel()
        return port

    port = asyncio.run(scenario())
    assert [(m.get("col"), m.get("out")) for m in _events(port)] == [("red", None), ("purple", 8),
                                                                     ("red", None)]
    assert table.session.game.dice_out == ["red", "purple"]
    said = out.getvalue()
    assert "the pyramid read the purple die among the dice still in it (red already out this leg)" in said
    assert "TAKE THE RED DIE OUT OF THE PYRAMID (it came out this leg) AND RELEASE AGAIN" in said
