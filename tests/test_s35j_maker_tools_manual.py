"""``pyramid monitor``, ``doctor`` and ``calibrate`` given ``--port manual`` (the word
``play --pyramid`` takes for typed dice) say in one line that they need a pyramid and
how to name one, instead of an ``AttributeError`` traceback (no link was opened: the
maker tools read the board). One place says it for all three: the port opener."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    set_language("en")


SAID = {
    "en": "--port manual: this tool needs a pyramid: give --port PORT, --port auto or "
          "--port virtual",
    "de": "--port manual: dieses Werkzeug braucht eine Pyramide: gib --port PORT, --port "
          "auto oder --port virtual an",
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("tool", ["monitor", "calibrate"])
def test_monitor_and_calibrate_with_port_manual_say_they_need_a_pyramid(tool, lang, capsys):
    assert cli.main([tool, "--port", "manual", "--lang", lang]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == ["pyramid: " + SAID[lang]]
    assert out == ""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_doctor_with_port_manual_fails_its_connection_step_saying_it_needs_a_pyramid(
        lang, capsys):
    assert cli.main(["doctor", "--port", "manual", "--lang", lang]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:2] in (["FAILED", "connection"], ["FEHLER", "Verbindung"])
    assert lines[1].endswith(SAID[lang])
    assert len(lines) == 3  # the heading, the failed step and its fix: no checklist run
