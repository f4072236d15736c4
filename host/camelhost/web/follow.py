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

An ``undo`` (or a ``redo``) moves coins, tickets and camels back with no die to show
for it: the board adds the table's own notice of it to the views it publishes, as
``"undo": text`` (the table's words of it in the table's language, in their brief form
for watchers: a leg's scoring taken back is one clause, its coins and tickets for each
player left to the table's own screen, so the page keeps to one screen; without the
hint to type ``redo``, which is for the one typing), until the next event; every other
view has ``"undo": None``.

Only public facts are published: the shared view model gives finish piles as sizes
until the race is over (RULES 1.8, 5). ``camelhost.web.replay`` steps through a
finished game instead.
"""

import threading

from camelhost.table.display import IN_PLAY, Display, advice_key


def undo_words(notices, replay=False):
    """The words of the undo or redo among ``notices`` (a session's notices of one
    event: ``camelhost.table.session``'s ``undo`` and ``redo`` each give one ``info``
    notice with its ``dice_moves``), in their brief form for watchers (an undo's
    ``brief``: ``camelhost.table.narration.undone_steps``, a redo's: ``redone_steps``),
    as the plain table starts them (``undone: ...``, German
    ``Zurückgenommen: ...``), without the hint to type ``redo``; with ``replay`` (a
    replay's page: nobody there holds a pyramid) without the dice to put back in it or
    take out of it (the notice's ``replayed``); after a ``rename`` that came right after
    them (only renames since), those words again in the new names (the rename's notice
    carries them as its ``undo``: the notice stays until the next action, docs/web.md);
    ``None`` when there is none."""
    for notice in notices or ():
        if notice.get("kind") == "info" and "dice_moves" in notice and notice.get("text"):
            if replay and notice.get("replayed"):
                return notice["replayed"]
            return notice.get("brief") or notice["text"]
        kept = notice.get("undo")
        if kept:  # a rename's: the undo's or redo's words, said in the new name
            return kept["replayed"] if replay else kept["brief"]
    return None


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
        self.published = None  # what was last published (the view, odds or not, undo)
        self.undo = None  # (race, version, words) of the view an undo or redo made
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

    def _undo_of(self, view):
        """The undo's or redo's words when ``view`` is the position it made, else None."""
        undo = self.undo
        if undo is not None and undo[:2] == (view["race"], view["version"]):
            return undo[2]
        return None

    def _publish(self, view):
        self.published = view
        self.board.publish(view)

    def changed(self, view):
        with self._lock:
            self.shown = view
            undo = self._undo_of(view)
            if undo is None:
                self.undo = None  # the next event: the notice has had its time
            if view["phase"] not in IN_PLAY:
                self._publish(dict(view, undo=undo))
                return
            # The die first, the odds a moment later: working them out takes a few
            # hundred milliseconds, and the table should not wait for them to see the die.
            self._publish(dict(view, odds_pending=True, undo=undo))

    def notices(self, notices, view):
        # the table tells its displays what just happened after the view is published:
        # an undo's or redo's words go onto the page of the position it made
        words = undo_words(notices)
        with self._lock:
            shown = self.shown
            if words is None or shown is None:
                return
            self.undo = (shown["race"], shown["version"], words)
            if self.published is not None:
                self._publish(dict(self.published, undo=words))

    def advice(self, advice):
        with self._lock:
            view = self.shown
            if view is None or view["phase"] not in IN_PLAY or advice_key(view) != advice.key:
                return  # the game moved on: no odds for a position that is gone
            self._publish(dict(view, odds=advice.odds, undo=self._undo_of(view)))
