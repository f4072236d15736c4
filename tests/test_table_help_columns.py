"""The table's help: every description starts in one column, at least two spaces after
its command (tester finding 15: 'tile 7 +  tile 7 - place or move...')."""

import pytest
from camelhost.i18n import colours_in, set_language
from camelhost.table.controller import HELP_COLUMN, HELP_ROWS, help_text
from camelup.editions import get_edition


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("edition", ["classic", "second"])
@pytest.mark.parametrize("pyramid", [None, "virtual", "real", "manual"])
def test_every_description_starts_in_the_help_column(lang, edition, pyramid):
    set_language(lang)
    try:
        lines = help_text(edition, pyramid).splitlines()[1:]
        colour = get_edition(edition).example_colour
        # the commands as the help shows them: in the table's colour words (leg rot)
        commands = {colours_in(row[0].format(c=colour, p="Ben")) for row in HELP_ROWS}
    finally:
        set_language("en")
    assert lines
    for line in lines:
        if line.strip() in commands and line == "  " + line.strip():
            continue  # a long command on a line of its own: its description below
        assert line[HELP_COLUMN - 2:HELP_COLUMN] == "  " and line[HELP_COLUMN] != " ", line
    assert any(line.strip() == "tile 7 +  tile 7 -" for line in lines)
