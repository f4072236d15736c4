"""Every typed command is total (issue 10, Input): hostile or odd input gets a one-line
error naming what was wrong, the echo is shortened, and nothing changes."""

import io
import json

import pytest
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.parser import LINE_MAX, parse_command
from camelhost.table.session import Session, TableError
from camelhost.table.view import table_view
from camelhost.ui.plain import PlainDisplay
from depth import examples
from hypothesis import given, settings
from hypothesis import strategies as st

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"]


def _session(tmp_path):
    s = Session("second", SIX, seed=4, journal=Journal(str(tmp_path / "g.jsonl")))
    s.command(SETUP)
    s.command("leg red")
    return s


def _state(s):
    return json.dumps(dict(table_view(s, odds=False), version=0), sort_keys=True)


def _refused(tmp_path, text, why):
    s = _session(tmp_path)
    before = _state(s)
    lines = (tmp_path / "g.jsonl").read_text()
    with pytest.raises(TableError, match=why) as info:
        s.command(text)
    message = str(info.value)
    assert "\n" not in message and len(message) < 300, message
    assert _state(s) == before
    assert (tmp_path / "g.jsonl").read_text() == lines
    return message


def test_tile_with_a_superscript_two_is_refused(tmp_path):
    _refused(tmp_path, "tile ² +", "not a space")


def test_partner_with_a_superscript_two_is_refused(tmp_path):
    _refused(tmp_path, "partner ²", "no player called")


def test_fix_with_a_superscript_two_is_refused(tmp_path):
    _refused(tmp_path, "fix ²:red", "not a space")


@pytest.mark.parametrize("text", ["tile %s +" % ("9" * 5000), "fix %s:red" % ("7" * 5000),
                                  "partner %s" % ("1" * 5000), "setup %s:blue" % ("1" * 5000)])
def test_a_5000_digit_number_is_refused_in_one_line(tmp_path, text):
    message = _refused(tmp_path, text, "characters")
    assert "99999" not in message and "77777" not in message


@pytest.mark.parametrize("text", ["tile 1\u0662 +", "tile \u0667 -", "fix \u0664:red",
                                  "partner \u0663", "tile \uff17 +"])
def test_unicode_digits_are_refused(tmp_path, text):
    _refused(tmp_path, text, "not a space|no player called")


@pytest.mark.parametrize("text", ["leg\x00red", "leg red\x1b[2J", "tile 7\x7f +", "undo\x85"])
def test_control_characters_are_refused(tmp_path, text):
    _refused(tmp_path, text, "control character")


def test_a_10_kb_line_is_refused_and_shortened_in_the_echo(tmp_path):
    message = _refused(tmp_path, "leg " + "r" * 10240, "10244 characters")
    assert "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr" not in message


def test_a_long_line_under_the_limit_is_shortened_in_the_echo(tmp_path):
    message = _refused(tmp_path, "dance " + "x" * (LINE_MAX - 10), "unknown command")
    assert "(296 characters)" in message and len(message) < 120


def test_fix_with_nothing_after_the_colon_is_refused(tmp_path):
    _refused(tmp_path, "fix 4:", "name the camels on space 4")


def test_the_table_shows_one_error_line_for_a_10_kb_line(tmp_path):
    out = io.StringIO()
    s = Session("second", SIX, seed=4, journal=Journal(None))
    t = Table(s, PlainDisplay(out))
    t.start()
    before = out.getvalue()
    assert t.line("x" * 10240) is True
    shown = out.getvalue()[len(before):]
    assert shown.count("\n") == 1 and shown.startswith("! ") and len(shown) < 200


@pytest.mark.deep  # make test: 75 texts; make deep: 300
@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(st.text(max_size=60))
def test_any_text_is_an_event_or_a_table_error(text):
    s = Session("second", SIX, seed=4)
    s.command(SETUP)
    try:
        parse_command(text, s)
    except TableError as exc:
        assert "\n" not in str(exc)


@pytest.mark.deep  # make test: 50 arguments; make deep: 200
@settings(max_examples=examples(200), deadline=None, derandomize=True)
@given(st.sampled_from(["tile", "fix", "partner", "leg", "win", "lose", "setup", "cheer",
                        "red", "grey", "undo"]),
       st.text(alphabet=st.characters(categories=("Nd", "No", "Nl", "P", "S", "Zs")),
               max_size=12))
def test_any_argument_of_a_known_command_is_an_event_or_a_table_error(head, rest):
    s = Session("second", SIX, seed=4)
    s.command(SETUP)
    try:
        parse_command("%s %s" % (head, rest), s)
    except TableError as exc:
        assert "\n" not in str(exc)


@pytest.mark.deep  # make test: 750 seeded commands; make deep: 3000
def test_a_short_seeded_fuzz_of_the_parser_finds_no_other_exception():
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(__file__), "bench", "fuzz.py")  # make fuzz
    spec = importlib.util.spec_from_file_location("fuzz", path)
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    _, bad, found, _ = fuzz.fuzz_commands(examples(3000), 7)
    assert bad == 0, found
