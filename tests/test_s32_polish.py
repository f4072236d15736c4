"""s32 polish: small papercuts a player met, each through the interface that player uses."""

import io

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture
def german():
    set_language("de")
    yield
    set_language("en")


def _said(t, out, line):
    before = len(out.getvalue())
    t.line(line)
    return out.getvalue()[before:].splitlines()


def _position_line(lang):
    """The first line a table in ``lang`` prints for ``position``, as a player copies it."""
    set_language(lang)
    try:
        out = io.StringIO()
        s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
        t = Table(s, PlainDisplay(out), pyramid=None)
        t.start()
        t.line(SETUP)
        t.line("leg red")
        return _said(t, out, "position")[0]
    finally:
        set_language("en")


def test_a_german_position_line_pastes_into_pyramid_odds(capsys):
    line = _position_line("de")
    assert line.startswith("Stellung: ") and " | pyramid 5 | " in line
    capsys.readouterr()
    assert cli.main(["odds", line, "--players", "Ann,Ben,Cy", "--lang", "de",
                     "--samples", "200"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "Etappe 1" in captured.out.splitlines()[0]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_position_line_pastes_whatever_language_the_odds_speak(lang, capsys):
    # a German table's line read by English odds, an English table's by German odds
    line = _position_line("de" if lang == "en" else "en")
    capsys.readouterr()
    assert cli.main(["odds", line, "--players", "Ann,Ben,Cy", "--lang", lang,
                     "--samples", "200"]) == 0
    assert capsys.readouterr().err == ""
