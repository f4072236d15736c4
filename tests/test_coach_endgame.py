"""The coach's end-game (camelhost.coach): in the leg the race very likely ends in, its
best candidates are ranked by the chance to win the race, played out through the rules
engine with the others' hidden finish cards guessed, never read (RULES 1.8, 1.13)."""

import camelup
import pytest
from camelhost import coach
from camelhost.table import bots
from camelup.game import Game

pytestmark = pytest.mark.slow  # the coach's end-game searches

#: Blue one space from the line: the race ends this leg about two times in three.
LAST_LEG = {15: ["blue"], 13: ["green"], 11: ["orange"], 9: ["yellow"], 7: ["white"]}


def _last_leg(cards):
    """Classic, 4 players, the given finish cards played in turn from Ann's seat."""
    g = Game("classic", 4, dict((s, list(c)) for s, c in LAST_LEG.items()))
    for text in cards:
        g.push(text)
    return g


def test_the_end_game_starts_when_the_race_likely_ends_this_leg():
    assert coach.race_ends_this_leg(Game.random("classic", 4, 3)) == 0.0
    share = coach.race_ends_this_leg(_last_leg([]))
    assert 0.4 < share < 0.9
    assert coach.race_ends_this_leg(_last_leg([])) == share  # seeded by the position


def test_end_game_advice_is_ranked_by_the_chance_to_win():
    g = _last_leg(["finish winner blue", "finish winner green"])
    advice = coach.suggestions(g)
    chances = [av.win for av in advice if av.win is not None]
    assert len(chances) == coach.ENDGAME_CANDIDATES
    assert chances == sorted(chances, reverse=True)
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert [av.win is not None for av in advice[:len(chances)]] == [True] * len(chances)
    # the coach plays the first of them
    assert coach.choose(g)[0] == advice[0].action


def test_the_others_hidden_cards_are_guessed_never_read():
    # the same game but for the colour of Ben's hidden card: the same guesses, the
    # same chances, the same choice
    a = _last_leg(["finish winner blue", "finish winner green"])
    b = _last_leg(["finish winner blue", "finish winner orange"])
    assert coach.card_guesses(a) == coach.card_guesses(b)
    guesses = coach.card_guesses(a)
    assert [(pile, index, seat) for pile, index, seat, _w in guesses] == [
        ("winner", 0, 0), ("winner", 1, 1)]
    for _pile, _index, _seat, weights in guesses:
        assert abs(sum(w for _c, w in weights) - 1.0) < 1e-9
        assert max(weights, key=lambda cw: cw[1])[0] == "blue"  # the favourite then
    actions = ["pyramid", "leg blue", "finish loser white"]
    race = camelup.odds.race.race_odds(camelup.odds.game.position_from_game(a), samples=500)
    assert coach.win_chances(a, actions, race, samples=60) == \
        coach.win_chances(b, actions, race, samples=60)
    assert coach.choose(a) == coach.choose(b)


def test_public_advice_does_not_depend_on_the_players_own_cards():
    # Ann's own card is private too on the shared screen: guessed like the others'
    a = _last_leg(["finish winner blue", "leg blue", "leg green", "finish loser white"])
    b = _last_leg(["finish winner green", "leg blue", "leg green", "finish loser white"])
    assert a.turn == 0
    assert coach.choose(a) != coach.choose(b) or coach.evaluate(a) != coach.evaluate(b)
    shown = [[(av.action, av.win) for av in bots.suggestions(g)] for g in (a, b)]
    assert shown[0] == shown[1]
    assert any(win is not None for _action, win in shown[0])
    # finish cards as if every colour were still held, the best two: blue on the
    # winner pile is advised in a although Ann played it (and in b, where she did not)
    finish = [(action, win) for action, win in shown[0] if action.startswith("finish ")]
    assert len(finish) == coach.FINISH_ADVICE
    assert "finish winner blue" in [action for action, _win in finish]
    # the end-game played them out: never with a guessed card of Ann's of the colour
    # she is about to play (the engine would refuse the play-out)
    assert all(win is not None for _action, win in finish)


def test_a_game_without_history_guesses_from_the_odds_now():
    # a position typed in (no undo history): the cards are guessed from today's odds
    g = Game("classic", 4, dict((s, list(c)) for s, c in LAST_LEG.items()),
                     turn=2, winner_pile=[(0, "white"), (1, "blue")])
    guesses = coach.card_guesses(g)
    assert [seat for _p, _i, seat, _w in guesses] == [0, 1]
    assert guesses[0][3] == guesses[1][3]
    assert coach.suggestions(g)[0].win is not None


def _replayed(actions):
    g = Game.random("classic", 4, 592655)
    for a in actions:
        g.push(a)
    return g


def test_no_advice_or_choice_depends_on_another_players_hidden_card():
    # the same games but for the colour of one face-down card of a player who is not
    # to act: the same ranking, the same choice, in any leg (a tester found the
    # replies' finish-card values reading the others' colours before the end-game)
    from camelup.randomplay import random_action
    from camelup.rng import XorShift32
    rng = XorShift32(5)
    checked = 0
    g = Game.random("classic", 4, 592655)
    actions = []
    while not g.is_over and checked < 12:
        a = random_action(g, rng, pyramid_share=3)
        g.push(a)
        actions.append(str(a))
        played = [(i, t) for i, t in enumerate(actions) if t.startswith("finish ")]
        if not played or g.is_over:
            continue
        i, text = played[-1]
        _, pile, colour = text.split()
        seat = _replayed(actions[:i]).turn
        if seat == g.turn:
            continue
        other = [c for c in g.edition.racing
                 if c != colour and (seat, c) not in g.pile("winner") + g.pile("loser")]
        changed = list(actions)
        changed[i] = "finish %s %s" % (pile, other[0])
        h = _replayed(changed)
        assert h.position() != g.position()
        assert coach.evaluate(h) == coach.evaluate(g), (text, changed[i])
        assert [av.action for av in bots.suggestions(h)] == \
            [av.action for av in bots.suggestions(g)]
        checked += 1
    assert checked == 12


def test_candidates_clearly_behind_stop_playing_out_and_the_best_stays_the_best(monkeypatch):
    # the play-outs go in rounds; a candidate far behind the best (paired, the same
    # dice) is dropped after a round, keeping the chance of its play-outs so far. The
    # best keeps all its play-outs, so its chance is exactly the full run's
    g = _last_leg(["finish winner blue", "finish winner green"])
    from camelup.odds.game import position_from_game
    from camelup.odds.race import race_odds
    race = race_odds(position_from_game(g), seed=1, samples=coach.FINISH_SAMPLES)
    actions = [av.action for av in coach.suggestions(g)[:coach.ENDGAME_CANDIDATES]]
    calls = []
    real = coach._play_out

    def counted(*args):
        calls.append(args[1])
        return real(*args)

    monkeypatch.setattr(coach, "_play_out", counted)
    monkeypatch.setattr(coach, "ENDGAME_DROP", 0.0)
    full = coach.win_chances(g, actions, race)
    every = len(calls)
    del calls[:]
    monkeypatch.setattr(coach, "ENDGAME_DROP", 3.0)
    fast = coach.win_chances(g, actions, race)
    assert every == len(actions) * coach.ENDGAME_SAMPLES
    assert len(calls) < every  # some candidate was clearly behind here
    best = max(range(len(actions)), key=lambda j: (full[j], -j))
    assert fast[best] == full[best]
    assert max(range(len(actions)), key=lambda j: (fast[j], -j)) == best
    assert calls.count(actions[best]) == coach.ENDGAME_SAMPLES
