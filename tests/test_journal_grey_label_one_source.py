"""A damaged die line is recovered with the grey die's label written by its one source,
``camelup.editions.die_label`` (``LABEL_JOIN``, RULES 3.1): the journal tries each die a
damaged line could have held, its pyramid record's ``col=`` rewritten with that die's
label, and the next line's chain hash proves the one it held (s36: the journal joined
the grey die's label by hand, so a label joined as the editions join it was never
proven, and the refusal offered no die to type again)."""

import pytest
from camelhost.device.events import Die
from camelhost.table.journal import Journal, JournalError
from camelhost.table.session import Session
from camelup import editions

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _journal_with_a_grey_die(path, join):
    """A journal (the grey die from the pyramid on Ann's pyramid ticket, then Ben's leg
    ticket) whose die line's pyramid record names the die by its label; its bytes."""
    journal = Journal(str(path), pyramid="virtual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    s.command(SETUP)
    s.command("pyramid")
    label = editions.die_label("grey", "black")
    assert label == "grey%sblack" % join
    # a record without a CRC of its own: only the chain hash can prove the line
    s.feed(Die(colour="grey", ink="black", value=2, raw="EVT die seq=3 col=%s val=2" % label,
               boot="0A9B0E33", seq=3, source="pyramid"))
    s.command("leg blue")
    journal.close()
    return path.read_bytes()


@pytest.mark.parametrize("join", ["-", "/"])
def test_a_damaged_grey_die_line_is_proven_with_the_label_the_editions_write(
        tmp_path, monkeypatch, join):
    monkeypatch.setattr(editions, "LABEL_JOIN", join)
    path = tmp_path / "g.jsonl"
    data = _journal_with_a_grey_die(path, join)
    lines = data.splitlines(keepends=True)
    line = next(i for i, x in enumerate(lines, 1) if b'"type":"die"' in x)
    # the record's value and the line's own both damaged: no field reads the die
    damaged = lines[line - 1].replace(b"val=2", b"val=3").replace(b'"value":2', b'"value":3')
    assert damaged != lines[line - 1]
    lines[line - 1] = damaged
    path.write_bytes(b"".join(lines))
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), check=Session.stale_line, options=["--plain"])
    said = str(refused.value)
    assert "the next line's chain hash proves it held the die grey black 2" in said, said
    assert path.read_bytes() == b"".join(lines)  # untouched


class _GreyPyramid:
    """The virtual pyramid's slider: every push lets the grey die (black numerals) fall,
    named by its label as the virtual pyramid names what fell."""

    virtual = None

    def __init__(self):
        from camelhost.device.emulated import sim_table
        self.table = sim_table.Table("second", 9)
        self.table.inside.remove("grey")
        self.table.out.append("grey")

    def release(self):
        import types
        return types.SimpleNamespace(dice=[(editions.die_label("grey", "black"), 2)])

    def return_dice(self):
        pass


@pytest.mark.parametrize("join", ["-", "/"])
def test_a_late_grey_die_goes_back_by_its_colour_whatever_the_join(monkeypatch, join):
    import io

    from camelhost.device.events import DieEvent
    from camelhost.table.controller import Table
    from camelhost.ui.plain import PlainDisplay
    monkeypatch.setattr(editions, "LABEL_JOIN", join)
    out = io.StringIO()
    pyramid = _GreyPyramid()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=pyramid)
    t.start()
    t.line(SETUP)
    t.line("pyramid")
    t.line("release")
    t.line("undo")  # the table moves on: the die comes late
    since = len(out.getvalue())
    t.pyramid_event(DieEvent("die", "B1", 5, "EVT 5 die", colour="grey", ink="black", value=2))
    said = out.getvalue()[since:]
    assert said.startswith("the grey die came out of the virtual pyramid late"), said
    assert "grey" in pyramid.table.inside and "grey" not in pyramid.table.out
