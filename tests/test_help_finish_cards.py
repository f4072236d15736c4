"""The help offers a finish card as the table takes it (tester s39 finding 10): plain
mode at a terminal refuses ``win red`` (its colour would show), yet its help offered
``win red  lose red`` first. A bare ``win``/``lose`` (the colour asked unseen) comes
first everywhere; the form with the colour is listed only where it is taken: in a
script (input piped), saying so, and on the full screen, which masks it."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table, help_text
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _help(watched, lang="en"):
    """The help as ``help`` prints it at a plain table (``watched``: at a terminal),
    and the table."""
    set_language(lang)
    out = io.StringIO()
    table = Table(Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None)),
                  PlainDisplay(out), pyramid=None)
    table.watched = watched
    table.start()
    table.line(SETUP)
    before = len(out.getvalue())
    table.line("help")
    return out.getvalue()[before:].splitlines(), table


def _rows(lines, start):
    return [i for i, line in enumerate(lines) if line.startswith("  " + start)]


def test_at_a_terminal_the_help_offers_the_bare_word_only_and_it_is_what_plays():
    lines, table = _help(watched=True)
    (at,) = _rows(lines, "win  lose ")
    assert lines[at].endswith("a finish card on the overall winner / loser pile, face")
    assert lines[at + 1].strip() == "down: its colour typed next, never shown"
    assert not _rows(lines, "win red"), lines
    # what it offers plays: the bare word, then the colour unseen
    table.line("win")
    table.line("blue")
    assert table.view()["players"][0]["finish_cards_played"] == 1


def test_a_scripts_help_lists_the_colour_form_after_the_bare_word_saying_where():
    lines, _ = _help(watched=False)
    (bare,) = _rows(lines, "win  lose ")
    (typed,) = _rows(lines, "win red  lose red ")
    assert bare < typed
    assert "for scripts (input" in lines[typed]
    assert lines[typed + 1].strip() == "piped); refused at a terminal, where it would show"


def test_the_german_help_at_a_terminal_offers_the_bare_word_only():
    lines, _ = _help(watched=True, lang="de")
    (at,) = _rows(lines, "win  lose ")
    assert "Wettkarte" in lines[at]
    assert lines[at + 1].strip() == "verdeckt: ihre Farbe danach getippt, nie gezeigt"
    assert not _rows(lines, "win rot"), lines


def test_the_full_screens_help_lists_both_the_colour_form_masked():
    lines = help_text("second", "manual", cards="masked").splitlines()
    (bare,) = _rows(lines, "win  lose ")
    (typed,) = _rows(lines, "win red  lose red ")
    assert bare < typed and lines[typed].endswith("(masked as it is typed)")
    assert lines[bare + 1].strip() == "down: its colour picked next, one key per colour"
