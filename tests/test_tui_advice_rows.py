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
#: a row that begins with an action's figures, its number (a signed value, or a chance
#: to win) and what follows it whole: the action's words end the row above
FIGURES_FIRST = re.compile(r"\s*([+\-\u2212]\d+[.,]\d\d|0[.,]00|\d+\s?%)( \(|$)")
#: the narrow form's heading, in either of its two old forms
HEADING = re.compile(r"(Best for|For|Für) (\S+):")


def advice_rows(text):
    """The advice's rows of the odds panel's ``text``, its heading's first."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if HEADING.match(line))
    return [line for line in lines[at:] if line.strip()]


def split_second(rows):
    """True when ``rows`` (the narrow advice) are three: the first action's row ending
    in "; ", then the second action on two rows of its own, its words whole on the first
    and its figures (its number, value now and label) on the next (s46: it was left
    out where it did not fit a row with its label)."""
    return len(rows) == 3 and rows[0].endswith(";") and not FIGURES_FIRST.match(rows[1]) \
        and bool(FIGURES_FIRST.match(rows[2]))


def assert_whole(rows, width):
    """Two rows at most (three for a second action on two of its own, ``split_second``)
    within ``width``, no number cut from its word ("booing tile on" /
    "7 -0.37"), no row a bare label, and every action's words on one row: a row after the
    first starts a new action (the row above ending in "; ") or the figures of the
    action whose words end the row above ("For Cat: green leg ticket" / "-0.60 (now
    +0.93) (balance)"; tester 43 finding 1: "green leg" / "ticket -0.60 ...")."""
    assert len(rows) <= 2 or split_second(rows), rows
    assert all(len(row) <= width for row in rows), rows
    for above, row in zip(rows[:-1], rows[1:], strict=True):
        assert not NUMBER_FIRST.match(row) or FIGURES_FIRST.match(row), rows
        assert row.strip() not in ("(balance)", "(Bilanz)"), rows
        assert above.endswith((";", ":")) or FIGURES_FIRST.match(row), rows
    for row in rows[:-1]:
        assert not row.endswith((" on", " auf")), rows


@pytest.mark.parametrize("player", ["Cy", "Ann", "Bartholomew", "Maria-Theresa"])
@pytest.mark.parametrize("width", [40, 46, 50])
def test_the_narrow_advice_keeps_a_tiles_space_with_its_words(player, width):
    view = table_view(_mid_leg(LOWER_FIRST), odds=True)
    assert view["odds"]["actions"]["values"][0]["kind"] == "tile"
    shown = dict(view, odds=dict(view["odds"], actions=dict(view["odds"]["actions"],
                                                          player=player)))
    rows = advice_rows(odds_lines(shown["odds"], shown, width=width).plain)
    assert_whole(rows, width)
    assert re.search(r"\bon 7\s+-0\.37 \(now \+1\.32\)", " ".join(rows)), rows


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
            assert (len(rows) <= 2 or split_second(rows)) and all(
                len(row) <= width for row in rows), rows
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
            assert "booing tile on 7" in rows[0], rows  # the action whole (tester 43)
            assert_whole(rows, app.odds_width())
            assert rows[-1].endswith(" (balance)"), rows  # with its figures, never alone

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


@pytest.mark.parametrize("lang, action, label", [
    ("en", "purple leg ticket", "(balance)"), ("de", "Wettpl\u00e4ttchen lila", "(Bilanz)")])
def test_the_narrow_advice_keeps_an_actions_words_whole_and_its_label(lang, action, label):
    """Tester 43 finding 1: "For Cat: green leg ticket -0.60 (now +0.93)" filled the
    heading's line, and its label was kept by parting the action's own words, "For Cat:
    green leg" / "ticket -0.60 (now +0.93) (balance)"; tester s38 wanted no bare
    "(balance)" line. The action stays whole on the heading's line and its number, value
    now and label go on the next together, in English and German, at every narrow
    width."""
    set_language(lang)
    try:
        view = table_view(_session(["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"], []),
                          odds=True)
        shown = {width: advice_rows(odds_lines(view["odds"], view, width=width).plain)
                 for width in range(38, 56)}
    finally:
        set_language("en")
    for width, rows in shown.items():
        assert_whole(rows, width)
        assert action in rows[0], (width, rows)
        assert rows[-1].endswith(" " + label), (width, rows)
    # the tester's case: the action whole fits the heading's line, its label does not
    assert shown[44 if lang == "en" else 43][1].strip() == "-0%s68 (%s +1%s92) %s" % (
        ("." if lang == "en" else ","), ("now" if lang == "en" else "jetzt"),
        ("." if lang == "en" else ","), label), shown


#: seed 5, Dee to act: two actions at 80x24, the second long ("booing tile on 4 -0.76
#: (now +1.29)", the second row with its label exactly the panel's 46 columns)
LONG_SECOND = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg green",
               "leg red", "leg green", "leg green", "leg blue", "leg yellow", "tile 5 +",
               "leg green", "leg yellow", "leg purple", "tile 7 -"]


def second_action(rows):
    """The second action's words and figures in ``rows`` (the narrow advice), each as
    the rows it stands on: ``(words, figures)``, ``[(row, text), ...]`` each; ``None``
    when one action shows."""
    said = [(at, word) for at, row in enumerate(rows) for word in row.split()]
    ends = [i for i, (_at, word) in enumerate(said) if word.endswith(";")]
    if not ends:
        return None
    rest = said[ends[0] + 1:]
    first_figure = next(i for i, (_at, word) in enumerate(rest) if NUMBER_FIRST.match(word)
                        and not word.startswith("("))
    return rest[:first_figure], rest[first_figure:]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_long_second_action_keeps_its_words_and_its_figures_whole(lang):
    # s45 (closing 44, seen only in reasoning): with two actions at 80x24 a long second
    # action's figures could go on the next row apart, where the first action's number,
    # value now and label go on together. Not found in any position searched (a
    # second action's whole part fits a row; one longer is left out): this real one
    # keeps it so at every narrow width
    set_language(lang)
    try:
        s = Session("second", ["Annabelle", "Bartholomew", "Cyrillus", "Dee"], seed=5)
        for line in LONG_SECOND:
            s.command(line)
        view = table_view(s, odds=True)
        shown = {(width, noted): advice_rows(odds_lines(view["odds"], view, width=width,
                                                        noted=noted).plain)
                 for width in range(38, 56) for noted in (False, True)}
    finally:
        set_language("en")
    twice = 0
    for (width, _noted), rows in shown.items():
        # without the note line (noted), wrapped or not
        rows = rows[:next((i for i, row in enumerate(rows) if row.startswith("(")),
                          len(rows))]
        assert_whole(rows, width)
        second = second_action(rows)
        if second is None:
            continue
        twice += 1
        words, figures = second
        assert len({at for at, _word in words}) == 1, (width, rows)
        assert len({at for at, _word in figures}) == 1, (width, rows)
    if lang == "de":  # German's longer words leave one action here, whole
        return
    assert twice >= 10, shown
    assert shown[(46, False)] == ["For Dee: cheering tile on 4 -0.46 (now +1.22);",
                                  "  booing tile on 4 -0.76 (now +1.29) (balance)"], shown


#: seed 27, Ben to act: the coach's second action a pyramid ticket below zero that pays
#: now, one long German word before its number ("Pyramidenplättchen -2,88 (jetzt +1,00)")
PYRAMID_SECOND = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "pyramid",
                  "yellow 2", "pyramid", "green 1", "leg yellow", "leg purple", "pyramid",
                  "red 1", "leg green", "pyramid", "blue 3", "pyramid", "grey white 3",
                  "pyramid", "yellow 1", "pyramid", "grey white 1", "leg yellow", "pyramid",
                  "green 3", "pyramid", "blue 1"]


def test_a_german_pyramid_ticket_second_keeps_the_label_as_the_first_does():
    # s45: the parting that keeps a label ("Für Cy: Pyramidenplättchen" / "-0,08 (jetzt
    # +1,00) (Bilanz)") is one path for the first and the second action; where it shows,
    # its figures and the label stand together. s46: at the 80x24 panel's 46 columns
    # this second action, 49 columns with its label, was left out; it stands on two
    # rows of its own instead, its word, then its figures and the label
    set_language("de")
    try:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=27)
        for line in PYRAMID_SECOND:
            s.command(line)
        view = table_view(s, odds=True)
        second = view["odds"]["actions"]["values"][1]
        assert second["kind"] == "pyramid" and second["score"] < 0 <= second["ev"], second
        shown = {width: advice_rows(odds_lines(view["odds"], view, width=width).plain)
                 for width in range(38, 56)}
    finally:
        set_language("en")
    seconds = 0
    for width, rows in shown.items():
        assert_whole(rows, width)
        assert rows[-1].endswith(" (Bilanz)"), (width, rows)
        found = second_action(rows)
        if found is not None:
            seconds += 1
            words, figures = found
            assert [word for _at, word in words] == ["Pyramidenplättchen"], (width, rows)
            assert len({at for at, _word in figures}) == 1, (width, rows)
    assert seconds, shown
    assert shown[46] == ["Für Ben: Wettplättchen grün +1,85;", "  Pyramidenplättchen",
                         "  -2,88 (jetzt +1,00) (Bilanz)"], shown
    assert shown[55] == ["Für Ben: Wettplättchen grün +1,85;",
                         "  Pyramidenplättchen -2,88 (jetzt +1,00) (Bilanz)"], shown


#: seed 165, Cy to act: the coach's second action a cheering tile whose row, even
#: without the label (the note line says it), is 47 columns in German, one more than
#: the 80x24 panel's 46 ("  Plättchen (Anfeuern) auf 4 -0,19 (jetzt +1,22)")
TILE_SECOND = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg red",
               "tile 11 -"]


@pytest.mark.screen
def test_at_80x24_in_german_a_long_second_action_takes_two_rows_not_left_out():
    # s46 (closing 45): the second action was left out ("Für Cy: Wettplättchen lila
    # +0,52" alone); the screen has the row to spare, so it stands on two of its own
    set_language("de")
    try:
        app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=165)

        async def play():
            async with app.run_test(size=(80, 24)) as pilot:
                await scenes.type_lines(pilot, TILE_SECOND)
                await scenes.settle(pilot)
                return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]

        rows = asyncio.run(play())
    finally:
        set_language("en")
    at = rows.index("Für Cy: Wettplättchen lila +0,52;")
    assert rows[at + 1:at + 4] == ["  Plättchen (Anfeuern) auf 4", "  -0,19 (jetzt +1,22)",
                                   "(Bilanz: jetzt minus Gewinne der Nächsten)"], rows
    assert rows[-2] == "> Cy ist am Zug (leg / tile / win / lose / pyramid)", rows
