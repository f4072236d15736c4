"""The grey die's label (``grey-black``, ``grey-white``) is written in one place,
``camelup.editions`` (``die_label``, ``split_die_label``, ``LABEL_JOIN``, ``INKS``,
RULES 3.1): the maker tools' words for a label and the table's reading of an unread grey
die's ``best`` follow it (s36: both wrote the join or the labels by hand)."""

import pytest
from camelhost.device.events import GREY_BEST, decode
from camelhost.i18n import set_language
from camelhost.tools.monitor import shown_label
from camelup import editions
from camelup.board import protocol


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def test_the_monitor_shows_a_grey_label_in_words_joined_as_the_label_is(monkeypatch):
    set_language("de")
    assert shown_label("grey-white") == "grau-weiß" and shown_label("purple") == "lila"
    # the join is the editions' own: a label joined another way is still taken apart
    monkeypatch.setattr(editions, "LABEL_JOIN", "/")
    label = editions.die_label("grey", "black")
    assert label == "grey/black"
    assert shown_label(label) == "grau/schwarz"
    assert shown_label("red") == "rot"


def test_an_unread_grey_die_s_best_names_each_ink_by_its_label():
    assert GREY_BEST == {editions.die_label(editions.GREY, ink): ink for ink in editions.INKS}
    for ink in editions.INKS:  # the pyramid's line, read: only the ink is asked
        line = protocol.encode("EVT", "unknown", seq=1, boot="0A9B0E33",
                               best=editions.die_label(editions.GREY, ink), val=2,
                               raw=(17, 13, 2, 1))
        assert GREY_BEST[decode(line[:-1]).best] == ink
