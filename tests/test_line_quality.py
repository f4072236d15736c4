"""The line to the pyramid's quality as a fact of the table (issue 29, item 10: "the line's
quality shown as it degrades"): the link hands over each change, the pyramid's event
queue carries it to the table, the table says it in one line and every display's view
holds it (``line``), the web board's included."""

import io
import queue

from camelhost.device.link import Link
from camelhost.device.open import LineQuality, OpenPyramid
from camelhost.table.controller import Table
from camelhost.table.display import Display, Seam
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.loop import run_plain
from camelhost.ui.plain import PlainDisplay
from camelhost.web.follow import LiveBoard
from camelup.board import protocol

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


class _Board:
    """What a web board is handed: every published view."""

    def __init__(self):
        self.views = []

    def publish(self, view):
        self.views.append(view)


class _Views(Display):
    def __init__(self):
        self.views = []

    def changed(self, view):
        self.views.append(view)


def _table(out):
    session = Session("second", ["Ann", "Ben", "Cy"], seed=5, journal=Journal(None, pyramid="/dev/ttyACM0"))
    seam = Seam(session)
    table = Table(session, PlainDisplay(out), pyramid=None, manual=False, seam=seam)
    table.start()
    table.line(SETUP)
    return table


def test_the_table_says_a_noisy_line_once_and_its_recovery_once_and_every_view_holds_it():
    out = io.StringIO()
    table = _table(out)
    board = _Board()
    views = table.seam.subscribe(_Views())
    with LiveBoard(board, table.seam):
        assert table.view()["line"] is None and board.views[-1]["line"] is None
        said = out.tell()
        table.pyramid_event(LineQuality(True, 0.52))
        lines = out.getvalue()[said:].splitlines()
        assert lines == ["the line to the pyramid is noisy: 52% of its lines arrive whole (check "
                         "the USB cable and its plugs); every die still arrives, more slowly"]
        assert table.view()["line"] == {"noisy": True, "quality": 0.52}
        assert board.views[-1]["line"] == {"noisy": True, "quality": 0.52}  # the web board
        assert views.views[-1]["line"] == {"noisy": True, "quality": 0.52}  # the full screen's
        # a move after it: the view still says so (the seam keeps it, not the notice)
        table.line("leg red")
        assert board.views[-1]["line"] == {"noisy": True, "quality": 0.52}
        said = out.tell()
        table.pyramid_event(LineQuality(False, 0.98))
        assert out.getvalue()[said:].splitlines() == [
            "the line to the pyramid is clean again: 98% of its lines arrive whole"]
        assert board.views[-1]["line"] == {"noisy": False, "quality": 0.98}
    assert table.session.version == 2  # the game itself did not change (setup, leg red)


def test_the_web_boards_odds_stay_shown_when_the_line_changes():
    # a new view of the same position: the board gets its odds again at once, never a
    # view left dimmed ("odds_pending") waiting for advice that is already worked out
    table = _table(io.StringIO())
    board = _Board()
    with LiveBoard(board, table.seam) as follower:
        assert follower.wait_idle()
        odds = board.views[-1]["odds"]
        assert odds is not None and not board.views[-1].get("odds_pending")
        table.pyramid_event(LineQuality(True, 0.52))
        assert follower.wait_idle()
        last = board.views[-1]
        assert last["line"] == {"noisy": True, "quality": 0.52}
        assert not last.get("odds_pending") and last["odds"] == odds


def test_a_die_on_its_way_is_still_waited_for_when_the_line_changes():
    out = io.StringIO()
    table = _table(out)
    table.line("pyramid")
    table.waiting_release = True  # the die of this pyramid ticket is on its way
    table.pyramid_event(LineQuality(True, 0.6))
    assert table.waiting_release and table.session.phase == "die"


def _noisy(link):
    good = protocol.encode("HB", boot="AAAAAAAA", seq=0, up=1, sensor="ok")
    bad = bytearray(good)
    bad[5] ^= 1
    for n in range(60):
        link.feed(bytes(bad) if n % 2 else good)


def test_the_pyramids_event_queue_carries_each_change_to_the_table():
    pyramid = OpenPyramid("/dev/ttyACM0")
    pyramid.link = Link("loop://")  # never opened: bytes fed by hand
    try:
        events = pyramid.events()
        _noisy(pyramid.link)
        kind, item = events.get(timeout=5)
        assert kind == "event" and isinstance(item, LineQuality)
        assert item.noisy and 0.4 < item.quality < 0.6
        # the plain loop hands it to the table like a die event: one line said
        out = io.StringIO()
        table = _table(out)
        items = queue.Queue()
        items.put((kind, item))
        run_plain(table, lines=iter(["quit"]), events=items)
        assert out.getvalue().count("the line to the pyramid is noisy") == 1
    finally:
        pyramid.close()


def test_a_line_already_noisy_when_the_table_starts_listening_is_said_at_once():
    pyramid = OpenPyramid("/dev/ttyACM0")
    pyramid.link = Link("loop://")
    try:
        _noisy(pyramid.link)  # before anyone listened (the link logged it)
        kind, item = pyramid.events().get(timeout=5)
        assert kind == "event" and item.noisy
    finally:
        pyramid.close()
