"""Tester s36tp finding 7: ``--web`` on a port already in use (another table's
scoreboard) or a host that is no name answered with Python's raw bind error, in English
inside the German sentence. One line in the table's words, saying what to give."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.web.server import WebBoard


@pytest.fixture
def lang():
    yield
    set_language("en")


@pytest.mark.parametrize("language, said", [
    ("en", "that port is already in use (another table's scoreboard?): give another, "
           "e.g. --web 127.0.0.1:%d"),
    ("de", "dieser Port ist schon belegt (die Anzeige eines anderen Tisches?): gib einen "
           "anderen an, etwa --web 127.0.0.1:%d"),
])
def test_a_port_in_use_is_said_in_the_tables_words(tmp_path, monkeypatch, capsys, lang,
                                                   language, said):
    with WebBoard("127.0.0.1", 0) as taken:
        monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
        rc = cli.main(["play", "--plain", "--lang", language, "--players", "Ann,Ben,Cy",
                       "--journal", str(tmp_path / "g.jsonl"),
                       "--web", "127.0.0.1:%d" % taken.port])
    err = capsys.readouterr().err
    assert rc != 0 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("pyramid: --web 127.0.0.1:%d: " % taken.port), err
    assert err.rstrip().endswith(said % (taken.port + 1)), err
    assert "Errno" not in err and "(" + "'127.0.0.1'" not in err, err
    assert not (tmp_path / "g.jsonl").exists()  # nothing started


def test_a_host_that_is_no_name_here_is_said_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--journal",
                   str(tmp_path / "g.jsonl"), "--web", "nohost.invalid:8765"])
    err = capsys.readouterr().err
    assert rc != 0 and len(err.strip().splitlines()) == 1, err
    assert err.rstrip() == ("pyramid: --web nohost.invalid:8765: can't serve there: no "
                            "computer called 'nohost.invalid' is known here: give this "
                            "computer's address, e.g. --web 127.0.0.1:8765"), err
