"""Eight players' crowded moments on a TV, a small laptop and a phone (tester s44
findings 1, 2 and 7), in the real headless browser: the race's end with eighteen finish
cards and a last leg of partnerships, a race mid-leg with partnerships, tiles and cards
played (its players' cards three and four lines each), and a tile at the end of a phone's
track row. Each view is the table's own (``table_view`` of a session driven by typed
commands, ``test_web_layout.view_of``)."""

import pytest
from camelhost.table.session import Session
from test_web_layout import (  # noqa: F401  (tab: the module's browser page, a fixture)
    PHONE,
    SEATS,
    SMALL_LAPTOP,
    TV,
    Shown,
    boxes,
    extent,
    inside,
    replaying,
    resize,
    screenshot,
    tab,
    under_the_bar,
    view_of,
)

pytestmark = [pytest.mark.xdist_group("web_browser"), pytest.mark.process]

#: each seat's finish cards, in the order they lay them: seven on the winner pile, eleven
#: on the loser pile (the tester's demo: 7 + 11)
CARDS = (("win blue", "lose red", "lose green"), ("lose purple", "win yellow", "lose blue"),
         ("win green", "lose red"), ("win red", "lose green"), ("lose blue", "win purple"),
         ("lose yellow", "win red"), ("lose green", "win blue"), ("lose purple", "lose yellow"))


def eighteen_cards(names):
    """A race over: eight players, four partnerships, two leg tickets each and pyramid
    tickets in its last leg (its scoring three and four chips a player), 7 finish cards on
    the winner pile and 11 on the loser pile, a four-camel stack left on the track."""
    s = Session("second", names, seed=3)
    s.command("setup 1:blue 2:green 3:yellow,red,purple 14:black 15:white")
    legs = iter(("blue", "green", "red", "yellow", "yellow", "purple", "red", "green", "blue",
                 "purple", "yellow", "red"))
    dice = iter(("purple 1", "red 1", "green 1", "blue 1"))
    for seat in range(len(names)):
        s.command("partner %s" % names[seat + 1] if seat % 2 == 0 else "leg %s" % next(legs))
    for turn in range(3):
        for cards in CARDS:
            if turn < len(cards):
                s.command(cards[turn])
            elif turn == 1:
                s.command("leg %s" % next(legs))
            else:
                die = next(dice, None)
                s.command("pyramid" if die else "leg %s" % next(legs))
                if die:
                    s.command(die)
    s.command("fix 13:blue,green,black,white 16:yellow,red,purple")
    s.command("pyramid")
    s.command("yellow 2")
    assert s.phase == "over"
    return s


#: a German table's eight names, as tester s44 typed them
GERMAN = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Gustav", "Hanna"]

#: the first 2 1/2 legs of tester s44's eight-player game (journal g1, 74 events), typed:
#: partnerships every leg, four tiles, finish cards on both piles, the grey die both ways
THREE_LEGS = (
    "leg yellow", "tile 5 +", "partner Emil", "pyramid", "purple 3", "leg blue", "lose red",
    "lose red", "partner Anna", "win yellow", "pyramid", "red 2", "tile 8 -", "leg green",
    "leg yellow", "partner Dieter", "leg yellow", "leg yellow", "pyramid", "green 1", "leg blue",
    "pyramid", "blue 2", "lose red", "pyramid", "yellow 1", "leg yellow", "partner Frieda",
    "leg yellow", "tile 13 +", "tile 11 -", "partner Dieter", "pyramid", "green 3", "leg green",
    "leg green", "leg green", "partner Emil", "pyramid", "yellow 1", "leg blue", "pyramid",
    "purple 2", "win green", "pyramid", "blue 3", "leg blue", "leg blue", "leg blue", "pyramid",
    "grey white 3", "tile 9 +", "tile 14 -", "leg blue", "pyramid", "grey black 2",
    "partner Dieter", "leg green", "partner Gustav", "pyramid", "yellow 2", "leg green",
    "pyramid", "red 2", "pyramid", "blue 3", "partner Anna", "win green", "leg green",
    "leg green")


def crowded_cards(names):
    """Leg 3 of an eight-player race, Anna to act after blue 3 carried white, yellow and
    green onto black (a five-camel stack on 15): three partnerships, two tiles, tickets and
    finish cards played, the advice two finish-card sentences (tester s44 finding 7)."""
    s = Session("second", names, seed=4444)
    s.command("setup 1:red 3:purple,green,blue,yellow 15:white 16:black")
    for text in THREE_LEGS:
        s.command(text)
    assert s.game.leg == 3 and s.phase == "turn" and len(s.game.stacks[15]) == 5
    return s


def fits_live_and_in_a_replay(tab, view, name, needed, counts):  # noqa: F811
    """``view`` on the page at 1280x720 and 1024x768, live and in a replay: the page no
    larger than the screen, each of ``needed`` (selectors) wholly on it and none under
    the replay's control bar, ``counts`` (selector: how many) all shown."""
    from camelhost.i18n import language
    for shown in (view, replaying(view)):
        with Shown(tab, shown, TV) as page:
            for size in (TV, SMALL_LAPTOP):
                resize(page, size)
                what = (language(), "replay" in shown, size)
                screenshot(page, "%s-%s-%dx%d" % (name, language(), *size))
                assert extent(page)[0] <= size[0] and extent(page)[1] <= size[1], \
                    (what, extent(page))
                for selector, n in counts.items():
                    assert len(boxes(page, selector)) == n, (what, selector)
                found = [b for s in needed for b in boxes(page, s)]
                assert [b for b in found if not inside(b, size)] == [], what
                assert under_the_bar(page, found) == [], what
            assert page.problems == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_race_end_with_eighteen_finish_cards_fits_a_tv_and_a_small_laptop(tab, lang):  # noqa: F811
    # tester s44 finding 1: eight players, 7 + 11 finish cards and a last leg of four
    # partnerships stood 797 px tall at 1280x720 and 926 px at 1024x768, the track below
    # the fold; in a replay the control bar lay over the track's stacks
    from camelhost.i18n import set_language
    set_language(lang)
    try:
        view = view_of(eighteen_cards(list(SEATS)))
        assert [len(view["final"]["piles"][p]) for p in ("winner", "loser")] == [7, 11]
        # the final order and scores, every revealed card, each player's net of the last
        # leg and the track: all on the screen
        fits_live_and_in_a_replay(
            tab, view, "eighteen-cards",
            ("#final-ranking li", ".revealed li", "#leg-table tr", "#leg-table .net", "#track"),
            {"#final-ranking li": 8, ".revealed li": 18, "#leg-table .net": 8})
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_eight_players_cards_and_the_advice_mid_race_fit_a_tv(tab, lang):  # noqa: F811
    # tester s44 finding 7: the players' cards four lines each in their column reached
    # 724 px at 1280x720 (German), the advice 714 in English; in a replay the control bar
    # lay over the last cards. A German replay of it stood 780 px tall at 1024x768, a
    # replay fits that size too (docs/web.md)
    from camelhost.i18n import set_language
    set_language(lang)
    try:
        fits_live_and_in_a_replay(
            tab, view_of(crowded_cards(GERMAN)), "crowded-cards",
            ("#players .player", "#best li", "#best-note", ".odds-row", ".ticket-row"),
            {"#players .player": 8, "#best li.advice": 3})
    finally:
        set_language("en")


@pytest.mark.parametrize("lang, words", [("en", ("cheering", "booing")),
                                         ("de", ("Anfeuern", "Ausbuhen"))])
def test_a_tile_at_the_end_of_a_phones_track_row_shows_its_owner_whole(tab, lang, words):  # noqa: F811
    # tester s44 finding 2: on a phone (six spaces a row) a tile on space 6 or 12 has no
    # right neighbour to spill into, and its owner was cut to one letter ('H… cheering')
    from camelhost.i18n import set_language
    set_language(lang)
    try:
        s = Session("second", list(SEATS[:4]), seed=3)
        s.command("setup 1:blue 2:green 3:yellow,red,purple 15:black 16:white")
        s.command("tile 6 +")
        s.command("tile 12 -")
        with Shown(tab, view_of(s), PHONE) as page:
            screenshot(page, "row-end-tiles-%s" % lang)
            shown = page.eval_on_selector_all("#track .tile", """ts => ts.map(t => {
                const r = t.querySelector('rect').getBoundingClientRect(),
                      w = t.querySelector('text').getBoundingClientRect();
                return [t.querySelector('text').textContent, r.left <= w.left + 0.5
                        && w.right <= r.right + 0.5]; })""")
            assert shown == [["Ann " + words[0], True], ["Ben " + words[1], True]], shown
            assert extent(page)[0] <= PHONE[0]
            assert page.problems == []
    finally:
        set_language("en")
