"""``pyramid replay`` of a journal with a damaged line whose event the next line's chain
hash proves (s36 player tester finding 13): a replay takes no input, so it ends with the
command that goes on with that event typed again in its place (what ``play --resume``'s
refusal gives), not "type it again"; and that command does it."""

import shlex

from camelhost import cli
from camelhost.table.journal import Journal
from camelhost.table.session import Session

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 14:black 15:white"


def _damaged(path):
    with Journal(str(path), pyramid="manual") as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        for line in (SETUP, "leg red", "pyramid", "red 2", "leg blue", "pyramid", "green 1",
                     "undo", "leg green"):
            s.command(line)
    lines = path.read_text().splitlines(keepends=True)
    die = [i for i, line in enumerate(lines) if '"colour":"green"' in line]
    assert len(die) == 1 and '"value":1' in lines[die[0]]
    lines[die[0]] = lines[die[0]].replace('"value":1', '"value":3')  # its checksum fails
    path.write_text("".join(lines))
    return die[0] + 1


def test_a_replay_names_the_command_that_types_the_proven_die_again(tmp_path, capsys,
                                                                      monkeypatch):
    path = tmp_path / "g.jsonl"
    line_no = _damaged(path)
    before = path.read_bytes()
    assert cli.main(["replay", str(path)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    command = "pyramid play --resume %s --upto-damage --retype 'green 1'" % shlex.quote(str(path))
    assert last.startswith("shown up to the damaged line %d (checksum does not match)" % line_no)
    assert last.endswith("The next line's chain hash proves it held the die green 1: to go on "
                         "with it typed again in its place: " + command)
    assert path.read_bytes() == before  # a replay changes nothing
    # the command as said: the game goes on with the die typed again, proven
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(shlex.split(command)[1:] + ["--plain"]) == 0
    out = capsys.readouterr().out
    assert "In its place: the die green 1, typed again; the next line's chain hash proves it is the line as written" in out
