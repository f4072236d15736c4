"""camelup: the Camel Up rules engine, notation, odds and wire protocol.

Pure Python shared by the host program (CPython 3.11+) and the pyramid firmware
(MicroPython). Nothing here may import ``enum``, ``dataclasses``, ``typing``,
``functools`` or ``itertools`` at run time, or rely on dict order or a stable sort.
"""

__version__ = "0.1.0"
