"""``pyramid calibrate``: guided colour calibration of the pyramid's sensor."""

import json

from camelup.board.tcs34725 import INTEGRATION_MIN_MS, STEP_MS

from camelhost.commands.options import (
    add_dice_edition_argument,
    add_port_argument,
    add_seed_argument,
    metavar,
    output_file_problem,
    plot_output,
)
from camelhost.errors import CliError
from camelhost.i18n import N_, _, decimal, percent
from camelhost.tools.calibrate import (
    DEFAULT_SAMPLES,
    LONGEST_MS,
    MAX_SAMPLES,
    MIN_SAMPLES,
    RANGE_WINDOW,
    HumanDriver,
    VirtualDriver,
    calibrate,
    check_samples,
    integration_used,
    plot,
    plot_backend,
    stopped_words,
)
from camelhost.tools.monitor import VIRTUAL, connect, quiet_link_log

HELP = (N_("Guided colour calibration: release every die several times (every face) and "
           "leave the head empty; the readings are fitted into the classifier's profile, the "
           "separation of every pair of classes is reported with advice, and the profile is "
           "saved on the pyramid. See docs/calibration.md."))


def add_arguments(parser):
    add_port_argument(parser)
    add_dice_edition_argument(parser)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar=metavar("N"),
                        help=_("readings per die and of the empty head (twice as many for the "
                               "grey die's inks), %(fewest)d..%(most)d; default "
                               "%%(default)s")
                        % {"fewest": MIN_SAMPLES, "most": MAX_SAMPLES})
    parser.add_argument("--auto", action="store_true",
                        help=_("unattended: the virtual pyramid's table puts the dice in the "
                               "head (needs --port virtual)"))
    parser.add_argument("--plot", metavar=metavar("FILE"), default=None,
                        help=_("write a separation plot (PNG, SVG or PDF by its name); needs "
                               "matplotlib: "
                               "pip install 'smart-pyramid[plot]'"))
    parser.add_argument("--gain", type=int, choices=(1, 4, 16, 60), default=None,
                        help=_("set the sensor's analog gain first (default: keep)"))
    parser.add_argument("--autorange", action="store_true",
                        help=(_("first pick the gain with the brightest die in the head "
                                "(highest gain keeping it under %s of full scale)")
                              % percent(RANGE_WINDOW[1])).replace("%", "%%"))
    parser.add_argument("--integration", type=float, default=None, metavar=metavar("MS"),
                        help=_("set the integration time first (ms): the sensor counts in "
                               "%(step)s ms steps, %(low)s..%(high)s ms; another value is "
                               "rounded to the nearest step (default: keep)") % {
                                   "step": decimal(STEP_MS, 1),
                                   "low": decimal(INTEGRATION_MIN_MS, 1),
                                   "high": decimal(LONGEST_MS, 1)})
    parser.add_argument("--out", metavar=metavar("FILE"), default=None,
                        help=_("also write the profile (JSON) to FILE"))
    parser.add_argument("--no-save", action="store_true",
                        help=_("do not store the profile on the pyramid"))
    parser.add_argument("--verbose", action="store_true",
                        help=_("also show the serial link's warnings (damaged lines, reconnects)"))
    add_seed_argument(parser, _("seed of the virtual pyramid"))


def emulated_edition(pyramid, asked):
    """The edition to calibrate on ``pyramid`` (an open ``monitor.Pyramid``) for
    ``--edition`` ``asked`` (None: the board's own): ``asked``, except on an emulated
    Pico whose ``pyramid emulate`` recorded the dice in its table
    (``monitor.emulated_dice``), where only those dice can be put in the head: none
    asked for, theirs (the board switched to it, as its console's line advises when a
    kept ``--flash`` image runs another); another asked for,
    ``monitor.EmulatedDiceMismatch`` (a ``CliError``), one line before any setting is
    touched, naming how to calibrate those dice and how to get an emulated Pico with the
    dice asked for (maker s43, finding 2: it asked for the orange die of a table that
    has none; ``monitor.check_emulated_dice``, doctor's and monitor's line too)."""
    from camelhost.tools import monitor

    return monitor.check_emulated_dice(pyramid, asked, "calibrate") or asked


def _defaults():
    """Calibrate's options as ``add_arguments`` defines them, for their defaults
    (``get_default``): the one source of each."""
    import argparse

    parser = argparse.ArgumentParser(add_help=False)
    add_arguments(parser)
    return parser


def typed_options(args):
    """The options of ``args`` (calibrate's parsed command line) as typed, but the port:
    ``(option, value)`` pairs in the help's order (``value`` a str, None for a flag), each
    option left out where it has its default (as ``add_arguments`` defines it: maker
    s44, finding 3). What every rerun the session advises repeats (``calibrate``'s
    ``typed``, ``again_command``; maker s43, finding 3)."""
    defaults = _defaults()
    typed = []
    if args.edition is not None:
        typed.append(("--edition", args.edition))
    if args.samples != defaults.get_default("samples"):
        typed.append(("--samples", str(args.samples)))
    for flag, on in (("--auto", args.auto), ("--autorange", args.autorange)):
        if on:
            typed.append((flag, None))
    if args.gain is not None:
        typed.append(("--gain", str(args.gain)))
    if args.integration is not None:
        typed.append(("--integration", "%g" % args.integration))
    for option in ("plot", "out"):
        if getattr(args, option) is not None:
            typed.append(("--" + option, getattr(args, option)))
    if args.no_save:
        typed.append(("--no-save", None))
    if args.verbose:
        typed.append(("--verbose", None))
    if args.seed != defaults.get_default("seed"):
        typed.append(("--seed", str(args.seed)))
    if getattr(args, "lang", None):
        typed.append(("--lang", args.lang))
    return typed


def run(args):
    if args.auto and args.port != VIRTUAL:
        raise ValueError(_("--auto needs --port virtual: on a real pyramid a person "
                           "releases the dice"))
    check_samples(args.samples)
    if args.autorange and args.gain is not None:
        raise ValueError(_("give --gain or --autorange, not both"))
    integration = None
    if args.integration is not None:
        integration, note = integration_used(args.integration)
        if note:
            print(note)
    plot_path = None
    if args.plot:
        plot_backend()  # a missing matplotlib is reported now, not after the whole session
        # a kind of file it can't write (.txt) too, naming those it can (s38 finding 3),
        # and a folder, said as typed (s39 tester 13)
        plot_path = plot_output(args.plot)
    problem = output_file_problem("--out", args.out) if args.out else None
    if problem:  # now, not after a hundred releases
        raise ValueError(problem)
    quiet_link_log(args.verbose)
    result = None
    try:
        with connect(args.port, edition=args.edition or "second", seed=args.seed) as pyramid:
            if pyramid.virtual is not None and not args.auto:
                # nobody can put a die into the simulated head: its table does it
                print(_("virtual pyramid: the simulated table puts each die in the head "
                        "itself, so calibrate runs unattended (--auto is implied)"))
            edition = emulated_edition(pyramid, args.edition)
            kind = getattr(getattr(pyramid.link.transport, "identity", None), "kind", None)
            driver = (VirtualDriver(pyramid.virtual) if pyramid.virtual
                      else HumanDriver(emulated=kind == "pty"))
            result = calibrate(pyramid, driver, edition=edition, samples=args.samples,
                               gain=args.gain, integration=integration,
                               save=not args.no_save, autorange=args.autorange,
                               typed=typed_options(args))
    except KeyboardInterrupt:
        if result is not None:  # the session ended (saved or not): not stopped by this
            raise
        # Ctrl-C while connecting, before any setting was touched (the session's own
        # Ctrl-C is said in calibrate): said as q says it, with the interrupt's status
        raise CliError(stopped_words(), exit_code=130) from None
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result.profile, f, sort_keys=True, indent=1)
            f.write("\n")
        print(_("profile written to %s") % args.out)
    if plot_path:
        plot(result, plot_path)
        print(_("separation plot written to %s") % plot_path)
    return 0
