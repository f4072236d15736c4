"""``pyramid play --pyramid PORT`` on an emulated Pico whose ``pyramid emulate`` recorded
its dice (maker s44, finding 2, as doctor and monitor): the board's edition check read the
port of a stand-in that had none and play ended in a traceback before the first die
(make emu's race through a separate emulate process). It plays the dice's edition and
refuses another in one line naming how to play them."""

import pytest
from camelhost.commands import play
from camelhost.errors import CliError
from pty_board import EMULATED_UID as EMULATED


class _Link:
    slowness = 1.0

    def __init__(self, hello):
        self.hello = hello

    def wait_hello(self, timeout=None):
        return self.hello


class _Pyramid:
    virtual = None

    def __init__(self, port, ed):
        self.port = port
        self.link = _Link({"ed": ed, "uid": EMULATED, "boot": "AAAAAAAA", "seq": 0})
        self.closed = False

    def close(self):
        self.closed = True


@pytest.fixture
def emulated(emulated_dice):
    """``make(dice, ed)``: an emulated Pico with the dice ``dice`` in its table
    (``emulated_dice``, conftest), its firmware set to ``ed``."""
    return lambda dice, ed: _Pyramid(emulated_dice(dice), ed)


def test_play_on_an_emulated_pico_of_its_own_dice_goes_on(emulated):
    pyramid = emulated("second", ed="second")
    play._check_board_edition(pyramid, "second")
    assert not pyramid.closed


def test_play_on_an_emulated_pico_with_other_dice_is_one_line_naming_them(emulated):
    pyramid = emulated("classic", ed="classic")
    with pytest.raises(CliError) as err:
        play._check_board_edition(pyramid, "second", typed=True)
    text = str(err.value)
    assert "\n" not in text and pyramid.closed
    assert text == ("--edition second: the dice in the emulated Pico on %s are the classic "
                    "edition's: play them with --edition classic (or leave --edition out), "
                    "or start an emulated Pico with the second edition's dice: pyramid "
                    "emulate --edition second" % pyramid.port)
