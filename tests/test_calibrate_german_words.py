"""Calibrate's words at a German table (tester s34): the quit question takes and names
the language's yes (``j``), a step says the face to show plainly, with no nested
parentheses in the wrong-die prompt, and the gain's and light's lines name the die in
the table's language (``camelhost.i18n``'s colour words)."""

from camelhost.i18n import set_language


def _driver(answers):
    """A ``calibrate.HumanDriver`` answering each prompt with the next of ``answers``;
    returns it, the prompts it was asked and its output."""
    import io

    from camelhost.tools import calibrate

    prompts, out = [], io.StringIO()

    def person(prompt):
        prompts.append(prompt)
        return answers.pop(0)

    return calibrate.HumanDriver(input_fn=person, out=out), prompts, out


def test_the_german_quit_confirmation_takes_j_and_names_it(capsys):
    """Tester s34, M3: the German question asked ``(y beendet, Enter macht weiter)`` and
    ``j`` went on with the session, unsaid."""
    import pytest
    from camelhost.errors import CliError

    set_language("de")
    driver, prompts, out = _driver(["q", "j"])
    with pytest.raises(CliError) as err:
        driver.present("blue", 1, 5, 24, taken=4)
    assert prompts[1] == ("aufhören? die bisher genommenen 4 Messungen gehen verloren, nichts "
                          "wird gespeichert (j beendet, Enter macht weiter): ")
    assert str(err.value) == ("Kalibrieren abgebrochen; seine 4 Messungen sind verworfen, "
                              "nichts wurde gespeichert")
    # anything but yes or Enter: one line, and asked again; Enter goes on with the step
    driver, prompts, out = _driver(["q", "jo", "", ""])
    driver.present("blue", 1, 5, 24, taken=4)
    assert out.getvalue() == "'jo' ist weder j noch Enter: j beendet, Enter macht weiter\n"
    assert prompts[2] == prompts[1] and prompts[3] == prompts[0]
    # English still says and takes y (and yes)
    set_language("en")
    driver, prompts, out = _driver(["q", "yes"])
    with pytest.raises(CliError):
        driver.present("blue", 1, 5, 24, taken=4)
    assert prompts[1].endswith("(y stops, Enter goes on): ")


def test_a_calibration_step_says_the_face_plainly_in_german():
    """Tester s34, M6: every step read ``mit 1 oben (wechsle zwischen seinen beiden Seiten
    1)``, and the wrong-die prompt nested it in its own parentheses."""
    set_language("de")
    driver, prompts, out = _driver(["", "", "", ""])
    driver.present("blue", 1, 1, 24)
    driver.present("green", 1, 2, 24)
    driver.present("blue", 1, 8, 24)  # the blue die with 1 on top again: its other face
    assert driver.read_again("blue", 1, 7) is True
    assert prompts[0] == "[  1/24] lass den Würfel blau heraus, mit der 1 oben, dann Enter (q zum Aufhören): "
    assert prompts[2] == ("[  8/24] lass den Würfel blau heraus, mit der 1 oben, diesmal seine "
                          "andere Seite mit 1, dann Enter (q zum Aufhören): ")
    assert prompts[3] == ("  Enter misst noch einmal: zuerst lass den Würfel blau heraus, mit der "
                          "1 oben, diesmal seine andere Seite mit 1; k behält diese Messung, dann "
                          "wird diese Sitzung aber nicht gespeichert; q beendet: ")
    assert not any("wechsle" in p or "((" in p or "))" in p for p in prompts)
    # the readings before the numbered steps are single, any face up: no face to name
    driver, prompts, out = _driver([""])
    driver.present("yellow", 1, 0, 0, purpose="um die Verstärkung zu wählen")
    assert prompts == ["[um die Verstärkung zu wählen] lass den Würfel gelb heraus, "
                       "dann Enter (q zum Aufhören): "]


def test_calibrate_names_the_gain_s_and_the_light_s_die_in_german(micropython):
    """Tester s34, M2: ``Verstärkung 60x: yellow Klarkanal ...``, ``dunkelster Würfel:
    purple ...`` at a German table."""
    import io

    from camelhost.tools import calibrate, monitor

    set_language("de")
    out = io.StringIO()
    with monitor.connect("virtual", edition="second", seed=4) as pyramid:
        driver = calibrate.VirtualDriver(pyramid.virtual)
        cfg = calibrate.choose_gain(pyramid, driver, "second", out)
        calibrate.reach_light(pyramid, driver, "second", cfg, out)
    text = out.getvalue()
    gains = [line for line in text.splitlines() if line.startswith("Verstärkung ")
             and "x:" in line]
    assert gains and all(line.split(": ", 1)[1].startswith("gelb Klarkanal ") for line in gains), text
    assert "dunkelster Würfel: lila Klarkanal " in text, text
    assert "yellow" not in text and "purple" not in text
