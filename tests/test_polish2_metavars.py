"""Tester finding: ``--help`` in German showed ``FILE``, ``N``, ``position`` ... in English.
Every command's metavars come from ``camelhost.commands.options.metavar`` through the
catalogue: German ``DATEI``, ``STELLUNG``, ``NAMEN`` ...; English reads as before."""

import argparse
import importlib

import pytest
from camelhost import cli
from camelhost.i18n import set_language

COMMANDS = [name for name, _help in cli.COMMANDS]


def _metavars(name):
    """``{option string or positional dest: what --help shows for its value}`` of every
    option of command ``name`` that takes a value and has no fixed choices."""
    module = importlib.import_module("camelhost.commands." + name)
    parser = argparse.ArgumentParser(prog="pyramid " + name)
    module.add_arguments(parser)
    shown = {}
    for action in parser._actions:
        if action.nargs == 0 or action.choices or action.help == argparse.SUPPRESS:
            continue
        shown[(action.option_strings or [action.dest])[0]] = action.metavar or (
            action.dest if not action.option_strings else action.dest.upper())
    return shown


#: The German metavars: each the word the catalogue uses for the thing elsewhere
#: (Stellung for a position, Würfel, Namen, Strategien for the bots' policies).
GERMAN = {"DATEI", "N", "MS", "INHALT", "WÜRFEL", "NAMEN", "ANSCHLUSS", "STRATEGIEN",
          "ADRESSE", "ABSCHNITT", "SEKUNDEN", "STELLUNG", "HOST:PORT", "SPRACHE",
          "SPIELER", "ORDNER", "BEFEHL", "STAPEL"}


def test_every_metavar_of_every_command_is_german_in_german():
    set_language("de")
    english = {}
    for name in COMMANDS:
        english.update({(name, k): v for k, v in _metavars(name).items()
                        if v not in GERMAN})
    assert english == {}


def test_the_german_help_names_a_file_and_a_position_in_german(capsys):
    for argv, words in ((["odds", "--help"], ("STELLUNG", "--players NAMEN", "--seed N")),
                        (["check", "--help"], ("DATEI [DATEI ...]",)),
                        (["play", "--help"], ("--journal DATEI", "--pyramid ANSCHLUSS",
                                              "--lang SPRACHE")),
                        (["rules", "--help"], ("[ABSCHNITT ...]",))):
        with pytest.raises(SystemExit):
            cli.main(argv + ["--lang", "de"])
        out = capsys.readouterr().out
        for word in words:
            assert word in out, (argv, word)
        assert "FILE" not in out and "NAMES" not in out and "position" not in out.split()


def test_english_metavars_read_as_before():
    set_language("en")
    assert _metavars("check")["files"] == "FILE"
    assert _metavars("odds")["position"] == "position"
    assert _metavars("play")["--players"] == "NAMES"
    assert _metavars("play")["--pyramid"] == "PORT"
    assert _metavars("tournament")["--bots"] == "POLICIES"
