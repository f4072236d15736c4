"""A mistyped command gets the nearest command of the parser's table, and a player's
name typed first says whose turn it is (tester finding 12). One line each, nothing
changed."""

import io

import pytest
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _table(setup=True):
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    if setup:
        t.line(SETUP)
    return t, out


def _reply(t, out, typed):
    before, events = len(out.getvalue()), len(t.session.journal.events)
    t.line(typed)
    said = out.getvalue()[before:]
    assert said.count("\n") == 1 and len(t.session.journal.events) == events
    return said.rstrip("\n")


@pytest.mark.parametrize("typed, meant", [("leeg red", "leg red"), ("tiel 5 +", "tile 5 +"),
                                          ("undoo", "undo"), ("partnr Ben", "partner Ben")])
def test_a_typo_names_the_nearest_command(typed, meant):
    t, out = _table()
    said = _reply(t, out, typed)
    assert "did you mean '%s'?" % meant in said
    assert t.session.current == 0


@pytest.mark.parametrize("typed", ["Ben leg red", "Ben: leg red", "ben, leg red"])
def test_a_players_name_first_says_whose_turn_it_is(typed):
    t, out = _table()
    said = _reply(t, out, typed)
    assert said == ("! '%s': a command takes no player's name, it acts for the player to act "
                    "(it is Ann's turn); type 'leg red'" % typed)


def test_a_players_name_first_at_setup_says_it_is_nobodys_turn():
    t, out = _table(setup=False)
    assert "(it is nobody's turn now)" in _reply(t, out, "Ann leg red")


def test_nothing_near_stays_a_plain_unknown_command():
    t, out = _table()
    assert _reply(t, out, "xyzzy") == "! unknown command 'xyzzy' (help lists the commands)"


@pytest.mark.parametrize("waiting", [False, True])
def test_a_die_of_the_other_edition_is_named_so_not_taken_for_a_command(waiting):
    # tester 2, finding 7: 'orange 2' in the second edition, a pyramid ticket waiting for
    # its die, got "did you mean 'mirage 2'?", the classic edition's tile word
    t, out = _table()
    if waiting:
        t.line("pyramid")
        assert t.session.phase == "die"
    said = _reply(t, out, "orange 2")
    assert "did you mean" not in said and "mirage" not in said
    assert said == ("! 'orange 2': 'orange' is not a die of the second edition "
                    "(dice: blue, green, yellow, red, purple, grey)")


def test_a_typo_is_never_answered_with_the_other_editions_tile_word():
    t, out = _table()
    said = _reply(t, out, "mirag 5")  # classic's backward side; here it is 'booing'
    assert "mirage" not in said.split("did you mean", 1)[-1]
    assert "did you mean 'boo" in _reply(t, out, "booin 5")


def test_a_typo_is_answered_only_with_what_this_moment_takes():
    t, out = _table(setup=False)
    said = _reply(t, out, "leeg red")  # no leg ticket before the camels are on the track
    assert "did you mean" not in said
    assert "did you mean 'draw'?" in _reply(t, out, "drav")
    t, out = _table()
    assert "did you mean" not in _reply(t, out, "drav")  # the setup is done
