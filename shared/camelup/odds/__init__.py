"""Odds for Camel Up, both editions, exact where it can be (``docs/odds.md``).

Modules, each importing only those before it (no cycle, nothing imported inside a
function):

* ``camelup.odds.board``: the compact ``Position``, its string board, ``move``;
* ``camelup.odds.game``: ``Position`` from a ``camelup.game.Game`` or the notation;
* ``camelup.odds.leg``: exact leg odds (``leg_odds`` -> ``LegOdds``);
* ``camelup.odds.tiles``: tile income (``tile_values``, ``best_tile``, ...);
* ``camelup.odds.race``: overall winner / loser odds (``race_odds``);
* ``camelup.odds.actions``: every legal action valued in coins (``action_values``).

This package re-exports the stable names of the first four. Runs unchanged on
MicroPython.
"""

from camelup.odds.board import (  # noqa: F401
    CLASSIC,
    CRAZY,
    EDITIONS,
    GREY,
    LEG_REVEALS,
    RACING,
    SECOND,
    SEP,
    TRACK,
    Position,
    move,
)
from camelup.odds.game import as_position, position_from_game  # noqa: F401
from camelup.odds.leg import LegOdds, leg_odds  # noqa: F401
from camelup.odds.tiles import best_tile, tile_landings, tile_spaces, tile_values  # noqa: F401
