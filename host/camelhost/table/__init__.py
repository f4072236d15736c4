"""camelhost.table: one game at the table.

``session`` (typed commands and dice applied to a ``camelup.game.Game``), ``journal`` (the
append-only record a game resumes from), ``bots`` (seats the program plays),
``manual`` (typed dice) and ``controller`` (the input loop joining a device, a
session and a display). May import ``camelup``, ``camelhost.device`` and
``camelhost.errors``; never ``ui`` or ``commands``.
"""
