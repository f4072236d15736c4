"""A damaged first line keeps the game's bots and pyramid (s40): when its JSON broke
(a stray byte), its rebuild kept the players, edition and seed given but wrote no bots
(a bot's seat became a person's) and no pyramid (a game played with a port resumed with
typed dice). They are read field by field as its language is, or taken from ``--bots``
and ``--pyramid`` given; one that can't be had is named, with how to give it."""

from camelhost import cli
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 14:black 15:white"
#: a port no machine has (a game played on it is never resumed in these tests)
PORT = "/dev/no-such-pyramid"
REBUILD = ["--upto-damage", "--players", "Ann,Ben,Cy", "--edition", "second", "--seed", "4"]


def _game(path, pyramid="manual"):
    """A journal of Ann, Ben and Cy (a bot), seed 4, with a few moves, its bytes."""
    journal = Journal(str(path), pyramid=pyramid, lang="en")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, bots=[2], journal=journal)
    for text in (SETUP, "leg red", "leg blue"):
        s.command(text)
    journal.close()
    return path.read_bytes()


def _broken(data, *keys):
    """``data`` with line 1's JSON broken by a stray comma, and each of ``keys`` (its
    fields) unreadable, the checksum kept."""
    first, rest = data.split(b"\n", 1)
    first = first.replace(b'"lang":"en",', b'"lang":"en",,', 1)
    for key in keys:
        first = first.replace(b'"%s"' % key.encode(), b'"%s\xff"' % key.encode(), 1)
    return first + b"\n" + rest


def _resume(monkeypatch, capsys, path, *words):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(["play", "--resume", str(path), "--plain"] + list(words))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_a_broken_first_line_keeps_the_bots_and_pyramid_it_still_reads(tmp_path):
    path = tmp_path / "g.jsonl"
    data = _game(path, pyramid="/dev/ttyACM0")
    whole = read_events(str(path))
    path.write_bytes(_broken(data))
    # the port it goes on with now (another) is not written over the one it was played on
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line,
                       rebuild={"players": ["Ann", "Ben", "Cy"], "edition": "second",
                                "seed": 4, "pyramid": "/dev/ttyACM1"})
    assert j.header["bots"] == [2] and j.header["pyramid"] == "/dev/ttyACM0"
    assert "is rebuilt exactly as it was written" in j.notes[0], j.notes
    assert j.events == whole
    j.close()
    assert path.read_bytes() == data  # the line as written, proven by the chain


def test_settings_that_cant_be_read_are_named_and_taken_from_the_options(
        tmp_path, monkeypatch, capsys):
    # (a game played on a port: manual and virtual are tried against the chain hash, s45)
    path = tmp_path / "g.jsonl"
    data = _game(path, pyramid=PORT)
    damaged = _broken(data, "bots", "pyramid")
    path.write_bytes(damaged)
    rc, _out, err = _resume(monkeypatch, capsys, path)
    assert rc == 1 and len(err.strip().splitlines()) == 1, err
    # (its players, edition and seed still read field by field, s42: the command names them)
    assert err.strip().endswith(
        "--seed 4 (its bots and the pyramid it was played with can't be read from it: "
        "if the game had them, add --bots NAMES --pyramid PORT to that command)"), err
    assert path.read_bytes() == damaged  # nothing changed
    # given with the refused resume, the command repeats them and the line names none
    rc, _out, err = _resume(monkeypatch, capsys, path, "--bots", "Cy", "--pyramid", "manual")
    assert rc == 1 and "--bots Cy" in err and "can't be read from it" not in err, err
    # given with the rebuild, they are the game's again: the line as written (no pyramid
    # on that port here to go on with: the journal rebuilt, the game stops)
    _resume(monkeypatch, capsys, path, *REBUILD, "--bots", "Cy", "--pyramid", PORT)
    assert path.read_bytes() == data
    assert (tmp_path / "g.jsonl.damaged").read_bytes().endswith(damaged)


def test_a_rebuild_without_them_is_refused_naming_them(tmp_path, monkeypatch, capsys):
    # (s44: it was rebuilt without its bot and its pyramid, unconfirmed by the chain, and
    # the game resumed so; the chain confirms a first line only as it was written)
    path = tmp_path / "g.jsonl"
    damaged = _broken(_game(path, pyramid=PORT), "bots", "pyramid")
    path.write_bytes(damaged)
    rc, out, err = _resume(monkeypatch, capsys, path, *REBUILD)
    assert rc == 1 and len(err.strip().splitlines()) == 1, err
    assert ("nothing was changed. As rebuilt with the values given it reads: players Ann, "
            "Ben, Cy; edition second; seed 4, but the next line's chain hash does not "
            "confirm it") in err, err
    assert err.strip().endswith(
        "(its bots and the pyramid it was played with can't be read from it: if the game "
        "had them, add --bots NAMES --pyramid PORT to that command)"), err
    assert path.read_bytes() == damaged
    assert not (tmp_path / "g.jsonl.damaged").exists()
