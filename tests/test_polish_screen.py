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
    ("de", {"a": "BLACK  RÜCKWÄRTS 2  (das einzige verrückte Kamel, das Rennkamele trägt)",
            "b": "BLACK  RÜCKWÄRTS 2  (es sitzt direkt auf dem anderen verrückten Kamel)",
            "c": "BLACK  RÜCKWÄRTS 2  (die Farbe der Ziffer)"}),
])
def test_the_grey_die_banner_gives_its_reason_for_every_rule(lang, banners):
    # tester 3: the German rule-(c) banner read 'BLACK RÜCKWÄRTS 2' with no reason
    set_language(lang)
    assert {rule: announce_text(_grey(rule), None).plain for rule in banners} == banners
    # a racing camel's die needs no reason
    racing = _grey(None, "red")
    racing[0]["move"].update(die="red", direction=1)
    assert announce_text(racing, None).plain.endswith("2")
