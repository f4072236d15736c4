"""A question the table asked, left without a typed answer, says so (tester46 finding
1). After a leg's scoring ``undo`` asks first ("... n/no or anything else leaves it");
a die released from the pyramid (a real pyramid's push is no typed answer), a
``release`` or an action typed instead left it without a word, so the history read as a
question never answered, the scoring still standing. Now the line ``nothing undone``
(the words a no gives) comes first, then the die's or the action's own lines; the die
is booked (it has left the pyramid). A finish card's colour asked unseen after a bare
``win`` is left the same way by a die (``no finish card played``), and the colour typed
after it is never played for the next player."""

import io

import pytest
from camelhost.device.events import DieEvent
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from seeded_pyramid import SeededPyramid, arrives

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
#: the five dice of leg 1, each released from a real pyramid (the last scores the leg)
LEG = [("blue", 2), ("red", 2), ("green", 2), ("yellow", 2), ("purple", 2)]
NOTHING = {"en": "nothing undone", "de": "nichts zurückgenommen"}


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


class RealTable:
    """A plain-mode table at a real pyramid (its dice arrive from the link)."""

    def __init__(self, lang="en"):
        set_language(lang)
        self.out = io.StringIO()
        self.session = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None))
        self.table = Table(self.session, PlainDisplay(self.out), pyramid=None, manual=False)
        self.table.start()
        self.table.line(SETUP)
        self.seq = 0

    def said(self, typed=None, die=None):
        """What the table says to ``typed`` or to the die ``(colour, value)`` released."""
        before = len(self.out.getvalue())
        if typed is not None:
            self.table.line(typed)
        else:
            self.seq += 1
            self.table.pyramid_event(DieEvent("die", "B1", self.seq, "EVT %d die" % self.seq,
                                              colour=die[0], value=die[1]))
        return self.out.getvalue()[before:].splitlines()

    def scored(self):
        """Leg 1 scored by its fifth die, and the undo of that die asked about."""
        for die in LEG:
            self.said(die=die)
        assert self.session.game.leg == 2
        asked = self.said("undo")
        assert asked[0].startswith(("undo would take back ", "undo würde ")), asked
        assert self.table.undo_asked
        return self


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_die_released_while_the_undo_is_asked_says_nothing_was_undone_first(lang):
    t = RealTable(lang).scored()
    coins = list(t.session.game.coins)
    said = t.said(die=("red", 1))
    assert said[0] == NOTHING[lang], said
    assert said[1].startswith(("Cy takes a pyramid ticket: red 1",
                               "Cy nimmt ein Pyramidenplättchen: rot 1")), said
    assert said.count(NOTHING[lang]) == 1, said
    # the die is booked, the scoring stands, and nothing is asked any more
    assert t.session.game.leg == 2 and t.session.game.coins == coins
    assert t.session.game.dice_out == ["red"] and not t.table.undo_asked
    t.said("undo")  # the undo now is of the die just booked, asked about no more
    assert t.session.game.dice_out == [] and t.session.game.leg == 2


@pytest.mark.parametrize("typed, first", [
    ("leg blue", "Cy takes the blue leg ticket"),
    ("show", "Race 1, leg 2"),
    ("leg rde", "! 'rde' is not a racing camel"),
])
def test_a_line_typed_instead_of_an_answer_says_nothing_was_undone_first(typed, first):
    t = RealTable().scored()
    said = t.said(typed)
    assert said[0] == "nothing undone", said
    assert said[1].startswith(first), said
    assert t.session.game.leg == 2 and not t.table.undo_asked


def test_a_release_of_the_virtual_pyramid_says_nothing_was_undone_before_its_die():
    pyramid = SeededPyramid(seed=3)
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    table = Table(session, PlainDisplay(out), pyramid=pyramid)
    table.clock = lambda: 100.0  # every die booked just now: no wall clock
    table.start()
    table.line(SETUP)
    for _ in range(5):
        table.line("release")
        arrives(table, pyramid)
    assert session.game.leg == 2
    table.line("undo")
    before = len(out.getvalue())
    table.line("release")
    arrives(table, pyramid)
    said = out.getvalue()[before:].splitlines()
    assert said[0] == "nothing undone", said
    assert said[1].startswith("Cy takes a pyramid ticket: "), said
    assert said.count("nothing undone") == 1
    assert session.game.leg == 2 and len(session.game.dice_out) == 1


def test_answers_still_do_or_leave_the_undo_in_one_line():
    t = RealTable().scored()
    assert t.said("n") == ["nothing undone", "> Cy's turn (leg / tile / win / lose / pyramid)"]
    t.said("undo")
    said = t.said("undo")  # done: no word that it was not
    assert said[0].startswith("undone: ") and "nothing undone" not in said
    assert t.session.game.leg == 1


def test_a_die_released_while_a_finish_cards_colour_is_asked_plays_no_card():
    t = RealTable()
    t.said(die=("blue", 2))  # Ann's
    asked = t.said("win")  # Ben's card, its colour asked unseen
    assert asked[0].startswith("Ben: type the colour of your finish card"), asked
    said = t.said(die=("red", 1))  # Ben pushes the slider instead
    assert said[0] == "no finish card played", said
    assert said[1].startswith("Ben takes a pyramid ticket: red 1"), said
    assert t.table.private is None and t.session.current == 2
    # the colour typed next is no card for Cy, who never asked for one
    said = t.said("red")
    assert said[0].startswith("! "), said
    assert t.session.game.pile("winner") == [] and t.session.current == 2
