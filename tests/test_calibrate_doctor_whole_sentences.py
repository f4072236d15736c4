"""Calibrate's and doctor's lines reach a translator as whole sentences (s46): a part
that was glued to another translated part by fixed punctuation (``"%s; %s"``, ``shown +
_("; the board names it %s")``, ``head + ". " + _(...)``) is now a named placeholder in
one message, a count in such a sentence has its own plural, and a list of dice inside a
sentence ends with the language's "and" (``camelhost.i18n.listed``)."""

import os

import pytest
from babel.messages.pofile import read_po
from camelhost.i18n import listed, set_language

LOCALE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "host", "camelhost", "locale")
#: the files whose messages this covers: calibrate's and doctor's
FILES = ("host/camelhost/tools/calibrate.py", "host/camelhost/commands/calibrate.py",
         "host/camelhost/commands/doctor.py")
#: how a piece of a sentence begins: a message that begins so was glued after another
FRAGMENT = ("; ", " (", ", ", ". ")


@pytest.fixture
def german():
    set_language("de")
    yield
    set_language("en")


def test_no_calibrate_or_doctor_message_is_a_piece_glued_to_another():
    with open(os.path.join(LOCALE, "pyramid.pot"), "rb") as fh:
        pot = read_po(fh)
    pieces = []
    for message in pot:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if message.id and any(path in FILES for path, _line in message.locations):
            pieces += [i for i in ids if i.startswith(FRAGMENT) or not i.strip("%s;,. ")]
    assert pieces == []


def test_a_list_inside_a_sentence_ends_with_the_languages_and(german):
    assert [listed(words) for words in ([], ["blau"], ["blau", "grün"],
                                        ["blau", "grün", "rot"])] == [
        "", "blau", "blau und grün", "blau, grün und rot"]
    set_language("en")
    assert listed(["blue", "green", "red"]) == "blue, green and red"


def test_calibrates_good_advice_names_the_checked_dice_as_german_lists_them(german):
    from camelhost.tools import calibrate
    from camelup import calibration

    pairs = [{"a": "green", "b": "white", "sigma": 16.4,
              "too_close": 16.4 < calibration.TOO_CLOSE}]
    loo = {"_total": {"n": 12, "accuracy": 1.0, "rejected": 0.0, "error": 0.0},
           "blue": {"n": 6}, "red": {"n": 6}, "green": {"n": 0}}
    line = calibrate.advise(pairs, 0, loo, 30)
    assert line.startswith("gut: jedes Klassenpaar liegt mindestens 16,4 Sigma auseinander "
                           "(am nächsten: grün/weiß); aber die Prüfung umfasste nur blau und "
                           "rot: die anderen Klassen "), line


class _Unreached:
    """A pyramid whose link is lost: ``put_back`` can't give it its settings again."""

    class link:  # noqa: N801 (the attribute calibrate reads)
        state = "closed"


def test_a_stopped_session_says_what_the_pyramid_may_keep_in_one_german_sentence(german):
    from camelhost.tools import calibrate

    before = {"ed": "second", "it": 24, "gain": 16}
    said = calibrate.put_back(_Unreached(), before, calibrate.stopped_words())
    assert said == (
        "Kalibrieren abgebrochen; nichts wurde gespeichert; die Pyramide läuft womöglich "
        "noch mit den Sensoreinstellungen dieser Sitzung, nicht mit ihren eigenen "
        "(Zweitausgabe, 24,0 ms, Verstärkung 16x): zieh sie ab und steck sie wieder ein, "
        "dann startet sie wieder mit ihren eigenen (pyramid monitor zeigt sie)")


def test_doctors_led_line_counts_each_number_with_its_own_plural_in_one_sentence(german):
    from camelhost.commands import doctor

    settings = {"it": 24, "gain": 4, "ed": "second"}
    reading = {"label": "purple", "m": 900}
    lit = doctor.led_step((900, 10, 10, 10), (5, 1, 1, 1), reading, settings, "second")
    assert lit.status == "ok"
    assert lit.detail == ("LED an bringt mit dem Würfel 895 Zählwerte im Klarkanal (LED an "
                          "900, LED aus 5: das Raumlicht); ein leerer Kopf bringt etwa 52 "
                          "Zählwerte")
    dim = doctor.led_step((6, 10, 10, 10), (5, 1, 1, 1), reading, settings, "second")
    assert dim.detail == ("LED an bringt nur 1 Zählwert im Klarkanal (LED an 6, LED aus 5) "
                          "mit einem Würfel im Kopf; ein beleuchteter Würfel bringt "
                          "mindestens 157 Zählwerte")
