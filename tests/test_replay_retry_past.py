"""``pyramid replay`` tells a release that did not count as a past event, not as the
table's orders ("RETURN THE DICE AND RELEASE AGAIN", "PUT THE GREY DIE BACK IN THE
PYRAMID ..."): a replay has no pyramid and nobody to release a die (s36; the undo and
redo lines were made past in s35, ``test_replay_undo_words``). The live table keeps its
orders: there people act on them."""

import io

import pytest
from camelhost import cli
from camelhost.device.events import DieEvent
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


class _Board:
    """A table on a reporting pyramid (dice not typed) writing its journal to ``path``."""

    def __init__(self, path):
        self.out = io.StringIO()
        self.session = Session("second", ["Ann", "Ben", "Cy"], seed=9,
                               journal=Journal(str(path), pyramid="/dev/ttyACM0"))
        self.table = Table(self.session, PlainDisplay(self.out), pyramid=None)
        self.table.start()
        self.seq = 0

    def said(self, work):
        before = len(self.out.getvalue())
        work()
        return self.out.getvalue()[before:].splitlines()

    def event(self, kind, **fields):
        self.seq += 1
        return self.said(lambda: self.table.pyramid_event(DieEvent(
            kind, "B1", self.seq, "EVT %d %s" % (self.seq, kind.upper()), **fields)))

    def die(self, colour, value=None, ink=None):
        return self.event("die", colour=colour, value=value, ink=ink)

    def line(self, text):
        return self.said(lambda: self.table.line(text))


def _played(path):
    """Every kind of release that did not count, at setup and on a turn; the live lines."""
    board = _Board(path)
    live = board.event("nodie")  # at setup: no ticket
    board.die("red", 2)
    board.die("grey", None, "black")  # its value asked
    live += board.die("purple", 1)  # released while it is asked
    board.line("2")
    for colour, value in (("purple", 1), ("yellow", 3), ("blue", 1), ("green", 2)):
        board.die(colour, value)
    live += board.event("nodie")  # the grey die's second release, for the white camel
    board.die("grey", 1, "black")
    board.line("pyramid")  # Ann
    live += board.event("nodie")
    board.die("blue")  # its value asked
    live += board.event("double")
    live += board.event("nodie")
    live += board.event("unknown")
    board.line("3")
    board.line("pyramid")  # Ben
    live += board.die("blue", 2)  # out this leg, back in the pyramid
    board.die("green", 1)
    board.session.journal.close()
    return live


def _replayed(capsys, path, *options):
    assert cli.main(["replay", str(path)] + list(options)) == 0
    return capsys.readouterr().out.splitlines()


def test_a_replay_tells_releases_that_did_not_count_in_the_past(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    live = _played(path)
    # the table was told what to do, and still is
    assert live[0] == "RETURN THE DICE AND RELEASE AGAIN (no die came out)"
    assert ("PUT THE GREY DIE BACK IN THE PYRAMID AND RELEASE AGAIN for the white camel (no "
            "die came out), or type 'grey white 3' with its value") in live
    assert ("RETURN THE DICE AND RELEASE AGAIN (no die came out); the pyramid ticket already "
            "taken still covers this action") in live
    told = _replayed(capsys, path)
    assert [line for line in told if "did not count" in line or "stayed out" in line] == [
        "A release at setup did not count (no die came out)",
        "The purple die came out after the grey-black die, which stayed out: it did not "
        "count",
        "The grey die's release for the white camel did not count (no die came out)",
        "A release did not count (no die came out); the pyramid ticket already taken still "
        "covered the action",
        "Two dice came out after the blue die, which stayed out: they did not count",
        "No die came out (the blue die stayed out)",
        "A die came out after the blue die, which stayed out: it did not count (the colour "
        "could not be read)",
        "The blue die came out again, though it had come out this leg: it did not count (out "
        "this leg: blue); the pyramid ticket already taken still covered the action"]
    for line in told:  # no order to the table, no key to press
        for words in ("RELEASE AGAIN", "BACK IN THE PYRAMID", "OUT OF THE PYRAMID", "press ",
                      "type '"):
            assert words not in line, line


def test_a_german_replay_tells_them_in_the_past_in_german(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    _played(path)
    told = _replayed(capsys, path, "--lang", "de")
    assert "Ein Herauslassen beim Aufbau zählte nicht (kein Würfel kam heraus)" in told
    assert ("Das Herauslassen des grauen Würfels für das Kamel weiß zählte nicht (kein "
            "Würfel kam heraus)") in told
    assert ("Würfel lila kam nach dem Würfel grau-schwarz heraus, der draußen blieb: er "
            "zählte nicht") in told
    assert "Kein Würfel kam heraus (der Würfel blau blieb draußen)" in told
    for line in told:
        for words in ("NOCH EINMAL HERAUSLASSEN", "ZURÜCK IN DIE PYRAMIDE", "AUS DER PYRAMIDE",
                      "drücke "):
            assert words not in line, line
