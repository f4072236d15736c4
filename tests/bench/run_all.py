"""Run every benchmark (``tests/bench/bench_*.py``) and print its figures.

Each benchmark module defines ``main() -> None`` that prints its own table of
figures and ratios. Benchmarks are not tests: they never fail on a number, they
report it (the issue notes quote these figures). ``bench_web`` drives Debian's
headless Chromium shell (tests/headless.py, installed by .ci/run) and says so when it is
missing.
"""

import glob
import importlib.util
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    wanted = set(argv)
    for path in sorted(glob.glob(os.path.join(HERE, "bench_*.py"))):
        name = os.path.basename(path)[len("bench_"):-3]
        if wanted and name not in wanted:
            continue
        spec = importlib.util.spec_from_file_location("bench_" + name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print("=" * 72)
        print("bench:", name)
        print("=" * 72)
        started = time.perf_counter()
        module.main()
        print("(%s took %.1f s)" % (name, time.perf_counter() - started))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
