"""The fast paths of the exact leg odds give exactly the plain enumeration's weights.

``leg_odds(position)`` takes a shortcut when the grey die can change nothing this leg
(no crazy camel can touch a racing camel, cross the line or land on a tile: RULES
3.5-3.7); ``leg_odds(position, fast=False)`` is the plain breadth-first enumeration.
Random positions of both editions, many built so the shortcut applies (crazy camels
behind the racing camels or far ahead of them), the rest clustered so it must refuse.
"""

import random

import pytest
from camelup.editions import INKS
from camelup.game import Game
from camelup.odds import GREY, Position, leg, leg_odds, move, position_from_game
from depth import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.odds_naive import naive_leg_odds
from oracles.positions import CLASSIC, SECOND
from oracles.positions import same_weights as same

pytestmark = [pytest.mark.slow, pytest.mark.deep]  # whole legs enumerated against the plain oracle


def spread_position(rnd, edition, max_dice):
    """Racing camels clustered somewhere; in the second edition the crazy camels
    behind them, far ahead, or among them; 0-2 tiles; any dice inside."""
    racing = list(CLASSIC if edition == "classic" else SECOND)
    rnd.shuffle(racing)
    low = rnd.randint(1, 12) if edition == "classic" else rnd.randint(5, 9)
    high = min(16, low + rnd.choice([0, 1, 2, 3]))
    stacks = {}
    for camel in racing:
        stacks.setdefault(rnd.randint(low, high), []).append(camel)
    if edition == "second":
        for camel in ("black", "white"):
            where = rnd.choice(["behind", "behind", "ahead", "ahead", "ahead", "among", "same"])
            if where == "behind":
                space = rnd.randint(min(4, low - 1), low - 1)
            elif where == "ahead" and high < 12:
                space = rnd.randint(high + 4, 16)
            elif where == "same" and camel == "white" and "black" in str(stacks):
                space = [s for s in stacks if "black" in stacks[s]][0]
            else:
                space = rnd.randint(low, high)
            stacks.setdefault(space, []).append(camel)
    tiles = {}
    for _ in range(rnd.randint(0, 2)):
        space = rnd.randint(2, 16)
        if space in stacks or space in tiles or space - 1 in tiles or space + 1 in tiles:
            continue
        tiles[space] = rnd.choice([1, -1])
    dice = list(racing)
    rnd.shuffle(dice)
    if edition == "second":
        dice.insert(rnd.randint(0, 1), GREY)  # the grey die inside nearly always
    dice = dice[:rnd.randint(2 if edition == "second" else 1, max_dice)]
    reveals = len(dice) if edition == "classic" else len(dice) - 1
    return Position(edition, stacks, tiles, dice=dice, reveals=reveals)


@settings(max_examples=examples(4000), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["classic", "second", "second", "second"]))
def test_fast_paths_give_the_plain_enumeration_weights(seed, edition):
    pos = spread_position(random.Random(seed), edition, 4)
    assert same(leg_odds(pos), leg_odds(pos, fast=False)), pos


@settings(max_examples=examples(60), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_fast_paths_on_whole_second_edition_legs(seed):
    # six dice inside, five revealed (RULES 3.4): the shortcut's main use
    pos = spread_position(random.Random(seed), "second", 6)
    if len(pos.dice) < 6:
        pos = Position("second", pos.stacks, dict(pos.tiles), reveals=5)
    assert same(leg_odds(pos), leg_odds(pos, fast=False)), pos


def test_shortcut_matches_the_naive_oracle_on_P2a():
    # P2a: crazy camels on 15 and 16 out of the racing camels' reach (docs/odds.md)
    pos = Position("second", {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"],
                              15: ["black"], 16: ["white"]})
    fast = leg_odds(pos)
    first, second, last, landings, total = naive_leg_odds(pos)
    assert (fast.total, fast.first, fast.second, fast.last, fast.landings) == (
        total, first, second, last, landings)


def naive_places(pos):
    """Every place of every camel by the plain oracle of ``tests/oracles/odds_expect.py``."""
    from oracles.odds_expect import place_weights
    return place_weights(pos)


@settings(max_examples=examples(400), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["classic", "second"]))
def test_every_place_matches_the_plain_oracle(seed, edition):
    # 3rd and 4th places (odds cases) from the fast enumeration, same as the oracle's
    pos = spread_position(random.Random(seed), edition, 4)
    fast = leg_odds(pos, places=True)
    plain = leg_odds(pos)
    assert (fast.first, fast.second, fast.last, fast.landings, fast.joint) == (
        plain.first, plain.second, plain.last, plain.landings, plain.joint)
    weights, total = naive_places(pos)
    assert total == fast.total
    assert weights == fast.places, pos


def _leg_positions(edition, seed):
    """A game's board, the boards after each die and face the pyramid may release
    (RULES 1.4, 3.4) and the same with a tile placed: the positions a player's
    lookahead asks about in a leg, which share many last-level classes."""
    position = position_from_game(Game.random(edition, 4, seed))
    out = [position]
    for die in position.dice:
        for v in (1, 2, 3):
            for ink in (INKS if die == GREY else (None,)):
                after, _tile, crossed = move(position, die, v, ink)
                if crossed:
                    continue
                after.dice = [d for d in position.dice if d != die]
                after.reveals = max(0, position.reveals - 1)
                out.append(after)
                placed = after.copy()
                space = max(after.stacks) + 2
                if space <= 16 and space not in placed.tiles:
                    placed.tiles[space] = 1 if v == 2 else -1
                    out.append(placed)
    return out


@pytest.mark.parametrize("edition,seed", [("classic", 3), ("second", 4), ("second", 9)])
def test_classes_kept_between_enumerations_change_no_weight(monkeypatch, edition, seed):
    # the last level's classes kept from earlier legs (leg._KEPT) give the weights a
    # fresh enumeration gives, with a large store and with one so small that classes
    # move between its generations at every position
    positions = _leg_positions(edition, seed)
    assert len(positions) > 15
    monkeypatch.setattr(leg, "_KEPT_SIZE", 0)
    fresh = [leg_odds(p) for p in positions]
    for size in (100000, 40):
        monkeypatch.setattr(leg, "_KEPT", [{}, {}])
        monkeypatch.setattr(leg, "_KEPT_COUNT", [0])
        monkeypatch.setattr(leg, "_KEPT_SIZE", size)
        for p, want in zip(positions, fresh, strict=True):
            assert same(leg_odds(p), want), (size, p)
        # classes were kept; the small store turned over (its newer generation started)
        assert any(leg._KEPT[1 if size < 1000 else 0].values())
        assert any(leg._KEPT[1].values()) == (size < 1000)
    # the second time round every class is found kept
    for p, want in zip(positions, fresh, strict=True):
        assert same(leg_odds(p), want), p


@pytest.mark.parametrize("edition,seed", [("classic", 5), ("second", 6), ("second", 13)])
def test_classes_no_move_of_which_reaches_a_tile_are_the_boards_without_tiles(
        monkeypatch, edition, seed):
    # a last-level class none of whose moves can land on a tile (leg._reaches) is read
    # from the classes of the boards without tiles: the weights and landings of a fresh
    # enumeration, for boards with a tile on every free space of either side (what the
    # coach asks with its tile placed), mid-leg boards with crazy camels among them
    rnd = random.Random(seed)
    positions = []
    for _ in range(6):
        base = spread_position(rnd, edition, 5)
        positions.append(base)
        for space in range(2, 17):
            if space in base.stacks or any(abs(space - t) <= 1 for t in base.tiles):
                continue
            placed = base.copy()
            placed.tiles[space] = rnd.choice([1, -1])
            positions.append(placed)
    monkeypatch.setattr(leg, "_KEPT_SIZE", 0)
    fresh = [leg_odds(p) for p in positions]
    monkeypatch.setattr(leg, "_KEPT", [{}, {}])
    monkeypatch.setattr(leg, "_KEPT_COUNT", [0])
    monkeypatch.setattr(leg, "_KEPT_SIZE", 100000)
    shared = []
    real = leg._reaches

    def reaches(t, spaces, grey):
        out = real(t, spaces, grey)
        shared.append(not out)
        return out
    monkeypatch.setattr(leg, "_reaches", reaches)
    for p, want in zip(positions, fresh, strict=True):
        assert same(leg_odds(p), want), p
    assert any(shared) and not all(shared)  # both kinds of class were met
