"""Tester s35 finding 2: ``pyramid rules crazy`` said ``(pyramid rules 1.5 prints one)``
above a list without 1.5 (1.5 is the player tiles). The example a keyword look-up gives
is a section of the list it prints, its first, and that command prints that section,
in English and in German (a German word, and an English command word the German
reference does not say)."""

import re

import pytest
from camelhost import cli


def _look_up(capsys, *argv):
    assert cli.main(["rules"] + list(argv)) == 0
    lines = capsys.readouterr().out.splitlines()
    example = re.search(r"\(pyramid rules (\S+) (?:prints one|zeigt einen)\)", lines[0])
    assert example, lines[0]
    listed = [line[2:].split()[0].rstrip(".").replace("\\", "") for line in lines[1:]]
    return example.group(1), listed


@pytest.mark.parametrize("argv", [
    ("crazy",), ("partner",), ("tile",), ("grey",), ("tile", "--lang", "de"),
    ("crazy", "--lang", "de"), ("Zuschauerplättchen", "--lang", "de"),
    ("Kamel", "--lang", "de")])
def test_the_example_names_the_first_section_listed_and_prints_it(capsys, argv):
    section, listed = _look_up(capsys, *argv)
    assert section == listed[0], (section, listed)
    lang = list(argv[1:])
    assert cli.main(["rules", section] + lang) == 0
    assert capsys.readouterr().out.startswith(section), section


def test_crazy_names_finish_cards_not_the_player_tiles(capsys):
    assert cli.main(["rules", "crazy"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "Sections that mention 'crazy' (pyramid rules 1.8 prints one):"
    assert cli.main(["rules", "crazy", "--lang", "de"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("Abschnitte, deren englischer Text 'crazy' nennt "
                     "(pyramid rules 1.8 zeigt einen):")
