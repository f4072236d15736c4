"""The narrow German players table: its abbreviations as short as the English ones
where German has one (``Kart`` for the finish cards, ``Pyr`` for the pyramid tickets:
no dots, never cut; the leg tickets headed by a whole word, ``Wette``, as the odds panel
heads a ticket's value: ``Wett`` read as a word cut, tester s33-2, and the coins' ``EP``
gives it the column), so long names keep nearly the room they have in English
(``jetzt`` stays whole: it is the word of every screen for a value now, and German has
no shorter one)."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.panels import players_text

LONG6 = ["Annabelle-Marguerite Xu", "Bartholomew Fitzwilliam", "Cyrano de Bergerac Jr",
         "Desdemona Quackenbush", "Evangeline Worthington", "Florentino Ariza-Pérez"]


def _view():
    s = Session("second", LONG6, seed=4, journal=Journal(None))
    s.command("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    s.command("leg green")
    return table_view(s, odds=False)


def _table(view, width, compact):
    lines = players_text(view, width, compact=compact).plain.splitlines()
    return lines[0].split(), len(lines[1][1:].split("  ")[0].rstrip())


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("width", [30, 33])
def test_the_narrow_german_headings_are_whole_and_nearly_as_short_as_english(width, compact):
    view = _view()
    english, english_name = _table(view, width, compact)
    set_language("de")
    german, german_name = _table(view, width, compact)
    assert english == ["name", "coin", "pyr", "card", "now", "tix"]
    assert german == ["Name", "EP", "Pyr", "Kart", "jetzt", "Wette"]  # whole, never cut
    # four columns fewer than English before; two now (jetzt's)
    assert english_name - german_name <= 2, (english_name, german_name)


def test_at_width_33_a_long_name_keeps_eight_columns_in_german():
    # English keeps ten ('Annabelle…'); German kept six ('Annab…') before
    view = _view()
    set_language("de")
    rows = players_text(view, 33, compact=True).plain.splitlines()
    # the name's eight columns, then the coins (EP: two columns wide, as many as the
    # coins need, since the tickets' heading is the whole word Wette)
    assert rows[1].startswith((" Annabel…  3 ", "▶Annabel…  3 ")), rows[1]
