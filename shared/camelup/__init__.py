"""camelup: the Camel Up rules engine, odds, wire protocol and colour classifier.

Pure Python shared by the host program (CPython 3.11+) and the pyramid firmware
(MicroPython). Nothing here may import ``enum``, ``dataclasses``, ``typing``,
``functools`` or ``itertools`` at run time, or rely on dict order or a stable sort.

The package is split by where its code runs (docs/architecture.md):

- ``editions`` and ``errors``: the facts of each edition; everywhere, the board included.
- ``board``: exactly what is flashed besides the editions (wire protocol, classifier,
  sensor arithmetic, default profiles).
- ``game``, ``actions``, ``movement``, ``scoring``, ``notation``, ``transcript``,
  ``rng``, ``randomplay``: the rules engine (host and MicroPython unix port).
- ``odds``: leg, race and action odds over the engine.
- ``scenario``, ``scenario_odds``: the strict scenario language.
- ``calibration``: fitting a classifier profile; host-only, never flashed.

This file imports nothing, so ``import camelup.board.protocol`` on the board loads
the board's modules and no more. Import each name from its module
(``from camelup.game import Game``; docs/api.md).
"""

__version__ = "0.1.0"
