"""The virtual pyramid's dice without the firmware, for tests of the table and the
screen: a seeded ``sim_table.Table`` behind ``virtual.DiceTableDriver``. Each push
records what fell; the test hands that die to the table (or the screen) as the link
would, when it chooses: a die on its way until then."""

from camelhost.device import virtual
from camelhost.device.emulated import sim_table
from camelhost.device.events import DieEvent


class SeededPyramid(virtual.DiceTableDriver):
    """Second-edition dice drawn from ``seed``; ``fell``: a list, one entry a push, each
    the ``((label, value),)`` that push released."""

    def __init__(self, seed=9):
        self.table = sim_table.Table("second", seed)
        self.fell = []

    def _push_content(self, dice, wait, timeout):
        self.fell.append(dice)
        return virtual.Released(dice)


def arrives(target, pyramid, push=-1):
    """The die of push ``push`` (default the last) reaches ``target`` (a ``Table`` or the
    full screen: anything with ``pyramid_event``) as the link reports it, sequence
    number the push's (1 for the first). Returns ``(label, value)`` of that die."""
    (label, value), = pyramid.fell[push]
    colour, _, ink = label.partition("-")
    seq = len(pyramid.fell) + push + 1 if push < 0 else push + 1
    target.pyramid_event(DieEvent("die", "B1", seq, "EVT %d die" % seq, colour=colour,
                                  ink=ink or None, value=value))
    return label, value
