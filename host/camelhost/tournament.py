"""Seeded games between bot policies through the rules engine (no pyramid), and their
statistics: ``pyramid tournament`` (``camelhost.commands.tournament``) runs them.

Game ``i`` of a tournament with seed ``S`` starts from ``Game.random(edition, seats,
S * 100003 + i)``; its dice come from a ``XorShift32`` seeded from the same number
(a pyramid ticket releases a die uniformly among those inside, a uniform face and,
for the grey die, a uniform ink: RULES 1.4, 3.4). The policies sit in the order given,
rotated by ``i`` seats, so over ``seats`` games every policy plays every seat.
Identical arguments give identical results on any number of processes, and on a
Dask distributed cluster (``engine="dask"``, the optional ``cluster`` extra: ``pip
install 'smart-pyramid[cluster]'``): every game is one task, seeded by its index alone,
so where it runs changes nothing. Dask rather than Ray: its ``LocalCluster`` is a few
plain processes started from pure-Python wheels (Ray brings a large native runtime and
its own daemons), and ``Client.map`` over the games is the whole of it.
"""

import math
import signal
import time
from itertools import islice
from multiprocessing import Pool

from camelup.game import Game
from camelup.randomplay import random_release
from camelup.rng import XorShift32

from camelhost.i18n import N_, _
from camelhost.table.bots import POLICIES

#: An unknown policy's refusal (``play_game``, ``pyramid tournament --bots``).
UNKNOWN_POLICY = N_("unknown bot policy %(policy)r (one of %(known)s)")
#: 95 % two-sided normal quantile.
Z95 = 1.96
#: Actions after which a game is stopped as a failure (a race takes about 60-120).
MAX_ACTIONS = 2000


def game_seed(seed, index):
    """The setup / dice seed of game ``index`` (0-based) of a tournament seeded ``seed``."""
    return seed * 100003 + index


def engine_action(game, text, dice):
    """A bot policy's choice ``text`` as the rules engine takes it: ``pyramid`` becomes
    the die the seeded pyramid releases (``random_release`` drawing from ``dice``, an
    ``XorShift32``), ``partner N`` (bots name seats from 1) the engine's seat ``N - 1``;
    anything else as it is."""
    if text == "pyramid":
        return random_release(game, dice)
    if text.startswith("partner "):
        return "partner %d" % (int(text.split()[1]) - 1)
    return text


def play_game(policies, edition, seed, index):
    """Play game ``index`` with ``policies`` (list of names, one per seat before the
    rotation). Returns ``{"seats": [policy per seat], "coins": [...], "winners":
    [seats], "actions": n, "cards": [[seat, leg, 1 if right else 0], ...]}``, one
    entry per finish card laid (the leg it went down in, from 1; right: its camel won
    the race on the winner pile, came last on the loser pile, RULES 1.13). Raises ``ValueError`` for an unknown policy or a policy
    that gives an illegal action, ``RuntimeError`` for a race that does not end."""
    seats = len(policies)
    shift = index % seats
    order = [policies[(s + shift) % seats] for s in range(seats)]
    for name in order:
        if name not in POLICIES:
            raise ValueError(_(UNKNOWN_POLICY) % {"policy": name,
                                                  "known": ", ".join(sorted(POLICIES))})
    number = game_seed(seed, index)
    game = Game.random(edition, seats, number)
    dice = XorShift32(number * 7 + 3)
    rngs = [XorShift32(number * 31 + s + 1) for s in range(seats)]
    actions = 0
    laid = []
    while not game.is_over:
        if actions >= MAX_ACTIONS:
            raise RuntimeError(_("game %(game)d: race not over after %(actions)d actions")
                               % {"game": index, "actions": actions})
        seat = game.turn
        text = POLICIES[order[seat]](game, rngs[seat])
        action = engine_action(game, text, dice)
        if not game.is_legal(action):
            raise ValueError(_("game %(game)d: policy %(policy)s chose an illegal action "
                               "%(action)r") % {"game": index, "policy": order[seat],
                                                "action": text})
        if text.startswith("finish "):
            laid.append((seat, game.leg, text.split()[1], text.split()[2]))
        game.push(action)
        actions += 1
    ranking = game.ranking()
    cards = []
    for seat, leg, pile, colour in laid:
        right = colour == (ranking[0] if pile == "winner" else ranking[-1])
        cards.append([seat, leg, 1 if right else 0])
    return {"seats": order, "coins": list(game.coins), "winners": list(game.winners()),
            "actions": actions, "cards": cards}


def log_line(index, result):
    """The game log's line of game ``index`` (``pyramid tournament --log``): ``index
    policies coins winners``, the policies and coins by seat comma-separated and the
    winners by their policies' names (a seat number says nothing of who won), ending
    in a newline. ``result`` as ``play_game`` returns it."""
    return "%d %s %s %s\n" % (index, ",".join(result["seats"]),
                               ",".join(str(c) for c in result["coins"]),
                               ",".join(result["seats"][w] for w in result["winners"]))


#: What starts a game log's header line (``log_header``): a reader of logs skips a line
#: starting so as no game.
LOG_HEADER = "# pyramid tournament "


def log_header(policies, edition, games, seed):
    """The first line of a game log (``pyramid tournament --log``), naming its run: the
    command that plays its games, ``# pyramid tournament --edition second --seats 4
    --games 100 --bots coach,ev,ev,ev --seed 1`` (``policies`` by seat before the
    rotation, a name each), ending in a newline. Two runs' games told apart in a file
    passed around (s39 tester 4: the lines alone said nothing of the seed, the edition,
    the seats). ``log_run`` reads it back."""
    return "%s--edition %s --seats %d --games %d --bots %s --seed %d\n" % (
        LOG_HEADER, edition, len(policies), games, ",".join(policies), seed)


def log_run(line):
    """The run a log's header line names (``log_header``) as ``{"edition": str, "seats":
    int, "games": int, "bots": [str], "seed": int}``, or ``None`` for a line that is no
    header (a game's line: ``log_line``). Raises ``ValueError`` for a header line that
    does not read so (cut or edited)."""
    if not line.startswith(LOG_HEADER):
        return None
    words = line[len(LOG_HEADER):].split()
    options = dict(zip(words[::2], words[1::2], strict=False))
    try:
        run = {"edition": options["--edition"], "seats": int(options["--seats"]),
               "games": int(options["--games"]), "bots": options["--bots"].split(","),
               "seed": int(options["--seed"])}
    except (KeyError, ValueError):
        raise ValueError(_("not a tournament log's header: %r") % line.strip()) from None
    if len(words) != 10 or len(run["bots"]) != run["seats"]:
        raise ValueError(_("not a tournament log's header: %r") % line.strip())
    return run


def _play(job):
    policies, edition, seed, index = job
    return index, play_game(policies, edition, seed, index)


#: What to install for ``engine="dask"``: the extra (``cluster``), or Dask distributed
#: alone; the two commands go into ``_distributed``'s one translatable sentence, named, so
#: a language says its own "or" (a command is never translated).
CLUSTER_INSTALL = {"extra": "pip install 'smart-pyramid[cluster]'",
                   "alone": "pip install distributed"}


def dask_client(address=None, workers=None, processes=True):
    """A ``distributed.Client``: connected to the scheduler at ``address`` (``tcp://
    host:8786``), else to a new ``LocalCluster`` of ``workers`` single-threaded worker
    processes (``processes=False``: threads in this process, for tests). Raises
    ``ImportError`` naming the extra to install when Dask distributed is missing."""
    Client, LocalCluster = _distributed()
    if address:
        return Client(address)
    # each worker process runs this module's ``dask_setup`` as it starts: it leaves a
    # Ctrl-C to the command, as the process pool's workers do (``_quiet_worker``)
    extra = {"preload": [__name__]} if processes else {}
    cluster = LocalCluster(n_workers=workers or 1, threads_per_worker=1,
                           processes=processes, dashboard_address=None, **extra)
    return Client(cluster)


def _distributed():
    """Dask distributed's ``(Client, LocalCluster)``; ``ImportError`` naming the extra to
    install when it is missing."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError(_("the dask engine needs Dask distributed, which is not installed "
                          "(%(extra)s or %(alone)s)") % CLUSTER_INSTALL) from None
    return Client, LocalCluster


def scheduler_timeout():
    """How long ``dask_client(address)`` waits for a scheduler that doesn't answer before
    it gives up (``OSError``), in seconds (a float > 0): Dask's own setting
    ``distributed.comm.timeouts.connect``, read here, never copied (30 s unless set, as
    in ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s``). Raises ``ImportError`` as
    ``dask_client`` does when Dask distributed is missing."""
    _distributed()
    import dask
    from dask.utils import parse_timedelta

    return float(parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s"))


def dask_setup(worker):
    """Run by each worker process of ``dask_client``'s local cluster as it starts (Dask's
    worker preload of this module): SIGINT ignored there. A Ctrl-C in a terminal reaches
    every process of the group: each Dask worker died of it with a traceback, and closing
    the cluster then waited for them until Dask's 60 s timeout ('pyramid: timed out
    after 60 s', exit status 1, no table: tests/bench/bench_odds.py times the stop). The
    command keeps the Ctrl-C and stops the workers itself."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the worker process's main thread: nothing to change there
        pass


def _quiet_pool(workers):
    """A process pool of ``workers`` whose workers ignore SIGINT from the moment they
    are forked: the parent ignores it while the pool forks them (they inherit that), then
    takes its own handler back. The initializer alone left a window: a Ctrl-C reaching a
    worker the loaded machine had not yet run up to its initializer killed it with a
    traceback (a test caught it once under load)."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to change, the initializer does it
        return Pool(workers, initializer=_quiet_worker)
    try:
        return Pool(workers, initializer=_quiet_worker)
    finally:
        signal.signal(signal.SIGINT, previous)


def _quiet_worker():
    # a Ctrl-C in a terminal reaches every process of the group: the workers leave it
    # to the command, which stops them (a traceback from each worker said nothing)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: Games a Dask run keeps submitted ahead, per worker thread of the cluster: enough to
#: keep every worker busy while a result travels back, few enough that a stop cancels
#: a handful of tasks. (All 100,000 games of a long run submitted at once took seconds
#: to submit, and their cancellation at a Ctrl-C left ``Client.close`` waiting for the
#: scheduler until Dask's 60 s timeout: 'pyramid: timed out after 60 s', exit status 1,
#: no table; tests/bench/bench_odds.py times the stop.)
DASK_AHEAD = 4


def _run_dask(jobs, client):
    from distributed import as_completed

    noted = []  # a Ctrl-C while Dask's calls run: raised between them (``_noting_sigint``)
    previous = _noting_sigint(noted)
    flying = set()
    try:
        threads = sum(client.nthreads().values()) or 1
        queue = iter(jobs)
        flying.update(client.map(_play, list(islice(queue, DASK_AHEAD * threads)), pure=False))
        finished = as_completed(list(flying))
        while not finished.is_empty():
            if noted:
                raise KeyboardInterrupt
            batch = finished.next_batch(block=False)  # local: no call to the scheduler
            if not batch:
                time.sleep(DASK_POLL_S)
                continue
            for future in batch:
                flying.discard(future)
                result = future.result()
                job = next(queue, None)
                if job is not None:  # one more game in place of the one finished
                    more = client.submit(_play, job, pure=False)
                    flying.add(more)
                    finished.add(more)
                yield result
                if noted:
                    raise KeyboardInterrupt
    finally:
        # stopped early (an interrupt, an error): the games in flight are cancelled, the
        # rest never submitted
        try:
            client.cancel([f for f in flying if not f.done()])
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)


#: How often a Dask run looks for finished games and a Ctrl-C noted meanwhile (s).
DASK_POLL_S = 0.05


def _noting_sigint(noted):
    """While a Dask run's calls to its scheduler run, a Ctrl-C is noted in ``noted`` and
    raised by the run between them, never inside one: Dask's ``sync`` interrupted while
    it set a call up logged a traceback of its own on the terminal (distributed 2026.8,
    ``utils.sync``'s ``cancel``: a free variable read before it was set). Returns the
    handler to put back, or ``None`` off the main thread (nothing changed there)."""
    try:
        return signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    except ValueError:  # not the main thread: signals are not ours to handle there
        return None


def run(policies, edition, games, seed, workers=None, engine="process", client=None):
    """Play ``games`` games on a process pool (``workers`` processes, default one per
    core), or with ``engine="dask"`` as Dask tasks on ``client`` (a
    ``distributed.Client``; default ``dask_client(workers=workers)``, closed at the
    end); yields ``(index, result)`` as games finish (any order). The same arguments
    give the same results on either engine. Closing the generator early (the command's
    Ctrl-C) stops at once: the games not started are cancelled and the pool's games in
    flight dropped (its processes terminated), not played to the end. Raises
    ``ValueError`` for another engine, ``ImportError`` when Dask is asked for and
    missing."""
    jobs = [(list(policies), edition, seed, i) for i in range(games)]
    if engine == "dask":
        own = client is None
        if own:
            client = dask_client(workers=workers)
        try:
            yield from _run_dask(jobs, client)
        finally:
            if own:
                cluster = client.cluster
                client.close()
                if cluster is not None:
                    cluster.close()
        return
    if engine != "process":
        raise ValueError(_("unknown engine %r (process or dask)") % engine)
    if workers == 1:
        for job in jobs:
            yield _play(job)
        return
    # multiprocessing's pool rather than concurrent.futures': its terminate() ends the
    # games in flight, where the executor's shutdown waited for them (a Ctrl-C took 20 s)
    pool = _quiet_pool(workers)
    try:
        for item in pool.imap(_play, jobs, chunksize=1):
            yield item
        pool.close()
    finally:
        pool.terminate()
        pool.join()


class Tally:
    """Win share and final coins per policy over finished games.

    A win shared by ``k`` seats counts ``1/k`` to each. ``rows()`` gives, per policy,
    ``(name, seats played, win share, (low, high), mean coins, half-width)``; shares are
    fractions (0..1) of the seats that policy played, ``(low, high)`` the share's 95 %
    Wilson score interval (``wilson``: right at a share of 0 or 1 too, where the normal
    approximation shrinks to nothing), the coins' half-width the 95 % normal
    approximation ``1.96 * s / sqrt(n)``. ``cards()`` gives, per policy, its finish
    cards: ``(name, cards a race, share laid correctly, share laid in the first leg)`` (results
    without ``"cards"`` count none; both shares ``None`` for a policy that laid none:
    nothing to count them over).
    """

    def __init__(self, policies):
        self.names = []
        for name in policies:
            if name not in self.names:
                self.names.append(name)
        self.wins = {}
        self.coins = {}
        for name in self.names:
            self.wins[name] = []
            self.coins[name] = []
        self.games = 0
        self.laid = dict((name, []) for name in self.names)

    def add(self, result):
        self.games += 1
        winners = result["winners"]
        for seat, leg, right in result.get("cards", ()):
            self.laid[result["seats"][seat]].append((leg, right))
        for seat in range(len(result["seats"])):
            name = result["seats"][seat]
            self.wins[name].append(1.0 / len(winners) if seat in winners else 0.0)
            self.coins[name].append(float(result["coins"][seat]))

    def rows(self):
        out = []
        for name in self.names:
            n = len(self.wins[name])
            w_mean = sum(self.wins[name]) / n if n else 0.0
            c_mean, c_hw = mean_hw(self.coins[name])
            out.append((name, n, w_mean, wilson(w_mean, n), c_mean, c_hw))
        return out

    def cards(self):
        out = []
        for name in self.names:
            laid = self.laid[name]
            n = len(laid)
            races = max(1, len(self.wins[name]))
            right = sum(r for _leg, r in laid) / n if n else None
            first = sum(1 for leg, _r in laid if leg == 1) / n if n else None
            out.append((name, n / races, right, first))
        return out


def wilson(rate, n, z=Z95):
    """The Wilson score interval ``(low, high)`` (0..1) of a proportion ``rate`` (0..1)
    seen over ``n`` trials, at the normal quantile ``z`` (95 % by default): unlike the
    normal approximation it is not empty at a rate of 0 or 1 (0 wins in 10 seats: 0 to
    0.28) and never leaves 0..1. A shared win (``1/k``) counts as a fraction of a trial.
    ``(0.0, 1.0)`` for ``n == 0``: nothing is known."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(0.0, rate * (1 - rate)) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_hw(values):
    """``(mean, half-width)`` of ``values`` (a list of numbers, e.g. coins a game): the
    half-width of the 95 % interval of the mean by the normal approximation (``Z95``
    sample standard deviations of the mean); ``(0.0, 0.0)`` for no values, a
    half-width of 0 for one."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)
