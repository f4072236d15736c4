"""``pyramid replay FILE``: show a finished (or interrupted) game from its journal,
in the plain line form, then the table as it stands at the end.

A viewer: it never changes the file. A damaged line, or an event that no longer
applies, ends the replay there with one line naming it, said once, as the last line,
under the table it leaves and the next turn the note's advice is for (``pyramid play
--resume FILE --upto-damage`` is what sets the rest aside)."""

from camelhost.commands.options import metavar
from camelhost.i18n import N_, _, edition_word

HELP = N_("show a finished or interrupted game from its journal")


def add_arguments(parser):
    parser.add_argument("file", metavar=metavar("FILE"),
                        help=_("journal file written by pyramid play or pyramid demo, or a "
                               "folder: its newest journal"))
    parser.add_argument("--brief", action="store_true",
                        help=_("only each earlier race's result and the table at the end, "
                               "not every event"))
    from camelhost.web import add_web_argument
    add_web_argument(parser)


def _print(line):
    """One line to stdout; a reader that went away (``| head``) ends the replay quietly."""
    print(line, flush=True)


def newest_journal(folder):
    """The newest journal in ``folder`` (``*.jsonl``, newest by the time it was last
    written, to the second; finished or not: a replay shows either).
    ``CliError`` (one line) when the folder can't be read, holds no journal, or holds
    several games whose files were last written in the same second (``play.same_second``:
    their names listed in that line, so that the reader chooses, never this program). As ``pyramid play --resume FOLDER`` chooses
    (``play.newest_unfinished``), without its condition that the race goes on; copies of
    one game are one, whatever their files' times (``play.copies_of_one_game``,
    ``play.with_older_copies``: a backup made after the game was saved is no newer
    journal). Returns ``(path, copies)``,
    ``copies`` what the line naming it adds of the copies beside it ("" when none)."""
    from camelhost.commands.play import journals_in, same_second
    from camelhost.errors import CliError
    try:
        written = journals_in(folder)
    except OSError as exc:
        raise CliError(_("%(folder)s: the folder can't be read (%(why)s)")
                       % {"folder": folder, "why": exc.strerror or exc}) from None
    if not written:
        raise CliError(_("%s is a folder with no journal in it (*.jsonl): give FILE") % folder)
    newest = max(second for second, _path in written)
    found = [path for second, path in written if second == newest]
    one = None
    from camelhost.commands.play import copies_of_one_game, journal_bytes, with_older_copies
    try:
        group = [(path, journal_bytes(path)) for path in found]
    except OSError:
        group = None
    if group is not None:  # copies of one game (a backup beside it, whenever made) are one
        older = sorted(((s, p) for s, p in written if s < newest), key=lambda item: -item[0])
        group = with_older_copies(group, [path for _s, path in older])
        found = [path for path, _data in group]
        one = copies_of_one_game(group) if len(group) > 1 else None
    if one is not None:
        return found[one[0]], one[1]
    if len(found) > 1:
        raise CliError(_("%(folder)s: %(count)d journals %(same_second)s: %(journals)s; give the "
                         "one to show: pyramid replay FILE")
                       % {"folder": folder, "count": len(found), "same_second": same_second(),
                          "journals": ", ".join(found)})
    return found[0], ""


def _journal_events(path, args):
    """The events of the journal at ``path`` up to its first damaged line, and the lines
    saying where the replay stops early, if it does (the file stays as it is). Without
    ``--lang`` (in ``args``) the replay speaks the language the journal records, as
    ``pyramid play --resume`` does (its first line's ``lang``, read even when that line is
    damaged). Raises ``CliError`` for a missing or empty file (a folder is read as its
    newest journal before this, ``newest_journal``)."""
    import os

    from camelhost.commands.play import speak_journals_language
    from camelhost.errors import CliError
    from camelhost.table.journal import read_events, read_last_lang
    from camelhost.table.session import Session
    if os.path.isfile(path):  # the language the table last spoke (a resume's --lang)
        speak_journals_language(args, {"lang": read_last_lang(path, Session.stale_line)})
    if not os.path.exists(path):
        raise CliError(_("%s: No such file (give a journal written by pyramid play or pyramid demo)")
                       % path)
    notes = []
    events = read_events(path, upto_damage=True, notes=notes, check=Session.stale_line)
    if not events:
        raise CliError(_("%s: the journal is empty") % path)
    return events, notes


def _replayed(events, path, brief):
    """The session ``events`` leave, printing every notice as it came (or, ``brief``, only
    each earlier race's result that still stands, its final scores or its unscored end:
    the one an undo took back is forgotten again)."""
    from camelhost.table.session import Session
    from camelhost.table.view import table_view
    from camelhost.ui import plain

    def each(event, notices, session):
        # event by event, so each notice is shown with the state it left behind
        view = table_view(session, odds=False)
        for n in notices:
            for line in plain.notice_lines(n, view, past=True):
                _print(line)

    finals = {}  # race number: its final lines, while its result stands (brief)

    def results(event, notices, session):
        for n in notices:
            if n["kind"] in ("final", "unscored"):
                finals[n["race"]] = plain.notice_lines(
                    n, table_view(session, odds=False), past=True)
        if session.phase not in ("over", "unscored"):
            finals.pop(session.race_no, None)

    session = Session.from_events(events, path, results if brief else each)
    for race in sorted(finals):
        if race < session.race_no:  # an earlier race: the table at the end is another
            for line in finals[race]:
                _print(line)
    return session


def _print_where_it_stops(session, notes):
    """The table where the journal leaves it, the next turn (no prompt: replay takes no
    input), and where the replay stopped early, said once as the last line: what stays in
    view after a long replay, right under the turn its advice ('type it again') is for."""
    from camelhost.table.view import table_view
    from camelhost.ui import plain
    view = table_view(session, odds=False)
    for line in plain.status_lines(view):
        _print(line)
    if view["phase"] == "over":
        _print(_("The race is over."))
    else:
        if view["phase"] == "unscored":  # said here too: the status lines do not say it
            _print(_("Race %d ended unscored: its last leg and the finish piles were not "
                     "scored.") % session.race_no)
        line = plain.prompt_line(view)
        _print(_("Next: %s") % line[2:] if line.startswith("> ") else line)
    for line in notes:
        _print(line)


def run(args):
    import contextlib
    import os
    import sys
    if os.path.isdir(args.file):
        path, copies = newest_journal(args.file)
        from camelhost.commands.play import speak_journals_language
        from camelhost.table.journal import read_last_lang
        from camelhost.table.session import Session
        speak_journals_language(args, {"lang": read_last_lang(path, Session.stale_line)})  # as the replay speaks
        _print(_("replaying the newest journal in %(folder)s: %(path)s") % {
            "folder": args.file, "path": path} + copies)
        args.file = path
    events, notes = _journal_events(args.file, args)
    head = events[0]
    board = contextlib.ExitStack()
    if args.web is not None:
        from camelhost.web import serving_replay
        # the address first: a bad or busy one is refused before the game is printed
        board.enter_context(serving_replay(args.web, events))
    try:
        _print(_("Journal %(path)s: %(edition)s edition, players %(players)s") % {
            "path": args.file, "edition": edition_word(head["edition"]),
            "players": ", ".join(head["players"])})
        session = _replayed(events, args.file, args.brief)
        _print_where_it_stops(session, notes)
        if args.web is not None:
            from camelhost.web import wait_until_interrupted
            # the board closes while Ctrl-C is still caught: more of them end it quietly
            wait_until_interrupted(then=board.close)
    except BrokenPipeError:
        # the reader closed the pipe: nothing more to show, and no complaint at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        board.close()
    return 0
