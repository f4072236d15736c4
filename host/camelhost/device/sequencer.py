"""The link's sequencing, without I/O: decoded device messages and the time in, die
events and lines to send out.

``Sequencer`` holds everything the host knows about the pyramid's sequence (the boot
it follows, the last seq delivered, events held ahead of a hole, the boots still to
walk, what was acknowledged) and decides what to ask. It has no thread, no port and
no clock: every call that may act takes ``now`` (monotonic seconds, any origin) and
returns ``(events, lines)``, the ``DieEvent`` values to hand to the table in that
order (an ``EVT`` message comes in as its ``DieEvent``, decoded so by
``camelhost.device.events.decode``, and goes out as the same value) and the framed host lines (bytes) to write to the pyramid. The transport
(``camelhost.device.transport``) reads and writes; ``camelhost.device.link.Link``
joins the two behind one lock. Its tests are tables of messages in, events and lines
out (``tests/test_link_sequencer.py``).

What it does (docs/protocol.md, "Delivery"):

* asks ``HELLO? s=1`` on every (re)connection and again every ``HELLO_FAST_S`` while
  none came, and the full ``HELLO?`` every ``HELLO_RETRY_S`` until the current boot's
  identity came, both times ``pace`` (the board's learnt slowness: a board at a tenth
  of real time is asked ten times less often, as the firmware answers every ask); the answer (``HI``, or ``HELLO``) gives the boot and the last seq, and ``SYNC <last delivered> boot=<its boot>``
  asks for the rest; when the device restarted meanwhile, the replay walks its
  boots in order (``SYNCED ... next=``) out of the device's flash store;
* delivers events in seq order per boot, de-duplicated on ``(boot, seq)``; events
  ahead of a hole are held (up to ``WINDOW``) and only the hole is asked for
  (``SYNC ... to=``), at once, then again with backoff;
* acknowledges (``ACK``) what the consumer has taken (``took``), or with ``taken``
  only what it made safe;
* reports events that can no longer come as ``gap`` events naming the boot and the
  seq range (two numbers, whatever the count), and events another host acknowledged
  since the journal's last (``resume``) as one ``foreign`` event, never delivered;
* skips a seq the pyramid cannot have numbered yet (``MAX_RATE``): damage that
  passed the CRC, said once, never a gap;
* on a noisy line (``noisy``) asks what it may have missed every ``PROBE_S`` and
  retries an unanswered SYNC at once;
* refuses a device of another protocol version (``state == "refused"``), and, given
  ``uid`` (the board a resumed game was played with), a HELLO of another board; until
  a full HELLO names that board, or a ``HI`` names the journal's own boot (as its
  boot or the one before), or the device's store holds a record of that boot (asked
  with ``SYNC ... to=``, which replays nothing), it delivers, asks and acknowledges
  nothing;
* delivers the dice out this leg (``OUT <mask>``, ``told_out``) like its ``SYNC``: the
  board answers ``OK OUT n=<mask>``, and an ``OUT`` unanswered is sent again after
  ``SYNC_FIRST_S``, the wait doubling up to ``sync_timeout`` (``PROBE_S`` on a noisy
  line), at most ``OUT_TRIES`` times (a ``NAK unknown`` or ``NAK range`` meanwhile ends it: the board read it and
  refused it); it is said again when the board says hello from a boot that has not
  answered it (a restart forgets it), and held, unsent, while the board is not
  confirmed (``uid``) or has not said hello on this connection;
* notices silence (no valid line for ``patience`` s: state ``stale``, ``HELLO?``
  again, every ``patience / 2`` s while it lasts). ``patience`` is ``heartbeat_timeout`` (6 s: three of a real board's 2 s
  heartbeats) unless the board's heartbeats come slower than that in wall time (the
  emulated board runs at 0.07-0.4x real time): then ``HB_BEATS`` times the longest of
  the last ``HB_KEEP`` intervals between its ``HB`` lines (heartbeats before the first
  HELLO count too); the asks for a HELLO wait ``pace`` times as long.
"""

import logging

from camelup.board import protocol

from camelhost.device.events import DieEvent, SeqRange
from camelhost.i18n import N_, _

log = logging.getLogger("camelhost.device.link")

#: Events of one boot accepted ahead of the next expected seq (replays come in any
#: order within this window; later ones are asked for again).
WINDOW = 512
#: First retry of an unanswered SYNC (s); doubled per retry up to ``SYNC_MAX_S``.
SYNC_FIRST_S = 0.15
SYNC_MAX_S = 2.0
#: the end of another board's refusal: what to do (a game played on a real pyramid)
BOARD_FIX = N_("connect that pyramid, or resume with --pyramid manual and type the dice")
#: How many times one ``OUT`` (the dice out this leg) is written while no ``OK OUT``
#: with its mask comes back. The waits between them are an unanswered ``SYNC``'s:
#: ``SYNC_FIRST_S`` doubling up to ``sync_timeout`` (2 s: 16 writes span about 26 s),
#: on a noisy line (``noisy``) up to ``PROBE_S`` (about 7.5 s). A round trip (the
#: 16-byte ``OUT`` and the 21-byte ``OK OUT``) crosses a line losing 2 % of its bytes
#: both ways about one time in two, 3 % with 0.5 % flipped one time in four: 16 tries
#: all fail about once in 30,000 and once in 150 (then the table's next journal write,
#: or the board's next hello, says it again).
OUT_TRIES = 16
#: Seconds between two asks for the short ``HI`` while none came on this connection
#: (the ask or the answer was lost: on a line losing 2 % of its bytes about one ask
#: in six gets its answer, so asking six times a second makes a wait over 10 s a
#: one-in-100,000 event; tests/test_link_sequencer.py simulates it). For a board
#: slower than real time, times ``Sequencer.pace``.
HELLO_FAST_S = 0.15
#: Seconds between two asks for the full ``HELLO`` (the pyramid's identity: firmware,
#: edition, sensor) while the one of the current boot has not come (times ``pace``).
HELLO_RETRY_S = 1.0
#: On a noisy line (``noisy``, set by the link from its line quality): how often the
#: host asks "anything after what I have?" (a ``SYNC``) while it knows of no hole, and
#: the longest wait before an unanswered SYNC is sent again (per missing event, at
#: least ``SYNC_FIRST_S``). At 2 % byte loss an event line crosses whole about one time
#: in five: asking often keeps every die's wait under 10 s (tests/test_link_sequencer.py).
PROBE_S = 0.5
NOISY_SYNC_PER_EVENT_S = 0.02
#: Shortest time between two asks caused by lines of an unknown boot (no flood; times
#: ``pace``).
HELLO_FLOOD_S = 0.5
#: The most events a pyramid can number per second (a release takes at least 0.2 s on
#: the board, 0.1 s on the virtual pyramid: twice that, for margin), and the seqs a
#: line may run ahead of the last HELLO or heartbeat whatever the time (replies read
#: late by a stalled host). A seq of the current boot beyond ``seq + SEQ_SLACK +
#: MAX_RATE * seconds since`` cannot exist: the line is damage (a CRC collision, a
#: corrupted store), skipped and said once, never a gap (issue 29, item 3).
MAX_RATE = 20
SEQ_SLACK = 64
#: Silence patience learnt from the board's heartbeats (wall time, as the host receives
#: them): the link is ``stale`` after ``HB_BEATS`` heartbeat intervals without a valid
#: line, the interval being the longest of the last ``HB_KEEP`` (a board slowing down is
#: followed at once; a wide interval, such as a heartbeat lost on a noisy line, counts
#: for the next ``HB_KEEP`` beats). Until two heartbeats came the patience is
#: ``heartbeat_timeout``; a heartbeat of another boot (a restart, another board)
#: forgets what was learnt, a reopened port keeps it. An
#: interval up to ``HB_JITTER`` times ``heartbeat_timeout / HB_BEATS`` (3 s for the
#: 6 s default) is a real board's 2 s heartbeat arriving late: the patience stays
#: ``heartbeat_timeout``, so a pulled cable is noticed as soon as before.
HB_BEATS = 3
HB_KEEP = 4
HB_JITTER = 1.5


class Sequencer:
    """The sequence state machine of one pyramid link; see the module docstring.

    ``resume``: ``(boot, seq)`` of the last event already handled (from the game
    journal): delivery continues after it, through every boot the pyramid went
    through since. Without it, delivery starts after ``acked=`` of the first HELLO.
    ``heartbeat_timeout``: seconds without a valid line before the state is
    ``stale``, for a board whose heartbeats come at most ``HB_JITTER`` times
    ``heartbeat_timeout / HB_BEATS`` s apart (a slower one gets ``patience``, see
    ``HB_BEATS``). ``sync_timeout``: the longest wait before an unanswered SYNC is sent
    again. ``taken``: a callable giving the ``(boot, seq)`` of the last pyramid event
    the consumer made safe, or ``None`` (see ``Link``). ``port``: the port's name,
    for messages only. ``uid``: the RP2040 unique id (hex text) the pyramid's ``HELLO``
    must name (a resumed game's board, its journal's ``board`` line), or ``None``.

    Public state, read by ``Link``: ``state`` (``closed``, ``connecting``,
    ``connected``, ``stale``, ``refused``), ``refused`` (the refusal's text),
    ``hello`` (the last full ``HELLO`` ``protocol.Message``), ``boot`` and
    ``delivered`` (the boot followed and the last seq handed out in it), ``patience``
    and ``slowness`` (the silence allowed now, in s, and its ratio to
    ``heartbeat_timeout``, >= 1), ``pace`` (how many times their usual wait the asks
    for a ``HELLO`` wait: ``slowness``, 1.0 on a noisy line), ``synced``
    (a ``HELLO`` or its short form ``HI`` was seen on this connection), ``noisy`` (set
    by the link while its line quality is low), ``unusable`` (why the last message
    could not be used, or ``None``), ``stats`` (counters, a dict shared with ``Link``),
    ``origin`` (``(boot, seq)`` delivery began after: ``resume``, else set by the first
    ``HELLO``/``HI``; ``None`` before), ``confirmed`` (no ``uid`` to check, or the board
    is known to be that one: see the module docstring), ``out`` (the mask the host last
    told the board with ``OUT``, ``told_out``; ``None`` before), ``out_answered`` (the
    device boot whose ``OK OUT`` named that mask, ``None`` while none did).
    """

    def __init__(self, resume=None, heartbeat_timeout=6.0, sync_timeout=SYNC_MAX_S, taken=None, port="the port",
                 stats=None, uid=None):
        self.port = port
        #: the RP2040 unique id this link must find (``None``: any pyramid)
        self.uid = uid
        #: what to do about another board, ending its refusal (``None``: ``BOARD_FIX``;
        #: ``camelhost.device.open.open_pyramid`` names the game's own dice source)
        self.board_fix = None
        self.confirmed = uid is None
        #: ``(boot, seq)``: where delivery began on this link (``resume``, else the point
        #: the first ``HELLO``/``HI`` set: what the journal records of the pyramid)
        self.origin = tuple(resume) if resume else None
        self.heartbeat_timeout = heartbeat_timeout
        self.sync_timeout = sync_timeout
        self.state = "closed"
        self.refused = None
        self.hello = None
        self.synced = False
        #: the line loses many lines (the link sets it): ask more often, see ``PROBE_S``
        self.noisy = False
        self.unusable = None
        self.boot = resume[0] if resume else None
        self.delivered = resume[1] if resume else 0  # last seq handed out in ``boot``
        self._heard = self.delivered  # highest seq known to exist in ``boot``
        self._ahead = {}  # seq -> DieEvent of ``boot`` received before its predecessors
        self._device_boot = None  # the boot the device runs now (its last HELLO)
        self._store = False  # the device keeps events until ACKed (HELLO acked=)
        self._sync_sent = None  # time of the SYNC in flight (None = none)
        self._sync_wait = SYNC_FIRST_S
        self._last_probe = None
        self._last_rx = None
        self._last_hello_ask = None
        self._last_full_ask = None
        self._hello_wanted = False
        self._consumed = None  # (boot, seq) the consumer has taken: what ACK says
        self._taken = taken
        self._kept = None  # (boot, seq) of the last event taken that a journal keeps
        self._ack_sent = None
        self._ack_time = None
        self._out_events = []
        self._out_lines = []
        self.stats = stats if stats is not None else {}
        self._others = None  # (boot, seq): the device's current boot, acknowledged that far by another host
        #: an earlier boot the device's store begins with once it dropped ours: a host
        #: acknowledged it (``_on_synced``), so what of it the store lacks was that host's
        self._taken_boot = None
        self._dropped = None  # (boot, first seq): the journal's boot the store dropped, unsaid
        self._anchor = None  # (seq, time) of the device's current boot last vouched for
        self._implausible_said = None  # the boot whose impossible seqs were reported
        self._hb_last = None  # (boot, time) of the last heartbeat on this connection
        self._hb_gaps = []  # wall seconds between its last few heartbeats (at most HB_KEEP)
        self._held = None  # a HI of another boot, while the board is not yet confirmed
        self.out = None  # the dice-out mask the host last told the board (OUT)
        self.out_answered = None  # the device boot that answered OK OUT with that mask
        self._out_sent = None  # (boot, time) of the OUT awaiting its OK (None: none)
        self._out_wait = SYNC_FIRST_S
        self._out_tries = 0
        for key in ("duplicates", "syncs", "gaps", "naks", "replayed", "implausible", "foreign", "outs_resent"):
            self.stats.setdefault(key, 0)

    # --- inputs ---

    def opened(self, now):
        """The port was (re)opened at ``now``: forget this connection's HELLO, ask for one."""
        self.synced = False
        self._sync_sent = None
        self._last_rx = now
        self._hb_last = None  # a pause of the port is no heartbeat interval
        if self.state != "refused":
            self.state = "connecting"
        self._ask_hello(now)
        return self._emit()

    def lost(self):
        """The port went away (unplugged); the transport reopens it. What comes back on
        it is not taken for the same pyramid until it says so: from the board's full
        ``HELLO`` on, its ``uid`` is checked as a resumed game's is (nothing asked,
        delivered or acknowledged before; another board refused)."""
        if self.state != "refused":
            self.state = "connecting"
        if self.hello is not None and self.confirmed:
            self.uid = self.hello["uid"]
            self.confirmed = False

    def closed(self):
        """The port was closed on purpose (``close``/``disconnect``)."""
        if self.state != "refused":
            self.state = "closed"

    def receive(self, msg, now, text=""):
        """One decoded device message received at ``now``, as ``events.decode`` makes it
        (an ``EVT`` is already its ``DieEvent``, handed on as it is; any other a
        ``protocol.Message``); ``text``: its wire line (the event's ``raw``). Returns
        ``(events, lines)``.
        Never raises: a decoded message it cannot use (a field missing or of the wrong
        type) leaves ``unusable`` set to the reason (the caller counts it as a damaged
        line); ``unusable`` is ``None`` after every message that was used."""
        self.unusable = None
        self._last_rx = now
        if self.state == "refused":
            return self._emit()
        if self.state in ("stale", "connecting") and self.synced:
            self.state = "connected"
        name = msg.name
        if not self.confirmed and name == "SYNCED":
            self._on_record(msg, now)
            return self._emit()
        if not self.confirmed and name in ("EVT", "GAP"):
            return self._emit()  # not this game's pyramid until its HELLO says so
        if name == "OK" or name == "NAK":
            self._on_answer(msg)
            return self._emit()
        try:
            if name == "EVT":
                self._on_event(msg, text, now)
            elif name == "HELLO" or name == "HI":
                self._on_hello(msg, now)
            elif name == "HB":
                self._on_heartbeat(msg, now)
            elif name == "GAP":
                self._on_gap(msg, now)
            elif name == "SYNCED":
                self._on_synced(msg, now)
        except (KeyError, TypeError, ValueError) as exc:  # a decoded line we cannot use
            self.unusable = "unusable: %s" % exc
        return self._emit()

    def tick(self, now):
        """Time passed (call it every few tens of ms): retries, staleness, ``ACK``.
        Returns ``(events, lines)``."""
        if self.state in ("refused", "closed") or self._last_rx is None:
            return self._emit()
        pace = self.pace
        if now - self._last_rx > self.patience:
            if self.state != "stale":
                log.warning("no valid line from the pyramid for %.1f s", now - self._last_rx)
                self.state = "stale"
            if now - self._last_hello_ask > self.patience / 2:
                self._ask_hello(now)
        elif not self.synced and now - self._last_hello_ask > HELLO_FAST_S * pace:
            self._ask_hello(now)  # the answer (or the ask) was lost
        elif self._hello_wanted and now - self._last_hello_ask > HELLO_FLOOD_S * pace:
            self._ask_hello(now)
        elif self._identity_wanted() and now - self._last_full_ask > HELLO_RETRY_S * pace:
            self._last_full_ask = now
            self._send("HELLO?")
            if self._held is not None:
                self._ask_record()
        if self.synced and self._sync_sent is not None and now - self._sync_sent > self._sync_wait:
            if self._heard > self.delivered or self._ahead or self._walking():
                self._sync(now)
            else:
                self._sync_sent = None
        if (self.noisy and self.synced and self.confirmed and self._sync_sent is None
                and (self._last_probe is None or now - self._last_probe > PROBE_S)):
            self._last_probe = now
            self._sync(now, force=True)  # events the lost lines announced, if any
        sent = self._out_sent
        if sent is not None and self.synced and self.confirmed and now - sent[1] > self._out_wait:
            self._retry_out(now)
        self._maybe_ack(now)
        return self._emit()

    def told_out(self, mask, now):
        """The table tells the board the dice out this leg (``OUT <mask>``,
        docs/protocol.md; ``mask`` an int, bit i the edition's die i) at ``now``. Returns
        ``(events, lines)``: the ``OUT`` line when the board can take it now (it said
        hello on this connection and is the game's board, ``confirmed``), else nothing:
        the mask is held and written at the hello that confirms the board. Written, it
        waits for ``OK OUT n=<mask>`` and is sent again, as ``SYNC`` is, up to
        ``OUT_TRIES`` times; a later board boot that has not answered it is told again
        at its hello."""
        self.out = mask
        self.out_answered = None
        self._out_sent = None
        if self.synced and self.confirmed and self.state != "refused":
            self._send_out(now, first=True)
        return self._emit()

    def out_unsent(self):
        """The ``OUT`` ``told_out`` returned could not be written (the port closed or
        reconnecting): no retry now; the next hello says it."""
        self._out_sent = None

    def took(self, event):
        """The consumer took ``event`` (a ``DieEvent`` this sequencer handed out): what
        the next ``ACK`` may say. With ``taken``, an event of the pyramid's (a die, a
        release the table could not use, a sensor fault) is acknowledged once the
        consumer made it safe; a ``foreign`` event (events another table took), or a
        ``gap`` the consumer does not keep, once what came before it is."""
        if event.kind in ("gap", "foreign"):
            last = getattr(event.missing, "last", None)
            self._consumed = (event.boot, last if last is not None else event.seq - 1)
        else:
            self._consumed = self._kept = (event.boot, event.seq)

    @property
    def patience(self):
        """Seconds without a valid line before the link is ``stale`` (see ``HB_BEATS``):
        ``heartbeat_timeout`` for a board whose heartbeats arrive on time, more for one
        running slower than real time."""
        longest = max(self._hb_gaps) if self._hb_gaps else 0.0
        if longest <= HB_JITTER * self.heartbeat_timeout / HB_BEATS:
            return self.heartbeat_timeout
        return max(self.heartbeat_timeout, HB_BEATS * longest)

    @property
    def slowness(self):
        """``patience`` over ``heartbeat_timeout`` (>= 1.0): how many times slower than
        a real board's the pyramid's heartbeats arrive; other waits for the board (the
        monitor's for a reading) stretch by it."""
        return self.patience / self.heartbeat_timeout

    @property
    def pace(self):
        """How many times ``HELLO_FAST_S``, ``HELLO_RETRY_S`` and ``HELLO_FLOOD_S`` the
        asks for a ``HELLO`` wait now: ``slowness`` (1.0 for a real board), so a board
        running at a tenth of real time is asked every 1.5 s, not every 0.15 s (the
        firmware answers every ask it reads, one after the other: asks sent faster than
        it answers pile up in its input and each costs it an answer). 1.0 while the line
        is ``noisy``: heartbeats lost on it read as a slow board, and a lost ask is
        asked again at once."""
        return 1.0 if self.noisy else self.slowness

    @property
    def held(self):
        """How many events are held ahead of a hole (at most ``WINDOW``)."""
        return len(self._ahead)

    # --- outputs ---

    def _emit(self):
        out = (self._out_events, self._out_lines)
        self._out_events, self._out_lines = [], []
        return out

    def _send(self, name, **fields):
        self._out_lines.append(protocol.encode(name, **fields))

    def _send_out(self, now, first):
        """Write the mask held (``out``) to the device's boot now, waiting for its
        ``OK OUT``: the first try, or one more after ``_out_wait``."""
        if first:
            self._out_tries = 0
            self._out_wait = SYNC_FIRST_S
        else:
            self._out_wait = min(self._out_wait * 2, PROBE_S if self.noisy else self.sync_timeout)
            self.stats["outs_resent"] += 1
        self._out_tries += 1
        self._out_sent = (self._device_boot, now)
        self._send("OUT", mask=self.out)

    def _retry_out(self, now):
        if self._out_tries >= OUT_TRIES:
            self._out_sent = None
            log.warning("the pyramid did not answer OUT %d (the dice out this leg) after %d tries; "
                        "it judges each reading alone until it is told again", self.out, self._out_tries)
            return
        self._send_out(now, first=False)

    def _on_answer(self, msg):
        """An ``OK`` or ``NAK``: ``OK OUT n=<mask>`` answers the ``OUT`` in flight when
        it names the mask held (an answer to an earlier mask does not); a ``NAK
        unknown`` (a firmware without ``OUT``) or ``NAK range`` (a die the board's
        edition lacks) while one is in flight ends its tries: the board read it and
        refused it, nothing changed there. A ``NAK`` of a damaged line (``crc``, ...)
        names no command: the retry sends it again."""
        if self._out_sent is None:
            return
        if msg.name == "OK":
            if msg.get("cmd") == "OUT" and msg.get("n") == self.out:
                self.out_answered = self._out_sent[0]
                self._out_sent = None
        elif msg.get("reason") in ("unknown", "range"):
            self._out_sent = None
            log.info("the pyramid refused OUT %d (NAK %s): it judges each reading alone", self.out,
                     msg.get("reason"))

    def _deliver(self, event):
        self._out_events.append(event)

    def _ask_hello(self, now):
        """Ask for the short ``HI`` (all delivery needs), and for the full ``HELLO`` too
        while this boot's has not come (at most every ``HELLO_RETRY_S``). A pyramid of
        an older firmware answers both with ``HELLO``."""
        self._last_hello_ask = now
        self._hello_wanted = False
        self._send("HELLO?", s=True)
        if self._identity_wanted() and (self._last_full_ask is None
                                        or now - self._last_full_ask > HELLO_RETRY_S * self.pace):
            self._last_full_ask = now
            self._send("HELLO?")

    def _identity_wanted(self):
        if self.state == "refused":
            return False
        return self.hello is None or (self._device_boot is not None and self.hello["boot"] != self._device_boot)

    def _want_hello(self, now):
        # ask now, or as soon as the last ask is HELLO_FLOOD_S (times the pace) old: no
        # flood while lines pour in
        if self._last_hello_ask is None or now - self._last_hello_ask > HELLO_FLOOD_S * self.pace:
            self._ask_hello(now)
        else:
            self._hello_wanted = True

    def _sync(self, now, force=False):
        """Ask the device to replay what follows ``delivered`` of ``boot``: only the
        hole before the first event held ahead (``to=``), retried with backoff."""
        if not force and self._sync_sent is not None and now - self._sync_sent < self._sync_wait:
            return
        if self._sync_sent is not None and not force:
            longest = self.sync_timeout
            if self.noisy:
                hole = (min(self._ahead) - 1 if self._ahead else self._heard) - self.delivered
                longest = min(longest, max(SYNC_FIRST_S, NOISY_SYNC_PER_EVENT_S * hole))
            self._sync_wait = min(self._sync_wait * 2, longest)
        self._sync_sent = now
        self.stats["syncs"] += 1
        fields = {"seq": self.delivered}
        if self._store:
            fields["boot"] = self.boot
            if self._ahead:
                fields["to"] = min(self._ahead) - 1
        self._send("SYNC", **fields)

    def _progress(self):
        self._sync_wait = SYNC_FIRST_S

    def _ack_point(self):
        """What ``ACK`` may say: what the consumer took, or with ``taken`` only what it
        made safe (and the gap and foreign events right after that, when the consumer
        keeps none of them)."""
        if self._taken is None:
            return self._consumed
        safe = self._taken()
        if safe is not None and safe == self._kept:
            return self._consumed  # everything taken since is a gap or a fault
        return safe

    def _maybe_ack(self, now):
        if not self._store:
            return
        point = self._ack_point()
        if point is None or point == self._ack_sent or (self._ack_time is not None and now - self._ack_time < 0.05):
            return
        self._send("ACK", seq=point[1], boot=point[0])
        self._ack_sent = point
        self._ack_time = now

    def _report_gap(self, boot, first, last, why):
        """One ``gap`` event for seqs ``first..last`` of ``boot`` (``last`` ``None``:
        from ``first`` on, count unknown). Two numbers, whatever the count."""
        if last is not None and last < first:
            return
        self.stats["gaps"] += 1
        if last is None:
            log.warning("pyramid events of boot %s from %d on may be lost (count unknown; %s)", boot, first, why)
        else:
            log.warning("pyramid events %s:%d..%d are lost (%s)", boot, first, last, why)
        self._deliver(DieEvent("gap", boot, first, "", missing=SeqRange(first, last)))

    # --- the device's messages ---

    def _on_hello(self, msg, now):
        proto = msg["proto"]
        if proto != protocol.PROTOCOL_VERSION:
            self._refuse(proto)
            return
        boot, seq = msg["boot"], msg["seq"]
        acked = msg.get("acked")
        if not self.confirmed:
            if msg.name == "HELLO" and msg["uid"] != self.uid:
                self._refuse_board(msg)
                return
            prev = msg.get("prev")
            if msg.name != "HELLO" and boot != self.boot and (prev is None or prev[0] != self.boot):
                # a HI names no board, and this boot is not the journal's: the connection
                # is up, the full HELLO is asked for (``_identity_wanted``), and a device
                # with a store is asked for its record of the journal's boot (``_on_record``);
                # nothing is delivered or acknowledged yet
                self.synced = True
                self._device_boot = boot
                self._anchor = (seq, now)
                self.state = "connected"
                if acked is not None:
                    first = self._held is None
                    self._held = msg
                    if first:
                        self._ask_record()
                return
            # the board named, or the journal's own boot, now or just before this one (a
            # random id drawn at each power-up: no other board ran it), so a noisy line
            # waits for no HELLO
            self.confirmed = True
            self._held = None
        if boot == self.boot and seq < self.delivered:
            self._refuse_went_back(boot, seq)
            return
        if msg.name == "HELLO":
            self.hello = msg  # the identity; a HI only moves the sequence on
        self.synced = True
        self._device_boot = boot
        sent = self._out_sent
        if self.out is not None and self.out_answered != boot and (sent is None or sent[0] != boot):
            # a board that restarted forgot the dice out, and a mask held (the port was
            # closed, the board not yet confirmed) is due: told before anything it
            # releases from now on is judged, not at the table's next journal write
            self.out_answered = None
            self._send_out(now, first=True)
        self._anchor = (seq, now)
        self._store = acked is not None
        self._ack_sent = None  # a new connection (or boot) is told once where we stand
        if self.state != "connected":
            self.state = "connected"
        if self.boot is None:
            # first contact, nothing to resume: a device that keeps events until a host
            # acknowledges them hands over the ones no host took (released before this
            # HELLO arrived); an older one only what happens from now on
            start = acked if self._store and acked <= seq else seq
            self.boot, self.delivered, self._heard = boot, start, seq
            self.origin = (boot, start)
            self._consumed = self._kept = None
            if seq > start:
                self._sync(now, force=True)
            return
        if self._store and boot == self.boot and acked > self.delivered:
            self._foreign(boot, self.delivered + 1, acked)
        if boot != self.boot:
            if self._store:
                # walk the device's boots from ours on; what a host acknowledged of the
                # current one was not this table's (our journal ends in an earlier boot)
                self._others = (boot, acked) if acked else None
                self._sync(now, force=True)
                return
            self._new_boot(boot, msg.get("prev"), seq)
        self._heard = max(self._heard, seq)
        if seq > self.delivered:
            self._sync(now, force=True)

    def _refuse(self, proto):
        ours = protocol.PROTOCOL_VERSION
        if proto > ours:
            fix = _("update this program (pip install --upgrade the pyramid host package)")
        else:
            fix = _("update the pyramid's firmware (pyramid flash --port %s)") % self.port
        text = (_("the pyramid on %(port)s speaks protocol version %(theirs)d, this program "
                  "version %(ours)d: %(fix)s")
                % {"port": self.port, "theirs": proto, "ours": ours, "fix": fix})
        if self.refused is None:
            log.error("%s", text)
        self.refused = text
        self.state = "refused"

    def _ask_record(self):
        """Ask a device not yet known to be the game's for its record of the journal's
        boot (``SYNC <delivered> to=<delivered> boot=<ours>``: nothing is replayed, its
        ``SYNCED`` says whether it knows that boot)."""
        self._send("SYNC", seq=self.delivered, boot=self.boot, to=self.delivered)

    def _on_record(self, msg, now):
        """A ``SYNCED`` before the board is confirmed: when it is the record of the
        journal's own boot (``known`` not 0), the device's flash holds that boot, drawn
        at random at one of its power-ups: it is the game's board, and its ``HI`` held
        meanwhile is taken as its first (on a noisy line the long HELLO need not cross
        whole). Any other ``SYNCED`` changes nothing."""
        held = self._held
        if held is None or msg["boot"] != self.boot or not msg.get("known", True):
            return
        self.confirmed = True
        self._held = None
        self._on_hello(held, now)

    def _refuse_board(self, msg):
        """The pyramid's ``HELLO`` names another board than ``uid``: nothing of it is
        taken (state ``refused``, ``refused`` names both boards)."""
        ours = self.uid
        if self.origin is not None:
            ours = _("%(board)s (boot %(boot)s)") % {"board": self.uid, "boot": self.origin[0]}
        text = (_("the pyramid on %(port)s is board %(board)s (boot %(boot)s), not the one this "
                  "game was played with, board %(ours)s: %(fix)s")
                % {"port": self.port, "board": msg["uid"], "boot": msg["boot"], "ours": ours,
                   "fix": self.board_fix or _(BOARD_FIX)})
        if self.refused is None:  # said by the one who reads ``refused``: logged only
            log.info("%s", text)
        self.refused = text
        self.state = "refused"

    def _refuse_went_back(self, boot, seq):
        """A ``HELLO``/``HI`` of the boot followed whose last seq is below what was
        delivered of it (the journal's): a boot's seq never goes back, so this is another
        board that drew the same boot id (the emulated Pico did, before s35) or one whose
        memory of its boot was lost. Nothing of it is taken (state ``refused``, the
        refusal names the boot and both numbers), where its events would have been
        dropped as ones already had, unsaid (tester2 s35, finding 7c)."""
        text = (_("the pyramid's record of boot %(boot)s went back (event %(event)d after "
                  "%(delivered)d): it is not the board this game was played on, or its memory "
                  "was lost: %(fix)s")
                % {"boot": boot, "event": seq, "delivered": self.delivered,
                   "fix": self.board_fix or _(BOARD_FIX)})
        if self.refused is None:  # said by the one who reads ``refused``: logged only
            log.info("%s", text)
        self.refused = text
        self.state = "refused"

    def _new_boot(self, boot, prev, seq):
        # a device without an event store (no acked= in HELLO): name what its restart took
        old, last = self.boot, self._heard
        if prev is not None and prev[0] == old:
            last = max(last, prev[1])  # the device's own record of the old boot's last event
        self._flush_ahead()
        self._report_gap(old, self.delivered + 1, last, "the pyramid restarted before sending them")
        if prev is not None and prev[0] not in (old, boot) and prev[1] > 0:
            # the device restarted more than once while we were away: the boot in between
            # had events we never saw, and the old boot may have had more after ``last``
            self._report_gap(prev[0], 1, prev[1], "a restart in between took them")
            self._report_gap(old, last + 1, None, "a restart in between")
        log.info("pyramid restarted: boot %s -> %s", old, boot)
        self._enter_boot(boot, seq)

    def _enter_boot(self, boot, heard=0):
        leaving = self.boot == self._taken_boot
        self.boot, self.delivered, self._heard = boot, 0, heard
        self._ahead = {}
        self._sync_sent = None
        self._progress()
        if self._others is not None and self._others[0] == boot:
            self._foreign(boot, 1, self._others[1])
        if leaving:
            self._dropped_said()

    def _dropped_said(self):
        """The device's store dropped the journal's boot (``_on_synced``) and no foreign
        range said another host used the board since: said now, as the events after
        the journal's last of that boot, count unknown, acknowledged by another host."""
        if self._dropped is not None:
            self._foreign(self._dropped[0], self._dropped[1], None)

    def _foreign(self, boot, first, last):
        """Events ``first..last`` of ``boot`` were acknowledged by another host (the
        pyramid served another table since this one's last event): one ``foreign``
        event names them, and none of them is delivered (issue 29, item 1). ``last``
        ``None``: from ``first`` on, count unknown (a boot the device's store dropped),
        nothing more of that boot follows."""
        if self._others is not None and self._others[0] == boot:
            self._others = None
        self._dropped = None  # another host's use of the board is said: once is enough
        self.stats["foreign"] += 1
        if last is None:
            log.info("pyramid events %s:%d and after were acknowledged by another host since this "
                     "game's last one; they are not this game's", boot, first)
            self._deliver(DieEvent("foreign", boot, first, "", missing=SeqRange(first, None)))
            return
        # the table says it, once, in its words (``Table._foreign_text``): logged only
        log.info("pyramid events %s:%d..%d were taken by another table since this game's last one; "
                 "they are not this game's", boot, first, last)
        self._ahead = {s: e for s, e in self._ahead.items() if s > last}
        self.delivered = last
        self._heard = max(self._heard, last)
        self._deliver(DieEvent("foreign", boot, first, "", missing=SeqRange(first, last)))
        self._flush_ahead()

    def _flush_ahead(self):
        """Deliver events held ahead that are now next in order."""
        ahead = self._ahead
        while ahead:
            nxt = ahead.pop(self.delivered + 1, None)
            if nxt is None:
                return
            self.delivered += 1
            self._deliver(nxt)

    def _on_heartbeat(self, msg, now):
        if msg["boot"] != self._device_boot or not self.synced:
            # a restart we have not heard the HELLO of, or no HELLO yet: its pace is
            # learnt all the same (the asks for that HELLO follow it)
            self._heartbeat_interval(msg["boot"], now)
            self._want_hello(now)
            return
        if not self._plausible(msg["boot"], msg["seq"], now, "heartbeat"):
            return
        self._anchor = (msg["seq"], now)
        self._heartbeat_interval(msg["boot"], now)
        if not self.confirmed:
            return  # nothing asked of a board not yet known to be this game's
        if msg["boot"] != self.boot:
            if self._walking():
                self._sync(now)  # still walking older boots: keep the replay going
            return
        self._heard = max(self._heard, msg["seq"])
        if msg["seq"] > self.delivered:
            self._sync(now)

    def _heartbeat_interval(self, boot, now):
        """Remember the wall time since the last heartbeat of the same boot on this
        connection (another boot: a board that restarted, or another board, learnt
        afresh)."""
        last = self._hb_last
        if last is not None and last[0] == boot:
            self._hb_gaps = (self._hb_gaps + [now - last[1]])[-HB_KEEP:]
        elif last is not None:
            self._hb_gaps = []
        self._hb_last = (boot, now)

    def _on_event(self, msg, text, now):
        boot, seq = msg["boot"], msg["seq"]
        if not self.synced or (boot != self.boot and boot != self._device_boot):
            self._want_hello(now)  # the HELLO (or restart) this event belongs to is unknown yet
            return
        if not self._plausible(boot, seq, now, "die event"):
            return
        if boot != self.boot:
            return  # a later boot's event while older ones are replayed: asked for in turn
        if seq <= self.delivered or seq in self._ahead:
            self.stats["duplicates"] += 1
            if self._consumed is not None and self._consumed == (boot, seq):
                self._ack_sent = None  # the device resends what we took: our ACK was lost
            return
        event = msg  # decoded as the event it is (``events.decode``): handed on as it came
        event.raw = text
        resent = seq <= self._heard
        self._heard = max(self._heard, seq)
        if resent:
            self.stats["replayed"] += 1  # announced before (HB, HELLO, a later event): a resend
        if seq > self.delivered + 1:
            if seq <= self.delivered + WINDOW:
                self._ahead[seq] = event
            self._sync(now)  # a hole before this one: ask for just the hole
            return
        self.delivered = seq
        self._deliver(event)
        self._flush_ahead()
        self._progress()

    def _on_gap(self, msg, now):
        if msg["boot"] != self.boot:
            return
        first, last = msg["first"], msg["last"]
        if not self._plausible(self.boot, last, now, "GAP"):
            return
        if last <= self.delivered or first > self.delivered + 1:
            return  # old news, or not contiguous with what we have: the next SYNC sorts it out
        start = self.delivered + 1
        if self.boot == self._taken_boot:
            # the boot another host acknowledged (``_on_synced``): its store kept none of
            # the events that host took
            self._foreign(self.boot, start, last)
            self._progress()
            return
        self._report_gap(self.boot, start, last, "the pyramid no longer holds them")
        for seq in [s for s in self._ahead if s <= last]:
            del self._ahead[seq]
        self.delivered = last
        self._heard = max(self._heard, last)
        self._flush_ahead()
        self._progress()

    def _on_synced(self, msg, now):
        boot, seq = msg["boot"], msg["seq"]
        if boot != self.boot or not self._plausible(boot, seq, now, "SYNCED"):
            return
        self._heard = max(self._heard, seq)
        if not msg.get("known", True):
            # the device's store no longer holds our boot: it drops a boot only once a
            # host acknowledged a later one (an acknowledgement covers every boot before
            # it), so what followed our last event was acknowledged by another host:
            # another use of the board (a table, doctor, a calibrate session), never
            # this game's lost dice (s36 tester, finding 10). The first boot it still
            # holds (``next``) is the one acknowledged: what it no longer keeps (a GAP)
            # was that host's too.
            # Said once: by the foreign range of that boot when one comes, else on
            # leaving it (``_dropped_said``).
            self._flush_ahead()
            nxt = msg.get("next")
            acknowledged = nxt != self._device_boot or (
                self._others is not None and self._others[0] == nxt)
            if not acknowledged:
                # but the first boot it holds is the one it runs now and no host
                # acknowledged any of it: the store kept nothing (a flash that fails,
                # RAM only), so what followed our last event is lost, not another
                # host's: a gap from there, count unknown, as ever
                first = self.delivered + 1
                self._ahead = {}
                self._report_gap(boot, first, None if self._heard < first else self._heard,
                                 "the pyramid kept no record of that boot")
                if self._heard >= first:
                    self._report_gap(boot, self._heard + 1, None,
                                     "the pyramid kept no record of that boot")
                self._next_boot(nxt, now)
                return
            self._ahead = {}
            self._dropped = (boot, self.delivered + 1)
            self._taken_boot = nxt
            self._next_boot(nxt, now)
            return
        if seq > self.delivered:
            self._sync(now, force=True)  # the replay ended and a line of it was lost: ask again
            return
        nxt = msg.get("next")
        if nxt is not None and self._store:
            if self._heard > seq:
                # we heard of events the device's store does not hold (its flash failed)
                self._report_gap(boot, seq + 1, self._heard, "the pyramid restarted before storing them")
            self._next_boot(nxt, now)
            return
        self._sync_sent = None
        self._progress()
        self._dropped_said()  # the walk ended (the board's current boot): said if unsaid

    def _next_boot(self, nxt, now):
        """Our boot is fully accounted for: continue with the one after it."""
        if nxt is None or nxt == self.boot:
            nxt = self._device_boot
        log.info("pyramid boot %s done; replaying boot %s", self.boot, nxt)
        self._enter_boot(nxt)
        self._sync(now, force=True)

    def _plausible(self, boot, seq, now, what):
        """Whether ``seq`` of ``boot`` can exist (see ``MAX_RATE``); an impossible one is
        counted (``stats["implausible"]``) and said once per boot."""
        if boot != self._device_boot or self._anchor is None:
            return True
        limit = self._anchor[0] + SEQ_SLACK + int(MAX_RATE * max(0.0, now - self._anchor[1]))
        if seq <= limit:
            return True
        self.stats["implausible"] += 1
        if self._implausible_said != boot:
            self._implausible_said = boot
            log.warning("skipped a %s naming seq %d of boot %s: the pyramid cannot have numbered more "
                        "than %d by now (a damaged line, not a lost event)", what, seq, boot, limit)
        return False

    def _walking(self):
        return self._store and self._device_boot is not None and self.boot != self._device_boot
