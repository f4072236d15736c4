"""The emulator says what the status LED shows (the last round's "the emulator shows no
status LED"): the board's LED changes (``EmulatedPyramid.status_led``, emulated ms) read
as the on / off times of hardware/README.md's "Status LED" table, or steady on / off."""

from camelhost.commands import emulate


def _blink(on, off, start=1000.0, cycles=4, first=1):
    """The changes of ``cycles`` blinks of ``on`` / ``off`` ms from ``start``."""
    changes, at = [], start
    for _ in range(cycles):
        changes.append((at, first))
        at += on if first else off
        changes.append((at, 1 - first))
        at += off if first else on
    return changes, at


def test_each_firmware_pattern_reads_as_its_on_and_off_times():
    for on, off in ((30, 1970), (1970, 30), (150, 150), (50, 50)):
        changes, now = _blink(on, off)
        words = emulate.status_led_words(changes, now - 10)
        assert words.startswith("status LED: blinking, on %d ms, off %d ms" % (on, off)), words
        assert "hardware/README.md" in words


def test_a_led_that_stays_lit_or_dark_reads_as_steady():
    assert emulate.status_led_words([], 5000.0) == \
        "status LED: off (not lit since the board started)"
    changes, now = _blink(30, 1970)
    lit = changes + [(now, 1)]  # a die is read: on and left on
    assert emulate.status_led_words(lit, now + emulate.STEADY_MS) == "status LED: steady on"
    dark = changes + [(now, 0)]
    assert emulate.status_led_words(dark, now + 3 * emulate.STEADY_MS) == "status LED: off"


class _Board:
    """What ``emulate`` reads of an ``EmulatedPyramid``: its LED changes and its clock."""

    def __init__(self, changes, now):
        self.status_led, self.clock = changes, (now, 0.0)


def test_the_s_key_says_the_led_and_the_keys_line_names_it(capsys):
    changes, now = _blink(150, 150)
    assert emulate._press(_Board(changes, now + 20), "s") is True
    assert capsys.readouterr().out.startswith("status LED: blinking, on 150 ms, off 150 ms")
    assert "s the status LED" in emulate.keys_line()
