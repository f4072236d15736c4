"""The outside agents' adapter (tests/bench/outside_agents.py, issue 31) without any
outside code: a tiny bot written here in the Camel Up Cup 2K18's shape (a class whose
``move(player, g)`` reads the Cup's ``GameState`` fields and returns ``[code, ...]``)
checks the translation both ways on a known position and plays seeded games."""

import hashlib
import sys

import bench.outside_agents as oa
from camelup.game import Game


def check_bet(hashed_bet, user_bet):
    # the Cup's documented way for a bot to read its own hidden bets
    bet, salt = hashed_bet.split(":")
    return bet == hashlib.sha256(salt.encode() + user_bet.encode()).hexdigest()


def leader(track):
    for index in range(len(track) - 1, -1, -1):
        if track[index]:
            return track[index][-1]
    return None


class Tiny:
    """A Cup bot: a game winner bet on the leader unless it holds one (read back from
    its own hashed bets), else a round bet on the leader (a fourth one, which our rules
    refuse, when the leader's tickets are gone), a roll every third turn."""

    turns = 0

    def move(player, g):
        Tiny.turns += 1
        if Tiny.turns % 3 == 0:
            return [0]
        first = leader(g.camel_track)
        mine = [c for c in range(5) for b in g.player_game_bets[player] if check_bet(b, str(c))]
        if not mine:
            return [3, first]
        return [2, first]


def known_game():
    """Classic, 4 seats: green on 1, white on 2, yellow on 3, blue under orange on 4;
    p1's mirage on 8; leg tickets blue 5 (p0), green 5 (p2), blue 3 (p3); p2's green
    winner card and p0's white loser card; the blue die out (p1's pyramid ticket)."""
    g = Game.random("classic", 4, 5)
    for text in ("leg blue", "tile 8 -", "finish winner green", "leg blue",
                 "finish loser white", "pyramid blue 2", "leg green"):
        g.push(text)
    assert g.stacks == {1: ["green"], 2: ["white"], 3: ["yellow"], 4: ["blue", "orange"]}
    return g


def test_our_position_becomes_the_cups_state_as_one_seat_sees_it():
    g = known_game()
    s = oa.cup_state(g, 2)
    # classic racing order: blue 0, green 1, orange 2, yellow 3, white 4; space n is index n-1
    assert [(i, st) for i, st in enumerate(s.camel_track) if st] == [
        (0, [1]), (1, [4]), (2, [3]), (3, [0, 2])]
    assert len(s.camel_track) == len(s.trap_track) == 29
    assert [(i, t) for i, t in enumerate(s.trap_track) if t] == [(7, [-1, 1])]
    assert s.player_has_placed_trap == [False, True, False, False]
    assert s.camel_yet_to_move == [False, True, True, True, True]
    # each camel's tickets in the order taken (blue 5 by p0 before blue 3 by p3)
    assert s.round_bets == [[0, 0], [0, 3], [1, 2]]
    # the seat's own finish card is readable by the Cup's check_bet, nobody else's colour
    (own, owner), = s.game_winner_bets
    assert owner == 2 and check_bet(own, "1") and not check_bet(own, "0")
    assert s.game_loser_bets == [[None, 0]]
    assert s.player_game_bets == [[None], [], [own], []]
    # coins plus the pyramid ticket's certain coin, as the Cup pays a roll at once
    assert s.player_money_values == [3, 4, 3, 3]
    assert oa.cup_state(g, 0).game_loser_bets[0][0] is not None
    assert oa.cup_state(g, 0).game_winner_bets == [[None, 2]]


def test_their_answers_become_our_actions_and_refusals_fall_back_to_the_pyramid():
    g = known_game()  # p3 to act
    assert oa.our_action(g, [0]) == ("pyramid", None)
    assert oa.our_action(g, [1, 1, 9]) == ("tile 10 +", None)
    assert oa.our_action(g, [1, -1, 5]) == ("tile 6 -", None)
    assert oa.our_action(g, [2, 2]) == ("leg orange", None)
    assert oa.our_action(g, [3, 1]) == ("finish winner green", None)
    assert oa.our_action(g, [4, 4]) == ("finish loser white", None)
    for answer, why in (([1, 1, 0], "space 1"), ([1, 1, 16], "space 17"),
                        ([1, -1, 8], "next to"), ([1, 1, 3], "holds"),
                        ([2, 7], "no camel"), ([9], "unknown action"), ("x", "unknown action"),
                        ([1, 2, 9], "type 1 or -1"), ([], "not a Cup action")):
        text, reason = oa.our_action(g, answer)
        assert text == oa.FALLBACK and why in reason, (answer, reason)
    g.push("leg blue")  # blue's last ticket (2) goes to p3
    assert oa.our_action(g, [2, 0]) == (oa.FALLBACK, "leg blue: no blue leg tickets left this "
                                                     "leg (RULES 1.6)")
    for text in ("finish winner blue", "leg orange", "leg orange", "leg orange"):
        g.push(text)  # p0 plays its blue card; p0 to act again
    text, why = oa.our_action(g, [4, 0])
    assert text == oa.FALLBACK and "already played the blue finish card" in why
    assert oa.our_action(g, [2, 2])[0] == oa.FALLBACK  # orange's three tickets are gone


def test_a_cup_bot_plays_seeded_games_at_our_table_and_its_refusals_are_counted():
    agents = {"Tiny": (Tiny, oa)}
    bots = ["greedy", "cup:Tiny", "random", "cup:Tiny"]
    Tiny.turns = 0
    first = oa.play_game(bots, 3, 1, agents=agents)
    Tiny.turns = 0
    trace = []
    again = oa.play_game(bots, 3, 1, agents=agents, trace=trace)
    assert first == again
    assert len(trace) == first["actions"] and trace[-1][4] == first["coins"]
    assert [t[1] for t in trace[:4]] == first["seats"]  # seat 0 begins, in turn
    assert first["seats"] == ["cup:Tiny", "random", "cup:Tiny", "greedy"]  # rotated by 1
    outside = sorted(first["illegal"])
    assert outside == [0, 2]
    total = 0
    for seat in outside:
        moves, refused, reasons = first["illegal"][seat]
        kinds = first["kinds"][seat]
        assert moves == sum(kinds.values())
        # it lays one winner card, then round bets on the leader until they run out
        assert kinds["finish"] == 1 and kinds["leg"] >= 1
        assert refused == sum(reasons.values())
        assert all("leg tickets left" in why for why in reasons)
        total += refused
    assert total > 0
    lines = oa.summary([first, again], "greedy")
    assert any(line.startswith("cup:Tiny: ") and "refused by our rules" in line for line in lines)
    assert any(line.startswith("greedy coin margin") for line in lines)


def test_its_tables_are_tournament_games_for_our_own_policies():
    from camelhost import tournament

    ours = tournament.play_game(["greedy", "random", "greedy", "random"], "classic", 2, 5)
    here = oa.play_game(["greedy", "random", "greedy", "random"], 2, 5, agents={})
    for key in ("seats", "coins", "winners", "actions", "cards"):
        assert here[key] == ours[key]


def test_without_the_agents_it_only_says_where_to_put_them(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv(oa.ENV, raising=False)
    assert oa.main(["--games", "1"]) == 0
    assert capsys.readouterr().out.strip() == oa.ABSENT
    assert oa.main(["--agents", str(tmp_path)]) == 0  # a folder without the Cup's files
    assert "--agents DIR" in capsys.readouterr().out


def test_agents_are_found_in_a_cup_folder_and_their_clock_is_virtual(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "playerinterface", raising=False)
    (tmp_path / "playerinterface.py").write_text(
        "class PlayerInterface:\n    def move(self):\n        raise NotImplementedError\n")
    house = tmp_path / "bots" / "house"
    house.mkdir(parents=True)
    (house / "Slow.py").write_text(
        "import time\nimport random\nfrom playerinterface import PlayerInterface\n"
        "_rng = random.Random(5)\n\n"
        "class Slow(PlayerInterface):\n"
        "    def move(player, g):\n"
        "        end = time.perf_counter() + 0.5\n"
        "        n = 0\n"
        "        while time.perf_counter() < end:\n"
        "            n += 1\n"
        "        return [2, (n + _rng.randrange(5)) % 5]\n")
    (house / "Broken.py").write_text("raise ImportError('not today')\n")
    agents = oa.load_agents(str(tmp_path), tick=0.01)
    assert sorted(agents) == ["Slow"]
    cls, module = agents["Slow"]
    assert isinstance(module.time, oa.VirtualClock)
    g = known_game()
    oa.seed_agent(module, 11)
    one = cls.move(3, oa.cup_state(g, 3))
    oa.seed_agent(module, 11)
    assert cls.move(3, oa.cup_state(g, 3)) == one  # 50 ticks of work, the same draw
    assert oa.agents_folder(str(tmp_path)) == str(tmp_path)


def test_two_tables_logged_are_compared_game_by_game(tmp_path):
    import json

    bots = ["greedy", "cup:Tiny", "random", "cup:Tiny"]
    agents = {"Tiny": (Tiny, oa)}
    logs = []
    for name, seats in (("a-0.log", bots), ("b-0.log", ["random"] + bots[1:])):
        path = tmp_path / name
        with open(path, "w", encoding="utf-8") as fh:
            for index in range(4):
                Tiny.turns = 0
                fh.write(json.dumps(oa.play_game(seats, 3, index, agents=agents)) + "\n")
        logs.append(str(path))
    first, second = oa.read_logs(logs[0]), oa.read_logs(logs[1])
    assert [r["index"] for r in first] == [0, 1, 2, 3]
    (line,) = oa.paired(first, "greedy", second, "random")
    wins = [oa.focus_outcome(a, "greedy")[0] - oa.focus_outcome(b, "random")[0]
            for a, b in zip(first, second, strict=True)]
    assert line.startswith("greedy less random, paired over 4 games: win share %+.1f"
                           % (100 * sum(wins) / 4))
    (same,) = oa.paired(first, "greedy", first, "greedy")
    assert "+0.0 +/- 0.0 points (0 games' outcome changed), coin margin +0.00 +/- 0.00" in same
