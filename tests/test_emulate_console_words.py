"""The ``pyramid emulate`` console takes either language's colour words, whatever its
own language (tester2 s35, finding 13): ``pyramid doctor --lang de`` and ``calibrate
--lang de`` tell the maker to type ``p rot`` in the emulator's terminal, which an
English console refused. The keys act on the emulated board's dice table
(``DiceTableDriver`` over ``sim_table.Table``, seeded), without the emulator."""

import emulate_console
import pytest
from camelhost.i18n import set_language

_Board = emulate_console.Board
_english = pytest.fixture(autouse=True)(emulate_console.english)
_say = emulate_console.say


@pytest.mark.parametrize("typed, label", [
    ("p rot", "red"), ("p lila", "purple"), ("p grau schwarz", "grey-black"),
    ("p grau-weiss", "grey-white"), ("p grün", "green"), ("p gruen", "green"),
    ("p red", "red"), ("p grey-black", "grey-black")])
def test_an_english_console_takes_the_german_words_doctor_asks_for(typed, label, capsys):
    board = _Board()
    said = _say(board, typed, capsys)
    assert board.placed == label, said
    assert said.startswith("the %s die is in the head" % label), said


def test_a_german_console_takes_the_english_words(capsys):
    set_language("de")
    board = _Board()
    said = _say(board, "p red", capsys)
    assert board.placed == "red" and "rot" in said, said


def test_in_and_out_take_either_language_too(capsys):
    board = _Board()
    assert "out of the pyramid" in _say(board, "out rot", capsys)
    assert "red" not in board.table.inside
    assert "back in the pyramid" in _say(board, "in rot", capsys)
    assert "red" in board.table.inside


def test_a_word_of_no_language_or_a_die_of_the_other_edition_is_still_refused(capsys):
    board = _Board("classic")
    assert _say(board, "p rosa", capsys).startswith("no die 'rosa' in the classic edition")
    assert _say(board, "p rot", capsys).startswith("no die 'rot' in the classic edition")
    assert board.placed is None
