"""An option of the same name reads the same in every command's ``--help`` (tester 2,
finding 10): ``--edition`` always lists the editions and says its default, ``--seed``
is ``N`` with its default, ``--port`` is one text, a file is ``FILE``; options that
mean different things in different commands say exactly what they are; the German
help has no English words left in them."""

import argparse
import importlib
import re

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelup.editions import EDITIONS


def _options(name):
    """``{option string or positional dest: argparse action}`` of command ``name``."""
    module = importlib.import_module("camelhost.commands." + name)
    parser = argparse.ArgumentParser(prog="pyramid " + name)
    module.add_arguments(parser)
    found = {}
    for action in parser._actions:
        for option in action.option_strings or [action.dest]:
            found[option] = action
    return found


COMMANDS = [name for name, _help in cli.COMMANDS]


def _with(option):
    return {name: _options(name)[option] for name in COMMANDS if option in _options(name)}


def test_every_edition_option_lists_the_editions_and_says_its_default():
    editions = _with("--edition")
    assert {"play", "demo", "odds", "tournament", "calibrate", "monitor", "doctor",
            "emulate"} <= set(editions)
    for name, action in editions.items():
        assert tuple(action.choices) == tuple(sorted(EDITIONS)), name
        assert action.help, name
        if action.default is not None:
            assert action.help.endswith("(default %s)" % action.default), (name, action.help)
    assert editions["play"].help.endswith("(default the one the pyramid is set to with "
                                            "--pyramid PORT or auto, else second; --resume "
                                            "takes the journal's)")


def test_every_seed_is_a_number_with_its_default_said():
    for name, action in _with("--seed").items():
        assert action.metavar == "N" and action.type is int, name
        assert re.search(r"\(default [^)]+\)$", action.help), (name, action.help)


def test_the_port_reads_the_same_wherever_the_firmware_is_talked_to():
    ports = {n: a for n, a in _with("--port").items() if n != "flash"}  # flash: any board
    assert set(ports) == {"calibrate", "monitor", "doctor"}
    assert len({(a.help, a.metavar, a.default) for a in ports.values()}) == 1


def test_the_seats_read_the_same_in_demo_and_tournament():
    demo, tournament = _options("demo")["--seats"], _options("tournament")["--seats"]
    assert (demo.help, demo.metavar, demo.default) == \
        (tournament.help, tournament.metavar, tournament.default)
    assert demo.help == "number of seats: 2-8 classic, 3-8 second edition (default 4)"


def test_a_file_is_file_in_every_command():
    assert _options("replay")["file"].metavar == "FILE"
    assert _options("check")["files"].metavar == "FILE"
    for name in ("play", "demo"):
        assert _options(name)["--journal"].metavar == "FILE", name
    assert _options("play")["--resume"].metavar == "FILE"


def test_options_that_mean_two_things_say_which():
    play, tournament = _options("play")["--bots"], _options("tournament")["--bots"]
    assert play.metavar == "NAMES" and tournament.metavar == "POLICIES"
    assert "by name" in play.help and "policy" in play.help
    assert "policy at each seat" in tournament.help and "names the seats" in tournament.help
    odds = _options("odds")
    assert odds["--dice"].dest == "pyramid" and odds["--pyramid"].help == argparse.SUPPRESS
    assert _options("play")["--pyramid"].help.startswith("where the dice come from")


def test_odds_later_tiles_names_no_one_editions_tiles(capsys):
    for lang, words, dice in (("en", "desert", "DICE"), ("de", "Wüstenplättchen", "WÜRFEL")):
        with pytest.raises(SystemExit):
            cli.main(["odds", "--help", "--lang", lang])
        text = " ".join(capsys.readouterr().out.split())
        assert words not in text and "--later-tiles" in text
        assert "--dice " + dice in text and "--pyramid" not in text  # the old spelling hidden


def test_odds_still_takes_the_old_pyramid_spelling(capsys):
    board = "1:[R,Y,P,B,G] 16:[K,W]"
    assert cli.main(["odds", board, "--pyramid", "grey"]) == 0
    old = capsys.readouterr().out
    assert cli.main(["odds", board, "--dice", "grey"]) == 0
    assert capsys.readouterr().out == old


def test_the_german_demo_help_has_no_english_words_in_its_options(capsys):
    set_language("de")
    with pytest.raises(SystemExit):
        cli.main(["demo", "--help", "--lang", "de"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Anzahl der Plätze: 2-8 Erstausgabe, 3-8 Zweitausgabe (Vorgabe 4)" in text
    options = text[text.index("--edition {classic,second} ") + 27:]  # the words after it
    for english in ("edition", "default", "seed of", "journal file", "temporary"):
        assert english not in options, english
    assert "die Ausgabe, die die Bots spielen (Vorgabe second)" in options


def test_a_slip_of_a_command_s_name_says_which_command_in_one_line(capsys):
    # tester s33 finding 10: 'pyramid plya' gave argparse's usage and choice list only
    assert cli.main(["plya", "--players", "Ann,Ben"]) == 2
    assert capsys.readouterr().err == ("pyramid: unknown command 'plya'; did you mean "
                                       "'play'? (pyramid --help lists them)\n")
    # nothing near it: one line too, the commands to choose from (s35: argparse's usage)
    assert cli.main(["xyzzy"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pyramid: unknown command 'xyzzy'; the commands are play, demo,")
    assert err.count("\n") == 1
