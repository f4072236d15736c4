"""Bots: legal, deterministic, and they take the action the odds value most."""

import pytest
from camelhost.table import bots
from camelhost.table.session import Session
from camelup.game import Game


def test_bot_takes_the_best_valued_legal_action():
    # RULES 1.10, 1.13: white far ahead, sure to lead the leg and likely to win the
    # race: its 5 leg ticket or its winner card, never the pyramid ticket's 1 coin.
    g = Game("classic", 3, {1: ["blue", "green", "orange"], 2: ["yellow"], 12: ["white"]})
    text, value = bots.choose(g)
    assert text in ("leg white", "finish winner white") and value > 4
    quick_text, _ = bots.choose(g, quick=True)
    assert quick_text == "leg white"


@pytest.mark.slow
def test_bot_choice_is_deterministic_and_a_whole_bot_game_ends():
    s = Session("second", ["Ann", "Ben", "Cy"], seed=8, bots=[0, 1, 2])
    s.command("draw")
    first = bots.choose(s.game.copy(), s.names)
    assert bots.choose(s.game.copy(), s.names) == first
    turns = 0
    from camelup.rng import XorShift32
    rng = XorShift32(8)
    while s.phase != "over":
        text, _ = bots.choose(s.game, s.names, quick=True)
        if text == "pyramid":
            inside = s.game.dice_in_pyramid()
            die = inside[rng.below(len(inside))]
            text = "grey black 2" if die == "grey" else "%s %d" % (die, 1 + rng.below(3))
        s.command(text)
        turns += 1
        assert turns < 500
    assert sum(s.result["coins"]) >= 0 and s.result["winner"] in s.edition.racing
