"""A refused finish card never tells which cards a player laid face down (RULES 1.8,
5; tester finding 8): a colour typed where everyone reads it is refused in the same
line whether or not that colour lies on a pile; the private paths name no colour."""

import io
import json

from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _table(*lines):
    """A plain-mode table of Ann, Ben and Cy after the setup and ``lines``."""
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    for line in (SETUP,) + lines:
        t.line(line)
    return t, out


def _table_after_ann_laid_green():
    """Ann plays green privately (``win``, then the colour), Ben and Cy take leg
    tickets: Ann's turn again, green face down on the winner pile."""
    t, out = _table("win", "green", "leg red", "leg red")
    s = t.session
    assert s.current == 0 and len(s.game.pile("winner")) == 1
    return t, out


def _reply(t, out, typed):
    before = len(out.getvalue())
    t.line(typed)
    return out.getvalue()[before:]


def _public(view):
    return json.dumps(view, sort_keys=True, default=str)


def test_a_laid_and_an_unlaid_colour_typed_in_public_get_the_same_refusal():
    t, out = _table_after_ann_laid_green()
    s = t.session
    before = _public(table_view(s, odds=False))
    events = len(s.journal.events)
    laid = _reply(t, out, "win green")      # on the winner pile already
    unlaid = _reply(t, out, "win red")      # still in Ann's hand
    assert laid == unlaid
    assert laid.startswith("! Ann has a finish card face down") and laid.count("\n") == 1
    assert "type 'win' alone" in laid
    assert "green" not in laid and "red" not in laid
    assert _reply(t, out, "lose green") == _reply(t, out, "lose red")
    # the game unchanged, nothing journaled, the web page's view the same
    assert len(s.journal.events) == events and s.current == 0
    assert len(s.game.pile("winner")) == 1 and s.game.pile("loser") == []
    assert _public(table_view(s, odds=False)) == before


def test_the_private_path_still_plays_a_card_and_refuses_without_a_colour():
    t, out = _table_after_ann_laid_green()
    s = t.session
    t.line("win")
    said = _reply(t, out, "green")
    assert said.startswith("! that finish card can't be played") and "green" not in said
    assert t.private == "winner"  # asked again, unseen
    t.line("red")
    assert len(s.game.pile("winner")) == 2 and s.current == 1
    assert "red" not in out.getvalue().split("Ann plays a finish card")[-1].splitlines()[0]


def test_the_full_screens_picker_refuses_a_laid_colour_without_naming_it():
    t, out = _table_after_ann_laid_green()
    s = t.session
    before = len(out.getvalue())
    assert t.play_unseen("winner", "green") is False
    said = out.getvalue()[before:]
    assert said.startswith("! Ann can't play that finish card") and "green" not in said
    assert len(s.game.pile("winner")) == 1 and s.current == 0
    assert t.play_unseen("loser", "red") is True
    assert len(s.game.pile("loser")) == 1 and s.current == 1


def test_a_player_with_no_card_face_down_plays_the_colour_typed():
    t, _out = _table("win green",  # Ann: nothing hidden yet
                     "lose red")   # Ben
    s = t.session
    assert len(s.game.pile("winner")) == 1 and len(s.game.pile("loser")) == 1
    assert s.current == 2


def test_the_full_screen_masks_the_colour_typed_so_it_checks_it_as_a_private_one():
    t, out = _table_after_ann_laid_green()
    t.colours_masked = True  # as the full screen sets it (camelhost.ui.tui.TableApp)
    said = _reply(t, out, "win green")
    assert said.startswith("! Ann can't play that finish card") and "green" not in said
    t.line("win red")
    assert len(t.session.game.pile("winner")) == 2


def test_a_player_whose_cards_were_all_typed_in_view_plays_the_next_one_as_typed():
    # nothing was laid unseen, so a refusal could tell nothing hidden: a script (or a
    # player) typing 'win red' every time plays on (tests/test_crash.py's games do)
    t, out = _table("win green", "leg red", "leg red")
    s = t.session
    assert s.current == 0 and len(s.game.pile("winner")) == 1
    reply = _reply(t, out, "win red")
    assert "has a finish card face down" not in reply and len(s.game.pile("winner")) == 2
    assert s.current == 1
    # the same colour again is refused as the rules say: it was typed in view anyway
    t.line("leg blue")
    t.line("leg blue")
    assert "once" in _reply(t, out, "win green")
