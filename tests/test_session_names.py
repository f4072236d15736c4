"""Names, not seats (issue 11): every message, error and suggestion names the players."""

import io
import re

import pytest
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session, TableError
from camelhost.table.view import table_view
from camelhost.ui import plain
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"]
SEAT = re.compile(r"\bp\d+\b|\bseat\b|partner \d")


def _six():
    s = Session("second", SIX, seed=4)
    s.command(SETUP)
    return s


def test_a_tile_next_to_another_names_its_owner():
    s = _six()
    s.command("tile 5 +")  # Ann
    with pytest.raises(TableError) as info:
        s.command("tile 5 -")  # Ben
    assert "Ann's tile on space 5" in str(info.value)
    with pytest.raises(TableError) as info:
        s.command("tile 6 -")
    assert "space 6 is next to Ann's tile on space 5" in str(info.value)


def test_partnering_yourself_names_you():
    s = _six()
    with pytest.raises(TableError) as info:
        s.command("partner Ann")
    assert str(info.value) == "partner Ann: Ann cannot partner themself (RULES 3.8)"


def test_a_partnership_already_taken_names_both():
    s = _six()
    s.command("partner Eve")
    with pytest.raises(TableError) as info:
        s.command("partner Eve")  # Ben asks Eve, who is with Ann
    assert "Eve is already partnered with Ann" in str(info.value)


def test_partnership_values_name_the_partner():
    s = _six()
    values = table_view(s)["odds"]["actions"]["values"]
    texts = [v["text"] for v in values if v["kind"] == "partner"]
    assert texts and all(re.match(r"partner (Ben|Cy|Dee|Eve|Finn): overall ([+-]\d|0\.00)", t) for t in texts)
    assert any(t.startswith("partner Eve: ") for t in texts)


@pytest.mark.parametrize("text", ["partner Ann", "tile 5 -", "tile 5 +", "partner Eve",
                                  "leg orange", "tile 1 +", "tile 3 +", "partner Ben", "red 1",
                                  "fix 2:pink", "partner 2", "setup 1:red"])
def test_every_illegal_action_message_names_players_not_seats(text):
    s = _six()
    s.command("tile 5 +")   # Ann
    s.command("partner Eve")  # Ben partners Eve
    s.command("win red")    # Cy
    s.command("red 1")      # Dee: pyramid ticket, red moves
    s.command("leg blue")   # Eve
    s.command("leg green")  # Finn
    out = io.StringIO()
    t = Table(s, PlainDisplay(out))
    t.line(text)
    shown = out.getvalue()
    assert shown.startswith("! "), shown
    assert not SEAT.search(shown), shown


def test_undo_of_a_partnership_names_the_partner():
    s = _six()
    s.command("partner Eve")
    notices = s.command("undo")
    lines = [line for n in notices for line in plain.notice_lines(n, table_view(s, odds=False))]
    assert lines == ["undone: Ann's partnership with Eve"]


def test_the_best_command_names_the_partner_in_plain_mode():
    s = Session("second", SIX, seed=4, journal=Journal(None))
    out = io.StringIO()
    t = Table(s, PlainDisplay(out))
    t.line(SETUP)
    t.line("best")
    line = [x for x in out.getvalue().splitlines() if x.startswith("Best for Ann: ")]
    assert line and not SEAT.search(line[0])


@pytest.mark.parametrize("text,form", [
    ("leg", "leg <colour>"), ("win red blue", "win <colour>"), ("lose", "lose <colour>"),
    ("partner", "partner <name>"), ("tile", "tile <space> + or tile <space> -"),
    ("tile 7", "tile <space> + or tile <space> -"), ("cheer", "cheer <space>"),
    ("finish red", "finish winner|loser <colour>"),
])
def test_a_command_without_what_it_needs_says_its_form(text, form):
    s = _six()
    with pytest.raises(TableError) as info:
        s.command(text)
    assert "check the form: %s" % form in str(info.value)


def test_setup_alone_says_its_form_at_setup_and_during_the_race_that_it_is_done():
    s = Session("second", SIX, seed=4)
    with pytest.raises(TableError) as info:
        s.command("setup")
    assert "check the form: setup 1:blue,green 2:red ..." in str(info.value)
    s.command(SETUP)
    with pytest.raises(TableError) as info:
        s.command("setup")
    assert str(info.value) == "the setup is already done"
