"""Table model: the dice inside the simulated pyramid and what a slider push releases.

RULES 1.4: the pyramid releases one die, uniformly among those still inside;
faces 1,1,2,2,3,3 (each value 1/3). Second edition (RULES 3.1, 3.4): six dice,
the grey one showing a black or a white numeral. The seed's "pyramid releases
two dice" and a jammed slider that releases nothing are modelled too. At leg end
(RULES 1.12) the revealed dice go back inside (``return_dice``).

Host-side only (CPython): it lives in the launcher (``camelhost.device.virtual``), not in
the firmware process, so the dice survive a reboot of the simulated board.
"""

import random

from camelup.editions import EDITIONS, GREY, INKS

#: Dice in the box, per edition (``Edition.dice``; the grey die's label adds its numeral ink).
DICE = {}
for _name in EDITIONS:
    DICE[_name] = EDITIONS[_name].dice


class Table:
    """Dice inside the pyramid. ``edition``: ``classic`` or ``second``; ``seed``: int.

    Each release returns a list of ``(label, value)``: label as the classifier
    names it (``red``, ``grey-white``), value 1..3. Raises ``ValueError`` for an
    unknown edition.
    """

    def __init__(self, edition="second", seed=0):
        if edition not in DICE:
            raise ValueError("edition %r is not one of %s" % (edition, ", ".join(sorted(DICE))))
        self.edition = edition
        self.rng = random.Random(seed)
        self.inside = list(DICE[edition])
        self.out = []

    def _take(self):
        die = self.rng.choice(self.inside)
        self.inside.remove(die)
        self.out.append(die)
        label = die
        if die == GREY:
            label = GREY + "-" + self.rng.choice(INKS)
        return (label, self.rng.randint(1, 3))

    def release(self):
        """One die falls out (none when the pyramid is empty)."""
        return [self._take()] if self.inside else []

    def release_double(self):
        """Two dice fall out together (fewer when fewer are inside)."""
        got = []
        for _ in range(2):
            if self.inside:
                got.append(self._take())
        return got

    def release_empty(self):
        """The slider is pushed but nothing falls (a jam)."""
        return []

    def return_dice(self):
        """Leg end: every die goes back inside."""
        self.inside = list(DICE[self.edition])
        self.out = []
