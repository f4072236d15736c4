"""A whole seeded game on a small laptop's screen (1024x768), eight German players with
24-letter names, in the real headless browser: the page never scrolls, at any step.

``test_web_layout.py`` measures a few chosen states; a game goes through many more: at
some steps the advice's long German sentences (a finish card's, twice, with a
partnership), eight players' cards of four lines, a two-line last die over a six-high
stack made the page 774-848 px tall. Every view here is the table's own (``table_view``
of a ``Session`` driven by typed commands: the bots' quick choices, and a seeded third of
the turns any legal action, so partnerships, tiles and finish cards come too), its odds
and advice from a smaller seeded sample (``test_web_layout.view_of``)."""

import re

import pytest
from camelhost import league
from camelhost.table import bots
from camelhost.table.session import Session
from camelup.rng import XorShift32
from test_web_layout import (  # noqa: F401  (tab: the module's browser page, a fixture)
    SMALL_LAPTOP,
    Shown,
    extent,
    long_names,
    publish,
    resize,
    tab,
    view_of,
)

pytestmark = [pytest.mark.xdist_group("web_browser"), pytest.mark.process]


def game(names, seed):
    """Each position of a seeded second-edition race with ``names``, its setup drawn,
    to its end: yields the session after every command."""
    s = Session("second", names, seed=seed)
    s.command("draw")
    rng = XorShift32(seed)
    for _ in range(400):
        if s.phase == "over":
            return
        if s.phase == "turn":
            text = league.random_command(s.game, rng) if rng.below(3) == 0 else None
            if text is None:
                text, _ = bots.choose(s.game, s.names, quick=True)
            elif text.startswith("partner "):
                text = "partner " + s.names[int(text.split()[1]) - 1]
            elif text.startswith("finish "):
                _, pile, colour = text.split()
                text = ("win " if pile == "winner" else "lose ") + colour
        else:  # a pyramid ticket waits for its die
            inside = s.game.dice_in_pyramid()
            die, value = inside[rng.below(len(inside))], 1 + rng.below(3)
            text = ("grey %s %d" % (("black", "white")[rng.below(2)], value)
                    if die == "grey" else "%s %d" % (die, value))
        s.command(text)
        yield s
    raise AssertionError("the race did not end in 400 commands")


@pytest.mark.parametrize("seed", [3])
def test_a_whole_german_game_of_eight_never_scrolls_a_small_laptop(tab, seed):  # noqa: F811
    from camelhost.i18n import set_language
    set_language("de")
    try:
        steps = game(long_names(8), seed)
        first = view_of(next(steps))
        seen, too_big = 1, []
        with Shown(tab, first, SMALL_LAPTOP) as page:
            for s in steps:
                view = view_of(s)
                publish(page, view)
                seen += 1
                width, height = extent(page)
                if width > SMALL_LAPTOP[0] or height > SMALL_LAPTOP[1]:
                    too_big.append((seen, s.phase, width, height))
            assert page.problems == []
        assert s.phase == "over" and seen > 60, seen  # the whole race, the reveal too
        assert too_big == [], too_big
    finally:
        set_language("en")


def partners_race_over(names):
    """A race ended by the die after three partnerships: two players hold a copy of their
    partner's purple leg ticket in the last leg's scoring (RULES 3.8)."""
    s = Session("second", names, seed=3)
    for text in ("setup 1:blue 2:green 3:yellow,red,purple 14:black 15:white",
                 "fix 14:blue 15:green 16:yellow,red,purple 10:black 11:white",
                 "leg purple", "partner " + names[0], "leg purple", "partner " + names[2],
                 "leg yellow", "partner " + names[4], "pyramid", "yellow 2"):
        s.command(text)
    assert s.phase == "over"
    return s


@pytest.mark.parametrize("lang, words", [("en", "from "), ("de", "von ")])
def test_a_partners_copy_keeps_to_its_chip_at_the_race_end(tab, lang, words):  # noqa: F811
    # at 1024x768 'von Flowolfeschlegelsteinhau +1' ran over the coins and out of the page
    from camelhost.i18n import set_language
    set_language(lang)
    names = long_names(8)
    try:
        with Shown(tab, view_of(partners_race_over(names)), SMALL_LAPTOP) as page:
            for size in (SMALL_LAPTOP, (1280, 720), (1920, 1080)):
                resize(page, size)
                assert extent(page)[0] <= size[0], (size, extent(page))
                chips = page.eval_on_selector_all("#leg-table tr", """rs => rs.flatMap(r =>
                    [...r.querySelectorAll('.chip.copy')].map(c => {
                        const cell = c.closest('td').getBoundingClientRect(),
                              box = c.getBoundingClientRect();
                        return [r.dataset.name, c.textContent, c.querySelector('.name').title,
                                c.scrollWidth <= c.clientWidth,
                                box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5]; }))""")
                assert [(c[0], c[2]) for c in chips] == [(names[1], names[0]),
                                                          (names[3], names[2])], size
                for who, text, whole, fits, within in chips:
                    assert re.fullmatch(re.escape(words + whole) + r" \+\d", text), (size, text)
                    assert fits and within, (size, who, text)
            assert page.problems == []
    finally:
        set_language("en")
