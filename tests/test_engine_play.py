"""``Game.play``, the push of a throwaway copy (the coach's end-game play-outs): the
same check and the same game after it as ``push``, without the undo snapshot, the
history entry or the report; and the finish piles a play-out guesses are checked as
the constructor checks them."""

import pytest
from camelup.errors import IllegalAction, NotationError
from camelup.game import Game
from camelup.randomplay import random_action
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
