"""Live sensor readings from a pyramid, for checking a build; and the connection
helper ``connect`` that ``calibrate`` shares.

``connect(port, ...)`` opens (through ``camelhost.device.open.open_pyramid``) a real pyramid (a serial path, ``auto`` for the
first USB serial port with the RP2040's vendor id 0x2E8A) or starts the virtual
pyramid (``virtual``: the real firmware on simulated hardware behind a pty), then
waits for the firmware's ``HELLO``. Every failure a user can meet (no such port,
no permission, no firmware answering, sensor missing, the board restarting, the
cable pulled) becomes a ``CliError`` with a plain message: the CLI prints it as
``pyramid: ...`` without a traceback.

``monitor(pyramid, count, out)`` prints the firmware and protocol version, the
sensor status and settings, then one line per streamed reading: the raw counts
with the illumination LED on and off, their difference (what the classifier
sees), the classification with its margin and the line's quality (``Link.quality``:
the share of the pyramid's last lines that passed their CRC), a line for every slider
push the firmware reports (``EVT``; a push from before the first reading said as one,
``pushed_earlier``), and one when the line to the pyramid gets noisy or clean again.
Wire format: ``docs/protocol.md``.
"""

import sys
import time

import camelup.board.tcs34725 as _tcs

import camelhost.device.open as _open
from camelhost.device.events import fault_text, out_dice
from camelhost.errors import CliError
from camelhost.i18n import (
    N_,
    _,
    colour_list,
    colour_word,
    decimal,
    edition_word,
    ngettext,
    percent,
    pgettext,
    port_word,
)
from camelhost.tools.commandline import with_port

#: ``--port`` value that starts the virtual pyramid.
VIRTUAL = "virtual"
#: Seconds to wait for the firmware's HELLO after opening the port.
HELLO_TIMEOUT = 5.0
#: How many times ``HELLO_TIMEOUT`` the wait for a HELLO lasts on a noisy line.
NOISY_HELLO_WAITS = 6
#: Where the sensor trouble-shooting steps are.
SENSOR_HELP = N_('see "When the sensor is not found" in hardware/README.md')


def quiet_link_log(verbose=False):
    """Show the serial link's warnings (damaged lines, port lost) only when ``verbose``:
    these commands say what went wrong in their own words."""
    import logging

    logging.getLogger("camelhost.device.link").setLevel(logging.INFO if verbose else logging.ERROR)


def no_hello(port, link, waited):
    """The one line said when the pyramid on ``port`` gave no full ``HELLO`` in ``waited``
    s (``link``: its ``camelhost.device.link.Link``), naming what to check by what the
    link heard: only the short ``HI`` (a line losing too much: the cable), lines but no
    answer (the host's writes do not reach the board, or its firmware does not answer:
    the cable, the firmware), or nothing at all (the cable, the port, the firmware)."""
    seconds = decimal(waited, 0)
    if link.refused is not None:
        return link.refused
    if link.sequencer.synced:
        return (_("the pyramid on %(port)s answered only with its short HI in %(wait)s s, "
                  "never its full HELLO: the line loses too much; check the USB cable and its "
                  "plugs") % {"port": port, "wait": seconds})
    if link.lines_heard:
        return (_("the pyramid on %(port)s sends lines but did not answer HELLO? in %(wait)s "
                  "s: check the USB cable (what this program writes may not reach it) and its "
                  "firmware (pyramid flash --port %(port)s)") % {"port": port, "wait": seconds})
    return (_("no answer from %(port)s in %(wait)s s: check the USB cable, that %(port)s is the "
              "pyramid's port (--port auto finds it) and that it runs the pyramid firmware "
              "(pyramid flash --port %(port)s)") % {"port": port, "wait": seconds})


class DeviceRestarted(CliError):
    """The pyramid rebooted (new boot id) while a session depended on its state."""


def integration_ms(cfg_it):
    """Exact integration time in ms from the whole milliseconds a ``CFG`` reports.

    The TCS34725 integrates in 2.4 ms steps, so the nearest step is the true time
    (``7`` -> 7.2, ``24`` -> 24.0, ``101`` -> 100.8; ``camelup.board.tcs34725.integration_ms``)."""
    return _tcs.integration_ms(cfg_it)


def full_scale(integration_ms):
    """Largest count of a TCS34725 channel at ``integration_ms``: ``min(65535, 1024 * steps)``
    (TCS3472 datasheet, RGBC timing; ``camelup.board.tcs34725.full_scale``)."""
    return _tcs.full_scale(integration_ms)


def settings_line(it_ms, gain):
    """The sensor's settings as ``monitor`` and ``calibrate`` both say them, with its two
    limits told apart: the digital full scale (``full_scale``) and the clear count from
    which a reading is saturated (``saturation_level``: 75 % of full scale below 64
    steps, the analog limit, TCS3472 datasheet and DN40): ``integration time 7.2 ms,
    gain 4x: full scale 3072 counts per channel, saturated from 2304 (75% of it, the
    analog limit below 153.6 ms)``. ``it_ms``: the exact integration time (ms)."""
    full, saturated = full_scale(it_ms), saturation_level(it_ms)
    if saturated < full:
        analog_ms = _tcs.ANALOG_STEPS * _tcs.STEP_TENTHS_MS / 10
        return (_("integration time %(ms)s ms, gain %(gain)sx: full scale %(full)d counts per "
                  "channel, saturated from %(saturated)d (%(share)s of it, the analog limit "
                  "below %(analog)s ms)")
                % {"ms": decimal(it_ms, 1), "gain": gain, "full": full, "saturated": saturated,
                   "share": percent(saturated / full), "analog": decimal(analog_ms, 1)})
    return (_("integration time %(ms)s ms, gain %(gain)sx: full scale %(full)d counts per "
              "channel, saturated only there") % {"ms": decimal(it_ms, 1), "gain": gain,
                                                  "full": full})


def saturation_level(it_ms):
    """Clear count at which a TCS34725 reading is no longer trustworthy: the full
    scale, or 75 % of it below 153.6 ms (64 steps), where the analog front end clips
    first (``camelup.board.tcs34725.saturation_level``, docs/classifier.md)."""
    return _tcs.saturation_level(it_ms)


def difference(on, off):
    """Ambient-subtracted reading ``on - off`` per channel (clear, red, green, blue), floor 0."""
    return tuple(a - b if a > b else 0 for a, b in zip(on, off, strict=True))


def one_reading(link, timeout=5.0):
    """One reading the board streams (``RAW``: ``{on, off, label, m}``, ``label`` the
    class its running profile names, ``m`` the margin in hundredths of a sigma), or
    ``None`` when none came within ``timeout`` seconds. Raises ``LinkError`` when the
    board refuses or does not answer ``STREAM``.

    Readings the board streamed before this call are dropped first: a step's stream
    stops only once its first reading is taken, and on a slow link (a loaded host, the
    emulated board) more of them have arrived by then. Left queued, the next step
    would take the head as it was before the player changed the die."""
    drop_readings(link)
    link.stream(100)
    reading = None
    deadline = time.monotonic() + timeout
    while reading is None and time.monotonic() < deadline:
        reading = link.next_reading(1.0)
    link.stream(0)
    drop_readings(link)  # the stream's replies up to its OK are all in by now
    return reading


def drop_readings(link, most=1000):
    """Drop up to ``most`` streamed readings already received (``Calls.RAW_KEPT``)."""
    for _i in range(most):
        if link.next_reading(0) is None:
            return


def _die_word(label):
    """A die's label (``camelup.board.classifier``) as the maker names the die: its colour
    in the table's language, the grey die's inks as the grey die (``grey``, ``grau``)."""
    from camelup.editions import split_die_label

    return colour_word(split_die_label(label)[0])


def wrong_die_words(found, asked):
    """What the head holds where another content was asked for, in words (one clause, no
    newline): ``found`` the label the board's profile named (a die, the grey die by its
    ink, or ``empty``), ``asked`` the label asked for (a die, or ``empty`` for the empty
    head): ``the head holds the yellow die, not the purple die``, ``the head reads empty,
    not the yellow die``, ``the head holds the red die, where it should be empty``; the
    grey die by its colour alone. ``pyramid doctor`` says it when its die reads as
    another, ``pyramid calibrate`` at a reading the board's profile names as another
    die (docs/calibration.md)."""
    if found == "empty":
        return _("the head reads empty, not the %s die") % _die_word(asked)
    if asked == "empty":
        return _("the head holds the %s die, where it should be empty") % _die_word(found)
    return _("the head holds the %(found)s die, not the %(asked)s die") % {
        "found": _die_word(found), "asked": _die_word(asked)}


def sensor_problem(state):
    """Plain sentence for a HELLO/HB sensor state other than ``ok``.

    ``fault``: the bus gave errors (rp2 ``OSError(5)`` when nothing acknowledges
    address 0x29, ``OSError(110)`` on a stuck bus): wiring. ``missing``: a chip
    answered but its id is not a TCS34725's (``OSError(19)`` from the driver).
    """
    if state == "missing":
        return (_("the pyramid found no TCS34725 colour sensor: the chip at I2C address 0x29 "
                  "did not give a TCS34725 chip id (0x44, 0x4D or 0x10); check the part on "
                  "the breakout and its wiring: %s") % _(SENSOR_HELP))
    return (_("the pyramid's colour sensor is not answering on the I2C bus (sensor %(state)s: "
              "no acknowledge at address 0x29, or bus errors); check the sensor's power, "
              "ground, SDA and SCL wires and solder joints: %(help)s")
            % {"state": state, "help": _(SENSOR_HELP)})


class Pyramid:
    """An open pyramid: ``link`` (``camelhost.device.link.Link``), ``hello`` (the first HELLO
    ``protocol.Message``), ``boot`` (its boot id), ``virtual`` (the ``VirtualPyramid``
    when ``port`` was ``virtual``, else ``None``), ``port`` (what was asked for).
    Use as a context manager; ``close()`` stops everything it started."""

    def __init__(self, port, link, virtual=None):
        self.port = port
        self.link = link
        self.virtual = virtual
        self.hello = None
        self.boot = None
        self.reconnect_grace = 3.0
        self._lost_since = None
        self._asked = 0.0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.link is not None:
            self.link.close()
            self.link = None
        if self.virtual is not None:
            self.virtual.close()
            self.virtual = None

    def wait_hello(self, timeout=HELLO_TIMEOUT, started=None):
        """Wait for the pyramid's full ``HELLO`` (the link keeps asking) and return it.
        The wait is ``timeout`` s times the link's slowness (a board whose heartbeats
        arrive ten times slower than a real board's gets ten times as long), and
        ``NOISY_HELLO_WAITS`` times ``timeout`` on a noisy line (the full HELLO crosses
        it whole one time in thirty). Raises ``CliError``, one line naming what to check
        (``no_hello``), when none came; ``started``: when the port was opened (its
        ``time.monotonic()``), so the line says the whole wait."""
        start = time.monotonic()
        while self.link.hello is None:
            now = time.monotonic()
            stretch = max(self.link.slowness, NOISY_HELLO_WAITS if self.link.noisy else 1.0)
            if now - start > timeout * stretch:
                raise CliError(no_hello(self.port, self.link,
                                        now - (start if started is None else started)))
            time.sleep(0.02)
        self.hello = self.link.hello
        self.boot = self.hello["boot"]
        if self.hello["proto"] != _host_protocol():
            print(_("pyramid: warning: the pyramid speaks protocol %(board)d, this program "
                    "%(ours)d: update the %(older)s") % {
                      "board": self.hello["proto"], "ours": _host_protocol(),
                      "older": _("program") if self.hello["proto"] > _host_protocol() else
                      _("firmware (make flash)")}, file=sys.stderr)
        return self.hello

    def check_alive(self):
        """Raise ``DeviceRestarted`` when the board has a new boot id, ``CliError`` when
        its port has gone (cable pulled) and has not come back."""
        link = self.link
        hello = link.hello
        if hello is not None and hello["boot"] != self.boot:
            raise DeviceRestarted(
                _("the pyramid restarted (boot %(before)s -> %(now)s): a reset, a power dip "
                  "or a crash") % {"before": self.boot, "now": hello["boot"]})
        if link.state == "connecting":
            # the reader closed the port after an error and is reopening it: give a
            # resetting board a few seconds to come back on the same port
            now = time.monotonic()
            if self._lost_since is None:
                self._lost_since = now
            elif now - self._lost_since > self.reconnect_grace:
                raise CliError(_("lost the connection to %(port)s for %(seconds).0f s (USB "
                                 "cable pulled?)") % {"port": self.port,
                                                      "seconds": now - self._lost_since})
        else:
            self._lost_since = None

    def poll_sensor_state(self, every=1.0):
        """Sensor state (``ok``, ``fault``, ``missing``) from the newest HELLO; asks for a
        fresh HELLO at most every ``every`` seconds."""
        now = time.monotonic()
        if now - self._asked > every:
            self._asked = now
            try:
                self.link.send("HELLO?")
            except OSError:
                pass
        hello = self.link.hello
        return hello["sensor"] if hello is not None else "missing"

    def settings(self):
        """The device's settings ``{ed, it, gain, vb}`` (a ``SET`` without fields)."""
        return self.link.configure()


#: a path that names nothing (``--port /dev/ttyACM0`` unplugged) and its one line: their
#: one source is ``camelhost.device.open``, shared with play's ``--pyramid``
names_nothing, missing_port = _open.names_nothing, _open.missing_port


def connect(port, edition=None, seed=1, hello_timeout=HELLO_TIMEOUT, value_buttons=False):
    """Open ``port`` (path, ``auto`` or ``virtual``) with ``camelhost.device.open.open_pyramid``
    and wait for HELLO; return a ``Pyramid``. The board is told no die is out (``OUT 0``,
    docs/protocol.md): calibrate, monitor and doctor see each reading judged alone,
    whatever leg a table told it last.

    ``edition``, ``seed``, ``value_buttons``: for the virtual pyramid only.
    Raises ``CliError`` with a plain message for every failure, ``manual`` among them
    (no pyramid to read: ``open_pyramid`` says so for the three maker tools).
    """
    from camelhost.device.open import open_pyramid

    started = time.monotonic()
    opened = open_pyramid(port, edition or "second", seed, value_buttons=value_buttons,
                          option="--port",
                          hint=_("--port auto finds it, --port virtual runs the simulated one"))
    path = opened.port
    pyramid = Pyramid(path if port != VIRTUAL else VIRTUAL, opened.link, opened.virtual)
    try:
        pyramid.wait_hello(hello_timeout, started)
    except BaseException:
        pyramid.close()
        raise
    try:  # no leg here: the board forgets a table's dice out and judges each reading alone
        if opened.link is not None:
            opened.link.send("OUT", mask=0)
    except OSError:  # the link reconnects; an older firmware answers NAK unknown
        pass
    return pyramid


class EditionMismatch(CliError):
    """The board is set to another edition than ``--edition`` asked for: ``board`` its
    edition, ``asked`` the one asked for."""

    def __init__(self, text, board, asked):
        CliError.__init__(self, text)
        self.board = board
        self.asked = asked


class EmulatedDiceMismatch(CliError):
    """``--edition`` asked for other dice than the table of the emulated Pico holds (the
    edition its ``pyramid emulate`` recorded, ``emulated_dice``): ``what``, the fact,
    ``fix``, what to give instead; the error's text is both in one line, ``what: fix``.
    ``dice`` the table's edition, ``asked`` the one asked for."""

    def __init__(self, what, fix, dice, asked):
        CliError.__init__(self, "%s: %s" % (what, fix))
        self.what = what
        self.fix = fix
        self.dice = dice
        self.asked = asked


def emulated_dice(pyramid):
    """The edition (``classic``/``second``) of the dice in the table of ``pyramid`` (an
    open ``Pyramid``) when it is an emulated Pico (its ``HELLO``'s id,
    ``sources.emulated_uid``) whose running ``pyramid emulate`` recorded them for its
    port (``sources.emulated_dice``); else ``None``: a real board, the virtual pyramid,
    or no record."""
    from camelhost.device import sources

    if pyramid.virtual is not None or not pyramid.hello:
        return None
    if not sources.emulated_uid(pyramid.hello.get("uid")):
        return None
    return sources.emulated_dice(pyramid.port)


def emulate_again(port, edition):
    """The clause (translated, no final full stop) that starts an emulated Pico with the
    ``edition`` edition's dice (``classic``/``second``) in place of the one on ``port``
    (a port path), ending with the command (``sources.emulate_words``): when the running
    ``pyramid emulate`` there recorded its ``--flash`` image, that one stopped (``q``
    in its terminal: the image is held while it runs) and the same board started again
    (``... --flash IMAGE``), whose id a resumed game checks (tester s45b, finding 4); else
    a new emulated Pico (``pyramid emulate --edition EDITION``). The one source of every
    refusal's command that starts an emulated Pico again."""
    from camelhost.device import sources

    command, image = sources.emulate_words(port, edition)
    words = {"word": edition_word(edition), "command": command, "port": port}
    if image is None:
        return _("start an emulated Pico with the %(word)s edition's dice: %(command)s") % words
    return _("stop the emulated Pico on %(port)s (q in its terminal) and start the same board "
             "again with the %(word)s edition's dice: %(command)s") % words


def emulated_edition_apart(pyramid, wanted=None):
    """``(what, fix)``, two clauses in the table's language, when ``pyramid`` (an open
    ``Pyramid``) is an emulated Pico whose firmware runs another edition (its ``HELLO``'s
    ``ed``) than the dice in its table (``emulated_dice``: a kept ``--flash`` image keeps
    its settings; maker s44): ``what`` names both editions, ``fix`` the calibrate (with
    the port) that sets the board to the dice's edition, or an emulated Pico with the
    firmware's dice (``emulate_again``: the same board, when its ``--flash`` image is
    recorded). ``wanted``: the edition that is to be played there (``classic``/
    ``second``, play's game), whose way alone ``fix`` names (the dice's: calibrate; the
    firmware's: emulate); ``None``, either edition will do, both ways. ``None``: a real
    board, the virtual pyramid, no record, or the dice of the edition it runs. Doctor
    fails its edition step with it, monitor warns with it, play refuses with it (maker
    s45)."""
    dice = emulated_dice(pyramid)
    board = pyramid.hello.get("ed") if pyramid.hello else None
    if dice is None or board is None or dice == board:
        return None
    what = _("the emulated Pico on %(port)s runs the %(board)s edition, but the dice in its "
             "table are the %(dice)s edition's") % {
        "port": pyramid.port, "board": edition_word(board), "dice": edition_word(dice)}
    calibrate = _("%(calibrate)s sets it to their edition with a profile of those dice") % {
        "calibrate": with_port("calibrate", pyramid.port, "--edition", dice)}
    emulate = emulate_again(pyramid.port, board)
    if wanted == dice:
        return what, calibrate
    if wanted == board:
        return what, emulate
    return what, _("%(calibrate)s, or %(emulate)s") % {"calibrate": calibrate,
                                                         "emulate": emulate}


def _use_them(tool, edition):
    """The clause of an ``EmulatedDiceMismatch``'s fix that names ``tool`` (``calibrate``,
    ``doctor``, ``monitor``, ``play``) with the dice's ``edition``: calibrate them with ..."""
    if tool == "calibrate":
        return _("calibrate them with --edition %s") % edition
    if tool == "doctor":
        return _("check them with --edition %s") % edition
    if tool == "play":
        return _("play them with --edition %s") % edition
    return _("watch their readings with --edition %s") % edition


def check_emulated_dice(pyramid, edition, tool):
    """Refuse ``--edition`` ``edition`` (None passes) on an emulated Pico whose table
    holds another edition's dice (``emulated_dice``): only those can be put in its head,
    whichever edition its firmware runs (a kept ``--flash`` image keeps its settings;
    maker s43, finding 2, and s44, finding 2). Raises ``EmulatedDiceMismatch`` (a
    ``CliError``), one line naming the dice and how to use them with ``tool`` (the
    command asking: ``calibrate``, ``doctor``, ``monitor``), or how to start an emulated
    Pico with the dice asked for (``emulate_again``: the same board again, when its
    ``--flash`` image is recorded). Returns the table's edition, or ``None`` (not an
    emulated Pico, or no record)."""
    dice = emulated_dice(pyramid)
    if dice is None or edition in (None, dice):
        return dice
    what = (_("--edition %(asked)s: the dice in the emulated Pico on %(port)s are the "
              "%(dice)s edition's") % {"asked": edition, "port": pyramid.port,
                                       "dice": edition_word(dice)})
    fix = (_("%(use)s (or leave --edition out), or %(emulate)s")
           % {"use": _use_them(tool, dice), "emulate": emulate_again(pyramid.port, edition)})
    raise EmulatedDiceMismatch(what, fix, dice, edition)


def check_edition(pyramid, edition, tool="monitor"):
    """Refuse a board set to another edition than ``--edition`` (doctor, monitor: the
    edition of the pyramid's dice means the same as in calibrate, which sets it): raises
    ``EditionMismatch`` (a ``CliError``) in one line saying how to set it. On an emulated
    Pico whose ``pyramid emulate`` recorded its dice, ``--edition`` is first compared with
    those (``check_emulated_dice``: ``EmulatedDiceMismatch``, its line naming ``tool``,
    the command asking): calibrate sets the board to the dice's edition, not to others.
    ``edition`` None, or the virtual pyramid (made with that edition's dice), pass."""
    if edition is None or pyramid.virtual is not None or not pyramid.hello:
        return
    check_emulated_dice(pyramid, edition, tool)
    board = pyramid.hello.get("ed")
    if board != edition:
        raise EditionMismatch(_("--edition %(given)s: the pyramid is set to the %(board)s "
                                "edition (pyramid calibrate --edition %(given)s sets it)")
                              % {"given": edition, "board": edition_word(board)}, board, edition)


def settings_apart(settings, info, port):
    """The line saying the board runs other sensor settings than its profile was fitted
    at, with the fix; ``None`` when they agree or either is unknown.

    ``settings``: the board's ``CFG`` (``it`` whole ms, ``gain``); ``info``: its
    ``INFO`` (``pit``/``pgain``, the stored profile's settings; absent with the
    built-in profile or a firmware before them, docs/protocol.md). A profile read at
    a higher gain or a longer integration time than its own saturates on the bright
    dice, at a lower one it loses counts: a ``calibrate`` session that ended without
    its goodbye left the board so (tester s36tm finding 7). The board starts at the
    settings saved with its profile (``SET`` is kept in RAM, ``SAVE`` writes them);
    a settings file an older firmware's ``SET`` wrote stays until the next save."""
    if not settings or info is None or info.get("pit") is None or info.get("pgain") is None:
        return None
    if (settings["it"], settings["gain"]) == (info["pit"], info["pgain"]):
        return None
    return _("the board runs %(ms)s ms and gain %(gain)dx, but its profile was fitted at "
             "%(profile_ms)s ms and gain %(profile_gain)dx (a calibrate session that did not "
             "end): unplug the pyramid and plug it back in (it starts at the settings saved "
             "with its profile); if it still says so, calibrate again (%(command)s)") % {
        "ms": decimal(integration_ms(settings["it"]), 1), "gain": settings["gain"],
        "profile_ms": decimal(integration_ms(info["pit"]), 1), "profile_gain": info["pgain"],
        "command": with_port("calibrate", port, "--autorange")}


class Floor:
    """Enough light as the board judges it (``board_floor``): ``counts`` (the darkest die's
    clear count, LED on minus LED off, a float), the exposure it is for (``it_ms``,
    ``gain``) and ``saved`` (True: the profile ``calibrate`` saved on the board, fitted at
    that exposure; False: the edition's built-in profile)."""

    def __init__(self, counts, it_ms, gain, saved):
        self.counts = counts
        self.it_ms = it_ms
        self.gain = gain
        self.saved = saved

    def need(self):
        """The floor as a whole count to reach (rounded up)."""
        return int(self.counts + 0.999)

    def words(self):
        """The floor and the exposure it is for, in the table's language: ``40 counts of
        clear (the built-in profile's floor, at 24.0 ms and gain 4x)``."""
        need = self.need()
        if self.saved:
            return ngettext(
                "%(n)d count of clear (the floor at %(ms)s ms and gain %(gain)dx, the exposure "
                "the board's profile was fitted at)",
                "%(n)d counts of clear (the floor at %(ms)s ms and gain %(gain)dx, the exposure "
                "the board's profile was fitted at)", need) % {
                    "n": need, "ms": decimal(self.it_ms, 1), "gain": self.gain}
        return ngettext(
            "%(n)d count of clear (the built-in profile's floor, at %(ms)s ms and gain "
            "%(gain)dx)",
            "%(n)d counts of clear (the built-in profile's floor, at %(ms)s ms and gain "
            "%(gain)dx)", need) % {"n": need, "ms": decimal(self.it_ms, 1), "gain": self.gain}


def board_floor(edition, info=None):
    """Enough light as the board behind ``info`` judges it: the clear count (LED on minus
    LED off) under which its firmware marks a reading ``dim`` (docs/calibration.md,
    "Enough light"), as a ``Floor``; the one source ``doctor``'s light step and
    ``monitor``'s ``DIM`` rows take it from (maker findings 2b, 8).

    ``edition``: the board's (``classic``, ``second``); ``info``: its ``INFO`` (or None).

    - ``INFO`` carries ``floor`` (a firmware that reports it, in tenths of a count): the
      number the firmware compares with (rounded up to a tenth, so a whole count reaches
      it just when it reaches the board's), at the saved profile's exposure (``pit`` ms,
      ``pgain``) when ``cal`` is 1, else at the built-in profile's.
    - No ``floor`` (an older firmware, or a profile without one) on the built-in profile
      (``cal`` 0 or absent, or no ``pit``/``pgain``): that profile's stored ``floor``
      (``camelup.calibration.light_floor``), the very number the firmware compares with,
      at the profile's exposure (24 ms, gain 4x).
    - No ``floor`` on a profile ``calibrate`` saved (``cal`` 1, ``pit`` ms, ``pgain``): an
      estimate, kept for those boards only. The floor follows from the exposure the
      profile was fitted at, the count noise growing with the gain (``fit``'s ``shot``,
      ``SHOT`` x gain): the built-in dice's ``light_floor`` at ``pgain``, said with that
      exposure (``Floor.words``).
    ``ValueError`` for an edition this program does not know."""
    from camelup import calibration
    from camelup.board import classifier

    profile = classifier.default_profile(edition)
    built = profile["settings"]
    info = info or {}
    reported = None if info.get("floor") is None else info["floor"] / 10
    if info.get("cal") and info.get("pit") is not None and info.get("pgain") is not None:
        gain = info["pgain"]
        if reported is None:
            reported = calibration.light_floor(profile, shot=calibration.SHOT * gain)
        return Floor(reported, integration_ms(info["pit"]), gain, True)
    if reported is None:
        reported = profile.get("floor", 0.0)
    return Floor(reported, built["integration_ms"], built["gain"], False)


def apart_at_start(pyramid):
    """``settings_apart`` of the board behind ``pyramid`` (an open dice source,
    ``camelhost.device.open.OpenPyramid``) as a game starts: its running settings
    (``CFG``, a ``SET`` without fields, which changes nothing) against its stored
    profile's (``INFO``'s ``pit``/``pgain``), the line naming both and the command that
    fixes it, with the board's port; ``None`` when they agree, for typed dice and the
    virtual pyramid (a new board on its built-in profile every time), and when the board
    has not said ``HELLO`` yet or does not answer at once (each asked once: a firmware
    before ``INFO?``, a lost line): the game starts anyway, and ``pyramid doctor`` checks
    it."""
    link = getattr(pyramid, "link", None)
    if link is None or getattr(pyramid, "virtual", None) is not None:
        return None
    if getattr(link, "hello", None) is None:
        return None  # not heard from yet: no wait here before the game starts
    wait = 3.0 * max(1.0, getattr(link, "stretch", 1.0))  # asked once each
    try:
        settings = dict(link.request("SET", lambda m: m.name == "CFG", wait, 0).fields)
        info = link.request("INFO?", lambda m: m.name == "INFO", wait, 0)
    except OSError:  # LinkError: no answer, or a NAK
        return None
    return settings_apart(settings, info, getattr(pyramid, "port", None) or link.port)


def describe(hello, settings=None):
    """Lines describing the device: versions, board id, boot, edition, sensor."""
    lines = [
        _("firmware %(firmware)s, protocol %(proto)d (host speaks %(ours)d), board %(board)s, "
          "boot %(boot)s")
        % {"firmware": hello["fw"], "proto": hello["proto"], "ours": _host_protocol(),
           "board": hello["uid"], "boot": hello["boot"]},
        ngettext("%(edition)s edition, value buttons %(buttons)s, sensor %(sensor)s%(chip)s, "
                 "%(events)d event this boot",
                 "%(edition)s edition, value buttons %(buttons)s, sensor %(sensor)s%(chip)s, "
                 "%(events)d events this boot", hello["seq"])
        % {"edition": edition_word(hello["ed"]),
           "buttons": _("fitted") if hello["vb"] else _("not fitted"), "sensor": hello["sensor"],
           "chip": _(" (chip id 0x%s)") % hello["sid"] if hello.get("sid") else "",
           "events": hello["seq"]},
    ]
    if settings:
        it = integration_ms(settings["it"])
        lines.append(settings_line(it, settings["gain"]))
    return lines


def _host_protocol():
    from camelup.board import protocol

    return protocol.PROTOCOL_VERSION


def header():
    """The monitor's column headings in the table's language, each within its column
    (``format_reading``'s widths: the words are short in every language)."""
    return "%5s %-8s %6s %6s %6s %6s | %-23s | %-12s %6s %5s" % (
        "#", pgettext("monitor column", "slider"), pgettext("monitor column", "clear"),
        pgettext("monitor column", "red"), pgettext("monitor column", "green"),
        pgettext("monitor column", "blue"), pgettext("monitor column", "LED off (c,r,g,b)"),
        pgettext("monitor column", "label"), pgettext("monitor column", "margin"),
        pgettext("monitor column", "line"))


def legend():
    """The monitor's one line that reads its columns, in the table's language, naming
    each by its heading (``header``) and each value that is a word or a mark, as
    ``format_reading`` writes them: the slider's ``PUSHED`` and ``-``, the margin's ``-``
    (no class won), the line's ``-`` (``line_column``: before the pyramid has sent ten
    lines, readings or any other, so from the first readings on it shows a share;
    tester s40 finding 11: the English legend said neither what the slider's values
    mean nor whose ten lines)."""
    return _("columns: %(slider)s: the slider switch now (%(pushed)s: pushed, -: not "
             "pushed); %(clear)s, %(red)s, %(green)s, %(blue)s: LED-on minus LED-off counts; "
             "%(off)s: LED-off counts (ambient light); %(label)s: classification; "
             "%(margin)s: in sigma (-: no class won); %(line)s: share of the pyramid's last "
             "lines, readings or any other, that arrived whole (-: until it has sent ten)") % {
                 "slider": pgettext("monitor column", "slider"),
                 "pushed": pgettext("monitor slider", "PUSHED"),
                 "clear": pgettext("monitor column", "clear"),
                 "red": pgettext("monitor column", "red"),
                 "green": pgettext("monitor column", "green"),
                 "blue": pgettext("monitor column", "blue"),
                 "off": pgettext("monitor column", "LED off (c,r,g,b)"),
                 "label": pgettext("monitor column", "label"),
                 "margin": pgettext("monitor column", "margin"),
                 "line": pgettext("monitor column", "line")}


def shown_label(label):
    """A classification (a label of ``camelup.board.classifier``) as the monitor and
    calibrate show it, in the table's language: a die by its colour words (``purple``,
    ``grey-white``; German ``lila``, ``grau-weiß``: ``colour_word`` of each part, at most
    ``LABEL_WIDTH`` characters), the head's other states (``empty``, ``unknown``,
    ``double``) in words. (``--place`` takes either language's words.)"""
    states = {"empty": pgettext("monitor label", "empty"),
              "unknown": pgettext("monitor label", "unknown"),
              "double": pgettext("monitor label", "double")}
    if label in states:
        return states[label]
    from camelup.editions import LABEL_JOIN, split_die_label

    # the grey die's colour and ink each in words, joined as in its label (grau-weiß)
    return LABEL_JOIN.join(colour_word(part) for part in split_die_label(str(label)) if part)


#: The width of a label's column (``shown_label``): German ``grau-schwarz``.
LABEL_WIDTH = 12


def line_column(quality):
    """The monitor's ``line`` column: ``Link.quality`` (0.0..1.0, the share of the last 50
    lines from the pyramid that passed their CRC) as a whole percent, ``-`` before it is
    known (fewer than ten lines)."""
    return "-" if quality is None else percent(quality)


def line_change(noisy, quality):
    """The monitor's one line when the line to the pyramid gets noisy (``noisy`` True:
    under ``link.NOISY``) or clean again (over ``link.CLEAN``), ``quality`` 0.0..1.0."""
    if noisy:
        return _("!! the line to the pyramid is noisy: %s of its lines arrive whole (check "
                 "the USB cable and its plugs)") % percent(quality)
    return _("!! the line to the pyramid is clean again: %s of its lines arrive whole") % percent(
        quality)


def format_reading(n, reading, saturation, quality=None, port=None, floor=None):
    """One monitor line for streamed reading number ``n`` (dict ``on, off, label, m``,
    ``sl``); ``saturation``: the clear count flagged as saturated; ``quality``: the
    link's line quality now (``Link.quality``, 0.0..1.0 or ``None``: the ``line`` column);
    ``port``: the pyramid's port, named in the ``SATURATED`` flag's command (``PORT``
    when ``None``, left out for ``auto``: ``with_port``); ``floor``: the board's ``Floor``
    (``board_floor``), under which a reading of anything but the empty head is flagged
    ``DIM``, as the firmware marks a release's event (None: no flag). Flags are
    separated by ``; ``: ``rejected; SATURATED: ...``."""
    on, off = reading["on"], reading["off"]
    diff = difference(on, off)
    label = reading["label"]
    margin = reading["m"] / 100.0
    flags = []
    shown = "%5s" % decimal(margin, 2)
    if label in ("unknown", "double"):
        shown = "    -"  # no class won: the margin says nothing about confidence
        flags.append(_("rejected") if label == "unknown" else _("two dice?"))
    if floor is not None and label != "empty" and diff[0] < floor.counts:
        # under the floor the board marks a release dim (maker finding 2b); an empty
        # head is always under it, and says nothing of the light on a die
        flags.append(ngettext("DIM: under %d count of clear", "DIM: under %d counts of clear",
                              floor.need()) % floor.need())
    if on[0] >= saturation:
        flags.append(_("SATURATED: %s picks a gain that fits") % with_port(
            "calibrate", port_word() if port is None else port, "--autorange"))
    slider = reading.get("sl")
    slider = "?" if slider is None else (pgettext("monitor slider", "PUSHED") if slider else "-")
    line = "%5d %-8s %6d %6d %6d %6d | %-23s | %-12s  %s %5s %s" % (
        n, slider, diff[0], diff[1], diff[2], diff[3], ",".join(str(v) for v in off),
        shown_label(label),
        shown, line_column(quality), "; ".join(flags))
    return line.rstrip()


def format_event(event, edition=None, port=None, earlier=False):
    """One monitor line for a slider push (``camelhost.device.events.DieEvent``):
    ``      slider pushed -> event 3: die red (margin 12.40)``; with ``earlier`` (a push
    from before the monitor's first reading, ``pushed_earlier``) ``      slider pushed
    before the first reading -> event 3: ...``.

    ``edition``: the board's edition (its ``HELLO ed=``, a name or an ``Edition``), whose
    dice order reads a die's ``out=`` mask: the dice out this leg named by their colour
    words (``colour_list``). A name that is no edition (another firmware's), or None,
    leaves the mask as its number. ``port``: the board's port, named in the calibrate
    command of a dim reading's hint (``with_port``; None or ``auto`` leave it out)."""
    if event.kind == "die":
        what = _("die %s") % shown_label(event.label())
        if event.value is not None:
            what += " " + _("value %d") % event.value
        if event.margin is not None:
            what += " " + _("(margin %s)") % decimal(event.margin, 2)
    elif event.kind == "unknown":
        what = _("die not recognised (nearest: %s)") % shown_label(event.best)
    elif event.kind == "nodie":
        what = _("no die came out")
    elif event.kind == "double":
        what = _("two dice came out together")
    elif event.kind == "fault":
        what = fault_text(event.code)
    else:
        what = _("events lost: %s") % ",".join(str(s) for s in event.missing)
    if event.kind == "die" and getattr(event, "out", None) is not None:
        # refused alone, named among the dice still in the pyramid (docs/classifier.md)
        dice = _dice_out(edition, event.out)
        if dice is None:
            what += "; " + (_("named among the dice still in the pyramid (out this leg: mask %d)")
                            % event.out)
        else:
            what += "; " + _("named among the dice still in the pyramid (out this leg: %s)") % dice
    if getattr(event, "dim", False):
        # the pyramid marks a reading under its profile's floor (docs/calibration.md)
        # the command with this port (tester s37tm finding 2)
        what += "; " + _("DIM: the sensor saw too little light (its clear count was under "
                         "what these dice need: %s)") % with_port("calibrate", port,
                                                                  "--autorange")
    if earlier:
        return _("      slider pushed before the first reading -> event %(event)s: %(what)s") % {
            "event": event.seq, "what": what}
    return _("      slider pushed -> event %(event)s: %(what)s") % {"event": event.seq,
                                                                  "what": what}


def pushed_earlier(event, hello):
    """Whether ``event`` (a ``DieEvent``) is a push the board had reported before it said
    ``hello`` (the ``HELLO`` the monitor started from, ``protocol.Message``): of that
    boot, its number at most the HELLO's ``seq`` (the last event of the boot,
    docs/protocol.md). The link delivers the board's unacknowledged events after its
    HELLO (a push made with no program reading, one made while the last monitor
    closed): old pushes, not ones made while watching (tester s44, finding 5)."""
    try:
        return event.boot == hello["boot"] and event.seq is not None and event.seq <= hello["seq"]
    except (KeyError, TypeError):
        return False


def _dice_out(edition, mask):
    """The dice of the wire's ``mask`` in ``edition`` as the table's colour words
    (``red, blue``), or None when ``edition`` names no edition this program knows."""
    from camelup.editions import EDITIONS

    name = getattr(edition, "name", edition)
    if name not in EDITIONS:
        return None
    return colour_list(out_dice(EDITIONS[name], mask))


def _restarted(pyramid, period_ms, follow_restarts, out):
    """Whether the board rebooted since the last look; if so, say it and stream again
    (raises ``DeviceRestarted`` unless ``follow_restarts``)."""
    try:
        pyramid.check_alive()
    except DeviceRestarted as exc:
        if not follow_restarts:
            raise
        print(_("!! %s; streaming again") % exc, file=out)
        pyramid.wait_hello()
        pyramid.hello = pyramid.link.hello
        pyramid.boot = pyramid.hello["boot"]
        pyramid.link.stream(period_ms)
        return True
    return False


def monitor(pyramid, count=None, period_ms=250, out=None, quiet_timeout=10.0, sensor_grace=3.0,
            follow_restarts=True):
    """Stream readings from ``pyramid`` and print them; stop after ``count`` readings.

    ``period_ms``: time between readings (20..60000). ``quiet_timeout``: seconds
    without any reading before giving up with a ``CliError``, for a board running in
    real time: times the link's ``slowness`` (a board whose heartbeats arrive ten times
    slower, the emulated one, gets ten times as long); ``sensor_grace``:
    seconds the firmware gets to bring a failed sensor back (it retries on its
    own) before the ``CliError`` names the sensor problem. ``follow_restarts``: after the board reboots, print a notice and
    stream again (else raise ``DeviceRestarted``). Returns the number of
    readings printed.
    """
    out = out or sys.stdout
    quiet_timeout = max(quiet_timeout, 3 * period_ms / 1000.0)
    link = pyramid.link
    hello = pyramid.hello
    settings = pyramid.settings()
    for line in describe(hello, settings):
        print(line, file=out)
    try:
        info = link.request("INFO?", lambda m: m.name == "INFO", 3.0, 0)
    except OSError:  # LinkError: a firmware older than INFO?, or a lost line
        info = None
    apart = settings_apart(settings, info, pyramid.port)
    if apart:
        print(_("!! %s") % apart, file=out)
    if hello["sensor"] != "ok":
        raise CliError(sensor_problem(hello["sensor"]))
    saturation = saturation_level(integration_ms(settings["it"]))
    floor = board_floor(settings.get("ed") or hello["ed"], info)
    # the floor the DIM rows are marked by, with the exposure it is for (maker finding 2b)
    print(_("enough light for a die: %s; a die's reading under it is marked DIM")
          % floor.words(), file=out)
    link.stream(period_ms)
    print(legend(), file=out)
    print(header(), file=out)
    n = 0
    last_reading = time.monotonic()
    sensor_state = hello["sensor"]
    said = [False]  # the line to the pyramid was said to be noisy

    def say_line():
        if link.noisy != said[0] and link.quality is not None:
            said[0] = link.noisy
            print(line_change(said[0], link.quality), file=out)

    def say_events(events, before_readings=False):
        # before_readings: taken when no reading had come yet (the board holds its
        # stream while it reads a release: a push read then was made before them)
        for event in events:
            print(format_event(event, hello.get("ed"), pyramid.port,
                               before_readings or pushed_earlier(event, hello)), file=out)

    first = None  # the first reading, when it came right after the events taken
    try:
        while count is None or n < count:
            events = link.pending_events()
            if n == 0 and first is None:
                # no reading had come once these events were taken: each came before
                # any (the link takes the board's lines in order); one had: unknown
                first = link.next_reading(timeout=0)
                say_events(events, before_readings=first is None)
            else:
                say_events(events)
            say_line()
            if _restarted(pyramid, period_ms, follow_restarts, out):
                last_reading = time.monotonic()
            reading, first = (first, None) if first is not None else (
                link.next_reading(timeout=0.1), None)
            if reading is None and time.monotonic() - last_reading > 1.0:
                # readings stopped: the firmware streams only while its sensor works
                state = pyramid.poll_sensor_state()
                if state != sensor_state:
                    print(_("!! sensor status: %(before)s -> %(now)s") % {
                        "before": sensor_state, "now": state}, file=out)
                    sensor_state = state
            elif reading is not None and sensor_state != "ok":
                print(_("!! sensor status: %s -> ok") % sensor_state, file=out)
                sensor_state = "ok"
            if reading is None:
                quiet = time.monotonic() - last_reading
                if sensor_state != "ok" and quiet > sensor_grace:
                    raise CliError(sensor_problem(sensor_state))
                patience = quiet_timeout * link.slowness
                if quiet > patience:
                    # a cause and a next step (tester s37tm finding 7): the board may
                    # well be alive, its stream held
                    raise CliError(_(
                        "no reading from the pyramid for %(wait).0f s (its reading stream "
                        "stopped: a slider push holds it while the board reads the release, and "
                        "a loaded machine slows the emulated Pico): run %(monitor)s again; if "
                        "it recurs, %(doctor)s") % {
                            "wait": patience, "monitor": with_port("monitor", pyramid.port),
                            "doctor": with_port("doctor", pyramid.port)})
                continue
            last_reading = time.monotonic()
            n += 1
            say_line()
            print(format_reading(n, reading, saturation, link.quality, pyramid.port, floor),
                  file=out)
            out.flush()
    finally:
        try:
            if link.state == "connected":
                link.stream(0, timeout=1.0)
        except OSError:
            pass
    say_events(link.pending_events())
    return n

