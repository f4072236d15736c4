"""The ``pyramid emulate`` console's keys driven without the emulator: the emulated
board's dice table (``DiceTableDriver`` over ``sim_table.Table``, seeded) stands for the
board, and a key's printed answer is read back (tests of the console's keys)."""

from camelhost.commands import emulate
from camelhost.device import virtual
from camelhost.device.emulated import sim_table
from camelhost.i18n import set_language


class Board:
    """The emulated board's dice table without the chip: each push returns what fell;
    ``placed``: the die the console put in the head (``p COLOUR``)."""

    def __init__(self, edition="second", seed=3):
        self.driver = type("Driver", (virtual.DiceTableDriver,), {
            "_push_content": lambda me, dice, wait, timeout: virtual.Released(dice)})()
        self.driver.table = sim_table.Table(edition, seed)
        self.edition = edition
        self.placed = None

    def place(self, label):
        self.placed = label

    def __getattr__(self, name):
        return getattr(self.driver, name)


def english():
    """The console's words in English, and English again after the test (a generator
    for ``pytest.fixture``)."""
    set_language("en")
    yield
    set_language("en")


def say(board, key, capsys):
    """What the console prints for ``key`` (a line as typed, without its Enter)."""
    assert emulate._press(board, key) is True
    return capsys.readouterr().out.strip()
