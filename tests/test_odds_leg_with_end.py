"""The leg odds and the race odds' exact leg end from one enumeration
(``camelup.odds.race.leg_with_end``): the same integer weights as ``leg_odds`` and the
same boards as ``leg_end``, on seeded positions of both editions (tiles, stacks, the
grey die, crossings of the line both ways: RULES 1.5, 1.13, 3.5-3.7), and race odds
read from those ends the same as race odds that enumerate the leg themselves."""

import random

import pytest
from camelup.odds import Position, leg_odds
from camelup.odds.race import leg_end, leg_with_end, race_odds
from oracles.positions import CLASSIC, CRAZY, SECOND, random_board, same_weights
from oracles.runtimes import same_on_both

GREY = "grey"


def _position(rnd, edition):
    """A seeded position: every camel of the edition clustered on the track (near the
    line often enough that legs end the race), 0-3 tiles, 1-6 dice inside."""
    camels = list(CLASSIC if edition == "classic" else SECOND + CRAZY)
    rnd.shuffle(camels)
    stacks, tiles = random_board(rnd, camels, [1, 3, 8, 11, 13], [2, 3, 5], 3)
    racing = [c for c in camels if c in (CLASSIC if edition == "classic" else SECOND)]
    dice = list(racing) + ([GREY] if edition == "second" else [])
    rnd.shuffle(dice)
    dice = dice[:rnd.randint(1, len(dice))]
    reveals = len(dice) if edition == "classic" else max(0, len(dice) - 1)
    return Position(edition, stacks, tiles, dice=dice, reveals=reveals)


@pytest.mark.parametrize("edition", ["classic", "second"])
def test_leg_with_end_is_leg_odds_and_leg_end(edition):
    rnd = random.Random(31 if edition == "classic" else 34)
    ended = landed = grey_back = 0
    for _ in range(150):
        pos = _position(rnd, edition)
        leg, ends = leg_with_end(pos)
        plain = leg_odds(pos)
        assert same_weights(leg, plain), pos
        assert ends == leg_end(pos), pos
        assert leg.finished == sum(ends[1].values()), pos
        ended += 0 < leg.finished < leg.total
        landed += bool(leg.landings)
        grey_back += any(s[0] != "|" for s in ends[1])
    # the sample reaches what the merged pass must count: races ended in some of the
    # leg's outcomes, landings on tiles, (second edition) a unit carried back over
    # the line by a crazy camel (its landing count is the grey die's own)
    assert ended > 20 and landed > 20
    if edition == "second":
        assert grey_back > 0


def test_landings_of_the_grey_die_are_counted():
    # the crazy camel carrying red lands on the booing tile on 5 for one of the grey
    # die's values (RULES 3.6): leg_odds counts that landing, so must the merged pass
    pos = Position("second", {2: ["blue"], 3: ["green"], 4: ["yellow"], 6: ["purple"],
                              7: ["black", "red"], 12: ["white"]}, {5: -1},
                   dice=["grey", "blue"], reveals=1)
    leg, _ends = leg_with_end(pos)
    assert leg.landings.get(5, 0) > 0
    assert same_weights(leg, leg_odds(pos))


@pytest.mark.parametrize("stacks, dice", [
    ({1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"], 15: ["black"],
      16: ["white"]}, None),
    ({12: ["blue", "red"], 13: ["green"], 14: ["white", "yellow"], 15: ["purple"],
      9: ["black"]}, ["red", "grey", "green", "purple"]),
])
def test_race_odds_from_the_given_ends_are_the_same(stacks, dice):
    pos = Position("second", stacks, {11: 1} if dice else None, dice=dice)
    leg, ends = leg_with_end(pos)
    alone = race_odds(pos, seed=1, samples=1000, cache=False)
    given = race_odds(pos, seed=1, samples=1000, cache=False, leg=leg, ends=ends)
    for name in ("winner", "loser", "winner_hw", "loser_hw"):
        assert getattr(given, name) == getattr(alone, name)
    assert (given.samples, given.exact) == (alone.samples, alone.exact)


MP_SCRIPT = r'''
from camelup.odds import Position, leg_odds
from camelup.odds.race import leg_with_end
for pos in (Position("classic", {13: ["blue", "green"], 14: ["orange"], 15: ["yellow"],
                                 12: ["white"]}, {16: 1}),
            Position("second", {2: ["blue"], 3: ["green"], 4: ["yellow"], 6: ["purple"],
                                7: ["black", "red"], 12: ["white"]}, {5: -1, 9: 1},
                     dice=["grey", "blue", "purple"], reveals=2)):
    leg, ends = leg_with_end(pos)
    plain = leg_odds(pos)
    print(leg.total, sorted(leg.first.items()), sorted(leg.last.items()),
          sorted(leg.landings.items()), leg.finished, len(ends[0]), len(ends[1]))
    print(sorted(plain.first.items()) == sorted(leg.first.items()),
          sorted(plain.landings.items()) == sorted(leg.landings.items()))
'''


@pytest.mark.micropython
def test_leg_with_end_same_on_micropython_and_cpython(micropython, capsys):
    out = same_on_both(micropython, capsys, MP_SCRIPT, "leg_with_end_script")
    assert out.count("True True") == 2


@pytest.mark.parametrize("pos", [
    Position("classic", {14: ["blue"]}, dice=["blue"]),
    Position("classic", {14: ["blue"], 12: ["red"]}, {16: -1}, dice=["red", "blue"]),
    Position("second", {14: ["blue"], 3: ["black"], 9: ["white"]}, {7: 1},
             dice=["blue", "grey"], reveals=1),
], ids=["one camel", "two camels", "one camel, crazy camels"])
def test_leg_with_end_ranks_a_field_of_one_or_two(pos):
    # one racing camel is first and last with no second ('-' in the rank key), two
    # are read off both ends of the board: as leg_odds ranks them (RULES 1.10, 1.11)
    leg, ends = leg_with_end(pos)
    assert same_weights(leg, leg_odds(pos))
    assert ends == leg_end(pos)
