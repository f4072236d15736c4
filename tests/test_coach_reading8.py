"""The coach's reading of the others' finish cards at a crowded table (issue 31): eight
coaches must not lay card after card on one colour, each taking the cards before it
for the favourite's.

``make demo SEATS=8`` (second edition, seed 1) began with Dee's loser-pile card and
then five loser-pile cards in a row on green, all wrong: each coach read the cards
before it as an ``ev`` bot would have laid them (the favourite, blue), so green's first
place looked free to every one of them (docs/odds.md, "Eight coaches on one colour").
From ``coach.CROWDED_SEATS`` seats on, ``coach.pile_readings`` reads each card as a
pile reader would have laid it too (``coach.READER_SHARE``), as the coach lays its own.
"""

import pytest
from camelhost import coach
from camelup.game import Game

pytestmark = pytest.mark.slow  # the coach's searches at eight seats

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]
#: The demo's set-up (the virtual pyramid's draw for seed 1) and its first moves, from
#: its journal: Ann to act, after Dee's loser-pile card (blue, the favourite to come
#: last then) and Hal's (green).
STACKS = {1: ["blue", "yellow"], 2: ["green"], 3: ["purple", "red"], 14: ["white"],
          15: ["black"]}
FIRST_MOVES = ["leg red", "partner 0", "tile 4 -", "finish loser blue", "finish winner red",
               "leg red", "partner 5", "finish loser green"]


def demo_after(moves):
    game = Game("second", 8, stacks=dict((s, list(c)) for s, c in STACKS.items()))
    for text in moves:
        game.push(text)
    return game


def test_the_second_card_on_a_crowded_pile_is_read_as_a_pile_reader_lays_it_too():
    game = demo_after(FIRST_MOVES)
    assert NAMES[game.turn] == "Ann"
    readings = coach.pile_readings(game)
    # Dee laid first: the favourite to come last, whoever reads it
    assert readings[("loser", 0)] == {"blue": 1.0}
    # Hal laid second: an ev bot lays blue again (the card before counted by number),
    # a player who reads that card as blue lays the colour whose first place is free
    # (green, as Hal did); the reading holds both
    hal = readings[("loser", 1)]
    assert coach.inferred_cards(game)[("loser", 1)] == "blue"
    assert hal["green"] == pytest.approx(coach.READER_SHARE)
    assert hal["blue"] == pytest.approx(1.0 - coach.READER_SHARE)
    assert sum(hal.values()) == pytest.approx(1.0)
    # who laid which pile and when is all that is read, never the colour
    other = demo_after(FIRST_MOVES[:-1] + ["finish loser yellow"])
    assert coach.pile_readings(other) == readings


def test_the_demo_herd_on_one_colour_does_not_happen(monkeypatch):
    # in the demo Ann, Ben, Cy and Dee each laid the next loser-pile green (at 22 %),
    # reading the cards before as blue; read as a pile reader lays them too, a second
    # green is worth less than a leg ticket, and nobody lays it
    game = demo_after(FIRST_MOVES)
    scored = coach.evaluate(game)
    green = [s for s, action, _ev in scored if action == "finish loser green"][0]
    best = [s for s, action, _ev in scored if not action.startswith("finish ")][0]
    assert green < best
    assert coach.choose(game, NAMES)[0] != "finish loser green"
    # the ev reading alone (the coach before) still sees green's first place free
    monkeypatch.setattr(coach, "READER_SHARE", 0.0)
    assert coach.choose(game, NAMES)[0] == "finish loser green"


@pytest.mark.parametrize("seats", [4, 6])
def test_below_seven_seats_the_reading_is_the_ev_bots(seats):
    # the league plays 4- and 6-seat tables with the coach as it was: there every card
    # is read, whole, as the ev bots' best card
    game = Game("second", seats, stacks=dict((s, list(c)) for s, c in STACKS.items()))
    for text in ["finish loser blue", "leg red", "finish loser green", "leg red"]:
        game.push(text)
    read = coach.inferred_cards(game)
    assert read
    assert coach.pile_readings(game) == dict((k, {c: 1.0}) for k, c in read.items())


def test_eight_coaches_spread_their_first_leg_cards():
    # tournament game 6 (seed 1), eight coaches, its first leg: on main's reading six
    # of them laid the loser pile's red one after another (seven reds there in all);
    # read as pile readers lay them too, no colour goes on one pile more than twice
    from camelhost import tournament
    from camelhost.table import bots
    from camelup.rng import XorShift32

    number = tournament.game_seed(1, 6)
    game = Game.random("second", 8, number)
    dice = XorShift32(number * 7 + 3)
    rngs = [XorShift32(number * 31 + s + 1) for s in range(8)]
    cards = []
    while not game.is_over and game.leg == 1:
        text = bots.POLICIES["coach"](game, rngs[game.turn])
        if text.startswith("finish "):
            cards.append(text)
        game.push(tournament.engine_action(game, text, dice))
    assert cards
    assert max(cards.count(c) for c in cards) <= 2, cards
