"""What a fresh maker found wrong in ``pyramid doctor`` and ``pyramid emulate`` (the
tester's report of this stop): the light step measured whatever die was in the head,
the LED step passed on an empty head, ``emulate`` crashed or hung on a bad UF2, and its
console said nothing on an empty push."""

import pytest
from camelhost.commands import doctor

STEPS = ["connection", "versions", "bytecode", "sensor", "LED", "reading", "light",
         "saturation", "slider"]


def _steps(hands_class, seed=5, integration_ms=None):
    from camelhost.tools import monitor

    with monitor.connect("virtual", edition="second", seed=seed) as pyramid:
        if integration_ms:  # the emulated board's and a real one's 24 ms, not the virtual 7.2
            pyramid.link.configure(integration_ms=integration_ms, gain=4)
        return {s.name: s for s in doctor.checklist(pyramid, hands_class(pyramid.virtual), "second")}


@pytest.mark.hil
@pytest.mark.micropython
def test_the_light_step_fails_naming_both_dice_when_the_wrong_die_is_in_the_head(micropython):
    """At "put the purple die in", the yellow die left in the head: the step fails in one
    line naming both, never "ok" for yellow's light (a tester got "ok ... 2059 counts")."""

    class YellowLeftIn(doctor._Sim):
        def place(self, label):
            self.vp.place("yellow")

    light = _steps(YellowLeftIn)["light"]
    assert light.status == "failed", light
    assert light.detail == ("the head holds the yellow die, not the purple die, so the purple "
                            "die's light was not measured")
    assert "put the purple die in the pyramid's head" in light.advice


@pytest.mark.hil
@pytest.mark.micropython
def test_the_led_step_fails_with_an_empty_head_asking_for_the_die(micropython):
    """Nothing in the head at the LED step: the LED lights only the head's black floor,
    so the step fails and asks for a die (a tester saw "ok LED on adds 43 clear counts"
    with the head empty); the LED's wiring is not blamed."""

    class NoDie(doctor._Sim):
        def place_die(self, edition):
            self.vp.place("empty")

    for seed, integration_ms in ((3, 24), (5, 24), (8, None)):
        steps = _steps(NoDie, seed, integration_ms)
        led = steps["LED"]
        assert led.status == "failed", (seed, led)
        assert "the head reads empty" in led.detail, led
        assert "put a die in the pyramid's head" in led.advice
        assert steps["reading"].status == "failed"


def _reading(label):
    return {"label": label, "m": 4000}


SETTINGS = {"ed": "second", "it": 24.0, "gain": 4, "vb": False}


def test_the_led_threshold_sits_between_an_empty_head_and_the_darkest_die():
    """The tester's readings: an empty head adds 43 (38-59 in the monitor); the darkest
    die (purple) several hundred; a dead LED nothing."""
    empty = doctor.expected_clear("empty", SETTINGS, "second")
    purple = doctor.expected_clear("purple", SETTINGS, "second")
    assert 38 <= empty <= 59 and purple > 10 * empty
    led = doctor.led_step((185, 60, 60, 50), (142, 50, 50, 40), _reading("empty"), SETTINGS, "second")
    assert led.status == "failed" and "the head reads empty" in led.detail
    for top in (59, 120):  # the brightest empty head the tester saw, and twice that
        led = doctor.led_step((142 + top, 60, 60, 50), (142, 50, 50, 40), _reading("green"), SETTINGS,
                              "second")
        assert led.status == "failed", (top, led)
    led = doctor.led_step((142 + 858, 300, 200, 300), (142, 50, 50, 40), _reading("purple"), SETTINGS,
                          "second")
    assert led.status == "ok" and "LED on adds 858 clear counts" in led.detail
    # tester 3, finding 17: the empty head's figure has its unit, the off reading its meaning
    assert led.detail.endswith("an empty head adds about %d clear counts" % int(empty + 0.5))
    assert "LED off 142: the room's light" in led.detail
    dead = doctor.led_step((143, 51, 50, 40), (142, 50, 50, 40), _reading("empty"), SETTINGS, "second")
    assert dead.status == "failed" and "the illumination LED does not light" in dead.advice


def test_the_led_threshold_follows_the_integration_time_and_gain():
    """At 2.4 ms and gain 1 every count is 40 times fewer than at 24 ms and 4x: a
    purple die's 21 counts there are a lit die, not a dead LED."""
    low = {"ed": "second", "it": 2.4, "gain": 1, "vb": False}
    assert doctor.led_step((121, 5, 4, 6), (100, 4, 3, 4), _reading("purple"), low, "second").status == "ok"
    assert doctor.led_step((121, 5, 4, 6), (100, 4, 3, 4), _reading("purple"), SETTINGS,
                           "second").status == "failed"


# --- pyramid emulate: the UF2 checked at once, the console's keys ---

RP2040 = 0xE48BFF56


def _uf2_block(family=RP2040, flags=0x2000, start0=0x0A324655, end=0x0AB16F30, index=0, count=1):
    import struct

    head = struct.pack("<8I", start0, 0x9E5D5157, flags, 0x10000000 + 256 * index, 256, index, count,
                       family)
    return head + bytes(476) + struct.pack("<I", end)


@pytest.fixture
def no_emulator(monkeypatch):
    """The emulator must not start: a bad UF2 is refused before it."""
    from camelhost.device import emulated

    class Refused:
        def __init__(self, *args, **kwargs):
            raise AssertionError("the emulator was started for a UF2 that should be refused")

    monkeypatch.setattr(emulated, "node_runner", lambda: ["node", "board.cjs"])
    monkeypatch.setattr(emulated, "EmulatedPyramid", Refused)


def _emulate_error(capsys, uf2):
    from camelhost import cli

    assert cli.main(["emulate", "--uf2", str(uf2)]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("pyramid: "), err
    return err[0]


def test_emulate_with_a_missing_uf2_says_so_in_one_line(no_emulator, capsys):
    assert _emulate_error(capsys, "/nope.uf2") == "pyramid: no such UF2 file: /nope.uf2"


def test_emulate_names_a_folder_given_for_the_uf2_and_where_it_came_from(
        no_emulator, capsys, tmp_path, monkeypatch):
    """Maker s44: ``--uf2 /tmp`` said ``no such UF2 file: /tmp``; a missing file named
    by ``$PYRAMID_UF2`` did not say where it came from."""
    from camelhost import cli

    assert _emulate_error(capsys, tmp_path) == (
        "pyramid: %s is a folder: --uf2 takes the RPI_PICO UF2 file of MicroPython 1.23 or "
        "later (docs/emulator.md)" % tmp_path)
    monkeypatch.setenv("PYRAMID_UF2", "/nope.uf2")
    assert cli.main(["emulate"]) == 1
    assert capsys.readouterr().err == (
        "pyramid: no such UF2 file: /nope.uf2 (from $PYRAMID_UF2)\n")


def test_emulate_with_a_file_that_is_not_a_uf2_says_so_at_once(no_emulator, capsys, tmp_path):
    junk = tmp_path / "bad.uf2"
    junk.write_bytes(b"abc")  # the tester's 3-byte file: nothing printed, 900 s of waiting
    assert "bad.uf2 is not a UF2 image (3 bytes" in _emulate_error(capsys, junk)
    unmarked = tmp_path / "blocks.uf2"
    unmarked.write_bytes(_uf2_block() + _uf2_block(start0=0x12345678, index=1))
    assert "is not a UF2 image (block 1 lacks the UF2 magic numbers)" in _emulate_error(capsys, unmarked)


def test_emulate_with_another_chips_uf2_names_its_family(no_emulator, capsys, tmp_path):
    rp2350 = tmp_path / "pico2.uf2"
    rp2350.write_bytes(_uf2_block(family=0xE48BFF59))  # the RP2350's (Pico 2) family id
    line = _emulate_error(capsys, rp2350)
    assert "is not an RP2040 UF2 (block 0: family id 0xE48BFF59" in line, line
    bare = tmp_path / "nofamily.uf2"
    bare.write_bytes(_uf2_block(flags=0, family=0))
    assert "is not an RP2040 UF2 (block 0: family id none" in _emulate_error(capsys, bare)


def test_an_rp2040_uf2_passes_the_check(tmp_path):
    import os

    from camelhost.device import emulated, uf2

    good = tmp_path / "pico.uf2"
    good.write_bytes(_uf2_block(index=0, count=2) + _uf2_block(index=1, count=2))
    assert uf2.check(str(good)) == 2
    if os.path.exists(emulated.REFERENCE_UF2):  # MicroPython's own RPI_PICO build
        assert uf2.check(emulated.REFERENCE_UF2) == 679424 // 512


def test_emulate_help_names_the_uf2_it_falls_back_to(capsys):
    from camelhost import cli

    with pytest.raises(SystemExit):
        cli.main(["emulate", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "default $PYRAMID_UF2, else, in a checkout with ../shared beside it," in out
    assert "../shared/rp2/micropython-v1.28.0-RPI_PICO.uf2" in out


class _Board:
    """The emulated board's table without the emulator: the same dice table
    (``DiceTableDriver``), each push recorded."""

    def __init__(self):
        from camelhost.device import virtual
        from camelhost.device.emulated import sim_table

        self.driver = type("Driver", (virtual.DiceTableDriver,), {
            "_push_content": lambda me, dice, wait, timeout: virtual.Released(dice)})()
        self.driver.table = sim_table.Table("second", 3)
        self.edition = "second"
        self.head = None

    def __getattr__(self, name):
        return getattr(self.driver, name)

    def place(self, content):
        self.head = content


def test_an_empty_push_in_the_emulate_console_says_to_press_l(capsys):
    from camelhost.commands import emulate
    from camelup import editions

    board = _Board()
    while board.dice_inside:
        assert emulate._press(board, "")
    capsys.readouterr()
    emulate._press(board, "")  # every die is out: the pyramid is empty
    emulate._press(board, "d")
    said = capsys.readouterr().out.splitlines()
    assert said == ["slider pushed: nothing fell, the pyramid is empty: press l (then Enter) "
                    "to put the dice back"] * 2
    emulate._press(board, "l")
    emulate._press(board, "")
    label, value = capsys.readouterr().out.splitlines()[-1].split(": ")[1].split()
    assert label in editions.get_edition("second").sensor_labels and value in ("1", "2", "3")


def test_the_emulate_console_puts_a_named_die_in_the_head_for_doctor(capsys):
    from camelhost.commands import emulate

    board = _Board()
    emulate._press(board, "p purple")
    assert board.head == "purple"
    assert "the purple die is in the head" in capsys.readouterr().out
    emulate._press(board, "p pink")
    assert board.head == "purple" and "no die 'pink' in the second edition" in capsys.readouterr().out
    emulate._press(board, "p")
    assert board.head == "empty"
    assert "each followed by Enter" in emulate.keys_line()


@pytest.mark.emu
@pytest.mark.slow
@pytest.mark.process
def test_an_rp2040_uf2_without_micropython_is_one_line_after_the_usb_bound(monkeypatch, capsys, tmp_path):
    """A UF2 with the RP2040's family id but no MicroPython in it (blank blocks): the
    emulated chip never brings up a USB serial port, and ``emulate`` says so in one line
    once ``USB_TIMEOUT`` has passed, naming the UF2 to use (here the bound is 1 s: a
    blank image never brings one up, so a short bound shows the same line; the
    emulator runs flat out while it waits, 15 s of it cost 13 CPU-s)."""
    from camelhost.commands import emulate
    from camelhost.device import emulated

    try:
        emulated.node_runner()
        emulated.bootrom_file()
    except emulated.EmulatorError as exc:
        pytest.skip(str(exc))
    blank = tmp_path / "blank.uf2"
    blank.write_bytes(b"".join(_uf2_block(index=i, count=4) for i in range(4)))
    monkeypatch.setattr(emulate, "USB_TIMEOUT", 1.0)
    line = _emulate_error(capsys, blank)
    assert "blank.uf2 gave no USB serial port within 1 s" in line, line
    assert "give the RPI_PICO UF2 of MicroPython 1.23 or later" in line


#: seconds the emulated-Pico doctor test gives each expected prompt (and doctor's end
#: after the last): the emulated board's boot to HELLO takes 25-43 s of wall time on the
#: shared machine (docs/emulator.md), a step's readings a few seconds each
PROMPT_S = 240.0
#: seconds doctor may sit at an input prompt the test does not expect before it fails
STALL_S = 10.0


def _follow_prompts(proc, prompts, answer, per_prompt_s=PROMPT_S, stall_s=STALL_S):
    """Read ``proc``'s stdout (a ``subprocess.Popen`` with ``stdout=PIPE``) and answer
    ``prompts``, a list of ``(start, end)`` byte strings expected in this order: as
    soon as one is whole, ``answer(text)`` gets it (from ``start`` through ``end``).
    Returns everything ``proc`` wrote, once it ended after the last prompt.

    Fails the test at once, with the prompt it waited for and what ``proc`` said since
    the last one, when ``proc`` waits at another input prompt (its output ends in
    ``": "`` and stays so ``stall_s`` seconds: a prompt's words changed), when ``proc``
    ends before the prompt, or when a prompt (or the end) does not come within
    ``per_prompt_s`` seconds: never the whole run's 900 s it had."""
    import os
    import select
    import time

    out = b""
    done = 0  # prompts answered
    pos = 0  # where the output after the last answered prompt starts
    since = changed = time.monotonic()
    ended = False
    while True:
        if done < len(prompts):
            start, end = prompts[done]
            at = out.find(start, pos)
            whole = out.find(end, at + len(start)) if at >= 0 else -1
            if whole >= 0:
                pos = whole + len(end)
                answer(out[at:pos].decode(errors="replace"))
                done += 1
                since = time.monotonic()
                continue
        elif ended:
            return out
        waited_for = prompts[done][0].decode() if done < len(prompts) else "the end"
        seen = out[pos:].decode(errors="replace")[-600:]
        now = time.monotonic()
        if ended:
            pytest.fail("doctor ended (status %s) before %r; it said: %s"
                        % (proc.returncode, waited_for, seen))
        if now - since > per_prompt_s:
            pytest.fail("no %r within %.0f s; doctor said: %s" % (waited_for, per_prompt_s, seen))
        if out[pos:].endswith(b": ") and now - changed > stall_s:
            pytest.fail("doctor waits at a prompt that is not %r: %s" % (waited_for, seen))
        if select.select([proc.stdout], [], [], 0.5)[0]:
            data = os.read(proc.stdout.fileno(), 4096)
            if data:
                out += data
                changed = time.monotonic()
            elif proc.poll() is not None or proc.wait(5) is not None:
                ended = True  # end of file: everything it wrote is in out


@pytest.mark.emu
@pytest.mark.slow
@pytest.mark.process
def test_doctor_on_the_emulated_pico_passes_driven_through_the_emulate_console_as_the_docs_say():
    """docs/emulator.md's steps: ``pyramid emulate`` in one process, ``pyramid doctor
    --port PORT`` in another (its push wait on a pseudo-terminal is the docs' 120 s); at
    each prompt the key the prompt names is typed in ``emulate`` (``p blue``, ``p
    purple``, Enter for the push), then Enter in doctor. A tester could not follow
    doctor's prompts there (no key put a die in the head); since tester s34's M4 the
    doctor's prompts on a pseudo-terminal name the key. Each prompt has
    ``PROMPT_S`` seconds, and a prompt in other words fails the test at once
    (``_follow_prompts``)."""
    import os
    import re
    import subprocess
    import sys

    from camelhost.device import emulated

    if not os.path.exists(emulated.REFERENCE_UF2):
        pytest.skip("the MicroPython rp2 build (../shared/rp2) is absent")
    try:
        emulated.node_runner()
        emulated.bootrom_file()
    except emulated.EmulatorError as exc:
        pytest.skip(str(exc))
    exe = os.path.join(os.path.dirname(sys.executable), "pyramid")
    emu = subprocess.Popen([exe, "emulate", "--uf2", emulated.REFERENCE_UF2, "--seed", "8"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, bufsize=1)
    doc = None
    said = []
    try:
        first = emu.stdout.readline()
        assert first.startswith("emulated Pico on /dev/"), first
        emu.stdout.readline()
        assert "each followed by Enter" in emu.stdout.readline()
        doc = subprocess.Popen([exe, "doctor", "--port", first.split()[3]],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

        def key(text, enter_in_doctor=True):
            emu.stdin.write(text + "\n")
            emu.stdin.flush()
            said.append(emu.stdout.readline().rstrip())
            if enter_in_doctor:
                doc.stdin.write(b"\n")
                doc.stdin.flush()

        def answer(asked):
            if asked.startswith("push the slider"):  # Enter in the emulator's terminal
                assert "on the emulated Pico, press Enter in its terminal (waiting 120 s)" in asked
                key("", False)
            else:  # the key the prompt names, typed as it says
                typed = re.search(r"type (p [a-z-]+) and Enter in its terminal", asked)
                assert typed, asked
                key(typed.group(1))

        out = _follow_prompts(doc, [(b"put the blue die", b"Enter here: "),
                                    (b"put the purple die", b"Enter here: "),
                                    (b"put the yellow die", b"Enter here: "),
                                    (b"push the slider", b" s)")], answer)
    finally:
        for proc in (doc, emu):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)
    text = out.decode(errors="replace")
    assert doc.returncode == 0 and "all 9 checks passed" in text, text
    assert "the die in the head reads blue" in text and "the darkest die (purple) gives" in text
    assert "the brightest die (yellow) gives" in text
    assert said[:3] == ["the blue die is in the head (it stays there until the next push or p)",
                        "the purple die is in the head (it stays there until the next push or p)",
                        "the yellow die is in the head (it stays there until the next push or p)"]
    assert said[3].startswith("slider pushed: ")


_PROMPTER = """
import sys
sys.stdout.write("checking the connection\\n" + sys.argv[1])
sys.stdout.flush()
if not sys.argv[1]:
    sys.exit(3)  # ends before asking
sys.stdin.readline()
sys.stdout.write("all 8 checks passed\\n")
"""


@pytest.mark.process
@pytest.mark.parametrize("prompt, failure", [
    ("put the red die in the pyramid's head, then press Enter here: ", None),
    ("place the red die in the head, then press Enter here: ",
     "doctor waits at a prompt that is not 'put the red die': checking the connection\n"
     "place the red die"),
    ("", "doctor ended (status 3) before 'put the red die'"),
])
def test_the_emulated_doctor_test_fails_at_once_on_a_prompt_it_does_not_know(prompt, failure):
    """The emulated-Pico doctor test's reader (``_follow_prompts``) answers the prompts
    it knows, and fails within seconds, naming the prompt it saw, when doctor asks in
    other words or ends first: it waited 900 s when a prompt's wording changed (tester
    s34 part 2)."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", _PROMPTER, prompt], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    asked = []

    def answer(text):
        asked.append(text)
        proc.stdin.write(b"\n")
        proc.stdin.flush()

    try:
        if failure is None:
            out = _follow_prompts(proc, [(b"put the red die", b"Enter here: ")], answer,
                                  per_prompt_s=60, stall_s=1)
            assert asked == [prompt] and out.endswith(b"all 8 checks passed\n")
        else:
            with pytest.raises(pytest.fail.Exception) as info:
                _follow_prompts(proc, [(b"put the red die", b"Enter here: ")], answer,
                                per_prompt_s=60, stall_s=1)
            assert str(info.value).startswith(failure) and not asked
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


@pytest.mark.hil
@pytest.mark.micropython
def test_each_step_is_reported_before_the_next_prompt(micropython):
    """The maker sees the LED and reading steps' lines before being asked for the
    brightest and darkest dice, and the light and saturation steps' before the push (a
    tester answered three prompts without seeing one result). The two dice are asked for
    one after the other, the brightest first: the light and saturation steps' fix is
    decided from both counts (maker finding 12, ``doctor.exposure_fix``)."""
    from camelhost.tools import monitor

    seen = []
    at_prompt = {}
    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        vp = pyramid.virtual

        def ask(prompt):
            at_prompt[prompt.split(" die")[0]] = list(seen)
            vp.place("purple" if "purple" in prompt else "yellow" if "yellow" in prompt
                     else "green")
            return ""

        def say(text):
            at_prompt["push"] = list(seen)
            vp.release(wait=False)

        steps = doctor.checklist(pyramid, doctor._Maker(ask=ask, say=say), "second",
                                 report=lambda step: seen.append(step.name))
    assert seen == [s.name for s in steps] == STEPS
    assert at_prompt["put one"] == ["connection", "versions", "bytecode", "sensor"]
    assert at_prompt["put the yellow"] == STEPS[:6]
    assert at_prompt["put the purple"] == STEPS[:6]
    assert at_prompt["push"] == STEPS[:8]


def test_doctor_waits_for_the_push_as_long_as_the_docs_say_on_the_emulated_pico():
    """docs/emulator.md gives the emulated Pico's push 120 s (Enter in another
    terminal, an emulated board's seconds); doctor on its pseudo-terminal waited the
    real board's 30 s unless told ``--push-wait 120`` (tester s34 part 2). Now the
    default follows the port: 120 s on a pseudo-terminal, 30 s on a real board's
    port, and ``--push-wait`` given wins on either."""
    import argparse

    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    plain = parser.parse_args(["--port", "/dev/pts/7"])
    said = []
    maker = doctor._Maker(say=said.append, wait=doctor.push_wait(plain, emulated=True),
                          emulated=True)
    assert maker.push() == 120
    assert said == ["push the slider once: on the emulated Pico, press Enter in its terminal "
                    "(waiting 120 s)"]
    assert doctor.push_wait(plain, emulated=False) == 30
    given = parser.parse_args(["--port", "/dev/pts/7", "--push-wait", "45"])
    assert doctor.push_wait(given, emulated=True) == doctor.push_wait(given) == 45
    import os

    docs = os.path.join(os.path.dirname(__file__), "..", "docs", "emulator.md")
    with open(docs, encoding="utf-8") as doc:
        text = doc.read()
    assert "--push-wait 120" not in text  # nothing to pass: the default is what they say
    assert "waiting %.0f s" % doctor.EMULATED_PUSH_TIMEOUT in text


def _depth(text):
    """How deep the parentheses of ``text`` nest (0: none)."""
    depth = deepest = 0
    for c in text:
        depth += {"(": 1, ")": -1}.get(c, 0)
        deepest = max(deepest, depth)
    return deepest


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("talk, seen", [
    (b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n", "NMEA"),
    (b"MicroPython v1.22.0 on 2024-01-05; Raspberry Pi Pico with RP2040\r\n>>> ", "MicroPython"),
    (b"hello there, plain words\r\n", None),
    (bytes(range(128, 256)), None),
    (b"", None),
])
def test_the_links_refusal_nests_no_parenthesis_in_another(lang, talk, seen):
    """A port that is not a pyramid is refused in one line, what it sent in one pair of
    brackets: ``... does not look like a smart pyramid (NMEA sentences, as a GPS receiver
    sends: ...)``, where it read ``(NMEA sentences (a GPS receiver?): ...)`` (tester s34
    part 2; the silent port's was made one level this afternoon)."""
    from camelhost.device import link
    from camelhost.i18n import _, set_language

    set_language(lang)
    what = link.describe_bytes(talk[:64], len(talk), 0)
    line = _("%s does not look like a smart pyramid (%s); %s") % (
        "/dev/ttyUSB0", what, "check the USB cable")
    assert _depth(line) == 1, line
    assert seen is None or seen in line


@pytest.mark.parametrize("lang, name", [("en", "no smart pyramid found"),
                                        ("de", "keine Smart Pyramid gefunden")])
def test_flash_with_no_board_found_points_a_maker_without_one_to_pyramid_emulate(
        monkeypatch, capsys, lang, name):
    """``pyramid flash`` with no RP2040 on USB names the ports it saw and, for a maker
    who has no board yet, ``pyramid emulate`` (tester s34 part 2); in German the
    product keeps its name, Smart Pyramid (was translated, schlaue Pyramide)."""
    from camelhost import cli
    from serial.tools import list_ports

    class Port:
        device, vid = "/dev/ttyS0", None

    monkeypatch.setattr(list_ports, "comports", lambda: [Port()])
    assert cli.main(["flash", "--lang", lang]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pyramid: " + name) and "/dev/ttyS0" in err, err
    assert "pyramid emulate" in err and "docs/emulator.md" in err and err.count("\n") == 1, err
    monkeypatch.setattr(list_ports, "comports", lambda: [])  # no serial port at all
    assert cli.main(["flash", "--lang", lang]) == 1
    none = {"en": "ports seen: none).", "de": "gesehene Anschlüsse: keine)."}[lang]
    assert none in capsys.readouterr().err


def test_german_names_the_product_smart_pyramid_everywhere():
    """The product's name is a name, Smart Pyramid in German too (README,
    "Languages"): every msgid saying "smart pyramid" has it in its msgstr, and none
    says "schlaue Pyramide"."""
    import os

    from babel.messages.pofile import read_po

    po = os.path.join(os.path.dirname(__file__), "..", "host", "camelhost", "locale", "de",
                      "LC_MESSAGES", "pyramid.po")
    with open(po, "rb") as f:
        catalogue = read_po(f)
    named = [m for m in catalogue if m.id and "smart pyramid" in str(m.id).lower()]
    assert len(named) >= 4
    for message in named:
        assert "Smart Pyramid" in message.string and "schlau" not in message.string, message.id
    assert not [m.id for m in catalogue if m.id and "schlaue" in str(m.string)]


@pytest.mark.parametrize("lang, key", [
    ("en", r"type (p(?: [^ ;,]+)?) and Enter in its terminal; then press Enter here"),
    ("de", r"tippe (p(?: [^ ;,]+)?) und Enter in seinem Terminal; dann drücke hier Enter"),
])
def test_calibrate_on_the_emulated_pico_names_the_key_that_puts_each_die_in_the_head(
        capsys, lang, key):
    """``pyramid calibrate`` at the keyboard on the emulated Pico (its port a
    pseudo-terminal): each prompt names the key for the emulator's terminal, as doctor's
    do (tester s34 part 2), and that key, typed in the emulate console, puts the die
    the step asks for in the head: a die, the grey die by its ink, the empty head, the
    gain's step and the question after a doubtful reading; in the table's language."""
    import re

    from camelhost.commands import emulate
    from camelhost.i18n import set_language
    from camelhost.tools import calibrate

    set_language(lang)
    board = _Board()
    asked = []

    def person(prompt):
        asked.append(prompt)
        typed = re.search(key, prompt)
        assert typed, prompt
        emulate._press(board, typed.group(1))
        return ""

    driver = calibrate.HumanDriver(input_fn=person, emulated=True)
    for label, value, purpose in (("blue", 1, None), ("empty", None, None),
                                  ("grey-black", 2, None), ("yellow", None, "gain"),
                                  ("purple", 3, None)):
        driver.present(label, value, 1, 30, purpose=purpose)
        assert board.head == label, asked[-1]
    assert driver.read_again("green", 2, 4) is True and board.head == "green", asked[-1]
    assert asked[-1].startswith("  " + ("Enter reads it again" if lang == "en"
                                       else "Enter misst noch einmal"))
    assert asked[0].startswith("[  1/30] " + ("release the blue die with 1 on top: "
                                              if lang == "en" else "lass den Würfel blau"))
    assert len(asked) == 6
    plain = calibrate.HumanDriver(input_fn=lambda prompt: asked.append(prompt) or "")  # a real board's port: no key
    plain.present("blue", 1, 1, 30)
    assert "emul" not in asked[-1] and not re.search(key, asked[-1])
