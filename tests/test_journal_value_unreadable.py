"""A damaged ``value`` line (the value pressed for a die read without one) that no longer
reads as JSON at all: the refusal gives the exact ``--retype`` a player types (the value,
``--retype 2``), never the generic ``--retype COMMAND``: the next line's chain hash proves
which of the three values it held. Nothing is changed by a refusal; the suggested command
restores every line. (An older journal, without a chain, is read only up to a damaged
line: nothing is typed again in its place there.)"""

import json

import pytest
from camelhost import cli
from camelhost.table.journal import encode_line, read_events

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _play(monkeypatch, capsys, lines, *argv):
    """``pyramid play --plain ARGV`` with ``lines`` typed: ``(rc, stdout, stderr)``."""
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in lines))
    rc = cli.main(["play", "--plain"] + list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture
def keyed(tmp_path, monkeypatch, capsys):
    """A real journal: Ann's pyramid ticket, the red die typed without its value
    (``red ?``), the value 2 keyed for it, then Ben's leg ticket. Its path and lines."""
    path = str(tmp_path / "g.jsonl")
    rc, _, err = _play(monkeypatch, capsys, [SETUP, "pyramid", "red ?", "2", "leg blue", "quit"],
                       "--players", "Ann,Ben,Cy", "--pyramid", "manual", "--seed", "5",
                       "--journal", path)
    assert rc == 0, err
    with open(path, "rb") as fh:
        lines = fh.read().splitlines(keepends=True)
    assert [json.loads(x[:-10])["type"] for x in lines][-3:] == ["die", "value", "action"]
    return path, lines


def _damage(path, lines, old, new):
    """The ``value`` line of ``lines`` with ``old`` made ``new`` (its checksum kept),
    written to ``path``; its number and the damaged bytes."""
    number = next(n for n, x in enumerate(lines, 1) if b'"type":"value"' in x)
    assert old in lines[number - 1]
    lines = list(lines)
    lines[number - 1] = lines[number - 1].replace(old, new)
    with open(path, "wb") as fh:
        fh.write(b"".join(lines))
    return number, b"".join(lines)


@pytest.mark.parametrize("old, new", [
    (b'"value":2}', b'"value":2'),  # its closing brace lost: no JSON, its value still reads
    (b'"type":"value","value":2}', b'"ty\xff\xfe'),  # cut and garbled: nothing reads
])
def test_a_value_line_that_reads_as_nothing_is_offered_as_the_chain_proves(
        keyed, monkeypatch, capsys, old, new):
    path, lines = keyed
    whole = read_events(path)
    number, data = _damage(path, lines, old, new)
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    assert "\n" not in err.rstrip("\n") and "COMMAND" not in err
    assert err.startswith(
        "pyramid: %s: line %d is damaged (checksum does not match); nothing was changed; the "
        "next line's chain hash proves it held the value 2 pressed for the red die: type it "
        "again in its place, keeping the lines after it: pyramid play --resume %s "
        "--upto-damage --retype 2 --plain; or, to resume " % (path, number, path)), err
    with open(path, "rb") as fh:
        assert fh.read() == data  # a refusal changes nothing
    # the command it gives restores every line, the damaged one kept aside
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--upto-damage",
                         "--retype", "2")
    assert rc == 0, err
    assert "In its place: the value 2 pressed for the red die, typed again; the next line's " \
        "chain hash proves it is the line as written" in out, out
    assert read_events(path) == whole
    with open(path + ".damaged", "rb") as fh:
        assert new in fh.read()


def test_an_unreadable_line_where_no_value_was_awaited_still_asks_for_the_command(keyed, monkeypatch,
                                                                                 capsys):
    # the leg ticket after the value: nothing says what it held, so the command is left
    # to fill in (and the chain hash is not tried as a value)
    path, lines = keyed
    number = len(lines)
    lines = list(lines) + [encode_line({"type": "undo"})]  # a line after it, to read past it
    lines[number - 1] = lines[number - 1].replace(b'"player":1', b'"player":x1')
    with open(path, "wb") as fh:
        fh.write(b"".join(lines))
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path)
    assert rc != 0
    assert "the value" not in err and "VALUE" not in err


def test_a_german_table_names_the_die_a_damaged_value_was_pressed_for_in_german(
        keyed, monkeypatch, capsys):
    # s43 German finding 4: the die a value was keyed for (``_keyed_die``) read 'red' in
    # German lines ('den Wert 2, gedrückt für den Würfel red')
    path, lines = keyed
    _damage(path, lines, b'"value":2}', b'"value":2')
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path, "--lang", "de")
    assert rc != 0
    assert "der nächsten Zeile belegt, dass sie den Wert 2, gedrückt für den Würfel rot " \
        "enthielt: " in err, err
    assert "red" not in err
    # a --retype of something else than a value names that die too
    rc, _, err = _play(monkeypatch, capsys, [], "--resume", path, "--lang", "de",
                       "--upto-damage", "--retype", "leg blue")
    assert rc != 0
    assert "die Zeile davor ist der Würfel rot, ohne seinen Wert gelesen" in err, err
    assert "red" not in err
    rc, out, err = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--lang", "de",
                         "--upto-damage", "--retype", "2")
    assert rc == 0, err
    assert "den Wert 2, gedrückt für den Würfel rot" in out, out
    assert "red" not in out
