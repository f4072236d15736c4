"""Action values, race odds, the game adapter and ``pyramid odds``."""

from fractions import Fraction

import pytest
from camelhost.cli import main
from camelhost.table.view import action_text
from camelup.game import Game
from camelup.odds import Position, best_tile, leg_odds, tile_landings, tile_values
from camelup.odds.actions import (
    action_values,
    finish_card_ev,
    finish_values,
    ladder,
    leg_ticket_ev,
    partnership_ev,
)
from camelup.odds.game import position_from_game, position_from_text
from camelup.odds.race import race_odds, simulate

P2A = {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"], 15: ["black"], 16: ["white"]}


def test_finish_card_values_kept_are_the_values_worked_out():
    # the ladder's expectation is kept by its arguments (_LADDERS): asked again, in any
    # order, a card on any pile gets the value the formula gives (RULES 1.13), exactly
    from math import comb

    from camelup.odds import actions

    def plain(p, own, others):  # P(c) * E[ladder(1 + own + X)] - (1 - P(c)), X ~ B(others, p)
        return p * sum(comb(others, x) * p ** x * (1 - p) ** (others - x)
                       * ladder(1 + own + x) for x in range(others + 1)) - (1 - p)

    actions._LADDERS.clear()
    chances = (0.0, 0.13, 0.5, 0.87, 1.0)
    for _round in range(2):
        for p in chances:
            for own in range(3):
                for others in range(8):
                    pile = [(0, "red")] * own + [(1 + k, None) for k in range(others)]
                    got = finish_card_ev(p, pile, 0, "red")
                    assert abs(got - plain(p, own, others)) < 1e-12, (p, own, others)
        chances = chances[::-1]
    assert len(actions._LADDERS) == 5 * 3 * 8


def test_leg_ticket_ev_formula_P2a():
    # odds-cases.md "Expected value of a leg ticket"; RULES 1.10
    leg = leg_odds(Position("second", P2A))
    p1 = Fraction(leg.first["purple"], leg.total)
    p2 = Fraction(leg.second["purple"], leg.total)
    exact = 5 * p1 + p2 - (1 - p1 - p2)
    assert abs(leg_ticket_ev(5, float(p1), float(p2)) - float(exact)) < 1e-12
    assert leg_ticket_ev(5, 1, 0) == 5 and leg_ticket_ev(2, 0, 1) == 1
    assert leg_ticket_ev(3, 0, 0) == -1


def test_finish_card_ev_ladder_and_pile():
    # RULES 1.13: 8, 5, 3, 2, then 1; a wrong card costs 1
    assert [ladder(i) for i in range(1, 8)] == [8, 5, 3, 2, 1, 1, 1]
    assert finish_card_ev(1.0, [], 0, "red") == 8
    assert finish_card_ev(0.0, [], 0, "red") == -1
    # own earlier red card takes place 1 for sure; own blue card takes no place
    assert finish_card_ev(1.0, [(0, "red"), (0, "blue")], 0, "red") == 5
    # one hidden card of another seat names red with probability p (= 0.5 here)
    assert finish_card_ev(0.5, [(3, "green")], 0, "red") == 0.5 * (0.5 * 8 + 0.5 * 5) - 0.5


def test_finish_values_for_the_shared_screen_never_read_a_hidden_colour():
    # RULES 1.8: the hand is private; advice for every colour as if still held, the
    # piles counted by owner only
    g = Game("classic", 4, {1: ["blue", "green", "orange"], 2: ["yellow"],
                                    9: ["white"]})
    g.push("finish winner white")   # Ann
    g.push("finish winner orange")  # Ben
    g.push("leg white")
    g.push("leg white")             # Ann again: white played, four left
    race = race_odds(g, seed=2, samples=400)
    own = finish_values(g, race)
    assert sorted(v.action for v in own) == sorted(
        "finish %s %s" % (pile, c) for c in ("blue", "green", "orange", "yellow")
        for pile in ("winner", "loser"))
    # the same values as the legal actions' (a player's own cards are never the colour
    # played: one card a colour)
    assert [(v.action, v.ev) for v in own] == [
        (v.action, v.ev) for v in action_values(g, race=race) if v.kind == "finish"]
    public = finish_values(g, race, g.edition.racing)
    assert len(public) == 10 and public == sorted(public, key=lambda v: (-v.ev, v.action))
    white = [v for v in public if v.action == "finish winner white"][0]
    # two cards ahead on the winner pile, Ben's counted by number, Ann's not at all
    assert white.ev == finish_card_ev(race.winner["white"], [(1, None)], 0, "white")
    other = Game("classic", 4, {1: ["blue", "green", "orange"], 2: ["yellow"],
                                        9: ["white"]})
    for text in ("finish winner green", "finish winner yellow", "leg white", "leg white"):
        other.push(text)  # other colours, the same owners
    assert [(v.action, v.ev) for v in finish_values(other, race, other.edition.racing)] == [
        (v.action, v.ev) for v in public]
    spent = Game("classic", 4, {1: ["blue", "green", "orange"], 2: ["yellow"],
                                        9: ["white"]},
                         loser_pile=[(0, c) for c in g.edition.racing])
    assert finish_values(spent, race, g.edition.racing) == []  # Ann has no card left


def test_partnership_ev_exact_on_D3():
    # D3: G and B each 1st 6/12 and 2nd 6/12; RULES 3.8: best non-negative copy
    leg = leg_odds(Position("second", {2: ["red", "yellow", "purple"], 9: ["green"],
                                       10: ["blue"], 14: ["black", "white"]},
                            dice=["green", "blue"]))
    assert partnership_ev(leg, [("green", 5)], 0) == 0.5 * 5 + 0.5 * 1
    assert partnership_ev(leg, [("red", 5)], 0) == 0  # always -1: declined
    assert partnership_ev(leg, [("red", 5)], 1) == 1  # a pyramid ticket is copied
    assert partnership_ev(leg, [], 0) == 0


def test_action_values_cover_every_kind_sorted():
    g = Game("second", 6, dict(P2A))
    values = action_values(g, samples=300)
    kinds = {v.kind for v in values}
    assert kinds == {"leg", "pyramid", "tile", "finish", "partner"}
    assert values == sorted(values, key=lambda v: (-v.ev, v.action))
    assert [v.action for v in values].count("pyramid") == 1
    pyramid = [v for v in values if v.kind == "pyramid"][0]
    assert pyramid.ev == 1.0
    leg = leg_odds(g)
    purple = [v for v in values if v.action == "leg purple"][0]
    assert purple.ev == leg_ticket_ev(5, leg.p_first("purple"), leg.p_second("purple"))
    assert purple.facts == {"colour": "purple", "value": 5}
    assert action_text(purple, g.edition, str) == "purple leg ticket 5: %+.2f" % purple.ev
    # tiles: exact expected landings of the tile placed there
    tiles = {(s, "+" if side > 0 else "-"): e for e, s, side in tile_values(g, 0)}
    for v in values:
        if v.kind == "tile":
            space, side = v.action.split()[1:]
            assert v.ev == tiles[(int(space), side)]
    legal_tiles = [a for a in g.legal_actions() if a.kind == "tile"]
    assert len([v for v in values if v.kind == "tile"]) == len(legal_tiles)


def test_action_values_after_tickets_use_the_top_ticket():
    g = Game("second", 4, dict(P2A))
    g.push("leg purple")  # p0 takes the 5; p1 sees the 3 (RULES 3.3)
    values = {v.action: v for v in action_values(g, samples=200)}
    assert action_text(values["leg purple"], g.edition, str).startswith("purple leg ticket 3: ")
    assert "partner 0" not in values  # 3..5 players: no partnership (RULES 3.8)


def test_best_tile_and_tile_landings():
    # P1t: the mirage on 4 earns 44012/29160 expected landings
    pos = Position("classic", {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]},
                   tiles={4: (-1, 0), 6: (1, 1)})
    got = tile_landings(pos)
    assert got == {4: 44012 / 29160, 6: 20911 / 29160}
    # RULES 1.5: player 0 lifts their own mirage first; it must go to another space,
    # and player 1's oasis on 6 blocks 5..7 (3 holds camels)
    space, side, expected = best_tile(pos, 0)
    assert space >= 8
    moved = Position("classic", pos.stacks, tiles={6: 1, space: side})
    assert expected == leg_odds(moved).landings.get(space, 0) / 29160
    # without the oasis, 4 (mirage) is the best place for a new tile: 44012 / 29160
    alone = Position("classic", pos.stacks)
    assert best_tile(alone) == (4, -1, 44012 / 29160)


def test_game_adapter_dice_and_reveals():
    g = Game("second", 4, dict(P2A))
    g.push("pyramid red 2")
    g.push("tile 7 -")
    pos = position_from_game(g)
    assert sorted(pos.dice) == ["blue", "green", "grey", "purple", "yellow"]
    assert pos.reveals == 4  # RULES 3.4: 5 inside, 4 to come out
    assert pos.tiles == {7: -1} and pos.tile_owners == {7: 1}
    assert leg_odds(g).first == leg_odds(pos).first
    same = position_from_text(g.position())
    assert same.stacks == pos.stacks and sorted(same.dice) == sorted(pos.dice)
    c = Game("classic", 3, {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]})
    c.push("pyramid blue 1")
    assert position_from_game(c).reveals == 4  # RULES 2.4: every die inside is rolled


def test_race_odds_exact_when_the_leg_surely_ends_the_race():
    # yellow on 16 will move (classic: every die inside is rolled): the race ends
    pos = Position("classic", {12: ["blue"], 13: ["green", "orange"], 14: ["white"],
                               16: ["yellow"]})
    race = race_odds(pos)
    leg = leg_odds(pos)
    assert race.exact and leg.finished == leg.total
    assert race.winner["yellow"] == leg.first["yellow"] / leg.total
    # the simulation agrees with the exact figures within 4 standard errors
    n = 3000
    wins, losses = simulate(pos, seed=11, samples=n)
    for c in leg.first:
        p = leg.first[c] / leg.total
        assert abs(wins.get(c, 0) / n - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1e-9, c
        q = leg.last[c] / leg.total
        assert abs(losses.get(c, 0) / n - q) <= 4 * (q * (1 - q) / n) ** 0.5 + 1e-9, c


def test_race_odds_seeded_and_confidence():
    pos = Position("second", P2A)
    a = race_odds(pos, seed=3, samples=1500)
    b = race_odds(pos, seed=3, samples=1500)
    c = race_odds(pos, seed=4, samples=1500)
    assert a.winner == b.winner and a.loser == b.loser
    assert a.winner != c.winner
    assert abs(sum(a.winner.values()) - 1) < 1e-9 and abs(sum(a.loser.values()) - 1) < 1e-9
    p = a.winner["purple"]
    # the half-width is the stratified sampling's own (pairs of races per slice), next
    # to the plain binomial p (1 - p): the same up to what the exact first leg explains
    var = a.winner_var["purple"]
    assert a.winner_hw["purple"] == 1.96 * (var / 1500) ** 0.5
    assert 0.75 * p * (1 - p) <= var <= 1.1 * p * (1 - p)
    for c in a.loser:
        q = a.loser[c]
        assert a.loser_hw[c] == 1.96 * (a.loser_var[c] / 1500) ** 0.5
        assert 0.75 * q * (1 - q) <= a.loser_var[c] <= 1.1 * q * (1 - q), c
    assert not a.exact and a.samples == 1500
    # 10,000 races (``simulate``'s default) keep every half-width under one point
    big = race_odds(pos, seed=3, samples=10000)
    assert big.samples == 10000
    assert max(list(big.winner_hw.values()) + list(big.loser_hw.values())) < 0.01


def test_cli_odds_prints_everything(capsys):
    g = Game("second", 6, dict(P2A))
    g.push("tile 5 -")
    rc = main(["odds", g.position(), "--samples", "500", "--top", "5"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Leg odds (exact, 5,598,720 outcomes)" in out  # grouped (tester 3, finding 7)
    assert "booing    on  5 (Ann):" in out  # seats unnamed: the demo's names, never p0
    assert "Best tile for Ben:" in out
    assert " 1. " in out and " 5. " in out and " 6. " not in out
    assert "race odds: 500 simulated races, seed 1" in out


def test_cli_odds_writes_big_counts_and_the_interval_as_german_writes_them(capsys):
    """Tester 3, finding 7: ``5598720 Ausgänge``, ``27891 simulierte Rennen`` and an
    ASCII ``+/-``; German groups thousands with a dot, and the screen writes ``±``."""
    g = Game("second", 6, dict(P2A))
    g.push("tile 5 -")
    assert main(["odds", g.position(), "--samples", "1500", "--top", "1", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "5.598.720" in out and "5598720" not in out
    line = [x for x in out.splitlines() if "1.500" in x][0]
    assert "+/-" not in line and "\u00b1" in line, line
    assert main(["odds", g.position(), "--samples", "1500", "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "5,598,720 outcomes" in out and "race odds: 1,500 simulated races" in out


def test_cli_odds_bad_position(capsys):
    assert main(["odds", "not a position"]) == 1
    assert capsys.readouterr().err.startswith("pyramid: ")


def test_finished_race_is_exact_and_has_no_actions(capsys):
    # RULES 1.13: the race stops at the crossing; odds are the final ranking
    g = Game("second", 4, {14: ["blue", "green"], 15: ["red"], 16: ["yellow", "purple"],
                                   10: ["black"], 12: ["white"]})
    g.push("pyramid yellow 2")
    assert g.is_over
    leg = leg_odds(g)
    assert leg.total == 1 and leg.first["purple"] == 1 and leg.last["blue"] == 1
    race = race_odds(g)
    assert race.exact and race.winner["purple"] == 1.0 and race.loser["blue"] == 1.0
    assert action_values(g) == []
    assert main(["odds", g.position()]) == 0
    assert "No actions: the race is over." in capsys.readouterr().out


def test_moving_own_tile_counts_what_it_gives_up():
    # RULES 1.5: the tile action moves the player's own tile; its old income is lost
    g = Game("second", 4, dict(P2A))
    g.push("tile 5 -")  # p0's booing tile on 5
    for _ in range(3):
        g.push("leg blue" if g.turn != 0 else "leg green")
    assert g.turn == 0
    leg = leg_odds(g)
    old = leg.landings[5] / leg.total
    values = {v.action: v for v in action_values(g, samples=200)}
    fresh = {(s, "+" if side > 0 else "-"): e for e, s, side in tile_values(g, 0)}
    for text, v in values.items():
        if v.kind == "tile":
            space, side = text.split()[1:]
            assert v.ev == fresh[(int(space), side)] - old
            assert "lost on 5" in action_text(v, g.edition, str)
    assert "tile 5 -" not in values and "tile 5 +" not in values  # must move elsewhere


def test_tile_spaces_E2_16():
    # E2-16 (RULES 1.5): 4:[R] 9:[W], P2's tile on 6, P1's on 12; P1 may not use 1, 4,
    # 9 (camels, crazy included), 5, 6, 7 (on or next to a tile), nor 12 again; 13 is fine
    from camelup.odds import tile_spaces
    pos = Position("second", {4: ["red"], 9: ["white"], 1: ["blue", "green", "yellow", "purple"],
                              15: ["black"]}, tiles={6: (1, 2), 12: (-1, 1)}, dice=[])
    spaces = tile_spaces(pos, 1)
    for banned in (1, 4, 5, 6, 7, 9, 12, 15):
        assert banned not in spaces
    assert 13 in spaces and 11 in spaces and 2 in spaces
    # a player without a tile is blocked by both tiles
    assert 11 not in tile_spaces(pos, 3) and 13 not in tile_spaces(pos, 3)


def test_tile_spaces_match_the_engine_legal_actions():
    # the odds' own placement rule agrees with the rules engine's legal tile actions
    import random
    rnd = random.Random(5)
    for edition, seats in (("second", 4), ("classic", 3)):
        for seed in range(12):
            g = Game.random(edition, seats, seed=seed)
            for _ in range(rnd.randint(0, 10)):
                if g.is_over:
                    break
                g.push(rnd.choice(g.legal_actions()))
            if g.is_over:
                continue
            legal = sorted({a.space for a in g.legal_actions() if a.kind == "tile"})
            from camelup.odds import tile_spaces
            assert tile_spaces(position_from_game(g), g.turn) == legal, g.position()


def test_position_accepts_engine_tiles():
    # the rules engine writes tiles as {space: (owner, "+"/"-")}
    a = Position("classic", {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]},
                 tiles={4: (2, "-"), 6: ("+", 1)})
    assert a.tiles == {4: -1, 6: 1} and a.tile_owners == {4: 2, 6: 1}
    assert leg_odds(a).landings == {4: 44012, 6: 20911}  # P1t


def test_race_odds_after_the_exact_leg_agree_with_the_plain_simulation():
    # RULES 1.13: the current leg exact, later legs simulated: same odds as simulating
    # every leg, within 4 standard errors of both
    pos = Position("classic", {9: ["blue"], 11: ["green", "orange"], 12: ["white"],
                               14: ["yellow"]})
    leg = leg_odds(pos)
    assert 0 < leg.finished < leg.total  # the race may end this leg, or go on
    race = race_odds(pos, seed=2, samples=6000, cache=False)
    n = 6000
    wins, losses = simulate(pos, seed=3, samples=n)
    assert abs(sum(race.winner.values()) - 1) < 1e-9
    for c in leg.first:
        p = wins.get(c, 0) / n
        se = (p * (1 - p) / n) ** 0.5 + race.winner_hw[c] / 1.96
        assert abs(race.winner[c] - p) <= 4 * se + 1e-9, c
    assert race.samples == 6000 and not race.exact


def test_race_odds_default_reaches_half_a_point():
    # the default takes as many races as a 95 % half-width of 0.5 points needs
    g = Game("second", 4, {9: ["blue", "green"], 10: ["red"], 12: ["yellow", "purple"],
                                   15: ["black"], 13: ["white"]})
    g.push("pyramid red 2")
    race = race_odds(g, cache=False)
    assert race.half_width <= 0.005 and 4000 <= race.samples <= 40000
    assert max(race.winner_hw.values()) <= race.half_width


def test_cli_odds_stops_at_half_a_point_by_default(capsys):
    # without --samples the race odds go on until every 95 % interval is +/-0.5 points
    g = Game("second", 4, {9: ["blue", "green"], 10: ["red"], 12: ["yellow", "purple"],
                                   15: ["black"], 13: ["white"]})
    g.push("pyramid red 2")
    assert main(["odds", g.position(), "--top", "3"]) == 0
    out = capsys.readouterr().out
    line = [x for x in out.splitlines() if "simulated races" in x][0]
    assert line.endswith("points (stopped at the interval)")
    races = int(line.split("race odds:")[1].split()[0].replace(",", ""))
    width = float(line.split("CI \u00b1")[1].split()[0])
    assert width <= 0.50 and races == race_odds(g, seed=1).samples
    assert main(["odds", g.position(), "--samples", "0"]) == 2


def test_cli_odds_later_tiles_on_request(capsys):
    # --later-tiles races the later legs with the measured tiles: the figures are those
    # of race_odds(later_tiles=True), and the line says so; without it, the default model
    g = Game("second", 4, {9: ["blue", "green"], 10: ["red"], 12: ["yellow", "purple"],
                                   15: ["black"], 13: ["white"]})
    g.push("pyramid red 2")
    assert main(["odds", g.position(), "--samples", "3000", "--top", "1", "--later-tiles"]) == 0
    out = capsys.readouterr().out
    line = [x for x in out.splitlines() if "simulated races" in x][0]
    assert line.endswith("; later legs with tiles")
    tiled = race_odds(g, seed=1, samples=3000, later_tiles=True)
    plain = race_odds(g, seed=1, samples=3000)
    assert tiled.winner != plain.winner
    best = max(tiled.winner, key=lambda c: (tiled.winner[c], c))
    row = [x for x in out.splitlines() if x.strip().startswith(best + " ")][0]
    assert row.split()[4] == "%.1f%%" % (100 * tiled.winner[best])
    assert main(["odds", g.position(), "--samples", "3000", "--top", "1"]) == 0
    assert "with tiles" not in capsys.readouterr().out


def test_cli_odds_names_the_players(capsys):
    # the notation has seats p0, p1, ...; --players puts the players' names on every line
    g = Game("second", 6, dict(P2A))
    g.push("tile 5 -")  # Ann's tile
    g.push("leg purple")  # Bob holds a ticket: Cid may partner him (RULES 3.8)
    names = "Ann,Bob,Cid,Dee,Eve,Fay"
    assert main(["odds", g.position(), "--samples", "200", "--top", "0", "--players", names]) == 0
    out = capsys.readouterr().out
    assert "leg 1, Cid to act;" in out
    assert "booing    on  5 (Ann):" in out
    assert "Best tile for Cid:" in out and "Actions for Cid, best first" in out
    partner = [x for x in out.splitlines() if ". partner Bob " in x]
    assert len(partner) == 1 and "(best of their tickets to copy)" in partner[0]
    # each action said once: the reason does not repeat it
    assert not [x for x in out.splitlines() if x.count("finish ") > 1 or x.count("partner") > 1]
    assert "p0" not in out and "p1" not in out and "partner 1" not in out
    # a wrong count or a bad list: a one-line error, status 2
    assert main(["odds", g.position(), "--players", "Ann,Bob"]) == 2
    err = capsys.readouterr().err
    assert "--players: 2 names for 6 seats" in err and err.count("\n") == 1
    for bad in ("Ann,,Bob", "Ann,Ann,Bob,Cid,Dee,Eve"):
        with pytest.raises(SystemExit):
            main(["odds", g.position(), "--players", bad])
        assert "argument --players:" in capsys.readouterr().err


def test_cli_odds_says_the_others_finish_cards_are_hidden(capsys):
    # RULES 1.8: the seat to act sees only how many cards lie on a pile, so the report
    # values its finish cards that way even when the position text names the colours
    g = Game("classic", 4, {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]})
    assert main(["odds", g.position(), "--samples", "300", "--top", "0"]) == 0
    assert "count by number only" not in capsys.readouterr().out
    g.push("finish winner white")
    assert main(["odds", g.position(), "--samples", "300", "--top", "0"]) == 0
    out = capsys.readouterr().out
    assert "(the others' finish cards count by number only: hidden, RULES 1.8)" in out
    # the card as the table takes it (tester 3, finding 12), then what it is and its
    # chance in words
    row = [x for x in out.splitlines() if ". win white " in x]
    assert len(row) == 1 and "1 card on the pile" in row[0]
    assert "white finish card on the winner pile: " in row[0]
    assert "(white wins the race: " in row[0] and "(P " not in row[0]
    assert any(". lose " in x and "finish card on the loser pile: " in x
               and "ends the race last: " in x for x in out.splitlines())
    assert ". finish " not in out
