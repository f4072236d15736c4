"""The full screen's words where the testers tripped: the grey die's banner says why
its crazy camel moved in every case and every language (RULES 3.5 a, b, c)."""

import pytest
from camelhost.i18n import set_language
from camelhost.ui.tui import announce_text


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


def _grey(rule, camel="black"):
    move = {"camel": camel, "direction": -1, "distance": 2, "die": "grey", "ink": "black",
            "value": 2, "rule": rule, "unit": [camel], "from": 16, "to": 14}
    return [{"kind": "die", "move": move, "player": 0}]


@pytest.mark.parametrize("lang, banners", [
    ("en", {"a": "BLACK  BACKWARD 2  (the only crazy camel carrying racing camels)",
            "b": "BLACK  BACKWARD 2  (it sits directly on the other crazy camel)",
            "c": "BLACK  BACKWARD 2  (the numeral's colour)"}),
    ("de", {"a": "SCHWARZ  2 FELDER RÜCKWÄRTS  (das einzige verrückte Kamel, das Rennkamele "
                 "trägt)",
            "b": "SCHWARZ  2 FELDER RÜCKWÄRTS  (es sitzt direkt auf dem anderen verrückten Kamel)",
            "c": "SCHWARZ  2 FELDER RÜCKWÄRTS  (die Farbe der Ziffer)"}),
])
def test_the_grey_die_banner_gives_its_reason_for_every_rule(lang, banners):
    # tester 3: the German rule-(c) banner read 'BLACK RÜCKWÄRTS 2' with no reason
    set_language(lang)
    assert {rule: announce_text(_grey(rule), None).plain for rule in banners} == banners
    # a racing camel's die needs no reason
    racing = _grey(None, "red")
    racing[0]["move"].update(die="red", direction=1)
    assert announce_text(racing, None).plain.endswith(
        {"en": "FORWARD 2", "de": "2 FELDER VORWÄRTS"}[lang])


def _track_column(fix, rows, space=3, width=72):
    """The camel rows of ``space``'s column on the track drawn ``rows`` high (compact when
    a stack is taller), top row first, blank rows left out."""
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from camelhost.table.view import table_view
    from camelhost.ui.panels import CELL, track_text
    s = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=3, journal=Journal(None))
    s.command("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    s.command(fix)
    lines = track_text(table_view(s, odds=False), width=width, rows=rows).plain.splitlines()
    inner = max(4, min(CELL, width // 16))
    cells = [line[(space - 1) * inner:space * inner - 1] for line in lines[:-1]]
    return [c.strip() for c in cells if c.strip()]


def test_a_three_high_stack_is_drawn_one_way_in_the_compact_track():
    # tester 3: 'BPR' on one row when a taller stack needed the room, 'R' over 'B P'
    # when not; it is now as many camels a row as the space holds, whatever the height
    alone = _track_column("fix 3:blue,purple,red 5:yellow,green 14:black,white", rows=2)
    beside_taller = _track_column("fix 3:blue,purple,red 5:yellow,green,black,white", rows=1)
    assert alone == beside_taller == ["BPR"]
    # room for every camel: one a row, the bottom camel on the bottom row
    assert _track_column("fix 3:blue,purple,red 5:yellow,green 14:black,white",
                         rows=3) == ["red", "pur", "blu"]
