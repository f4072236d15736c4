"""Seeded tournament games for the coach's tests: the positions a race goes through
with one policy a seat, played as ``pyramid tournament`` plays game ``index`` of a
tournament seeded ``seed`` (its dice and its bots' random draws), seats unrotated.

``positions(...)`` yields the game before each action; ``played(...)`` returns the
game after them. Import it from a test module (``from coach_games import ...``:
``tests/`` is on the path)."""

from camelhost import tournament
from camelhost.table import bots
from camelup.game import Game
from camelup.rng import XorShift32


def positions(edition, styles, seed, index, actions):
    """The first ``actions`` actions of tournament game ``index`` (``seed``) with
    policy ``styles[s]`` (a name of ``bots.POLICIES``) at seat ``s``: yields the live
    ``Game`` before each of them (copy it to keep it; the next action changes it),
    stopping early when the race is over. A pyramid ticket releases a die from the
    game's seeded dice; a partnership is named by its 1-based seat."""
    number = tournament.game_seed(seed, index)
    game = Game.random(edition, len(styles), number)
    dice = XorShift32(number * 7 + 3)
    rngs = [XorShift32(number * 31 + s + 1) for s in range(len(styles))]
    for _ in range(actions):
        if game.is_over:
            return
        yield game
        text = bots.POLICIES[styles[game.turn]](game, rngs[game.turn])
        game.push(tournament.engine_action(game, text, dice))


def played(edition, styles, seed, index, actions):
    """The ``Game`` after the first ``actions`` actions of ``positions`` (fewer if the
    race ends first)."""
    last = None
    for game in positions(edition, styles, seed, index, actions):
        last = game  # the live game: the loop's next step plays the action
    return last
