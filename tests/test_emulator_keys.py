"""The ``pyramid emulate`` console's keys for one die (``in COLOUR``, ``out COLOUR``) and
the face a push says (testers s35, findings 8 and 9): what the table asks of the
pyramid's dice ("put the grey die back in the pyramid", "take the red die out") can be
done at the emulated board, and the value the table asks for is the one the console
said. The keys act on the emulated board's dice table (``DiceTableDriver`` over
``sim_table.Table``, seeded), without the emulator."""

import emulate_console
import pytest
from camelhost.commands import emulate
from camelhost.device.emulated import sim_table
from camelhost.i18n import set_language

_Board = emulate_console.Board
_english = pytest.fixture(autouse=True)(emulate_console.english)
_say = emulate_console.say


def _push_all(board, capsys):
    """Push until the pyramid is empty; the dice said, as ``(label, value)``."""
    said = []
    while board.dice_inside:
        line = _say(board, "", capsys)
        label, value = line.split(": ", 1)[1].split()
        said.append((label, int(value)))
    return said


def test_a_push_says_the_face_the_table_drew(capsys):
    board = _Board()
    twin = sim_table.Table("second", 3)  # the same seed: the same dice, the same faces
    for _ in range(6):
        (label, value), = twin.release()
        assert _say(board, "", capsys) == "slider pushed: %s %d" % (label, value)
    assert _say(board, "", capsys).startswith("slider pushed: nothing fell")


def test_out_takes_one_die_out_so_no_push_releases_it_and_in_puts_it_back(capsys):
    board = _Board()
    assert _say(board, "out red", capsys) == "the red die is out of the pyramid (in red puts it back)"
    assert "red" not in board.dice_inside
    assert "red" not in [label for label, _v in _push_all(board, capsys)]
    assert _say(board, "in red", capsys) == "the red die is back in the pyramid"
    assert board.dice_inside == ["red"]
    label, value = _say(board, "", capsys).split(": ")[1].split()
    assert label == "red" and value in ("1", "2", "3")


def test_the_grey_die_put_back_at_setup_comes_out_again_with_an_ink(capsys):
    # the second edition's setup: the grey die placed the black camel and goes back in
    board = _Board()
    labels = [label for label, _v in _push_all(board, capsys)]
    assert any(label.startswith("grey-") for label in labels)
    assert _say(board, "in grey", capsys) == "the grey die is back in the pyramid"
    assert board.dice_inside == ["grey"]
    assert _say(board, "", capsys).split(": ")[1].split()[0] in ("grey-black", "grey-white")
    # its ink typed too, as p takes it: the same die
    assert _say(board, "in grey-white", capsys) == "the grey die is back in the pyramid"
    assert _say(board, "in grey", capsys) == "the grey die is already in the pyramid"
    assert board.dice_inside == ["grey"]


def test_a_die_already_where_asked_or_unknown_changes_nothing_in_one_line(capsys):
    board = _Board()
    before = (list(board.table.inside), list(board.table.out))
    assert _say(board, "in blue", capsys) == "the blue die is already in the pyramid"
    assert _say(board, "in pink", capsys) == (
        "no die 'pink' in the second edition: in and one of blue, green, yellow, red, purple, grey")
    assert _say(board, "out", capsys) == (
        "out names a die: out and one of blue, green, yellow, red, purple, grey")
    classic = _Board("classic")
    assert _say(classic, "out grey", capsys).startswith("no die 'grey' in the classic edition: out and one of")
    assert (board.table.inside, board.table.out) == before
    _say(board, "out blue", capsys)
    assert _say(board, "out blue", capsys) == "the blue die is already out of the pyramid"


def test_in_and_out_take_the_tables_colour_words_in_german(capsys):
    set_language("de")
    board = _Board()
    out = _say(board, "out rot", capsys)
    assert "red" not in board.dice_inside and "rot" in out and "red" not in out
    assert "rot" in _say(board, "in rot", capsys) and "red" in board.dice_inside
    assert emulate._press(board, "") is True
    colour, value = capsys.readouterr().out.strip().split(": ")[1].split()
    assert value in ("1", "2", "3") and colour not in ("red", "blue", "green", "yellow", "purple")


def test_the_keys_line_and_an_unknown_key_name_in_and_out(capsys):
    assert "in COLOUR puts that one die back in the pyramid, out COLOUR takes it out" in emulate.keys_line()
    assert "in COLOUR, out COLOUR" in _say(_Board(), "inn", capsys)
