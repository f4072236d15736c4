"""The ``pyramid`` command: a table of subcommands, one error path.

Every subcommand lives in ``camelhost.commands.<name>``. Errors a user can act on
(``CliError``, ``ValueError`` from parsing, ``OSError`` from ports and files) are
printed once as ``pyramid: message`` on stderr with a non-zero exit, never as a
traceback.
"""

import argparse
import importlib
import sys

from camelhost import __version__
from camelhost.commands.options import metavar
from camelhost.errors import CliError
from camelhost.i18n import N_, _, languages, ngettext, set_language

#: name -> one-line help (translated where it is shown). Order is the order shown by
#: ``pyramid --help``.
COMMANDS = [
    ("play", N_("track a real game at the table (pyramid on USB, virtual, or dice typed in)")),
    ("demo", N_("bots play a whole game against the virtual pyramid")),
    ("replay", N_("show a finished or interrupted game from its journal")),
    ("check", N_("run scenario files against the rules engine")),
    ("odds", N_("exact leg odds, race odds and action values for a position")),
    ("tournament", N_("seeded games between bot policies: win shares and coins")),
    ("calibrate", N_("guided colour calibration of the pyramid's sensor")),
    ("monitor", N_("live sensor readings and classification, for checking a build")),
    ("flash", N_("compile the firmware with mpy-cross and copy it with mpremote")),
    ("doctor", N_("bring-up checklist of a pyramid: versions, sensor, LED, slider")),
    ("emulate", N_("the firmware on an emulated Raspberry Pi Pico, on a serial port")),
    ("rules", N_("print the rules reference, or the section an error cites (rules 3.8)")),
]


#: argparse's own error words (Python 3.11's msgids, as argparse spells them), marked
#: for the catalogue so that a refused command line is said in the table's language.
#: argparse looks them up with its module's ``_`` and ``ngettext`` (gettext's
#: process-wide domain, not ours): ``_argparse_through_the_catalogue`` points those two
#: names at the table's catalogue; a message missing here stays English.
ARGPARSE_WORDS = (
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
)


def _argparse_plural(n):
    """argparse's one plural (an option with ``nargs=N`` given too few), marked for the
    catalogue; argparse asks ``ngettext`` for it itself."""
    return ngettext("expected %s argument", "expected %s arguments", n) % n


def _argparse_through_the_catalogue():
    """Make argparse say its errors (and ``usage:``, its headings) in the table's
    language: its module-level ``_`` and ``ngettext``, read at each call, become the
    catalogue's. English, the source language, reads exactly as argparse's own."""
    argparse._ = _
    argparse.ngettext = ngettext


#: the help of ``--lang`` (the top level's and every command's)
LANG_HELP = N_("the table's language: en (the default) or de; without it "
               "the locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)")
#: the refusal of a ``--lang`` the catalogue lacks (before and after the command's name)
NO_LANGUAGE = N_("--lang %(lang)s: no such language here (%(languages)s)")


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """An ``argparse`` parser whose own words come in the table's language too: the
    ``usage:`` line, the ``positional arguments`` and ``options`` headings and the help
    of ``-h`` (set here, as the parser is built), and its error messages
    (``ARGPARSE_WORDS``, through ``_argparse_through_the_catalogue``)."""

    def __init__(self, *args, add_help=True, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, add_help=False, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if add_help:
            self.add_argument("-h", "--help", action="help",
                              help=_("show this help message and exit"))


def _load(name):
    try:
        return importlib.import_module("camelhost.commands." + name)
    except ModuleNotFoundError as exc:
        if exc.name == "camelhost.commands." + name:
            raise CliError(_("command %r is not available in this build") % name) from None
        raise


def build_parser():
    """Return the top-level ``argparse`` parser; subcommand options load lazily. Its
    help is in the language in force (``main`` chooses it first, ``language_in``)."""
    parser = Parser(
        prog="pyramid",
        description=_("Camel Up smart pyramid: table program, odds and pyramid tools."),
    )
    parser.add_argument("--version", action="version", version="pyramid " + __version__,
                        help=_("show program's version number and exit"))
    parser.add_argument("--lang", metavar=metavar("LANG"), default=None, help=_(LANG_HELP))
    sub = parser.add_subparsers(dest="command", metavar=metavar("COMMAND"))
    for name, help_text in COMMANDS:
        sub.add_parser(name, help=_(help_text), add_help=False)
    return parser


def _quiet_stdout():
    """Point stdout at the null device, so the flush at exit after a broken pipe
    raises nothing."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is no file (captured in a test)
        pass


def language_in(argv):
    """The language ``argv`` asks for with ``--lang CODE`` or ``--lang=CODE`` (the last
    one wins, as argparse reads it), or None (then the locale decides). Read before any
    parser is built, so ``--help`` comes in that language; the parser checks the code
    afterwards (an unknown one is refused there)."""
    lang = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg[len("--lang="):]
    return lang


def _command_first(argv):
    """``argv`` with a ``--lang`` given before the command moved after it
    (``pyramid --lang de play`` is ``pyramid play --lang de``); anything else as it is."""
    front = []
    rest = list(argv)
    while rest:
        if rest[0] == "--lang" and len(rest) > 1:
            front, rest = front + rest[:2], rest[2:]
        elif rest[0].startswith("--lang="):
            front, rest = front + rest[:1], rest[1:]
        else:
            break
    if front and rest and rest[0] in dict(COMMANDS):
        return rest[:1] + front + rest[1:]
    return argv


def typed_command(argv):
    """The word typed where ``argv`` (the arguments after ``pyramid``) has its command:
    the first one after any ``--lang CODE`` / ``--lang=CODE``, or ``None`` when there is
    none or an option comes there (``--help``, ``--version``: argparse answers those)."""
    rest = list(argv)
    while rest and (rest[0] == "--lang" or rest[0].startswith("--lang=")):
        rest = rest[2:] if rest[0] == "--lang" else rest[1:]
    if not rest or rest[0].startswith("-"):
        return None
    return rest[0]


def unknown_command(word):
    """The one line ``pyramid WORD`` is refused with when ``word`` is no command: the
    command it is a slip of (``plya``: ``play``; ``camelhost.suggest.nearest``, the
    matcher of every "did you mean"), else the commands to choose from (``foo``)."""
    from camelhost.suggest import nearest

    names = [name for name, _help in COMMANDS]
    near = nearest(word, names)
    if near:
        return _("unknown command %(typed)r; did you mean %(near)r? (pyramid --help lists "
                 "them)") % {"typed": word, "near": near}
    return _("unknown command %(typed)r; the commands are %(commands)s (pyramid --help says "
             "what each does)") % {"typed": word, "commands": ", ".join(names)}


def main(argv=None):
    """Entry point of the ``pyramid`` console script; returns the exit status."""
    argv = _command_first(list(sys.argv[1:] if argv is None else argv))
    lang = language_in(argv)
    # the help texts are translated as the parsers are built: choose the language first
    # (every run chooses again: tests call main in one process)
    set_language(lang if lang in languages() else None)
    _argparse_through_the_catalogue()
    parser = build_parser()
    if not argv or argv[0] not in dict(COMMANDS):
        if lang is not None and lang not in languages():
            print("pyramid: %s" % _(NO_LANGUAGE)
                  % {"lang": lang, "languages": ", ".join(languages())}, file=sys.stderr)
            return 1
        word = typed_command(argv)
        if word is not None:  # no command: one line, the slip's command or the list (exit 2)
            print("pyramid: %s" % unknown_command(word), file=sys.stderr)
            return 2
        parser.parse_args(argv)  # --help, --version, or a usage error (exit 2)
        parser.print_help()
        return 2
    name = argv[0]
    try:
        module = _load(name)
        sub = Parser(prog="pyramid " + name, description=_(module.HELP))
        sub.add_argument("--lang", metavar=metavar("LANG"), default=None, help=_(LANG_HELP))
        module.add_arguments(sub)
        args = sub.parse_args(argv[1:])
        if args.lang is not None and args.lang not in languages():
            raise CliError(_(NO_LANGUAGE)
                           % {"lang": args.lang, "languages": ", ".join(languages())})
        set_language(args.lang)  # every run chooses again (tests call main in one process)
        return int(module.run(args) or 0)
    except CliError as exc:
        print("pyramid: %s" % exc, file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        # the reader went away (`pyramid rules | head`): stop quietly, as cat does
        _quiet_stdout()
        return 141
    except OSError as exc:
        print("pyramid: %s" % os_error_line(exc), file=sys.stderr)
        return 1
    except ValueError as exc:
        # a rules-engine error keeps its English template apart: said in the table's language
        from camelhost.table.narration import translated
        print("pyramid: %s" % translated(exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(_("pyramid: interrupted"), file=sys.stderr)
        return 130


def os_error_line(exc):
    """An ``OSError`` as one line in the shell's style, ``PATH: reason`` (no errno
    number): ``/tmp/x/g.jsonl: No such file or directory``."""
    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        return "%s: %s" % (exc.filename, reason)
    return reason


if __name__ == "__main__":
    sys.exit(main())
