"""CPU seconds of the test suite, per test file: a pytest plugin and its summary.

Wall time says little on a shared machine (a loaded 2-core box stretches it tenfold);
CPU time is what a test costs. Each test's CPU is counted in the process that runs
it (this process's user + system time, plus its children's once they were waited
for: a ``pyramid play``, MicroPython or mpy-cross run; a browser started for a whole
module counts where it exits), and summed per file, per xdist worker.

Measure (one JSON file per worker; ``%s`` becomes the worker's name)::

    PYTHONPATH=tests/bench TEST_CPU_OUT=/tmp/cpu-%s.json \\
        nice .venv/bin/python -m pytest -q -n 2 -p cpu_per_file -m "not emu" tests/

Summarise, and compare with an earlier run::

    .venv/bin/python tests/bench/cpu_per_file.py '/tmp/cpu-*.json' ['/tmp/cpu-before-*.json']

Prints the total and the files by CPU, most first: CPU seconds (own + children), the
wall seconds spent in them and the number of tests (with an earlier run: its CPU too).
Not a test: it never fails on a number (the name lets ``-p cpu_per_file`` find it).
"""

import glob
import json
import os
import resource
import sys
import time

import pytest

_PER_FILE = {}  # file -> [own CPU s, children's CPU s, wall s, tests]


def _cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Count one test (setup, call, teardown) against its file."""
    own, children = _cpu()
    start = time.perf_counter()
    yield
    own2, children2 = _cpu()
    row = _PER_FILE.setdefault(item.nodeid.split("::")[0], [0.0, 0.0, 0.0, 0])
    row[0] += own2 - own
    row[1] += children2 - children
    row[2] += time.perf_counter() - start
    row[3] += 1


def pytest_sessionfinish(session):
    out = os.environ.get("TEST_CPU_OUT")
    if out and _PER_FILE:
        if "%s" in out:
            out = out % os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(out, "w") as f:
            json.dump(_PER_FILE, f, indent=0)


def load(pattern):
    """``{file: [own, children, wall, tests]}`` summed over the JSON files of ``pattern``."""
    per = {}
    for path in glob.glob(pattern):
        with open(path) as f:
            for name, row in json.load(f).items():
                total = per.setdefault(name, [0.0, 0.0, 0.0, 0])
                for i in range(4):
                    total[i] += row[i]
    return per


def summary(now, before=None, most=40):
    """The lines of the summary of ``now`` (``load``'s dict), beside ``before`` if given."""
    def cpu(row):
        return row[0] + row[1]

    lines = ["total CPU %.1f s (own %.1f, children %.1f), %.0f s wall in tests, %d tests"
             % (sum(cpu(r) for r in now.values()), sum(r[0] for r in now.values()),
                sum(r[1] for r in now.values()), sum(r[2] for r in now.values()),
                sum(r[3] for r in now.values()))]
    if before:
        lines.append("before, the same files: CPU %.1f s" % sum(cpu(r) for n, r in before.items() if n in now))
    for name, row in sorted(now.items(), key=lambda kv: -cpu(kv[1]))[:most]:
        was = "" if not before or name not in before else "  (before %.1f)" % cpu(before[name])
        lines.append("%7.1f s CPU %7.1f s wall %4d tests  %s%s" % (cpu(row), row[2], row[3], name, was))
    return lines


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: cpu_per_file.py 'NOW-*.json' ['BEFORE-*.json']")
    print("\n".join(summary(load(sys.argv[1]), load(sys.argv[2]) if len(sys.argv) == 3 else None)))
