"""Numbered event log: a fixed RAM ring of framed EVT lines, ready to resend.

Every event the pyramid reports gets the next sequence number of this boot
(1, 2, 3, ...) and is framed once (``camelup.protocol.encode``); the framed bytes
are what the ring keeps, so a replay after ``SYNC`` costs no formatting and no
allocation. The ring holds the last ``capacity`` events; older ones are gone and a
replay reports them as a ``GAP`` (docs/protocol.md, "Delivery").

Optionally the last ``(boot, seq)`` is written to a small file after each event,
so the next boot can tell the host which events of the previous boot existed
(``prev=`` in HELLO) even if they were never delivered.
"""

import camelup.protocol as protocol


class EventLog:
    """Ring of the last ``capacity`` framed events of one boot.

    ``boot``: this boot's id (8 uppercase hex digits). ``state_path``: file for
    the ``BOOT SEQ`` record, or ``None`` to keep nothing across reboots.
    ``capacity``: events kept (default 64; each line is at most
    ``protocol.MAX_LINE`` bytes, so 64 events cost at most about 10 KB).
    """

    def __init__(self, boot, capacity=64, state_path=None):
        self.boot = boot
        self.seq = 0  # last seq used in this boot (0 = none yet)
        self._ring = [None] * capacity
        self._cap = capacity
        self._state_path = state_path

    def oldest(self):
        """Oldest seq still in the ring (``seq + 1`` when the ring is empty)."""
        first = self.seq - self._cap + 1
        return first if first > 1 else 1

    def append(self, kind, fields):
        """Number, frame and keep one event; return its line (bytes).

        ``kind``: one of ``protocol.EVENT_KINDS``; ``fields``: dict of the kind's
        fields (``seq`` and ``boot`` are filled in here). Raises ``ProtocolError`` on a bad field,
        in which case no seq is used up. ``boot`` is filled in too, so
        every line names its boot and the host de-duplicates on (boot, seq).
        """
        seq = self.seq + 1
        fields["seq"] = seq
        fields["boot"] = self.boot
        line = protocol.encode("EVT", kind, **fields)
        self.seq = seq
        self._ring[seq % self._cap] = line
        self._save()
        return line

    def get(self, seq):
        """The framed line of event ``seq`` (bytes), or ``None`` if never sent or dropped."""
        if seq < self.oldest() or seq > self.seq or seq < 1:
            return None
        return self._ring[seq % self._cap]

    def _save(self):
        if self._state_path is None:
            return
        tmp = self._state_path + ".tmp"
        try:
            with open(tmp, "w") as f:
                f.write(self.boot + " " + str(self.seq) + "\n")
            # rename is atomic on LittleFS and POSIX: the record is old or new, never torn
            import os

            os.rename(tmp, self._state_path)
        except (OSError, MemoryError):
            # a full or failing flash (or a heap too fragmented for the file object)
            # must not stop the pyramid reporting dice: the event is numbered already
            pass


def read_previous(state_path):
    """Return ``(boot, seq)`` recorded by an earlier boot, or ``None`` if absent or unreadable."""
    try:
        with open(state_path) as f:
            parts = f.read().split()
        if len(parts) != 2:
            return None
        boot = protocol._parse_hex8(parts[0])
        return (boot, protocol._parse_uint(parts[1]))
    except (OSError, ValueError):
        return None
