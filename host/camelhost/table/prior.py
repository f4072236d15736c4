"""The dice out this leg, told to the pyramid (issue 32, docs/classifier.md "In play").

Within a leg each die leaves the pyramid once (RULES 1.4), so a reading the pyramid
refuses between two dice, one of which is already out, can only be the other. The
board judges its readings (its profile, settings and LED drift are on the board alone);
the table knows the leg (setup, undo, resume). So the table tells the board which dice
are out (``OUT <mask>``, docs/protocol.md) after every journal write, and the board
judges a reading it refuses alone once more among the dice still in the pyramid; a die
named so comes back with the mask it was judged with (``out=``), and the table takes
it only while that mask is the leg's (``stale``).

``DiceOut(link)`` is a ``camelhost.table.display.Display`` of the table's seam: its
``changed(view)`` sends the view's dice out. A ``Table`` given the pyramid's link
subscribes it (the one place: ``pyramid play`` and ``pyramid demo`` alike), and the
link sends the last mask again when a rebooted board says hello
(``camelhost.device.sequencer.Sequencer.told_out``). A board that does not know ``OUT`` (an
older firmware) answers ``NAK unknown``: nothing changes, every reading is judged alone.
"""

import logging

from camelup.editions import get_edition

from camelhost.device.events import out_mask
from camelhost.table.display import Display

log = logging.getLogger(__name__)


def leg_mask(view):
    """The wire's mask of the dice out this leg in ``view`` (``table_view``: its
    ``edition`` and ``dice_out``), 0 before a game or between legs."""
    edition = view.get("edition")
    if not edition:
        return 0
    return out_mask(get_edition(edition), view.get("dice_out") or ())


class DiceOut(Display):
    """Tells the pyramid behind ``link`` (a ``camelhost.device.link.Link``) the dice out
    this leg after every change of the table (and when subscribed): every time, not only
    when they change (the link also says them again to a board that rebooted, at its
    hello). A link that is down is let be (it reconnects; until then the
    board judges each reading alone)."""

    def __init__(self, link):
        self.link = link
        self.sent = None  # the last mask sent

    def changed(self, view):
        mask = leg_mask(view)
        try:
            self.link.send("OUT", mask=mask)
        except OSError as exc:  # LinkError: the port is closed or reconnecting
            log.info("dice out not told to the pyramid: %s", exc)
            return
        self.sent = mask
