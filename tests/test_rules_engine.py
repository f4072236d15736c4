"""The rules engine's API: construction, actions, errors, reports, undo, setup, new race."""

import pytest
from camelup.actions import Action, parse_action
from camelup.editions import CLASSIC, SECOND
from camelup.errors import IllegalAction, NotationError, ParseError
from camelup.game import Game, setup_stacks
from camelup.rng import XorShift32

START2 = {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"], 15: ["black"],
          16: ["white"]}
START1 = {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]}


def second(players=4, **kw):
    return Game("second", players, START2, **kw)


# -- actions: canonical text and parsing (docs/interfaces.md) --------------------------

@pytest.mark.parametrize("text", ["leg red", "tile 7 +", "tile 7 -", "finish winner red",
                                  "finish loser red", "partner 3", "pyramid red 2",
                                  "pyramid grey black 3", "pyramid grey white 1"])
def test_canonical_action_text_round_trips(text):
    assert str(parse_action(text)) == text
    assert parse_action(text) == parse_action(str(parse_action(text)))


@pytest.mark.parametrize("alias,canonical", [
    ("oasis 7", "tile 7 +"), ("MIRAGE 7", "tile 7 -"), ("cheer 9", "tile 9 +"),
    ("booing 9", "tile 9 -"), ("tile 4 cheering", "tile 4 +"), ("tile +5", "tile 5 +"),
    ("winner red", "finish winner red"), ("loser blue", "finish loser blue"),
    ("  Leg   Red ", "leg red"), ("bet green", "leg green"),
    ("pyramid grey-black 2", "pyramid grey black 2"), ("pyramid gray white 1", "pyramid grey white 1"),
    ("partner p2", "partner 2"), ("red 2", "pyramid red 2"), ("grey BLACK 2", "pyramid grey black 2"),
    ("R 1", "pyramid red 1"), ("leg Y", "leg yellow"), ("finish loser k", "finish loser black"),
    ("pyramid O 3", "pyramid orange 3"),
])
def test_action_aliases(alias, canonical):
    assert str(parse_action(alias)) == canonical


@pytest.mark.parametrize("text,needle", [
    ("", "empty"), ("leg pink", "'pink'"), ("tile x +", "'x'"), ("tile 7 sideways", "'sideways'"),
    ("pyramid red 4", "1, 2 or 3"), ("pyramid red 0", "1, 2 or 3"),
    ("pyramid grey 2", "numeral ink"), ("dance", "'dance'"), ("finish middle red", "not an action"),
])
def test_parse_errors_name_the_bad_text(text, needle):
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert needle in str(err.value)
    assert isinstance(err.value, ValueError)
    assert ParseError is NotationError


def test_error_classes_are_distinct_value_errors():
    assert issubclass(IllegalAction, ValueError) and issubclass(NotationError, ValueError)
    assert not issubclass(IllegalAction, NotationError)
    assert not issubclass(NotationError, IllegalAction)


# -- construction and setup (RULES 2.1, 2.2, 3.1, 3.2) ---------------------------------

@pytest.mark.parametrize("edition,ok,bad", [("classic", (2, 8), (1, 9)), ("second", (3, 8), (2, 9))])
def test_player_count_per_edition(edition, ok, bad):
    stacks = START1 if edition == "classic" else START2
    for n in ok:
        assert Game(edition, n, stacks).players == n
    for n in bad:
        with pytest.raises(NotationError, match="players"):
            Game(edition, n, stacks)


@pytest.mark.parametrize("stacks,needle", [
    ({1: ["blue", "green"], 2: ["red"], 3: ["yellow"], 15: ["black"], 16: ["white"]}, "purple is missing"),
    ({1: ["blue", "blue"], 2: ["red", "green"], 3: ["yellow", "purple"], 15: ["black"], 16: ["white"]}, "twice"),
    ({1: ["blue", "green", "orange"], 2: ["red"], 3: ["yellow", "purple"], 15: ["black"], 16: ["white"]}, "'orange'"),
])
def test_bad_stacks_are_named(stacks, needle):
    with pytest.raises(NotationError, match=needle):
        Game("second", 3, stacks)


def test_inconsistent_positions_are_refused():
    with pytest.raises(NotationError, match="tiles on neighbouring spaces"):
        second(tiles={6: (0, "+"), 7: (1, "-")})
    with pytest.raises(NotationError, match="space 1"):
        second(tiles={1: (0, "+")})
    with pytest.raises(NotationError, match="holds camels"):
        second(tiles={2: (0, "+")})
    with pytest.raises(NotationError, match="two tiles"):
        second(tiles={6: (0, "+"), 9: (0, "-")})
    # RULES 1.6: tickets come off the top, so a held 3 needs the 5 taken too.
    with pytest.raises(NotationError, match="top 1"):
        second(held=[[("red", 3)], [], [], []])
    # RULES 3.4: five dice out means the leg has already been scored.
    with pytest.raises(NotationError, match="already be scored"):
        second(out=["blue", "green", "yellow", "red", "grey"], pyramid=[2, 1, 1, 1])
    with pytest.raises(NotationError, match="must equal dice out"):
        second(out=["blue"])
    with pytest.raises(NotationError, match="partnerships need"):
        second(partners=[1, 0, None, None])


def test_setup_stacks_places_later_camels_on_top():
    # S-01, E2-23: RULES 2.2, 3.2
    stacks = setup_stacks("second", [("green", 1), ("yellow", 1), ("red", 3), ("blue", 2),
                                     ("purple", 3)], [("black", 3), ("white", 3)])
    assert stacks == {1: ["green", "yellow"], 2: ["blue"], 3: ["red", "purple"],
                      14: ["black", "white"]}
    with pytest.raises(NotationError, match="missing camel 'white'"):
        setup_stacks("second", [("green", 1), ("yellow", 1), ("red", 3), ("blue", 2),
                                ("purple", 3)], [("black", 3)])


def test_random_setup_is_seeded_and_legal():
    seen = set()
    for seed in range(200):
        g = Game.random("second", 5, seed)
        assert g == Game.random("second", 5, seed)
        for space, stack in g.stacks.items():
            for camel in stack:
                assert space in ((1, 2, 3) if camel in SECOND.racing else (14, 15, 16))
        seen.add(g.position())
    assert len(seen) > 150  # setups really vary with the seed
    g = Game.random("classic", 2, 9)
    assert sorted(c for s in g.stacks.values() for c in s) == sorted(CLASSIC.racing)


def test_xorshift_is_uniform_enough_and_rejects_bad_bounds():
    rng = XorShift32(5)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert min(counts) > 850 and max(counts) < 1150
    with pytest.raises(ValueError):
        rng.below(0)


# -- legality and the unchanged-on-error guarantee -------------------------------------

@pytest.mark.parametrize("action,needle", [
    ("leg black", "not a racing camel"), ("leg orange", "not a racing camel"),
    ("finish winner white", "only racing camels have finish cards"),
    ("pyramid black 2", "crazy camel"), ("pyramid orange 2", "no orange die"),
    ("tile 1 +", "never go on space 1"), ("tile 3 -", "holds camels"),
    ("tile 17 +", "not on the track"), ("partner 1", "6..8 players"),
])
def test_illegal_actions_say_why_and_change_nothing(action, needle):
    g = second()
    before = g.position()
    with pytest.raises(IllegalAction) as err:
        g.push(action)
    assert needle in str(err.value)
    assert str(parse_action(action)) in str(err.value)
    assert "RULES" in str(err.value)
    assert g.position() == before and g.history == []


def test_classic_has_no_grey_die():
    g = Game("classic", 3, START1)
    with pytest.raises(IllegalAction, match="no grey die"):
        g.push("pyramid grey black 1")


def test_legal_actions_are_exactly_the_pushable_ones():
    g = Game("second", 6, START2, tiles={8: (2, "+")}, out=["red", "grey"], pyramid=[1, 1, 0, 0, 0, 0])
    legal = g.legal_actions()
    assert len(set(legal)) == len(legal)
    for a in legal:
        h = g.copy()
        h.push(a)
    candidates = [Action.leg(c) for c in SECOND.camels] + [
        Action.tile(s, side) for s in range(0, 18) for side in "+-"] + [
        Action.finish(p, c) for p in ("winner", "loser") for c in SECOND.camels] + [
        Action.partner(q) for q in range(7)] + [
        Action.pyramid(d, v) for d in SECOND.camels for v in (1, 2, 3)] + [
        Action.pyramid("grey", v, ink) for v in (1, 2, 3) for ink in ("black", "white")]
    for a in candidates:
        assert g.is_legal(a) == (a in legal), str(a)
    # pyramid: every die inside with every face; red and grey are out
    assert Action.pyramid("red", 1) not in legal
    assert Action.pyramid("blue", 3) in legal
    assert not [a for a in legal if a.kind == "pyramid" and a.colour == "grey"]
    assert Action.partner(0) not in legal and Action.partner(5) in legal
    # RULES 1.5: next to p2's tile on 8 is blocked, and 8 itself
    for s in (7, 8, 9):
        assert Action.tile(s, "+") not in legal


# -- reports, scoring breakdown, undo --------------------------------------------------

def test_pyramid_report_describes_the_move_and_payout():
    g = Game("second", 3, {2: ["yellow", "green"], 4: ["red", "blue"], 9: ["purple"],
                           15: ["white", "black"]}, tiles={3: (1, "+")})
    r = g.push("pyramid green 1")  # M3
    m = r["move"]
    assert (m["die"], m["value"], m["camel"], m["direction"]) == ("green", 1, "green", 1)
    assert (m["from"], m["landed"], m["to"], m["unit"]) == (2, 3, 4, ["green"])
    assert m["tile"] == {"space": 3, "owner": 1, "side": "+"} and not m["under"]
    assert r["coins"] == [3, 4, 3] and r["next_player"] == 1 and r["player"] == 0
    assert r["ranking"][:2] == ["purple", "green"] and not r["leg_ended"]
    r = g.push("pyramid grey black 2")  # black sits directly on white: rule b (RULES 3.5)
    assert (r["move"]["camel"], r["move"]["rule"], r["move"]["direction"]) == ("black", "b", -1)


def test_leg_report_lists_what_each_ticket_paid():
    g = Game("second", 3, {10: ["red"], 9: ["yellow"], 8: ["blue"], 7: ["green"], 2: ["purple"],
                           14: ["black"], 15: ["white"]},
             held=[[("red", 5), ("blue", 5)], [("yellow", 5)], []],
             out=["blue", "green", "yellow", "red"], pyramid=[1, 1, 2])
    r = g.push("pyramid purple 1")
    assert r["leg_ended"] and r["leg_ranking"] == ["red", "yellow", "blue", "green", "purple"]
    p0 = r["leg_scores"][0]
    assert p0["items"] == [
        {"kind": "leg", "colour": "red", "value": 5, "reward": 5},
        {"kind": "leg", "colour": "blue", "value": 5, "reward": -1},
        {"kind": "pyramid", "reward": 1},
        {"kind": "pyramid", "reward": 1},
    ]
    assert (p0["net"], p0["before"], p0["after"]) == (6, 3, 9)
    assert r["leg_scores"][1]["net"] == 2 and r["leg_scores"][2]["net"] == 2
    assert g.coins == [9, 5, 5] and g.leg == 2 and g.start_player == 1 and g.turn == 1


def test_race_end_report_has_final_breakdown():
    g = Game("second", 3, {15: ["red"], 2: ["blue"], 3: ["green"], 4: ["yellow"],
                           5: ["purple"], 13: ["black"], 14: ["white"]},
             winner_pile=[(1, "red"), (2, "blue")], loser_pile=[(0, "blue")])
    r = g.push("pyramid red 2")
    f = r["final"]
    assert r["race_over"] and g.is_over and (f["winner"], f["loser"]) == ("red", "blue")
    assert [(c["pile"], c["player"], c["correct"], c["place"], c["reward"]) for c in f["cards"]] == [
        ("winner", 1, True, 1, 8), ("winner", 2, False, None, -1), ("loser", 0, True, 1, 8)]
    assert g.coins == [12, 11, 2] and g.winners() == [0] and g.result is f
    assert g.legal_actions() == []
    with pytest.raises(IllegalAction, match="race is over"):
        g.push("leg red")
    g.pop()
    assert not g.is_over and g.result is None
    with pytest.raises(IllegalAction, match="not over"):
        g.winners()


def test_pop_restores_the_identical_position_through_a_leg_end():
    g = Game.random("second", 6, 4)
    positions = [g.position()]
    for text in ["partner 3", "leg red", "tile 9 -", "finish winner blue", "pyramid red 1",
                 "pyramid blue 2", "pyramid grey white 3", "pyramid green 3", "pyramid yellow 1"]:
        g.push(text)
        positions.append(g.position())
    assert g.leg == 2  # the fifth die ended leg 1
    while g.history:
        positions.pop()
        g.pop()
        assert g.position() == positions[-1]
    with pytest.raises(IndexError):
        g.pop()


def test_copy_is_independent():
    g = second()
    h = g.copy()
    h.push("leg red")
    assert g.leg_tickets_left("red") == [5, 3, 2, 2] and h.leg_tickets_left("red") == [3, 2, 2]
    assert h.history == [parse_action("leg red")] and g.history == []


def test_moving_own_tile_lifts_it_and_reports_where_from():
    g = second(tiles={8: (0, "+")})
    r = g.push("tile 9 -")  # RULES 1.5: own tile is lifted first, so 9 next to 8 is fine
    assert r["tile"] == {"space": 9, "side": "-", "from": 8}
    assert g.tiles == {9: (0, "-")} and g.tile_of(0) == (9, "-")


def test_new_race_same_seats_resets_coins_and_piles():
    g = Game.random("second", 4, 11)
    while not g.is_over:
        for a in g.legal_actions():
            if a.kind == "pyramid" and a.value == 3:
                g.push(a)
                break
    nxt = g.new_race(seed=12)
    assert nxt.players == 4 and nxt.edition is SECOND and not nxt.is_over
    assert nxt.coins == [3, 3, 3, 3] and nxt.pile("winner") == [] and nxt.leg == 1
    ended_by = g.last_report()["player"]
    assert g.turn == ended_by and nxt.turn == (ended_by + 1) % 4 and nxt.stacks == Game.random("second", 4, 12).stacks
    table = nxt.new_race(stacks=START2, start=2)
    assert table.stacks == START2 and table.turn == 2 and table.start_player == 2
    with pytest.raises(ValueError):
        g.new_race()


def test_views_of_tickets_dice_and_cards():
    g = second()
    assert g.dice_in_pyramid() == ["blue", "green", "yellow", "red", "purple", "grey"]
    assert g.pyramid_tickets_left == 5
    g.push("pyramid grey white 1")
    g.push("finish loser green")
    assert g.dice_out == ["grey"] and g.pyramid_tickets_left == 4 and g.pyramid_tickets(0) == 1
    assert g.finish_cards_in_hand(1) == ["blue", "yellow", "red", "purple"]
    assert g.pile("loser") == [(1, "green")]
    with pytest.raises(IllegalAction):
        g.leg_tickets_left("white")


@pytest.mark.parametrize("action,needle", [
    (Action.tile(5, "x"), r"side \+ or -"), (Action("jump"), "unknown action kind"),
    (Action(("pyramid"), colour="red", value=4), "1, 2 or 3"),
    (Action.pyramid("grey", 2), "numeral ink"), (Action.finish("middle", "red"), "winner or loser"),
    (Action.leg("pink"), "unknown colour"),
])
def test_hand_built_malformed_actions_are_refused(action, needle):
    g = second()
    before = g.position()
    with pytest.raises(NotationError, match=needle):
        g.push(action)
    assert g.position() == before


@pytest.mark.parametrize("edition,players,stacks,extra,count", [
    # second, 3 seats: 5 leg + 11 tile spaces x 2 sides + 5 colours x 2 piles + 5 dice x 3
    # faces + grey 3 faces x 2 inks = 5 + 22 + 10 + 15 + 6
    ("second", 3, START2, {}, 58),
    # 6 seats adds 5 possible partners (RULES 3.8)
    ("second", 6, START2, {}, 63),
    # classic, 2 seats: 5 leg + 13 spaces x 2 + 10 finish + 5 dice x 3 (RULES 2)
    ("classic", 2, START1, {}, 56),
    # a tile of p1 on 9 blocks 8, 9, 10 for p0; red and grey out; two red tickets taken
    ("second", 3, START2, {"tiles": {9: (1, "+")}, "out": ["red", "grey"], "pyramid": [1, 1, 0],
                           "held": [[("red", 5)], [("red", 3)], []]}, 5 + 16 + 10 + 12),
])
def test_legal_action_counts(edition, players, stacks, extra, count):
    assert len(Game(edition, players, stacks, **extra).legal_actions()) == count


def test_leg_scores_now_previews_the_leg_end():
    # E2-22 position: the last die does not change the ranking, so the preview is exact
    g = Game("second", 6, {6: ["purple"], 7: ["yellow"], 8: ["blue"], 9: ["green"], 10: ["red"],
                           14: ["black"], 15: ["white"]},
             held=[[("red", 5)], [], [], [("blue", 3)], [("blue", 5)], []],
             out=["green", "yellow", "grey", "purple"], pyramid=[1, 1, 0, 2, 0, 0],
             partners=[3, None, None, 0, None, None], turn=1)
    before = g.position()
    preview = g.leg_scores_now()
    assert g.position() == before
    assert [p["net"] for p in preview] == [7, 1, 0, 6, -1, 0]
    report = g.push("pyramid red 1")
    assert [p["net"] for p in report["leg_scores"]] == [7, 2, 0, 6, -1, 0]
