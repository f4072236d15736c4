"""A camel's place in German agrees with the camel: ``Kamel`` is neuter, and the table
writes ``das Kamel lila``. Before (tester s40 finding 7) the web page's race end said
``lila ist Letzter`` (masculine), and so did a finish card's chance (``als Letzter``),
a bot strategy's description (``Erster oder Zweiter``) and the German rules' leg
scoring (``Erster und Zweiter``)."""

import os
import re

from babel.messages.pofile import read_po
from camelhost import cli
from camelhost.i18n import LOCALE_DIR, set_language
from camelhost.table.view import finish_chance
from camelhost.web.words import page_words

#: A rank as a masculine noun (``Letzter``, ``Erster``...): a camel's place is neuter
#: (``Letztes``); only the die (``der Würfel``) takes it, as ``Letzter Würfel``.
MASCULINE_RANK = re.compile(r"\b(?:Erster|Zweiter|Dritter|Vorletzter|Letzter)\b(?! Würfel)")


def _german_catalogue():
    with open(os.path.join(LOCALE_DIR, "de", "LC_MESSAGES", "pyramid.po"), "rb") as po:
        return read_po(po)


def test_no_german_message_ranks_a_camel_as_a_masculine_noun():
    wrong = []
    for message in _german_catalogue():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wrong += [s for s in strings if s and MASCULINE_RANK.search(s)]
    assert wrong == []


def test_the_race_end_and_a_finish_cards_chance_say_the_camels_place_neuter():
    set_language("de")
    try:
        assert page_words()["words"]["{0} is last"] == "{0} ist Letztes"  # the web page
        assert finish_chance({"colour": "purple", "pile": "loser", "p": 0.82}) == (
            "lila beendet das Rennen als Letztes: 82\u00a0%")
    finally:
        set_language("en")


def test_the_german_rules_leg_scoring_ranks_the_camels_neuter(capsys):
    assert cli.main(["rules", "1.10", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Erstes und Zweites werden nach 1.11 bestimmt" in " ".join(out.split()), out
    assert not MASCULINE_RANK.search(out), out
