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
    "de": "--port manual: dieses Werkzeug braucht eine Pyramide: gib --port ANSCHLUSS, --port "
          "auto oder --port virtual an",
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("tool", ["monitor", "calibrate", "doctor"])
def test_the_maker_tools_with_port_manual_say_they_need_a_pyramid(tool, lang, capsys):
    """Doctor too (s36): its failed connection step's fix line said ``plug the pyramid
    in, check --port, flash it``, which --port manual does not need: one line, as the
    others say it."""
    assert cli.main([tool, "--port", "manual", "--lang", lang]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == ["pyramid: " + SAID[lang]]
    assert out == ""


@pytest.mark.parametrize("lang, word", [("en", "PORT"), ("de", "ANSCHLUSS")])
def test_the_port_placeholder_is_the_help_metavar_in_every_language(lang, word, capsys):
    """German ``--help`` said ``--port PORT`` where the offers said ``--port ANSCHLUSS``
    (maker s45b): one word, the metavar's, in the help and in every offer."""
    with pytest.raises(SystemExit):
        cli.main(["doctor", "--lang", lang, "--help"])
    assert "--port %s " % word in capsys.readouterr().out
    assert cli.main(["monitor", "--port", "manual", "--lang", lang]) == 1
    assert " --port %s, --port auto " % word in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["play", "--lang", lang, "--help"])
    assert "| %s |" % word in " ".join(capsys.readouterr().out.split())
