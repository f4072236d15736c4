"""tester46c finding 5: every ``pyramid`` command a maker tool advises carries the
language it was run in (``--lang de``), as calibrate's own retry does: doctor's next
step, its fix lines (calibrate, emulate), never twice, and nothing added in English."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.tools.commandline import with_port
from camelhost.tools.monitor import emulate_again


@pytest.mark.hil
@pytest.mark.micropython
def test_a_german_doctors_next_step_carries_lang_de(micropython, capsys):
    assert cli.main(["--lang", "de", "doctor", "--port", "virtual"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("als Nächstes") and \
        last.endswith(": pyramid calibrate --port virtual --autorange --lang de"), last


def test_a_german_fix_command_carries_lang_de_once():
    set_language("de")
    assert with_port("calibrate", "/dev/pts/1", "--edition", "second") == \
        "pyramid calibrate --port /dev/pts/1 --edition second --lang de"
    # calibrate's retry repeats the options it was run with, --lang among them: not twice
    assert with_port("calibrate", "/dev/pts/1", "--lang", "de") == \
        "pyramid calibrate --port /dev/pts/1 --lang de"
    assert emulate_again(None, "classic").endswith(
        ": pyramid emulate --edition classic --lang de")


def test_an_english_fix_command_has_no_lang():
    set_language("en")
    assert with_port("calibrate", "/dev/pts/1", "--autorange") == \
        "pyramid calibrate --port /dev/pts/1 --autorange"
    assert emulate_again(None, "classic").endswith(": pyramid emulate --edition classic")
