"""Release state machine: from a slider push to one reported outcome.

Sequence (ARCHITECTURE "Data flow"): the slider is pushed, a die falls into the
pyramid's head and settles, the colour sensor is read repeatedly, and when
``stable`` consecutive readings agree the die is classified. Outcomes:

* ``die``: a die colour (label as the classifier gives it, ``camelup.editions.die_label``: ``red``,
  ``grey-black``), stable for ``stable`` readings;
* ``double``: two dice in the head (the seed's "pyramid releases two dice"),
  stable for ``stable`` readings, so the table can re-release;
* ``unknown``: at the timeout, a die is there (most readings since settling are
  not of an empty head) but no colour was stable (a rejected reading never ends
  a release early: a dim empty head throws the odd one too);
* ``nodie``: nothing stable by ``timeout_ms`` after the push and most readings
  since settling showed an empty head.

Each reading comes as its verdict record (``verdict``: label, margin, counts); the
outcome is the record that decided, with its kind, and the event log numbers that
same record into the ``EVT`` line (one form from the classifier to the wire).

Pure logic with an injected clock (``now`` in ms is passed in), so it is tested
on CPython and MicroPython without hardware; the application feeds it readings.
"""

from pyramid.compat import ticks_diff

IDLE = 0
SETTLING = 1
READING = 2

EMPTY = "empty"
UNKNOWN = "unknown"
DOUBLE = "double"


class Release:
    """One release at a time: ``start(now)``, then ``feed(...)`` until it returns an outcome.

    ``settle_ms``: after the push, readings are ignored for this long (the die is
    still falling or rolling), ms >= 0. ``timeout_ms``: no stable die by then ->
    ``nodie`` (head empty) or ``unknown`` (something there), ms > settle_ms.
    ``stable``: consecutive agreeing readings needed (>= 1).

    ``period_ms`` (set before ``start``): the nominal length of one reading (ms > 0,
    ``ColourSensor.sample_ms``). When set, a release's time is counted in readings:
    the n-th reading fed is taken at ``n * period_ms``, whatever the clock says, so
    a CPU slowed down by other work (the virtual pyramid on a loaded machine)
    decides on the same readings as an idle board; an idle board's clock agrees to
    within the polling latency. ``None``: the clock passed to ``feed`` decides.
    """

    def __init__(self, settle_ms=150, timeout_ms=1500, stable=3):
        if stable < 1 or timeout_ms <= settle_ms:
            raise ValueError("need stable >= 1 and timeout_ms > settle_ms")
        self.settle_ms = settle_ms
        self.timeout_ms = timeout_ms
        self.stable = stable
        self.period_ms = None
        self.state = IDLE
        self._fed = 0  # readings fed since start
        self._t0 = 0
        self._label = None
        self._count = 0
        self._empty = 0  # readings of an empty head since settling
        self._full = 0  # readings of anything else
        self._best = None  # the last verdict record not of an empty head

    def start(self, now):
        """The slider was pushed at ``now`` (ms): begin a new release (an old one is dropped)."""
        self.state = SETTLING
        self._t0 = now
        self._fed = 0
        self._label = None
        self._count = 0
        self._empty = 0
        self._full = 0
        self._best = None

    def busy(self):
        """True between ``start`` and the outcome."""
        return self.state != IDLE

    def feed(self, now, record):
        """Give one classified reading taken at ``now`` (ms): its ``verdict`` record.

        ``record["label"]``: a die label, ``"empty"``, ``"unknown"`` or ``"double"``;
        ``record["m"]``: the classifier's margin (hundredths of a sigma);
        ``record["raw"]``: the raw (c, r, g, b) counts.
        Returns ``None`` while undecided, else the outcome: the record that decided
        (the last reading, or for ``unknown`` the last one not of an empty head), its
        ``"kind"`` set to ``"die"``, ``"double"``, ``"unknown"`` or ``"nodie"`` and its
        ``"label"`` to the die (``die``), the nearest die (``unknown``, or ``None``) or
        ``None``; ``m`` is 0 for ``nodie``. That same record is what the event log
        numbers (``EventLog.append``).
        Raises ``ValueError`` when no release was started.
        """
        if self.state == IDLE:
            raise ValueError("feed() without start()")
        self._fed += 1
        if self.period_ms:
            elapsed = self._fed * self.period_ms
        else:
            elapsed = ticks_diff(now, self._t0)
        if elapsed < self.settle_ms:
            return None
        self.state = READING
        label = record["label"]
        if label == self._label:
            self._count += 1
        else:
            self._label = label
            self._count = 1
        if label == EMPTY:
            self._empty += 1
        else:
            self._full += 1
            self._best = record
        if self._count >= self.stable and label != EMPTY and label != UNKNOWN:
            return self._finish("double" if label == DOUBLE else "die", record)
        if elapsed >= self.timeout_ms:
            # a dim empty head can throw the odd unclassifiable reading: the majority decides
            best = self._best
            if self._full <= self._empty or best is None:  # best: kept whenever _full > 0
                record["m"] = 0
                return self._finish("nodie" if self._full <= self._empty else "unknown", record, None)
            best_label = best["label"]
            return self._finish("unknown", best, best_label if best_label not in (UNKNOWN, DOUBLE) else None)
        return None

    def _finish(self, kind, record, label=None):
        self.state = IDLE
        record["kind"] = kind
        if kind != "die":
            record["label"] = label
        return record


def verdict(label, margin=0, reading=None):
    """The record of one classified reading: ``{"label": label, "m": margin, "raw":
    reading}`` (``margin`` in hundredths of a sigma, the ``EVT``'s ``m=``; ``reading``
    the (c, r, g, b) counts). ``Release.feed`` takes it, hands the deciding one on as
    the outcome, and the event log numbers that same record: one form from the
    classifier's verdict to the ``EVT`` line."""
    return {"label": label, "m": margin, "raw": reading}
