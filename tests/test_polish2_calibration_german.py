"""Calibration's refusals and its advice keep their English template apart
(``camelup.errors.Message``), so the host says them in the table's language: an edition
is named as the table names it (Erstausgabe), never ``the classic edition`` in German."""

import pytest
from camelhost.cli import main
from camelhost.i18n import set_language
from camelhost.table.narration import translated
from camelup import calibration

READING = (100.0, 40.0, 30.0, 30.0)


def _refusal(samples, edition):
    with pytest.raises(ValueError) as exc:
        calibration.fit(samples, edition, {"integration_ms": 24.0, "gain": 4})
    return exc.value


def test_a_label_of_another_edition_is_refused_naming_the_edition_in_german():
    exc = _refusal({"red": [READING] * 3, "black": [READING] * 3}, "classic")
    assert str(exc) == "'black' is not a class of the classic edition"
    set_language("de")
    assert translated(exc) == "'black' ist keine Klasse der Erstausgabe"
    assert translated(_refusal({"red": [READING] * 3}, "second")) == \
        "es braucht Messungen von mindestens zwei Klassen, nicht 1"
    assert translated(_refusal({"red": [READING] * 3, "blue": [READING] * 2}, "second")) == \
        "es braucht mindestens 3 Messungen von 'blue'"


def test_the_advice_is_said_in_german():
    pairs = [{"a": "grey-black", "b": "grey-white", "sigma": 2.5, "too_close": True},
             {"a": "red", "b": "purple", "sigma": 4.0, "too_close": True},
             {"a": "blue", "b": "green", "sigma": 9.0, "too_close": False}]
    english = calibration.advice(pairs)
    assert str(english).startswith("too close: grey-black/grey-white (2.5 sigma), "
                                   "red/purple (4.0 sigma); expect 'unknown' between them.")
    assert "; for the grey inks, the grey die's inks" in str(english)
    set_language("de")
    german = translated(english)
    assert german.startswith("zu nah: grey-black/grey-white (2,5 sigma), red/purple "
                             "(4,0 sigma); zwischen ihnen ist 'unknown' zu erwarten. Abhilfe: ")
    assert "; für die Ziffernfarben des grauen Würfels die Ziffernfarben" in german and "too close" not in german
    assert translated(calibration.advice(pairs[2:])) == \
        "alle Klassen trennen sich gut (am nächsten: blau und grün, 9,0 sigma)"
    assert translated(calibration.advice([])) == \
        "keine Klassen zu vergleichen: kalibriere mindestens zwei"


def test_the_command_line_says_a_calibration_refusal_in_german(monkeypatch, capsys):
    # pyramid's ValueError line (cli.main) renders the refusal through the catalogue
    import camelhost.commands.check as check

    def refuse(args):
        calibration.fit({"red": [READING] * 3, "black": [READING] * 3}, "classic",
                        {"integration_ms": 24.0, "gain": 4})
    monkeypatch.setattr(check, "run", refuse)
    assert main(["check", "x.scn", "--lang", "de"]) == 1
    assert capsys.readouterr().err == "pyramid: 'black' ist keine Klasse der Erstausgabe\n"
