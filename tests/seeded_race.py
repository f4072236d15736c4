"""One seeded game the advice tests play to its late race: second edition, Ann, Ben, Cy,
Dee, seed 5; Ann takes only pyramid tickets, the others play as the coach plays (its
choices typed in). ``PILES`` stops at leg 5 with Ann to act, ``BEHIND`` goes on to the
race's likely last leg; ``played`` gives the ``Session`` either leads to."""

from camelhost.table.session import Session

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
#: Leg 5, Ann to act: one card on the winner pile, three on the loser pile (laid by the
#: others as the coach plays).
PILES = [SETUP,
    'pyramid', 'green 1', 'leg purple', 'leg purple', 'leg purple', 'pyramid', 'red 3',
    'leg purple', 'leg green', 'tile 4 +', 'pyramid', 'purple 2', 'leg yellow',
    'leg yellow', 'leg yellow', 'pyramid', 'yellow 3', 'leg yellow', 'pyramid',
    'grey black 1', 'leg purple', 'pyramid', 'grey white 2', 'leg purple', 'tile 8 -',
    'leg yellow', 'pyramid', 'blue 2', 'leg green', 'pyramid', 'red 1', 'leg green',
    'pyramid', 'yellow 2', 'pyramid', 'green 2', 'leg purple', 'leg purple', 'pyramid',
    'green 2', 'leg purple', 'leg purple', 'pyramid', 'purple 1', 'pyramid', 'yellow 2',
    'finish loser blue', 'finish loser blue', 'pyramid', 'blue 3', 'pyramid',
    'grey black 1', 'leg purple', 'leg green', 'leg red', 'pyramid', 'grey white 2',
    'leg purple', 'pyramid', 'purple 2', 'leg purple', 'pyramid', 'green 1', 'leg purple',
    'pyramid', 'yellow 2', 'finish winner purple', 'pyramid', 'blue 2', 'leg purple',
    'tile 13 +', 'leg red', 'pyramid', 'blue 3', 'finish loser yellow', 'leg blue',
    'leg green',
]
#: ``PILES`` played on: at its last command's end the race likely ends this leg and Ann,
#: 20 coins to Ben's 39, wins it in none of the play-outs.
BEHIND = PILES + [
    'pyramid', 'purple 2', 'leg purple', 'leg purple', 'tile 15 +', 'pyramid',
    'grey white 2', 'leg purple', 'pyramid', 'green 2', 'finish loser green', 'pyramid',
    'yellow 2', 'finish loser green', 'leg blue', 'finish winner blue',
]


def played(commands):
    """A new ``Session`` of this game (second edition, Ann, Ben, Cy, Dee, seed 5) with
    ``commands`` (``PILES`` or ``BEHIND``) typed in."""
    s = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=5)
    for line in commands:
        s.command(line)
    return s
