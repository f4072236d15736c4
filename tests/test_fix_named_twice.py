"""Tester s35 finding 7: ``fix 1:blue,blue`` was refused with ``a camel is named twice in
the correction``: which camel, and which correction, were left to guess. The refusal
echoes the correction in the table's words and names the camel (or camels) named twice;
the board is left as it was."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.session import Session, TableError

SETUP = "setup 1:blue 2:green 3:yellow,purple,red 15:black 16:white"


@pytest.fixture
def table():
    s = Session("second", ["Ann", "Ben", "Cy"], seed=1)
    s.command(SETUP)
    yield s
    set_language("en")


def _refused(s, text):
    before = (dict(s.game.stacks), s.version)
    with pytest.raises(TableError) as info:
        s.command(text)
    assert (dict(s.game.stacks), s.version) == before  # nothing changed
    return str(info.value)


def test_the_camel_named_twice_is_named(table):
    assert _refused(table, "fix 1:blue,blue") == (
        "fix 1:blue,blue: blue is named twice in the correction")
    assert _refused(table, "fix 1:blue,green 2:green,blue,red") == (
        "fix 1:blue,green 2:green,blue,red: green and blue are each named twice in the "
        "correction")
    assert _refused(table, "fix 3:yellow,purple 4:purple") == (
        "fix 3:yellow,purple 4:purple: purple is named twice in the correction")


def test_in_german_the_correction_and_the_camel_in_german_words(table):
    set_language("de")
    assert _refused(table, "fix 1:blau,blau") == (
        "fix 1:blau,blau: blau ist in der Korrektur doppelt genannt")
    assert _refused(table, "fix 1:blau,grün 2:grün,blau,rot") == (
        "fix 1:blau,grün 2:grün,blau,rot: grün und blau sind in der Korrektur je doppelt "
        "genannt")
