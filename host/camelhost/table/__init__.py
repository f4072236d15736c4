"""camelhost.table: one game at the table.

``events`` (the table's events as typed values, and the one conversion from the
link's ``DieEvent``), ``session`` (events applied to a ``camelup.game.Game``), ``journal``
(the append-only record a game resumes from), ``display`` (the ``Display`` contract and
the ``Seam``: one fan-out to every display after each journal write, one odds worker),
``bots`` (seats the program plays), ``manual`` (typed dice) and ``controller`` (the
input loop joining a device, a session and the seam). May import ``camelup``, ``camelhost.device`` and
``camelhost.errors``; never ``ui`` or ``commands``.
"""
