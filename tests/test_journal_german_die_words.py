"""A German table names the die of a journal line in German (tester s42-3 finding 12):
its colour as every other German line says it (``gelb 1``, never ``yellow 1``), as the
subject of a sentence ``der Würfel``; and a resume with ``--lang de`` restores as many
events as without it (the ``lang`` line it journals is no event restored). Journals
written by a real game against the virtual pyramid, damaged here, resumed through
``pyramid play``."""

import pytest
from camelhost.i18n import colour_words
from test_journal_wire_record import _damaged, _die_line, _journal_of, _json_of, _play

pytestmark = pytest.mark.hil


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A real journal whose last line is the die the pyramid released for Cy's pyramid
    ticket (seed 5)."""
    data = _journal_of(tmp_path_factory.mktemp("de"),
                       ["pyramid", "release", "leg blue", "pyramid", "release"])
    assert _json_of(data.splitlines(keepends=True))[-1]["type"] == "die"
    return data


def _german(colour):
    return colour_words("de")[colour]


def test_a_cut_last_die_line_is_named_in_german(tmp_path, monkeypatch, capsys, game):
    path = tmp_path / "g.jsonl"
    path.write_bytes(game[:-40])  # the last line cut off, its pyramid record whole
    die = _json_of(game.splitlines(keepends=True))[-1]
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(path),
                         "--lang", "de")
    assert rc == 0, err
    said = "Sie enthielt den Würfel %s %d" % (_german(die["colour"]), die["value"])
    assert said in out, out[:800]


def test_a_typed_die_the_chain_cant_prove_is_the_subject_in_german(
        tmp_path, monkeypatch, capsys, game):
    # as test_a_typed_die_the_chain_cant_prove_is_said_unproven_not_impossible, in German
    number, lines, die = _die_line(game)
    crc = lines[number - 1].split(b'"raw":"')[1].split(b'"')[0][-8:].decode()
    wrong = crc[:-1] + ("0" if crc[-1] != "0" else "1")
    path, _, _, _ = _damaged(tmp_path, game, '"raw":"EVT', '"raw":EVT')
    data = open(path, "rb").read().replace(("*%s\"" % crc).encode(), ("*%s\"" % wrong).encode())
    open(path, "wb").write(data)
    typed = "%s %d" % (_german(die["colour"]), die["value"])
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path, "--upto-damage",
                       "--retype", typed, "--lang", "de")
    assert rc != 0
    assert "--retype für Zeile %d: dass der Würfel %s die geschriebene Zeile ist" % (
        number, typed) in err, err
    with open(path, "rb") as fh:
        assert fh.read() == data


def test_a_resume_in_german_restores_as_many_events_as_in_english(
        tmp_path, monkeypatch, capsys, game):
    english, german = tmp_path / "en.jsonl", tmp_path / "de.jsonl"
    english.write_bytes(game)
    german.write_bytes(game)
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(english))
    assert rc == 0, err
    count = len(game.splitlines()) - 1  # every line but the game line
    assert "resumed %s: %d events restored" % (english, count) in out, out[:300]
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", str(german),
                         "--lang", "de")
    assert rc == 0, err
    assert "%s fortgesetzt: %d Ereignisse wiederhergestellt" % (german, count) in out, out[:300]
