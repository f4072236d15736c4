"""Fuzz benchmark (``make fuzz``): mutated input through every parser the product exposes.

* ``--lines`` (1,000,000) mutated device lines through the host link's per-line path
  (``Link.feed`` on a link never opened: framing, decoding, the sequence logic);
* the same number of mutated host lines through the firmware's command path under
  the MicroPython unix port (``LineAssembler`` -> ``parse_line`` -> ``App.handle``,
  as the ``rx`` task runs them, on fake hardware);
* ``--commands`` (100,000) strings through the table's command parser
  (``Session.parse_command``, in the setup, turn and value phases);
* ``--positions`` (100,000) mutated positions through ``camelup.game.parse_position`` (reading ``camelup.notation.read_position``);
* ``--journals`` (20) journals of whole races played by bots through the session, each
  with every single line deleted, doubled, swapped with every other line, and a line of
  another game inserted at every place: each must be refused naming the line with the
  chain's reason, read as ``--resume`` reads it
  (``JournalError``), 0 accepted; the last line deleted (a cut at the end, which the file
  cannot show) is counted apart.

Half of the mutated lines get a correct CRC after the mutation, so they reach the
message decoder and the handlers, not only the checksum. The documented errors are:
none for the link and the firmware (they never raise for input), ``TableError`` for
the command parser, ``NotationError`` for the notation. Anything else is counted,
and its first examples are printed. Every random source is seeded (``--seed``).
Prints per-line (per-string) time.
"""

import argparse
import json
import logging
import os
import random
import subprocess
import sys
import tempfile
import time

from camelhost import paths
from camelhost.device.link import Link
from camelhost.device.micropython import find_micropython, micropython_env
from camelup.board import protocol

B1, B2 = "1A2B3C4D", "5E6F7081"

#: valid device lines to mutate (every device message, a few of them per boot)
DEVICE = [
    protocol.encode("HELLO", proto=1, fw="0.1.0", uid="E66141040327582E", boot=B1, seq=3, oldest=1, ed="second",
                    sensor="ok", vb=False, prev=None, acked=1),
    protocol.encode("HELLO", proto=1, fw="0.1.0", uid="E66141040327582E", boot=B2, seq=0, oldest=1, ed="second",
                    sensor="ok", vb=True, prev=(B1, 9), acked=0),
    protocol.encode("EVT", "die", seq=1, boot=B1, col="red", val=2, m=310, raw=(900, 400, 200, 150)),
    protocol.encode("EVT", "die", seq=2, boot=B1, col="grey", ink="white", val=None, m=120, raw=(1, 2, 3, 4)),
    protocol.encode("EVT", "die", seq=4, boot=B1, col="blue", val=1, m=99, raw=(5, 6, 7, 8)),
    protocol.encode("EVT", "nodie", seq=3, boot=B1),
    protocol.encode("EVT", "double", seq=5, boot=B1, raw=(9, 8, 7, 6)),
    protocol.encode("EVT", "unknown", seq=6, boot=B1, best="grey-black", val=3, raw=(1, 1, 1, 1)),
    protocol.encode("EVT", "fault", seq=7, boot=B1, code="eio"),
    protocol.encode("EVT", "die", seq=1, boot=B2, col="green", val=3, m=500, raw=(1, 2, 3, 4)),
    protocol.encode("HB", boot=B1, seq=7, up=12, sensor="ok"),
    protocol.encode("HB", boot=B2, seq=4294967295, up=1, sensor="fault"),
    protocol.encode("GAP", first=2, last=5, boot=B1),
    protocol.encode("SYNCED", seq=7, boot=B1, next=B2),
    protocol.encode("SYNCED", seq=3, boot=B1, next=B2, known=False),
    protocol.encode("PONG", token="p1"),
    protocol.encode("RAW", on=(1, 2, 3, 4), off=(0, 0, 0, 0), label="red", m=3, sl=True),
    protocol.encode("SAMPLE", token="c1", on=(1, 2, 3, 4), off=(0, 0, 0, 0)),
    protocol.encode("CFG", ed="classic", it=24, gain=16, vb=True),
    protocol.encode("OK", cmd="PROF", n=96),
    protocol.encode("NAK", reason="crc"),
]
#: valid host lines to mutate (every host message)
HOST = [
    protocol.encode("HELLO?"),
    protocol.encode("SYNC", seq=0),
    protocol.encode("SYNC", seq=2, boot=B1, to=9),
    protocol.encode("ACK", seq=3, boot=B1),
    protocol.encode("PING", token="abc"),
    protocol.encode("STREAM", period=100),
    protocol.encode("STREAM", period=0),
    protocol.encode("CAL", token="c7"),
    protocol.encode("SET", ed="classic", gain=16, it=24, vb=True),
    protocol.encode("SET"),
    protocol.encode("PROF", offset=0, chunk='{"edition":"second","classes":{}}'),
    protocol.encode("SAVE", length=33, crc="0A1B2C3D"),
]
_NASTY = ["0", "4294967295", "4294967296", "99999999999999999999", "-1", "?", "", "=", "==", " ", "*",
          "boot=", "seq=", "\x7f", "ZZZZZZZZ", "00000000", "1" * 40, "grey-black", "none"]


def mutate(line, rng):
    """One mutated line (bytes, newline included) from a valid framed ``line``."""
    body = line[:-10]  # without *CRC\n
    choice = rng.randrange(10)
    if choice == 0:  # random bytes
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 260))) + b"\n"
    data = bytearray(body if choice < 7 else line[:-1])
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(7)
        pos = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[min(pos, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[pos:pos] = bytes([rng.randrange(32, 127)])
        elif op == 2 and data:
            del data[pos:pos + rng.randrange(1, 8)]
        elif op == 3:  # a token replaced by a nasty one
            parts = bytes(data).split(b" ")
            i = rng.randrange(len(parts))
            key = parts[i].split(b"=", 1)
            nasty = rng.choice(_NASTY).encode()
            parts[i] = key[0] + b"=" + nasty if len(key) == 2 and rng.random() < 0.7 else nasty
            data = bytearray(b" ".join(parts))
        elif op == 4:  # a field repeated or a stray key
            data += b" " + rng.choice((b"seq=1", b"boot=" + B1.encode(), b"x=y", b"next=" + B2.encode(), b"to=0"))
        elif op == 5 and data:
            data = data[:pos]
        else:
            data = data * rng.randrange(1, 3)
    if choice < 7:
        body = bytes(b for b in data if 0x20 <= b <= 0x7E)
        try:
            return protocol.frame(body.decode())  # a valid CRC over the mutated body
        except protocol.ProtocolError:
            return bytes(data) + b"\n"
    return bytes(data) + b"\n"


def fuzz_link(n, seed):
    """Mutated device lines through ``Link.feed``: ``(seconds, exceptions, examples, stats)``."""
    logging.getLogger("camelhost.device.link").setLevel(logging.CRITICAL)
    rng = random.Random(seed)
    link = Link("loop://")
    bad, examples = 0, []
    t0 = time.perf_counter()
    for i in range(n):
        line = mutate(rng.choice(DEVICE), rng) if rng.random() < 0.9 else rng.choice(DEVICE)
        try:
            link.feed(line)
        except Exception as exc:  # noqa: BLE001 - what the benchmark counts
            bad += 1
            if len(examples) < 5:
                examples.append("%r -> %s: %s" % (line[:80], type(exc).__name__, exc))
        if i % 1000 == 999:
            link.pending_events()
            if rng.random() < 0.05:
                link = Link("loop://")  # a fresh link now and then: first-contact paths
    elapsed = time.perf_counter() - t0
    assert link.sequencer.held <= 512  # bounded, whatever the seqs
    return elapsed, bad, examples, dict(link.stats)


MP_SCRIPT = r"""
import sys
import camelup.board.protocol as protocol
from pyramid import app as app_mod
from pyramid import settings as settings_mod
from pyramid.link import LineReader, nak, parse_line

N = int(sys.argv[1]); SEED = int(sys.argv[2]); CORPUS = sys.argv[3]

class Pin:
    def __init__(self, level=1):
        self.level = level
    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v
    def on(self):
        self.level = 1
    def off(self):
        self.level = 0

class Sensor:
    last_on = (100, 50, 40, 30)
    last_off = (10, 5, 4, 3)
    def sample(self):
        return (90, 45, 36, 27)

class Classifier:
    def classify(self, reading):
        return "red", 2.5

class Port:
    def __init__(self):
        self.n = 0
    def write(self, data):
        self.n += 1
    def readbyte(self):
        return None

def make_classifier(profile, s):
    if profile is not None and profile.get("edition") != s["edition"]:
        raise ValueError("edition")
    return Classifier()

board = app_mod.Board(None, Pin(1), Pin(0), Pin(0), (), b"\x01\x02\x03\x04")
app = app_mod.App(board, dict(settings_mod.DEFAULTS), Port(), lambda b, s: Sensor(), make_classifier, files=False)
for _ in range(5):
    app.emit("nodie", {})

lines = []
with open(CORPUS, "rb") as f:
    for raw in f.read().split(b"\n"):
        if raw:
            lines.append(raw + b"\n")

state = [SEED or 1]
def rnd(n):
    x = state[0]
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    state[0] = x
    return x % n

NASTY = [b"0", b"4294967295", b"4294967296", b"99999999999999999999", b"?", b"", b"=", b"*", b"boot=",
         b"ZZZZZZZZ", b"1" * 40, b"\x03", b"\r"]

def mutate(line):
    body = line[:-10]
    c = rnd(10)
    if c == 0:
        return bytes([rnd(256) for _ in range(rnd(260))]) + b"\n"
    data = bytearray(body if c < 7 else line[:-1])
    for _ in range(1 + rnd(3)):
        op = rnd(6)
        pos = rnd(len(data) + 1)
        if op == 0 and data:
            p = pos if pos < len(data) else len(data) - 1
            data[p] ^= 1 << rnd(8)
        elif op == 1:
            data = data[:pos] + bytes([32 + rnd(95)]) + data[pos:]
        elif op == 2 and data:
            data = data[:pos] + data[pos + 1 + rnd(8):]
        elif op == 3:
            parts = bytes(data).split(b" ")
            i = rnd(len(parts))
            parts[i] = NASTY[rnd(len(NASTY))]
            data = bytearray(b" ".join(parts))
        elif op == 4:
            data += b" seq=1"
        else:
            data = data[:pos]
    if c < 7:
        clean = bytes([b for b in data if 0x20 <= b <= 0x7E])
        try:
            return protocol.frame(clean.decode())
        except protocol.ProtocolError:
            pass
    return bytes(data) + b"\n"

reader = LineReader()
bad = 0
examples = []
handled = 0
import time
t0 = time.ticks_ms()
for i in range(N):
    line = mutate(lines[rnd(len(lines))]) if rnd(10) else lines[rnd(len(lines))]
    try:
        for b in line:
            got = reader.feed(b)
            if got is None:
                continue
            if got == LineReader.TOO_LONG:
                app.send(nak("too_long"))
                continue
            msg, reason = parse_line(got)
            if reason is not None:
                app.send(nak(reason))
            elif msg is not None:
                handled += 1
                app.handle(msg)
    except Exception as exc:
        bad += 1
        if len(examples) < 5:
            examples.append("%r -> %r" % (line[:80], exc))
    app.cal_wanted = False
ms = time.ticks_diff(time.ticks_ms(), t0)
print("RESULT", N, ms, bad, handled, app.port.n)
for e in examples:
    print("EXAMPLE", e)
"""


def fuzz_firmware(n, seed):
    """Mutated host lines through the firmware's command path under MicroPython."""
    exe = find_micropython()
    if exe is None:
        raise SystemExit("fuzz: the MicroPython unix port is not installed (make setup)")
    folder = tempfile.mkdtemp(prefix="fuzz-")
    script = os.path.join(folder, "fuzz_fw.py")
    corpus = os.path.join(folder, "corpus.txt")
    with open(script, "w") as f:
        f.write(MP_SCRIPT)
    with open(corpus, "wb") as f:
        f.write(b"".join(HOST))
    env = micropython_env([paths.FIRMWARE_DIR, paths.SHARED_DIR])
    done = subprocess.run([exe, "-X", "heapsize=4M", script, str(n), str(seed), corpus], capture_output=True,
                          text=True, env=env, cwd=folder, timeout=3600)
    result = [x for x in done.stdout.splitlines() if x.startswith("RESULT")]
    if done.returncode != 0 or not result:
        raise SystemExit("fuzz: the firmware run failed:\n%s%s" % (done.stdout[-2000:], done.stderr[-2000:]))
    _, count, ms, bad, handled, sent = result[0].split()
    examples = [x[8:] for x in done.stdout.splitlines() if x.startswith("EXAMPLE")]
    return int(ms) / 1000.0, int(bad), examples, {"handled": int(handled), "replies": int(sent)}


_COMMANDS = ["leg red", "tile 7 +", "tile 9 -", "pyramid", "finish winner red", "finish loser blue",
             "partner Ben", "fix 4:red", "fix 4:red,blue", "red 2", "grey black 3", "undo", "again", "1",
             "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "draw", "unscored", "help",
             "tile ² +", "partner ²", "fix ²:red", "fix 4:", "tile 1" + "0" * 5000 + " +", "red ٣"]
_ODD = ["²", "٣", "७", "\x00", "\x1b[2J", "\u202e", "\ufeff", "\t", "\r", "𝟙", "Ⅻ", "9" * 50, "-0", "+", ":", ",",
        "\x7f", "é", " " * 20]


def _strings(n, rng):
    for i in range(n):
        base = rng.choice(_COMMANDS)
        kind = rng.randrange(6)
        if kind == 0:
            yield "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(0, 40)))
        elif kind == 1:
            yield base + " " + rng.choice(_ODD)
        elif kind == 2:
            words = base.split(" ")
            words[rng.randrange(len(words))] = rng.choice(_ODD)
            yield " ".join(words)
        elif kind == 3 and i % 500 == 0:
            yield base * (10240 // max(1, len(base)))  # a 10 KB line
        else:
            chars = list(base)
            for _ in range(rng.randrange(1, 4)):
                pos = rng.randrange(len(chars) + 1)
                chars.insert(pos, rng.choice(_ODD + list("0123456789abc :,+-")))
            yield "".join(chars)


def fuzz_commands(n, seed):
    """Strings through ``Session.parse_command`` in several phases; ``TableError`` is documented."""
    from camelhost.table.session import Session, TableError

    rng = random.Random(seed)
    sessions = []
    for phase_cmds in ([], ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"],
                       ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "pyramid", "grey black ?"]):
        s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"], seed=seed)
        for text in phase_cmds:
            s.command(text)
        sessions.append(s)
    bad, examples = 0, []
    t0 = time.perf_counter()
    for i, text in enumerate(_strings(n, rng)):
        s = sessions[i % len(sessions)]
        try:
            s.parse_command(text)
        except TableError:
            pass
        except Exception as exc:  # noqa: BLE001
            bad += 1
            if len(examples) < 5:
                examples.append("%r (phase %s) -> %s: %s" % (text[:60], s.phase, type(exc).__name__, str(exc)[:80]))
    return time.perf_counter() - t0, bad, examples, {}


def fuzz_positions(n, seed):
    """Mutated positions through ``camelup.game.parse_position`` (reading ``camelup.notation.read_position``); ``NotationError`` is documented."""
    from camelup import game as engine
    from camelup import notation
    from camelup.errors import NotationError
    from camelup.game import Game

    rng = random.Random(seed)
    bases = []
    for s in range(20):
        g = Game.random("second" if s % 2 else "classic", 3 + s % 6, seed=s + 1, start=s % 3)
        bases.append(notation.position_text(g))
    bad, examples = 0, []
    t0 = time.perf_counter()
    for _ in range(n):
        chars = list(rng.choice(bases))
        for _ in range(rng.randrange(1, 4)):
            op = rng.randrange(5)
            pos = rng.randrange(len(chars) + 1)
            if op == 0 and chars:
                del chars[min(pos, len(chars) - 1)]
            elif op == 1:
                chars.insert(pos, rng.choice(list("0123456789 :,;/+-=|") + _ODD))
            elif op == 2 and chars:
                chars[min(pos, len(chars) - 1)] = rng.choice("0123456789")
            elif op == 3:
                chars.insert(pos, rng.choice(("51", "0", "99999999999", "-1", "17", "red", "grey")))
            else:
                chars = chars[:pos]
        text = "".join(chars)
        try:
            engine.parse_position(text)
        except NotationError:
            pass
        except Exception as exc:  # noqa: BLE001
            bad += 1
            if len(examples) < 5:
                examples.append("%r -> %s: %s" % (text[:80], type(exc).__name__, str(exc)[:80]))
    return time.perf_counter() - t0, bad, examples, {}


def race_journal(path, index, seed):
    """Write at ``path`` the journal of one whole race played by bots through the session
    (seeded by ``seed`` and ``index``): the classic edition for even ``index``, the second
    for odd, 3 to 5 seats, the dice typed at random from those still in the pyramid.
    Returns the number of lines."""
    from camelhost.table import bots
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session

    rng = random.Random(seed * 1000 + index)
    edition = "classic" if index % 2 == 0 else "second"
    names = ["Ann", "Ben", "Cy", "Dee", "Eve"][: 3 + rng.randrange(3)]
    with Journal(path, pyramid="manual") as journal:
        s = Session(edition, names, seed=rng.randrange(1, 10**6), journal=journal)
        s.command("draw")
        for _ in range(2000):  # a race ends far sooner; the bound keeps the loop finite
            if s.phase == "over":
                break
            text, _ = bots.choose(s.game, s.names, quick=True)
            if text == "pyramid" or s.phase == "die":
                inside = s.game.dice_in_pyramid()
                die = inside[rng.randrange(len(inside))]
                value = 1 + rng.randrange(3)
                text = ("grey %s %d" % (rng.choice(("black", "white")), value) if die == "grey"
                        else "%s %d" % (die, value))
            s.command(text)
        if s.phase != "over":
            raise RuntimeError("journal %d: the race did not end" % index)
        return len(journal.events)


def _named(message, line):
    """True when a refusal's ``message`` names ``line`` as the bad one, with the chain's
    reason (``line N is out of place``), not the game's (``event on line N no longer
    applies``): a line removed, repeated, moved or foreign is said as such."""
    if line == 1:
        return "not a game journal" in message or "line 1 " in message
    return ("line %d is out of place (" % line) in message


def fuzz_journal(n, seed):
    """Every single-line deletion, duplication, swap (every pair) and foreign insertion
    (a line of the next journal at every place) over ``n`` journals of whole races: each
    must be refused naming the line where the file stops being its game's, with the
    chain's reason, read as ``--resume`` reads it (the game's check included). Deleting
    the last line is a cut at the end, which no line left in the file can show: counted
    apart (``end_cuts_read_shorter``), the pyramid's acknowledgement is what says it."""
    from camelhost.table.journal import JournalError, read_events
    from camelhost.table.session import Session

    counts = {"refused_naming_the_line": 0, "refused_naming_another_line": 0, "accepted": 0,
              "refused_at_the_line_for_another_reason": 0,
              "end_cuts_read_shorter": 0, "journals": n, "lines": 0}
    per_kind = {}
    examples = []
    bad = 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        journals = []
        for i in range(n):
            path = os.path.join(folder, "race-%02d.jsonl" % i)
            race_journal(path, i, seed)
            with open(path, "rb") as fh:
                journals.append(fh.read().splitlines(keepends=True))
        counts["lines"] = sum(len(x) for x in journals)
        probe = os.path.join(folder, "probe.jsonl")

        def attempt(kind, lines, line):
            nonlocal bad
            with open(probe, "wb") as fh:
                fh.write(b"".join(lines))
            entry = per_kind.setdefault(kind, [0, 0])
            entry[1] += 1
            try:
                read_events(probe, check=Session.stale_line)
            except JournalError as exc:
                if _named(str(exc), line):
                    counts["refused_naming_the_line"] += 1
                    entry[0] += 1
                else:
                    # at the line with another reason (the game's), or at another line
                    said = ("refused_at_the_line_for_another_reason" if ("line %d " % line)
                            in str(exc) else "refused_naming_another_line")
                    counts[said] += 1
                    if len(examples) < 5:
                        examples.append("%s at line %d: %s" % (kind, line, str(exc).split(": ", 1)[-1][:160]))
                return
            except Exception as exc:  # noqa: BLE001 - counted: undocumented
                bad += 1
                if len(examples) < 5:
                    examples.append("%s at line %d -> %s: %s" % (kind, line,
                                                                 type(exc).__name__, exc))
                return
            counts["accepted"] += 1
            if len(examples) < 5:
                examples.append("%s at line %d was accepted" % (kind, line))

        for j, lines in enumerate(journals):
            foreign = journals[(j + 1) % n] if n > 1 else journals[j]
            size = len(lines)
            for i in range(size):  # line i + 1 deleted
                if i == size - 1:
                    with open(probe, "wb") as fh:
                        fh.write(b"".join(lines[:-1]))
                    if len(read_events(probe)) == size - 1:
                        counts["end_cuts_read_shorter"] += 1
                    continue
                attempt("deletion", lines[:i] + lines[i + 1:], i + 1)
            for i in range(size):  # line i + 1 written twice
                attempt("duplication", lines[: i + 1] + [lines[i]] + lines[i + 1:], i + 2)
            for i in range(size):  # lines i + 1 and k + 1 swapped
                for k in range(i + 1, size):
                    swapped = list(lines)
                    swapped[i], swapped[k] = lines[k], lines[i]
                    attempt("swap", swapped, i + 1)
            for i in range(size + 1):  # another game's line (never its game line) at i + 1
                other = foreign[1 + (i % (len(foreign) - 1))]
                attempt("foreign insertion", lines[:i] + [other] + lines[i:], i + 1)
    counts.update({kind: "%d/%d refused naming the line" % tuple(v) for kind, v in
                   sorted(per_kind.items())})
    return time.perf_counter() - t0, bad, examples, counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--commands", type=int, default=100_000)
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--journals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("link", "firmware", "commands", "positions", "journal"))
    args = parser.parse_args(argv)
    runs = [
        ("link", "host link per-line path (Link.feed)", fuzz_link, args.lines, "none"),
        ("firmware", "firmware command path under MicroPython", fuzz_firmware, args.lines, "none"),
        ("commands", "table command parser (Session.parse_command)", fuzz_commands, args.commands, "TableError"),
        ("positions", "notation parser (parse_position)", fuzz_positions, args.positions, "NotationError"),
        ("journal", "journal lines deleted/doubled/swapped/foreign", fuzz_journal, args.journals,
         "JournalError"),
    ]
    failed = 0
    for key, what, fn, n, documented in runs:
        if args.only and key != args.only:
            continue
        seconds, bad, examples, extra = fn(n, args.seed)
        if key == "journal":  # a line edit accepted, or refused at another line, fails too
            bad += (extra["accepted"] + extra["refused_naming_another_line"]
                    + extra["refused_at_the_line_for_another_reason"])
        failed += bad
        print("fuzz %-46s %9d inputs  %7.1f s  %6.1f us/input  undocumented exceptions: %d (documented: %s)%s"
              % (what, n, seconds, 1e6 * seconds / max(1, n), bad, documented,
                 ("  " + json.dumps(extra, sort_keys=True)) if extra else ""), flush=True)
        for e in examples:
            print("    e.g. %s" % e)
    print("fuzz: %s" % ("0 undocumented exceptions" if not failed else "%d undocumented exceptions" % failed))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
