"""The web scoreboard's server without a browser: what it sends, to whom, and what
it refuses (issue 12). Everything listens on 127.0.0.1 only; LAN mode is tested by
forcing the token on the loopback address."""

import http.client
import json
import socket
import time

import pytest
from camelhost.table.display import Seam
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import odds_view, signed
from camelhost.web.follow import LiveBoard
from camelhost.web.replay import Replay
from camelhost.web.server import WebBoard, parse_address

# a legal start (RULES 3.2), then a correction puts the racers at the finish: the race
# ends after one die
FAST_SETUP = ["setup 1:blue 2:green 3:yellow,red,purple 14:black 15:white",
              "fix 14:blue 15:green 16:yellow,red,purple 10:black 11:white"]


#: Races simulated for the race odds of a board whose test reads none of them: the
#: table's own ``RACE_SAMPLES`` (5,000) cost ten times as much.
QUICK_SAMPLES = 500


def quick_odds(session):
    """A board's odds (``Seam(compute=...)``): ``odds_view`` with ``QUICK_SAMPLES`` races."""
    return odds_view(session, samples=QUICK_SAMPLES)


class Stream:
    """A server-sent-events reader on a plain socket (HTTP/1.1, chunked)."""

    def __init__(self, port, path, timeout=20, rcvbuf=None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.sendall(b"GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                          b"Accept: text/event-stream\r\n\r\n" % (path.encode(), port))
        self.file = self.sock.makefile("rb")
        head = self.file.readline().split()
        self.status = int(head[1])
        self.headers = {}
        while True:
            line = self.file.readline().strip()
            if not line:
                break
            key, _, value = line.decode().partition(":")
            self.headers[key.strip().lower()] = value.strip()
        self.buffer = b""

    def _more(self):
        size = self.file.readline()
        if not size:
            raise EOFError("stream closed")
        size = int(size.strip(), 16)
        if size == 0:
            raise EOFError("stream ended")
        self.buffer += self.file.read(size + 2)[:-2]

    def next(self, skip_pings=True):
        """``(event, data bytes)`` of the next message."""
        while True:
            while b"\n\n" not in self.buffer:
                self._more()
            block, self.buffer = self.buffer.split(b"\n\n", 1)
            fields = dict(line.split(b": ", 1) for line in block.split(b"\n") if b": " in line)
            if b"data" not in fields:
                continue
            event = fields.get(b"event", b"message").decode()
            if skip_pings and event == "ping":
                continue
            return event, fields[b"data"]

    def close(self):
        self.file.close()
        self.sock.close()


def get(port, path, method="GET", headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, headers=headers or {})
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, dict(resp.getheaders()), body


@pytest.fixture
def board():
    b = WebBoard("127.0.0.1", 0)
    b.start()
    yield b
    b.stop()


def test_parse_address_forms():
    assert parse_address(None) == ("127.0.0.1", 8765)
    assert parse_address("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_address("9000") == ("127.0.0.1", 9000)
    assert parse_address(":9001") == ("127.0.0.1", 9001)
    assert parse_address("[::1]:8080") == ("::1", 8080)
    with pytest.raises(ValueError, match="port"):
        parse_address("0.0.0.0:http")
    with pytest.raises(ValueError, match="0..65535"):
        parse_address("0.0.0.0:70000")


def test_every_answer_has_the_strict_headers(board):
    board.publish({"version": 1})
    for path, status in (("/", 200), ("/board.js", 200), ("/board.css", 200),
                         ("/palette.css", 200), ("/view", 200), ("/favicon.svg", 200),
                         ("/nothing-here", 404), ("/../server.py", 404)):
        got, headers, _ = get(board.port, path)
        assert got == status, path
        csp = headers["Content-Security-Policy"]
        assert "unsafe-inline" not in csp and "script-src 'self'" in csp
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
    s = Stream(board.port, "/events")
    assert "unsafe-inline" not in s.headers["content-security-policy"]
    assert s.headers["content-type"].startswith("text/event-stream")
    assert s.headers["referrer-policy"] == "no-referrer"
    s.close()


def test_page_has_no_inline_script_or_style(board):
    _, _, html = get(board.port, "/")
    text = html.decode()
    assert "<script src=\"board.js\"" in text
    assert "style=" not in text and "<style" not in text and "onclick" not in text
    assert "http://" not in text and "https://" not in text  # nothing from elsewhere


def _page_snapshot(html):
    """The JSON of the page's snapshot data block (and the block must be the only one)."""
    import re

    text = html.decode()
    blocks = re.findall(r'<script id="snapshot" type="application/json">(.*?)</script>', text,
                        re.S)
    assert len(blocks) == 1, text[:400]
    return json.loads(blocks[0])


def test_page_arrives_with_the_current_snapshot_before_any_stream(board):
    """QA finding: the page showed "waiting for the table..." until its stream connected.
    The page's own first response now carries the snapshot /view would give."""
    _, _, html = get(board.port, "/")
    assert _page_snapshot(html) == {}  # nothing published yet: the page waits
    view = {"version": 7, "names": ["Ann</script><script>alert(1)</script>", "B&<!--"]}
    board.publish(view)
    deadline = time.time() + 10
    while json.loads(get(board.port, "/view")[2]) != view and time.time() < deadline:
        time.sleep(0.02)
    _, headers, html = get(board.port, "/")
    assert headers["Content-Type"].startswith("text/html")
    assert _page_snapshot(html) == view == json.loads(get(board.port, "/view")[2])
    text = html.decode()
    assert "alert(1)</script>" not in text and "<!--" not in text  # a name cannot break out
    # the two data blocks (the snapshot, the page's words) and board.js: no inline code
    assert text.count("<script") == 3
    assert text.count('<script id="snapshot" type="application/json">') == 1
    assert text.count('<script id="words" type="application/json">') == 1
    assert "unsafe-inline" not in headers["Content-Security-Policy"]


def test_a_german_tables_page_is_labelled_german_before_its_script_runs():
    # tester 2, finding 4: the served HTML said <html lang="en"> and an English title
    from camelhost.i18n import set_language
    set_language("de")
    with WebBoard("127.0.0.1", 0) as b:
        text = get(b.port, "/")[2].decode()
    assert '<html lang="de">' in text and 'lang="en"' not in text
    assert "<title data-t>Camel Up Anzeigetafel</title>" in text
    set_language("en")
    with WebBoard("127.0.0.1", 0) as b:
        text = get(b.port, "/")[2].decode()
    assert '<html lang="en">' in text and "<title data-t>Camel Up scoreboard</title>" in text


def test_the_grey_dies_reason_comes_in_the_tables_language_as_its_path_does():
    # tester 2, finding 4: last_die.path was German, last_die.why English
    from camelhost.i18n import set_language
    from camelhost.table.view import table_view
    set_language("de")
    s = Session("second", ["Ann", "Bob", "Cid"], seed=1)
    for text in ("setup 1:blue,green 2:red 3:yellow,purple 14:black,white",
                 "pyramid", "grey black 1"):
        s.command(text)
    die = table_view(s, odds=False)["last_die"]  # its odds: not what is read here
    assert die["camel"] == "white" and die["path"] == "von Feld 14 auf 13"
    assert die["why"] == "es sitzt direkt auf dem anderen verrückten Kamel"


def test_page_of_a_followed_game_carries_its_position():
    s, commands = _game(("win blue", "lose red"))
    with WebBoard("127.0.0.1", 0) as b, LiveBoard(b, Seam(s, compute=quick_odds)) as follower:
        for text in commands[:4]:
            s.command(text)
        assert follower.wait_idle()
        shown = _page_snapshot(get(b.port, "/")[2])
        assert shown == json.loads(get(b.port, "/view")[2])
        assert shown["version"] == s.version
        assert shown["piles"] == {"winner": 1, "loser": 1}  # counted, colours hidden
        assert b"blue" not in json.dumps(shown["piles"]).encode()


def test_lan_mode_refuses_every_request_without_the_token():
    with WebBoard("127.0.0.1", 0, token=True) as b:
        b.publish({"version": 3})
        assert len(b.token) >= 32 and b.url.endswith("/%s/" % b.token)
        wrong = b.token[:-1] + ("A" if b.token[-1] != "A" else "B")
        for path in ("/", "/view", "/events", "/board.js", "/palette.css",
                     "/%s/view" % wrong, "/%sx/view" % b.token, "/view?token=" + b.token):
            status, headers, body = get(b.port, path)
            assert status == 403, path
            assert b.token.encode() not in body
            assert headers["Referrer-Policy"] == "no-referrer"
        status, _, body = get(b.port, "/%s/view" % b.token)
        assert status == 200 and json.loads(body) == {"version": 3}
        status, _, body = get(b.port, "/%s/" % b.token)
        assert status == 200 and b"board.js" in body
        status, headers, _ = get(b.port, "/%s" % b.token)
        assert status == 302 and headers["Location"] == "/%s/" % b.token


def test_off_loopback_address_gets_a_token_by_itself():
    b = WebBoard("0.0.0.0", 0)  # not started: nothing leaves this machine
    assert b.token and b.prefix == "/" + b.token
    assert WebBoard("127.0.0.1", 0).token is None


def test_loopback_board_answers_only_its_own_host_name(board):
    status, _, _ = get(board.port, "/view", headers={"Host": "evil.example:%d" % board.port})
    assert status == 403
    status, _, _ = get(board.port, "/view", headers={"Host": "localhost:%d" % board.port})
    assert status == 200


def test_live_board_is_read_only(board):
    for method in ("POST", "PUT", "DELETE"):
        status, _, _ = get(board.port, "/control/next", method=method)
        assert status in (403, 404, 405), method
    status, _, _ = get(board.port, "/view", method="POST")
    assert status in (404, 405)
    assert get(board.port, "/events", method="HEAD")[0] == 405  # no stream held open
    assert board.clients == 0


def test_stream_starts_with_the_full_snapshot_and_follows_each_publish(board):
    board.publish({"version": 1, "x": "a"})
    s = Stream(board.port, "/events")
    assert s.next() == ("snapshot", b'{"version":1,"x":"a"}')
    board.publish({"version": 2, "x": "b"})
    assert s.next() == ("snapshot", b'{"version":2,"x":"b"}')
    board.drop_clients()
    with pytest.raises(EOFError):
        s.next()
    again = Stream(board.port, "/events")  # a page reconnecting gets the same state
    assert again.next() == ("snapshot", b'{"version":2,"x":"b"}')
    again.close()


def test_bounded_number_of_streams():
    with WebBoard("127.0.0.1", 0, max_clients=2) as b:
        b.publish({"version": 1})
        first, second = Stream(b.port, "/events"), Stream(b.port, "/events")
        first.next()
        second.next()
        assert b.clients == 2
        third = Stream(b.port, "/events")
        assert third.status == 503
        third.close()
        first.close()
        deadline = time.monotonic() + 5
        while b.clients > 1 and time.monotonic() < deadline:
            b.publish({"version": 2})  # a write to the closed stream ends it
            time.sleep(0.05)
        fourth = Stream(b.port, "/events")
        assert fourth.status == 200
        fourth.close()
        second.close()


def test_a_slow_client_gets_a_resync_and_never_holds_up_the_others():
    big = "x" * 1_000_000  # large snapshots fill the slow reader's socket at once
    with WebBoard("127.0.0.1", 0, queue_size=3, write_timeout_s=60) as b:
        b.publish({"version": 0})
        slow = Stream(b.port, "/events")  # and it does not read for now
        fast = Stream(b.port, "/events")
        assert fast.next()[1] == b'{"version":0}'
        count = 24
        for n in range(1, count + 1):
            b.publish({"version": n, "pad": big})
            got = json.loads(fast.next()[1])
            assert got["version"] == n  # the fast page sees every snapshot, in order
        # the slow page reads at last: snapshots were dropped, then a resync with the newest
        seen, resyncs = [], 0
        while not seen or seen[-1] != count:
            event, data = slow.next()
            seen.append(json.loads(data)["version"])
            resyncs += event == "resync"
        assert resyncs >= 1 and len(seen) < count + 1
        assert seen == sorted(seen)
        slow.close()
        fast.close()


# -- hidden information: finish cards ------------------------------------------------


def _game(cards):
    """A three-seat race that ends after one die; ``cards``: Ann's and Ben's finish
    card actions. Returns the session (journal in memory)."""
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None))
    return s, FAST_SETUP + [cards[0], cards[1], "leg green", "pyramid", "yellow 2"]


def _frames(cards):
    """Every byte the board sends for that game: page files, every snapshot on the
    stream and the /view answer after each event."""
    s, commands = _game(cards)
    with WebBoard("127.0.0.1", 0) as b:
        follower = LiveBoard(b, Seam(s)).start()
        assert follower.wait_idle()  # the game line is on the board
        stream = Stream(b.port, "/events")
        static = b"".join(get(b.port, p)[2] for p in ("/", "/board.js", "/board.css",
                                                       "/palette.css"))
        frames = []
        for text in commands:
            s.command(text)
            assert follower.wait_idle()
            pending = []
            while True:  # the position at once, then with its odds
                frame = stream.next()[1]
                if json.loads(frame).get("version") != s.version:
                    continue  # an earlier position's frame, still on its way: not this one's
                if b'"odds_pending":true' not in frame:
                    break
                pending.append(frame)
            # the position without its odds is sent first unless the odds came before
            # the stream's next write (then only the frame with them): whether it was
            # seen is timing, what it holds is not: the same view, no odds
            for early in pending:
                assert json.loads(early) == dict(json.loads(frame), odds=None,
                                                 odds_pending=True)
            frames.append(frame)
            frames.append(_view_with_odds(b.port, s.version))
        follower.stop()
        stream.close()
    assert s.phase == "over"
    return static, frames


def _view_with_odds(port, version, timeout=60.0):
    """The board's ``/view`` once it is of ``version`` with its odds worked out (the
    odds come a while after the position: whether a GET catches them pending is timing,
    not what the board tells)."""
    end = time.monotonic() + timeout
    while True:
        body = get(port, "/view")[2]
        view = json.loads(body)
        if (view.get("version") == version and not view.get("odds_pending")) \
                or time.monotonic() > end:
            return body
        time.sleep(0.02)


@pytest.mark.slow
def test_no_byte_tells_a_played_finish_card_before_the_reveal():
    # Two games that differ only in the colours of the finish cards played: every
    # byte the board sends must be the same until the race is over.
    static_a, a = _frames(("win blue", "lose red"))
    static_b, b = _frames(("win green", "lose purple"))
    assert static_a == static_b
    last = len(a) - 2  # the frames of the die that ends the race
    assert a[:last] == b[:last]
    advised = 0
    for frame in a[:last]:
        view = json.loads(frame)
        # finish-card advice is for a hand the table can't see, by its pile only: the
        # table reads it, and the colour a player lays is private (RULES 1.8)
        for entry in ((view.get("odds") or {}).get("actions") or {}).get("values", []):
            if entry["kind"] == "finish":
                advised += 1
                lead = ("%.0f%% to win" % (100 * entry["win"]) if entry["win"] is not None
                        else "overall %s" % signed(entry["score"]))
                assert ("its colour chosen unseen: %s, now %s (" % (lead, signed(entry["ev"]))
                        in entry["text"])
                assert entry["action"] == "finish " + entry["pile"]
        assert view["final"] is None and view["piles"] in (
            {"winner": 0, "loser": 0}, {"winner": 1, "loser": 0}, {"winner": 1, "loser": 1})
    assert advised
    # ... and the reveal does show them, each pile in play order
    final_a, final_b = json.loads(a[-1])["final"], json.loads(b[-1])["final"]
    assert [c["colour"] for c in final_a["piles"]["winner"]] == ["blue"]
    assert [c["colour"] for c in final_b["piles"]["loser"]] == ["purple"]
    assert final_a["piles"]["winner"][0]["name"] == "Ann"


# -- replay ------------------------------------------------------------------------------


def test_replay_steps_through_the_journal_and_only_replay_has_controls():
    s, commands = _game(("win blue", "lose red"))
    for text in commands:
        s.command(text)
    events = s.journal.events
    holder = {}
    with WebBoard("127.0.0.1", 0, controls=lambda c: holder["r"].command(c)) as b:
        replay = holder["r"] = Replay(b, events, play_s=0.05)
        replay.show()
        view = json.loads(get(b.port, "/view")[2])
        assert view["replay"] == {"step": 0, "steps": len(events) - 1, "playing": False}
        assert not any(r["stack"] for r in view["track"]) and view["final"] is None
        assert get(b.port, "/control/next", method="POST")[0] == 204
        view = json.loads(get(b.port, "/view")[2])
        assert view["replay"]["step"] == 1
        assert [r["space"] for r in view["track"] if r["stack"]] == [1, 2, 3, 14, 15]  # the setup
        get(b.port, "/control/next", method="POST")
        view = json.loads(get(b.port, "/view")[2])
        assert [r["space"] for r in view["track"] if r["stack"]] == [10, 11, 14, 15, 16]  # the fix
        assert get(b.port, "/control/last", method="POST")[0] == 204
        view = json.loads(get(b.port, "/view")[2])
        assert view["phase"] == "over" and view["final"]["winner"] == "purple"
        get(b.port, "/control/previous", method="POST")
        view = json.loads(get(b.port, "/view")[2])
        assert view["final"] is None and view["piles"] == {"winner": 1, "loser": 1}
        get(b.port, "/control/first", method="POST")
        get(b.port, "/control/play", method="POST")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            view = json.loads(get(b.port, "/view")[2])
            if view["replay"]["step"] == view["replay"]["steps"]:
                break
            time.sleep(0.05)
        assert view["replay"] == {"step": len(events) - 1, "steps": len(events) - 1,
                                  "playing": False}
        assert get(b.port, "/control/explode", method="POST")[0] == 404
        assert get(b.port, "/control/next", method="POST",
                   headers={"Sec-Fetch-Site": "cross-site"})[0] == 403
        # a browser that sends no Sec-Fetch-Site: its Origin must be this board
        step = json.loads(get(b.port, "/view")[2])["replay"]["step"]
        assert get(b.port, "/control/first", method="POST",
                   headers={"Origin": "http://evil.example"})[0] == 403
        assert json.loads(get(b.port, "/view")[2])["replay"]["step"] == step
        assert get(b.port, "/control/first", method="POST",
                   headers={"Origin": "http://127.0.0.1:%d" % b.port})[0] == 204
        replay.stop()


def test_a_replay_says_an_undo_and_a_redo_at_their_steps_only():
    # the live board's undo notice in a replay too: the step that is an undo (or a
    # redo) carries the table's words of it, every other step none
    s, commands = _game(("win blue", "lose red"))
    for text in commands[:-2] + ["undo", "redo", "pyramid", "yellow 2"]:
        s.command(text)
    events = s.journal.events
    kinds = [e.get("type") for e in events[1:]]
    at = {kind: 1 + kinds.index(kind) for kind in ("undo", "redo")}
    with WebBoard("127.0.0.1", 0) as b:
        replay = Replay(b, events)
        said = []
        for step in range(len(events)):
            replay.step = step
            replay.show()
            said.append(json.loads(get(b.port, "/view")[2])["undo"])
        # stepping back onto the undo from the end says it again
        replay.step = at["undo"]
        replay.show()
        again = json.loads(get(b.port, "/view")[2])["undo"]
        replay.stop()
    assert said[at["undo"]] == again == "undone: Cy's leg ticket on green"
    assert said[at["redo"]] == "redone: Cy's leg ticket on green"
    assert [w for i, w in enumerate(said) if i not in at.values()] == [None] * (len(said) - 2)


SEVEN = ["Maria", "Jonas", "Leonie", "Tariq", "Sofia", "Ömer", "Kai"]


def _seven_at_a_leg_end():
    """Seven players just after leg 1 is scored: a ticket or a tile in every row."""
    s = Session("second", SEVEN, seed=3)
    s.command("setup 1:blue,green,red,yellow,purple 15:black 16:white")
    for move in ("leg red", "leg blue", "tile 8 -", "leg green", "leg red", "leg yellow",
                 "leg purple"):
        s.command(move)
    for die in ("red 1", "blue 2", "green 3", "yellow 1", "purple 2"):
        s.command("pyramid")
        s.command(die)
    assert s.game.leg == 2
    return s


@pytest.mark.parametrize("lang, scoring, camel, coins", [
    ("en", "; this also takes back the leg 1 scoring: every player's coins, tickets and "
           "tiles as before it; ",
     "; move the purple camel back to space 3, on top of yellow and blue; ",
     "coins back to Maria 3, Jonas 3"),
    ("de", "; das nimmt auch die Etappenwertung 1 zurück: EP, Wett- und Pyramidenplättchen "
           "sowie die Plättchen aller Spieler wie davor; ",
     "; setze das Kamel lila auf Feld 3 zurück, oben auf gelb und blau; ",
     "EP wie davor: Maria 3, Jonas 3")])
def test_the_pages_undo_of_a_scoring_is_one_clause_and_its_camels_in_words(lang, scoring,
                                                                            camel, coins):
    # tester s33-2 finding 5: the undo of a leg's scoring put every player's coins and
    # tickets on the TV (up to 17 lines at seven seats), and the camels in the table's
    # notation (3:[blue,yellow,purple]). The page says the scoring in one clause and
    # the camel in words; the table's own line keeps every coin and ticket.
    from camelhost.i18n import set_language
    set_language(lang)
    try:
        s = _seven_at_a_leg_end()
        board = FakeBoard()
        seam = Seam(s, compute=quick_odds)
        with LiveBoard(board, seam) as live:
            notices = s.command("undo")
            seam.notices(notices, seam.catch_up())  # as the table hands them on
            table = notices[0]["text"]
            assert live.wait_idle()
        seam.close()
    finally:
        set_language("en")
    page = board.published[-1]["undo"]
    assert scoring in page and camel in page, page
    assert coins not in page and "Kai" not in page and "3:[" not in page, page
    assert coins in table and "Kai" in table and camel in table, table


class FakeBoard:
    """What a ``LiveBoard`` publishes to, kept."""

    def __init__(self):
        self.published = []

    def publish(self, view):
        self.published.append(view)


def test_palette_css_has_every_camel_and_die_colour_of_both_editions(board):
    from camelup.editions import EDITIONS
    status, headers, body = get(board.port, "/palette.css")
    css = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    for ed in EDITIONS.values():
        for colour in set(ed.camels) | set(ed.dice):
            assert ".c-%s {" % colour in css and "--ink-%s:" % colour in css


def test_palette_css_takes_the_tables_palette_when_there_is_one(monkeypatch):
    import sys
    import types

    from camelhost.web import server
    fake = types.ModuleType("camelhost.ui.palette")

    class Piece:
        def __init__(self, rgb, ink):
            self.rgb, self.ink = rgb, ink

    fake.PIECES = {"blue": Piece("#0000fe", "#ffffff"), "+": Piece("#00ff00", "#000000"),
                   "-": Piece("#ff00ff", "#000000")}
    fake.BACKGROUNDS, fake.FOREGROUNDS = {"dark": "#101010"}, {"dark": "#fefefe"}
    monkeypatch.setitem(sys.modules, "camelhost.ui.palette", fake)
    import camelhost.ui
    monkeypatch.setattr(camelhost.ui, "palette", fake, raising=False)
    css = server.palette_css()
    assert "--blue: #0000fe;" in css and "--tile-plus: #00ff00;" in css
    assert "--board: #101010;" in css and "--red: #d9261c;" in css  # the rest: defaults


def test_every_page_file_is_served_and_goes_into_the_wheel():
    import fnmatch
    import os
    import tomllib

    from camelhost import paths
    from camelhost.web.server import STATIC, STATIC_DIR
    with open(os.path.join(paths.REPO_ROOT, "pyproject.toml"), "rb") as fh:
        data = tomllib.load(fh)["tool"]["setuptools"]["package-data"]
    # as data of camelhost.web ("static/*.js") or of the package camelhost.web.static
    patterns = ["static/" + p for p in data.get("camelhost.web.static", [])] + \
        list(data.get("camelhost.web", []))
    files = set(os.listdir(STATIC_DIR)) - {"__pycache__", "__init__.py"}
    assert files == set(STATIC)
    for name in files:
        assert any(fnmatch.fnmatch("static/" + name, p) for p in patterns), name


# --- no one wears the board out without its token (issue 29, item 6) -----------------

def _read_to_end(sock):
    """Every byte the board sends until it closes the connection (a 10 s limit per
    read: a board that keeps the connection fails the test with a timeout)."""
    sock.settimeout(10)
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def test_web_a_connection_that_never_speaks_is_closed_by_the_board():
    with WebBoard("127.0.0.1", 0, header_timeout_s=0.3) as board:
        silent = socket.create_connection(("127.0.0.1", board.port), timeout=10)
        try:
            assert _read_to_end(silent) == b""  # closed by the board, nothing sent
        finally:
            silent.close()
        assert board.timed_out == 1


def test_web_a_request_without_the_token_is_answered_and_its_connection_closed():
    with WebBoard("127.0.0.1", 0, token=True) as board:
        sock = socket.create_connection(("127.0.0.1", board.port), timeout=10)
        try:
            # keep-alive asked for: the board still closes it after the refusal
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                         b"Connection: keep-alive\r\n\r\n" % board.port)
            data = _read_to_end(sock)
        finally:
            sock.close()
        assert data.startswith(b"HTTP/1.1 403 ")
        assert board.connections == 0


def test_web_silent_connections_make_room_for_a_screen_that_speaks():
    with WebBoard("127.0.0.1", 0, max_connections=4) as board:
        board.publish({"leg": 1})
        silent = [socket.create_connection(("127.0.0.1", board.port), timeout=10)
                  for _ in range(6)]
        try:
            status, _, body = get(board.port, "/")  # the oldest silent one made room
            assert status == 200 and b'"leg":1' in body
            assert board.connections <= 4 and board.evicted >= 3
            # the silent ones closed to make room were closed, not left hanging
            assert _read_to_end(silent[0]) == b""
        finally:
            for sock in silent:
                sock.close()


@pytest.mark.process
def test_web_board_under_load_at_a_low_open_file_limit_stays_quiet_and_serves_after():
    """A small run of tests/bench/web_load.py: a LAN-mode board (token forced, 127.0.0.1)
    whose process may open 256 files, under 300 idle, 40 streaming and 10 token-less
    connections. The board's terminal prints nothing (it printed an accept traceback
    per connection it could not take), every idle connection is closed by the board,
    no token-less request keeps its connection (answered 403 and closed, or closed to
    make room), and once they have gone the page is served to a new client."""
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(__file__), "bench", "web_load.py")
    spec = importlib.util.spec_from_file_location("web_load", path)
    web_load = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(web_load)
    figures = web_load.run(idle=300, streams=40, tokenless=10, nofile=256, header_s=1.0)
    assert figures["terminal_lines"] == 0, figures["terminal_text"]
    # a connection the board closed to make room before the client saw its connect
    # complete counts as refused at connect (a reset); every other one was closed later
    assert figures["idle_connected"] + figures["idle_reset_at_connect"] == 300
    assert figures["idle_connected"] > figures["max_connections"]
    # after the header timeout the board holds its streams only, no idle connection
    # (one the kernel never handed it is open on the client's side only)
    assert figures["stats_held"]["connections"] == figures["streams_served"]
    assert figures["idle_closed_by_board"] > figures["max_connections"]
    assert figures["tokenless_kept_open"] == 0
    assert figures["tokenless_403_and_closed"] >= 1
    assert figures["tokenless_403_and_closed"] + figures["tokenless_reset"] == 10
    assert figures["streams_served"] >= 1
    assert figures["streams_served"] + figures["streams_refused_503"] + figures["streams_cut"] == 40
    assert figures["page_after_close_status"] == 200
    assert figures["stats_after"]["connections"] == 0
    assert figures["stats_loaded"]["connections"] <= figures["max_connections"] == 32
