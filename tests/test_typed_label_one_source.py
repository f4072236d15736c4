"""``pyramid monitor --place`` and the ``pyramid emulate`` console read a die's label as
typed by a maker from one source, ``camelhost.table.manual.typed_label`` (closing35:
monitor built its own word table beside emulate's ``console_label``, and the two read
different things: ``grau schwarz`` with a space at the console, refused by ``--place``)."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.table.manual import typed_label
from camelhost.tools.monitor import shown_label
from emulate_console import Board, say


@pytest.fixture(autouse=True)
def _english_after():
    set_language("en")
    yield
    set_language("en")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_typed_label_is_read_in_either_language_whatever_the_tables(lang):
    set_language(lang)
    for typed, label in [("lila", "purple"), ("purple", "purple"), ("ROT", "red"),
                         ("gruen", "green"), ("grün", "green"), ("grau-schwarz", "grey-black"),
                         ("grau schwarz", "grey-black"), ("Grey White", "grey-white"),
                         ("red+lila", "red+purple"), ("grau-weiss+blau", "grey-white+blue"),
                         ("empty", "empty"), ("", "")]:
        assert typed_label(typed) == label, typed
    assert typed_label("Pink") == "pink"  # unknown: as typed, lower case, to be refused


@pytest.mark.parametrize("lang", ["en", "de"])
def test_typed_label_reads_back_every_label_the_maker_tools_show(lang):
    # what the monitor and calibrate show (the table's language) is what a maker types
    from camelup.board import classifier
    set_language(lang)
    for labels in classifier.EDITION_CLASSES.values():
        for label in labels:
            assert typed_label(shown_label(label)) == label


def test_monitor_place_reads_the_grey_die_typed_with_a_space_as_the_console_does(capsys):
    # refused for the edition (the classic edition has no grey die), not for the words,
    # before any board is started: the words were read as the label grey-black
    assert cli.main(["monitor", "--port", "virtual", "--place", "grau schwarz",
                     "--edition", "classic"]) != 0
    err = capsys.readouterr().err.strip()
    assert err == ("pyramid: --place grau schwarz: the classic edition has no grey-black die "
                   "(its dice: blue green orange yellow white; --edition chooses the "
                   "edition)"), err


def test_the_emulate_console_and_monitor_place_take_the_same_words(capsys):
    board = Board("second")
    for typed in ("lila", "grau schwarz", "GRAU-WEISS", "rot", "blue"):
        label = typed_label(typed)
        said = say(board, "p " + typed, capsys)
        assert board.placed == label, (typed, said)
        assert said == "the %s die is in the head (it stays there until the next push or p)" % (
            label)
