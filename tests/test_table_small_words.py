"""Small words at the plain table (s37 player tester finding 9): ``release`` misspelt gets
"did you mean 'release'?" where the table's pyramid releases a die now (as ``undp`` gets
``undo``), and never where it can't; a bare ``partner`` from a player already partnered
this leg gets the reason, as ``partner Cy`` does, not a form that is refused too; an
``undo`` that takes the race back to its setup says what the setup takes again, and that
``redo`` gives it back, not the prompt "setup" alone."""

import pytest
from camelhost import cli


def _play(monkeypatch, capsys, lines, *argv):
    """``pyramid play --plain ARGV`` with ``lines`` typed, then ``quit``: stdout's lines."""
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in list(lines) + ["quit"]))
    rc = cli.main(["play", "--plain"] + list(argv))
    out = capsys.readouterr()
    assert rc == 0, out.err
    return out.out.splitlines()


def _refusals(out):
    """The table's refusals (``! ...``), in order (the lines typed are not echoed)."""
    return [x for x in out if x.startswith("! ")]


@pytest.mark.hil
def test_relase_is_offered_as_release_where_the_virtual_pyramid_releases(
        tmp_path, monkeypatch, capsys):
    out = _play(monkeypatch, capsys, ["relase", "pyramid", "realese", "release"],
                "--players", "Ann,Ben,Cy", "--pyramid", "virtual", "--seed", "4",
                "--journal", str(tmp_path / "g.jsonl"))
    assert _refusals(out) == [
        "! unknown command 'relase'; did you mean 'release'? (help lists the commands)",
        "! unknown command 'realese'; did you mean 'release'? (help lists the commands)"]
    # the die waited for came out at the 'release' after them
    assert any(x.startswith("DIE ") and "(Ann's pyramid ticket)" in x for x in out)


def test_relase_is_not_offered_where_nothing_releases_a_die(tmp_path, monkeypatch, capsys):
    # dice typed at the table (no pyramid): 'release' is refused there, so never offered
    out = _play(monkeypatch, capsys, ["draw", "relase"], "--players", "Ann,Ben,Cy",
                "--pyramid", "manual", "--seed", "4", "--journal", str(tmp_path / "g.jsonl"))
    assert _refusals(out) == ["! unknown command 'relase' (help lists the commands)"]


def test_a_bare_partner_when_already_partnered_says_why(tmp_path, monkeypatch, capsys):
    out = _play(monkeypatch, capsys, ["draw", "partner Ben", "partner", "partner Cy"],
                "--players", "Ann,Ben,Cy,Dee,Eve,Eda", "--seed", "4",
                "--journal", str(tmp_path / "g.jsonl"))
    why = "Ben is already partnered with Ann this leg (RULES 3.8)"
    assert _refusals(out) == ["! partner: " + why, "! partner Cy: " + why]


def test_a_bare_partner_when_free_still_teaches_the_form(tmp_path, monkeypatch, capsys):
    out = _play(monkeypatch, capsys, ["draw", "partner"], "--players", "Ann,Ben,Cy,Dee,Eve,Eda",
                "--seed", "4", "--journal", str(tmp_path / "g.jsonl"))
    assert _refusals(out) == [
        "! partner: check the form: partner <name> ('help' shows every command)"]


@pytest.mark.parametrize("pyramid, takes", [
    ("manual", "type each camel's die, the stacks or 'draw'"),
    pytest.param("virtual", "release each camel's die, type the stacks or 'draw'",
                 marks=pytest.mark.hil)])
def test_an_undo_back_to_the_setup_says_what_the_setup_takes(tmp_path, monkeypatch, capsys,
                                                            pyramid, takes):
    out = _play(monkeypatch, capsys, ["draw", "undo", "redo"], "--players", "Ann,Ben,Cy",
                "--pyramid", pyramid, "--seed", "4", "--journal", str(tmp_path / "g.jsonl"))
    undone = [x for x in out if x.startswith("undone: ")]
    assert undone == ["undone: the setup; race 1 is at its setup again: %s ('redo' gives the "
                      "setup back)" % takes]
    # and 'redo' does: the race is at Ann's turn again
    assert out[out.index(undone[0]) + 1] == "> setup"
    assert any(x.startswith("redone: ") for x in out)
    assert [x for x in out if x.startswith("> ")][-1].startswith("> Ann's turn")


def test_an_undo_of_one_setup_die_within_the_setup_adds_nothing(tmp_path, monkeypatch, capsys):
    # still at the setup before and after: the prompt and the placed dice say it already
    out = _play(monkeypatch, capsys, ["blue 1", "undo"], "--players", "Ann,Ben,Cy",
                "--pyramid", "manual", "--seed", "4", "--journal", str(tmp_path / "g.jsonl"))
    assert [x for x in out if x.startswith("undone: ")] == ["undone: the setup die blue 1"]


def test_a_name_typed_without_its_accent_offers_the_start_that_takes_it(tmp_path, monkeypatch,
                                                                        capsys):
    # s37 tester 13: 'partner Zoe' named Zoë but a keyboard without ë could not type her
    out = _play(monkeypatch, capsys, ["draw", "partner Zoe", "partner Zo"],
                "--players", "Ann,Ben,Zoë,Dee,Eve,Eda", "--seed", "4",
                "--journal", str(tmp_path / "g.jsonl"))
    assert _refusals(out) == [
        "! no player called 'Zoe' (players: Ann, Ben, Zoë, Dee, Eve, Eda); did you mean Zoë? "
        "(without the letter on the keyboard, type the start of the name: 'Zo')"]
    assert "Ann forms a partnership with Zoë" in out  # the start offered takes her


def test_no_start_is_offered_when_none_names_the_player_alone(tmp_path, monkeypatch, capsys):
    # Ömer: the accent on the first letter, no start without it; Zoë beside Zora: 'Zo' is
    # both, so only the name is offered
    out = _play(monkeypatch, capsys, ["draw", "partner Omer", "partner Zoe"],
                "--players", "Ann,Ben,Ömer,Zoë,Zora,Eda", "--seed", "4",
                "--journal", str(tmp_path / "g.jsonl"))
    players = "Ann, Ben, Ömer, Zoë, Zora, Eda"
    assert _refusals(out) == [
        "! no player called 'Omer' (players: %s); did you mean Ömer?" % players,
        "! no player called 'Zoe' (players: %s); did you mean Zoë?" % players]
