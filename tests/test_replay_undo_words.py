"""``pyramid replay`` tells an undo and a redo as past events: a replay has no pyramid and
no pieces, so it never tells anyone to put a die back in the pyramid, take one out of it
or move a camel back (tester s35, finding 5; closing35 "left alone"). The live table's own
line keeps them: there people do it."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.table.journal import Journal
from camelhost.table.session import Session

SETUP = "setup 1:blue 2:green 3:yellow,purple,red 15:black 16:white"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _journal(path, commands):
    """A second-edition game with dice typed, ``commands`` typed after its setup; the
    live table's undo and redo lines, in order."""
    said = []
    with Journal(str(path), pyramid="manual") as journal:
        session = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=journal)
        for command in [SETUP] + commands:
            said += [n["text"] for n in session.command(command)
                     if n["kind"] == "info" and "dice_moves" in n]
    return said


def _replayed(capsys, path, *options):
    assert cli.main(["replay", str(path)] + list(options)) == 0
    return [line for line in capsys.readouterr().out.splitlines()
            if line.startswith(("undone", "redone", "Zurückgenommen", "Wiederhergestellt"))]


def test_a_replay_tells_an_undo_and_a_redo_without_the_tables_instructions(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    live = _journal(path, ["leg blue", "pyramid", "red 1", "pyramid", "green 2", "undo",
                           "redo", "undo", "undo"])
    # the table was told what to do with the pyramid and the camels (and still is)
    assert live[0] == ("undone: Cy's pyramid ticket and its die green 2; move the green camel "
                       "back to space 2; put the green die back in the pyramid")
    assert live[1] == ("redone: Cy's pyramid ticket and its die green 2; take the green die "
                       "out of the pyramid again")
    assert _replayed(capsys, path) == [
        "undone: Cy's pyramid ticket and its die green 2; the green camel went back to "
        "space 2",
        "redone: Cy's pyramid ticket and its die green 2",
        "undone: Cy's pyramid ticket and its die green 2; the green camel went back to "
        "space 2",
        "undone: Ben's pyramid ticket and its die red 1; the red camel went back to space 3, "
        "on top of purple and yellow"]


def test_a_german_replay_tells_them_as_past_in_german(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    _journal(path, ["pyramid", "red 1", "undo", "redo", "undo"])
    assert _replayed(capsys, path, "--lang", "de") == [
        "Zurückgenommen: das Pyramidenplättchen von Ann mit seinem Würfel rot 1; das Kamel "
        "rot ging auf Feld 3 zurück, oben auf lila und gelb",
        "Wiederhergestellt: das Pyramidenplättchen von Ann mit seinem Würfel rot 1",
        "Zurückgenommen: das Pyramidenplättchen von Ann mit seinem Würfel rot 1; das Kamel "
        "rot ging auf Feld 3 zurück, oben auf lila und gelb"]


def test_a_replayed_undo_of_a_leg_end_puts_no_dice_back_and_moves_no_camel(tmp_path, capsys):
    # the undo of the die that ended leg 1: live, the other dice come out of the pyramid
    # again and the camels go back; the replay says what happened, to nobody
    path = tmp_path / "g.jsonl"
    dice = ["red 1", "blue 2", "green 3", "yellow 1", "purple 2"]
    commands = [c for die in dice for c in ("pyramid", die)] + ["undo", "undo", "redo"]
    live = _journal(path, commands)
    assert "out of the pyramid again" in live[0] and "move the " in live[0]
    told = _replayed(capsys, path)
    assert [line.split(":")[0] for line in told] == ["undone", "undone", "redone"]
    for line in told:
        for words in ("pyramid again", "back in the pyramid", "back in it", "move "):
            assert words not in line, line
    assert told[0] == ("undone: Ben's pyramid ticket and its die purple 2; this also takes "
                       "back the leg 1 scoring: every player's coins, tickets and tiles as "
                       "before it; the purple camel, carrying blue, went back to space 4, on "
                       "top of yellow and red")


@pytest.mark.parametrize("lang, line", [
    ("en", "the rename of Ben to Benny was not undone (a rename is no step of the race)"),
    ("de", "die Umbenennung von Ben in Benny wurde nicht rückgängig gemacht (eine "
           "Umbenennung ist kein Schritt des Rennens)")])
def test_a_replayed_undo_after_a_rename_says_it_stayed_without_what_to_type(
        tmp_path, capsys, lang, line):
    # at the table the undo's note names the rename that corrects it; a replay takes
    # no command, so it says only what happened
    path = tmp_path / "g.jsonl"
    with Journal(str(path), pyramid="manual") as journal:
        session = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=journal)
        for command in (SETUP, "leg blue", "rename Ben Benny"):
            session.command(command)
        live = [n["text"] for n in session.command("undo") if n["kind"] == "info"]
    assert live[-1].endswith(": 'rename Benny Ben' corrects it")
    assert cli.main(["replay", str(path), "--lang", lang]) == 0
    replayed = capsys.readouterr().out.splitlines()
    assert line in replayed
    assert not any("rename Benny Ben" in said for said in replayed)
