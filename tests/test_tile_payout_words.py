"""Tester s35 finding 4: the full screen's die banner said a tile's payout as
``; es zahlt Dee 1 EP.`` ("Dee pays 1 EP", German puts ``es`` first) and in English
``; it pays Dee 1 coin.``: the owner receives the coin (RULES 1.5). It is said as plain
mode says it, ``Dee +1 coin`` / ``Dee +1 EP``, in both languages."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.tui import detail_text


@pytest.fixture
def lang():
    yield set_language
    set_language("en")


def _banner(side):
    s = Session("second", ["Ann", "Bob", "Cy"])
    s.command("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    s.command("tile 4 %s" % side)   # Ann's tile on 4
    notices = s.command("yellow 1")  # Bob's die: yellow (carrying purple) 3 -> 4
    return str(detail_text(notices, table_view(s, odds=False)))


@pytest.mark.parametrize("language, side, ending", [
    ("en", "-", "back 1 to 3; Ann +1 coin."),
    ("en", "+", "on to 5; Ann +1 coin."),
    ("de", "-", "1 zurück auf 3; Ann +1 EP."),
    ("de", "+", "weiter auf 5; Ann +1 EP.")])
def test_the_tiles_owner_is_said_to_receive_the_coin(lang, language, side, ending):
    lang(language)
    banner = _banner(side)
    assert banner.endswith(ending), banner
    assert "pays" not in banner and "zahlt" not in banner, banner
