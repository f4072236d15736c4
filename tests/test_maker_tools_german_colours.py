"""The maker's tools in German name the dice in German and take German colour words
(tester s34, finding M2): the emulator's ``p lila`` puts the purple die in the head and
says ``lila``, a push says the die that fell in German, and doctor's failed reading says
the head's state in German (``leer``), as the monitor does. The colour words come from
one place (``camelhost.i18n.colour_words``), read back as the table reads them. Doctor's
advice names its real port, and on the emulated Pico its prompts name the emulator's
keys (M4)."""

from types import SimpleNamespace

from camelhost.commands import emulate
from camelhost.i18n import set_language


class _Board:
    """What ``emulate``'s keys use of an ``EmulatedPyramid``: its edition, the head's
    content (``place``) and a push (``release``) letting ``dice`` fall."""

    def __init__(self, edition="second", dice=()):
        self.edition = edition
        self.placed = []
        self.dice = list(dice)

    def place(self, content):
        self.placed.append(content)

    def release(self, wait=True):
        return SimpleNamespace(dice=self.dice)


def test_the_emulator_takes_the_table_s_colour_words_and_says_them(capsys):
    set_language("de")
    board = _Board()
    for typed, label, said in (("p lila", "purple", "lila"), ("p grau schwarz", "grey-black",
                                                               "grau-schwarz"),
                               ("p grau-weiss", "grey-white", "grau-weiß"),
                               ("p red", "red", "rot")):
        assert emulate._press(board, typed) is True
        out = capsys.readouterr().out
        assert board.placed[-1] == label, (typed, board.placed)
        assert "der Würfel %s liegt im Kopf" % said in out, out
    assert emulate._press(board, "p lilac") is True
    out = capsys.readouterr().out
    assert board.placed[-1] == "red"  # refused: the head as it was
    assert "'lilac'" in out and "blau, grün, gelb, rot, lila, grau-schwarz, grau-weiß" in out, out
    assert "purple" not in out and "blue" not in out


def test_a_push_on_the_emulator_says_the_die_in_the_table_s_language(capsys):
    set_language("de")
    assert emulate._press(_Board(dice=[("green", 2)]), "") is True
    assert capsys.readouterr().out == "Schieber gedrückt: grün 2\n"
    set_language("en")
    assert emulate._press(_Board(dice=[("grey-black", 1)]), "r") is True
    assert capsys.readouterr().out == "slider pushed: grey-black 1\n"


def test_doctor_says_an_empty_head_in_german_and_the_calibrate_command_for_its_port(
        micropython):
    """Doctor's failed reading said ``der Würfel im Kopf wurde als empty gelesen`` and
    advised ``pyramid calibrate --port PORT`` though it knew the port (tester s34, M2 and
    M4)."""
    from camelhost.commands import doctor
    from camelhost.tools import monitor

    class Forgetful(doctor._Sim):
        def place_die(self, edition):
            self.vp.place("empty")

    set_language("de")
    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        steps = doctor.checklist(pyramid, Forgetful(pyramid.virtual), "second")
    reading = [s for s in steps if s.name == "reading"][0]
    assert reading.status == "failed", reading
    assert "der Würfel im Kopf wurde als leer gelesen" in reading.detail, reading.detail
    # an empty head's fix is the die, not a calibration (tester s35-2, finding 14 k) ...
    assert reading.advice == ("lege einen Würfel in den Kopf der Pyramide, wenn danach gefragt "
                              "wird, dann doctor erneut starten"), reading.advice
    # ... which, with the LED step passed, names the command with the port doctor ran on,
    # in German as doctor ran (tester46c finding 5)
    lit = doctor.Step("LED", "ok", "")
    assert doctor.reading_fix(lit, "virtual").endswith(
        "pyramid calibrate --port virtual --autorange --lang de")
    assert "PORT" not in doctor.reading_fix(lit, "virtual")


def test_doctor_on_a_pseudo_terminal_names_the_emulator_s_keys(micropython, monkeypatch, capsys):
    """On the emulated Pico (its port a pseudo-terminal) doctor's prompts say which key
    of the emulator's terminal puts the die in the head (``p blau``, in the words the
    emulator reads) and pushes the slider (tester s34, M4). The virtual pyramid's
    pseudo-terminal stands in for the emulator's here; nobody types the keys, so the
    steps after the prompts fail, which is not what this test reads (``s`` goes on
    where the head holds another die than the one asked for)."""
    import io
    import sys

    from camelhost import cli
    from camelhost.device.virtual import VirtualPyramid

    vp = VirtualPyramid("second", seed=5)
    vp.start()
    try:
        monkeypatch.setattr(sys, "stdin", io.StringIO("\ns\n" * 4))
        cli.main(["doctor", "--port", vp.port, "--push-wait", "0.5", "--lang", "de"])
    finally:
        vp.close()
    out = capsys.readouterr().out
    assert ("lege den Würfel blau in den Kopf der Pyramide: am emulierten Pico tippe p blau "
            "und Enter in seinem Terminal; dann drücke hier Enter: ") in out, out
    assert "tippe p lila und Enter in seinem Terminal" in out, out
    assert "tippe p gelb und Enter in seinem Terminal" in out, out  # the saturation step's
    assert "am emulierten Pico drücke Enter in seinem Terminal" in out, out


class _Stop:
    """A ``threading.Event`` stand-in that lets ``_say_new_boots`` look ``rounds`` times."""

    def __init__(self, rounds):
        self.rounds = rounds

    def is_set(self):
        self.rounds -= 1
        return self.rounds < 0

    def wait(self, _seconds):
        return False


def test_the_emulator_says_at_once_when_pyramid_flash_restarts_the_board(capsys):
    """Tester s34, M5 (and s33): after ``pyramid flash`` the emulator's terminal said
    nothing while the emulated board booted again. A chip reset no key here asked for is
    said at once, the firmware's line after it when its HELLO comes; the reset ``x``
    asked for is said by ``x`` alone."""
    from camelup.board.protocol import Message

    hello = Message("HELLO", {"fw": "0.1.0", "ed": "second", "boot": "B2"})
    board = SimpleNamespace(resets=[(10.0, 0)], emitted=[], keyed_resets=0, edition="second",
                            port="/dev/pts/9")
    seen = {"B1"}
    emulate._say_new_boots(board, seen, _Stop(1), 0.0, resets=0)  # mpremote's reset
    assert capsys.readouterr().out == (
        "the board restarts (reset over USB, as pyramid flash does at its end): the "
        "firmware's line follows once it runs\n")
    board.emitted.append((20.0, hello))
    emulate._say_new_boots(board, seen, _Stop(1), 0.0, resets=1)
    assert capsys.readouterr().out == "pyramid firmware 0.1.0 running (second edition)\n"
    # x: its own line, no second one from the watcher; a watchdog reset in German
    board.keyed_resets = 1
    board.resets += [(30.0, 0), (40.0, 1)]
    set_language("de")
    emulate._say_new_boots(board, seen, _Stop(1), 0.0, resets=1)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("der Watchdog hat die Platine "), out
