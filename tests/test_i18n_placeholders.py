"""Messages with more than one placeholder tell the translator what each is (s44 German,
items 2 and 3): their placeholders are named (``%(partner)s``) or numbered (``{0}``)
so a language may reorder them, and a ``TRANSLATORS:`` comment above the message in the
code reaches the catalogue (``make catalogue`` extracts it: ``#.`` in pyramid.pot and
each .po)."""

import os
import re

import pytest
from babel.messages.pofile import read_po
from camelhost.i18n import set_language
from camelhost.table.session import TableError, check_names
from typed_table import typed_table

LOCALE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "host", "camelhost", "locale")
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
#: six seats, Ann and Finn partners; Finn's blue ticket loses, so Finn copies Ann's
#: pyramid ticket (RULES 3.8) when the fifth die ends the leg
PARTNER_LEG = [SETUP, "partner Finn", "pyramid", "blue 3", "pyramid", "green 1", "pyramid",
               "red 1", "pyramid", "yellow 1", "leg blue", "pyramid", "purple 1"]


def _template():
    with open(os.path.join(LOCALE, "pyramid.pot"), "rb") as fh:
        return read_po(fh)


def test_the_two_word_messages_say_what_each_placeholder_is():
    pot = _template()
    for msgid, names in (("{0} {1}", ("{0}", "{1}", "colour", "which way")),
                         ("copied from %(partner)s %(reward)s",
                          ("%(partner)s", "%(reward)s", "name", "signed"))):
        comment = " ".join(pot[msgid].auto_comments)
        assert comment.startswith("TRANSLATORS: "), msgid
        for name in names:
            assert name in comment, (msgid, name)
    assert pot.get("copied from %s %s") is None


def test_a_copied_partner_reward_names_the_partner_in_both_languages():
    try:
        said = {}
        for lang in ("en", "de"):
            set_language(lang)
            said[lang] = typed_table("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"],
                                     *PARTNER_LEG, seed=4)[1].getvalue()
    finally:
        set_language("en")
    assert "  Finn: blue 5 ticket -1, copied from Ann +1 => net +0, 3 -> 3\n" in said["en"]
    assert ("  Finn: Wettplättchen blau 5: -1, kopiert von Ann: +1 => netto +0, 3 -> 3\n"
            in said["de"])


#: A placeholder without a name: ``%s``, ``%d``, ``%r``, ``%.0f``, ``%3d``, ``%-12s`` ... or
#: ``{}``. Every message with two or more names them, so a translator can reorder them
#: (s44 began with the table's screens, play, the journal, the link and monitor and
#: counted ``%s`` only; s45 named calibrate's, doctor's and every message with two plain
#: ``%d``; s46 the rules engine's, ``shared/``: ``camelup.errors.Message`` takes named
#: arguments, ``Message("space %(space)d ...", space=4)``).
UNNAMED = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdifr]|\{\}")


def test_every_message_names_two_or_more_placeholders():
    unnamed = []
    for message in _template():
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        where = {path for path, _line in message.locations}
        if message.id and any(len(UNNAMED.findall(i.replace("%%", ""))) >= 2 for i in ids):
            unnamed.append((ids[0], sorted(where)))
    assert unnamed == []
    # the pattern still finds them: a message of one unnamed placeholder is counted
    assert any(len(UNNAMED.findall(m.id)) == 1 for m in _template()
               if isinstance(m.id, str) and all(p.startswith("shared/") for p, _l in m.locations))


def test_the_engines_named_message_reads_in_english_and_in_the_tables_order():
    # a rules-engine refusal of two numbers: English as before (str), and German free to
    # name the dice out first (it could not while the engine's arguments were a tuple)
    from camelhost.table.narration import translated
    from camelup.errors import NotationError
    from camelup.game import parse_position

    position = ("second | leg 1 turn p1 start p0 | 1:red 2:blue 3:yellow,green,purple "
                "15:black,white | out blue | legs blue:5322 green:5322 yellow:5322 red:5322 "
                "purple:5322 | pyramid 4 | p0 coins=3 | p1 coins=3 | p2 coins=3 | p3 coins=3 "
                "| winner - | loser -")
    with pytest.raises(NotationError) as refused:
        parse_position(position)
    assert str(refused.value) == ("bad position: pyramid tickets held (0) must equal dice out "
                                  "this leg (1)")
    try:
        set_language("de")
        assert translated(refused.value) == (
            "fehlerhafte Stellung: Würfel heraus in dieser Etappe: 1, also müssen ebenso viele "
            "Pyramidenplättchen in der Hand sein, nicht 0")
    finally:
        set_language("en")


def test_german_says_which_player_name_is_empty_in_its_own_order():
    # the named placeholders let German put the ordinal first (s45): 'der 2. von 3
    # Spielernamen', where the positional message read 'Spielername 2 von 3'
    try:
        set_language("de")
        with pytest.raises(TableError) as refused:
            check_names("second", ["Ann", " ", "Cy"])
    finally:
        set_language("en")
    assert str(refused.value).startswith("der 2. von 3 Spielernamen ist leer: ")
    with pytest.raises(TableError) as refused:
        check_names("second", ["Ann", " ", "Cy"])
    assert str(refused.value).startswith("player name 2 of 3 is empty: ")
