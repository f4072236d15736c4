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
from such files. The games are ``camelhost.tournament.play_game``'s own, its
policies wrapped to look at the game before every action. The bots' finish cards
use the race odds, so the games depend on the code they run on: ``LATER_TILES``
was measured with the bots of main at commit 1da3fb0 (a checkout of it, this script
copied in, ``PYTHONPATH`` on its ``shared`` and ``host``).

    nice python tests/bench/tile_placements.py --edition classic --games 200 --seed 11 \
        --out /tmp/tiles-classic.jsonl
    python tests/bench/tile_placements.py --summary /tmp/tiles-*.jsonl
"""

import argparse
import json
import sys

from camelhost import tournament


def _leader_space(game):
    lead = game.ranking()[0]
    stacks = game.stacks
    for space in stacks:
        if lead in stacks[space]:
            return space
    raise ValueError("no leader")


def play(policies, edition, seed, index):
    """Game ``index`` played by ``tournament.play_game`` itself, its policies wrapped to
    look at the game before each action (see the module doc for the record)."""
    record = {"edition": edition, "seed": seed, "index": index, "tiles": [], "legs": [],
              "starts": []}
    seen = {"game": None, "leg": 0, "tiles": 0}

    def wrap(policy):
        def look(game, rng):
            if game.leg != seen["leg"]:
                if seen["leg"]:
                    record["legs"].append(seen["tiles"])
                seen["leg"] = game.leg
                record["starts"].append(game.position())
            seen["tiles"] = len(game.tiles)  # before a die: what the leg ends with
            seen["game"] = game
            text = policy(game, rng)
            if text.startswith("tile "):
                parts = text.split()
                record["tiles"].append([game.leg, len(game.dice_out),
                                        int(parts[1]) - _leader_space(game),
                                        1 if parts[2] == "+" else -1,
                                        game.tile_of(game.turn) is not None])
            return text
        return look

    saved = tournament.POLICIES
    tournament.POLICIES = {name: wrap(saved[name]) for name in saved}
    try:
        tournament.play_game(policies, edition, seed, index)
    finally:
        tournament.POLICIES = saved
    game = seen["game"]  # the game object play_game pushed every action on
    record["legs"].append(seen["tiles"])
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
            for leg, out, off, side, _moved in r["tiles"]:
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
        legs = max(1, sum(per_leg.values()))
        share = max(1, total)
        print("  legs ending with 0/1/2/3+ tiles: %s %%; tile actions before the first "
              "die %.0f %%, backward %.0f %%, 1-3 spaces ahead of the leader %.0f %% "
              "(of them backward %.0f %%), behind it %.0f %%" % (
                  "/".join("%.0f" % (100 * per_leg.get(n, 0) / legs) for n in (0, 1, 2))
                  + "/%.0f" % (100 * sum(per_leg[n] for n in per_leg if n >= 3) / legs),
                  100 * counts.get(0, 0) / share,
                  100 * sum(placed[k] for k in placed if k[2] < 0) / share,
                  100 * sum(placed[k] for k in placed if 1 <= k[1] <= 3) / share,
                  100 * sum(placed[k] for k in placed if 1 <= k[1] <= 3 and k[2] < 0)
                  / max(1, sum(placed[k] for k in placed if 1 <= k[1] <= 3)),
                  100 * sum(placed[k] for k in placed if k[1] < 0) / share))
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
