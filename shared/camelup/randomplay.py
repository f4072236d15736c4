"""Random legal play for tests, bots and benchmarks (deterministic per seed on both runtimes)."""

from camelup.actions import PYRAMID, Action
from camelup.editions import GREY, INKS
from camelup.rng import XorShift32


def random_release(game, rng):
    """The pyramid ticket of a die drawn as the pyramid releases one (RULES 1.4, 3.4):
    a die uniform among those still inside, a uniform face 1-3 and, for the grey die,
    a uniform ink. Draws from ``rng`` (``XorShift32``) in that order. Returns an
    ``Action``; raises ``IndexError`` when no die is inside (the race is over)."""
    die = rng.choice(game.dice_in_pyramid())
    value = 1 + rng.below(3)
    ink = INKS[rng.below(2)] if die == GREY else None
    return Action.pyramid(die, value, ink)


def random_action(game, rng, pyramid_share=2):
    """A random legal action for the seat to act, drawn with ``rng`` (``XorShift32``).

    With probability ``1/pyramid_share`` a pyramid ticket is taken (die uniform among
    those inside, face uniform, as the pyramid does, RULES 1.4); otherwise a uniform
    choice among the other legal actions. Returns ``None`` once the race is over.
    """
    if game.is_over:
        return None
    if rng.below(pyramid_share) == 0:
        return random_release(game, rng)
    others = [a for a in game.legal_actions() if a.kind != PYRAMID]
    if not others:
        return random_release(game, rng)
    return rng.choice(others)


def random_game(edition, players, seed, max_actions=2000):
    """Set up a race from ``seed`` and play random legal actions until it is over.
    Returns the finished ``Game`` (with its history). Raises ``RuntimeError`` if the
    race is not over after ``max_actions`` actions."""
    from camelup.game import Game

    rng = XorShift32(seed * 7919 + 1)
    game = Game.random(edition, players, seed)
    while not game.is_over:
        if len(game.history) >= max_actions:
            raise RuntimeError("race not over after %d actions" % max_actions)
        game.push(random_action(game, rng))
    return game
