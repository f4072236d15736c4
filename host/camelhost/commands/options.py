"""The options several ``pyramid`` commands share, each added by one function here so
that an option of the same name reads the same in every command's ``--help``: the same
metavar or choices, the same words, its default said the same way (tester 2, finding
10). Not a command itself (``camelhost.cli`` lists the commands); the command modules
import it.

- ``--edition {classic,second}``: the choices are ``camelup.editions.EDITIONS``' names.
  In the maker's tools (calibrate, doctor, monitor) it means one thing, the edition of
  the pyramid's dice (``add_dice_edition_argument``): the virtual pyramid's dice, and on
  a board the edition it is set to (calibrate sets it; doctor and monitor refuse a board
  set to another, ``camelhost.tools.monitor.check_edition``).
- ``--seed N``: what it seeds, then ``(default N)``.
- ``--port PORT``: a serial port, ``auto`` (the first RP2040 on USB, in every command),
  ``id:<serial>`` (the board with that USB serial number, mpremote's form, in every
  command: ``camelhost.device.transport.port_path``) or ``virtual`` (calibrate, doctor,
  monitor; not flash). An empty one is a usage error.
- ``--journal FILE``: the journal file a new game writes.
- ``--seats N``: the number of seats, with each edition's range (demo, tournament,
  odds).
- ``--players NAMES``: the players' names in seat order (play, odds); a count of seats
  is ``--seats``. Seats no name was given for are named from ``SEAT_NAMES`` (demo, odds).
- ``metavar``: every metavar of every command, in the table's language (``FILE`` /
  ``DATEI``, ``position`` / ``STELLUNG``).
- ``add_old_spelling``: an option's former name, still taken with a one-line note on
  stderr and hidden from ``--help`` (odds' ``--names``/``--pyramid``, flash's
  ``--resume``, doctor's and demo's ``--wait``).

``--seed N`` seeds every random draw of the command and means that everywhere; its
default is 1 wherever the command computes or shows something the same command line
should show again (demo, odds, tournament and the maker tools), and a new seed, printed,
only in ``play``, where a table wants a new setup each game (docs/table.md, "Options").

Each help is in the table's language (``camelhost.i18n``; ``camelhost.cli`` chooses the
language before the parsers are built).
"""

import argparse
import os
import sys

from camelup.editions import EDITIONS

from camelhost.errors import CliError
from camelhost.i18n import _, edition_word, pgettext
from camelhost.i18n import metavar as i18n_metavar


def metavar(word):
    """The metavar ``word`` in the table's language: ``camelhost.i18n.metavar``, the one
    list of them (kept here under its old name for the commands)."""
    return i18n_metavar(word)


#: The names of seats no name was given for, in seat order: the demo's bots and the
#: seats of ``pyramid odds`` without ``--players`` (a player is named by name on every
#: screen, never by a seat number). Eight, as many as an edition seats (RULES 2.1, 3.1).
SEAT_NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")


def seat_names(count):
    """The first ``count`` (0..8) of ``SEAT_NAMES``, as a new list; ``ValueError`` for a
    count beyond them."""
    if not 0 <= count <= len(SEAT_NAMES):
        raise ValueError(_("%(seats)d seats: at most %(most)d can be named")
                         % {"seats": count, "most": len(SEAT_NAMES)})
    return list(SEAT_NAMES[:count])


class _OldSpelling(argparse.Action):
    """An option's former name: stores its value as the new one does, and says once on
    stderr what it is called now (one line: ``pyramid: note: ...``)."""

    def __init__(self, option_strings, dest, new=None, **kwargs):
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(_("pyramid: note: %(old)s is now %(new)s (the old name still works for now)")
              % {"old": option_string, "new": self.new}, file=sys.stderr)
        setattr(namespace, self.dest, True if self.nargs == 0 else values)


def add_old_spelling(parser, old, new, dest, flag=False, type=None):
    """Add ``old``, the former name of option ``new``, to ``parser``: hidden from
    ``--help``, it stores into ``dest`` as ``new`` does (``flag``: takes no value, stores
    True; ``type``: the value's converter) and prints one line on stderr naming ``new``."""
    extra = {"nargs": 0, "default": argparse.SUPPRESS} if flag else {"type": type}
    parser.add_argument(old, dest=dest, action=_OldSpelling, new=new, help=argparse.SUPPRESS,
                        **extra)

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
    help_text = (_("%(what)s (default %(default)s)") % {"what": what, "default": default_words}
                 if default_words else what)
    parser.add_argument("--edition", choices=EDITION_CHOICES, default=default,
                        help=help_text.replace("%", "%%"))


def add_dice_edition_argument(parser):
    """Add the maker tools' ``--edition`` (calibrate, doctor, monitor: one meaning, one
    help): the edition of the pyramid's dice, default None (the board's own edition; the
    virtual pyramid's second)."""
    add_edition_argument(parser, _("the edition of the pyramid's dice: the virtual "
                                   "pyramid's, or the one a board is set to (calibrate "
                                   "sets it)"), default=None,
                         default_words=_("the board's own, second for the virtual pyramid"))


def add_seed_argument(parser, what, default=1, default_words=None):
    """Add ``--seed N`` (an int) to ``parser``: ``what`` it seeds, then its default
    (``default``, or ``default_words`` when it needs words)."""
    words = default_words if default_words is not None else str(default)
    parser.add_argument("--seed", type=int, default=default, metavar=metavar("N"),
                        help=(_("%(what)s (default %(default)s)") % {
                            "what": what, "default": words}).replace("%", "%%"))


def add_port_argument(parser, virtual=True):
    """Add ``--port PORT`` (default ``auto``) for a command that talks to the pyramid's
    board: a serial port, ``auto`` (the first USB serial port with the RP2040's vendor
    id, ``camelhost.device.open.find_rp2040_port``, in every command), ``id:<serial>``
    (the board with that USB serial number: ``camelhost.device.transport.port_path``) or
    ``virtual``; ``virtual=False`` (flash, which needs a board): no ``virtual``."""
    if virtual:
        words = _("serial port (/dev/ttyACM0, COM3), 'auto' (first RP2040 on USB), "
                  "id:<serial> or 'virtual' (the simulated pyramid); default auto")
    else:
        words = _("serial port (/dev/ttyACM0, COM3), 'auto' (first RP2040 on USB) or "
                  "id:<serial>; default auto")
    parser.add_argument("--port", default="auto", metavar=metavar("PORT"), help=words,
                        type=_port_word)


def _port_word(value):
    """``--port``'s word as typed; an empty one (``--port "$PORT"`` with ``PORT`` unset)
    is refused as a usage error naming what to give (maker s44: it said ``cannot open :
    no such port``)."""
    import argparse

    if not value.strip():
        raise argparse.ArgumentTypeError(_("empty: give the pyramid's serial port "
                                           "(/dev/ttyACM0) or auto"))
    return value


def add_journal_argument(parser, default_words):
    """Add ``--journal FILE`` (default None) for a command that starts a game:
    ``default_words`` says what happens without it."""
    parser.add_argument("--journal", metavar=metavar("FILE"), default=None,
                        help=_("journal file to write (default: %s)") % default_words)


def seats_text():
    """Each edition's seat range from its own player limits (RULES 2.1, 3.1), the
    editions named in the table's language: ``2-8 classic, 3-8 second edition``
    (German ``2-8 Erstausgabe, 3-8 Zweitausgabe``)."""
    ranges = ", ".join("%d-%d %s" % (EDITIONS[name].min_players, EDITIONS[name].max_players,
                                     edition_word(EDITIONS[name])) for name in EDITION_CHOICES)
    return pgettext("seat ranges", "%s edition") % ranges


def add_seats_argument(parser, default=4, default_words=None, what=None):
    """Add ``--seats N`` (an int, default ``default``): ``what`` it counts (default
    "number of seats"), each edition's range (``seats_text``) and the default (or
    ``default_words`` when it needs words); the command checks it against the edition
    chosen."""
    words = default_words if default_words is not None else str(default)
    parser.add_argument("--seats", type=int, default=default, metavar=metavar("N"),
                        help=(_("%(what)s: %(seats)s (default %(default)s)") % {
                            "what": what or _("number of seats"), "seats": seats_text(),
                            "default": words}).replace("%", "%%"))


def output_file_problem(option, path, written=None):
    """Why the file given to ``option`` (``--plot``, ``--out``, ``--log``...) as ``path``
    (the name as typed) can't be written, in one line naming both, or ``None``: a
    folder, a name ending in ``/`` (a folder's, whether or not it exists), a folder that
    doesn't exist, or one this user may not write in. ``written`` is the file the
    command writes when that is not ``path`` itself (``--plot shares`` writes
    ``shares.png``: ``plot_output``); it is checked too, and the line still quotes
    ``path``, the name the user typed (s39 tester 13: ``--plot /tmp`` wrote
    ``/tmp.png``, ``--plot dir/`` a hidden ``dir/.png``); a ``written`` that is a folder
    where ``path`` is none is named as well (``--plot results``: ``results.png, the file
    it writes, is a folder``). Commands ask before their work
    (a calibration's releases, a tournament's games), never after it."""
    target = written or path
    if os.path.isdir(path):
        return _("%(option)s %(path)s: that is a folder; give a file name") % {
            "option": option, "path": path}
    if os.path.isdir(target):  # 'results' typed, 'results.png' the folder: named (s40)
        return _("%(option)s %(path)s: %(written)s, the file it writes, is a folder; give "
                 "another name") % {"option": option, "path": path, "written": target}
    ends = [sep for sep in (os.sep, os.altsep) if sep and path.endswith(sep)]
    if ends:  # 'results/' not yet made: still a folder's name, never a file's
        return _("%(option)s %(path)s: a name ending in %(end)s is a folder's; give a file "
                 "name") % {"option": option, "path": path, "end": ends[0]}
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        return _("%(option)s %(path)s: no folder %(folder)s") % {
            "option": option, "path": path, "folder": folder}
    if not os.access(folder, os.W_OK) or (os.path.exists(target)
                                          and not os.access(target, os.W_OK)):
        return _("%(option)s %(path)s: not allowed to write there") % {
            "option": option, "path": path}
    return None


def plot_output(path):
    """The file ``--plot PATH`` writes (``camelhost.tools.calibrate.plot_file``:
    ``path``, or ``path`` with matplotlib's ending added when its name has none), once
    it can be written. Raises ``CliError`` (one line quoting ``path`` as typed) for what
    ``output_file_problem`` refuses, checked on the name as typed first (a folder is
    said as one, not as a plot kind), then for a kind matplotlib can't write. Needs
    matplotlib (``plot_backend`` first)."""
    from camelhost.tools.calibrate import plot_file

    problem = output_file_problem("--plot", path)
    written = None
    if problem is None:
        written = plot_file(path)
        problem = output_file_problem("--plot", path, written)
    if problem:
        raise CliError(problem)
    return written
