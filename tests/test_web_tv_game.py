"""Whole seeded games on a 720p TV (1280x720), eight German players with long names and
partnerships, in the real headless browser: the page never scrolls, at any step, and
nothing a player needs is pushed off the screen.

``test_web_small_laptop_game.py`` plays such a game at 1024x768; at 1280x720 the same
games stood 752-848 px tall at some steps: the advice's finish-card sentences
(``eine Wettkarte auf den Stapel Gesamtsieger, die Farbe ungesehen gewählt, bewertet, als
hättest du noch jede Farbe``), five lines each in the advice's quarter of the width, under
a five-high stack and a three-line last die; at the race's end the last leg's scoring,
its chips wrapped two and three high beside the ranking, pushed the track under the
screen. Every view is the table's own (``table_view`` of a ``Session`` driven by typed
commands, ``test_web_small_laptop_game.game``), its odds and advice from a smaller seeded
sample (``test_web_layout.view_of``)."""

import pytest
from test_web_layout import (  # noqa: F401  (tab: the module's browser page, a fixture)
    TV,
    Shown,
    boxes,
    extent,
    long_names,
    publish,
    tab,
    view_of,
)
from test_web_small_laptop_game import game

pytestmark = [pytest.mark.xdist_group("web_browser"), pytest.mark.process]

#: German names as a table types them, the longest of them (Bartholomäus, Friederike)
#: shortened on the cards
GERMAN = ["Friederike", "Maximilian", "Konstantin", "Alexandra", "Hannelore", "Bartholomäus",
          "Wolfgang", "Sebastian"]

#: What a player reads on the TV, each of which must lie on the screen wherever the page
#: shows it: the players' cards (or a leg's scoring, or the final ranking), the odds'
#: rows, the advice, the tickets left and the finish piles' counts, the last die, the
#: track, the reveal
NEEDED = ("#players .player", ".odds-row", "#best li", "#best-title", ".ticket-row",
          "#pyramid-tickets", ".pile-count", "#announce", "#track", "#dice-inside .die",
          "#leading", "#leg-table tr", "#final-ranking li", ".revealed li")


def outside(page):
    """``(selector, box)`` for each visible element of ``NEEDED`` not wholly on the
    screen, its bounding box ``[left, top, right, bottom]`` (one call to the page)."""
    return page.evaluate("""([selectors, w, h]) => selectors.flatMap(s =>
        [...document.querySelectorAll(s)].filter(e => e.offsetParent !== null)
            .map(e => { const r = e.getBoundingClientRect(); return [s, [r.left, r.top, r.right, r.bottom]]; })
            .filter(([, b]) => !(b[0] >= -0.5 && b[1] >= -0.5 && b[2] <= w + 0.5 && b[3] <= h + 0.5)))""",
                         [list(NEEDED), *TV])


def shown_rows(page):
    """How many rows the page shows for the players: their cards during the race, a leg's
    scoring in their place just after it, the final ranking at the race's end."""
    for selector in ("#final-ranking li", "#leg-table tr", "#players .player"):
        rows = boxes(page, selector)
        if rows:
            return len(rows)
    return 0


@pytest.mark.parametrize("names, seed", [(long_names(8), 3), (GERMAN, 2)],
                         ids=["24-letter-names-seed3", "german-names-seed2"])
def test_a_whole_german_game_of_eight_never_scrolls_a_720p_tv(tab, names, seed):  # noqa: F811
    from camelhost.i18n import set_language
    set_language("de")
    try:
        steps = game(names, seed)
        first = view_of(next(steps))
        seen, too_big, off_screen, rows_missing = 1, [], [], []
        with Shown(tab, first, TV) as page:
            for s in steps:
                view = view_of(s)
                publish(page, view)
                seen += 1
                width, height = extent(page)
                if width > TV[0] or height > TV[1]:
                    too_big.append((seen, s.phase, width, height))
                for selector, box in outside(page):
                    off_screen.append((seen, s.phase, selector, box))
                if s.phase != "setup" and shown_rows(page) != len(names):
                    rows_missing.append((seen, s.phase, shown_rows(page)))
                if s.phase == "turn":  # the advice for the player on turn, three actions
                    advice = boxes(page, "#best li.advice")
                    assert len(advice) == 3 or not view["odds"]["actions"], (seen, advice)
            assert page.problems == []
        assert s.phase == "over" and seen > 60, seen  # the whole race, the reveal too
        assert too_big == [], too_big
        assert off_screen == [], off_screen
        assert rows_missing == [], rows_missing
    finally:
        set_language("en")
