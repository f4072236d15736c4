"""The grey die's label has one source (s36): ``grey-black`` (the grey die, black
numerals, RULES 3.1) is written by ``camelup.editions.die_label`` and taken apart by
``camelup.editions.split_die_label`` / ``is_grey_label`` only: the calibration, the rules
engine reading a typed label, the board naming the die it read and the dice it judges
among, the maker console."""

import asyncio
import sys

import pytest
from camelhost import paths
from camelup import calibration, editions
from camelup.actions import parse_action

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

# --- the label: one source, taken apart by its inverse ---


def test_every_label_of_both_editions_comes_apart_into_what_made_it():
    for edition in editions.EDITIONS.values():
        for label in edition.sensor_labels + edition.dice:
            colour, ink = editions.split_die_label(label)
            assert editions.die_label(colour, ink) == label
            assert editions.is_grey_label(label) == (colour == editions.GREY)
            assert colour in edition.dice and (ink is None or ink in editions.INKS)
    assert editions.split_die_label("grey-white") == ("grey", "white")
    assert editions.split_die_label("red") == ("red", None)
    assert editions.split_die_label("grey") == ("grey", None)
    assert not editions.is_grey_label("red") and not editions.is_grey_label("empty")
    assert calibration.split_label is editions.split_die_label


def test_the_calibration_counts_either_ink_as_the_grey_die():
    assert calibration.same_die("grey-black", "grey-white")
    assert calibration.same_die("grey-white", "grey-white")
    assert not calibration.same_die("grey-black", "black")
    assert not calibration.same_die("red", "grey-black")


@pytest.mark.parametrize("typed, action", [
    ("pyramid grey black 2", "pyramid grey black 2"),  # the notation, as before
    ("pyramid grey-black 2", "pyramid grey black 2"),
    ("pyramid Grey-White 1", "pyramid grey white 1"),
    # was refused: 'gray' became 'grey' after the label was split ("unknown camel colour")
    ("pyramid gray-white 1", "pyramid grey white 1"),
    ("gray-black 3", "pyramid grey black 3"),
])
def test_the_rules_engine_reads_the_grey_die_by_its_label(typed, action):
    assert str(parse_action(typed)) == action


class _Reading:
    """A sensor whose every reading the classifier refuses alone."""

    sample_ms = None

    def __init__(self):
        self.last_on = self.last_off = (0, 0, 0, 0)

    async def sample_async(self):
        await asyncio.sleep(0.001)
        return (500, 100, 100, 100)


class _LastAmong:
    """A classifier that refuses every reading alone and, judged among the dice still in
    the pyramid (``OUT``), names the last of them in the edition's order: the labels the
    board judges among, seen on the wire."""

    profile = {"classes": {label: {} for label in editions.SECOND.sensor_labels}}

    def classify(self, reading):
        return "unknown", 0.0

    def among(self, labels):
        return tuple(labels)

    def classify_in_play(self, reading, among):
        return among[-1], 5.0, {"prior": True, "best": [among[-1]]}


def test_the_board_leaves_both_inks_out_with_the_grey_die_and_reports_its_ink():
    from test_firmware_units import _events, _make_app, _push, _until

    grey = 1 << editions.SECOND.dice.index("grey")
    red = 1 << editions.SECOND.dice.index("red")

    async def scenario():
        a, slider, port = _make_app({"content": "red", "fail": None}, edition="second",
                                    release_timeout_ms=60)
        a.classifier, a.sensor = _LastAmong(), _Reading()
        task = asyncio.create_task(a.main())
        for n, mask in enumerate((grey, red), 1):
            port.host("OUT", mask=mask)
            await _until(lambda n=n: len([m for m in port.lines if m.name == "OK"]) >= n)
            await _push(slider, port, n)
        task.cancel()
        return port

    port = asyncio.run(scenario())
    got = [(m.kind, m.get("col"), m.get("ink"), m.get("out")) for m in _events(port)]
    # the grey die out: neither grey-black nor grey-white is judged among, purple is last
    assert got == [("die", "purple", None, grey), ("die", "grey", "white", red)], got
