"""A colour word of another language the table speaks, typed at a table speaking
English (a game begun in German, resumed with ``--lang en``: tester38 finding 13),
is answered with the word in this table's language and the line to type, nothing
done; a finish card's colour is never said back, nor which colour the word was
(RULES 1.8): the refusal only says that colours are typed in this table's language."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language("en")


def _table():
    out = io.StringIO()
    journal = Journal(None)
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=journal)
    table = Table(session, PlainDisplay(out))
    table.start()
    table.line(SETUP)
    return table, out, journal


def _replies(table, out, *lines):
    mark = len(out.getvalue())
    for line in lines:
        table.line(line)
    return [row for row in out.getvalue()[mark:].splitlines() if row.startswith("!")]


@pytest.mark.parametrize("line, reply", [
    ("leg lila", "! 'lila' is German for purple: type 'leg purple' (this table speaks English)"),
    ("leg grün", "! 'grün' is German for green: type 'leg green' (this table speaks English)"),
    ("leg Gruen", "! 'Gruen' is German for green: type 'leg green' (this table speaks "
                  "English)")])
def test_a_german_leg_ticket_colour_names_the_english_word(english, line, reply):
    table, out, journal = _table()
    before = list(journal.events)
    assert _replies(table, out, line) == [reply]
    assert journal.events == before and table.session.current == 0  # nothing done
    table.line(reply.split("type '")[1].split("'")[0])  # typed as the hint says
    assert journal.events[-1]["type"] == "action"


def test_a_typed_german_die_names_the_english_die(english):
    table, out, journal = _table()
    table.line("pyramid")
    assert _replies(table, out, "rot 2", "grau weiß 1") == [
        "! 'rot' is German for red: type 'red 2' (this table speaks English)",
        "! 'grau' is German for grey: type 'grey white 1' (this table speaks English)"]
    assert table.session.phase == "die"  # Ann's ticket still waits for its die
    table.line("red 2")
    assert journal.events[-1]["type"] == "die"


@pytest.mark.parametrize("line", ["win lila", "lose grün", "win ROT"])
def test_a_german_finish_card_colour_is_never_said_back(english, line):
    table, out, journal = _table()
    before = list(journal.events)
    reply, = _replies(table, out, line)
    head = line.split()[0]
    assert reply == ("! %s <colour>: colours are typed in this table's language, English "
                     "(blue, green, yellow, red, purple)" % head)
    assert journal.events == before


def test_a_german_table_takes_its_own_words_and_english_ones():
    set_language("de")
    try:
        table, out, journal = _table()
        assert _replies(table, out, "leg lila", "leg purple") == []
        assert [e["action"] for e in journal.events if e["type"] == "action"] == [
            "leg purple", "leg purple"]
    finally:
        set_language("en")


def test_a_german_colour_in_fix_names_the_english_word(english):
    table, out, journal = _table()
    before = list(journal.events)
    assert _replies(table, out, "fix 3:gelb,Lila") == [
        "! 'gelb' is German for yellow: type 'fix 3:yellow,purple' (this table speaks "
        "English)"]
    assert journal.events == before
    table.line("fix 3:yellow,purple")  # typed as the hint says
    assert journal.events[-1]["type"] == "correction"


def test_a_german_colour_in_setup_names_the_english_word(english):
    out = io.StringIO()
    journal = Journal(None)
    table = Table(Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=journal),
                  PlainDisplay(out))
    table.start()
    assert _replies(table, out, "setup 1:blau 2:rot") == [
        "! 'blau' is German for blue: type 'setup 1:blue 2:red' (this table speaks English)"]
    assert table.session.game is None  # nothing set up
    table.line(SETUP)
    assert table.session.game is not None


@pytest.mark.parametrize("word", ["rot", "Lila"])
def test_a_german_colour_at_the_private_prompt_says_the_language_not_the_colour(english,
                                                                               word):
    table, out, journal = _table()
    before = list(journal.events)
    table.line("win")
    reply, = _replies(table, out, word)
    assert reply == ("! colours are typed in this table's language, English (blue, green, "
                     "yellow, red, purple); type the colour again (it is not shown), or an "
                     "empty line to cancel")
    assert journal.events == before and table.private == "winner"  # still asked
    table.line("red")
    assert journal.events[-1]["type"] == "action"
