"""s38 tester findings 1, 3, 4, 6, 7, 8 and 9, as a table meets them: the lines it
answers (``Table.line``, ``pyramid play --resume`` through ``cli.main``)."""

import io
import os
import queue
import threading

from camelhost import cli
from camelhost.device.events import DieEvent
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from camelhost.ui.loop import run_plain
from camelhost.ui.plain import PlainDisplay
from typed_table import SETUP, refusal, typed_table

PLAYERS = ["Ann", "Ben", "Cy"]


def _to_leg_end(table):
    """Pyramid tickets with dice of 1 typed until leg 1 ends: the last die's line."""
    s = table.session
    while s.game.leg == 1:
        die = "%s 1" % next(d for d in s.game.dice_in_pyramid() if d != "grey")
        table.line("pyramid")
        table.line(die)
    return die


# -- finding 8: a typed die line twice at a leg's or the setup's end -------------------

def test_the_legs_last_die_typed_again_is_no_pyramid_ticket_of_the_next_player():
    set_language("en")
    table, out = typed_table("second", PLAYERS, SETUP)
    die = _to_leg_end(table)
    s = table.session
    name = s.names[s.current]
    assert refusal(table, out, die) == (
        "%s: that die was just typed as the last die of leg 1; if %s really took a "
        "pyramid ticket and this die came out, type 'pyramid' first, then the die"
        % (die, name))
    assert s.game.leg == 2 and s.names[s.current] == name  # nothing changed
    table.line("pyramid")  # the way the line names: the same die is then taken
    table.line(die)
    assert "DIE %s (%s's pyramid ticket)" % (die, name) in out.getvalue()


def test_another_die_after_a_leg_end_is_taken_as_ever():
    set_language("en")
    table, out = typed_table("second", PLAYERS, SETUP)
    die = _to_leg_end(table)
    other = "%s 2" % die.split()[0]  # the same colour, another value: a real release
    table.line(other)
    assert "takes a pyramid ticket: %s" % other in out.getvalue()


def test_the_setups_last_die_typed_again_is_refused_in_german():
    set_language("de")
    try:
        table, out = typed_table("second", PLAYERS)
        for line in ("blau 1", "grün 2", "gelb 3", "rot 1", "lila 2", "grau schwarz 2",
                     "grau weiß 1"):
            table.line(line)
        assert table.session.phase == "turn"
        said = refusal(table, out, "grau weiß 1")
        assert said.startswith("grau weiß 1: dieser Würfel wurde eben als letzter Würfel des "
                               "Aufbaus getippt; "), said
        assert "tippe erst 'pyramid', dann den Würfel" in said, said
    finally:
        set_language("en")


# -- finding 9 and 6: win g, win purpel, tile 7+ ----------------------------------------

def test_win_with_the_start_of_two_colours_says_so_naming_none():
    set_language("de")  # g: grün or gelb (in English no two racing colours share a letter)
    try:
        table, out = typed_table("second", PLAYERS, SETUP)
        assert refusal(table, out, "leg g") == "'g' könnte grün oder gelb sein: tippe mehr Buchstaben"
        assert refusal(table, out, "win g") == (
            "win <Farbe>: 'g' könnte mehr als ein Kamel sein: tippe mehr Buchstaben")
        assert refusal(table, out, "lose g") == (
            "lose <Farbe>: 'g' könnte mehr als ein Kamel sein: tippe mehr Buchstaben")
    finally:
        set_language("en")


def test_win_with_a_misspelt_colour_quotes_nothing_and_asks_for_it_in_full():
    set_language("en")
    table, out = typed_table("second", PLAYERS, SETUP)
    said = refusal(table, out, "win purpel")
    assert "purpel" not in said and said.endswith(": type the colour in full"), said


def test_a_tile_with_its_side_run_into_the_space_is_taken():
    set_language("en")
    table, out = typed_table("classic", PLAYERS, "setup 1:blue,green 2:orange 3:yellow,white")
    table.line("tile 7+")
    table.line("tile 9-")
    assert table.session.game.tiles == {7: (0, "+"), 9: (1, "-")}


# -- finding 4: undo of a correction that re-ordered a stack ---------------------------

def test_undo_of_a_reorder_says_how_to_put_the_stack_back():
    set_language("en")
    table, out = typed_table("second", PLAYERS,
                             "setup 1:blue 2:red 3:yellow,green,purple 15:black 16:white",
                             "fix 3:yellow,purple,green")
    before = len(out.getvalue())
    table.line("undo")
    said = out.getvalue()[before:].splitlines()[0]
    assert said == ("undone: the board correction; no coins or tickets change back; move "
                    "the green camel, carrying purple, back to space 3, on top of yellow")


# -- finding 1: release typed twice on the virtual pyramid -----------------------------

class _Pyramid:
    """A virtual pyramid whose die comes a little after the push."""

    def __init__(self, events, dice):
        self.events, self.dice, self.seq = events, list(dice), 0

    def release(self):
        colour, value = self.dice.pop(0)
        self.seq += 1
        ev = DieEvent("die", "B", self.seq, "EVT %d" % self.seq, colour=colour, value=value)
        threading.Timer(0.05, self.events.put, (("event", ev),)).start()

    def return_dice(self):
        pass


def _virtual(script, dice, clock):
    set_language("en")
    events, out = queue.Queue(), io.StringIO()
    s = Session("second", PLAYERS, seed=3, journal=Journal(None))
    table = Table(s, PlainDisplay(out), pyramid=_Pyramid(events, dice))
    table.clock = clock  # seconds, as the test says them: no wall clock asserted
    run_plain(table, lines=[line + "\n" for line in script], events=events, die_wait_s=5.0)
    return s, out.getvalue()


HINT = ("Ben's pyramid ticket came from a 'release' right after the one that gave Ann's "
        "die: type 'undo' if that was a second push by mistake")


def test_a_second_release_right_after_the_first_says_how_to_take_it_back():
    s, out = _virtual([SETUP, "pyramid", "release", "release", "undo"],
                      [("red", 2), ("blue", 1)], clock=lambda: 100.0)
    lines = out.splitlines()
    booked = lines.index("Ben takes a pyramid ticket: blue 1")
    # said just before the die's lines, which (with a leg's scoring, when the die ends
    # the leg) stay the last the table says
    assert lines[booked - 1] == HINT, out
    # undo takes it back: Ben's turn again, his pyramid tickets none
    assert s.current == 1 and s.game.pyramid_tickets(1) == 0


def test_a_release_after_another_line_or_a_while_is_the_players_ticket_unremarked():
    for script, times in (([SETUP, "pyramid", "release", "show", "release"], [100.0]),
                          ([SETUP, "pyramid", "release", "release"], [100.0, 200.0])):
        ticks = iter(times + [times[-1]] * 50)
        s, out = _virtual(script, [("red", 2), ("blue", 1)],
                          clock=lambda ticks=ticks: next(ticks))
        assert "Ben takes a pyramid ticket: blue 1" in out, out
        assert "second push" not in out, out


# -- findings 3 and 7: what --resume alone comes back to -------------------------------

def _game(path, lang, moves=True):
    with Journal(str(path), pyramid="manual", lang=lang) as journal:
        s = Session("second", PLAYERS, seed=3, journal=journal)
        if moves:
            s.command(SETUP)
            s.command("leg red")


def _play(monkeypatch, capsys, lines, *argv):
    monkeypatch.setattr("sys.stdin", iter([line + "\n" for line in lines]))
    rc = cli.main(["play", "--plain", "--pyramid", "manual"] + list(argv))
    set_language("en")
    return rc, capsys.readouterr().out.splitlines()


def test_a_resume_after_a_crash_speaks_the_language_last_given(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "g.jsonl")
    _game(path, "de")
    _play(monkeypatch, capsys, ["leg blue", "quit"], "--resume", path, "--lang", "en")
    assert [e["lang"] for e in read_events(path) if e["type"] == "lang"] == ["en"]
    rc, lines = _play(monkeypatch, capsys, ["show", "quit"], "--resume", path)
    assert rc == 0 and any(line.startswith("> Cy's turn") for line in lines), lines
    _play(monkeypatch, capsys, ["quit"], "--resume", path, "--lang", "en")  # the same
    assert len([e for e in read_events(path) if e["type"] == "lang"]) == 1
    assert cli.main(["replay", path]) == 0  # the replay speaks it too
    set_language("en")
    assert capsys.readouterr().out.splitlines()[-1].startswith("Next: Cy's turn")


def test_resume_alone_skips_a_newer_game_with_nothing_played(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    os.mkdir("journals")
    real, empty = os.path.join("journals", "a.jsonl"), os.path.join("journals", "b.jsonl")
    _game(real, "en")
    _game(empty, "en", moves=False)
    os.utime(real, (1000, 1000))
    os.utime(empty, (2000, 2000))
    rc, lines = _play(monkeypatch, capsys, ["quit"], "--resume")
    assert rc == 0
    assert lines[0] == ("resuming the newest unfinished game in journals with a move played: "
                        "%s (race 1, leg 1); %s, newer, has nothing played yet (to continue "
                        "that one: --resume %s)" % (real, empty, empty)), lines
