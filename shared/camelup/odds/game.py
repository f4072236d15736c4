"""Adapters from the rules engine (``camelup.game.Game``) and the position notation to the
odds' compact ``camelup.odds.Position``.

Layer just above ``camelup.odds.board``; ``leg``, ``tiles``, ``race`` and ``actions``
read games through ``as_position``. Runs on MicroPython too (it only reads the game's
public attributes).
"""

from camelup.game import parse_position
from camelup.odds.board import TRACK, Position


def as_position(obj):
    """Return ``obj`` as a ``Position``: a ``Position`` itself, or a rules-engine game
    (through ``position_from_game``). Raises ``TypeError`` for anything else."""
    if isinstance(obj, Position):
        return obj
    return position_from_game(obj)


def position_from_game(game):
    """The ``Position`` of a ``camelup.game.Game`` for the leg being played.

    Stacks, tiles (side +1 for ``"+"``, -1 for ``"-"``, owner = seat) and the dice
    still inside (``game.dice_in_pyramid()``). Dice still to come out this leg:
    classic all of them (RULES 2.4); second ``pyramid tickets left`` (= dice inside
    minus one, RULES 3.4). A race that is over reveals nothing: the odds are then
    the final ranking. Raises ``TypeError`` for an object that is not a game.
    """
    try:
        edition = game.edition.name
        stacks = game.stacks
        tiles = game.tiles
        dice = list(game.dice_in_pyramid())
        over = game.is_over
    except AttributeError:
        raise TypeError("not a camelup.game.Game: %r" % (game,)) from None
    coded_tiles = {}
    for space in tiles:
        owner, side = tiles[space]
        coded_tiles[space] = (1 if side == "+" else -1, owner)
    track = {}
    for space in stacks:
        if 1 <= space <= TRACK:
            track[space] = list(stacks[space])
    crossed = [s for s in stacks if not 1 <= s <= TRACK]
    if over or crossed:
        return _over_position(edition, stacks)
    # the dice to come out this leg: all but the edition's dice_left_inside (Position)
    return Position(edition, track, coded_tiles, dice=dice)


def _over_position(edition, stacks):
    """A finished race as a ``Position`` with nothing left to reveal.

    Stacks past the line are merged onto space 16 (crossed forward) or space 1
    (carried backwards) in board order, which keeps the ranking (RULES 1.11, 3.7).
    """
    track = {}
    for space in sorted(stacks):
        target = min(TRACK, max(1, space))
        track[target] = track.get(target, []) + list(stacks[space])
    out = Position(edition, track, {}, dice=[], reveals=0)
    out.over = True
    return out


def position_from_text(text):
    """``Position`` of a position in the project's notation (docs/notation.md).

    Raises ``camelup.errors.NotationError`` (a ``ValueError``) for bad text.
    """
    return position_from_game(parse_position(text))
