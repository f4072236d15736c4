"""How many examples the long property tests draw (one place for the rule).

``make test``, the suite a change runs before it lands, draws a quarter of each long
property test's examples; ``make deep`` draws all of them (``PYRAMID_TEST_DEPTH=full``)
and CI runs it after ``make test`` (``.ci/run``), so every example still runs before
``main`` moves. The examples are derandomised (``derandomize=True`` or fixed seeds):
the same ones every run at either depth. A test that uses this carries the ``deep``
marker, so ``make deep`` finds it.
"""

import os

#: ``full`` draws every example (``make deep``); anything else a quarter of them
FULL = os.environ.get("PYRAMID_TEST_DEPTH", "") == "full"


def examples(n):
    """``n`` at full depth, else a quarter of it (at least 1): the example count for a
    property test written for ``n`` examples."""
    return n if FULL else max(1, n // 4)
