"""The kinds behind the acceptance cases, as Hypothesis properties over random positions.

Each property restates a rule independently of the engine's code and checks the engine
against it: movement of units and tiles (E1-05, E2-13, E2-17, M*, K*: RULES 1.2, 1.3,
1.5, 3.6), the grey die's choice (E2-01..E2-04, E2-23, M9, M10: RULES 3.5), ranking
(E2-06, E2-21: RULES 1.11, 3.7), tile placement (E2-16, E1-06: RULES 1.5), leg scoring
(E2-18, E2-19, E2-22, S-03, S-04: RULES 1.9, 1.10, 3.8) and finish piles (E2-20, X-01,
X-05: RULES 1.9, 1.13).
"""

from camelup.actions import Action
from camelup.editions import CLASSIC, SECOND
from camelup.game import Game
from camelup.movement import copy_stacks, move_unit, ranking, select_crazy
from camelup.scoring import score_leg, score_pile
from hypothesis import given, settings
from hypothesis import strategies as st

FEW = settings(max_examples=150, deadline=None)


@st.composite
def boards(draw, edition=None):
    """(edition, stacks, tiles) with every camel on 1..16 and legal tiles."""
    ed = edition or draw(st.sampled_from([CLASSIC, SECOND]))
    order = draw(st.permutations(list(ed.camels)))
    stacks = {}
    for camel in order:
        stacks.setdefault(draw(st.integers(1, 16)), []).append(camel)
    tiles = {}
    for owner in range(draw(st.integers(0, 4))):
        space = draw(st.integers(2, 16))
        if space in stacks or space in tiles or space - 1 in tiles or space + 1 in tiles:
            continue
        tiles[space] = (owner, draw(st.sampled_from("+-")))
    return ed, stacks, tiles


def where(stacks):
    return {c: (s, h) for s in stacks for h, c in enumerate(stacks[s])}


@FEW
@given(boards(), st.data())
def test_a_unit_moves_together_and_lands_per_the_tile(board, data):
    ed, stacks, tiles = board
    camel = data.draw(st.sampled_from(list(ed.camels)))
    distance = data.draw(st.integers(1, 3))
    before = copy_stacks(stacks)
    space, h = where(before)[camel]
    unit = before[space][h:]
    stay = before[space][:h]
    after = copy_stacks(before)
    m = move_unit(after, tiles, camel, distance, ed.crazy)
    step = -1 if camel in ed.crazy else 1  # crazy camels run counterclockwise (RULES 3.1)
    landed = space + step * distance
    tile = tiles.get(landed) if 1 <= landed <= 16 else None
    final = landed if tile is None else landed + (step if tile[1] == "+" else -step)
    assert (m["landed"], m["to"], m["unit"]) == (landed, final, unit)
    assert m["tile"] == (None if tile is None else {"space": landed, "owner": tile[0],
                                                    "side": tile[1]})
    assert m["crossed"] == (not 1 <= final <= 16)
    # camels beneath stay; the unit keeps its order; on top unless a backward tile
    if final != space:
        assert after.get(space, []) == stay
    old = before.get(final, []) if final != space else stay
    under = tile is not None and tile[1] == "-"
    assert after[final] == (unit + old if under else old + unit)
    for s in before:
        if s not in (space, final):
            assert after[s] == before[s]
    assert sorted(c for s in after for c in after[s]) == sorted(ed.camels)


def crazy_reference(stacks, ink):
    """RULES 3.5 restated: carriers, then directly stacked, then ink."""
    pos = where(stacks)

    def carries(c):
        s, h = pos[c]
        return any(pos[r][0] == s and pos[r][1] > h for r in SECOND.racing)

    carriers = [c for c in ("black", "white") if carries(c)]
    if len(carriers) == 1:
        return carriers[0]
    (sb, hb), (sw, hw) = pos["black"], pos["white"]
    if sb == sw and abs(hb - hw) == 1:
        return "black" if hb > hw else "white"
    return ink


@FEW
@given(boards(SECOND), st.sampled_from(["black", "white"]))
def test_grey_die_choice_matches_the_rule(board, ink):
    _, stacks, _ = board
    camel, rule = select_crazy(stacks, SECOND.crazy, ink)
    assert camel == crazy_reference(stacks, ink)
    assert rule in "abc" and (rule != "c" or camel == ink)


@FEW
@given(boards())
def test_ranking_is_position_then_height_racing_only(board):
    ed, stacks, _ = board
    order = ranking(stacks, ed.racing)
    assert sorted(order) == sorted(ed.racing)
    pos = where(stacks)
    for i in range(len(order) - 1):
        assert pos[order[i]] > pos[order[i + 1]]


@FEW
@given(boards(), st.data())
def test_tile_placement_matches_the_rule(board, data):
    ed, stacks, tiles = board
    players = 8
    me = data.draw(st.integers(0, players - 1))
    g = Game(ed, players, stacks, tiles=tiles, turn=me)
    mine = [s for s in tiles if tiles[s][0] == me]
    others = {s for s in tiles if tiles[s][0] != me}
    for space in range(0, 18):
        ok = (2 <= space <= 16 and space not in stacks and space not in mine
              and not {space - 1, space, space + 1} & others)
        for side in "+-":
            assert g.is_legal(Action.tile(space, side)) == ok, (space, side)


@st.composite
def holdings(draw):
    ed = draw(st.sampled_from([CLASSIC, SECOND]))
    n = draw(st.integers(ed.min_players, 8))
    order = draw(st.permutations(list(ed.racing)))
    held = [[] for _ in range(n)]
    for colour in ed.racing:
        for value in ed.leg_values[:draw(st.integers(0, len(ed.leg_values)))]:
            held[draw(st.integers(0, n - 1))].append((colour, value))
    pyramid = [draw(st.integers(0, 2)) for _ in range(n)]
    partners = [None] * n
    if ed.has_partnerships(n) and draw(st.booleans()):
        a, b = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
        partners[a], partners[b] = b, a
    coins = [draw(st.integers(0, 6)) for _ in range(n)]
    return order, held, pyramid, partners, coins


@FEW
@given(holdings())
def test_leg_scoring_nets_then_floors(h):
    order, held, pyramid, partners, coins = h

    def reward(colour, value):
        return value if colour == order[0] else 1 if colour == order[1] else -1

    def own(p):
        return [reward(c, v) for c, v in held[p]] + [1] * pyramid[p]

    breakdown, new = score_leg(order, held, pyramid, partners, coins)
    for p in range(len(coins)):
        net = sum(own(p))
        q = partners[p]
        if q is not None and own(q) and max(own(q)) >= 0:
            net += max(own(q))  # copying is optional: a negative one is declined
        assert breakdown[p]["net"] == net
        assert new[p] == breakdown[p]["after"] == max(0, coins[p] + net)
        assert sum(i["reward"] for i in breakdown[p]["items"]) == net


@FEW
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["red", "blue", "green"])),
                max_size=12), st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_finish_pile_card_by_card_with_floor(pile, coins):
    expect = list(coins)
    correct = 0
    for p, colour in pile:
        if colour == "red":
            correct += 1
            expect[p] += (8, 5, 3, 2)[correct - 1] if correct <= 4 else 1
        else:
            expect[p] = max(0, expect[p] - 1)
    got = list(coins)
    cards = score_pile("winner", pile, "red", got)
    assert got == expect
    assert [c["place"] for c in cards if c["correct"]] == list(range(1, correct + 1))
