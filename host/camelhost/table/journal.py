"""The game journal: an append-only file, one checksummed JSON object per line, one line per event.

Every event the table accepts is written here and forced to disk (``flush`` then
``os.fsync``) *before* the table shows its result, so a crash, a pulled plug or a
closed laptop loses at most the event being typed. ``pyramid play --resume FILE``
and ``pyramid replay FILE`` rebuild the game by feeding the events back through
the same session code that accepted them (see ``camelhost.table.session``).

A line is ``JSON*CRC\\n``: the compact JSON text of the event, ``*``, and the
CRC-32 (zlib/IEEE, as on the pyramid's wire, ``docs/protocol.md``) of the JSON
bytes as 8 uppercase hex digits. Any change to a line (damage or a hand edit) is
detected. A line may also end in ``\r\n`` (the file went through a Windows editor
or git's autocrlf): one CR before the newline is read as part of the line ending;
lines appended later end in ``\n`` (mixed endings read fine). Journals of format 1
(no checksums) are still read.

Line kinds (field ``"type"``; all other fields are listed in ``docs/table.md``):

``game``        first line: format version, edition, player names, seed, bots, and
                the pyramid the game was played with (``pyramid``: a port,
                ``virtual`` or ``manual``); ``--resume`` uses them
``setup``       starting stacks of a race (RULES 2.2, 3.2), and who starts
``action``      a player's action in canonical text (``leg red``, ``tile 7 +``, ...)
``pyramid``     a pyramid ticket was taken; the next die completes it (RULES 1.7)
``die``         a die from the pyramid or typed by hand, with the raw protocol line
``value``       the value (1-3) a player keyed in for a die reported as ``?``
``ink``         the grey die's numeral ink (black/white) a player keyed in when the
                pyramid could not tell it, or ``again`` for a re-release (RULES 3.5)
``rejected``    a die the table refused (double, no die, unknown, impossible), for the record
``correction``  a board correction (a bumped stack put back, RULES 4)
``undo``        the last action taken back (``steps``: that many, a player's and the
                bots' after it)
``unscored``    the race ended unscored because the board could not be restored
``race``        another race with the same seats

Never destroying a file: a torn last line (no newline: the process died while
writing it) is the only thing ever cut, only when a good line precedes it, and its
bytes are kept in ``FILE.damaged``, exactly (``resume`` says so in ``Journal.notes``).
Any other damage is refused naming the first bad line, the file untouched;
``upto_damage=True`` resumes up to that line after moving the rest aside to
``FILE.damaged`` (a copy, never deleted). With ``check`` (``Session.stale_line``)
a line whose checksum is right but whose event no longer applies to the game
(lines swapped or duplicated, an edit with a new checksum) is treated the same way,
and the check runs before any byte of the file changes. A file whose first line is no game
header is refused untouched. An open journal holds an exclusive lock
(``fcntl.flock``), so two programs cannot append to one file.
"""

import binascii
import errno
import json
import os
import shlex

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; one program per journal is then on trust
    fcntl = None

#: Version written in the ``game`` line; readers refuse newer versions.
FORMAT = 2
#: Fields the ``game`` line must hold (a journal without them can't be resumed).
HEADER_FIELDS = ("edition", "players")


class JournalError(ValueError):
    """The journal file cannot be used: damaged, not a journal, or in use."""


class JournalFull(OSError):
    """The disk is full: the event was not written; the game is safe up to the last one."""


def _crc(data):
    return "%08X" % (binascii.crc32(data) & 0xFFFFFFFF)


def encode_line(event):
    """The journal line (bytes, newline included) of ``event`` (a JSON-able dict)."""
    text = json.dumps(event, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return text + b"*" + _crc(text).encode() + b"\n"


def _parse(chunk, checked):
    """The event dict of one line (bytes, no newline). ``checked``: the CRC is
    required (format 2); otherwise a line without one is read as plain JSON.
    Raises ``ValueError`` saying what is wrong."""
    if len(chunk) >= 9 and chunk[-9:-8] == b"*":
        text, crc = chunk[:-9], chunk[-8:]
        if _crc(text).encode() != crc:
            raise ValueError("checksum does not match")
    elif checked:
        raise ValueError("no checksum")
    else:
        text = chunk
    try:
        event = json.loads(text.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise ValueError("not an event object")
    return event


def _check_header(path, event):
    if event.get("type") != "game":
        raise JournalError("%s: not a game journal (the first line is not a game header); "
                           "nothing was changed" % path)
    fmt = event.get("format", 0)
    if not isinstance(fmt, int) or fmt > FORMAT:
        raise JournalError("%s: journal format %r is newer than this program (%d): update it"
                           % (path, fmt, FORMAT))
    for name in HEADER_FIELDS:
        if name not in event:
            raise JournalError("%s: line 1 (the game header) has no %r" % (path, name))
    players = event["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise JournalError("%s: line 1 (the game header): players is not a list of names" % path)


def _torn(chunk):
    """True when ``chunk`` (a last line without newline) can be the start of a line
    whose write was cut short; a whole checked line followed by more bytes cannot."""
    star = chunk.find(b"*")
    while star >= 0:
        if len(chunk) > star + 9 and _crc(chunk[:star]).encode() == chunk[star + 1 : star + 9]:
            return False
        star = chunk.find(b"*", star + 1)
    return True


def _scan(path, data):
    """``(events, good_end, bad, starts)`` of journal bytes: the events up to the first
    bad line, the byte offset after the last good one, ``None`` or ``(line number,
    reason, torn)`` for the first bad line, and the byte offset where each event's
    line starts."""
    events = []
    starts = []
    pos = 0
    checked = True
    while pos < len(data):
        nl = data.find(b"\n", pos)
        chunk = data[pos:] if nl < 0 else data[pos:nl]
        if chunk.endswith(b"\r"):
            # a CRLF line ending (a Windows editor, git autocrlf): the checksum covers
            # the line without its line ending, so one CR before the LF is no damage
            chunk = chunk[:-1]
        line_no = len(events) + 1
        try:
            if line_no == 1 and not (len(chunk) >= 9 and chunk[-9:-8] == b"*"):
                checked = False  # a format-1 journal: no checksums (checked below)
            event = _parse(chunk, checked)
            if line_no == 1:
                _check_header(path, event)
                if event.get("format", 0) >= 2 and not checked:
                    raise ValueError("no checksum")
        except ValueError as exc:
            if isinstance(exc, JournalError):
                raise
            if line_no == 1:
                raise JournalError("%s: not a game journal (line 1: %s); nothing was changed"
                                   % (path, exc)) from None
            return events, pos, (line_no, str(exc), nl < 0 and _torn(chunk)), starts
        if nl < 0 and not checked and line_no > 1:
            # format 1 had no checksums: a last line without its newline may be torn
            return events, pos, (line_no, "no newline", True), starts
        events.append(event)
        starts.append(pos)
        if nl < 0:  # a whole, checked last line whose newline is missing: it stands
            return events, len(data), None, starts
        pos = nl + 1
    return events, pos, None, starts


def _resume_hint(path, options=()):
    """What a refusal suggests: the command that resumes up to the bad line, with the
    table's ``options`` (words such as ``--plain``) after it."""
    return ("nothing was changed (to resume up to it, moving the rest to %s.damaged: "
            "pyramid play --resume %s --upto-damage%s)"
            % (path, shlex.quote(path), "".join(" " + shlex.quote(w) for w in options)))


def _set_aside_note(kind, line_no, reason, size, path, kept):
    """The line that says where reading stopped: ``kind`` ``torn`` (a last line cut off,
    ``size`` bytes), ``stale`` (an event that no longer applies) or ``damaged``; ``kept``:
    the rest was moved to ``FILE.damaged`` (a resume), else the file is unchanged (a
    replay)."""
    if kind == "torn":
        return "line %d was cut off when the program stopped (%d bytes): left out%s" % (
            line_no, size, ", kept in %s.damaged" % path if kept else "; %s is unchanged" % path)
    if kind == "stale":
        return "%s up to line %d, whose event no longer applies (%s); %s" % (
            "resumed" if kept else "shown", line_no, reason,
            "it and the rest are kept in %s.damaged" % path if kept else "%s is unchanged" % path)
    if kept:
        return "resumed up to the damaged line %d; it and the rest are kept in %s.damaged" % (
            line_no, path)
    return "shown up to the damaged line %d (%s); %s is unchanged" % (line_no, reason, path)


def read_events(path, repair=False, upto_damage=False, notes=None, check=None, options=()):
    """Return the list of events (dicts) stored in the journal at ``path``.

    A torn last line (no newline, failing its checksum) is skipped; ``repair``:
    the file is then cut back to the end of the last good line (only then, and
    only when a good line precedes it). Any other bad line raises ``JournalError``
    naming it, the file untouched, unless ``upto_damage``: the events before it are
    returned and, with ``repair``, the rest of the file is moved to
    ``FILE.damaged`` first (a torn last line too: no byte is lost). ``check``: a
    function of the events read that returns ``None`` or ``(line, reason)`` of the
    first event that no longer applies to the game (``Session.stale_line``); that
    line counts as a bad line (refused, or with ``upto_damage`` the end of what is
    read), and it is called before anything in the file changes. ``notes``: a
    list that gets one line in words for what was set aside (without ``repair``:
    where the reading stopped; the file is never changed then). ``options``: words
    the refusal's suggested command gets after ``--upto-damage`` (``--plain``).
    Raises ``OSError`` when the file can't be read, ``JournalError`` when it is not
    a game journal.
    """
    with open(path, "rb") as fh:
        data = fh.read()
    events, good_end, bad, starts = _scan(path, data)
    stale = check(events) if check is not None and events else None
    if stale is not None:
        line_no, reason = stale  # within the good lines: it comes before any bad one
        events, good_end = events[: line_no - 1], starts[line_no - 1]
        bad = (line_no, reason, False)
        what = "event on line %d no longer applies (%s)" % (line_no, reason)
    elif bad is not None:
        what = "line %d is damaged (%s)" % (bad[0], bad[1])
    if bad is not None:
        line_no, reason, torn = bad
        if not torn and not upto_damage:
            raise JournalError("%s: %s; %s" % (path, what, _resume_hint(path, options)))
        if repair:
            with open(path + ".damaged", "ab") as side:
                # exactly the bytes cut: the journal and FILE.damaged put together are
                # the file as it was (a torn tail gets no newline added)
                side.write(data[good_end:])
                side.flush()
                os.fsync(side.fileno())
            with open(path, "r+b") as fh:
                fh.truncate(good_end)
                fh.flush()
                os.fsync(fh.fileno())
        if notes is not None:  # said once it is done
            kind = "torn" if torn else ("stale" if stale is not None else "damaged")
            notes.append(_set_aside_note(kind, line_no, reason, len(data) - good_end, path,
                                         repair))
    return events


def read_header(path):
    """The ``game`` line (a dict) of the journal at ``path``, or ``None`` when it can't
    be read (no such file, not a game journal: ``Journal.resume`` then says why). Only
    reads: the file is never changed, whatever its later lines hold."""
    try:
        with open(path, "rb") as fh:
            first = fh.readline()
        events = _scan(path, first)[0]
    except (OSError, JournalError):
        return None
    return events[0] if events else None


def new_path_problem(path):
    """Why a new game can't be journaled at ``path`` (one line naming ``--journal``),
    or ``None``: a folder, a folder that doesn't exist. A file that already holds a
    game is for the caller to word (``play`` offers ``--resume``)."""
    if os.path.isdir(path):
        return ("--journal %s is a folder: give a file name, e.g. %s"
                % (path, os.path.join(path, "game.jsonl")))
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return "--journal %s: the folder %s does not exist" % (path, folder)
    return None


class Journal:
    """An open journal file, appended to one event at a time.

    ``Journal(path)`` opens (creating if needed) for appending and takes an
    exclusive lock (``JournalError`` when another program holds it); ``path=None``
    keeps events in memory only (used by tests and by ``replay``). ``pyramid``:
    the dice source of a new game (``virtual``, ``manual`` or a port), recorded in
    its ``game`` line. ``.events`` is every event written through this object or
    loaded by ``Journal.resume``; ``.header`` the ``game`` line (or ``None``).
    """

    def __init__(self, path=None, pyramid=None):
        self.path = path
        self.events = []
        self.pyramid = pyramid
        self._fh = None
        self._newline_owed = False
        #: lines in words for what ``resume`` set aside (a torn or damaged tail)
        self.notes = []
        #: the shell command that continues this game, said when the disk is full
        #: (``pyramid play`` sets it with the options the game runs with); ``None``:
        #: ``pyramid play --resume PATH``
        self.resume_command = None
        self._subscribers = []
        if path:
            fh = open(path, "ab")
            try:
                _lock(fh, path)
            except BaseException:
                fh.close()
                raise
            self._fh = fh

    @property
    def header(self):
        return self.events[0] if self.events else None

    @classmethod
    def resume(cls, path, upto_damage=False, check=None, options=()):
        """Open an existing journal: lock it, cut a torn last line, load its events.

        ``check``: ``Session.stale_line`` (see ``read_events``): an event that no
        longer applies counts as a damaged line. ``upto_damage``: resume up to the
        first damaged line (the rest is kept in ``FILE.damaged``). ``options``: the
        table's options, said in a refusal's command (see ``read_events``). Raises ``OSError``
        if missing, ``JournalError`` if damaged, empty, not a journal or in use; the
        file is then unchanged.
        """
        if not os.path.isfile(path):
            raise FileNotFoundError(errno.ENOENT, "no such journal", path)
        journal = cls(path)
        try:
            events = read_events(path, repair=True, upto_damage=upto_damage, notes=journal.notes,
                                 check=check, options=options)
            if not events:
                raise JournalError("%s: the journal is empty" % path)
            with open(path, "rb") as fh:
                fh.seek(0, os.SEEK_END)
                if fh.tell():
                    fh.seek(-1, os.SEEK_END)
                    journal._newline_owed = fh.read(1) != b"\n"
        except BaseException:
            journal.close()
            raise
        journal.events = events
        return journal

    def append(self, event):
        """Write one event (a JSON-able dict with ``type``) and force it to disk.

        Returns only after ``os.fsync`` so the caller may then show the result.
        Raises ``JournalFull`` (an ``OSError``) when the disk is full and ``OSError``
        when the write or the sync fails otherwise; the line is then cut from the
        file again (best effort) and not counted in ``events``.
        """
        if "type" not in event:
            raise ValueError("journal event without a type: %r" % (event,))
        if event["type"] == "game" and self.pyramid is not None and "pyramid" not in event:
            event = dict(event, pyramid=self.pyramid)
        line = encode_line(event)
        if self._fh is not None:
            if self._newline_owed:
                line = b"\n" + line
            self._fh.seek(0, os.SEEK_END)
            start = self._fh.tell()
            try:
                self._fh.write(line)
                self._fh.flush()
                os.fsync(self._fh.fileno())
            except OSError as exc:
                # Not safely on disk: cut the partial line so the file stays the record.
                try:
                    self._fh.truncate(start)
                    self._fh.seek(start)
                except OSError:
                    pass
                if exc.errno == errno.ENOSPC:
                    command = self.resume_command
                    if command is None:
                        command = "pyramid play --resume %s" % shlex.quote(self.path)
                    raise JournalFull(
                        errno.ENOSPC,
                        "the disk is full: the game is safe in %s up to the last event; free some "
                        "space, then continue with: %s" % (self.path, command),
                    ) from None
                raise
            self._newline_owed = False
        self.events.append(event)
        for callback in list(self._subscribers):
            callback(event)

    def subscribe(self, callback):
        """Call ``callback(event)`` after every event this journal writes, once it is
        on disk (after ``os.fsync``; never for a write that failed), on the thread that
        wrote it, in the order of subscription. Returns a function that ends the
        subscription (calling it twice is harmless). An exception the callback raises
        reaches the writer: the event is written and counted all the same."""
        self._subscribers.append(callback)

        def unsubscribe():
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def close(self):
        """Close the file and release its lock (idempotent)."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _lock(fh, path):
    if fcntl is None:
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise JournalError("%s is in use by another program (another 'pyramid play "
                               "--resume'?): close it first" % path) from None
        raise
