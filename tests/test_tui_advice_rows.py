"""The full screen's narrow advice (an 80x24 terminal) on its two rows: wrapped between
words, never between a number and the word it belongs to, under one heading (tester
s37tp finding 6: "Best for Ann: booing tile on" / "6 -0.75 (now +0.79) (balance)", the
tile's space cut from its "on"; and "For Ann:" on one turn, "Best for Ann:" on the next).

Cy to act in the full-screen scenes' seeded game (``test_tui_best_order.LOWER_FIRST``):
the coach's best is a booing tile, ``booing tile on 7 -0.37 (now +1.32)``, too long to
stand beside the heading in the narrow form."""

import asyncio
import re

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.odds_view import odds_lines
from test_tui_best_order import LOWER_FIRST, _mid_leg, _session

#: a row that begins with a number (a space, a value, a percentage): cut from its word
NUMBER_FIRST = re.compile(r"\s*\(?[+\-\u2212]?\d")
#: the narrow form's heading, in either of its two old forms
HEADING = re.compile(r"(Best for|For|Für) (\S+):")


def advice_rows(text):
    """The advice's rows of the odds panel's ``text``, its heading's first."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if HEADING.match(line))
    return [line for line in lines[at:] if line.strip()]


def assert_whole(rows, width):
    assert len(rows) <= 2 and all(len(row) <= width for row in rows), rows
    for row in rows[1:]:
        assert not NUMBER_FIRST.match(row), rows  # "booing tile on" / "7 -0.37"
    for row in rows[:-1]:
        assert not row.endswith(" on"), rows


@pytest.mark.parametrize("player", ["Cy", "Ann", "Bartholomew", "Maria-Theresa"])
@pytest.mark.parametrize("width", [40, 46, 50])
def test_the_narrow_advice_keeps_a_tiles_space_with_its_words(player, width):
    view = table_view(_mid_leg(LOWER_FIRST), odds=True)
    assert view["odds"]["actions"]["values"][0]["kind"] == "tile"
    shown = dict(view, odds=dict(view["odds"], actions=dict(view["odds"]["actions"],
                                                          player=player)))
    rows = advice_rows(odds_lines(shown["odds"], shown, width=width).plain)
    assert_whole(rows, width)
    assert re.search(r"\bon 7 -0\.37 \(now \+1\.32\)", " ".join(rows)), rows


def test_the_narrow_advice_has_one_heading_whatever_the_name():
    # a long name once got "For NAME:" (when it let one more action in), a short one
    # "Best for NAME:"; one screen, one heading: the short one, which fits the most
    heads = set()
    for names, moves in ((["Bartholomew", "Cassandra", "Maximilian", "Evangeline",
                           "Fitzgerald"], ["leg purple", "win purple", "leg blue", "tile 6 +"]),
                         (["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"], []),
                         (["Ann", "Ben", "Cy"], ["leg blue"])):
        view = table_view(_session(names, moves), odds=True)
        for width in (40, 46, 50, 55):
            rows = advice_rows(odds_lines(view["odds"], view, width=width).plain)
            assert len(rows) <= 2 and all(len(row) <= width for row in rows), rows
            heads.add(HEADING.match(rows[0]).group(1))
    assert heads == {"For"}, heads


@pytest.mark.screen
def test_at_80x24_the_advice_rows_keep_each_number_with_its_words():
    app = scenes.app_for("second", ["Ann", "Ben", "Cy", "Dee"], seed=2)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, LOWER_FIRST)
            await scenes.settle(pilot)
            text = str(app.query_one("#odds").content)
            rows = advice_rows(text)
            assert HEADING.match(rows[0]).groups() == ("For", "Cy"), rows
            assert "booing tile on 7" in " ".join(r.strip() for r in rows), rows
            assert_whole(rows, app.odds_width())

    asyncio.run(play())


#: seed 7: Cy to act, the coach's best a pyramid ticket below zero, one long German word
#: before its number ("Pyramidenplättchen -0,08 (jetzt +1,00)")
PYRAMID_BEST = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg blue",
                "pyramid", "purple 1", "leg blue", "pyramid", "grey black 1", "pyramid",
                "red 2", "pyramid", "blue 2", "leg blue", "pyramid", "yellow 2", "leg purple",
                "lose blue", "pyramid", "grey white 3", "pyramid", "green 1", "pyramid",
                "blue 3", "pyramid", "purple 2", "pyramid", "yellow 3", "leg red", "pyramid",
                "purple 2", "leg purple", "leg purple", "pyramid", "red 3"]


@pytest.mark.parametrize("width", [40, 43, 46])
@pytest.mark.parametrize("lang, label", [("en", "(balance)"), ("de", "(Bilanz)")])
def test_the_narrow_advice_keeps_its_label_in_german_as_in_english(width, lang, label):
    # the German action is one word and its number: its value now parts from the number
    # so the label fits the two rows ("Für Cy:" / "Pyramidenplättchen -0,08 (jetzt
    # +1,00)" dropped it, where English kept "(balance)")
    set_language(lang)
    try:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=7)
        for line in PYRAMID_BEST:
            s.command(line)
        view = table_view(s, odds=True)
        assert view["odds"]["actions"]["values"][0]["kind"] == "pyramid"
        rows = advice_rows(odds_lines(view["odds"], view, width=width).plain)
    finally:
        set_language("en")
    assert_whole(rows, width)
    assert rows[-1].endswith(" " + label), rows
    assert rows[0] != "%s Cy:" % ("For" if lang == "en" else "Für"), rows  # never alone
