"""The scoreboard's secret address survives a crash (s36tp tester finding 21): a game
served with ``--web 0.0.0.0:PORT`` and resumed after a crash on the same machine serves
the same address again, so every phone and the TV that scanned its QR code reconnect
by themselves; another game, or the same game on another machine, gets another one."""

import http.client
import os
import re
import stat

from camelhost import cli
from camelhost.web.server import WebBoard, game_token, machine_secret, secret_path


def _status(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    resp = conn.getresponse()
    resp.read()
    conn.close()
    return resp.status


def test_the_machine_secret_is_made_once_private_and_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = secret_path()
    assert path == str(tmp_path / "state" / "smart-pyramid" / "web-secret")
    first = machine_secret()
    assert isinstance(first, bytes) and len(first) == 32
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    assert machine_secret() == first  # read back, never drawn again
    assert os.listdir(os.path.dirname(path)) == ["web-secret"]  # no temporary file left


def test_a_secret_others_can_read_is_not_used_and_not_destroyed(tmp_path):
    path = tmp_path / "web-secret"
    path.write_text("ab" * 32 + "\n")
    os.chmod(path, 0o644)
    assert machine_secret(str(path)) is None
    assert path.read_text() == "ab" * 32 + "\n" and stat.S_IMODE(path.stat().st_mode) == 0o644
    os.chmod(path, 0o600)
    assert machine_secret(str(path)) == bytes.fromhex("ab" * 32)


def test_same_game_same_token_another_game_or_machine_another():
    one, two = b"\x01" * 32, b"\x02" * 32
    token = game_token("5f0c1a2b3c4d", one)
    assert token == game_token("5f0c1a2b3c4d", one)
    assert len(token) == 32 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert game_token("5f0c1a2b3c4e", one) != token  # another game
    assert game_token("5f0c1a2b3c4d", two) != token  # the same game on another machine


def test_a_board_without_a_game_draws_a_fresh_token_each_start(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert WebBoard("0.0.0.0", 0).token != WebBoard("0.0.0.0", 0).token
    assert not os.path.exists(secret_path())  # a game in memory needs no secret


def test_without_a_usable_secret_the_board_still_has_a_secret_address(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    os.makedirs(os.path.dirname(secret_path()))
    with open(secret_path(), "w") as fh:
        fh.write("ab" * 32 + "\n")
    os.chmod(secret_path(), 0o644)  # readable by others: no secret
    one, two = WebBoard("0.0.0.0", 0, game="5f0c1a2b3c4d"), WebBoard("0.0.0.0", 0,
                                                                      game="5f0c1a2b3c4d")
    assert one.token and one.token != two.token
    assert one.token != game_token("5f0c1a2b3c4d", bytes.fromhex("ab" * 32))


def _address(out):
    found = re.findall(r"^web scoreboard: http://[^/]+:(\d+)/([A-Za-z0-9_-]{32})/$", out, re.M)
    assert len(found) == 1, out
    return int(found[0][0]), found[0][1]


def test_a_resumed_game_serves_the_address_its_pages_already_have(tmp_path, monkeypatch,
                                                                  capsys):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = str(tmp_path / "g.jsonl")
    monkeypatch.setattr("sys.stdin", iter(["draw\n", "leg red\n"]))  # then the input ends
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--pyramid", "manual",
                     "--seed", "63", "--journal", path, "--web", "0.0.0.0:0"]) == 0
    port, token = _address(capsys.readouterr().out)

    asked = {}

    def lines():  # the resumed table's input: the page of the first start asks first
        asked["old page"] = _status(port, "/%s/view" % token)
        asked["page"] = _status(port, "/%s/" % token)
        asked["no token"] = _status(port, "/view")
        yield "leg blue\n"

    monkeypatch.setattr("sys.stdin", lines())
    assert cli.main(["play", "--plain", "--resume", path, "--web", "0.0.0.0:%d" % port]) == 0
    assert _address(capsys.readouterr().out) == (port, token)
    assert asked == {"old page": 200, "page": 200, "no token": 403}
    assert stat.S_IMODE(os.stat(secret_path()).st_mode) == 0o600

    other = str(tmp_path / "h.jsonl")  # another game on this machine: another address
    monkeypatch.setattr("sys.stdin", iter(["draw\n"]))
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--pyramid", "manual",
                     "--seed", "63", "--journal", other, "--web", "0.0.0.0:0"]) == 0
    assert _address(capsys.readouterr().out)[1] != token
