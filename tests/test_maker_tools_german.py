"""The maker tools in German (issue 30): ``pyramid doctor``'s checklist, ``pyramid
monitor``'s columns, ``pyramid calibrate``'s report and ``pyramid check``'s verdicts
come from the catalogue, each heading within its column; the dice by their German colour
words (``lila``, ``grau-schwarz``: s34, tester s33-2: the readings' column was English
at a German table), the hardware words are the German maker's (Klarkanal,
Integrationszeit, Verstärkung)."""

import io

import pytest
from camelhost import cli
from camelhost.commands.doctor import Step
from camelhost.i18n import set_language
from camelhost.tools import calibrate, monitor

PUSHED = {"on": (5000, 2000, 1800, 1200), "off": (100, 40, 30, 20), "label": "white",
          "m": 412, "sl": True}
EMPTY = {"on": (150, 60, 50, 40), "off": (100, 40, 30, 20), "label": "empty", "m": 3168,
         "sl": False}
UNKNOWN = {"on": (900, 400, 300, 200), "off": (100, 40, 30, 20), "label": "unknown", "m": 50,
           "sl": False}


def _bars(line):
    return [i for i, ch in enumerate(line) if ch == "|"]


def test_the_monitors_columns_and_states_are_german_and_stand_under_their_headings():
    set_language("de")
    head = monitor.header()
    # the slider is the Schieber, as doctor, emulate and the help say (tester 3, finding 8)
    assert head.split()[:6] == ["#", "Schieber", "klar", "rot", "grün", "blau"]
    assert "LED aus (k,r,g,b)" in head and head.split()[-3:] == ["Einordnung", "Abst.", "Ltg."]
    grey = dict(PUSHED, label="grey-black")
    for reading, label in ((PUSHED, "weiß"), (EMPTY, "leer"), (UNKNOWN, "unbekannt"),
                           (grey, "grau-schwarz")):
        line = monitor.format_reading(7, reading, saturation=7680, quality=1.0)
        assert _bars(line) == _bars(head), (head, line)  # the columns line up
        assert line[_bars(line)[1] + 2:].split()[0] == label  # the die in German words
        # the margin column ends where its heading does, after the longest label too
        end = head.index("Abst.") + len("Abst.")
        assert line[end - 1] != " " and line[end] == " ", (head, line)
    pushed = monitor.format_reading(7, PUSHED, saturation=7680)
    assert pushed.split()[1] == "GEDR."
    # the number columns end where their headings end
    for word in ("klar", "rot", "grün", "blau"):
        end = head.index(word) + len(word)
        assert pushed[end - 1] != " " and pushed[end] == " ", (word, head, pushed)
    rejected = monitor.format_reading(8, UNKNOWN, saturation=7680)
    assert rejected.endswith("verworfen")
    for english in ("slider", "clear", "label", "margin", "LED off", "empty", "PUSHED"):
        assert english not in head + pushed + rejected, english


def test_the_monitor_keeps_its_english_headings_in_english():
    head = monitor.header()
    assert head.split()[:6] == ["#", "slider", "clear", "red", "green", "blue"]
    assert monitor.format_reading(7, EMPTY, saturation=7680).split()[-3:] == ["empty", "31.68", "-"]


def test_the_doctors_checklist_is_german_in_its_columns():
    set_language("de")
    lines = Step("slider", "failed", "x", "push it").lines()
    assert lines[0] == "  FEHLER   Schieber    x"
    assert lines[1] == "  %-8s %-11s Abhilfe: push it" % ("", "")
    assert Step("bytecode", "skipped", "y").lines() == ["  entfällt Bytecode    y"]
    assert Step("connection", "ok", "z").lines() == ["  ok       Verbindung  z"]
    set_language("en")
    assert Step("slider", "failed", "x", "push it").lines() == [
        "  FAILED   slider      x", "                       fix: push it"]


def test_the_calibration_report_says_none_and_its_advice_in_german():
    result = calibrate.Result({}, {}, [{"a": "blue", "b": "purple", "sigma": 4.2,
                                        "too_close": True},
                                       {"a": "red", "b": "empty", "sigma": 30.0,
                                        "too_close": False}],
                              {"_total": {"n": 0}}, 0, "Lichtschutz prüfen")
    set_language("de")
    out = io.StringIO()
    calibrate.print_report(result, out)
    text = out.getvalue()
    assert "  blau         lila             4,2  ZU NAHE" in text
    assert "  rot          leer            30,0\n" in text  # the empty head as the monitor says it
    assert "Rat: Lichtschutz prüfen" in text and "advice" not in text
    result.pairs = result.pairs[1:]
    out = io.StringIO()
    calibrate.print_report(result, out)
    assert "zu nahe Paare: keine\n" in out.getvalue()
    assert "none" not in out.getvalue()


@pytest.mark.hil
@pytest.mark.micropython
def test_the_calibration_and_the_doctor_say_the_monitors_words_in_german(capsys, micropython):
    """Tester 3, finding 8: calibrate's progress said ``(LED off c=14)`` where the monitor
    says ``LED aus``, and its check wrote ``100,0 %`` beside the advice's ``100 %``."""
    set_language("de")
    assert cli.main(["calibrate", "--port", "virtual", "--auto", "--samples", "3",
                     "--no-save", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    progress = [line for line in out.splitlines() if line.startswith("[")]
    assert progress and all("(LED aus k=" in line and " k=" in line for line in progress)
    assert "LED off" not in out and " c=" not in out
    report = [line for line in out.splitlines() if line.startswith(("Prüfung", "Rat:"))]
    shares = [word for word in " ".join(report).replace("\u00a0%", "%").split()
              if word.endswith("%")]
    assert shares and all("," in share for share in shares), shares  # one way: 100,0 %
    doctor_words = " ".join(Step("slider", "ok", "x").lines())
    assert "Schieber" in doctor_words and "Schieber" in monitor.header()


def test_pyramid_check_says_its_verdicts_in_german(tmp_path, capsys):
    scn = tmp_path / "two.scn"
    scn.write_text(
        "case T-1 wrong expectation\n"
        "edition second\nplayers 3\n"
        "board 3:[blue] 4:[green] 5:[yellow] 6:[purple] 10:[white,red] 14:[black]\n"
        "expect coins 3 3 4\n"
        "case T-2 right expectation\n"
        "edition second\nplayers 3\n"
        "board 3:[blue] 4:[green] 5:[yellow] 6:[purple] 10:[white,red] 14:[black]\n"
        "expect coins 3 3 3\n")
    assert cli.main(["check", str(scn), "--lang", "de"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("FEHLER    T-1 wrong expectation  (")
    assert "bestanden T-2 right expectation" in out
    assert "FAIL" not in "\n".join(out)


def test_monitor_place_reads_the_die_in_the_table_s_words(capsys):
    """Tester s33 finding 10: ``monitor --place lila --lang de`` was refused (the table
    takes ``leg lila``); the die is read as the table reads it, in either language."""
    from camelhost.table.manual import typed_label as place_label

    set_language("de")
    assert place_label("lila") == "purple"
    assert place_label("grau-schwarz+weiss") == "grey-black+white"
    assert place_label("red") == "red" and place_label("empty") == "empty"
    # refused for the edition (not for the word) before any board is started
    assert cli.main(["monitor", "--port", "virtual", "--place", "lila", "--edition",
                     "classic", "--lang", "de"]) != 0
    err = capsys.readouterr().err
    # the dice named in German, as the monitor's rows name them (s36)
    assert "--place lila: die Erstausgabe hat keinen Würfel lila (ihre Würfel: blau grün " \
        "orange gelb weiß;" in err and "purple" not in err, err
    assert cli.main(["monitor", "--port", "virtual", "--place", "lilac", "--lang", "de"]) != 0
    assert "--place" in capsys.readouterr().err


def test_the_monitors_die_events_name_the_die_in_german():
    # tester s33-2 (smaller points): at a German table the monitor's lines said the dice
    # in English (purple, grey-white) between German words
    from camelhost.device.events import DieEvent
    set_language("de")
    said = monitor.format_event(DieEvent("die", "AB12CD34", 5, colour="grey", ink="white",
                                         value=2), "second")
    assert "Würfel grau-weiß Wert 2" in said and "grey" not in said and "white" not in said, said
    said = monitor.format_event(DieEvent("unknown", "AB12CD34", 6, best="purple"), "second")
    assert "lila" in said and "purple" not in said, said
    set_language("en")
    said = monitor.format_event(DieEvent("die", "AB12CD34", 5, colour="grey", ink="white",
                                         value=2), "second")
    assert "die grey-white value 2" in said, said
