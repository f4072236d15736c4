"""``--web`` on the commands (issue 12): the address printed, the QR code in LAN
mode, a replay served until Ctrl-C. Loopback only."""

import contextlib
import http.client
import io
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading

import pytest
from camelhost import cli, web
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from camelhost.web import announce
from camelhost.web.server import WebBoard

PYRAMID = os.path.join(os.path.dirname(sys.executable), "pyramid")
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _get(url_path, port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", url_path)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, body


def _lines_into(stream, lines):
    """Each line of ``stream`` put on the queue ``lines``, then ``""`` at its end."""
    for line in stream:
        lines.put(line)
    lines.put("")


@contextlib.contextmanager
def _replay_web(path):
    """``pyramid replay PATH --brief --web 127.0.0.1:0`` running: yields ``(proc, port,
    said)`` once it serves the game (``port`` from the printed address or None,
    ``said`` its output lines up to then); killed if it still runs at the end. Run
    without PYTHONUNBUFFERED, as from a user's shell: what it says must be flushed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen([PYRAMID, "replay", path, "--brief", "--web", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines = queue.Queue()
    threading.Thread(target=_lines_into, args=(proc.stdout, lines), daemon=True).start()
    try:
        port = None
        said = []
        while True:
            line = lines.get(timeout=30)  # queue.Empty, not a hang, if nothing comes
            if not line:
                break
            said.append(line.strip())
            m = re.match(r"web scoreboard: http://127\.0\.0\.1:(\d+)/$", line.strip())
            if m:
                port = int(m.group(1))
            if line.startswith("step through the game"):
                break
        yield proc, port, said
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_lan_mode_prints_the_address_with_its_token_and_a_qr_code():
    with WebBoard("127.0.0.1", 0, token=True) as board:
        out = io.StringIO()
        announce(board, out)
    text = out.getvalue()
    assert "web scoreboard: %s" % board.url in text and board.token in board.url
    rows = [line for line in text.splitlines() if set(line) & set("\u2580\u2584\u2588")]
    assert len(rows) >= 12  # a QR code of at least version 2, two modules per row


def test_loopback_mode_prints_the_address_without_a_qr_code():
    with WebBoard("127.0.0.1", 0) as board:
        out = io.StringIO()
        announce(board, out)
    assert out.getvalue() == "web scoreboard: http://127.0.0.1:%d/\n" % board.port


def test_play_plain_with_web_serves_while_the_table_runs(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "g.jsonl")
    monkeypatch.setattr("sys.stdin", iter(["draw\n", "leg red\n", "quit\n"]))
    rc = cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--journal", path,
                   "--web", "127.0.0.1:0"])
    out = capsys.readouterr().out
    assert rc == 0
    assert re.search(r"^web scoreboard: http://127\.0\.0\.1:[1-9]\d*/$", out, re.M)
    assert [e["type"] for e in read_events(path)] == ["game", "setup", "action"]


def _journal(path, *commands):
    """A second-edition journal at ``path`` (Ann, Ben, Cy, seed 1) with ``commands`` played."""
    with Journal(path) as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=1, journal=journal)
        for text in commands:
            s.command(text)


def test_web_address_that_cannot_be_bound_is_one_clear_error(tmp_path, monkeypatch, capsys):
    with WebBoard("127.0.0.1", 0) as taken:
        monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
        rc = cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--journal",
                       str(tmp_path / "g.jsonl"), "--web", "127.0.0.1:%d" % taken.port])
    err = capsys.readouterr().err
    assert rc != 0 and err.startswith("pyramid: --web 127.0.0.1:%d: can't serve there"
                                      % taken.port)
    assert len(err.strip().splitlines()) == 1


def test_replay_refuses_a_bad_or_busy_web_address_before_printing_the_game(tmp_path,
                                                                           capsys):
    # tester's finding: every event was printed first, the address refused at the end
    path = str(tmp_path / "g.jsonl")
    _journal(path, SETUP, "leg red")
    with WebBoard("127.0.0.1", 0) as taken:
        for address, words in (("127.0.0.1:abc", "the port must be a number"),
                               ("127.0.0.1:%d" % taken.port, "can't serve there")):
            assert cli.main(["replay", path, "--web", address]) == 1
            out, err = capsys.readouterr()
            assert out == "" and err.startswith("pyramid: --web ") and words in err, err
            assert len(err.strip().splitlines()) == 1


@pytest.mark.process
def test_replay_web_serves_the_game_until_ctrl_c(tmp_path):
    path = str(tmp_path / "g.jsonl")
    _journal(path, SETUP, "leg red", "pyramid", "blue 2")
    with _replay_web(path) as (proc, port, _said):
        assert port
        status, body = _get("/view", port)
        view = json.loads(body)
        assert status == 200 and view["replay"] == {"step": 0, "steps": 4, "playing": False}
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("POST", "/control/last")
        assert conn.getresponse().status == 204
        conn.close()
        view = json.loads(_get("/view", port)[1])
        assert view["last_die"]["camel"] == "blue" and view["players"][0]["leg_tickets"] == \
            [{"colour": "red", "value": 5}]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0


@pytest.mark.process
def test_replay_web_stops_quietly_on_two_quick_ctrl_c(tmp_path):
    # a second Ctrl-C while the server shut down left with 130 ("interrupted") or
    # killed the process by the signal: any number of them must end it with 0
    path = str(tmp_path / "g.jsonl")
    _journal(path, SETUP, "leg red")
    with _replay_web(path) as (proc, port, said):
        assert port, said
        # a page open on the board: its stream ends when the first Ctrl-C has begun
        # the shutdown, which is when the second one comes
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/events")
        stream = conn.getresponse()
        assert stream.status == 200 and stream.readline().startswith(b"retry:")
        proc.send_signal(signal.SIGINT)
        stream.read()  # to the end of the stream: the server is closing
        proc.send_signal(signal.SIGINT)
        conn.close()
        assert proc.wait(10) == 0
        assert proc.stderr.read() == ""


def test_wait_until_interrupted_catches_every_ctrl_c_until_the_board_is_closed(monkeypatch):
    # in-process: Ctrl-C just after the message, two more while the board closes; none
    # escapes, the board is closed once, and the caller's own handler is back afterwards
    said, closed = [], []

    def print_then_ctrl_c(*args, **kwargs):
        said.append(args)
        signal.raise_signal(signal.SIGINT)  # its handler has run when this returns

    def close_with_two_ctrl_c():
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.SIGINT)
        closed.append(True)

    def before(signum, frame):
        raise AssertionError("the caller's handler ran during the wait")

    monkeypatch.setattr(web, "print", print_then_ctrl_c, raising=False)
    previous = signal.signal(signal.SIGINT, before)
    try:
        web.wait_until_interrupted("the message", then=close_with_two_ctrl_c)
        assert said == [("the message",)] and closed == [True]
        assert signal.getsignal(signal.SIGINT) is before
    finally:
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_while_the_replay_message_is_written_still_stops_quietly(monkeypatch):
    # CI's flake: the test read the message and pressed Ctrl-C before print returned,
    # and the replay left with 130 ("interrupted") instead of 0
    said = []

    def print_then_ctrl_c(*args, **kwargs):
        said.append(args)
        raise KeyboardInterrupt

    monkeypatch.setattr(web, "print", print_then_ctrl_c, raising=False)
    try:
        web.wait_until_interrupted("the message")
    except KeyboardInterrupt:
        pytest.fail("a Ctrl-C during the message escaped wait_until_interrupted")
    assert said == [("the message",)]


@pytest.mark.process
def test_replay_web_of_a_damaged_journal_serves_the_game_up_to_the_damage(tmp_path):
    path = str(tmp_path / "g.jsonl")
    _journal(path, SETUP, "leg red", "pyramid", "blue 2")
    with open(path, "rb") as fh:
        lines = fh.read().splitlines(keepends=True)
    lines[3] = lines[3].replace(b'"player":1', b'"player":2')  # line 4: checksum wrong
    with open(path, "wb") as fh:
        fh.write(b"".join(lines))
    with _replay_web(path) as (proc, port, said):
        assert port, said
        # Ben's pyramid ticket (line 4) is left out; his die after it still applies (a die
        # at the start of a turn takes the ticket), so it is kept (tester s31 finding 3)
        note = ("line 4 is damaged (checksum does not match): left out, %s is unchanged; the "
                "1 line after it is kept. The next line's chain hash proves it held Ben's "
                "pyramid ticket" % path)  # not the damaged field's Cy
        assert any(line.startswith(note) for line in said), said
        view = json.loads(_get("/view", port)[1])
        assert view["replay"] == {"step": 0, "steps": 3, "playing": False}  # and blue 2
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0
    with open(path, "rb") as fh:
        assert fh.read() == b"".join(lines)
    assert not os.path.exists(path + ".damaged")


class _Keyboard(io.StringIO):
    """A terminal's stdin with one Enter typed; says whether it was read."""

    def isatty(self):
        return True


def test_the_full_screen_pauses_for_enter_only_for_a_lan_address():
    """Issue 30: ``--web`` on loopback with the full screen still waited for Enter; the
    pause belongs to the LAN address and its QR code (read them before the full screen
    covers them). Loopback goes straight on; the LAN address still waits."""
    for host, waits in (("127.0.0.1", False), ("localhost", False), ("::1", False),
                        ("192.168.1.20", True), ("0.0.0.0", True)):
        board = WebBoard.__new__(WebBoard)
        board.host = host
        keys = _Keyboard("\n")
        web.wait_for_enter(board, stdin=keys, lan_only=True)
        assert (keys.tell() == 1) == waits, host
    keys = _Keyboard("\n")  # without lan_only (the demo's closing pause): it waits
    web.wait_for_enter(WebBoard.__new__(WebBoard), stdin=keys)
    assert keys.tell() == 1
