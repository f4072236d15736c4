"""The last reveal by colour symmetry (``camelup.odds.leg._last_level``) and the race
odds' leg end give exactly what the plain enumeration gives.

``leg_odds(position)`` works the last reveal out once per class of boards that look
alike once each racing camel is told apart only by whether its die is still inside;
``leg_odds(position, fast=False)`` does every board and die on its own. Whole legs of
both editions (every die inside: the most boards per class), crazy camels among the
racing camels (the grey die as the last reveal, with and without racing passengers),
tiles of both sides and stacks near both lines (crossings, RULES 1.13, 3.7).
"""

import random

import pytest
from camelup.odds import GREY, Position, leg_odds
from camelup.odds.race import leg_end
from depth import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.odds_naive import naive_leg_odds
from oracles.positions import CLASSIC, CRAZY, SECOND, random_board
from oracles.positions import same_weights as same

pytestmark = [pytest.mark.slow, pytest.mark.deep]  # whole legs enumerated against the plain oracle


def crowded_position(rnd, edition, max_dice):
    """Every camel within a few spaces (crazy camels among the racing ones), 0-2 tiles,
    somewhere on the track (near the start, the middle or the finish line)."""
    camels = list(CLASSIC if edition == "classic" else SECOND + CRAZY)
    rnd.shuffle(camels)
    stacks, tiles = random_board(rnd, camels, [1, 2, 5, 9, 12, 13, 14], [1, 2, 3, 4], 2)
    dice = [c for c in camels if c in (CLASSIC if edition == "classic" else SECOND)]
    if edition == "second":
        dice.append(GREY)
    rnd.shuffle(dice)
    dice = dice[:rnd.randint(2, max_dice)]
    reveals = len(dice) if edition == "classic" else len(dice) - 1
    return Position(edition, stacks, tiles, dice=dice, reveals=reveals)


@settings(max_examples=examples(1500), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["classic", "second", "second"]))
def test_symmetry_gives_the_plain_enumeration_weights(seed, edition):
    pos = crowded_position(random.Random(seed), edition, 4)
    assert same(leg_odds(pos), leg_odds(pos, fast=False)), pos


@settings(max_examples=examples(120), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["classic", "second", "second"]))
def test_symmetry_on_whole_legs(seed, edition):
    # five (classic) or six (second) dice inside: P1 / P2b-sized enumerations
    pos = crowded_position(random.Random(seed), edition, 6)
    full = Position(edition, pos.stacks, dict(pos.tiles))
    assert same(leg_odds(full), leg_odds(full, fast=False)), full


def test_P2b_matches_the_naive_oracle():
    # P2b: crazy camels on 7 right in front of the pack (docs/odds.md)
    pos = Position("second", {4: ["blue", "green"], 5: ["red"], 6: ["yellow", "purple"],
                              7: ["black", "white"]})
    fast = leg_odds(pos)
    first, second, last, landings, total = naive_leg_odds(pos)
    assert (fast.total, fast.first, fast.second, fast.last, fast.landings) == (
        total, first, second, last, landings)
    assert same(fast, leg_odds(pos, fast=False))


@settings(max_examples=examples(300), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["classic", "second"]))
def test_leg_end_adds_up_to_the_leg_odds(seed, edition):
    # the race odds' exact leg end (whole boards, crazy camels kept) ranks as the
    # leg odds do: same leaders and last camels with the same weights (RULES 1.10, 1.11)
    pos = crowded_position(random.Random(seed), edition, 4)
    final, over, total = leg_end(pos)
    leg = leg_odds(pos)
    assert total == leg.total
    assert sum(final.values()) + sum(over.values()) == total
    assert sum(over.values()) == leg.finished
    letters = sorted(pos.racing())
    first = dict.fromkeys(letters, 0)
    last = dict.fromkeys(letters, 0)
    for boards in (final, over):
        for board, weight in boards.items():
            racing = [ch for ch in board if ch not in "|xy"]
            first[letters["ABCDEFGHIJ".index(racing[-1])]] += weight
            last[letters["ABCDEFGHIJ".index(racing[0])]] += weight
    assert first == leg.first and last == leg.last, pos
