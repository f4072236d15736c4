"""The plain line loop: typed lines and pyramid events handed to a ``Table`` one at a time."""

import queue
import sys
import threading
import time

from camelhost.i18n import _, decimal

#: Longest wait, in plain mode, for the die of a release before reading on (seconds).
DIE_WAIT_S = 20.0


def _seconds(value):
    """A wait in seconds as the table's language writes it: ``30``, ``2.5`` / ``2,5``."""
    return decimal(value, 0 if float(value).is_integer() else 1)


def run_plain(table, lines=None, events=None, stop_when_over=False, wait_s=None,
              die_wait_s=DIE_WAIT_S):
    """Run ``table`` in the plain line mode until input ends or ``quit``.

    ``lines``: an iterable of typed lines (default: stdin), read on a thread
    (``False``: none); ``events``: a ``queue.Queue`` the pyramid link fills with
    ``("event", dict)`` items (or ``None``); ``stop_when_over``: return once the race
    is over (demo). ``wait_s``: longest wait for the next input (``None``: forever);
    raises ``TimeoutError`` after it.

    While a die is on its way (after ``release``, a bot's release, or in a script
    after ``pyramid`` with a real pyramid), the next typed line waits for it, at most
    ``die_wait_s`` seconds (then a one-line message, and typed lines are read again);
    at the end of the input a die on its way is waited for the same way before
    returning. At a terminal each line is taken with the table's moment it was typed
    in (``Moments``): a player's action typed while a die was on its way or the bots
    moved is refused if the table has moved on since (``Table.line``), never taken for
    another turn; a script's lines (and those of a stand-in for a terminal, which has
    no keyboard) are taken as they come. Returns 0.
    """
    typed = queue.Queue()
    if lines is None:
        lines = sys.stdin
    interactive = False
    if lines is sys.stdin:
        try:
            interactive = sys.stdin.isatty()
        except (AttributeError, ValueError):
            interactive = False

    def feed():
        # each line with the time it was read: at a terminal, when its Enter was pressed
        try:
            for kind, item in typed_lines(lines):
                typed.put((kind, item, time.monotonic()))
        finally:
            typed.put(("eof", None))

    eof = False
    # a line of a terminal is read when its Enter is pressed: the table's moment then
    # is known (not for a script, nor a stand-in for a terminal that has no keyboard)
    moments = Moments(table) if interactive and _keyboard(lines) else None
    if moments is not None:
        _note_before_prompts(table, moments)
    if lines is not False:
        threading.Thread(target=feed, daemon=True).start()
    table.start()
    gave_up = False  # the last wait for a die timed out: read typed lines again

    def die_due():
        if events is None or gave_up:
            return False
        if table.waiting_release:
            return True
        if table.hand_die_ok:  # the pyramid asked for this die by hand (a gap): read it
            return False
        if getattr(table, "pyramid_away", None) is not None:  # not answering: dice typed
            return False
        # a real pyramid in a script: its slider is pushed by hand after 'pyramid'
        # (a virtual one waits for 'release')
        real = not table.manual and table.virtual is None
        return not interactive and real and table.session.phase == "die"

    last = time.monotonic()
    hidden = [False]  # the terminal's echo is off for a private finish card

    def echo(private):
        # echo off while the private finish card's colour is typed, on again once
        # it is in (a terminal that can't be told stays as it is)
        if interactive and hidden[0] != private:
            hidden[0] = _echo(not private) is False

    try:
        while not table.quit:
            if moments is not None:
                moments.note()  # the table took something: it may wait for another now
            echo(table.private is not None)
            if stop_when_over and table.over:
                break
            if die_due():
                if lines is False:  # nothing typed can come: wait as long as wait_s says
                    limit = wait_s
                else:
                    limit = die_wait_s if wait_s is None else min(die_wait_s, wait_s)
                try:
                    item = events.get(timeout=limit)[1]
                except queue.Empty:
                    if lines is False:
                        raise TimeoutError(_("no die from the pyramid for %s s")
                                           % _seconds(limit)) from None
                    table.waiting_release = False
                    gave_up = True
                    table.display.error(_("no die from the pyramid after %s s: release it again, "
                                        "or type the die") % _seconds(limit))
                    continue
                table.pyramid_event(item)
                last = time.monotonic()
                continue
            if eof:
                break
            got = None
            if events is not None:
                try:
                    got = events.get_nowait()
                except queue.Empty:
                    got = None
            if got is None:
                try:
                    got = typed.get(timeout=0.05)
                except queue.Empty:
                    if wait_s is not None and time.monotonic() - last > wait_s:
                        raise TimeoutError(_("no die from the pyramid for %s s")
                                           % _seconds(wait_s)) from None
                    continue
            last = time.monotonic()
            gave_up = False
            kind, item = got[0], got[1]
            if kind == "eof":
                eof = True
            elif kind == "bad":
                # a line that is no text in the input's encoding: said, and the table
                # goes on reading the next one
                table.display.error(_("that line is not %s text (a byte the table can't "
                                      "read): it was skipped, nothing changed; type it "
                                      "again") % item)
            elif kind == "line":
                echo(False)  # the private line, if it was one, is typed: echo back on
                going_on = table.line(item, None if moments is None else moments.at(got[2]))
                echo(table.private is not None)  # before anyone can type the colour
                if not going_on:
                    break
            else:
                table.pyramid_event(item)
    finally:
        if interactive:
            _echo(True)
    return 0


class Moments:
    """When each of ``table``'s moments (``Table.moment``) began, on ``clock`` (seconds;
    default ``time.monotonic``), so that a line taken a while after it was typed goes to
    ``Table.line`` with the moment it was typed in. ``note()`` after the table took
    anything (a line, a pyramid's event: it may wait for someone else now); ``at(when)``
    the moment at a time ``when`` of ``clock`` (a line's Enter). The latest ``kept``
    moments are remembered."""

    def __init__(self, table, clock=time.monotonic, kept=64):
        self.table = table
        self.clock = clock
        self.kept = kept
        self._began = [(clock(), table.moment)]

    def note(self):
        """Note the table's moment now (a new one begins now)."""
        moment = self.table.moment
        if self._began[-1][1] != moment:
            self._began.append((self.clock(), moment))
            del self._began[:-self.kept]

    def at(self, when):
        """The table's moment at ``when`` (a time on ``clock``): the latest noted that
        began before it or at it; one the table does not know (``-1``) when ``when`` is
        older than every moment remembered; ``None`` for ``when`` ``None`` (now)."""
        if when is None:
            return None
        for began, moment in reversed(self._began):
            if began <= when:
                return moment
        return -1


def _note_before_prompts(table, moments):
    """Make ``table``'s prompts note its moment (``moments.note``) before they are shown:
    a player types after seeing a prompt, so the moment the prompt asks in must be noted
    before it shows. Noted only after the table returned, a prompt printed inside it came
    first, and on a loaded machine a line typed between the two was dated to the moment
    before and refused as typed before the table moved on (a CI run caught it)."""
    display = table.display
    shown = display.prompt

    def prompt(view):
        moments.note()
        shown(view)

    display.prompt = prompt


def typed_lines(lines):
    """The typed lines of ``lines`` one at a time, as ``("line", text)`` (no newline) or,
    for a line that is no text in the input's encoding, ``("bad", encoding)``: one
    undecodable byte costs that line only, never the lines before or after it.

    ``lines``: a text stream with a binary ``buffer`` (``sys.stdin``): read as bytes,
    a line at a time, each decoded strictly in the stream's encoding (one CR before
    the newline is part of the line ending, as in text mode); or any iterable of
    strings (tests, scripts), whose lines are taken as they are."""
    raw = getattr(lines, "buffer", None)
    if raw is None or not hasattr(raw, "readline"):
        for text in lines:
            yield "line", text.rstrip("\n")
        return
    encoding = getattr(lines, "encoding", None) or "utf-8"
    for chunk in iter(raw.readline, b""):
        if chunk.endswith(b"\n"):
            chunk = chunk[:-1]
            if chunk.endswith(b"\r"):
                chunk = chunk[:-1]
        try:
            yield "line", chunk.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            yield "bad", encoding


def _keyboard(stream):
    """True when ``stream`` is a terminal's own file (a keyboard types into it)."""
    import os
    try:
        return os.isatty(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def _echo(on):
    """Turn the terminal's echo of typed keys on or off (stdin a tty). Returns ``on``,
    or ``None`` when the terminal can't be told (the line is still never printed)."""
    try:
        import termios
        fd = sys.stdin.fileno()
        attrs = termios.tcgetattr(fd)
        if on:
            attrs[3] |= termios.ECHO
        else:
            attrs[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
    except (ImportError, OSError, ValueError, AttributeError):
        return None
    return on
