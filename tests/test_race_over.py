"""One message after the race (s35): every command the table can't take then says the race
is over and both ways on, 'again' and 'quit', ``release`` as ``pyramid`` and ``leg red``
(before, ``pyramid`` left 'quit' out while ``release`` said it), from one place
(``narration.phase_hint``)."""

import pytest
from camelhost.i18n import set_language
from typed_table import ended_table, refusal


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    set_language("en")


class _Untouched:
    """The virtual pyramid: its slider must not be pushed after the race."""

    def release(self, *args, **kwargs):
        raise AssertionError("the slider was pushed after the race")

    release_double = release_empty = release

    def return_dice(self):
        """A new leg: the dice go back in."""


def _ended(lang, end):
    return ended_table(lang, end, pyramid=_Untouched())


@pytest.mark.parametrize("lang, end, said", [
    ("en", "over", "the race is over: 'again' starts another race with the same seats, "
                   "'quit' leaves the table"),
    ("en", "unscored", "the race was ended unscored: 'again' starts another race, 'quit' "
                       "leaves the table"),
    ("de", "over", "das Rennen ist vorbei: 'again' startet ein neues Rennen mit denselben "
                   "Plätzen, 'quit' verlässt den Tisch"),
    ("de", "unscored", "das Rennen wurde ohne Wertung beendet: 'again' startet ein neues "
                       "Rennen, 'quit' verlässt den Tisch"),
])
def test_after_the_race_pyramid_and_release_say_the_same_both_ways_on(lang, end, said):
    table, out = _ended(lang, end)
    version = table.session.version
    assert refusal(table, out, "pyramid") == said
    assert refusal(table, out, "leg red") == said
    assert refusal(table, out, "release") == "release: " + said
    assert table.session.version == version and table.session.phase == end
