"""Crash test: SIGKILL the table program at random points, resume from the journal.

A whole game is first played in-process (bots choose, dice drawn from a seed) to
get the commands typed at the table and the final scores. Then the real
``pyramid play --pyramid manual --plain`` process is fed those commands and killed
with SIGKILL a dozen times at random points; each restart uses ``--resume`` and
continues from what the journal holds. The final scores must equal the
uninterrupted run's, and the journal must replay to them in the rules engine.
"""

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from camelhost.device.virtual import VirtualPyramid
from camelhost.table import bots
from camelhost.table.journal import read_events
from camelhost.table.session import Session
from camelup.rng import XorShift32
from test_demo import replay_in_engine

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
PYRAMID = os.path.join(os.path.dirname(sys.executable), "pyramid")


def scripted_game(edition, seed):
    """Commands of one whole game (one journal event each) and its final coins."""
    s = Session(edition, PLAYERS, seed=seed)
    rng = XorShift32(seed)
    lines = ["draw"]
    s.command("draw")
    while s.phase != "over":
        text, _ = bots.choose(s.game, s.names, quick=True)
        if text == "pyramid":
            inside = s.game.dice_in_pyramid()
            die = inside[rng.below(len(inside))]
            value = 1 + rng.below(3)
            if die == "grey":
                text = "grey %s %d" % (("black", "white")[rng.below(2)], value)
            else:
                text = "%s %d" % (die, value)
        s.command(text)
        lines.append(text)
    return lines, s.result["coins"]


def _events(path):
    if not os.path.exists(path):
        return []
    return read_events(path)


def _start(path, seed):
    args = [PYRAMID, "play", "--pyramid", "manual", "--plain", "--seed", str(seed)]
    if _events(path):
        args += ["--resume", path]
    else:
        if os.path.exists(path):
            os.unlink(path)  # killed before even the first line was whole
        args += ["--players", ",".join(PLAYERS), "--edition", EDITION, "--journal", path]
    return subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


EDITION = "second"
SEED = 11


@pytest.mark.slow
def test_sigkill_at_random_points_then_resume_gives_the_same_final_scores(tmp_path):
    lines, coins = scripted_game(EDITION, seed=SEED)
    expect = ", ".join("%s %d" % (n, c) for n, c in zip(PLAYERS, coins, strict=True))
    # the uninterrupted run
    whole = _start(str(tmp_path / "whole.jsonl"), SEED)
    out, err = whole.communicate(("\n".join(lines) + "\n").encode(), timeout=120)
    assert whole.returncode == 0, err.decode()
    assert ("FINAL SCORES: " + expect + " |") in out.decode()
    rng = random.Random(2026)
    path = str(tmp_path / "game.jsonl")
    kills = 0
    while kills < 12:
        done = max(0, len(_events(path)) - 1)  # events after the game line = lines taken
        assert done < len(lines), "the game finished before all kills were made"
        proc = _start(path, SEED)
        cut = min(len(lines) - 1, done + rng.randint(1, max(2, len(lines) // 6)))
        proc.stdin.write(("\n".join(lines[done:cut]) + "\n").encode())
        proc.stdin.flush()
        # Wait until it has answered a random number of those commands (each answer
        # ends with a prompt line), then kill it wherever it is in the next one:
        # reading, applying, writing the journal or printing.
        answers = rng.randint(0, cut - done)
        seen = -1  # the first prompt comes before any command
        while seen < answers:
            line = proc.stdout.readline()
            assert line, proc.stderr.read().decode()
            if line.startswith(b"> "):
                seen += 1
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        kills += 1
    done = max(0, len(_events(path)) - 1)
    proc = _start(path, SEED)
    out, err = proc.communicate(("\n".join(lines[done:]) + "\n").encode(), timeout=120)
    assert proc.returncode == 0, err.decode()
    final = [x for x in out.decode().splitlines() if x.startswith("FINAL SCORES")]
    assert final and final[-1].startswith("FINAL SCORES: " + expect)
    events = read_events(path)
    assert len(events) == len(lines) + 1  # nothing lost, nothing doubled
    assert replay_in_engine(events)["coins"] == coins


def _wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))


def _pyramid_dice(path):
    return [e for e in _events(path) if e["type"] in ("die", "rejected") and e.get("boot")]


@pytest.mark.slow
@pytest.mark.hil
@pytest.mark.micropython
def test_sigkill_between_a_slider_push_and_its_journal_line_then_resume_takes_that_die(tmp_path, micropython):
    """The host is killed while the die of a push is on its way (frozen with SIGSTOP, so
    it has not read it, then SIGKILL); ``--resume`` takes that same die from the
    pyramid's store: no second push, the die journaled once with its boot and seq."""
    path = str(tmp_path / "game.jsonl")
    with VirtualPyramid("second", seed=17, value_buttons=True) as vp:
        args = [PYRAMID, "play", "--plain", "--pyramid", vp.port, "--players", "Ann,Ben,Cy",
                "--seed", "17", "--journal", path]
        host = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            host.stdin.write(b"draw\npyramid\n")
            host.stdin.flush()
            _wait_for(lambda: any(e["type"] == "pyramid" for e in _events(path)), 60,
                      "the pyramid ticket in the journal")
            host.send_signal(signal.SIGSTOP)  # it reads nothing from now on
            released = vp.release()  # waits for the firmware's event
            host.send_signal(signal.SIGKILL)
            host.communicate(timeout=30)
        finally:
            if host.poll() is None:
                host.kill()
                host.communicate()
        assert _pyramid_dice(path) == []  # the crashed host never wrote the die down
        resumed = subprocess.Popen([PYRAMID, "play", "--plain", "--resume", path,
                                    "--pyramid", vp.port],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        try:
            _wait_for(lambda: _pyramid_dice(path), 60, "the die on its way, after --resume")
            resumed.stdin.write(b"quit\n")
            resumed.stdin.flush()
            out, err = resumed.communicate(timeout=30)
        finally:
            if resumed.poll() is None:
                resumed.kill()
                resumed.communicate()
        assert resumed.returncode == 0, err.decode()
        assert len(vp.events) == 1  # one push, one event: nothing released again
    (die,) = _pyramid_dice(path)
    assert (die["boot"], die["seq"]) == (released.boot, released.seq)
    assert (die["colour"], die.get("value")) == (released.event["col"], released.event["val"])
