"""Small things two fresh testers found at the table:
Ctrl-L in plain mode redraws and is never glued to the next command; an undone die
whose value was still asked is said in words; the advice's finish-card note reads as a
sentence in both languages."""

import io
import json

from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui import plain
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _table(tmp_path, *lines):
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4,
                journal=Journal(str(tmp_path / "g.jsonl")))
    t = Table(s, PlainDisplay(out), manual=True)
    t.start()
    for line in lines:
        t.line(line)
    return t, out


def _state(t):
    return json.dumps(dict(table_view(t.session, odds=False), version=0), sort_keys=True)


def _said(out, start):
    return out.getvalue()[start:].splitlines()


# --- Ctrl-L ---------------------------------------------------------------------------

def test_ctrl_l_before_a_command_is_not_part_of_it(tmp_path):
    t, out = _table(tmp_path, SETUP)
    at = len(out.getvalue())
    t.line("\x0cleg red")  # Ctrl-L pressed, then the command typed on the same line
    said = _said(out, at)
    assert not any("control character" in line for line in said), said
    tickets = table_view(t.session, odds=False)["players"][0]["leg_tickets"]
    assert tickets == [{"colour": "red", "value": 5}], said


def test_ctrl_l_alone_shows_the_board_and_the_prompt_again_and_changes_nothing(tmp_path):
    t, out = _table(tmp_path, SETUP, "leg red")
    before = _state(t)
    journal = (tmp_path / "g.jsonl").read_text()
    at = len(out.getvalue())
    assert t.line("\x0c") is True
    said = _said(out, at)
    assert not any(line.startswith("!") for line in said), said
    assert any(line.startswith("Leading:") for line in said), said  # the board, as 'show'
    assert said[-1].startswith("> Ben's turn"), said
    assert _state(t) == before and (tmp_path / "g.jsonl").read_text() == journal


def test_ctrl_l_at_the_private_finish_card_prompt_asks_the_colour_again(tmp_path):
    t, out = _table(tmp_path, SETUP, "win")
    at = len(out.getvalue())
    t.line("\x0c")
    said = _said(out, at)
    assert t.private == "winner"  # still asked: Ctrl-L is no empty line (which cancels)
    assert said[-1].startswith("Ann: type the colour of your finish card"), said
    t.line("\x0cred")
    assert t.private is None
    assert table_view(t.session, odds=False)["players"][0]["finish_cards_played"] == 1


def test_other_control_characters_are_still_refused(tmp_path):
    t, out = _table(tmp_path, SETUP)
    before = _state(t)
    at = len(out.getvalue())
    t.line("leg red\x1b[A")  # an arrow key: the line is not what the player saw
    said = _said(out, at)
    assert any("control character" in line for line in said), said
    assert _state(t) == before


# --- an undone die whose value was still asked ------------------------------------------

def _undo_while_the_value_is_asked():
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None))
    s.command(SETUP)
    s.command("pyramid")
    s.command("red ?")  # the pyramid could not read the value: the table asks it
    assert s.phase == "value"
    notices = s.command("undo")
    return notices[0]["text"] + notices[0]["hint"]


def test_undoing_a_die_whose_value_was_asked_says_it_in_words():
    said = _undo_while_the_value_is_asked()
    assert "?" not in said, said
    assert said == ("undone: Ann's pyramid ticket and its die red of unknown value; put the "
                    "red die back in the pyramid (or type 'redo' to keep red of unknown "
                    "value)")


def test_undoing_a_die_whose_value_was_asked_says_it_in_german_words():
    set_language("de")
    said = _undo_while_the_value_is_asked()
    assert "?" not in said, said
    assert said.endswith("(oder tippe 'redo', um rot mit unbekanntem Wert zu behalten)"), said


def test_a_die_of_unknown_value_released_without_pyramid_first_is_said_in_words():
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None))
    s.command(SETUP)
    notices = s.command("red ?")  # the slider pushed with no 'pyramid' typed first
    lines = [line for n in notices
             for line in plain.notice_lines(n, table_view(s, odds=False))]
    assert lines[0] == "Ann takes a pyramid ticket: red of unknown value", lines


# --- one form for a die's move ----------------------------------------------------------

def _die_words_both_ways(lang):
    set_language(lang)
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None))
    s.command(SETUP)
    notices = s.command("blue 3")  # Ann's pyramid ticket: blue, carrying green, 1 -> 4
    view = table_view(s, odds=False)
    history = [line.strip() for n in notices for line in plain.notice_lines(n, view)]
    return view["last_die"]["path"], history


def test_the_die_detail_and_the_history_say_a_move_in_one_form():
    path, history = _die_words_both_ways("en")
    assert path == "from space 1 to 4" and path in history, history
    path, history = _die_words_both_ways("de")
    assert path == "von Feld 1 auf 4" and path in history, history  # no longer 'Feld 1 bis 4'


# --- the advice's note with a finish card advised ----------------------------------------

def test_the_narrow_advices_finish_card_note_is_a_sentence_in_both_languages():
    """Tester s34-2 (smaller points): the German note read 'eine Wettkarte weniger ihr
    Wert für später', no sentence a player reads at a glance (the English 'a finish
    card's less its value kept for later' hardly better); each says now that a finish
    card's later value is taken off too, and still fits the 46-column panel's two lines
    (``odds_view.NARROW_NOTE_LINES``), else the panel would leave it out."""
    import textwrap

    from camelhost.ui.odds_view import NARROW_NOTE_LINES, narrow_note
    entries = [{"kind": "leg", "score": 0.5, "win": None},
               {"kind": "finish", "score": -1.6, "win": None}]
    for lang, note in (("en", "(balance: now less the next players' gains, and a finish "
                              "card's value kept for later)"),
                       ("de", "(Bilanz: jetzt minus Gewinne der Nächsten, bei Wettkarten "
                              "auch minus ihr späterer Wert)")):
        set_language(lang)
        said = narrow_note(entries)
        assert said == note
        assert len(textwrap.wrap(said, 46)) <= NARROW_NOTE_LINES
