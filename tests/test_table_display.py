"""The one display seam (``camelhost.table.display``): the journal's subscription, one
view and one computation of the odds per change for every display, advice shown only for
the position it was worked out for."""

import threading

import pytest
from camelhost.table.display import Display, Seam, advice_key
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.web.follow import LiveBoard

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _session(path=None):
    return Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(path))


class Recorder(Display):
    """A display that keeps what it was handed."""

    def __init__(self, wants=True):
        self.wants_advice = wants
        self.views = []
        self.advice_got = []
        self.said = []

    def changed(self, view):
        self.views.append(view)

    def advice(self, advice):
        self.advice_got.append(advice)

    def notices(self, notices, view):
        self.said.append([n["kind"] for n in notices])


class Counting:
    """A cheap odds function that counts its calls (and can be held back)."""

    def __init__(self):
        self.calls = []
        self.go = threading.Event()
        self.go.set()
        self.started = threading.Event()

    def __call__(self, snap):
        self.calls.append(snap.phase)
        self.started.set()
        self.go.wait(10)
        return {"leg": [], "race": None, "actions": None, "phase": snap.phase}


def test_journal_subscription_sees_each_event_once_on_disk_and_ends(tmp_path):
    path = str(tmp_path / "g.jsonl")
    journal = Journal(path)
    seen = []

    def written(event):
        with open(path) as fh:  # on disk before anyone is told
            seen.append((event["type"], len(fh.read().splitlines())))

    stop = journal.subscribe(written)
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    s.command(SETUP)
    stop()
    stop()  # twice is harmless
    s.command("leg red")
    journal.close()
    assert seen == [("game", 1), ("setup", 2)]


def test_a_failed_write_tells_no_subscriber(tmp_path, monkeypatch):
    journal = Journal(str(tmp_path / "g.jsonl"))
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    seen = []
    journal.subscribe(seen.append)

    def no_sync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("camelhost.table.journal.os.fsync", no_sync)
    with pytest.raises(OSError):
        s.command(SETUP)
    journal.close()
    assert seen == [] and s.phase == "setup"


def test_every_display_gets_one_view_per_event_and_one_computation_of_the_odds():
    s = _session()
    odds = Counting()
    seam = Seam(s, compute=odds)
    board, screen, plain = Recorder(), Recorder(), Recorder(wants=False)
    for d in (board, screen, plain):
        seam.subscribe(d)
    s.command(SETUP)
    assert seam.wait_idle()
    s.command("leg red")
    assert seam.wait_idle()
    # the same view object reaches each display: built once
    assert [v["version"] for v in board.views] == [0, 1, 2]
    assert all(a is b for a, b in zip(board.views, screen.views, strict=True))
    assert all(a is b for a, b in zip(board.views, plain.views, strict=True))
    # one computation per position in play, shared by both displays that show odds
    assert odds.calls == ["turn", "turn"]
    assert [a.key for a in board.advice_got][-1] == advice_key(board.views[-1])
    assert [a.key for a in board.advice_got] == [a.key for a in screen.advice_got]
    assert plain.advice_got == []
    seam.close()


def test_no_display_showing_odds_no_computation():
    s = _session()
    odds = Counting()
    seam = Seam(s, compute=odds)
    seam.subscribe(Recorder(wants=False))
    s.command(SETUP)
    s.command("leg red")
    assert seam.wait_idle() and odds.calls == []
    seam.close()


class FakeBoard:
    def __init__(self):
        self.published = []

    def publish(self, view):
        self.published.append(view)


def test_live_board_shows_advice_only_for_the_position_it_was_worked_out_for():
    s = _session()
    odds = Counting()
    seam = Seam(s, compute=odds)
    board = FakeBoard()
    with LiveBoard(board, seam) as live:
        s.command(SETUP)
        assert live.wait_idle()
        assert board.published[-1]["odds"]["phase"] == "turn"
        odds.go.clear()  # the next computation is held back...
        s.command("leg red")
        s.command("leg blue")  # ...while the table moves on
        odds.go.set()
        assert live.wait_idle()
    versions = [(v["version"], v["odds"] is not None) for v in board.published]
    # version 2 (after 'leg red') got its quick view and never its odds: gone in time
    assert (2, True) not in versions and (2, False) in versions
    assert versions[-1] == (3, True)
    for view in board.published:
        if view["odds"] is not None:
            assert "odds_pending" not in view
    seam.close()


def test_live_board_builds_no_session_and_reads_the_view_the_seam_built():
    s = _session()
    seam = Seam(s, compute=Counting())
    board = FakeBoard()
    with LiveBoard(board, seam) as live:
        s.command(SETUP)
        assert live.wait_idle()
    assert board.published[0]["version"] == 0 and board.published[0]["phase"] == "setup"
    quick = [v for v in board.published if v.get("odds_pending")]
    assert quick and quick[0]["version"] == 1 and quick[0]["odds"] is None
    seam.close()


def test_the_full_screen_and_the_web_board_share_one_computation_per_position():
    # Before the seam each display worked its odds out for itself (the screen on a
    # Textual worker, the web board for its shadow session): now one worker, once.
    import asyncio

    import tui_scenes as scenes
    from camelhost.table.view import odds_view
    from camelhost.ui.tui import TableApp

    s = _session()
    keys = []

    def counted(snap):
        keys.append((snap.phase, len(snap.game.history)))
        return dict(odds_view(snap))  # a new object each time: the identity below tells

    seam = Seam(s, compute=counted)
    board = FakeBoard()
    app = TableApp(s, seam=seam, theme_name="dark")

    async def play():
        async with app.run_test(size=(100, 30)) as pilot:
            with LiveBoard(board, seam) as live:
                await scenes.type_lines(pilot, [SETUP, "leg red", "leg blue"])
                assert live.wait_idle()
                await scenes.settle(pilot)
                assert "Leg odds" in str(app.query_one("#odds").content)
                # the screen shows the very odds the board published for that position
                assert board.published[-1]["odds"] is app._odds
            await pilot.press("ctrl+q")

    asyncio.run(play())
    seam.close()
    # never one position twice (one the table left before its turn came may be skipped),
    # and the last one is the position on the screen and the page
    assert len(keys) == len(set(keys)) and 1 <= len(keys) <= 3
    assert keys[-1] == ("turn", 2)


def test_a_display_that_fails_on_a_view_never_undoes_the_write():
    class Broken(Display):
        def changed(self, view):
            raise RuntimeError("the board's loop is closed")

    s = _session()
    seam = Seam(s, compute=Counting())
    seam.subscribe(Recorder(wants=False))
    broken = Broken()
    with pytest.raises(RuntimeError):
        seam.subscribe(broken)  # handed the view at once: its failure is the caller's
    notices = s.command(SETUP)
    assert s.phase == "turn" and notices  # taken, said
    assert [e["type"] for e in s.journal.events] == ["game", "setup"]
    assert [str(e) for e in seam.errors] == ["the board's loop is closed"]
    seam.close()


def test_advice_finished_after_the_table_moved_on_never_replaces_the_newer():
    s = _session()
    odds = Counting()
    seam = Seam(s, compute=odds)
    board = Recorder()
    seam.subscribe(board)
    odds.go.clear()  # the setup's position is being worked out...
    s.command(SETUP)
    assert odds.started.wait(10)
    s.command("undo")  # ...when the table goes back to the setup (no odds there)
    odds.go.set()
    assert seam.wait_idle()
    assert seam.advice_now.key == advice_key(seam.latest) and seam.advice_now.odds is None
    assert [a.key[2] for a in board.advice_got][-1] == "setup"
    seam.close()


def test_the_workers_snapshot_keeps_its_position_and_history_while_the_table_goes_on():
    # the odds worker reads its copy (``snapshot``) while the table takes the next lines:
    # the copy keeps the position and the undo history it was taken with (the coach
    # reads who laid which finish card when), and undoing on it changes nothing live
    from camelhost.table.display import snapshot

    s = _session()
    s.command(SETUP)
    for line in ("leg red", "win blue", "green 2"):
        s.command(line)
    snap = snapshot(s)
    position, history = s.game.position(), [str(a) for a in s.game.history]
    assert snap.game.position() == position and [str(a) for a in snap.game.history] == history
    s.command("yellow 1")
    s.command("undo")
    s.command("leg purple")
    assert snap.game.position() == position
    assert [str(a) for a in snap.game.history] == history
    live = s.game.position()
    while snap.game.history:
        snap.game.pop()
    assert s.game.position() == live and snap.phase == "turn"
