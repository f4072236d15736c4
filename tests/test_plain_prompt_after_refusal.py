"""Plain mode: after a refused line, the prompt again (tester s35; closing35 "left alone").
The refused line changed nothing, so the table still waits for what the prompt said; a
player who typed a slip read only the refusal and had to scroll up to see whose turn it
was. The refusal stays one line, the prompt after it; while the colour of a finish card
is asked unseen, its refusals say what to type and no turn prompt contradicts them."""

import io
import os

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.loop import run_plain
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue 2:green 3:yellow,purple,red 15:black 16:white"
TURN = "> %s's turn (leg / tile / win / lose / pyramid)"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _table(lang="en"):
    set_language(lang)
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    display = PlainDisplay(out, reprompt=True)
    table = Table(session, display, pyramid=None)
    display.asking = lambda: table.private is not None  # as pyramid play gives it
    table.start()
    table.line(SETUP)
    return table, out


def _said(table, out, typed):
    """The lines the table prints for ``typed``; the journal unchanged when refused."""
    before = len(out.getvalue())
    table.line(typed)
    return out.getvalue()[before:].splitlines()


@pytest.mark.parametrize("typed, refusal", [
    ("foo", "! unknown command 'foo' (help lists the commands)"),
    ("tile 99 +", "! space 99 is not on the track (1..16)"),
    ("leeg red", "! unknown command 'leeg red'; did you mean 'leg red'? (help lists the "
                 "commands)"),
])
def test_a_refused_line_is_followed_by_the_prompt_again(typed, refusal):
    table, out = _table()
    events = len(table.session.journal.events)
    assert _said(table, out, typed) == [refusal, TURN % "Ann"]
    assert len(table.session.journal.events) == events  # nothing changed
    # twice in a row: each refusal with its prompt
    assert _said(table, out, typed) == [refusal, TURN % "Ann"]


def test_a_refused_die_is_followed_by_the_die_prompt():
    table, out = _table()
    table.line("pyramid")
    assert _said(table, out, "rd 1") == [
        "! unknown command 'rd 1' (help lists the commands)",
        "> Ann: type the die that came out, like blue 2"]
    # the die typed then: the table goes on as before, one prompt after it
    said = _said(table, out, "red 1")
    assert said[0].startswith("DIE red 1") and said[-1] == TURN % "Ben"
    assert said.count(TURN % "Ben") == 1


@pytest.mark.parametrize("first", ["show", "help", "odds", "position"])
def test_after_a_command_that_prints_a_refusal_still_brings_the_prompt(first):
    table, out = _table()
    _said(table, out, first)
    assert _said(table, out, "foo") == ["! unknown command 'foo' (help lists the commands)",
                                        TURN % "Ann"]


def test_a_german_refusal_is_followed_by_the_german_prompt():
    table, out = _table("de")
    said = _said(table, out, "foo")
    assert len(said) == 2 and said[0].startswith("! ")
    assert said[1] == "> Ann ist am Zug (leg / tile / win / lose / pyramid)"


def test_the_unseen_finish_card_question_is_not_followed_by_a_turn_prompt():
    # the colour asked after a bare 'win': its refusal says to type the colour again; a
    # turn prompt there would tell Ann to type a command instead
    table, out = _table()
    asked = _said(table, out, "win")
    assert asked[0].startswith("Ann: type the colour of your finish card")
    said = _said(table, out, "xx")
    assert len(said) == 1 and said[0].startswith("! that is not a racing camel's colour")
    # an empty line cancels: then the turn prompt again, once
    assert _said(table, out, "") == ["no finish card played", TURN % "Ann"]


def test_the_plain_loop_prompts_after_each_refusal_of_typed_lines():
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    table = Table(session, PlainDisplay(out, reprompt=True), pyramid=None)
    run_plain(table, lines=[SETUP, "foo", "leg blue", "bar", "quit"])
    lines = out.getvalue().splitlines()
    at = lines.index("! unknown command 'foo' (help lists the commands)")
    assert lines[at + 1] == TURN % "Ann"
    at = lines.index("! unknown command 'bar' (help lists the commands)")
    assert lines[at + 1] == TURN % "Ben"


@pytest.mark.process
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pty (POSIX)")
def test_pyramid_play_at_a_terminal_prompts_again_after_a_refusal(tmp_path):
    # the real command, its lines typed at a terminal (a pty), as at a table
    from pty_table import pyramid_on_a_pty
    from pty_table import read_until as _read_until
    shown = b""
    with pyramid_on_a_pty("play", "--plain", "--players", "Ann,Ben,Cy", "--pyramid", "manual",
                          "--journal", str(tmp_path / "g.jsonl")) as fd:
        shown = _read_until(fd, shown, b"> setup")
        os.write(fd, (SETUP + "\n").encode())
        shown = _read_until(fd, shown, b"Ann's turn")
        os.write(fd, b"foo\n")
        shown = _read_until(fd, shown, b"(help lists the commands)\r\n> Ann's turn")
        os.write(fd, b"help\n")  # text, then a slip: the prompt after it too
        shown = _read_until(fd, shown, b"help;  quit")
        os.write(fd, b"bar\n")
        shown = _read_until(fd, shown, b"'bar' (help lists the commands)\r\n> Ann's turn")
        os.write(fd, b"win\n")
        shown = _read_until(fd, shown, b"it is not shown")
        os.write(fd, b"xx\n")  # no colour: refused, the colour asked again, no turn prompt
        shown = _read_until(fd, shown, b"or an empty line to cancel\r\n")
        os.write(fd, b"\n")
        shown = _read_until(fd, shown, b"no finish card played\r\n> Ann's turn")
        os.write(fd, b"quit\n")
        shown = _read_until(fd, shown, b"game saved")
    lines = shown.decode(errors="replace").replace("\r\n", "\n").splitlines()
    at = lines.index("! unknown command 'foo' (help lists the commands)")
    assert lines[at + 1] == TURN % "Ann"
    at = [i for i, line in enumerate(lines) if "not a racing camel's colour" in line]
    assert len(at) == 1 and lines[at[0] + 1] != TURN % "Ann", lines[at[0]:]
