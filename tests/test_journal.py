"""Journal: one JSON object per line, fsync per event, torn last line tolerated."""

import json
import os

import pytest
from camelhost.table.journal import Journal, JournalError, read_events


def _game():
    return {"type": "game", "format": 1, "edition": "second", "players": ["Ann", "Ben"]}


def test_events_round_trip_one_line_each(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal(str(path)) as j:
        j.append(_game())
        j.append({"type": "action", "player": 0, "action": "leg red"})
        j.append({"type": "die", "colour": "grey", "ink": "white", "value": 3, "raw": "EVT 4 DIE*00"})
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    assert [json.loads(x.rsplit("*", 1)[0])["type"] for x in lines] == ["game", "action", "die"]
    assert read_events(str(path))[2]["ink"] == "white"


def test_append_forces_the_line_to_disk(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    path = tmp_path / "g.jsonl"
    j = Journal(str(path))
    j.append(_game())
    assert synced, "append returned before fsync"
    # the line is already readable by another reader before close
    assert read_events(str(path)) == [_game()]
    j.close()


@pytest.mark.parametrize("tail", [b'{"type":"action","pla', b'{"type":"undo"}', b"\x00\x00"])
def test_torn_last_line_is_dropped_and_cut(tmp_path, tail):
    path = tmp_path / "g.jsonl"
    good = json.dumps(_game()).encode() + b"\n"
    path.write_bytes(good + tail)  # no newline at the end: the write was interrupted
    j = Journal.resume(str(path))
    assert j.events == [_game()]
    assert path.read_bytes() == good
    j.append({"type": "undo"})
    j.close()
    assert [e["type"] for e in read_events(str(path))] == ["game", "undo"]


def test_damage_before_the_last_line_is_an_error(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(json.dumps(_game()).encode() + b"\n{oops\n" + b'{"type":"undo"}\n')
    with pytest.raises(JournalError, match="line 2"):
        read_events(str(path))


def test_not_a_journal(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"type":"undo"}\n')
    with pytest.raises(JournalError, match="not a game journal"):
        Journal.resume(str(path))
    empty = tmp_path / "e.jsonl"
    empty.write_text("")
    with pytest.raises(JournalError, match="empty"):
        Journal.resume(str(empty))
