"""The game journal: an append-only file, one JSON object per line, one line per event.

Every event the table accepts is written here and forced to disk (``flush`` then
``os.fsync``) *before* the table shows its result, so a crash, a pulled plug or a
closed laptop loses at most the event being typed. ``pyramid play --resume FILE``
and ``pyramid replay FILE`` rebuild the game by feeding the events back through
the same session code that accepted them (see ``camelhost.table.session``).

Line kinds (field ``"type"``; all other fields are listed in ``docs/table.md``):

``game``        first line: format version, edition, player names, seed, bots
``setup``       starting stacks of a race (RULES 2.2, 3.2), and who starts
``action``      a player's action in canonical text (``leg red``, ``tile 7 +``, ...)
``pyramid``     a pyramid ticket was taken; the next die completes it (RULES 1.7)
``die``         a die from the pyramid or typed by hand, with the raw protocol line
``value``       the value (1-3) a player keyed in for a die reported as ``?``
``ink``         the grey die's numeral ink (black/white) a player keyed in when the
                pyramid could not tell it, or ``again`` for a re-release (RULES 3.5)
``rejected``    a die the table refused (double, no die, unknown, impossible), for the record
``correction``  a board correction (a bumped stack put back, RULES 4)
``undo``        the last action taken back
``unscored``    the race ended unscored because the board could not be restored
``race``        another race with the same seats

A torn last line (the process died while writing it) is dropped when the journal
is opened again, and the file is cut back to the last whole line so the next
append starts cleanly. Damage anywhere else is an error: the journal is the
record of a real game and must not be silently rewritten.
"""

import json
import os

#: Version written in the ``game`` line; readers refuse newer versions.
FORMAT = 1


class JournalError(ValueError):
    """The journal file cannot be used: damaged before its last line, or not a journal."""


def read_events(path, repair=False):
    """Return the list of events (dicts) stored in the journal at ``path``.

    ``repair``: when true and the last line is torn (no trailing newline, or not
    valid JSON), the file is truncated to the end of the last whole line.
    Without ``repair`` a torn last line is simply skipped.
    Raises ``OSError`` when the file can't be read, ``JournalError`` when a line
    other than the last is damaged or the first event is not a ``game`` line.
    """
    with open(path, "rb") as fh:
        data = fh.read()
    events = []
    good_end = 0  # byte offset just after the last whole, valid line
    pos = 0
    torn = False
    while pos < len(data):
        nl = data.find(b"\n", pos)
        last = nl < 0 or nl == len(data) - 1
        chunk = data[pos:] if nl < 0 else data[pos:nl]
        try:
            if nl < 0:
                raise ValueError("no newline")
            event = json.loads(chunk.decode("utf-8"))
            if not isinstance(event, dict) or "type" not in event:
                raise ValueError("not an event object")
        except ValueError as exc:
            if last:
                torn = True
                break
            line_no = data.count(b"\n", 0, pos) + 1
            raise JournalError("%s: line %d is damaged (%s)" % (path, line_no, exc)) from None
        events.append(event)
        pos = nl + 1
        good_end = pos
    if events and events[0].get("type") != "game":
        raise JournalError("%s: not a game journal (first line is %r)" % (path, events[0]["type"]))
    if events and events[0].get("format", 0) > FORMAT:
        raise JournalError("%s: journal format %s is newer than this program"
                           % (path, events[0].get("format")))
    if torn and repair:
        with open(path, "r+b") as fh:
            fh.truncate(good_end)
            fh.flush()
            os.fsync(fh.fileno())
    return events


class Journal:
    """An open journal file, appended to one event at a time.

    ``Journal(path)`` opens (creating if needed) for appending; ``path=None``
    keeps events in memory only (used by tests and by ``replay``).
    ``.events`` is every event written through this object or loaded by
    ``Journal.resume``.
    """

    def __init__(self, path=None):
        self.path = path
        self.events = []
        self._fh = open(path, "ab") if path else None

    @classmethod
    def resume(cls, path):
        """Open an existing journal: repair a torn last line, load its events.

        Raises ``OSError`` if missing, ``JournalError`` if damaged or empty.
        """
        events = read_events(path, repair=True)
        if not events:
            raise JournalError("%s: the journal is empty" % path)
        journal = cls(path)
        journal.events = events
        return journal

    def append(self, event):
        """Write one event (a JSON-able dict with ``type``) and force it to disk.

        Returns only after ``os.fsync`` so the caller may then show the result.
        Raises ``OSError`` when the write or the sync fails; the line is then cut
        from the file again (best effort) and not counted in ``events``.
        """
        if "type" not in event:
            raise ValueError("journal event without a type: %r" % (event,))
        line = json.dumps(event, sort_keys=True, separators=(",", ":")) + "\n"
        if self._fh is not None:
            start = self._fh.tell()
            try:
                self._fh.write(line.encode("utf-8"))
                self._fh.flush()
                os.fsync(self._fh.fileno())
            except OSError:
                # Not safely on disk: cut the partial line so the file stays the record.
                try:
                    self._fh.truncate(start)
                    self._fh.seek(start)
                except OSError:
                    pass
                raise
        self.events.append(event)

    def close(self):
        """Close the file (idempotent)."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
