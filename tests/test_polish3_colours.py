"""A German table reads its camels' and dice's colours in German (the last round's
"Würfel blue"): the plain table, the full screen's words, speech, the advice, the
refusals, ``pyramid odds`` and ``pyramid check`` name each colour with the catalogue's
word, the same word the table may type; the journal and the wire keep the English."""

import io
import json
import re

from camelhost.cli import main
from camelhost.i18n import colour_list, colour_word, colour_words, colours_in, set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.parser import local_colours
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

#: The English colour words German does not share (orange is orange in both).
ENGLISH = ("blue", "green", "yellow", "red", "purple", "white", "black", "grey")

#: A second-edition leg typed at a German table in German colour words: tickets, a
#: tile, the grey die, a finish card, a refused ticket, undo, until the leg is scored.
GERMAN_LEG = ["setup 1:blau,grün 2:rot 3:gelb,lila 15:schwarz 16:weiß", "leg rot",
              "pyramid", "blau 2", "tile 7 +", "pyramid", "grau schwarz 1", "win rot",
              "leg rot", "leg rot", "leg rot", "undo", "pyramid", "rot 1", "odds", "best",
              "show", "pyramid", "grün 3", "pyramid", "gelb 2", "pyramid", "lila 1", "show"]


def _english_words(line):
    """The English colour words in ``line`` outside what a player types: quoted text
    ('setup 1:blue,green ...', a command) and the echo of a typed line are left out."""
    line = re.sub(r"'[^']*'", "", line)
    return [w for w in re.findall(r"[a-z]+", line) if w in ENGLISH]


def _plain(lang, lines, path=None):
    set_language(lang)
    out = io.StringIO()
    journal = Journal(str(path) if path else None)
    table = Table(Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal),
                  PlainDisplay(out), manual=True)
    table.start()
    for line in lines:
        table.line(line)
    journal.close()
    return out.getvalue().splitlines(), table.session


def test_a_german_table_reads_every_colour_in_german_and_journals_english(tmp_path):
    path = tmp_path / "game.jsonl"
    german, s_de = _plain("de", GERMAN_LEG, path)
    english, s_en = _plain("en", [
        line.replace("blau", "blue").replace("grün", "green").replace("gelb", "yellow")
        .replace("lila", "purple").replace("schwarz", "black").replace("weiß", "white")
        .replace("grau", "grey").replace("rot", "red") for line in GERMAN_LEG])
    assert s_de.game.coins == s_en.game.coins and s_de.game.leg == s_en.game.leg == 2
    said = [line for line in german if not line.startswith(">")]
    wrong = [(line, _english_words(line)) for line in said if _english_words(line)]
    assert not wrong, wrong
    text = "\n".join(german)
    for words in ("WÜRFEL blau 2 (", "das Kamel rot zieht", "Wettplättchen rot im Wert",
                  "Können noch herauskommen: grün, gelb, rot, lila, grau",
                  "WÜRFEL grau-schwarz 1", "Vorn: 1. rot, 2. grün",
                  "Chancen Gesamtsieger", "Ann: 3 EP; rot 5, rot 2"):
        assert words in text, (words, text)
    # the journal keeps the canonical English colours, whatever the table typed or read
    journal = path.read_text(encoding="utf-8")
    assert "\"colour\":\"blue\"" in journal and "blau" not in journal and "\"rot" not in journal


def test_the_words_a_table_reads_are_the_words_it_may_type():
    set_language("de")
    typed = local_colours()
    for colour, word in colour_words().items():
        assert colour_word(colour) == word
        if word != colour:  # German 'rot' read, 'rot' typed: the same catalogue entry
            assert typed[word] == colour
    assert colour_word("red") == "rot" and colours_in("grey black 2") == "grau schwarz 2"
    assert colour_list(["blue", "green"]) == "blau, grün"
    assert colour_word("grey-white") == "grey-white" and colour_word(None) == ""
    set_language("en")
    assert colour_word("red") == "red" and local_colours() == {}


def test_a_rules_engine_refusal_names_its_colours_in_german_but_quotes_input_as_read():
    from camelhost.table.narration import translated
    from camelup.errors import Message
    set_language("de")
    message = Message("%(name)r is not a racing camel of the %(edition)s edition (%(known)s)",
                      name="red", edition=Message("classic"),
                      known="blue, green, orange, yellow, white")
    assert translated(message) == ("'red' ist kein Rennkamel der Erstausgabe (blau, grün, "
                                   "orange, gelb, weiß)")


def test_pyramid_odds_names_the_camels_in_german(capsys):
    position = ("second | leg 1 turn p0 start p0 | 1:blue,green 2:red 3:yellow,purple "
                "15:black 16:white | out - | legs blue:5322 green:5322 red:5322 "
                "yellow:5322 purple:5322 | pyramid 5 | p0 coins=3 | p1 coins=3 | p2 coins=3 "
                "| winner - | loser -")
    assert main(["odds", position, "--samples", "200", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    rows = [line.split()[0] for line in out.splitlines() if re.match(r"  \w+ +\d+,\d", line)]
    assert sorted(rows) == ["blau", "gelb", "grün", "lila", "rot"], out
    assert "Würfel in der Pyramide: blau, grün, gelb, rot, lila, grau;" in out, out


def test_the_web_page_gets_each_colours_german_word_and_label():
    from camelhost.web.words import page_words
    set_language("de")
    colours = page_words()["colours"]
    assert colours["red"] == ["rot", "rot"] and colours["grey"] == ["grau", "gra"]
    assert colours["blue"] == ["blau", "bla"] and colours["black"] == ["schwarz", "sch"]
    # every label of a language tells the colours apart, as the English ones do
    assert len({label for _word, label in colours.values()}) == len(colours)
    json.dumps(colours)
