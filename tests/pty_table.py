"""A ``pyramid`` command run behind a pseudo-terminal, as at a table: the tests that
type lines at a real terminal (echo off for a finish card's colour, a prompt after a
refusal, two lines typed at once) share how the command is started, read and ended."""

import contextlib
import os
import pty
import select
import sys
import time

#: The ``pyramid`` command, run by this interpreter (the venv's, whatever PATH holds).
MAIN = "import sys; from camelhost.cli import main; sys.exit(main(sys.argv[1:]))"


def read_until(fd, seen, needle, timeout=30.0):
    """Read the terminal ``fd`` until ``needle`` (bytes) shows, returning all it showed
    (``seen`` and what came after it). Raises ``AssertionError`` quoting the screen when
    ``needle`` has not shown within ``timeout`` seconds of wall time (a hang guard)."""
    end = time.monotonic() + timeout
    while needle not in seen:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError("terminal never showed %r; it showed:\n%s"
                                 % (needle, seen.decode(errors="replace")))
        ready, _, _ = select.select([fd], [], [], min(left, 0.5))
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


@contextlib.contextmanager
def pyramid_on_a_pty(*argv):
    """``pyramid ARGV...`` on the terminal side of a new pty; yields the controlling
    side's file descriptor (write what a player types, ``read_until`` what shows). The
    command is killed and reaped and the descriptor closed on the way out, whatever the
    test did."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on the pty's terminal side
        try:
            os.execv(sys.executable, [sys.executable, "-c", MAIN] + list(argv))
        finally:
            os._exit(127)
    try:
        yield fd
    finally:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
