"""The coach's model of the players it meets: the league's styles as each player's own
moves in this race tell (``camelhost.league``, ``coach.opponent_styles``)."""

from camelhost import coach, league
from camelhost.table.view import action_text
from camelup.editions import get_edition
from camelup.game import Game
from coach_games import played


def test_with_no_history_every_style_of_the_league_is_alike():
    g = Game.random("second", 4, 3)
    styles = coach.opponent_styles(g)
    assert sorted(styles) == [1, 2, 3]  # the others; with public, every seat
    assert sorted(coach.opponent_styles(g, public=True)) == [0, 1, 2, 3]
    for belief in styles.values():
        assert set(belief) == set(league.STYLES)
        assert all(abs(p - 1.0 / len(league.STYLES)) < 1e-12 for p in belief.values())


def test_the_model_tells_a_cautious_player_from_an_ev_player_within_a_race():
    # 8 moves each: the cautious player's leg tickets on likely camels and no early
    # finish card, the ev player's early cards and long-shot tickets
    for edition, seed in (("classic", 3), ("second", 4)):
        styles = ["greedy", "cautious", "ev", "tiles"]
        game = played(edition, styles, seed, 0, 8 * len(styles))
        belief = coach.opponent_styles(game, public=True)
        assert belief[1]["cautious"] > 0.9, (edition, belief[1])
        assert belief[2]["cautious"] < 0.1, (edition, belief[2])
        # in a 4-seat game the partnership seeker plays exactly as ev: the two share it
        assert belief[2]["ev"] + belief[2]["partner"] > 0.9, (edition, belief[2])
        assert belief[0]["greedy"] > 0.9 and belief[3]["tiles"] > 0.9
        # the player to act is left out unless the advice is for the shared screen
        assert game.turn not in coach.opponent_styles(game)


def test_what_the_model_expects_of_each_style_and_of_a_random_players_cards():
    early = Game("classic", 4, {1: ["blue", "green", "orange"], 2: ["yellow"],
                                        9: ["white"]})
    late = Game("classic", 4, {1: ["blue", "green", "orange"], 2: ["yellow"],
                                       12: ["white"]})
    assert coach.finish_intent(early, {"ev": 1.0}) == 1.0
    assert coach.finish_intent(early, {"greedy": 1.0}) == 0.0
    assert coach.finish_intent(early, {"cautious": 1.0}) == 0.0
    assert coach.finish_intent(late, {"cautious": 1.0}) == 1.0
    # Ben lays a winner card: read as white (his best card then) if he plays like ev,
    # any colour alike if he plays at random
    g = late.copy()
    g.push("leg white")
    g.push("finish winner white")
    (pile, index, seat, weights), = coach.card_guesses(g, styles={1: {"ev": 1.0}})
    assert (pile, index, seat) == ("winner", 0, 1) and dict(weights)["white"] == 1.0
    (_p, _i, _s, weights), = coach.card_guesses(g, styles={1: {"random": 1.0}})
    assert all(abs(w - 0.2) < 1e-12 for _c, w in weights)


def test_a_finish_card_is_kept_while_nobody_would_take_its_place(monkeypatch):
    # classic, white alone on 10, the first leg. Against ev players, who lay their
    # best card from the first leg on, the coach lays its winner card on white now
    # (waiting gives the place away). Against cautious players, who lay none until a
    # camel is within 5 spaces of the line, a card kept is still worth laying later:
    # the waiting moves come first
    g = Game("classic", 4, {1: ["blue", "green", "orange"], 2: ["yellow"],
                                    10: ["white"]})

    def ranked(style):
        monkeypatch.setattr(coach, "opponent_styles", lambda game, public=False: dict(
            (p, {style: 1.0}) for p in range(game.players) if public or p != game.turn))
        return [action for _score, action, _ev in coach.evaluate(g)]

    assert ranked("ev")[0] == "finish winner white"
    kept = ranked("cautious")
    assert kept[0] == "leg white"
    assert kept.index("finish winner white") > kept.index("tile 4 -")


def test_a_finish_card_scores_its_value_over_keeping_it_for_a_later_leg():
    # kept, a card is laid late (right with HOLD_ACCURACY) behind the cards the
    # others lay before then; in a race that surely ends this leg nothing is kept
    a = coach.HOLD_ACCURACY
    assert abs(coach.hold_value(0.3, 0, 0, 0.0) - 0.3 * (8 - (1 - a) / a)) < 1e-12
    assert abs(coach.hold_value(0.3, 0, 3, 0.0) - 0.3 * (2 - (1 - a) / a)) < 1e-12
    assert coach.hold_value(0.3, 1, 1.5, 0.0) < coach.hold_value(0.3, 1, 0.5, 0.0)
    assert coach.hold_value(0.3, 0, 0, 1.0) == 0.0
    # the advice says each card's value now and over keeping it, the coach's score
    # (before the replies) the second
    g = Game("classic", 4, {1: ["blue", "green", "orange"], 2: ["yellow"], 10: ["white"]})
    cards = [av for av in coach.suggestions(g) if av.kind == "finish"]
    assert cards
    for av in cards:
        now, _, rest = action_text(av, get_edition("classic"), str).partition(" (")
        kept = float(rest.split("; ")[1].split()[0])
        assert float(now.split(": ")[1]) == round(av.ev, 2)
        assert kept < av.ev and rest.endswith("over keeping it for a later leg")
