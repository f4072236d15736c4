"""Fuzz the table's command parser (issue 10): mutated command lines through
``camelhost.table.parser.parse_command`` in every phase of the table.

Prints the strings tried, the events and ``TableError`` refusals they gave, any other
exception (the target is 0), and the time per line. Seeded: the same run every time.
Run: ``.venv/bin/python tests/bench/fuzz_table.py [COUNT] [SEED]`` (default 100,000, 1).
"""

import random
import sys
import time
import traceback

from camelhost.table.parser import parse_command
from camelhost.table.session import Session, TableError

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"]
CORPUS = [
    "leg red", "leg b", "tile 7 +", "tile 12 -", "cheer 4", "boo 9", "oasis 3", "win red",
    "lose pu", "finish winner blue", "partner Eve", "partner 3", "pyramid", "red 2",
    "grey white 3", "g b 1", "red ?", "1", "2", "3", "b", "w", "again", "undo", "unscored",
    "draw", SETUP, "fix 7:red,blue", "fix 4:", "fix 2:black 3:white", "orange 2", "?",
]
ODD = ["\u00b2", "\u0662", "\uff17", "\x00", "\x1b[2J", "\x7f", "\u2028", "\ufeff", "\u0301",
       "9" * 50, "9" * 5000, ":", ",", " ", "\t", "-", "+", "\U0001f42a", "\udcff"]


def sessions():
    """A session in each phase: setup (part-way), turn, die, value, ink, over."""
    out = []
    s = Session("second", SIX, seed=4)
    s.command("red 2")
    out.append(s)
    for edition, setup in (("second", SETUP), ("classic", "setup 1:blue 2:green,orange "
                                                          "3:yellow,white")):
        s = Session(edition, SIX, seed=4)
        s.command(setup)
        out.append(s)
    s = Session("second", SIX, seed=4)
    s.command(SETUP)
    s.command("pyramid")
    out.append(s)
    s = Session("second", SIX, seed=4)
    s.command(SETUP)
    s.command("red ?")
    out.append(s)
    s = Session("second", SIX, seed=4)
    s.command(SETUP)
    s.feed({"type": "die", "colour": "grey", "ink": None, "value": 2, "best": "grey-white"})
    out.append(s)
    s = Session("classic", ["Ann", "Ben"], seed=4)
    s.command("setup 16:blue,green,orange,yellow,white")
    s.command("pyramid")
    s.command("blue 1")
    out.append(s)
    return out


def mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        at = rng.randint(0, len(chars))
        if op == 0 and chars:
            del chars[min(at, len(chars) - 1)]
        elif op == 1:
            chars[at:at] = list(rng.choice(ODD))
        elif op == 2:
            chars[at:at] = [chr(rng.randrange(0x110000))]
        elif op == 3:
            chars[at:at] = list(rng.choice(CORPUS))
        elif op == 4 and chars and len(chars) < 200:
            chars = chars * rng.randint(2, 60)  # long lines, up to about 12,000 characters
        else:
            chars[at:at] = [chr(rng.randrange(32, 127))]
    return "".join(chars)


def main(count=100000, seed=1):
    rng = random.Random(seed)
    tables = sessions()
    events = refused = crashed = 0
    longest = 0
    first = None
    started = time.perf_counter()
    for i in range(count):
        text = mutate(rng, rng.choice(CORPUS))
        longest = max(longest, len(text))
        session = tables[i % len(tables)]
        try:
            parse_command(text, session)
            events += 1
        except TableError as exc:
            refused += 1
            if "\n" in str(exc):
                crashed += 1
                first = first or (text, "a message of more than one line")
        except Exception:  # noqa: BLE001 - what the fuzzer looks for
            crashed += 1
            first = first or (text, traceback.format_exc().splitlines()[-1])
    took = time.perf_counter() - started
    print("table command parser fuzz: %d strings (seed %d, longest %d characters), "
          "%d phases" % (count, seed, longest, len(tables)))
    print("  events %d, one-line refusals %d, other exceptions %d (target 0)"
          % (events, refused, crashed))
    print("  %.1f us per line" % (1e6 * took / count))
    if first:
        print("  first failure: %r -> %s" % (first[0][:80], first[1]))
    return crashed


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    sys.exit(1 if main(*args) else 0)
