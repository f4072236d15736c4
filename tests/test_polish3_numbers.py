"""Every decimal a German player reads has the German comma, the engine's messages too:
``pyramid check``'s odds mismatches (``349/3240 = 0,107716``) and calibration's advice
(``4,0 sigma``); what a scenario or a hint writes to be typed keeps its point."""

from camelhost.cli import main
from camelhost.i18n import set_language
from camelhost.table.narration import translated
from camelup.errors import Message
from camelup.scenario_odds import show

HEAD = ("case T-01 odds\nedition classic\nplayers 3\n"
        "board 1:[blue] 2:[green] 3:[yellow,orange,white]\n")


def test_pyramid_check_writes_an_odds_mismatch_with_a_german_comma(tmp_path, capsys):
    path = tmp_path / "t.scn"
    path.write_text(HEAD + "expect odds 1st blue 0.5\nexpect odds 2nd green .25\n",
                    encoding="utf-8")
    assert main(["check", str(path), "--lang", "de"]) == 1
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "P(" in line]
    assert lines and "= 0,107716" in lines[0], out
    assert "erwartet 0.5" in lines[0]  # as the scenario writes it: a value typed back
    assert "0.1" not in out.replace("0.5", "").replace(".25", ""), out
    assert main(["check", str(path)]) == 1
    assert "= 0.107716" in capsys.readouterr().out  # English as before


def test_the_engines_decimals_read_with_the_tables_separator():
    set_language("de")
    assert translated(Message("all classes separate well (closest: %(one)s and %(other)s, "
                              "%(sigma).1f sigma)", one="blue", other="green", sigma=9.0)) == \
        "alle Klassen trennen sich gut (am nächsten: blau und grün, 9,0 sigma)"
    assert translated(Message("%s", show(349, 3240))) == "349/3240 = 0,107716"
    assert translated(Message("%s", show(3, 3))) == "1 (1,000000)"
    # a version or a rules section in an argument is not a figure: left as it is
    assert translated(Message("%s", "MicroPython v1.28.0, RULES 1.5")) == \
        "MicroPython v1.28.0, RULES 1.5"
    set_language("en")
    assert translated(Message("%s: %.2f", "x", 1.5)) == "x: 1.50"
