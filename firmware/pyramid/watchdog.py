"""Task supervisor for the RP2040 hardware watchdog (``machine.WDT``).

The watchdog is fed by one place only, ``Watchdog.service``, and only while every
essential task has shown progress (``beat``) within ``stall_ms``: a task that hangs
(an await that never returns, a loop that stopped looping) stops the feeding and the
watchdog resets the board. A task that blocks the whole event loop stops the
feeding too, since the supervisor task no longer runs.

On rp2 the watchdog cannot be stopped once started and its longest timeout is
8388 ms (ports/rp2/machine_wdt.c), so ``timeout_ms`` is clamped to that. A board
hung in task ``i`` resets after ``stall_ms`` plus at most ``timeout_ms``.

Pure logic with an injectable clock: no allocation per beat or check (ticks are
small ints, ``_seen`` is a preallocated list).
"""

from pyramid.compat import ticks_diff, ticks_ms

#: rp2's longest watchdog timeout (ms)
WDT_MAX_MS = 8388
#: shortest timeout accepted (rp2 takes 1 ms, but one sensor reading, LED on and off
#: at 614 ms integration, takes about 1.3 s without a beat)
WDT_MIN_MS = 2000


def clamp_timeout(ms):
    """The watchdog timeout for config value ``ms``: 0 (off) or 2000..8388."""
    if not ms or ms <= 0:
        return 0
    if ms > WDT_MAX_MS:
        return WDT_MAX_MS
    if ms < WDT_MIN_MS:
        return WDT_MIN_MS
    return int(ms)


class Watchdog:
    """Feeds ``wdt`` (anything with ``feed()``, or ``None`` for no watchdog) only while
    every one of ``count`` essential tasks has beaten within ``stall_ms``.

    ``beat(i)``: task ``i`` made progress. ``fresh(now)``: index of the first stalled
    task, or ``-1`` when all are fresh. ``service()``: feed if all are fresh; returns
    whether it fed. ``clock``: ms ticks (default ``time.ticks_ms``).
    """

    def __init__(self, wdt, count, stall_ms, clock=None):
        self.wdt = wdt
        self.stall_ms = stall_ms
        self._clock = clock or ticks_ms
        now = self._clock()
        self._seen = [now] * count
        self.feeds = 0
        self.stalled = -1  # the task that stopped the feeding (-1: none)

    def restart(self):
        """Every task counts as just seen (after a long boot, before the tasks start)."""
        now = self._clock()
        seen = self._seen
        for i in range(len(seen)):
            seen[i] = now

    def beat(self, i):
        self._seen[i] = self._clock()

    def fresh(self, now=None):
        if now is None:
            now = self._clock()
        seen = self._seen
        for i in range(len(seen)):
            if ticks_diff(now, seen[i]) > self.stall_ms:
                return i
        return -1

    def service(self):
        stalled = self.fresh()
        self.stalled = stalled
        if stalled >= 0:
            return False
        if self.wdt is not None:
            self.wdt.feed()
        self.feeds += 1
        return True
