"""One rule for players' names at every table (tester s35 findings 1 and 6): a name that
is a colour or a command word in any language the table speaks is refused at setup and
in a ``rename``, saying what it reads as, where, and a variant to give instead; a
journal that already holds one resumes as it is, its name read in context. Before,
``Lila`` was taken at an English table and refused at a German one (where it is the
purple camel: a game begun in English read "Lila ist am Zug" when resumed in German),
and ``undo``, ``quit``, ``release`` were taken as names."""

import os

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from typed_table import refusal, typed_table

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.mark.parametrize("lang, said", [
    ("en", "Lila is the purple camel's word at a German table, and a player called so would "
           "read as the camel: choose another name, e.g. Lila A."),
    ("de", "Lila ist an einem deutschen Tisch das Wort für das Kamel lila, und ein Spieler "
           "dieses Namens läse sich wie das Kamel: wähle einen anderen Namen, z. B. Lila A.")])
def test_a_german_colour_word_is_refused_at_every_table(lang, said, tmp_path, monkeypatch,
                                                        capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["play", "--plain", "--lang", lang, "--players", "Ann,Lila,Cy"]) == 1
    assert capsys.readouterr().err == "pyramid: --players Ann,Lila,Cy: %s\n" % said
    assert os.listdir(tmp_path) == []  # no journal begun


@pytest.mark.parametrize("name, word", [
    ("undo", "the command undo at every table"), ("Quit", "the command quit at every table"),
    ("release", "the command release at every table"), ("L", "the command l at every table"),
    ("Hilfe", "the command help at a German table"),
    ("Gruen", "the green camel's word at a German table"),
    ("Grau", "the grey die's word at a German table")])
def test_a_command_or_colour_word_of_any_language_is_no_name(name, word, tmp_path,
                                                             monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["play", "--plain", "--players", "Ann,%s,Cy" % name]) == 1
    thing = "command" if "command" in word else "die" if "die" in word else "camel"
    assert capsys.readouterr().err == (
        "pyramid: --players Ann,%s,Cy: %s is %s, and a player called so would read as the "
        "%s: choose another name, e.g. %s A.\n" % (name, name, word, thing, name))


def test_a_rename_to_such_a_word_is_refused_offering_a_name_no_one_has():
    table, out = typed_table("second", ["Ann", "Lila A.", "Cy"], SETUP)
    assert refusal(table, out, "rename Ann Lila") == (
        "rename Ann Lila: Lila is the purple camel's word at a German table, and a player "
        "called so would read as the camel: choose another name, e.g. Lila B.")
    assert refusal(table, out, "rename Cy redo").startswith("rename Cy redo: redo is the "
                                                            "command redo at every table")
    assert table.session.names == ["Ann", "Lila A.", "Cy"]
    table.line("rename Ann Anna Rot")  # a colour word inside a longer name is no clash
    assert table.session.names == ["Anna Rot", "Lila A.", "Cy"]


def test_a_journal_holding_such_names_resumes_and_reads_them_in_context(tmp_path,
                                                                        monkeypatch, capsys):
    path = str(tmp_path / "g.jsonl")
    with Journal(path, pyramid="manual", lang="en") as journal:  # an English table's,
        journal.append({"type": "game", "edition": "second",  # before such names were refused
                        "players": ["Ann", "Lila", "Undo"], "seed": 3, "pyramid": "manual",
                        "lang": "en"})
        Session.resume(journal).command(SETUP)
    lines = ["Lila: leg rot", "Undo leg rot", "leg rot", "Lila leg rot", "undo", "quit"]
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in lines))
    assert cli.main(["play", "--plain", "--lang", "de", "--resume", path]) == 0
    out = capsys.readouterr().out
    # said once at the resume, with the rename that gives another name
    assert ("ein Spieler dieses Protokolls: Lila ist an einem deutschen Tisch das Wort für das "
            "Kamel lila, und ein Spieler dieses Namens läse sich wie das Kamel: wähle einen "
            "anderen Namen, z. B. Lila A. (tippe 'rename Lila Lila A.')") in out
    assert ("ein Spieler dieses Protokolls: Undo ist an jedem Tisch der Befehl undo, und ein "
            "Spieler dieses Namens läse sich wie der Befehl: wähle einen anderen Namen, z. B. "
            "Undo A. (tippe 'rename Undo Undo A.')") in out
    # a name before a command is the player's (before: 'lila: leg rot', and 'undo: check
    # the form'), alone the command
    assert ("! 'Lila: leg rot': ein Befehl nimmt keinen Spielernamen, er gilt für den Spieler "
            "am Zug (Ann ist am Zug); tippe 'leg rot'") in out
    assert "! 'Undo leg rot': ein Befehl nimmt keinen Spielernamen" in out
    assert "Ann nimmt das Wettplättchen rot im Wert von 5" in out
    assert ("! 'Lila leg rot': ein Befehl nimmt keinen Spielernamen, er gilt für den Spieler "
            "am Zug (Lila ist am Zug); tippe 'leg rot'") in out
    assert "Zurückgenommen: das Wettplättchen rot von Ann" in out
    set_language("en")
