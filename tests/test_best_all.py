"""``best all`` lists every pile (tester s35 finding 17): the public advice values the
coach's best ``FINISH_ADVICE`` finish cards, and when both lie on one pile, the other
pile's best card too, so a player reading "every action the coach valued" finds ``win``
and ``lose`` both (a card there is legal, RULES 1.8)."""

import io
import re

import pytest
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue 2:green 3:yellow,purple,red 15:black 16:white"


def _best_all(lines):
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None))
    table = Table(session, PlainDisplay(out), pyramid=None)
    table.start()
    for text in lines:
        table.line(text)
    before = len(out.getvalue())
    table.line("best all")
    return out.getvalue()[before:]


@pytest.mark.parametrize("first", ["win red", "lose red", "leg blue"])
def test_best_all_lists_a_finish_card_on_each_pile(first):
    # 'win red' first: the coach's best two cards for Ben were both loser-pile colours,
    # and the winner pile was left out of the list
    said = _best_all([SETUP, first])
    # each with the camel its figures are for (tester s37tp finding 7)
    for pile, word in (("winner", "win"), ("loser", "lose")):
        assert len(re.findall(r"a finish card on the %s pile, its colour chosen unseen, for "
                              r"the camel [^(]*\('%s'\)" % (pile, word), said)) == 1, said
