"""Full-screen papercuts of s35 (tester and engineers), each through what the table
shows at 80x24: the coins the zero floor would forgive in the players' ``now`` column
(RULES 1.9), a leg-ending die's own line in the history with the leg's scoring, the
race so far in the history after a resume, the undo question shown whole with its
answers, the leg's scoring in view (not the next leg's advice) while an undo of it is
asked, and a crazy camel's banner."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.panels import players_text

pytestmark = pytest.mark.screen

P3 = ["Ann", "Ben", "Cy"]
#: Ann takes four leg tickets of camels behind the first two (blue twice, green, red):
#: if the leg ended now she would owe 4 of her 3 coins, 1 forgiven (RULES 1.9)
OWES_MORE = [scenes.SECOND_SETUP, "leg blue", "leg purple", "leg yellow", "leg blue",
             "leg purple", "leg yellow", "leg green", "leg purple", "leg yellow", "leg red"]


def screen_lines(app):
    """What the terminal shows, one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _owing_more():
    s = Session("second", P3, seed=2)
    for line in OWES_MORE:
        s.command(line)
    return s


@pytest.mark.parametrize("lang, words", [("en", "* coins forgiven: Ann 1"),
                                         ("de", "* erlassene EP: Ann 1")])
def test_the_now_column_marks_coins_the_zero_floor_would_forgive(lang, words):
    # s35: Ann at 3 coins owing 4 read '-3' in 'now', and a player at 0 owing 2 read
    # '+0', as if nothing were owed; the leg-scoring panel says '1 coin forgiven'
    set_language(lang)
    try:
        view = table_view(_owing_more(), odds=False)
        assert {r["name"]: (r["net"], r["forgiven"]) for r in view["leg_now"]}["Ann"] == (-3, 1)
        for compact in (False, True):
            rows = players_text(view, 33, compact=compact).plain.splitlines()
            ann = next(r for r in rows if r[1:].startswith("Ann"))
            assert " -3* " in ann, rows
            assert not any("*" in r for r in rows if r[1:].startswith(("Ben", "Cy"))), rows
            assert rows[-1].strip() == words, rows
    finally:
        set_language("en")


def test_nothing_forgiven_adds_no_mark_and_no_line():
    s = Session("second", P3, seed=2)
    for line in OWES_MORE[:4]:
        s.command(line)
    rows = players_text(table_view(s, odds=False), 33).plain
    assert "*" not in rows and "forgiven" not in rows


def test_the_forgiven_coins_show_on_the_full_screen_at_80x24(tmp_path):
    app = scenes.app_for("second", P3, tmp=tmp_path, odds=scenes.no_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, OWES_MORE)
            await scenes.settle(pilot)
            shown = screen_lines(app)
            assert any("Ann" in row and " -3* " in row for row in shown), shown
            assert any("* coins forgiven: Ann 1" in row for row in shown), shown

    asyncio.run(play())
