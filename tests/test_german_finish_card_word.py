"""German: a finish card is a Wettkarte wherever the table names one, as the German
rules summary says (tester s42 finding 12: the F1 help's column legend said
`Zielkarten`, every other line `Wettkarten`)."""

import os

from babel.messages.pofile import read_po
from camelhost import i18n
from camelhost.i18n import _, set_language

PO = os.path.join(os.path.dirname(i18n.__file__), "locale", "de", "LC_MESSAGES", "pyramid.po")


def _german_of_finish_cards():
    with open(PO, "rb") as f:
        catalog = read_po(f)
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if message.id and any("finish card" in i for i in ids):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            yield ids[0], " ".join(strings)


def test_every_german_line_about_finish_cards_says_wettkarte():
    lines = list(_german_of_finish_cards())
    assert len(lines) > 20, lines  # the catalogue is read
    assert [(en, de) for en, de in lines if "Zielkarte" in de] == []


def test_the_f1_legend_of_the_coins_column_says_wettkarten():
    set_language("de")
    try:
        legend = _("each player's coins, pyramid tickets and finish cards still in hand")
    finally:
        set_language("en")
    assert "Wettkarten" in legend and "Zielkarte" not in legend, legend
