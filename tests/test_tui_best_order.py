"""The full screen's 'Best for' list and plain mode's ``best`` give the table's advice
in the coach's order (``camelhost.table.bots.suggestions``: best first), one entry per
kind on the full screen; once was a fixed order with the best action last."""

import re

from camelhost.table import bots
from camelhost.table.narration import best_lines
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.odds_view import odds_lines

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"

CASES = ((["Ann", "Ben", "Cy"], []),
         (["Ann", "Ben", "Cy"], ["leg blue", "leg blue"]),
         (["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"], ["leg red"]))


def _session(players, commands):
    s = Session("second", players, seed=3)
    for line in [SETUP] + commands:
        s.command(line)
    return s


def _kind(part):
    if " leg ticket " in part:
        return "leg"
    for kind in ("pyramid", "tile", "partner"):
        if kind in part:
            return kind
    raise AssertionError("unknown advice %r" % part)


def test_full_screen_best_for_follows_the_coachs_order():
    for players, commands in CASES:
        s = _session(players, commands)
        advice = [av.kind for av in bots.suggestions(s.game)]
        first = []
        for kind in advice:
            if kind not in first:
                first.append(kind)
        view = table_view(s, odds=True)
        text = str(odds_lines(view["odds"], view, width=200))
        best = text.split("Best for", 1)[1].split("\n", 1)[0].split(":", 1)[1]
        shown = [_kind(p) for p in best.split(";")]
        assert len(shown) >= 3, best
        assert shown == first[:len(shown)], (best, advice)
        values = [float(v) for v in re.findall(r" ([+-]\d+\.\d\d)", best)]
        assert len(values) == len(shown)


def test_plain_best_lists_the_coachs_advice_best_first():
    s = _session(["Ann", "Ben", "Cy"], ["leg blue"])
    line = best_lines(table_view(s, odds=True))[0]
    advice = bots.suggestions(s.game)
    assert advice and all(av.kind != "finish" for av in advice)  # the hand is private
    assert line == "Best for Ben: " + "; ".join(av.reason for av in advice[:6])


def test_in_the_end_game_the_advice_shows_the_chance_to_win():
    # a whole race played by quick bots up to a leg that likely ends it: the best few
    # carry the player's chance to win, ordered by it, on both screens
    from camelhost import coach
    from camelup.rng import XorShift32
    s = Session("classic", ["Ann", "Ben", "Cy", "Dee"], seed=4)
    s.command("draw")
    rng = XorShift32(4)
    while coach.race_ends_this_leg(s.game) < coach.ENDGAME_SHARE:
        text, _ = bots.choose(s.game, s.names, quick=True)
        if text == "pyramid":
            inside = s.game.dice_in_pyramid()
            text = "%s %d" % (inside[rng.below(len(inside))], 1 + rng.below(3))
        s.command(text)
        assert s.phase == "turn"
    view = table_view(s, odds=True)
    values = view["odds"]["actions"]["values"]
    chances = [v["win"] for v in values if v["win"] is not None]
    assert chances and chances == sorted(chances, reverse=True)
    assert values[0]["win"] == chances[0]
    name = s.names[s.game.turn]
    assert best_lines(view)[0].startswith("Best for %s: " % name)
    assert ", win %d %%" % round(100 * chances[0]) in best_lines(view)[0]
    text = str(odds_lines(view["odds"], view, width=200))
    assert " win %d %%" % round(100 * chances[0]) in text.split("Best for", 1)[1]
