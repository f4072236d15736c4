"""Cross-runtime: the rules engine gives identical results under CPython and MicroPython.

The same transcripts replayed by the MicroPython unix port yield the same final positions,
coins and winners; seeded random races (setup and play via camelup.rng) come out the
same; every acceptance scenario passes there too.
"""

import io
import os
import subprocess
import sys
from contextlib import redirect_stdout

import pytest
from camelhost import paths
from camelup.randomplay import random_game
from camelup.transcript import transcript_of

pytestmark = pytest.mark.micropython

MP_DIR = os.path.join(os.path.dirname(__file__), "mp")
SCN_DIR = os.path.join(os.path.dirname(__file__), "scenarios")


def run_cpython(script, *args):
    done = subprocess.run([sys.executable, os.path.join(MP_DIR, script)] + list(args),
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=paths.SHARED_DIR))
    assert done.returncode == 0, done.stderr
    return done.stdout


def run_mp(micropython, script, *args):
    done = micropython([os.path.join(MP_DIR, script)] + list(args), timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_transcripts_replay_identically(micropython, tmp_path):
    chunks = []
    for i, (edition, players) in enumerate([("classic", 2), ("classic", 5), ("classic", 8),
                                            ("second", 3), ("second", 6), ("second", 8)] * 5):
        g = random_game(edition, players, 1000 + i)
        # cut some races short so unfinished positions are compared too
        while i % 3 == 0 and len(g.history) > 7:
            g.pop()
        chunks.append(transcript_of(g))
    path = tmp_path / "games.txt"
    path.write_text("\n====\n".join(chunks))
    on_mp = run_mp(micropython, "replay.py", str(path))
    on_cpython = run_cpython("replay.py", str(path))
    assert on_mp == on_cpython
    lines = on_mp.splitlines()
    assert len(lines) == 3 * len(chunks)
    assert sum(1 for x in lines if x == "winners running") == 10


@pytest.mark.parametrize("edition,players", [("classic", 4), ("second", 7)])
def test_seeded_random_races_match(micropython, edition, players):
    on_mp = run_mp(micropython, "random_games.py", edition, str(players), "0", "60")
    on_cpython = run_cpython("random_games.py", edition, str(players), "0", "60")
    assert on_mp == on_cpython
    assert len(on_mp.splitlines()) == 60
    # and the in-process engine agrees with the subprocess output line by line
    buf = io.StringIO()
    with redirect_stdout(buf):
        for seed in range(60):
            g = random_game(edition, players, seed)
            print("%d %d %s" % (seed, len(g.history), g.position()))
    assert buf.getvalue() == on_cpython


def test_acceptance_scenarios_pass_under_micropython(micropython):
    """Every scenario file passes under MicroPython, and the output (each case's verdict
    and its position before every step) is byte for byte the CPython one."""
    files = sorted(os.path.join(SCN_DIR, f) for f in os.listdir(SCN_DIR) if f.endswith(".scn"))
    var = os.path.join(SCN_DIR, "variants")
    files += sorted(os.path.join(var, f) for f in os.listdir(var) if f.endswith(".scn"))
    # the full second-edition legs of the odds cases (P2a, P2b) need more than the unix
    # port's default heap
    done = micropython([os.path.join(MP_DIR, "check_scenarios.py")] + files, timeout=300,
                       heapsize="32M")
    assert done.returncode == 0, done.stderr
    on_mp = done.stdout
    assert on_mp == run_cpython("check_scenarios.py", *files)
    verdicts = [x for x in on_mp.splitlines() if not x.startswith("  ")]
    assert len(verdicts) >= 300 and len(verdicts) >= len(files)
    assert [x for x in verdicts if not x.endswith(" ok")] == []
    assert len(on_mp.splitlines()) > 2 * len(verdicts)  # positions were compared too


def test_illegal_action_and_parse_error_under_micropython(micropython):
    code = (
        "from camelup.errors import IllegalAction, NotationError\n"
        "from camelup.game import Game\n"
        "g = Game.random('second', 3, 5)\n"
        "before = g.position()\n"
        "try:\n g.push('leg white')\nexcept IllegalAction as e:\n print('illegal', e)\n"
        "try:\n g.push('pyramid red 7')\nexcept NotationError as e:\n print('notation', e)\n"
        "print(isinstance(IllegalAction('x'), ValueError), g.position() == before)\n"
    )
    done = micropython(code)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("illegal leg white: white is not a racing camel")
    assert lines[1].startswith("notation a die shows 1, 2 or 3, got 7")
    assert lines[2] == "True True"


def test_named_refusals_read_the_same_under_micropython(micropython):
    # s46: the engine's messages of two or more arguments name them (``%(space)d``,
    # ``Message(..., space=4)``); the unix port fills them in as CPython does
    code = (
        "from camelup.errors import Message, NotationError, IllegalAction\n"
        "from camelup.game import Game, parse_position\n"
        "g = Game.random('second', 4, 5)\n"
        "for text in ('tile 99 +', 'partner 2', 'leg grey', 'grey red 2', 'tile x +'):\n"
        " try:\n  g.push(text)\n except (IllegalAction, NotationError) as e:\n  print(e)\n"
        "try:\n parse_position(g.position().replace('pyramid 5', 'pyramid 2'))\n"
        "except NotationError as e:\n print(e)\n"
        "print(Message('%(a)s %(b)r %(c)+d %%', a='x', b='y', c=3))\n"
        "print(Message('seat %s', 'p2'))\n"
    )
    done = micropython(code)
    assert done.returncode == 0, done.stderr
    on_cpython = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                timeout=60, env=dict(os.environ, PYTHONPATH=paths.SHARED_DIR))
    assert on_cpython.returncode == 0, on_cpython.stderr
    assert done.stdout == on_cpython.stdout
    lines = done.stdout.splitlines()
    assert len(lines) == 8, lines
    assert lines[-2:] == ["x 'y' +3 %", "seat p2"]
