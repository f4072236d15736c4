"""The odds' small caches give exactly what a fresh computation gives: tile values
(``camelup.odds.tiles``), the exact part of the race odds (``camelup.odds.race``)
and the bots' leg odds (``camelhost.coach.cached_leg_odds``). Between two dice every
player asks about the same board; a cache that missed a tile, a die or a seat would
hand one player another's answer."""

from camelhost import coach
from camelup.odds import Position, leg_odds, race, tiles
from camelup.odds.board import Recent
from camelup.odds.race import race_odds
from camelup.odds.tiles import tile_values

STACKS = {3: ["blue", "green"], 4: ["red"], 6: ["yellow", "purple"]}


def _fresh_tiles(position, player):
    tiles._VALUES.clear()
    return tile_values(position, player)


def test_tile_values_cached_equal_fresh_for_every_player_and_tile():
    bare = Position("classic", STACKS)
    with_tile = Position("classic", STACKS, tiles={8: ("+", 2)})
    turned = Position("classic", STACKS, tiles={8: ("-", 2)})  # same spaces left free
    moved = Position("classic", STACKS, tiles={10: ("-", 2)})
    asked = []
    for position in (bare, with_tile, turned, moved, with_tile):
        for player in (0, 2):
            asked.append((position, player, tile_values(position, player)))
    for position, player, got in asked:
        assert got == _fresh_tiles(position, player)
    # seat 2 lifts its own tile, the others play around it: different answers
    assert tile_values(with_tile, 2) != tile_values(with_tile, 0)
    assert tile_values(with_tile, 0) != tile_values(bare, 0)
    assert tile_values(turned, 0) != tile_values(with_tile, 0)


def test_tile_values_answer_is_the_callers_own_list():
    position = Position("classic", STACKS)
    first = tile_values(position, 0)
    first.clear()
    assert tile_values(position, 0) == _fresh_tiles(position, 0) != []


def test_race_odds_with_other_races_reuse_the_leg_end_exactly():
    position = Position("second", {2: ["blue", "green"], 3: ["red"], 5: ["yellow", "purple"],
                                   14: ["black"], 16: ["white"]},
                        dice=["blue", "red", "purple", "grey"], reveals=3)
    got = [race_odds(position, seed=seed, samples=samples, cache=False).winner
           for seed, samples in ((1, 300), (2, 301), (1, 300))]
    race._STRATA.clear()
    fresh = race_odds(position, seed=2, samples=301, cache=False).winner
    assert got[0] == got[2]
    assert got[1] == fresh
    tiled = Position("second", position.stacks, tiles={7: "-"},
                     dice=position.dice, reveals=3)
    assert race_odds(tiled, seed=2, samples=301, cache=False).winner != fresh


def test_cached_leg_odds_tell_dice_and_tiles_apart():
    full = Position("classic", STACKS)
    part = Position("classic", STACKS, dice=["blue", "red"], reveals=2)
    tiled = Position("classic", STACKS, tiles={7: "+"})
    for position in (full, part, tiled, part, full):
        cached = coach.cached_leg_odds(position)
        plain = leg_odds(position)
        assert (cached.first, cached.second, cached.total) == (
            plain.first, plain.second, plain.total)
    assert coach.cached_leg_odds(part).first != coach.cached_leg_odds(full).first


def test_recent_keeps_every_result_used_since_its_newer_generation_began():
    kept = Recent(2)
    for key in ("a", "b", "c"):  # the third turns the generations: all three older
        kept.put(key, key.upper())
    assert kept.get("a") == "A"  # back in the newer
    kept.put("d", "D")
    kept.put("e", "E")  # the newer (a, d, e) turns: b and c, not used since, go
    assert (kept.get("b"), kept.get("c")) == (None, None)
    assert [kept.get(k) for k in "ade"] == ["A", "D", "E"]
    assert len(kept) <= 2 * 2 + 1
    kept.clear()
    assert kept.get("a") is None and len(kept) == 0


def test_race_odds_asked_again_after_other_positions_is_the_same_run():
    # a bot asks about the board as it is after the coach asked about several others
    # (other runs, other boards): the run is kept, the same numbers
    position = Position("classic", STACKS)
    first = race_odds(position, seed=1, samples=200)
    for seed in range(2, 14):  # twelve: more than race_odds kept before (8, all cleared)
        race_odds(position, seed=seed, samples=200)
    assert race_odds(position, seed=1, samples=200) is first
    assert race_odds(position, seed=1, samples=200, cache=False).winner == first.winner


def test_tile_values_asked_again_after_other_boards_are_not_worked_out_again(monkeypatch):
    # every player asks about the board as it is between two dice, the coach about
    # others between: the answer stays while it is used (fresh and kept alike)
    # from an empty cache: what the tests before left in it (this process's, in any
    # order) would move the point at which its generations turn over
    tiles._VALUES.clear()
    made = []
    table = tiles.landing_table
    monkeypatch.setattr(tiles, "landing_table",
                        lambda *a: made.append(1) or table(*a))
    position = Position("classic", STACKS)
    first = tile_values(position, 0)
    for space in range(7, 17):  # 20 boards: more than the 16 kept before, all cleared
        for side in "+-":
            tile_values(Position("classic", STACKS, tiles={space: (side, 3)}), 0)
    asked = len(made)
    assert tile_values(position, 0) == first == _fresh_tiles(position, 0)
    assert len(made) == asked + 1  # only the fresh one worked out
