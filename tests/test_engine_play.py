"""``Game.play``, the push of a throwaway copy (the coach's end-game play-outs): the
same check and the same game after it as ``push``, without the undo snapshot, the
history entry or the report; and the finish piles a play-out guesses are checked as
the constructor checks them."""

import pytest
from camelup.errors import IllegalAction, NotationError
from camelup.game import Game
from camelup.randomplay import random_action, random_release
from camelup.rng import XorShift32


@pytest.mark.parametrize("edition,players,seed", [("classic", 4, 3), ("second", 4, 5),
                                                  ("second", 8, 7), ("classic", 2, 11)])
def test_play_leaves_the_game_push_leaves(edition, players, seed):
    rng = XorShift32(seed)
    pushed = Game.random(edition, players, seed)
    played = pushed.copy(history=False)
    legs = 0
    while not pushed.is_over:
        action = random_action(pushed, rng)
        report = pushed.push(action)
        assert played.play(action) is None
        legs += report["leg_ended"]
        assert played.position() == pushed.position()
        assert played.coins == pushed.coins
        assert played.history == []
    assert played.is_over and played.result == pushed.result
    assert played.winners() == pushed.winners()
    assert legs >= 2  # leg ends and the race's end, both played


@pytest.mark.parametrize("edition,players,seed", [("classic", 4, 3), ("second", 4, 5),
                                                  ("second", 8, 7), ("classic", 2, 11)])
def test_release_to_end_leaves_the_game_and_draws_that_released_dice_leave(edition, players,
                                                                          seed):
    # the coach's play-outs run the dice out with release_to_end: the same game, coins,
    # result and generator state as playing random_release's tickets one by one
    for start in range(12):  # from several moments of one race, the last one over
        game = Game.random(edition, players, seed)
        setup = XorShift32(seed)
        for _k in range(start * 7):
            if game.is_over:
                break
            game.push(random_action(game, setup))
        one_by_one = game.copy(history=False)
        ran = game.copy(history=False)
        rng_one, rng_ran = XorShift32(seed * 13 + start), XorShift32(seed * 13 + start)
        while not one_by_one.is_over:
            one_by_one.play(random_release(one_by_one, rng_one))
        assert ran.release_to_end(rng_ran) is None
        assert ran.is_over
        assert ran.position() == one_by_one.position()
        assert ran.coins == one_by_one.coins and ran.result == one_by_one.result
        assert (ran.leg, ran.turn, ran.start_player) == (one_by_one.leg, one_by_one.turn,
                                                         one_by_one.start_player)
        assert rng_ran.state == rng_one.state
        assert ran.history == []


def test_play_refuses_what_push_refuses_and_changes_nothing():
    g = Game.random("second", 4, 1)
    g.push("leg blue")
    before = g.position()
    with pytest.raises(IllegalAction, match="tile"):
        g.play("tile 1 +")
    with pytest.raises(NotationError):
        g.play("leg")
    assert g.position() == before
    assert len(g.history) == 1
    g.play("finish winner red")
    assert g.pile("winner") == [(1, "red")]
    assert len(g.history) == 1  # nothing to undo: a throwaway copy's move
    assert g.turn == 2


@pytest.mark.parametrize("seat", [4, -1, "1", None])
def test_guessed_piles_with_a_bad_owner_are_refused_by_name(seat):
    g = Game.random("classic", 4, 2)
    with pytest.raises(NotationError, match="finish card owner must be a seat 0..3"):
        g.with_piles([(0, "blue"), (seat, "green")], [])
    assert g.with_piles([(0, "blue"), (3, "green")], [(1, "blue")]).pile("loser") == \
        [(1, "blue")]


def test_before_gives_the_game_pop_gives_back_and_changes_nothing():
    rng = XorShift32(9)
    game = Game.random("second", 5, 9)
    for _k in range(40):
        if not game.is_over:
            game.push(random_action(game, rng))
    pushed = len(game.history)
    assert pushed >= 20
    now = game.position()
    undone = game.copy()
    for index in reversed(range(len(game.history))):
        undone.pop()
        then = game.before(index)
        assert then.position() == undone.position() and then.coins == undone.coins
        assert then.history == []
    assert game.position() == now and len(game.history) == pushed
    with pytest.raises(IndexError):
        game.before(pushed)
