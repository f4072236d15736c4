"""Typed dice: the accepted forms and a one-line reason for each malformed one."""

import pytest
from camelhost.table.manual import DieSyntaxError, die_text, parse_die


@pytest.mark.parametrize("text,edition,colour,ink,value", [
    ("red 2", "second", "red", None, 2),
    ("grey white 3", "second", "grey", "white", 3),
    ("gray b 1", "second", "grey", "black", 1),
    ("PU 1", "second", "purple", None, 1),
    ("orange ?", "classic", "orange", None, None),
    ("white 3", "classic", "white", None, 3),
])
def test_accepted(text, edition, colour, ink, value):
    die = parse_die(text, edition)
    assert (die["colour"], die["ink"], die["value"]) == (colour, ink, value)
    assert die["kind"] == "die" and die["source"] == "typed"


@pytest.mark.parametrize("text,edition,why", [
    ("", "second", "colour and value"),
    ("red", "second", "red 2"),
    ("red 4", "second", "1, 2 or 3"),
    ("orange 1", "second", "not a die colour"),
    ("grey 2", "second", "numeral colour"),
    ("grey red 2", "second", "numeral colour"),
    ("grey black 1", "classic", "not a die colour"),
    ("g 1", "second", "green or grey"),
    ("red 2 3", "second", "red 2"),
])
def test_rejected_with_reason(text, edition, why):
    with pytest.raises(DieSyntaxError, match=why) as info:
        parse_die(text, edition)
    assert "\n" not in str(info.value)


def test_die_text():
    assert die_text(parse_die("grey w 2", "second")) == "grey white 2"
    assert die_text(parse_die("red ?", "second")) == "red ?"
