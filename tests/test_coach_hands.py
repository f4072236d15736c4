"""The coach's model of the others (camelhost.coach): each plays their best immediate
action, and the finish cards they laid face down are inferred from when and on which
pile they laid them (RULES 1.8), never read."""

import pytest
from camelhost import coach
from camelhost.table import bots
from camelup.editions import get_edition
from camelup.game import Game
from camelup.randomplay import random_release
from camelup.rng import XorShift32

pytestmark = pytest.mark.slow  # the coach's searches over seeded hands

STACKS = {1: ["blue", "green", "orange"], 2: ["yellow"], 12: ["white"]}


@pytest.mark.parametrize("edition,seed", [("classic", 1), ("classic", 3), ("second", 2)])
def test_the_cards_of_players_who_lay_their_best_card_are_inferred(edition, seed):
    # ev bots lay the card worth most when they lay one: whoever watches the piles
    # (who laid which pile, and when) can tell every colour
    g = Game.random(edition, 4, seed)
    dice = XorShift32(seed)
    while not g.is_over and len(g.pile("winner")) + len(g.pile("loser")) < 5:
        text = bots.ev_choose(g)[0]
        g.push(random_release(g, dice) if text == "pyramid" else text)
    assert not g.is_over
    truth = {(pile, i): colour for pile in ("winner", "loser")
             for i, (seat, colour) in enumerate(g.pile(pile)) if seat != g.turn}
    assert len(truth) >= 3
    assert coach.inferred_cards(g) == truth
    # on the shared screen the player to act's own cards are inferred like the rest
    public = coach.inferred_cards(g, public=True)
    assert len(public) == len(g.pile("winner")) + len(g.pile("loser"))


def _cards_down(card):
    """Cy and Dee have laid all five cards (a typed-in pile); Ben lays ``card``, Cy and
    Dee take a leg ticket each: Ann to act."""
    racing = get_edition("classic").racing
    g = Game("classic", 4, STACKS, turn=1,
                     loser_pile=[(s, c) for s in (2, 3) for c in racing])
    for text in (card, "leg blue", "leg green"):
        g.push(text)
    assert g.turn == 0
    return g


def test_the_inference_reads_who_laid_which_pile_never_the_colour():
    a = _cards_down("finish winner white")
    b = _cards_down("finish winner blue")  # the same but for the hidden colour
    assert coach.inferred_cards(a) == coach.inferred_cards(b)
    assert coach.inferred_cards(a)[("winner", 0)] == "white"  # far ahead when laid
    assert coach.evaluate(a) == coach.evaluate(b)
    # a typed-in position has no history: its cards are inferred from today's odds,
    # a seat never twice the same colour
    typed = coach.inferred_cards(Game(
        "classic", 4, STACKS, loser_pile=[(1, "blue"), (1, "green"), (2, "blue")]))
    assert typed[("loser", 0)] != typed[("loser", 1)]
    assert typed[("loser", 0)] == typed[("loser", 2)]


def test_a_card_the_next_player_has_laid_is_not_one_he_can_reply_with():
    # White far ahead. If Ben laid his card on the winner pile it was the white: after
    # Ann takes the white 5 his best reply is a smaller ticket, not the winner pile's 8.
    # Had he laid it on the loser pile he would still hold the white, and Ann's ticket
    # would leave him that card (RULES 1.8, 1.13)
    g = _cards_down("finish winner white")
    h = _cards_down("finish loser blue")
    score_g = {action: score for score, action, _ev in coach.evaluate(g)}
    score_h = {action: score for score, action, _ev in coach.evaluate(h)}
    assert score_g["leg white"] > score_h["leg white"] + coach.REPLY_WEIGHT * 4


@pytest.mark.parametrize("edition,seed", [("classic", 7), ("second", 8)])
def test_the_replies_expect_what_the_ev_bots_then_do(edition, seed):
    # the model behind the round of replies, asked at each turn of a seeded game of
    # ev bots, names the kind of action the bot takes (the leg ticket's colour too):
    # the cards it laid inferred, a certain coin from a leg ticket before a pyramid
    # ticket's (ties go as the bots break them), their finish cards on their odds
    g = Game.random(edition, 4, seed)
    dice = XorShift32(seed)
    turns = 0
    while not g.is_over:
        text = bots.ev_choose(g)[0]
        words = text.split()
        kind = text if words[0] == "leg" else words[0]
        assert coach.expected_reply(g) == kind, (turns, text)
        g.push(random_release(g, dice) if text == "pyramid" else text)
        turns += 1
    assert turns > 40


@pytest.mark.parametrize("edition,seed", [("classic", 1), ("second", 2)])
def test_my_finish_cards_are_valued_on_the_piles_as_read(edition, seed):
    # ev bots lay their best card, mostly the favourite: a card of that colour now
    # comes behind all of theirs, one of another colour first. The coach values its
    # own cards on the colours read from their play (RULES 1.13: 8, 5, 3, 2, 1 coins
    # by place, -1 when wrong), not as if each hidden card were any colour by chance
    from camelup.odds.actions import ladder
    from camelup.odds.game import position_from_game
    from camelup.odds.race import race_odds
    g = Game.random(edition, 4, seed)
    dice = XorShift32(seed)
    while not g.is_over and len(g.pile("winner")) < 3:
        text = bots.ev_choose(g)[0]
        g.push(random_release(g, dice) if text == "pyramid" else text)
    while g.pile("winner")[-1][0] == g.turn or not g.finish_cards_in_hand(g.turn):
        g.push(random_release(g, dice))  # someone else's card on top: a seat to value
    assert not g.is_over
    samples = coach.FINISH_SAMPLES  # the race odds the choice values my cards on
    if coach.FINISH_ON_REPLIES and coach.race_ends_this_leg(g) < coach.ENDGAME_SHARE:
        samples = coach.REPLY_RACE_SAMPLES
    race = race_odds(position_from_game(g), seed=1, samples=samples)
    values = {action: ev for _score, action, ev in coach.evaluate(g)}
    pile = g.pile("winner")
    same = 0
    for colour in g.finish_cards_in_hand(g.turn):
        ahead = sum(1 for seat, c in pile if seat != g.turn and c == colour)
        p = race.winner[colour]
        assert values["finish winner " + colour] == pytest.approx(p * ladder(1 + ahead) - (1 - p))
        same += ahead > 0
    assert same >= 1  # a colour the others laid, worth less than a fresh one
