"""Plain mode at a terminal: the prompt after what the table answers (tester s39
finding 9). After ``show``, ``odds`` or ``best`` the terminal ended with their last line
(``Last die: ...``, the ``(balance: ...)`` note) and no line said whose turn it was,
while a refusal was followed by the prompt again. Every line the table takes at a
terminal now ends with what it waits for; a script (input piped) reads one answer per
line, the prompt only when what the table waits for changes."""

import io
import os

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
TURN = "> %s's turn (leg / tile / win / lose / pyramid)"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _table(reprompt=True, lang="en"):
    set_language(lang)
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    display = PlainDisplay(out, reprompt=reprompt)
    table = Table(session, display, pyramid=None)
    display.asking = lambda: table.private is not None  # as pyramid play gives it
    table.start()
    table.line(SETUP)
    table.line("pyramid")
    table.line("red 1")  # a die: 'show' then ends with its 'Last die' line
    return table, out


def _said(table, out, typed):
    before = len(out.getvalue())
    table.line(typed)
    return out.getvalue()[before:].splitlines()


@pytest.mark.parametrize("typed", ["show", "odds", "best", "best all", "help", "position"])
def test_at_a_terminal_what_the_table_answers_ends_with_the_prompt(typed):
    table, out = _table()
    events = len(table.session.journal.events)
    said = _said(table, out, typed)
    assert len(said) >= 2 and said[-1] == TURN % "Ben", said
    assert said.count(TURN % "Ben") == 1
    assert len(table.session.journal.events) == events  # it changed nothing
    # a slip after it: the refusal, then the prompt once more
    assert _said(table, out, "foo") == ["! unknown command 'foo' (help lists the commands)",
                                        TURN % "Ben"]


def test_at_a_german_terminal_the_german_prompt_follows_best():
    table, out = _table(lang="de")
    said = _said(table, out, "best")
    assert said[-1] == "> Ben ist am Zug (leg / tile / win / lose / pyramid)", said


def test_a_command_typed_for_an_unseen_finish_card_runs_and_the_prompt_follows():
    # 'show' typed where the colour was asked: the card is not played, the board shown,
    # then whose turn it is
    table, out = _table()
    _said(table, out, "win")
    said = _said(table, out, "show")
    assert said[0] == "no finish card played ('show' is a command, not a colour)"
    assert said[-1] == TURN % "Ben"


def test_a_script_reads_the_answer_alone():
    table, out = _table(reprompt=False)
    said = _said(table, out, "show")
    assert said[-1].startswith("Last die: red 1"), said
    assert TURN % "Ben" not in said


@pytest.mark.process
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pty (POSIX)")
def test_pyramid_play_at_a_terminal_prompts_after_show_and_best(tmp_path):
    # the tester's lines, typed at a terminal (a pty)
    from pty_table import pyramid_on_a_pty
    from pty_table import read_until as _read_until
    turn = b"\r\n> A1's turn (leg / tile / win / lose / pyramid)\r\n"
    with pyramid_on_a_pty("play", "--plain", "--players", "A1,B2,C3", "--pyramid", "manual",
                          "--seed", "3", "--journal", str(tmp_path / "g.jsonl")) as fd:
        _read_until(fd, b"", b"> setup")
        os.write(fd, b"draw\n")
        _read_until(fd, b"", b"A1's turn")
        os.write(fd, b"show\n")
        after_show = _read_until(fd, b"", b"Leading: ")  # the board, then its prompt
        after_show = _read_until(fd, after_show, turn)
        os.write(fd, b"best\n")
        after_best = _read_until(fd, b"", b"(balance: ")
        after_best = _read_until(fd, after_best, turn)
        os.write(fd, b"quit\n")
        _read_until(fd, b"", b"game saved")
    for said in (after_show, after_best):
        assert said.endswith(turn), said
