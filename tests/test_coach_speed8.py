"""The coach's fifth speed stop (issue 31) leaves its choices as they were: the
bounds with which its choice leaves a candidate out count every player after a
die at their least (a coin, their tile or their finish card), never more than the
round of replies they stand for; a round of replies valued one die at a time stops
only above its cap with a bound below the full sum, and gives the full sum to the
last bit otherwise; scoring the pyramid ticket and the tiles valued with their effect
on the leg last changes no first action, only how many leg odds it looks up. Eight seats,
second edition: the table where the round of replies is longest."""

import pytest
from camelhost import coach
from coach_games import positions
from depth import examples

pytestmark = pytest.mark.slow  # the coach's searches

EIGHT = ["coach"] + ["ev"] * 7


def _table(g):
    position = coach.position_from_game(g)
    leg = coach.cached_leg_odds(position)
    theirs = coach.cached_race_odds(position, seed=1, samples=coach.REPLY_RACE_SAMPLES,
                                    leg=leg)
    ranked = coach.action_values(g, race=theirs, leg=leg)
    tiles = [av for av in ranked if av.kind == "tile"]
    table = coach._Table(g, leg, tiles[0].ev if tiles else 0.0,
                         coach._finish_best(g, theirs))
    return position, leg, tiles, table


def _old_least(game, seat, p, turn, left, tile_best, finish_best):
    return 0.0  # the bounds before: the replies after a die weighed face by face count 0


@pytest.mark.deep  # make test: the first 40 actions (25 bounds); make deep: 80
def test_the_bounds_count_the_replies_after_a_die_below_what_they_bound(monkeypatch):
    # at the coach's moves of a race's first legs: the bound of a tile's replies with the
    # tile placed and the two bounds of the replies after my die never exceed the
    # replies they stand for, and they are tighter than counting 0 after a die
    checked = 0
    tighter = 0
    for g in positions("second", EIGHT, 17, 0, max(40, examples(80))):
        if g.turn != 0 or g.pyramid_tickets_left <= 1:
            continue
        position, leg, tiles, table = _table(g)
        bounds = []
        full = coach._replies_to_my_die(table, 0, position)
        bounds.append((full, "_my_die_floor", (table, 0, position)))
        bounds.append((full, "_my_die_replies_floor", (table, 0, position)))
        for av in tiles[:coach.TILE_CANDIDATES]:
            words = av.action.split()
            placed, _effect, where = coach._with_tile(g, position, leg, 0, int(words[1]),
                                                      1 if words[2] == "+" else -1)
            rest = 0.0
            for other in tiles:
                if abs(int(other.action.split()[1]) - int(words[1])) > 1:
                    rest = other.ev
                    break
            bounds.append((coach._replies_to(table, 0, where, placed, tile_best=rest),
                           "_replies_floor", (table, 0, where, placed, rest)))
        now = [getattr(coach, name)(*args) for _full, name, args in bounds]
        with monkeypatch.context() as m:
            m.setattr(coach, "_least_after", _old_least)
            m.setattr(coach, "_my_die_floor", _old_my_die_floor)
            old = [getattr(coach, name)(*args) for _full, name, args in bounds]
        for (replies, _name, _args), bound, before in zip(bounds, now, old, strict=True):
            assert bound <= replies + 1e-12, g
            assert before <= bound + 1e-12
            tighter += bound > before + 1e-9
            checked += 1
    assert checked >= 12 and tighter >= checked // 2


def _old_my_die_floor(table, seat, position):
    # before: the next player's coin, tile or finish card alone, the later replies 0
    if table.pyramid_left <= 1:
        return coach._fresh_replies(table.game, seat, seat, 0)
    nxt = (seat + 1) % table.game.players
    least = max(1.0, table.tile_best, table.finish_best.get(nxt, 0.0))
    return least * coach._over_reveals(position, lambda after: 1.0)


@pytest.mark.deep  # make test: a quarter of the positions; make deep: all of them
def test_the_choice_at_eight_seats_is_the_full_scorings_first(monkeypatch):
    # at every coach move of a race's first legs (eight seats): the first action and
    # its score with the dear candidates scored last, the tighter bounds and the lazy
    # rounds, as every candidate scored in full and as the order and bounds before,
    # with fewer leg odds looked up
    seen = [g.copy() for g in positions("second", EIGHT, 11, 1, examples(96))
            if g.turn == 0]
    assert len(seen) >= 3
    asked = [0]  # leg odds looked up: the work, whatever the cache holds
    looked_up = coach.cached_leg_odds

    def counted(position):
        asked[0] += 1
        return looked_up(position)
    monkeypatch.setattr(coach, "cached_leg_odds", counted)
    work = 0
    work_before = 0
    for g in seen:
        full = coach._scored(g, 1, None, screen=True)
        asked[0] = 0
        pruned = coach._scored(g, 1, None, screen=True, prune=True)
        work += asked[0]
        with monkeypatch.context() as m:
            m.setattr(coach, "PRUNE_LAST", 0)
            m.setattr(coach, "LAZY_REPLIES", 0)
            m.setattr(coach, "_least_after", _old_least)
            m.setattr(coach, "_my_die_floor", _old_my_die_floor)
            asked[0] = 0
            before = coach._scored(g, 1, None, screen=True, prune=True)
            work_before += asked[0]
        first = (full[0][0], full[0][1].action)
        assert (pruned[0][0], pruned[0][1].action) == first, g
        assert (before[0][0], before[0][1].action) == first, g
    assert work < work_before


def test_the_bounds_hold_when_the_round_empties_the_pyramid():
    # two pyramid tickets left: after my die the next player, with nothing better, takes
    # the last one and the players after them meet a fresh leg (a reply of
    # FRESH_LEG_REPLY each), less than the finish cards they would lay in this leg
    g = next(g for g in positions("second", EIGHT, 17, 0, 200)
             if g.pyramid_tickets_left == 2)
    seat = g.turn
    nxt = (seat + 1) % g.players
    position = coach.position_from_game(g)
    leg = coach.cached_leg_odds(position)
    finish = dict((p, 0.0 if p == nxt else 3.0) for p in range(g.players) if p != seat)
    table = coach._Table(g, leg, 0.0, finish)
    for c in table.stacks:
        table.stacks[c] = []  # no leg ticket left: the next player's best is the pyramid
    full = coach._replies_to_my_die(table, seat, position)
    assert full > 0
    for bound in (coach._my_die_floor, coach._my_die_replies_floor):
        assert bound(table, seat, position) <= full + 1e-12
    # with the fresh leg's reply never counted, the bound would pass the replies
    later = sum(coach.REPLY_DECAY ** k * 3.0 for k in range(1, g.players - 1))
    assert coach._my_die_floor(table, seat, position) < later


@pytest.mark.deep  # make test: the first 40 actions (10 rounds); make deep: 80
def test_a_round_valued_one_die_at_a_time_stops_only_above_its_cap():
    # the replies after my die and after a tile of mine, with caps around the full sum:
    # at or above it, the full sum to the last bit; below it, either the full sum or a
    # lower bound of it above the cap (the choice drops that candidate)
    cut = 0
    rounds = 0
    for g in positions("second", EIGHT, 17, 0, max(40, examples(80))):
        if g.turn != 0 or g.pyramid_tickets_left <= 1:
            continue
        position, leg, tiles, table = _table(g)
        cases = [(coach._replies_to_my_die, (table, 0, position), {})]
        for av in tiles[:1]:
            words = av.action.split()
            placed, _effect, where = coach._with_tile(g, position, leg, 0, int(words[1]),
                                                      1 if words[2] == "+" else -1)
            cases.append((coach._replies_to, (table, 0, where, placed), {"tile_best": 0.0}))
        for fn, args, kw in cases:
            full = fn(*args, **kw)
            for cap in (full + 1.0, full, full - 0.01, full - 0.5, full - 2.0, 0.0):
                capped = fn(*args, cap=cap, **kw)
                if cap >= full:
                    assert capped == full
                elif capped != full:
                    assert cap + coach.CAP_MARGIN < capped <= full + 1e-12, (g, cap)
                    cut += 1
            rounds += 1
    assert rounds >= 6 and cut > 0


@pytest.mark.deep  # make test: one game; make deep: four
def test_the_coach_chooses_as_before_the_fifth_stop_through_whole_games(monkeypatch):
    # whole 8-seat tournament games (the benchmark's seed), the coach at a seat each:
    # every coach move chosen with the fifth stop's fast paths and without them (the
    # order, bounds and rounds before it) is the same action
    from camelhost import tournament
    from camelhost.table.bots import POLICIES
    from camelup.game import Game
    from camelup.rng import XorShift32

    compared = 0
    for i in range(examples(4)):
        number = tournament.game_seed(5, i)
        game = Game.random("second", 8, number)
        dice = XorShift32(number * 7 + 3)
        rngs = [XorShift32(number * 31 + s + 1) for s in range(8)]
        while not game.is_over:
            seat = game.turn
            if seat == i % 8:
                text = coach.choose(game)[0]
                with monkeypatch.context() as m:
                    m.setattr(coach, "PRUNE_LAST", 0)
                    m.setattr(coach, "LAZY_REPLIES", 0)
                    m.setattr(coach, "_least_after", _old_least)
                    m.setattr(coach, "_my_die_floor", _old_my_die_floor)
                    assert coach.choose(game)[0] == text, game
                compared += 1
            else:
                text = POLICIES["ev"](game, rngs[seat])
            game.push(tournament.engine_action(game, text, dice))
    assert compared >= 10
