"""Acceptance vectors of ../shared/cases/odds-cases.md, exactly (integer weights / fractions).

Every case id of that file appears below; probabilities given there as decimals are
compared to 6 places, the ones given as fractions or weights exactly.
"""

from fractions import Fraction

import pytest
from camelup.odds import Position, leg_odds, move

SECOND_NAMES = {"B": "blue", "G": "green", "R": "red", "Y": "yellow", "P": "purple",
                "K": "black", "W": "white"}


def second(stacks, **kw):
    """Second-edition position from the cases' letters: {2: "RYP"} -> red, yellow, purple."""
    full = {}
    for space, letters in stacks.items():
        full[space] = [SECOND_NAMES[ch] for ch in letters]
    dice = kw.pop("dice", None)
    if dice is not None:
        dice = ["grey" if d == "grey" else SECOND_NAMES[d] for d in dice]
    return Position("second", full, dice=dice, **kw)


def fractions(weights, total):
    return {c: Fraction(w, total) for c, w in weights.items()}


def decimals(weights, total):
    return {c: round(w / total, 6) for c, w in weights.items()}


P1_STACKS = {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]}


def test_P1_classic_full_leg():
    # RULES 2.4: all five dice come out; RULES 1.4: each value 1/3
    r = leg_odds(Position("classic", P1_STACKS))
    assert r.total == 29160  # 5! * 3^5
    assert fractions(r.first, r.total) == {
        "blue": Fraction(8, 81), "green": Fraction(1469, 5832), "orange": Fraction(857, 7290),
        "yellow": Fraction(251, 1458), "white": Fraction(10487, 29160)}
    assert decimals(r.second, r.total) == {
        "blue": .112003, "green": .181173, "orange": .154252, "yellow": .299177,
        "white": .253395}
    assert decimals(r.last, r.total) == {
        "blue": .403086, "green": .190329, "orange": .236317, "yellow": .086660,
        "white": .083608}
    assert r.landings == {} and r.finished == 0


def test_P1t_classic_tiles_and_expected_landings():
    # RULES 1.5: mirage on 4 (backward, underneath), oasis on 6 (forward, on top)
    r = leg_odds(Position("classic", P1_STACKS, tiles={4: -1, 6: (1, 0)}))
    assert fractions(r.first, r.total) == {
        "blue": Fraction(1663, 14580), "green": Fraction(6101, 29160),
        "orange": Fraction(649, 4860), "yellow": Fraction(743, 3645),
        "white": Fraction(1979, 5832)}
    assert r.landings == {4: 44012, 6: 20911}
    assert round(r.expected_landings(4), 4) == 1.5093
    assert round(r.expected_landings(6), 4) == 0.7171


@pytest.mark.parametrize("case, stacks, dice, expected", [
    ("C1", {3: ["purple", "green", "blue", "yellow", "red"]}, ["blue", "yellow", "green", "red"],
     {"red": Fraction(191, 486), "yellow": Fraction(67, 243), "blue": Fraction(71, 324),
      "green": Fraction(109, 972), "purple": 0}),
    ("C2", {2: ["blue", "green", "red"], 4: ["purple"], 6: ["yellow"]}, ["blue", "green", "red"],
     {"red": Fraction(32, 81), "yellow": Fraction(10, 27), "green": Fraction(16, 81),
      "blue": Fraction(1, 27), "purple": 0}),
    ("C3", {2: ["green"], 3: ["purple", "blue", "yellow", "red"]}, ["blue"],
     {"red": 1, "yellow": 0, "blue": 0, "green": 0, "purple": 0}),
    ("C4", {1: ["red"], 3: ["yellow"]}, ["red"],
     {"red": Fraction(2, 3), "yellow": Fraction(1, 3)}),
])
def test_C_classic_part_of_a_leg(case, stacks, dice, expected):
    # RULES 2.4: in the classic edition every die still inside is rolled
    r = leg_odds(Position("classic", stacks, dice=dice))
    assert fractions(r.first, r.total) == expected, case
    if case == "C3":
        assert r.second["yellow"] == r.total  # yellow 2nd, certain


def test_P2a_second_full_leg_exact_weights():
    # RULES 3.4: six dice inside, five revealed; grey die RULES 3.5
    r = leg_odds(second({1: "BG", 2: "R", 3: "YP", 15: "K", 16: "W"}))
    assert r.total == 5598720
    assert r.first == {"blue": 425760, "green": 1422080, "red": 750016, "yellow": 790400,
                       "purple": 2210464}
    assert decimals(r.first, r.total) == {
        "blue": .076046, "green": .254001, "red": .133962, "yellow": .141175, "purple": .394816}
    assert decimals(r.second, r.total) == {
        "blue": .109974, "green": .154510, "red": .161597, "yellow": .299434, "purple": .274486}
    assert decimals(r.last, r.total) == {
        "blue": .409088, "green": .075617, "red": .297960, "yellow": .185997, "purple": .031339}


def test_P2b_second_crazy_camels_close_behind():
    r = leg_odds(second({4: "BG", 5: "R", 6: "YP", 7: "KW"}))
    assert decimals(r.first, r.total) == {
        "blue": .080293, "green": .250314, "red": .138357, "yellow": .138586, "purple": .392450}


def test_D1_one_die_inside_reveals_nothing():
    # RULES 3.4: k dice inside -> k-1 revealed
    r = leg_odds(second({1: "BKW", 2: "G", 3: "R", 4: "Y", 5: "P"}, dice="P"))
    assert r.total == 1
    assert r.first["purple"] == 1 and r.second["yellow"] == 1 and r.last["blue"] == 1


@pytest.mark.parametrize("case, stacks", [
    ("D2", {2: "RYP", 9: "G", 13: "B", 14: "KW"}),
    ("D2 same with 9:[G,B]", {2: "RYP", 9: "GB", 14: "KW"}),
])
def test_D2_certain_outcome(case, stacks):
    r = leg_odds(second(stacks, dice="GB"))
    assert r.first["blue"] == r.total, case
    assert r.second["green"] == r.total, case
    assert r.last["red"] == r.total, case


def test_D3_two_dice_one_revealed():
    r = leg_odds(second({2: "RYP", 9: "G", 10: "B", 14: "KW"}, dice="GB"))
    assert fractions(r.first, r.total)["green"] == Fraction(6, 12)
    assert fractions(r.first, r.total)["blue"] == Fraction(6, 12)
    assert fractions(r.second, r.total)["green"] == Fraction(6, 12)
    assert fractions(r.second, r.total)["blue"] == Fraction(6, 12)


def test_D4():
    r = leg_odds(second({2: "YP", 9: "G", 10: "B", 11: "R", 14: "KW"}, dice="GB"))
    assert fractions(r.first, r.total) == {
        "blue": Fraction(6, 12), "green": Fraction(4, 12), "red": Fraction(2, 12),
        "yellow": 0, "purple": 0}


def test_D5():
    r = leg_odds(second({1: "Y", 2: "P", 3: "G", 4: "B", 5: "R", 14: "KW"}, dice="PB"))
    assert fractions(r.first, r.total) == {
        "blue": Fraction(6, 12), "red": Fraction(4, 12), "purple": Fraction(2, 12),
        "yellow": 0, "green": 0}


def test_D6_three_dice_two_revealed():
    r = leg_odds(second({2: "YGRBP", 14: "KW"}, dice="PRB"))
    assert fractions(r.first, r.total) == {
        "purple": Fraction(144, 216), "blue": Fraction(48, 216), "red": Fraction(24, 216),
        "green": 0, "yellow": 0}


def test_D7_booing_tile():
    # RULES 3.6: booing sends the unit back one space, underneath
    r = leg_odds(second({2: "YGRBP", 14: "KW"}, dice="PRB", tiles={3: -1}))
    assert fractions(r.first, r.total) == {
        "purple": Fraction(108, 216), "blue": Fraction(48, 216), "red": Fraction(36, 216),
        "green": Fraction(24, 216), "yellow": 0}


def test_D8_cheering_tile():
    r = leg_odds(second({2: "YGR", 6: "B", 10: "P", 14: "KW"}, dice="BPR", tiles={9: 1}))
    assert fractions(r.first, r.total) == {
        "purple": Fraction(180, 216), "blue": Fraction(36, 216), "red": 0, "green": 0,
        "yellow": 0}


def test_D12_last_die_is_not_rolled():
    # RULES 3.4: with {B, grey} inside exactly one is revealed
    r = leg_odds(second({14: "B", 15: "G", 1: "YRP", 10: "WK"}, dice=["B", "grey"]))
    assert Fraction(r.first["blue"], r.total) == Fraction(1, 2)


# Movement (second edition): RULES 1.2, 1.3, 1.5, 3.5-3.7, 1.13.
M_START = {2: "YG", 4: "RB", 9: "P", 15: "WK"}


def moved(stacks, die, value, tiles=None, ink=None):
    pos = second(stacks, tiles=tiles or {}, dice=[])
    colour = "grey" if die == "grey" else SECOND_NAMES[die]
    return move(pos, colour, value, ink)


def letters(position):
    back = {v: k for k, v in SECOND_NAMES.items()}
    return {s: "".join(back[c] for c in position.stacks[s]) for s in position.stacks}


def order(position):
    back = {v: k for k, v in SECOND_NAMES.items()}
    return "".join(back[c] for c in position.ranking())


@pytest.mark.parametrize("case, stacks, die, value, tiles, ink, spaces, ranking, crossed", [
    ("M1", M_START, "G", 2, None, None, {2: "Y", 4: "RBG"}, "PGBRY", False),
    ("M2", M_START, "Y", 2, None, None, {4: "RBYG"}, None, False),
    ("M3", M_START, "G", 1, {3: 1}, None, {4: "RBG"}, None, False),
    ("M4", M_START, "G", 3, {5: -1}, None, {4: "GRB"}, "PBRGY", False),
    ("M5", M_START, "Y", 3, {5: -1}, None, {4: "YGRB"}, None, False),
    ("M6", {10: "RB", 11: "WP", 15: "YGK"}, "Y", 1, {16: 1}, None, {}, "GYPBR", True),
    ("M7", {1: "RB", 11: "WP", 15: "YKG"}, "Y", 2, None, None, {}, "GYPBR", True),
    ("M8", {1: "RBWP", 3: "GKY"}, "B", 1, {2: -1}, None, {1: "BWPR"}, "YGRPB", False),
    ("M9", {2: "YG", 4: "RB", 13: "P", 15: "WK"}, "grey", 2, None, "white",
     {13: "PK", 15: "W"}, None, False),
    ("M10", {15: "WKB", 13: "R"}, "grey", 2, None, "white", {13: "RKB", 15: "W"}, None, False),
])
def test_M_movement(case, stacks, die, value, tiles, ink, spaces, ranking, crossed):
    after, _hit, over = moved(stacks, die, value, tiles, ink)
    got = letters(after)
    for space, expect in spaces.items():
        assert got.get(space) == expect, (case, got)
    if ranking:
        assert order(after) == ranking, case
    assert over == crossed, case


@pytest.mark.parametrize("case, die, value, spaces, hit", [
    ("K1", "orange", 3, {6: ["white", "green", "orange", "yellow"]}, 0),
    ("K2", "yellow", 1, {5: ["blue", "yellow"], 3: ["orange"]}, 4),
])
def test_K_classic_oasis(case, die, value, spaces, hit):
    # RULES 1.5, 2.5: oasis on 4
    pos = Position("classic", {3: ["orange", "yellow"], 5: ["blue"], 6: ["white", "green"]},
                   tiles={4: 1}, dice=[])
    after, got_hit, _ = move(pos, die, value)
    for space, expect in spaces.items():
        assert after.stacks[space] == expect, case
    assert got_hit == hit, case


def test_K3_classic_mirage_goes_under():
    pos = Position("classic", {3: ["orange", "yellow", "white"], 5: ["green", "blue"]},
                   tiles={6: -1}, dice=[])
    after, hit, _ = move(pos, "yellow", 3)
    assert after.stacks[5] == ["yellow", "white", "green", "blue"]
    assert after.stacks[3] == ["orange"]
    assert hit == 6
