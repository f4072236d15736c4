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
(no checksums) and 2 (no line fields) are still read.

Every line of format 3 also carries ``n`` (its line number, from 1), ``game`` (the id
drawn for the game when its journal began) and, from line 2 on, ``prev`` (``line_hash``
of the line before it), so the file proves its own order: a line removed, repeated,
moved or taken from another game's journal is refused naming it ("line 6 is out of
place (it is numbered 7, 6 was expected: ...)"). The events read back never hold these fields. An older
journal is chained from the first event appended after its resume, behind a ``chained``
line whose ``prev`` is the hash of every line before it (said once). Lines cut from
the end leave no trace in the file itself: ``behind_pyramid`` says so when the pyramid
acknowledged dice the journal does not hold. The checksum and the chain catch damage
and edits by hand, not a forger: anyone can compute them again (``docs/table.md``).

Line kinds (field ``"type"``; all other fields are listed in ``docs/table.md``):

``game``        first line: format version, edition, player names, seed, bots, the
                pyramid the game was played with (``pyramid``: a port,
                ``virtual`` or ``manual``) and the table's language (``lang``, optional:
                older journals lack it); ``--resume`` uses them
``setup``       starting stacks of a race (RULES 2.2, 3.2), and who starts
``action``      a player's action in canonical text (``leg red``, ``tile 7 +``, ...)
``pyramid``     a pyramid ticket was taken; the next die completes it (RULES 1.7)
``die``         a die from the pyramid or typed by hand, with the raw protocol line
``value``       the value (1-3) a player keyed in for a die reported as ``?``
``ink``         the grey die's numeral ink (black/white) a player keyed in when the
                pyramid could not tell it, or ``again`` for a re-release (RULES 3.5)
``rejected``    a die the table refused (double, no die, unknown, impossible), a push
                the sensor could not read (``fault``), events the pyramid lost
                (``gap``) or a release of the virtual pyramid that came after the table
                moved on from its push (``late``), for the record
``correction``  a board correction (a bumped stack put back, RULES 4)
``undo``        the last action taken back (``steps``: that many, a player's and the
                bots' after it)
``redo``        what the last ``undo`` took back, applied again (nothing was done since)
``unscored``    the race ended unscored because the board could not be restored
``race``        another race with the same seats
``rename``      a player's name corrected (``rename OLD NEW``): seat and new name
``board``       the pyramid the game takes its dice from (its unique id, firmware,
                edition, and the boot and seq its dice follow), from its first full
                ``HELLO``: written once; ``--resume`` checks the pyramid against it

Never destroying a file: a torn last line (no newline: the process died while
writing it) is the only thing ever cut, only when a good line precedes it, and its
bytes are kept in ``FILE.damaged``, exactly (``resume`` says so in ``Journal.notes``);
when it held a die from the pyramid whose own record was written whole before the cut
and passes its CRC, the die is put back in its place (``_torn_die``; after a damaged
line set aside alone, or a first line rebuilt, too).
Any other damage is refused naming the first bad line, the file untouched;
``upto_damage=True`` resumes up to that line after moving the rest aside to
``FILE.damaged`` (a copy, never deleted; each batch after a header line naming when and
which lines). One damaged line of a chained journal with lines after it is set aside
alone when the lines after it still apply without it (a ``set_aside`` line takes its
place and keeps the hash the next line names for it, so the chain reads through it).
So is each line of another game, or exact repeat of a line, whose next line follows
the line before it (``_out_of_place_alone``: it is left out, the journal's own lines
kept; any other problem, before or after it, handled as it would be alone; the lines
from the first set aside on go to ``FILE.damaged`` as they were, the header saying
which the journal keeps). A
damaged line of the pyramid's (a die, a refused release) keeps the pyramid's own wire
record in its ``raw`` (found in the line's bytes by its strict format when the field
no longer reads, ``_record_in``): when that passes its own CRC it is the evidence of what the line
held (``_wire_die``, ``_from_record``), never a field the damage may have changed; so
for a damaged last line (whole) that held a die from the pyramid: its record names the
die and ``--retype`` puts it back (``_last_die``, a ``set_aside`` line without ``hash``). With ``check`` (``Session.stale_line``)
a line whose checksum is right but whose event no longer applies to the game
(lines swapped or duplicated, an edit with a new checksum) is treated the same way,
and the check runs before any byte of the file changes. A file whose first line is no game
header is refused untouched; a damaged first line followed by a game's chained lines is
named as the game's first line (read field by field when its JSON broke,
``_first_fields``: the fields the damage took are named), and ``upto_damage`` rebuilds it
(the file as it was kept in ``FILE.damaged`` first) from what it reads and the players,
edition and seed given (its language, format, bots' seats and pyramid tried, ``_proven_first``;
a setting whose key the damage garbled named, ``SETTINGS``), only when the next line's
chain hash confirms the rebuilt line (else refused, the file untouched; ``pyramid replay``, writing nothing, shows the game
from it, said unproven). Blank lines at the end are ignored (cut on a resume). An open journal holds an exclusive lock
(``fcntl.flock``), so two programs cannot append to one file. A file the journal
writes (the journal, ``FILE.damaged``) is opened without following a symbolic link
(``O_NOFOLLOW``) and must be a regular file: a link, a named pipe or a device is refused
at once in one line, never written through or waited on; a ``FILE.damaged`` with a
second name (a hard link) is refused too; what a ``FILE.damaged`` holds already is kept
(bytes are appended). Lines are written unbuffered (``os.write``, then ``os.fsync``): when
the disk, a quota or the file-size limit is full the partial line is cut off again and
``JournalFull`` says the game is safe.
"""

import binascii
import errno
import hashlib
import json
import os
import re
import shlex
import stat

from camelup.calibration import die_label
from camelup.editions import INKS

from camelhost.i18n import N_, _, colour_word, colours_in, metavar, ngettext, pgettext, port_word
from camelhost.textfile import without_bom

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; one program per journal is then on trust
    fcntl = None

#: Version written in the ``game`` line; readers refuse newer versions.
FORMAT = 3
#: Fields the ``game`` line must hold (a journal without them can't be resumed).
HEADER_FIELDS = ("edition", "players")
#: Fields every format-3 line carries besides its event: its number (1-based), the game's
#: id and the hash of the line before it. They bind a line to its place in its game; the
#: events read back never hold them.
CHAIN_FIELDS = ("n", "game", "prev")
#: The line a journal of an older format gets when it is first resumed: the chain starts
#: there, its ``prev`` the hash of every line before it.
CHAINED = "chained"
#: The line that stands in the journal for a damaged line ``--upto-damage`` set aside on
#: its own (its bytes are in ``FILE.damaged``): ``hash`` is the hash the line after it
#: names for the damaged line, so the chain goes on through it (none for a last line: the
#: chain goes on from the line itself); it holds no event but those typed again.
SET_ASIDE = "set_aside"
#: ``_Scan.last`` after a damaged line read past: its hash can't be known
_UNKNOWN = object()
#: The refusal of a ``--retype`` that the pyramid's own record in the damaged line (its
#: CRC checks) contradicts: the line's ``path`` and number (``line``), what the record
#: ``reads`` and what was ``typed``.
WIRE_READS = N_("%(path)s: --retype for line %(line)d: the pyramid's own record in the "
                "damaged line (its CRC checks) reads %(reads)s, not %(typed)s; nothing was "
                "changed (if that is what happened at the table, give the same --retype "
                "twice to confirm it)")
#: errno values that mean no more bytes fit: the disk (ENOSPC), the user's quota (EDQUOT),
#: the process's file-size limit (EFBIG, RLIMIT_FSIZE with SIGXFSZ ignored, as Python does)
FULL_ERRNOS = tuple(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG")
                    if hasattr(errno, name))


class JournalError(ValueError):
    """The journal file cannot be used: damaged, not a journal, or in use."""


class FirstLineDamaged(JournalError):
    """Line 1 (the game's first line) is damaged but the line after it is a chained line
    of a game: ``_read`` words it and, with ``upto_damage``, rebuilds it (``reason``, the
    line's bytes ``chunk``, ``end``: the offset after its line ending)."""

    def __init__(self, path, reason, chunk, end):
        JournalError.__init__(self, _("%(path)s: line 1, the game's first line, is damaged "
                                      "(%(why)s)") % {"path": path, "why": reason})
        self.reason, self.chunk, self.end = reason, chunk, end


def _chained_second(rest):
    """The event of the line at the start of ``rest`` when it is a whole, checked line
    numbered 2 with a game id and a ``prev`` (a chained journal's second line), else
    ``None``."""
    nl = rest.find(b"\n")
    chunk = rest[:nl] if nl >= 0 else rest
    if chunk.endswith(b"\r"):
        chunk = chunk[:-1]
    try:
        event = _parse(chunk, True)
    except ValueError:
        return None
    if (event.get("n") != 2 or not isinstance(event.get("game"), str)
            or not isinstance(event.get("prev"), str)):
        return None
    return event


#: the fields a game line holds (``Session.header``'s, the journal's ``pyramid`` and
#: ``lang``, the chain's): what a damaged line 1 is rebuilt from
GAME_FIELDS = ("type", "format", "edition", "players", "seed", "bots", "pyramid",
               "lang") + CHAIN_FIELDS
#: the fields of a game line read one by one from a damaged line 1 whose JSON no longer
#: parses, each kept only when its value checks (``_first_fields``)
FIRST_FIELDS = {
    "players": lambda v: isinstance(v, list) and bool(v) and all(
        isinstance(p, str) and p.strip() for p in v),
    "edition": lambda v: isinstance(v, str) and bool(v),
    "seed": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "format": lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= FORMAT,
    "pyramid": lambda v: True,  # checked where it is used (_first_line_candidate)
    "bots": lambda v: True,
}


#: the game's settings a damaged line 1's refusal names, each with the option that gives
#: it and that option's placeholder (``_rebuild_first``)
SETTINGS = {"players": ("--players", "NAMES"), "edition": ("--edition", "EDITION"),
            "seed": ("--seed", "SEED")}


def _first_fields(damaged):
    """The fields of the game line a damaged line 1 (``damaged``, its bytes) still reads
    one by one (``_held_fields``: ``"key":`` and a JSON value after it) when its JSON no
    longer parses, each only when its value checks (``FIRST_FIELDS``: ``players`` a list
    of names, ``edition`` a string, ``seed`` an integer, ``format`` 1 to ``FORMAT``), a
    dict; ``None`` when its JSON (without its checksum) still parses: it is read whole."""
    if _held_event(damaged) is not None:
        return None
    held = _held_fields(damaged, dict.fromkeys(FIRST_FIELDS))
    return {k: v for k, v in held.items() if FIRST_FIELDS[k](v)}


def _first_line_candidate(damaged, rebuild, second):
    """``(event, unread)``: the game line rebuilt for a damaged line 1 (``event``): what
    the damaged line still reads (its JSON without its checksum, if it parses, else the
    game's settings field by field, ``_first_fields``: a stray byte elsewhere leaves
    them), with ``rebuild``'s ``players``, ``edition``, ``seed`` (given by the
    user) over it, its ``bots`` (a function of the players' names returning the bot
    seats, ``--bots`` given) too, and its ``pyramid`` where the line reads none,
    numbered 1 with the game id of
    ``second`` (line 2's event); ``event`` is ``None`` when players or edition are still
    unknown. ``unread``: which of ``"bots"``, ``"pyramid"`` neither reads nor was given
    (the rebuilt line then has no bots, and no pyramid: dice typed). ``known``: which of
    ``players``, ``edition``, ``seed`` it reads (its key still there, its value checking,
    ``FIRST_FIELDS``) or were given, a dict (those missing from it can't be read: a key
    the damage garbled, "sead", leaves the seed unread, the other fields read)."""
    text = damaged[:-9] if len(damaged) >= 9 and damaged[-9:-8] == b"*" else damaged
    try:
        base = json.loads(text.decode("utf-8"))
    except ValueError:
        base = None
    if not isinstance(base, dict):
        # the game's settings, as far as they still read field by field (as its
        # language); a field the damage took is left out (given, or the line unproven)
        base = _first_fields(damaged)
    # a game line's own fields only: a key the damage garbled ("lanx") is no field of it,
    # and would keep the line as written from ever being proven
    event = {k: v for k, v in base.items() if k in GAME_FIELDS}
    # its language as it still reads (a stray byte elsewhere in the line), never a code
    # the damage made (dx): then the chain hash may prove it (_proven_first)
    event.pop("lang", None)
    if _held_lang(damaged, "game") is not None:
        event["lang"] = _held_lang(damaged, "game")
    for name in ("players", "edition", "seed"):
        if rebuild.get(name) is not None:
            event[name] = rebuild[name]
    if not (isinstance(event.get("pyramid"), str) and event["pyramid"]):
        # the pyramid given only where the line reads none: it is the port the game goes
        # on with, which may be another than the one it was played with (never recorded
        # over it, so the line as written can still be proven)
        event.pop("pyramid", None)
        if rebuild.get("pyramid") is not None:
            event["pyramid"] = rebuild["pyramid"]
    players = event.get("players")
    known = (isinstance(players, list) and players
             and all(isinstance(p, str) for p in players))
    if known and rebuild.get("bots") is not None:
        event["bots"] = list(rebuild["bots"](players))
    bots = event.get("bots")
    if not (isinstance(bots, list) and all(
            isinstance(b, int) and not isinstance(b, bool)
            and 0 <= b < (len(players) if known else b + 1) for b in bots)):
        event.pop("bots", None)
    unread = [name for name in ("bots", "pyramid") if name not in event]
    settings = {name: event[name] for name in SETTINGS
                if name in event and FIRST_FIELDS[name](event[name])}
    if not known or not isinstance(event.get("edition"), str):
        return None, unread, settings
    event.update(type="game", n=1, game=second["game"])
    event.setdefault("format", FORMAT)
    event.setdefault("bots", [])
    event.pop("prev", None)
    event.pop("hash", None)
    return event, unread, settings


def _unread_words(unread, rebuilt):
    """What a damaged line 1's refusal (``rebuilt`` False) or its rebuild's note
    (``rebuilt`` True) says of the settings it can't read (``unread``, from
    ``_first_line_candidate``): how to give them, or what the game goes on with; "" when
    none."""
    if not unread:
        return ""
    if not rebuilt:
        flags = " ".join((["--bots", metavar("NAMES")] if "bots" in unread else [])
                         + (["--pyramid", port_word()] if "pyramid" in unread else []))
        what = (_("its bots and the pyramid it was played with") if len(unread) == 2
                else _("its bots") if "bots" in unread
                else _("the pyramid it was played with"))
        return " " + _("(%(what)s can't be read from it: if the game had them, add "
                       "%(flags)s to that command)") % {"what": what, "flags": flags}
    words = ""
    if "bots" in unread:
        words += _("; the game's bots can't be read from it and no --bots was given: "
                   "every seat is played by a person")
    if "pyramid" in unread:
        words += _("; the pyramid it was played with can't be read from it and no "
                   "--pyramid was given: the dice are typed (--pyramid %s takes them "
                   "from a pyramid)") % port_word()
    return words


def _settings_words(settings):
    """The game's settings ``settings`` (``players``, ``edition``, ``seed``, those it
    holds) in the words a damaged line 1's refusal and note say them: ``players Ann,
    Ben; edition second; seed 4`` (an edition that is no edition said so)."""
    from camelup.editions import EDITIONS
    said = []
    if "players" in settings:
        said.append(_("players %s") % ", ".join(settings["players"]))
    if "edition" in settings:
        edition = settings["edition"]
        said.append(_("edition %s") % (
            edition if edition in EDITIONS
            else _("%s (not an edition: give classic or second)") % edition))
    if "seed" in settings:
        said.append(_("seed %s") % settings["seed"])
    return "; ".join(said)


def _rebuild_first(path, data, exc, rebuild, options, write=False):
    """``(data, note)``: journal bytes ``data`` with its damaged line 1 (``exc``, a
    ``FirstLineDamaged``) rebuilt (``_first_line_candidate``), and the line that says so.
    The rebuilt line is the one written when the next line's ``prev`` is its hash (its
    language, format, bots and pyramid tried too, ``_proven_first``, ``rebuild``'s
    ``lang`` and ``pyramid`` among them).
    ``write``: the rebuild is for a resume that writes it; then a line that hash does
    not confirm is refused (``JournalError`` naming line 1, what it reads and the command
    to correct: never resumed from a first line that is not the one played). A read that
    writes nothing (``pyramid replay``) rebuilds it all the same, keeping that hash
    (``hash``) so that the chain reads on, the note saying it could not be proven.
    ``rebuild``: ``None`` (no rebuild asked: ``JournalError`` saying what the line still
    reads, or which of its fields it no longer reads, and the command that rebuilds it:
    ``--upto-damage`` alone when the chain hash proves what it reads) or the user's
    values. A setting the line no longer reads (its key garbled, or its value) and not
    given is named, the command filled in with what it reads and a placeholder for it
    (``--seed SEED``). A line read field by field (its JSON broke) that the hash does not
    prove is never rebuilt on its reads alone, not even for a read (``JournalError``);
    nor is a line the values given, the very ones it reads, leave unproven: what can't
    be confirmed is said."""
    second = _chained_second(data[exc.end:])
    later = data.count(b"\n", exc.end) + (0 if data.endswith(b"\n") else 1)
    rebuild_values = rebuild or {}
    candidate, unread, known = _first_line_candidate(exc.chunk, rebuild_values, second)
    reads = _first_line_candidate(exc.chunk, {}, second)[2]  # the line's own reads
    if rebuild is None:  # a setting given with the refused resume is in its command
        unread = [name for name in unread if "--" + name not in options]
    # the command: what is known filled in, a placeholder for what is not (an edition
    # the damage garbled, secxnd, is no option value: the line says which two there are)
    from camelup.editions import EDITIONS
    words = ["pyramid", "play", "--resume", path, "--upto-damage"] + list(options)
    for name, (flag, placeholder) in SETTINGS.items():
        value = known.get(name)
        if name == "players" and value is not None:
            value = ",".join(value)
        elif name == "edition" and value not in EDITIONS:
            value = None
        words += [flag, metavar(placeholder) if value is None else str(value)]
    lang = _held_lang(exc.chunk, "game")
    if lang is not None and lang != "en" and "--lang" not in options:
        words += ["--lang", lang]  # the table's language, as the damaged line reads it
    command = " ".join(shlex.quote(w) for w in words)
    fields = _first_fields(exc.chunk)  # None: its JSON still parses
    if rebuild is None:
        # lines of another game, or repeats, later on are no intact lines of the game:
        # named, as the rebuild leaves them out alone (_first_line_intruders)
        aside = _first_line_intruders(path, data, exc, second, options)
        later -= len(aside)
        exc = JournalError("%s%s" % (exc, "".join(
            _(" (line %(line)d is out of place (%(reason)s): the command that rebuilds the "
              "first line leaves it out alone, setting it aside in %(path)s.damaged and "
              "keeping the lines after it)")
            % {"line": n, "reason": reason, "path": path} for n, reason in aside)))
    line = (None if candidate is None
            else _proven_first(candidate, second["prev"], rebuild_values.get("lang"),
                               rebuild_values.get("bots") is None,
                               rebuild_values.get("pyramid")))
    if line is not None:  # its bots proven too, read or not (a seat the damage changed)
        unread = [name for name in unread if name not in _parse(line.rstrip(b"\n"), True)]
    lost = [name for name in SETTINGS if name not in known]
    if line is None and lost and known:
        # some of the game's settings read (or were given), others not: the error names
        # exactly those the damage took, the command filled in with the rest
        named = {"players": _("its players"), "edition": _("its edition"),
                 "seed": _("its seed")}
        raise JournalError(ngettext(
            "%(what)s; nothing was changed. What can't be read: %(lost)s (it still reads: "
            "%(still)s); the %(later)d line after it is intact: to rebuild the first line "
            "and resume, give %(lost)s in place of %(placeholders)s in this command: "
            "%(command)s",
            "%(what)s; nothing was changed. What can't be read: %(lost)s (it still reads: "
            "%(still)s); the %(later)d lines after it are intact: to rebuild the first line "
            "and resume, give %(lost)s in place of %(placeholders)s in this command: "
            "%(command)s", later)
            % {"what": exc, "lost": ", ".join(named[n] for n in lost),
               "still": _settings_words(reads) or _settings_words(known),
               "placeholders": ", ".join(metavar(SETTINGS[n][1]) for n in lost),
               "later": later, "command": command} + _unread_words(unread, False))
    if line is None and lost:
        raise JournalError(ngettext(
            "%(what)s; nothing was changed. What it held can't be read; the %(later)d line "
            "after it is intact: to rebuild the first line and resume, give the game's "
            "players, edition and seed: %(command)s",
            "%(what)s; nothing was changed. What it held can't be read; the %(later)d lines "
            "after it are intact: to rebuild the first line and resume, give the game's "
            "players, edition and seed: %(command)s", later)
            % {"what": exc, "later": later, "command": command}
            + _unread_words(unread, False))
    said = _settings_words(candidate)
    given = all(rebuild_values.get(n) is not None for n in SETTINGS)
    if line is not None and rebuild is None:
        # what it still reads is proven the line as written: --upto-damage alone rebuilds it
        raise JournalError(ngettext(
            "%(what)s; nothing was changed. It still reads: %(reads)s, and the next line's "
            "chain hash proves that is the line as written. The %(later)d line after it is "
            "intact: to rebuild the first line exactly and resume: %(command)s",
            "%(what)s; nothing was changed. It still reads: %(reads)s, and the next line's "
            "chain hash proves that is the line as written. The %(later)d lines after it are "
            "intact: to rebuild the first line exactly and resume: %(command)s", later)
            % {"what": exc, "reads": said, "later": later, "command": " ".join(
                shlex.quote(w) for w in ["pyramid", "play", "--resume", path,
                                         "--upto-damage"] + list(options))})
    typed = [n for n in SETTINGS if rebuild_values.get(n) is not None]
    port = None if candidate is None else candidate.get("pyramid")
    # a port it reads (manual and virtual were tried) may be the field not as written,
    # which no value in the command puts right: how to give it (never "correct the
    # wrong one" alone when every value there is right)
    port_words = (_(" (or, if those are right, the pyramid it reads, %s, is not the one it "
                    "was played with: add --pyramid PORT naming that one)") % port
                  if isinstance(port, str) and port not in ("manual", "virtual")
                  and rebuild_values.get("pyramid") is None and "--pyramid" not in options
                  else "")
    if (typed and all(rebuild_values[n] == reads.get(n) for n in typed) and line is None
            and not unread and (write or fields is not None)):
        # every value given is one the line reads, and still the hash refuses: the
        # command holds nothing to correct that can be seen (tester s44b, 2 and 4); what
        # can't be confirmed is said, never "correct the wrong one"
        raise JournalError(ngettext(
            "%(what)s; nothing was changed. The values given are the ones it reads "
            "(%(reads)s; pyramid %(pyramid)s), but the next line's chain hash does not "
            "confirm the line rebuilt with them: which of its fields the damage changed to "
            "another value that reads as well can't be confirmed, so it can't be rebuilt as "
            "written unless that one is given as the game had it. The %(later)d line after "
            "it is intact",
            "%(what)s; nothing was changed. The values given are the ones it reads "
            "(%(reads)s; pyramid %(pyramid)s), but the next line's chain hash does not "
            "confirm the line rebuilt with them: which of its fields the damage changed to "
            "another value that reads as well can't be confirmed, so it can't be rebuilt as "
            "written unless that one is given as the game had it. The %(later)d lines after "
            "it are intact", later)
            % {"what": exc, "reads": said, "pyramid": candidate.get("pyramid", "-"),
               "later": later} + port_words
            + (_("; to see the game from it, unproven: %s") % " ".join(
                shlex.quote(w) for w in ["pyramid", "replay", path])
               if fields is None else ""))  # (a broken JSON: no replay)
    if rebuild is None or (line is None and (write or (fields is not None and not given))):
        # What it reads is never proven here (a proven read was said above): the next
        # line's chain hash does not confirm it, so a field is not as written, which one
        # it can't tell (tester s42-3 finding 5). Never resumed from such a line (s44: a
        # seed whose bit flipped read fine and was rebuilt so, the game resumed from a
        # first line not the one played), nor a line read field by field rebuilt on those
        # reads alone: nothing changed, the command says what to correct
        raise JournalError((ngettext(
            "%(what)s; nothing was changed. As rebuilt with the values given it reads: "
            "%(reads)s, but the next line's chain hash does not confirm it: a field of it is "
            "not as written (which one can't be told). The %(later)d line after it is "
            "intact: to rebuild the first line, correct the wrong one in this command, then "
            "resume: %(command)s",
            "%(what)s; nothing was changed. As rebuilt with the values given it reads: "
            "%(reads)s, but the next line's chain hash does not confirm it: a field of it is "
            "not as written (which one can't be told). The %(later)d lines after it are "
            "intact: to rebuild the first line, correct the wrong one in this command, then "
            "resume: %(command)s", later) if typed else ngettext(
            "%(what)s; nothing was changed. It still reads: %(reads)s, but the next line's "
            "chain hash does not confirm it: a field of it is not as written (which one "
            "can't be told). The %(later)d line after it is intact: to rebuild the first "
            "line, correct the wrong one in this command, then resume: %(command)s",
            "%(what)s; nothing was changed. It still reads: %(reads)s, but the next line's "
            "chain hash does not confirm it: a field of it is not as written (which one "
            "can't be told). The %(later)d lines after it are intact: to rebuild the first "
            "line, correct the wrong one in this command, then resume: %(command)s", later))
            % {"what": exc, "reads": said, "later": later, "command": command}
            + _unread_words(unread, False) + port_words)
    if line is not None:
        note = _("line 1, the game's first line, was damaged (%(why)s) and is rebuilt exactly "
                 "as it was written (the next line's chain hash matches): %(reads)s") % {
                     "why": exc.reason, "reads": said}
    else:
        line = encode_line(dict(candidate, hash=second["prev"]))
        note = _("line 1, the game's first line, was damaged (%(why)s) and is rebuilt as "
                 "%(reads)s; it can't be proven the same as written (the next line's chain "
                 "hash differs), the lines after it were checked to replay with it") % {
                     "why": exc.reason, "reads": said}
        if "lang" not in candidate:  # (proven without one: an older version's, as written)
            from camelhost.i18n import language_name
            note += _("; the game's language can't be read from it: the table speaks %s, "
                      "the language in force (--lang chooses another)") % language_name()
    note += _unread_words(unread, True)
    return line + data[exc.end:], note


def _first_line_intruders(path, data, exc, second, options):
    """``[(line, reason)]``: the lines of another game, or exact repeats of a line, that
    the rebuild of a damaged line 1 (``exc``, a ``FirstLineDamaged`` of journal bytes
    ``data``; ``second``: line 2's event) leaves out alone (``_out_of_place_alone``, the
    same reads as without the damage), numbered as in the file. Read with a stand-in
    first line that names line 2's ``prev`` as its hash, nothing written: whether the
    lines after it replay with the game's line is for the rebuild itself."""
    stand_in = encode_line({"type": "game", "n": 1, "game": second["game"], "players": [],
                            "edition": "", "format": FORMAT, "bots": [],
                            "hash": second["prev"]})
    trial = stand_in + data[exc.end:]
    try:
        read = _Read(trial, trial, None, _scan(path, trial))
        alone = _out_of_place_alone(path, read, None, options)
    except (JournalError, OSError):
        return []
    return [] if alone is None else [(n, reason) for n, reason, _s, _e in alone.intruders]


def _proven_first(candidate, prev, lang=None, bots=True, pyramid=None):
    """The game line ``candidate`` (an event) encoded, when its chain hash is ``prev`` (the
    one line 2 names), else ``None``. Its language, format and (``bots`` True: no
    ``--bots`` given) bot seats are tried too, as the damage may have changed any of them
    to another value that reads as well (``en`` to ``de``, 3 to 4, seat 2 to 1): ``lang``
    (``--lang`` given) first, then the language it reads, each language this program
    speaks and none (as an older version wrote it); its format as it reads, then
    ``FORMAT``; its bots as they read, then every other set of seats; its pyramid as it
    reads, then ``pyramid`` (``--pyramid`` given), ``manual`` and ``virtual``. The one
    the hash proves is the game's."""
    from itertools import combinations

    from camelhost.i18n import languages
    langs = []
    for code in (lang, candidate.get("lang"), *languages(), None):
        if code not in langs and (code is None or isinstance(code, str)):
            langs.append(code)
    formats = [candidate.get("format")] + (
        [FORMAT] if candidate.get("format") != FORMAT else [])
    seats = [candidate.get("bots")]
    if bots and len(candidate["players"]) <= 8:  # (a table seats 8 at the most)
        seats += [list(c) for k in range(len(candidate["players"]) + 1)
                  for c in combinations(range(len(candidate["players"])), k)
                  if list(c) != candidate.get("bots")]
    ports = [candidate.get("pyramid")]
    for port in (pyramid, "manual", "virtual"):
        if isinstance(port, str) and port not in ports:
            ports.append(port)
    for port in ports:
        for those in seats:
            for fmt in formats:
                for code in langs:
                    event = dict(candidate, format=fmt, lang=code, bots=those, pyramid=port)
                    for key, value in (("lang", code), ("pyramid", port)):
                        if value is None:
                            del event[key]
                    line = encode_line(event)
                    if line_hash(line.rstrip(b"\n")) == prev:
                        return line
    return None


class JournalFull(OSError):
    """The disk is full: the event was not written; the game is safe up to the last one."""


def _crc(data):
    return "%08X" % (binascii.crc32(data) & 0xFFFFFFFF)


def line_hash(chunk):
    """The chain hash of one journal line: the first 16 hex digits of the SHA-256 of
    its bytes without the line ending (``JSON*CRC``). It tells a line from another;
    anyone can compute it, so it is no signature (``docs/table.md``)."""
    return hashlib.sha256(chunk).hexdigest()[:16]


def new_game_id():
    """A fresh game id (12 hex digits) for a new journal's lines: an identifier drawn
    from the system's random source, never a game input (the seed is)."""
    return binascii.hexlify(os.urandom(6)).decode()


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
            raise ValueError(_("checksum does not match"))
    elif checked:
        raise ValueError(_("no checksum"))
    else:
        text = chunk
    try:
        event = json.loads(text.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(_("not UTF-8 text")) from None
    except ValueError:  # json's own words ('Expecting value: ...') are no player's
        raise ValueError(_("not JSON text")) from None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise ValueError(_("not an event object"))
    return event


def _check_header(path, event):
    if event.get("type") != "game":
        raise JournalError(_("%s: not a game journal (the first line is not a game header); "
                           "nothing was changed") % path)
    fmt = event.get("format", 0)
    if not isinstance(fmt, int) or fmt > FORMAT:
        raise JournalError(_("%(path)s: journal format %(format)r is newer than this program "
                             "(%(ours)d): update it") % {"path": path, "format": fmt,
                                                         "ours": FORMAT})
    for name in HEADER_FIELDS:
        if name not in event:
            raise JournalError(_("%(path)s: line 1 (the game header) has no %(field)r")
                               % {"path": path, "field": name})
    players = event["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise JournalError(_("%s: line 1 (the game header): players is not a list of names") % path)
    if fmt >= 3 and not isinstance(event.get("game"), str):
        raise JournalError(_("%s: line 1 (the game header) does not start a chain of lines "
                             "(line number 1 and a game id); nothing was changed") % path)


def _torn(chunk):
    """True when ``chunk`` (a last line without newline) can be the start of a line
    whose write was cut short; a whole checked line followed by more bytes cannot."""
    star = chunk.find(b"*")
    while star >= 0:
        if len(chunk) > star + 9 and _crc(chunk[:star]).encode() == chunk[star + 1 : star + 9]:
            return False
        star = chunk.find(b"*", star + 1)
    return True


def _chain_problem(event, line_no, game, prev, shown=None):
    """Why a line of a chained journal is out of place (a phrase), or ``None``: its
    number must be ``line_no``, its game ``game`` and its ``prev`` the hash ``prev``
    of the line before it. ``shown``: a function giving a line's number as the file
    numbers it (``_Scan.shown``), for the line the phrase names."""
    n = event.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or "game" not in event:
        return _("it carries no line number and game id: a line from elsewhere")
    if event.get("game") != game:
        return _("it belongs to another game (%(other)s, not %(game)s)") % {
            "other": event.get("game"), "game": game}
    # the number it carries and the one its place in the chain needs (the game's own
    # count: a line left out alone before it is not counted, s44)
    numbers = {"n": n, "expected": line_no}
    if n < line_no:
        return _("it is numbered %(n)d, %(expected)d was expected: a line repeated or "
                 "moved") % numbers
    if n > line_no:
        return _("it is numbered %(n)d, %(expected)d was expected: a line missing or moved "
                 "before it") % numbers
    if event.get("prev") != prev:
        return _("it does not follow line %d: one of the two was changed") % (
            (shown or int)(line_no - 1))
    if line_no > 1 and event.get("type") in ("game", CHAINED):
        return _("a second start of the game in one journal")
    return None


class _Scan:
    """What ``_scan`` read from journal bytes: ``events`` (chain fields removed) up to
    the first damaged line, ``starts`` and ``lines`` (byte offset and line number of
    each), ``good_end`` (offset after the last good line), ``bad`` (``None`` or
    ``(line, reason, torn)`` of the first damaged line), ``chain_bad`` (``None`` or
    ``(line, reason, offset)`` of the first line out of place) and, for appending after the
    last good line: ``game`` (the chain's game id, ``None`` while the lines are of an
    older format), ``count`` (lines read) and ``last`` (the hash the next line's
    ``prev`` must be). ``skipped``: ``None`` or, for one damaged line read past,
    ``(line, reason, start, end, bytes, prev)`` (its number, why, the byte offsets of
    its start and of the line after it, its bytes and the hash of the line before it),
    ``skipped_hash`` the hash the line after it names for it."""

    def __init__(self):
        self.events = []
        self.starts = []
        self.lines = []
        self.good_end = 0
        self.bad = None
        self.chain_bad = None
        self.game = None
        self.count = 0
        self.last = None
        self.format = None
        self.skipped = None
        self.skipped_hash = None
        self.blank_tail = False  # blank lines at the end, ignored (cut on a resume)
        self.empty = None  # the number of a blank line before the end
        #: the file's numbers of the lines left out of the bytes read (``_out_of_place_alone``
        #: reads the journal without them), in order: the words name lines by ``shown``
        self.left_out = ()

    def shown(self, line_no):
        """Line ``line_no`` of the bytes read numbered as in the file (``_file_line``)."""
        return _file_line(self.left_out, line_no)


def _file_line(left_out, line_no):
    """Line ``line_no`` of journal bytes read without the lines ``left_out`` (their
    numbers in the file, in order) numbered as in the file, what a user sees in an
    editor: one more for each line left out at or before it."""
    for left in left_out:
        if left <= line_no:
            line_no += 1
    return line_no


def _scan(path, data, left_out=()):
    """A ``_Scan`` of journal bytes ``data``: every line's checksum, and from the first
    chained line on, its number, game and ``prev`` (the first line out of place is
    noted; the lines after it are still read, so that an event that no longer applies
    can be found at the same line). ``left_out``: ``_Scan.left_out``."""
    scan = _Scan()
    scan.left_out = tuple(left_out)
    pos = 0
    checked = True
    older = hashlib.sha256()  # the lines of an older format, for the chain's start
    while pos < len(data):
        nl = data.find(b"\n", pos)
        chunk = data[pos:] if nl < 0 else data[pos:nl]
        if pos == 0:
            # a byte-order mark before line 1 (an editor's "UTF-8 with BOM") is no part
            # of the line: not of its checksum nor its hash; the file keeps it
            chunk = without_bom(chunk)
        if chunk.endswith(b"\r"):
            # a CRLF line ending (a Windows editor, git autocrlf): the checksum covers
            # the line without its line ending, so one CR before the LF is no damage
            chunk = chunk[:-1]
        line_no = scan.count + 1
        if line_no > 1 and not chunk.strip():
            scan.good_end = pos
            if not data[pos:].strip():
                # only blank lines to the end (an editor's last newline): nothing to read
                scan.blank_tail = True
                return scan
            scan.empty = line_no
            scan.bad = (line_no, _("empty"), False)
            return scan
        if line_no == 1 and not (len(chunk) >= 9 and chunk[-9:-8] == b"*"):
            checked = False  # a format-1 journal: no checksums (checked below)
        try:
            event = _line_event(path, scan, chunk, line_no, checked)
        except ValueError as exc:
            if isinstance(exc, JournalError):
                raise
            if line_no == 1:
                if nl >= 0 and _chained_second(data[nl + 1:]) is not None:
                    raise FirstLineDamaged(path, str(exc), chunk, nl + 1) from None
                raise JournalError(_("%(path)s: not a game journal (line 1: %(why)s); nothing "
                                     "was changed") % {"path": path, "why": exc}) from None
            if (nl >= 0 and data[nl + 1:].strip() and scan.skipped is None
                    and scan.game is not None and scan.chain_bad is None):
                # one damaged line with lines after it: read on without it (the line
                # after it names the hash of what it held, ``_chain_line``); ``_read``
                # refuses it, or with ``upto_damage`` sets it aside alone
                scan.skipped = (line_no, str(exc), pos, nl + 1, chunk, scan.last)
                scan.count = line_no
                scan.last = _UNKNOWN
                pos = nl + 1
                continue
            scan.good_end = pos
            scan.bad = (line_no, str(exc), nl < 0 and _torn(chunk))
            return scan
        if nl < 0 and not checked and line_no > 1:
            # format 1 had no checksums: a last line without its newline may be torn
            scan.good_end = pos
            scan.bad = (line_no, "no newline", True)
            return scan
        scan.count = line_no
        if scan.chain_bad is None:
            _chain_line(path, scan, event, chunk, line_no, pos, older)
        _keep_event(scan, event, line_no, pos)
        if nl < 0:  # a whole, checked last line whose newline is missing: it stands
            scan.good_end = len(data)
            return scan
        pos = nl + 1
    scan.good_end = pos
    return scan


def _keep_event(scan, event, line_no, pos):
    """Keep the event of line ``line_no`` (read at byte ``pos``) in ``scan``: its chain
    fields removed (and a ``hash`` but the game line's); a ``set_aside`` line gives the
    events typed again in the damaged line's place, a ``chained`` line none."""
    if event.get("type") not in (CHAINED, SET_ASIDE):
        scan.events.append({k: v for k, v in event.items() if k not in CHAIN_FIELDS
                            and (k != "hash" or line_no > 1)})
        scan.starts.append(pos)
        scan.lines.append(line_no)
    elif event.get("type") == SET_ASIDE and isinstance(event.get("events"), list):
        for inner in event["events"]:  # what was typed again in the damaged line's place
            if isinstance(inner, dict) and isinstance(inner.get("type"), str):
                scan.events.append(inner)
                scan.starts.append(pos)
                scan.lines.append(line_no)


def _line_event(path, scan, chunk, line_no, checked):
    """The event of line ``line_no`` (``chunk``: its bytes without the line ending);
    ``checked``: its CRC is required. Line 1 must be a game header (``JournalError``
    otherwise), and gives ``scan.format``. Raises ``ValueError`` saying what is wrong."""
    event = _parse(chunk, checked)
    if line_no == 1:
        _check_header(path, event)
        scan.format = event.get("format", 0)
        if event.get("format", 0) >= 2 and not checked:
            raise ValueError(_("no checksum"))
    return event


def _chain_line(path, scan, event, chunk, line_no, pos, older):
    """Check line ``line_no`` (``event``, read from ``chunk`` at byte ``pos``) against
    the chain so far: its number, game and ``prev`` once the lines are chained (the
    first line out of place goes to ``scan.chain_bad``), the ``chained`` line that
    starts the chain of an older journal (``older``: the hash of every line before
    it). Sets ``scan.game`` and ``scan.last``. Raises ``JournalError`` for a game
    header that starts no chain."""
    if line_no == 1:
        if "game" in event:  # a numbered journal (format 3, the game line gives its id)
            problem = _chain_problem(event, 1, event["game"], None)
            if problem is not None or not isinstance(event["game"], str):
                raise JournalError(_("%s: line 1 (the game header) does not start a "
                                     "chain of lines (line number 1 and a game id); "
                                     "nothing was changed") % path)
            scan.game = event["game"]
    elif scan.game is not None:
        prev = scan.last
        if prev is _UNKNOWN:
            # the line before it was damaged and is read past: its own content can't be
            # hashed, so this line's ``prev`` is taken as the hash of what it held (kept
            # in the ``set_aside`` line that stands for it); its number and game are checked
            prev = event.get("prev") if isinstance(event.get("prev"), str) else None
            scan.skipped_hash = prev
        problem = _chain_problem(event, line_no, scan.game, prev, scan.shown)
        if problem is not None:
            scan.chain_bad = (line_no, problem, pos)
    elif event.get("type") == CHAINED:
        # an older journal's lines end here: from now on they are chained
        if (event.get("n") != line_no or not isinstance(event.get("game"), str)
                or event.get("prev") != older.hexdigest()[:16]):
            scan.chain_bad = (line_no, _("the start of its chain does not match the "
                                         "lines before it"), pos)
        else:
            scan.game = event["game"]
    elif any(name in event for name in CHAIN_FIELDS):
        scan.chain_bad = (line_no, _("a numbered line in a journal whose lines are "
                                     "not yet numbered"), pos)
    older.update(chunk + b"\n")
    scan.last = line_hash(chunk)
    if event.get("type") in (SET_ASIDE, "game") and isinstance(event.get("hash"), str):
        scan.last = event["hash"]  # it stands for the damaged line: the next one follows that


def _kind_of(mode):
    """The words for a file that is not a regular file, by its ``st_mode``."""
    if stat.S_ISFIFO(mode):
        return _("a named pipe (FIFO)")
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    if stat.S_ISLNK(mode):
        return _("a symbolic link")
    return _("not a regular file")


def _not_regular(path, mode):
    return JournalError(_("%(path)s is %(kind)s, not a journal file: a journal is a plain "
                          "file; nothing was read or written") % {"path": path,
                                                                  "kind": _kind_of(mode)})


def _open_read(path):
    """A binary reader of the regular file at ``path`` (a link to one is followed: reading
    changes nothing). Never waits: a named pipe or a device is refused at once
    (``JournalError``); ``OSError`` when it can't be opened."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(path, mode)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _open_write(path, links_ok=1):
    """A file descriptor appending to the regular file at ``path`` (created if missing,
    mode 0644), never through a symbolic link (``O_NOFOLLOW``) and never waiting (a named
    pipe or a device is refused at once); ``links_ok``: a file with more hard links than
    this is refused too (``FILE.damaged``: a planted link to another file). Raises
    ``JournalError`` saying what the path is, ``OSError`` when it can't be opened."""
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP or (exc.errno == errno.ENXIO and os.path.exists(path)):
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                raise JournalError(_("%s is a symbolic link: the table never writes through a "
                                     "link; nothing was changed (move the link away, or give "
                                     "the file's own path)") % path) from None
            raise _not_regular(path, mode) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, info.st_mode)
        if links_ok and info.st_nlink > links_ok:
            raise JournalError(_("%(path)s has another name (a hard link, %(names)d names): "
                                 "the table never writes into another file; nothing was "
                                 "changed (move it away)") % {"path": path,
                                                              "names": info.st_nlink})
        if getattr(os, "O_NONBLOCK", 0):  # opened not to wait; a regular file never does
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _write_all(fd, data):
    """Write every byte of ``data`` to ``fd`` (a short write goes on where it stopped)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _resume_hint(path, options=(), rest=""):
    """What a refusal suggests: the command that resumes up to the bad line, with the
    table's ``options`` (words such as ``--plain``) after it; ``rest``: what it moves to
    ``FILE.damaged`` (``_rest_words``)."""
    return (_("nothing was changed (to resume up to it, moving %(rest)s to %(path)s.damaged: "
              "pyramid play --resume %(quoted)s --upto-damage%(options)s)")
            % {"rest": rest or _("the rest"), "path": path, "quoted": shlex.quote(path),
               "options": _option_words(options)})


def _option_words(options):
    """The table's ``options`` as the words after a suggested command, each quoted."""
    return "".join(" " + shlex.quote(w) for w in options)


def _rest_words(read, line_no, named=False, shown=None):
    """What resuming up to line ``line_no`` moves to ``FILE.damaged``, in words: it and
    the lines after it (blank ones not counted), and the races they reach into when
    they go past the race it is in (the ``race`` lines after it, read without their
    checksum), so that a table knows what it would set aside before it does.
    ``named``: the line named by its number (``line 27 and the 94 lines after it``),
    ``shown`` when given (the number it has in the file, ``_shown``)."""
    lines = read.data.split(b"\n")[line_no:]
    later = [x for x in lines if x.strip()]
    if not later:
        return _("line %d") % (shown or line_no) if named else _("it")
    events = read.scan.events
    race = 1 + len([i for i, n in enumerate(read.scan.lines)
                    if n < line_no and events[i].get("type") == "race"])
    last = race + len([x for x in later
                       if (_held_event(x.rstrip(b"\r")) or {}).get("type") == "race"])
    if named:
        said = ngettext("line %(line)d and the %(count)d line after it",
                        "line %(line)d and the %(count)d lines after it",
                        len(later)) % {"line": shown or line_no, "count": len(later)}
    else:
        said = ngettext("it and the %(count)d line after it",
                        "it and the %(count)d lines after it", len(later)) % {
                            "count": len(later)}
    if last == race + 1:
        said += _(" (the rest of race %(race)d, and race %(last)d)") % {"race": race,
                                                                       "last": last}
    elif last > race:
        said += _(" (the rest of race %(race)d, and races %(next)d-%(last)d)") % {
            "race": race, "next": race + 1, "last": last}
    return said


def _keeping(later):
    """``keeping the 3 lines after it``: the ``later`` lines a damaged line's resume keeps,
    counted (named, so that a language may say one without the number: German ``eine``)."""
    return ngettext("keeping the %(count)d line after it", "keeping the %(count)d lines "
                    "after it", later) % {"count": later}


def _set_aside_note(kind, line_no, reason, size, path, kept):
    """The line that says where reading stopped: ``kind`` ``torn`` (a last line cut off,
    ``size`` bytes), ``stale`` (an event that no longer applies), ``chain`` (a line out
    of place) or ``damaged``; ``kept``: the rest was moved to ``FILE.damaged`` (a resume),
    else the file is unchanged (a replay)."""
    if kind == "torn":
        return _("line %(line)d was cut off when the program stopped (%(bytes)d bytes): left "
                 "out%(kept)s") % {
            "line": line_no, "bytes": size,
            "kept": _(", kept in %s.damaged") % path if kept else _("; %s is unchanged") % path}
    if kind == "stale":
        return _("%(done)s up to line %(line)d, whose event no longer applies (%(why)s); "
                 "%(kept)s") % {
            "done": _("resumed") if kept else _("shown"), "line": line_no, "why": reason,
            "kept": _("it and the rest are kept in %s.damaged") % path if kept
            else _("%s is unchanged") % path}
    if kind == "chain":
        if kept:
            return _("resumed up to line %(line)d, which is out of place (%(why)s); it and the "
                     "rest are kept in %(path)s.damaged") % {"line": line_no, "why": reason,
                                                            "path": path}
        return _("shown up to line %(line)d, which is out of place (%(why)s); %(path)s is "
                 "unchanged") % {"line": line_no, "why": reason, "path": path}
    if kept:
        return _("resumed up to the damaged line %(line)d; it and the rest are kept in "
                 "%(path)s.damaged") % {"line": line_no, "path": path}
    return _("shown up to the damaged line %(line)d (%(why)s); %(path)s is unchanged") % {
        "line": line_no, "why": reason, "path": path}


class _Read:
    """The state of one read (``_read``), decision by decision: ``scan`` (the ``_Scan``
    of ``data``, the bytes read, after a rebuilt first line when ``rebuilt`` is its note;
    ``original``: the bytes as they were in the file), ``events`` (what is kept),
    ``checked`` (the events the game's check sees), ``lines`` and ``starts`` (line number
    and byte offset of each event), ``good_end`` (offset after the last line kept),
    ``bad`` (``None`` or ``(line, reason, torn)`` where reading stops), ``kind`` (why:
    ``damaged``, ``chain`` or ``stale``), ``what`` (the words for it), ``retyped`` (the
    events typed again for the line set aside; ``proof``: ``_retype_proof``'s, and
    ``wire``: they were judged by the pyramid's own record in the line, ``_wire_die``;
    ``restored``: read again from that record, proven by the chain hash,
    ``_restored_from_record``), ``skipped`` (``_Scan.skipped`` while the damaged line
    is set aside alone, else ``None``), ``after`` (``(line, reason)`` of the
    line that can't follow without it) and ``held`` (the damaged line's bytes, to say
    what it seems to hold)."""

    def __init__(self, data, original, rebuilt, scan):
        self.data = data
        self.original = original
        #: the file's bytes as they were (``original`` names the bytes the lines out of
        #: place are numbered in, after a rebuilt first line)
        self.file = original
        self.rebuilt = rebuilt
        self.scan = scan
        self.events = scan.events
        self.checked = scan.events
        self.lines = scan.lines
        self.starts = scan.starts
        self.good_end = scan.good_end
        self.bad = scan.bad
        self.kind = "damaged" if scan.bad is not None else None
        self.what = None
        self.retyped = None
        self.proof = None
        self.wire = False
        self.restored = False
        self.skipped = scan.skipped
        self.after = None
        self.held = None
        self.contradicted = False
        self.check = None
        #: ``(line, reason, start, end)`` of each line of another game, or exact repeat
        #: of a line, left out alone (``_out_of_place_alone``), in the order of the file,
        #: numbered and placed as in ``original`` (the bytes with them); ``data`` is then
        #: the journal without them
        self.intruders = []
        #: the damaged last line is a die from the pyramid whose own record reads it
        #: (``_last_die``) and ``--retype`` typed it again: ``skipped`` stands for it
        self.last_die = False
        #: ``None`` or, when the last line, cut off, held a die from the pyramid whose own
        #: record in it is whole and passes its CRC (``_torn_die``): ``(line, reason,
        #: start, bytes, prev, die)``, its number, why, the byte offset of its start, its
        #: bytes, the hash of the line before it and the die put back as the pyramid sent
        #: it (a ``set_aside`` line without ``hash`` stands for it; besides ``skipped``, a
        #: damaged line set aside alone before it)
        self.torn = None

    def before(self, line_no):
        """How many of the events come from lines before line ``line_no``."""
        return len([n for n in self.lines if n < line_no])

    def stop(self, line_no, reason, kind, good_end):
        """Reading stops at line ``line_no`` (``reason``, ``kind`` not torn), the bytes
        kept ending at ``good_end``."""
        self.bad, self.kind, self.good_end = (line_no, reason, False), kind, good_end

    def stale(self, line_no, reason, cut):
        """Reading stops at the event ``cut`` (line ``line_no``), which no longer applies."""
        self.stop(line_no, reason, "stale", self.starts[cut])
        self.what = _("event on line %(line)d no longer applies (%(why)s)") % {
            "line": self.scan.shown(line_no), "why": reason}
        return self.events[:cut]


def _load(path, upto_damage, check, options, rebuild, data=None, left_out=(), write=False):
    """A ``_Read`` of the journal at ``path`` (``data``: its bytes as given, else read
    from the file; ``left_out``: ``_Scan.left_out``), its damaged first line rebuilt from
    ``rebuild`` (``_rebuild_first``; with ``upto_damage`` only, else refused naming the
    command; ``write``: for a resume that writes it, so only when the chain confirms it)
    and checked to start the game (``JournalError`` if not)."""
    if data is None:
        with _open_read(path) as fh:
            data = fh.read()
    original, rebuilt = data, None
    try:
        scan = _scan(path, data, left_out)
    except FirstLineDamaged as exc:
        data, rebuilt = _rebuild_first(path, data, exc, dict(rebuild or {}) if upto_damage
                                     else None, options, write)
        scan = _scan(path, data, left_out)
        if check is not None and scan.events:
            # the lines after it must replay with the rebuilt line (a wrong edition or
            # seat count shows at once); the game's own check below names where not
            try:
                check(scan.events[:1])
            except ValueError as bad:
                raise JournalError(_("%(path)s: line 1 rebuilt as given can't start the game "
                                     "(%(why)s); nothing was changed")
                                   % {"path": path, "why": bad}) from None
    return _Read(data, original, rebuilt, scan)


def _chain_break(read):
    """A line out of place comes before any damaged one: reading stops there, and the
    game's check sees the events before it only."""
    if read.scan.chain_bad is None:
        return
    line_no, reason, good_end = read.scan.chain_bad
    cut = read.before(line_no)
    read.stop(line_no, reason, "chain", good_end)
    read.what = _("line %(line)d is out of place (%(why)s)") % {
        "line": read.scan.shown(line_no), "why": reason}
    read.checked = read.events[:cut]


def _intruder_line(read):
    """``(line, reason, start, end)`` of the line out of place (``_Scan.chain_bad``) when
    it can be left out alone: a whole, checked line of another game (its game id another)
    or an exact repeat of a line before it, with lines after it; else ``None``. (Whether
    the lines after it chain to the line before it is for ``_out_of_place_alone``.)"""
    scan, data = read.scan, read.data
    if scan.chain_bad is None or scan.game is None:
        return None
    line_no, reason, start = scan.chain_bad
    nl = data.find(b"\n", start)
    if nl < 0 or not data[nl + 1:].strip():
        return None  # the last line: resuming up to it sets it aside alone already

    def bare(chunk):
        return chunk[:-1] if chunk.endswith(b"\r") else chunk

    chunk = bare(data[start:nl])
    try:
        event = _parse(chunk, True)
    except ValueError:
        return None
    foreign = isinstance(event.get("game"), str) and event["game"] != scan.game
    repeat = chunk in {bare(x) for x in data[:start].split(b"\n")}
    if not (foreign or repeat):
        return None
    return line_no, reason, start, nl + 1


def _out_of_place_alone(path, read, check, options, retype=None):
    """The ``_Read`` of the journal without its lines out of place that can be left out
    alone (``_intruder_line``: a line of another game, or an exact repeat of a line),
    each one whose next line chains to the line before it, in turn: the journal is read
    without the first as ``--upto-damage`` reads it (nothing written), then without the
    next one that read finds, and so on; any other problem on the way (a damaged line, a
    line out of place that can't be left out, an event that no longer applies) is
    handled as that read handles it alone (a damaged line set aside alone, or reading
    stopping there). Its ``intruders`` say which lines were left out (numbered and
    placed as in the file), its ``original`` the bytes with them. ``retype``: the read
    without them types the damaged line set aside again (``_retype_in_place``; its
    ``JournalError`` raised as it is). ``None`` when no line can be left out so: a line
    out of place is then handled as any other."""
    intruders, current, shift = [], read, 0
    while True:
        intruder = _intruder_line(current)
        if intruder is None:
            break
        line_no, reason, start, end = intruder
        left_out = tuple(n for n, *_rest in intruders) + (line_no + len(intruders),)
        without = current.data[:start] + current.data[end:]
        try:
            # with --retype the damaged line is typed again in each read (else a read
            # that stops at it would stop before a line left out after it)
            alone = _read(path, upto_damage=True, check=check, options=options,
                          data=without, retype=retype, left_out=left_out)[0]
        except JournalError as refused:
            if retype is not None and _chains_past(path, check, options, without,
                                                   left_out, start):
                # the line is left out alone all the same: what was typed is refused
                # as it is (never as "no damaged line": the line out of place hid it)
                raise refused from None
            break
        except OSError:
            break
        chain = alone.scan.chain_bad
        if (alone.rebuilt is not None or (chain is not None and chain[2] == start)
                or (alone.bad is not None and alone.good_end < start)):
            # the line after it does not chain to the line before it, or the read
            # stops before it anyway: it is handled as any line out of place
            break
        intruders.append((line_no + len(intruders), reason, start + shift, end + shift))
        shift += end - start
        current = alone
    if not intruders:
        return None
    if retype is not None:
        # the damaged line typed again in its place (--retype), as alone: in the journal
        # without the lines left out (a refusal of what was typed is said as it is)
        current = _read(path, upto_damage=True, check=check, options=options,
                        data=current.data, retype=retype,
                        left_out=tuple(n for n, *_rest in intruders))[0]
    current.original, current.intruders = read.data, intruders
    if read.rebuilt is not None:
        # a damaged first line rebuilt: the reads above read the rebuilt line as whole;
        # the repair writes the journal again, the file as it was (``file``) kept first
        current.rebuilt, current.file = read.rebuilt, read.file
        _refuse(path, current, True, options)  # a rebuild the lines after it don't fit
    return current


def _chains_past(path, check, options, without, left_out, start):
    """True when journal bytes ``without`` (a line out of place left out at byte
    ``start``; ``left_out``: ``_Scan.left_out``) read as ``--upto-damage`` reads them,
    nothing typed again, chain past it: the line after it follows the line before it
    (``_out_of_place_alone``'s test of a line it leaves out, but where reading stops)."""
    try:
        alone = _read(path, upto_damage=True, check=check, options=options, data=without,
                      left_out=left_out)[0]
    except (JournalError, OSError):
        return False
    chain = alone.scan.chain_bad
    return alone.rebuilt is None and not (chain is not None and chain[2] == start)


def _left_out_too(path, read, options):
    """The words a refusal of a damaged line adds after its ``--retype`` when a line of
    another game, or an exact repeat of a line, comes after it (``_intruder_line``) and
    that ``--retype`` leaves it out alone (``_out_of_place_alone``, read with the event
    the damaged line's pyramid record or the next line's chain hash proves, nothing
    written): each such line named, numbered as in the file; "" when there is none."""
    skipped = read.scan.skipped
    if skipped is None or read.check is None or _intruder_line(read) is None:
        return ""
    event = _wire_die(skipped[4]) or _proven_candidate(read.scan)
    if event is None:
        return ""
    try:
        alone = _out_of_place_alone(path, read, read.check, options,
                                    retype=lambda _before: [event])
    except (JournalError, OSError):
        return ""
    if alone is None:
        return ""
    return "".join(_(" (line %(line)d is out of place too (%(reason)s): that --retype leaves "
                     "it out alone, setting it aside in %(path)s.damaged and keeping the "
                     "lines after it)") % {"line": n, "reason": reason, "path": path}
                   for n, reason, _start, _end in alone.intruders)


def _damaged_line(line_no, why):
    """``line 4 is damaged (not JSON)``: line ``line_no`` (numbered as in the file) and
    ``why`` it is damaged, in the table's language."""
    return _("line %(line)d is damaged (%(why)s)") % {"line": line_no, "why": why}


def _shown(read, line_no):
    """Line ``line_no`` of ``read.data`` numbered as in the file (``read.original``):
    past each line out of place left out before it (``read.intruders``)."""
    return _file_line([n for n, *_rest in read.intruders], line_no)


def _alone_plan(path, read):
    """What ``--upto-damage`` does with a journal whose lines out of place it leaves
    out alone (``read``, from ``_out_of_place_alone``), in words: one line left out, the
    lines after it kept (``setting it aside alone ... and keeping the 7 lines after
    it``), or every line it sets aside (numbered as in the file, each with why) and,
    where reading then stops, what it moves there too."""
    skipped, bad = read.skipped, read.bad
    if len(read.intruders) == 1 and skipped is None and bad is None and read.torn is None:
        later = len([x for x in read.original[read.intruders[0][3]:].split(b"\n")
                     if x.strip()])
        return _("setting it aside alone in %(path)s.damaged and %(keeping)s") % {
            "path": path, "keeping": _keeping(later)}
    aside = [(n, _("out of place")) for n, _reason, _start, _end in read.intruders]
    if skipped is not None:
        aside.append((_shown(read, skipped[0]), _("damaged")))
    if read.torn is not None:
        aside.append((_shown(read, read.torn[0]), _("cut off, its die put back")))
    lines = ", ".join(_("line %(line)d (%(why)s)") % {"line": n, "why": why}
                      for n, why in sorted(aside))
    if bad is None:
        return _("setting aside alone in %(path)s.damaged %(lines)s, keeping the game's "
                 "other lines") % {"path": path, "lines": lines}
    return _("setting aside alone in %(path)s.damaged %(lines)s, keeping the game's other "
             "lines before line %(stop)d, then moving %(rest)s there too (%(reason)s)") % {
                 "path": path, "lines": lines, "reason": bad[1], "stop": _shown(read, bad[0]),
                 "rest": _rest_words(read, bad[0], named=True, shown=_shown(read, bad[0]))}


def _refuse_intruder(path, read, options):
    """Refuse the resume of a journal with a line out of place that ``--upto-damage``
    leaves out alone (``read``, from ``_out_of_place_alone``): ``JournalError`` naming
    the first such line, why it is out of place (or a damaged line before it, set aside
    alone too), and every line the command sets aside and what it keeps
    (``_alone_plan``)."""
    line_no, reason, _start, _end = read.intruders[0]
    plan = _alone_plan(path, read)
    # the damaged line read past: set aside alone, or where reading stops (the line
    # right after it no longer applies without it); either way it can be typed again
    damaged = read.scan.skipped
    if damaged is not None and read.skipped is None and (
            read.bad is None or read.bad[0] != damaged[0]):
        damaged = None
    if (len(read.intruders) == 1 and damaged is None and read.skipped is None
            and read.bad is None and read.torn is None):
        hint = _skip_hint(path, options, plan)
    elif damaged is not None and not read.restored and _again_words(
            path, read, False, options)[1]:
        # the damaged line can be typed again (as alone): offered first, as it restores
        # that line and the lines after it too; the same --retype works with the lines
        # left out
        said, again = _again_words(path, read, False, options)
        hint = "%s; %s%s%s%s" % (
            _("nothing was changed"),
            _damaged_line(_shown(read, damaged[0]), damaged[1]),
            said, again, _("; or, to resume without them, %(plan)s: %(command)s") % {
                "plan": plan, "command": "pyramid play --resume %s --upto-damage%s" % (
                    shlex.quote(path), _option_words(options))})
    else:
        hint = _("nothing was changed (to resume without them, %(plan)s: %(command)s)") % {
            "plan": plan, "command": "pyramid play --resume %s --upto-damage%s" % (
                shlex.quote(path), _option_words(options))}
    head = _("line %(line)d is out of place (%(why)s)") % {"line": line_no, "why": reason}
    if damaged is not None and _shown(read, damaged[0]) < line_no:
        # a damaged line before it: the first problem in the file is named first
        head = _damaged_line(_shown(read, damaged[0]), damaged[1])
    raise JournalError("%s: %s; %s" % (path, head, hint))


def _retype_in_place(path, read, retype, upto_damage):
    """``--retype``: the events ``retype`` gives for the damaged line set aside go in its
    place (the lines after it follow them). ``JournalError`` when there is no such line,
    ``retype`` raises ``ValueError``, or its events differ from what the damaged line
    still reads (``_retype_proof``) and ``retype.confirmed`` is not true. A damaged die
    line whose pyramid record still passes its CRC (``_wire_die``) is read by that
    record alone: the die typed as it reads goes in as the pyramid sent it (its ``raw``,
    ``boot`` and ``seq`` kept), anything else contradicts it (``read.wire``)."""
    if retype is None or not upto_damage:
        return
    skipped = read.scan.skipped
    if skipped is None and _last_die(read) is not None:
        _retype_last_die(path, read, retype)
        return
    if skipped is None:
        raise JournalError(_("%s: --retype: no damaged line with intact lines after it to "
                             "type again; nothing was changed") % path)
    at = read.before(skipped[0])
    try:
        retyped = retype(read.events[:at])
    except ValueError as exc:
        raise JournalError(_("%(path)s: --retype for line %(line)d: %(why)s; nothing was "
                             "changed") % {"path": path, "line": read.scan.shown(skipped[0]),
                                           "why": exc}) from None
    wire = _wire_die(skipped[4])
    read.wire = wire is not None
    # a die whose pyramid record passes its CRC is judged by that record (below)
    proven = _proven_candidate(read.scan) if wire is None else None
    game_keys = ("type", "colour", "ink", "value", "action", "player")
    if proven is not None and len(retyped) == 1 and all(
            retyped[0].get(k) == proven.get(k) for k in game_keys):
        # what the next line's chain hash proves: the line as written, taken at once
        retyped, read.proof = [proven], "proven"
    elif proven is not None and not getattr(retype, "confirmed", False):
        players = _players(read.scan.events)
        typed = ", ".join(w for w in (_what_it_held(json.dumps(e).encode(), players)
                                      for e in retyped) if w)
        held = _what_it_held(json.dumps(proven).encode(), players)
        if held == typed and str(proven.get("action")).startswith("finish"):
            # a finish card for the same player: which card is never said (RULES 1.8)
            raise JournalError(_("%(path)s: --retype for line %(line)d: the next line's chain "
                                 "hash proves it held %(held)s, but not the one typed (which "
                                 "card is not said here: it lies face down); nothing was "
                                 "changed (if that is what happened at the table, give the "
                                 "same --retype twice to confirm it)")
                               % {"path": path, "line": read.scan.shown(skipped[0]),
                                  "held": held})
        raise JournalError(_("%(path)s: --retype for line %(line)d: the next line's chain hash "
                             "proves it held %(held)s, not %(typed)s; nothing was changed (if "
                             "that is what happened at the table, give the same --retype "
                             "twice to confirm it)")
                           % {"path": path, "line": read.scan.shown(skipped[0]),
                              "held": _what_it_held(json.dumps(proven).encode(), players),
                              "typed": typed})
    elif wire is None:
        read.proof = _retype_proof(read.scan, skipped, retyped)
    elif len(retyped) == 1 and all(retyped[0].get(k) == wire.get(k)
                                   for k in ("type", "colour", "ink", "value")):
        retyped = [wire]  # the die as the pyramid sent it, as the table journaled it
        read.proof = "proven" if _proves(read.scan, skipped, wire) else None
    else:
        players = _players(read.scan.events)
        read.proof = (_what_it_held(json.dumps(wire).encode(), players),
                      ", ".join(w for w in (_what_it_held(json.dumps(e).encode(), players)
                                            for e in retyped) if w))
    read.retyped = retyped
    # the next line's chain hash names another line: evidence against the retype, which
    # is refused unless given twice (``_contradicted``, once the lines after it are read)
    read.contradicted = (read.proof is None and read.scan.skipped_hash is not None
                         and read.scan.game is not None
                         and not getattr(retype, "confirmed", False))
    if isinstance(read.proof, tuple) and not getattr(retype, "confirmed", False):
        if read.wire:
            raise JournalError(_(WIRE_READS) % {
                "path": path, "line": read.scan.shown(skipped[0]), "reads": read.proof[0],
                "typed": read.proof[1]})
        if read.proof[0] == read.proof[1]:  # a finish card: its colour is never said
            raise JournalError(_("%(path)s: --retype for line %(line)d: the damaged line "
                                 "still reads another colour for %(typed)s than the one typed "
                                 "(not said here: the card lies face down); nothing was "
                                 "changed (if that is what happened at the table, give the "
                                 "same --retype twice to confirm it)")
                               % {"path": path, "line": read.scan.shown(skipped[0]),
                                  "typed": read.proof[1]})
        raise JournalError(_("%(path)s: --retype for line %(line)d: the damaged line still "
                             "reads %(reads)s, not %(typed)s; nothing was changed (if that is "
                             "what happened at the table, give the same --retype twice to "
                             "confirm it)")
                           % {"path": path, "line": read.scan.shown(skipped[0]),
                              "reads": read.proof[0], "typed": read.proof[1]})
    read.events = read.events[:at] + retyped + read.events[at:]
    read.checked = read.checked[:at] + retyped + read.checked[at:]
    read.lines = read.lines[:at] + [skipped[0]] * len(retyped) + read.lines[at:]
    read.starts = read.starts[:at] + [skipped[2]] * len(retyped) + read.starts[at:]


def _last_die(read):
    """``(chunk, wire, start, end)`` when reading stops at a damaged last line (whole,
    its line ending there; only blank lines after it) of a chained journal that held a
    die from the pyramid whose own record in it passes its CRC (``_wire_die``): its
    bytes, the die event that record gives, and the byte offsets of its start and of
    what follows it; else ``None``."""
    bad, scan, data = read.bad, read.scan, read.data
    if (bad is None or bad[2] or read.kind != "damaged" or scan.skipped is not None
            or scan.game is None or scan.empty == bad[0] or scan.bad != bad):
        return None
    start = scan.good_end
    nl = data.find(b"\n", start)
    if nl < 0 or data[nl + 1:].strip():
        return None
    chunk = data[start:nl]
    if chunk.endswith(b"\r"):
        chunk = chunk[:-1]
    wire = _wire_die(chunk)
    return None if wire is None else (chunk, wire, start, nl + 1)


def _torn_die(read, check):
    """A last line cut off when the program stopped (torn: no newline, failing its
    checksum) of a chained journal that held a die from the pyramid whose own record
    (``raw``, ``EVT ...*CRC``) was written whole before the cut and passes its CRC
    (``_torn_fields`` tells the line a die's, ``_wire_die`` reads the record, every field
    read whole agrees with it): the die is put back in its place as the pyramid sent it
    (``read.torn``: a ``set_aside`` line without ``hash`` stands for the line, its bytes
    kept in ``FILE.damaged`` on a resume), when it still applies to the game (``check``,
    ``Session.stale_line``), also after a damaged line set aside alone before it
    (``read.skipped``) and after a first line rebuilt. The pyramid released it and the
    table took it: left out, a bot's turn would release another die at once (tester
    s42-3 finding 3). Nothing otherwise (the note then says what the line held,
    ``_torn_words``)."""
    bad, scan = read.bad, read.scan
    # right after a damaged line typed again (``_nothing_kept_after``) it follows that
    # line's ``set_aside`` line, whose hash ``_kept`` works out (``prev`` ``None`` here)
    after_skipped = read.skipped is not None and read.skipped[3] == read.good_end
    if (bad is None or not bad[2] or read.kind != "damaged" or read.last_die
            or scan.game is None or check is None
            or not (isinstance(scan.last, str) or after_skipped)):
        return
    chunk = read.data[read.good_end:]
    kind, held = _torn_fields(chunk)
    if kind != "die" or not isinstance(held.get("raw"), str):
        return
    wire = _wire_die(json.dumps({"type": "die", "raw": held["raw"]},
                                separators=(",", ":")).encode())
    if wire is None or any(held[k] != wire.get(k) for k in held
                           if k not in CHAIN_FIELDS and k != "type"):
        return
    if check(read.events + [wire]) is not None:
        return  # it no longer applies here: said as cut off, as before
    line_no, start = bad[0], read.good_end
    read.torn = (line_no, _("cut off when the program stopped"), start, chunk,
                 None if after_skipped else scan.last, wire)
    read.bad, read.kind = None, None  # good_end stays: the line is no good line
    at = len(read.events)
    read.events = read.events + [wire]
    read.checked = read.events
    read.lines = read.lines[:at] + [line_no]
    read.starts = read.starts[:at] + [start]


def _retype_last_die(path, read, retype):
    """``--retype`` for a damaged last line that held a die from the pyramid
    (``_last_die``): the die typed as its own record reads it goes in as the pyramid sent
    it (its ``raw``, ``boot`` and ``seq`` kept), in a ``set_aside`` line in its place
    (``read.skipped`` stands for it, its ``hash`` unknown: no line names it); another die
    contradicts the record and is refused (``JournalError``, nothing changed) unless
    ``retype.confirmed``. ``ValueError`` from ``retype`` is refused too."""
    chunk, wire, start, end = _last_die(read)
    line_no = read.bad[0]
    at = read.before(line_no)
    try:
        retyped = retype(read.events[:at])
    except ValueError as exc:
        raise JournalError(_("%(path)s: --retype for line %(line)d: %(why)s; nothing was "
                             "changed") % {"path": path, "line": read.scan.shown(line_no),
                                           "why": exc}) from None
    if len(retyped) == 1 and all(retyped[0].get(k) == wire.get(k)
                                 for k in ("type", "colour", "ink", "value")):
        retyped, proof = [wire], None  # the die as the pyramid sent it
    else:
        players = _players(read.scan.events)
        proof = (_what_it_held(json.dumps(wire).encode(), players),
                 ", ".join(w for w in (_what_it_held(json.dumps(e).encode(), players)
                                       for e in retyped) if w))
        if not getattr(retype, "confirmed", False):
            raise JournalError(_(WIRE_READS) % {
                "path": path, "line": read.scan.shown(line_no), "reads": proof[0],
                "typed": proof[1]})
    read.skipped = (line_no, read.bad[1], start, end, chunk, read.scan.last)
    read.retyped, read.proof, read.wire, read.last_die = retyped, proof, True, True
    read.bad, read.kind, read.good_end = None, None, end
    read.events = read.events[:at] + retyped
    read.checked = read.checked[:at] + retyped
    read.lines = read.lines[:at] + [line_no] * len(retyped)
    read.starts = read.starts[:at] + [start] * len(retyped)


def _restored_from_record(read, retype, upto_damage):
    """``--upto-damage`` without ``--retype``: a damaged line that can't be typed again
    but whose ``raw`` is the pyramid's own record passing its CRC (``_from_record``: a
    release the table refused, a sensor fault, a die whose value or grey ink was keyed
    after it) is put back in its place, read again from that record, when the next
    line's chain hash proves it the line as written (never on a guess). Kept, it keeps
    the pyramid's event the table took (``Session.resume_point``, ``behind_pyramid``), a
    pyramid ticket a refused release took at the start of a turn, and the die the
    ``value`` or ``ink`` line after it completes."""
    skipped = read.scan.skipped
    if retype is not None or not upto_damage or skipped is None:
        return
    event = _from_record(read.scan)
    if event is None:
        return
    at = read.before(skipped[0])
    read.retyped, read.proof, read.restored = [event], "proven", True
    read.events = read.events[:at] + [event] + read.events[at:]
    read.checked = read.checked[:at] + [event] + read.checked[at:]
    read.lines = read.lines[:at] + [skipped[0]] + read.lines[at:]
    read.starts = read.starts[:at] + [skipped[2]] + read.starts[at:]


def _from_record(scan):
    """The event of the damaged line ``scan.skipped`` as its own pyramid record rebuilds
    it, when the next line's chain hash proves it the line as written: a ``rejected``
    line (``_wire_refused``) or a die whose value or grey ink was keyed after it (``?``
    on the wire, ``_wire_die``'s ``keyed_after``); ``None`` otherwise (a die the record
    gives whole is typed again, ``--retype``)."""
    skipped = scan.skipped
    if skipped is None:
        return None
    event = _wire_refused(skipped[4]) or _wire_die(skipped[4], keyed_after=True)
    return event if event is not None and _proves(scan, skipped, event) else None


def _wire_refused(chunk):
    """The ``rejected`` event a damaged line ``chunk`` reads (its JSON, or field by
    field), with ``kind``, ``boot`` and ``seq`` as its ``raw`` record says when that is a
    pyramid's wire line passing its CRC (docs/protocol.md, "Framing"); ``None`` for
    another kind of line or a record that fails its CRC."""
    from camelhost.table.events import Rejected
    keys = ("type",) + Rejected._WRITTEN
    held = _held_event(chunk)
    if held is None:
        held = _held_fields(chunk, {k: ("rejected" if k == "type" else None) for k in keys})
    if held.get("type") != "rejected":
        return None
    record = _wire_record(held.get("raw"))
    if record is None:
        return None
    event = {k: held.get(k) for k in keys if k in held}
    event.update(raw=held["raw"], kind=record.kind, boot=record.boot, seq=record.seq)
    return event


def _wire_record(raw):
    """The pyramid's event whose wire line ``raw`` is (a journal line's ``raw`` field,
    decoded as the link does, ``camelhost.device.events.decode``: a ``Die`` or a
    ``DieEvent``, its ``raw`` set), when it is an ``EVT`` line whose CRC-32 matches its
    body; else ``None`` (the words typed for a die, a damaged record)."""
    from camelup.board import protocol

    from camelhost.device.events import decode
    if not isinstance(raw, str):
        return None
    try:
        event = decode(raw.encode("ascii"))
    except (UnicodeError, protocol.ProtocolError):
        return None
    if getattr(event, "name", None) != "EVT":
        return None
    event.raw = raw
    return event


def _players(events):
    """The players' names of the ``game`` line first in ``events`` (``[]`` if none)."""
    players = events[0].get("players", []) if events else []
    return players if isinstance(players, list) else []


def _proves(scan, skipped, event):
    """True when ``event`` is what the damaged line ``skipped`` held: the line it makes
    (the same fields a journal writes: the event, ``n``, ``game``, ``prev``) has the hash
    the next line's ``prev`` names for it."""
    if scan.game is None:
        return False
    line = encode_line(dict(event, n=skipped[0], game=scan.game, prev=skipped[5]))
    return line_hash(line.rstrip(b"\n")) == scan.skipped_hash


def _candidates(held, players, edition):
    """The few events a damaged line could have held, read from what it still holds
    (``held``, its event without the chain fields): a die of every colour and value of
    ``edition`` (the grey die in either ink), its pyramid record's ``col=``/``val=`` read
    the same; the value pressed for a die (1-3); a player's action as every action of
    its kind (``_actions``: a leg ticket of every racing colour, a partnership with every
    seat, a spectator tile on every space on either side, a finish card on either pile
    in every racing colour, never said: RULES 1.8), every action of every kind when the
    kind no longer reads; and the acting player (``player``) as every one of
    ``players`` (a player's action and pyramid ticket also as the table writes them,
    with no other field: a field's name may be what is damaged); the grey die's ink
    keyed (either ink, or ``again``); an undo of one step or of 2 up to as many steps
    as ``players`` (a player's step and the bots' after it); another race, its start
    marker with each seat. A list of dicts, ``held`` itself among them."""
    import re

    from camelup.editions import die_label
    kind = held.get("type")
    seats = list(range(len(players)))
    found = [held]
    if kind == "die":
        dice = [(c, i) for c in edition.racing for i in (None,)] + [
            (c, i) for c in edition.dice if c not in edition.racing for i in INKS]
        raw = held.get("raw")
        for colour, ink in dice:
            for value in (1, 2, 3):
                event = dict(held, colour=colour, ink=ink, value=value)
                found.append(event)
                if isinstance(raw, str) and "col=" in raw and "val=" in raw:
                    wire = re.sub(r"col=\S+", "col=" + die_label(colour, ink), raw)
                    found.append(dict(event, raw=re.sub(r"val=\S+", "val=%d" % value, wire)))
                elif isinstance(raw, str):
                    found.append(dict(event, raw=" ".join(
                        str(w) for w in (colour, ink, value) if w is not None)))
    elif kind == "value":
        found += [dict(held, value=v) for v in (1, 2, 3)]
    actions = [held.get("action")]
    if kind == "action":
        actions += _actions(held.get("action"), len(players), edition)
        # a field's name damaged ('plyer'): the action as the table writes it, whole
        found += [{"type": kind, "player": seat, "action": a}
                  for seat in seats for a in actions[1:]]
    elif kind == "pyramid":
        found += [{"type": kind, "player": seat} for seat in seats]
    elif kind == "ink":  # the grey die's numerals keyed, or 'again'
        found += [{"type": kind, "ink": ink} for ink in INKS] + [
            {"type": kind, "ink": None, "again": True}]
    elif kind == "undo":  # one step, or a player's step and the bots' after it
        found += [{"type": kind}] + [{"type": kind, "steps": n}
                                     for n in range(2, len(players) + 1)]
    elif kind == "race":  # 'again': the seat the start marker passed to
        found += [{"type": kind}] + [{"type": kind, "start": seat} for seat in seats]
    if "player" in held:
        found += [dict(held, player=seat, **({"action": a} if a is not None else {}))
                  for seat in seats for a in actions]
    elif len(actions) > 1:
        found += [dict(held, action=a) for a in actions]
    return found


#: The kinds of a player's action (``camelhost.table.parser``'s canonical text, its first
#: word) a damaged line's search tries every one of (``_actions``).
SEARCHED_ACTIONS = ("leg", "partner", "tile", "finish")


def _actions(action, seats, edition):
    """Every action of the kind a damaged line's ``action`` still reads (its first word,
    one of ``SEARCHED_ACTIONS``), as the table journals it: ``leg COLOUR`` for each racing
    camel of ``edition``, ``partner SEAT`` for each of ``seats`` (a count), ``tile SPACE
    +``/``-`` for each space 1-16 (``camelup.editions.TRACK``), ``finish winner|loser
    COLOUR``; the actions of every kind when it reads none of them (or is no text). A
    list of str, at most a few dozen."""
    from camelup.editions import TRACK
    kinds = {
        "leg": lambda: ["leg " + c for c in edition.racing],
        "partner": lambda: ["partner %d" % seat for seat in range(seats)],
        "tile": lambda: ["tile %d %s" % (space, side) for space in range(1, TRACK + 1)
                         for side in "+-"],
        "finish": lambda: ["finish %s %s" % (pile, c) for pile in ("winner", "loser")
                           for c in edition.racing]}
    head = action.split()[:1] if isinstance(action, str) else []
    if head and head[0] in kinds:
        return kinds[head[0]]()
    return [a for kind in SEARCHED_ACTIONS for a in kinds[kind]()]


def _proven_candidate(scan):
    """The event the damaged line ``scan.skipped`` held, when one of its few candidates
    (``_candidates``) makes the line whose hash the next line's ``prev`` names for it
    (``_proves``), its ``type`` tried as each kind the table journals after the one it
    reads (or when it reads none); a line that reads as no event at all where the table
    waited for the value pressed for a die (``_value_awaited``), as each of the three values (the exact
    ``--retype 2`` to give, not ``--retype COMMAND``); ``None`` when none does, or when
    the line can't be read as an event otherwise or has no chained line after it."""
    from camelup.editions import get_edition
    skipped = scan.skipped
    if skipped is None or scan.game is None or scan.skipped_hash is None:
        return None
    held = _held_event(skipped[4])
    if held is None or not isinstance(held.get("type"), str):
        # a line that no longer reads as an event at all: where the table waited for the
        # value pressed for a die, it held that value, one of three lines to try
        if _value_awaited(_scan_before(scan, skipped[0])) is None:
            return None
        for value in (1, 2, 3):
            if _proves(scan, skipped, {"type": "value", "value": value}):
                return {"type": "value", "value": value}
        return None
    held = {k: v for k, v in held.items() if k not in CHAIN_FIELDS}
    header = scan.events[0] if scan.events else {}
    try:
        edition = get_edition(header.get("edition") or "classic")
    except (ValueError, KeyError, TypeError):
        return None
    from camelhost.table.events import JOURNALED
    # the kind it reads first; then (a damaged type: ``dle``, or ``action`` for
    # ``pyramid``) the line as each other kind the table journals, its fields kept
    kinds = ([held] if held["type"] in JOURNALED else []) + [
        dict(held, type=k) for k in JOURNALED if k != held["type"]]
    for kind in kinds:
        for event in _candidates(kind, _players(scan.events), edition):
            if _proves(scan, skipped, event):
                return event
    return None


def _searched(scan):
    """True when the damaged line ``scan.skipped`` reads as a player's action or pyramid
    ticket (``--retype`` would type one again), the next line's chain hash names it, and
    no line of that kind (``_candidates``: every action of every player) is the one it
    names (``_proven_candidate`` gives ``None``): a ``--retype`` of it as it reads, or
    corrected, is refused. ``False`` for a die (its typed words are not all tried) and a
    pyramid's own record."""
    skipped = scan.skipped
    if skipped is None or scan.game is None or scan.skipped_hash is None:
        return False
    held = _held_event(skipped[4])
    if held is None or held.get("type") not in ("action", "pyramid"):
        return False
    return _wire_die(skipped[4]) is None and _proven_candidate(scan) is None


def _unproven_hint(path, options=()):
    """The end of a refusal of a damaged line no candidate of its kind is proven for
    (``_searched``): so said, and the command that types what it held again in its place
    (``COMMAND`` to fill in), as for a line that can't be read."""
    return _("; the next line's chain hash matches none of the actions and pyramid tickets "
             "it could have held (each of them, for every player: the damage may be in more "
             "than one place), so typing it again as it reads would be refused"
             ) + _command_hint(path, options)


def _command_hint(path, options=()):
    """The end of a refusal of a damaged line whose event can't be named for it: the
    command that types what it held again in its place, ``COMMAND`` to fill in."""
    words = ["pyramid", "play", "--resume", shlex.quote(path), "--upto-damage",
             "--retype", _("COMMAND")] + [shlex.quote(w) for w in options]
    return _("; type what it held again in its place, keeping the lines after it: %s"
             ) % " ".join(words)


#: a pyramid's wire record (``EVT BODY*CRC``, docs/protocol.md "Framing") as it stands in
#: a journal line's bytes: printable ASCII without a quote or a backslash (a record that
#: held one is escaped in the JSON: its bytes no longer pass its CRC), then ``*`` and 8
#: uppercase hex digits not followed by another
_RECORD = re.compile(rb'EVT [ !#-\[\]-~]*?\*[0-9A-F]{8}(?![0-9A-F])')


def _record_in(chunk):
    """The one pyramid wire record (``EVT ...*CRC``, a str) in the bytes of a damaged
    journal line ``chunk`` whose CRC-32 matches its body (``_wire_record``), found by
    its strict format wherever it stands (the JSON around it may no longer parse);
    ``None`` when there is none, or more than one, so found."""
    found = {m.group().decode("ascii") for m in _RECORD.finditer(chunk)}
    found = [raw for raw in found if _wire_record(raw) is not None]
    return found[0] if len(found) == 1 else None


def _wire_die(chunk, keyed_after=False):
    """The die a damaged journal line ``chunk`` still proves by itself: when it reads
    ``"type":"die"`` and its ``raw`` is a pyramid's wire line (``BODY*CRC``) whose CRC-32
    still matches its body (docs/protocol.md, "Framing"), the die event the table
    journals for that record (``camelhost.table.events.from_link``: ``colour``, ``ink``,
    ``value``, ``raw``, ``boot``, ``seq``, ``source`` ``pyramid``), a dict. ``None`` for
    a die typed at the table (its ``raw`` is the words typed), a record that fails its
    CRC or does not decode, another kind of line, and a die whose value or grey ink was
    keyed after it (``?`` on the wire: the line alone can't give it). ``keyed_after``:
    only such a die (its ``value`` or ``ink`` ``None``, as the line held it)."""
    from camelhost.table.events import from_link
    held = _held_fields(chunk, {"type": "die", "raw": None})
    if not held and _typeless_die(chunk):
        held = {"type": "die"}  # its type key lost a quote: a die's line all the same
    event = _wire_record(held.get("raw"))
    if event is None and held:
        # a line that still reads "type":"die" but whose raw field no longer reads as
        # JSON (a quote lost, its key damaged): the record found in its bytes as the
        # pyramid's own strict format, its CRC checked (_record_in), never prose
        event = _wire_record(_record_in(chunk))
    if event is None:
        return None
    try:
        die = from_link(event)
    except ValueError:  # TableError: a kind or a shape the table does not take
        return None
    if getattr(die, "TYPE", None) != "die":
        return None
    if (die.value is None or (die.colour == "grey" and die.ink is None)) != keyed_after:
        return None
    return die.to_json()


def _typeless_die(chunk):
    """True when a damaged line ``chunk`` reads no ``type`` (its key damaged: ``"type:"``,
    ``"tYpe"``) but reads as a die from the pyramid by its other fields: its ``source``
    ``pyramid``, a ``colour``, and neither a ``kind`` nor a ``reason`` (a release the
    table refused, which keeps a record too, writes both)."""
    if b'"type":' in chunk:
        return False
    held = _held_fields(chunk, {"source": None, "colour": None, "kind": None,
                                "reason": None})
    return (held.get("source") == "pyramid" and isinstance(held.get("colour"), str)
            and "kind" not in held and "reason" not in held)


def _retype_proof(scan, skipped, retyped):
    """Whether the events typed again for the damaged line ``skipped`` are what it held:
    ``"proven"`` when the line they make (the same fields a journal writes: the event,
    ``n``, ``game``, ``prev``) has the hash the next line's ``prev`` names for it;
    else ``(held, typed)``, the words for what the damaged line still reads and for what
    was typed when a field both hold differs (the typing, ``raw``, and where a die came
    from, ``source``, ``boot``, ``seq``, aside), ``None`` when nothing tells them apart."""
    if len(retyped) == 1 and _proves(scan, skipped, retyped[0]):
        return "proven"
    if len(retyped) != 1:
        return None
    typed = retyped[0]
    held = _held_event(skipped[4])
    if held is None:
        held = _held_fields(skipped[4], typed)
        if not held:
            return None
    # the fields both hold but the typing and where a die came from (a released die's
    # ``boot``/``seq``, ``source``): what the line still reads of the game itself
    fields = [k for k in typed if k in held and k not in CHAIN_FIELDS
              and k not in ("raw", "source", "boot", "seq")]
    if any(held[k] != typed[k] for k in fields):
        players = scan.events[0].get("players", []) if scan.events else []
        players = players if isinstance(players, list) else []
        # the fields it no longer reads are taken as typed: only those it reads differ
        return (_what_it_held(json.dumps(dict(typed, **held)).encode(), players),
                _what_it_held(json.dumps(typed).encode(), players))
    return None


def _stale_event(read, check):
    """An event that no longer applies (``check``, ``Session.stale_line``): the check sees
    the events before the line where the chain breaks; at that line and after it the
    chain's reason is the one said (a line removed, repeated or moved, named as such, not
    as the game's refusal of it). The events kept end before it."""
    stale = check(read.checked) if check is not None and read.checked else None
    if stale is not None:
        line_no, reason = read.lines[stale[0] - 1], stale[1]
        if read.bad is None or line_no < read.bad[0]:
            read.checked = read.stale(line_no, reason, read.lines.index(line_no))
    read.events = read.checked


def _unchecked_skip(read, check):
    """Without ``check`` the lines after the damaged line can't be checked to apply
    without it: reading stops there."""
    skipped = read.scan.skipped
    if skipped is not None and check is None:
        read.skipped = None
        read.stop(skipped[0], skipped[1], "damaged", skipped[2])
        read.events = read.events[:read.before(skipped[0])]


def _undo_after_skip(read):
    """An undo after a line set aside (and not typed again) would take back another
    action than the one it took back, and a redo give back another: the read stops
    there, as at an event that no longer applies."""
    skipped = read.skipped
    if skipped is None or read.retyped is not None:
        return
    undo = [i for i, e in enumerate(read.events) if e.get("type") in ("undo", "redo")
            and read.lines[i] > skipped[0]]
    if undo and (read.bad is None or read.lines[undo[0]] < read.bad[0]):
        shown = read.scan.shown(skipped[0])  # as the file numbers it
        if read.events[undo[0]].get("type") == "redo":
            reason = _("a redo, which without line %d would give back another action") % (
                shown)
        else:
            reason = _("an undo, which without line %d would take back another action") % (
                shown)
        read.events = read.stale(read.lines[undo[0]], reason, undo[0])


def _nothing_kept_after(path, read):
    """No line after the damaged one is kept (the read stops before or right after it):
    reading stops at the damaged line, as at any damaged line, and says what the line
    seems to hold (to be typed again) and why the next one can't follow. Events typed
    again in its place (``--retype``) that the next line does not follow are refused
    (``JournalError``, nothing changed): they are not what the line held. Events typed
    again for a damaged line right before a last line cut off are kept in its place (no
    line after it names its hash: the chain goes on from its ``set_aside`` line), the cut
    line handled as any (``_torn_die``)."""
    skipped = read.skipped
    if skipped is None or skipped[3] < read.good_end or (read.last_die and read.bad is None):
        return
    if (read.retyped is not None and read.bad is not None and read.bad[2]
            and skipped[3] == read.good_end):
        return
    if read.retyped is not None and read.bad is not None and not read.bad[2]:
        raise JournalError(_("%(path)s: --retype for line %(line)d: line %(next)d does not "
                             "follow what was typed (%(why)s); nothing was changed (type what "
                             "line %(line)d held)")
                           % {"path": path, "line": read.scan.shown(skipped[0]),
                              "next": read.scan.shown(read.bad[0]), "why": read.bad[1]})
    if skipped[2] < read.good_end or read.bad is None:
        bad = read.bad
        if bad is not None and not bad[2] and read.kind in ("stale", "chain"):
            read.after = bad[:2]
        read.stop(skipped[0], skipped[1], "damaged", skipped[2])
        read.events = read.events[:read.before(skipped[0])]
        read.held = skipped[4]
    read.skipped = None


def _contradicted(path, read):
    """Events typed again (``--retype``, given once) that the next line's chain hash does
    not prove are refused (``JournalError``, nothing changed): the hash names another
    line, so they are taken only when the same ``--retype`` is given twice."""
    if not read.contradicted:
        return
    players = _players(read.scan.events)
    # the subject of the refusal's sentence (German: der Würfel)
    typed = ", ".join(w for w in (_what_it_held(json.dumps(e).encode(), players,
                                                subject=True)
                                  for e in read.retyped) if w)
    if any(e.get("type") == "die" for e in read.retyped):
        # a die is not searched (its typing, and a released die's record, are in the
        # line the hash covers): the hash can't prove it, which does not make it wrong
        raise JournalError(_("%(path)s: --retype for line %(line)d: %(typed)s can't be proven "
                             "the line as written (the next line's chain hash does not match "
                             "it); nothing was changed (if that is what happened at the "
                             "table, give the same --retype twice to confirm it)")
                           % {"path": path, "line": read.scan.shown(read.scan.skipped[0]),
                              "typed": typed})
    raise JournalError(_("%(path)s: --retype for line %(line)d: %(typed)s can't be the line as "
                         "written (the next line's chain hash does not match it); nothing was "
                         "changed (if that is what happened at the table, give the same "
                         "--retype twice to confirm it)")
                       % {"path": path, "line": read.scan.shown(read.scan.skipped[0]),
                          "typed": typed})


def _damaged_words(read):
    """The words for a damaged line where reading stops (an empty one named as such)."""
    if read.kind == "damaged":
        shown = read.scan.shown(read.bad[0])
        read.what = _damaged_line(shown, read.bad[1])
        if read.scan.empty == read.bad[0]:
            read.what = _("line %d is empty") % shown


def _refuse(path, read, upto_damage, options):
    """Raise ``JournalError`` for what can't be read without ``upto_damage`` (a line
    set aside, a line where reading stops that is not torn) or on a guess (a first line
    rebuilt but not proven, and a later line that does not follow it), naming the
    command that goes on and, for a damaged line set aside, what it still reads."""
    scan, skipped, bad = read.scan, read.skipped, read.bad
    unproven = read.rebuilt is not None and b'"hash":' in read.data[:read.data.find(b"\n")]
    if unproven and read.kind in ("stale", "chain"):
        # a first line rebuilt but not proven (line 2 names another hash for it), and a
        # later line that does not follow it: the values it was rebuilt from are likely
        # wrong; nothing is set aside on that guess
        raise JournalError(_("%(path)s: the first line rebuilt from what was given does not "
                             "fit the lines after it (%(why)s); nothing was changed: check "
                             "--players, --edition and --seed") % {"path": path,
                                                                   "why": read.what})
    if not upto_damage and scan.skipped is not None and (skipped is not None or (
            bad is not None and bad[0] == scan.skipped[0])) and _from_record(scan):
        raw = _raw_words(scan.skipped[4])
        raise JournalError("%s: %s; %s%s" % (
            path, _damaged_line(*scan.skipped[:2]),
            _record_hint(path, options), _("; the line reads: %s") % raw if raw else ""))
    said, again = "", ""
    if scan.skipped is not None and not upto_damage and bad is not None and (
            bad[0] == scan.skipped[0]) or (skipped is not None and not read.last_die):
        said, again = _again_words(path, read, upto_damage, options)
    last = _last_die(read) if not upto_damage and skipped is None else None
    if last is not None:
        # a damaged last line that held a die from the pyramid: its own record names it,
        # and --retype puts it back (as for the line damaged in the middle)
        names = _players(scan.events)
        said = _retype_hint(path, last[0], options, names, _before(read, bad[0]))[0]
        words = ["pyramid", "play", "--resume", path, "--upto-damage", "--retype",
                 _proven_typed(last[1], names)] + list(options)
        again = _("; type again in its place the die the pyramid sent, as its own record "
                  "in the line reads it (its CRC checks): %s") % " ".join(
                      shlex.quote(w) for w in words)
    if again and not upto_damage and scan.skipped is not None:
        # a line of another game after it, which that --retype leaves out alone: named
        again += _left_out_too(path, read, options)
    # the retype first when there is one: it can restore every line; then what resuming
    # without it (or up to it) sets aside, counted before anyone runs it
    if skipped is not None and not upto_damage:
        plan = _skip_words(path, read.check, options)
        if again:
            raise JournalError("%s: %s; %s%s%s%s" % (
                path, _damaged_line(skipped[0], skipped[1]),
                _("nothing was changed"), said, again, _skip_hint(path, options, plan, True)))
        raise JournalError("%s: %s; %s%s" % (
            path, _damaged_line(skipped[0], skipped[1]),
            _skip_hint(path, options, plan), said))
    if bad is not None and not bad[2] and not upto_damage:
        rest = _rest_words(read, bad[0])
        if again:
            raise JournalError("%s: %s; %s%s%s%s" % (
                path, read.what, _("nothing was changed"), said, again,
                _("; or, to resume up to it, moving %(rest)s to %(path)s.damaged: pyramid "
                  "play --resume %(quoted)s --upto-damage%(options)s") % {
                      "rest": rest, "path": path, "quoted": shlex.quote(path),
                      "options": _option_words(options)}))
        raise JournalError("%s: %s; %s%s" % (
            path, read.what, _resume_hint(path, options, rest), said))


def _again_words(path, read, upto_damage, options):
    """``(said, again)`` for the damaged line read past (``read.scan.skipped``) in a
    refusal: what it still reads and the ``--retype`` that types it again in its place
    (what the next line's chain hash proves it held, ``_proven_candidate``, unless its
    pyramid record speaks for it; else as it reads, ``_retype_hint``; ``COMMAND`` when
    every line of its kind was tried, ``_searched``); ``upto_damage``: neither proven nor
    searched (the resume is under way)."""
    scan = read.scan
    header = scan.events[0] if scan.events else {}
    names = header.get("players") if isinstance(header.get("players"), list) else []
    proven = (_proven_candidate(scan) if not upto_damage
              and _wire_die(scan.skipped[4]) is None else None)
    said, again = "", ""
    if proven is not None:
        again = _proven_hint(path, proven, options, names, _before(read, scan.skipped[0]))
        if _proven_typed(proven, names) is None and not str(
                proven.get("action", "")).startswith("finish"):
            said, again = again, ""  # nothing to type in its place: no "or" after it
    else:
        said, again = _retype_hint(path, scan.skipped[4], options, names,
                                   _before(read, scan.skipped[0]))
        if again and not upto_damage and _searched(scan):
            # every line of its kind was tried: what it reads would be refused too
            again = _unproven_hint(path, options)
    return said, again


def _noted_proof(read):
    """What the next line's chain hash proves the damaged line read past held, for its
    note (``_proven_candidate``); ``None`` when nothing was typed in its place and none is
    proven, or when its pyramid record speaks for it (``_wire_die``)."""
    skipped = read.scan.skipped
    if skipped is None or read.retyped or _wire_die(skipped[4]) is not None:
        return None
    return _proven_candidate(read.scan)


def _before(read, line_no):
    """The events read before line ``line_no`` (the game as it stood there)."""
    return _scan_before(read.scan, line_no)


def _scan_before(scan, line_no):
    """The events ``scan`` read before line ``line_no``."""
    return scan.events[:len([n for n in scan.lines if n < line_no])]


def _skip_words(path, check, options):
    """What ``--upto-damage`` would do with the one damaged line it sets aside alone, in
    words, worked out by reading the journal as it would (nothing written): it set aside
    and the lines after it kept, or, when a later line no longer applies without it,
    that line and the rest moved too (``_rest_words``); ``None`` when it can't be told."""
    try:
        dry = _read(path, upto_damage=True, check=check, options=options)[0]
    except (JournalError, OSError):
        return None
    skipped = dry.skipped
    if skipped is None:
        return None
    later = len([n for n in dry.lines[:len(dry.events)] if n > skipped[0]
                 and (dry.torn is None or n != dry.torn[0])])
    kept = _keeping(later)
    if dry.bad is None:
        if dry.torn is not None:  # the last line cut off, its die put back (_torn_die)
            kept += _(", and putting back the die of line %d, cut off when the program "
                      "stopped") % dry.torn[0]
        return _("setting it aside alone in %(path)s.damaged and %(keeping)s") % {
            "path": path, "keeping": kept}
    return (_("setting it aside in %(path)s.damaged and %(kept)s, then moving %(rest)s there "
              "too, as line %(line)d no longer applies without it")
            % {"path": path, "kept": kept, "rest": _rest_words(dry, dry.bad[0], named=True),
               "line": dry.bad[0]})


def _kept(read):
    """The journal's bytes as they stand after the read: up to the last line kept, a
    damaged line set aside replaced by its ``set_aside`` line (with the events typed
    again in its place), and a last line cut off whose die was put back (``read.torn``)
    by its own."""
    data, skipped, scan = read.data, read.skipped, read.scan
    stand_line = None
    if skipped is None:
        kept = data[:read.good_end]
    else:
        stand = {"type": SET_ASIDE, "n": skipped[0], "game": scan.game, "prev": skipped[5],
                 "hash": scan.skipped_hash, "reason": skipped[1]}
        if read.last_die or stand["hash"] is None:
            # the last line kept (a cut line after it at most): no line names its hash,
            # the chain goes on from this line
            del stand["hash"]
        if read.retyped:
            stand["events"] = read.retyped  # typed again in its place: read back there
        stand_line = encode_line(stand)
        kept = data[:skipped[2]] + stand_line + data[skipped[3]:read.good_end]
    if read.torn is not None:
        # the last line: no line names its hash, the chain goes on from its stand-in
        line_no, reason, _start, _chunk, prev, die = read.torn
        if prev is None:  # right after the damaged line's set_aside line: it follows that
            prev = line_hash(stand_line.rstrip(b"\n"))
        kept += encode_line({"type": SET_ASIDE, "n": line_no, "game": scan.game,
                             "prev": prev, "reason": reason, "events": [die]})
    return kept


def _stand_ins(read, shown=False):
    """The numbers of the lines the journal holds a ``set_aside`` line for after the read
    (the damaged line set aside alone, the last line cut off whose die was put back), a
    tuple; ``shown``: numbered as in the file (``_shown``)."""
    lines = tuple(x[0] for x in (read.skipped, read.torn) if x is not None)
    return tuple(_shown(read, n) for n in lines) if shown else lines


def _truncate_write(path, size, tail):
    """Cut the journal at ``path`` to ``size`` bytes, append ``tail`` and force it to disk."""
    fd = _open_write(path)
    try:
        os.ftruncate(fd, size)
        if tail is not None:
            _write_all(fd, tail)
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_repair(path, read, kept):
    """A resume's repair: a rebuilt first line writes the journal again (the whole file
    kept in ``FILE.damaged`` first), blank lines at the end are cut, and what is set
    aside goes to ``FILE.damaged`` (after its header) before the journal is cut."""
    data, skipped, bad = read.data, read.skipped, read.bad
    if read.intruders and read.rebuilt is not None:
        # a rebuilt first line too: the whole file is kept in FILE.damaged first, then the
        # journal is written again without the lines left out
        replaced = (1,) + _stand_ins(read, shown=True)
        _set_aside(path, read.file, 1, read.file.count(b"\n"),
                   _batch_parts(1, read.file, kept, replaced,
                                tuple(n for n, _r, _s, _e in read.intruders)))
        _truncate_write(path, 0, kept)
    elif read.intruders:
        # the lines left out and the lines after the first go to FILE.damaged as they
        # were (the header says which the journal keeps, which it holds a set_aside line
        # for, which it no longer holds), then the journal is written without them
        line_no, _reason, start, _end = read.intruders[0]
        replaced = _stand_ins(read, shown=True)
        if skipped is not None and skipped[2] < start:  # a damaged line before the first
            line_no, start = replaced[0], skipped[2]
        _set_aside(path, read.original[start:], line_no, read.original.count(b"\n", start),
                   _batch_parts(line_no, read.original[start:], kept[start:], replaced,
                                tuple(n for n, _r, _s, _e in read.intruders)))
        _truncate_write(path, start, kept[start:])
    elif read.rebuilt is not None:
        # the whole file is kept in FILE.damaged first, then the journal is written again
        # with its first line rebuilt (and whatever else was set aside left out)
        _set_aside(path, read.original, 1, read.original.count(b"\n"),
                   _batch_parts(1, read.original, kept, (1,) + _stand_ins(read)))
        _truncate_write(path, 0, kept)
    elif skipped is None and bad is None and read.scan.blank_tail:
        # blank lines at the end hold nothing: cut, so that lines appended follow the last
        _truncate_write(path, read.good_end, None)
    elif skipped is not None or bad is not None or read.torn is not None:
        # a link or a second name planted at FILE.damaged is refused before anything
        # changes; what is there already is kept (a batch is appended, after its header)
        start = read.good_end
        first = bad[0] if bad is not None else None
        for line in (read.torn, skipped):  # the first line set aside or put back
            if line is not None:
                first, start = line[0], line[2]
        _set_aside(path, data[start:], first, data.count(b"\n", start),
                   _batch_parts(first, data[start:], kept[start:], _stand_ins(read)))
        _truncate_write(path, start, kept[start:])


def _read_notes(path, read, notes, repair):
    """What ``notes`` gets once the read is done: the rebuilt first line, the line set
    aside alone, and where reading stopped (with why the next line can't follow and what
    the damaged line seems to hold)."""
    events, skipped = read.events, read.skipped
    where = (_("set aside in %s.damaged") % path) if repair else (_("%s is unchanged") % path)
    alone = (len(read.intruders) == 1 and skipped is None and read.bad is None
             and read.torn is None)
    for line_no, reason, _start, _end in read.intruders if not alone else ():
        # one of several problems each handled in turn: the others are said below
        notes.append(_("line %(line)d is out of place (%(reason)s): left out, %(where)s; "
                       "the line after it follows the line before it") % {
                           "line": line_no, "reason": reason, "where": where})
    if alone:
        line_no, reason, _start, end = read.intruders[0]
        later = len([x for x in read.original[end:].split(b"\n") if x.strip()])
        notes.append(ngettext(
            "line %(line)d is out of place (%(reason)s): left out, %(where)s; the %(later)d "
            "line after it follows the line before it and is kept",
            "line %(line)d is out of place (%(reason)s): left out, %(where)s; the %(later)d "
            "lines after it follow the line before it and are kept", later)
            % {"line": line_no, "reason": reason, "where": where, "later": later})
    if read.rebuilt is not None:
        notes.append(read.rebuilt + (_("; the journal as it was is kept in %s.damaged") % path
                                     if repair else _("; %s is unchanged") % path))
    if read.last_die:
        notes.append(_last_die_note(read, path, repair))
    elif skipped is not None:
        # the lines after it kept (a last line cut off whose die was put back is said
        # on its own)
        later = len([n for n in read.lines[:len(events)] if n > skipped[0]
                     and (read.torn is None or n != read.torn[0])])
        before = [e for e, n in zip(events, read.lines, strict=False) if n < skipped[0]]
        # a replay can't type (it names the command); a resume that kept every line after
        # the line set aside went on past it; else the table stands where it stopped
        where = "alone" if not repair else "past" if later and read.bad is None else "table"
        # numbered as in the file when lines out of place before it were left out
        shown = (_shown(read, skipped[0]),) + tuple(skipped[1:])
        notes.append(_skipped_note(shown, later, events, path, repair, read.retyped,
                                   read.proof, read.wire, read.restored,
                                   _keyed_die(before), _noted_proof(read), where))
    if read.torn is not None:
        notes.append(_torn_die_note(read, path, repair))
    if read.bad is not None:
        line_no, reason, torn = read.bad
        note = _set_aside_note("torn" if torn else read.kind, _shown(read, line_no), reason,
                               len(read.data) - read.good_end, path, repair)
        if read.after is not None:
            note += _(" (line %(line)d does not follow without it: %(why)s)") % {
                "line": _shown(read, read.after[0]), "why": read.after[1]}
        if read.held is not None:
            # a replay can't type: it names the command that goes on with the line typed
            # again in its place, as a resume's refusal does (s36 tester 13)
            note += _held_words(read.held, events, _noted_proof(read),
                                _keyed_die(_before(read, read.bad[0])),
                                "table" if repair else "replay", path)
        elif torn:
            note += _torn_words(read.data[read.good_end:], events,
                                "table" if repair else "replay", path)
        notes.append(note)


def _torn_die_note(read, path, repair):
    """The note on a last line cut off whose die its whole pyramid record gave back
    (``_torn_die``, ``read.torn``): which line, where its bytes are kept, and that its
    die was put back in its place."""
    line_no, reason, _start, chunk, _prev, die = read.torn
    return _set_aside_note("torn", _shown(read, line_no), reason, len(chunk), path, repair) + _(
        ". It held %s, which the pyramid's own record in it reads whole (its CRC "
        "checks): put back in its place, as the pyramid sent it") % _what_it_held(
            json.dumps(die).encode(), [])


def _last_die_note(read, path, repair):
    """The note on a damaged last line whose die ``--retype`` gave again
    (``_retype_last_die``): which line, where it is kept, and the die in its place, as
    the pyramid sent it (its record read it) or (confirmed) typed otherwise."""
    line_no, reason = read.skipped[:2]
    where = (_("set aside in %s.damaged") % path) if repair else (_("%s is unchanged") % path)
    said = _("line %(line)d, the last line, is damaged (%(reason)s): left out, %(where)s") % {
        "line": line_no, "reason": reason, "where": where}
    again = ", ".join(w for w in (_what_it_held(json.dumps(e).encode(),
                                                _players(read.scan.events))
                                  for e in read.retyped) if w)
    if read.proof is None:
        return said + _(". In its place: %s, as the pyramid sent it (its own record in the "
                        "line reads it and passes its CRC check), given again with "
                        "--retype") % again
    return said + _(". In its place: %s, typed again") % again + _proof_words(read.proof, True)


def _read(path, repair=False, upto_damage=False, notes=None, check=None, options=(),
          rebuild=None, retype=None, data=None, left_out=(), file_bytes=None):
    """``(read, kept)``: the ``_Read`` of the journal at ``path`` (its ``events``: what
    ``read_events`` returns; its ``scan`` and ``data``: the one scan of the bytes read
    once), and the journal's bytes as they stand after it (what a ``Journal`` appends
    after). ``rebuild``: the user's
    ``players``/``edition``/``seed`` for a damaged line 1 (``_rebuild_first``);
    ``retype``: a function of the events before one damaged line set aside that returns
    the events typed again in its place (a list; ``ValueError`` saying why not);
    ``data``: the journal's bytes to read instead of the file's (a dry read, which looks
    for no line to leave out alone); ``file_bytes``: the file's bytes, read already (a
    read of the file like any other, not opened again). Each line of another game, or exact repeat of a
    line, whose next line chains to the line before it is left out alone, any other
    problem handled as alone (``_out_of_place_alone``: refused without ``upto_damage``,
    naming every line set aside and what is kept). Else
    one step per decision, in this order: the line out of place (``_chain_break``), the
    damaged line typed again (``_retype_in_place``) or read again from its pyramid
    record (``_restored_from_record``), the event that no longer applies
    (``_stale_event``), the damaged line set aside alone or not
    (``_unchecked_skip``, ``_undo_after_skip``, ``_nothing_kept_after``), the words and
    the refusal, then the bytes kept, the repair written and the notes."""
    read = _load(path, upto_damage, check, options, rebuild,
                 data if data is not None else file_bytes, left_out, repair)
    read.check = check  # a refusal works out what --upto-damage would set aside
    # a line of another game, or a repeat, whose next line chains to the line before it:
    # left out alone, the lines after it kept (a read of bytes given looks for none)
    alone = (_out_of_place_alone(path, read, check, options,
                                 retype if upto_damage else None)
             if data is None else None)
    if alone is not None:
        if not upto_damage:
            _refuse_intruder(path, alone, options)
        read = alone
        kept = _kept(read)
        if repair:
            _write_repair(path, read, kept)
        if notes is not None:
            _read_notes(path, read, notes, repair)
        return read, kept
    _chain_break(read)
    _retype_in_place(path, read, retype, upto_damage)
    _restored_from_record(read, retype, upto_damage)
    _stale_event(read, check)
    _unchecked_skip(read, check)
    _undo_after_skip(read)
    _nothing_kept_after(path, read)
    _contradicted(path, read)
    _damaged_words(read)
    if read.held is None and _last_die(read) is not None:
        read.held = _last_die(read)[0]  # the note names the die its pyramid record reads
    _refuse(path, read, upto_damage, options)
    _torn_die(read, check)
    kept = _kept(read)
    if repair:
        _write_repair(path, read, kept)
    if notes is not None:  # said once it is done
        _read_notes(path, read, notes, repair)
    return read, kept


def _batch_parts(first, chunk, kept, replaced, dropped=()):
    """What became of each line of a batch set aside (``chunk``, the journal's bytes from
    line ``first`` on) once the journal is ``kept`` (its bytes from the same place):
    ``[(from, to, state)]``, runs of ``replaced`` (line numbers the journal holds another
    line for: a rebuilt first line, a ``set_aside`` line), ``kept`` (a copy: the journal
    keeps them) and ``removed`` (``dropped``: line numbers left out while the lines after
    them are kept, a line of another game or a repeat); ``None`` when every line was
    removed."""
    count = chunk.count(b"\n") + (0 if chunk.endswith(b"\n") or not chunk else 1)
    # the journal's lines from ``first`` up to here
    stays = first + kept.count(b"\n") + len(dropped)
    parts = []
    for line in range(first, first + count):
        state = ("replaced" if line in replaced else "removed" if line in dropped
                 else "kept" if line < stays else "removed")
        if parts and parts[-1][2] == state:
            parts[-1] = (parts[-1][0], line, state)
        else:
            parts.append((line, line, state))
    return None if all(p[2] == "removed" for p in parts) else parts


def _parts_words(parts):
    """Words for ``_batch_parts``: which lines of a batch the journal no longer holds and
    which it keeps (the batch a copy of those)."""
    words = []
    for low, high, state in parts:
        span = (_("line %d") % low if low == high else
                _("lines %(first)d-%(last)d") % {"first": low, "last": high})
        if state == "replaced":
            words.append(_("%s, replaced in the journal") % span)
        elif state == "kept":
            words.append(_("%s, a copy, kept in the journal") % span)
        else:
            words.append(_("%s, removed from the journal") % span)
    return ", ".join(words)


def _set_aside(path, chunk, first, newlines, parts=None):
    """Append ``chunk`` (the journal's bytes from its line ``first`` on, exactly; it holds
    ``newlines`` line ends) to ``FILE.damaged`` as one batch after a header line saying
    when, from which journal and which lines (a batch's bytes are the lines as they were,
    so the header names their count in bytes too), and force it to disk. ``parts``
    (``_batch_parts``): the header says which of those lines the journal still keeps
    (the batch a copy of them) and which it no longer holds; ``None``: all are removed."""
    last = first + newlines - (1 if chunk.endswith(b"\n") else 0)
    side_path = path + ".damaged"
    side = _open_write(side_path)
    try:
        lead = b""
        if os.fstat(side).st_size:
            with open(side_path, "rb") as fh:
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":
                    lead = b"\n"  # a torn tail set aside before: its bytes end without one
        import time
        fields = {
            "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "first": first,
            "last": max(first, last), "path": os.path.basename(path), "size": len(chunk)}
        if parts is None:
            header = _("# %(when)s: lines %(first)d-%(last)d of %(path)s set aside on its "
                       "resume; the %(size)d bytes after this line are those lines as they "
                       "were") % fields
        else:
            fields["parts"] = _parts_words(parts)
            header = _("# %(when)s: lines %(first)d-%(last)d of %(path)s on its resume: "
                       "%(parts)s; the %(size)d bytes after this line are those lines as "
                       "they were") % fields
        _write_all(side, lead + header.encode("utf-8") + b"\n" + chunk)
        os.fsync(side)
    finally:
        os.close(side)


def _record_hint(path, options=()):
    """What the refusal of a damaged line that its own pyramid record rebuilds, proven
    by the chain hash (``_from_record``), suggests: the command that puts it back."""
    return (_("nothing was changed (to resume with it read again from the pyramid's own "
              "record in it, which the next line's chain hash proves the line as written, "
              "keeping the lines after it and the line as it is in %(path)s.damaged: pyramid "
              "play --resume %(quoted)s --upto-damage%(options)s)")
            % {"path": path, "quoted": shlex.quote(path),
               "options": "".join(" " + shlex.quote(w) for w in options)})


def _skip_hint(path, options=(), plan=None, after=False):
    """What a refusal of one damaged line with intact lines after it suggests: the
    command that resumes without it (it is set aside, the lines after it kept), with
    ``plan``, what that sets aside and keeps (``_skip_words``); ``after``: said after
    the command that types it again (``; or, ...``)."""
    command = "pyramid play --resume %s --upto-damage%s" % (shlex.quote(path),
                                                           _option_words(options))
    plan = plan or _("setting it aside in %s.damaged") % path
    if after:
        return _("; or, to resume without it, %(plan)s: %(command)s") % {
            "plan": plan, "command": command}
    return _("nothing was changed (to resume without it, %(plan)s: %(command)s)") % {
        "plan": plan, "command": command}


def _typed_action(action, players):
    """An action's canonical text (``camelhost.table.parser``) as a player types it: a
    partnership names the partner (``partner 3`` is ``partner Dee``), never a seat."""
    words = action.split()
    if (len(words) == 2 and words[0] == "partner" and words[1].isdigit()
            and int(words[1]) < len(players)):
        return "partner %s" % players[int(words[1])]
    return action


def _held_event(chunk):
    """The event a damaged line ``chunk`` still seems to hold (its JSON read without its
    checksum), ``None`` when it isn't a JSON object."""
    text = chunk[:-9] if len(chunk) >= 9 and chunk[-9:-8] == b"*" else chunk
    try:
        event = json.loads(text.decode("utf-8"))
    except ValueError:
        return None
    return event if isinstance(event, dict) else None


def _held_fields(chunk, like):
    """The fields of ``like`` (an event's keys) that a damaged line ``chunk`` whose JSON
    no longer parses still reads one by one (``"key":`` and a JSON value after it, the
    first such), as a dict; a stray character elsewhere in the line leaves them readable."""
    text = chunk.decode("utf-8", "replace")
    decoder = json.JSONDecoder()
    fields = {}
    for key in like:
        at = text.find(json.dumps(key) + ":")
        if at < 0:
            continue
        try:
            fields[key] = decoder.raw_decode(text, at + len(json.dumps(key)) + 1)[0]
        except ValueError:
            continue
    if "type" in like and fields.get("type") != like["type"]:
        return {}  # another kind of line: its words can't be compared field by field
    return fields


def _held_lang(chunk, kind):
    """The language code a damaged line ``chunk`` still reads (its ``lang``, from its
    JSON without the checksum or field by field, ``_held_fields``) when its ``type``
    reads ``kind`` (``game``, ``lang``; a line 1 whose type no longer reads counts as
    ``game``) and this program speaks that language (``languages``); else ``None``."""
    from camelhost.i18n import languages
    held = _held_event(chunk)
    if held is None:
        held = _held_fields(chunk, {"lang": None} if kind == "game" else
                            {"type": kind, "lang": None})
        held.setdefault("type", kind)
    lang = held.get("lang")
    if held.get("type") != kind or not isinstance(lang, str) or lang not in languages():
        return None
    return lang


#: the most of a damaged line's text a refusal quotes (characters)
QUOTED = 100


def _raw_words(chunk):
    """What a damaged line ``chunk`` reads as text (without its checksum, shortened to
    ``QUOTED`` characters, bytes that are no UTF-8 shown as U+FFFD); ``None`` for a
    finish card's line (its colour is never said)."""
    if b"finish" in chunk:
        return None
    text = chunk[:-9] if len(chunk) >= 9 and chunk[-9:-8] == b"*" else chunk
    text = text.decode("utf-8", "replace").strip()
    return text if len(text) <= QUOTED else text[:QUOTED - 1] + "\u2026"


def _retype_hint(path, chunk, options=(), players=(), before=()):
    """``(said, again)``, the end of a refusal of a damaged line set aside alone: what it
    reads as text (``_raw_words``; ``said``) and the command that types its event again
    in its place, keeping the lines after it (``--retype``; ``again``, "" when none can be
    given): as the line reads it (a die, a player's action, the value pressed for a die
    read without one, named by that die among ``before``, the events before the line; a
    die from the pyramid as its own record in the line reads it when that passes its CRC,
    ``_wire_die``) or, when that can't be read, with ``COMMAND`` to fill in; a finish card
    neither quoted nor named (``_finish_hint``). (A line that reads as no event where the
    table waited for a die's value is proven by the chain hash first: ``_proven_candidate``.)"""
    raw = _raw_words(chunk)
    if raw is None:
        return "", _finish_hint(path, chunk, options, players)
    said = _("; the line reads: %s") % raw
    opts = [shlex.quote(w) for w in options]
    # the pyramid's own record, whose CRC checks, is what the line held, even when the
    # rest of the line's JSON no longer parses
    wire = _wire_die(chunk)
    event = wire if wire is not None else _held_event(chunk)
    if event is None:
        return said, _command_hint(path, options)
    typed = None
    if event.get("type") == "die" and isinstance(event.get("colour"), str):
        typed = " ".join(str(event[k]) for k in ("colour", "ink", "value")
                         if event.get(k) is not None)
    elif (event.get("type") == "action" and isinstance(event.get("action"), str)
          and not event["action"].startswith("finish")):  # a card's colour is never said
        typed = _typed_action(event["action"], list(players))
    elif event.get("type") == "pyramid":
        typed = "pyramid"
    elif event.get("type") == "value" and _keyed_die(before) is not None:
        value = event.get("value")
        typed = str(value) if value in (1, 2, 3) else _("VALUE")
        words = ["pyramid", "play", "--resume", path, "--upto-damage", "--retype", typed]
        return said, _("; type again in its place the value pressed for the %(die)s die (1, "
                       "2 or 3 alone), keeping the lines after it (correct it if the damage "
                       "is in it): %(command)s") % {
                           "die": _keyed_die(before),
                           "command": " ".join([shlex.quote(w) for w in words] + opts)}
    if not typed:
        return said, ""
    words = ["pyramid", "play", "--resume", path, "--upto-damage", "--retype", typed]
    if wire is not None:
        return said, _("; type again in its place the die the pyramid sent, as its own "
                       "record in the line reads it (its CRC checks), keeping the lines "
                       "after it: %s") % " ".join([shlex.quote(w) for w in words] + opts)
    return said, _("; type it again in its place, keeping the lines after it (correct it "
                   "if the damage is in it): %s") % " ".join(
                       [shlex.quote(w) for w in words] + opts)


def _value_awaited(before):
    """The die (``_keyed_die``'s words) whose value the table waited for after the events
    ``before``: the last of them (an ink keyed for it aside) is a die read without its
    value; else ``None``."""
    for event in reversed(list(before)):
        if event.get("type") == "ink":
            continue
        if event.get("type") == "die":
            return _keyed_die([event])
        return None
    return None


def _keyed_die(before):
    """The die (``grey-black``, ``purple``: its label, ``camelup.calibration.die_label``,
    as the table's value prompt names it, in the table's language through ``colours_in``:
    ``grau-schwarz``, ``lila``) whose value is keyed after it, when the last die among
    ``before`` (the events before a ``value`` line) was read without its value; else
    ``None``. A str of words for a sentence, never a command's."""
    for event in reversed(list(before)):
        if event.get("type") == "die":
            if event.get("value") is not None or not isinstance(event.get("colour"), str):
                return None
            ink = event.get("ink")
            return colours_in(die_label(event["colour"], str(ink) if ink else None))
    return None


def _proven_typed(event, players):
    """What a player types for ``event`` (one of ``_candidates``): a die's colour, ink and
    value, a value pressed, ``pyramid``, the grey die's ink keyed (``black``, ``white``,
    ``again``), ``undo``, ``redo``, ``unscored``, ``again`` for another race, an action
    as typed; ``None`` for a finish card
    (its colour is never said, RULES 1.8: ``_finish_hint`` asks its player) and others."""
    kind = event.get("type")
    if kind == "die":
        return " ".join(str(event[k]) for k in ("colour", "ink", "value")
                        if event.get(k) is not None)
    if kind == "value":
        return str(event.get("value"))
    if kind == "pyramid":
        return "pyramid"
    if kind == "ink":
        return event.get("ink") if event.get("ink") in INKS else "again"
    if kind in ("undo", "redo", "unscored"):
        return kind
    if kind == "race":
        return "again"
    action = event.get("action")
    if kind == "action" and isinstance(action, str) and not action.startswith("finish"):
        return _typed_action(action, list(players))
    return None


def _proven_hint(path, event, options=(), players=(), before=()):
    """The end of a refusal of a damaged line whose event the next line's chain hash
    proves (``_proven_candidate``): what it held (a finish card named by its player
    only; a value pressed by the die it was pressed for, among ``before``) and the
    command that types it again in its place, keeping the lines after it; a
    ``--retype`` of it is taken at once as proven."""
    action = event.get("action")
    if isinstance(action, str) and action.startswith("finish"):
        # the proven player asked for the card, its colour never said
        return _finish_hint(path, json.dumps(event).encode(), options, players)
    typed = _proven_typed(event, players)
    held = _what_it_held(json.dumps(event).encode(), list(players), _keyed_die(before))
    if event.get("type") == "board":
        return _("; the next line's chain hash proves it held %s: it only names the pyramid "
                 "the game began on and moves no camel, so nothing needs typing again") % held
    if not typed:
        return _("; the next line's chain hash proves it held %s") % held
    words = ["pyramid", "play", "--resume", path, "--upto-damage", "--retype", typed]
    command = " ".join(shlex.quote(w) for w in words + list(options))
    return _("; the next line's chain hash proves it held %(held)s: type it again in its "
             "place, keeping the lines after it: %(command)s") % {"held": held,
                                                                 "command": command}


def _finish_hint(path, chunk, options=(), players=()):
    """The end of a refusal of a damaged finish-card line set aside alone: the command
    that types the card again in its place, its colour left to fill in (``COLOUR``: the
    card lies face down, RULES 1.8, so no refusal says it), on the pile the line still
    reads (``win``/``lose``), for the player it names; the next line's chain hash proves
    the card typed the one written (``_retype_proof``)."""
    held = _held_event(chunk) or _held_fields(
        chunk, {"type": "action", "action": None, "player": None})
    action = held.get("action") if isinstance(held.get("action"), str) else ""
    words = action.split()
    pile = {"winner": "win", "loser": "lose"}.get(words[1] if len(words) > 1 else "")
    typed = "%s %s" % (pile, _("COLOUR")) if pile else _("COMMAND")
    command = " ".join([shlex.quote(w) for w in ("pyramid", "play", "--resume", path,
                                                 "--upto-damage", "--retype")]
                       + [shlex.quote(typed) if pile else typed]
                       + [shlex.quote(w) for w in options])
    seat = held.get("player")
    players = list(players)
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return _("; if %(player)s can say that finish card again, type it in its place, "
                 "keeping the lines after it (its colour is not said here: the card lies "
                 "face down): %(command)s") % {"player": players[seat], "command": command}
    return _("; if its player can say that finish card again, type it in its place, "
             "keeping the lines after it (its colour is not said here: the card lies face "
             "down): %s") % command


def _what_it_held(chunk, players, keyed=None, subject=False):
    """Words for what a damaged line ``chunk`` still seems to hold (its JSON read without
    its checksum): a die with its colour and value (its colours in the table's language,
    ``colours_in``), a player's action or pyramid ticket, a value pressed (for the die
    ``keyed`` names, ``_keyed_die``), else the kind of line; ``None`` when it can't be
    read at all. ``subject``: the words are the subject of the sentence (German
    ``der Würfel blau 3``, not ``den``)."""
    event = _held_event(chunk)
    if event is None or not isinstance(event.get("type"), str):
        return None
    seat = event.get("player")
    name = (players[seat] if isinstance(seat, int) and not isinstance(seat, bool)
            and 0 <= seat < len(players) else None)
    kind = event["type"]
    if kind == "die":
        words = colours_in(" ".join(str(event[k]) for k in ("colour", "ink", "value")
                                    if event.get(k) is not None))
        if subject:
            return pgettext("subject", "the die %s") % words
        return _("the die %s") % words
    if kind == "action" and name is not None and isinstance(event.get("action"), str):
        if event["action"].startswith("finish"):  # a card face down: never its colour
            return _("%s's finish card") % name
        return _("%(player)s's action '%(action)s'") % {
            "player": name, "action": _typed_action(event["action"], players)}
    if kind == "pyramid" and name is not None:
        return _("%s's pyramid ticket") % name
    if kind == "pyramid":
        return _("a pyramid ticket (whose, the line no longer says)")
    if kind == "rejected" and isinstance(event.get("kind"), str):
        return _("a release the table refused (%s)") % event["kind"]
    if kind == "value" and isinstance(event.get("value"), int) and keyed:
        return _("the value %(value)d pressed for the %(die)s die") % {
            "value": event["value"], "die": keyed}
    if kind == "value" and isinstance(event.get("value"), int):
        return _("the value %d pressed for the die") % event["value"]
    if kind == "value":
        return _("the value pressed for a die")
    if kind == "ink" and event.get("ink") in INKS:
        return _("the numeral colour %s keyed for the grey die") % colour_word(event["ink"])
    if kind == "ink" and event.get("again"):
        return _("'again' keyed for the grey die (the dice released again)")
    if kind == "undo":
        return _("an undo")
    if kind == "race":
        return _("another race")
    return _("a '%s' line") % kind


def _torn_fields(fragment):
    """``(kind, fields)``: what a last line cut off by a crash (``fragment``, its bytes
    up to the cut) still reads: the fields written whole before the cut (``"key":`` and
    a JSON value that parses) and its ``type``, ``None`` when neither read nor told by
    those fields. A journal writes its keys in sorted order, so ``type`` comes last and
    is seldom read: the type is then the journaled event's
    (``camelhost.table.events.JOURNALED``) whose keys hold every key read, that lacks
    none it always writes (``game``, ``n``, ``prev`` and its ``WRITTEN``) before the last
    key read, and lacks fewest others there, when only one does (a die's ``colour``, an
    action's ``action``, a new name's ``name`` come before ``game``)."""
    import re
    from dataclasses import fields as dataclass_fields

    from camelhost.table.events import JOURNALED
    text = fragment.decode("utf-8", "replace")
    decoder = json.JSONDecoder()
    held = {}
    for match in re.finditer(r'"([a-z]+)":', text):
        try:
            held.setdefault(match.group(1), decoder.raw_decode(text, match.end())[0])
        except ValueError:
            continue
    kind = held.get("type") if isinstance(held.get("type"), str) else None
    if kind is not None or not held:
        return kind, held
    last = max(held)
    fits = []
    for name, cls in JOURNALED.items():
        keys = set(getattr(cls, "FIELDS", None) or [f.name for f in dataclass_fields(cls)])
        keys |= {"type", "game", "n", "prev"}
        always = {"game", "n", "prev"} | set(getattr(cls, "WRITTEN", None)
                                              or getattr(cls, "_WRITTEN", ()))
        lacking = [k for k in keys if k < last and k not in held]
        if set(held) <= keys and not always & set(lacking):
            fits.append((len(lacking), name))
    fits.sort()
    if fits and (len(fits) == 1 or fits[0][0] < fits[1][0]):
        kind = fits[0][1]
    return kind, held


def _torn_words(fragment, events, where="table", path=""):
    """The end of the note on a last line cut off by a crash (``fragment``, its bytes up
    to the cut): what can be read of it (``_torn_fields``: a die with what is read of its
    colour and value, or as the pyramid's own record in it reads it when that is whole and
    passes its CRC, ``_wire_die``; a player's action, pyramid ticket or new name, else the
    kind of line), the player named as the journal's end names them (``rename`` lines applied),
    so that the table knows what to do again (a bot's seat plays again by itself; a
    person's line is typed again on their turn; ``where``: ``table``, a resumed table,
    or ``replay``, which names the resume of the journal at ``path``); a finish card's
    colour is never said."""
    kind, held = _torn_fields(fragment)
    if kind is None:
        return _(". What it held can't be read")
    names = list(_players(events))
    for event in events:
        seat = event.get("player")
        if (event.get("type") == "rename" and isinstance(seat, int)
                and 0 <= seat < len(names) and isinstance(event.get("name"), str)):
            names[seat] = event["name"]
    seat = held.get("player")
    name = (names[seat] if isinstance(seat, int) and not isinstance(seat, bool)
            and 0 <= seat < len(names) else None)
    action = held.get("action") if isinstance(held.get("action"), str) else None
    if kind == "die" and isinstance(held.get("raw"), str):
        # the pyramid's own record, whole before the cut and passing its CRC, gives the
        # die even when the line's value was cut off
        wire = _wire_die(json.dumps({"type": "die", "raw": held["raw"]},
                                    separators=(",", ":")).encode())
        if wire is not None:
            held = dict(held, colour=wire["colour"], ink=wire["ink"], value=wire["value"])
    if kind == "die":
        words = [str(held[k]) for k in ("colour", "ink", "value")
                 if isinstance(held.get(k), (str, int)) and not isinstance(held.get(k), bool)]
        if not words:
            what = _("a die (its colour cut off)")
        elif not isinstance(held.get("value"), int):
            what = _("the die %s (its value cut off)") % colours_in(" ".join(words))
        else:
            what = _("the die %s") % colours_in(" ".join(words))
    elif kind == "action" and action is not None and action.startswith("finish"):
        what = _("%s's finish card") % name if name else _("a finish card")
    elif kind == "action" and action is not None:
        typed = _typed_action(action, names)
        what = (_("%(player)s's action '%(action)s'") % {"player": name, "action": typed}
                if name
                else _("the action '%s' (whose is cut off)") % typed)
    elif kind == "action":
        what = (_("%s's action (its words cut off)") % name if name
                else _("an action (its words cut off)"))
    elif kind == "pyramid":
        what = _("%s's pyramid ticket") % name if name else _("a pyramid ticket")
    elif kind == "rename" and isinstance(held.get("name"), str):
        what = (_("%(player)s's new name %(name)s") % {"player": name, "name": held["name"]}
                if name
                else _("the new name %s (whose is cut off)") % held["name"])
    elif kind == "undo":
        what = _("an undo")
    elif kind == "redo":
        what = _("a redo")
    else:
        what = _("a '%s' line") % kind
    said = _(". It held %s, as far as it can be read") % what
    bot = _bot_seat(dict(held, type=kind), [dict(events[0], players=names)] if events else [])
    if bot is not None and where == "replay":
        return said + _(": %(bot)s (a bot) plays again from there when the game is resumed: "
                        "pyramid play --resume %(quoted)s") % {"bot": bot,
                                                               "quoted": shlex.quote(path)}
    if bot is not None:
        return said + _(": %s (a bot) plays again from here, nothing to type") % bot
    if where == "replay" and name is not None and kind in ("action", "pyramid"):
        return said + _(": if that happened at the table, resume the game (pyramid play "
                        "--resume %(quoted)s) and type it again on %(player)s's turn") % {
                            "quoted": shlex.quote(path), "player": name}
    if where == "replay":
        return said + _(": if that happened at the table, resume the game (pyramid play "
                        "--resume %s) and type it again") % shlex.quote(path)
    if name is not None and kind in ("action", "pyramid"):
        return said + _(": if that happened at the table, type it again for %s, whose turn "
                        "it is") % name
    return said + _(": if that happened at the table, type it again")


def _proof_words(proof, wire=False):
    """The end of the note on events typed again: proven the line as written, not proven,
    or (confirmed) differing from what the damaged line still reads (``_retype_proof``);
    ``wire``: judged by the pyramid's own record in the line (``_wire_die``), and
    (confirmed) not the die it sent (the die it sent is said by ``_skipped_note``)."""
    if wire and isinstance(proof, tuple):
        return _("; not what the pyramid sent (its own record in the line reads %(reads)s, "
                 "not %(typed)s): confirmed by giving --retype twice") % {
                     "reads": proof[0], "typed": proof[1]}
    if proof == "proven":
        return _("; the next line's chain hash proves it is the line as written")
    if proof is None:
        return _("; that it is the line as written can't be proven (the next line's chain "
                 "hash does not match it)")
    if proof[0] == proof[1]:  # a finish card: its colour is never said
        return _("; not the card the damaged line still reads (its colour is not said "
                 "here): confirmed by giving --retype twice")
    return _("; not what the damaged line still reads (%(reads)s, not %(typed)s): confirmed "
             "by giving --retype twice") % {"reads": proof[0], "typed": proof[1]}


def _skipped_note(skipped, later, events, path, kept, retyped=None, proof=None,
                  wire=False, restored=False, keyed=None, proven=None, mode="table"):
    """The line that says a damaged line was read past: which, what it seems to have held
    (so that it can be typed again) and how many lines after it were kept; what was
    typed again in its place and how it was judged (``proof``, ``wire``:
    ``_proof_words``; a die given as the pyramid's own record in the line reads it is
    said so, not typed again), or (``restored``) the refused release read again from its
    record. ``keyed``: the die a value pressed was for (``_keyed_die``); ``proven``: what
    the next line's chain hash proves it held (``_proven_candidate``), said instead of
    what its damaged fields read; ``mode``: ``_held_words``' ``where``."""
    line_no, reason, chunk = skipped[0], skipped[1], skipped[4]
    where = (_("set aside in %s.damaged") % path) if kept else (_("%s is unchanged") % path)
    said = (ngettext("line %(line)d is damaged (%(reason)s): left out, %(where)s; the %(later)d "
                     "line after it is kept",
                     "line %(line)d is damaged (%(reason)s): left out, %(where)s; the %(later)d "
                     "lines after it are kept", later)
            % {"line": line_no, "reason": reason, "where": where, "later": later})
    if not later:  # only a last line cut off after it (said in a note of its own)
        said = _("line %(line)d is damaged (%(reason)s): left out, %(where)s") % {
            "line": line_no, "reason": reason, "where": where}
    if restored:
        return said + _(". In its place: %s, read again from the pyramid's own record in "
                        "it (its CRC checks)") % _what_it_held(
                            json.dumps(retyped[0]).encode(), []) + _proof_words(proof)
    if retyped:
        players = events[0].get("players", []) if events else []
        again = ", ".join(w for w in (_what_it_held(json.dumps(e).encode(), players, keyed)
                                      for e in retyped) if w)
        if wire and not isinstance(proof, tuple):
            # the die given is the one the pyramid's record reads: read back, not typed
            return said + _(". In its place: %s, as the pyramid sent it (its own record in "
                            "the line reads it and passes its CRC check), given again with "
                            "--retype") % again + _proof_words(proof)
        said += _(". In its place: %s, typed again") % again
        return said + _proof_words(proof, wire)
    return said + _held_words(chunk, events, proven, keyed, mode, path)


def _retype_command(path, typed):
    """The shell command that goes on with ``typed`` typed again in place of the damaged
    line (``--retype``), each word quoted."""
    return " ".join(shlex.quote(w) for w in (
        "pyramid", "play", "--resume", path, "--upto-damage", "--retype", typed))


def _bot_seat(event, events):
    """The name of the bot whose move ``event`` (a damaged or cut-off line's action or
    pyramid ticket) is, by the ``game`` line first in ``events`` (its ``bots``, seat
    numbers); ``None`` for a person's seat or another kind of line."""
    if not isinstance(event, dict) or event.get("type") not in ("action", "pyramid"):
        return None
    seat = event.get("player")
    bots = events[0].get("bots") if events else None
    players = _players(events)
    if (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players)
            and isinstance(bots, list) and seat in bots):
        return players[seat]
    return None


def _held_words(chunk, events, proven=None, keyed=None, where="table", path=""):
    """The end of a note on a damaged line ``chunk``: what it seems to hold (the game's
    players from ``events``' ``game`` line name the seat) and what to do about it; a die
    from the pyramid as its own record in the line reads it when that passes its CRC
    (``_wire_die``); ``proven``, what the next line's chain hash proves it held
    (``_proven_candidate``), rather than its damaged fields (``keyed``: the die a value
    pressed was for). ``where`` the note is read: ``table``, a resumed table that stands
    where the line was (type it again; a bot's seat plays again by itself); ``replay``,
    where nothing can be typed (the ``--retype`` command for the journal at ``path``
    that goes on with it typed again in its place, when it can be typed, else the
    resume up to it), ``alone`` the same for a line a resume sets aside alone; ``past``, a
    resume that kept the lines after it (the game went on without it). A ``board`` line
    moves nothing: nothing to type (s37 tester 2)."""
    players = _players(events)
    event = proven if proven is not None else _wire_die(chunk)
    wire = proven is None and event is not None
    if event is None:
        event = _held_event(chunk) or {}
    if proven is not None:
        said = _(". The next line's chain hash proves it held %s") % _what_it_held(
            json.dumps(proven).encode(), players, keyed)
    elif wire:
        said = _(". The pyramid's own record in it (its CRC checks) reads %s") % _what_it_held(
            json.dumps(event).encode(), players)
    else:
        held = _what_it_held(chunk, players)
        if held is None:
            return _(". What it held can't be read")
        if event.get("type") == "rejected":
            return _(". It seems to hold %s: a refused release moves no camel, so there is "
                     "nothing to type again") % held
        said = _(". It seems to hold %s (the damage may be in it)") % held
    if event.get("type") == "board":
        return said + _(": it only names the pyramid the game began on and moves no camel, "
                        "so nothing needs typing again")
    if where == "past":
        return said + _("; the game goes on without it (the lines after it apply without "
                        "it and are kept)")
    bot = _bot_seat(event, events)
    if where in ("replay", "alone"):
        typed = _proven_typed(event, players) if proven is not None or wire else None
        if typed:
            return said + _(": to go on with it typed again in its place: %s") % (
                _retype_command(path, typed))
        action = event.get("action")
        if isinstance(action, str) and action.startswith("finish"):
            return said + _finish_hint(path, json.dumps(event).encode(), (), players)
        if where == "alone":  # its resume keeps the lines after it: nothing typed there
            return said + _(": to go on without it: pyramid play --resume %s --upto-damage"
                            ) % shlex.quote(path)
        if bot is not None:
            return said + _(": %(bot)s (a bot) plays again from there when the game is "
                            "resumed: pyramid play --resume %(quoted)s --upto-damage") % {
                                "bot": bot, "quoted": shlex.quote(path)}
        if proven is None:
            return said + _(": if that happened at the table, resume the game up to it and "
                            "type it again: pyramid play --resume %s --upto-damage"
                            ) % shlex.quote(path)
        return said + _(": to go on with it, resume the game up to it and type it again: "
                        "pyramid play --resume %s --upto-damage") % shlex.quote(path)
    if bot is not None:
        return said + _(": %s (a bot) plays again from here, nothing to type") % bot
    if wire:
        return said + _(": type it again as it reads")
    if proven is not None:
        return said + _(": type it again")
    return said + _(": if that happened at the table, type it again")


def read_events(path, repair=False, upto_damage=False, notes=None, check=None, options=()):
    """Return the list of events (dicts, without the line fields ``n``, ``game`` and
    ``prev``) stored in the journal at ``path``.

    A torn last line (no newline, failing its checksum) is skipped; ``repair``:
    the file is then cut back to the end of the last good line (only then, and
    only when a good line precedes it). Any other bad line raises ``JournalError``
    naming it, the file untouched: a damaged line (its checksum), or a line out of
    place (format 3: its number, game id or ``prev`` hash is not the one its place
    needs: a line removed, repeated, moved or from another game), unless
    ``upto_damage``: the events before it are returned and, with ``repair``, the rest
    of the file is moved to ``FILE.damaged`` first (a torn last line too: no byte is
    lost; a symbolic link or a file of two names there is refused, nothing changed).
    With ``upto_damage`` and ``check`` one damaged line of a chained journal, with
    lines after it that still apply without it, is left out alone (the ``set_aside``
    line that takes its place with ``repair``), and a damaged first line followed by
    a game's chained lines is rebuilt from what it still reads (``_rebuild_first``).
    With ``upto_damage`` each line of another game, or exact repeat of a line, whose
    next line follows the line before it is left out alone, the lines after it kept, and
    any other damage handled as it would be alone (``_out_of_place_alone``; refused
    without it, naming every line set aside).
    ``check``: a function of the events read that returns ``None`` or ``(line,
    reason)`` of the first event that no longer applies to the game
    (``Session.stale_line``, ``line`` counted in events); that line counts as a bad
    line (refused, or with ``upto_damage`` the end of what is read; at the line where
    the chain breaks its reason is the one said), and it is called before anything in
    the file changes. ``notes``: a list that gets one line in words for what was set
    aside (without ``repair``: where the reading stopped; the file is never changed
    then). ``options``: words the refusal's suggested command gets after
    ``--upto-damage`` (``--plain``). Raises ``OSError`` when the file can't be read,
    ``JournalError`` when it is not a game journal or not a regular file (a named
    pipe is refused at once, never waited on).
    """
    return _read(path, repair, upto_damage, notes, check, options)[0].events


def read_header(path):
    """The ``game`` line (a dict) of the journal at ``path``, or ``None`` when it can't
    be read (no such file, not a regular file, not a game journal: ``Journal.resume``
    then says why). Only reads, never waits: the file is never changed, whatever its
    later lines hold."""
    try:
        with _open_read(path) as fh:
            first = fh.readline()
        events = _scan(path, first).events
    except (OSError, JournalError):
        return None
    return events[0] if events else None


def first_line_damaged(path):
    """True when line 1 (the game's first line) of the journal at ``path`` is damaged
    and the line after it is a chained line of a game (``FirstLineDamaged``: a game
    ``--resume FILE --upto-damage`` can rebuild), else False (no such file, a journal
    whose first line reads, a file that is no game journal). Only reads."""
    try:
        with _open_read(path) as fh:
            _scan(path, fh.read())
    except FirstLineDamaged:
        return True
    except (OSError, ValueError):
        return False
    return False


def game_id(data):
    """The game id (a string) the journal bytes ``data`` carry: the ``game`` field of
    their first line, or of their second when the first no longer reads (a damaged
    first line); ``None`` when neither gives one (no game journal, or one of an older
    format, whose lines have none)."""
    for chunk in without_bom(data).split(b"\n", 2)[:2]:
        event = _held_event(chunk.rstrip(b"\r"))
        if event is not None and isinstance(event.get("game"), str):
            return event["game"]
    return None


def is_game_journal(path):
    """True when the file at ``path`` holds a game: its ``game`` line reads
    (``read_header``), or it is damaged with the game's lines after it
    (``first_line_damaged``); False for any other file (or none). Only reads (once)."""
    try:
        with _open_read(path) as fh:
            data = fh.read()
    except (OSError, JournalError):
        return False
    return _holds_game(path, data)


def _holds_game(path, data):
    """``is_game_journal`` of the bytes ``data`` of the file at ``path``, read already."""
    nl = data.find(b"\n")
    try:
        if _scan(path, data if nl < 0 else data[:nl + 1]).events:
            return True  # its game line reads
    except ValueError:
        pass
    try:
        _scan(path, data)
    except FirstLineDamaged:
        return True
    except ValueError:
        return False
    return False


def verified_journal(path, check=None):
    """``(view, game, data)``: ``verified``'s view of the journal at ``path`` (``None``
    when it can't be read so), whether the file holds a game (``is_game_journal``) and
    its bytes (``None`` when it can't be opened), from one read of the file: a
    ``*.jsonl`` that is no journal is opened once to tell."""
    try:
        with _open_read(path) as fh:
            data = fh.read()
    except (OSError, JournalError):
        return None, False, None
    try:
        return _read(path, upto_damage=True, check=check, file_bytes=data)[0], True, data
    except (OSError, ValueError):  # JournalError, FirstLineDamaged
        return None, _holds_game(path, data), data


def verified(path, check=None):
    """The lines of the journal at ``path`` that count, as a resume with ``--upto-damage``
    reads them (``check``: ``Session.stale_line``, as the resume's), nothing written: the
    one view of which lines count (an opaque object, read once: give it to
    ``read_names`` and ``read_last_lang`` as ``view``, so that the file is read and its
    game replayed once for both). A line it refuses or sets aside (damaged, out of place,
    of another game, no longer applying) gives no event there. ``None`` when it can't be
    read so (no such file, not a game journal, a first line it can't rebuild)."""
    try:
        return _read(path, upto_damage=True, check=check)[0]
    except (OSError, ValueError):  # JournalError, FirstLineDamaged
        return None


def verified_game(view):
    """``(events, whole)`` of ``view`` (what ``verified`` gave, not ``None``): the events
    of the lines that count (dicts, as ``read_events`` returns them), and whether the
    journal reads whole: True when nothing was set aside, left out, rebuilt or stopped at
    but a last line cut off by a crash (which a resume without ``--upto-damage`` cuts
    too, its die put back when its record was written whole). Only looks at ``view``:
    the file is not read again."""
    whole = (view.rebuilt is None and view.skipped is None and not view.intruders
             and not view.restored and (view.bad is None or view.bad[2]))
    return list(view.events), whole


#: ``view`` not given to ``read_names``/``read_last_lang``: they read it (``verified``)
_NOT_READ = object()


def read_names(path, header, check=None, view=_NOT_READ):
    """The players' names as they stand at the end of the journal at ``path``: the
    ``game`` line ``header``'s ``players`` with every ``rename`` line applied in order
    (a list of strings, seat order). The lines are those a resume with
    ``--upto-damage`` keeps (``verified``; ``check``: ``Session.stale_line``, as the
    resume's; ``view``: what ``verified`` gave, when the caller read it already): a
    ``rename`` line of another game, or one the resume sets aside or stops before, never
    counts. Only reads, never changes the file; a journal that can't be read so gives the
    header's names."""
    names = list(header.get("players") or ())
    read = verified(path, check) if view is _NOT_READ else view
    for event in read.events if read is not None else ():
        seat = event.get("player")
        if (event.get("type") == "rename" and isinstance(seat, int)
                and 0 <= seat < len(names) and isinstance(event.get("name"), str)):
            names[seat] = event["name"].strip()
    return names


def board_uid(events):
    """The unique id (a str, as the board's ``HELLO`` named it) of the pyramid the game
    takes its dice from: the first ``board`` line among ``events`` (event dicts, as
    ``verified`` views and ``Journal.events`` hold them; ``Session`` takes the first too),
    or ``None`` when none names one (no die from a pyramid yet, or manual)."""
    for event in events or ():
        if event.get("type") == "board":
            uid = event.get("uid")
            return uid if isinstance(uid, str) else None
    return None


def read_lang(path):
    """The table's language the journal at ``path`` records (``lang`` of its ``game``
    line, a string such as ``"de"``), read from its first line even when that line is
    damaged: the language the next line's chain hash proves it held (``_proven_first``,
    as its rebuild will: a code the damage changed to another, ``en`` to ``de``, is not
    the game's), else what it still reads of a language this program speaks
    (``_held_lang``); ``None`` when it records none or can't be read. Only reads."""
    try:
        with _open_read(path) as fh:
            first = without_bom(fh.readline()).rstrip(b"\r\n")
            second = fh.readline()
    except (OSError, JournalError):
        return None
    try:
        event = _parse(first, True)
    except ValueError:
        event = None
    if event is not None:  # intact: it says what it says
        lang = event.get("lang") if event.get("type") == "game" else None
        return lang if isinstance(lang, str) else None
    later = _chained_second(second)
    candidate = None if later is None else _first_line_candidate(first, {}, later)[0]
    line = None if candidate is None else _proven_first(candidate, later["prev"])
    if line is not None:
        return _parse(line.rstrip(b"\n"), True).get("lang")
    return _held_lang(first, "game")


def read_last_lang(path, check=None, view=_NOT_READ):
    """The table's language the journal at ``path`` last records: its last ``lang``
    line's (a resume given another ``--lang``, ``events.Lang``), else its ``game``
    line's (``read_lang``); ``None`` when it records none or can't be read. The lines are
    those a resume with ``--upto-damage`` keeps (``verified``; ``check``:
    ``Session.stale_line``, as the resume's; ``view``: what ``verified`` gave, when the
    caller read it already): a ``lang`` line of another game, or one
    out of place or no longer applying, never counts. A damaged ``lang`` line counts
    when it still reads a language this program speaks (``_held_lang``: the game was
    played in it from there, though ``--upto-damage`` sets the line aside); the lines
    after the line where that resume stops are not read. Only reads."""
    lang = read_lang(path)
    read = verified(path, check) if view is _NOT_READ else view
    if read is None:  # a damaged first line the resume can't rebuild: the game line's
        return lang
    lines = zip(read.lines[:len(read.events)], read.events, strict=True)
    said = [(n, event.get("lang")) for n, event in lines
            if n > 1 and event.get("type") == "lang"]
    if read.skipped is not None:
        said.append((read.skipped[0], _held_lang(read.skipped[4], "lang")))
    if read.bad is not None and read.kind == "damaged" and read.scan.empty != read.bad[0]:
        nl = read.data.find(b"\n", read.good_end)
        chunk = read.data[read.good_end:] if nl < 0 else read.data[read.good_end:nl]
        said.append((read.bad[0], _held_lang(chunk.rstrip(b"\r"), "lang")))
    for _line_no, code in sorted(said, key=lambda pair: pair[0]):
        if isinstance(code, str):
            lang = code
    return lang


def new_path_problem(path):
    """Why a new game can't be journaled at ``path`` (one line naming ``--journal``),
    or ``None``: a folder, a folder that doesn't exist, a symbolic link, anything but
    a regular file (a named pipe, a device). A file that already holds a game is for
    the caller to word (``play`` offers ``--resume``)."""
    if os.path.isdir(path):
        return (_("--journal %(path)s is a folder: give a file name, e.g. %(example)s")
                % {"path": path, "example": os.path.join(path, "game.jsonl")})
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return _("--journal %(path)s: the folder %(folder)s does not exist") % {
            "path": path, "folder": folder}
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return _("--journal %s is a symbolic link: the table never writes through a link; "
                 "give a new file name") % path
    if not stat.S_ISREG(mode):
        return _("--journal %(path)s is %(kind)s, not a file: give a new file name") % {
            "path": path, "kind": _kind_of(mode)}
    return None


def behind_pyramid(events, boot, acked):
    """One line when the pyramid knows of dice the journal ``events`` do not hold: it
    acknowledged event ``acked`` of boot ``boot`` (its ``HELLO``: ``acked=``, the last seq
    of that boot a host acknowledged) but the journal's last die or refused release of
    that boot is an earlier one (or there is none). The line names the events missing,
    the two causes the table cannot tell apart (lines cut from the journal's end, or
    another table that used the pyramid since) and what to do. A journal cut at its end
    proves nothing by its own lines; this is the check the pyramid makes possible
    (``Table`` says it on ``--resume``, docs/table.md). A sensor fault the table took is
    a ``rejected`` line too, and so is a gap the table named (``Session.dieless``), so
    an event without a die, or one the table already said was lost, is not named. The
    journal's ``board`` line (the pyramid the game began on: its boot and the last event
    before the game) counts as where the game's events of that boot begin, so a journal
    cut before its first die names only the events after it; the line names the
    journal's own last boot and event when they are of another boot.
    ``None`` when the journal is not behind, or ``boot``/``acked`` is ``None``."""
    from camelhost.device.events import SeqRange
    if boot is None or acked is None:
        return None
    last = began = latest = None
    for event in events:
        kind, seq = event.get("type"), event.get("seq")
        if kind not in ("die", "rejected", "board") or not isinstance(seq, int):
            continue
        latest = (event.get("boot"), seq, kind)
        if event.get("boot") != boot:
            continue
        if kind == "board":
            began = seq
        elif last is None or seq > last:
            last = seq
    start = last if last is not None else began
    if start is not None and start >= acked:
        return None
    missing = SeqRange(1 if start is None else start + 1, acked)
    if last is not None:
        ours = _("event %d") % last
    elif began is not None:
        ours = _("none: the game began after event %d") % began
    elif latest is not None and latest[2] == "board":
        ours = _("none of that boot: the game began after event %(event)d of boot "
                 "%(boot)s") % {"event": latest[1], "boot": latest[0]}
    elif latest is not None:
        ours = _("none of that boot: event %(event)d of boot %(boot)s") % {
            "event": latest[1], "boot": latest[0]}
    else:
        ours = _("none of that boot")
    return ngettext(
        "the pyramid served another table since this game's last die, or lines were cut from "
        "this journal's end: the pyramid acknowledged event %(events)s of boot %(boot)s, which "
        "the journal does not hold (its last is %(ours)s); it is left out. If lines were cut, "
        "quit and resume a whole copy of the journal",
        "the pyramid served another table since this game's last die, or lines were cut from "
        "this journal's end: the pyramid acknowledged events %(events)s of boot %(boot)s, "
        "which the journal does not hold (its last is %(ours)s); they are left out. If lines "
        "were cut, quit and resume a whole copy of the journal", len(missing)) % {
            "events": missing, "boot": boot, "ours": ours}


class Journal:
    """An open journal file, appended to one event at a time.

    ``Journal(path)`` opens (creating if needed) for appending and takes an
    exclusive lock (``JournalError`` when another program holds it); ``path=None``
    keeps events in memory only (used by tests and by ``replay``). The file must be
    a regular file (or a new path): a symbolic link, a named pipe or a device is
    refused at once (``JournalError``), never written through or waited on.
    ``pyramid``: the dice source of a new game (``virtual``, ``manual`` or a port),
    recorded in its ``game`` line; ``lang``: the table's language code (``en``, ``de``),
    recorded there too (``--resume`` speaks it unless ``--lang`` is given). ``.events`` is every event written through this
    object or loaded by ``Journal.resume`` (without the line fields ``n``, ``game``,
    ``prev``); ``.header`` the ``game`` line (or ``None``); ``.game_id`` the id every
    line carries.
    """

    def __init__(self, path=None, pyramid=None, lang=None, resuming=False):
        self.path = path
        self.events = []
        self.pyramid = pyramid
        self.lang = lang
        self._fd = None
        self._newline_owed = False
        #: lines in words for what ``resume`` set aside (a torn or damaged tail)
        self.notes = []
        #: how many of the game's events ``resume`` restored (0 for a new journal)
        self.restored = 0
        #: the shell command that continues this game, said when the disk is full
        #: (``pyramid play`` sets it with the options the game runs with); ``None``:
        #: ``pyramid play --resume PATH``
        self.resume_command = None
        self.game_id = None
        self._count = 0  # lines in the file
        self._last = None  # hash of the last line: the next line's prev
        self._pending = None  # an older journal's hash, until its chain starts
        self._subscribers = []
        if path:
            fd = _open_write(path, links_ok=0)
            try:
                _lock(fd, path)
                # ``resume`` reads the file itself, once, after the lock (its scan words
                # a damaged first line, or rebuilds it, and gives where appends go on)
                if not resuming and os.fstat(fd).st_size:
                    with _open_read(path) as fh:
                        self._follow(_scan(path, fh.read()))
            except BaseException:
                os.close(fd)
                raise
            self._fd = fd

    def _follow(self, scan):
        """Take the chain's state from a ``_Scan`` of the file's bytes: appends go on
        after its last line."""
        self.game_id, self._count, self._last = scan.game, scan.count, scan.last

    @property
    def header(self):
        return self.events[0] if self.events else None

    @classmethod
    def resume(cls, path, upto_damage=False, check=None, options=(), rebuild=None,
               retype=None):
        """Open an existing journal: lock it, cut a torn last line, load its events.

        ``check``: ``Session.stale_line`` (see ``read_events``): an event that no
        longer applies counts as a damaged line. ``upto_damage``: resume up to the
        first damaged line (the rest is kept in ``FILE.damaged``), or, with ``check``,
        set one damaged line aside alone while the lines after it still apply (a
        ``set_aside`` line takes its place), leave out alone a line of another game or
        an exact repeat of a line that the next line follows past, and rebuild a damaged first line
        (``rebuild``: the ``players``, ``edition``, ``seed``, ``pyramid`` given and
        ``bots``, a function of the players' names returning the bot seats, over what
        it still reads, ``_first_line_candidate``; only when line 2's ``prev`` is its
        hash, else ``JournalError``). ``retype``: a function of the
        events before that one damaged line returning the events typed in its place
        (``--retype``; ``ValueError`` refuses them, nothing changed). ``options``: the
        table's options, said in a refusal's command (see ``read_events``). A journal
        of an older format (1 or 2: lines without numbers) is said in one note; the
        first event appended then starts its chain (a ``chained`` line first, whose
        ``prev`` is the hash of every line before it), so the note comes once. Raises ``OSError`` if
        missing, ``JournalError`` if damaged, out of place, empty, not a journal, not a
        regular file or in use; the file is then unchanged.
        """
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            raise FileNotFoundError(errno.ENOENT, _("no such journal"), path) from None
        if stat.S_ISLNK(mode):
            raise JournalError(_("%s is a symbolic link: the table never writes through a "
                                 "link; nothing was changed (give the file's own path)") % path)
        if not stat.S_ISREG(mode):
            raise _not_regular(path, mode)
        journal = cls(path, resuming=True)
        try:
            read, kept = _read(path, repair=True, upto_damage=upto_damage,
                               notes=journal.notes, check=check, options=options,
                               rebuild=rebuild, retype=retype)
            events = read.events
            if not events:
                raise JournalError(_("%s: the journal is empty") % path)
            # the file read once: its scan, unless the resume changed the bytes (a torn
            # or damaged tail cut, a line set aside, a first line rebuilt, blank lines
            # cut), whose chain is then taken from what the file now holds
            journal._follow(read.scan if kept == read.data else _scan(path, kept))
            journal._newline_owed = bool(kept) and not kept.endswith(b"\n")
            journal.events = events
            #: how many of the game's events the resume restored: every event read but
            #: the game line and the lang lines (no events of play; a resume with
            #: --lang journals one more, not restored)
            journal.restored = len([e for e in events[1:] if e.get("type") != "lang"])
            if journal.game_id is None:
                journal._chain_start(kept)
        except BaseException:
            journal.close()
            raise
        return journal

    def _chain_start(self, kept):
        """A journal of an older format: its chain starts with the next event appended,
        after one ``chained`` line whose ``prev`` is the hash of every line before it
        (``kept``: the file's bytes). Said once, in ``notes``; the file changes only
        when an event is appended."""
        older = hashlib.sha256()
        lines = kept.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        for chunk in lines:
            if chunk.endswith(b"\r"):
                chunk = chunk[:-1]
            older.update(chunk + b"\n")
        self._pending = older.hexdigest()[:16]
        self.notes.append(ngettext(
            "%(path)s was written by an older version (journal format %(format)s): the lines "
            "appended from now on are numbered and chained, after its %(count)d line",
            "%(path)s was written by an older version (journal format %(format)s): the lines "
            "appended from now on are numbered and chained, after its %(count)d lines",
            self._count) % {"path": self.path, "format": self.events[0].get("format", 1),
                            "count": self._count})

    def append(self, event):
        """Write one event (a JSON-able dict with ``type``) and force it to disk.

        The line gets its number, the game id (a new one for the ``game`` line of a new
        journal) and the hash of the line before it (``n``, ``game``, ``prev``; an
        event holding one of these keys is refused with ``ValueError``). Returns only
        after ``os.fsync`` so the caller may then show the result. Raises
        ``JournalFull`` (an ``OSError``) when no more bytes fit (the disk, a quota, the
        file-size limit) and ``OSError`` when the write or the sync fails otherwise;
        the file is then cut back to where the line began, no partial line left, and
        the event is not counted in ``events``.
        """
        if "type" not in event:
            raise ValueError(_("journal event without a type: %r") % (event,))
        if any(name in event for name in CHAIN_FIELDS):
            raise ValueError(_("journal event with a line field (n, game, prev): %r") % (event,))
        if event["type"] == "game" and self.pyramid is not None and "pyramid" not in event:
            event = dict(event, pyramid=self.pyramid)
        if event["type"] == "game" and self.lang is not None and "lang" not in event:
            event = dict(event, lang=self.lang)
        if self._pending is not None:  # an older journal: its chain starts here
            game = new_game_id()
            self._write({"type": CHAINED, "n": self._count + 1, "game": game,
                         "prev": self._pending, "format": FORMAT})
            self.game_id, self._pending = game, None
        line = dict(event)
        if self._count == 0 and event["type"] == "game":
            game = self.game_id or new_game_id()
            line.update(n=1, game=game)
        elif self.game_id is not None:
            game = self.game_id
            line.update(n=self._count + 1, game=game, prev=self._last)
        else:
            game = None  # an older journal opened without resume: its lines stay as they are
        self._write(line)
        self.game_id = game
        self.events.append(event)
        for callback in list(self._subscribers):
            callback(event)

    def _write(self, fields):
        """Write the line of ``fields`` and force it to disk (see ``append``)."""
        data = encode_line(fields)
        if self._fd is not None:
            if self._newline_owed:
                data = b"\n" + data
            start = os.fstat(self._fd).st_size
            try:
                _write_all(self._fd, data)
                os.fsync(self._fd)
            except OSError as exc:
                # Not safely on disk: cut what was written of the line, so the file stays
                # the record (an unbuffered write leaves nothing to flush on close)
                try:
                    os.ftruncate(self._fd, start)
                except OSError:
                    pass
                if exc.errno in FULL_ERRNOS:
                    command = self.resume_command
                    if command is None:
                        command = "pyramid play --resume %s" % shlex.quote(self.path)
                    cause = (_("the disk is full") if exc.errno != getattr(errno, "EFBIG", None)
                             else _("the disk is full for this program (its file-size limit "
                                    "is reached)"))
                    raise JournalFull(
                        exc.errno,
                        _("%(why)s: the game is safe in %(path)s up to the last event; free "
                          "some space, then continue with: %(command)s") % {
                              "why": cause, "path": self.path, "command": command},
                    ) from None
                raise
            self._newline_owed = False
        self._count += 1
        self._last = line_hash(data.strip(b"\n"))

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
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _lock(fd, path):
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise JournalError(_("%s is in use by another program (another 'pyramid play "
                               "--resume'?): close it first") % path) from None
        raise
