"""What choosing costs in a folder of many games: ``pyramid play --resume FOLDER`` and
``pyramid replay FOLDER`` on a folder of ``N`` finished demo journals (``pyramid demo
--journal``, seeds 1..N, four seats, second edition, the bots' quick choice:
``bots.choose(quick=True)``, so that the folder takes minutes, not an hour) and one
unfinished game, the newest (Ann, Ben, Cy, Dee at a manual pyramid: its setup and two
leg tickets, as a crash leaves it), the files' times one second apart.

    nice python tests/bench/bench_resume_folder.py [N] [--dir FOLDER] [--oldest]

The folder is made once (a demo takes about 1 s of CPU so) and kept in
``--dir`` (default ``$TMPDIR/pyramid-bench-resume-N``), then reused. ``--oldest``
makes the unfinished game the oldest file instead (every finished one is then looked
at before it, as the table must to know its race is over). Reported, per command: the
CPU of choosing (``play.newest_unfinished``, ``replay.newest_journal``, in this
process, the median of 5) and the CPU of the whole command as a child process
(``resume`` quits at once; ``replay --brief``, stdout thrown away). Benchmarks report,
they never fail. docs/table.md quotes the figures of ``N`` = 200.
"""

import contextlib
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "shared"))
sys.path.insert(0, os.path.join(ROOT, "host"))

from camelhost import cli  # noqa: E402
from camelhost.commands import play, replay  # noqa: E402
from camelhost.table import bots  # noqa: E402
from camelhost.table.journal import Journal  # noqa: E402
from camelhost.table.session import Session  # noqa: E402

WRITTEN = 1_796_000_000  # the first file's time (seconds since the epoch)
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _quick_bots():
    """The demo's bots choose as the tests' quick bots do (``bots.choose(quick=True)``)."""
    real = bots.choose
    bots.choose = lambda game, names=None, quick=False: real(game, names, quick=True)


def make_folder(folder, count, oldest):
    """``folder`` holding ``count`` finished demo journals and one unfinished game (made
    once: files there already are kept); the unfinished game's path."""
    os.makedirs(folder, exist_ok=True)
    _quick_bots()
    for seed in range(1, count + 2):
        path = os.path.join(folder, "demo-%03d.jsonl" % seed)
        if os.path.exists(path):
            continue
        part = path + ".part"
        if seed == count + 1:  # the unfinished game, waiting for Cy
            with Journal(part, pyramid="manual") as journal:
                session = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=seed,
                                  journal=journal)
                for line in (SETUP, "leg red", "leg blue"):
                    session.command(line)
        else:
            with contextlib.redirect_stdout(io.StringIO()):
                cli.main(["demo", "--seed", str(seed), "--quiet", "--journal", part])
        os.replace(part, path)
        print("made %s" % path, file=sys.stderr)
    unfinished = os.path.join(folder, "demo-%03d.jsonl" % (count + 1))
    for seed in range(1, count + 2):
        path = os.path.join(folder, "demo-%03d.jsonl" % seed)
        second = WRITTEN + seed if not (oldest and path == unfinished) else WRITTEN - 1
        os.utime(path, (second, second))
    return unfinished


def cpu_of(call, times=5):
    """The median CPU seconds of ``call()`` in this process over ``times`` calls."""
    spent = []
    for _ in range(times):
        start = time.process_time()
        call()
        spent.append(time.process_time() - start)
    return statistics.median(spent)


def child_cpu(argv, stdin=b""):
    """CPU seconds (user + system) of ``pyramid ARGV`` run as a child process, from the
    tree this script is in (a copy of an older commit measures that commit)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "shared"), os.path.join(ROOT, "host")]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "import sys; from camelhost.cli import main; "
                    "sys.exit(main())"] + argv, input=stdin, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv):
    count = int(next((a for a in argv if a.isdigit()), "200"))
    oldest = "--oldest" in argv
    folder = (argv[argv.index("--dir") + 1] if "--dir" in argv else
              os.path.join(tempfile.gettempdir(), "pyramid-bench-resume-%d" % count))
    unfinished = make_folder(folder, count, oldest)
    chosen, _skipped = play.newest_unfinished(folder)
    assert chosen.path == unfinished, chosen.path
    shown, _copies = replay.newest_journal(folder)
    print("folder %s: %d finished journals and 1 unfinished (the %s)"
          % (folder, count, "oldest" if oldest else "newest"))
    print("choosing, play --resume FOLDER: %.3f s CPU"
          % cpu_of(lambda: play.newest_unfinished(folder)))
    print("choosing, replay FOLDER:        %.3f s CPU"
          % cpu_of(lambda: replay.newest_journal(folder)))
    print("pyramid play --resume FOLDER --plain (quit): %.2f s CPU"
          % child_cpu(["play", "--resume", folder, "--plain"], b"quit\n"))
    print("pyramid replay --brief FOLDER:               %.2f s CPU"
          % child_cpu(["replay", "--brief", folder]))
    print("(replay shows %s)" % os.path.basename(shown))


if __name__ == "__main__":
    main(sys.argv[1:])
