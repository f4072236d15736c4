"""Property tests of the exact odds.

* The fast enumerator agrees exactly with the plain full enumeration
  (``tests/oracles/odds_naive.py``) on random positions of both editions: stacks anywhere on
  the track (so crossings both ways happen), tiles of both sides, any dice inside.
* The all-candidates tile table agrees with placing each tile and enumerating.
* One die moved by ``camelup.odds.move`` gives what the rules engine's
  ``camelup.movement`` gives (RULES 1.2-1.5, 1.13, 3.5-3.7).
"""

import random

import pytest
from camelup import movement
from camelup.odds import GREY, Position, leg_odds, move, tile_spaces, tile_values
from depth import FULL, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.odds_naive import naive_leg_odds
from oracles.positions import CLASSIC, CRAZY, SECOND, random_board

pytestmark = [pytest.mark.slow, pytest.mark.deep]  # property tests over many seeded positions


def random_position(rnd, edition, max_dice, max_reveals, all_dice=False):
    """A random legal-looking position: every camel of the edition, 0-3 tiles."""
    camels = list(CLASSIC if edition == "classic" else SECOND + CRAZY)
    rnd.shuffle(camels)
    # cluster the camels so stacks and carrying are common; sometimes near the line
    stacks, tiles = random_board(rnd, camels, [1, 1, 4, 8, 11, 13], [2, 3, 5, 8], 3)
    racing = [c for c in camels if c in (CLASSIC if edition == "classic" else SECOND)]
    dice = list(racing)
    if edition == "second":
        dice.append(GREY)
    rnd.shuffle(dice)
    dice = dice[:max_dice if all_dice else rnd.randint(1, max_dice)]
    if edition == "classic":
        reveals = min(len(dice), max_reveals)
    else:
        reveals = min(len(dice) - 1, max_reveals)
    return Position(edition, stacks, tiles, dice=dice, reveals=reveals)


def assert_same_as_naive(pos):
    fast = leg_odds(pos)
    first, second, last, landings, total = naive_leg_odds(pos)
    assert fast.total == total, pos
    assert fast.first == first, pos
    assert fast.second == second, pos
    assert fast.last == last, pos
    assert fast.landings == landings, pos
    # the joint outcome adds up to the marginals
    joint_first = {}
    for (a, _b, _z), w in fast.joint.items():
        joint_first[a] = joint_first.get(a, 0) + w
    assert {c: w for c, w in fast.first.items() if w} == joint_first


@settings(max_examples=examples(2500), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["classic", "second"]))
def test_fast_enumeration_equals_plain_enumeration_small(seed, edition):
    # up to four dice and three reveals: cheap for the plain enumeration
    assert_same_as_naive(random_position(random.Random(seed), edition, 4, 3))


@settings(max_examples=examples(40), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["classic", "second"]))
def test_fast_enumeration_equals_plain_enumeration_medium(seed, edition):
    # five or six dice inside, four reveals: deeper merging, grey die usually inside
    assert_same_as_naive(random_position(random.Random(seed), edition, 6, 4, all_dice=True))


def test_fast_enumeration_equals_plain_enumeration_full_legs():
    # whole legs (P1/P2a size) on a few random boards: the deepest merges and the
    # last-reveal shortcut with every die inside
    rnd = random.Random(20261129)
    for edition, dice, reveals in (("classic", 5, 5), ("second", 6, 4), ("second", 5, 4)):
        pos = random_position(rnd, edition, dice, reveals, all_dice=True)
        assert len(pos.dice) == dice and pos.reveals == reveals
        assert_same_as_naive(pos)


@settings(max_examples=examples(60), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["classic", "second"]))
def test_tile_table_equals_placing_each_tile(seed, edition):
    # RULES 1.5: expected landings of a tile placed now, for every space and side
    pos = random_position(random.Random(seed), edition, 4, 3)
    values = tile_values(pos)
    assert len(values) == 2 * len(tile_spaces(pos))
    for expected, space, side in values:
        placed = pos.copy()
        placed.tiles[space] = side
        placed.tile_owners[space] = None
        r = leg_odds(placed)
        assert r.landings.get(space, 0) / r.total == expected, (pos, space, side)
    assert values == sorted(values, key=lambda v: (-v[0], v[1], -v[2]))


def engine_move(pos, colour, value, ink):
    stacks = movement.copy_stacks(pos.stacks)
    tiles = {s: (None, "+" if side > 0 else "-") for s, side in pos.tiles.items()}
    crazy = tuple(pos.crazy())
    if colour == GREY:
        camel, _rule = movement.select_crazy(stacks, crazy, ink)
    else:
        camel = colour
    report = movement.move_unit(stacks, tiles, camel, value, crazy)
    return stacks, report


@settings(max_examples=examples(1500), deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["classic", "second"]),
       st.integers(1, 3), st.sampled_from(CRAZY))
def test_move_agrees_with_rules_engine(seed, edition, value, ink):
    rnd = random.Random(seed)
    pos = random_position(rnd, edition, 6, 0)
    colour = rnd.choice(pos.racing() + ([GREY] if edition == "second" else []))
    mine, hit, crossed = move(pos, colour, value, ink if colour == GREY else None)
    stacks, report = engine_move(pos, colour, value, ink)
    assert crossed == report["crossed"]
    assert hit == (report["tile"]["space"] if report["tile"] else 0)
    on_track = {s: c for s, c in stacks.items() if 1 <= s <= 16}
    assert {s: c for s, c in mine.stacks.items() if 1 <= s <= 16} == on_track
    racing = pos.racing()
    assert mine.ranking() == movement.ranking(stacks, racing)


def test_tile_table_full_legs_P1_P2b_P2a():
    # every candidate of a full leg, each compared with placing the tile for real; make
    # test: every third candidate of each position (both sides of the tile among them,
    # 20, 22 and 16 candidates in all); make deep: every one
    for pos in (Position("classic", {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]},
                         tiles={6: 1}),
                Position("second", {4: ["blue", "green"], 5: ["red"], 6: ["yellow", "purple"],
                                    7: ["black", "white"]}),
                Position("second", {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"],
                                    15: ["black"], 16: ["white"]}, tiles={13: -1})):
        for expected, space, side in tile_values(pos)[::1 if FULL else 3]:
            placed = pos.copy()
            placed.tiles[space] = side
            placed.tile_owners[space] = None
            r = leg_odds(placed)
            assert r.landings.get(space, 0) / r.total == expected, (space, side)


def test_move_agrees_with_whole_engine_games():
    # random games played by the engine: every die it applies, applied by the odds'
    # own move to the position before it, gives the same board (RULES 1.2-1.5, 3.5-3.7);
    # make test: 8 games an edition (the 300 dice below); make deep: 25
    from camelup.game import Game
    from camelup.odds.game import position_from_game

    rnd = random.Random(77)
    checked = 0
    for edition, seats in (("second", 5), ("classic", 4)):
        for seed in range(max(8, examples(25))):
            g = Game.random(edition, seats, seed=seed)
            while not g.is_over and checked < 2000:
                action = rnd.choice(g.legal_actions())
                before = position_from_game(g)
                g.push(action)
                if action.kind != "pyramid":
                    continue
                colour = "grey" if action.colour == "grey" else action.colour
                mine, _hit, crossed = move(before, colour, action.value, action.ink)
                checked += 1
                assert crossed == g.is_over
                on_track = {s: c for s, c in g.stacks.items() if 1 <= s <= 16}
                assert {s: c for s, c in mine.stacks.items() if 1 <= s <= 16} == on_track
                assert mine.ranking() == g.ranking()
    assert checked > 300
