"""Soak benchmark (``make soak``): whole bot games through the virtual pyramid under seeded faults.

Every game is played twice with the same seed: once on a clean line, once with the
faults below, and the final scores (and the dice the table took) are compared.
The game runs the real firmware (MicroPython unix port) on simulated hardware
behind a pty. The fault-free run's host is the library in this process (link,
session, table with bots). The faulted run's host is the real program, ``pyramid
play --pyramid <pty> --plain`` with all four seats bots (``soak_host.py``: the
command line with the bots on their quick policy), a separate process; this
harness owns the virtual pyramid and plays the people at the table from the
journal: it pushes the slider when a die is wanted, types ``draw``/``again``, and
types the die a gap names (it knows which die fell: the simulated pyramid saw it).

Faults of a faulted game, all drawn from the seed:

* line noise both ways: ``--loss`` of the bytes lost and ``--flip`` of them with a bit
  flipped (``VirtualPyramid.line_faults``), and bursts of garbage both ways;
* host disconnects: Ctrl-C (SIGINT), the program leaves; a wanted die is released
  while it is away; ``--resume`` after 0.1 to 1 s;
* pyramid reboots 0, 0.05 or 0.3 s after a slider push (its event emitted, maybe
  not yet delivered);
* pyramid reboots 50 to 300 ms after a slider push, before its event was numbered
  (issue 29, item 2; a reset inside the slider's bounce and debounce comes before
  any push the board could know of): the push ends as its die event or, read by the next
  boot from the push's record on flash, as an ``unknown`` (``best=reboot``) that has
  the dice put back and released again (the harness releases the same die again);
* another table in between (issue 29, item 1): the host leaves (Ctrl-C), another
  table (a link in this harness) takes the pyramid, releases a few pushes with
  nothing falling and acknowledges them, leaves; then ``--resume``: the game must
  take none of them (``foreign``), and says so in one line;
* host read stalls of 0.5 to 2.5 s right after a push (SIGSTOP, then SIGCONT);
* a host crash: SIGKILL at a seeded moment 0 to 0.3 s after a slider push (before
  the event reached the host, before it was journaled, or after), one time in two
  a pyramid reboot while no host runs, then ``pyramid play --resume`` on the
  journal, against the same virtual pyramid.

The line loses 2 % of its bytes both ways by default (``--loss``; issue 29, item 10):
the longest wait for the next journal line is printed, and must stay under 10 s
where the pyramid only had to say HELLO (a game longer than ``STUCK_S`` fails).

Printed per run: dice released, delivered, replayed, typed after a gap, duplicated,
silently lost, taken from another table (foreign), the share delivered without a
gap, and the score comparison; and the dice out this leg (``OUT``, docs/protocol.md):
how many pushes the pyramid judged with the leg's mask (the board's last ``OK OUT``
against the journal's dice out), and how long the board took to hold it after a
journal line changed it or a reboot cleared it (``SOAK_OUT_TRACE=1`` prints each push
judged with another mask on stderr).
Targets: 0 silently lost, 0 duplicated, 0 foreign, identical scores, >= 99 % without
a gap.

    python tests/bench/soak.py --games 200          # make soak
    python tests/bench/soak.py --games 1 --quick    # the short seeded run of make test
"""

import argparse
import collections
import os
import queue
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

from camelhost.device.events import out_mask  # noqa: E402
from camelhost.device.link import Link  # noqa: E402
from camelhost.device.virtual import VirtualPyramid  # noqa: E402
from camelhost.table import controller  # noqa: E402
from camelhost.table.journal import Journal, read_events  # noqa: E402
from camelhost.table.session import Session  # noqa: E402
from camelhost.ui.plain import Display  # noqa: E402
from camelup.board import protocol  # noqa: E402
from camelup.editions import GREY, INKS  # noqa: E402
from soak_host import quick_bots_here  # noqa: E402  (tests/bench)

NAMES = ("Ann", "Ben", "Cy", "Dee")


#: Longest wait for the next event before a game counts as stuck (s).
STUCK_S = 60.0


class _Display(Display):
    """Collects the final scores and the errors; shows nothing."""

    def __init__(self):
        self.final = None
        self.errors = []

    def notices(self, notices, view):
        for n in notices:
            if n["kind"] == "final":
                self.final = list(n["final"]["coins"])

    def error(self, message):
        self.errors.append(message)


class _Replayed:
    """A dice source that releases nothing: the next die is handed in by ``truth_scores``."""

    def release(self):
        pass

    def return_dice(self):
        pass


def truth_scores(edition, seed, emitted):
    """Final coins of the same table fed, in order, exactly the events the pyramid
    emitted (``emitted``: the firmware's EVT messages, as the simulated board saw
    them), with no link in between: what a perfect link gives."""
    from camelhost.device.events import message

    display = _Display()
    session = Session(edition, list(NAMES), seed=seed, bots=range(len(NAMES)), journal=Journal(None))
    table = controller.Table(session, display, pyramid=_Replayed(), auto_setup=True)
    table.start()
    for msg in emitted:
        if table.over:
            break
        event = message("EVT", dict(msg.fields), msg.kind)  # as the link decodes it: a die is a Die
        event.raw = protocol.encode_body(msg.name, dict(msg.fields), msg.kind)
        table.pyramid_event(event)
    return display.final


class Faults:
    """What a faulted game does between events (seeded); all zero on a clean line."""

    def __init__(self, rng, on, loss, flip, quick):
        self.rng = rng
        self.on = on
        self.loss = loss if on else 0.0
        self.flip = flip if on else 0.0
        # per journaled pyramid event; a game has ~30, so per 200 games these give
        # about 60 disconnects, 24 reboots (plus one crash in two), ~60 reboots in the
        # first 300 ms of a push, ~30 other tables in between, ~120 stalls and ~180
        # garbage bursts
        self.p_disconnect = 0.012 if on else 0.0
        self.p_reboot = 0.004 if on else 0.0
        self.p_cut = 0.01 if on else 0.0  # a reboot before the push's event (item 2)
        self.p_other = 0.005 if on else 0.0  # another table in between (item 1)
        self.p_stall = 0.02 if on else 0.0
        self.p_garbage = 0.03 if on else 0.0
        #: the slider push (its number in the game) the host is killed after
        self.crash_at = rng.randrange(5, 20) if on else None
        # a short run meets every kind of fault at fixed points (event numbers)
        self.forced = {"garbage": (2, 11), "stall": (4,), "disconnect": (6, 14), "reboot": (8, 16), "cut": (10,),
                       "other": (12,)} if on and quick else {}


def _pyramid_key(event):
    """(boot, seq) of a journal event that came from the pyramid link, else None (a gap
    the table named is journaled for the record, by its last seq: no event came)."""
    if _release_line(event) and event.get("boot") is not None:
        return (str(event["boot"]), event["seq"])
    return None


def _release_line(event):
    """True for a journal line of a release: a die or a refused release (not the record
    of a gap, ``rejected`` of kind ``gap``)."""
    return event.get("type") == "die" or (event.get("type") == "rejected"
                                          and event.get("kind") != "gap")


def _released_keys(vp):
    return [(str(m["boot"]), m["seq"]) for m in vp.events]


def _named(gaps, vp):
    """(boot, seq) of the events the pyramid released that a gap named."""
    named = set()
    for boot, first, last in gaps:
        for key in _released_keys(vp):
            if key[0] == boot and key[1] >= first and (last is None or key[1] <= last):
                named.add(key)
    return named


def _resent(vp):
    """EVT lines the pyramid sent again (a replay after a SYNC): emitted lines whose
    (boot, seq) it had sent before."""
    seen = set()
    again = 0
    for _, msg in list(vp.emitted):
        if msg.name != "EVT":
            continue
        key = (msg["boot"], msg["seq"])
        if key in seen:
            again += 1
        seen.add(key)
    return again


class BoardOut:
    """The dice-out mask the simulated board holds (``OUT``, docs/protocol.md), read from
    what it emitted: the ``n`` of its last ``OK OUT``, 0 from each new boot on (a reboot
    forgets it; the soak sends no ``SET`` or ``SAVE``, which would clear it too). ``mask()``
    reads only the lines emitted since its last call."""

    def __init__(self, vp):
        self.vp = vp
        self.seen = 0
        self.boot = None
        self.held = 0

    def mask(self):
        emitted = self.vp.emitted
        end = len(emitted)
        for i in range(self.seen, end):
            msg = emitted[i][1]
            if msg.name in ("HELLO", "HI", "HB", "EVT") and msg.get("boot") != self.boot:
                self.boot, self.held = msg.get("boot"), 0
            elif msg.name == "OK" and msg.get("cmd") == "OUT":
                self.held = msg.get("n")
        self.seen = end
        return self.held


def _die_text(msg):
    """What a player types for the die of EVT ``msg`` (``grey black 2``, ``red 3``)."""
    return msg["col"] + (" " + msg["ink"] if msg.get("ink") else "") + " %s" % (msg.get("val") or "?")


class Game:
    """The fault-free run of a seed, in this process: the virtual pyramid, the link,
    the session with bots, the table."""

    def __init__(self, seed, edition, folder):
        self.seed = seed
        self.edition = edition
        self.path = os.path.join(folder, "game-%d-c.jsonl" % seed)
        self.vp = VirtualPyramid(edition, seed=seed, value_buttons=True)
        self.display = _Display()

    def play(self):
        with self.vp:
            try:
                return self._play()
            except (RuntimeError, OSError):
                sys.stderr.write("--- board log of game %d (clean):\n%s\n" % (self.seed, self.vp.board_log()[-3000:]))
                raise

    def _play(self):
        journal = Journal(self.path, pyramid="virtual")
        session = Session(self.edition, list(NAMES), seed=self.seed, bots=range(len(NAMES)), journal=journal)
        self.session = session
        link = Link(self.vp.port, heartbeat_timeout=2.0)
        link.open()
        table = controller.Table(session, self.display, pyramid=self.vp, auto_setup=True)
        table.start()
        last = time.monotonic()
        try:
            while not table.over:
                ev = link.next_event(0.5)
                if ev is None:
                    if time.monotonic() - last > STUCK_S:
                        raise RuntimeError("game %d stuck: no event for %.0f s (phase %s)"
                                           % (self.seed, STUCK_S, session.phase))
                    if not table.waiting_release and session.phase == "die":
                        table.drive()  # a rejected release the table did not redo
                    continue
                last = time.monotonic()
                table.pyramid_event(ev)
        finally:
            link.close()
            journal.close()
        events = read_events(self.path)
        return {"final": self.display.final,
                "dice": _dice_taken(events)}


def _dice_taken(events):
    """The dice a table took, in order, as they fell: ``[(colour, ink, value)]``, a die
    whose ink or value was unread completed by the ``ink``/``value`` line keyed after it,
    and left out when that line put it back to be released again (``again``)."""
    dice = []
    for e in events:
        if e["type"] == "die":
            dice.append([e.get("colour"), e.get("ink"), e.get("value")])
        elif e["type"] in ("ink", "value") and dice:
            if e.get("again"):
                dice.pop()
            elif dice[-1][1 if e["type"] == "ink" else 2] is None:
                dice[-1][1 if e["type"] == "ink" else 2] = e.get(e["type"])
    return [tuple(d) for d in dice]


#: The host program of the faulted run: ``pyramid play`` with the quick bots.
HOST = os.path.join(HERE, "soak_host.py")
#: What the host prints when the pyramid names a gap (``narration``: the 'manual' notice).
GAP_NOTICE = re.compile(r"the pyramid lost events (.*?); type the die")
#: The link's warnings naming a gap (``camelhost.device.link.Link._report_gap``).
GAP_LOST = re.compile(r"pyramid events ([0-9A-Za-z]+):(\d+)\.\.(\d+) are lost")
#: What the host prints when a resumed game finds another table's events (item 1).
FOREIGN_NOTICE = re.compile(r"the pyramid served another table since")
GAP_UNKNOWN = re.compile(r"pyramid events of boot ([0-9A-Za-z]+) from (\d+) on may be lost")


def _ctrl_c_default():
    """In the host's process, before it starts: SIGINT back to its default, so Python
    turns Ctrl-C into KeyboardInterrupt (a soak started in the background by a shell
    inherits SIGINT ignored, and the host would never leave)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _names_seq(text, seq):
    """True when a gap notice's list of missing seqs (``2, 3``, ``2..4000``, ``5 and
    after (count unknown)``, ``1, 2 ... and more``) takes in ``seq``."""
    m = re.match(r"(\d+)\.\.(\d+)$", text.strip())
    if m:
        return int(m.group(1)) <= seq <= int(m.group(2))
    m = re.match(r"(\d+) and after", text.strip())
    if m:
        return seq >= int(m.group(1))
    return str(seq) in re.findall(r"\d+", text) or ("and more" in text and seq > max(
        int(n) for n in re.findall(r"\d+", text)))


class HostGame:
    """The faulted run of a seed: the host is the real ``pyramid play`` program
    (``soak_host.py``: the command line with the quick bots), a separate process on
    the virtual pyramid's pty, all four seats bots; this harness owns the virtual
    pyramid and plays the people at the table from what the journal holds: it pushes
    the slider when the game wants a die (after putting back the dice the game has
    inside, as players do), types ``draw`` and ``again`` (a grey die's ink unread),
    and types the die a gap names. Faults: line noise, garbage, pyramid reboots
    (the board), read stalls (SIGSTOP then SIGCONT of the host: nothing read for
    0.5 to 2.5 s), host disconnects (Ctrl-C, i.e. SIGINT: the program leaves;
    after 0.1 to 1 s, during which a wanted die is released, ``--resume``), and a
    host crash: SIGKILL at a seeded moment after a slider push (before or after the
    host got its event or wrote it down), then ``--resume`` on the journal."""

    def __init__(self, seed, edition, folder, faults, plan=None):
        self.seed = seed
        self.edition = edition
        self.faults = faults
        #: the fault-free run's dice in the order its table took them: (colour, ink, value)
        self.plan = plan
        self.path = os.path.join(folder, "game-%d-f.jsonl" % seed)
        self.vp = VirtualPyramid(edition, seed=seed, value_buttons=True)
        self.proc = None
        self.runs = 0  # host processes started
        self.gaps = []  # (boot, first, last or None) the host's link named
        self.notices = queue.Queue()  # missing seqs of the gap notices the table printed
        self.out_tail = collections.deque(maxlen=30)
        self.err_tail = collections.deque(maxlen=30)
        self.readers = []
        self.typed = 0
        self.asked = set()  # (host run, journal length, line) typed once each
        self.events = []
        self.shadow = None
        self.push = None  # the release on its way: {"dice": count of die events, "before": len(vp.events)}
        self.pushes = 0
        self.after_push = []  # faults drawn for the moment right after the next push
        self.counts = {"disconnects": 0, "reboots": 0, "stalls": 0, "garbage": 0, "crashes": 0, "reboots_away": 0,
                       "cuts": 0, "others": 0}
        self.foreign = set()  # (boot, seq) of the events another table took
        self.foreign_said = 0  # the host's lines naming them
        self.redo = None  # the sim's dice state to release again (a push a reboot cut short)
        self.quiet_from = 0.0  # when the harness last finished injecting a fault
        self.longest_wait = 0.0  # the longest wait for a journal line, the harness's own time apart
        #: pushes while the host ran or was away, and of them those the board judged with the
        #: leg's dice out (its last OK OUT named the mask of the game's dice out then)
        self.judged = {"running": 0, "running_held": 0, "away": 0, "away_held": 0}
        self.board_out = BoardOut(self.vp)
        #: how long the board's mask differed from the leg's (a journal line changed the
        #: leg's, or a reboot cleared the board's) until it held it, in s: those that began
        #: while the host ran; ``out_away``: those that began while it was away
        self.out_delays = []
        self.out_away = []
        self._out_since = None  # (time, host ran, cause) since when the board's mask differs
        self._out_last = None  # the leg's mask the board last held
        self._out_leg = None  # the leg's mask at the harness's last look
        self.started = 0.0

    # --- the host program ---

    def _start(self):
        args = [sys.executable, HOST, "play", "--plain"]
        if os.path.exists(self.path) and os.path.getsize(self.path) > 0:
            # a pseudo-terminal is named again on every resume (its number may be
            # another program's by then): what a table at the emulator types too
            args += ["--resume", self.path, "--pyramid", self.vp.port]
        else:
            args += ["--pyramid", self.vp.port, "--players", ",".join(NAMES), "--bots", ",".join(NAMES),
                     "--edition", self.edition, "--seed", str(self.seed), "--journal", self.path]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, preexec_fn=_ctrl_c_default)
        self.runs += 1
        self.started = time.monotonic()
        self.readers = [threading.Thread(target=self._read, args=(self.proc.stdout, self._out_line), daemon=True),
                        threading.Thread(target=self._read, args=(self.proc.stderr, self._err_line), daemon=True)]
        for t in self.readers:
            t.start()

    @staticmethod
    def _read(stream, each):
        for raw in stream:
            each(raw.decode(errors="replace").rstrip("\n"))

    def _out_line(self, line):
        self.out_tail.append(line)
        if FOREIGN_NOTICE.search(line):
            self.foreign_said += 1
        m = GAP_NOTICE.search(line)
        if m:
            self.notices.put(m.group(1))

    def _err_line(self, line):
        self.err_tail.append(line)
        m = GAP_LOST.search(line)
        if m:
            self.gaps.append((m.group(1), int(m.group(2)), int(m.group(3))))
        m = GAP_UNKNOWN.search(line)
        if m:
            self.gaps.append((m.group(1), int(m.group(2)), None))

    def _reap(self, timeout):
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError("game %d: the host did not leave within %.0f s" % (self.seed, timeout)) from None
        finally:
            for t in self.readers:
                t.join(5)
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    stream.close()
                except OSError:
                    pass

    def _type(self, text):
        try:
            self.proc.stdin.write((text + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            pass  # the host is gone; _alive says why

    def _type_once(self, text):
        key = (self.runs, len(self.events), text)
        if key not in self.asked:
            self.asked.add(key)
            self._type(text)

    def _alive(self):
        if self.proc.poll() is not None:
            raise RuntimeError("game %d: the host exited with status %s: %s" % (
                self.seed, self.proc.returncode, " | ".join(list(self.err_tail)[-3:] or list(self.out_tail)[-3:])))

    def _crash(self, rng):
        """SIGKILL (no goodbye, nothing flushed beyond the disk); one time in two the
        pyramid reboots while no host runs; then ``--resume``."""
        self.proc.send_signal(signal.SIGKILL)
        self._reap(30)
        self.counts["crashes"] += 1
        if rng.random() < 0.5:
            # once the push's event is out (a power cut in the middle of reading the die
            # would leave nothing to deliver: the table then asks for the die again)
            self.vp.wait_events(self.push["before"] + 1, timeout=10)
            self.counts["reboots"] += 1
            self.counts["reboots_away"] += 1
            self.vp.reboot()
        self._start()
        self.quiet_from = time.monotonic()

    def _disconnect(self, rng):
        """Ctrl-C: the program leaves (its journal closed); a wanted die is released while
        it is away; after 0.1 to 1 s it is started again with ``--resume``."""
        self.proc.send_signal(signal.SIGINT)
        self._reap(30)
        self.counts["disconnects"] += 1
        away = time.monotonic() + rng.uniform(0.1, 1.0)
        self._reload()
        if self.shadow is not None and self.shadow.phase == "die" and not self._on_its_way():
            self._release(crash_ok=False)
        time.sleep(max(0.0, away - time.monotonic()))
        self._start()
        self.quiet_from = time.monotonic()

    def _other_table(self, rng):
        """Ctrl-C; another table (a link in this harness, resuming after the last event
        the pyramid released, so it takes none of this game's) releases one to three
        pushes with nothing falling, takes and acknowledges them, leaves; ``--resume``."""
        deadline = time.monotonic() + 20
        while self._on_its_way() and time.monotonic() < deadline:  # this game's die first
            time.sleep(0.05)
            self._reload()
        self.proc.send_signal(signal.SIGINT)
        self._reap(30)
        self._reload()
        self.counts["others"] += 1
        boot = str(self.vp.boot_id)
        start = max([m["seq"] for m in list(self.vp.events) if str(m["boot"]) == boot] or [0])
        with Link(self.vp.port, heartbeat_timeout=2.0, resume=(boot, start)) as link:
            pushes = rng.randrange(1, 4)
            taken = []
            for _ in range(pushes):
                self.vp.release_empty()
            deadline = time.monotonic() + 30
            while sum(1 for e in taken if e.kind == "nodie") < pushes and time.monotonic() < deadline:
                ev = link.next_event(0.5)
                if ev is not None:
                    taken.append(ev)
            # what this table took is its own, whatever it was (the game must never take it)
            self.foreign.update((str(e.boot), e.seq) for e in taken if e.kind != "gap")
            while taken and time.monotonic() < deadline:  # until the pyramid has the ACK
                try:
                    link.send("HELLO?", s=True)
                except OSError:
                    pass
                time.sleep(0.2)
                said = [m for _t, m in list(self.vp.emitted)[-20:] if m.name in ("HI", "HELLO")]
                if said and str(said[-1]["boot"]) == taken[-1].boot and said[-1].get("acked") == taken[-1].seq:
                    break  # as the board said it (before the line's faults)
        self._start()
        self.quiet_from = time.monotonic()

    def _stall(self, seconds):
        """The host stops reading (SIGSTOP) for ``seconds``, then goes on (SIGCONT)."""
        self.proc.send_signal(signal.SIGSTOP)
        try:
            time.sleep(seconds)
        finally:
            self.proc.send_signal(signal.SIGCONT)
            self.quiet_from = time.monotonic()

    # --- the people at the table ---

    def _reload(self):
        """Read the journal (a torn last line is not there yet) and rebuild the shadow
        session from it. Returns True when it holds more than before."""
        try:
            events = read_events(self.path)
        except (OSError, ValueError):
            return False
        if len(events) == len(self.events):
            return False
        self.events = events
        self.shadow = Session.from_events(events, self.path)
        return True

    def _dice_taken(self):
        return sum(1 for e in self.events if _release_line(e))

    def _follow_plan(self, sim):
        """The die that falls next is the one the fault-free run's table took at this
        point of the race (``plan``, its journal's dice in order), whatever the faults
        did to the simulator's random state before (a push cut by a reboot, a host
        crash between a push and its journal line): the two runs then meet the same
        dice, so their scores can be compared. A die the faulted table took wrongly
        still shows: its journal then differs from the plan."""
        taken = len(_dice_taken(self.events))
        if self.plan is None or taken >= len(self.plan):
            sim.__dict__.pop("_take", None)
            return
        colour, ink, value = self.plan[taken]
        if colour not in sim.inside:
            sim.__dict__.pop("_take", None)  # the faulted race went elsewhere: the seed's draw
            return

        def take():
            sim.inside.remove(colour)
            sim.out.append(colour)
            if colour != GREY:
                return (colour, value)
            # the ink keyed at the clean table (a grey die typed without one: drawn)
            return (GREY + "-" + (ink or sim.rng.choice(INKS)), value)

        sim._take = take

    def _on_its_way(self):
        push = self.push
        if push is not None and self._dice_taken() > push["dice"]:
            self.push = push = None
        return push is not None

    def _release(self, crash_ok=True):
        s = self.shadow
        inside = list(s.game.dice_in_pyramid())
        sim = self.vp.table
        sim.inside = inside
        sim.out = [d for d in s.edition.dice if d not in inside]
        if self.redo is not None:
            # the push before was cut short by a reboot and the table asked for it again:
            # the same die falls (as in the fault-free run, which released it once)
            sim.rng.setstate(self.redo)
            self.redo = None
        self._follow_plan(sim)
        state = sim.rng.getstate()
        self.pushes += 1
        self.push = {"dice": self._dice_taken(), "before": len(self.vp.events)}
        # the dice out this leg the board judges this push with, against the leg's
        running = self.proc is not None and self.proc.poll() is None
        held = self.board_out.mask() == out_mask(s.edition, s.game.dice_out)
        self.judged["running" if running else "away"] += 1
        self.judged["running_held" if running else "away_held"] += held
        if not held and os.environ.get("SOAK_OUT_TRACE"):
            now = time.monotonic()
            sys.stderr.write("OUT trace: push %d board %s leg %s host %s, %.2f s since the host's start, "
                             "%.2f s since the last fault\n" % (
                                 self.pushes, self.board_out.mask(), out_mask(s.edition, s.game.dice_out),
                                 "ran" if running else "away", now - self.started, now - self.quiet_from))
        crash = crash_ok and self.pushes == self.faults.crash_at
        cut = crash_ok and not crash and any(fault == "cut" for fault, _ in self.after_push)
        self.vp.release(wait=not (crash or cut))
        if cut:
            # a reboot before the push's event is numbered (or just after): one event still
            self.after_push = [f for f in self.after_push if f[0] != "cut"]
            self.counts["cuts"] += 1
            self.counts["reboots"] += 1
            # from 150 ms on: a reset inside the slider's bounce and debounce comes before
            # any push the board could know of, and a loaded machine runs the unix port's
            # debounce late (at 50 ms a CI run once reset before the push was kept)
            time.sleep(self.faults.rng.uniform(0.15, 0.3))
            before = self.push["before"]
            self.vp.reboot()
            self.vp.wait_events(before + 1, timeout=20)
            if any(m.kind == "unknown" and m.get("best") == "reboot" for m in list(self.vp.events)[before:]):
                self.redo = state
            self.quiet_from = time.monotonic()
        if crash:
            # anywhere from before the event left the pyramid to after it was journaled
            time.sleep(self.faults.rng.uniform(0.0, 0.3))
            self._crash(self.faults.rng)
        if not crash_ok:
            return  # released while no host runs: the faults wait for the next push
        # the event is out of the pyramid (maybe not yet at the host): stall, reboot
        todo, self.after_push = self.after_push, []
        for fault, value in todo:
            if fault == "stall":
                self.counts["stalls"] += 1
                self._stall(value)
            else:
                self.counts["reboots"] += 1
                time.sleep(value)
                self.vp.reboot()
                self.quiet_from = time.monotonic()

    def _gap_notices(self):
        """Type the die a gap notice names, when it is the die on its way (the simulated
        pyramid saw which fell). A named release that was no die is released again."""
        while True:
            try:
                text = self.notices.get_nowait()
            except queue.Empty:
                return
            if not self._on_its_way() or len(self.vp.events) <= self.push["before"]:
                continue
            msg = self.vp.events[self.push["before"]]
            if not _names_seq(text, msg["seq"]):
                continue
            if msg.kind != "die":
                self.push = None
                continue
            self.typed += 1
            self._type(_die_text(msg))

    # --- the game ---

    def play(self):
        with self.vp:
            try:
                return self._play()
            except (RuntimeError, OSError):
                sys.stderr.write("--- board log of game %d (faulted):\n%s\n" % (self.seed, self.vp.board_log()[-3000:]))
                sys.stderr.write("--- tapped: %s; pushes %d, faults %s, push on its way %s\n" % (
                    [(m.kind, m["boot"], m["seq"]) for m in self.vp.events][-5:], self.pushes, self.counts, self.push))
                sys.stderr.write("--- host stdout:\n%s\n--- host stderr:\n%s\n" % (
                    "\n".join(self.out_tail), "\n".join(self.err_tail)))
                raise
            finally:
                if self.proc is not None and self.proc.poll() is None:
                    self.proc.kill()
                    self.proc.wait()

    def _play(self):
        f = self.faults
        self.vp.line_faults(f.loss, f.flip, seed=self.seed)
        self._start()
        taken = 0  # pyramid events in the journal, faults drawn after each
        last = time.monotonic()
        while True:
            self._alive()
            if self._reload():
                now = time.monotonic()
                self.longest_wait = max(self.longest_wait, now - max(last, self.quiet_from))
                last = now
                keys = [k for k in (_pyramid_key(e) for e in self.events) if k is not None]
                while taken < len(keys):
                    taken += 1
                    self._faults_after(taken, f.rng)
            s = self.shadow
            if s is not None and s.phase in ("over", "unscored"):
                break
            if s is not None and s.game is not None:
                self._follow_out(s)
            self._gap_notices()
            if s is not None:
                if s.phase == "setup":
                    self._type_once("draw")
                elif s.phase == "ink":
                    self._type_once("again")  # as the in-process bots do on a virtual pyramid
                elif s.phase == "die" and not self._on_its_way():
                    self._release()
            if time.monotonic() - last > STUCK_S:
                raise RuntimeError("game %d stuck: the journal did not grow for %.0f s (phase %s)"
                                   % (self.seed, STUCK_S, s.phase if s else "none"))
            time.sleep(0.02)
        final = list(self.shadow.result["coins"]) if self.shadow.result else None
        self._type("quit")
        self._reap(30)
        self.vp.line_faults()
        return self._result(final)

    def _follow_out(self, s):
        """Time the board's mask apart from the leg's (see ``out_delays``)."""
        now = time.monotonic()
        wanted = out_mask(s.edition, s.game.dice_out)
        held = self.board_out.mask() == wanted
        changed = wanted != self._out_leg
        self._out_leg = wanted
        if held and changed and self._out_since is None:
            # told and answered within one look of the harness at the journal (20 ms)
            (self.out_delays if self.proc is not None and self.proc.poll() is None
             else self.out_away).append((0.0, "table"))
        elif held and self._out_since is not None:
            since, ran, cause = self._out_since
            (self.out_delays if ran else self.out_away).append((now - since, cause))
            self._out_since = None
        elif not held and self._out_since is None:
            # the table's leg changed (a journal line), or the board forgot it (a reboot)
            cause = "board" if wanted == self._out_last else "table"
            self._out_since = (now, self.proc is not None and self.proc.poll() is None, cause)
        if held:
            self._out_last = wanted

    def _faults_after(self, n, rng):
        f = self.faults
        vp = self.vp
        forced = f.forced
        if rng.random() < f.p_garbage or n in forced.get("garbage", ()):
            self.counts["garbage"] += 1
            junk = bytes(rng.randrange(256) for _ in range(rng.randrange(10, 300)))
            vp.inject(junk + b"\n")
            vp.inject_to_device(bytes(b for b in junk if b != 3) + b"\n")
        if rng.random() < f.p_stall or n in forced.get("stall", ()):
            self.after_push.append(("stall", rng.uniform(0.5, 2.5)))
        if rng.random() < f.p_disconnect or n in forced.get("disconnect", ()):
            self._disconnect(rng)
        if rng.random() < f.p_reboot or n in forced.get("reboot", ()):
            # right after the next push: its event may not have reached the host yet
            self.after_push.append(("reboot", rng.choice((0.0, 0.05, 0.3))))
        if rng.random() < f.p_cut or n in forced.get("cut", ()):
            self.after_push.append(("cut", 0.0))  # during the next push (see _release)
        if rng.random() < f.p_other or n in forced.get("other", ()):
            self._other_table(rng)

    def _result(self, final):
        events = read_events(self.path)
        dice = _dice_taken(events)
        keys = [k for k in (_pyramid_key(e) for e in events) if k is not None]
        released = [k for k in _released_keys(self.vp) if k not in self.foreign]  # this game's
        named = _named(self.gaps, self.vp)
        got = set(keys)
        return {
            "final": final,
            "dice": dice,
            "released": len(released),
            "delivered": sum(1 for k in released if k in got),
            "replayed": _resent(self.vp),
            "typed": self.typed,
            "gapped": len(named),
            "duplicated": len(keys) - len(got),
            "lost": sum(1 for k in released if k not in got and k not in named),
            "foreign": sum(1 for k in keys if k in self.foreign),
            "others_said": min(self.foreign_said, self.counts["others"]),
            "longest_wait": self.longest_wait,
            "counts": dict(self.counts),
            "mangled": dict(self.vp.mangled),
            "judged": dict(self.judged),
            "out_delays": list(self.out_delays),
            "out_away": list(self.out_away),
            "truth": truth_scores(self.edition, self.seed, [m for m in self.vp.events
                                                            if (str(m["boot"]), m["seq"]) not in self.foreign]),
        }


def run(games, first_seed, edition, loss, flip, quick, out=print):
    # the simulated firmware's event after a push may take longer than the product's
    # 10 s default on a machine this soak and others load (17 on 2 cores: games not
    # finished); the harness waits for it, the table's own deadlines stay as they are
    before, VirtualPyramid.RELEASE_TIMEOUT_S = VirtualPyramid.RELEASE_TIMEOUT_S, 60.0
    try:
        with quick_bots_here():
            return _run(games, first_seed, edition, loss, flip, quick, out)
    finally:
        VirtualPyramid.RELEASE_TIMEOUT_S = before


def _run(games, first_seed, edition, loss, flip, quick, out):
    folder = tempfile.mkdtemp(prefix="soak-")
    total = {"released": 0, "delivered": 0, "replayed": 0, "typed": 0, "gapped": 0, "duplicated": 0, "lost": 0,
             "foreign": 0, "others_said": 0}
    counts = {"disconnects": 0, "reboots": 0, "stalls": 0, "garbage": 0, "crashes": 0, "reboots_away": 0,
              "cuts": 0, "others": 0}
    longest = 0.0
    mangled = {"lost": 0, "flipped": 0}
    judged = {"running": 0, "running_held": 0, "away": 0, "away_held": 0}
    out_delays, out_away = [], []
    same_scores = same_dice = same_truth = 0
    differ = []
    broken = []
    t0 = time.monotonic()
    for g in range(games):
        seed = first_seed + g
        try:
            clean = Game(seed, edition, folder).play()
            faulted = HostGame(seed, edition, folder, Faults(random.Random(seed), True, loss, flip, quick),
                               plan=clean["dice"]).play()
        except (RuntimeError, OSError) as exc:  # the simulated board or the machine gave up
            broken.append(seed)
            out("game %3d seed %d: not finished: %s" % (g + 1, seed, str(exc).splitlines()[0]))
            continue
        for key in total:
            total[key] += faulted[key]
        for key in counts:
            counts[key] += faulted["counts"][key]
        for key in mangled:
            mangled[key] += faulted["mangled"][key]
        for key in judged:
            judged[key] += faulted["judged"][key]
        out_delays += faulted["out_delays"]
        out_away += faulted["out_away"]
        longest = max(longest, faulted["longest_wait"])
        if faulted["final"] == clean["final"] and faulted["final"] is not None:
            same_scores += 1
        else:
            differ.append(seed)
        same_dice += faulted["dice"] == clean["dice"]
        same_truth += faulted["final"] == faulted["truth"] and faulted["final"] is not None
        if faulted["dice"] != clean["dice"]:
            first = next((i for i, (a, b) in enumerate(zip(faulted["dice"], clean["dice"], strict=False)) if a != b),
                         min(len(faulted["dice"]), len(clean["dice"])))
            out("    dice differ from die %d: faulted %s, clean %s; faults %s"
                % (first + 1, faulted["dice"][first:first + 3], clean["dice"][first:first + 3], faulted["counts"]))
        out("game %3d seed %d: %d dice, delivered %d, replayed %d, gap %d, lost %d, dup %d, scores %s %s, %s"
            % (g + 1, seed, faulted["released"], faulted["delivered"], faulted["replayed"], faulted["gapped"],
               faulted["lost"], faulted["duplicated"], faulted["final"],
               "same as fault-free" if faulted["final"] == clean["final"] else "fault-free run %s" % clean["final"],
               "same as the released dice" if faulted["final"] == faulted["truth"]
               else "RELEASED DICE GIVE %s" % faulted["truth"]))
    elapsed = time.monotonic() - t0
    share = 100.0 * total["delivered"] / total["released"] if total["released"] else 0.0
    out("")
    out("soak: %d games (%s, seeds %d..%d), %.0f s; line: %.2f%% bytes lost, %.2f%% flipped, both ways"
        % (games, edition, first_seed, first_seed + games - 1, elapsed, 100 * loss, 100 * flip))
    out("faults: %(disconnects)d host disconnects, %(reboots)d pyramid reboots, %(stalls)d read stalls, "
        "%(garbage)d garbage bursts, %(crashes)d host crashes (SIGKILL) + --resume; "
        "%(reboots_away)d of the reboots while a killed host was away, %(cuts)d in the first 300 ms of a push; "
        "%(others)d other tables in between" % counts)
    out("bytes mangled on the line: %(lost)d lost, %(flipped)d flipped" % mangled)
    out("dice released %(released)d, delivered %(delivered)d, replayed (resent by the pyramid) %(replayed)d, typed after a gap "
        "%(typed)d, named in gaps %(gapped)d, duplicated %(duplicated)d, silently lost %(lost)d" % total)
    out("taken from another table (foreign) %(foreign)d; other tables said by the resumed game %(others_said)d" % total)
    out("longest wait for the next journal line (the harness's own fault time apart; a host restart "
        "and its HELLO count): %.1f s" % longest)
    out("delivered without a gap: %.2f%% (target >= 99%%)" % share)
    out("pushes the pyramid judged with the leg's dice out (OUT, its last OK OUT): %(running_held)d/%(running)d "
        "while the host ran, %(away_held)d/%(away)d while it was away" % judged)
    for cause, what in (("table", "a journal line changed the leg's dice out"),
                        ("board", "a reboot cleared the pyramid's")):
        ranked = sorted(d for d, c in out_delays if c == cause)
        if ranked:
            out("until the pyramid held the leg's dice out (OUT) after %s, while the host ran: %d times, median "
                "%.2f s, 95th percentile %.2f s, longest %.2f s, %d over 1 s (0.00: within the harness's "
                "20 ms look)"
                % (what, len(ranked), ranked[len(ranked) // 2],
                   ranked[min(len(ranked) - 1, int(0.95 * len(ranked)))], ranked[-1],
                   sum(1 for d in ranked if d > 1.0)))
    if out_away:
        out("(%d more began while the host was away, longest %.1f s)"
            % (len(out_away), max(d for d, _c in out_away)))
    out("final scores identical to the fault-free run: %d/%d; dice the table took identical: %d/%d%s"
        % (same_scores, games, same_dice, games, (" (differ: seeds %s)" % differ) if differ else ""))
    out("final scores identical to the table fed exactly the dice the pyramid released: %d/%d"
        % (same_truth, games))
    if differ:
        out("(a fault-free run differs when the simulated optics read a release differently, e.g. under "
            "machine load: another unknown or no-die outcome, so other dice follow; see the 'dice differ' lines)")
    if broken:
        out("games not finished (the simulated board timed out): seeds %s" % broken)
    ok = (total["lost"] == 0 and total["duplicated"] == 0 and total["foreign"] == 0 and same_truth == games
          and share >= 99.0)
    out("targets: %s" % ("met" if ok else "NOT met"))
    return ok, total, share, same_scores, same_truth


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--edition", choices=("classic", "second"), default="second")
    parser.add_argument("--loss", type=float, default=0.02, help="share of bytes lost, both ways")
    parser.add_argument("--flip", type=float, default=0.001, help="share of bytes with a bit flipped, both ways")
    parser.add_argument("--quick", action="store_true", help="more faults per game (a short run meets them all)")
    args = parser.parse_args(argv)
    ok, *_ = run(args.games, args.seed, args.edition, args.loss, args.flip, args.quick,
                 out=lambda s: print(s, flush=True))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
