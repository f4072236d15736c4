"""``pyramid doctor --port PORT|virtual``: the bring-up checklist of a new pyramid.

Run once on a freshly built board (hardware/README.md, "Bringing up a board"). Each
step prints ``ok`` or ``FAILED`` with what it saw as soon as it is done (before the next
prompt), and a failed step the advice that
fixes it; steps that need an earlier one are ``skipped``. Exit status 0 when every
step passed, 1 otherwise.

Steps: ``connection`` (HELLO), ``versions`` (MicroPython and firmware, ``INFO?``),
``bytecode`` (the board loads what this program's mpy-cross makes), ``sensor``
(chip id and settings), ``LED`` (LED on minus LED off with a die in the head, at
least ``LED_OVER_EMPTY`` times what the built-in profile expects of an empty head:
``led_step``), ``reading`` (that die classified, with its margin), ``light`` (the
edition's darkest die, checked to be the die in the head by the board's reading,
gives enough light: its clear count against the floor the board judges by,
``monitor.board_floor``: the floor the board reports in ``INFO``, or from an older
firmware the built-in profile's ``floor`` or an estimate at the exposure a saved profile
was fitted at; said with its exposure), ``saturation`` (the
edition's brightest die, its clear count with the LED on under the count the sensor
saturates from at the board's integration time: ``saturation_step``), ``slider`` (seen
pressed, as one event, and released). On a real board the maker puts a die in the head and
pushes the slider when asked (``--push-wait`` seconds for the push); on the virtual pyramid
its simulated table does.
"""

import os
import sys
import tempfile
import time

from camelhost.commands.options import (
    add_dice_edition_argument,
    add_old_spelling,
    add_port_argument,
    add_seed_argument,
    metavar,
)
from camelhost.device import sources
from camelhost.device.sources import AUTO, MANUAL
from camelhost.errors import CliError
from camelhost.i18n import (
    N_,
    _,
    colours_in,
    decimal,
    edition_word,
    ngettext,
    pgettext,
    port_word,
)
from camelhost.tools import monitor
from camelhost.tools.calibrate import expected_clear
from camelhost.tools.commandline import command, with_port

HELP = (N_("Bring-up checklist of a pyramid: MicroPython and firmware versions, bytecode "
           "compatibility, sensor id and settings, LED, one reading with its margin, enough "
           "light on the darkest die, no saturation on the brightest, the slider; each step "
           "ok or failed with the advice that fixes it."))

#: The LED step's threshold, as a multiple of the clear count (LED on minus LED off)
#: the built-in profile expects of the empty head at the board's settings: a die
#: lit by the LED must give at least this many times what the head's black floor
#: reflects (``led_step``)
LED_OVER_EMPTY = 3.0
#: seconds to wait for the maker's slider push on a real board
PUSH_TIMEOUT = 30.0
#: seconds to wait for it on the emulated Pico (a pseudo-terminal): the push is Enter in
#: the emulator's terminal, reached by switching windows, and the emulated board takes
#: several seconds of wall time for it (docs/emulator.md)
EMULATED_PUSH_TIMEOUT = 120.0


#: The fix of a step whose die saturated the sensor before the saturation step read the
#: brightest die (the LED step's, the light step's): the brightest saturates too, and
#: the saturation step's fix, decided from every count read (``exposure_fix``), is the
#: one fix (maker finding 12: the LED step said its wire, the next steps the light)
SATURATION_BELOW = N_("too much light, the sensor saturates: the saturation step's fix "
                      "(below) is the one fix")


def any_die(edition):
    """The die the LED and reading steps ask for (``edition``: ``classic`` or
    ``second``, the board's own): the edition's first sensor label (blue, in both),
    as the virtual pyramid's hands place it; on the emulated Pico the prompt names its
    key, so it must be a die the board's edition has (tester2 s35, finding 17: it was
    red, which the classic edition has no die for). Source: ``camelup.editions``."""
    from camelup import editions

    return editions.get_edition(edition).sensor_labels[0]


def add_arguments(parser):
    add_port_argument(parser)
    add_dice_edition_argument(parser)
    add_seed_argument(parser, _("seed of the virtual pyramid"))
    parser.add_argument("--push-wait", type=float, default=None, metavar=metavar("SECONDS"),
                        help=_("how long to wait for the slider push when asked (default "
                               "%(wait).0f s, %(emulated).0f s on the emulated Pico, "
                               "docs/emulator.md)")
                        % {"wait": PUSH_TIMEOUT, "emulated": EMULATED_PUSH_TIMEOUT})
    # the older name, which in demo is the link's timeout
    add_old_spelling(parser, "--wait", "--push-wait", "push_wait", type=float)


class Step:
    """One checklist line: ``name``, ``status`` (``ok``, ``failed``, ``skipped``),
    ``detail`` (what was seen) and ``advice`` (what fixes a failure)."""

    def __init__(self, name, status, detail, advice="", dim=None, cause=None):
        self.name = name
        self.status = status
        self.detail = detail
        self.advice = advice
        #: ``saturation`` when the step failed because a count was clipped (its fix is
        #: ``exposure_fix``'s), else None
        self.cause = cause
        #: the light step's darkest die under the floor: ``(label, clear, floor)`` (its
        #: clear count, LED on minus LED off, and the floor), else None; the saturation
        #: step's fix is decided with it (``exposure_fix``)
        self.dim = dim

    def __repr__(self):
        return "Step(%r, %r, %r)" % (self.name, self.status, self.detail)

    def shown_name(self):
        """The check's name in the table's language (``name`` stays the key)."""
        return {
            "connection": pgettext("doctor check", "connection"),
            "edition": pgettext("doctor check", "edition"),
            "versions": pgettext("doctor check", "versions"),
            "bytecode": pgettext("doctor check", "bytecode"),
            "sensor": pgettext("doctor check", "sensor"),
            "LED": pgettext("doctor check", "LED"),
            "reading": pgettext("doctor check", "reading"),
            "light": pgettext("doctor check", "light"),
            "saturation": pgettext("doctor check", "saturation"),
            "slider": pgettext("doctor check", "slider"),
        }.get(self.name, self.name)

    def lines(self):
        """The step's line (status, name, what was seen) and, for a failure, the
        advice's; the status and name columns are 8 and 11 characters in every language."""
        word = {"ok": pgettext("doctor status", "ok"),
                "failed": pgettext("doctor status", "FAILED"),
                "skipped": pgettext("doctor status", "skipped")}[self.status]
        out = ["  %-8s %-11s %s" % (word, self.shown_name(), self.detail)]
        if self.advice:
            out.append("  %-8s %-11s %s" % ("", "", _("fix: %s") % self.advice))
        return out


def event_kind(kind):
    """A slider push's event kind (``die``, ``nodie``, ``double``, ``gap``: protocol
    words) as the doctor says it, in the table's language."""
    return {"die": pgettext("event kind", "die"), "nodie": pgettext("event kind", "nodie"),
            "double": pgettext("event kind", "double"),
            "gap": pgettext("event kind", "gap")}.get(kind, kind)


def event_seen(event):
    """What the board said a slider push let fall (a ``DieEvent``), in the table's
    language: the kind, with the die's colour (and the grey die's ink) for ``die`` and
    the nearest colour for ``unknown``, so the maker can hold it against the die that
    fell (the emulator prints it too)."""
    if event.kind == "die" and event.label():
        return _("die %s") % colours_in(event.label())
    if event.kind == "unknown" and event.best and event.best != "none":
        return _("unknown, nearest %s") % colours_in(event.best)
    return event_kind(event.kind)


class _Maker:
    """What a person does at a real board: put a die in, push the slider. ``emulated``:
    the board is the emulated Pico (``pyramid emulate``, its port a pseudo-terminal), where
    these are keys typed in the emulator's terminal: each prompt names the key (``p blue``,
    ``p blau`` in German, which the emulator reads whatever its own language; a die of
    the board's edition, ``any_die``; Enter for a push)."""

    def __init__(self, ask=input, say=print, wait=PUSH_TIMEOUT, emulated=False):
        self.ask = ask
        self.say = say
        self.wait = wait
        self.emulated = emulated

    def _wait_for_enter(self, prompt):
        try:
            self.ask(prompt)
        except EOFError:  # Ctrl-D, or run from a script with nothing more to read
            raise CliError(_("doctor asks the maker to put a die in the pyramid's head: "
                             "its input ended before Enter (run it at a terminal)")) from None

    def place_die(self, edition):
        """Ask for a die in the head; the die the prompt named (``any_die``: on the
        emulated Pico, whose key names one), or ``None`` where any die will do."""
        if self.emulated:
            self.place(any_die(edition))
            return any_die(edition)
        self._wait_for_enter(_("put one die in the pyramid's head (slider not pushed), then "
                               "press Enter: "))

    def place(self, label):
        word = colours_in(label)
        if self.emulated:
            self._wait_for_enter(_("put the %(die)s die in the pyramid's head: on the emulated "
                                   "Pico, type p %(die)s and Enter in its terminal; then press "
                                   "Enter here: ") % {"die": word})
            return
        self._wait_for_enter(_("put the %s die in the pyramid's head (slider not pushed), "
                               "then press Enter: ") % word)

    def wrong_die(self, label, found):
        """The head read ``found`` (``empty`` or another die's label) where the ``label``
        die was asked for: said at once, then asked again. True: read it again (Enter or
        ``r``, the die put in first); False: go on without it (``s``, the step then
        fails). Any other answer is refused in one line naming the keys, and asked again
        (tester s40, finding 4: the wrong die was said one step late, after another die
        was put in, and cost a rerun of the whole checklist)."""
        word = colours_in(label)
        self.say(monitor.wrong_die_words(found, label))
        if self.emulated:
            prompt = _("put the %(die)s die in the pyramid's head: on the emulated Pico, type "
                       "p %(die)s and Enter in its terminal; then press Enter here to read it "
                       "again (s goes on without it): ") % {"die": word}
        else:
            prompt = _("put the %s die in the pyramid's head (slider not pushed), then press "
                       "Enter to read it again (s goes on without it): ") % word
        return self._again(prompt, pgettext("without", "the %s die") % word)

    def empty_head(self, edition):
        """The head read empty where one die was asked for (``place_die``): said at once,
        then asked again, as ``wrong_die`` (tester s40, finding 9: the LED and reading
        steps failed and the doctor went on). True: read it again."""
        if self.emulated:
            return self.wrong_die(any_die(edition), "empty")
        self.say(_("the head reads empty"))
        return self._again(_("put one die in the pyramid's head (slider not pushed), then "
                             "press Enter to read it again (s goes on without it): "),
                           pgettext("without", "a die"))

    def _again(self, prompt, word):
        """Ask ``prompt`` until Enter or ``r`` (True: read again) or ``s`` (False: go on
        without ``word``, the die asked for, as ``without`` takes it); EOF is ``s``."""
        while True:
            try:
                answer = self.ask(prompt).strip().lower()
            except EOFError:
                return False  # nobody to put it in: the step says what was read
            if answer in ("", "r"):
                return True
            if answer == "s":
                return False
            # TRANSLATORS: %(typed)r is what was typed, %(without)s the die to go on without
            prompt = _("%(typed)r is neither Enter nor s: Enter reads the head again, s goes "
                       "on without %(without)s: ") % {"typed": answer, "without": word}

    def push(self):
        if self.emulated:
            self.say(_("push the slider once: on the emulated Pico, press Enter in its terminal "
                       "(waiting %.0f s)") % self.wait)
        else:
            self.say(_("push the slider once and let it go (waiting %.0f s)") % self.wait)
        return self.wait


class _Sim:
    """The virtual pyramid's table does it."""

    def __init__(self, vp):
        self.vp = vp

    def place_die(self, edition):
        self.vp.place(any_die(edition))
        return any_die(edition)

    def place(self, label):
        self.vp.place(label)

    def push(self):
        self.vp.release(wait=False)
        return 10.0


def host_mpy_header():
    """``(version, sub, arch, bits)`` of what this program's mpy-cross makes for the
    board (``flash.MARCH``), from compiling one empty module."""
    import subprocess

    from camelhost.device import flash

    exe = flash.mpy_cross()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.py")
        with open(src, "w") as f:
            f.write("x = 1\n")
        out = os.path.join(tmp, "probe.mpy")
        subprocess.run([exe, "-march=" + flash.MARCH, "-o", out, src], check=True, capture_output=True)
        return flash.mpy_header(out)


def packaged_firmware_version():
    """``VERSION`` of the firmware this program would flash (``pyramid/__init__.py``)."""
    import re

    from camelhost import paths

    with open(os.path.join(paths.FIRMWARE_DIR, "pyramid", "__init__.py"), encoding="utf-8") as f:
        found = re.search(r"^VERSION\s*=\s*[\"']([^\"']+)", f.read(), re.M)
    return found.group(1) if found else "?"


class _Steps(list):
    """The checklist so far; ``report(step)`` is called as each step is added, so the
    maker sees a step's line before the next prompt."""

    def __init__(self, report=None):
        list.__init__(self)
        self.report = report
        #: the board's ``INFO`` ``cal``: True when it runs a profile ``calibrate`` saved
        #: on it, False for the edition's built-in one, None when it does not say (a
        #: firmware from before the field, or no ``INFO``)
        self.calibrated = None

    def append(self, step):
        list.append(self, step)
        if self.report is not None:
            self.report(step)


def checklist(pyramid, hands, edition, report=None):
    """Run every step on an open ``tools.monitor.Pyramid``; returns ``[Step, ...]``.
    ``hands``: puts a die in the head and pushes the slider (``_Maker`` or ``_Sim``).
    ``report``: called with each ``Step`` as soon as it is done (or None). The darkest
    die (the light step's) is asked for before the brightest (the saturation step's),
    as the steps are said, and both steps are said after both were read: their fixes
    are decided from both counts (``exposure_fix``). A wrong die or an empty head is
    said at once and read again when the maker says so (``measure``)."""
    from camelhost.device import flash
    from camelhost.tools import calibrate, monitor

    link = pyramid.link
    hello = pyramid.hello
    port = pyramid.port
    steps = _Steps(report)
    steps.append(Step("connection", "ok", _("HELLO from board %(board)s, boot %(boot)s, "
                                            "protocol %(protocol)d")
                      % {"board": hello["uid"], "boot": hello["boot"],
                         "protocol": hello["proto"]}))

    # versions
    info = None
    try:
        info = link.request("INFO?", lambda m: m.name == "INFO", 3.0)
    except OSError as exc:  # LinkError: a firmware older than INFO?
        steps.append(Step("versions", "failed", _("firmware %(firmware)s did not say what runs "
                                                  "it (%(problem)s)")
                          % {"firmware": hello["fw"], "problem": exc},
                          _("flash this program's firmware: %s (safe boot first)")
                          % with_port("flash", port)))
    if info is not None:
        steps.calibrated = info.get("cal")
        ours = packaged_firmware_version()
        # TRANSLATORS: %(runs)s %(version)s is what runs the firmware, e.g. MicroPython 1.23.0
        detail = _("%(runs)s %(version)s, firmware %(firmware)s (this program ships "
                   "%(ours)s)") % {
            "runs": "MicroPython" if info["impl"] == "micropython" else info["impl"],
            "version": info["mp"], "firmware": hello["fw"], "ours": ours}
        if hello["fw"] != ours:
            steps.append(Step("versions", "failed", detail,
                              _("flash the firmware this program ships: %s")
                              % with_port("flash", port)))
        else:
            steps.append(Step("versions", "ok", detail))

    # bytecode
    if info is None:
        steps.append(Step("bytecode", "skipped", _("needs the versions step")))
    elif info["impl"] != "micropython":
        steps.append(Step("bytecode", "skipped", _("the firmware runs under %s (virtual pyramid without the "
                          "MicroPython unix port): no .mpy files to check") % info["impl"]))
    else:
        board = flash.Board(info["impl"], info["mp"], info["mpy"] or -1, [])
        try:
            header = host_mpy_header()
            flash.check_compatible(board, header)
            got = board.mpy_version
            steps.append(Step("bytecode", "ok", _("the board loads .mpy v%(major)d.%(minor)d; "
                                                  "mpy-cross makes %(made)s")
                              % {"major": got[0], "minor": got[1],
                                 "made": flash.describe_header(header)}))
        except CliError as exc:
            steps.append(Step("bytecode", "failed", str(exc),
                              _("install MicroPython 1.23 or later on the board (hold BOOTSEL while "
                                "plugging in, copy the RP2040 UF2), then pyramid flash")))

    # sensor and settings
    state = hello["sensor"]
    sid = hello.get("sid")
    settings = None
    try:
        settings = pyramid.settings()
    except OSError:
        pass
    # the board's own edition (its CFG, else its HELLO) names the dice asked for
    edition = (settings or {}).get("ed") or hello.get("ed") or edition
    shown = _("chip id 0x%s") % sid if sid else _("no chip id read")
    if settings:
        # the board reports whole ms; the chip integrates in 2.4 ms steps (7 -> 7.2)
        # TRANSLATORS: %(chip)s: "chip id 0x44" or "no chip id read"
        shown = _("%(chip)s; %(edition)s edition, integration %(ms)s ms, gain %(gain)dx, "
                  "value buttons %(buttons)s") % {
            "chip": shown, "edition": edition_word(settings["ed"]),
            "ms": decimal(monitor.integration_ms(settings["it"]), 1), "gain": settings["gain"],
            "buttons": _("fitted") if settings["vb"] else _("not fitted")}
    sensor_ok = state == "ok"
    apart = monitor.settings_apart(settings, info, port)
    steps.append(Step("sensor", "ok" if sensor_ok and not apart else "failed",
                      # TRANSLATORS: %(state)s is the sensor's state (ok, fault, ...),
                      # %(chip)s its chip id and settings
                      _("sensor %(state)s, %(chip)s") % {"state": state, "chip": shown},
                      monitor.sensor_problem(state) if not sensor_ok else apart or ""))

    # LED on/off difference and one reading, with a die in the head
    if not sensor_ok:
        steps.append(Step("LED", "skipped", _("needs the sensor")))
        steps.append(Step("reading", "skipped", _("needs the sensor")))
        steps.append(Step("light", "skipped", _("needs the sensor")))
        steps.append(Step("saturation", "skipped", _("needs the sensor")))
    else:
        it_now = monitor.integration_ms(settings["it"]) if settings else None
        # the die the prompt named is checked as the light step checks its die, and asked
        # for again, so that the LED is measured on it (maker2 s42, finding 3: the yellow
        # die was taken where blue was asked); any die will do where none was named
        asked = hands.place_die(edition)
        reading, on, off = read_asked(link, hands, asked, edition,
                                      monitor.saturation_level(it_now) if settings else None)
        led = led_step(on, off, reading, settings, edition)
        if it_now is not None and on[0] >= monitor.saturation_level(it_now):
            # a clipped count is no measure of the LED: the cause is too much light, not
            # the LED's wire (maker finding 12: one line said the LED does not light,
            # the next that the sensor saturates)
            led = Step("LED", "failed", ngettext(
                "LED on gives %(counts)d count of clear with the die: the sensor saturates "
                "from %(limit)d, so what the LED adds was not measured",
                "LED on gives %(counts)d counts of clear with the die: the sensor saturates "
                "from %(limit)d, so what the LED adds was not measured", on[0]) % {
                    "counts": on[0], "limit": monitor.saturation_level(it_now)},
                _(SATURATION_BELOW), cause="saturation")
        # the counts of the dice read under the saturation level, by the board's label:
        # what the saturation fix is worked out from (``saturation_advice``)
        seen = {}
        if reading is not None and reading["label"] not in ("empty", "unknown", "double"):
            _keep(seen, reading["label"], on, off, settings)
        steps.append(led)
        if reading is None:
            steps.append(Step("reading", "failed", _("no reading streamed within 5 s"),
                              _("see hardware/README.md, 'When the sensor is not found'")))
        elif reading["label"] in ("empty", "unknown", "double"):
            steps.append(Step("reading", "failed", _("the die in the head was read as "
                                                     "%(read)s (margin %(margin)s sigma)")
                              % {"read": monitor.shown_label(reading["label"]),
                                 "margin": decimal(reading["m"] / 100, 2)},
                              reading_fix(led, port)))
        else:
            steps.append(Step("reading", "ok", _("the die in the head reads %(read)s, margin "
                                                 "%(margin)s sigma (how much nearer it is "
                                                 "than the next likeliest class)")
                              % {"read": colours_in(reading["label"]),
                                 "margin": decimal(reading["m"] / 100, 2)}))
        # both dice are read before either step is judged, so that the light step's fix
        # and the saturation step's are decided from both dice's counts, in one place
        # (``exposure_fix``); they are asked for in the order their steps are said, the
        # darkest (light) first (tester s40, finding 4)
        brightest = darkest = None
        if settings:
            limit = monitor.saturation_level(it_now)
            dark = calibrate.darkest(settings.get("ed") or edition)
            darkest = (dark,) + measure(link, hands, dark, limit)
            top = calibrate.brightest(settings.get("ed") or edition)
            brightest = (top,) + measure(link, hands, top, limit)
            if brightest[1] is not None and brightest[1]["label"] == top:
                _keep(seen, top, brightest[2], brightest[3], settings)
        light = light_step(link, hands, settings, edition, port, seen, info, brightest,
                           measured=darkest)
        steps.append(light)
        steps.append(saturation_step(link, hands, settings, edition, port, seen, brightest,
                                     light.dim))

    # slider: pressed (one event) and released
    link.pending_events()
    wait = hands.push()
    event = next_push(link, hello, wait)
    if event is None:
        steps.append(Step("slider", "failed", _("no push seen within %.0f s") % wait,
                          _("check the slider switch: COM to GND, NO to SLIDER (GP15), with its "
                            "external pull-up (hardware/README.md, 'When the slider is not "
                            "seen')")))
    else:
        released = _released(link)
        what = {"event": event.seq, "seen": event_seen(event)}
        if released:
            steps.append(Step("slider", "ok", _("pressed (event %(event)d: %(seen)s) and "
                                                "released") % what))
        else:
            steps.append(Step("slider", "failed", _("pressed (event %(event)d: %(seen)s) but "
                                                    "it still reads pressed") % what,
                              _("the switch stays closed: check the lever and that NO (not NC) "
                                "is wired (hardware/README.md, 'When the slider is not seen')")))
    return steps


def next_push(link, hello, wait):
    """The next slider push made after doctor asked for one: ``link``'s next
    ``DieEvent``, waiting at most ``wait`` s in all, passing over pushes the board had
    made before doctor connected (``monitor.pushed_earlier`` against ``hello``, the
    board's ``HELLO``: a push nobody acknowledged is sent again to the next program that
    connects, and on a slow board it can come after the pushes waiting were cleared,
    where it passed the slider step as a push nobody made; tester s44, finding 5).
    ``None`` when no new push came in time."""
    deadline = time.monotonic() + wait
    while True:
        event = link.next_event(max(0.0, deadline - time.monotonic()))
        if event is None or not monitor.pushed_earlier(event, hello):
            return event


def reading_fix(led, port):
    """The ``reading`` step's fix when the die in the head was read as empty, unknown or
    two dice, by what the ``LED`` step (``led``, its ``Step``) found: the head was empty
    (no die was put in when asked: put one in, as the LED step says; tester2 s35,
    finding 14 k: it said to calibrate), the LED does not light (that first: no profile
    reads an unlit die), else the profile does not fit these dice, this sensor and
    head (calibrate, with ``port`` in the command)."""
    if led.status == "failed" and led.advice == empty_head_fix():
        return led.advice
    if led.status == "failed" and led.cause == "saturation":
        return led.advice  # too much light: the one fix (``exposure_fix``), said again
    if led.status == "failed":
        return _("the LED step's fix first (above): no profile can name a die the LED does "
                 "not light; then run doctor again")
    return _("calibrate the pyramid with these dice: %s") % with_port(
        "calibrate", port, "--autorange")


def empty_head_fix():
    """The fix of a step that measured an empty head where a die was asked for (the
    ``LED`` and ``reading`` steps say it alike)."""
    return _("put a die in the pyramid's head when asked, then run doctor again")


def led_step(on, off, reading, settings, edition):
    """The ``LED`` step: does the illumination LED light the die the maker put in
    the head? ``on``, ``off``: the ``SAMPLE`` answer (``(c, r, g, b)`` counts, LED on
    and LED off); ``reading``: the board's ``RD`` of the head then (or None);
    ``settings``: the device's ``CFG`` (or None: the second edition's 24 ms, 4x).

    The LED passes when it adds at least ``LED_OVER_EMPTY`` times the clear count the
    built-in profile expects of the *empty* head at these settings (``expected_clear``):
    a lit empty head's matte black floor, further away, reflects a few dozen counts at
    24 ms and gain 4x (the tester's monitor showed 38-59), each die ten times that and
    more (the second edition's darkest, purple, about 11 times; in the real EV3 readings
    of ``../shared/data`` the darkest cube reflects about a fifth of the white one's
    light), and a dead LED adds nothing. Measured against a fixed count, an empty head
    could pass (a tester saw "adds 43 clear counts" with nothing in the head); against
    the empty head's own light, it cannot, at any integration time or gain. When the
    LED adds too little and the board reads the head empty while the LED still lights
    it (at least half the empty head's expected count), the step fails asking for the
    die, not the LED's wire."""
    cfg = settings or {"it": 24.0, "gain": 4}
    empty = expected_clear("empty", cfg, (settings or {}).get("ed") or edition)
    need = int(LED_OVER_EMPTY * empty + 0.999)
    diff = on[0] - off[0]
    if diff >= need:
        # each count has its own plural (tester s35-2 finding 14 a: "about 1 clear counts")
        # TRANSLATORS: %(empty)s: the clear count an empty head adds, with its word ("38
        # clear counts", its own plural)
        return Step("LED", "ok", ngettext(
            "LED on adds %(added)d clear count with the die (LED on %(on)d, LED off %(off)d: "
            "the room's light); an empty head adds about %(empty)s",
            "LED on adds %(added)d clear counts with the die (LED on %(on)d, LED off "
            "%(off)d: the room's light); an empty head adds about %(empty)s", diff) % {
                "added": diff, "on": on[0], "off": off[0],
                "empty": clear_counts(int(empty + 0.5))})
    if reading is not None and reading["label"] == "empty" and diff * 2 >= empty:
        return Step("LED", "failed", ngettext(
            "the head reads empty: LED on adds %d clear count, what an empty head gives, "
            "so the LED was not measured on a die",
            "the head reads empty: LED on adds %d clear counts, what an empty head gives, "
            "so the LED was not measured on a die", diff) % diff,
            empty_head_fix())
    # TRANSLATORS: %(need)s: the clear count a lit die adds at least, with its word ("380
    # clear counts", its own plural)
    return Step("LED", "failed", ngettext(
        "LED on adds only %(added)d clear count (LED on %(on)d, LED off %(off)d) with a die "
        "in the head; a lit die adds at least %(need)s",
        "LED on adds only %(added)d clear counts (LED on %(on)d, LED off %(off)d) with a die "
        "in the head; a lit die adds at least %(need)s", diff) % {
            "added": diff, "on": on[0], "off": off[0], "need": clear_counts(need)},
        _("the illumination LED does not light: check the wire from SENSOR_LED "
          "(GP6) to the breakout's LED pin, and the LED itself "
          "(hardware/README.md)"))



def clear_counts(count):
    """``count`` (``int``) with its word, in the table's language: ``1 clear count``,
    ``38 clear counts`` (a part of the LED step's sentences, with its own plural)."""
    return ngettext("%(count)d clear count", "%(count)d clear counts", count) % {
        "count": count}


def _not_measured(step, reading, label, word):
    """The failed ``step`` (``light`` or ``saturation``) when the head held no die or
    another die than ``label`` (``word``: its name in the table's language) as the
    reading ``reading`` was taken: an empty head's light, or another die's (a tester left
    yellow in), is not that die's, never an "ok" for it; ``None`` when it may be that
    die's (a reading too dim or too mixed to name a die is measured: the count says why)."""
    if reading is None:
        return None
    again = _("put the %s die in the pyramid's head when asked, then run doctor again") % word
    if reading["label"] == "empty":
        return Step(step, "failed",
                    _("the head reads empty, so the %s die's light was not measured") % word,
                    again)
    if reading["label"] not in (label, "unknown", "double"):
        return Step(step, "failed",
                    _("%(read)s, so the %(die)s die's light was not measured")
                    % {"read": monitor.wrong_die_words(reading["label"], label), "die": word},
                    again)
    return None

def _keep(seen, label, on, off, settings):
    """Add the reading ``on`` minus ``off`` (``SAMPLE``'s counts) of ``label`` to ``seen``
    (readings by label, as ``calibrate.brightest_estimate`` takes them) unless its LED-on
    clear count saturates the sensor at ``settings`` (the device's ``CFG``): a clipped
    count only says "at least"."""
    from camelhost.tools import calibrate, monitor

    if not settings or on[0] >= monitor.saturation_level(calibrate.integration_ms(settings["it"])):
        return
    seen.setdefault(label, []).append(tuple(max(0, a - b) for a, b in zip(on, off, strict=False)))


def light_step(link, hands, settings, edition, port="PORT", seen=None, info=None,
               brightest=None, measured=None):
    """The ``light`` step: the edition's darkest die in the head (``hands.place``), its
    clear count (LED on minus LED off) against the floor the board judges by
    (``monitor.board_floor`` of its ``INFO`` ``info``: the ``floor`` the board reports,
    or from a firmware that does not, the built-in profile's stored ``floor`` or on a
    board running a saved profile the floor estimated at the exposure that profile was
    fitted at; said with its exposure; maker finding 8); failed with ``calibrate.light_fix``'s one line when under it. ``settings``: the
    device's ``CFG`` (or None: the step is skipped). ``port``: the board's port, named
    in the calibrate command the advice gives. ``seen``: the readings doctor took so far
    under the saturation level, by label (``_keep``): this die's is added when it was the
    die in the head; a saturated one's fix is worked out from them
    (``saturation_advice``). ``brightest``: ``(label, reading, on, off)`` of the
    edition's brightest die, read before (``measure``), or None: the fix of too little
    light is decided with its count (``exposure_fix``), so it never names a setting
    under which that die saturates; the failed step's ``dim`` keeps
    ``(label, clear, floor)`` for the saturation step's fix. ``measured``: ``(label,
    reading, on, off)`` of the darkest die read before (``measure``), else it is read
    here."""

    from camelhost.tools import calibrate, monitor

    if not settings:
        return Step("light", "skipped", _("needs the sensor settings"))
    edition = settings.get("ed") or edition
    judged = monitor.board_floor(edition, info)
    floor = judged.counts
    label = calibrate.darkest(edition)
    word = colours_in(label)  # the die named in the table's language (German lila)
    if measured is not None and measured[0] == label:
        _label, reading, on, off = measured
    else:
        reading, on, off = measure(link, hands, label)
    missed = _not_measured("light", reading, label, word)
    if missed is not None:
        return missed
    if seen is not None:
        _keep(seen, label, on, off, settings)
    clear = on[0] - off[0] if on[0] > off[0] else 0
    it = calibrate.integration_ms(settings["it"])
    shown = ngettext("the darkest die (%(die)s) gives %(counts)d count of clear at %(ms)s ms "
                     "and gain %(gain)dx; enough light for these dice is %(floor)s",
                     "the darkest die (%(die)s) gives %(counts)d counts of clear at %(ms)s ms "
                     "and gain %(gain)dx; enough light for these dice is %(floor)s", clear) % {
                         "die": word, "counts": clear, "ms": decimal(it, 1),
                         "gain": settings["gain"], "floor": judged.words()}
    if clear >= floor:
        if reading is None:
            # TRANSLATORS: %(light)s: the darkest die's light against enough light ("the
            # darkest die (purple) gives 410 counts of clear at 24.0 ms ...")
            return Step("light", "ok", _("%(light)s; the board sent no reading, so whether "
                                         "its profile names the %(die)s die was not checked")
                        % {"light": shown, "die": word})
        if reading["label"] != label and on[0] >= monitor.saturation_level(it):
            # the darkest die itself saturates the sensor: its colour is lost, which no
            # calibration at these settings mends (the saturation step says it too)
            return Step("light", "failed",
                        _("%(light)s; but it saturates the sensor (from %(limit)d counts of "
                          "clear with the LED on), so the board reads it as %(read)s")
                        % {"light": shown, "limit": monitor.saturation_level(it),
                           "read": colours_in(reading["label"])},
                        _(SATURATION_BELOW), cause="saturation")
        if reading["label"] != label:
            # enough light, yet the board's own profile rejects the die: a profile
            # calibrated without that die in the head (tester 4) or on other dice
            return Step("light", "failed",
                        _("%(light)s; but the board's profile reads the %(die)s die as "
                          "%(read)s (margin %(margin)s sigma)")
                        % {"light": shown, "die": word, "read": colours_in(reading["label"]),
                           "margin": decimal(reading["m"] / 100, 2)},
                        _("the profile on the board does not name the %(die)s die: calibrate "
                          "again with every die in the head when asked (%(command)s)")
                        % {"die": word, "command": with_port("calibrate", port, "--autorange")})
        return Step("light", "ok", _("%(light)s; the board names it %(die)s")
                    % {"light": shown, "die": word})
    clipped = bright = None
    if brightest is not None:
        top, top_reading, top_on, _top_off = brightest
        if top_on[0] >= monitor.saturation_level(it):
            clipped = (top, top_on[0])
        elif _not_measured("saturation", top_reading, top, colours_in(top)) is None:
            bright = top_on[0]  # its LED-on count: what must stay under saturation
    dim = (label, clear, floor)
    return Step("light", "failed", shown,
                exposure_fix(it, settings["gain"], port, edition, seen, clipped=clipped,
                             dim=dim, bright=bright),
                dim=dim, cause="saturation" if clipped else None)


def _ratio_estimate(edition, label, clear):
    """The edition's brightest die's clear count when ``label`` gives ``clear``, by the
    built-in profile's brightness ratios (``classes[...]["unit"][0]``)."""
    from camelup.board import classifier

    classes = classifier.default_profile(edition)["classes"]
    return clear * max(classes[k]["unit"][0] for k in classes) / classes[label]["unit"][0]


def exposure_fix(it, gain, port, edition, seen=None, clipped=None, dim=None, bright=None):
    """The one fix line of the light reaching the sensor, decided here for the ``LED``,
    ``light`` and ``saturation`` steps alike (maker finding 12: one line said more light,
    the next less; one cause, one fix). ``it`` ms and ``gain``: the board's settings;
    ``port``: named in the calibrate command (``with_port``); ``seen``: the readings under
    the saturation level by label (``_keep``); ``clipped``: ``(label, LED-on clear)`` of
    a reading at or over the saturation level, or None; ``dim``: ``(label, clear,
    floor)`` of the darkest die under the floor, or None; ``bright``: the brightest die's
    LED-on clear count when read under the saturation level, or None.

    - Too much light and too little at once (``clipped`` and ``dim``), at the same
      settings: no setting mends both, since every count scales alike with gain and
      integration time (TCS34725 datasheet) and one would have to go up, the other down;
      the LED-on count holds the room's light, so that, or a sensor looking past the die,
      is the one cause, said once, not "more light" and "less light" in turn.
    - Too much light only: ``saturation_advice``.
    - Too little only: ``calibrate.light_fix`` with the brightest die's count (``bright``,
      else estimated by the built-in profile's ratios), so the setting named never
      saturates the brightest die."""
    from camelhost.tools import calibrate

    if clipped is not None and dim is not None:
        return _("the %(bright)s die saturates the sensor while the %(dark)s die gets too "
                 "little light at every setting: keep the room's light out of the head (the "
                 "slider gap) and check that the sensor looks straight at the die, then "
                 "%(command)s") % {
                     "bright": colours_in(clipped[0]), "dark": colours_in(dim[0]),
                     "command": with_port("calibrate", port, "--autorange")}
    if clipped is not None:
        return saturation_advice(it, gain, port, seen, clipped, edition)
    label, clear, floor = dim
    top = bright if bright is not None else _ratio_estimate(edition, label, clear)
    fix, new = calibrate.light_fix({"integration_ms": it, "gain": gain}, clear, floor, top,
                                   calibrate.LIGHT_MARGIN)
    if not new:
        return fix
    # the command with this port (tester s37tm finding 1: without it, --port auto finds
    # no board on the emulated Pico's pseudo-terminal)
    # TRANSLATORS: %(fix)s is the setting in words, %(command)s the command that sets it
    return _("set %(fix)s: %(command)s (or --autorange, which finds it)") % {
        "fix": fix, "command": with_port("calibrate", port, "--integration",
                                         "%.1f" % new["integration_ms"], "--gain",
                                         str(new["gain"]))}


def measure(link, hands, label, limit=None):
    """Put the ``label`` die in the head (``hands.place``) and read it: ``(reading, on,
    off)`` as ``read_asked`` reads it, the wrong die or an empty head asked again."""
    hands.place(label)
    return read_asked(link, hands, label, limit=limit)


def read_asked(link, hands, label, edition=None, limit=None):
    """Read the head where the maker was asked for the ``label`` die (or for any die:
    ``label`` None, ``edition`` the board's): ``(reading, on, off)``, the board's ``RD``
    (or None, ``monitor.one_reading``) and ``SAMPLE``'s counts (``(c, r, g, b)``, LED on
    and LED off). The one check of the die in the head, for every step that asks for
    one: when the board reads the head empty or as another die than ``label`` (any die
    is right where none was named), under ``limit`` (the LED-on clear count the sensor
    saturates from, ``monitor.saturation_level``; None: no limit; a saturated die's
    label says nothing of which die it is), hands that can be asked
    (``_Maker.wrong_die``, ``_Maker.empty_head``) are told at once and the head is read
    again if they say so; the virtual table's hands put the die in themselves and are
    not asked."""
    wrong_die = getattr(hands, "wrong_die", None)
    empty_head = getattr(hands, "empty_head", None)
    while True:
        reading = monitor.one_reading(link)
        on, off = link.sample()
        if (reading is None or reading["label"] in (label, "unknown", "double")
                or (limit is not None and on[0] >= limit)):
            return reading, on, off
        if label is None:  # any die: only an empty head is asked again
            if reading["label"] != "empty" or empty_head is None or not empty_head(edition):
                return reading, on, off
        elif wrong_die is None or not wrong_die(label, reading["label"]):
            return reading, on, off


def saturation_step(link, hands, settings, edition, port="PORT", seen=None, measured=None,
                    dim=None):
    """The ``saturation`` step: the edition's brightest die (``calibrate.brightest``:
    yellow in the second edition, white in the classic) in the head (``hands.place``),
    its clear count with the LED on, the room's light included (the sensor counts
    both), against the clear count from which the sensor saturates at the board's
    integration time: ``monitor.saturation_level``, whose one source is
    ``camelup.board.tcs34725.saturation_level`` (the full scale ``min(65535, 1024 x
    steps)`` of ATIME's steps, 75 % of it below 64 steps where the analog front end
    clips first: TCS3472 datasheet "RGBC Timing Register (0x01)", ams DN40), the
    limit ``calibrate`` marks ``SATURATED`` by. At or over it the die's colour (its
    channels over clear) is lost and a profile misnames it at the table, so the step
    fails with one fix line worked out from the counts doctor read (``saturation_advice``:
    the settings that keep the brightest die under the level, with the calibrate command
    for ``port``). An empty head or another die fails as the light step's do (nothing
    measured of this die). ``settings``: the device's ``CFG`` (``it`` ms, ``gain``; or
    None: skipped). ``seen``: the readings doctor took under the saturation level, by
    label (``_keep``: the LED step's die, the light step's darkest die).
    (Tester s35-2 finding 1: a profile fitted at gain 16x with yellow saturated passed
    a doctor that checked only the darkest die.) ``measured``: ``(label, reading, on,
    off)`` of the brightest die read before (``measure``), else it is read here;
    ``dim``: the light step's ``dim`` (the darkest die under the floor): the fix is then
    one setting for both dice (``exposure_fix``)."""
    from camelhost.tools import calibrate, monitor

    if not settings:
        return Step("saturation", "skipped", _("needs the sensor settings"))
    edition = settings.get("ed") or edition
    label = calibrate.brightest(edition)
    if measured is not None and measured[0] == label:
        _label, reading, on, _off = measured
    else:
        reading, on, _off = measure(link, hands, label)
    word = colours_in(label)
    it = calibrate.integration_ms(settings["it"])
    gain = settings["gain"]
    limit = monitor.saturation_level(it)
    shown = ngettext("the brightest die (%(die)s) gives %(counts)d count of clear with the "
                     "LED on at %(ms)s ms and gain %(gain)dx; the sensor saturates from "
                     "%(limit)d",
                     "the brightest die (%(die)s) gives %(counts)d counts of clear with the "
                     "LED on at %(ms)s ms and gain %(gain)dx; the sensor saturates from "
                     "%(limit)d", on[0]) % {
                         "die": word, "counts": on[0], "ms": decimal(it, 1), "gain": gain,
                         "limit": limit}
    if on[0] >= limit:  # saturated, whatever the board then read it as
        return Step("saturation", "failed", shown,
                    exposure_fix(it, gain, port, edition, seen, clipped=(label, on[0]),
                                 dim=dim), cause="saturation")
    missed = _not_measured("saturation", reading, label, word)
    return missed if missed is not None else Step("saturation", "ok", shown)


def saturation_advice(it, gain, port, seen=None, clipped=None, edition="second"):
    """The one fix line of a die that saturates the sensor at ``it`` ms and ``gain``,
    worked out as ``pyramid calibrate`` works it out when a reading saturates (one
    source: ``calibrate.brightest_estimate`` and ``calibrate.saturation_fix``): the
    brightest die's LED-on clear count from the readings in ``seen`` (LED on minus LED
    off by label, none saturated) and ``clipped`` (``(label, LED-on clear)`` of the
    saturated reading, a lower bound), scaled linearly with gain and integration time
    (TCS34725 datasheet) to at most 65 % of full scale: the highest lower gain that does,
    at gain 1x the integration time, with the calibrate command for ``port``. When every
    die doctor read saturated (no count to scale), ``--autorange``, which measures the
    brightest die, unless even ``clipped``'s lower bound needs the hardware (LED
    current, sensor distance): then that. ``edition``: the dice's edition (their
    brightness relative to each other is its built-in profile's)."""
    from camelhost.tools import calibrate

    settings = {"integration_ms": it, "gain": gain}
    estimate = calibrate.brightest_estimate(seen or {}, edition, clipped)
    if estimate is not None:
        text, lower = calibrate.saturation_fix(settings, estimate[1])
    else:
        # a clipped count says "at least": a setting from it may still saturate, but a
        # count that even at gain 1x and the shortest time saturates says the hardware
        text, lower = calibrate.saturation_fix(settings, clipped[1] if clipped else None)
        if lower is not None:
            return _("calibrate again with --autorange, which measures the brightest die and "
                     "chooses the gain (every die read here saturated the sensor, so their "
                     "counts cannot tell it): %s") % with_port(
                         "calibrate", port, "--autorange")
    if lower is None:  # even gain 1x saturates: the hardware gives too much light
        return text
    shorter = "%.1f" % lower["integration_ms"]  # typed back: a dot in every language
    if lower["integration_ms"] != it and lower["gain"] != gain:
        return _("calibrate again at gain %(gain)dx and integration time %(ms)s ms: "
                 "%(command)s") % {
            "gain": lower["gain"], "ms": decimal(lower["integration_ms"], 1),
            "command": with_port("calibrate", port, "--gain", str(lower["gain"]),
                                 "--integration", shorter)}
    if lower["gain"] != gain:
        return _("calibrate again at gain %(gain)dx: %(command)s (or with --autorange, which "
                 "chooses the gain)") % {
            "gain": lower["gain"],
            "command": with_port("calibrate", port, "--gain", str(lower["gain"]))}
    return _("calibrate again at integration time %(ms)s ms: %(command)s") % {
        "ms": decimal(lower["integration_ms"], 1),
        "command": with_port("calibrate", port, "--integration", shorter)}


def _released(link, timeout=5.0):
    """True once the board says (``INFO``'s ``sl``) the slider is not pushed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            got = link.request("INFO?", lambda m: m.name == "INFO", 1.0)
        except OSError:
            got = None
        if got is not None and got.get("sl") is False:
            return True
        time.sleep(0.1)
    return False


#: The longest push wait ``--push-wait`` takes (s): an hour.
MAX_PUSH_WAIT = 3600


def found_by(port, form):
    """The heading's name of the port ``port`` (a path) found from the ``--port`` word
    ``form`` (``auto``, ``id:<serial>``): ``/dev/ttyACM0 (found by --port id:E661...)``,
    in the table's language."""
    return _("%(port)s (found by --port %(form)s)") % {"port": port, "form": form}


def run(args, out=None, hardware=None):
    """``hardware``: simulated part faults for the virtual pyramid (tests)."""
    given = getattr(args, "push_wait", None)
    if given is not None and not 0 < given <= MAX_PUSH_WAIT:
        # tester s35-2 finding 14 d: -5 and 0 were taken, and the push never waited for
        raise ValueError(_("--push-wait must be more than 0 and at most %(most)d seconds, "
                           "not %(typed)s")
                         % {"most": MAX_PUSH_WAIT, "typed": "%g" % given})  # as it was typed
    from camelhost.tools import monitor

    out = out or sys.stdout
    if args.port == MANUAL:
        # no board to check: the one line calibrate and monitor say (open_pyramid raises
        # it for a maker's tool), no checklist whose fix says to plug a board in
        from camelhost.device.open import open_pyramid
        open_pyramid(MANUAL, option="--port")
    virtual = args.port == monitor.VIRTUAL
    port, label = args.port, _("the virtual pyramid") if virtual else args.port
    found = None  # why --port auto found no pyramid (CliError), said by the connection step
    if args.port == AUTO:  # the heading names the port it found (tester s35 finding 7)
        from camelhost.device.open import find_rp2040_port
        try:
            port = find_rp2040_port("--port")
            label = found_by(port, args.port)
        except CliError as exc:
            found, label = exc, _("--port auto found no pyramid on USB")
    elif not virtual:  # id:<serial>, port:PATH: the port it names (maker s45b)
        from camelhost.device.transport import by_serial, port_path
        resolved = port_path(args.port)
        if resolved is not None and by_serial(args.port) is not None:
            label = found_by(resolved, args.port)
        elif resolved is not None:
            label = resolved
    print(_("pyramid doctor: %s") % label, file=out)
    monitor.quiet_link_log(False)  # the connection step says it in its own words
    try:
        if found is not None:
            raise found
        if virtual and hardware:
            pyramid = _open_virtual(args, hardware)
        else:
            pyramid = monitor.connect(port, edition=args.edition, seed=args.seed)
        try:
            monitor.check_emulated_dice(pyramid, args.edition, "doctor")
            edition_step = emulated_edition_step(pyramid)
            if edition_step is None:
                monitor.check_edition(pyramid, args.edition, "doctor")
        except monitor.EmulatedDiceMismatch as exc:
            pyramid.close()
            # the emulated Pico's table has other dice: no calibrate sets it to these
            # (maker s44, finding 2: it said calibrate --edition sets it, which refuses)
            for line in Step("edition", "failed", exc.what, exc.fix).lines():
                print(line, file=out)
            return 1
        except monitor.EditionMismatch as exc:
            pyramid.close()
            # the board answers: not the connection's fix (tester s35-2 finding 2b)
            for line in Step("edition", "failed", str(exc), _(
                    "to check the pyramid as it is set, leave --edition out; %(command)s sets "
                    "it to the %(edition)s edition with a profile of those dice") % {
                    "command": with_port("calibrate", args.port, "--edition", exc.asked),
                    "edition": edition_word(exc.asked)}).lines():
                print(line, file=out)
            return 1
        except CliError:
            pyramid.close()
            raise
        if edition_step is not None:
            pyramid.close()
            for line in edition_step.lines():
                print(line, file=out)
            return 1
    except CliError as exc:
        # a path that is no serial port names its own fix (transport.NotAPort)
        fix = getattr(exc, "fix", None)
        for line in Step("connection", "failed", getattr(exc, "what", str(exc)), fix or
                         connection_fix(port, exc)).lines():
            print(line, file=out)
        return 1
    with pyramid:
        monitor.quiet_link_log(False)
        kind = getattr(getattr(pyramid.link.transport, "identity", None), "kind", None)
        hands = (_Sim(pyramid.virtual) if pyramid.virtual is not None
                 else _Maker(wait=push_wait(args, emulated=kind == "pty"),
                             emulated=kind == "pty"))

        def report(step):
            for line in step.lines():
                print(line, file=out)
            out.flush()

        steps = checklist(pyramid, hands, args.edition or "second", report)
    failed = [s.shown_name() for s in steps if s.status == "failed"]
    if failed:
        print(_("%(failed)d of %(checks)d checks failed: %(steps)s")
              % {"failed": len(failed), "checks": len(steps), "steps": ", ".join(failed)},
              file=out)
        return 1
    print(_("all %d checks passed") % len(steps), file=out)
    print(next_step(args, steps.calibrated), file=out)
    return 0


def emulated_edition_step(pyramid):
    """The failed ``edition`` step of an emulated Pico (``pyramid``, an open
    ``monitor.Pyramid``) whose firmware runs another edition than the dice in its table
    (``monitor.emulated_edition_apart``: a kept ``--flash`` image keeps its settings), or
    ``None``: a real board, or the dice of the edition it runs. Doctor would ask for the
    firmware's dice, which that table has none of (the darkest, the brightest: maker
    s44); the fix is the one the emulator's console names, calibrate with the dice's
    edition, or an emulated Pico with the firmware's dice."""
    apart = monitor.emulated_edition_apart(pyramid)
    if apart is None:
        return None
    return Step("edition", "failed", *apart)


def connection_fix(port, error=None):
    """The connection step's fix when no pyramid answered on ``port`` (``--port`` as
    given): one line naming that port and the commands to type with it (``with_port``),
    the board plugged in, flashed, and doctor again (maker finding 10: it said "check
    --port" whatever was given). ``auto`` found none on USB (the step's line already
    offers a port, ``--port virtual`` and ``pyramid emulate``: ``find_rp2040_port``): what
    to check, a data cable and MicroPython on the board (a board without it is the
    ``RPI-RP2`` drive, no serial port), and the commands to run, doctor again and doctor
    with the port ``pyramid emulate`` printed (maker s45: the fix repeated the step's
    offer). ``auto`` that found a port is given as that port. A path that names nothing
    (``monitor.names_nothing``): plug the board in and let doctor find it, not flash it
    (flash cannot reach a port that is not there either; tester s40, finding 2); while
    ``pyramid emulate`` runs (``sources.emulated_ports``), doctor on its port.
    ``error``: the ``CliError`` the opening raised; a ``transport.PortBusy`` (another
    program holds the port) gets: close that program, then doctor again; not flash,
    which would take the pyramid from it (maker2 s42, finding 2); a
    ``transport.PortIsATerminal`` (a program's terminal, not a pyramid's port) gets: give
    the pyramid's own port, with the serial ports seen (``transport.ports_seen``), not
    flash it (maker s42, finding 2). A slip of an option's word (``virtua``, ``atuo``:
    ``sources.meant``, asked about by the opening's line) gets doctor with that word,
    not a flash of a port that is not there (maker s44)."""
    from camelhost.device.transport import PortBusy, PortIsATerminal, ports_seen
    from camelhost.tools import monitor

    if isinstance(error, PortBusy):
        return _("close the other program on %(port)s (a pyramid play, monitor or calibrate: "
                 "one program at a time reads the pyramid), then run %(command)s again") % {
            "port": error.port, "command": with_port("doctor", port)}
    if isinstance(error, PortIsATerminal):
        return _("give doctor the pyramid's own port, not a program's terminal (serial ports "
                 "seen: %(ports)s), or run %(command)s, which finds it on USB") % {
            "ports": ports_seen(), "command": with_port("doctor", AUTO)}
    if port in (None, AUTO):
        return _("check that the USB cable carries data (a charge-only one gives no port) and "
                 "that the board has MicroPython (without it, it shows a drive called RPI-RP2, "
                 "no port: hardware/README.md, 'Flashing'); then run %(doctor)s again, or "
                 "%(doctor)s --port %(port)s with the port pyramid emulate printed") % {
            "doctor": with_port("doctor", AUTO), "port": port_word()}
    if monitor.names_nothing(port):
        running = sources.emulated_ports()
        if running:  # a mistyped port while pyramid emulate runs: its port (tester s45, 3)
            return _("nothing is at %(port)s: run %(command)s, the port of the emulated Pico "
                     "running now") % {"port": port, "command": with_port("doctor", running[0])}
        return _("nothing is at %(port)s: plug the pyramid in by USB, then run %(command)s, "
                 "which finds it there, or give the port it gets") % {
            "port": port, "command": with_port("doctor", AUTO)}
    slip = sources.meant(port, "--port") if not os.path.exists(port) else None
    if slip is not None:  # virtua: the word asked about, not a port to flash
        return _("run %s, or give the pyramid's own port") % with_port(
            "doctor", slip.split()[-1])
    return _("check that the pyramid is plugged in and that %(port)s is its port; if it is "
             "and still does not answer, flash it (%(flash)s), then run %(command)s again") % {
        "port": port, "flash": with_port("flash", port), "command": with_port("doctor", port)}


def push_wait(args, emulated=False):
    """Seconds doctor waits for the slider push: ``--push-wait`` when given, else
    ``EMULATED_PUSH_TIMEOUT`` (120) on the emulated Pico's pseudo-terminal
    (``emulated``) and ``PUSH_TIMEOUT`` (30) on a real board."""
    given = getattr(args, "push_wait", None)
    if given is not None:
        return given
    return EMULATED_PUSH_TIMEOUT if emulated else PUSH_TIMEOUT


def next_step(args, calibrated=False):
    """The line doctor ends with when every check passed: the bring-up's next step that
    is true for this board, by what it runs (``calibrated``: ``INFO``'s ``cal``,
    docs/protocol.md).

    - ``False``, the edition's built-in profile: teach the pyramid these dice
      (``pyramid calibrate``, docs/calibration.md). The built-in profile reads a die well
      enough for ``reading`` to pass, but is not fitted to this sensor, this head and
      these dice. The virtual pyramid starts with it every time.
    - ``True``, a profile ``calibrate`` saved on it: play (``pyramid play --pyramid``).
    - ``None``, a firmware that does not say: calibrate unless it was, then play.

    Each command names the port doctor ran with, calibrate's also ``--edition`` when it
    was given (without it calibrate takes the pyramid's own edition, as doctor did);
    each word quoted for a POSIX shell."""
    edition = getattr(args, "edition", None)
    calibrate = with_port("calibrate", args.port, *(["--edition", edition] if edition else []),
                          "--autorange")
    play = command("pyramid", "play", "--pyramid", args.port)
    if calibrated is True:
        return _("next, play: %s (the pyramid runs the profile calibrate saved on it)") % play
    if calibrated is None:
        return _("next, unless calibrate already taught this pyramid its dice (its firmware "
                 "does not say): %(calibrate)s; then play: %(play)s") % {"calibrate": calibrate,
                                                                          "play": play}
    return _("next, teach the pyramid these dice (the built-in profile is not fitted to "
             "them): %s") % calibrate


def _open_virtual(args, hardware):
    from camelhost.device.link import Link
    from camelhost.device.virtual import VirtualPyramid
    from camelhost.tools import monitor

    vp = VirtualPyramid(args.edition or "second", seed=args.seed, hardware=hardware)
    vp.start()
    link = Link(vp.port)
    link.open()
    pyramid = monitor.Pyramid(monitor.VIRTUAL, link, vp)
    pyramid.wait_hello()
    return pyramid
