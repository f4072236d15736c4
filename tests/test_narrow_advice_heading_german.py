"""The narrow advice's heading "Für NAME:" never stands alone on a line (s40): in
German a pyramid ticket is one long word, "Pyramidenplättchen -1,11 (jetzt +1,00)", too
long to stand whole beside the heading on a 46-column panel, and its words before its
number could not part, so the heading stood alone above the advice at 46 columns with
the note on the numbers under it (and at 49-55 with its "(Bilanz)" label), looking like
advice with nothing in it. Its number and value now go on the next line instead, as
they do where the label is held (tester 43: an action's words stay whole); no word nor
number is broken, the advice keeps its lines."""

import re

import pytest
from camelhost.i18n import set_language
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.odds_view import NARROW, NARROW_ADVICE_LINES, odds_lines
from seeded_race import PILES

pytestmark = pytest.mark.slow  # the coach's play-outs


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


@pytest.mark.parametrize("name", ["Dee", "Maximiliane"])
def test_the_heading_shares_its_line_with_the_advice(name):
    set_language("de")
    session = Session("second", ["Ann", "Ben", "Cy", name], seed=5)
    for line in PILES[:49]:
        session.command(line)
    view = table_view(session, odds=True)
    assert view["odds"]["actions"]["player"] == name
    head = "F\u00fcr %s:" % name
    for width in range(42, NARROW):
        for noted in (False, True):
            text = odds_lines(view["odds"], view, width=width, noted=noted).plain
            lines = text.splitlines()
            at = next(i for i, line in enumerate(lines) if line.startswith(head))
            advice = [line for line in lines[at:at + NARROW_ADVICE_LINES]
                      if not line.startswith("(")]
            assert advice[0] != head, (width, noted, lines[at:])
            assert advice[0].startswith(head + " Pyramidenpl\u00e4ttchen"), (
                width, noted, lines[at:])
            assert all(len(line) <= width for line in lines[at:]), (width, lines[at:])
            # the action, then its number and its value now, whole on one line
            assert re.search(r"Pyramidenpl\u00e4ttchen\s+-1,11 \(jetzt \+1,00\)",
                             " ".join(lines[at:])), (width, noted, lines[at:])
