"""The view model every display reads (camelhost.table.view): public facts only, by name."""

import json

from camelhost.table import bots
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelup.rng import XorShift32

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _play_to_end(s, seed=3, finish_cards=("win red", "lose blue")):
    """Play a whole race: bots choose, dice from a seeded generator; the first player
    plays ``finish_cards`` on their first turns. Returns every view seen."""
    rng = XorShift32(seed)
    views = []
    pending = list(finish_cards)
    for _ in range(400):
        if s.phase == "over":
            break
        if s.phase == "turn" and s.current == 0 and pending:
            s.command(pending.pop(0))
        elif s.phase == "turn":
            text, _ = bots.choose(s.game, s.names, quick=True)
            s.command(text)
            if text == "pyramid":
                continue
        elif s.phase == "die":
            inside = s.game.dice_in_pyramid()
            die = inside[rng.below(len(inside))]
            value = 1 + rng.below(3)
            s.command("grey %s %d" % (("black", "white")[rng.below(2)], value)
                      if die == "grey" else "%s %d" % (die, value))
        views.append(table_view(s, odds=False))
    return views


def test_view_is_json_and_names_players_never_seats():
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"], seed=2)
    s.command(SETUP)
    s.command("partner Eve")
    s.command("tile 5 +")
    v = table_view(s)
    json.dumps(v)
    ann = v["players"][0]
    assert ann["partner"] == "Eve" and v["players"][4]["partner"] == "Ann"
    assert v["track"][4]["space"] == 5
    assert v["track"][4]["tile"] == {"side": "+", "name": "cheering", "owner": "Ben"}
    assert v["track"][0]["stack"] == [{"colour": "blue", "crazy": False},
                                      {"colour": "green", "crazy": False}]
    assert v["track"][15]["stack"] == [{"colour": "white", "crazy": True}]
    assert v["turn"] == "Cy" and v["phase"] == "turn"
    assert v["odds"]["actions"]["player"] == "Cy"
    texts = [a["text"] for a in v["odds"]["actions"]["values"]]
    # the hand is private: a finish card is advised as if held, by its pile only (the
    # colour chosen unseen), the best of each pile at most
    cards = [a for a in v["odds"]["actions"]["values"] if a["kind"] == "finish"]
    assert 1 <= len(cards) <= 2 and all("its colour chosen unseen" in a["text"] for a in cards)
    assert any(t.startswith("partner Dee: ") for t in texts), texts
    firsts = sum(row["first"] for row in v["odds"]["leg"])
    assert abs(firsts - 1.0) < 1e-9
    race = v["odds"]["race"]
    assert race["samples"] > 0 and all(0 <= r["hw"] < 0.05 for r in race["winner"])


def test_version_grows_with_every_event_and_undo():
    s = Session("classic", ["Ann", "Ben"], seed=2)
    seen = [table_view(s, odds=False)["version"]]
    for text in ("setup 1:blue,green 2:orange 3:yellow,white", "leg blue", "undo", "pyramid",
                 "blue 2"):
        s.command(text)
        seen.append(table_view(s, odds=False)["version"])
    assert seen == sorted(seen) and len(set(seen)) == len(seen)


def test_finish_card_colours_hidden_until_the_race_is_over():
    s = Session("second", ["Ann", "Ben", "Cy"], seed=5)
    s.command(SETUP)
    views = _play_to_end(s)
    assert s.phase == "over"
    during = [v for v in views if v["phase"] != "over"]
    played = [v for v in during if v["players"][0]["finish_cards_played"] == 2]
    assert played, "Ann's two finish cards were played"
    for v in played:
        text = json.dumps(v)
        assert v["final"] is None and v["piles"]["winner"] + v["piles"]["loser"] >= 2
        # no colour of a played card is tied to a pile anywhere
        assert '"pile"' not in text and "winner red" not in text and "loser blue" not in text
    end = table_view(s)
    json.dumps(end)
    assert end["odds"] is None
    f = end["final"]
    assert (f["piles"]["winner"][0]["name"], f["piles"]["winner"][0]["colour"]) == ("Ann", "red")
    assert ("Ann", "blue") in [(c["name"], c["colour"]) for c in f["piles"]["loser"]]
    coins = [row["coins"] for row in f["standings"]]
    assert coins == sorted(coins, reverse=True)
    assert set(f["winners"]) <= {"Ann", "Ben", "Cy"}
    assert end["leg_scored"]["players"][0]["name"] == "Ann"
    assert end["last_die"]["player"] in ("Ann", "Ben", "Cy")


def test_leg_scored_and_last_die_after_a_leg():
    s = Session("classic", ["Ann", "Ben"], seed=2)
    s.command("setup 1:blue,green 2:orange 3:yellow,white")
    s.command("leg white")
    for die in ("blue 1", "green 1", "orange 1", "yellow 1", "white 1"):
        s.command("pyramid")
        s.command(die)
        if s.game.leg == 2:
            break
    v = table_view(s, odds=False)
    assert v["leg"] == 2
    scored = v["leg_scored"]
    assert scored["leg"] == 1
    ann = scored["players"][0]
    assert ann["name"] == "Ann"
    assert {"kind": "leg", "colour": "white", "value": 5, "reward": ann["items"][0]["reward"]} \
        == ann["items"][0]
    last = v["last_die"]
    assert last["colour"] == last["camel"] and last["value"] == 1 and last["direction"] == 1
    assert v["dice_out"] == [] and len(v["dice_inside"]) == 5


def test_the_view_says_how_many_dice_stay_inside_at_the_end_of_a_leg():
    # what every display (plain, full screen, the web page) reads for "one stays inside"
    assert table_view(Session("second", ["Ann", "Ben", "Cy"]), odds=False)["dice_left_inside"] == 1
    assert table_view(Session("classic", ["Ann", "Ben"]), odds=False)["dice_left_inside"] == 0
