"""The full screen's one-letter colours (the compact track's camels, the leg tickets, the
help's legend) in the table's language, told apart within each edition (tester s34-2:
the German table showed English capitals, ``B YRPG ... <W <K``, and in German a ``G``
would be both grün and gelb; nothing on screen read them)."""

import pytest
from camelhost.i18n import colour_word, set_language
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.panels import colour_letter, players_text, ticket_legend, track_text
from camelup.editions import EDITIONS

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture(params=["en", "de"])
def lang(request):
    set_language(request.param)
    yield request.param
    set_language("en")


def test_each_editions_camels_have_letters_of_their_own_in_each_language(lang):
    for ed in EDITIONS.values():
        letters = [colour_letter(c) for c in ed.camels]
        assert len(set(letters)) == len(letters), (lang, ed.name, letters)
        assert all(len(x) == 1 and x.isupper() for x in letters), letters


def test_the_compact_track_tickets_and_legend_read_the_tables_letters(lang):
    s = Session("second", ["Ann", "Ben", "Cy"], seed=2)
    for line in (SETUP, "leg yellow"):
        s.command(line)
    view = table_view(s, odds=False)
    track = track_text(view, 80, rows=1).plain.splitlines()[0]
    expect = {"en": ["B G", "R", "Y P", "<K", "<W"], "de": ["B G", "R", "E L", "<S", "<W"]}
    assert track.split("  ") and [w.strip() for w in track.split("  ") if w.strip()] == \
        expect[lang], track
    ticket = {"en": "Y5", "de": "E5"}[lang]
    assert ticket in players_text(view, 33).plain.splitlines()[1]  # Ann's yellow 5
    legend = ticket_legend("second")
    for colour in ("yellow", "green", "black", "white"):
        assert "%s %s" % (colour_letter(colour), colour_word(colour)) in legend, legend
    assert ticket[0] + "5" in legend
