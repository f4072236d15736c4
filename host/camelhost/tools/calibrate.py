"""Guided colour calibration of a pyramid, over its serial protocol.

The session (``calibrate()``):

1. reads the device's settings (``SET`` without fields -> ``CFG``), switching it
   to the edition asked for and to ``--gain`` / ``--integration`` when given (all
   given back when the session saves no profile: ``put_back``);
2. collects ``samples`` readings of every die of the edition and of the empty
   head (twice as many of the grey die's two inks, which differ only in
   brightness), in rounds, so that every reading is a fresh release and the
   faces 1, 2, 3 take turns. Each reading is one ``CAL`` -> ``SAMPLE`` exchange:
   the LED-on and LED-off counts; the classifier sees their difference. A person at
   the keyboard is asked about a reading that looks like the one before it or the
   empty head (kept, it spends the session), or that the board's running profile
   names as another die (one ``RAW`` reading; kept, it is fitted at no cost, unless the
   session's own profile names it another die too: then it is said and left out of the
   fit, ``named_by_the_fit``);
3. fits the profile (``camelup.calibration.fit``) with the sensor settings the
   readings were taken with, checks it on the readings themselves
   (leave-one-out), and reports the separation of every pair of classes
   (``camelup.calibration.separation``), the pairs that are too close, and one
   line of plain advice;
4. saves the profile on the device (``PROF`` chunks, ``SAVE``), where the
   firmware checks it, installs it and writes it to flash; unless a reading
   saturated the sensor, a die's readings look wrong, the check names a die right
   less than half the time, or the darkest die gives too little light: then
   nothing is saved (docs/calibration.md, "When the session refuses to save").

Who puts the dice in the head is a *driver*: ``HumanDriver`` asks a person at
the keyboard to release each die; ``VirtualDriver`` has the virtual pyramid's
simulated table put it there (``--auto``).

Every failure a user can meet ends in a ``CliError`` (printed as ``pyramid: ...``):
sensor missing or failing, the board restarting mid-session (nothing is saved
then), the port going away, the device refusing the profile.
"""

import contextvars
import json
import os
import sys

import camelup.board.tcs34725 as _tcs
from camelup.editions import get_edition

from camelhost.errors import CliError
from camelhost.i18n import (
    _,
    colour_word,
    colours_in,
    decimal,
    edition_word,
    listed,
    ngettext,
    percent,
    pgettext,
    yes_words,
)
from camelhost.tools.commandline import with_port
from camelhost.tools.monitor import (
    DeviceRestarted,
    difference,
    full_scale,
    integration_ms,
    one_reading,
    saturation_level,
    sensor_problem,
    settings_line,
    shown_label,
    wrong_die_words,
)

#: Default readings per class (docs/classifier.md: 12 per class, every face, fresh release).
DEFAULT_SAMPLES = 12
#: The grey die's two inks differ only in brightness: they get this many times more readings.
GREY_FACTOR = 2
#: Readings per class a session takes at least (a spread needs a few) and at most (100
#: means about 800 releases by hand).
MIN_SAMPLES = 3
MAX_SAMPLES = 100
#: The longest integration time calibration proposes (64 steps, the whole 65535
#: counts): a release needs three agreeing readings (two integrations each, LED off
#: and on) after its 150 ms settling, inside its 1.5 s (``pyramid.release``).
LONGEST_MS = 153.6
#: ``--autorange`` aims the darkest die this many times over the built-in profile's
#: floor (a box of dice and a head differ from the simulated ones; the session's own
#: profile has the last word).
LIGHT_MARGIN = 1.5


def integration_used(asked):
    """``(ms, note)`` for an integration time asked for (``--integration``, ms, a float):
    ``ms`` the time the sensor can take, the nearest whole number of its 2.4 ms steps
    (TCS34725 datasheet, "RGBC Timing Register (0x01)", ATIME: 1..256 steps, 2.4 ..
    614.4 ms); ``note`` the line saying it was rounded, or ``None`` when ``asked`` is a
    whole number of steps already. Raises ``ValueError`` naming the option and the range
    (2.4 .. ``LONGEST_MS``) for a time under the chip's 2.4 ms, and for one (up to any
    length) whose nearest step is over
    ``LONGEST_MS``: a release could not fit its three readings in its 1.5 s, so every die
    at the table would be refused (s36 maker tester 16), and the clear channel's full
    scale stops growing there (65535 counts from 64 steps): more light is ``--gain``'s."""
    if not _tcs.INTEGRATION_MIN_MS <= asked:  # over the chip's range: the release's reason
        # below (tester s37tm finding 4: 700 got no reason and no --gain hint, 300 both)
        raise ValueError(_("--integration must be %(shortest)s..%(longest)s ms (the sensor's "
                           "%(step)s ms steps), not %(typed)s")
                         % {"shortest": decimal(_tcs.INTEGRATION_MIN_MS, 1),
                            "longest": decimal(LONGEST_MS, 1), "step": decimal(_tcs.STEP_MS, 1),
                            "typed": _typed(asked)})
    used = integration_ms(asked)
    if used > LONGEST_MS + 1e-6:
        raise ValueError(_("--integration %(typed)s: a release reads the die three times in "
                           "1.5 s, which allows at most %(longest)s ms (and the sensor's range "
                           "grows no more past it); for more light use --gain, or --autorange")
                         % {"typed": _typed(asked), "longest": decimal(LONGEST_MS, 1)})
    if abs(used - asked) < 1e-6:
        return used, None
    return used, (_("integration time %(typed)s ms rounded to the nearest %(step)s ms step: "
                    "%(used)s ms")
                  % {"typed": _typed(asked), "step": decimal(_tcs.STEP_MS, 1),
                     "used": decimal(used, 1)})


def _typed(value):
    """A number as the player typed it, in the table's language (``3``, ``100,5``)."""
    places = len(("%.3f" % value).rstrip("0").partition(".")[2])
    return decimal(value, places)


def check_samples(samples):
    """Raise ``ValueError`` (naming ``--samples``) unless ``MIN_SAMPLES`` <= ``samples``
    <= ``MAX_SAMPLES``."""
    if not MIN_SAMPLES <= samples <= MAX_SAMPLES:
        raise ValueError(_("--samples must be %(fewest)d..%(most)d (12 or more advised; got "
                           "%(samples)d)")
                         % {"fewest": MIN_SAMPLES, "most": MAX_SAMPLES, "samples": samples})


def plan(edition, samples=DEFAULT_SAMPLES):
    """The session's steps: a list of ``(label, value)`` in the order to take them.

    Every class of ``edition`` (its dice and ``empty``) gets ``samples`` readings,
    the grey die's ``grey-black`` / ``grey-white`` ``GREY_FACTOR`` times as many.
    Rounds visit every class once, so consecutive steps never hold the same
    content (each is a fresh release). ``value``: the face to show (1, 2, 3 in
    turn; ``None`` for the empty head). Raises ``ValueError`` for an unknown
    edition or ``samples`` outside 3..``MAX_SAMPLES``.
    """
    from camelup.board import classifier

    check_samples(samples)
    labels = classifier.classes_for(edition)
    want = {}
    for label in labels:
        want[label] = samples * (GREY_FACTOR if label.startswith("grey-") else 1)
    steps = []
    done = {label: 0 for label in labels}
    for _round in range(max(want.values())):
        for label in labels:
            if done[label] < want[label]:
                value = None if label == classifier.EMPTY else done[label] % 3 + 1
                steps.append((label, value))
                done[label] += 1
    return steps


def describe_step(label, value, again=False):
    """What the person at the pyramid should do for one step: ``label`` (a class of
    ``camelup.board.classifier``: a die, the grey die by its ink, or ``empty``) with
    ``value`` (1-3) on top, ``None`` for the empty head. ``again``: this die was read
    before with ``value`` on top, so this time its other face with that value is (a
    racing die has two faces of each value; the readings take both in turn); the grey
    die has each value once in each ink, so it has no other face to turn to."""
    if value is None:
        return _("take every die out: the head must be empty")
    if label.startswith("grey-"):
        # the grey die has each value once in black and once in white numerals
        # TRANSLATORS: %(ink)s is the numeral's colour (black or white), %(value)d its number
        return _("release the grey die with its %(ink)s %(value)d up") % {
            "ink": colour_word(label[5:]), "value": value}
    if again:
        return _("release the %(die)s die with %(value)d on top, its other %(value)d face this "
                 "time") % {"die": colour_word(label), "value": value}
    return _("release the %(die)s die with %(value)d on top") % {"die": colour_word(label),
                                                               "value": value}


def any_face(label):
    """What the person does for a step before the readings (``--autorange``'s gain and
    light checks, one reading each, any face up): ``release the purple die``."""
    return _("release the %s die") % colour_word(label)


def emulator_key(label):
    """What puts a step's ``label`` (a class of ``camelup.board.classifier``) in the
    emulated Pico's head, typed in ``pyramid emulate``'s terminal: ``p`` and the die's
    colour in the table's language (``p blue``, German ``p blau``, ``p grey-black``; the
    emulator reads either language), ``p`` alone for the empty head (``empty``)."""
    from camelup.board import classifier

    if label == classifier.EMPTY:
        return "p"
    return "p " + colours_in(label)


class HumanDriver:
    """Asks a person to put each die in the head: they release it through the slider
    and press Enter. ``input_fn`` and ``out`` default to the terminal.

    ``present(label, value, index, total, taken, purpose)`` asks for one step
    (``taken``: the readings kept so far; ``purpose``: what a step before the readings
    is for, ``choosing the gain``, said in place of the step's number);
    ``read_again(label, value, taken)`` is asked after a reading that looked wrong and
    returns True when that step is to be read again (the reading dropped): Enter (or
    ``r``), the safe answer, since a doubtful reading kept makes the session refuse to
    save at its end (``camelup.calibration.refusal``); only ``k`` keeps it, the prompt
    saying that cost, and every later step's prompt says the session will not be saved
    (``q`` stops it there); any other answer there is refused in one line naming the
    three keys, and that line waits for the answer again.
    ``wrong_die(label, value, found, taken, purpose)`` is asked after a reading the board's
    running profile names as another die, ``found`` (``named_otherwise``), and returns
    True when the step is to be read again (Enter or ``r``; ``purpose``: a step before the
    readings, ``--autorange``'s light check, whose die any face up is asked for again);
    ``k`` keeps the reading, which goes into the fit as any other and costs the session
    nothing (that profile is the one a calibration replaces, and may be what is wrong);
    any other answer is refused in one line naming the keys, as above.
    ``light_again(label, before, purpose)`` is asked after ``--autorange``'s light check
    read what looks like the ``before`` die of choosing the gain, and returns True to
    read it again (Enter or ``r``), False for ``g``: the gain to be chosen again, its
    reading having been the wrong die. ``q`` at any of these prompts asks
    before it drops ``taken`` readings
    (``CliError`` when the person confirms with the language's yes, ``yes_words``: German
    ``j``; EOF counts as confirming; any other answer but Enter is refused in one line and
    asked again). A die asked for again with the same value on top is asked for with its
    other face of that value (``describe_step``'s ``again``).

    ``emulated``: the board is the emulated Pico (``pyramid emulate``, its port a
    pseudo-terminal), where a die is put in the head by a key in the emulator's
    terminal: each prompt names it (``emulator_key``: ``p blue``, German ``p blau``;
    ``p`` alone for the empty head), then Enter here, as ``pyramid doctor`` does there
    (docs/emulator.md)."""

    automatic = False

    def __init__(self, input_fn=None, out=None, emulated=False):
        self.input_fn = input_fn or (lambda prompt: input(prompt))
        self.out = out or sys.stdout
        self.emulated = emulated
        self.kept_doubtful = False  # a doubtful reading kept (k): nothing will be saved
        self.asked = set()  # (label, value) of the numbered steps asked for so far
        self.again = False  # the step asked for last is such a die's other face

    def _ask(self, prompt):
        try:
            return self.input_fn(prompt).strip().lower()
        except EOFError:
            raise CliError(_("calibration needs a person at the keyboard to release the dice "
                           "(with --port virtual, --auto does it); nothing was saved")) from None

    def _stop(self, taken):
        """``q`` typed: stop at once when nothing was read yet, else ask first."""
        if taken:
            yes = yes_words()
            while True:
                try:
                    sure = self.input_fn(ngettext(
                        "stop? the %(count)d reading taken so far is lost, nothing is saved "
                        "(%(yes)s stops, Enter goes on): ",
                        "stop? the %(count)d readings taken so far are lost, nothing is saved "
                        "(%(yes)s stops, Enter goes on): ", taken)
                        % {"count": taken, "yes": yes[0]}).strip().lower()
                except EOFError:
                    sure = yes[0]
                if sure == "":
                    return False
                if sure in yes:
                    break
                print(_("%(typed)r is neither %(yes)s nor Enter: %(yes)s stops, Enter goes on")
                      % {"typed": sure, "yes": yes[0]}, file=self.out)
            raise CliError(ngettext("calibration stopped; its %d reading is dropped and "
                                    "nothing was saved",
                                    "calibration stopped; its %d readings are dropped and "
                                    "nothing was saved", taken) % taken)
        raise CliError(stopped_words())

    def start_again(self):
        """The readings start again from step 1 (``--autorange`` set more light): what was
        kept or asked before is gone with them."""
        self.kept_doubtful = False
        self.asked = set()
        self.again = False

    def present(self, label, value, index, total, taken=0, purpose=None):
        self.again = not purpose and (label, value) in self.asked
        if not purpose:
            self.asked.add((label, value))
        step = describe_step(label, value, self.again)
        if self.emulated:
            if purpose:
                step = any_face(label)
            prompt = self._emulated_prompt(step, emulator_key(label), purpose,
                                           index, total)
        elif purpose:  # a step before the readings: no step number to give, one reading
            # (no faces to alternate: any face up)
            prompt = _("[%(purpose)s] %(step)s, then press Enter (q to stop): ") % {
                "purpose": purpose, "step": any_face(label)}
        elif self.kept_doubtful:  # each later step says the session is spent
            prompt = _("[%(index)3d/%(total)d] %(step)s, then press Enter (this session will "
                       "not be saved: a doubtful reading was kept; q stops): ") % {
                "index": index, "total": total, "step": step}
        else:
            prompt = _("[%(index)3d/%(total)d] %(step)s, then press Enter (q to stop): ") % {
                "index": index, "total": total, "step": step}
        while self._ask(prompt) in ("q", "quit"):
            if self._stop(taken) is False:
                continue

    def _emulated_prompt(self, step, key, purpose, index, total):
        """A step's prompt on the emulated Pico: the step, then the emulator's key."""
        if purpose:
            return _("[%(purpose)s] %(step)s: on the emulated Pico, type %(key)s and Enter in "
                     "its terminal; then press Enter here (q to stop): ") % {
                "purpose": purpose, "step": step, "key": key}
        if self.kept_doubtful:
            return _("[%(index)3d/%(total)d] %(step)s: on the emulated Pico, type %(key)s and "
                     "Enter in its terminal; then press Enter here (this session will not be "
                     "saved: a doubtful reading was kept; q stops): ") % {
                "index": index, "total": total, "step": step, "key": key}
        return _("[%(index)3d/%(total)d] %(step)s: on the emulated Pico, type %(key)s and Enter "
                 "in its terminal; then press Enter here (q to stop): ") % {
            "index": index, "total": total, "step": step, "key": key}

    def read_again(self, label, value, taken):
        if self.emulated:
            prompt = "  " + _("Enter reads it again: first %(step)s: on the emulated Pico, "
                              "type %(key)s and Enter in its terminal; then press Enter here. "
                              "Or k keeps this reading, and then this session will not be "
                              "saved; q stops: ") % {
                "step": describe_step(label, value, self.again), "key": emulator_key(label)}
        else:
            prompt = "  " + _("Enter reads it again: first %s; k keeps this reading, and "
                              "then this session will not be saved; q stops: ") % (
                describe_step(label, value, self.again))
        again = self._again_or_keep(prompt, taken, _(
            "%r is none of Enter, k or q: Enter reads it again, k keeps this reading (then "
            "this session will not be saved), q stops: "))
        self.kept_doubtful = self.kept_doubtful or not again
        return again

    def _again_or_keep(self, prompt, taken, refused, other=("k", "keep")):
        """Ask ``prompt`` until it is answered: True for Enter or ``r`` (read it again),
        False for ``k`` (keep the reading; ``other``: the answers that say the other way
        forward); ``q`` stops the session (``taken`` the
        readings so far). Anything else is answered with ``refused % answer`` (one line
        naming the keys the question takes) and waited for again on that line: a
        reading is never kept by a slip, and the whole prompt again said nothing of what
        was wrong (tester2 s35, finding 14 j)."""
        while True:
            answer = self._ask(prompt)
            if answer in ("q", "quit"):
                self._stop(taken)
                continue
            if answer in ("", "r"):
                return True
            if answer in other:
                return False
            prompt = "  " + refused % answer

    def light_again(self, label, before, purpose):
        """Asked after ``--autorange``'s light check (``purpose``) read what looks like the
        ``before`` die of choosing the gain: True to read the ``label`` die again (Enter or
        ``r``), False for ``g``, the gain to be chosen again, when the die in the head
        then was not the one asked for (so the check's die is the right one); ``q``
        stops. Never kept: the light would be judged on one die of the two."""
        if self.emulated:
            prompt = "  " + _("Enter reads it again: first %(step)s: on the emulated Pico, type "
                              "%(key)s and Enter in its terminal; then press Enter here. Or g "
                              "chooses the gain again (when the %(before)s die was not in the "
                              "head for it); q stops: ")
        else:
            prompt = "  " + _("Enter reads it again: first %(step)s; g chooses the gain again "
                              "(when the %(before)s die was not in the head for it); q stops: ")
        prompt = prompt % {"step": any_face(label), "key": emulator_key(label),
                           "before": _colour(before)}
        return self._again_or_keep(prompt, 0, _(
            "%r is none of Enter, g or q: Enter reads it again, g chooses the gain again, "
            "q stops: "), other=("g",))

    def wrong_die(self, label, value, found, taken, purpose=None):
        held = wrong_die_words(found, label)
        step = any_face(label) if purpose else describe_step(label, value, self.again)
        if self.emulated:
            prompt = "  " + _("%(held)s, as the pyramid's profile now reads it: %(step)s: on "
                              "the emulated Pico, type %(key)s and Enter in its terminal; "
                              "then press Enter here to read it again; k keeps this reading "
                              "(when that profile is what is wrong); q stops: ") % {
                "held": held, "step": step, "key": emulator_key(label)}
        else:
            prompt = "  " + _("%(held)s, as the pyramid's profile now reads it: %(step)s, "
                              "then press Enter to read it again; k keeps this reading (when "
                              "that profile is what is wrong); q stops: ") % {
                "held": held, "step": step}
        return self._again_or_keep(prompt, taken, _(
            "%r is none of Enter, k or q: Enter reads it again, k keeps this reading, q "
            "stops: "))


class VirtualDriver:
    """The virtual pyramid's table puts each die (or nothing) in the head."""

    automatic = True

    def __init__(self, virtual):
        self.virtual = virtual

    def present(self, label, value, index, total, taken=0, purpose=None):
        self.virtual.place(label)

    def start_again(self):
        """The readings start again from step 1: nothing to forget."""

    def light_again(self, label, before, purpose):
        """The simulated table puts the die asked for again: read it again."""
        self.virtual.place(label)
        return True

    def read_again(self, label, value, taken):
        """The simulated table put the die asked for: a reading is never taken again."""
        return False

    def wrong_die(self, label, value, found, taken, purpose=None):
        """The simulated table put the die asked for: its reading is kept."""
        return False


class Result:
    """What a session produced: ``profile`` (dict), ``samples`` (``{label: [(c, r, g,
    b), ...]}``), ``pairs`` (``separation`` list, worst first), ``loo`` (leave-one-out
    ``evaluate`` report), ``saturated`` (count of saturated readings), ``advice``
    (one line), ``saved`` (bool)."""

    def __init__(self, profile, samples, pairs, loo, saturated, advice, saved=False):
        self.profile = profile
        self.samples = samples
        self.pairs = pairs
        self.loo = loo
        self.saturated = saturated
        self.advice = advice
        self.saved = saved


def _sample(pyramid, done, total):
    """One ``CAL`` exchange -> ``(on, off)``; turns link failures into plain errors."""
    from camelhost.device.link import LinkError

    try:
        on, off = pyramid.link.sample()
    except LinkError as exc:
        _explain_failure(pyramid, exc, _("after %(done)d of %(total)d readings")
                         % {"done": done, "total": total})
    pyramid.check_alive()
    return on, off


def _explain_failure(pyramid, exc, when):
    """Raise the most telling ``CliError`` for a failed command ``exc``."""
    import time

    text = str(exc)
    if text.endswith(": sensor"):
        # the firmware refused to sample: ask for a HELLO naming the sensor's state
        state = "fault"
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            seen = pyramid.poll_sensor_state(every=0.5)
            if seen != "ok":
                state = seen
                break
            time.sleep(0.05)
        raise CliError(_("%(problem)s (%(when)s; nothing was saved)")
                       % {"problem": sensor_problem(state), "when": when}) from None
    # a silent device: did it restart? its HELLO may still be on the way
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        pyramid.check_alive()
        time.sleep(0.05)
    if pyramid.link.state in ("connecting", "closed"):
        raise CliError(_("lost the connection to %(port)s: USB cable pulled, or the board "
                         "reset (%(when)s; nothing was saved)")
                       % {"port": pyramid.port, "when": when}) from None
    # TRANSLATORS: %(problem)s is what went wrong, %(when)s how far the session got
    failed = CliError(_("%(problem)s (%(when)s; nothing was saved)")
                      % {"problem": text, "when": when})
    failed.link_failure = True  # ``calibrate`` adds the settings the board was left with
    raise failed from None


def leave_one_out(samples, edition, settings):
    """``evaluate`` report of each reading classified by a profile fitted without it.

    An honest estimate of how the profile will do on new releases; classes with
    fewer than 4 readings are skipped (``fit`` needs 3 per class).
    """
    from camelup import calibration
    from camelup.board import classifier

    labels = sorted(samples)
    got = {label: [] for label in labels}
    for label in labels:
        readings = samples[label]
        if len(readings) < 4:
            continue
        for i in range(len(readings)):
            rest = dict(samples)
            rest[label] = readings[:i] + readings[i + 1:]
            clf = classifier.Classifier(calibration.fit(rest, edition, settings, floor=False))
            got[label].append(clf.classify(readings[i])[0])
    report = {}
    n_all = correct_all = rejected_all = wrong_all = 0
    for label in labels:
        n = len(got[label])
        correct = sum(1 for g in got[label] if g == label)
        rejected = sum(1 for g in got[label] if g in (classifier.UNKNOWN, classifier.DOUBLE))
        wrong = {}
        for g in got[label]:
            if g != label and g not in (classifier.UNKNOWN, classifier.DOUBLE):
                wrong[g] = wrong.get(g, 0) + 1
        report[label] = {"n": n, "correct": correct, "rejected": rejected, "wrong": wrong}
        n_all += n
        correct_all += correct
        rejected_all += rejected
        wrong_all += sum(wrong.values())
    total = n_all or 1
    report["_total"] = {"n": n_all, "correct": correct_all, "accuracy": correct_all / total,
                        "rejected": rejected_all / total, "error": wrong_all / total}
    return report


def _exposure_fix(brightest, settings):
    """What would bring more counts, given the brightest die's clear count (or None)
    and the settings ``{"integration_ms", "gain"}`` (or None)."""
    if not brightest or not settings:
        return (_("more counts: a longer integration time (--integration) or a higher gain "
                "(--gain, or --autorange)"))
    it = settings["integration_ms"]
    full = full_scale(it)
    share = brightest / float(full)
    if share >= RANGE_WINDOW[0]:
        return (_("the counts are already high (the brightest die at %s of full scale): "
                "more LED current or the sensor closer to the die") % percent(share))
    room = RANGE_WINDOW[1] / share if share > 0 else 4.0
    gains = [g for g in (4, 16, 60) if g > settings["gain"] and g / settings["gain"] <= room]
    if gains:
        return (_("more counts: the brightest die reads only %(share)s of full scale; gain "
                  "%(gain)dx (--gain %(gain)d) or a longer integration time")
                % {"share": percent(share), "gain": gains[-1]})
    longer = min(614.4, it * room)
    return (_("more counts: the brightest die reads only %(share)s of full scale; integration "
              "time %(ms).0f ms (--integration %(ms).0f) or more LED current")
            % {"share": percent(share), "ms": longer})


def light_fix(settings, darkest, floor, brightest, margin=1.0):
    """What gives the darkest die enough light: ``(text, settings)``.

    ``settings``: ``{"integration_ms", "gain"}`` now; ``darkest``: the darkest
    die's clear count there (LED on minus LED off); ``floor``: the clear count it
    needs (``camelup.calibration.light_floor``), times ``margin``; ``brightest``:
    the brightest die's clear count (it must stay at most ``RANGE_WINDOW``'s top of
    full scale). Tries a higher gain first (no slower), then a longer
    integration time up to ``LONGEST_MS``, the shortest that some gain allows;
    ``settings`` in the answer is what to set, or ``None`` when neither is enough:
    then the text names the hardware (LED current, sensor distance)."""
    need = floor * margin / float(darkest if darkest > 0 else 1)
    it = settings["integration_ms"]
    gain = settings["gain"]
    room = RANGE_WINDOW[1] * full_scale(it) / float(brightest if brightest > 0 else 1)
    for g in _tcs.GAINS:
        if gain < g and need <= g / float(gain) <= room:
            return (_("gain %(gain)dx (--gain %(gain)d)") % {"gain": g},
                    {"integration_ms": it, "gain": g})
    for g in (60, 16, 4, 1):
        if g < gain:
            continue
        longer = integration_ms(it * need * gain / float(g))
        if longer < it * need * gain / float(g):
            longer = integration_ms(longer + _tcs.STEP_MS)  # round up to a whole step
        if longer <= LONGEST_MS:
            scale = longer / it * g / float(gain)
            if brightest * scale <= RANGE_WINDOW[1] * full_scale(longer):
                # the option as typed keeps its dot: --integration 153.6
                text = (_("integration time %(ms)s ms (--integration %(typed).1f)")
                        % {"ms": decimal(longer, 1), "typed": longer}
                        if g == gain else
                        _("integration time %(ms)s ms and gain %(gain)dx (--integration "
                          "%(typed).1f --gain %(gain)d)")
                        % {"ms": decimal(longer, 1), "gain": g, "typed": longer})
                return (text, {"integration_ms": longer, "gain": g})
    return (_("more LED current or the sensor closer to the die (hardware/README.md): "
              "even %s ms at gain 60x would not give enough light") % decimal(LONGEST_MS, 1), None)


def darkest_and_brightest(samples):
    """``(label, clear)`` of the darkest die and the brightest die's clear count, by
    the median clear count of each die's readings (``{label: [(c, r, g, b)]}``,
    the empty head left out)."""
    from camelup.board import classifier

    darkest = None
    brightest = 0
    for label in sorted(samples):
        if label == classifier.EMPTY or not samples[label]:
            continue
        clears = sorted(r[0] for r in samples[label])
        median = clears[len(clears) // 2]
        if darkest is None or median < darkest[1]:
            darkest = (label, median)
        brightest = max(brightest, median)
    return darkest, brightest


def light_problem(profile, samples, settings, port=None):
    """One line (no newline) when the darkest die of ``samples`` gives less light than
    ``profile``'s ``floor`` (enough light, docs/calibration.md): the die, its clear
    count, the floor, what to set (``light_fix``) and the command that calibrates again
    with it on ``port`` (``again_command``: the session's command on its port, maker
    finding 11;
    ``--autorange`` when only the hardware can give the light); ``None`` when it has
    enough."""
    floor = profile.get("floor", 0.0)
    (label, clear), brightest = darkest_and_brightest(samples)
    if not floor or clear >= floor:
        return None
    text, new = light_fix(settings, clear, floor, brightest, LIGHT_MARGIN)
    again = (again_command(port, "--autorange") if new is None else
             again_command(port, "--integration", "%.1f" % new["integration_ms"],
                           "--gain", str(new["gain"])))
    return (ngettext("too little light: the darkest die (%(die)s) gives %(counts)d count of "
                     "clear at %(ms)s ms and gain %(gain)dx, under the %(floor)d these dice "
                     "need; set %(fix)s and calibrate again: %(command)s",
                     "too little light: the darkest die (%(die)s) gives %(counts)d counts of "
                     "clear at %(ms)s ms and gain %(gain)dx, under the %(floor)d these dice "
                     "need; set %(fix)s and calibrate again: %(command)s", clear)
            % {"die": colours_in(label), "counts": clear,
               "ms": decimal(settings["integration_ms"], 1), "gain": settings["gain"],
               "floor": int(floor + 0.999), "fix": text, "command": again})


def check_light(profile, samples, settings, port=None):
    """Raise ``CliError`` with ``light_problem``'s line when the darkest die of
    ``samples`` gives less light than ``profile``'s ``floor``: the settings the
    readings were taken with are refused, nothing is saved."""
    problem = light_problem(profile, samples, settings, port)
    if problem:
        raise CliError(_("%(problem)s (nothing was saved)") % {"problem": problem})


def checked(loo):
    """``(checked, skipped)``: the classes of a ``leave_one_out`` report ``loo`` its check
    covered and those it skipped (read fewer than 4 times: ``--samples 3`` leaves only the
    grey die's inks, read twice as often), each sorted."""
    rows = [(label, row) for label, row in loo.items() if label != "_total"]
    return (sorted(label for label, row in rows if row.get("n")),
            sorted(label for label, row in rows if not row.get("n")))


def advise(pairs, saturated, loo, n_readings, settings=None, brightest=None):
    """One plain line: is the profile good, and if not, what to change in the build.

    ``settings``: ``{"integration_ms", "gain"}`` the readings were taken with and
    ``brightest``: the brightest die's median clear count (both optional): the
    advice then names the gain or integration time that would give more counts.
    A pair too close is never fixed by more readings (they pin the centroids, not
    the spread): the advice names integration time, gain, LED current, sensor
    position, or for the grey die's inks the table's one-key ink question.
    """
    close = [p for p in pairs if p["too_close"]]
    if saturated:
        return (_("%(saturated)d of %(readings)d readings saturated the sensor's clear "
                  "channel: lower the gain (--gain) or the integration time (--integration), "
                  "then calibrate again") % {"saturated": saturated, "readings": n_readings})
    if not close:
        worst = pairs[0]
        line = (_("good: every pair of classes is at least %(sigma)s sigma apart (closest: "
                  "%(one)s/%(other)s)")
                % {"sigma": decimal(worst["sigma"], 1), "one": shown_label(worst["a"]),
                   "other": shown_label(worst["b"])})
        covered, skipped = checked(loo)
        if loo["_total"].get("n") and skipped:
            # tester s35-2 finding 9: '100.0% named right' of the grey inks alone read as
            # a promise for every die, whose spread 3 readings measure only roughly
            # TRANSLATORS: %(good)s: "good: every pair of classes is at least 9.0 sigma
            # apart (closest: ...)"
            line = (_("%(good)s; but the check covered only %(classes)s: the other classes "
                      "were read fewer than 4 times, which measures a die's spread only "
                      "roughly, so the pyramid may reject such a die in play (%(samples)d "
                      "readings a class, the default, are advised)")
                    % {"good": line, "classes": listed(shown_label(label) for label in covered),
                       "samples": DEFAULT_SAMPLES})
        elif loo["_total"].get("n"):
            # TRANSLATORS: %(good)s as above; %(share)s: a percentage ("99.5%")
            line = (_("%(good)s; %(share)s of the readings were named right when left out of "
                      "the fit")
                    % {"good": line, "share": percent(loo["_total"]["accuracy"], 1)})
        return line
    names = ", ".join("%s/%s (%s)" % (shown_label(p["a"]), shown_label(p["b"]),
                                       decimal(p["sigma"], 1)) for p in close)
    empty = [p for p in close if "empty" in (p["a"], p["b"])]
    if empty:
        return (_("the empty head looks too much like a die (%s): the head's floor or walls "
                "reflect the LED; paint them matte black or flock them, then calibrate again")
                % names)
    if all(p["a"].startswith("grey-") and p["b"].startswith("grey-") for p in close):
        return (_("the grey die's black and white numerals are too close (%(pairs)s): they "
                  "differ only in the small numeral, so the die must land at the same height "
                  "and spot under the sensor every time (a seat that centres it); or leave it "
                  "to the table: an 'unknown' grey die gets the one-key ink question (b/w). "
                  "%(fix)s")
                % {"pairs": names, "fix": _exposure_fix(brightest, settings)[:1].upper()
                   + _exposure_fix(brightest, settings)[1:]})
    return (_("too close: %(pairs)s. Fix: %(fix)s; the sensor 15-25 degrees off the die's face "
              "to avoid glare, no room light at the slider gap, matte black inside; then "
              "calibrate again. Otherwise expect more 'unknown' for these pairs (the table asks "
              "the player)") % {"pairs": names, "fix": _exposure_fix(brightest, settings)})


#: The options the running session's command was typed with, but its port: ``(option,
#: value)`` pairs (``value`` None for a flag), ``calibrate``'s ``typed``; ``()`` outside a
#: session. What ``again_command`` repeats.
_TYPED = contextvars.ContextVar("calibrate_typed", default=())

#: The options that set the light: a fix's own settings (``--autorange``, or
#: ``--integration MS --gain N``) take their place in ``again_command``.
LIGHT_OPTIONS = ("--autorange", "--gain", "--integration")


def again_command(port, *more):
    """The command that calibrates again, as the maker typed the session's: ``pyramid
    calibrate`` on ``port`` (``with_port``: the port the session ran with) with the
    options the session was typed with (``calibrate``'s ``typed``: ``--edition``,
    ``--samples``, ``--no-save``, ...), and ``more`` (option words: a fix's settings,
    ``--autorange`` or ``--integration MS --gain N``) in place of the light options typed
    (``LIGHT_OPTIONS``). The one source of every rerun an outcome advises (maker s43,
    finding 3: they dropped ``--samples``, ``--edition``, ``--autorange``). Returns a str
    quoted for a POSIX shell."""
    words = []
    for option, value in _TYPED.get():
        if more and option in LIGHT_OPTIONS:
            continue
        words += [option] if value is None else [option, value]
    return with_port("calibrate", port, *words, *more)


def stopped_words():
    """What a session the maker stopped before it saved says (``q`` at a prompt, Ctrl-C):
    ``calibration stopped; nothing was saved``, in the table's language."""
    return _("calibration stopped; nothing was saved")


def calibrate(pyramid, driver, edition=None, samples=DEFAULT_SAMPLES, gain=None,
              integration=None, save=True, out=None, autorange=False, typed=()):
    """Run a whole session on an open ``monitor.Pyramid``; return a ``Result``.

    ``typed``: the options the command was typed with but its port, ``(option, value)``
    pairs (``value`` None for a flag), which every rerun the session advises repeats
    (``again_command``).

    ``edition``: ``classic``/``second`` (set on the device), or ``None`` for the
    device's own. ``gain`` (1, 4, 16, 60) and ``integration`` (ms): new sensor
    settings, else the device's. ``autorange``: pick the gain first with the
    brightest die in the head (``choose_gain``), and set more light when the
    readings of the first rounds ask for it (``_light_round_check``). ``save``:
    store the profile on the device. Raises ``CliError`` (see the module docstring);
    Ctrl-C (``KeyboardInterrupt``) is said as ``q`` says it (``stopped_words``, the
    settings given back), a ``CliError`` whose ``exit_code`` is the interrupt's, 130.

    A session that saves no profile (stopped, refused, failed, ``save`` false) gives
    the pyramid back the edition, gain and integration time it had, so "nothing was
    saved" holds of the whole board: its profile goes on running at the settings it
    was fitted at (docs/calibration.md, "When the session refuses to save"); a failed
    session's line ends saying which. When the board can't be reached to put them
    back, the line says what it may keep until its next boot: the firmware keeps a
    ``SET`` in RAM and writes settings only with a saved profile, so a session that
    ends without its goodbye leaves nothing after a power cycle.
    """
    token = _TYPED.set(tuple(typed))
    try:
        return _calibrate_typed(pyramid, driver, edition, samples, gain, integration, save,
                                out, autorange)
    finally:
        _TYPED.reset(token)


def _calibrate_typed(pyramid, driver, edition, samples, gain, integration, save, out,
                     autorange):
    """``calibrate`` once its ``typed`` options are the session's."""
    from camelhost.device.link import LinkError

    out = out or sys.stdout
    hello = pyramid.hello
    if hello["sensor"] != "ok":
        raise CliError(sensor_problem(hello["sensor"]))
    try:
        before = pyramid.link.configure()  # SET without fields: what the board runs now
    except LinkError as exc:
        _explain_failure(pyramid, exc, _("setting up"))
    # a session that sets nothing leaves the board's settings as they were, reached or not
    touched = autorange or gain is not None or integration is not None or \
        edition not in (None, before["ed"])
    result = None
    try:
        result = _calibrate(pyramid, driver, edition, samples, gain, integration, save, out,
                            autorange)
    except CliError as exc:
        if getattr(exc, "keeps_settings", False):
            raise
        note = put_back(pyramid, before, exc) if touched else None
        if note:
            raise CliError(note) from None
        if touched and getattr(exc, "link_failure", False):
            # a command the board did not answer: say what it was left with
            raise CliError(_("%(problem)s; the pyramid keeps its profile and its settings: "
                             "%(settings)s")
                           % {"problem": exc, "settings": _settings_words(before)}) from None
        raise
    except KeyboardInterrupt:
        # Ctrl-C: put them back as well, then say what q says (maker2 s42, finding 4: it
        # said only "interrupted"), with the interrupt's exit status
        note = put_back(pyramid, before, stopped_words()) if touched else None
        raise CliError(note or stopped_words(), exit_code=130) from None
    except BaseException:  # put them back as well, then stop
        if touched:
            put_back(pyramid, before)
        raise
    if not result.saved:
        note = put_back(pyramid, before) if touched else None
        print(note or _("the pyramid keeps its profile and its settings: %s")
              % _settings_words(before), file=out)
    return result


def _settings_words(cfg):
    """A ``CFG``'s edition, integration time and gain in words: ``second edition, 24.0 ms,
    gain 16x``."""
    return _("%(edition)s edition, %(ms)s ms, gain %(gain)dx") % {
        "edition": edition_word(cfg["ed"]), "ms": decimal(integration_ms(cfg["it"]), 1),
        "gain": cfg["gain"]}


def put_back(pyramid, before, problem=None):
    """Give the pyramid the settings of the ``CFG`` ``before`` again (edition, gain,
    integration time) where they differ from what it runs now; ``None`` when it runs
    them (again), else the line saying what it may keep: the board was not reached
    (its port lost, or no answer to ``SET`` in ``Link.configure``'s time). ``problem``
    (``str``, or an exception: its text): what stopped the session, said first in the
    same sentence (one message a translator reads whole, not two glued by ``;``)."""
    from camelhost.device.link import LinkError

    if pyramid.link.state not in ("closed", "connecting"):
        try:
            now = pyramid.link.configure()
            changed = {}
            if now["ed"] != before["ed"]:
                changed["edition"] = before["ed"]
            if now["gain"] != before["gain"]:
                changed["gain"] = before["gain"]
            if integration_ms(now["it"]) != integration_ms(before["it"]):
                # sent in whole ms: 3 is the one 2.4 ms step
                changed["integration_ms"] = max(3, before["it"])
            if changed:
                now = pyramid.link.configure(**changed)
            if (now["ed"], now["gain"], integration_ms(now["it"])) == (
                    before["ed"], before["gain"], integration_ms(before["it"])):
                return None
        except (LinkError, OSError, KeyError):
            pass
    if problem is not None:
        # TRANSLATORS: %(problem)s: what stopped the calibration (a sentence of its own,
        # in lower case); %(settings)s: the pyramid's own settings ("second edition, 24.0
        # ms, gain 16x")
        return (_("%(problem)s; the pyramid may still run this session's sensor settings, "
                  "not its own (%(settings)s): unplug it and plug it back in, and it starts "
                  "at its own again (pyramid monitor shows them)")
                % {"problem": problem, "settings": _settings_words(before)})
    return (_("the pyramid may still run this session's sensor settings, not its own "
              "(%(settings)s): unplug it and plug it back in, and it starts at its own again "
              "(pyramid monitor shows them)") % {"settings": _settings_words(before)})


def _calibrate(pyramid, driver, edition, samples, gain, integration, save, out, autorange):
    """``calibrate`` once the settings it may have to give back are known."""
    from camelup.board import classifier

    from camelhost.device.link import LinkError

    hello = pyramid.hello
    if integration is not None:  # sent in whole ms: 3 is the one 2.4 ms step
        integration = max(3.0, integration_ms(integration))
    try:
        cfg = pyramid.link.configure(edition=edition if edition != hello["ed"] else None,
                                     gain=gain, integration_ms=integration)
    except LinkError as exc:
        _explain_failure(pyramid, exc, _("setting up"))
    pyramid.check_alive()
    edition = cfg["ed"]
    if autorange:
        try:
            while True:
                cfg = choose_gain(pyramid, driver, edition, out)
                try:
                    cfg = reach_light(pyramid, driver, edition, cfg, out)
                    break
                except _GainAgain:  # the gain's reading was another die: choose it again
                    continue
        except DeviceRestarted as exc:
            raise CliError(restarted_line(exc, pyramid.port)) from None
    it = integration_ms(cfg["it"])
    settings = {"integration_ms": it, "gain": cfg["gain"]}
    steps = plan(edition, samples)
    faces = [label for label in classifier.classes_for(edition) if label != classifier.EMPTY]
    dice = len(get_edition(edition).dice)
    print(_("calibrating the %(edition)s edition: %(dice)d dice (the grey die in both inks) "
            "and the empty head, %(readings)d readings (%(samples)d per class, %(grey)d for "
            "each grey ink)") % {
              "edition": edition_word(edition), "dice": dice, "readings": len(steps),
              "samples": samples, "grey": samples * GREY_FACTOR}
          if len(faces) > dice else
          _("calibrating the %(edition)s edition: %(dice)d dice and the empty head, "
            "%(readings)d readings (%(samples)d per class)")
          % {"edition": edition_word(edition), "dice": dice, "readings": len(steps),
             "samples": samples}, file=out)
    print(_("sensor: %s") % settings_line(it, cfg["gain"]), file=out)
    try:
        return _session(pyramid, driver, edition, samples, save, out, cfg, it, settings, steps,
                        autorange)
    except DeviceRestarted as exc:
        raise CliError(restarted_line(exc, pyramid.port)) from None


def restarted_line(exc, port):
    """The line for a board that restarted mid-session (``DeviceRestarted`` ``exc``): it
    now runs the settings saved with its profile, and the command to run again names
    ``port`` (tester s37tm finding 11)."""
    return _("%(problem)s; nothing was saved, and the pyramid runs its own profile and "
             "settings again (those it starts with): run %(command)s again") % {
        "problem": exc, "command": again_command(port)}


def brightest(edition):
    """The edition's brightest die (the largest clear count under the white LED), as
    the built-in profile sees it: ``white`` (classic), ``yellow`` (second)."""
    from camelup.board import classifier

    classes = classifier.default_profile(edition)["classes"]
    dice = [label for label in classes if label != classifier.EMPTY]
    return max(dice, key=lambda label: classes[label]["mean"][3])
#: Target window of the brightest die's LED-on clear count, as a fraction of full scale
#: (docs/classifier.md, ``ColourSensor.autorange``): bright enough for resolution,
#: with headroom for seating and LED drift below the saturation level.
RANGE_WINDOW = (_tcs.RANGE_LOW, _tcs.RANGE_HIGH)


def choose_gain(pyramid, driver, edition, out):
    """Pick the analog gain with the brightest die in the head; return the new ``CFG``.

    The rule is ``camelup.board.tcs34725.choose_gain`` (the firmware's
    ``ColourSensor.autorange`` follows it too): tries 60, 16, 4, 1 (times) at the
    current integration time and keeps the highest gain whose LED-on clear count
    stays under the saturation level and at most ``RANGE_WINDOW``'s top; 1 if
    every gain is too bright. Prints what it saw. The die in the head is first judged by
    the board's running profile as the light check's and every fitted reading are
    (``board_judges``): one it names as another die is said in one line and asked again
    (Enter), or kept (``k``). The ``CFG`` returned carries ``gain_check``: ``(label,
    reading)``, the brightest die's reading at the gain chosen, which ``reach_light``
    compares its darkest die's reading with, and ``trusted``, the ``(label, die named)``
    kept with ``k`` (``board_judges``), which the later readings do not ask about again.
    """
    import camelup.board.tcs34725 as tcs

    from camelhost.device.link import LinkError

    label = brightest(edition)
    purpose = _("to choose the gain")
    driver.present(label, 1, 0, 0, purpose=purpose)
    # another die, as the board's profile reads it: said and asked, as the light check's
    # and every reading fitted are (maker s42: the blue die read as the white die chose
    # gain 16x, under which the white die saturates); Enter reads it again, k keeps it
    trusted = set()
    while board_judges(pyramid, driver, label, 1, 0, trusted, purpose)[0]:
        pass
    state = {"cfg": None}
    readings = {}

    def measure(gain):
        try:
            state["cfg"] = pyramid.link.configure(gain=gain)
        except LinkError as exc:
            _explain_failure(pyramid, exc, _("choosing the gain"))
        it = integration_ms(state["cfg"]["it"])
        on, _off = _sample(pyramid, 0, 0)
        readings[gain] = difference(on, _off)
        print(ngettext("gain %(gain)2dx: %(die)s clear %(counts)d count (%(share)s of full "
                       "scale)",
                       "gain %(gain)2dx: %(die)s clear %(counts)d counts (%(share)s of full "
                       "scale)", on[0])
              % {"gain": gain, "die": colours_in(label), "counts": on[0],
                 "share": percent(on[0] / float(full_scale(it)))}, file=out)
        return on[0]

    it = integration_ms(pyramid.link.configure()["it"])
    chosen, clear, seen = tcs.choose_gain(measure, full_scale(it), saturation_level(it))
    cfg = state["cfg"]
    if clear >= saturation_level(it) or clear > RANGE_WINDOW[1] * full_scale(it):
        print(_("even gain 1x is near saturation: shorten the integration time "
              "(--integration)"), file=out)
    if cfg["gain"] != chosen:
        cfg = pyramid.link.configure(gain=chosen)
    if clear < RANGE_WINDOW[0] * full_scale(it) and chosen == 60:
        print(_("the brightest die gives few counts even at 60x: lengthen the integration "
              "time (--integration) or move the sensor closer"), file=out)
    print(_("gain set to %dx") % chosen, file=out)
    cfg = dict(cfg)
    cfg["brightest"] = clear  # the brightest die's LED-on clear count at this gain
    if chosen in readings:  # what the light check's reading is compared with
        cfg["gain_check"] = (label, readings[chosen])
    cfg["trusted"] = trusted
    return cfg


def darkest(edition):
    """The edition's darkest die (the smallest clear count under the white LED), as
    the built-in profile sees it: ``blue`` (classic), ``purple`` (second)."""
    from camelup.board import classifier

    classes = classifier.default_profile(edition)["classes"]
    dice = [label for label in classes if label != classifier.EMPTY]
    return min(dice, key=lambda label: classes[label]["mean"][3])


def reach_light(pyramid, driver, edition, cfg, out):
    """After ``choose_gain``: with the edition's darkest die in the head, make sure it
    gives enough light (``LIGHT_MARGIN`` x the built-in profile's ``floor``,
    ``camelup.calibration.light_floor``), raising the gain or lengthening the
    integration time as ``light_fix`` says; return the ``CFG`` in force. Raises
    ``CliError`` with one line naming what to change in the hardware when no
    setting up to ``LONGEST_MS`` at gain 60x is enough. The ``CFG`` returned carries
    ``light_check``: ``(label, reading)``, the darkest die's reading (LED on minus LED
    off, counts) at the settings in force (read again after a change), which the first
    step of the session is compared with (a die left in the head from the light check
    is said at once, tester s33-2 finding 4). The light check's reading is judged by the
    board's running profile as every reading fitted is (``board_judges``): one it names
    as another die is said in one line and asked again (Enter), or kept (``k``, when that
    profile is what is wrong), so the light is never chosen on another die unsaid; the
    ``CFG`` returned carries ``trusted``, the ``(label, die named)`` so kept (with those
    ``cfg`` carried from ``choose_gain``), which the session's readings do not ask about
    again. A reading that looks like the gain's (``gain_check``) is said and never kept:
    ``driver.light_again`` reads it again, or, when the gain's reading was the wrong die,
    raises ``_GainAgain``: the gain is to be chosen again (``choose_gain``), then this
    check."""
    from camelup.board import classifier

    from camelhost.device.link import LinkError

    floor = classifier.default_profile(edition).get("floor", 0.0)
    label = darkest(edition)
    purpose = _("to check the light")
    driver.present(label, 1, 0, 0, purpose=purpose)
    it = integration_ms(cfg["it"])
    settings = {"integration_ms": it, "gain": cfg["gain"]}
    trusted = cfg["trusted"] if "trusted" in cfg else set()  # kept at the gain's step
    while True:
        on, off = _sample(pyramid, 0, 0)
        # the brightest die left in the head from choosing the gain: said at once, as a
        # step's reading like the one before it is (tester s33-2 finding 4)
        like = looks_like(label, difference(on, off), cfg.get("gain_check"),
                          {classifier.EMPTY: []}, cfg["gain"])
        if not like:
            # another die, as the board's profile reads it: said and asked, as a reading
            # fitted is; Enter reads it again, k keeps it (that profile may be wrong)
            if board_judges(pyramid, driver, label, 1, 0, trusted, purpose)[0]:
                continue
            break
        print("  " + suspect_warning(label, like), file=out)
        # never kept: the light would be judged on the wrong die. Read again (Enter), or,
        # when the reading before it was the wrong one (the gain chosen on another die),
        # the gain chosen again: Enter alone never got past that (maker s42)
        if not driver.light_again(label, like, purpose):
            raise _GainAgain()
    clear = difference(on, off)[0]
    # the built-in profile's floor: the maker's dice's own is known from the readings
    # (``_light_round_check``), tester s35-2 finding 3
    print(ngettext("darkest die: %(die)s clear %(counts)d count (enough light for the "
                   "built-in profile's dice: %(floor)d, aiming at %(aim)d; the readings then "
                   "tell your dice's own)",
                   "darkest die: %(die)s clear %(counts)d counts (enough light for the "
                   "built-in profile's dice: %(floor)d, aiming at %(aim)d; the readings then "
                   "tell your dice's own)", clear)
          % {"die": colours_in(label), "counts": clear, "floor": int(floor + 0.999),
             "aim": int(floor * LIGHT_MARGIN + 0.999)}, file=out)
    if clear >= floor * LIGHT_MARGIN:
        return dict(cfg, light_check=(label, difference(on, off)), trusted=trusted)
    text, new = light_fix(settings, clear, floor, cfg.get("brightest", clear), LIGHT_MARGIN)
    if new is None:
        raise CliError(ngettext(
            "too little light: the darkest die (%(die)s) gives %(counts)d count of clear at "
            "%(ms)s ms and gain %(gain)dx, and no setting gives it enough: %(fix)s; nothing "
            "was saved",
            "too little light: the darkest die (%(die)s) gives %(counts)d counts of clear at "
            "%(ms)s ms and gain %(gain)dx, and no setting gives it enough: %(fix)s; nothing "
            "was saved", clear) % {
                "die": colours_in(label), "counts": clear, "ms": decimal(it, 1),
                "gain": cfg["gain"], "fix": text})
    try:
        longer = new["integration_ms"]  # sent in whole ms: 3 is the one 2.4 ms step
        cfg = pyramid.link.configure(gain=new["gain"],
                                     integration_ms=None if longer == it else max(3.0, longer))
    except LinkError as exc:
        _explain_failure(pyramid, exc, _("setting the integration time"))
    print(_("set %s: the darkest die then gives enough light") % text, file=out)
    # the darkest die, still in the head, read at the new settings: the first step's
    # reading is compared with it (``light_check``), as each step's with the one before
    on, off = _sample(pyramid, 0, 0)
    return dict(cfg, light_check=(label, difference(on, off)), trusted=trusted)


class _GainAgain(Exception):
    """Raised by ``reach_light`` when the person says the gain's reading was another die
    (``light_again``): ``choose_gain`` again, then the light check."""


class _MoreLight(Exception):
    """Raised by a ``_read_steps`` round check: the readings so far ask for more light
    (``cfg``: the settings now set on the pyramid; ``line``: what was said)."""

    def __init__(self, cfg, line):
        Exception.__init__(self, line)
        self.cfg = cfg
        self.line = line


class _Saturated(Exception):
    """Raised by ``_read_steps`` at the first reading whose LED-on clear count is at or
    over the saturation level: ``label`` the die in the head, ``clear`` that LED-on
    clear count, ``index`` of ``total`` the step, ``collected`` the readings taken
    before it (none saturated), by class."""

    def __init__(self, label, clear, index, total, collected):
        Exception.__init__(self, label)
        self.label, self.clear = label, clear
        self.index, self.total = index, total
        self.collected = collected


def _read_steps(pyramid, driver, edition, out, it, gain, steps, previous=None,
                round_check=None, dim_stop=None, trusted=None, kept=None):
    """Each step's reading (LED on minus LED off, counts per channel) by class, and the
    readings that looked like the die read before or the empty head (index in the class,
    what they looked like; ``looks_like`` at analog ``gain``, the readings' noise), at
    ``it`` ms. The first reading whose LED-on clear count is at or over the saturation
    level raises ``_Saturated``: no session with it can be saved.
    ``previous``: ``(label, reading)`` read before the first step at the same settings
    (``--autorange``'s light check), which the first step's reading is compared with as
    each later step's is with the one before it. ``round_check(collected, suspects, taken)``: called after
    every whole round but the last once every class has ``MIN_SAMPLES`` readings (a
    profile can be fitted); it may raise (``_MoreLight``, ``CliError``). ``dim_stop``
    (``(floor, port, settings, empty)``, a session without ``--autorange`` with a person at
    the keyboard, who would be asked again; ``empty``: the
    clear count the built-in profile expects of the empty head, until it is read): a reading that looks
    like the empty head or the die before while the die's clear count is under ``floor``
    (the built-in profile's, known before the first step) stops the session at once with
    ``too_dim_line``, since under it no die can be told from the empty head and the
    person would be asked for a die that is in the head (tester s37tm finding 3).

    With a person at the keyboard (not ``driver.automatic``) a reading that looks like
    neither is also judged by the board's running profile (``board_label``): one it names
    as another die (``named_otherwise``; tester s41 finding 1: the red die left in the
    head from ``pyramid monitor`` went into the fit as the blue die) is asked about
    before it goes into the fit (``board_judges``): read again, or kept. Kept, it is
    fitted as any reading, since that profile may be the wrong one (the reason to
    calibrate), and that profile's naming that die so is not asked about again
    (``trusted``: the set of ``(label, die named)`` the person kept, shared with
    ``reach_light``'s light check; a new one when ``None``). ``kept``: a list each such
    reading fitted though the board's profile named another die is appended to, as
    ``(label, index in its class, die named, step number)``, for the check against the
    session's own profile (``named_by_the_fit``)."""
    from camelup.board import classifier
    collected = {label: [] for label in classifier.classes_for(edition)}
    suspects = {label: [] for label in collected}
    kept = [] if kept is None else kept
    limit = saturation_level(it)
    taken = 0
    trusted = set() if trusted is None else trusted
    starts = set()  # the steps that begin a round (a class met again)
    met = set()
    for index, (label, _value) in enumerate(steps, 1):
        if label in met:
            starts.add(index)
            met = set()
        met.add(label)
    for index, (label, value) in enumerate(steps, 1):
        if round_check is not None and index in starts and \
                all(len(rows) >= MIN_SAMPLES for rows in collected.values()):
            round_check(collected, suspects, taken)  # a new round starts here
        driver.present(label, value, index, len(steps), taken)
        while True:
            pyramid.link.pending_events()  # slider pushes while calibrating are not game events
            on, off = _sample(pyramid, index - 1, len(steps))
            reading = difference(on, off)
            flag = ""
            if on[0] >= limit:
                flag = "  " + _("SATURATED")
            if not driver.automatic or index == len(steps) or index % 10 == 0:
                # the letters and "LED off" as the monitor's columns say them (c: clear channel)
                print(_("[%(index)3d/%(total)d] %(class)-12s c=%(clear)5d r=%(red)5d "
                        "g=%(green)5d b=%(blue)5d (LED off c=%(clear_off)d)%(flag)s")
                      % {"index": index, "total": len(steps), "class": shown_label(label),
                         "clear": reading[0], "red": reading[1], "green": reading[2],
                         "blue": reading[3], "clear_off": off[0], "flag": flag}, file=out)
            collected[label].append(reading)
            like = looks_like(label, reading, previous, collected, gain)
            if not like:
                if flag:  # a clipped reading stops below
                    break
                again, named = board_judges(pyramid, driver, label, value, taken + 1, trusted)
                if again:
                    collected[label].pop()  # read again: this reading goes
                    continue
                if named is not None:  # kept though the board's profile named another die
                    kept.append((label, len(collected[label]) - 1, named, index))
                break
            die, clear = (label, reading[0]) if label != classifier.EMPTY else (
                previous[0], previous[1][0])
            # a die the LED lights (well over the empty head) yet under the floor: the
            # light, not the die, is wrong (a missing die reads as the empty head does)
            # (before the empty head was read, what the built-in profile expects of it)
            empties = [row[0] for row in collected[classifier.EMPTY]]
            head = max(empties) if empties else dim_stop and dim_stop[3]
            if dim_stop is not None and die != classifier.EMPTY and \
                    DIM_OVER_EMPTY * head + 3 <= clear < dim_stop[0]:
                raise CliError(too_dim_line(index, len(steps), die, clear, *dim_stop[:3]))
            print("  " + suspect_warning(label, like), file=out)
            if not driver.read_again(label, value, taken + 1):
                suspects[label].append((len(collected[label]) - 1, like))
                break
            collected[label].pop()  # the person reads this step again: this reading goes
        if flag:
            # a clipped clear count loses the die's colour: this session can no longer
            # be saved, so it stops here with the setting to use, not after every
            # release (tester s36tm, finding 3)
            collected[label].pop()  # a clipped reading: its count only says "at least"
            raise _Saturated(label, on[0], index, len(steps), collected)
        taken += 1
        previous = (label, reading)
    return collected, suspects


def expected_clear(label, settings, edition):
    """The clear count (LED on minus LED off, counts) the edition's built-in profile
    expects of ``label`` (a die or ``empty``) at ``settings`` (the device's ``CFG``:
    ``it``, ``gain``): its class's mean clear over ``ref_clear``, times ``ref_clear``
    scaled by the exposure (integration steps x gain, ``tcs34725.exposure``)."""
    from camelup.board import classifier, tcs34725

    profile = classifier.default_profile(edition)
    now = {"integration_ms": integration_ms(settings["it"]), "gain": settings["gain"]}
    scale = tcs34725.exposure(now) / tcs34725.exposure(profile["settings"])
    return profile["classes"][label]["unit"][0] * profile["ref_clear"] * scale


#: A reading under the floor stops a session as too dim (``too_dim_line``) only when its
#: clear count is at least this many times the empty head's (plus 3 counts): a die
#: left out of the head reads as the empty head does, and is asked for again.
DIM_OVER_EMPTY = 2


def too_dim_line(index, total, die, clear, floor, port, settings):
    """The one line (no newline) that stops a session at reading ``index`` of ``total``
    whose ``die`` gives ``clear`` counts of clear (LED on minus LED off), under the
    ``floor`` these dice need (docs/calibration.md "Enough light"), at ``settings``
    (``integration_ms``, ``gain``); it names ``calibrate --autorange`` with ``port``."""
    return ngettext(
        "stopped at reading %(index)d of %(total)d: too little light at %(ms)s ms and gain "
        "%(gain)dx: the %(die)s die gives %(clear)d count of clear, these dice need "
        "%(floor)d, and under that a die in the head cannot be told from the empty head; "
        "nothing was saved: calibrate again with more light, %(command)s (it measures the "
        "dice and sets it); the pyramid keeps its profile",
        "stopped at reading %(index)d of %(total)d: too little light at %(ms)s ms and gain "
        "%(gain)dx: the %(die)s die gives %(clear)d counts of clear, these dice need "
        "%(floor)d, and under that a die in the head cannot be told from the empty head; "
        "nothing was saved: calibrate again with more light, %(command)s (it measures the "
        "dice and sets it); the pyramid keeps its profile", clear) % {
            "index": index, "total": total, "ms": decimal(settings["integration_ms"], 1),
            "gain": settings["gain"], "die": _colour(die), "clear": clear,
            "floor": int(floor + 0.999), "command": again_command(port, "--autorange")}


def _brightest_die(collected):
    """The median clear count of the brightest die (the empty head left out)."""
    from camelup.board import classifier
    brightest = 0
    for label in collected:
        if label != classifier.EMPTY and collected[label]:
            clears = sorted(r[0] for r in collected[label])
            brightest = max(brightest, clears[len(clears) // 2])
    return brightest


def _seen(collected, suspects):
    """``collected`` without the readings that looked like the die before or the empty
    head (``suspects``): the readings of dice that were in the head."""
    seen = {}
    for label, rows in collected.items():
        flagged = [i for i, _like in suspects[label]]
        seen[label] = [row for i, row in enumerate(rows) if i not in flagged]
    return seen


def _judged(profile, collected, suspects, saturated, loo, settings, port=None):
    """``(dim, refused)``: the light line when too little light reached the dice in the
    head (or None; its command names ``port``), and ``calibration.refusal``'s reason
    not to save (or None)."""
    from camelup import calibration
    from camelup.board import classifier
    # the light is judged by the readings of dice that were in the head: a die that
    # never was would look like a die in the dark
    seen = _seen(collected, suspects)
    lit = [label for label in seen if label != classifier.EMPTY and seen[label]]
    dim = None
    if not saturated and lit and light_problem(profile, seen, settings):
        # in too little light dice look like each other and like the empty head: say
        # the light, about every reading, as it was said before
        dim = light_problem(profile, collected, settings, port) or light_problem(
            profile, seen, settings, port)
    refused = calibration.refusal(loo, suspects)
    if dim and refused and refused[1] == "like":
        refused = None  # in too little light every reading looks like the empty head
    return dim, refused


def brightest_estimate(collected, edition, clipped=None):
    """The brightest die's LED-on clear count as the readings in hand tell it: ``(label,
    counts)``, or ``None`` when no die was read under the saturation level (a clipped
    count only says "at least"). ``collected``: readings by class, none saturated (LED
    on minus LED off: the LED-off count, the room's light, is small beside it);
    ``clipped``: ``(label, clear)`` of a saturated reading, its LED-on clear count, a
    lower bound. The dice's brightness relative to each other is the built-in profile's
    (its classes' ``log(c/ref)``, ``camelup.board.classifier.default_profile``): each
    die's highest clear count scaled by that ratio to the edition's brightest die
    (``brightest``); the largest of them. The empty head, some 30 times darker than a
    die, is left out."""
    import math

    from camelup.board import classifier

    classes = classifier.default_profile(edition)["classes"]
    top = brightest(edition)

    def scaled(label, clear):
        return clear * math.exp(classes[top]["mean"][3] - classes[label]["mean"][3])

    seen = [scaled(label, max(row[0] for row in rows)) for label, rows in collected.items()
            if rows and label != classifier.EMPTY and label in classes]
    if not seen:
        return None
    if clipped is not None:
        seen.append(scaled(*clipped))
    return top, int(max(seen) + 0.5)


def saturation_fix(settings, counts=None):
    """What keeps the brightest die under the saturation level: ``(text, settings)``.

    ``settings``: ``{"integration_ms", "gain"}`` the saturated readings were taken at.
    ``counts``: the brightest die's LED-on clear count there as the readings in hand
    tell it (``brightest_estimate``), or ``None``. Given, the counts scale linearly
    with the gain and the integration time (TCS34725 datasheet, "RGBC Timing Register
    (0x01)" and "Control Register (0x0F)"): the highest lower gain that brings them to
    at most ``RANGE_WINDOW``'s top of full scale (what ``--autorange`` aims at, under
    ``tcs34725.saturation_level`` with headroom); at gain 1x the longest shorter
    integration time that does, at most ``LONGEST_MS`` (below 64 steps the sensor
    saturates at a share of its full scale, which shortens with the time: only a board
    running over 153.6 ms can be helped by a shorter one);
    ``None`` as the answer's settings when none does: then the text names the hardware
    (LED current, sensor distance). Without ``counts``: the next lower gain (60x ->
    16x -> 4x -> 1x); at gain 1x half the integration time, to a whole 2.4 ms step, at
    least 2.4 ms; at 2.4 ms and gain 1x the hardware."""
    it = settings["integration_ms"]
    gain = settings["gain"]
    if counts is not None:
        return _fix_for(it, gain, counts)
    lower = [g for g in _tcs.GAINS if g < gain]
    if lower:
        return (_("gain %(gain)dx (--gain %(gain)d)") % {"gain": lower[-1]},
                {"integration_ms": it, "gain": lower[-1]})
    if it > _tcs.INTEGRATION_MIN_MS:
        steps = max(1, int(it / 2.0 / _tcs.STEP_MS))
        shorter = integration_ms(steps * _tcs.STEP_MS)
        return (_("integration time %(ms)s ms (--integration %(typed).1f)")
                % {"ms": decimal(shorter, 1), "typed": shorter},
                {"integration_ms": shorter, "gain": gain})
    return (_("less LED current or the sensor further from the die (hardware/README.md): "
              "even %s ms at gain 1x saturates") % decimal(_tcs.INTEGRATION_MIN_MS, 1), None)


def _fix_for(it, gain, counts):
    """``saturation_fix`` for a brightest die of ``counts`` at ``it`` ms and ``gain``."""
    rate = counts / float(gain * _tcs.steps(it))  # counts per step at gain 1x
    for lower in reversed([g for g in _tcs.GAINS if g < gain]):
        if rate * lower * _tcs.steps(it) <= RANGE_WINDOW[1] * full_scale(it):
            return (_("gain %(gain)dx (--gain %(gain)d)") % {"gain": lower},
                    {"integration_ms": it, "gain": lower})
    # no longer than LONGEST_MS, the longest --integration takes (a release's three
    # readings in its 1.5 s): a board running longer is offered at most that
    for n in range(min(_tcs.steps(it) - 1, _tcs.steps(LONGEST_MS)), 0, -1):
        if rate * n <= RANGE_WINDOW[1] * _tcs.full_scale_steps(n):
            shorter = integration_ms(n * _tcs.STEP_MS)
            return (_("gain 1x and integration time %(ms)s ms (--gain 1 --integration "
                      "%(typed).1f)") % {"ms": decimal(shorter, 1), "typed": shorter},
                    {"integration_ms": shorter, "gain": 1})
    return (_("less LED current or the sensor further from the die (hardware/README.md): "
              "even gain 1x saturates at any integration time"), None)


def stopped_saturated(stop, edition, settings, port=None):
    """The one line (no newline) ending a session at its first saturated reading
    (``_Saturated``: ``stop``): which die, its clear count against the saturation level
    (``tcs34725.saturation_level``, the one source), that nothing can be saved from
    these settings, and the setting that keeps the brightest die under the level as the
    readings in hand tell it (``brightest_estimate``, ``saturation_fix``), or
    ``--autorange``, which measures it, when they cannot tell; the command to type names
    ``port``, the session's (``again_command``, maker finding 11)."""
    it, gain = settings["integration_ms"], settings["gain"]
    head = ngettext(
        "stopped at reading %(index)d of %(total)d, nothing saved: the %(die)s die saturated "
        "the sensor's clear channel (%(clear)d count with the LED on at %(ms)s ms and gain "
        "%(gain)dx; it saturates from %(limit)d), so its colour is lost and no session at "
        "these settings can be saved",
        "stopped at reading %(index)d of %(total)d, nothing saved: the %(die)s die saturated "
        "the sensor's clear channel (%(clear)d counts with the LED on at %(ms)s ms and gain "
        "%(gain)dx; it saturates from %(limit)d), so its colour is lost and no session at "
        "these settings can be saved", stop.clear) % {
            "index": stop.index, "total": stop.total, "die": shown_label(stop.label),
            "clear": stop.clear, "ms": decimal(it, 1), "gain": gain,
            "limit": saturation_level(it)}
    estimate = brightest_estimate(stop.collected, edition, (stop.label, stop.clear))
    if estimate is None:
        # TRANSLATORS: %(stopped)s: the sentence saying where the session stopped and why
        return _(
            "%(stopped)s. The readings so far cannot tell how bright the dice are: calibrate "
            "again with --autorange, which measures the brightest die and chooses the gain "
            "(%(command)s); the pyramid keeps its profile") % {
                "stopped": head, "command": again_command(port, "--autorange")}
    label, counts = estimate
    text, new = saturation_fix(settings, counts)
    if new is None:
        # TRANSLATORS: %(stopped)s: the sentence saying where the session stopped and why
        return (_("%(stopped)s. The readings so far put the brightest die (%(die)s) near "
                  "%(counts)d counts here: it needs %(fix)s; the pyramid keeps its profile")
                % {"stopped": head, "die": shown_label(label), "counts": counts, "fix": text})
    # TRANSLATORS: %(stopped)s: the sentence saying where the session stopped and why
    return (_(
        "%(stopped)s. The readings so far put the brightest die (%(die)s) near %(counts)d "
        "counts here: set %(fix)s, or let --autorange choose the gain (it measures the "
        "brightest die), and calibrate again (%(command)s); the pyramid keeps its profile") % {
            "stopped": head, "die": shown_label(label), "counts": counts, "fix": text,
            "command": again_command(port, "--integration", "%.1f" % new["integration_ms"],
                                     "--gain", str(new["gain"]))})


#: How many times an ``--autorange`` session sets more light when its readings ask for
#: it (``_light_round_check``) and starts its readings again.
MORE_LIGHT_TRIES = 2


def _light_round_check(pyramid, edition, settings, total, out):
    """``_read_steps``' ``round_check`` for an ``--autorange`` session: the light check
    before the readings judged the darkest die against the built-in profile's floor (the
    simulated dice's); after every round, once a profile can be fitted, the floor of the
    maker's own dice is known (``camelup.calibration.light_floor``, docs/calibration.md
    "Enough light"). When the darkest die gives less than that, the setting
    ``light_fix`` names (``LIGHT_MARGIN`` over the floor) is set on the pyramid and
    ``_MoreLight`` raised: the readings start again at it, since readings taken at other
    settings cannot be fitted together. When no setting is enough, ``CliError`` with
    ``light_problem``'s line at once, not after the rest of the releases."""
    from camelup import calibration

    from camelhost.device.link import LinkError

    def check(collected, suspects, taken):
        seen = _seen(collected, suspects)
        profile = calibration.fit(collected, edition, settings)
        floor = profile.get("floor", 0.0)
        darkest_die, brightest = darkest_and_brightest(seen)
        if darkest_die is None or not floor or darkest_die[1] >= floor:
            return
        label, clear = darkest_die
        text, new = light_fix(settings, clear, floor, brightest, LIGHT_MARGIN)
        if new is None:
            raise CliError(_("%(problem)s (after %(done)d of %(total)d readings; nothing "
                             "was saved)")
                           % {"problem": light_problem(profile, seen, settings, pyramid.port),
                              "done": taken, "total": total})
        longer = new["integration_ms"]  # sent in whole ms: 3 is the one 2.4 ms step
        try:
            cfg = pyramid.link.configure(
                gain=new["gain"] if new["gain"] != settings["gain"] else None,
                integration_ms=(None if longer == settings["integration_ms"]
                                else max(3.0, longer)))
        except LinkError as exc:
            _explain_failure(pyramid, exc, _("after %(done)d of %(total)d readings")
                             % {"done": taken, "total": total})
        pyramid.check_alive()
        line = ngettext(
            "the readings so far say these dice need %(floor)d counts of clear, more than the "
            "darkest die (%(die)s) gives at %(ms)s ms and gain %(gain)dx (%(clear)d): set "
            "%(fix)s, and the readings start again at it (the %(taken)d reading taken is "
            "dropped)",
            "the readings so far say these dice need %(floor)d counts of clear, more than the "
            "darkest die (%(die)s) gives at %(ms)s ms and gain %(gain)dx (%(clear)d): set "
            "%(fix)s, and the readings start again at it (the %(taken)d readings taken are "
            "dropped)", taken) % {
                "floor": int(floor + 0.999), "die": shown_label(label),
                "ms": decimal(settings["integration_ms"], 1), "gain": settings["gain"],
                "clear": clear, "fix": text, "taken": taken}
        print(line, file=out)
        raise _MoreLight(cfg, line)

    return check


def _session(pyramid, driver, edition, samples, save, out, cfg, it, settings, steps,
             autorange=False):
    from camelup import calibration
    from camelup.board import classifier

    from camelhost.device.link import LinkError

    previous = cfg.get("light_check")
    trusted = cfg.get("trusted") or set()  # the light check's kept wrong die, if any
    tries = 0
    while True:
        check = None
        if autorange and tries < MORE_LIGHT_TRIES:
            check = _light_round_check(pyramid, edition, settings, len(steps), out)
        kept = []
        try:
            collected, suspects = _read_steps(
                pyramid, driver, edition, out, it, cfg["gain"], steps, previous, check,
                None if autorange or driver.automatic else (classifier.default_profile(edition).get("floor", 0.0),
                                        pyramid.port, settings,
                                        expected_clear("empty", cfg, edition)),
                trusted, kept)
            break
        except _Saturated as stop:
            raise CliError(stopped_saturated(stop, edition, settings, pyramid.port)) from None
        except _MoreLight as more:
            tries += 1
            cfg = more.cfg
            it = integration_ms(cfg["it"])
            settings = {"integration_ms": it, "gain": cfg["gain"]}
            previous = None  # the last reading was taken at the other settings
            driver.start_again()
            print(_("sensor: %s") % settings_line(it, cfg["gain"]), file=out)
    doubted = named_by_the_fit(collected, kept, edition, settings)
    if doubted:  # a reading kept with k that the maker's own dice say was another die
        for label, index, named, step in doubted:
            print(doubted_line(label, collected[label][index], named, step, len(steps)),
                  file=out)
        collected, suspects = _without(collected, suspects, doubted)
        short = sorted(label for label, rows in collected.items() if len(rows) < MIN_SAMPLES)
        if short:
            raise CliError(too_few_left_line(short, pyramid.port))
    profile = calibration.fit(collected, edition, settings)
    pairs = calibration.separation(profile)
    loo = leave_one_out(collected, edition, settings)
    # a saturated reading ended the session at once (``_Saturated``): none here
    advice = advise(pairs, 0, loo, len(steps), settings, _brightest_die(collected))
    dim, refused = _judged(profile, collected, suspects, 0, loo, settings, pyramid.port)
    if dim:  # too little light blurs every pair: say that, not what it looks like
        advice = dim
    elif refused and refused[1] == "like":
        advice = None  # a die not in the head is neither the build's fault nor the light's
    result = Result(profile, collected, pairs, loo, 0, advice)
    print_report(result, out)
    if refused and refused[1] == "like":  # a die not in the head: its own line
        raise CliError(refusal_line(refused, collected, pyramid.port))
    if refused:  # a die the check cannot name: the advice above says the light if dim
        raise CliError(refusal_line(refused, collected, pyramid.port))
    if dim:
        raise CliError(_("%(problem)s (nothing was saved)") % {"problem": dim})
    if save:
        text = json.dumps(profile, sort_keys=True, separators=(",", ":"))
        held = held_profile(pyramid)  # what it holds before: a late SAVE is told by INFO
        try:
            pyramid.link.save_profile(profile)
        except LinkError as exc:
            if str(exc).endswith("bad_profile"):
                raise CliError(_("the pyramid refused the profile as invalid (%s)") % exc) from None
            if getattr(exc, "reason", None) is not None or \
                    pyramid.link.state in ("closed", "connecting"):
                _explain_failure(pyramid, exc, _("while saving the profile"))
            _unanswered_save(pyramid, exc, held, cfg, out)
        pyramid.check_alive()
        result.saved = True
        facts = {"bytes": len(text), "edition": edition_word(edition), "ms": decimal(it, 1),
                 "gain": cfg["gain"]}
        if pyramid.virtual is not None:
            # its flash is a folder that goes when it stops, at the end of this command
            print(_("profile saved on this virtual pyramid (%(bytes)d bytes, %(edition)s "
                    "edition, %(ms)s ms, gain %(gain)dx) until it stops at the end of this "
                    "command: the next virtual pyramid starts with the built-in profile again "
                    "(--out keeps a copy in a file)") % facts, file=out)
        else:
            print(_("profile saved on the pyramid (%(bytes)d bytes, %(edition)s edition, "
                    "%(ms)s ms, gain %(gain)dx)") % facts, file=out)
    return result


def held_profile(pyramid):
    """What the pyramid's ``INFO`` says of the profile it classifies with:
    ``(cal, pit, pgain)`` (``cal`` 1 for a saved one, ``pit`` ms and ``pgain`` the
    settings it was fitted at, ``None`` with the built-in one; docs/protocol.md), or
    ``None`` when it does not answer ``INFO?`` within 3 s times the link's stretch."""
    from camelhost.device.link import LinkError

    wait = 3.0 * max(1.0, getattr(pyramid.link, "stretch", 1.0))
    try:
        info = pyramid.link.request("INFO?", lambda m: m.name == "INFO", wait, 1)
    except LinkError:
        return None
    return (info.get("cal"), info.get("pit"), info.get("pgain"))


def _unanswered_save(pyramid, exc, held, cfg, out):
    """After a ``SAVE`` the board did not answer in time (tester s37tm finding 5): ask
    it (``INFO``) what it holds. It holds the new profile (fitted at ``cfg``'s settings,
    and it held another before, ``held``): say so and return, the session saved. It
    holds its old one: raise the failure (the session's settings are given back). It
    does not answer, or the two cannot be told apart: raise a ``CliError`` that keeps
    the board's settings (``keeps_settings``), since they may be the new profile's,
    naming what to do."""
    now = held_profile(pyramid)
    fitted = (cfg["it"], cfg["gain"])
    if now is not None and now[0] and tuple(now[1:]) == fitted and held is not None and \
            now != held:
        print(_("the pyramid answered SAVE late (%s), but it holds the new profile") % exc,
              file=out)
        return
    if now is not None and (not now[0] or tuple(now[1:]) != fitted):
        failed = CliError(_("%(exc)s (while saving the profile); the pyramid says it holds "
                            "its old profile: nothing was saved, run %(command)s again") % {
                                "exc": exc, "command": again_command(pyramid.port)})
        failed.link_failure = True
        raise failed
    stopped = CliError(_(
        "%(exc)s (while saving the profile), and the pyramid may have saved it or not: "
        "unplug it and plug it back in, then %(monitor)s shows the settings it runs "
        "(%(ms)s ms and gain %(gain)dx if it saved the new profile)") % {
            "exc": exc, "monitor": with_port("monitor", pyramid.port, "--count", "1"),
            "ms": decimal(integration_ms(cfg["it"]), 1), "gain": cfg["gain"]})
    stopped.keeps_settings = True  # they may be the new profile's: none put back
    raise stopped


def looks_like(label, reading, previous, collected, gain):
    """The label a reading of ``label`` looks like (``camelup.calibration.alike``), or
    ``None``: the reading just before it (``previous``: ``(label, reading)``) when that
    was another step, else (for a die) any reading of the empty head so far
    (``collected``: ``{label: [readings]}``), all taken at analog ``gain`` (1, 4, 16 or
    60: the count noise grows with it). Such a reading is the die left in the head
    from the step before, or no die at all."""
    from camelup import calibration
    from camelup.board import classifier

    ref = 1.0
    for rows in collected.values():
        for row in rows:
            ref = max(ref, float(row[0]))
    if previous is not None and previous[0] != label and \
            calibration.alike(reading, previous[1], ref, gain):
        return previous[0]
    if label != classifier.EMPTY:
        for empty in collected[classifier.EMPTY]:
            if calibration.alike(reading, empty, ref, gain):
                return classifier.EMPTY
    return None


def named_otherwise(label, named):
    """The die the board's running profile named a reading of step ``label`` as, when
    that is another die than the one asked for: ``named`` (a ``RAW`` label of
    ``camelup.board.classifier``, or ``None`` when the board gave none) when it is a die
    and not ``label``'s (the grey die's two inks are one die, as ``calibration.refusal``
    counts them); for the empty head's step (``label`` ``empty``) any die. ``None``
    otherwise: the profile named the die asked for, the empty head (the comparison with
    the empty head's readings says that, ``looks_like``), or nothing it is sure of
    (``unknown``, ``double``): a profile that refuses a reading never holds it up."""
    from camelup import calibration
    from camelup.board import classifier

    if named in (None, classifier.EMPTY, classifier.UNKNOWN, classifier.DOUBLE):
        return None
    if label != classifier.EMPTY and calibration.same_die(label, named):
        return None
    return named


def named_by_the_fit(collected, kept, edition, settings):
    """The readings kept though the board's running profile named another die (``kept``:
    ``(label, index in collected[label], die named, step)``, ``_read_steps``) that the
    session's own profile names as another die too: ``[(label, index, die named now,
    step)]``, in step order. Each is judged by the profile fitted on the readings of
    ``collected`` without it (``camelup.calibration.fit`` at ``settings``, the
    ``edition``'s classes), as the report's check judges every reading
    (``leave_one_out``): fitted with it, a reading pulls its class's spread over itself.
    Without every such reading of its class at once while they are fewer than the others
    and ``MIN_SAMPLES`` others are left (two wrong dice kept would each pull the spread
    over the other), else without it alone (most of a die's readings kept so: that
    profile was wrong about the die); a class of ``MIN_SAMPLES`` readings (``--samples
    3``) cannot spare one, and its readings are not judged. The judgement is the one the board's profile got
    (``named_otherwise``: the empty head, ``unknown`` and ``double`` are no other die).
    Such a reading was not that profile's mistake but the wrong die in the head: the
    session leaves it out of the fit (docs/calibration.md)."""
    from camelup import calibration
    from camelup.board import classifier

    def judge(label, indices):
        rest = dict(collected)
        rest[label] = [row for i, row in enumerate(collected[label]) if i not in indices]
        if len(rest[label]) < max(MIN_SAMPLES, len(indices) + 1):
            return None
        return classifier.Classifier(calibration.fit(rest, edition, settings, floor=False))

    doubted = []
    for label in sorted(set(row[0] for row in kept)):
        rows = [row for row in kept if row[0] == label]
        together = judge(label, set(row[1] for row in rows))
        for _label, index, _named, step in rows:
            clf = together or judge(label, {index})
            if clf is None:  # too few to fit without it: fitted as kept
                continue
            now = named_otherwise(label, clf.classify(collected[label][index])[0])
            if now is not None:
                doubted.append((label, index, now, step))
    return sorted(doubted, key=lambda row: row[3])


def _without(collected, suspects, doubted):
    """``(collected, suspects)`` with the readings ``doubted`` (``named_by_the_fit``) left
    out, the indices of ``suspects`` moved down past them."""
    collected = {label: list(rows) for label, rows in collected.items()}
    suspects = {label: list(rows) for label, rows in suspects.items()}
    for label, index, _named, _step in sorted(doubted, key=lambda row: -row[1]):
        del collected[label][index]
        suspects[label] = [(i - 1 if i > index else i, like) for i, like in suspects[label]]
    return collected, suspects


def doubted_line(label, reading, named, step, total):
    """The one line (no newline) saying that reading number ``step`` of ``total``, of
    ``label`` (``reading``: ``(c, r, g, b)``), kept though the board's profile named another
    die, is named the die ``named`` by the profile the session fitted too
    (``wrong_die_words``), and is left out of the fit."""
    return _("reading %(step)d of %(total)d (%(label)s c=%(c)d r=%(r)d g=%(g)d b=%(b)d), kept "
             "though the pyramid's profile named another die: %(held)s, as the profile this "
             "session fitted reads it too; it is left out and the profile fitted again "
             "without it") % {
                 "step": step, "total": total, "label": shown_label(label), "c": reading[0],
                 "r": reading[1], "g": reading[2], "b": reading[3],
                 "held": wrong_die_words(named, label)}


def too_few_left_line(short, port=None):
    """The one line (no newline) refusing the save when leaving out the readings
    ``named_by_the_fit`` found leaves a class of ``short`` (labels) under ``MIN_SAMPLES``
    readings, too few to fit; the command to run again names ``port``."""
    return ngettext(
        "not saved: with those readings left out, %(classes)s has fewer than %(least)d "
        "readings, too few to fit; put the die asked for in the head at each step and run "
        "%(command)s again; the pyramid keeps its profile",
        "not saved: with those readings left out, %(classes)s have fewer than %(least)d "
        "readings each, too few to fit; put the die asked for in the head at each step and "
        "run %(command)s again; the pyramid keeps its profile", len(short)) % {
                 "classes": listed(shown_label(label) for label in short),
                 "least": MIN_SAMPLES, "command": again_command(port)}


def board_judges(pyramid, driver, label, value, taken, trusted, purpose=None):
    """Judge a reading of step ``label`` (``value`` on top) that looks like neither the
    reading before it nor the empty head by the board's running profile (``board_label``,
    ``named_otherwise``): ``(again, named)``. ``again`` True: the person asked for the step
    to be read again (``driver.wrong_die``; the reading goes). Else the reading is kept,
    and ``named`` is the other die that profile named it (the person kept it with ``k``:
    ``(label, named)`` joins ``trusted``, a set, and is not asked about again; or it was
    in ``trusted`` already), ``None`` when it named no other die or nothing was asked
    (``driver.automatic``: the simulated table puts the die asked for). ``taken``: the
    readings the session holds if this one is kept (``q``'s question); ``purpose``: a step
    before the readings (``--autorange``'s light check, ``reach_light``). The one
    judgement of every reading fitted and of the light check (tester s41 finding 1)."""
    if driver.automatic:
        return False, None
    named = named_otherwise(label, board_label(pyramid))
    if named is None or (label, named) in trusted:
        return False, named
    if driver.wrong_die(label, value, named, taken, purpose):
        return True, named
    trusted.add((label, named))  # kept: that profile is wrong about it
    return False, named


def board_label(pyramid):
    """The label the board's running profile (the one it holds, or its edition's
    built-in one) gives what is in the head now: one streamed reading's (``RAW``,
    ``monitor.one_reading``), waited for 5 s times the link's stretch; ``None`` when none
    came or the board refused the stream (the next ``CAL`` says a lost link)."""
    from camelhost.device.link import LinkError

    try:
        reading = one_reading(pyramid.link,
                              5.0 * max(1.0, getattr(pyramid.link, "stretch", 1.0)))
    except LinkError:
        try:  # a stream left on would slow every later answer
            pyramid.link.stream(0)
        except LinkError:
            pass
        return None
    return None if reading is None else reading.get("label")


def _colour(label):
    """The die's colour in the table's language: ``grey-white`` -> ``grey`` (``grau``)."""
    return colour_word(label.split("-", 1)[0])


def suspect_warning(label, like):
    """The line under a reading of ``label`` that looks like ``like`` (``looks_like``)."""
    if label == "empty":
        return _("this reading looks like the %s die read just before it: is the head "
                 "empty?") % _colour(like)
    if like == "empty":
        return _("this reading looks like the empty head: is the %s die in the head?") % (
            _colour(label))
    return _("this reading looks like the %(like)s die read just before it: is the %(die)s "
             "die in the head?") % {"like": _colour(like), "die": _colour(label)}


def refusal_line(refused, collected, port=None):
    """The one line (no newline) saying why the profile was not saved
    (``camelup.calibration.refusal``'s answer ``refused``): whose readings look wrong,
    why, and what to do, with the command to type on ``port`` (the session's:
    ``again_command``, maker finding 11)."""
    label, reason, detail = refused
    n = len(collected[label])
    again = again_command(port)
    if reason == "like":
        like, count = detail
        if label == "empty":
            return ngettext(
                "not saved: %(count)d of the empty head's %(n)d readings looks like the %(like)s "
                "die read just before it: a die was still in the head. Take every die out when "
                "asked and run %(command)s again; the pyramid keeps its profile",
                "not saved: %(count)d of the empty head's %(n)d readings look like the %(like)s "
                "die read just before them: a die was still in the head. Take every die out "
                "when asked and run %(command)s again; the pyramid keeps its profile",
                count) % {"count": count, "n": n, "like": _colour(like), "command": again}
        if like == "empty":
            return ngettext(
                "not saved: %(count)d of the %(die)s die's %(n)d readings looks like the empty "
                "head: the %(die)s die was not in the head. Put the %(die)s die in the head and "
                "read it again (%(command)s); the pyramid keeps its profile",
                "not saved: %(count)d of the %(die)s die's %(n)d readings look like the empty "
                "head: the %(die)s die was not in the head. Put the %(die)s die in the head and "
                "read it again (%(command)s); the pyramid keeps its profile",
                count) % {"count": count, "n": n, "die": _colour(label), "command": again}
        return ngettext(
            "not saved: %(count)d of the %(die)s die's %(n)d readings looks like the %(like)s "
            "die read just before it: the %(die)s die was not in the head. Put the %(die)s die "
            "in the head and read it again (%(command)s); the pyramid keeps its profile",
            "not saved: %(count)d of the %(die)s die's %(n)d readings look like the %(like)s "
            "die read just before them: the %(die)s die was not in the head. Put the %(die)s "
            "die in the head and read it again (%(command)s); the pyramid keeps its "
            "profile",
            count) % {"count": count, "n": n, "like": _colour(like), "die": _colour(label),
                      "command": again}
    if label == "empty":
        return (_("not saved: the check names the empty head right in only %(share)s of its "
                  "readings, under the %(needed)s a profile needs. Take every die out when "
                  "asked and run %(command)s again; the pyramid keeps its profile")
                % {"share": percent(detail, 1), "needed": percent(_named_bar()),
                   "command": again})
    return (_("not saved: the check names the %(die)s die right in only %(share)s of its "
              "readings, under the %(needed)s a profile needs: its readings are spread or look "
              "like another class. Release the %(die)s die for every reading asked, change "
              "what the advice above names, and run %(command)s again; the pyramid keeps its "
              "profile")
            % {"die": _colour(label), "share": percent(detail, 1),
               "needed": percent(_named_bar()), "command": again})


def _named_bar():
    from camelup import calibration

    return calibration.NAMED_BAR


def report_heading(edition):
    """The report's first line, over the pairs: what the separation is, the bar under
    which a pair is too close, and, for an edition with a grey die, what its labels name
    (``grey-black and grey-white: the grey die with its black or its white numeral``;
    German ``grau-schwarz und grau-weiß``), named from the edition's own fields: its
    ``sensor_labels`` that are no die of its ``dice`` (the grey die split by ink, RULES
    3.1; the classic edition has none, so its heading names no grey die). ``edition``:
    its name (``"classic"``, ``"second"``) or ``None`` (a profile that names none: no
    labels explained). Raises ``KeyError`` for an unknown edition name."""
    inked = [] if edition is None else [
        label for label in get_edition(edition).sensor_labels
        if label not in get_edition(edition).dice]
    if not inked:
        return _("separation of every pair of classes, closest first (sigma; under %.0f is "
                 "too close):") % _too_close()
    return (_("separation of every pair of classes, closest first (sigma; under %(close).0f "
              "is too close; %(labels)s: the grey die with its black or its white numeral):")
            % {"close": _too_close(),
               "labels": _(" and ").join(shown_label(label) for label in inked)})


def print_report(result, out):
    """Per-pair separation (headed by ``report_heading`` of the profile's edition), the
    leave-one-out check and the advice line."""
    print(report_heading(result.profile.get("edition")), file=out)

    for p in result.pairs:
        print("  %-12s %-12s %7s%s" % (shown_label(p["a"]), shown_label(p["b"]),
                                       decimal(p["sigma"], 1),
                                       "  " + _("TOO CLOSE") if p["too_close"] else ""),
              file=out)
    close = [p for p in result.pairs if p["too_close"]]
    print(_("pairs too close: %s") % (", ".join("%s/%s" % (shown_label(p["a"]), shown_label(p["b"]))
                                                for p in close)
                                   or _("none")), file=out)
    t = result.loo["_total"]
    covered, skipped = checked(result.loo)
    if t["n"] and skipped:
        print(_("check of %(classes)s only (each reading left out of the fit in turn; the "
                "other classes were read fewer than 4 times): %(right)s named right, "
                "%(rejected)s rejected, %(wrong)s named as another class") % {
                  "classes": listed(shown_label(label) for label in covered),
                  "right": percent(t["accuracy"], 1), "rejected": percent(t["rejected"], 1),
                  "wrong": percent(t["error"], 1)}, file=out)
    elif t["n"]:
        print(_("check (each reading left out of the fit in turn): %(right)s named right, "
                "%(rejected)s rejected, %(wrong)s named as another class") % {
                  "right": percent(t["accuracy"], 1), "rejected": percent(t["rejected"], 1),
                  "wrong": percent(t["error"], 1)}, file=out)
    else:
        print(_("check skipped: it needs 4 or more readings per class"), file=out)
    if result.advice:
        print(_("advice: %s") % result.advice, file=out)


def _too_close():
    from camelup import calibration

    return calibration.TOO_CLOSE


# --- the separation plot ------------------------------------------------------

def plot_colour(label):
    """The fill of a classifier label in the plot: the piece's colour from
    ``camelhost.ui.palette`` (the grey die's two inks as the black and white pieces,
    the empty head dark grey)."""
    from camelhost.ui.palette import piece

    if label == "empty":
        return "#444444"
    name = label.split("-", 1)[1] if label.startswith("grey-") else label
    try:
        return piece(name).rgb
    except KeyError:
        return "#888888"


def brightness_classes(edition):
    """The classes of ``edition`` (``classifier.classes_for``, its order) that the plot's
    brightness panel tells apart where chromaticity can't: those of no hue, the grey
    die's two inks (``grey-black``, ``grey-white``), a die whose colour is an ink's
    (classic's ``white``: ``editions.INKS``) and ``empty``. A list of labels; raises
    ``ValueError`` for an unknown edition."""
    from camelup.board import classifier
    from camelup.editions import GREY, INKS, LABEL_JOIN

    return [label for label in classifier.classes_for(edition)
            if label == classifier.EMPTY or label in INKS
            or label.startswith(GREY + LABEL_JOIN)]


def brightness_title(edition):
    """The title of the plot's brightness panel, naming ``edition``'s classes it is for
    (``brightness_classes``) in the table's language: ``brightness (grey inks, empty)``
    for the second edition, ``brightness (white, empty)`` for the classic one, which
    has no grey die (tester s42, finding 3)."""
    from camelup.board.classifier import EMPTY
    from camelup.editions import GREY, LABEL_JOIN

    labels = brightness_classes(edition)
    words = [_("grey inks")] if any(label.startswith(GREY + LABEL_JOIN) for label in labels) \
        else []
    words += [colour_word(label) for label in labels
              if label != EMPTY and not label.startswith(GREY + LABEL_JOIN)]
    if EMPTY in labels:
        words.append(pgettext("monitor label", "empty"))
    return _("brightness (%s)") % ", ".join(words)


#: What to install for ``--plot``: matplotlib is an optional extra (``plot``), not a
#: runtime dependency, because it is heavy. The two commands (the extra, or matplotlib
#: alone) go into ``plot_backend``'s one translatable sentence, named, so a language
#: says its own "or" (a command is never translated).
PLOT_INSTALL = {"extra": "pip install 'smart-pyramid[plot]'", "alone": "pip install matplotlib"}


def plot_backend():
    """``matplotlib.pyplot`` on the Agg backend (files only, no window).

    Raises ``CliError`` saying how to install matplotlib when it is missing; the
    ``calibrate`` command calls this before it connects, so a missing matplotlib is
    reported before the session, not after it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise CliError(_("--plot needs matplotlib, which is not installed (%(extra)s or "
                         "%(alone)s)") % PLOT_INSTALL) from None
    return plt


def plot_file(path):
    """The file ``--plot PATH`` writes: ``path``, drawn as the kind its name ends in
    (``.png``, ``.svg``, ``.pdf``, or another matplotlib's Agg canvas writes), or
    ``path`` with matplotlib's own ending added (``savefig.format``, ``.png``) when its
    name has none, as matplotlib writes it. Raises ``CliError`` (one line, in the
    table's language) for an ending matplotlib can't write (``.docx``, ``.txt``), so
    that it is said before the work (a tournament's games, a calibration's releases), not
    in matplotlib's words after it (s37 tester 11, s38 finding 3). Needs matplotlib
    (``plot_backend`` first)."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    ending = os.path.splitext(os.path.basename(path))[1]
    if not ending[1:]:  # 'shares' (or 'shares.'): matplotlib adds its own ending
        return path.rstrip(".") + "." + str(matplotlib.rcParams["savefig.format"])
    kinds = FigureCanvasAgg.get_supported_filetypes()
    if ending[1:].lower() not in kinds:
        raise CliError(_("--plot %(path)s: a plot can't be written as %(ending)s; end the "
                         "name in .png, .svg or .pdf (or %(others)s)")
                       % {"path": path, "ending": ending,
                          "others": ", ".join("." + k for k in sorted(kinds)
                                              if k not in ("png", "svg", "pdf"))})
    return path


def plot(result, path):
    """Write the separation plot to ``path``, drawn as the kind its name ends in
    (``plot_file``: PNG, SVG, PDF...): the readings in feature space (chromaticity; brightness) and the
    per-pair separation bars with the too-close line. Needs matplotlib (Agg); raises
    ``CliError`` without it (``plot_backend``)."""
    plt = plot_backend()
    from camelup.board import classifier

    ref = result.profile["ref_clear"]
    fig, axes = plt.subplots(1, 3, figsize=(16, 5.2))
    ax_rg, ax_bl, ax_pairs = axes
    for label in sorted(result.samples):
        feats = [classifier.features(r, ref) for r in result.samples[label]]
        colour = plot_colour(label)
        kw = dict(color=colour, edgecolors="#222222", linewidths=0.5, s=28, label=label)
        ax_rg.scatter([f[0] for f in feats], [f[1] for f in feats], **kw)
        ax_bl.scatter([f[2] for f in feats], [f[3] for f in feats], **kw)
    ax_rg.set_xlabel("r / c")
    ax_rg.set_ylabel("g / c")
    ax_rg.set_title(_("chromaticity"))
    ax_bl.set_xlabel("b / c")
    ax_bl.set_ylabel("log(c / ref_clear)")
    ax_bl.set_title(brightness_title(result.profile["edition"]))
    ax_rg.legend(fontsize=8, loc="best")
    pairs = list(reversed(result.pairs))  # closest at the top
    names = ["%s / %s" % (p["a"], p["b"]) for p in pairs]
    values = [min(p["sigma"], 60.0) for p in pairs]
    colours = ["#d62728" if p["too_close"] else "#4c8c4a" for p in pairs]
    ax_pairs.barh(range(len(pairs)), values, color=colours)
    ax_pairs.set_yticks(range(len(pairs)))
    ax_pairs.set_yticklabels(names, fontsize=7)
    ax_pairs.axvline(_too_close(), color="#d62728", linestyle="--",
                     label=_("too close (%.0f sigma)") % _too_close())
    ax_pairs.set_xlabel(_("separation (sigma, capped at 60)"))
    ax_pairs.set_title(_("pairs of classes"))
    ax_pairs.legend(fontsize=8, loc="lower right")
    settings = result.profile["settings"]
    fig.suptitle(_("%(edition)s edition calibration: %(readings)d readings, %(ms)s ms, gain "
                   "%(gain)dx") % {
        "edition": edition_word(result.profile["edition"]),
        "readings": sum(len(v) for v in result.samples.values()),
        "ms": decimal(settings["integration_ms"], 1), "gain": settings["gain"]})
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=90)
    finally:
        plt.close(fig)
