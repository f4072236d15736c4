"""Where the table's bots put desert / spectator tiles, and how races really end.

Plays seeded tournament games (``camelhost.tournament``: the same setups, dice and
seat rotation as ``pyramid tournament``, policies ``coach,ev,ev,ev`` by default) and
writes one JSON line per game to ``--out``:

* ``tiles``: every tile action ``[leg, dice out, space - leader's space, side,
  moved]`` (leader = the space of the leading racing camel when the tile goes down;
  side +1 forward / -1 backward; moved: the owner's tile was already on the track);
* ``legs``: per leg, the tiles on the track when it ended;
* ``starts``: the position (docs/notation.md) at the start of every leg;
* ``winner`` / ``loser``: the race's first and last racing camel (RULES 1.13, 3.7).

``--summary FILE...`` prints the tables ``camelup.odds.race`` keeps (``LATER_TILES``)
from such files. The games are those of ``camelhost.tournament.play_game`` (this
loop is its loop with a look at the game before every action).

    nice python tests/bench/tile_placements.py --edition classic --games 200 --seed 11 \
        --out /tmp/tiles-classic.jsonl
    python tests/bench/tile_placements.py --summary /tmp/tiles-*.jsonl
"""

import argparse
import json
import sys

from camelup.actions import Action
from camelup.editions import GREY, INKS
from camelup.game import Game
from camelup.rng import XorShift32

from camelhost import tournament
from camelhost.table.bots import POLICIES


def _leader_space(game):
    lead = game.ranking()[0]
    stacks = game.stacks
    for space in stacks:
        if lead in stacks[space]:
            return space
    raise ValueError("no leader")


def play(policies, edition, seed, index):
    """One game as ``tournament.play_game`` plays it, recorded (see the module doc)."""
    seats = len(policies)
    shift = index % seats
    order = [policies[(s + shift) % seats] for s in range(seats)]
    number = tournament.game_seed(seed, index)
    game = Game.random(edition, seats, number)
    dice = XorShift32(number * 7 + 3)
    rngs = [XorShift32(number * 31 + s + 1) for s in range(seats)]
    record = {"edition": edition, "seed": seed, "index": index, "tiles": [], "legs": [],
              "starts": []}
    leg = 0
    actions = 0
    while not game.is_over:
        if actions >= tournament.MAX_ACTIONS:
            raise RuntimeError("game %d: race not over" % index)
        if game.leg != leg:
            if leg:
                record["legs"].append(last_tiles)
            leg = game.leg
            record["starts"].append(game.position())
        last_tiles = len(game.tiles)
        seat = game.turn
        text = POLICIES[order[seat]](game, rngs[seat])
        if text == "pyramid":
            die = dice.choice(game.dice_in_pyramid())
            value = 1 + dice.below(3)
            ink = INKS[dice.below(2)] if die == GREY else None
            action = Action.pyramid(die, value, ink)
        elif text.startswith("partner "):
            action = "partner %d" % (int(text.split()[1]) - 1)
        else:
            action = text
            if text.startswith("tile "):
                parts = text.split()
                space = int(parts[1])
                side = 1 if parts[2] == "+" else -1
                moved = game.tile_of(seat) is not None
                record["tiles"].append([game.leg, len(game.dice_out),
                                        space - _leader_space(game), side, moved])
        game.push(action)
        actions += 1
        if not game.is_over and game.leg == leg:
            last_tiles = len(game.tiles)
    record["legs"].append(last_tiles)
    ranking = game.ranking()
    record["winner"] = ranking[0]
    record["loser"] = ranking[-1]
    return record


def summary(paths):
    """Print, per edition, tiles per later leg and the (dice out, offset, side) table."""
    by = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                by.setdefault(r["edition"], []).append(r)
    for edition in sorted(by):
        games = by[edition]
        later_legs = 0
        placed = {}
        first = 0
        counts = {}
        per_leg = {}
        for r in games:
            later_legs += len(r["legs"]) - 1
            for n in r["legs"][1:]:
                per_leg[n] = per_leg.get(n, 0) + 1
            for leg, out, off, side, moved in r["tiles"]:
                if leg == 1:
                    first += 1
                    continue
                placed[(out, off, side)] = placed.get((out, off, side), 0) + 1
                counts[out] = counts.get(out, 0) + 1
        total = sum(placed.values())
        print("%s: %d games, %d later legs, %d tile actions in later legs "
              "(%.2f a leg), %d in first legs" % (edition, len(games), later_legs, total,
                                                  total / max(1, later_legs), first))
        print("  tiles on the track at a later leg's end: %s" % sorted(per_leg.items()))
        print("  tile actions by dice out: %s" % sorted(counts.items()))
        print("  (dice out, offset from leader, side): count")
        for key in sorted(placed, key=lambda k: -placed[k]):
            print("    %r: %d" % (key, placed[key]))
        print("  as camelup.odds.race.LATER_TILES[%r]:" % edition)
        print("    {\"count\": (%s)," % ", ".join(
            "(%d, %d)" % kv for kv in sorted(per_leg.items())))
        print("     \"place\": (%s)}" % ", ".join(
            "(%d, %d, %d, %d)" % (k + (placed[k],)) for k in sorted(placed)))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--edition", default="classic")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--first", type=int, default=0, help="index of the first game")
    p.add_argument("--bots", default="coach,ev,ev,ev")
    p.add_argument("--out")
    p.add_argument("--summary", nargs="*")
    a = p.parse_args(argv)
    if a.summary:
        summary(a.summary)
        return 0
    policies = a.bots.split(",")
    with open(a.out, "a") as f:
        for i in range(a.first, a.first + a.games):
            f.write(json.dumps(play(policies, a.edition, a.seed, i)) + "\n")
            f.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
