"""The one display seam: what a display of the table is told, and the one fan-out.

Every display (the plain lines, the full screen, the web scoreboard, speech) is a
``Display`` subscribed to the table's ``Seam``. The seam follows the session's journal
(``Journal.subscribe``): after each event is on disk it builds the public view once
(``camelhost.table.view.table_view``, without odds) and hands it to every display
(``changed``); what the table says (notices, errors, text, the prompt) goes through it
too, to every display in subscription order.

Odds and advice are worked out once per change, on the seam's one worker thread (never
on the thread that takes input), and only while a subscribed display wants them
(``Display.wants_advice``): the result, an ``Advice``, is handed to every display. An
advice carries the key of the position it was computed for (``advice_key``: race,
version, phase, so the turn and the position): a display shows it only while its own
view has that key, so advice for a turn that is gone is never shown.
"""

import logging
import threading

from camelhost.i18n import _
from camelhost.table.view import odds_view, table_view

__all__ = ["Advice", "Display", "Seam", "advice_key", "snapshot", "IN_PLAY"]

log = logging.getLogger(__name__)

#: Phases whose position has odds (``camelhost.table.view.odds_view``).
IN_PLAY = ("turn", "die", "ink", "value")


def advice_key(view):
    """The key of the position and turn a ``table_view`` dict shows: ``(race, version,
    phase)`` (``version`` grows with every event the session takes, so any change of the
    position or of the player to act changes it)."""
    return (view["race"], view["version"], view["phase"])


class Advice:
    """Odds and advice for one position: ``key`` (``advice_key`` of the view they were
    computed for), ``odds`` (the view model's ``odds`` entry, or ``None`` when the
    position has none), ``error`` (one line when the computation failed, else
    ``None``). Read-only."""

    __slots__ = ("key", "odds", "error")

    def __init__(self, key, odds, error=None):
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "odds", odds)
        object.__setattr__(self, "error", error)

    def __setattr__(self, name, value):
        raise AttributeError("an Advice is read-only")

    def __repr__(self):
        return "Advice(%r, %s%s)" % (self.key, "odds" if self.odds else "None",
                                     ", error=%r" % self.error if self.error else "")


class Display:
    """What a display of the table is told (every method a no-op here: subclass it and
    keep what the display shows).

    ``notices(notices, view)``: what just happened (``camelhost.table.session`` notices)
    and the view after it; ``error(message)``: one line, something was refused;
    ``status(view)``: show the whole table; ``text(text)``: lines to show as they are;
    ``prompt(view)``: what the table waits for now; ``answered(view)``: the table
    answered a line of its own that changes nothing (``show``, ``odds``, ``best``,
    ``help``, ``position``) and waits for what the last ``prompt`` said (a display
    whose lines scroll may say that prompt again); ``changed(view)``: the table changed
    (called after every journal write, with the view without odds); ``advice(advice)``:
    odds and advice for ``advice.key`` (an ``Advice``), called from the seam's worker
    thread: show it only while the view shown has that ``advice_key``.
    ``wants_advice``: True when the display shows odds (the seam's worker then runs)."""

    wants_advice = False

    def notices(self, notices, view):
        pass

    def error(self, message):
        pass

    def status(self, view):
        pass

    def text(self, text):
        pass

    def prompt(self, view):
        pass

    def answered(self, view):
        pass

    def changed(self, view):
        pass

    def advice(self, advice):
        pass


class Seam(Display):
    """The table's one fan-out to its displays. ``session``: the
    ``camelhost.table.session.Session`` (its journal, when it has one, is followed);
    ``compute``: ``snapshot -> odds`` (default ``camelhost.table.view.odds_view``; tests
    pass a cheap one). Use it as the table's display: each ``Display`` method goes to
    every subscriber. Public: ``latest`` (the last view handed out), ``advice_now`` (the
    last ``Advice`` worked out, or ``None``), ``errors`` (what a display raised on a view
    handed out after a journal write: logged and kept, never raised into the write),
    ``line`` (the view's ``line`` entry: the link's measure of the line to the pyramid,
    set by the table, ``None`` without one), ``away`` (the view's ``pyramid_away`` entry,
    set by the table while the pyramid is not answering). ``close()`` ends the journal subscription
    and the worker."""

    def __init__(self, session, compute=None):
        self.session = session
        self.compute = compute or odds_view
        self.displays = []
        self.latest = None
        self.advice_now = None
        self.errors = []  # what displays raised on a view after a journal write
        self.line = None  # {"noisy": bool, "quality": float}: the table sets it
        self.away = None  # {"port": str or None, "virtual": bool}: the table sets it
        self._lock = threading.Condition()
        self._wanted = None  # (key, snapshot) waiting for the worker
        self._working = None  # key being worked out
        self._asked = None  # key of the newest position asked for
        self._thread = None
        self._closed = False
        journal = session.journal
        self._unsubscribe = journal.subscribe(self._written) if journal is not None else None
        self.publish()  # the table as it stands (a new game's, or a resumed one's)

    # -- subscribers -------------------------------------------------------------

    def subscribe(self, display):
        """Add ``display`` (a ``Display``); it gets the latest view (and its advice) at
        once when there is one. Returns ``display``."""
        self.displays.append(display)
        before = self.latest
        view = self.catch_up()  # a stale view is published again, to this display too
        if view is not None and view is before:
            _call(display, "changed", view)
            if _wants(display):
                advice = self.advice_now
                if advice is not None and advice.key == advice_key(view):
                    display.advice(advice)  # worked out already: this display's too
                else:
                    self._want(view)
        return display

    def unsubscribe(self, display):
        """Remove ``display`` (nothing happens when it is not subscribed)."""
        if display in self.displays:
            self.displays.remove(display)

    @property
    def wants_advice(self):
        return any(_wants(d) for d in self.displays)

    # -- the fan-out -------------------------------------------------------------

    def _written(self, event):
        # Called inside the journal's write, the event already on disk: a display that
        # fails must not make the table take back what it wrote. Logged, kept in
        # ``errors``, and the next change is published as usual.
        try:
            self.publish()
        except Exception as exc:  # noqa: BLE001 - a display's fault, not the table's
            self.errors.append(exc)
            log.error(_("a display failed on the view after a journal write: %s"), exc)

    def _listening(self):
        """True when a display reads the views handed out (or the advice): else none is
        built (a table shown only in lines, a bot tournament)."""
        for display in self.displays:
            changed = getattr(type(display), "changed", None)
            if _wants(display) or (changed is not None and changed is not Display.changed):
                return True
        return False

    def publish(self):
        """Build the view of the session as it is now and hand it to every display
        (``changed``); ask the worker for its advice when a display wants it. Called
        after every journal write; call it for a session without a journal. Returns
        the view (``None``, and nothing built, when no display reads it)."""
        if not self._listening():
            self.latest = None
            return None
        view = table_view(self.session, odds=False, line=self.line, away=self.away)
        self.latest = view
        for display in list(self.displays):
            _call(display, "changed", view)
        if self.wants_advice:
            self._want(view)
        return view

    def republish(self):
        """``publish`` again though the session did not change (what the table adds to
        the view did: ``line``), and hand the advice already worked out for this
        position to the displays that show it: a display that dims its odds on each new
        view (the web board) would otherwise wait for advice that is not worked out
        again. Returns the view (``None`` when no display reads it)."""
        view = self.publish()
        advice = self.advice_now
        if view is not None and advice is not None and advice.key == advice_key(view):
            self.advice(advice)
        return view

    def catch_up(self):
        """``publish`` when the session changed since the last view handed out (a
        session without a journal); returns the latest view (``None`` when no display
        reads views)."""
        if not self._listening():
            return None
        if self.latest is None or self.latest["version"] != self.session.version \
                or self.latest["race"] != self.session.race_no:
            return self.publish()
        return self.latest

    def notices(self, notices, view):
        self.catch_up()
        for display in list(self.displays):
            display.notices(notices, view)

    def error(self, message):
        for display in list(self.displays):
            display.error(message)

    def status(self, view):
        self.catch_up()
        for display in list(self.displays):
            display.status(view)

    def text(self, text):
        for display in list(self.displays):
            display.text(text)

    def prompt(self, view):
        for display in list(self.displays):
            display.prompt(view)

    def answered(self, view):
        for display in list(self.displays):
            display.answered(view)

    def advice(self, advice):
        for display in list(self.displays):
            if _wants(display):
                display.advice(advice)

    # -- the odds worker ---------------------------------------------------------

    def _want(self, view):
        """Ask the worker for the advice of ``view`` (the session as it is now): at most
        one computation runs; a position that is gone before its turn came is skipped."""
        key = advice_key(view)
        with self._lock:
            if self._closed or key == self._working or \
                    (self.advice_now is not None and self.advice_now.key == key):
                return
            self._asked = key
            if view["phase"] not in IN_PLAY:
                self._wanted = None
                self.advice_now = Advice(key, None)
                self._lock.notify_all()
                ready = self.advice_now
            else:
                self._wanted = (key, snapshot(self.session))
                self._lock.notify_all()
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name="table-odds",
                                                    daemon=True)
                    self._thread.start()
                return
        self.advice(ready)

    def _run(self):
        while True:
            with self._lock:
                while self._wanted is None and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                key, snap = self._wanted
                self._wanted = None
                self._working = key
            try:
                advice = Advice(key, self.compute(snap))
            except Exception as exc:  # noqa: BLE001 - a display says so; the table goes on
                advice = Advice(key, None, str(exc).strip().splitlines()[0] if str(exc)
                                else type(exc).__name__)
            with self._lock:
                self._working = None
                newest = key == self._asked
                if newest:  # else the table moved on meanwhile: nobody shows it
                    self.advice_now = advice
                self._lock.notify_all()
            if not newest:
                continue
            try:
                self.advice(advice)
            except Exception:  # noqa: BLE001 - a closing display must not stop the worker
                pass

    def wait_advice(self, key, timeout=60.0):
        """Block until the advice for ``key`` is worked out, or another position is
        wanted instead; returns that ``Advice`` or ``None`` (gone, closed, timeout)."""
        import time
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                if self.advice_now is not None and self.advice_now.key == key:
                    return self.advice_now
                gone = self._wanted is not None and self._wanted[0] != key and \
                    self._working != key
                if self._closed or gone or (self._wanted is None and self._working is None):
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._lock.wait(left)

    def wait_idle(self, timeout=60.0):
        """Block until the worker has nothing left to do (tests, benchmarks); returns
        False on timeout."""
        import time
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._wanted is not None or self._working is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
        return True

    def odds_now(self):
        """The odds of the position in play now, worked out once: the worker's when it
        runs (waited for), else computed here. ``None`` when there are none."""
        view = self.catch_up()
        if self.wants_advice and view is not None:
            key = advice_key(view)
            self._want(view)
            advice = self.wait_advice(key)
            if advice is not None and advice.error is None:
                return advice.odds
        return self.compute(self.session)

    def close(self):
        """End the journal subscription and stop the worker (idempotent)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(10)


def _wants(display):
    return bool(getattr(display, "wants_advice", False))


def _call(display, name, *args):
    """``display.name(*args)`` when the display has that method (a display written
    before ``changed`` and ``advice`` were part of the contract has not)."""
    method = getattr(display, name, None)
    if method is not None:
        method(*args)


def snapshot(session):
    """What ``odds_view`` reads of ``session``, copied, so the worker reads its own copy
    while the table goes on: the game by ``Game.copy()`` (its state copied, its undo
    history with it: the coach reads who laid which finish card when), ``None`` before
    the setup. ``Game.copy`` shares the history's entries, which the engine never
    changes once pushed (an undo restores from a copy of them), so the copy costs the
    same early and late in a race (a deep copy grew with the history: about 2 ms a line
    late in a race, on the thread that takes input)."""
    import types
    game = session.game
    return types.SimpleNamespace(game=None if game is None else game.copy(),
                                 phase=session.phase, seed=session.seed,
                                 names=list(session.names))
