"""``pyramid tournament``: seeded games between bot policies through the rules engine
(no pyramid), on every core, with each policy's win share and mean final coins.

    pyramid tournament --seats 4 --games 2000 --bots coach,ev,ev,ev --seed 1 --edition second

Seats are rotated game by game (``camelhost.tournament``); a shared win counts
``1/k`` to each of the ``k`` winners. Intervals are 95 %: the win share's a Wilson score
interval (``camelhost.tournament.wilson``), the mean coins' the normal approximation.
On a terminal a progress bar shows the running win shares; into a file or a pipe (a
log, CI, a cluster job) a progress line is printed every ``PROGRESS_STEP`` of the
games with the time left. ``--plot FILE`` draws each policy's win share with its
interval (matplotlib, an optional extra like ``calibrate --plot``), titled with what
was played. A Ctrl-C stops at once (the games not finished are dropped) and prints the
table of the games finished, said as partial; the exit status is then 130.
"""

import errno
import logging
import os
import sys
import time

from camelup.editions import get_edition
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TimeElapsedColumn,
)
from rich.table import Column
from rich.text import Text

from camelhost import league, tournament
from camelhost.commands.options import (
    add_edition_argument,
    add_seats_argument,
    add_seed_argument,
    metavar,
    output_file_problem,
    plot_output,
)
from camelhost.errors import CliError
from camelhost.i18n import N_, _, decimal, edition_word, ngettext, percent, pgettext
from camelhost.table.bots import DESCRIPTIONS, POLICIES
from camelhost.tools.calibrate import plot_backend, plot_file

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; one run per log is then on trust
    fcntl = None

HELP = (N_("Seeded games between bot policies (the league of styles and the coach) through "
           "the rules engine, seats rotated, on every core: win share and mean coins per "
           "policy with their intervals, and each policy's finish cards."))

#: Without a terminal, a progress line every this share of the games.
PROGRESS_STEP = 0.05


#: Without ``--bots``: the coach at the first seat, this policy at every other.
DEFAULT_BOTS = ("coach", "ev")


def _bots_help():
    lines = [_("the bot policy at each seat, comma-separated (one name: every seat; in play, "
               "--bots names the seats instead), from: ")]
    for name in sorted(POLICIES):
        lines.append("%s: %s;" % (name, league.described(DESCRIPTIONS[name])))
    return (" ".join(lines) + " " + _("default: %(first)s at the first seat, %(other)s at "
                                      "every other (%(four)s at 4 seats)") % {
        "first": DEFAULT_BOTS[0], "other": DEFAULT_BOTS[1],
        "four": ",".join(default_bots(4))}).replace("%", "%%")


def default_bots(seats):
    """The line-up without ``--bots`` at ``seats`` seats (2-8): ``DEFAULT_BOTS``' first
    at the first seat, its second at the others, so the default follows ``--seats``
    (tester s41 finding 7: ``--seats 6`` alone was refused for a four-name default)."""
    return [DEFAULT_BOTS[0]] + [DEFAULT_BOTS[1]] * (seats - 1)


def add_arguments(parser):
    add_seats_argument(parser)
    parser.add_argument("--games", type=int, default=100, metavar=metavar("N"), help=_("games to play (default 100)"))
    parser.add_argument("--bots", default=None, metavar=metavar("POLICIES"), help=_bots_help())
    add_seed_argument(parser, _("tournament seed"))
    add_edition_argument(parser, _("the edition of every game"))
    parser.add_argument("--workers", type=int, default=None, metavar=metavar("N"),
                        help=_("processes (default: one per core)"))
    parser.add_argument("--log", default=None, metavar=metavar("FILE"),
                        help=_("write to FILE a first line naming the run (# pyramid tournament "
                               "and its options), then one line per finished game (its index, "
                               "the policies by seat, their coins, the winners' policies); a "
                               "FILE holding games is refused"))
    parser.add_argument("--engine", choices=("process", "dask"), default="process",
                        help=_("where the games run: process (a process pool on this machine, "
                               "the default) or dask (Dask distributed: the same seeded games and "
                               "results; needs pip install 'smart-pyramid[cluster]')"))
    parser.add_argument("--scheduler", default=None, metavar=metavar("ADDRESS"),
                        help=_("with --engine dask: the scheduler to send the games to "
                               "(tcp://host:8786); default a local cluster of --workers processes"))
    parser.add_argument("--plot", default=None, metavar=metavar("FILE"),
                        help=(_("also draw each policy's win share with its %s interval to "
                                "FILE (PNG, SVG or PDF by its name; needs matplotlib: pip install "
                                "'smart-pyramid[plot]')") % percent(0.95)).replace("%", "%%"))


def _policies(args):
    if args.bots is None:
        return default_bots(args.seats)
    entries = [n.strip().lower() for n in args.bots.split(",")]
    for place, name in enumerate(entries, 1):
        if not name:  # 'ev,,ev,ev': said, not dropped (the count would blame the seats)
            raise CliError(_("--bots: entry %(entry)d of %(entries)d is empty: give a policy "
                             "name there") % {"entry": place, "entries": len(entries)})
    names = entries
    for name in names:  # a misspelt name first: it is the mistake to fix either way
        if name not in POLICIES:
            raise CliError(_(tournament.UNKNOWN_POLICY)
                           % {"policy": name, "known": ", ".join(sorted(POLICIES))})
    if len(names) == 1:
        names = names * args.seats
    if len(names) != args.seats:
        given = ngettext("--bots names %(policies)d policy for %(seats)d seats",
                         "--bots names %(policies)d policies for %(seats)d seats",
                         len(names)) % {"policies": len(names), "seats": args.seats}
        edition = get_edition(args.edition)
        if edition.min_players <= len(names) <= edition.max_players:
            # the line-up may be right and the seats the slip: both ways out said
            # TRANSLATORS: %(given)s is what --bots gave ("--bots names 2 policies for 3
            # seats"), %(seats)d the seats, %(policies)d the policies named
            raise CliError(_("%(given)s: give %(seats)d, or --seats %(policies)d")
                           % {"given": given, "seats": args.seats, "policies": len(names)})
        raise CliError(_("%(given)s: give %(seats)d") % {"given": given, "seats": args.seats})
    return names


def _summary(tally):
    return " ".join(_shares(tally))


def _shares(tally, places=1):
    """Each policy's running win share as ``name 15.0%`` (``places`` decimals), in the
    tally's order."""
    return ["%s %s" % (name, percent(rate, places))
            for name, _n, rate, _interval, _coins, _chw in tally.rows()]


def _duration(seconds):
    seconds = int(round(seconds))
    if seconds < 60:
        return "%d s" % seconds
    if seconds < 3600:
        return "%d min %02d s" % (seconds // 60, seconds % 60)
    return "%d h %02d min" % (seconds // 3600, seconds % 3600 // 60)


class LineProgress:
    """Progress for a file or a pipe: one line every ``step`` of ``total`` games (and
    at the last), with the games done, the time so far and the time left at the pace
    so far."""

    def __init__(self, console, total, step=PROGRESS_STEP):
        self.console = console
        self.total = total
        self.every = max(1, int(total * step))
        self.started = time.perf_counter()

    def update(self, done, summary):
        if done % self.every and done != self.total:
            return
        elapsed = time.perf_counter() - self.started
        left = pace_remaining(elapsed, done, self.total)
        self.console.print(ngettext("%(done)d/%(total)d game (%(share)s), %(elapsed)s so far, "
                                    "about %(left)s left: %(summary)s",
                                    "%(done)d/%(total)d games (%(share)s), %(elapsed)s so far, "
                                    "about %(left)s left: %(summary)s", self.total)
                           % {"done": done, "total": self.total,
                              "share": percent(done / float(self.total)),
                              "elapsed": _duration(elapsed), "left": _duration(left),
                              "summary": summary}, soft_wrap=True, highlight=False)


def pace_remaining(elapsed, done, total):
    """Seconds left for ``total - done`` games at the pace so far (``elapsed`` seconds
    for ``done`` games), ``None`` before the first game is done. The games of a process
    pool finish in bursts (several at once after a quiet while): the mean pace since the
    start, not the latest games' speed, gives a time left that does not jump to almost
    nothing after a burst."""
    if not done or elapsed is None:
        return None
    return elapsed / done * (total - done)


class PaceRemainingColumn(ProgressColumn):
    """The progress bar's time left (``h:mm:ss``, ``-:--:--`` before the first game) by
    ``pace_remaining``: Rich's own column takes the speed of the last few updates only,
    and after two games finished together said ``0:00:01`` left at 2 of 6."""

    def render(self, task):
        left = pace_remaining(task.elapsed, task.completed, task.total or 0)
        if left is None:
            return Text("-:--:--", style="progress.remaining")
        left = int(round(left))
        return Text("%d:%02d:%02d" % (left // 3600, left % 3600 // 60, left % 60),
                    style="progress.remaining")


def _plot_title(tally, args, edition, names):
    """The plot's title, so that a PNG passed around says what was played: the
    edition, seats, games (those finished when interrupted) and seed on its first
    line, the bots by seat on its second."""
    played = ngettext("%d game", "%d games", tally.games) % tally.games
    if tally.games < args.games:
        # TRANSLATORS: %(played)s is the games played ("3 games"), %(games)d those asked for
        played = _("%(played)s of %(games)d (interrupted)") % {"played": played,
                                                              "games": args.games}
    return "%s\n%s" % (_("%(edition)s edition, %(seats)s, %(games)s, seed %(seed)d")
                       % {"edition": edition_word(edition),
                          "seats": ngettext("%d seat", "%d seats", args.seats) % args.seats,
                          "games": played, "seed": args.seed},
                       _("bots by seat (rotated each game): %s") % ",".join(names))


def _write_plot(path, tally, args, edition, names):
    """Draw each policy's win share (points, 0-100) with its 95 % interval and the fair
    share ``100 / seats`` to ``path``, titled by ``_plot_title``."""
    seats = args.seats
    plt = plot_backend()
    rows = tally.rows()
    # wide enough for the title's two lines (about 60 characters at 10 points)
    fig, ax = plt.subplots(figsize=(max(6.4, 1.6 + 1.1 * len(rows)), 4.4))
    xs = list(range(len(rows)))
    # the Wilson interval is not symmetric: below and above the point apart
    ax.errorbar(xs, [100 * r[2] for r in rows],
                yerr=[[100 * (r[2] - r[3][0]) for r in rows],
                      [100 * (r[3][1] - r[2]) for r in rows]], fmt="o",
                capsize=6, color="#1f4e79")
    ax.axhline(100.0 / seats, color="#888888", linestyle="--",
               label=_("fair share %s") % percent(1.0 / seats, 1))
    ax.set_xticks(xs)
    ax.set_xticklabels(["%s\n%s" % (r[0], ngettext("%d seat", "%d seats", r[1]) % r[1])
                        for r in rows])
    ax.set_ylabel(_("win share in %% (%s interval)") % percent(0.95))
    ax.set_title(_plot_title(tally, args, edition, names), fontsize=10)
    ax.set_xlim(-0.6, len(rows) - 0.4)
    ax.set_ylim(0, 100)
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _checked(args):
    """The edition of ``args`` and the bots by seat, once every option is usable; raises
    ``CliError`` naming the first that is not (before any game)."""
    edition = get_edition(args.edition)
    if not edition.min_players <= args.seats <= edition.max_players:
        raise CliError(_("the %(edition)s edition is for %(fewest)d..%(most)d players, not "
                         "%(seats)d") % {"edition": edition_word(edition),
                                         "fewest": edition.min_players,
                                         "most": edition.max_players, "seats": args.seats})
    if args.games < 1:
        raise CliError(_("--games must be at least 1"))
    names = _policies(args)
    if args.workers is not None and args.workers < 1:
        raise CliError(_("--workers must be at least 1"))
    if args.scheduler and args.engine != "dask":
        raise CliError(_("--scheduler is for --engine dask"))
    if args.log:
        _check_log(args.log)
    if args.plot:
        plot_backend()  # a missing matplotlib is said before the games, not after
        # a kind of file it can't write, a folder mistyped: said before the games too
        # (s36 tester 17, s39 tester 13)
        plot_output(args.plot)
    return edition, names


def _check_log(path):
    """Refuse (``CliError``, one line naming the file and the option) a ``--log`` file
    that already holds a game: this run's games are numbered from 0 as every run's, so
    appending would mix two runs' games under the same numbers (s38 finding 5). The
    file is left as it is (``tests/bench/league_tables.py --run`` resumes a table's log,
    knowing its settings); an empty file is used, and one with a run's header alone (a
    run stopped before its first game: this run's header follows it). A folder, a
    missing folder or a file not to be written is refused as for ``--plot``
    (``output_file_problem``)."""
    problem = output_file_problem("--log", path)  # a folder, none, not to be written
    if problem:
        raise CliError(problem)
    header = tournament.LOG_HEADER.encode()
    try:
        with open(path, "rb") as fh:
            held = sum(1 for line in fh if line.strip() and not line.startswith(header))
    except OSError:  # none yet (or not to be read: appending is still checked above)
        return
    if held:
        raise CliError(ngettext(
            "--log %(path)s already holds %(n)d game of an earlier run, numbered from 0 as "
            "this run's would be: give --log a new file (that one is left as it is)",
            "--log %(path)s already holds %(n)d games of an earlier run, numbered from 0 as "
            "this run's would be: give --log a new file (that one is left as it is)",
            held) % {"path": path, "n": held})


def _open_log(path):
    """The ``--log`` file ``path`` opened for appending (text), with an exclusive advisory
    lock (``fcntl.flock``, not waiting; none where there is no ``fcntl``) held until it is
    closed: two runs writing one new log at once interleaved their lines (s40). Raises
    ``CliError`` in one line naming the file when another run holds it, or when it
    holds a game already (``_check_log``, checked again under the lock: a run that held
    it may have written its games); the file is left as it is then."""
    _check_log(path)  # a folder or a file not to be written: refused before it is made
    log = open(path, "a")
    try:
        if fcntl is not None:
            try:
                fcntl.flock(log.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise
                raise CliError(_("--log %s is in use by another pyramid tournament: give "
                                 "--log another file, or wait for that run to end (the "
                                 "file is left as it is)") % path) from None
        _check_log(path)
    except BaseException:
        log.close()
        raise
    return log


def _dask_client(args):
    """The Dask client of ``--engine dask`` (``None`` for another engine); raises
    ``CliError`` when Dask is missing or its scheduler can't be reached. With
    ``--scheduler``, one line on stderr first says it is connecting and how long Dask
    waits for an answer (``tournament.scheduler_timeout``)."""
    if args.engine != "dask":
        return None
    try:
        if args.scheduler:
            # a scheduler not answering is said only after Dask's wait (30 s): this line
            # says what the wait is for before it (s39 tester 14)
            wait = tournament.scheduler_timeout()
            print(_("connecting to the Dask scheduler %(address)s (waiting up to %(wait)s s)")
                  % {"address": args.scheduler,
                     "wait": decimal(wait, 0 if wait.is_integer() else 1)},
                  file=sys.stderr, flush=True)
        return tournament.dask_client(args.scheduler, min(args.workers or os.cpu_count()
                                                          or 1, args.games))
    except ImportError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(_("cannot reach the Dask scheduler %(address)s: %(why)s")
                       % {"address": args.scheduler, "why": exc}) from None


def _close(log, client):
    """Close the ``--log`` file and the Dask client; the command's own local cluster
    shuts down with Dask's warnings held back (a worker process killed at the
    shutdown, in English, printed between the progress and the results: s37 tester 13),
    the ``distributed`` logger's level as it was afterwards; a scheduler given with
    ``--scheduler`` is left as it is."""
    if log is not None:
        log.close()
    if client is not None:
        cluster = client.cluster
        if cluster is None:
            client.close()
            return
        dask_log = logging.getLogger("distributed")
        level = dask_log.level
        dask_log.setLevel(max(logging.ERROR, level))  # the games are done: no result here
        try:
            client.close()
            cluster.close()
        finally:
            dask_log.setLevel(level)


#: Columns the progress bar leaves free at the right of a terminal: the ``^C`` the
#: terminal echoes after it on Ctrl-C. On a full line the echo wrapped to a line of its
#: own, and Rich's last redraw, which goes back up as many lines as it drew, landed
#: there: the bar's last line was shown twice, once as it was and once redrawn.
ECHO_ROOM = 2


#: The progress bar's width when the line has room for it and every policy's share.
BAR_WIDTH = 16
#: A bar narrower than this is dropped rather than drawn: it would say nothing.
BAR_MIN = 6


def fit_shares(shares, room, width):
    """How the progress line shows the win shares: ``(bar, inline, below)`` for
    ``shares`` (per places of decimals, 1 then 0: each a list of ``name share`` strings
    in the tally's order), ``room`` the columns left on the line after the count and the
    times, ``width`` the columns of a whole line. ``bar`` is the bar's width (0: no bar),
    ``inline`` the shares on the line, ``below`` the lines under it that hold them when
    the line can't: every policy's share is shown, never cut off (s39 tester 1: at 80
    columns ``rando…``, and ``tiles`` never shown). In that order: the bar shrunk to
    make room (down to ``BAR_MIN``), the shares without their decimal, the bar dropped,
    then the shares on lines of their own, broken between policies (8 policies), the
    bar as the line has room for it."""
    for bare in (False, True):  # the bar kept first, at the cost of the decimal
        for parts in shares:
            text = " ".join(parts)
            free = room - len(text) - (0 if bare else 1)
            if bare and free >= 0:
                return 0, text, []
            if not bare and free >= BAR_MIN:
                return min(BAR_WIDTH, free), text, []
    below, line = [], ""
    for part in shares[0]:
        if line and len(line) + 1 + len(part) > width:
            below.append(line)
            line = ""
        line = part if not line else line + " " + part
    bar = min(BAR_WIDTH, room - 1)  # the line's own room: the bar only, shrunk or dropped
    return (bar if bar >= BAR_MIN else 0), "", below + [line]


class _SharesColumn(ProgressColumn):
    """The win shares the progress line has room for (``_Bar`` sets them)."""

    def render(self, task):
        return Text(task.fields.get("inline", ""), no_wrap=True, overflow="ellipsis")


class _Bar(Progress):
    """Rich's progress display, ``ECHO_ROOM`` columns narrower than the terminal: the
    count, the time so far and the time left, a bar, then every policy's running win
    share (laid out by ``fit_shares``), in ``update(task, shares=[...])``: a list per
    places of decimals (1, 0) of ``name share`` strings."""

    def __init__(self, console, **options):
        self._terminal = console  # read before Progress has its own (its first table)
        self._times = (MofNCompleteColumn(), TimeElapsedColumn(), PaceRemainingColumn())
        self._bar = BarColumn(bar_width=BAR_WIDTH)
        self._shares = _SharesColumn(table_column=Column(ratio=1, no_wrap=True))
        self._below = []
        Progress.__init__(self, *self._times, self._bar, self._shares, console=console,
                          **options)

    def make_tasks_table(self, tasks):
        width = max(20, self._terminal.width - ECHO_ROOM)
        below = []
        for task in tasks:
            shares = task.fields.get("shares")
            if not shares:
                continue
            # each column as wide as it draws, one space between columns
            used = sum(column(task).cell_len + 1 for column in self._times)
            bar, task.fields["inline"], below = fit_shares(shares, width - used, width)
            self._bar.bar_width = bar
            self.columns = self._times + ((self._bar,) if bar else ()) + (self._shares,)
        self._below = below
        table = Progress.make_tasks_table(self, tasks)
        table.width = width
        return table

    def get_renderables(self):
        yield self.make_tasks_table(self.tasks)
        for line in self._below:  # the shares the line had no room for
            yield Text(line, no_wrap=True, overflow="ellipsis")


def _tally_games(console, games, tally, log, total):
    """Every game of ``games`` into ``tally`` (and the log), with Rich's bar on a
    terminal, else a line now and then (``LineProgress``)."""
    if console.is_terminal:
        # the count and the times first (at 80 columns with 8 policies the shares came
        # first and pushed the count and the time left off the line), a bar, then every
        # policy's share (``fit_shares``)
        with _Bar(console, expand=True) as progress:
            task = progress.add_task("games", total=total)
            for index, result in games:
                _record(tally, log, index, result)
                progress.update(task, advance=1, shares=[_shares(tally, 1), _shares(tally, 0)])
    else:
        lines = LineProgress(console, total)
        for index, result in games:
            _record(tally, log, index, result)
            lines.update(tally.games, _summary(tally))


def _interval(low, high):
    """A win share's interval as the table writes it: ``(45.8–74.7)``, the en dash
    between the bounds and nothing padded inside the parenthesis."""
    return "(%s\u2013%s)" % (decimal(100 * low, 1), decimal(100 * high, 1))


def _print_results(console, tally):
    # the win share and its interval as one column (a share padded to 7, its interval
    # after it, the pair as wide as the widest: 100.0% (100.0–100.0)), then the coins;
    # "win share" as the --help and the plot say it (s39 tester 3: "win rate" here)
    rates = ["%7s %s" % (percent(rate, 1), _interval(low, high))
             for _name, _n, rate, (low, high), _coins, _chw in tally.rows()]
    head = _("win share (%s)") % percent(0.95)
    width = max([len(head)] + [len(r) for r in rates])
    console.print("%-8s %6s %-*s %20s" % (_("policy"), _("seats"), width, head,
                                          _("mean coins (%s)") % percent(0.95)))
    for (name, n, _rate, _i, coins, chw), rate in zip(tally.rows(), rates, strict=True):
        # the win share's Wilson interval (not symmetric, never empty at 0 or 100 %); the
        # coins' half-width needs two seats at least: one seat has none ("-", not 0.00)
        # written as the screen writes them: the range with an en dash, the half-width ±
        console.print("%-8s %6d %-*s %12s %s"
                      % (name, n, width, rate, decimal(coins, 2),
                         "\u00b1 %5s" % decimal(chw, 2) if n >= 2 else "%7s" % "-"))
    # one word a column, said in full on the line above (tester 4: 'per race  right in
    # the 1st leg' read as one heading); "laid correctly", not "on the right pile", which
    # read as the pile on the right (s39 tester 3)
    console.print(_("finish cards: laid per race; share laid correctly; share laid in "
                    "the 1st leg"))
    console.print("              %-8s %10s %8s %14s" % (_("policy"), _("laid/race"),
                                                       pgettext("finish cards", "correct"),
                                                       _("1st leg")))
    for name, per_race, right, first in tally.cards():
        # a policy that laid no finish card: its shares are "-", not 0 %
        console.print("              %-8s %10s %8s %14s"
                      % (name, decimal(per_race, 2), "-" if right is None else percent(right),
                         "-" if first is None else percent(first)))


def run(args):
    edition, names = _checked(args)
    # locked before the games and the Dask cluster start: a log another run is writing
    # is refused at once, nothing started
    log = _open_log(args.log) if args.log else None
    try:
        client = _dask_client(args)
    except BaseException:
        if log is not None:
            log.close()
        raise
    # no more processes than games: the others would only start and stop
    workers = min(args.workers or os.cpu_count() or 1, args.games)
    tally = tournament.Tally(names)
    console = Console(file=sys.stdout)
    if not console.is_terminal:
        # a log or a pipe has no width: a line is never wrapped there (the German
        # finish-card heading was cut mid-phrase at 80 columns)
        console.soft_wrap = True
    where = "" if client is None else _(" on Dask %s") % (args.scheduler or _("(a local cluster)"))
    # two lines, each within 80 columns for the usual bots: the set-up, then the policies
    console.print(_("tournament: %(edition)s edition, %(seats)s, %(games)s, seed %(seed)d, "
                    "%(workers)s%(where)s")
                  % {"edition": edition_word(edition),
                     "seats": ngettext("%d seat", "%d seats", args.seats) % args.seats,
                     "games": ngettext("%d game", "%d games", args.games) % args.games,
                     "seed": args.seed,
                     "workers": ngettext("%d worker", "%d workers", workers) % workers,
                     "where": where},
                  soft_wrap=True)
    for line in bots_lines(names, console.width if console.is_terminal else None):
        console.print(line, soft_wrap=True, highlight=False)
    if log is not None:
        # the run the games below are of: the lines alone said nothing of the seed, the
        # edition or the seats (s39 tester 4)
        log.write(tournament.log_header(names, edition.name, args.games, args.seed))
        log.flush()
    started = time.perf_counter()
    games = tournament.run(names, edition.name, args.games, args.seed, workers,
                           engine=args.engine, client=client)
    interrupted = False
    dask_level = logging.getLogger("distributed").level  # put back after a Ctrl-C
    try:
        _tally_games(console, games, tally, log, args.games)
    except KeyboardInterrupt:
        # Ctrl-C: the games not played are cancelled, those in flight dropped (closing
        # the generator stops its pool at once); the finished ones still make a table
        interrupted = True
        if client is not None:
            # Dask's workers log each cancelled game as a warning: the line below says it
            logging.getLogger("distributed").setLevel(logging.ERROR)
    finally:
        games.close()
        _close(log, client)
        if client is not None:
            logging.getLogger("distributed").setLevel(dask_level)
    elapsed = time.perf_counter() - started
    if interrupted:
        console.print(_interrupted_line(tally.games, args.games, args.log), highlight=False)
        if not tally.games:
            return 130
    console.print(ngettext("%(games)d game in %(seconds).0f s (%(each)s s per game)",
                           "%(games)d games in %(seconds).0f s (%(each)s s per game)",
                           tally.games)
                  % {"games": tally.games, "seconds": elapsed,
                     "each": decimal(elapsed / max(1, tally.games), 2)})
    _print_results(console, tally)
    if args.plot:
        written = plot_file(args.plot)
        _write_plot(written, tally, args, edition, names)
        console.print(_("plot written to %s") % written, soft_wrap=True, highlight=False)
    return 130 if interrupted else 0


def bots_lines(names, width=None):
    """The header's line of the bots by seat (``names``, policy names in seat order):
    ``bots by seat (rotated each game): coach,greedy,...``, as lines of at most ``width``
    columns broken after a comma, never inside a name (8 policies at 80 columns are 90:
    the terminal broke ``partner`` in two); the lines after the first indented by 2 (the
    heading alone on its line when not even the first name fits after it). ``width``
    ``None`` (a pipe, a log): one line. A name longer than a line stays whole."""
    head = _("bots by seat (rotated each game): %s") % ""
    lines, line = [], head
    for i, name in enumerate(names):
        word = name + ("," if i < len(names) - 1 else "")
        if width is not None and len(line) + len(word) > width and line != "  ":
            lines.append(line.rstrip())  # the heading alone when even one name is too long
            line = "  "
        line += word
    return lines + [line]


def _interrupted_line(done, total, log):
    """What a Ctrl-C left: ``interrupted after 20 of 200 games: the table below is of
    these 20 only`` and, with ``--log``, that the file keeps them."""
    if not done:
        line = _("interrupted before the first of %d games finished") % total
    else:
        line = ngettext("interrupted after %(done)d of %(games)d games: the table below is of "
                        "that game only",
                        "interrupted after %(done)d of %(games)d games: the table below is of "
                        "those games only", done) % {"done": done, "games": total}
    if log and done:
        line += " " + ngettext("(%s keeps the finished game)", "(%s keeps the finished games)",
                               done) % log
    return line


def _record(tally, log, index, result):
    tally.add(result)
    if log is not None:
        log.write(tournament.log_line(index, result))
        log.flush()
