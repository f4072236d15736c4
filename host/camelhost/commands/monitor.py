"""``pyramid monitor``: live sensor readings and classification, for checking a build."""

import sys

from camelhost.commands.options import (
    add_dice_edition_argument,
    add_port_argument,
    add_seed_argument,
    metavar,
)
from camelhost.i18n import N_, _, edition_word
from camelhost.tools.monitor import (
    VIRTUAL,
    check_edition,
    connect,
    emulated_edition_apart,
    monitor,
    quiet_link_log,
    shown_label,
)

HELP = (N_("Live readings from the pyramid's colour sensor: raw counts with the LED on and off, "
           "the classification with its margin, every slider push, firmware and protocol "
           "version, sensor status. For checking a build (hardware/README.md)."))


def add_arguments(parser):
    add_port_argument(parser)
    parser.add_argument("--count", type=int, default=None, metavar=metavar("N"),
                        help=_("stop after N readings (default: run until Ctrl-C)"))
    parser.add_argument("--period", type=int, default=250, metavar=metavar("MS"),
                        help=_("time between readings in ms, 20..60000 (default 250)"))
    add_dice_edition_argument(parser)
    add_seed_argument(parser, _("seed of the virtual pyramid"))
    parser.add_argument("--verbose", action="store_true",
                        help=_("also show the serial link's warnings (damaged lines, reconnects)"))
    parser.add_argument("--place", metavar=metavar("CONTENT"), default=None,
                        help=_("virtual pyramid only: what lies in the head (a die label such "
                               "as red or grey-black, in the table's language too, or empty)"))


def run(args):
    if args.count is not None and args.count < 1:
        raise ValueError(_("--count must be at least 1"))
    if not 20 <= args.period <= 60000:
        raise ValueError(_("--period must be 20..60000 ms"))
    if args.place and args.port != VIRTUAL:
        raise ValueError(_("--place works with --port virtual only"))
    if args.place:
        from camelup.board import classifier

        from camelhost.table.manual import typed_label

        # the label in any language's words, as the emulate console reads them
        typed, args.place = args.place, typed_label(args.place)

        known = {"empty"}
        for labels in classifier.EDITION_CLASSES.values():
            known.update(labels)
        parts = args.place.split("+")
        edition = args.edition or "second"  # the virtual pyramid's (``monitor.connect``)
        own = classifier.classes_for(edition)
        if len(parts) > 2 or any(part not in known for part in parts):
            # the dice of this pyramid's edition, as the table names them
            raise ValueError(_("--place takes a die label (%s), two joined by '+', or empty")
                             % " ".join(shown_label(label) for label in own
                                        if label != "empty"))
        other = [part for part in parts if part not in own]
        if other:  # a die of the other edition: the board would only read it as unknown
            raise ValueError(_("--place %(typed)s: the %(edition)s edition has no %(die)s die "
                               "(its dice: %(dice)s; --edition chooses the edition)")
                             % {"typed": typed, "edition": edition_word(edition),
                                "die": shown_label(other[0]),
                                "dice": " ".join(shown_label(label) for label in own
                                                 if label != "empty")})
    quiet_link_log(args.verbose)
    with connect(args.port, edition=args.edition, seed=args.seed) as pyramid:
        check_edition(pyramid, args.edition, "monitor")
        apart = emulated_edition_apart(pyramid)  # with --edition, refused just above
        if apart is not None:  # its readings name the firmware's dice, not the table's
            print(_("pyramid: warning: %(what)s: %(fix)s") % {"what": apart[0], "fix": apart[1]},
                  file=sys.stderr)
        if args.place:
            pyramid.virtual.place(args.place)
        monitor(pyramid, count=args.count, period_ms=args.period)
    return 0
