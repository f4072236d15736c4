"""The table's events as typed values (``camelhost.table.events``): the one conversion
from the link's ``DieEvent``, the journal line each is written as (old lines still
read), one shape check each."""

import pytest
from camelhost.device.events import DieEvent, SeqRange, decode
from camelhost.device.sequencer import Sequencer
from camelhost.table import events
from camelhost.table.errors import TableError
from camelup.board import protocol


def test_a_die_from_the_link_becomes_the_tables_die_once():
    die = events.from_link(DieEvent("die", "0A0B0C0D", 4, "EVT 4 die col=red val=2*X",
                                    colour="red", value=2, margin=3.5))
    assert die == events.Die(colour="red", value=2, raw="EVT 4 die col=red val=2*X",
                             boot="0A0B0C0D", seq=4, source="pyramid")
    assert die.key == ("0A0B0C0D", 4)
    assert str(die.action()) == "pyramid red 2"
    grey = events.from_link(DieEvent("die", "B", 5, "r", colour="grey", ink="white", value=1))
    assert str(grey.action()) == "pyramid grey white 1"


def test_a_die_decoded_from_its_line_is_the_tables_die_and_journals_as_before():
    # one form from the wire to the game's door (issue 27): the link's decoded die, handed
    # on by the sequencer, is the table's die itself, and its journal line is unchanged
    seq = Sequencer(resume=("0A0B0C0D", 0))
    seq.opened(0.0)
    seq.receive(decode(protocol.encode("HI", proto=1, boot="0A0B0C0D", seq=0, prev=None, acked=0)), 0.01)
    line = protocol.encode("EVT", "die", seq=1, boot="0A0B0C0D", col="grey", ink="white",
                           val=2, m=250, raw=(9, 8, 7, 6))
    decoded = decode(line)
    delivered, _lines = seq.receive(decoded, 0.02, line.decode().rstrip())
    assert delivered == [decoded]
    die = events.from_link(delivered[0])
    assert die is decoded and isinstance(die, events.Die) and die.kind == "die"
    assert die.to_json() == {"type": "die", "colour": "grey", "ink": "white", "value": 2,
                             "raw": line.decode().rstrip(), "boot": "0A0B0C0D", "seq": 1,
                             "source": "pyramid"}
    assert list(die.to_json()) == ["type", "colour", "ink", "value", "raw", "boot", "seq",
                                   "source"]
    assert events.from_json(die.to_json()) == die
    assert str(die.action()) == "pyramid grey white 2"


def test_an_unread_grey_die_is_the_grey_die_with_its_ink_to_key():
    die = events.from_link(DieEvent("unknown", "B", 6, "r", best="grey-black", value=3))
    assert isinstance(die, events.Die) and die.ink_unsure
    assert (die.colour, die.ink, die.value, die.best) == ("grey", None, 3, "grey-black")
    assert str(die.keyed(ink="black").action()) == "pyramid grey black 3"


@pytest.mark.parametrize("kind", ["double", "nodie", "unknown"])
def test_a_release_the_table_cannot_use(kind):
    out = events.from_link(DieEvent(kind, "B", 7, "EVT 7", best="none"))
    assert out == events.Release(kind=kind, raw="EVT 7", boot="B", seq=7, best="none")


def test_gap_and_fault():
    gap = events.from_link(DieEvent("gap", "B", 2, "", missing=SeqRange(2, 4000)))
    assert gap == events.Gap(missing="2..4000", raw="")
    assert events.from_link(DieEvent("gap", "B", 2, "", missing=(2, 3))).missing == "2, 3"
    assert events.from_link(DieEvent("fault", "B", 3, "x", code="eio")) == \
        events.Fault(code="eio")
    # the link that failed for good: its reason in raw (camelhost.device.open)
    assert events.from_link(DieEvent("fault", None, None, raw="port gone")).reason == \
        "port gone"


def test_an_unknown_kind_is_one_clear_line():
    with pytest.raises(TableError, match="does not know: 'boom'"):
        events.from_link(DieEvent("boom", "B", 1))


#: Journal lines as the table has written them (old and new journals alike).
LINES = [
    {"type": "die", "colour": "red", "ink": None, "value": 2, "raw": "EVT 1 ...",
     "boot": "B", "seq": 1, "source": "pyramid"},
    {"type": "die", "colour": "grey", "ink": None, "value": 3, "raw": "EVT 2 ...",
     "boot": "B", "seq": 2, "source": "pyramid", "best": "grey-white"},
    {"type": "die", "kind": "die", "colour": "blue", "ink": None, "value": None,
     "raw": "blue ?", "source": "typed", "player": 1},
    {"type": "setup", "how": "drawn", "stacks": {"1": ["blue"]}},
    {"type": "action", "player": 0, "action": "leg red"},
    {"type": "pyramid", "player": 2},
    {"type": "ink", "ink": "white"},
    {"type": "ink", "ink": None, "again": True},
    {"type": "value", "value": 3},
    {"type": "rejected", "kind": "double", "reason": "double", "raw": "EVT 3",
     "colour": None, "ink": None, "value": None, "boot": "B", "seq": 3},
    {"type": "correction", "stacks": {"7": ["red", "blue"]}},
    {"type": "undo"},
    {"type": "undo", "steps": 3},
    {"type": "unscored"},
    {"type": "race"},
]


@pytest.mark.parametrize("line", LINES, ids=[line["type"] for line in LINES])
def test_every_journal_line_reads_and_writes_back_the_same(line):
    event = events.from_json(line)
    assert event.TYPE == line["type"]
    assert event.to_json() == line


@pytest.mark.parametrize("line,words", [
    ({"type": "die", "colour": 7, "value": 2}, "a die's colour is a word"),
    ({"type": "die", "colour": "red", "value": "2"}, "a die's value is a number"),
    ({"type": "die", "colour": "grey", "ink": "pink", "value": 2}, "black or white"),
    ({"type": "action", "player": "Ann", "action": "leg red"}, "a seat is a number"),
    ({"type": "dance"}, "unknown journal event 'dance'"),
    (["die"], "an event is a dict with a type"),
])
def test_a_line_of_the_wrong_shape_is_refused_in_one_line(line, words):
    with pytest.raises(TableError, match=words) as info:
        events.from_json(line)
    assert "\n" not in str(info.value)


def test_a_line_of_the_wrong_shape_is_refused_in_german():
    from camelhost.i18n import set_language
    set_language("de")
    with pytest.raises(TableError) as info:
        events.from_json({"type": "action", "player": "Ann", "action": "leg red"})
    assert str(info.value) == "ein Platz ist eine Zahl: 'Ann'"


def test_events_are_frozen():
    die = events.Die(colour="red", value=1)
    with pytest.raises(AttributeError):
        die.value = 3
