"""German at the table (tester finding 10): the edition named in German inside a
sentence (from one place: ``i18n.edition_word``), the die's detail line within the
full screen's banner at 80 columns, and an odds header a German player can read."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.session import Session, TableError
from camelhost.table.view import table_view
from camelhost.ui.plan import DIGITS_COLUMNS
from camelhost.ui.tui import detail_text

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture
def german():
    set_language("de")
    yield
    set_language("en")


def _refusal(s, text):
    with pytest.raises(TableError) as info:
        s.command(text)
    return str(info.value)


def test_a_colour_refusal_names_the_edition_in_german(german):
    s = Session("second", ["Anna", "Bernd", "Claus"])
    s.command(SETUP)
    for text in ("leg orange", "win orange"):
        said = _refusal(s, text)
        assert "der Zweitausgabe" in said and "second" not in said, said
    said = _refusal(Session("classic", ["Anna", "Bernd"]), "grey 2")
    assert "der Erstausgabe" in said and "classic" not in said, said


def test_the_edition_stays_its_english_name_in_english():
    s = Session("second", ["Ann", "Ben", "Cy"])
    s.command(SETUP)
    assert "of the second edition" in _refusal(s, "leg orange")


def test_the_dies_detail_line_fits_beside_the_big_digits_at_80_columns(german):
    s = Session("second", ["Anna", "Bernd", "Claus"])
    s.command(SETUP)
    s.command("leg red")    # Anna
    s.command("pyramid")    # Bernd
    notices = s.command("yellow 3")  # yellow carries purple from 3 to 6
    line = detail_text(notices, table_view(s, odds=False)).plain
    assert line.startswith("Würfel für Bernd: gelb 3. Trägt lila. ")
    assert len(line) <= 80 - 1 - DIGITS_COLUMNS, line


@pytest.mark.parametrize("width", [50, 70])
def test_the_odds_header_reads_in_german_and_keeps_the_columns(width):
    from camelhost.ui import odds_view
    set_language("en")
    english = _header(odds_view, width)
    set_language("de")
    try:
        german = _header(odds_view, width)
    finally:
        set_language("en")
    assert len(german) == len(english)
    assert "letz " not in german and "Nied" not in german
    assert "Sieg±" in german and "Verl±" in german and "Rest" in german


def _header(odds_view, width):
    from camelhost.i18n import _
    text = (_("Leg odds 1st 2nd last   win±  lose±  ticket  left\n")
            if width >= odds_view.NARROW else
            _("Leg odds 1st 2nd last win± lose±   ticket left\n"))
    return text.rstrip("\n")
