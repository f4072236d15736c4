"""``pyramid demo``: bots take every seat, the virtual pyramid releases the dice over
its pty, the plain display narrates the race and the final scores end it.

The game goes to a journal file only with ``--journal FILE`` (then ``pyramid replay
FILE`` shows it again); without it the journal stays in memory and no file is left
behind: the same ``--edition``, ``--seed`` and ``--seats`` play the same game again."""

import os

from camelhost.commands.options import (
    add_edition_argument,
    add_journal_argument,
    add_old_spelling,
    add_seats_argument,
    add_seed_argument,
    metavar,
    seat_names,
)
from camelhost.i18n import N_, _, edition_word

HELP = N_("bots play a whole game against the virtual pyramid")

def add_arguments(parser):
    add_edition_argument(parser, _("the edition the bots play"))
    add_seed_argument(parser, _("seed of the setup, the dice and the bots"))
    add_seats_argument(parser)
    add_journal_argument(parser, _("none, the game stays in memory; give one to replay it"))
    parser.add_argument("--quiet", action="store_true", help=_("print only the final scores"))
    parser.add_argument("--push-wait", type=float, default=30.0, metavar=metavar("SECONDS"),
                        help=_("how long to wait for the pyramid's die after a push of its "
                               "slider, in seconds (default 30 s)"))
    # the same wait as doctor's --push-wait, spelt the same (options.add_old_spelling)
    add_old_spelling(parser, "--wait", "--push-wait", "push_wait", type=float)
    from camelhost.web import add_web_argument
    add_web_argument(parser)


def _quiet(inner):
    """A display that keeps only the final scores line (``--quiet``)."""
    from camelhost.ui import plain

    class Quiet(plain.Display):
        def notices(self, notices, view):
            names = [p["name"] for p in view["players"]]
            for n in notices:
                if n["kind"] == "final":
                    f = n["final"]
                    inner.text(plain.final_scores_line(names, f["coins"], f["winners"]))

        def error(self, message):
            inner.error(message)

    return Quiet()


def run(args):
    import contextlib

    from camelup.editions import get_edition

    from camelhost.device.open import open_pyramid
    from camelhost.errors import CliError
    from camelhost.i18n import language
    from camelhost.table.controller import Table
    from camelhost.table.display import Seam
    from camelhost.table.journal import Journal, new_path_problem
    from camelhost.table.session import Session, TableError
    from camelhost.ui.loop import run_plain
    from camelhost.ui.plain import PlainDisplay
    from camelhost.web import serving, wait_for_enter
    edition = get_edition(args.edition)
    if not edition.min_players <= args.seats <= edition.max_players:
        raise CliError(_("--seats must be %(fewest)d to %(most)d for the %(edition)s edition, "
                         "not %(seats)d") % {"fewest": edition.min_players,
                                             "most": edition.max_players,
                                             "edition": edition_word(edition),
                                             "seats": args.seats})
    if not args.push_wait > 0:
        raise CliError(_("--push-wait must be a positive number of seconds, not %g")
                       % args.push_wait)
    path = args.journal  # None: the journal in memory only, no file left behind
    if path is None:
        pass
    elif new_path_problem(path):
        raise CliError(new_path_problem(path))
    elif os.path.exists(path) and os.path.getsize(path) > 0:
        from camelhost.table.journal import is_game_journal
        if not is_game_journal(path):  # as play says it: any other file is never a game
            raise CliError(_("%s is not empty and holds no game: give another --journal "
                             "(nothing was changed)") % path)
        raise CliError(_("%s already holds a game; give another --journal") % path)
    names = seat_names(args.seats)
    with contextlib.ExitStack() as stack:
        # the dice source and language named, as play's journal does: a demo stopped
        # midway resumes on the virtual pyramid, in its language (s36 tester 15)
        journal = stack.enter_context(Journal(path, pyramid="virtual", lang=language()))
        try:
            session = Session(args.edition, names, seed=args.seed, bots=range(args.seats),
                              journal=journal)
        except TableError as exc:
            raise CliError(str(exc)) from None
        seam = Seam(session)  # the one fan-out: the lines below and the web board
        stack.callback(seam.close)
        try:
            board = stack.enter_context(serving(args.web, seam))
        except CliError:
            journal.close()
            if path is not None:
                os.unlink(path)  # only its game line: nothing was played
            raise
        display = PlainDisplay(prompts=False)  # nobody types in a demo
        if args.quiet:
            display = _quiet(display)
        else:
            print(_("Camel Up demo: %(edition)s edition, seed %(seed)d, %(bots)d bots, dice "
                    "from the virtual pyramid") % {"edition": edition_word(args.edition),
                                                   "seed": args.seed, "bots": args.seats})
        with open_pyramid("virtual", args.edition, args.seed) as pyramid:
            table = Table(session, display, pyramid=pyramid.virtual, auto_setup=True,
                          seam=seam, link=pyramid.link)
            try:
                run_plain(table, lines=False, events=pyramid.events(), stop_when_over=True,
                          wait_s=args.push_wait)
            except KeyboardInterrupt:
                if path is not None and session.phase != "over":  # how to go on with it
                    print()
                    print(_resumable(path))
                raise
            except (RuntimeError, TimeoutError) as exc:
                where = path or _("in memory only: give --journal FILE to keep one")
                raise CliError(_("the virtual pyramid failed: %(why)s (journal: %(journal)s)")
                               % {"why": str(exc).strip().splitlines()[0],
                                  "journal": where}) from None
        if session.phase != "over":
            raise CliError(_("the demo stopped before the end of the race"))
        if path is not None:
            print(_("journal: %s") % path)
        else:
            print(_("no journal kept (--journal FILE keeps one for pyramid replay; the same "
                    "--seed plays this game again)"))
        wait_for_enter(board, _("the race is over; press Enter to close the scoreboard"))
    return 0


def _resumable(path):
    """The line a demo stopped midway with ``--journal`` ends with: where the game is
    kept and the command that plays it on (plain lines, the virtual pyramid the
    journal names, the demo's language)."""
    import shlex
    from types import SimpleNamespace

    from camelhost.commands.play import quit_line
    from camelhost.i18n import language
    words = ["pyramid", "play", "--resume", path, "--plain"]
    if language() != "en":
        words += ["--lang", language()]
    return quit_line(SimpleNamespace(path=path), " ".join(shlex.quote(w) for w in words))
