"""``release`` typed after the race has ended (tester s35 finding 4): it said "no die is
wanted now", never that the race is over nor what can be done; now one line says both,
in the table's language, and nothing changes."""

import pytest
from camelhost.i18n import set_language
from typed_table import refusal, typed_table

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


class _UntouchedPyramid:
    """The virtual pyramid, as the table drives it: its slider must not be pushed here."""

    def release(self, *args, **kwargs):
        raise AssertionError("the slider was pushed after the race")

    release_double = release_empty = release

    def return_dice(self):
        """A new leg: the dice go back in (the table asks this of it)."""


def _ended(lang, end="over"):
    """A second-edition race run to its end by typed dice (or ended ``unscored``), at a
    table speaking ``lang`` with the virtual pyramid."""
    set_language(lang)
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP,
                             pyramid=_UntouchedPyramid())
    session = table.session
    if end == "unscored":
        table.line("unscored")
    while session.phase not in ("over", "unscored"):
        table.line("pyramid")
        die = next(d for d in session.game.dice_in_pyramid() if d != "grey")
        table.line("%s 3" % die)
    assert session.phase == end
    return table, out


@pytest.mark.parametrize("lang, end, said", [
    ("en", "over", "release: the race is over: 'again' starts another race with the same "
                   "seats, 'quit' leaves the table"),
    ("de", "over", "release: das Rennen ist vorbei: 'again' startet ein neues Rennen mit "
                   "denselben Plätzen, 'quit' verlässt den Tisch"),
    ("en", "unscored", "release: the race was ended unscored: 'again' starts another race, "
                       "'quit' leaves the table"),
    ("de", "unscored", "release: das Rennen wurde ohne Wertung beendet: 'again' startet ein "
                       "neues Rennen, 'quit' verlässt den Tisch")])
def test_release_after_the_race_says_it_is_over_and_what_can_be_done(lang, end, said):
    table, out = _ended(lang, end)
    version = table.session.version
    assert refusal(table, out, "release") == said  # one line, nothing journaled
    assert table.session.version == version and table.session.phase == end
