"""s34 tester 2, the German table's typed words: a refusal on a German table says its
words in German and quotes what the player typed in the table's words, never English
words the player never typed (a setup refused by the rules engine, a die's numeral
colour, a crazy camel's name typed as a die, a die typed without its space, a tile's
side, a name typed for a camel). Driven through the plain table with typed lines."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
NAMES = ["Ömer", "Zoë", "Änne"]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _said(lang, lines, edition="second"):
    """What the plain table printed for the last of ``lines`` (the ones before it
    typed first), and whether the journal kept it unchanged."""
    set_language(lang)
    out = io.StringIO()
    s = Session(edition, NAMES, seed=4, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    for line in lines[:-1]:
        t.line(line)
    before, events = len(out.getvalue()), len(s.journal.events)
    t.line(lines[-1])
    assert len(s.journal.events) == events  # refused: nothing changed
    return out.getvalue()[before:].strip()


@pytest.mark.parametrize("board,expected", [
    ("setup 1:schwarz,rot 2:blau 3:grün 4:gelb 5:lila 14:weiß",
     "! das verrückte Kamel schwarz beginnt auf Feld 14, 15 oder 16 (RULES 3.2), nicht auf 1"),
    ("setup 1:rot 2:blau 3:grün 4:gelb 5:lila 14:weiß 16:schwarz",
     "! das Kamel gelb beginnt auf Feld 1, 2 oder 3 (RULES 2.2), nicht auf 4"),
])
def test_a_setup_the_rules_refuse_is_refused_in_german(board, expected):
    assert _said("de", [board]) == expected


def test_a_setup_the_rules_refuse_stays_english_at_an_english_table():
    assert _said("en", ["setup 1:black,red 2:blue 3:green 4:yellow 5:purple 14:white"]) == (
        "! the crazy black camel starts on space 14, 15 or 16 (RULES 3.2), not 1")


def test_a_wrong_numeral_colour_is_quoted_as_typed_in_german():
    said = _said("de", [SETUP, "pyramid", "grau lila 2"])
    assert said.startswith("! 'lila' ist keine Ziffernfarbe des grauen Würfels"), said
    assert "purple" not in said
    # quoted as typed: an English word typed at the German table is said back as it was
    said = _said("de", [SETUP, "pyramid", "grau purple 2"])
    assert said.startswith("! 'purple' ist keine Ziffernfarbe des grauen Würfels"), said


@pytest.mark.parametrize("typed,die", [("schwarz 2", "grau schwarz 2"),
                                       ("weiß 1", "grau weiß 1")])
def test_a_crazy_camel_typed_as_a_die_is_answered_in_german(typed, die):
    said = _said("de", [SETUP, "pyramid", typed])
    assert said == ("! '%s': das verrückte Kamel %s hat keinen eigenen Würfel; der graue "
                    "Würfel bewegt es: tippe '%s' (die Farbe der Ziffern, dann den Wert)"
                    % (typed, typed.split()[0], die)), said


def test_the_crazy_camel_refusal_in_english_names_the_grey_die():
    said = _said("en", [SETUP, "pyramid", "black 2"])
    assert said == ("! 'black 2': the black crazy camel has no die of its own; the grey die "
                    "moves it: type 'grey black 2' (the numerals' colour, then the value)")


@pytest.mark.parametrize("lang,typed,guess", [("de", "rot2", "rot 2"), ("en", "red2", "red 2"),
                                              ("de", "grün3", "grün 3")])
def test_a_die_typed_without_its_space_is_suggested_with_it(lang, typed, guess):
    said = _said(lang, [SETUP, "pyramid", typed])
    assert ("'%s'" % guess) in said, said
    assert "'red'" not in said and "'green'" not in said


@pytest.mark.parametrize("edition,board,words", [
    ("second", SETUP, ("Anfeuern", "Ausbuhen")),
    ("classic", "setup 1:blue 2:green 3:orange,yellow,white", ("Oase", "Fata Morgana")),
])
def test_a_wrong_tile_side_names_this_editions_sides(edition, board, words):
    said = _said("de", [board, "tile 5 x"], edition=edition)
    assert said == "! die Plättchenseite ist + (%s) oder - (%s)" % words, said


def test_a_players_name_typed_for_a_camel_keeps_its_capitals():
    said = _said("de", [SETUP, "leg Ömer"])
    assert said.startswith("! 'Ömer' ist kein Rennkamel"), said


@pytest.mark.parametrize("typed,guess", [("ＬＥＧ ｂｌａｕ", "leg blau"),
                                         ("leeg ｒｏｔ", "leg rot")])
def test_a_full_width_paste_is_offered_as_a_command_the_table_takes(typed, guess):
    said = _said("de", [SETUP, typed])
    assert said.endswith("meintest du '%s'? (help zeigt die Befehle)" % guess), said
    set_language("de")
    s = Session("second", NAMES, seed=4, journal=Journal(None))
    s.command(SETUP)
    s.command(guess)  # the suggestion is itself taken
    assert s.game.held_tickets(0)


def test_ctrl_l_typed_into_a_plain_line_is_white_space():
    # a terminal without line editing puts Ctrl-L (clear screen) into the line
    said, _s = _said_taken("de", [SETUP, "\fhelp"])
    assert "Steuerzeichen" not in said and "undo" in said and "rename" in said, said
    said, s = _said_taken("de", [SETUP, "\fleg blau"])
    assert not said.startswith("!") and s.game.held_tickets(0) == [("blue", 5)], said


def _said_taken(lang, lines):
    set_language(lang)
    out = io.StringIO()
    s = Session("second", NAMES, seed=4, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    for line in lines:
        before = len(out.getvalue())
        t.line(line)
    return out.getvalue()[before:], s


@pytest.mark.parametrize("lang,typed,said", [
    ("de", "Omer leg rot", "'Omer leg rot': ein Befehl nimmt keinen Spielernamen, er gilt für "
                           "den Spieler am Zug (Ömer ist am Zug); tippe 'leg rot'"),
    ("en", "Omer leg red", "'Omer leg red': a command takes no player's name, it acts for the "
                           "player to act (it is Ömer's turn); type 'leg red'"),
])
def test_a_misspelt_name_before_a_command_is_taken_for_the_name_not_a_command(lang, typed,
                                                                            said):
    # 'Omer' is nearer Ömer than 'loser': never 'did you mean 'loser leg rot''
    assert _said(lang, [SETUP, typed]) == "! " + said
