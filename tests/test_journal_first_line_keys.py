"""A damaged first line whose JSON still parses but where a key, a language or a format
changed (tester s44b, findings 2 and 4): a key the damage garbled ("sead") leaves that
setting unread, the others read and offered filled in, a placeholder for the one lost;
a language code changed to the other valid one ("en" to "de"), a format 3 made 4, or a
bot's seat changed, are tried against the next line's chain hash, so ``--upto-damage``
alone rebuilds the line as written; and the values given, the very ones it reads, left
unproven are never answered with "correct the wrong one in this command"."""

import pytest
from test_journal_first_line_settings import _game, _resume

REST = ["--players", "Ann,Ben,Cy", "--edition", "second"]
#: a port no machine has (the game is never resumed on it)
PORT = "/dev/no-such-pyramid"


def _changed(path, old, new, pyramid="manual"):
    """A journal of Ann, Ben and Cy (a bot), seed 4, played with ``pyramid``, at ``path``
    with ``old`` made ``new`` in its first line, the checksum kept: its bytes as written,
    then as damaged."""
    data = _game(path, pyramid)
    first, rest = data.split(b"\n", 1)
    assert first.count(old) == 1
    damaged = first.replace(old, new) + b"\n" + rest
    path.write_bytes(damaged)
    return data, damaged


def _head(path):
    return "pyramid: %s: line 1, the game's first line, is damaged (checksum does not match); " \
           "nothing was changed. " % path


def test_a_garbled_seed_key_is_named_and_the_command_has_a_place_for_it(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    data, damaged = _changed(path, b'"seed":', b'"sead":')
    command = ("pyramid play --resume %s --upto-damage --plain --players Ann,Ben,Cy "
               "--edition second --seed SEED" % path)
    for words in ([], ["--upto-damage"], ["--upto-damage"] + REST):
        rc, out, err = _resume(monkeypatch, capsys, path, *words)
        assert rc == 1 and "resumed" not in out
        assert err == _head(path) + (
            "What can't be read: its seed (it still reads: players Ann, Ben, Cy; edition "
            "second); the 3 lines after it are intact: to rebuild the first line and resume, "
            "give its seed in place of SEED in this command: %s\n" % command), err
        assert path.read_bytes() == damaged
        assert not (tmp_path / "g.jsonl.damaged").exists()
    # the command filled in with the true seed: the line as written, the game resumed
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage", *REST, "--seed", "4")
    assert rc == 0, err
    assert "is rebuilt exactly as it was written" in out
    assert path.read_bytes().startswith(data)
    assert (tmp_path / "g.jsonl.damaged").read_bytes().endswith(damaged)  # nothing lost


@pytest.mark.parametrize("key, lost, still, placeholder, given", [
    (b"players", "its players", "edition second; seed 4", "--players NAMES --edition second "
     "--seed 4", ["--players", "Ann,Ben,Cy"]),
    (b"edition", "its edition", "players Ann, Ben, Cy; seed 4", "--players Ann,Ben,Cy "
     "--edition EDITION --seed 4", ["--edition", "second"]),
])
def test_a_garbled_players_or_edition_key_leaves_the_rest_read(
        tmp_path, monkeypatch, capsys, key, lost, still, placeholder, given):
    path = tmp_path / "g.jsonl"
    data, damaged = _changed(path, b'"%s":' % key, b'"%sz":' % key[:-1])
    rc, _out, err = _resume(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 1 and len(err.splitlines()) == 1, err
    assert ("What can't be read: %s (it still reads: %s); the 3 lines after it are intact: "
            "to rebuild the first line and resume, give %s in place of %s in this command: "
            "pyramid play --resume %s --upto-damage --plain %s\n"
            % (lost, still, lost, placeholder.split()[placeholder.split().index(
                "--" + key.decode()) + 1], path, placeholder)) in err, err
    assert path.read_bytes() == damaged
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage", *given)
    assert rc == 0, err
    assert "is rebuilt exactly as it was written" in out
    assert path.read_bytes().startswith(data)


@pytest.mark.parametrize("old, new", [
    (b'"lang":"en"', b'"lang":"de"'),
    (b'"format":3', b'"format":4'),
    (b'"bots":[2]', b'"bots":[1]'),
    (b'"pyramid":"manual"', b'"pyramid":"virtual"'),
    (b'"pyramid":"manual"', b'"pyramid":"manuak"'),
])
def test_a_value_changed_to_another_valid_one_is_tried_against_the_hash(
        tmp_path, monkeypatch, capsys, old, new):
    path = tmp_path / "g.jsonl"
    data, damaged = _changed(path, old, new)
    rc, _out, err = _resume(monkeypatch, capsys, path)
    assert rc == 1
    # said in the game's language (the one the hash proves), the command bare
    assert err == _head(path) + (
        "It still reads: players Ann, Ben, Cy; edition second; seed 4, and the next line's "
        "chain hash proves that is the line as written. The 3 lines after it are intact: to "
        "rebuild the first line exactly and resume: pyramid play --resume %s --upto-damage "
        "--plain\n" % path), err
    assert path.read_bytes() == damaged
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 0, err
    assert ("line 1, the game's first line, was damaged (checksum does not match) and is "
            "rebuilt exactly as it was written (the next line's chain hash matches)") in out
    assert "can't be read" not in out  # its bots proven with it
    assert path.read_bytes().startswith(data)  # byte-identical, the game went on after it
    assert (tmp_path / "g.jsonl.damaged").read_bytes().endswith(damaged)


def test_values_given_that_are_the_ones_it_reads_are_not_called_wrong(
        tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    _data, damaged = _changed(path, b'"pyramid":"%s0"' % PORT.encode(),
                              b'"pyramid":"%s1"' % PORT.encode(), pyramid=PORT + "0")
    # bare: the values it reads are in the command, and the port it reads is named
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 1 and len(err.splitlines()) == 1, err
    assert err.endswith(
        "--seed 4 (or, if those are right, the pyramid it reads, %s1, is not the one it was "
        "played with: add --pyramid PORT naming that one)\n" % PORT), err
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage", *REST, "--seed", "4")
    assert rc == 1 and "resumed" not in out and len(err.splitlines()) == 1, err
    assert err == _head(path) + (
        "The values given are the ones it reads (players Ann, Ben, Cy; edition second; seed "
        "4; pyramid %s1), but the next line's chain hash does not confirm the line rebuilt "
        "with them: which of its fields the damage changed to another value that reads as "
        "well can't be confirmed, so it can't be rebuilt as written unless that one is given "
        "as the game had it. The 3 lines after it are intact (or, if those are right, the "
        "pyramid it reads, %s1, is not the one it was played with: add --pyramid PORT naming "
        "that one); to see the game from it, unproven: pyramid replay %s\n"
        % (PORT, PORT, path)), err
    assert "correct the wrong one" not in err
    assert path.read_bytes() == damaged
    assert not (tmp_path / "g.jsonl.damaged").exists()
    # the pyramid it was played with given: tried against the hash, the line as written
    # (here no pyramid on that port to go on with: the journal rebuilt, the game stops)
    _resume(monkeypatch, capsys, path, "--upto-damage", *REST, "--seed", "4",
            "--pyramid", PORT + "0")
    assert path.read_bytes() == _data


def test_a_german_table_names_the_lost_seed_in_german(tmp_path, monkeypatch, capsys):
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    path = tmp_path / "g.jsonl"
    journal = Journal(str(path), pyramid="manual", lang="de")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    s.command("setup 1:blue,green 2:red 3:yellow,purple 14:black 15:white")
    journal.close()
    data = path.read_bytes()
    first, rest = data.split(b"\n", 1)
    damaged = first.replace(b'"seed":', b'"sead":') + b"\n" + rest
    path.write_bytes(damaged)
    rc, _out, err = _resume(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 1 and len(err.splitlines()) == 1, err
    assert ("Nicht lesbar: ihr Seed (sie lautet noch: Spieler Ann, Ben, Cy; Ausgabe second); "
            "die eine Zeile danach ist unversehrt: um die erste Zeile neu aufzubauen und "
            "fortzusetzen, setze in diesem Befehl anstelle von SEED ein, was das Spiel hatte "
            "(ihr Seed): pyramid play --resume %s --upto-damage --plain --lang de --players "
            "Ann,Ben,Cy --edition second --seed SEED\n" % path) in err, err
    assert path.read_bytes() == damaged
    rc, out, err = _resume(monkeypatch, capsys, path, "--upto-damage", "--seed", "4")
    assert rc == 0, err
    assert path.read_bytes().startswith(data)


@pytest.mark.parametrize("key, word, value", [
    (b"players", "NAMEN", "--players NAMEN --edition second --seed 4"),
    (b"edition", "AUSGABE", "--players Ann,Ben,Cy --edition AUSGABE --seed 4"),
])
def test_a_german_table_offers_the_lost_value_under_its_german_placeholder(
        tmp_path, monkeypatch, capsys, key, word, value):
    # the placeholder is the one German --help shows for the option (NAMEN, as
    # `pyramid play --help` has --players NAMEN), never the English word
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    path = tmp_path / "g.jsonl"
    journal = Journal(str(path), pyramid="manual", lang="de")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    s.command("setup 1:blue,green 2:red 3:yellow,purple 14:black 15:white")
    journal.close()
    first, rest = path.read_bytes().split(b"\n", 1)
    damaged = first.replace(b'"%s":' % key, b'"%sz":' % key[:-1]) + b"\n" + rest
    path.write_bytes(damaged)
    rc, _out, err = _resume(monkeypatch, capsys, path, "--upto-damage")
    assert rc == 1 and len(err.splitlines()) == 1, err
    assert "anstelle von %s ein" % word in err, err
    assert err.endswith(" --upto-damage --plain --lang de %s\n" % value), err
    assert path.read_bytes() == damaged
