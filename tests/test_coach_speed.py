"""The coach's fast paths give what the slow ones give (issue 31): the end-game's
trigger is the exact share of the leg's outcomes that end the race, the opponent
model weighs only the moves since its last answer, the finish cards screened on
the replies' race odds leave the choice where the coach's own larger run puts it, the
positions after each die are made once a position, and the end-game's play-outs push
without undo snapshots, keep the games after their pushes without the guessed piles,
and the coach's scoring leaves the garbage collector as it found it."""

from collections import OrderedDict

import pytest
from camelhost import coach, league
from camelup.editions import GREY, INKS
from camelup.game import Game
from camelup.odds import leg
from camelup.randomplay import random_release
from camelup.rng import XorShift32
from coach_games import played, positions
from depth import FULL, examples

pytestmark = pytest.mark.slow  # the coach's searches

#: Blue one space from the line: the race ends this leg about two times in three.
LAST_LEG = {15: ["blue"], 13: ["green"], 11: ["orange"], 9: ["yellow"], 7: ["white"]}


def test_the_end_game_share_is_the_legs_exact_chance_to_end_the_race():
    g = Game("classic", 4, dict((s, list(c)) for s, c in LAST_LEG.items()))
    exact = coach.race_ends_this_leg(g)
    rng = XorShift32(11)
    n = 4000
    ends = 0
    for _ in range(n):  # the dice alone, as the pyramid releases them
        c = g.copy(history=False)
        while not c.is_over and c.leg == 1:
            c.push(random_release(c, rng))
        ends += c.is_over
    se = (exact * (1 - exact) / n) ** 0.5
    assert 0.4 < exact < 0.9
    assert abs(ends / n - exact) < 4 * se, (ends / n, exact)
    assert coach.race_ends_this_leg(Game.random("classic", 4, 3)) == 0.0


@pytest.mark.deep  # make test: the first 9 positions; make deep: 36
def test_the_opponent_model_from_its_last_answer_equals_weighing_every_move():
    styles = ["ev", "cautious", "random", "tiles"]
    for game in positions("second", styles, 7, 1, examples(36)):
        step = league.style_posterior(game, [1, 2, 3])
        kept = dict(league._BELIEFS)
        league._BELIEFS.clear()
        try:
            assert league.style_posterior(game, [1, 2, 3]) == step
        finally:
            league._BELIEFS.update(kept)


def _finish_events_by_undo(game, me):
    """``coach._finish_events`` as it was before ``Game.before``: the whole undo
    history popped on a copy, the game kept at each card."""
    events = []
    g = game.copy()
    while g.history:
        a = g.pop()
        if a.kind == "finish" and g.turn != me:
            events.append((a.pile, len(g.pile(a.pile)), g.turn, g.copy(history=False)))
    events.reverse()
    return events


@pytest.mark.parametrize("edition,seed", [("second", 3), ("classic", 7)])
def test_the_finish_cards_read_from_the_history_are_those_undoing_it_finds(edition, seed):
    # the others' laid cards and the game before each, read from the undo history's
    # snapshots (Game.before) where the whole history was undone at every move
    game = played(edition, ["random"] * 5, seed, 0, 70)
    laid = [a for a in game.history if a.kind == "finish"]
    assert len(laid) >= 4
    for me in [None] + list(range(game.players)):
        fast = coach._finish_events(game, me)
        slow = _finish_events_by_undo(game, me)
        assert [(pile, index, seat) for pile, index, seat, _g in fast] == \
            [(pile, index, seat) for pile, index, seat, _g in slow]
        for (_p, _i, _s, then), (_p2, _i2, _s2, undone) in zip(fast, slow, strict=True):
            assert then.position() == undone.position() and then.history == []
            assert (then.coins, then.turn, then.leg, then.result) == \
                (undone.coins, undone.turn, undone.leg, undone.result)
    assert len(coach._finish_events(game, None)) == len(laid)


def test_screened_finish_cards_leave_the_choice_as_the_larger_run_makes_it(monkeypatch):
    seen = []
    for game in positions("classic", ["coach", "ev", "ev", "ev"], 3, 0, 30):
        if game.turn == 0 and coach.race_ends_this_leg(game) < coach.ENDGAME_SHARE:
            seen.append(game.copy())
    monkeypatch.setattr(coach, "FINISH_ON_REPLIES", 0)  # the screen, then maybe the run
    screened = [coach.evaluate(g) for g in seen]
    monkeypatch.setattr(coach, "SCREEN_WIDTHS", float("inf"))  # never clear: always the run
    full = [coach.evaluate(g) for g in seen]
    assert len(seen) >= 6
    kept = 0
    for a, b in zip(screened, full, strict=True):
        assert a[0][1] == b[0][1]  # the same choice
        # every action but the finish cards scored exactly alike
        assert [t for t in a if not t[1].startswith("finish")] == \
            [t for t in b if not t[1].startswith("finish")]
        kept += a == b
    assert kept < len(seen)  # some were screened: the run was not made there


@pytest.mark.deep  # make test: the coach's turns in the first 8 actions; make deep: 32
@pytest.mark.parametrize("edition,seed", [("classic", 3), ("second", 5)])
def test_the_replies_kept_from_the_screen_change_no_score(monkeypatch, edition, seed):
    # the finish cards never clear on the screen: every move is scored twice, on the
    # replies' race odds and on the coach's larger run, the second time with the
    # others' replies and what their play tells (cards read, styles: the ``model``)
    # kept from the first (they read the replies' odds only) and with every reply and
    # the model worked out afresh: the same scores to the last bit
    seen = [g.copy() for g in positions(edition, ["coach", "ev", "ev", "ev"], seed, 0,
                                        examples(32))
            if g.turn == 0 and coach.race_ends_this_leg(g) < coach.ENDGAME_SHARE]
    assert len(seen) >= (5 if FULL else 2)
    monkeypatch.setattr(coach, "FINISH_ON_REPLIES", 0)
    monkeypatch.setattr(coach, "SCREEN_WIDTHS", float("inf"))
    kept = [coach.evaluate(g) for g in seen]
    real = coach._score_candidates
    monkeypatch.setattr(coach, "_score_candidates", lambda *args: real(*args[:7], _Forgets()))
    assert [coach.evaluate(g) for g in seen] == kept


def test_the_others_play_is_read_once_a_move_scored_twice(monkeypatch):
    # every move scored twice (the screen never clears): their cards and styles are read
    # once, for the screen, and kept for the scores on the coach's larger run
    seen = [g.copy() for g in positions("second", ["coach", "ev", "ev", "ev"], 5, 0, 12)
            if g.turn == 0 and coach.race_ends_this_leg(g) < coach.ENDGAME_SHARE]
    assert len(seen) >= 2
    monkeypatch.setattr(coach, "FINISH_ON_REPLIES", 0)
    monkeypatch.setattr(coach, "SCREEN_WIDTHS", float("inf"))
    calls = []
    for name in ("inferred_cards", "opponent_styles"):
        real = getattr(coach, name)
        monkeypatch.setattr(coach, name, lambda *a, real=real, name=name, **k:
                            calls.append(name) or real(*a, **k))
    for g in seen:
        del calls[:]
        coach.evaluate(g)
        assert sorted(calls) == ["inferred_cards", "opponent_styles"]


def test_the_model_reads_the_bots_own_ranked_actions_with_the_same_figures():
    # an ev bot ranks its actions once (league.ranked_actions, kept by position and race
    # odds); the coach's model weighing that move later reads the same list. Kept or
    # worked out afresh: the same actions, values and order, and the same choice as
    # ranking them straight from action_values
    from camelhost.table import bots
    from camelup.odds.actions import action_values
    moves = 0
    for game in positions("second", ["ev"] * 8, 5, 0, 60):
        kept = league.ranked_actions(game)
        assert league.ranked_actions(game) is kept  # kept: worked out once
        fresh = action_values(game, leg=league.cached_leg_odds(coach.position_from_game(game)))
        assert [(av.action, av.ev, av.facts) for av in kept] == \
            [(av.action, av.ev, av.facts) for av in fresh]
        before = dict(league._RANKED)
        league._RANKED.clear()
        try:
            assert bots.ev_choose(game) == bots.ev_choose(game)
            again = league.ranked_actions(game)
            assert again is not kept and [(av.action, av.ev) for av in again] == \
                [(av.action, av.ev) for av in kept]
        finally:
            league._RANKED.clear()
            league._RANKED.update(before)
        moves += 1
    assert moves == 60


class _Forgets(dict):
    """A ``replies`` store that keeps nothing: every reply worked out afresh."""

    def __setitem__(self, key, value):
        pass


def test_the_end_games_replies_kept_between_play_outs_change_no_chance(monkeypatch):
    g = Game("classic", 4, dict((s, list(c)) for s, c in LAST_LEG.items()))
    g.push("finish winner blue")
    g.push("leg green")
    race = coach.cached_race_odds(coach.position_from_game(g), seed=1, samples=1000)
    actions = [av.action for av in coach.suggestions(g)][:4]
    kept = coach.win_chances(g, actions, race, samples=60)
    play_out = coach._play_out
    monkeypatch.setattr(coach, "_play_out",
                        lambda game, action, rng, race, guesses, memo=None, starts=None:
                        play_out(game, action, rng, race, guesses, None, starts))
    assert coach.win_chances(g, actions, race, samples=60) == kept


def test_the_end_games_guesses_kept_between_actions_change_no_chance(monkeypatch):
    # play-out i guesses the others' cards once for every action (win_chances'
    # starts): the same chances as guessing them again for each action, a finish card
    # among the actions (its guesses hold that card back)
    g = Game("classic", 4, dict((s, list(c)) for s, c in LAST_LEG.items()))
    g.push("finish winner blue")
    g.push("finish loser green")
    g.push("leg green")
    g.push("finish winner orange")
    race = coach.cached_race_odds(coach.position_from_game(g), seed=1, samples=1000)
    actions = [av.action for av in coach.suggestions(g)][:5]
    actions += ["finish winner yellow", "finish loser white", "pyramid"]
    assert coach.card_guesses(g) and coach.card_guesses(g, public=True)
    kept = [coach.win_chances(g, actions, race, samples=60, public=public)
            for public in (False, True)]  # public: my own card guessed, one held back
    assert 0.0 < max(kept[0]) < 1.0
    play_out = coach._play_out
    monkeypatch.setattr(coach, "_play_out",
                        lambda game, action, rng, race, guesses, memo=None, starts=None:
                        play_out(game, action, rng, race, guesses, memo))
    assert [coach.win_chances(g, actions, race, samples=60, public=public)
            for public in (False, True)] == kept
    # nor does keeping the games met (the guessed piles' and each path's, memo)
    monkeypatch.setattr(coach, "_play_out",
                        lambda game, action, rng, race, guesses, memo=None, starts=None:
                        play_out(game, action, rng, race, guesses, None, starts))
    assert [coach.win_chances(g, actions, race, samples=60, public=public)
            for public in (False, True)] == kept


def test_the_end_games_play_outs_without_undo_snapshots_change_no_chance(monkeypatch):
    # Game.play on the play-out's throwaway copy against Game.push, the undo snapshot
    # and the report made at every action: the same chances to the last bit
    g = Game("second", 4, {15: ["blue"], 13: ["green"], 12: ["red"], 10: ["yellow"],
                           8: ["purple"], 16: ["black"], 14: ["white"]})
    g.push("finish winner blue")
    g.push("leg green")
    race = coach.cached_race_odds(coach.position_from_game(g), seed=1, samples=1000)
    actions = [av.action for av in coach.suggestions(g)][:4]
    played = coach.win_chances(g, actions, race, samples=60)
    assert 0.0 < max(played) < 1.0
    monkeypatch.setattr(Game, "play", lambda game, action: game.push(action) and None)
    assert coach.win_chances(g, actions, race, samples=60) == played


#: Eight seats in the second edition's last leg: blue one space from the line, cards of
#: most seats on both piles (the crowded reading, ``coach.CROWDED_SEATS``).
CROWDED_LAST_LEG = {15: ["blue"], 14: ["green"], 12: ["red"], 10: ["yellow"], 8: ["purple"],
                    16: ["black"], 3: ["white"]}


def test_the_end_games_games_kept_without_the_piles_change_no_chance(monkeypatch):
    # the memo keeps the games after each path of pushes without the guessed piles and
    # each reply's finish cards by the hand and the others' cards on each pile: the
    # same chances as playing every push on a game with the guessed piles, at eight
    # seats with cards on both piles, races that end inside the replies (their last
    # die scores the piles) and finish cards among my actions
    g = Game("second", 8, dict((s, list(c)) for s, c in CROWDED_LAST_LEG.items()))
    for a in ("finish winner blue", "finish loser purple", "finish winner green", "leg blue",
              "finish winner blue", "finish loser yellow", "finish winner red",
              "finish loser purple", "finish loser red", "finish loser green"):
        g.push(a)
    race = coach.cached_race_odds(coach.position_from_game(g), seed=1, samples=1000)
    actions = [av.action for av in coach.suggestions(g)][:5]
    actions += ["finish winner yellow", "finish loser blue", "pyramid"]
    kept = [coach.win_chances(g, actions, race, samples=60, public=public)
            for public in (False, True)]
    assert 0.0 < max(kept[0]) < 1.0 and len(set(kept[0])) > 3
    play_out = coach._play_out
    monkeypatch.setattr(coach, "_play_out",
                        lambda game, action, rng, race, guesses, memo=None, starts=None:
                        play_out(game, action, rng, race, guesses, None, starts))
    assert [coach.win_chances(g, actions, race, samples=60, public=public)
            for public in (False, True)] == kept


def test_the_coachs_scoring_leaves_the_garbage_collector_as_it_found_it(monkeypatch):
    # the coach's scoring pauses Python's cyclic collector (its end-game play-outs
    # included): on again after the move, after an error too, and left off when it
    # was off; the same choice either way
    import gc
    g = Game("second", 8, dict((s, list(c)) for s, c in CROWDED_LAST_LEG.items()))
    g.push("finish winner blue")
    assert coach.race_ends_this_leg(g) >= coach.ENDGAME_SHARE
    seen = []
    play_out = coach._play_out

    def watched(*args):
        seen.append(gc.isenabled())
        return play_out(*args)

    monkeypatch.setattr(coach, "_play_out", watched)
    assert gc.isenabled()
    chosen = coach.choose(g)
    assert gc.isenabled() and seen and not any(seen)
    gc.disable()
    try:
        assert coach.choose(g) == chosen
        assert not gc.isenabled()
    finally:
        gc.enable()
    monkeypatch.setattr(coach, "_play_out", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        coach.choose(g)
    assert gc.isenabled()


def _over_every_reveal(position, value_of):
    """``coach._over_reveals`` as it was before ``_reveals_of``: every die and face
    moved afresh at every call."""
    total = 0.0
    for die in position.dice:
        faces = [(v, ink) for v in (1, 2, 3) for ink in (INKS if die == GREY else (None,))]
        part = 0.0
        seen = {}
        for v, ink in faces:
            after, crossed = coach._after_die(position, die, v, ink)
            if crossed:
                continue
            key = repr(after)
            if key not in seen:
                seen[key] = value_of(after)
            part += seen[key]
        total += part / len(faces)
    return total / len(position.dice)


@pytest.mark.deep  # make test: the coach's turns in the first two rounds; make deep: 4
@pytest.mark.parametrize("edition,seats", [("second", 4), ("second", 8)])
def test_the_positions_after_each_die_kept_between_candidates_change_no_score(
        monkeypatch, edition, seats):
    # every candidate's score, the round of replies weighing each die and face, with
    # the positions after them made once a position (coach._reveals_of) and afresh
    seen = [g.copy() for g in positions(edition, ["coach"] + ["ev"] * (seats - 1), 13, 2,
                                        max(2 * seats, examples(4 * seats))) if g.turn == 0]
    assert len(seen) >= (3 if FULL else 2)
    kept = [coach.evaluate(g) for g in seen]
    monkeypatch.setattr(coach, "_over_reveals", _over_every_reveal)
    assert [coach.evaluate(g) for g in seen] == kept


@pytest.mark.deep  # make test: the coach's turns in the first two rounds; make deep: 14 actions
def test_the_leg_odds_classes_kept_between_positions_change_no_choice(monkeypatch):
    # the coach's scores at the start of a second-edition race with the last reveal's
    # classes kept between leg enumerations (camelup.odds.leg._KEPT) and without:
    # every leg odds worked out afresh, the same scores to the last bit
    seen = [g.copy() for g in positions("second", ["coach", "ev", "ev", "ev"], 5, 0,
                                        max(8, examples(14)))
            if g.turn == 0]
    assert len(seen) >= (3 if FULL else 2)
    monkeypatch.setattr(leg, "_KEPT", [{}, {}])
    monkeypatch.setattr(leg, "_KEPT_COUNT", [0])
    monkeypatch.setattr(league, "_LEGS", OrderedDict())
    kept = [coach.evaluate(g) for g in seen]
    assert any(leg._KEPT[0].values())
    monkeypatch.setattr(leg, "_KEPT_SIZE", 0)
    monkeypatch.setattr(league, "_LEGS", OrderedDict())
    assert [coach.evaluate(g) for g in seen] == kept


@pytest.mark.deep  # make test: the first quarter of the positions; make deep: all of them
@pytest.mark.parametrize("edition,seats", [("second", 4), ("second", 8), ("classic", 4)])
def test_the_choice_leaves_out_only_candidates_that_cant_come_first(edition, seats):
    # choose() skips the replies after a die for a tile valued with its effect on the
    # leg and for its own pyramid ticket when a bound of their score is below one
    # already found: the same first action with the same score as every candidate
    # scored in full, at every position of a race's first legs
    styles = ["coach"] + ["ev"] * (seats - 1)
    seen = [g.copy() for g in positions(edition, styles, 11, 1, examples(6 * seats))]
    left_out = 0
    for g in seen:
        pruned = coach._scored(g, 1, None, screen=True, prune=True)
        full = coach._scored(g, 1, None, screen=True)
        assert (pruned[0][0], pruned[0][1].action) == (full[0][0], full[0][1].action), g
        words = full[0][1].action.split()
        if words[0] == "partner":  # choose names the partner from 1
            words[1] = str(int(words[1]) + 1)
        assert coach.choose(g)[0] == " ".join(words)
        left_out += len(full) - len(pruned)
    assert left_out > 0  # the bound did leave some out


@pytest.mark.deep  # make test: the coach's turns in the first three rounds; make deep: 5
@pytest.mark.parametrize("edition,seats", [("second", 4), ("second", 8)])
def test_the_bound_after_my_die_is_below_the_replies_it_bounds(edition, seats):
    # _my_die_replies_floor, with which choose() may leave out its own pyramid ticket,
    # never exceeds the round of replies after my die it stands for, and is tighter than
    # the next player's coin alone (_my_die_floor) somewhere
    styles = ["coach"] + ["ev"] * (seats - 1)
    tighter = 0
    checked = 0
    for g in positions(edition, styles, 17, 0, max(3 * seats, examples(5 * seats))):
        if g.turn != 0 or g.pyramid_tickets_left <= 1:
            continue
        position = coach.position_from_game(g)
        leg = coach.cached_leg_odds(position)
        theirs = coach.cached_race_odds(position, seed=1, samples=1000, leg=leg)
        ranked = coach.action_values(g, race=theirs, leg=leg)
        tiles = [av.ev for av in ranked if av.kind == "tile"]
        table = coach._Table(g, leg, tiles[0] if tiles else 0.0,
                             coach._finish_best(g, theirs))
        full = coach._replies_to_my_die(table, 0, position)
        floor = coach._my_die_replies_floor(table, 0, position)
        assert floor <= full + 1e-12, g
        tighter += floor > coach._my_die_floor(table, 0, position) + 1e-9
        checked += 1
    assert checked >= 3 and tighter > 0


def test_the_choice_values_finish_cards_on_the_replies_run_outside_the_end_game(monkeypatch):
    # FINISH_ON_REPLIES: the choice's scores are the screen's, on the replies' 1,000
    # races; the coach's 2,000-race run is made in the end-game and for the advice only
    # (every run the coach asks for is counted, alone or with its leg odds)
    runs = []
    real = coach.cached_race_odds
    monkeypatch.setattr(coach, "cached_race_odds", lambda position, seed=1, samples=1000,
                        leg=None: runs.append(samples) or real(position, seed, samples, leg))
    both = coach.cached_leg_and_race  # the leg odds and a run from one enumeration
    monkeypatch.setattr(coach, "cached_leg_and_race", lambda position, seed=1, samples=1000:
                        runs.append(samples) or both(position, seed, samples))
    seen = [g.copy() for g in positions("second", ["coach", "ev", "ev", "ev"], 5, 0, 40)
            if g.turn == 0]
    played = [g for g in seen if coach.race_ends_this_leg(g) < coach.ENDGAME_SHARE]
    ends = [g for g in seen if coach.race_ends_this_leg(g) >= coach.ENDGAME_SHARE]
    assert len(played) >= 5
    for g in played:
        del runs[:]
        scores = coach.evaluate(g)
        assert runs and coach.FINISH_SAMPLES not in runs
        # the same scores as the screen on the replies' run, the larger run never asked
        screen, _styles = coach._score_candidates(
            g, coach.position_from_game(g), coach.cached_leg_odds(coach.position_from_game(g)),
            *([real(coach.position_from_game(g), 1, coach.REPLY_RACE_SAMPLES)] * 2), False)
        assert scores == [(score, av.action, av.ev) for score, av in screen]
        del runs[:]
        coach.suggestions(g)  # the advice's numbers are read: the larger run
        assert coach.FINISH_SAMPLES in runs
    for g in ends:
        del runs[:]
        coach.evaluate(g)
        assert coach.FINISH_SAMPLES in runs


@pytest.mark.parametrize("edition", ["classic", "second"])
def test_leg_and_race_from_one_enumeration_are_the_separate_ones(monkeypatch, edition):
    # league.cached_leg_and_race on a fresh cache enumerates the leg once
    # (camelup.odds.race.leg_with_end) for the leg odds and the race odds' exact leg
    # end: the same weights and the same race odds as working out each on its own
    from camelup.odds import leg_odds
    from camelup.odds.game import position_from_game
    from camelup.odds.race import race_odds
    from oracles.positions import same_weights
    seen = 0
    for game in positions(edition, ["ev", "ev", "ev", "ev"], 3, 1, 40):
        if game.is_over:
            break
        position = position_from_game(game)
        monkeypatch.setattr(league, "_LEGS", OrderedDict())
        monkeypatch.setattr(league, "_RACES", OrderedDict())
        both, race = league.cached_leg_and_race(position, 1, 1000)
        alone = leg_odds(position)
        assert same_weights(both, alone)
        separate = race_odds(position, seed=1, samples=1000, leg=alone, cache=False)
        assert (race.winner, race.loser, race.half_width) == (
            separate.winner, separate.loser, separate.half_width)
        assert league.cached_leg_odds(position) is both  # kept for the next asker
        assert league.cached_race_odds(position, 1, 1000) is race
        seen += 1
    assert seen >= 20
