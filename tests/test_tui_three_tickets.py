"""A player holding three leg tickets reads on one row of the full screen at 80x24
(tester finding at the last stop: the third ticket spilled onto a line of its own
under the row, read as one more seat): four and eight players, both editions,
English and German. The players table takes a narrower column set (or cuts names,
never alike) before a row of tickets wraps (``camelhost.ui.panels.players_text``)."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui import plan
from camelhost.ui.panels import colour_letter, players_text

P4 = ["Ann", "Ben", "Cy", "Dee"]
P8 = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
LONG4 = ["Alexandria", "Bartholomew", "Christopher", "Dominique"]

#: Ann takes three leg tickets while the others take tickets of other colours (or a
#: tile, or a die from the pyramid), so that no leg ends on the way.
LINES = {
    ("second", 4): [scenes.SECOND_SETUP, "leg green", "leg yellow", "leg yellow",
                    "leg yellow", "leg blue", "leg purple", "leg purple", "leg purple",
                    "leg red"],
    ("second", 8): [scenes.SECOND_SETUP, "leg green"]
    + ["leg yellow"] * 4 + ["leg purple"] * 3 + ["leg blue"]
    + ["leg purple"] + ["leg red"] * 4 + ["leg green"] * 2 + ["leg blue"],
    ("classic", 4): [scenes.CLASSIC_SETUP, "leg green", "leg yellow", "leg yellow",
                     "leg yellow", "leg blue", "leg white", "leg white", "leg white",
                     "leg orange"],
    ("classic", 8): [scenes.CLASSIC_SETUP, "leg green"]
    + ["leg yellow"] * 3 + ["leg white"] * 3 + ["leg orange"] + ["leg blue"]
    + ["leg orange"] * 2 + ["tile 9 +", "yellow 1", "white 1", "orange 1", "green 1"]
    + ["leg blue"],
}


def _tickets(view, name):
    """The tickets ``name`` holds as the screen writes them (``G5``)."""
    player = next(p for p in view["players"] if p["name"] == name)
    return ["%s%d" % (colour_letter(t["colour"]), t["value"]) for t in player["leg_tickets"]]


def _row(lines, name):
    """The players table's row of ``name`` (its marker, then the name) in ``lines``."""
    return next(i for i, line in enumerate(lines) if line[1:].startswith(name))


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("edition, seats", [("second", 4), ("second", 8),
                                            ("classic", 4), ("classic", 8)])
def test_three_leg_tickets_read_on_their_players_row_at_80x24(edition, seats, lang):
    set_language(lang)
    names = P4 if seats == 4 else P8
    app = scenes.app_for(edition, names, odds=scenes.leg_odds_only)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, LINES[edition, seats])
            await scenes.settle(pilot)
            view = table_view(app.session, odds=False)
            tickets = _tickets(view, "Ann")
            assert len(tickets) == 3, tickets  # the lines were all taken
            panel = app.query_one("#players")
            shown = [strip.text for strip in app.screen._compositor.render_strips()]
            left = panel.region.x
            lines = [line[left:left + panel.region.width].rstrip()
                     for line in shown[panel.region.y:panel.region.y + panel.region.height]]
            at = _row(lines, "Ann")
            assert lines[at].split()[-3:] == tickets, lines
            # the next line is the next player's row, not Ann's tickets spilt under her
            assert lines[at + 1][1:].startswith("Ben"), lines
            for name in names:  # every player in view, one row each
                _row(lines, name)

    asyncio.run(play())


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("names", [P4, LONG4])
def test_the_whole_players_table_never_wraps_three_tickets_at_80_columns(names, lang):
    # the table a tall screen shows (not the compact form): a narrower column set, or
    # names cut (told apart), keeps the third ticket on the row
    set_language(lang)
    session = Session("classic", names, seed=2, journal=Journal(None))
    for line in LINES["classic", 4]:
        session.command(line)
    view = table_view(session, odds=False)
    width = plan.players_width(view, 80)
    rows = players_text(view, width).plain.splitlines()
    assert len(rows) == 1 + len(names), rows  # the heading and one row a player
    assert rows[1].split()[-3:] == _tickets(view, names[0]), rows
    cut = [row[1:].split()[0] for row in rows[1:]]
    assert len(set(cut)) == len(names), rows  # names told apart
    assert all(len(row) <= width for row in rows), rows
