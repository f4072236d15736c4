"""Invariants of the rules engine under random legal play (Hypothesis + seeded full games).

Covers the kinds behind the acceptance cases: camels never lost or duplicated, stacks
consistent, coins >= 0, undo restores the identical position, notation round-trips,
same transcript -> same result, a second-edition leg reveals at most five dice, the
grey die comes out at most once per leg (RULES 1.2, 1.9, 1.12, 3.4).
"""

import pytest
from camelup.editions import DICE_PER_LEG, PYRAMID_TICKETS
from camelup.game import Game, parse_position
from camelup.movement import on_track
from camelup.randomplay import random_game
from camelup.transcript import replay, transcript_of
from depth import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = [pytest.mark.slow, pytest.mark.deep]  # thousands of seeded random games

SETTINGS = settings(max_examples=examples(60), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_invariants(g):
    ed = g.edition
    stacks = g.stacks
    camels = [c for s in stacks for c in stacks[s]]
    assert sorted(camels) == sorted(ed.camels), "camel lost or duplicated"
    assert all(stacks[s] for s in stacks), "empty stack kept"
    crossed = [s for s in stacks if not on_track(s)]
    assert len(crossed) <= 1 and g.is_over == bool(crossed)
    for s, (owner, side) in g.tiles.items():
        assert 2 <= s <= 16 and s not in stacks and s + 1 not in g.tiles and side in "+-"
        assert 0 <= owner < g.players
    owners = [o for o, _ in g.tiles.values()]
    assert len(owners) == len(set(owners))
    assert all(isinstance(c, int) and c >= 0 for c in g.coins)
    out = g.dice_out
    assert len(out) == len(set(out)) and sum(g.pyramid_tickets(p) for p in range(g.players)) == len(out)
    assert g.pyramid_tickets_left == PYRAMID_TICKETS - len(out)
    if not g.is_over:
        assert len(out) < DICE_PER_LEG
        assert len(g.dice_in_pyramid()) == len(ed.dice) - len(out)
    for c in ed.racing:
        held = sorted(v for p in range(g.players) for col, v in g.held_tickets(p) if col == c)
        assert sorted(held + g.leg_tickets_left(c)) == sorted(ed.leg_values)
    for p in range(g.players):
        q = g.partner_of(p)
        assert q is None or g.partner_of(q) == p
        cards = [c for pile in ("winner", "loser") for who, c in g.pile(pile) if who == p]
        assert len(cards) == len(set(cards)) <= len(ed.racing)
    ranking = g.ranking()
    assert sorted(ranking) == sorted(ed.racing)


def check_leg_reveals(g):
    """Per leg: at most five reveals, grey at most once, and the leg ends on the fifth."""
    reveals = []
    for h in g._history:
        report = h[2]
        if report["kind"] == "pyramid":
            reveals.append(report["move"]["die"])
            assert len(reveals) <= DICE_PER_LEG
            assert reveals.count("grey") <= 1
            assert len(set(reveals)) == len(reveals)
            if len(reveals) == DICE_PER_LEG:
                assert report["leg_ended"]
        if report["leg_ended"]:
            reveals = []


@st.composite
def games(draw):
    edition = draw(st.sampled_from(["classic", "second"]))
    players = draw(st.integers(2 if edition == "classic" else 3, 8))
    seed = draw(st.integers(0, 2**31))
    return Game.random(edition, players, seed)


@SETTINGS
@given(games(), st.data())
def test_random_play_keeps_every_invariant_and_undo_is_exact(game, data):
    steps = data.draw(st.integers(1, 120))
    positions = [game.position()]
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        before = game.position()
        report = game.push(action)
        after = game.position()
        # undo restores the identical position; redo gives the identical result
        assert game.pop() == action and game.position() == before
        assert game.push(action) == report and game.position() == after
        check_invariants(game)
        assert parse_position(after).position() == after
        positions.append(after)
    check_leg_reveals(game)
    while game.history:
        positions.pop()
        game.pop()
        assert game.position() == positions[-1]


@SETTINGS
@given(games(), st.integers(0, 2**31))
def test_same_transcript_same_result(game, seed):
    from camelup.randomplay import random_action
    from camelup.rng import XorShift32

    rng = XorShift32(seed)
    for _ in range(80):
        if game.is_over:
            break
        game.push(random_action(game, rng))
    text = transcript_of(game)
    first = replay(text)
    second = replay(text)
    assert first.position() == second.position() == game.position()
    assert first.coins == game.coins
    assert replay(text.replace("\n", "\n\n# a comment\n")).position() == game.position()


def test_thousands_of_full_random_games_finish_cleanly():
    """Every edition and player count, 250 full races each (3250, ``make deep``; a
    quarter of the seeds in ``make test``) with random legal play."""
    total = 0
    for edition, low in (("classic", 2), ("second", 3)):
        for players in range(low, 9):
            for seed in range(examples(250)):
                g = random_game(edition, players, seed)
                assert g.is_over and g.result is not None
                check_invariants(g)
                check_leg_reveals(g)
                assert g.result["winners"] == g.winners()
                assert g.result["coins"] == g.coins
                total += 1
    assert total == 13 * examples(250)
