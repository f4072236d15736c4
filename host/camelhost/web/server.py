"""The scoreboard's web server: aiohttp on its own thread, the page and a live stream.

``WebBoard(host, port)`` serves, under one path prefix:

``/``          the page (``static/index.html``), with ``board.css``, ``board.js`` and
               ``palette.css`` (the camel colours); the page itself carries the current
               snapshot in a non-executable data block (``<script type=
               "application/json" id="snapshot">``, allowed by the CSP), so it draws
               the table at once, before its stream is open
``/events``    server-sent events: every message is a *full* snapshot of the board
               (``event: snapshot``, ``data: <json>``), the first one sent on connect,
               so a page that reconnects after a phone slept or the wifi dropped
               shows exactly the current state and misses nothing
``/view``      the current snapshot as JSON (the same bytes as the stream's data)
``/control/C`` replay only (``controls`` given): ``POST`` next / previous / play / pause

The prefix is ``""`` on the loopback address and ``/<token>`` when the board serves the
local network (or ``token=True``): ``game_token`` of the game's id when one is given
(the same game on the same machine gets the same address again after a crash), else
``secrets.token_urlsafe``; every request is checked against it (``403`` otherwise). Every answer carries strict headers (a
Content-Security-Policy without ``unsafe-inline``, ``nosniff``, ``no-referrer``, no
framing, no caching). At most ``max_clients`` streams are open at once (``503``
beyond). Each stream has its own queue of ``queue_size`` snapshots: a client that
reads too slowly has its queue emptied and gets the newest snapshot instead
(``event: resync``), and a write that does not finish within ``write_timeout_s``
closes its stream; ``publish`` never waits for a client.

The board is read-only: apart from the replay controls it accepts only ``GET`` and
``HEAD``, and it only sends what ``publish`` was given (public facts, see
``camelhost.web.follow``).

No one can wear it out without the token. At most ``max_connections`` connections are
open at once (by default far below the open-file limit: ``default_max_connections``);
when one more comes, the oldest that has not yet sent a whole request is closed to make
room, or, when every open one has, the new one is closed as soon as it is accepted. A connection that has not sent a whole
request within ``header_timeout_s`` is closed (a silent or trickling one), so is one
idle for ``idle_timeout_s`` between requests; a request refused (no token, wrong host,
wrong method) is answered and its connection closed at once, never kept. The server
never prints: what asyncio or aiohttp would log (an ``accept`` that found no file
descriptor, a connection reset) is counted in ``problems`` instead, the table's
terminal stays quiet.
"""

import asyncio
import base64
import hashlib
import hmac
import ipaddress
import json
import logging
import os
import secrets
import stat
import threading
import time

from aiohttp import web

from camelhost.i18n import _
from camelhost.web.address import DEFAULT_HOST, DEFAULT_PORT, parse_address  # noqa: F401 (server.parse_address)

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")

#: Files the page needs, name -> content type. Nothing else is served from disk.
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "board.css": "text/css; charset=utf-8",
    "board.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cache-Control": "no-store",
}

CONTROLS = ("next", "previous", "play", "pause", "first", "last")

_CLOSE = object()

#: The snapshot's place in ``index.html``: empty there, filled by ``page_with_snapshot``.
SNAPSHOT_BLOCK = b'<script id="snapshot" type="application/json">{}</script>'


def page_with_snapshot(html, data):
    """``html`` (the page's bytes) with ``SNAPSHOT_BLOCK`` holding ``data`` (a snapshot's
    JSON bytes, as on the stream). ``<``, ``>`` and ``&`` are written as JSON escapes
    (``\\u003c``...), so no text in the snapshot can end the block; the JSON read back
    is the same. Raises ``ValueError`` when the page has no snapshot block."""
    if SNAPSHOT_BLOCK not in html:
        raise ValueError(_("index.html has no snapshot block %r") % SNAPSHOT_BLOCK.decode())
    safe = data.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026")
    return html.replace(SNAPSHOT_BLOCK, SNAPSHOT_BLOCK.replace(b"{}", safe), 1)


#: The machine's secret for the web tokens: 32 random bytes, hex, in this file of the
#: user's state folder, created once with mode 0600 (see ``machine_secret``).
SECRET_NAME = "web-secret"


def secret_path():
    """Where the machine's secret is kept: ``$XDG_STATE_HOME/smart-pyramid/web-secret``
    (``~/.local/state`` by default, the XDG Base Directory specification)."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"),
                                                             ".local", "state")
    return os.path.join(state, "smart-pyramid", SECRET_NAME)


def _private(fd):
    """True when the open file ``fd`` is a regular file of this user that no one else
    may read or write (mode 0600 or narrower)."""
    st = os.fstat(fd)
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return stat.S_ISREG(st.st_mode) and mine and not st.st_mode & 0o077


def _read_secret(path):
    """The secret's bytes from ``path``, or ``None`` when it is missing, not private
    (``_private``), a link, or not 64 hex digits."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not _private(fd):
            return None
        text = os.read(fd, 200).strip()
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        secret = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    return secret if len(secret) == 32 else None


def machine_secret(path=None):
    """This machine's secret for the web tokens (32 bytes), made once: the first call
    writes 32 bytes of ``os.urandom`` (hex) to ``path`` (default ``secret_path()``),
    mode 0600, its folder made 0700 if missing; every later call reads it. Two tables
    starting at once get the same secret (the file appears whole, by a hard link, or
    not at all). Returns ``None`` (the caller then draws a fresh token) when the file
    can't be made or read, or when it is a link, not this user's, or readable by
    anyone else: a secret others may read protects nothing, and it is never
    overwritten (nothing is destroyed). Never raises ``OSError``."""
    path = path or secret_path()
    secret = _read_secret(path)
    if secret is not None or os.path.lexists(path):
        return secret
    folder = os.path.dirname(path)
    temp = "%s.%d.%s" % (path, os.getpid(), secrets.token_hex(4))
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, os.urandom(32).hex().encode() + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temp, path)  # fails if another table made it first: its secret counts
        except FileExistsError:
            pass
    except OSError:
        return None
    finally:
        try:
            os.unlink(temp)
        except OSError:
            pass
    return _read_secret(path)


def game_token(game, secret):
    """The web token of the game whose journal id is ``game`` (a str, the journal's
    ``game`` field) on the machine whose secret is ``secret`` (bytes,
    ``machine_secret``): HMAC-SHA256(secret, "pyramid web token\\0" + game), its first 24
    bytes in URL-safe base64 (32 characters, as ``secrets.token_urlsafe(24)``). The
    same game on the same machine gets the same token; another game or another
    machine another, and no one can work it out from the game id alone."""
    digest = hmac.new(secret, b"pyramid web token\0" + game.encode("utf-8"),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")


def is_loopback(host):
    """True when ``host`` is ``localhost`` or a loopback address (127/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Client:
    def __init__(self, size):
        self.queue = asyncio.Queue(size)
        self.dropped = 0


#: Connections the kernel queues for the board before it accepts them; asyncio accepts
#: up to this many in one go, each holding a file descriptor until it is handled.
BACKLOG = 64


def default_max_connections():
    """The connections a board keeps open at once: 256, or fewer when the open-file limit
    (``RLIMIT_NOFILE``) is low: half of what the limit leaves after 64 descriptors for
    the table's own files (its pyramid, its journal) and two backlogs of connections
    being accepted (``BACKLOG``), at least 8. 256 at a limit of 1,024, 32 at 256."""
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return 256
    if soft == getattr(resource, "RLIM_INFINITY", -1) or soft <= 0:
        return 256
    return max(8, min(256, (soft - 64 - 2 * BACKLOG) // 2))


class _Quiet(logging.Handler):
    """Takes what aiohttp and asyncio log (a reset connection, an error in a handler)
    so that nothing reaches the table's terminal; the boards count it."""

    boards = set()

    def emit(self, record):
        for board in list(self.boards):
            board._problem(record.getMessage())


_QUIET = _Quiet()


def _silence_logs():
    for name in ("aiohttp", "asyncio"):
        logger = logging.getLogger(name)
        if _QUIET not in logger.handlers:
            logger.addHandler(_QUIET)
        logger.propagate = False


class _Gate(asyncio.Protocol):
    """One accepted connection, counted by its board and handed to aiohttp's request
    handler: closed at once when the board already holds ``max_connections``, and when
    no whole request came within ``header_timeout_s``."""

    def __init__(self, board):
        self.board = board
        self.inner = None
        self.transport = None
        self.timer = None
        self.spoke = False

    def connection_made(self, transport):
        board = self.board
        if len(board._conns) >= board.max_connections:
            # full: the oldest connection that has not yet sent a whole request makes
            # room (a silent one), so a flood of them never locks a real screen out;
            # when every one has spoken, the new one is turned away
            silent = next((g for g in board._conns.values() if not g.spoke), None)
            if silent is None:
                board.turned_away += 1
                transport.abort()
                return
            board.evicted += 1
            silent.close()
        self.transport = transport
        board._conns[transport] = self
        self.timer = board._loop_now.call_later(board.header_timeout_s, self._silent)
        self.inner = board._runner.server()
        self.inner.connection_made(transport)

    def heard(self):
        """A whole request came: the header timeout no longer applies."""
        self.spoke = True
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _silent(self):
        self.timer = None
        if not self.spoke and self.transport is not None:
            self.board.timed_out += 1
            self.close()

    def close(self):
        """Close the connection at once and stop counting it."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.board._conns.pop(self.transport, None)
        self.transport.abort()

    def data_received(self, data):
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self):
        if self.inner is not None:
            return self.inner.eof_received()
        return None

    def pause_writing(self):
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self):
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc):
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.board._conns.pop(self.transport, None)
        if self.inner is not None:
            self.inner.connection_lost(exc)
            self.inner = None


#: Actions of the advice the page lists (the best and the next two).
PAGE_ADVICE = 3


def with_advice_words(view):
    """``view`` with its advice's words for the page, in the table's language, when it
    has advice: ``odds.actions.said``, for the first ``PAGE_ADVICE`` actions, the words
    plain mode's ``best`` says (``camelhost.table.narration.advice_words``: the action's
    name, how far it is ahead of the next or behind the best, its balance as a sum), and
    ``odds.actions.said_note``, one line on what a balance is. A new dict (``view`` is
    left as it is); a view without advice is returned as it is. Only the view's public
    entries are read: a finish card is named by its pile (RULES 1.8)."""
    acts = (view.get("odds") or {}).get("actions") if isinstance(view, dict) else None
    if not acts or not acts.get("values") or "leg_tickets" not in view:
        return view
    from camelhost.table.narration import advice_words, short_advice_note
    said = advice_words(view, PAGE_ADVICE)
    acts = dict(acts, said=said, said_note=short_advice_note(acts["values"][:PAGE_ADVICE],
                                                             len(view["players"]) - 1))
    return dict(view, odds=dict(view["odds"], actions=acts))


def with_die_words(view):
    """``view`` with its last die's words for the page, in the table's language:
    ``last_die["said"]``, the die and the value it showed as every screen names them
    (``camelhost.table.narration.die_words``: ``red 2``, the grey die in black numerals
    ``grey-black 2``, German ``grau-schwarz 2``); ``last_die["way"]``, which way and
    how far as every screen says it (``camelhost.table.view.which_way``: ``forward 3``,
    German ``3 Felder vorwärts``); ``last_die["spoken"]``, the words the page says aloud
    for it, as ``--speak`` does (``camelhost.table.view.spoken_die``: ``blue camel,
    forward 3``). A new dict (``view`` is left as it is); a view without a last die is
    returned as it is."""
    die = view.get("last_die") if isinstance(view, dict) else None
    if not isinstance(die, dict) or "colour" not in die:
        return view
    from camelhost.table.narration import die_words
    from camelhost.table.view import spoken_die, which_way
    return dict(view, last_die=dict(
        die, said=die_words(die), way=which_way(die["direction"], die["distance"]),
        spoken=spoken_die(die["camel"], die["direction"], die["distance"])))


class WebBoard:
    """The scoreboard server (see the module docstring).

    ``host``/``port``: where to listen (``port=0``: any free port, see ``.port``).
    ``token``: ``None`` = a token only off loopback; ``True`` = always one; a str =
    that token. ``game``: the id of the game served (its journal's ``game`` field), or
    ``None``: a token the board makes is then ``game_token(game, machine_secret())``,
    so a resumed game serves the address it served before its crash; without a game
    (a game kept in memory) or a usable secret, a fresh ``secrets.token_urlsafe(24)``.
    ``controls``: a callable ``(command) -> None`` for the replay
    buttons, or ``None`` (live tables: no controls). ``heartbeat_s``: a ``ping``
    event is sent on an idle stream that often, so the page notices a dead one.
    ``max_connections``: connections open at once (``None``:
    ``default_max_connections()``); ``header_timeout_s``: the time a new connection
    has to send a whole request; ``idle_timeout_s``: the longest silence between two
    requests on one connection. ``evicted``, ``turned_away``, ``timed_out`` and
    ``problems`` count silent connections closed to make room for a new one, new ones
    closed at the limit (every open one had spoken), silent connections closed at
    their header timeout, and what the libraries would have logged (``last_problem``:
    the latest, in words).
    """

    def __init__(self, host=DEFAULT_HOST, port=DEFAULT_PORT, token=None, max_clients=16,
                 queue_size=8, write_timeout_s=10.0, heartbeat_s=15.0, controls=None,
                 max_connections=None, header_timeout_s=5.0, idle_timeout_s=15.0,
                 game=None):
        self.host = host
        self.port = port
        if token is None:
            token = not is_loopback(host)
        if token is True:
            secret = machine_secret() if game else None
            token = game_token(game, secret) if secret else secrets.token_urlsafe(24)
        self.token = token or None
        self.prefix = "/" + self.token if self.token else ""
        self.max_clients = max_clients
        self.queue_size = queue_size
        self.write_timeout_s = write_timeout_s
        self.heartbeat_s = heartbeat_s
        self.controls = controls
        self.max_connections = max_connections or default_max_connections()
        self.header_timeout_s = header_timeout_s
        self.idle_timeout_s = idle_timeout_s
        self.turned_away = 0
        self.evicted = 0
        self.timed_out = 0
        self.problems = 0
        self.last_problem = None
        self._conns = {}  # transport -> _Gate: the connections open now
        self._loop_now = None
        self._server = None
        self.seq = 0
        self.published_at = {}  # seq -> time.time() of publish, the last 1000 (benchmarks)
        self._latest = b"{}"
        self._clients = set()
        self._loop = None
        self._runner = None
        self._thread = None
        self._ready = threading.Event()
        self._error = None
        self._static = {}
        for name in STATIC:
            with open(os.path.join(STATIC_DIR, name), "rb") as fh:
                self._static[name] = fh.read()

    # -- the table's side (any thread) ----------------------------------------

    @property
    def url(self):
        """The page's address (the token included when there is one)."""
        host = self.host
        if host in ("0.0.0.0", "::", ""):
            host = lan_address()
        if ":" in host:
            host = "[%s]" % host
        return "http://%s:%d%s/" % (host, self.port, self.prefix)

    @property
    def clients(self):
        """Number of open streams."""
        return len(self._clients)

    @property
    def connections(self):
        """Number of open connections (streams, pages being sent, idle ones)."""
        return len(self._conns)

    def _problem(self, text):
        self.problems += 1
        self.last_problem = text

    def publish(self, view):
        """Send ``view`` (a JSON-able dict of public facts) to every open page and keep
        it for pages that connect later. Never blocks on a client. Returns the
        stream's sequence number of this snapshot. Its advice goes with the table's
        words for the page's list (``with_advice_words``), its last die with the words
        every screen names it by (``with_die_words``)."""
        view = with_die_words(with_advice_words(view))
        data = json.dumps(view, sort_keys=True, separators=(",", ":")).encode("utf-8")
        self.seq += 1
        seq = self.seq
        self.published_at[seq] = time.time()
        self.published_at.pop(seq - 1000, None)  # the last thousand are plenty
        if self._loop is None:
            self._latest = data
            return seq
        self._loop.call_soon_threadsafe(self._fanout, seq, data)
        return seq

    def drop_clients(self):
        """Close every open stream (the pages reconnect by themselves)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._close_all)

    def start(self):
        """Start serving on a background thread; returns ``url``. Raises ``OSError``
        when the address can't be bound (in use, not this machine's)."""
        self._thread = threading.Thread(target=self._serve, name="web-board", daemon=True)
        self._thread.start()
        self._ready.wait(15)
        if self._error is not None:
            raise self._error
        if not self._ready.is_set():
            raise OSError(_("the web board did not start within 15 s"))
        return self.url

    def stop(self):
        """Close every stream and stop the server thread."""
        loop = self._loop
        if loop is None:
            return
        fut = asyncio.run_coroutine_threadsafe(self._shutdown(), loop)
        try:
            fut.result(10)
        except Exception:  # noqa: BLE001 - stopping: nothing more to do
            pass
        if self._thread is not None:
            self._thread.join(10)
        self._loop = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    # -- the server thread ------------------------------------------------------

    def _frame(self, seq, data, event="snapshot"):
        return b"retry: 1000\nid: %d\nevent: %s\ndata: %s\n\n" % (seq, event.encode(), data)

    def _fanout(self, seq, data):
        self._latest = data
        self._latest_seq = seq
        frame = self._frame(seq, data)
        for client in list(self._clients):
            try:
                client.queue.put_nowait(frame)
            except asyncio.QueueFull:
                # Too slow: forget what it has not read; it gets the newest in full.
                while not client.queue.empty():
                    client.queue.get_nowait()
                client.dropped += 1
                client.queue.put_nowait(self._frame(seq, data, "resync"))

    def _close_all(self):
        for client in list(self._clients):
            while not client.queue.empty():
                client.queue.get_nowait()
            client.queue.put_nowait(_CLOSE)

    def _loop_error(self, loop, context):
        # never printed: an accept that found no file descriptor (asyncio pauses accepting
        # for a second by itself), a reset connection; counted instead
        self._problem(str(context.get("message") or context.get("exception")))

    def _serve(self):
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(self._loop_error)
        self._loop_now = loop
        _silence_logs()
        _Quiet.boards.add(self)
        try:
            loop.run_until_complete(self._begin())
        except BaseException as exc:  # noqa: BLE001 - handed to start()
            self._error = exc if isinstance(exc, OSError) else OSError(str(exc))
            self._ready.set()
            loop.close()
            return
        self._loop = loop
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()

    async def _begin(self):
        app = web.Application(middlewares=[self._guard], client_max_size=4096)
        p = self.prefix
        app.router.add_get(p + "/", self._page)
        for name in STATIC:
            if name != "index.html":
                app.router.add_get(p + "/" + name, self._file)
        app.router.add_get(p + "/palette.css", self._palette)
        app.router.add_get(p + "/events", self._events, allow_head=False)
        app.router.add_get(p + "/view", self._view)
        if self.controls is not None:
            app.router.add_post(p + "/control/{command}", self._control)
        if p:
            app.router.add_get(p, self._slash)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                     shutdown_timeout=1.0, keepalive_timeout=self.idle_timeout_s,
                                     max_line_size=4096, max_field_size=4096)
        await self._runner.setup()
        # aiohttp's handler behind a gate that counts and times every connection
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Gate(self), self.host, self.port, reuse_address=True, backlog=BACKLOG)
        if self.port == 0:
            self.port = self._server.sockets[0].getsockname()[1]
        self._latest_seq = self.seq

    async def _shutdown(self):
        self._close_all()
        if self._server is not None:
            self._server.close()
        await asyncio.sleep(0.05)
        for gate in list(self._conns.values()):
            gate.transport.abort()
        if self._runner is not None:
            await self._runner.cleanup()
        _Quiet.boards.discard(self)
        asyncio.get_running_loop().call_soon(asyncio.get_running_loop().stop)

    @web.middleware
    async def _guard(self, request, handler):
        gate = self._conns.get(request.transport)
        if gate is not None:
            gate.heard()
        try:
            refusal = self._refusal(request)
            if refusal is not None:
                resp = web.Response(status=refusal[0], text=refusal[1] + "\n")
                resp.force_close()  # a refused request keeps no connection open
            else:
                resp = await handler(request)
        except web.HTTPException as exc:
            resp = web.Response(status=exc.status, text=exc.reason + "\n")
            resp.force_close()
        for key, value in HEADERS.items():
            resp.headers.setdefault(key, value)
        return resp

    def _refusal(self, request):
        """``(status, text)`` for a request this board does not answer, else ``None``."""
        path = request.path
        if self.token:
            given = path[1:].split("/", 1)[0]  # where the token stands: /<token>/...
            if not secrets.compare_digest(given.encode("utf-8", "replace"),
                                          self.token.encode()):
                return 403, ("this scoreboard needs the address with its token "
                             "(see the table's screen)")
        elif not self._local_host(request.host):
            return 403, "this scoreboard answers only to its own loopback address"
        if request.method not in ("GET", "HEAD", "POST"):
            return 405, "read-only"
        if request.method == "POST":
            if self.controls is None:
                return 405, "read-only"
            site = request.headers.get("Sec-Fetch-Site")
            if site not in (None, "same-origin"):
                return 403, "controls only from the scoreboard page"
            # an older browser sends no Sec-Fetch-Site but an Origin: it must be this board
            origin = request.headers.get("Origin")
            if origin is not None and origin.split("://", 1)[-1] != request.host:
                return 403, "controls only from the scoreboard page"
        return None

    def _local_host(self, host_header):
        host = (host_header or "").rsplit(":", 1)[0].strip("[]")
        return host in ("127.0.0.1", "localhost", "::1") or is_loopback(host)

    async def _page(self, request):
        from camelhost.web.words import page_with_words  # the page's words (issue 30)
        body = page_with_snapshot(self._static["index.html"], self._latest)
        body = page_with_words(body)
        return web.Response(body=body, content_type="text/html", charset="utf-8")

    async def _slash(self, request):
        return web.Response(status=302, headers={"Location": self.prefix + "/"})

    async def _file(self, request):
        name = request.path.rsplit("/", 1)[1]
        ctype = STATIC[name]
        resp = web.Response(body=self._static[name])
        resp.headers["Content-Type"] = ctype
        return resp

    async def _palette(self, request):
        resp = web.Response(body=palette_css().encode("utf-8"))
        resp.headers["Content-Type"] = "text/css; charset=utf-8"
        return resp

    async def _view(self, request):
        resp = web.Response(body=self._latest)
        resp.headers["Content-Type"] = "application/json"
        return resp

    async def _control(self, request):
        command = request.match_info["command"]
        if command not in CONTROLS:
            raise web.HTTPNotFound()
        await asyncio.get_running_loop().run_in_executor(None, self.controls, command)
        return web.Response(status=204)

    async def _events(self, request):
        if len(self._clients) >= self.max_clients:
            raise web.HTTPServiceUnavailable(reason="too many screens are open")
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "X-Accel-Buffering": "no"})
        for key, value in HEADERS.items():
            resp.headers[key] = value
        await resp.prepare(request)
        client = _Client(self.queue_size)
        self._clients.add(client)
        try:
            await asyncio.wait_for(resp.write(self._frame(self._latest_seq, self._latest)),
                                   self.write_timeout_s)
            while True:
                try:
                    item = await asyncio.wait_for(client.queue.get(), self.heartbeat_s)
                except asyncio.TimeoutError:
                    item = b"event: ping\ndata: 1\n\n"
                if item is _CLOSE:
                    break
                await asyncio.wait_for(resp.write(item), self.write_timeout_s)
        except (ConnectionError, asyncio.TimeoutError, RuntimeError):
            pass  # gone or too slow: the page reconnects and resyncs
        finally:
            self._clients.discard(client)
        return resp


def palette_css():
    """CSS for the camel, die and tile colours: ``--<name>`` (fill) and ``--ink-<name>``
    (text on it) custom properties and a ``.c-<name>`` class per colour. One source:
    ``camelhost.ui.palette`` when present, else ``_FALLBACK``."""
    colours = camel_colours()
    lines = [":root {", "  --board: %s;\n  --board-ink: %s;" % board_colours()]
    for key, (fill, ink) in zip(("tile-plus", "tile-minus"), tile_colours(), strict=True):
        lines.append("  --%s: %s;\n  --ink-%s: %s;" % (key, fill, key, ink))
    for name in sorted(colours):
        fill, ink = colours[name]
        lines.append("  --%s: %s;\n  --ink-%s: %s;" % (name, fill, name, ink))
    lines.append("}")
    for name in sorted(colours):
        lines.append(".c-%s { fill: var(--%s); background-color: var(--%s); color: var(--ink-%s); }"
                     % (name, name, name, name))
    return "\n".join(lines) + "\n"


#: Screen colours ``(fill, ink)`` of the camels and dice (sRGB), used when
#: ``camelhost.ui.palette`` is not in this build.
_FALLBACK = {
    "blue": ("#1f6fe0", "#ffffff"), "green": ("#2ea043", "#000000"),
    "yellow": ("#f7d117", "#000000"), "red": ("#d9261c", "#ffffff"),
    "purple": ("#8a3ab9", "#ffffff"), "orange": ("#f27a0c", "#000000"),
    "white": ("#f6f6f2", "#000000"), "black": ("#161616", "#ffffff"),
    "grey": ("#8c8c8c", "#000000"),
}


def tile_colours():
    """``((fill, ink) forward side, (fill, ink) backward side)`` of the player tiles."""
    out = [("#33c3c9", "#000000"), ("#ef7fb2", "#000000")]
    try:
        from camelhost.ui import palette
        for i, side in enumerate("+-"):
            out[i] = (palette.PIECES[side].rgb, palette.PIECES[side].ink)
    except (ImportError, AttributeError, KeyError):
        pass
    return tuple(out)


def board_colours():
    """``(background, text)`` of the track, the palette's dark theme (a dark sand)."""
    try:
        from camelhost.ui import palette
        return palette.BACKGROUNDS["dark"], palette.FOREGROUNDS["dark"]
    except (ImportError, AttributeError, KeyError):
        return "#4a3c29", "#f4ecd8"


def camel_colours():
    """``{name: ("#rrggbb" fill, "#rrggbb" ink)}`` for every camel and die colour."""
    out = dict(_FALLBACK)
    try:
        from camelhost.ui import palette  # the table's one colour table, when present
    except ImportError:
        return out
    for name, piece in getattr(palette, "PIECES", {}).items():
        rgb, ink = getattr(piece, "rgb", None), getattr(piece, "ink", None)
        if name.isalpha() and isinstance(rgb, str) and isinstance(ink, str):
            out[name] = (rgb, ink)
    return out


def lan_address():
    """This machine's address on the local network, for the printed URL (no packet
    is sent: a UDP socket only asks the routing table). ``127.0.0.1`` if unknown."""
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: routed, never reached
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def qr_text(url):
    """The QR code of ``url`` as terminal text (``segno``), two modules per character
    row so it fits a laptop screen."""
    import io

    import segno
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
