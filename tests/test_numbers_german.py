"""Numbers as the table's language writes them (issue 30 follow-up): a German table reads
``+2,94`` coins, ``37,5 %`` and ``72,0 ms`` wherever a player reads a number with a
fractional part (the plain lines, the full screen's odds panel, the tools' reports, the
advice the web page shows), and the dot stays wherever a machine or a player's typing
reads it back (the view's JSON numbers, the options a hint tells a player to type).
English is written exactly as ``%.*f`` writes it."""

import json
import random
import re

import pytest
import tui_scenes as scenes
from camelhost.i18n import decimal, set_language
from camelhost.table.journal import Journal
from camelhost.table.narration import best_lines, odds_lines
from camelhost.table.session import Session
from camelhost.table.view import signed, table_view
from camelhost.tools import calibrate
from camelhost.ui.odds_view import odds_lines as panel_lines


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def test_english_numbers_are_exactly_what_printf_writes():
    rng = random.Random(30)
    values = [0, -0.0, -0.001, 0.005, 0.125, 2.675, -2.5, 1234567.891, 3] + [
        rng.uniform(-2000, 2000) for _i in range(3000)]
    for value in values:
        for places in (0, 1, 2, 3):
            assert decimal(value, places) == "%.*f" % (places, value)
            assert decimal(value, places, sign=True) == "%+.*f" % (places, value)


def test_a_german_table_writes_a_decimal_comma_and_the_same_digits():
    set_language("de")
    assert decimal(2.943, 2, sign=True) == "+2,94"
    assert decimal(-0.32, 2, sign=True) == "-0,32"
    assert decimal(37.5, 1) == "37,5"
    assert decimal(0.42, 2) == "0,42"
    assert decimal(1234.5, 2) == "1234,50"  # no thousands' dot: a column keeps its width
    assert decimal(3, 0) == "3"
    assert decimal(2.675, 2) == "2,67"  # rounded as printf rounds the float, in any language
    assert signed(-0.001) == "0,00" and signed(1.5) == "+1,50"
    assert decimal(float("nan"), 2) == "nan" and decimal(float("-inf"), 1, sign=True) == "-inf"
    with pytest.raises(TypeError):
        decimal("2.9", 1)


def _session():
    session = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"], seed=3,
                      journal=Journal(None))
    session.command(scenes.SECOND_SETUP)
    session.command("tile 5 -")
    return session


def test_the_plain_lines_write_commas_and_the_views_json_keeps_dots():
    session = _session()
    set_language("de")
    view = table_view(session, odds=True)
    best = "\n".join(best_lines(view, count=None))
    top = view["odds"]["actions"]["values"][0]
    assert signed(top["ev"]) in best and "," in signed(top["ev"])
    assert re.search(r"Pyramidenplättchen \('pyramid'\): \d+,\d\d hinter der besten; "
                     r"Bilanz [+-]\d+,\d\d: jetzt \+1,00, [+-]\d+,\d\d Antworten der anderen",
                     best), best
    assert "+1.00" not in best and not re.search(r"\d\.\d", best)
    odds = " ".join(odds_lines(view))
    assert "5.000 Rennen simuliert" in odds and "5000" not in odds  # grouped, as German groups
    assert "+/-" not in odds and " \u00b1%s" % decimal(
        100 * view["odds"]["race"]["winner"][0]["hw"], 1) in odds
    # what the web page and a machine read: JSON numbers, with their dots
    data = json.dumps(view, sort_keys=True)
    assert '"ev": %s' % json.dumps(top["ev"]) in data and "." in json.dumps(top["ev"])
    # the page shows the host's words: commas there too
    assert signed(top["ev"]) in top["text"] and not re.search(r"\d\.\d", top["text"])
    set_language("en")
    english = "\n".join(best_lines(table_view(session, odds=True), count=None))
    assert re.search(r"pyramid ticket \('pyramid'\): \d+\.\d\d behind the best; balance "
                     r"[+-]\d+\.\d\d: \+1\.00 now, ", english), english


def test_the_full_screens_odds_panel_writes_commas_in_german():
    session = _session()
    set_language("de")
    view = table_view(session, odds=True)
    text = panel_lines(view["odds"], view, width=80).plain
    evs = [signed(v["ev"]) for v in view["odds"]["actions"]["values"][:2]]
    assert all("," in ev and ev in text for ev in evs), (evs, text)
    assert not any(ev.replace(",", ".") in text for ev in evs)


def test_the_calibration_advice_says_its_time_with_a_comma_and_the_option_with_a_dot():
    set_language("de")
    text, settings = calibrate.light_fix({"integration_ms": 24.0, "gain": 60}, 100, 300, 1000)
    assert settings == {"integration_ms": 72.0, "gain": 60}
    assert text == "Integrationszeit 72,0 ms (--integration 72.0)"
    text, settings = calibrate.light_fix({"integration_ms": 24.0, "gain": 60}, 100, 30000,
                                         1000)
    assert settings is None and "153,6 ms" in text
    set_language("en")
    text, _settings = calibrate.light_fix({"integration_ms": 24.0, "gain": 60}, 100, 300, 1000)
    assert text == "integration time 72.0 ms (--integration 72.0)"


def test_the_monitors_margin_column_and_pyramid_odds_write_commas_in_german(capsys):
    from camelhost import cli
    from camelhost.tools import monitor

    empty = {"on": (150, 60, 50, 40), "off": (100, 40, 30, 20), "label": "empty", "m": 3168,
             "sl": False}
    set_language("de")
    line = monitor.format_reading(7, empty, saturation=7680)
    assert line.split()[-3:] == ["leer", "31,68", "-"]
    assert "100,40,30,20" in line  # the LED-off counts, whole numbers, stay a list
    set_language("en")
    session = _session()
    position = session.game.position()  # what pyramid odds reads: typed as it is
    assert cli.main(["odds", "--lang", "de", position]) == 0
    out = capsys.readouterr().out
    table = out[out.index("Etappenchancen (exakt"):out.index("Rennchancen")]
    # German writes a no-break space before % (CLDR; finding 8 of tester 2)
    shares = [w for w in re.split(r"[ \n]+", table) if w.endswith("%")]
    assert len(shares) >= 25 and all(re.fullmatch(r"\d+,\d\u00a0%", w) for w in shares), shares
    assert cli.main(["odds", position]) == 0
    out = capsys.readouterr().out
    shares = [w for w in out[out.index("Leg odds (exact"):].split() if w.endswith("%")]
    assert shares and all(re.fullmatch(r"\d+\.\d%", w) for w in shares[:25]), shares


def test_a_german_tournaments_tables_write_commas(capsys, tmp_path):
    import re

    from camelhost import cli

    log = tmp_path / "games.jsonl"
    argv = ["tournament", "--seats", "3", "--games", "3", "--bots", "greedy,random,random",
            "--edition", "classic", "--workers", "1", "--log", str(log)]
    assert cli.main(argv + ["--lang", "de"]) == 0
    out = capsys.readouterr().out
    greedy = [line for line in out.splitlines() if line.startswith("greedy ")][0]
    assert re.search(r"\d+,\d\u00a0% \( *\d+,\d\u2013 *\d+,\d\) +\d+,\d\d \u00b1 +\d+,\d\d$", greedy), \
        greedy
    assert re.search(r"\(\d+,\d\d s je Spiel\)", out), out
    german_log = log.read_text()
    log.unlink()
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    greedy = [line for line in out.splitlines() if line.startswith("greedy ")][0]
    assert re.search(r"\d+\.\d% \( *\d+\.\d\u2013 *\d+\.\d\) +\d+\.\d\d \u00b1 +\d+\.\d\d$", greedy)
    assert log.read_text() == german_log  # the --log file is the machine's: no language


def test_a_percentage_is_written_one_way_per_language():
    # tester 2, finding 8: 98,5% next to (50 %), 100.0 % next to 98.5%
    from camelhost.i18n import percent
    from camelhost.table.narration import odds_lines as plain_odds
    from camelhost.tools import monitor
    assert [percent(0.375, 1), percent(1.0, 1), percent(0.95), percent(0.125, 0)] == [
        "37.5%", "100.0%", "95%", "12%"]
    session = _session()
    english = plain_odds(table_view(session, odds=True))
    assert re.search(r"\d% 2nd \d+% last \d+%", english[0]), english[0]
    assert monitor.line_column(0.98) == "98%"
    set_language("de")
    assert [percent(0.375, 1), percent(1.0, 1), percent(0.95)] == [
        "37,5\u00a0%", "100,0\u00a0%", "95\u00a0%"]
    german = plain_odds(table_view(session, odds=True))
    assert re.search(r"\d\u00a0% 2\. \d+\u00a0% letzter \d+\u00a0%", german[0]), german[0]
    assert "95\u00a0%-Intervall" in german[1]
    assert monitor.line_column(0.98) == "98\u00a0%"
    assert not re.search(r"\d%|\d %", " ".join(german))  # no other way of writing one
