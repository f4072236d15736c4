"""Tiles in the race odds' later legs (``camelup.odds.race``, ``LATER_TILES``): every
tile goes on a legal space (RULES 1.5), the moves onto tiles are the board layer's
(``step_forward`` / ``step_backward``, RULES 1.5, 3.6) draw for draw, the old model
without later tiles is still there, the exact paths do not change, and tiles move the
odds where they must."""

import random

import pytest
from camelup.game import Game
from camelup.odds import Position, leg_odds
from camelup.odds.board import (
    BLACK,
    GREY_DIE,
    SEP,
    TRACK,
    WHITE,
    Coded,
    grey_choice,
    step_backward,
    step_forward,
)
from camelup.odds.race import (
    _TABLES,
    LATER_TILES,
    MAX_LEGS,
    TILE_MARK,
    TILE_TRIES,
    _Draws,
    _later_orders,
    _next,
    _orders,
    _run_fresh,
    _run_planned,
    _seed_state,
    _Strata,
    leg_end,
    race_odds,
    simulate,
)
from oracles.positions import CLASSIC, CRAZY, SECOND, random_board
from oracles.runtimes import same_on_both

P2A = {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"], 15: ["black"], 16: ["white"]}


def _spaces(board):
    """Segments of a board string: index k is space k (1..16)."""
    return board.split(SEP)


def _leader_space(board, crazy):
    segs = _spaces(board)
    for k in range(TRACK, 0, -1):
        camels = segs[k].replace("+", "").replace("-", "")
        if crazy:
            camels = camels.replace(BLACK, "").replace(WHITE, "")
        if camels:
            return k
    raise AssertionError("no racing camel on %r" % board)


def _reference_run(s, x, orders, tables, crazy):
    """The later legs with tiles written with the board layer's moves and a tile list
    (RULES 1.5), drawing from the generator in the same order as ``_run_fresh``."""
    counts, places, radix = tables
    legs = 0
    while legs < MAX_LEGS:
        x = _next(x)
        order = orders[x % len(orders)]
        x = _next(x)
        faces = x
        k = counts[faces // radix % len(counts)]  # past the five dice's faces
        pending = []
        for _ in range(k):
            x = _next(x)
            pending.append(places[x % len(places)])
        pending.sort()
        tiles = [0] * (TRACK + 2)
        for out in range(len(order)):
            while pending and pending[0][0] == out:
                entry = pending.pop(0)
                tries = 0
                while True:
                    m = _leader_space(s, crazy) + entry[1]
                    segs = _spaces(s)
                    if 2 <= m <= TRACK and not segs[m] and not tiles[m - 1] \
                            and not tiles[m + 1] and not tiles[m]:
                        tiles[m] = 1 if entry[2] == "+" else -1
                        break
                    tries += 1
                    if tries >= TILE_TRIES:
                        break
                    x = _next(x)
                    entry = places[x % len(places)]
            d = order[out]
            f = faces % 6
            faces //= 6
            if d == GREY_DIE:
                who = grey_choice(s)
                if who is None:
                    who = BLACK if f >= 3 else WHITE
                s, _hit = step_backward(s, who, f % 3 + 1, tiles)
                if s[0] != SEP:
                    return s, x
            else:
                s, _hit = step_forward(s, d, f % 3 + 1, tiles)
                if s[-1] != SEP:
                    return s, x
        legs += 1
    return s, x


#: Many tiles, every timing, both sides, near and far: stresses the moves onto tiles.
DENSE = ([3, 2, 3, 0], [(t, off, mark) for t in range(5) for off in (-4, -2, -1, 1, 2, 3, 4)
                     for mark in ("+", "-")], 6 ** 5)


def _boards(edition, n, seed):
    rnd = random.Random(seed)
    for _ in range(n):
        camels = list(CLASSIC if edition == "classic" else SECOND)
        if edition == "second":
            camels += list(CRAZY)
        rnd.shuffle(camels)
        stacks, _tiles = random_board(rnd, camels, (1, 3, 6, 9), (2, 4, 6), 0)
        yield Position(edition, stacks)


def test_later_tile_moves_are_the_board_layers_draw_for_draw():
    # RULES 1.5, 3.6: a unit landing on a tile moves on as step_forward / step_backward
    # say; the same draws give the same final board
    for edition in ("classic", "second"):
        for n, pos in enumerate(_boards(edition, 150, 5)):
            coded = Coded(pos)
            orders = _later_orders(coded, pos)
            for tables in (_TABLES[edition], DENSE):
                x = _seed_state(n)
                got, gx = _run_fresh(coded.board, x, orders, len(orders), tables, coded.crazy)
                want, wx = _reference_run(coded.board, x, orders, tables, coded.crazy)
                assert got.replace("+", "").replace("-", "") == want, (edition, n, pos)
                assert gx == wx


def test_later_legs_without_tiles_are_the_board_layers_draw_for_draw():
    # the later legs of the default model (no tiles: _run_fresh's own moves, the grey
    # die's written out) against step_forward / step_backward, RULES 1.2-1.4, 3.5-3.7,
    # crossings forward and carried back over the line included
    never = ([0], [(0, 0, "+")], 6 ** 5)  # the reference's legs without a tile
    back = 0
    for edition in ("classic", "second"):
        for n, pos in enumerate(_boards(edition, 300, 7)):
            coded = Coded(pos)
            orders = _later_orders(coded, pos)
            x = _seed_state(n)
            got = _run_fresh(coded.board, x, orders, len(orders), None, coded.crazy)
            assert got == _reference_run(coded.board, x, orders, never, coded.crazy), \
                (edition, n, pos)
            back += got[0][0] != SEP
    assert back > 0


def test_planned_later_legs_are_the_board_layers_draw_for_draw():
    # the later legs read from the draws worked out ahead (_Draws, _run_planned) against
    # step_forward / step_backward from the same generator state: the same final board
    # and the same draws used, whatever index a race starts at (RULES 1.2-1.4, 3.5-3.7)
    never = ([0], [(0, 0, "+")], 6 ** 5)
    for edition in ("classic", "second"):
        draws = None
        for n, pos in enumerate(_boards(edition, 150, 11)):
            coded = Coded(pos)
            orders = _later_orders(coded, pos)
            if draws is None:
                draws = _Draws(9, orders)
            k = 1 + 37 * n
            states, plans = draws.extend(k + 2 + 4 * MAX_LEGS)
            got, end = _run_planned(coded.board, k, plans)
            want, wx = _reference_run(coded.board, states[k - 1], orders, never,
                                      coded.crazy)
            assert got == want, (edition, n, pos)
            assert states[end - 1] == wx


def test_the_kept_draws_grow_without_touching_what_a_run_reads():
    # another thread's run (the table's odds worker) may be reading the kept draws of
    # the same seed: they grow by new lists put in place at once, the old ones as they
    # were, the new ones the same draws continued
    pos = Position("second", P2A)
    draws = _Draws(1, _later_orders(Coded(pos), pos))
    states, plans = draws.extend(10)
    before = (list(states), list(plans))
    more_states, more_plans = draws.extend(len(plans) + 10)
    assert (states, plans) == before
    assert len(more_plans) > len(plans)
    assert more_states[:len(states)] == states and more_plans[:len(plans)] == plans
    assert draws.table == (more_states, more_plans)
    x = _seed_state(1)
    for k in range(len(more_states)):
        x = _next(x)
        assert more_states[k] == x


@pytest.mark.parametrize("edition, stacks, dice", [
    ("second", P2A, None),
    ("second", {4: ["blue"], 6: ["green", "black"], 7: ["red", "yellow"], 9: ["purple"],
                12: ["white"]}, ["blue", "green", "grey"]),
    ("classic", {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]}, None),
])
def test_sampling_from_the_kept_draws_draws_the_same_races(monkeypatch, edition, stacks,
                                                          dice):
    # the stratified sample with its draws worked out ahead (PLANNED_MAX; from a seed's
    # second run on) counts the same winners, losers and disagreeing pairs as drawing
    # them one by one, for odd and even numbers of races, runs long enough to extend the
    # kept draws, and other seeds
    import camelup.odds.race as race
    pos = Position(edition, stacks, dice=dice)
    strata = _Strata(pos, leg_end(pos))
    monkeypatch.setattr(race, "_DRAWS", {})
    for seed, samples in ((1, 1201), (5, 3), (8, 600), (1, 999)):
        with monkeypatch.context() as m:
            m.setattr(race, "PLANNED_MAX", 0)
            want = ({}, {}, {}, {})
            strata.sample(seed, samples, *want)
        for _run in range(2):  # the first run of a seed draws as it goes
            got = ({}, {}, {}, {})
            strata.sample(seed, samples, *got)
            assert got == want, (seed, samples)
        assert isinstance(race._DRAWS[(seed, tuple(strata.orders))], _Draws)
        assert sum(got[0].values()) == samples


def test_the_kept_later_orders_are_every_order_of_the_dice():
    # kept between races (_LATER_ORDERS): the same list as working them out afresh,
    # each edition's own (five racing dice; the grey die too in the second, RULES 3.4)
    for edition, count in (("classic", 120), ("second", 720)):
        pos = next(_boards(edition, 1, 3))
        coded = Coded(pos)
        dice = sorted(coded.letter[c] for c in pos.racing())
        if coded.crazy:
            dice.append(GREY_DIE)
        kept = _later_orders(coded, pos)
        assert kept == _orders(dice, 5) and len(kept) == count
        assert _later_orders(Coded(pos), pos) is kept


def test_later_tiles_only_on_legal_spaces():
    # RULES 1.5: no camel on it, never space 1, no tile on it or next to it; a tile's
    # space never holds a camel while it lies there (a landing unit moves on)
    for edition in ("classic", "second"):
        trace = []
        for n, pos in enumerate(_boards(edition, 40, 9)):
            simulate(pos, seed=n, samples=20, later_tiles=True, trace=trace)
        assert len(trace) > 200  # most races see later legs with tiles
        for board in trace:
            segs = _spaces(board)
            assert len(segs) == TRACK + 2 and segs[0] == "" and segs[TRACK + 1] == ""
            assert segs[1] not in ("+", "-")
            for k in range(2, TRACK + 1):
                if "+" in segs[k] or "-" in segs[k]:
                    assert segs[k] in ("+", "-"), board  # alone on its space
                    assert segs[k - 1] not in ("+", "-"), board
                    assert segs[k + 1] not in ("+", "-"), board
    # a dense table keeps every placement legal too
    pos = Position("second", P2A)
    coded = Coded(pos)
    orders = _later_orders(coded, pos)
    trace = []
    for seed in range(300):
        _run_fresh(coded.board, _seed_state(seed), orders, len(orders), DENSE, True, trace)
    assert len(trace) > 1000
    for board in trace:
        segs = _spaces(board)
        marks = [k for k in range(TRACK + 2) if segs[k] in ("+", "-")]
        assert all(2 <= k <= TRACK for k in marks)
        assert all(b - a >= 2 for a, b in zip(marks, marks[1:], strict=False))
        assert all(len(segs[k]) == 1 for k in marks)


def test_the_measured_table_is_well_formed():
    # LATER_TILES is a measurement: counts of legs and tile actions, legal offsets
    for edition in ("classic", "second"):
        table = LATER_TILES[edition]
        assert sum(n for _tiles, n in table["count"]) >= 300  # later legs measured
        assert sum(n for *_key, n in table["place"]) >= 200  # tile actions measured
        for out, offset, side, n in table["place"]:
            assert 0 <= out <= 4 and side in TILE_MARK and offset != 0 and n > 0
        assert max(t for t, _n in table["count"]) <= 4  # one tile per player


def test_no_tile_model_still_there_and_seeded():
    pos = Position("second", P2A)
    a = race_odds(pos, seed=3, samples=1500, cache=False, later_tiles=False)
    b = race_odds(pos, seed=3, samples=1500, cache=False, later_tiles=False)
    c = race_odds(pos, seed=3, samples=1500, cache=False, later_tiles=True)
    d = race_odds(pos, seed=3, samples=1500, cache=False, later_tiles=True)
    assert race_odds(pos, seed=3, samples=1500, cache=False).winner == a.winner  # default
    assert a.winner == b.winner and c.winner == d.winner and c.loser == d.loser
    assert a.winner != c.winner  # the later legs differ
    assert abs(sum(c.winner.values()) - 1) < 1e-9 and abs(sum(c.loser.values()) - 1) < 1e-9
    # cached answers keep the two models apart
    e = race_odds(pos, seed=3, samples=1500, later_tiles=True)
    f = race_odds(pos, seed=3, samples=1500)
    assert e.winner == c.winner and f.winner == a.winner


def test_exact_paths_do_not_change():
    # a finished race: its final ranking, with or without later tiles (RULES 1.13)
    g = Game("classic", 3, {13: ["blue", "white"], 14: ["orange"], 15: ["green"],
                                   16: ["yellow"]})
    g.push("pyramid yellow 2")
    assert g.is_over
    for later in (True, False):
        race = race_odds(g, cache=False, later_tiles=later)
        assert race.exact and race.winner["yellow"] == 1.0 and race.loser["blue"] == 1.0
        assert race.samples == 0
    # RULES 1.13: the current leg ends the race in every outcome: exact either way
    pos = Position("classic", {12: ["blue"], 13: ["green", "orange"], 14: ["white"],
                               16: ["yellow"]})
    leg = leg_odds(pos)
    for later in (True, False):
        race = race_odds(pos, cache=False, later_tiles=later)
        assert race.exact and race.samples == 0
        assert race.winner["yellow"] == leg.first["yellow"] / leg.total
        assert race.loser == {c: leg.last[c] / leg.total for c in leg.last}


def test_later_tiles_move_the_odds_where_they_must():
    # the whole field in one stack on 12 and a fresh leg to come (no die left this
    # leg): without tiles the top camel (white) wins whenever the stack moves as one
    # far enough; the measured tiles are above all backward tiles one to three spaces
    # ahead of the leader, and a unit landing on one goes back underneath (RULES 1.5):
    # the top camel's winning chance drops, beyond both 95 % intervals
    pos = Position("classic", {12: ["blue", "green", "orange", "yellow", "white"]}, dice=[])
    old = race_odds(pos, seed=1, samples=20000, cache=False, later_tiles=False)
    new = race_odds(pos, seed=1, samples=20000, cache=False, later_tiles=True)
    assert not old.exact and not new.exact
    gap = old.winner["white"] - new.winner["white"]
    assert gap > old.winner_hw["white"] + new.winner_hw["white"]
    assert gap > 0.01


MP_SCRIPT = r'''
from camelup.odds import Position
from camelup.odds.race import simulate, simulate_after_leg
out = []
trace = []
w, l = simulate(Position("classic", {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]},
                         tiles={4: -1, 6: 1}, dice=["blue", "orange", "white"]),
                seed=5, samples=200, later_tiles=True, trace=trace)
out.append(repr((sorted(w.items()), sorted(l.items()), len(trace), trace[:5])))
p = Position("second", {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"],
                        15: ["black"], 12: ["white"]}, dice=["red", "grey", "blue"])
for later in (True, False):
    ew, el, w, l, share = simulate_after_leg(p, seed=9, samples=300, later_tiles=later)
    out.append(repr((sorted(ew.items()), sorted(w.items()), sorted(l.items()), "%.9f" % share)))
trace = []
w, l = simulate(Position("second", {4: ["black", "blue"], 5: ["red", "white"], 6: ["green"],
                                    7: ["yellow", "purple"]}), seed=2, samples=200, later_tiles=True,
                trace=trace)
out.append(repr((sorted(w.items()), sorted(l.items()), len(trace), trace[-3:])))
for line in out:
    print(line)
'''


@pytest.mark.micropython
def test_later_tiles_same_on_micropython_and_cpython(micropython, capsys):
    # the seeded later legs with tiles (xorshift32 draws, string boards) give the same
    # races on both runtimes, tile for tile
    out = same_on_both(micropython, capsys, MP_SCRIPT, "race_tiles_script")
    assert out.count("\n") == 4
    assert "+" in out and "-" in out  # tiles of both sides went down
