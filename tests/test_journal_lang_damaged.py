"""A resume keeps the language the game was played in when the line that records it is
damaged (s39): line 1 (the ``game`` line's ``lang``) rebuilt with ``--upto-damage``, or a
``lang`` line (a resume given another ``--lang``) set aside; where the damage took the
language, the rebuild says in its line which one the table falls back to."""

from camelhost import cli
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from test_journal_recover import COMMANDS, SETUP, _damage, _write_damaged

REBUILD = ["--upto-damage", "--players", "Ann,Ben,Cy", "--edition", "second", "--seed", "4"]


def _german_game(path, then_english=False):
    """A real journal of a German table (its ``game`` line records ``"lang":"de"``), with a
    ``lang`` line for English and a move after it when ``then_english``: its lines."""
    journal = Journal(str(path), pyramid="manual", lang="de")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in (SETUP,) + COMMANDS[:2]:
        s.command(text)
    if then_english:
        s.record_lang("en")
        s.command("purple 2")
    journal.close()
    return path.read_bytes().splitlines(keepends=True)


def _resume(monkeypatch, capsys, path, *options):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(["play", "--resume", str(path), "--plain"] + list(options))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_a_first_line_whose_json_broke_keeps_its_language(tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    _write_damaged(path, _german_game(path), 1, b'"bots":[]', b'"bots":[')
    rc, _out, err = _resume(monkeypatch, capsys, path)
    assert rc == 1 and "Zeile 1, die erste Zeile des Spiels, ist beschädigt" in err, err
    rc, out, err = _resume(monkeypatch, capsys, path, *REBUILD)
    assert rc == 0, err
    assert "Zeile 1, die erste Zeile des Spiels, war beschädigt" in out, out[:400]
    assert out.rstrip().endswith("--plain --lang de"), out[-200:]
    assert read_events(str(path))[0]["lang"] == "de"


def test_a_language_the_damage_changed_is_the_one_the_chain_hash_proves(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    _write_damaged(path, _german_game(path), 1, b'"lang":"de"', b'"lang":"dx"')
    rc, _out, err = _resume(monkeypatch, capsys, path)  # refused, in German already
    assert rc == 1 and "Zeile 1, die erste Zeile des Spiels, ist beschädigt" in err, err
    assert "--lang de" in err and "dx" not in err  # never the code the damage made
    rc, out, err = _resume(monkeypatch, capsys, path, *REBUILD)
    assert rc == 0, err
    assert ("ist genau so neu aufgebaut, wie sie geschrieben wurde (der Ketten-Hash der "
            "nächsten Zeile passt)") in out, out[:400]
    assert out.rstrip().endswith("--plain --lang de"), out[-200:]
    assert read_events(str(path))[0]["lang"] == "de"


def test_a_language_whose_key_the_damage_garbled_is_the_one_the_chain_hash_proves(
        tmp_path, monkeypatch, capsys):
    # ('lanx' is no field of a game line: left out, the line is proven in German)
    path = tmp_path / "g.jsonl"
    _write_damaged(path, _german_game(path), 1, b'"lang":"de"', b'"lanx":"de"')
    rc, out, err = _resume(monkeypatch, capsys, path, *REBUILD)
    assert rc == 0, err
    assert ("ist genau so neu aufgebaut, wie sie geschrieben wurde (der Ketten-Hash der "
            "nächsten Zeile passt)") in out, out[:400]
    assert read_events(str(path))[0]["lang"] == "de"


def test_a_language_that_cant_be_read_is_named_as_the_one_replay_falls_back_to(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    lines = _german_game(path)
    _damage(lines, 1, b'"lang":"de"', b'"lanx":"de"')
    # its seed too: unconfirmed, a resume refuses it, replay shows it as it reads
    before = _write_damaged(path, lines, 1, b'"seed":4', b'"seed":5')
    assert cli.main(["replay", str(path), "--brief"]) == 0
    said = [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("line 1, the game's")]
    assert len(said) == 1 and ("; the game's language can't be read from it: the table "
                               "speaks English, the language in force (--lang chooses "
                               "another)") in said[0], said
    assert path.read_bytes() == before


def test_a_damaged_lang_line_set_aside_keeps_the_language_it_held(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    lines = _german_game(path, then_english=True)
    at = next(i for i, x in enumerate(lines) if b'"type":"lang"' in x) + 1
    _write_damaged(path, lines, at, b'"lang":"en"', b'"lang": "en"')
    rc, _out, err = _resume(monkeypatch, capsys, path)
    assert rc == 1 and err.startswith("pyramid: %s: line %d is damaged" % (path, at)), err
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 0, err
    assert ("the game goes on in English, the language of the lang line set aside "
            "(journaled again)") in out.splitlines(), out[:800]
    assert read_events(str(path))[-1] == {"type": "lang", "lang": "en"}
    rc, out, err = _resume(monkeypatch, capsys, path)  # and so does the next resume
    assert rc == 0 and out.rstrip().endswith("continue it with: pyramid play --resume %s "
                                             "--plain" % path), out[-200:]
