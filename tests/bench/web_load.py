"""The web scoreboard under load: idle and streaming connections at a low open-file limit.

A LAN-mode board (token forced, loopback address only: 127.0.0.1) runs in its own
process with its open-file limit (``RLIMIT_NOFILE``) lowered to ``--nofile``, publishing
a snapshot every 0.2 s as a live table would. This process then opens ``--idle``
connections that never send a byte, ``--streams`` connections that ask for the event
stream with the token, and ``--tokenless`` requests without it, holds them ``--hold``
seconds, closes every one, and asks for the page as a new client. It reports:

- what the board's terminal printed (its stderr and any stdout line that is not a
  report): the table's terminal must stay quiet;
- how the connections fared (connected, closed by the board, streams served / refused,
  token-less requests refused and closed);
- the time from the last close to the page received (must be under 1 s), and the
  page's time before the load;
- the board's resident memory (``VmRSS``) before, at the peak and after.

Every loop is bounded (a connection count, timeouts on every wait, ``--hold``), and the
board stops by itself when this process ends. ``make web-load`` runs the issue's
figures (2,000 idle, 500 streaming, a limit of 1,024); ``--json`` prints the figures as
one JSON object (``tests/test_web_server.py`` runs a small one).
"""

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import time

HOST = "127.0.0.1"  # loopback only: this benchmark never opens another address

SERVER = r"""
import json, resource, sys, threading, time
nofile, header, idle, life = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, hard))
from camelhost.web.server import WebBoard
board = WebBoard("127.0.0.1", 0, token=True, header_timeout_s=header, idle_timeout_s=idle)
board.start()
print(json.dumps({"port": board.port, "token": board.token,
                  "max_connections": board.max_connections}), flush=True)
done = threading.Event()
def read():
    for line in sys.stdin:
        if line.strip() == "stats":
            print(json.dumps({"connections": board.connections, "streams": board.clients,
                              "turned_away": board.turned_away, "evicted": board.evicted,
                              "timed_out": board.timed_out,
                              "problems": board.problems, "last_problem": board.last_problem}),
                  flush=True)
    done.set()
threading.Thread(target=read, daemon=True).start()
end = time.monotonic() + life
n = 0
while not done.is_set() and time.monotonic() < end:
    n += 1
    board.publish({"n": n, "track": list(range(16))})
    done.wait(0.2)
board.stop()
"""


def rss_kib(pid):
    """Resident memory of process ``pid`` in KiB (``/proc/PID/status``), or None."""
    try:
        with open("/proc/%d/status" % pid) as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class Board:
    """The board's process: ``port``, ``token``, ``stats()``, ``stop()``."""

    def __init__(self, nofile, header_s, idle_s, life_s):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER, str(nofile), str(header_s),
                                      str(idle_s), str(life_s)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                     text=True)
        first = self.proc.stdout.readline()
        if not first:
            raise RuntimeError("the board did not start: %s" % self.proc.stderr.read())
        info = json.loads(first)
        self.port, self.token = info["port"], info["token"]
        self.max_connections = info["max_connections"]

    def stats(self):
        self.proc.stdin.write("stats\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def stop(self):
        """End the board; returns ``(extra stdout lines, stderr text)``."""
        try:
            out, err = self.proc.communicate(timeout=30)  # closes its stdin: it stops
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        return [x for x in out.splitlines() if x.strip()], err


async def _request(port, path, timeout=10.0):
    """``(status, body bytes)`` of one GET on a new connection (Connection: close)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), timeout)
    try:
        writer.write(b"GET %s HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n\r\n"
                     % (path.encode(), HOST.encode(), port))
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return status, body


async def _connect(port, sem, timeout):
    async with sem:
        try:
            return await asyncio.wait_for(asyncio.open_connection(HOST, port), timeout)
        except (OSError, asyncio.TimeoutError):
            return None


async def _stream(port, token, sem, timeout):
    """A stream asked for with the token: ``(status, reader, writer)`` or ``(0, ...)``."""
    pair = await _connect(port, sem, timeout)
    if pair is None:
        return 0, None, None
    reader, writer = pair
    try:
        writer.write(b"GET /%s/events HTTP/1.1\r\nHost: %s:%d\r\nAccept: text/event-stream"
                     b"\r\n\r\n" % (token.encode(), HOST.encode(), port))
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
    except (OSError, asyncio.TimeoutError):
        return 0, reader, writer
    status = int(line.split(b" ", 2)[1]) if line.startswith(b"HTTP/") else 0
    return status, reader, writer


async def _tokenless(port, sem, timeout):
    """A request without the token: ``"403 closed"`` (answered 403, then closed by the
    board), ``"reset"`` (closed before an answer: made room for another), ``"kept"``
    (still open after ``timeout``: what must never happen) or ``"other"``."""
    pair = await _connect(port, sem, timeout)
    if pair is None:
        return "reset"
    reader, writer = pair
    try:
        writer.write(b"GET /events HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (HOST.encode(), port))
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), timeout)  # to the end: the board closes
    except asyncio.TimeoutError:
        return "kept"
    except OSError:
        return "reset"
    finally:
        writer.close()
    if data.startswith(b"HTTP/1.1 403 "):
        return "403 closed"
    return "reset" if not data else "other"


async def _closed(reader, wait_s=2.0):
    """True when the board has closed this connection (EOF or reset) within ``wait_s``
    (the grace a loaded machine needs to hand this side the close; they are awaited at
    once, so ``wait_s`` in all)."""
    try:
        data = await asyncio.wait_for(reader.read(65536), wait_s)
    except asyncio.TimeoutError:
        return False
    except OSError:
        return True
    return data == b"" or reader.at_eof()


async def _load(board, idle, streams, tokenless, hold_s, timeout):
    port, token = board.port, board.token
    page = "/%s/" % token
    figures = {}
    t = time.perf_counter()
    status, _ = await _request(port, page)
    figures["page_before_ms"] = round((time.perf_counter() - t) * 1000, 1)
    figures["page_before_status"] = status
    figures["rss_before_kib"] = rss_kib(board.proc.pid)
    sem = asyncio.Semaphore(256)  # connects in flight at once
    idle_pairs = await asyncio.gather(*(_connect(port, sem, timeout) for _ in range(idle)))
    stream_results = await asyncio.gather(*(_stream(port, token, sem, timeout)
                                            for _ in range(streams)))
    refused = await asyncio.gather(*(_tokenless(port, sem, timeout) for _ in range(tokenless)))
    figures["idle_connected"] = sum(1 for p in idle_pairs if p is not None)
    # closed by the board to make room before this side saw its connect complete (or no
    # answer to the connect within the timeout)
    figures["idle_reset_at_connect"] = sum(1 for p in idle_pairs if p is None)
    figures["streams_served"] = sum(1 for s, _, _ in stream_results if s == 200)
    figures["streams_refused_503"] = sum(1 for s, _, _ in stream_results if s == 503)
    figures["streams_cut"] = sum(1 for s, _, _ in stream_results if s not in (200, 503))
    figures["tokenless_403_and_closed"] = refused.count("403 closed")
    figures["tokenless_reset"] = refused.count("reset")
    figures["tokenless_kept_open"] = refused.count("kept") + refused.count("other")
    figures["stats_loaded"] = board.stats()
    figures["rss_peak_kib"] = rss_kib(board.proc.pid)
    await asyncio.sleep(hold_s)  # long enough for the header timeout to act
    live = [p for p in idle_pairs if p is not None]
    closed = await asyncio.gather(*(_closed(r) for r, _ in live))
    figures["idle_closed_by_board"] = sum(closed)
    # a connect this side saw complete while the board's accept queues (BACKLOG) were
    # full may never have reached the board: the kernel dropped its handshake there, so
    # it is open on this side only, holding nothing of the board's (the board's own
    # count, stats_held, is what it holds)
    figures["idle_open_on_this_side_only"] = len(live) - sum(closed)
    figures["stats_held"] = board.stats()
    figures["rss_held_kib"] = rss_kib(board.proc.pid)
    for _, writer in live:
        writer.transport.abort()
    for _, _, writer in stream_results:
        if writer is not None:
            writer.transport.abort()
    closed_at = time.perf_counter()
    status, body = await _request(port, page)
    figures["page_after_close_ms"] = round((time.perf_counter() - closed_at) * 1000, 1)
    figures["page_after_close_status"] = status
    figures["page_after_close_bytes"] = len(body)
    await asyncio.sleep(0.5)
    figures["stats_after"] = board.stats()
    figures["rss_after_kib"] = rss_kib(board.proc.pid)
    return figures


def run(idle=2000, streams=500, tokenless=50, nofile=1024, header_s=2.0, idle_s=5.0,
        hold_s=None, timeout=15.0):
    """Run the load once; returns a dict of figures (see the module docstring)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = idle + streams + tokenless + 64
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    if hold_s is None:
        hold_s = header_s + 1.5
    board = Board(nofile, header_s, idle_s, life_s=hold_s + 120)
    try:
        figures = asyncio.run(_load(board, idle, streams, tokenless, hold_s, timeout))
    finally:
        extra, err = board.stop()
    figures.update(nofile=nofile, idle=idle, streams=streams, tokenless=tokenless,
                   max_connections=board.max_connections, header_timeout_s=header_s,
                   terminal_lines=len(extra) + len(err.splitlines()),
                   terminal_text=(("\n".join(extra) + err)[:2000]))
    return figures


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--idle", type=int, default=2000)
    ap.add_argument("--streams", type=int, default=500)
    ap.add_argument("--tokenless", type=int, default=50)
    ap.add_argument("--nofile", type=int, default=1024)
    ap.add_argument("--header", type=float, default=2.0, help="the board's header timeout (s)")
    ap.add_argument("--hold", type=float, default=None, help="seconds the load is held")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    figures = run(args.idle, args.streams, args.tokenless, args.nofile, args.header,
                  hold_s=args.hold)
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print("web board under load: %d idle, %d streaming, %d token-less connections; "
          "open-file limit %d, at most %d connections, header timeout %.1f s"
          % (args.idle, args.streams, args.tokenless, args.nofile,
             figures["max_connections"], args.header))
    for key in sorted(figures):
        if key not in ("terminal_text",):
            print("  %-26s %s" % (key, figures[key]))
    print("  the table's terminal: %s" % ("quiet" if figures["terminal_lines"] == 0 else
                                          "%d lines:\n%s" % (figures["terminal_lines"],
                                                             figures["terminal_text"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
