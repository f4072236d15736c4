"""The live web scoreboard: the table's public facts on any phone, tablet or TV.

``pyramid play ... --web [HOST:PORT]``, ``pyramid demo --web`` and ``pyramid replay
FILE --web`` serve a read-only page (``camelhost.web.server``): live, a display
subscribed to the table's seam (``camelhost.web.follow``); a replay steps through a
journal (``camelhost.web.replay``). See docs/web.md.
"""

import contextlib
import sys

from camelhost.i18n import _
from camelhost.web.address import DEFAULT_HOST, DEFAULT_PORT, parse_address

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "add_web_argument", "serving", "serving_replay",
           "parse_address"]


def add_web_argument(parser):
    """Add ``--web [HOST:PORT]`` to a command's parser."""
    parser.add_argument(
        "--web", nargs="?", const="%s:%d" % (DEFAULT_HOST, DEFAULT_PORT), default=None,
        metavar="HOST:PORT",
        help=_("serve a live scoreboard page (default %(host)s:%(port)d, this computer only; "
               "0.0.0.0:8080 serves the local network, with a secret address and a QR code)")
             % {"host": DEFAULT_HOST, "port": DEFAULT_PORT})


def announce(board, stream=None):
    """Print the page's address, and its QR code when it serves the network."""
    from camelhost.web.server import qr_text
    stream = stream or sys.stdout
    stream.write(_("web scoreboard: %s\n") % board.url)
    if board.token:
        stream.write(qr_text(board.url))
        stream.write(_("(scan it with a phone on the same network; the address is the key: "
                       "share it only with the table)\n"))
    stream.flush()


def _board(address, controls=None, game=None):
    from camelhost.errors import CliError
    from camelhost.web.server import WebBoard
    host, port = parse_address(address)
    board = WebBoard(host, port, controls=controls, game=game)
    try:
        board.start()
    except OSError as exc:
        raise CliError(_("--web %(address)s: can't serve there: %(why)s") % {
            "address": address, "why": _bind_problem(exc, host, port)}) from None
    return board


def _bind_problem(exc, host, port):
    """What a failed bind of ``host``:``port`` means to the table, in its words, with
    what to give instead (tester s36tp finding 7: Python's ``[Errno 98] error while
    attempting to bind on address ('127.0.0.1', 8765)`` inside the sentence)."""
    import errno
    import socket
    if isinstance(exc, socket.gaierror):
        return _("no computer called '%(host)s' is known here: give this computer's address, "
                 "e.g. --web %(default)s:%(port)d") % {"host": host, "default": DEFAULT_HOST,
                                                       "port": port}
    if exc.errno == errno.EADDRINUSE:
        return _("that port is already in use (another table's scoreboard?): give another, "
                 "e.g. --web %(host)s:%(port)d") % {
                     "host": host, "port": port + 1 if port < 65535 else DEFAULT_PORT}
    if exc.errno == errno.EACCES and port < 1024:
        return _("a port under 1024 needs the administrator: give one from 1024 up, "
                 "e.g. --web %(host)s:%(port)d") % {"host": host, "port": DEFAULT_PORT}
    if exc.errno == errno.EADDRNOTAVAIL:
        return _("%(host)s is not an address of this computer: give one of its own, e.g. "
                 "--web %(default)s:%(port)d or 0.0.0.0:%(port)d for the local network") % {
                     "host": host, "default": DEFAULT_HOST, "port": port}
    return exc.strerror or str(exc)


@contextlib.contextmanager
def serving(address, seam, stream=None, game=None):
    """While the block runs, serve the board of the table whose display seam is
    ``seam`` (a ``camelhost.table.display.Seam``) at ``address`` (``"HOST:PORT"``;
    ``None``: no board, the block just runs). ``game``: the journal's game id, so a
    resumed game serves its address again (``WebBoard``); ``None``: a fresh one.
    Yields the ``WebBoard`` (or ``None``). Raises ``CliError`` when the address
    can't be bound."""
    if address is None:
        yield None
        return
    from camelhost.web.follow import LiveBoard
    board = _board(address, game=game)
    live = LiveBoard(board, seam).start()
    announce(board, stream)
    try:
        yield board
    finally:
        live.stop()
        board.stop()


@contextlib.contextmanager
def serving_replay(address, events, stream=None):
    """Serve ``events`` (a whole journal) as a replay with next / previous / play."""
    from camelhost.web.replay import Replay
    holder = {}
    board = _board(address, controls=lambda command: holder["replay"].command(command))
    replay = holder["replay"] = Replay(board, events)
    replay.show()
    announce(board, stream)
    try:
        yield board, replay
    finally:
        replay.stop()
        board.stop()


def wait_for_enter(board, message=None, stdin=None,
                   lan_only=False):
    """With a board and a terminal: wait for Enter so that the address (and its QR
    code) can be read before a full screen covers it. Returns at once otherwise, and,
    with ``lan_only``, for a board on a loopback address too (no QR code to read: the
    page is opened on this computer). ``message``: default "press Enter to go on to the
    table", in the table's language."""
    stdin = stdin or sys.stdin
    if board is None:
        return
    if lan_only:
        from camelhost.web.server import is_loopback
        if is_loopback(board.host):
            return
    try:
        if not stdin.isatty():
            return
    except (AttributeError, ValueError):
        return
    try:
        # inside the try: a Ctrl-C that lands while the line is written is caught too
        print(message or _("press Enter to go on to the table"), flush=True)
        stdin.readline()
    except (KeyboardInterrupt, EOFError):
        pass


def wait_until_interrupted(message=None, then=None):
    """Say ``message`` (default "step through the game on the page (next, previous,
    play); Ctrl-C stops", in the table's language), then wait until Ctrl-C (the board serves meanwhile), then call
    ``then`` (which closes the board). Returns normally however early the Ctrl-C comes
    after the message and however many come: from just before the message until
    ``then`` has returned, Ctrl-C only sets a flag (a second one used to interrupt the
    server's shutdown: exit 130); the previous handler is put back at the end."""
    import signal
    import time
    pressed = []
    installed = False
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
        installed = True
    except ValueError:  # not the main thread: Ctrl-C stays a KeyboardInterrupt there
        pass
    try:
        try:
            # inside the try, and flushed: whoever reads the message may press Ctrl-C
            # at once, before print has even returned (the CI's flake: exit 130, not 0)
            print(message or _("step through the game on the page (next, previous, play); "
                               "Ctrl-C stops"), flush=True)
            while not pressed:
                # a flag, not an Event: setting one from the handler could deadlock
                # on its lock, held by this very thread when the signal lands
                time.sleep(0.05)
        except KeyboardInterrupt:
            pass
        if then is not None:
            then()
    finally:
        if installed:
            # None: the handler was not set from Python; Python's own is the closest
            signal.signal(signal.SIGINT,
                          signal.default_int_handler if previous is None else previous)
