"""Numbered events kept until a host acknowledges them: a RAM ring plus an append log on flash.

Every event the pyramid reports gets the next sequence number of this boot
(1, 2, 3, ...) and is framed once (``camelup.board.protocol.encode``). The framed line
goes into a RAM ring of the last ``capacity`` events (replay without flash reads)
and is appended to the store file on flash by ``persist()`` before it goes on the
wire (``App.emit``: write-ahead, the release's readings being done by then; the idle
host-command loop persists acknowledgements). The store
keeps events of earlier boots too, until the host acknowledges them (``ACK``), so a
reboot before delivery loses nothing (docs/protocol.md, "Delivery").

The store file (``events.log``, littlefs on the board, a plain file in the
simulator) holds one record per line, each framed like a wire line (``BODY*CRC``),
so a torn or damaged record is detected by its CRC and skipped:

* ``EVT <seq> <kind> ... boot=B`` the event line exactly as sent;
* ``B <boot> <prev>``            a boot started; ``prev`` = ``BOOT:LASTSEQ`` of the boot
  before it, or ``-``;
* ``A <boot> <seq>``             a host has every event up to ``seq`` of ``boot`` (and
  of every boot before it);
* ``P <boot> <seq>``             a slider push was taken, its event will be ``seq``
  (written at the slider's edge, before the release is read: a reset before the
  event is numbered leaves a push without its event, which the next boot turns into
  an ``unknown`` event with ``best=reboot``, so every push still ends as one event).

Flash wear: one short append per event and one per acknowledgement. The file is
rewritten (write-then-rename, atomic on littlefs and POSIX), keeping what is not yet
acknowledged:

* at boot, by a copy of the store record by record (before the watchdog starts; a
  store of 480 unacknowledged events delays ``HELLO`` by about 7 s of chip time on
  the rp2 port); a boot whose read of the store failed part way does not rewrite it
  (that would drop what it did not read);
* while the firmware runs, only from RAM: when the store exceeds ``COMPACT_BYTES``
  and every event it must keep is in the RAM ring (a host acknowledged some of this
  boot, and so every earlier boot to its last event), a few records whatever the
  store's size. A copy of the store never happens while the firmware runs: on the
  rp2 port a copy of 480 events held every task for seconds, long enough to miss a
  push of the slider, and the 5 s watchdog reset the board.

A replay from the store (``replay``) sends at most ``limit`` events and goes on, at
the host's next ``SYNC``, from the file offset where it began, not from the file's
start: a host catching up on hundreds of stored events never makes the board read
the whole store at once.
A write error is counted (``store_errors``) and never stops the pyramid: its events
stay in the RAM ring and anything beyond is reported to the host as a ``GAP``.
"""

import os

import camelup.board.protocol as protocol

from pyramid.compat import ticks_add, ticks_diff

#: Store size that triggers a rewrite without the acknowledged records (bytes).
COMPACT_BYTES = 24576
#: Largest store (bytes, about 900 events with their push records): beyond it new
#: events stay in RAM only.
MAX_BYTES = 98304
#: Boots remembered in the store (each costs a few bytes of RAM).
MAX_BOOTS = 12
#: The newest event, while no host acknowledges it, is sent again after this (ms),
#: the wait doubling up to ``RESEND_MAX_MS``: a line lost on the way costs one resend,
#: not a heartbeat period plus a SYNC round trip.
RESEND_FIRST_MS = 150
RESEND_MAX_MS = 2000


_record = protocol.frame


def _evt_key(body):
    """``(boot, seq)`` of an ``EVT`` body, or ``None``."""
    if not body.startswith("EVT "):
        return None
    sp = body.find(" ", 4)
    at = body.find(" boot=")
    if sp < 0 or at < 0:
        return None
    try:
        return body[at + 6 : at + 14], protocol.parse_uint(body[4:sp])
    except ValueError:
        return None


class EventLog:
    """The events of this boot and the unacknowledged ones of earlier boots.

    ``boot``: this boot's id (8 uppercase hex digits). ``capacity``: events kept in
    RAM (default 64; a line is at most ``protocol.MAX_LINE`` bytes, so about 13 KB
    at most). ``path``: the store file, or ``None`` for RAM only (unit tests).
    ``prev``: ``(boot, last seq)`` of the boot before this one, or ``None``.
    """

    def __init__(self, boot, capacity=64, path=None):
        self.boot = boot
        self.seq = 0  # last seq used in this boot (0 = none yet)
        self._ring = [None] * capacity
        self._cap = capacity
        self._path = path
        self._unsaved = []  # framed event lines not yet on flash
        self._ack_dirty = False
        self.store_errors = 0
        self._resend_at = None  # ticks when the newest event goes out again (None = not due)
        self._resend_wait = RESEND_FIRST_MS
        self._resend_new = False
        #: a host that acknowledges events listens (ACK, or SYNC with boot=): only
        #: then is the newest event sent again until acknowledged
        self.acking = False
        # boots known to the store, oldest first: [boot, last seq, acked seq or -1];
        # this boot's entry (the last) also holds the last seq a push was taken for
        self._boots = []
        self.prev = None
        self._size = 0
        #: where the last replay from the store began: [boot (None: nowhere), seq,
        #: offset of its first record] (every earlier record of that boot lies before
        #: it, until the next rewrite; a host asking again, or for what follows, starts
        #: there), then where the record ``_scan`` visits starts
        self._resume = [None, 0, 0, 0]
        if path is not None:
            errors = self.store_errors
            self._load()
            if self.store_errors == errors:
                self._compact(False)
            # else: a store that could not be read whole is never rewritten from what
            # was read (that would drop the rest): appended to, read again next boot
        self._boots.append([boot, 0, -1, 0])
        if path is not None:
            self._write((_record("B %s %s" % (boot, protocol.format_prev(self.prev))),))

    # --- the store ---

    def _scan(self, visit, start=0):
        """Call ``visit(body)`` for every intact record of the store file from byte
        ``start`` on, oldest first, until it returns ``True``; ``_resume[3]`` is where
        the record visited starts. A torn or damaged record (its CRC says so) is
        skipped. Raises ``OSError`` only when the file exists but can't be read."""
        try:
            f = open(self._path, "rb")
        except OSError:
            return
        try:
            f.seek(start)
            at = start
            while True:
                line = f.readline()
                if not line:
                    return
                self._resume[3] = at
                at += len(line)
                try:
                    body = protocol.unframe(line)
                except (ValueError, UnicodeError):
                    continue
                if visit(body):
                    return
        finally:
            f.close()

    def _find(self, boot):
        for entry in self._boots:
            if entry[0] == boot:
                return entry
        return None

    def _load(self):
        boots = self._boots
        pushes = {}  # type: dict[str, int]  # boot -> the last seq a push was taken for

        def visit(body):
            key = _evt_key(body)
            if key is not None:
                entry = self._find(key[0])
                if entry is None:
                    entry = [key[0], 0, -1]
                    boots.append(entry)
                if key[1] > entry[1]:
                    entry[1] = key[1]
                return False
            parts = body.split(" ")
            if len(parts) != 3:
                return False
            if parts[0] == "B":
                if self._find(parts[1]) is None:
                    boots.append([parts[1], 0, -1])
                return False
            try:
                seq = protocol.parse_uint(parts[2])
            except ValueError:
                return False
            if parts[0] == "P":
                if self._find(parts[1]) is None:
                    boots.append([parts[1], 0, -1])
                if seq > pushes.get(parts[1], 0):
                    pushes[parts[1]] = seq
            elif parts[0] == "A":
                self._mark_acked(parts[1], seq)
            return False

        try:
            self._scan(visit)
        except (OSError, MemoryError):
            self.store_errors += 1
        self._finish_pushes(pushes)
        if boots:
            self.prev = (boots[-1][0], boots[-1][1])

    def _finish_pushes(self, pushes):
        """Pushes of earlier boots that never got their event (the board reset
        between the slider's edge and the event): each becomes its event now, an
        ``unknown`` with ``best=reboot`` (the table has the dice put back and released
        again), appended to the store under its own boot and seq."""
        lines = []
        for entry in self._boots:
            last = pushes.get(entry[0], 0)
            seq = entry[1] + 1
            while seq <= last:
                lines.append(protocol.encode("EVT", "unknown", seq=seq, boot=entry[0], best="reboot", val=None,
                                             raw=(0, 0, 0, 0)))
                seq += 1
            if last > entry[1]:
                entry[1] = last
        if lines:
            self._write(lines)

    def pushed(self, seq):
        """A slider push was taken; its event will be ``seq`` of this boot. Written to
        flash at once (``P`` record): see ``_finish_pushes``. Never raises for flash
        errors."""
        self._boots[-1][3] = seq
        if self._path is not None:
            self._write((_record("P %s %d" % (self.boot, seq)),))

    def _mark_acked(self, boot, seq):
        """An acknowledgement covers ``boot`` up to ``seq`` and every boot before it;
        True when it changed anything."""
        entry = self._find(boot)
        if entry is None:
            return False
        changed = False
        for e in self._boots:
            if e is entry:
                break
            if e[2] < e[1]:
                e[2] = e[1]
                changed = True
        if seq > entry[2]:
            entry[2] = seq
            changed = True
        if seq > entry[1]:  # a store rewritten without the events a host has
            entry[1] = seq
        return changed

    def _needed(self):
        """The boots the store must still describe: from the last one a host
        acknowledged (the host's walk continues from it) on, or all."""
        first = 0
        for i in range(len(self._boots)):
            if self._boots[i][2] >= 0:
                first = i
        return self._boots[first:]

    def _compact(self, ram):
        """Rewrite the store with the boots still needed and their unacknowledged
        events (a temporary file renamed over the old one: atomic on littlefs): copied
        from the store record by record, or with ``ram`` (every event it must keep is in the ring) this
        boot's from the RAM ring and the push being read, a few records whatever the
        store's size."""
        if len(self._boots) >= MAX_BOOTS:
            self._boots = self._boots[-(MAX_BOOTS - 1) :]
        kept = self._needed()
        tmp = self._path + ".tmp"
        size = [0]  # bytes written

        try:
            with open(tmp, "wb") as out:

                def put(line):
                    out.write(line)
                    size[0] += len(line)

                def visit(body):
                    # (a copy happens at boot only: no push of this boot to keep)
                    key = _evt_key(body)
                    if key is not None:
                        for entry in kept:
                            if entry[0] == key[0]:
                                if key[1] > entry[2]:
                                    put(_record(body))
                                break
                    return False

                prev = None
                for entry in kept:
                    put(_record("B %s %s" % (entry[0], protocol.format_prev(prev))))
                    prev = (entry[0], entry[1])
                    if entry[2] >= 0:
                        put(_record("A %s %d" % (entry[0], entry[2])))
                if ram:
                    seq = self.acked() + 1
                    while seq <= self.seq:
                        put(self.get(seq))  # in the ring (None: TypeError, the store kept)
                        seq += 1
                    seq = self._boots[-1][3]
                    if seq > self.seq:
                        put(_record("P %s %d" % (self.boot, seq)))
                else:
                    self._scan(visit)
            os.rename(tmp, self._path)
            self._boots = kept
            self._size = size[0]
            self._resume[0] = None
        except (OSError, MemoryError, TypeError):
            self.store_errors += 1

    def _write(self, lines):
        try:
            with open(self._path, "ab") as f:
                for line in lines:
                    f.write(line)
                    self._size += len(line)
            return True
        except (OSError, MemoryError):
            self.store_errors += 1
            return False

    def persist(self):
        """Append the events and the acknowledgement not yet on flash (call it when
        no release is in progress: a littlefs block erase stalls the CPU for tens of
        ms). Returns the number of records written. Never raises for flash errors;
        a store over ``MAX_BYTES`` takes no more events (they stay in the RAM ring,
        and replay names what is beyond it in a ``GAP``)."""
        if self._path is None:
            self._unsaved = []
            self._ack_dirty = False
            return 0
        lines = self._unsaved
        if self._size > MAX_BYTES:
            self.store_errors += len(lines)
            lines = []
        if self._ack_dirty:
            entry = None
            for e in self._boots:
                if e[2] >= 0:
                    entry = e
            if entry is not None:
                lines = lines + [_record("A %s %d" % (entry[0], entry[2]))]
        self._unsaved = []
        self._ack_dirty = False
        if not lines:
            return 0
        self._write(lines)
        if self._size > COMPACT_BYTES and self._boots[-1][2] >= self.oldest() - 1:
            # every event the store must keep is in the RAM ring (a host acknowledged
            # some of this boot, so every boot before it to its last event: see
            # _mark_acked): rewritten from RAM, a few records
            self._compact(True)
        return len(lines)

    # --- events ---

    def oldest(self):
        """Oldest seq of this boot still in the RAM ring (``seq + 1`` when none)."""
        first = self.seq - self._cap + 1
        return first if first > 1 else 1

    def append(self, kind, fields):
        """Number, frame and keep one event; return its line (bytes).

        ``kind``: one of ``protocol.EVENT_KINDS``; ``fields``: dict holding the kind's
        fields (``seq`` and ``boot`` are filled in here, so the dict is the numbered
        event: for a release, its verdict record, ``pyramid.release.verdict``; keys
        the kind has not, such as the record's ``label``, stay off the line). Raises ``ProtocolError`` on
        a bad field, in which case no seq is used up. The line reaches flash at the
        next ``persist()``.
        """
        seq = self.seq + 1
        fields["seq"] = seq
        fields["boot"] = self.boot
        line = protocol.encode("EVT", kind, **fields)
        self.seq = seq
        self._boots[-1][1] = seq
        self._ring[seq % self._cap] = line
        self._resend_new = True
        if self._path is not None:
            self._unsaved.append(line)
        return line

    def get(self, seq):
        """The framed line of event ``seq`` of this boot from the RAM ring (bytes), or ``None``."""
        if seq < self.oldest() or seq > self.seq or seq < 1:
            return None
        return self._ring[seq % self._cap]

    def acked(self):
        """Last seq of this boot a host acknowledged (0 = none)."""
        seq = self._boots[-1][2]
        return seq if seq > 0 else 0

    def ack(self, boot, seq):
        """A host has every event up to ``seq`` of ``boot`` and of every boot before
        it (``ACK``; a ``SYNC`` is no acknowledgement). Unknown boots and
        seqs beyond what exists are ignored."""
        self.acking = True
        entry = self._find(boot)
        if entry is None or seq > entry[1]:
            return
        if self._mark_acked(boot, seq):
            self._ack_dirty = True
        if self._boots[-1][2] >= self.seq:
            self._resend_at = None
            self._resend_new = False

    def resend(self, now):
        """The newest event's line (bytes) when it is due to go out again, else ``None``.

        ``now``: ``ticks_ms()``. Due ``RESEND_FIRST_MS`` after it was numbered, then
        after ever doubling waits (up to ``RESEND_MAX_MS``), until a host
        acknowledges it (``ack``). Older unacknowledged events come back through the
        host's ``SYNC`` once it sees the newest."""
        if self._resend_new:
            self._resend_new = False
            self._resend_wait = RESEND_FIRST_MS
            self._resend_at = ticks_add(now, RESEND_FIRST_MS)
            return None
        at = self._resend_at
        if at is None or not self.acking or ticks_diff(at, now) > 0 or self._boots[-1][2] >= self.seq:
            return None
        wait = self._resend_wait * 2
        self._resend_wait = wait if wait < RESEND_MAX_MS else RESEND_MAX_MS
        self._resend_at = ticks_add(now, self._resend_wait)
        return self.get(self.seq)

    def replay(self, boot, after, to, send, limit):
        """Send (``send(line)``) the events of ``boot`` after seq ``after`` up to ``to``
        (``None`` = all), ``GAP`` lines for those no longer kept, then one ``SYNCED``.

        For an earlier boot, ``SYNCED`` carries ``next=`` (the boot that followed
        it); for a boot the device has no record of, ``known=0``.

        ``limit``: events sent from the flash store at most (-1: all); the replay then
        ends with ``SYNCED`` at once (the host asks again from what it got) and the
        next replay of that boot goes on from that record of the file, not from its
        start: a host catching up on hundreds of stored events never holds every task
        for a read of the whole store (about 10 ms per record on the rp2 port). A
        replay stops reading at the boot's last event (``to`` or the last it has).
        """
        entry = self._find(boot)
        if entry is None:
            send(protocol.encode("SYNCED", seq=after, boot=boot, next=self._boots[0][0], known=False))
            return
        last = entry[1]
        end = last if to is None or to > last else to
        expected = after + 1
        ring_from = self.oldest() if boot == self.boot else last + 1
        if expected < ring_from and expected <= end and self._path is not None:
            # older than the RAM ring: from the store file, in order. The next seq
            # wanted, where the first record sent starts, events still allowed
            cursor = [expected, -1, limit]

            def visit(body):
                key = _evt_key(body)
                if key is None or key[0] != boot or key[1] < cursor[0]:
                    return False
                if key[1] >= ring_from or key[1] > end:
                    return True
                if not cursor[2]:
                    cursor[0] = end + 1  # this one and the rest next time: no GAP
                    return True
                cursor[2] -= 1
                if cursor[1] < 0:
                    cursor[1] = self._resume[3]
                if key[1] > cursor[0]:
                    send(protocol.encode("GAP", first=cursor[0], last=key[1] - 1, boot=boot))
                send(_record(body))
                cursor[0] = key[1] + 1
                # past the boot's last event only other records lie (a caught-up host's
                # A records, later boots): not read (a read of hundreds held every task
                # for over a second on the rp2 port, longer than a push of the slider)
                return key[1] >= end

            at = self._resume
            try:
                self._scan(visit, at[2] if at[0] == boot and at[1] <= expected else 0)
                # kept while the host catches up (the limit stopped it), dropped after
                at[0] = boot if cursor[1] >= 0 and not cursor[2] else None
                at[1] = expected
                at[2] = cursor[1]
            except (OSError, MemoryError):
                self.store_errors += 1
            expected = cursor[0]
        if expected < ring_from and expected <= end:
            stop = ring_from - 1 if ring_from - 1 < end else end
            send(protocol.encode("GAP", first=expected, last=stop, boot=boot))
            expected = stop + 1
        while expected <= end:  # this boot's, in the ring from ring_from on
            send(self.get(expected))
            expected += 1
        nxt = None  # this boot's SYNCED names no next boot
        for i in range(len(self._boots) - 1):
            if self._boots[i] is entry:
                nxt = self._boots[i + 1][0]
        send(protocol.encode("SYNCED", seq=last, boot=boot, next=nxt))
