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


#: The files whose messages name every placeholder when they have two or more unnamed
#: ``%s`` (or ``{}``): a translator can reorder them. A file joins the list when its
#: messages are named (s44: the table's screens, pyramid play, the journal's words, the pyramid's
#: link and monitor; calibrate, doctor and the rules engine's refusals are still to do).
NAMED_FILES = (
    "host/camelhost/cli.py", "host/camelhost/commands/check.py",
    "host/camelhost/commands/demo.py", "host/camelhost/commands/emulate.py",
    "host/camelhost/commands/odds.py", "host/camelhost/commands/tournament.py",
    "host/camelhost/device/calls.py", "host/camelhost/device/flash.py",
    "host/camelhost/device/link.py", "host/camelhost/device/uf2.py",
    "host/camelhost/device/virtual.py",
    "host/camelhost/device/open.py", "host/camelhost/device/sequencer.py",
    "host/camelhost/errors.py", "host/camelhost/rulesdoc.py",
    "host/camelhost/web/__init__.py",
    "host/camelhost/commands/options.py", "host/camelhost/commands/play.py",
    "host/camelhost/commands/replay.py", "host/camelhost/table/controller.py",
    "host/camelhost/table/journal.py", "host/camelhost/table/manual.py",
    "host/camelhost/table/narration.py",
    "host/camelhost/table/parser.py", "host/camelhost/table/session.py",
    "host/camelhost/table/view.py", "host/camelhost/tools/monitor.py",
    "host/camelhost/ui/odds_view.py",
    "host/camelhost/ui/panels.py", "host/camelhost/ui/plain.py",
    "host/camelhost/ui/screens.py", "host/camelhost/ui/tui.py", "host/camelhost/web/words.py",
    "host/camelhost/tools/calibrate.py", "host/camelhost/commands/doctor.py")
UNNAMED = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?s|\{\}")


def test_the_table_and_play_messages_name_two_or_more_placeholders():
    unnamed = []
    for message in _template():
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        where = {path for path, _line in message.locations}
        if message.id and where & set(NAMED_FILES) and any(
                len(UNNAMED.findall(i.replace("%%", ""))) >= 2 for i in ids):
            unnamed.append((ids[0], sorted(where)))
    assert unnamed == []


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
