"""s32 tester 2 findings 7, 8, 9 and 10: doctor's next step only when true, names that
are no camel's colour, the names after renames on resume, and wording a player trusts."""

import io

import pytest
from camelhost import cli


@pytest.fixture
def german():
    from camelhost.i18n import set_language
    set_language("de")
    yield
    set_language("en")


def _table(edition, players, *lines):
    from camelhost.table.controller import Table
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from camelhost.ui.plain import PlainDisplay
    out = io.StringIO()
    s = Session(edition, list(players), seed=3, journal=Journal(None))
    t = Table(s, PlainDisplay(out), manual=True)
    t.start()
    for line in lines:
        t.line(line)
    return t, out


def _reply(t, out, typed):
    """The one line the table answers ``typed`` with: a refusal that changed nothing."""
    before, events = len(out.getvalue()), len(t.session.journal.events)
    t.line(typed)
    said = out.getvalue()[before:]
    assert said.count("\n") == 1 and said.startswith("! "), said
    assert len(t.session.journal.events) == events
    return said[2:].rstrip("\n")


# --- finding 9: a camel's colour is no player's name ------------------------------


@pytest.mark.parametrize("typed, name", [
    ("rename Ann blue", "blue"), ("rename Ann Red", "Red"), ("rename Ann orange", "orange"),
    ("rename Ann grey", "grey"), ("rename Ann gray", "gray"), ("rename Ann White", "White"),
])
def test_a_rename_to_a_camels_colour_is_refused_unchanged(typed, name):
    t, out = _table("second", ["Ann", "Ben", "Cy"], "draw")
    assert _reply(t, out, typed) == ("rename Ann %s: %s is a camel's colour, and a player "
                                     "called so would read as the camel: give another name"
                                     % (name, name))
    assert t.session.names == ["Ann", "Ben", "Cy"]


def test_a_rename_to_a_german_colour_is_refused_in_german(german):
    t, out = _table("second", ["Ann", "Ben", "Cy"], "draw")
    for typed in ("rename Ann Blau", "rename Ann grün", "rename Ann gruen", "rename Ann blue"):
        said = _reply(t, out, typed)
        assert said.startswith(typed + ": ") and "Kamel" in said, said
    assert t.session.names == ["Ann", "Ben", "Cy"]
    t.line("rename Ann Anna")  # a name that is no colour is still taken
    assert t.session.names == ["Anna", "Ben", "Cy"]


@pytest.mark.parametrize("players, colour", [("red,Ben,Cy", "red"), ("Ann,Ben,PURPLE", "PURPLE"),
                                             ("Ann,black,Cy", "black")])
def test_players_named_after_a_camels_colour_are_refused(players, colour, tmp_path, capsys,
                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["play", "--players", players, "--plain"]) != 0
    err = capsys.readouterr().err
    assert err == ("pyramid: --players %s: %s is a camel's colour, and a player called so would "
                   "read as the camel: give another name\n" % (players, colour))
    assert list(tmp_path.iterdir()) == []  # no journal begun


def test_a_journal_that_already_holds_a_colour_name_resumes_as_it_was(tmp_path, capsys,
                                                                      monkeypatch):
    from camelhost.table.journal import Journal
    path = tmp_path / "g.jsonl"
    with Journal(str(path), pyramid="manual") as journal:
        journal.append({"type": "game", "edition": "second", "players": ["Ann", "red", "Cy"],
                        "seed": 3, "pyramid": "manual"})
        journal.append({"type": "setup", "how": "drawn", "stacks": [
            [1, ["blue", "green"]], [2, ["red"]], [3, ["yellow", "purple"]], [15, ["black"]],
            [16, ["white"]]]})
        journal.append({"type": "rename", "player": 0, "name": "blue"})
    monkeypatch.setattr("sys.stdin", iter(["show\n", "quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain"]) == 0
    assert "> blue's turn" in capsys.readouterr().out
