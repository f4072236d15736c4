"""``pyramid play``: track a real game at the table.

Dice come from the smart pyramid on USB (``--pyramid auto`` finds the RP2040 by
its USB vendor id 0x2E8A, or give the port), from the virtual pyramid
(``virtual``: the real firmware on simulated hardware behind a pty), or typed
by hand (``manual``). Every accepted event goes to the journal first
(``--journal FILE``, default ``journals/<date-time>.jsonl``); ``--resume FILE``
continues a game from its journal after a crash.
"""

import contextlib
import os
import re
import time

from camelhost.commands.options import (
    EDITION_CHOICES,
    add_edition_argument,
    add_journal_argument,
    add_seed_argument,
    metavar,
)
from camelhost.device.open import RP2040_VID, find_rp2040_port  # noqa: F401 (re-exported)
from camelhost.errors import CliError
from camelhost.i18n import N_, _, colours_in, ngettext, port_word
from camelhost.tools.commandline import with_port

HELP = N_("track a real game at the table (pyramid on USB, virtual, or dice typed in)")


def add_arguments(parser):
    from camelhost.table.bots import TABLE_POLICY  # the one source of the table's policy
    parser.add_argument("--players", metavar=metavar("NAMES"),
                        help=_("names in seat order, comma-separated; the first holds the start "
                               "marker (e.g. Ann,Ben,Cy)"))
    add_edition_argument(parser, _("the edition of a new game"), default=None,
                         default_words=_("the one the pyramid is set to with --pyramid %s "
                                         "or auto, else second; --resume takes the "
                                         "journal's") % port_word())
    parser.add_argument("--pyramid", default=None, metavar=port_word(),
                        help=_("where the dice come from: auto (the pyramid on USB) | "
                               "%(port)s | id:<serial> (the pyramid with that USB serial "
                               "number) | virtual | manual (typed) (default manual; --resume "
                               "takes the journal's)") % {"port": port_word()})
    parser.add_argument("--plain", action="store_true",
                        help=_("plain line mode (scripts, screen readers) instead of the full screen"))
    parser.add_argument("--verbose", action="store_true",
                        help=_("also show the serial link's warnings (damaged lines, reconnects)"))
    add_journal_argument(parser, _("a new file in journals/ named by the date and time the "
                                   "game starts, e.g. journals/20260314-201500.jsonl"))
    parser.add_argument("--resume", metavar=metavar("FILE"), nargs="?", const=RESUME_FOLDER,
                        help=_("continue the game in this journal; alone, or given a folder: "
                               "the newest unfinished game in it (default journals/), named "
                               "before it starts"))
    parser.add_argument("--upto-damage", action="store_true",
                        help=_("with --resume: continue up to the first damaged line or event "
                               "that no longer applies (the rest is kept in FILE.damaged); one "
                               "damaged line is set aside alone while the lines after it still "
                               "apply, and a damaged first line is rebuilt (from --players, "
                               "--edition, --seed given) when the next line's chain hash "
                               "confirms it"))
    parser.add_argument("--retype", default=None, action="append", metavar=metavar("COMMAND"),
                        help=_("with --upto-damage: what one damaged line held, typed again "
                               "(e.g. 'white 3'): it takes the line's place and the lines "
                               "after it are kept; what the damaged line no longer reads is "
                               "taken only when given twice, the same"))
    parser.add_argument("--bots", default=None, metavar=metavar("NAMES"),
                        help=_("the players (of --players) whose seats bots play, by name, "
                               "comma-separated (--resume takes the journal's); every bot "
                               "here plays the %s policy (only pyramid tournament's --bots "
                               "chooses a policy)") % TABLE_POLICY)
    parser.add_argument("--speak", action="store_true",
                        help=_("say each die announcement aloud with espeak-ng (if on PATH)"))
    add_seed_argument(parser, _("seed for drawn setups, bots and the virtual pyramid"),
                      default=None,
                      default_words=_("a new one, printed so the game can be played again; "
                                      "--resume takes the journal's"))
    from camelhost.web import add_web_argument
    add_web_argument(parser)


#: Where ``--resume`` alone looks for the newest unfinished game: where new games go.
RESUME_FOLDER = "journals"


def fresh_seed():
    """A new seed (1..999999) for a game started without ``--seed``."""
    import random
    return random.SystemRandom().randint(1, 999999)


def _fresh_journal_path(folder="journals"):
    """``journals/<date-time>.jsonl``, created empty so that no other game takes the
    same name: a second game started in the same second gets ``-2``, ``-3``, ..."""
    os.makedirs(folder, exist_ok=True)
    stem = os.path.join(folder, time.strftime("%Y%m%d-%H%M%S"))
    for n in range(1, 1000):
        path = stem + ("" if n == 1 else "-%d" % n) + ".jsonl"
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            continue
        return path
    raise CliError(_("too many journals named %s-*.jsonl: give --journal FILE") % stem)


def _discard_unused(journal):
    """Remove a journal that holds only its ``game`` line (a start that failed), so
    it neither litters ``journals/`` nor blocks the next start with the same name."""
    journal.close()
    if len(journal.events) <= 1 and journal.path:
        try:
            os.unlink(journal.path)
        except OSError:
            pass
        made = getattr(journal, "made_folder", None)
        if made:  # the folder this start made for it: gone too, if nothing else is in it
            try:
                os.rmdir(made)
            except OSError:
                pass


def _check_options(args):
    """Options that only go with others: ``--upto-damage`` without ``--resume`` is a
    usage error (``CliError``, exit 2) before anything starts, not silently ignored."""
    if getattr(args, "retype", None) is not None and not args.upto_damage:
        raise CliError(_("--retype goes with --resume FILE --upto-damage (it types a damaged "
                         "line again in its place); no game was started"), 2)
    if args.upto_damage and not args.resume:
        raise CliError(_("--upto-damage goes with --resume FILE (it resumes a journal up to "
                       "its first damaged line); no game was started"), 2)
    _check_bot_names(args.bots)


def _check_bot_names(text):
    """``CliError`` (one line, before anything starts) when the ``--bots`` value ``text``
    names an empty name (``""``, ``,``, ``Ben,``), as ``--players`` with one is refused:
    never dropped without a word. ``None`` (no ``--bots``) and a blank value (no bots:
    ``--bots ''``) pass."""
    import shlex
    if text is None or not text.strip():
        return
    names = _typed_names("--bots", text)
    for i, name in enumerate(names):
        if not name.strip():
            raise CliError(_("--bots %(bots)s: bot name %(n)d of %(count)d is empty: give the "
                             "players whose seats bots play by name, e.g. --bots Ben,Cy (no "
                             "bots: leave --bots out); no game was started")
                           % {"bots": shlex.quote(text), "n": i + 1, "count": len(names)})


class _Candidate:
    """A journal ``--resume FOLDER`` may choose, read once (``journal.verified``: the
    lines a resume with ``--upto-damage`` keeps, the game replayed to check them):
    ``path``; ``view`` (what ``verified`` gave, ``None`` when it can't be read so; the
    chosen one's is given on to ``open_session``, which reads it no more); ``game``, the
    ``Session`` of its events when it reads whole (``None``: damaged, or no game
    journal); ``journal``: it holds a game (``journal.is_game_journal``); ``data``: the
    file's bytes (``None`` when it can't be opened), what copies are told by
    (``copies_of_one_game``), a damaged first line too."""

    def __init__(self, path):
        from camelhost.table.journal import verified_game, verified_journal
        from camelhost.table.session import Session
        self.path, self.game = path, None
        #: it and its copies beside it, ``[(path, data)]`` (``copies_of_one_game``), or
        #: ``None``; a newer copy passed over, its game over in a longer copy, and that
        #: copy: ``(copy, longer)`` or ``None`` (``newest_unfinished``)
        self.group = self.passed = None
        # one read tells all (a *.jsonl that is no journal opened once: s44b journal 4)
        built = []  # the session its check rebuilt: the game is replayed once
        self.view, self.journal, self.data = verified_journal(
            path, lambda events: Session.stale_line(events, built))
        if self.view is None:  # no game journal, or one that can't be read even so
            return
        events, whole = verified_game(self.view)
        if whole and built and built[-1][0] == events:
            self.game = built[-1][1]
        elif whole:
            try:
                self.game = Session.from_events(events, path)
            except ValueError:
                self.game = None

    def where(self):
        """Where its game stands, in words of the language in force (``race 1, leg 3``),
        when its race is not over; ``None`` when it is over (or ended unscored) or the
        file is no game journal. A journal that can't be read whole is unfinished
        (``damaged``), its first line too when the game's lines follow it: its resume
        says what is wrong and what can be done."""
        if not self.journal:
            return None
        session = self.game
        if session is None:
            return _("damaged")
        if session.phase in ("over", "unscored"):
            return None
        if session.phase == "setup":
            return _("race %d, setup") % session.race_no
        return _("race %(race)d, leg %(leg)d") % {"race": session.race_no,
                                                  "leg": session.game.leg}

    def copies(self):
        """What the line naming it says of its copies beside it, in the language in force
        (``; jf/backup.jsonl: a copy of the same game ...``), and of a newer copy passed
        over (``; jf/b.jsonl, newer, is a copy of jf/a.jsonl made before ...``); ""
        when neither."""
        words = "" if self.group is None else copies_of_one_game(self.group)[1]
        if self.passed is not None:
            words += _("; %(copy)s, newer, is a copy of %(longer)s made before its game "
                       "went on, and that game's race is over (to continue the copy all the "
                       "same: --resume %(copy)s)") % {"copy": self.passed[0],
                                                     "longer": self.passed[1]}
        return words

    def nothing_played(self):
        """True when its game reads whole and holds no move yet: its first race, no
        player's action, pyramid ticket or die after its setup (a game started by
        mistake: s38 tester finding 7); False otherwise (damaged too: its resume says
        what is wrong)."""
        session = self.game
        return session is not None and session.race_no == 1 and (
            session.game is None or not session.game.history) and session.phase in (
                "setup", "turn")

    def players(self):
        """Its players as the table names them now (renames included), comma-separated;
        ``?`` when it can't be read whole."""
        return "?" if self.game is None else ", ".join(self.game.names)


def journals_in(folder):
    """The journals in ``folder`` (its ``*.jsonl`` files, by name) as ``[(second,
    path)]``, ``second`` the time each was last written, in whole seconds (two games
    written in the same second can't be told apart by it). Raises ``OSError`` when the
    folder can't be read."""
    written = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".jsonl") and os.path.isfile(path):
            written.append((int(os.stat(path).st_mtime), path))
    return written


def same_second():
    """What two journals that can't be told apart by their files' times share, in the
    table's language: the clause both ``replay FOLDER`` and ``play --resume FOLDER`` say
    in their refusal (``... 2 journals whose files were last written in the same second
    (a copy, cp -r, ...)``). True of games written in one second and of a folder copied
    without its times (tester s44, finding 4): the journal's lines carry no time of
    their own (docs/table.md, "The journal") to tell them apart by, so the table
    chooses, never this program."""
    return _("whose files were last written in the same second (a copy, cp -r, writes "
             "them all at once; cp -p keeps their times)")


#: how a name says its file is a copy of another (``copies_of_one_game``), letter case aside
COPY_MARKS = ("copy", "kopie", "backup", "bak", "~", " (")
#: the name the table gives a new journal (``_fresh_journal_path``)
FRESH_NAME = re.compile(r"\d{8}-\d{6}(-\d+)?\.jsonl\Z")


def copies_of_one_game(journals):
    """``(index, words)`` when the journals ``journals`` (two or more ``(path, data)``,
    ``data`` a file's bytes) hold one game: all the same bytes, or the same game id
    (``journal.game_id``) with each one's bytes the start of the longest's (copied
    before the game went on). ``index``: the one to take: the longest; among the same
    bytes the one whose name is not a copy's (``COPY_MARKS``), a name the table gives a
    new journal first (``FRESH_NAME``), else the first by name. ``words``: what the
    line naming it adds of the others (``; PATH: a copy of the same game (the files are
    identical), left as it is``). ``None`` when the games differ."""
    from camelhost.table.journal import game_id
    longest = max(len(data) for _path, data in journals)
    full = [data for _path, data in journals if len(data) == longest][0]
    identical = all(data == full for _path, data in journals)
    if not identical:
        ids = {game_id(data) for _path, data in journals}
        if len(ids) != 1 or None in ids or not all(
                full.startswith(data) for _path, data in journals):
            return None

    def rank(i):
        path, data = journals[i]
        name = os.path.basename(path)
        return (len(data) != longest, any(m in name.lower() for m in COPY_MARKS),
                not FRESH_NAME.match(name), name)

    index = min(range(len(journals)), key=rank)
    others = [path for i, (path, _data) in enumerate(journals) if i != index]
    if identical:
        words = ngettext("; %(copies)s: a copy of the same game (the files are identical), "
                         "left as it is",
                         "; %(copies)s: copies of the same game (the files are identical), "
                         "left as they are", len(others))
    else:
        words = ngettext("; %(copies)s: the same game, a copy made before it went on (each "
                         "of its lines is in the one taken), left as it is",
                         "; %(copies)s: the same game, copies made before it went on (each "
                         "of their lines is in the one taken), left as they are", len(others))
    return index, words % {"copies": ", ".join(others)}


def journal_bytes(path):
    """The bytes of the file at ``path`` (``OSError`` when it can't be read)."""
    with open(path, "rb") as fh:
        return fh.read()


def journal_head(path):
    """``(size, head)`` of the file at ``path``: its size in bytes and its first bytes,
    up to the end of its second line at least (all of it when it has fewer lines): what
    its game id is read from (``journal.game_id``, a damaged first line's too).
    ``OSError`` when it can't be read."""
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        head = b""
        while head.count(b"\n") < 2:
            chunk = fh.read(4096)
            if not chunk:
                break
            head += chunk
    return size, head


def with_older_copies(group, others):
    """``group`` (``[(path, data)]``: the newest journals, written in one second) with
    each journal of ``others`` (paths of the other files, newest first: written before,
    and for ``play --resume`` finished ones written after too) that is a copy
    of the one game ``group`` holds (``copies_of_one_game`` of them all, finished or not),
    whatever the files' times (a backup made later is no newer game: tester s45b finding
    1); a list of ``(path, data)``. ``group`` as it is when it holds several games; a
    file that can't be read is left out. Another file is read whole only when its first
    lines give the group's game id, or, when the group's can't be read, when it has the
    group's size (``journal_head``): another game's journal is not (a folder of many
    games)."""
    from camelhost.table.journal import game_id
    group = list(group)
    if len(group) > 1 and copies_of_one_game(group) is None:
        return group
    ids = {game_id(data) for _path, data in group}
    sizes = {len(data) for _path, data in group}
    for path in others:
        try:
            size, head = journal_head(path)
            if (game_id(head) not in ids) if None not in ids else (size not in sizes):
                continue  # another game (or not the same bytes): not read whole
            data = journal_bytes(path)
        except OSError:
            continue
        if copies_of_one_game(group + [(path, data)]) is not None:
            group.append((path, data))
    return group


class _NoUnfinished(CliError):
    """``newest_unfinished``'s refusal of a folder with no unfinished game in it."""


def newest_unfinished(folder):
    """The journal of the newest unfinished game in ``folder`` (``*.jsonl``, newest by
    the time it was last written): ``(chosen, skipped)``, ``chosen`` a ``_Candidate``
    (its ``where()`` says where its game stands); when the newest holds nothing played
    (``_Candidate.nothing_played``; the newest in copies too) and an older unfinished
    one holds a move, that older one, ``skipped`` the newest's path (of copies, the one
    that would be taken; else ``None``). Each journal looked at is read
    once (``_Candidate``).
    ``CliError`` (one line, nothing changed) when the folder can't be read, holds no
    unfinished game, or holds several games whose files were last written in the same
    second (``same_second``; their names listed, so that the table chooses, never this
    program); copies of one game (``copies_of_one_game``) are one, whatever their files'
    times (``with_older_copies``: a copy written before the newest or after it, its first
    line damaged too): one of them is chosen, its ``group`` holding them all. When
    the one to take, the longest, is finished (the newest unfinished file a copy made
    before its game went on to the end of its race, older or newer), that game is over: the newest unfinished game
    among the other files is chosen, its ``passed`` naming the copy passed over and the
    longer one (``_Candidate.copies`` says both), or, when there is none, ``CliError``
    says the game is over, naming both files (tester s45b; as ``replay FOLDER`` shows
    the longer)."""
    try:
        written = journals_in(folder)
    except OSError as exc:
        raise CliError(_("--resume %(folder)s: the folder can't be read (%(why)s)")
                       % {"folder": folder, "why": exc.strerror or exc}) from None
    if not written:
        raise CliError(_("--resume %s: no journal there (*.jsonl): give --resume FILE")
                       % folder)
    written.sort(key=lambda item: -item[0])
    read = {}

    def candidate(path):
        if path not in read:
            read[path] = _Candidate(path)
        return read[path]

    return _newest_unfinished_of(folder, written, candidate)


def _newest_unfinished_of(folder, written, candidate):
    """``newest_unfinished`` among the files ``written`` (``[(second, path)]``, newest
    first), each read once through ``candidate`` (a function of a path giving its
    ``_Candidate``); ``_NoUnfinished`` when none of them holds an unfinished game."""
    found = []
    others = []  # *.jsonl files that are no game journal: never counted as a race over
    for second, path in written:
        if found and second < found[0][0]:
            break  # older than the newest unfinished game: not a candidate
        where = candidate(path).where()
        if where is not None:
            found.append((second, path, where))
        elif not candidate(path).journal:
            others.append(os.path.basename(path))
    if not found:
        over = len(written) - len(others)
        if not over:
            raise _NoUnfinished(_("--resume %(folder)s: no game journal there (%(files)s: not "
                                  "a game journal): give --resume FILE") % {
                                      "folder": folder, "files": ", ".join(sorted(others))})
        if others:
            raise _NoUnfinished(ngettext(
                "--resume %(folder)s: no unfinished game there (%(count)d journal, its race "
                "over; not a game journal: %(others)s): give --resume FILE",
                "--resume %(folder)s: no unfinished game there (%(count)d journals, the race "
                "over in each; not a game journal: %(others)s): give --resume FILE", over)
                % {"folder": folder, "count": over, "others": ", ".join(sorted(others))})
        raise _NoUnfinished(ngettext("--resume %(folder)s: no unfinished game there "
                                     "(%(count)d journal, its race over): give --resume FILE",
                                     "--resume %(folder)s: no unfinished game there "
                                     "(%(count)d journals, the race over in each): give "
                                     "--resume FILE", over)
                            % {"folder": folder, "count": over})
    # copies of its game (a backup made later, one made before it went on, a damaged
    # first line's too: by their bytes) are one game with it, whatever their times: a
    # finished one newer than it too (the game went on to its end after a backup)
    newest_second = {p for _s, p, _w in found}
    group = with_older_copies([(p, candidate(p).data) for _s, p, _w in found],
                              [p for _s, p in written if p not in newest_second])
    one = copies_of_one_game(group) if len(group) > 1 else None
    if one is None and len(found) > 1:  # the players tell two tables' games apart
        raise CliError(_("--resume %(folder)s: %(count)d unfinished games %(same_second)s: "
                         "%(games)s; give the one to continue: --resume FILE")
                       % {"folder": folder, "count": len(found), "same_second": same_second(),
                          "games": "; ".join(
                              _("%(path)s (%(players)s: %(where)s)")
                              % {"path": p, "players": candidate(p).players(), "where": w}
                              for _s, p, w in found)})
    newest = found[0][1] if one is None else group[one[0]][0]
    taken = {p for p, _d in group}  # its copies: one game
    if candidate(newest).where() is None:
        # the newest unfinished file is a copy made before its game went on to the end
        # of its race in a longer one (older or newer): that game is over, as replay
        # shows it; the newest unfinished game among the others, if any, is meant
        unfinished = [(p, d) for p, d in group if candidate(p).where() is not None]
        short = unfinished[0][0] if len(unfinished) == 1 else unfinished[
            copies_of_one_game(unfinished)[0]][0]
        try:
            chosen, skipped = _newest_unfinished_of(
                folder, [(s, p) for s, p in written if p not in taken], candidate)
        except _NoUnfinished:
            raise _NoUnfinished(_(
                "--resume %(folder)s: no unfinished game there: %(copy)s is a copy of "
                "%(longer)s made before its game went on, and that game's race is over "
                "(pyramid replay %(longer)s shows it; to continue the copy all the same: "
                "--resume %(copy)s)") % {"folder": folder, "copy": short,
                                         "longer": newest}) from None
        chosen.passed = (short, newest)
        return chosen, skipped
    if candidate(newest).nothing_played():
        # a game started by mistake, nothing played (in copies too: the one taken holds
        # every line of the others): the newest older one with a move played is what the
        # table means (s38 tester finding 7); said in the line
        for second, path in written:
            if second >= found[0][0] or path in taken:
                continue
            if candidate(path).where() is not None and not candidate(path).nothing_played():
                return candidate(path), newest
    chosen = candidate(newest)
    if one is not None:  # one game in copies (a backup beside it): one taken, said so
        chosen.group = group
    return chosen, None


def _resume_path(args):
    """``--resume`` alone (``RESUME_FOLDER``) or given a folder: ``args.resume`` made the
    newest unfinished game's journal in it, and the table's language the one that journal
    records (``speak_journals_language``); returns the line that names it (``resuming the
    newest unfinished game in journals: ... (race 1, leg 3)``), wholly in that language,
    for ``open_session`` to say once the game really resumes (a refusal is said instead,
    alone: tester s35 finding 2), the lines of that journal that count
    (``journal.verified``, read once: ``open_session`` reads them no more), and what that
    line says of its copies beside it (``_Candidate.copies``; "" when none), which a
    refusal of its resume says too (``_refusal_naming_copies``). A file as given:
    ``(None, NOT_READ, "")``."""
    if args.resume == RESUME_FOLDER and not os.path.exists(args.resume):
        raise CliError(_("--resume: no %s folder here (new games are kept in it): give "
                         "--resume FILE") % (RESUME_FOLDER + os.sep))
    if not (args.resume and os.path.isdir(args.resume)):
        return None, NOT_READ, ""
    folder = args.resume
    chosen, skipped = newest_unfinished(folder)
    from camelhost.table.journal import read_header, read_last_lang
    from camelhost.table.session import Session
    path, view = chosen.path, chosen.view
    last = read_last_lang(path, Session.stale_line, view)
    speak_journals_language(args, _last_lang(read_header(path), last))
    where = chosen.where()  # where it stands, in the table's words
    copies = chosen.copies()  # and its copies, in the table's words too
    args.resume = path
    if skipped is not None:
        return _("resuming the newest unfinished game in %(folder)s with a move played: "
                 "%(path)s (%(where)s); %(skipped)s, newer, has nothing played yet (to "
                 "continue that one: --resume %(skipped)s)") % {
                     "folder": folder, "path": path, "where": where,
                     "skipped": skipped} + copies, view, copies
    return _("resuming the newest unfinished game in %(folder)s: %(path)s (%(where)s)") % {
        "folder": folder, "path": path, "where": where} + copies, view, copies


#: ``_resume_path``'s second value when it read no journal (a file as given)
NOT_READ = object()


def _resume_session(args, view):
    """``(session, journal)`` of the game resumed from the journal ``args.resume`` (a
    file), ``view`` its lines that count when read already (``_resume_path``), else
    ``NOT_READ``. A refusal raises (``CliError``, ``journal.JournalError``), nothing
    changed."""
    from camelhost.table.journal import (
        Journal,
        board_uid,
        read_header,
        read_lang,
        read_last_lang,
        verified,
    )
    from camelhost.table.session import Session
    header = read_header(args.resume)
    # the lines that count, read once for the language and the names (the resume
    # reads the file again below, under its lock, in the journal's language and
    # with the options given: its words and what it does depend on them)
    if view is NOT_READ:
        view = verified(args.resume, Session.stale_line)
    # as the resume reads the lines (a damaged lang line's too, _held_lang)
    last_lang = read_last_lang(args.resume, Session.stale_line, view)
    if header is not None:  # a conflicting option changes nothing, a torn tail neither
        speak_journals_language(args, _last_lang(header, last_lang))
        _check_resume_options(args, header, args.resume, view)
    else:  # a damaged first line: its refusal or rebuild said as the line still reads
        speak_journals_language(args, {"lang": read_lang(args.resume)})
    options = ["--plain"] if _plain(args) else []  # a refusal's command reopens it so
    options += _lang_words(args)
    if args.pyramid:
        options += ["--pyramid", _port_to_suggest(args.pyramid)]
    elif header is not None:
        _refuse_journals_pseudo_terminal(args, header, options,
                                         board_uid(view.events if view else ()))
    if header is None and args.bots is not None:
        options += ["--bots", args.bots]  # a damaged first line's refusal repeats it
    # a damaged first line is rebuilt (with --upto-damage) from what it still reads,
    # and from the players, edition, seed, bots, pyramid and language given, checked against
    # the lines after it (the bots' seats among the players it is rebuilt with)
    rebuild = {"players": _typed_names("--players", args.players)
               if args.players else None, "edition": args.edition, "seed": args.seed,
               "pyramid": args.pyramid, "lang": getattr(args, "lang", None),
               "bots": None if args.bots is None
               else (lambda names: _bot_seats(args.bots, names))}
    journal = Journal.resume(args.resume, upto_damage=args.upto_damage,
                             check=Session.stale_line, options=options, rebuild=rebuild,
                             retype=_retyped(args.retype))
    try:
        if header is None:
            speak_journals_language(args, journal.header)
            _check_resume_options(args, journal.header, args.resume)
            if not args.pyramid:
                _refuse_journals_pseudo_terminal(args, journal.header, options,
                                                 board_uid(journal.events))
        session = Session.resume(journal)
        from camelhost.i18n import language, language_name
        if getattr(args, "lang", None):  # the language a crash's resume comes back in
            session.record_lang(language())
        elif last_lang == language() != session.lang and header is not None:
            # the lang line the game went on in was set aside (damaged, or after
            # one): it is spoken and journaled again, so the next resume speaks it
            session.record_lang(last_lang)
            journal.notes.append(_("the game goes on in %s, the language of the lang "
                                   "line set aside (journaled again)") % language_name())
    except BaseException:
        journal.close()
        raise
    return session, journal


def _refusal_naming_copies(exc, folder, path, copies):
    """The ``CliError`` a refused resume (``exc``: a ``CliError`` or a ``ValueError``,
    ``journal.JournalError`` among them) of ``path``, the game ``--resume folder`` chose
    with copies beside it (``copies``: ``_Candidate.copies``' words), says: which file
    was taken and what the others are, then the refusal as it was, in one line (tester
    s45b finding 7: a damaged first line's advice for the file taken, naming its copy)."""
    if isinstance(exc, CliError):
        said, code = str(exc), exc.exit_code
    else:
        from camelhost.table.narration import translated
        said, code = translated(exc), 1
    return CliError(_("--resume %(folder)s: the newest unfinished game there is "
                      "%(path)s%(copies)s. %(refusal)s") % {
                          "folder": folder, "path": path, "copies": copies, "refusal": said},
                    code)


def open_session(args, said=None):
    """Return ``(session, journal)`` for a new game or a resumed one (``--resume`` alone
    or given a folder: its newest unfinished game, ``newest_unfinished``, the line naming
    it printed once the game resumes, or appended to ``said``, a list, when given: the
    full screen shows it first in its history, which a line printed before it hides)."""
    _check_options(args)
    from camelhost.table.journal import (
        Journal,
        new_path_problem,
    )
    from camelhost.table.session import (
        Session,
        TableError,
        new_name_problem,
        player_name,
    )
    # the line said once the game resumes, never before a refusal
    folder = args.resume  # a folder's refusal names it (_refusal_naming_copies)
    chosen, view, copies = _resume_path(args)
    if args.resume:
        try:
            session, journal = _resume_session(args, view)
        except (CliError, ValueError) as exc:
            if not copies:
                raise
            raise _refusal_naming_copies(exc, folder, args.resume, copies) from None
        if chosen is not None and said is not None:
            said.append(chosen)
        elif chosen is not None:
            print(chosen)
        return session, journal
    if not args.players:
        raise CliError(_("give the players: --players Ann,Ben,Cy (or --resume FILE)"))
    # every argument checked before a journal is made or a seed drawn and printed
    names = _typed_names("--players", args.players)  # '"Ben Jr"': Ben Jr
    if any(";" in n for n in names):  # 'Anna;Bernd;Cy': not one player, nor a count
        raise CliError(_("--players %(given)s: the names are separated by commas (%(names)s)")
                       % {"given": args.players, "names": ",".join(
                           player_name(n) for n in args.players.replace(";", ",").split(","))})
    edition, names = _first_edition(args, names)
    for name in names:
        problem = new_name_problem(name, names)
        if problem is not None:
            raise CliError(_("--players %(given)s: %(problem)s") % {"given": args.players,
                                                                      "problem": problem})
    bots = _bot_seats(args.bots or "", names)
    path = args.journal
    made = None  # the journals/ folder when this start makes it: a failed start removes it
    if not path:
        made = None if os.path.isdir("journals") else "journals"
        path = _fresh_journal_path()
    elif new_path_problem(path):
        raise CliError(new_path_problem(path))
    elif os.path.exists(path) and os.path.getsize(path) > 0:
        from camelhost.table.journal import is_game_journal
        if not is_game_journal(path):  # any other file: never written over, never resumed
            raise CliError(_("%s is not empty and holds no game: give another --journal "
                             "(nothing was changed)") % path)
        raise CliError(_("%(path)s already holds a game: use --resume %(path)s, or another "
                         "--journal") % {"path": path})
    seed = args.seed
    if seed is None:
        seed = fresh_seed()  # printed by run() once the game really starts
    from camelhost.i18n import language
    journal = Journal(path, pyramid=args.pyramid or "manual", lang=language())
    journal.made_folder = made
    try:
        session = Session(edition, names, seed=seed, bots=bots, journal=journal)
    except TableError as exc:
        _discard_unused(journal)
        raise CliError(str(exc)) from None
    return session, journal


#: The edition of a new game played without ``--edition`` on typed dice or the virtual
#: pyramid, or on a pyramid whose edition can't be told (``board_edition``).
DEFAULT_EDITION = "second"


def _reads_board_edition(args):
    """True when a new game's edition is the pyramid's (``_take_board_edition``): no
    ``--edition`` typed, and ``--pyramid`` a port or ``auto``, whose board names its
    edition once opened (typed dice and the virtual pyramid name none)."""
    return (not args.resume and args.edition is None
            and args.pyramid not in (None, "manual", "virtual"))


def _first_edition(args, names):
    """``(edition, names)``: the edition a new game is made in before its pyramid is
    opened, and the players' ``names`` checked (``session.check_names``). ``--edition``'s
    when typed, else ``DEFAULT_EDITION``; but when the pyramid's edition will be played
    (``_reads_board_edition``), the first edition that takes these players when the
    default does not: they are judged by the pyramid's edition once it is known
    (``_take_board_edition``), not refused by the default's (maker s43, finding 1: a
    2-player table on a classic pyramid was refused by the second edition's 3..8).
    Raises ``CliError`` (``--players NAMES: ...``) when no edition it may play takes them."""
    from camelhost.commands.options import EDITION_CHOICES
    from camelhost.table.session import TableError, check_names

    first = args.edition or DEFAULT_EDITION
    others = [e for e in EDITION_CHOICES if e != first] if _reads_board_edition(args) else []
    try:
        return first, check_names(first, names)
    except TableError as exc:
        for edition in others:
            try:
                return edition, check_names(edition, names)
            except TableError:
                continue
        raise CliError(_("--players %(given)s: %(problem)s") % {"given": args.players,
                                                                  "problem": exc}) from None


def _refuse_journals_pseudo_terminal(args, header, options, uid=None):
    """``CliError`` when the journal ``args.resume`` (its ``game`` line ``header``) was played
    on a pseudo-terminal and no ``--pyramid`` was given: that terminal's number may be
    another program's now (the emulator that made it ended, a new terminal took the
    number), and asking it for a pyramid would write into that program's screen. The
    refusal names no number from the journal (it holds only the port the game began on,
    not the one it last ran on), changes nothing and gives the command with ``--pyramid
    PORT`` (``options``: the other words a resume repeats, ``--plain``, ``--lang``;
    ``--upto-damage`` and each ``--retype`` as given), the port filled in while a running
    ``pyramid emulate`` records its emulated Pico's (``sources.running_emulated_port``: the
    one whose record names the game's board ``uid``, the journal's ``board`` line, when
    several run), as the table's line for a lost port does; while several can be the
    game's board, the refusal names their ports (one of these)."""
    import shlex

    from camelhost.device import sources
    from camelhost.device.open import pseudo_terminal
    port = header.get("pyramid") or "manual"
    if not pseudo_terminal(port):
        return
    path = args.resume
    words = ["pyramid", "play", "--resume", path] + (["--upto-damage"] if args.upto_damage
                                                      else [])
    for text in getattr(args, "retype", None) or ():
        words += ["--retype", text]
    command = " ".join(shlex.quote(w) for w in
                       words + list(options) + ["--pyramid", sources.running_emulated_port(
                           port, uid) or port_word()])
    # no number from the journal keeps only the port the game began on (its game line), not
    # the one a resume went on with, which the maker last saw (tester s45, finding 5)
    fill = {"path": path, "command": command}
    several = sources.emulators_of(uid)
    if len(several) > 1 and sources.running_emulated_port(port, uid) is None:
        raise CliError(_("%(path)s was played on a pseudo-terminal (an emulated pyramid's), "
                         "whose number may be another program's terminal now, so a resume "
                         "opens one only when its port is given again; nothing was changed. "
                         "Continue with the port the emulator prints: %(command)s (or "
                         "--pyramid manual and type the dice). Emulated Picos run on "
                         "%(ports)s: this game's board may be one of these")
                       % dict(fill, ports=", ".join(several)))
    text = (_("%(path)s was played on a pseudo-terminal (an emulated pyramid's), whose "
              "number may be another program's terminal now, so a resume opens one "
              "only when its port is given again; nothing was changed. Continue with "
              "the port the emulator prints: %(command)s (or --pyramid manual and "
              "type the dice)") % fill)
    raise CliError(text)


def _port_to_suggest(spec, link=None):
    """The ``--pyramid`` a suggested command repeats: ``spec`` as given while it can still
    be the pyramid (``auto``, ``virtual``, ``manual``, a port that is there, a USB port
    gone, whose board plugged back takes that name again), else the placeholder ``PORT``:
    a pseudo-terminal (``/dev/pts/N``) that is gone, or whose pyramid ended (``link``,
    the table's ``Link``, lost it for good or found its path another program's): a
    pseudo-terminal never comes back, and its number goes to the next program that asks
    (docs/protocol.md, "Reconnecting"); one a running ``pyramid emulate`` recorded as its
    emulated Pico's port since (``open.emulated_pico_words``) is ``spec`` again, and the
    one emulated Pico running on another (``PyramidPresence.emulator``) is that port."""
    if spec in ("auto", "virtual", "manual"):
        return spec
    if link is not None:
        from camelhost.device.open import emulated_pico_words, presence
        try:
            now = presence(link)
        except AttributeError:  # no transport to ask (a stand-in link)
            now = None
        if now is not None and now.other == emulated_pico_words():
            return spec  # a running pyramid emulate recorded it: the table's resume on it
        if now is not None and now.emulator:
            return now.emulator  # an emulated Pico runs elsewhere now: the table's resume
        if now is not None and not now.present and (now.other or not now.reopened):
            return port_word()
    if spec.startswith("/dev/pts/") and not os.path.exists(spec):
        return port_word()
    return spec


def _typed_names(option, text):
    """The names of ``option`` (``"--players"`` or ``"--bots"``) given as ``text``, a
    list of strings (``camelhost.table.session.typed_names``: quotation marks read
    before the commas). Raises ``CliError`` (``--players TEXT: ...``, ``--bots TEXT:
    ...``) for a name that holds a comma."""
    from camelhost.table.session import TableError, typed_names
    try:
        return typed_names(text)
    except TableError as exc:
        said = (_("--players %(given)s: %(problem)s") if option == "--players"
                else _("--bots %(given)s: %(problem)s"))
        raise CliError(said % {"given": text, "problem": exc}) from None


def _bot_seats(text, names):
    """The seats (0-based, in the order given) of the comma-separated ``--bots`` names
    ``text`` among the players ``names``; ``CliError`` for a name not among them, naming
    the players and the nearest name (``camelhost.suggest.nearest``: case and
    accents folded), if one is near."""
    from camelhost.suggest import nearest
    from camelhost.table.bots import POLICIES, TABLE_POLICY
    from camelhost.table.session import player_name
    bots = []
    for b in [n for n in _typed_names("--bots", text) if n]:
        matches = [i for i, n in enumerate(names) if player_name(n).lower() == b.lower()]
        if not matches:
            starts = [n for n in names if player_name(n).lower().startswith(b.lower())]
            players = ", ".join(names)
            if b.lower() in POLICIES:
                # a policy, as pyramid tournament's --bots takes them: play's takes the
                # players' names, and its bots play the table's one policy (tester
                # s37tp finding 13)
                raise CliError(_("--bots names %(bot)r, who is not among the players "
                                 "(%(players)s): --bots takes players' names, e.g. --bots "
                                 "%(example)s; the bots' policy is always %(policy)s (pyramid "
                                 "tournament's --bots chooses policies)")
                               % {"bot": b, "players": players,
                                  "example": ",".join(names[1:3] or names),
                                  "policy": TABLE_POLICY})
            if len(starts) > 1:  # never one of them guessed
                raise CliError(_("--bots names %(bot)r, who is not among the players "
                                 "(%(players)s): it could be %(names)s; give the whole name")
                               % {"bot": b, "players": players,
                                  "names": _(" or ").join(starts)})
            meant = nearest(b, names)
            if meant is not None:
                raise CliError(_("--bots names %(bot)r, who is not among the players "
                                 "(%(players)s); did you mean %(near)s?")
                               % {"bot": b, "players": players, "near": meant})
            raise CliError(_("--bots names %(bot)r, who is not among the players (%(players)s)")
                           % {"bot": b, "players": players})
        bots.append(matches[0])
    return bots


def _retyped(text):
    """``None`` without ``--retype``, else the function ``Journal.resume`` calls with the
    events before the damaged line: the events ``text`` makes there, typed at the table as
    it stood then (``TableError``, a ``ValueError``, when it can't be taken there).
    ``text``: one command, or the list of those given (``--retype`` given twice, the same,
    confirms one that differs from what the damaged line reads: the function's
    ``confirmed``); ``CliError`` for two different ones."""
    if text is None:
        return None
    confirmed = False
    if isinstance(text, list):
        if len(set(" ".join(t.split()) for t in text)) > 1:
            raise CliError(_("--retype was given different commands (%s): give one, or the "
                             "same one twice to confirm it; nothing was changed")
                           % ", ".join(repr(t) for t in text), 2)
        text, confirmed = text[0], len(text) > 1

    def retype(before):
        from camelhost.table.journal import Journal
        from camelhost.table.session import Session, TableError
        memory = Journal()  # in memory: what the command journals is what takes the place
        memory.events = list(before)
        session = Session.resume(memory)
        if session.phase == "value" and text.strip() not in ("1", "2", "3"):
            # the damaged line can only be the value pressed for the die before it
            from camelhost.table.narration import die_name
            raise TableError(_("the line before it is the %s die, read without its value, so "
                               "the damaged line held the value pressed for it: give that "
                               "value alone, 1, 2 or 3 (--retype 2)")
                             % colours_in(die_name(session.pending_die)))
        session.command(text)
        return memory.events[len(before):]

    retype.confirmed = confirmed
    return retype


def _last_lang(header, lang):
    """``header`` (a journal's ``game`` line, or ``None``) with ``lang``, the language
    the journal last records (``read_last_lang``), as ``speak_journals_language`` reads
    it: a resume without ``--lang`` speaks the language last used (s38 tester 3)."""
    if header is None or lang is None:
        return header
    return dict(header, lang=lang)


def speak_journals_language(args, header):
    """On ``--resume`` without ``--lang``: speak the language the journal's ``game`` line
    records (``lang``, written since tester s31 finding 2), when this program has its
    catalogue; a journal without it (an older version's) keeps the locale's language.
    Returns True when that changed the language."""
    from camelhost.i18n import language, languages, set_language
    lang = (header or {}).get("lang")
    if getattr(args, "lang", None) is None and isinstance(lang, str) and lang in languages():
        changed = lang != language()
        set_language(lang)
        return changed
    return False


def _check_resume_options(args, header, path=None, view=NOT_READ):
    """``--resume`` plays on with the journal's edition, seats, bots and seed (its
    ``game`` line): a ``--players``, ``--edition``, ``--bots`` or ``--seed`` that differs
    from them is an error (``CliError``), never silently ignored; the same value is
    accepted. The journal has no event that hands a seat to a bot (or back), so a bot
    can't take over the seat of a player who left. ``path``: the journal's file, whose
    ``rename`` lines give the names as the table calls the players now
    (``camelhost.table.journal.read_names``): ``--bots`` names them so, and a refusal
    lists them so; ``--players`` may give them as they started or as they are now.
    ``view``: the journal's lines that count (``journal.verified``), when read already
    (``NOT_READ``: not yet)."""
    current = header["players"]
    if path and (args.players or args.bots is not None):
        from camelhost.table.journal import read_names
        from camelhost.table.session import Session
        # as the resume reads it
        current = (read_names(path, header, Session.stale_line) if view is NOT_READ
                   else read_names(path, header, Session.stale_line, view))
    if args.players:
        from camelhost.table.session import player_name
        names = _typed_names("--players", args.players)  # as a new table reads them
        if names not in ([player_name(n) for n in header["players"]],
                         [player_name(n) for n in current]):
            # the seats stay; a misspelt name is corrected at the table, journaled
            raise CliError(_("--players %(given)s conflicts with the journal's players "
                             "(%(players)s): leave it out with --resume (a name is corrected "
                             "at the table: rename OLD NEW)")
                           % {"given": ",".join(names), "players": ",".join(current)})
    if args.edition and args.edition != header["edition"]:
        raise CliError(_("--edition %(given)s conflicts with the journal's edition "
                         "(%(edition)s): leave it out with --resume")
                       % {"given": args.edition, "edition": header["edition"]})
    if args.bots is not None:
        import shlex
        names = current  # as the table calls them now: a rename may move a name to another seat
        kept = sorted(set(i for i in header.get("bots") or () if isinstance(i, int)))
        if sorted(set(_bot_seats(args.bots, names))) != kept:
            raise CliError(_("--bots %(given)s conflicts with the journal's bots (%(bots)s): "
                             "the journal keeps the seats as the game started, so a bot can't "
                             "take over a seat; leave it out with --resume")
                           % {"given": shlex.quote(args.bots),
                              "bots": ",".join(names[i] for i in kept if i < len(names))
                              or _("none")})
    if args.seed is not None and args.seed != header.get("seed", 1):
        raise CliError(_("--seed %(seed)d conflicts with the journal's seed (%(journal)s): "
                         "leave it out with --resume") % {"seed": args.seed,
                                                          "journal": header.get("seed", 1)})


def _pyramid_spec(args, journal):
    """The dice source: ``--pyramid``, else the journal's (on ``--resume``), else manual."""
    if args.pyramid:
        return args.pyramid
    if args.resume and journal.header:
        return journal.header.get("pyramid") or "manual"
    return "manual"


def _virtual_seed(args, session, journal):
    """The seed the virtual pyramid starts from: the game's, and on ``--resume`` one
    drawn from it and the releases the journal holds (``virtual.resumed_seed``), so that
    a resumed table goes on with dice it has not seen."""
    if not args.resume:
        return session.seed
    from camelhost.device.virtual import resumed_seed
    released = sum(1 for e in journal.events if e.get("type") in ("die", "rejected"))
    return resumed_seed(session.seed, released)


def unchecked_board_note(journal, session, port):
    """The line a resume says when its journal names no pyramid (no ``board`` line: an
    older version wrote it, or it was cut before the pyramid's first ``HELLO``): what
    can't be checked, and what the link goes by instead."""
    if session.last_pyramid_event is not None:
        return (_("%(path)s does not say which pyramid the game was played with (an older "
                  "version wrote it): the pyramid on %(port)s is not checked to be that one; "
                  "its dice are taken after the journal's last, event %(event)d of boot "
                  "%(boot)s")
                % {"path": journal.path, "port": port, "event": session.last_pyramid_event[1],
                   "boot": session.last_pyramid_event[0]})
    return (_("%(path)s does not say which pyramid the game was played with (an older version "
              "wrote it, or it was cut before the pyramid's first HELLO): the pyramid on "
              "%(port)s is not checked to be that one; its dice are taken from those no table "
              "took") % {"path": journal.path, "port": port})


def reserved_name_notes(session):
    """What a resume says of each player whose name (from a journal written before such
    names were refused) is a word some table reads as a colour or a command
    (``camelhost.table.session.reserved_name_problem``): one line each, with the
    ``rename`` that gives another name. The game resumes as it is; a line that starts
    with such a name is read as the player's where a command follows it (``Lila: leg
    rot``), as the colour or the command elsewhere (``lila 2``, ``undo``)."""
    from camelhost.table.session import reserved_name_problem, reserved_variant
    notes = []
    for name in session.names:
        problem = reserved_name_problem(name, session.names)
        if problem is not None:
            notes.append(_("a player of this journal: %(problem)s (type 'rename %(name)s "
                           "%(variant)s')") % {"problem": problem, "name": name,
                                               "variant": reserved_variant(name, session.names)})
    return notes


def resume_command(args, journal, spec, plain, link=None):
    """The command that reopens the game as it ran: ``pyramid play --resume FILE`` and
    the options the journal does not keep (its ``game`` line holds the edition, the
    seats, the seed, the bots and the pyramid of the start): ``--plain`` when the table
    ran in line mode (``plain``), ``--pyramid SPEC`` when the dice source ``spec``
    is not the journal's (``--pyramid PORT`` when its pseudo-terminal is gone now:
    ``_port_to_suggest``, ``link`` the table's link), ``--speak``, ``--web``, and ``--lang CODE`` when the table
    speaks another language than English (a German table resumes German on any
    locale). Each word quoted for a POSIX shell. The one source of that command: ``run``
    keeps it on ``journal.resume_command`` once the pyramid is open, and every line that
    names it reads it there (F1 help, a pyramid away, a full disk, the quit line, which
    asks again: the port may have gone meanwhile)."""
    import shlex

    from camelhost.web import DEFAULT_HOST, DEFAULT_PORT
    words = ["pyramid", "play", "--resume", journal.path]
    if plain:
        words.append("--plain")
    words += _lang_words(args)
    header = journal.header or {}
    from camelhost.device.open import pseudo_terminal
    known = getattr(getattr(link, "transport", None), "identity", None)
    # the virtual pyramid's own pseudo-terminal is no port a player names: it is made
    # anew on every start (--pyramid virtual, the journal's, needs no repeating)
    pty = spec not in ("virtual", "manual") and (pseudo_terminal(spec)
                                                 or getattr(known, "kind", None) == "pty")
    if _port_to_suggest(spec, link) != spec or pty:
        # a pseudo-terminal is named every time (a resume opens the journal's only when
        # given again), as PORT once it is gone: a resume there would open nothing, or
        # another program's terminal at the same number
        words += ["--pyramid", _port_to_suggest(spec, link)]
    elif spec != (header.get("pyramid") or "manual"):
        words += ["--pyramid", spec]
    if args.speak:
        words.append("--speak")
    if args.web is not None:
        words.append("--web")
        if args.web != "%s:%d" % (DEFAULT_HOST, DEFAULT_PORT):
            words.append(args.web)
    return " ".join(shlex.quote(w) for w in words)


def _lang_words(args):
    """``["--lang", code]`` for the language the table speaks when a resume would not
    speak it by itself: any language but English, and English chosen with ``--lang``
    (a German locale would otherwise turn the resumed table German); else ``[]``."""
    from camelhost.i18n import language
    code = language()
    if code != "en" or getattr(args, "lang", None):
        return ["--lang", code]
    return []


def quit_line(journal, command=None):
    """The last line of a game: where it is kept and the command that resumes it
    (``command``, from ``resume_command``; default ``pyramid play --resume FILE``)."""
    if command is None:
        import shlex
        command = "pyramid play --resume %s" % shlex.quote(journal.path)
    return _("game saved in %(path)s; continue it with: %(command)s") % {
        "path": journal.path, "command": command}


def _plain(args):
    """True when the table runs in plain line mode: ``--plain``, or input or output
    that is no terminal (the full screen can't read it)."""
    import sys
    return bool(args.plain) or not (sys.stdin.isatty() and sys.stdout.isatty())


def _board_hello(pyramid):
    """The board's full ``HELLO`` (a ``protocol.Message``), waited for as ``pyramid
    monitor`` waits (``HELLO_TIMEOUT`` s times the board's slowness); ``None`` for typed
    dice, the virtual pyramid (made with the game's dice) or a board whose ``HELLO`` is
    that late (the table records it when it comes). A board refused meanwhile (another
    protocol, MicroPython's prompt): the pyramid is closed and ``CliError`` raised, its
    own line."""
    from camelhost.device.link import LinkError, NotAPyramid
    from camelhost.tools.monitor import HELLO_TIMEOUT

    link = pyramid.link
    if link is None or pyramid.virtual is not None or not hasattr(link, "wait_hello"):
        return None
    try:
        return link.wait_hello(HELLO_TIMEOUT * max(1.0, link.slowness))
    except NotAPyramid as exc:  # refused meanwhile: its own line
        pyramid.close()
        raise CliError(str(exc)) from None
    except LinkError:
        return None


def board_edition(pyramid):
    """The name of the edition the pyramid is set to (``classic``, ``second``: its full
    ``HELLO``'s ``ed``, ``_board_hello``), or ``None`` when it can't be told (typed dice,
    the virtual pyramid, a late ``HELLO``) or names no edition this program plays. What
    a new game without ``--edition`` plays (tester s42, finding 1)."""
    from camelhost.commands.options import EDITION_CHOICES
    hello = _board_hello(pyramid)
    ed = hello.get("ed") if hello is not None else None
    return ed if ed in EDITION_CHOICES else None


def _check_board_edition(pyramid, edition, typed=False, resume=False):
    """Refuse a pyramid set to another edition than the game's (s36 tester, finding 5): its
    profile reads other dice, so the table would refuse or misname them one by one. The
    same facts as ``pyramid monitor`` and ``doctor`` say (``camelhost.tools.monitor``),
    on the board's full ``HELLO`` (``_board_hello``), each refusal one line whose fix is
    not refused next (tester s45, finding 4):

    - an emulated Pico whose firmware runs another edition than the dice in its table
      (``monitor.emulated_edition_apart``): that fact, with the way that plays
      ``edition`` (calibrate with its port for the dice's, emulate for the firmware's),
      or both ways for a new game without ``--edition``;
    - an emulated Pico holding another edition's dice than ``edition``
      (``monitor.check_emulated_dice``);
    - a board set to another edition: the fix, calibrate with its port.

    ``typed``: ``edition`` is ``--edition`` as typed for a new game: the refusal quotes it
    and offers first to play the board's edition (tester s42, finding 1); ``resume``: the
    journal's edition, said as the game's. Neither: a new game without ``--edition``,
    playing the board's. The pyramid is closed when refused. Raises ``CliError``."""
    from types import SimpleNamespace

    from camelhost.i18n import edition_word
    from camelhost.tools import monitor

    hello = _board_hello(pyramid)
    if hello is None:
        return
    board = hello.get("ed")
    shown = SimpleNamespace(virtual=None, hello=hello, port=pyramid.port)
    words = {"asked": edition, "word": edition_word(edition), "port": pyramid.port,
             "board": edition_word(board), "name": board,
             "calibrate": with_port("calibrate", pyramid.port, "--edition", edition)}
    try:
        apart = monitor.emulated_edition_apart(shown, edition if typed or resume else None)
        if apart is not None:
            line = "%s: %s" % apart
            raise CliError(_("--edition %(asked)s: %(line)s") % {"asked": edition, "line": line}
                           if typed else line)
        dice = monitor.emulated_dice(shown)
        if typed or dice in (None, edition):
            monitor.check_emulated_dice(shown, edition, "play")
        else:  # a resume: its edition is the journal's
            raise CliError(_("this game is the %(word)s edition's, but the dice in the emulated "
                             "Pico on %(port)s are the %(dice)s edition's; to resume it, "
                             "%(emulate)s") % dict(words, dice=edition_word(dice),
                                                   emulate=monitor.emulate_again(
                                                       pyramid.port, edition)))
        if board == edition:
            return
        if typed and board in EDITION_CHOICES:
            raise CliError(_("--edition %(asked)s: the pyramid is set to the %(board)s "
                             "edition: play its edition with --edition %(name)s (or leave "
                             "--edition out), or set the pyramid to the %(word)s edition with "
                             "%(calibrate)s") % words)
        if typed:
            raise CliError(_("--edition %(asked)s: the pyramid is set to the %(board)s "
                             "edition (%(calibrate)s sets it)") % words)
        raise CliError(_("this game is the %(word)s edition's, but the pyramid on %(port)s is "
                         "set to the %(board)s edition: %(calibrate)s sets it") % words)
    except CliError:
        pyramid.close()
        raise


def _take_board_edition(args, pyramid, session, journal):
    """A new game started without ``--edition`` on a pyramid (a port or ``auto``) plays
    the edition the pyramid is set to (``board_edition``), as doctor, monitor and
    calibrate take the board's own: returns ``(session, journal, line)``, the game made
    again in that edition when it is not the one the game was first made in
    (``_first_edition``; the first one's journal, holding only its ``game`` line,
    removed), and ``line`` the opening line that says which edition is played (``None``
    when the board's can't be told: ``DEFAULT_EDITION`` is played, and the board is
    checked as for any game). ``CliError`` when the players don't fit the edition played
    (the pyramid closed): naming the edition the pyramid is set to, and how to set it to
    the one they fit (maker s43, finding 1)."""
    import copy

    from camelhost.i18n import edition_word
    from camelhost.table.session import TableError, check_names
    edition = board_edition(pyramid)
    played = edition or DEFAULT_EDITION  # a board that names none: the default's
    if played != session.edition.name:
        if edition is not None:  # the players judged by the edition the pyramid is set to
            try:
                check_names(edition, session.names)
            except TableError as exc:
                pyramid.close()
                raise CliError(_("--players %(players)s: %(why)s, the edition the pyramid on "
                                 "%(port)s is set to; to play the %(other)s edition, set the "
                                 "pyramid to it with %(calibrate)s")
                               % {"players": args.players, "why": exc, "port": pyramid.port,
                                  "other": edition_word(session.edition.name),
                                  "calibrate": with_port("calibrate", pyramid.port, "--edition",
                                                         session.edition.name)}) from None
        again = copy.copy(args)
        again.edition = played
        _discard_unused(journal)
        try:
            session, journal = open_session(again)
        except BaseException:
            pyramid.close()
            raise
    if edition is None:
        return session, journal, None
    line = (_("playing the %(word)s edition, the one the pyramid on %(port)s is set to "
              "(--edition chooses)") % {"word": edition_word(edition), "port": pyramid.port})
    return session, journal, line


def run(args):
    import sys

    from camelhost.device.open import open_pyramid
    from camelhost.tools.monitor import quiet_link_log
    _check_options(args)  # before anything is said or opened
    # the link's own warnings (silence, damaged lines) are English details for whoever
    # debugs the link: the table says what matters in its own words (tester s33-2 F7)
    quiet_link_log(getattr(args, "verbose", False))
    speaker = None
    plain = _plain(args)
    #: lines the full screen shows first in its history (s36tp 12: printed before it
    #: opens, nobody would read them); plain mode prints them where it always did
    notices = []
    silent = None  # the speaker that found no espeak-ng (full screen: said in its history)
    if args.speak:
        from camelhost.table.speaker import Speaker
        speaker = Speaker()
        if not speaker.available:
            if plain:
                print(speaker.missing, file=sys.stderr)
                speaker = None
            else:  # said first in the history; kept, so that F1 says it too
                silent = speaker
    # the journal --resume chose: plain mode prints it, the full screen's history shows it
    session, journal = open_session(args, said=None if plain else notices)
    if silent is not None:  # worded now: in the language the table speaks (a resume's)
        notices.append(silent.missing)
    spec = _pyramid_spec(args, journal)
    board = session.board
    try:
        # the pyramid forgets an event once acknowledged: only what the journal holds;
        # a resumed game takes dice only from the board it was played with
        pyramid = open_pyramid(spec, session.edition.name, _virtual_seed(args, session, journal),
                               resume=session.resume_point,
                               taken=lambda: session.last_pyramid_event,
                               uid=board.uid if board is not None else None,
                               played_on=(journal.header or {}).get("pyramid"))
        edition_line = None
        if not args.resume and args.edition is None:  # the edition the pyramid is set to
            session, journal, edition_line = _take_board_edition(args, pyramid, session, journal)
        _check_board_edition(pyramid, session.edition.name,
                             typed=not args.resume and args.edition is not None,
                             resume=bool(args.resume))
    except BaseException:
        if args.resume:
            journal.close()
        else:
            _discard_unused(journal)
        raise
    if edition_line is not None:  # which edition is played: the pyramid's, not a default
        print(edition_line) if plain else notices.append(edition_line)
    if args.resume and board is None and spec not in ("manual", "virtual"):
        journal.notes.append(unchecked_board_note(journal, session, pyramid.port))
    if args.resume:
        journal.notes += reserved_name_notes(session)
    from camelhost.tools.monitor import apart_at_start
    apart = apart_at_start(pyramid)  # the board runs other settings than its profile's
    if apart:  # said, and the game starts
        print(apart) if plain else notices.append(apart)
    from camelhost.web import serving
    if journal.path:
        # the one command every line that names it says (F1 help, a pyramid away, a full
        # disk, the quit line): the game reopens as it runs, on the pyramid it opened
        journal.resume_command = resume_command(args, journal, spec, plain, pyramid.link)
    from camelhost.table.display import Seam
    with contextlib.ExitStack() as stack:
        stack.enter_context(journal)
        stack.enter_context(pyramid)
        seam = Seam(session)  # the one fan-out to every display of this table
        stack.callback(seam.close)
        try:
            # the journal's game id: a resumed game serves its address again
            board = stack.enter_context(serving(args.web, seam, game=journal.game_id
                                                if journal.path else None))
        except BaseException:
            if not args.resume:
                _discard_unused(journal)  # nothing was played: no journal left to block a retry
            raise
        if not args.resume and args.seed is None:
            # only now: every argument was good, the dice source and the board are open
            seed = _("seed: %(seed)d (play this race again with --seed %(seed)d)") % {
                "seed": session.seed}
            if plain:
                print(seed)
            else:
                notices.append(seed)
        from camelhost.table.journal import JournalFull
        full = False
        try:
            return _play(args, session, journal, pyramid, spec, speaker, board, plain, seam,
                         notices)
        except JournalFull:  # its own line says the game is safe and how to go on: alone
            full = True
            raise
        finally:
            if journal.path and not full:
                # as the table stands now: its port may have gone meanwhile
                journal.resume_command = resume_command(args, journal, spec, plain,
                                                        pyramid.link)
                print(quit_line(journal, journal.resume_command))


def _play(args, session, journal, pyramid, spec, speaker, board, plain, seam, notices=()):
    """Run the table (plain lines or the full screen) until the players leave; every
    display subscribes to ``seam`` (the web board already has). ``notices``: lines the
    full screen shows first in its history (plain mode printed them already)."""
    import sys

    from camelhost.web import wait_for_enter
    if plain and not args.plain:
        # piped input or output: the full screen can't read it; say so and go plain
        print(_("not a terminal: playing in plain line mode (--plain)"), file=sys.stderr)
    if plain:
        from camelhost.table.controller import Table
        from camelhost.ui.loop import run_plain
        from camelhost.ui.plain import PlainDisplay
        display = PlainDisplay()
        table = Table(session, display, pyramid=pyramid.virtual,
                      manual=pyramid.manual, link=pyramid.link,
                      auto_setup=spec == "virtual", speaker=speaker, seam=seam)
        try:  # typed at a terminal: people read it, every card on a pile is face down
            table.watched = sys.stdin.isatty()
        except (AttributeError, ValueError):
            table.watched = False
        # and a refused line, or what show/odds/best answer, brings the prompt again,
        display.reprompt = table.watched
        display.asking = lambda: table.private is not None  # but a finish card's colour
        print(_("journal: %s") % journal.path)
        try:
            return run_plain(table, events=pyramid.events())
        except KeyboardInterrupt:  # Ctrl-C leaves as 'quit' and Ctrl-D do
            print()
            return 0
        except RuntimeError as exc:  # the virtual pyramid's board stopped
            raise CliError(_("%(why)s; the game is safe in %(path)s; continue it with: "
                             "%(command)s")
                           % {"why": str(exc).strip().splitlines()[0], "path": journal.path,
                              "command": journal.resume_command or "pyramid play --resume %s"
                              % journal.path}) from None
    from camelhost.table.controller import Table
    from camelhost.ui.tui import TableApp
    # the full screen would hide the LAN address and its QR code (loopback: no pause)
    wait_for_enter(board, lan_only=True)
    table = Table(session, None, pyramid=pyramid.virtual, manual=pyramid.manual,
                  link=pyramid.link, auto_setup=spec == "virtual", speaker=speaker, seam=seam)
    app = TableApp(table, events=pyramid.events(),  # a display of the table, as plain's
                   web_url=board.url if board is not None else None, notices=notices)
    app.run()
    if app.return_code:  # an error stopped the full screen (Textual printed it above)
        raise CliError(_("the full screen stopped on an error (its traceback is above)"),
                       exit_code=app.return_code)
    return 0
