"""The options several ``pyramid`` commands share, each added by one function here so
that an option of the same name reads the same in every command's ``--help``: the same
metavar or choices, the same words, its default said the same way (tester 2, finding
10). Not a command itself (``camelhost.cli`` lists the commands); the command modules
import it.

- ``--edition {classic,second}``: the choices are ``camelup.editions.EDITIONS``' names.
- ``--seed N``: what it seeds, then ``(default N)``.
- ``--port PORT``: a serial port, ``auto`` or ``virtual`` (calibrate, doctor, monitor).
- ``--journal FILE``: the journal file a new game writes.
- ``--seats N``: the number of seats, with each edition's range (demo, tournament).

Each help is in the table's language (``camelhost.i18n``; ``camelhost.cli`` chooses the
language before the parsers are built).
"""

from camelup.editions import EDITIONS

from camelhost.i18n import _, edition_word, pgettext

#: The ``--edition`` choices, sorted (``classic``, ``second``).
EDITION_CHOICES = tuple(sorted(EDITIONS))


def add_edition_argument(parser, what, default="second", default_words=None):
    """Add ``--edition {classic,second}`` to ``parser`` (an ``argparse`` parser).

    ``what``: what the edition chooses, in the table's language (``_("the edition of
    the virtual pyramid's dice")``); the help then says the default: ``default`` (an
    edition's name, or None for none), or ``default_words`` when the default needs
    words (``_("the journal's with --resume, else second")``); ``""`` says none."""
    if default_words is None:
        default_words = default or ""
    help_text = _("%s (default %s)") % (what, default_words) if default_words else what
    parser.add_argument("--edition", choices=EDITION_CHOICES, default=default,
                        help=help_text.replace("%", "%%"))


def add_seed_argument(parser, what, default=1, default_words=None):
    """Add ``--seed N`` (an int) to ``parser``: ``what`` it seeds, then its default
    (``default``, or ``default_words`` when it needs words)."""
    words = default_words if default_words is not None else str(default)
    parser.add_argument("--seed", type=int, default=default, metavar="N",
                        help=(_("%s (default %s)") % (what, words)).replace("%", "%%"))


def add_port_argument(parser):
    """Add ``--port PORT`` (default ``auto``) for a command that talks to the pyramid's
    firmware: a serial port, ``auto`` or ``virtual``."""
    parser.add_argument("--port", default="auto", metavar="PORT",
                        help=_("serial port (/dev/ttyACM0, COM3), 'auto' (first RP2040 on "
                               "USB) or 'virtual' (the simulated pyramid); default auto"))


def add_journal_argument(parser, default_words):
    """Add ``--journal FILE`` (default None) for a command that starts a game:
    ``default_words`` says what happens without it."""
    parser.add_argument("--journal", metavar="FILE", default=None,
                        help=_("journal file to write (default: %s)") % default_words)


def seats_text():
    """Each edition's seat range from its own player limits (RULES 2.1, 3.1), the
    editions named in the table's language: ``2-8 classic, 3-8 second edition``
    (German ``2-8 Erstausgabe, 3-8 Zweitausgabe``)."""
    ranges = ", ".join("%d-%d %s" % (EDITIONS[name].min_players, EDITIONS[name].max_players,
                                     edition_word(EDITIONS[name])) for name in EDITION_CHOICES)
    return pgettext("seat ranges", "%s edition") % ranges


def add_seats_argument(parser, default=4):
    """Add ``--seats N`` (an int, default ``default``): the number of seats, with each
    edition's range (``seats_text``); the command checks it against the edition chosen."""
    parser.add_argument("--seats", type=int, default=default, metavar="N",
                        help=_("number of seats: %s (default %d)") % (seats_text(), default))
