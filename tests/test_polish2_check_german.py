"""``pyramid check --lang de`` says the scenario checker's messages in German throughout:
its refusals of a file (the file and line first), each mismatch's want / got, and an
edition named as the table names it; English reads as it always did."""

import pytest
from camelhost.cli import main

POSITION = ("classic | leg 1 turn p0 start p0 | 1:blue 2:green 3:yellow,orange,white | "
            "out - | legs blue:532 green:532 orange:532 yellow:532 white:532 | pyramid 5 | "
            "p0 coins=3 | p1 coins=3 | p2 coins=3 | winner - | loser -")
HEAD = ("case T-01 three checks\nedition classic\nplayers 3\n"
        "board 1:[blue] 2:[green] 3:[yellow,orange,white]\n")
MISMATCHES = HEAD + ("do leg blue\nexpect position %s\nexpect over yes\n"
                     "expect odds 1st blue 1/2 green 1/3\n" % POSITION)


def _check(tmp_path, capsys, text, *lang):
    path = tmp_path / "t.scn"
    path.write_text(text, encoding="utf-8")
    code = main(["check", str(path), *lang])
    out = capsys.readouterr()
    return code, out.out + out.err, str(path)


def test_a_failing_case_is_told_in_german(tmp_path, capsys):
    code, out, path = _check(tmp_path, capsys, MISMATCHES, "--lang", "de")
    assert code == 1
    assert out.splitlines() == [
        "FEHLER    T-01 three checks  (%s:1)" % path,  # one column with "bestanden"
        "  Zeile 6: expect position %s" % POSITION,
        "    Stellung weicht ab:",
        "      - erwartet:    leg 1 turn p0 start p0",
        "      + tatsächlich: leg 1 turn p1 start p0",
        "      - erwartet:    legs blue:532 green:532 orange:532 yellow:532 white:532",
        "      + tatsächlich: legs blue:32 green:532 orange:532 yellow:532 white:532",
        "      - erwartet:    p0 coins=3",
        "      + tatsächlich: p0 coins=3 tickets=blue5",
        "  Zeile 7: expect over yes",
        "    Rennen vorbei: erwartet yes, tatsächlich no",
        "  Zeile 8: expect odds 1st blue 1/2 green 1/3",
        "    P(blau 1st): erwartet 1/2, tatsächlich 349/3240 = 0,107716; "
        "P(grün 1st): erwartet 1/3, tatsächlich 541/4860 = 0,111317",
        "0 bestanden, 1 fehlgeschlagen"]


def test_the_same_case_reads_as_before_in_english(tmp_path, capsys):
    code, out, path = _check(tmp_path, capsys, MISMATCHES)
    assert code == 1
    lines = out.splitlines()
    assert lines[2:5] == ["    position differs:", "      - want: leg 1 turn p0 start p0",
                          "      + got:  leg 1 turn p1 start p0"]
    assert lines[9:11] == ["  line 7: expect over yes", "    race over: want yes, got no"]


@pytest.mark.parametrize("text, german", [
    (HEAD + "expect ranking red,blue\n",
     ":5: 'red' ist kein Rennkamel der Erstausgabe (blau, grün, orange, gelb, weiß)"),
    (HEAD.replace("edition classic", "edition third"),
     ":2: die Ausgabe ist eine von classic, second, nicht 'third'"),
    (HEAD + "expect coins 3 3\n", ":5: die Liste nennt 2 Plätze, das Spiel hat 3"),
    (HEAD + "expect gain p1 1\n",
     ":5: ein Gewinn trägt sein Vorzeichen, etwa +1, -1 oder +0; schreibe es wie "
     "'expect gain p1 +1 (EP, die die letzte Aktion gewonnen oder verloren hat)'"),
    ("case T-02\nedition second\nboard 1:[blue]\n",
     ":1: Fall T-02 nennt seine players nicht (ergänze 'players ...')"),
    (HEAD + "inside red\n",
     ":4: Fall T-01: inside: Würfel 'red' ist nicht in der Pyramide der Erstausgabe "
     "(blau, grün, orange, gelb, weiß)"),
])
def test_a_file_the_checker_refuses_is_named_in_german(tmp_path, capsys, text, german):
    code, out, path = _check(tmp_path, capsys, text, "--lang", "de")
    assert code == 2
    assert out == "pyramid: %s%s\n" % (path, german)


def test_a_long_text_quoted_back_gives_its_length_in_german(tmp_path, capsys):
    # the scenario's position line and a command typed at the table, cut when quoted
    bad = "classic | leg 1 | 1:[blue] | turn p0 | coins 3 3 3 | winner - | loser -"
    code, out, path = _check(tmp_path, capsys, HEAD + "expect position %s\n" % bad,
                             "--lang", "de")
    assert code == 2
    assert "in der Stellung 'classic | leg 1 | 1:[blue] | turn p0 | c'... (71 Zeichen); " \
        "schreibe es wie 'expect position <Stellungszeile>'" in out, out
    from camelhost.errors import TableError
    from camelhost.i18n import set_language
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    set_language("de")
    session = Session("second", ["Ann", "Ben", "Cy"], seed=1, journal=Journal(None))
    with pytest.raises(TableError) as info:
        session.command("dance " + "x" * 100)
    assert "'dance xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (106 Zeichen)" in str(info.value)


def test_a_mismatch_shows_its_values_as_the_scenario_writes_them(tmp_path, capsys):
    # they read 'want True, got False' and "want [('blue', 5)], got []" (Python's
    # words, English in German too); now as the expectation is written: yes, p0, blue5
    text = HEAD + ("expect over yes\nexpect winners p0\ndo p0 leg blue\n"
                   "expect held p0 blue5,green3\nexpect legs blue 53\nexpect partner p1 p2\n"
                   "expect leg-scored yes\n")
    code, out, path = _check(tmp_path, capsys, text, "--lang", "de")
    assert code == 1
    assert out.splitlines()[1:-1] == [
        "  Zeile 5: expect over yes", "    Rennen vorbei: erwartet yes, tatsächlich no",
        "  Zeile 6: expect winners p0",
        "    Plätze der Sieger: erwartet p0, aber das Rennen ist nicht vorbei",
        "  Zeile 8: expect held p0 blue5,green3",
        "    Wettplättchen von p0: erwartet blue5,green3, tatsächlich blue5",
        "  Zeile 9: expect legs blue 53",
        "    übrige Wettplättchen blau: erwartet 53, tatsächlich 32",
        "  Zeile 10: expect partner p1 p2",
        "    Partner von p1: erwartet p2, tatsächlich -",
        "  Zeile 11: expect leg-scored yes",
        "    Etappe gewertet: erwartet yes, tatsächlich no"]
