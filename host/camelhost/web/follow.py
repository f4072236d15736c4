"""What the board shows comes from a *shadow* session, never from the live one.

The table runs on its own thread (the plain loop or the Textual app) and writes
every event it accepts to the journal before it shows anything. ``Follower``
watches that journal: it replays each new event into its own ``Session`` (the
same deterministic path ``--resume`` and ``replay`` use), builds the board's
view of that shadow on its own thread and hands it to the ``WebBoard``. The live
session is never read from another thread, and working out the odds for the
page never holds up the table; several events that arrive while a view is being
built are taken together (the page then shows the newest state). Each new
position is published twice: at once without its odds (``"odds": None``,
``"odds_pending": True``: the page keeps the previous odds, dimmed), then with
them.

``Replay`` does the same over a finished game's events, one step at a time, for
``pyramid replay FILE --web`` (next, previous, play, pause).

Only public facts are published: the shared view model
(``camelhost.table.view.table_view``) gives finish piles as sizes until the race is
over (RULES 1.8, 5).
"""

import threading
import time

from camelhost.table.session import Session, dice_typed
from camelhost.table.view import table_view


def shadow_session(head):
    """A fresh ``Session`` for the ``game`` line ``head`` (nothing written anywhere); a
    game played with ``--pyramid manual`` has its dice typed (``dice_typed``)."""
    session = Session(head["edition"], head["players"], head.get("seed", 1),
                      head.get("bots", ()), journal=None)
    session.dice_typed = dice_typed(head)
    return session


#: Phases whose position has odds (``camelhost.table.view.odds_view``).
IN_PLAY = ("turn", "die", "ink", "value")


class Follower:
    """Keeps the board in step with ``journal`` (a ``camelhost.table.journal.Journal``).

    ``start()`` wraps ``journal.append`` so that each event written wakes the
    follower at once (it also looks every ``poll_s`` seconds); ``stop()`` undoes
    that. ``view``: ``(session, odds=True) -> dict`` (default: ``table_view``).
    """

    def __init__(self, board, journal, view=None, poll_s=1.0):
        self.board = board
        self.journal = journal
        self.view = view or table_view
        self.poll_s = poll_s
        self.done = 0  # journal events applied to the shadow
        self.shadow = None
        self.error = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = None
        self._append = None
        self._idle = threading.Event()

    def start(self):
        append = self.journal.append

        def appended(event):
            out = append(event)
            self._idle.clear()
            self._wake.set()
            return out

        self._append = append
        self.journal.append = appended
        self._thread = threading.Thread(target=self._run, name="web-follow", daemon=True)
        self._thread.start()
        self.poke()
        return self

    def poke(self):
        """Look at the journal now."""
        self._idle.clear()
        self._wake.set()

    def wait_idle(self, timeout=30.0):
        """Block until every event written so far is on the board (tests, benchmarks).
        Returns False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._idle.wait(0.05) and self.done >= len(self.journal.events):
                return True
        return False

    def stop(self):
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)
        if self._append is not None:
            self.journal.append = self._append
            self._append = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    def _run(self):
        while not self._stop.is_set():
            self._wake.wait(self.poll_s)
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                self._step()
            except Exception as exc:  # noqa: BLE001 - the board must not stop the table
                self.error = exc
                self.shadow = None  # start again from the journal's first line next time
            if self.done >= len(self.journal.events) and not self._wake.is_set():
                self._idle.set()

    def _step(self):
        events = self.journal.events
        n = len(events)
        if n == 0 or (n == self.done and self.shadow is not None):
            return
        if self.shadow is None or n < self.done:
            self.shadow = shadow_session(events[0])
            self.done = 1
        for event in events[self.done:n]:
            self.shadow.apply(event)
        self.done = n
        if self.shadow.phase not in IN_PLAY:
            self.board.publish(self.view(self.shadow))
            return
        # The die first, the odds a moment later: working them out takes a few hundred
        # milliseconds, and the table should not wait for them to see the die.
        quick = self.view(self.shadow, odds=False)
        quick["odds_pending"] = True
        self.board.publish(quick)
        if len(self.journal.events) > self.done:
            return  # more has happened already: no odds for a position that is gone
        self.board.publish(self.view(self.shadow))


class Replay:
    """Steps through ``events`` (a whole journal, ``game`` line first) on ``board``.

    ``step`` is the number of events after the ``game`` line shown so far (0 = the
    table before the first event). ``command(name)`` takes the page's buttons:
    ``next``, ``previous``, ``first``, ``last``, ``play`` (one step every
    ``play_s`` seconds until the end or ``pause``), ``pause``. Each view gets a
    ``replay`` entry ``{"step", "steps", "playing"}``.
    """

    def __init__(self, board, events, view=None, play_s=1.5):
        if not events or events[0].get("type") != "game":
            raise ValueError("a replay needs a journal that starts with its game line")
        self.board = board
        self.events = list(events)
        self.view = view or table_view
        self.play_s = play_s
        self.steps = len(self.events) - 1
        self.step = 0
        self.playing = False
        self._lock = threading.Lock()
        self._shadow = None
        self._applied = 0
        self._timer = None

    def _session_at(self, step):
        if self._shadow is None or step < self._applied:
            self._shadow = shadow_session(self.events[0])
            self._applied = 0
        for event in self.events[1 + self._applied:1 + step]:
            self._shadow.apply(event)
        self._applied = step
        return self._shadow

    def show(self):
        """Publish the view at the current step."""
        view = dict(self.view(self._session_at(self.step)))
        view["replay"] = {"step": self.step, "steps": self.steps, "playing": self.playing}
        self.board.publish(view)

    def command(self, name):
        """One replay button: next, previous, first, last, play or pause."""
        with self._lock:
            if name == "next":
                self.step = min(self.steps, self.step + 1)
            elif name == "previous":
                self.step = max(0, self.step - 1)
            elif name == "first":
                self.step = 0
            elif name == "last":
                self.step = self.steps
            elif name == "play":
                if self.step >= self.steps:
                    self.step = 0
                self.playing = True
                self._schedule()
            elif name == "pause":
                self.playing = False
            else:
                raise ValueError("unknown replay control %r" % (name,))
            if name in ("next", "previous", "first", "last"):
                self.playing = False
            self.show()

    def _schedule(self):
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(self.play_s, self._tick)
        self._timer.daemon = True
        self._timer.start()

    def _tick(self):
        with self._lock:
            if not self.playing:
                return
            self.step = min(self.steps, self.step + 1)
            if self.step >= self.steps:
                self.playing = False
            self.show()
            if self.playing:
                self._schedule()

    def stop(self):
        self.playing = False
        if self._timer is not None:
            self._timer.cancel()
