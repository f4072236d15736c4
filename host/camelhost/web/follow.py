"""The live board: a display of the table, fed by the table's one seam.

``LiveBoard(board, seam)`` subscribes to the table's ``camelhost.table.display.Seam``:
after every event the table writes to its journal, the seam hands it the public view
(``camelhost.table.view.table_view``, built once for every display) and the board
streams it to every page at once without its odds (``"odds": None``,
``"odds_pending": True``: the page keeps the previous odds, dimmed); the odds and
advice the seam's worker works out for that position follow (an
``camelhost.table.display.Advice``), published only while the position they were
computed for is still the latest (a position already gone gets none). The live board
never builds a session of its own and never reads the session from another thread: the
view comes from the seam, on the table's thread.

Only public facts are published: the shared view model gives finish piles as sizes
until the race is over (RULES 1.8, 5). ``camelhost.web.replay`` steps through a
finished game instead.
"""

import threading

from camelhost.table.display import IN_PLAY, Display, advice_key


class LiveBoard(Display):
    """Publishes the table's views on ``board`` (a ``camelhost.web.server.WebBoard``)
    while subscribed to ``seam``. ``start()`` subscribes (the table as it stands is
    published at once), ``stop()`` ends it; a context manager. ``wait_idle(timeout)``
    blocks until the odds of the latest position are worked out and published (tests,
    benchmarks)."""

    wants_advice = True

    def __init__(self, board, seam):
        self.board = board
        self.seam = seam
        self.shown = None  # the view last published (without its odds)
        self._lock = threading.Lock()

    def start(self):
        self.seam.subscribe(self)
        return self

    def stop(self):
        self.seam.unsubscribe(self)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    def wait_idle(self, timeout=30.0):
        """True once the seam's worker is idle (the odds of the latest view are on the
        board); False on timeout."""
        self.seam.catch_up()
        return self.seam.wait_idle(timeout)

    def changed(self, view):
        with self._lock:
            self.shown = view
            if view["phase"] not in IN_PLAY:
                self.board.publish(view)
                return
            # The die first, the odds a moment later: working them out takes a few
            # hundred milliseconds, and the table should not wait for them to see the die.
            self.board.publish(dict(view, odds_pending=True))

    def advice(self, advice):
        with self._lock:
            view = self.shown
            if view is None or view["phase"] not in IN_PLAY or advice_key(view) != advice.key:
                return  # the game moved on: no odds for a position that is gone
            self.board.publish(dict(view, odds=advice.odds))
