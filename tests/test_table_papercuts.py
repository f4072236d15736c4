"""s32 polish: small papercuts a player met, each through the interface that player uses."""

import io

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture
def german():
    set_language("de")
    yield
    set_language("en")


def _said(t, out, line):
    before = len(out.getvalue())
    t.line(line)
    return out.getvalue()[before:].splitlines()


def _position_line(lang):
    """The first line a table in ``lang`` prints for ``position``, as a player copies it."""
    set_language(lang)
    try:
        out = io.StringIO()
        s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
        t = Table(s, PlainDisplay(out), pyramid=None)
        t.start()
        t.line(SETUP)
        t.line("leg red")
        return _said(t, out, "position")[0]
    finally:
        set_language("en")


def test_a_german_position_line_pastes_into_pyramid_odds(capsys):
    line = _position_line("de")
    assert line.startswith("Stellung: ") and " | pyramid 5 | " in line
    capsys.readouterr()
    assert cli.main(["odds", line, "--players", "Ann,Ben,Cy", "--lang", "de",
                     "--samples", "200"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "Etappe 1" in captured.out.splitlines()[0]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_position_line_pastes_whatever_language_the_odds_speak(lang, capsys):
    # a German table's line read by English odds, an English table's by German odds
    line = _position_line("de" if lang == "en" else "en")
    capsys.readouterr()
    assert cli.main(["odds", line, "--players", "Ann,Ben,Cy", "--lang", lang,
                     "--samples", "200"]) == 0
    assert capsys.readouterr().err == ""


def _named_among(out):
    """A die event as the board sends it: purple named among the dice still in, with the
    dice of ``out`` (the wire's mask) out this leg."""
    from camelhost.device.events import decode
    from camelup.board import protocol
    line = protocol.encode("EVT", "die", seq=2, boot="0A9B0E33", col="purple", val=2, m=120,
                           raw=(17, 13, 2, 1), out=out)
    return decode(line[:-1])


def test_the_monitor_names_the_dice_out_by_their_colours():
    from camelhost.tools.monitor import format_event
    line = format_event(_named_among(8 | 1), "second")  # red and blue out
    assert line.endswith("named among the dice still in the pyramid (out this leg: blue, red)")
    assert "mask" not in line


def test_the_monitor_names_the_dice_out_in_german(german):
    from camelhost.tools.monitor import format_event
    line = format_event(_named_among(8 | 32), "second")  # red and grey out
    assert line.endswith("(in dieser Etappe draußen: rot, grau)")
    assert "mask" not in line and "Maske" not in line


def test_the_monitor_streams_the_dice_out_by_colour():
    """Through ``monitor``: the board's edition (HELLO ed=) names the mask's dice."""
    from camelhost.tools import monitor as M

    class Link:
        state, noisy, quality, slowness = "connected", False, None, 1.0

        def __init__(self):
            self.events = [_named_among(8)]

        def stream(self, period, timeout=None):
            pass

        def pending_events(self):
            events, self.events = self.events, []
            return events

        def next_reading(self, timeout=None):
            return None

        def request(self, line, match, timeout, retries=None):
            raise OSError("INFO? unanswered (a firmware older than INFO?)")

    class Pyramid:
        virtual = None
        port = "/dev/ttyACM0"
        hello = {"fw": "1", "proto": 1, "uid": "E6614103E7", "boot": "0A9B0E33", "ed": "second",
                 "vb": 0, "sensor": "ok", "seq": 2}
        link = Link()

        def settings(self):
            return {"it": 154, "gain": 4}

    out = io.StringIO()
    assert M.monitor(Pyramid(), count=0, out=out) == 0
    assert "(out this leg: red)" in out.getvalue()


#: a leg in which Ann's four leg tickets lose 4 coins she does not have (3): the zero
#: floor forgives one (RULES 1.9), as tests/test_table_words.py's plain screen says
FLOOR = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg blue", "leg red",
         "leg red", "leg green", "purple 3", "yellow 3", "leg blue", "red 3", "grey white 1",
         "leg green", "green 1"]


def floor_session():
    s = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None))
    t = Table(s, PlainDisplay(io.StringIO()), manual=True)
    t.start()
    for line in FLOOR:
        t.line(line)
    return s


def _leg_rows(lang):
    from camelhost.table.view import table_view
    from camelhost.ui.panels import leg_score_text
    set_language(lang)
    try:
        view = table_view(floor_session(), odds=False)
        return leg_score_text(view["leg_scored"], width=None).plain.splitlines()[1:]
    finally:
        set_language("en")


def test_the_full_screens_leg_scoring_says_the_coin_the_zero_floor_forgave():
    rows = _leg_rows("en")
    assert rows[0].startswith("Ann  3 ->  0 (-4, 1 coin forgiven): ")
    assert rows[1].startswith("Ben  3 ->  5 (+2): ")  # paid in full: nothing said


def test_the_full_screens_zero_floor_in_german():
    assert _leg_rows("de")[0].startswith("Ann  3 ->  0 (-4, 1 EP erlassen): ")


def _refused(lines, typed):
    """The one line a table with Maria, Jonsa and Leonie answers ``typed`` with after
    ``lines``, checked to change nothing."""
    out = io.StringIO()
    s = Session("second", ["Maria", "Jonsa", "Leonie"], seed=3, journal=Journal(None))
    t = Table(s, PlainDisplay(out), manual=True)
    t.start()
    for line in [SETUP] + lines:
        t.line(line)
    before, events = len(out.getvalue()), len(s.journal.events)
    t.line(typed)
    said = out.getvalue()[before:]
    assert said.count("\n") == 1 and said.startswith("! "), said
    assert len(s.journal.events) == events
    return said[2:].rstrip("\n")


def test_a_misspelt_command_while_a_die_is_awaited_is_the_command_not_a_name():
    # 'leeg' is as near 'Leonie' as a name may be (0.6), nearer 'leg' (0.86), and 'red'
    # is leg's form: the command, named with why it is not taken now (never offered:
    # 'did you mean' is for what this moment takes, tests/test_table_typos.py)
    assert _refused(["pyramid"], "leeg red") == (
        "'leeg red' reads as 'leg red', not taken now: Maria's pyramid ticket waits for "
        "its die: type the die that came out, like blue 2 (or undo)")
    assert _refused(["pyramid"], "tiel 7 +").startswith(
        "'tiel 7 +' reads as 'tile 7 +', not taken now: ")


def test_a_misspelt_command_on_a_turn_is_suggested_as_before():
    assert _refused([], "leeg red") == ("unknown command 'leeg red'; did you mean 'leg "
                                        "red'? (help lists the commands)")


def test_a_misspelt_name_before_a_command_is_still_read_as_a_name():
    # 'Leoni' is nearer Leonie than any command; 'Jonas leg red' has a command after it
    for lines in ([], ["pyramid"]):
        assert _refused(lines, "Leoni leg red").startswith(
            "'Leoni leg red': a command takes no player's name")
        assert _refused(lines, "Jonas leg red").startswith(
            "'Jonas leg red': a command takes no player's name")
    assert _refused([], "Leoni red").startswith("'Leoni red': a command takes no player's name")


def test_a_misspelt_command_while_a_die_is_awaited_in_german(german):
    said = _refused(["pyramid"], "leeg rot")
    assert said.startswith("'leeg rot' liest sich als 'leg rot', jetzt nicht genommen: "
                           "das Pyramidenplättchen von Maria wartet"), said
