"""Outside agents at our table (issue 31): Camel Up bots written elsewhere, in the
"Camel Up Cup 2K18" shape, playing seats of our classic-edition engine.

Nothing of theirs is in this repository. Their code is read from a folder given on
the command line (``--agents DIR``) or in ``PYRAMID_OUTSIDE_AGENTS``: a checkout of
https://github.com/trbarron/Camel_Up_Cup_2K18 (its ``playerinterface.py`` at the top,
its bots in ``bots/house/``, ``bots/test/`` and, if present, ``bots/contenders/``).
Without the folder this program only says where to put it and stops.

Their API (the Cup's ``camelup.py``): a bot is a class whose ``move(player, g)``
(called on the class, ``player`` the seat 0-3, ``g`` a copy of the engine's
``GameState`` as that seat sees it) returns ``[0]`` roll the dice, ``[1, type,
index]`` place or move its trap (``type`` 1 or -1), ``[2, camel]`` a round bet,
``[3, camel]`` / ``[4, camel]`` a game winner / loser bet; camels are 0-4.

The translation, each turn (``cup_state``, ``our_action``):

* camels: camel ``i`` is the classic edition's ``racing[i]`` (blue, green, orange,
  yellow, white); our space ``s`` is their track index ``s - 1`` (``camel_track``,
  29 lists, each stack bottom to top, as our stacks);
* ``camel_yet_to_move``: the dice still inside the pyramid this leg;
* ``trap_track`` / ``player_has_placed_trap``: our tiles (oasis ``+`` is ``1``,
  mirage ``-`` is ``-1``), ``[type, owner seat]`` at index ``space - 1``;
* ``round_bets``: the leg tickets held this leg as ``[camel, seat]``, each colour's
  in the order they were taken (5, then 3, then 2), so their payout ladder meets
  ours;
* ``game_winner_bets`` / ``game_loser_bets``: our finish piles in play order, the
  seat's own cards as the Cup's salted SHA-256 ``hash:salt`` (what their bots decode
  with ``check_bet``), everyone else's colour hidden (``None``), as the Cup hides it;
  ``player_game_bets``: each seat's cards in play order, the same way;
* ``player_money_values``: coins plus the pyramid tickets held this leg (the Cup
  pays a roll's coin at once, we pay it at leg scoring, RULES 1.7: the coin is
  certain either way).

Their answer becomes ``pyramid`` (a die then drawn by the tournament's seeded
pyramid), ``tile N +``/``tile N -`` (space ``index + 1``), ``leg COLOUR``, ``finish
winner COLOUR`` or ``finish loser COLOUR``. An answer our rules refuse (``Game.is_legal``),
a malformed one, or a bot that raises, is counted and replaced by ``FALLBACK``, a
pyramid ticket: the Cup's own engine turns an invalid action or a crash into a dice
roll, and a pyramid ticket is always legal while the race runs.

Where the Cup's rules differ from ours (RULES.md decides, the adapter never bends
them): leg tickets run out after three a colour (RULES 2.3; the Cup takes any number,
paying 0 after the third on the leader): a fourth is illegal here; a correct finish
card pays 8, 5, 3, 2, then 1 (RULES 1.13; the Cup's ladder is 8, 5, 3, 1): their
values are a little off for a fourth card; coins start at 3 and never fall below 0
(RULES 1.9; the Cup starts at 2, no floor); a tile goes on spaces 2-16 only and never
back on the space it lies on (RULES 1.5; the Cup takes indexes up to 27 and a trap
turned over in place): those are illegal here. The Cup has 4 players and 5 camels:
the adapter plays the classic edition at 4 seats only.

Determinism: before each of their moves the global ``random`` and every
``random.Random`` the bot's module holds are seeded from the game's seed, the seat and
the move number, and a bot module that imports ``time`` sees a virtual clock that
advances ``TICK`` seconds a call (FabelFelix plays "Monte-Carlo until 0.9 s have
passed": with the virtual clock it runs the same number of simulations on any machine
under any load, ``--tick`` sets it). The game itself is ``tournament.play_game``'s:
the same setup, pyramid and seat rotation for the same seed and index, so a table
here is comparable game by game with ``pyramid tournament``'s.

    PYRAMID_OUTSIDE_AGENTS=/work/outside/camel_up_cup_2k18 \\
        nice python tests/bench/outside_agents.py --bots coach,cup:FabelFelix,cup:FabelFelix,cup:FabelFelix \\
        --games 200 --workers 2 --log /tmp/coach-felix.log
    python tests/bench/outside_agents.py --agents DIR --list
"""

import argparse
import hashlib
import importlib.util
import os
import random
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared"))

from camelhost import tournament  # noqa: E402
from camelhost.table.bots import POLICIES  # noqa: E402
from camelup.game import Game  # noqa: E402
from camelup.rng import XorShift32  # noqa: E402

#: The environment variable naming the agents' folder.
ENV = "PYRAMID_OUTSIDE_AGENTS"
#: Where the Cup's code comes from (the folder is a checkout of it).
SOURCE = "https://github.com/trbarron/Camel_Up_Cup_2K18"
#: A seat name that is an outside agent: ``cup:ClassName``.
PREFIX = "cup:"
#: The Cup's folders of bots, read in this order.
BOT_FOLDERS = ("bots/house", "bots/test", "bots/contenders")
#: Their engine's fixed table.
SEATS = 4
#: Length of the Cup's ``camel_track`` and ``trap_track``.
TRACK_LEN = 29
#: What an illegal, malformed or crashing answer becomes.
FALLBACK = "pyramid"
#: Seconds the virtual clock advances at each call of a bot module's ``time``.
TICK = 1e-5
#: Trailing help when the agents are not there.
ABSENT = ("No outside agents: give their folder with --agents DIR or %s=DIR "
          "(a checkout of %s; its code stays outside this repository)." % (ENV, SOURCE))


# -- their state, from our game ------------------------------------------------

class CupState:
    """The Cup's ``GameState`` fields (``camelup.GameState`` of the Cup), filled from
    our game by ``cup_state``; nothing else."""

    def __init__(self):
        self.camel_track = [[] for _ in range(TRACK_LEN)]
        self.trap_track = [[] for _ in range(TRACK_LEN)]
        self.player_has_placed_trap = [False] * SEATS
        self.round_bets = []
        self.game_winner_bets = []
        self.game_loser_bets = []
        self.player_game_bets = [[] for _ in range(SEATS)]
        self.player_money_values = [0] * SEATS
        self.camel_yet_to_move = [True] * 5
        self.active_game = True
        self.game_winner = []
        self.camels = [0, 1, 2, 3, 4]


def hashed(camel, salt):
    """A finish card as the Cup stores its owner's own bets: ``sha256(salt + str(camel))``
    in hex, ``:``, the salt (their ``hash_bet``/``check_bet`` format)."""
    return hashlib.sha256((salt + str(camel)).encode()).hexdigest() + ":" + salt


def _salt(seat, pile, index):
    # deterministic, different for every card (the Cup draws uuid4 salts)
    return hashlib.sha256(("%d/%s/%d" % (seat, pile, index)).encode()).hexdigest()[:32]


def cup_state(game, seat):
    """The Cup's view of ``game`` (a classic ``Game`` at 4 seats, in play) from ``seat``
    (0-3): a ``CupState`` (see the module's docstring for each field). Raises
    ``ValueError`` for another edition or table size."""
    ed = game.edition
    if len(ed.racing) != 5 or ed.crazy or game.players != SEATS:
        raise ValueError("the Cup's agents play 5 camels at 4 seats: not %s at %d"
                         % (ed.name, game.players))
    ids = dict((colour, i) for i, colour in enumerate(ed.racing))
    g = CupState()
    stacks = game.stacks
    for space in stacks:
        index = space - 1
        if not 0 <= index < TRACK_LEN:
            raise ValueError("space %d is off the Cup's track" % space)
        g.camel_track[index] = [ids[c] for c in stacks[space]]
    tiles = game.tiles
    for space in tiles:
        owner, side = tiles[space]
        g.trap_track[space - 1] = [1 if side == "+" else -1, owner]
        g.player_has_placed_trap[owner] = True
    inside = game.dice_in_pyramid()
    g.camel_yet_to_move = [colour in inside for colour in ed.racing]
    bets = []
    for p in range(SEATS):
        for colour, value in game.held_tickets(p):
            bets.append((ids[colour], -value, p))
    bets.sort()  # by camel, then 5 before 3 before 2: the order they were taken
    g.round_bets = [[camel, p] for camel, _v, p in bets]
    for pile, out in (("winner", g.game_winner_bets), ("loser", g.game_loser_bets)):
        for index, (p, colour) in enumerate(game.pile(pile)):
            card = hashed(ids[colour], _salt(p, pile, index)) if p == seat else None
            out.append([card, p])
    for p in range(SEATS):
        cards = [b[0] for b in g.game_winner_bets + g.game_loser_bets if b[1] == p]
        g.player_game_bets[p] = cards
    coins = game.coins
    g.player_money_values = [coins[p] + game.pyramid_tickets(p) for p in range(SEATS)]
    return g


# -- their answer, in our words ------------------------------------------------

def our_action(game, answer):
    """``(text, None)``: the action text our engine takes for the Cup answer
    ``answer`` (``pyramid`` for ``[0]``), legal now; or ``(FALLBACK, why)`` when the
    answer is malformed or our rules refuse it (``why``: one line saying what)."""
    ed = game.edition
    try:
        kind = answer[0]
        if kind == 0:
            text = "pyramid"
        elif kind == 1:
            side, index = answer[1], answer[2]
            if side not in (1, -1) or not isinstance(index, int):
                return FALLBACK, "a trap needs type 1 or -1 and a track index: %r" % (answer,)
            text = "tile %d %s" % (index + 1, "+" if side == 1 else "-")
        elif kind in (2, 3, 4):
            camel = answer[1]
            if not isinstance(camel, int) or not 0 <= camel < len(ed.racing):
                return FALLBACK, "no camel %r: %r" % (camel, answer)
            colour = ed.racing[camel]
            text = {2: "leg %s", 3: "finish winner %s", 4: "finish loser %s"}[kind] % colour
        else:
            return FALLBACK, "unknown action code: %r" % (answer,)
    except (TypeError, IndexError, KeyError):
        return FALLBACK, "not a Cup action: %r" % (answer,)
    if text == "pyramid":
        return text, None
    if not game.is_legal(text):
        try:
            game.check(text)
        except Exception as err:  # the engine's one-line reason
            return FALLBACK, str(err)
    return text, None


# -- loading their bots --------------------------------------------------------

class VirtualClock:
    """A stand-in for the ``time`` module a bot module imported: ``perf_counter``,
    ``time``, ``monotonic`` and ``process_time`` all advance ``tick`` seconds a call,
    so a bot that works "until a deadline" does the same work everywhere."""

    def __init__(self, tick):
        self.tick = tick
        self.now = 0.0

    def _next(self):
        self.now += self.tick
        return self.now

    def perf_counter(self):
        return self._next()

    time = monotonic = process_time = perf_counter

    def sleep(self, _seconds):
        return None


def agents_folder(given=None):
    """The agents' folder (``given``, else ``$PYRAMID_OUTSIDE_AGENTS``) if it holds the
    Cup's ``playerinterface.py``; else ``None``."""
    folder = given or os.environ.get(ENV)
    if folder and os.path.isfile(os.path.join(folder, "playerinterface.py")):
        return os.path.abspath(folder)
    return None


def load_agents(folder, tick=TICK):
    """``{class name: (class, module)}`` of every bot class in the Cup checkout
    ``folder`` (a subclass of its ``PlayerInterface`` with its own ``move``), from
    ``BOT_FOLDERS``; a module that imports ``time`` gets a ``VirtualClock(tick)`` in
    its place. Modules that fail to import are skipped (their name and error go to
    stderr)."""
    if folder not in sys.path:
        sys.path.insert(0, folder)
    known = sys.modules.get("playerinterface")
    if known is not None and os.path.dirname(os.path.abspath(known.__file__)) != folder:
        del sys.modules["playerinterface"]  # another folder's: read this one's
    import playerinterface

    base = playerinterface.PlayerInterface
    found = {}
    for sub in BOT_FOLDERS:
        where = os.path.join(folder, sub)
        if not os.path.isdir(where):
            continue
        for name in sorted(os.listdir(where)):
            if not name.endswith(".py") or name.startswith("_"):
                continue
            modname = "outside_%s_%s" % (sub.replace("/", "_"), name[:-3])
            spec = importlib.util.spec_from_file_location(modname, os.path.join(where, name))
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except Exception as err:
                print("outside agents: %s/%s not loaded: %s" % (sub, name, err), file=sys.stderr)
                continue
            if isinstance(getattr(module, "time", None), types.ModuleType):
                module.time = VirtualClock(tick)
            for attr in sorted(vars(module)):
                cls = getattr(module, attr)
                if (isinstance(cls, type) and issubclass(cls, base) and cls is not base
                        and cls.__module__ == modname and attr not in found):
                    found[attr] = (cls, module)
    return found


def seed_agent(module, number):
    """Seed every random source a bot's move may draw from: the global ``random`` and
    each ``random.Random`` its module holds."""
    random.seed(number)
    for value in list(vars(module).values()):
        if isinstance(value, random.Random):
            value.seed(number)


def agent_policy(cls, module, counts):
    """A tournament policy ``(game, rng) -> command`` that asks the Cup bot ``cls`` for
    its move each turn (``cup_state`` in, ``our_action`` out); each fallback is added
    to ``counts`` (``{"moves": n, "illegal": n, "reasons": {why: n}}``)."""

    def policy(game, rng):
        seat = game.turn
        seed_agent(module, rng.below(2 ** 31))
        counts["moves"] += 1
        try:
            answer = cls.move(seat, cup_state(game, seat))
        except Exception as err:
            answer = ("raised %s: %s" % (type(err).__name__, err),)
        text, why = our_action(game, answer)
        if why is not None:
            counts["illegal"] += 1
            short = why.split(": ", 1)[-1].strip()[:100]  # the rule, not the action
            counts["reasons"][short] = counts["reasons"].get(short, 0) + 1
        return text

    return policy


# -- games ---------------------------------------------------------------------

_LOADED = {}


def _agents(folder, tick):
    key = (folder, tick)
    if key not in _LOADED:
        _LOADED[key] = load_agents(folder, tick)
    return _LOADED[key]


def play_game(bots, seed, index, folder=None, tick=TICK, agents=None, trace=None):
    """Game ``index`` of a classic 4-seat table seeded ``seed``, exactly as
    ``tournament.play_game`` plays it (same setup, pyramid, per-seat generators and
    seat rotation), the seats named ``cup:Name`` played by the outside agent ``Name``
    (``agents``: ``{name: (class, module)}``, else loaded from ``folder``). Returns
    ``tournament.play_game``'s result plus ``"illegal"``: ``{seat: [moves, fallbacks,
    {why: n}]}`` for the outside seats, ``"kinds"``: ``{action word: n}`` a seat,
    ``"legs"``, ``"index"`` and the final ``"ranking"`` (camels first to last).
    ``trace``, a list, gets ``(leg it was taken in, seat name, text chosen, action
    pushed, coins after)`` for every action. Raises ``ValueError`` for an unknown seat
    name, ``RuntimeError`` for a race that does not end."""
    if len(bots) != SEATS:
        raise ValueError("the Cup's agents play at %d seats, not %d" % (SEATS, len(bots)))
    if agents is None:
        agents = _agents(folder, tick)
    shift = index % SEATS
    order = [bots[(s + shift) % SEATS] for s in range(SEATS)]
    policies = []
    counts = {}
    for seat, name in enumerate(order):
        if name.startswith(PREFIX):
            agent = name[len(PREFIX):]
            if agent not in agents:
                raise ValueError("no outside agent %r (found: %s)"
                                 % (agent, ", ".join(sorted(agents)) or "none"))
            counts[seat] = {"moves": 0, "illegal": 0, "reasons": {}}
            cls, module = agents[agent]
            policies.append(agent_policy(cls, module, counts[seat]))
        elif name in POLICIES:
            policies.append(POLICIES[name])
        else:
            raise ValueError("unknown seat %r: one of %s or %sNAME"
                             % (name, ", ".join(sorted(POLICIES)), PREFIX))
    number = tournament.game_seed(seed, index)
    game = Game.random("classic", SEATS, number)
    dice = XorShift32(number * 7 + 3)
    rngs = [XorShift32(number * 31 + s + 1) for s in range(SEATS)]
    actions = 0
    laid = []
    kinds = [dict() for _ in range(SEATS)]
    while not game.is_over:
        if actions >= tournament.MAX_ACTIONS:
            raise RuntimeError("game %d: race not over after %d actions" % (index, actions))
        seat = game.turn
        text = policies[seat](game, rngs[seat])
        action = tournament.engine_action(game, text, dice)
        if not game.is_legal(action):
            raise ValueError("game %d: %s chose an illegal action %r" % (index, order[seat], text))
        word = text.split()[0]
        kinds[seat][word] = kinds[seat].get(word, 0) + 1
        if word == "finish":
            laid.append((seat, game.leg, text.split()[1], text.split()[2]))
        leg = game.leg
        game.push(action)
        actions += 1
        if trace is not None:
            trace.append((leg, order[seat], text, str(action), game.coins))
    ranking = game.ranking()
    cards = []
    for seat, leg, pile, colour in laid:
        right = colour == (ranking[0] if pile == "winner" else ranking[-1])
        cards.append([seat, leg, 1 if right else 0])
    illegal = dict((seat, [c["moves"], c["illegal"], c["reasons"]]) for seat, c in counts.items())
    return {"seats": order, "coins": list(game.coins), "winners": list(game.winners()),
            "actions": actions, "cards": cards, "illegal": illegal, "kinds": kinds,
            "legs": game.leg, "index": index, "ranking": ranking}


def _play(job):
    bots, seed, index, folder, tick = job
    return index, play_game(bots, seed, index, folder, tick)


def run(bots, games, seed, folder, tick=TICK, workers=1, first=0):
    """Yield ``(index, result)`` for games ``first .. first + games - 1`` (any order with
    ``workers > 1``: each game is seeded by its index alone)."""
    jobs = [(list(bots), seed, i, folder, tick) for i in range(first, first + games)]
    if workers <= 1:
        for job in jobs:
            yield _play(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for item in pool.map(_play, jobs, chunksize=1):
            yield item


# -- the summary -------------------------------------------------------------



def summary(results, focus):
    """Lines of text: each seat name's win share (95 % Wilson interval) and coins,
    ``focus``'s coin margin over the mean of the others at its table (paired per game,
    95 % interval), finish cards a race / right / laid in leg 1, what each kind of
    action made of their moves, and the outside agents' fallbacks with their reasons."""
    names = []
    for r in results:
        for n in r["seats"]:
            if n not in names:
                names.append(n)
    tally = tournament.Tally(names)
    margins = []
    illegal = {}
    kinds = {}
    for r in results:
        tally.add(r)
        mine = [s for s, n in enumerate(r["seats"]) if n == focus]
        if mine and len(mine) < SEATS:
            me = mine[0]
            others = [c for s, c in enumerate(r["coins"]) if s != me]
            margins.append(r["coins"][me] - sum(others) / len(others))
        for seat, name in enumerate(r["seats"]):
            k = kinds.setdefault(name, {})
            for word, n in r["kinds"][seat].items():
                k[word] = k.get(word, 0) + n
        for seat, (moves, bad, reasons) in r["illegal"].items():
            name = r["seats"][int(seat)]
            entry = illegal.setdefault(name, [0, 0, {}])
            entry[0] += moves
            entry[1] += bad
            for why, n in reasons.items():
                entry[2][why] = entry[2].get(why, 0) + n
    lines = ["%d games, classic, 4 seats, seats rotated" % len(results)]
    cards = dict((c[0], c[1:]) for c in tally.cards())
    for name, n, rate, (low, high), coins, hw in tally.rows():
        per_race, right, first = cards[name]
        lines.append("%-22s seats %4d  wins %5.1f %% [%4.1f, %4.1f]  coins %5.2f +/- %4.2f  "
                     "finish cards %.2f a race, %s right, %s in leg 1"
                     % (name, n, 100 * rate, 100 * low, 100 * high, coins, hw, per_race,
                        "-" if right is None else "%.0f %%" % (100 * right),
                        "-" if first is None else "%.0f %%" % (100 * first)))
        k = kinds.get(name, {})
        total = sum(k.values()) or 1
        lines.append("%-22s   actions: %s" % ("", ", ".join(
            "%s %.0f %%" % (w, 100.0 * k[w] / total) for w in sorted(k))))
    if margins:
        m, hw = tournament.mean_hw(margins)
        lines.append("%s coin margin over the others' mean: %+.2f +/- %.2f (%d games)"
                     % (focus, m, hw, len(margins)))
    for name, (moves, bad, reasons) in illegal.items():
        top = sorted(reasons.items(), key=lambda kv: -kv[1])[:4]
        lines.append("%s: %d of %d moves refused by our rules, played as %s%s"
                     % (name, bad, moves, FALLBACK,
                        (" (" + "; ".join("%d x %s" % (n, w) for w, n in top) + ")") if top else ""))
    return lines


def focus_outcome(result, focus):
    """``(win share, coin margin over the others' mean)`` of ``focus``'s seat in one
    game's result."""
    me = result["seats"].index(focus)
    coins = result["coins"]
    won = [s for s, c in enumerate(coins) if c == max(coins)]
    others = [c for s, c in enumerate(coins) if s != me]
    return ((1.0 / len(won)) if me in won else 0.0), coins[me] - sum(others) / len(others)


def paired(results, focus, others, other_focus):
    """Lines comparing ``focus`` in ``results`` with ``other_focus`` in ``others`` game
    by game (the games both hold, by index: the same set-up, seats and dice): the mean
    difference of the win share and of the coin margin, each with its 95 % interval,
    and how many games' winners changed."""
    mine = dict((r["index"], r) for r in results)
    theirs = dict((r["index"], r) for r in others)
    common = sorted(set(mine) & set(theirs))
    wins = []
    margins = []
    changed = 0
    for i in common:
        w1, m1 = focus_outcome(mine[i], focus)
        w2, m2 = focus_outcome(theirs[i], other_focus)
        wins.append(w1 - w2)
        margins.append(m1 - m2)
        changed += w1 != w2
    if not common:
        return ["no games in common"]
    w, whw = tournament.mean_hw(wins)
    m, mhw = tournament.mean_hw(margins)
    return ["%s less %s, paired over %d games: win share %+.1f +/- %.1f points (%d games' "
            "outcome changed), coin margin %+.2f +/- %.2f"
            % (focus, other_focus, len(common), 100 * w, 100 * whw, changed, m, mhw)]


def read_logs(paths):
    """The results of ``--log`` files (comma-separated paths), in file order. A line
    without ``index`` (written before it was recorded) takes the next index after the
    previous line's, from ``first`` of the file's name ``...-<first>.log`` or 0."""
    import json

    out = []
    for path in paths.split(","):
        base = os.path.basename(path)[:-len(".log")]
        tail = base.rsplit("-", 1)[-1]
        nxt = int(tail) if tail.isdigit() else 0
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                r = json.loads(line)
                r.setdefault("index", nxt)
                nxt = r["index"] + 1
                out.append(r)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--agents", default=None, help="the Cup checkout (else $%s)" % ENV)
    p.add_argument("--list", action="store_true", help="list the agents found and stop")
    p.add_argument("--bots", default="coach,cup:FabelFelix,cup:FabelFelix,cup:FabelFelix",
                   help="four seats: our policies and cup:NAME")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--first", type=int, default=0, help="index of the first game")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--tick", type=float, default=TICK,
                   help="seconds the agents' virtual clock advances a call")
    p.add_argument("--log", default=None, help="append each game's result here (one line)")
    p.add_argument("--read", default=None, metavar="LOG[,LOG]",
                   help="summarise logs written with --log; play nothing")
    p.add_argument("--pair", default=None, metavar="LOG[,LOG]",
                   help="with --read: compare game by game with these logs")
    p.add_argument("--pair-focus", default="ev", help="the seat compared in --pair's logs")
    a = p.parse_args(argv)
    bots = a.bots.split(",")
    focus = bots[0]
    if a.read:
        results = read_logs(a.read)
        print("\n".join(summary(results, focus)))
        if a.pair:
            print("\n".join(paired(results, focus, read_logs(a.pair), a.pair_focus)))
        return 0
    folder = agents_folder(a.agents)
    if folder is None:
        print(ABSENT)
        return 0
    agents = _agents(folder, a.tick)
    if a.list:
        for name in sorted(agents):
            print("%s%s  (%s)" % (PREFIX, name, agents[name][1].__file__))
        return 0
    results = []
    started = time.time()
    out = open(a.log, "a", encoding="utf-8") if a.log else None
    try:
        import json
        for done, (_index, result) in enumerate(run(bots, a.games, a.seed, folder, a.tick,
                                                    a.workers, a.first), 1):
            results.append(result)
            if out:
                out.write(json.dumps(result, sort_keys=True) + "\n")
                out.flush()
            if done % max(1, a.games // 20) == 0:
                print("%d/%d games, %.0f s" % (done, a.games, time.time() - started),
                      file=sys.stderr, flush=True)
    finally:
        if out:
            out.close()
    print("\n".join(summary(results, focus)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
