"""The coach's fast paths give what the slow ones give (issue 31): the end-game's
trigger is the exact share of the leg's outcomes that end the race, the opponent
model weighs only the moves since its last answer, and the finish cards screened on
the replies' race odds leave the choice where the coach's own larger run puts it."""

import pytest
from camelhost import coach, league, tournament
from camelhost.table import bots
from camelup.game import Game
from camelup.randomplay import random_release
from camelup.rng import XorShift32

pytestmark = pytest.mark.slow  # the coach's searches

#: Blue one space from the line: the race ends this leg about two times in three.
LAST_LEG = {15: ["blue"], 13: ["green"], 11: ["orange"], 9: ["yellow"], 7: ["white"]}


def _race(edition, styles, seed, index, actions):
    """The first ``actions`` actions of tournament game ``index`` (``seed``), one
    policy a seat, unrotated; every position met on the way is yielded first."""
    number = tournament.game_seed(seed, index)
    game = Game.random(edition, len(styles), number)
    dice = XorShift32(number * 7 + 3)
    rngs = [XorShift32(number * 31 + s + 1) for s in range(len(styles))]
    for _ in range(actions):
        if game.is_over:
            return
        yield game
        text = bots.POLICIES[styles[game.turn]](game, rngs[game.turn])
        game.push(random_release(game, dice) if text == "pyramid" else text)


def test_the_end_game_share_is_the_legs_exact_chance_to_end_the_race():
    g = Game("classic", 4, dict((s, list(c)) for s, c in LAST_LEG.items()))
    exact = coach.race_ends_this_leg(g)
    rng = XorShift32(11)
    n = 4000
    ends = 0
    for _ in range(n):  # the dice alone, as the pyramid releases them
        c = g.copy(history=False)
        while not c.is_over and c.leg == 1:
            c.push(random_release(c, rng))
        ends += c.is_over
    se = (exact * (1 - exact) / n) ** 0.5
    assert 0.4 < exact < 0.9
    assert abs(ends / n - exact) < 4 * se, (ends / n, exact)
    assert coach.race_ends_this_leg(Game.random("classic", 4, 3)) == 0.0


def test_the_opponent_model_from_its_last_answer_equals_weighing_every_move():
    styles = ["ev", "cautious", "random", "tiles"]
    for game in _race("second", styles, 7, 1, 36):
        step = league.style_posterior(game, [1, 2, 3])
        kept = dict(league._BELIEFS)
        league._BELIEFS.clear()
        try:
            assert league.style_posterior(game, [1, 2, 3]) == step
        finally:
            league._BELIEFS.update(kept)


def test_screened_finish_cards_leave_the_choice_as_the_larger_run_makes_it(monkeypatch):
    positions = []
    for game in _race("classic", ["coach", "ev", "ev", "ev"], 3, 0, 30):
        if game.turn == 0 and coach.race_ends_this_leg(game) < coach.ENDGAME_SHARE:
            positions.append(game.copy())
    screened = [coach.evaluate(g) for g in positions]
    monkeypatch.setattr(coach, "SCREEN_WIDTHS", float("inf"))  # never clear: always the run
    full = [coach.evaluate(g) for g in positions]
    assert len(positions) >= 6
    kept = 0
    for a, b in zip(screened, full, strict=True):
        assert a[0][1] == b[0][1]  # the same choice
        # every action but the finish cards scored exactly alike
        assert [t for t in a if not t[1].startswith("finish")] == \
            [t for t in b if not t[1].startswith("finish")]
        kept += a == b
    assert kept < len(positions)  # some were screened: the run was not made there


def test_the_end_games_replies_kept_between_play_outs_change_no_chance(monkeypatch):
    g = Game("classic", 4, dict((s, list(c)) for s, c in LAST_LEG.items()))
    g.push("finish winner blue")
    g.push("leg green")
    race = coach.cached_race_odds(coach.position_from_game(g), seed=1, samples=1000)
    actions = [av.action for av in coach.suggestions(g)][:4]
    kept = coach.win_chances(g, actions, race, samples=60)
    play_out = coach._play_out
    monkeypatch.setattr(coach, "_play_out",
                        lambda game, action, rng, race, guesses, memo=None:
                        play_out(game, action, rng, race, guesses))
    assert coach.win_chances(g, actions, race, samples=60) == kept
