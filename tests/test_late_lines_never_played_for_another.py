"""A line or a push that comes late is never acted for another player (s36 tester
findings 16 and 19).

16. At the virtual pyramid a second ``release`` (F5) while the first push's die is on
    its way pushed again; that die came after the bots' moves and was booked as a
    pyramid ticket of whoever acted then. Now a push while one is on its way changes
    nothing and says so (``release: Ann's die is on its way``), and a release of the
    virtual pyramid that comes after the table moved on from its push (a move taken back
    since, another player to act) is said, put back, and changes nothing.
19. A line typed while the table was busy (the line before it, the bots' moves) was
    taken for whoever was to act when it got processed. ``Table.line`` takes the table's
    ``moment`` the line was typed in: a player's action typed before the table moved on
    is refused in one line, nothing done; the table's own lines are taken whenever.
"""

import io

from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from seeded_pyramid import SeededPyramid, arrives

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"




def _table(names=("Ann", "Ben", "Cy"), bots=()):
    out = io.StringIO()
    pyramid = SeededPyramid()
    journal = Journal(None)
    s = Session("second", list(names), seed=9, bots=bots, journal=journal)
    t = Table(s, PlainDisplay(out), pyramid=pyramid)
    t.start()
    t.line(SETUP)
    return t, pyramid, out, journal


def _arrives(t, pyramid, push=-1):
    """The die of the push ``push`` (default the last) reaches the table from the link."""
    label, _value = arrives(t, pyramid, push)
    return label.partition("-")[0]


def _said(out, since):
    return out.getvalue()[since:].splitlines()


def _actions(journal):
    return [e for e in journal.events if e["type"] in ("action", "pyramid", "die")]


def test_a_second_release_while_the_die_is_on_its_way_pushes_nothing_and_says_so():
    t, pyramid, out, journal = _table()
    t.line("pyramid")
    t.line("release")
    since = len(out.getvalue())
    before = list(journal.events)
    t.line("release")   # an impatient double press
    t.line("release two")
    assert len(pyramid.fell) == 1  # one push only
    assert _said(out, since) == ["! release: Ann's die is on its way",
                                 "! release: Ann's die is on its way"]
    assert journal.events == before
    _arrives(t, pyramid)
    assert t.session.current == 1 and t.session.phase == "turn"  # Ben's turn, his own
    assert [e["type"] for e in _actions(journal)] == ["pyramid", "die"]


def test_a_players_action_while_a_die_is_on_its_way_is_refused_naming_why():
    t, pyramid, out, journal = _table(bots=[1])
    t.line("release")  # Ann pushes the slider: her pyramid ticket, its die on its way
    since = len(out.getvalue())
    t.line("leg red")  # not Ann's action: her push took her turn
    t.line("red 2")    # nor a die typed while the pushed one comes
    assert _said(out, since) == ["! leg red: Ann's die is on its way: wait for it",
                                 "! red 2: Ann's die is on its way: wait for it"]
    assert _actions(journal) == []
    colour = _arrives(t, pyramid)  # Ann's die; then Ben (bot) plays
    assert t.session.game.dice_out[0] == colour
    while t.waiting_release:  # Ben (bot) took a pyramid ticket: his die comes
        since = len(out.getvalue())
        t.line("tile 9 +")
        assert _said(out, since) == ["! tile 9 +: Ben (bot) is playing: wait for your turn"]
        t.line("odds")  # the table's own lines are taken meanwhile
        assert "Odds" in out.getvalue()[since:] or "odds" in out.getvalue()[since:]
        _arrives(t, pyramid)
    assert t.session.current == 2  # Cy's turn: nothing of Cy's was played
    assert all(e.get("player") != 2 for e in _actions(journal))


def test_a_line_typed_before_the_bots_moved_is_not_taken_for_the_next_player():
    # finding 19: Ann types 'leg red' twice; the second Enter came while the table
    # answered the first (Ann's move, then Ben's as a bot): never Cy's action
    t, _pyramid, out, journal = _table(bots=[1])
    typed_in = t.moment
    t.line("leg red", typed_in)
    assert t.session.current == 2
    since = len(out.getvalue())
    held = list(journal.events)
    t.line("leg red", typed_in)
    assert _said(out, since) == [
        "! leg red: typed before Ann and Ben (bot) played, so nothing is done; "
        "it is Cy's turn"]
    assert journal.events == held
    assert t.session.game.held_tickets(2) == []
    t.line("leg red", t.moment)  # typed now, on Cy's turn: Cy's
    assert t.session.game.held_tickets(2) == [("red", 3)]


def test_a_line_typed_during_the_bots_moves_is_not_kept_for_the_typists_next_turn():
    # with bots at every other seat, across a leg's end too: a leg ticket chosen on
    # the board of before is not taken on the player's next turn
    t, pyramid, out, journal = _table(names=("Ann", "Ben", "Cy", "Dee"), bots=[1, 2, 3])
    while t.session.game.leg == 1:
        typed_in = t.moment
        t.line("pyramid", typed_in)
        t.line("release", typed_in)  # the same player's turn goes on: taken
        _arrives(t, pyramid)
        while t.waiting_release:
            _arrives(t, pyramid)
        if t.session.game.leg == 1 and t.session.current == 0:
            since = len(out.getvalue())
            held = list(journal.events)
            t.line("leg blue", typed_in)  # typed on Ann's turn before, taken on this one
            said = _said(out, since)
            assert said == ["! leg blue: typed before Ann, Ben (bot), Cy (bot) and Dee (bot) "
                            "played, so nothing is done; it is Ann's turn"], said
            assert journal.events == held
    assert t.session.current == 0 and t.session.game.held_tickets(0) == []


def test_a_release_that_comes_after_its_push_was_undone_changes_nothing():
    t, pyramid, out, journal = _table()
    t.line("pyramid")
    t.line("release")
    t.line("undo")  # the table's own lines are taken while the die is on its way
    assert t.session.phase == "turn" and t.session.current == 0
    since = len(out.getvalue())
    held = list(journal.events)
    taken = len(_actions(journal))
    inside = sorted(pyramid.table.inside)
    colour = _arrives(t, pyramid)
    said = _said(out, since)
    assert said[0] == (
        "the %s die came out of the virtual pyramid late, from a push on Ann's turn: no "
        "pyramid ticket asks for it now, so it is back in the pyramid and nothing "
        "changed" % colour), said
    # no pyramid ticket of Ann's, no die: the late release kept for the record only
    assert journal.events[:-1] == held and len(_actions(journal)) == taken
    assert (journal.events[-1]["type"], journal.events[-1]["kind"]) == ("rejected", "late")
    assert t.session.phase == "turn" and t.session.game.dice_out == []
    assert sorted(pyramid.table.inside) == sorted(inside + [colour])
    t.line("release")  # Ann's own push now: her ticket, as a push on one's turn is
    _arrives(t, pyramid)
    assert [e["type"] for e in _actions(journal)[taken:]] == ["die"]
    assert t.session.game.dice_out != []


def test_a_release_made_and_taken_on_the_same_turn_is_unchanged():
    # a die that comes while its push's ticket still waits is that ticket's, after a
    # board correction typed meanwhile too
    t, pyramid, out, journal = _table()
    t.line("pyramid")
    t.line("release")
    t.line("fix 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    colour = _arrives(t, pyramid)
    assert t.session.game.dice_out == [colour]
    assert t.session.current == 1
