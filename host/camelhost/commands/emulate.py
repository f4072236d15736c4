"""``pyramid emulate``: a Raspberry Pi Pico with the pyramid on it, emulated, on a pty.

Boots a MicroPython UF2 (``--uf2`` or ``$PYRAMID_UF2``) on an emulated RP2040
(``camelhost.device.emulated``), prints the serial port where its USB CDC appears
(once the pyramid firmware has said ``HELLO``; at once with ``--fresh``), and keeps
the board running until Ctrl-C or ``q``. Every host command takes that
port as it takes a Pico's ``/dev/ttyACM0``: ``pyramid flash --port``, ``doctor
--port``, ``monitor --port``, ``calibrate --port``, ``play --pyramid``.

While it runs, lines typed here act on the board: Enter (or ``r``) pushes the
slider and a die falls, ``d`` two dice at once, ``e`` a push with nothing falling,
``l`` the leg is over (the dice go back inside), ``x`` the reset button, ``c`` a
power cycle, ``q`` power off.

Exit status 0 after ``q``, Ctrl-C or end of input; 1 (``pyramid: message``) when
the emulator, the bootrom or the UF2 is missing or the board does not start.
"""

import os
import sys

from camelhost.errors import CliError
from camelhost.i18n import N_, _

HELP = (
    N_("Run MicroPython and the pyramid firmware on an emulated Raspberry Pi Pico, with "
       "the simulated sensor, slider and dice, and print the serial port it appears on.")
)


def add_arguments(parser):
    parser.add_argument("--uf2", default=None,
                        help=_("the MicroPython UF2 to boot (RPI_PICO, 1.23 or later); "
                               "default $PYRAMID_UF2"))
    parser.add_argument("--fresh", action="store_true",
                        help=_("a new board: MicroPython only, empty filesystem "
                               "(then pyramid flash --port PORT)"))
    parser.add_argument("--edition", choices=("classic", "second"), default="second",
                        help=_("which edition's dice are in the pyramid (default second)"))
    parser.add_argument("--seed", type=int, default=1,
                        help=_("seed of the dice and the sensor's optics (default 1)"))
    parser.add_argument("--flash", default=None, metavar="FILE",
                        help=_("the board's filesystem image, kept across runs (created "
                               "with the firmware when missing)"))


def _press(board, word):
    """Do what the key ``word`` asks of the emulated ``board`` and say it; False for
    ``q`` (power off: the loop ends)."""
    if word in ("", "r"):
        got = board.release(wait=False)
        print(_("slider pushed: %s") % (", ".join(d[0] for d in got.dice) or _("nothing")))
    elif word == "d":
        got = board.release_double(wait=False)
        print(_("slider pushed: %s") % ", ".join(d[0] for d in got.dice))
    elif word == "e":
        board.release_empty(wait=False)
        print(_("slider pushed: nothing"))
    elif word == "l":
        board.return_dice()
        print(_("the dice are back in the pyramid"))
    elif word == "x":
        board.reset_button()
        print(_("reset button pressed"))
    elif word == "c":
        board.power_cycle()
        print(_("power cycled"))
    elif word == "q":
        return False
    else:
        print(_("unknown key %r: Enter, d, e, l, x, c or q") % word)
    return True


def run(args):
    from camelhost.device.emulated import EmulatedPyramid, EmulatorError, node_runner

    try:
        node_runner()  # before anything is built: the runner, Node and rp2040js are there
    except EmulatorError as exc:
        raise CliError(str(exc)) from None
    board = EmulatedPyramid(uf2=args.uf2, edition=args.edition, seed=args.seed,
                            fresh=args.fresh, flash_file=args.flash)
    try:
        board.start()
    except EmulatorError as exc:
        raise CliError(_("the emulated board did not start: %s") % exc) from None
    try:
        if not args.fresh:
            # the port is named once the firmware is up: the emulated boot takes tens of
            # seconds of wall time, longer than a host waits for a pyramid to speak
            try:
                hello = board.wait_hello(900)
            except EmulatorError as exc:
                raise CliError(_("the pyramid firmware did not start on the emulated board: %s")
                               % str(exc).splitlines()[0]) from None
        print(_("emulated Pico on %s (MicroPython from %s)") % (os.path.realpath(board.port), board.uf2))
        if not args.fresh:
            print(_("pyramid firmware %s running (%s edition)") % (hello["fw"], hello["ed"]))
        print(_("Enter: push the slider; d: two dice; e: nothing falls; l: leg over; "
              "x: reset button; c: power cycle; q: power off"))
        sys.stdout.flush()
        for line in sys.stdin:
            if not _press(board, line.strip().lower()):
                break
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    except EmulatorError as exc:
        raise CliError(_("the emulated board stopped: %s") % exc) from None
    finally:
        board.close()
    return 0
