"""A finished (or interrupted) game's journal on the board, one step at a time, for
``pyramid replay FILE --web`` (next, previous, play, pause).

A replay rebuilds the game from the journal's events through a ``Session`` of its own
(the same deterministic path ``--resume`` uses); nothing is written anywhere. The live
board of a table being played is ``camelhost.web.follow.LiveBoard`` instead, which
builds no session. Only public facts are published (``table_view``: finish piles as
sizes until the race is over, RULES 1.8, 5).
"""

import threading

from camelhost.i18n import _
from camelhost.table.session import Session, dice_typed
from camelhost.table.view import table_view
from camelhost.web.follow import undo_words


def shadow_session(head):
    """A fresh ``Session`` for the ``game`` line ``head`` (nothing written anywhere); a
    game played with ``--pyramid manual`` has its dice typed (``dice_typed``)."""
    session = Session(head["edition"], head["players"], head.get("seed", 1),
                      head.get("bots", ()), journal=None)
    session.dice_typed = dice_typed(head)
    return session


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
            raise ValueError(_("a replay needs a journal that starts with its game line"))
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
        self._said = None  # the notices of the step last applied
        self._timer = None

    def _session_at(self, step):
        if self._shadow is None or step < self._applied:
            self._shadow = shadow_session(self.events[0])
            self._applied = 0
            self._said = None
        for event in self.events[1 + self._applied:1 + step]:
            self._said = self._shadow.apply(event)
        self._applied = step
        return self._shadow

    def show(self):
        """Publish the view at the current step."""
        view = dict(self.view(self._session_at(self.step)))
        view["replay"] = {"step": self.step, "steps": self.steps, "playing": self.playing}
        view["undo"] = undo_words(self._said, replay=True) if self.step else None
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
                raise ValueError(_("unknown replay control %r") % (name,))
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
