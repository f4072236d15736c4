"""A finish card typed in view at a table people read (the plain mode on a terminal)
never tells which colours lie face down (RULES 1.8, 5; tester 4 finding 9): a colour
typed in view is refused in the same words whatever the colour (the first card too,
tester s32 finding 3; once a player has a card on a pile, however it was typed, in view
by a script or before a resume, the words say so), and the player is sent to the
private ``win``/``lose``. A script's cards are checked as typed."""

import io

from camelhost import cli
from camelhost.table.controller import Table
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from camelhost.ui.loop import run_plain
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


class _Terminal:
    """Typed lines on a terminal (``isatty``), as a player types them."""

    def __init__(self, lines):
        self.lines = [line + "\n" for line in lines]

    def __iter__(self):
        return iter(self.lines)

    def isatty(self):
        return True


def _at_a_terminal(monkeypatch, capsys, lines, *argv):
    """``pyramid play --plain`` with ``lines`` typed at a terminal: what it printed and
    the game its journal holds."""
    monkeypatch.setattr("sys.stdin", _Terminal(lines + ["quit"]))
    assert cli.main(["play", "--plain"] + list(argv)) == 0
    return capsys.readouterr().out.splitlines()


def _game(path):
    return Session.from_events(read_events(path)).game


def _refusals(shown):
    return [line for line in shown if line.startswith("! ")]


def test_a_card_typed_in_view_then_another_colour_in_view_gets_one_refusal_at_a_terminal(
        monkeypatch, capsys, tmp_path):
    path = str(tmp_path / "g.jsonl")
    # Ann's first card typed in view is refused too (tester s32 finding 3), so she lays
    # green unseen; Ben, Cy take leg tickets; Ann types green, then red, in view
    shown = _at_a_terminal(monkeypatch, capsys,
                           [SETUP, "win green", "win", "green", "leg red", "leg red",
                            "lose green", "lose red", "win green", "win red"],
                           "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "9")
    first, *refused = _refusals(shown)
    assert first == ("! Ann: a finish card is laid face down, so one typed with its colour "
                     "in view is not played; type 'win' alone, then the colour (not shown) "
                     "(RULES 1.8)")
    assert len(refused) == 4
    assert refused[0] == refused[1] and refused[2] == refused[3]
    assert refused[0].startswith("! Ann has a finish card face down")
    assert "type 'lose' alone" in refused[0] and "type 'win' alone" in refused[2]
    for line in refused:
        assert "green" not in line and "red" not in line and "once" not in line
    # nothing changed: one card on the winner pile, still Ann's turn
    game = _game(path)
    assert game.pile("winner") == [(0, "green")] and game.pile("loser") == []
    assert game.turn == 0


def test_a_resumed_terminal_table_refuses_a_colour_typed_in_view(monkeypatch, capsys,
                                                                  tmp_path):
    path = str(tmp_path / "g.jsonl")
    with Journal(path, pyramid="manual") as journal:
        first = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=journal)
        for line in (SETUP, "win green", "leg red", "leg red"):
            first.command(line)  # how the card was typed is not in the journal
    shown = _at_a_terminal(monkeypatch, capsys, ["lose green", "lose blue"],
                           "--resume", path)
    refused = _refusals(shown)
    assert len(refused) == 2 and refused[0] == refused[1]
    assert "face down" in refused[0] and "green" not in refused[0]
    assert _game(path).pile("loser") == []


def test_the_private_prompt_still_plays_the_card_at_a_terminal(monkeypatch, capsys,
                                                               tmp_path):
    path = str(tmp_path / "g.jsonl")
    shown = _at_a_terminal(monkeypatch, capsys,
                           [SETUP, "win", "green", "leg red", "leg red", "lose", "red"],
                           "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "9")
    assert _refusals(shown) == []
    game = _game(path)
    assert game.pile("loser") == [(0, "red")] and game.turn == 1


def test_a_script_still_plays_its_cards_as_typed(monkeypatch):
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    out = io.StringIO()
    table = Table(s, PlainDisplay(out))
    run_plain(table, lines=[SETUP, "win green", "leg red", "leg red", "lose red"])
    assert not table.watched
    assert s.game.pile("loser") == [(0, "red")]


def test_the_private_prompt_takes_a_colours_number_or_letters_naming_it_alone_in_german(
        monkeypatch, capsys, tmp_path):
    # tester s33-2 finding 6: a German `g` (gelb? grün?) was refused with the edition's
    # colours each masked as 'diese Farbe'; now letters naming two colours are refused in
    # one line that names no card, and the colour's number plays it, as on the full screen
    path = str(tmp_path / "g.jsonl")
    shown = _at_a_terminal(monkeypatch, capsys, [SETUP, "lose", "g", "3"],
                           "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "9",
                           "--lang", "de")
    refused = _refusals(shown)
    assert refused == ["! diese Buchstaben sind der Anfang mehrerer Farben: tippe mehr davon "
                       "oder ihre Nummer (1 blau, 2 grün, 3 gelb, 4 rot, 5 lila); tippe die "
                       "Farbe noch einmal (sie wird nicht gezeigt), oder eine leere Zeile "
                       "zum Abbrechen"], shown
    game = _game(path)
    assert game.pile("loser") == [(0, "yellow")] and game.turn == 1


def test_the_private_prompt_takes_letters_that_name_one_colour(monkeypatch, capsys, tmp_path):
    path = str(tmp_path / "g.jsonl")
    _at_a_terminal(monkeypatch, capsys, [SETUP, "win", "pu"],
                   "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "9")
    assert _game(path).pile("winner") == [(0, "purple")]
