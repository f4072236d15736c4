"""A game's journal records the pyramid it was played with (its ``board`` line, from the
first full ``HELLO``), so that a resume of a journal cut before its first die still knows
which pyramid and which point of its boot the game began at, and never takes dice from
another board or another game's boot.

The journal is written by a real table; the link's sequencer is driven by hand (messages
in, events out, no port, no thread, no clock), except in the last test, where the link
meets a scripted device on a pty.
"""

import io
import shlex
import time

import pytest
from camelhost.device.events import decode
from camelhost.device.open import PyramidIdentity, open_pyramid
from camelhost.device.sequencer import Sequencer
from camelhost.errors import CliError
from camelhost.table.controller import Table
from camelhost.table.journal import Journal, behind_pyramid, read_events
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelup.board import protocol
from resumed_tables import resumed

A, B = "0A9B0E33", "51C0FFEE"
UID, OTHER = "E6614103E7452D2F", "E66164084B1F3A21"
PLAYERS = ["Ann", "Ben", "Cy"]


def _hello(boot, seq, acked, uid=UID, prev=None):
    return decode(protocol.encode(
        "HELLO", proto=1, fw="0.9.0", uid=uid, boot=boot, seq=seq, oldest=1, ed="classic",
        sensor="ok", vb=True, prev=prev, acked=acked))


def _identity(boot=A, seq=3):
    return PyramidIdentity({"uid": UID, "fw": "0.9.0", "ed": "classic", "boot": boot, "seq": seq})


def _started(path, identity=None, ticket=True, pyramid="/dev/ttyACM0"):
    """A classic game on a pyramid (``pyramid``: the journal's dice source, a port path):
    the pyramid's identity, then the setup drawn and (``ticket``) Ann's pyramid ticket;
    the journal ends before any die."""
    journal = Journal(str(path), pyramid=pyramid)
    session = Session("classic", PLAYERS, seed=3, journal=journal)
    table = Table(session, PlainDisplay(io.StringIO()), pyramid=None, manual=False)
    table.start()
    if identity is not None:
        table.pyramid_event(identity)
    assert table.line("draw")
    assert session.game is not None
    if ticket:
        assert table.line("pyramid")
    journal.close()
    return session


def _inside(out):
    """The dice the plain table's last status says are in the pyramid (``out``: its lines)."""
    line = [x for x in out if x.startswith("Dice in the pyramid: ")][-1]
    return line[len("Dice in the pyramid: "):].split(";")[0]


def _link(table, *messages):
    """The link a resume opens (``pyramid play`` wires it so), fed ``messages`` (each
    answered as the pyramid would, ``SYNC`` by the ``SYNCED`` of its reply in the list);
    the events it hands out go to ``table``. Returns the sequencer and the events."""
    s = table.session
    seq = Sequencer(resume=s.resume_point, uid=s.board.uid if s.board else None)
    seq.opened(0.0)
    handed = []
    for t, message in enumerate(messages, start=1):
        events, _ = seq.receive(message, 0.1 * t, "raw")
        for event in events:
            seq.took(event)
            table.pyramid_event(event)
        handed += events
    return seq, handed


def test_the_table_journals_its_pyramid_once_from_its_first_hello(tmp_path):
    path = tmp_path / "g.jsonl"
    journal = Journal(str(path), pyramid="/dev/ttyACM0")
    session = Session("classic", PLAYERS, seed=3, journal=journal)
    table = Table(session, PlainDisplay(io.StringIO()), pyramid=None, manual=False)
    table.start()
    table.pyramid_event(_identity())
    table.pyramid_event(_identity(B, 0))  # a later HELLO (a reconnection): written once
    journal.close()
    boards = [e for e in read_events(str(path)) if e["type"] == "board"]
    assert boards == [{"type": "board", "uid": UID, "fw": "0.9.0", "ed": "classic",
                       "boot": A, "seq": 3}]
    table, _out = resumed(path)
    assert table.session.board.uid == UID
    assert table.session.resume_point == (A, 3)  # no die yet: where the game began
    table.session.journal.close()


def test_a_journal_cut_before_its_first_die_takes_no_dice_another_table_took_since(tmp_path):
    # the game began after event 3 of boot A; another table took 4..6 (acknowledged) and
    # released 7 for itself... then this game is resumed: 4..6 are said, never pushed
    path = tmp_path / "g.jsonl"
    _started(path, _identity())
    table, out = resumed(path)
    before = path.read_bytes()
    said = out.tell()
    _seq, handed = _link(table, _hello(A, 6, acked=6))
    assert [(e.kind, e.boot, tuple(e.missing)) for e in handed] == [("foreign", A, (4, 5, 6))]
    assert [x for x in out.getvalue()[said:].splitlines() if "another table" in x] == [
        "the pyramid served another table since this game's last die, or lines were cut from "
        "this journal's end: the pyramid acknowledged events 4, 5, 6 of boot 0A9B0E33, which the "
        "journal does not hold (its last is none: the game began after event 3); they are "
        "left out. If lines were cut, quit and resume a whole copy of the journal. Else put "
        "back in the pyramid any of these dice that are out of it: blue, green, orange, yellow, "
        "white"]
    assert path.read_bytes() == before  # nothing pushed, nothing journaled
    table.session.journal.close()


def test_a_journal_cut_before_its_first_die_names_another_games_boot_and_its_own(tmp_path):
    # the pyramid restarted (boot B) and another table took B:1..2: both boots are named
    path = tmp_path / "g.jsonl"
    _started(path, _identity())
    table, out = resumed(path)
    said = out.tell()
    _seq, handed = _link(table, _hello(B, 2, acked=2, prev=(A, 3)),
                         decode(protocol.encode("SYNCED", seq=3, boot=A, next=B)))
    assert [(e.kind, e.boot, tuple(e.missing)) for e in handed] == [("foreign", B, (1, 2))]
    told = [x for x in out.getvalue()[said:].splitlines() if "another table" in x]
    assert len(told) == 1
    assert ("acknowledged events 1, 2 of boot 51C0FFEE, which the journal does not hold (its "
            "last is none of that boot: the game began after event 3 of boot 0A9B0E33)") in told[0]
    table.session.journal.close()


def test_a_journal_cut_before_its_first_die_takes_the_dice_released_for_it(tmp_path):
    # alone on its pyramid: the die released while the table was away is this game's
    path = tmp_path / "g.jsonl"
    _started(path, _identity())
    table, out = resumed(path)
    colour = table.session.game.dice_in_pyramid()[0]
    die = decode(protocol.encode("EVT", "die", seq=4, boot=A, col=colour, val=2, m=300,
                                 raw=(1, 2, 3, 4)))
    _seq, handed = _link(table, _hello(A, 4, acked=3), die)
    assert [(e.kind, e.seq) for e in handed] == [("die", 4)]
    assert table.session.last_pyramid_event == (A, 4)
    assert "another table" not in out.getvalue()
    table.session.journal.close()


def test_a_resumed_game_refuses_another_boards_dice_naming_both(tmp_path):
    path = tmp_path / "g.jsonl"
    _started(path, _identity())
    table, out = resumed(path)
    before = (path.read_bytes(), table.view())
    colour = table.session.game.dice_in_pyramid()[0]
    theirs = decode(protocol.encode("EVT", "die", seq=1, boot=B, col=colour, val=2, m=300,
                                    raw=(1, 2, 3, 4)))
    hi = decode(protocol.encode("HI", proto=1, boot=B, seq=1, prev=None, acked=0))
    seq, handed = _link(table, hi, theirs, _hello(B, 1, acked=0, uid=OTHER), theirs)
    assert handed == [] and seq.state == "refused"
    assert seq.refused == (
        "the pyramid on the port is board E66164084B1F3A21 (boot 51C0FFEE), not the one this "
        "game was played with, board E6614103E7452D2F (boot 0A9B0E33): connect that pyramid, "
        "or resume with --pyramid manual and type the dice")
    assert (path.read_bytes(), table.view()) == before
    table.session.journal.close()


def test_a_journal_without_a_board_line_still_resumes_as_before(tmp_path):
    # an older version's journal (or one cut before the first HELLO): nothing to check,
    # the link starts where no table took the pyramid's dice (its acked=)
    path = tmp_path / "g.jsonl"
    _started(path)
    table, out = resumed(path)
    assert table.session.board is None and table.session.resume_point is None
    seq, handed = _link(table, _hello(A, 6, acked=6))
    assert handed == [] and seq.state == "connected"
    table.session.journal.close()


def test_behind_pyramid_counts_from_the_board_line_when_no_die_is_journaled():
    events = [{"type": "game"}, {"type": "board", "uid": UID, "boot": A, "seq": 5}]
    assert behind_pyramid(events, A, 5) is None  # nothing taken since the game began
    assert "events 6, 7 of boot %s" % A in behind_pyramid(events, A, 7)


class ScriptedBoard:
    """The device end of a pty that answers ``HELLO? s=1`` with ``HI`` and ``HELLO?`` with
    the full ``HELLO`` of board ``uid`` (boot ``boot``, ``seq`` events, a store:
    ``acked``), and heartbeats every 0.5 s; ``asked``: the names of the host's lines."""

    def __init__(self, uid, boot, seq=0, acked=0):
        import os
        import tty
        self.uid, self.boot, self.seq, self.acked = uid, boot, seq, acked
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self.asked = []
        self._stop = False
        import threading
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        import os
        import select
        import time
        buf, beat = b"", time.monotonic()
        while not self._stop:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if time.monotonic() - beat > 0.5:
                beat = time.monotonic()
                self._write(protocol.encode("HB", boot=self.boot, seq=self.seq, up=1, sensor="ok"))
            if not r:
                continue
            try:
                buf += os.read(self.master, 4096)
            except OSError:
                return
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                msg = protocol.decode(line)
                self.asked.append(msg.name)
                if msg.name == "HELLO?" and msg.get("s"):
                    self._write(protocol.encode("HI", proto=1, boot=self.boot, seq=self.seq,
                                                prev=None, acked=self.acked))
                elif msg.name == "HELLO?":
                    self._write(protocol.encode(
                        "HELLO", proto=1, fw="0.9.0", uid=self.uid, boot=self.boot, seq=self.seq,
                        oldest=1, ed="classic", sensor="ok", vb=True, prev=None, acked=self.acked))

    def _write(self, data):
        import os
        try:
            os.write(self.master, data)
        except OSError:
            pass

    def close(self):
        import os
        self._stop = True
        self._thread.join(2)
        for fd in (self._slave, self.master):
            os.close(fd)


@pytest.mark.process
def test_pyramid_play_journals_the_board_and_a_resume_goes_on_from_it(tmp_path, monkeypatch, capsys):
    """A new game on a board (a scripted device on a pty) gets its ``board`` line; quit
    before any die and resumed: the link is told where the game began, and the board."""
    from camelhost import cli
    path = str(tmp_path / "g.jsonl")
    board = ScriptedBoard(UID, A, seq=3, acked=3)
    try:
        def typed():
            yield "draw\n"
            deadline = time.monotonic() + 20  # the players quit once the board is journaled
            while "board" not in path_text() and time.monotonic() < deadline:
                time.sleep(0.05)
            yield "quit\n"

        def path_text():
            with open(path, encoding="utf-8") as fh:
                return fh.read()

        monkeypatch.setattr("sys.stdin", typed())
        assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--edition", "classic",
                         "--journal", path, "--seed", "3", "--pyramid", board.port]) == 0
        boards = [e for e in read_events(path) if e["type"] == "board"]
        assert boards == [{"type": "board", "uid": UID, "fw": "0.9.0", "ed": "classic",
                           "boot": A, "seq": 3}]
        seen = {}
        import camelhost.device.open as opening
        real = opening.open_pyramid

        def spy(*args, **kw):
            seen.update(resume=kw.get("resume"), uid=kw.get("uid"))
            return real(*args, **kw)

        monkeypatch.setattr(opening, "open_pyramid", spy)
        monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
        # the quit line's command: the board's port is a pseudo-terminal here, so it names
        # it (a resume opens a journal's pseudo-terminal only when given again)
        command = capsys.readouterr().out.splitlines()[-1].split("continue it with: ", 1)[1]
        assert command == "pyramid play --resume %s --plain --pyramid %s" % (path, board.port)
        assert cli.main(shlex.split(command)[1:]) == 0
        assert seen == {"resume": (A, 3), "uid": UID}
        assert "does not say which pyramid" not in capsys.readouterr().out
        assert [e["type"] for e in read_events(path)].count("board") == 1
    finally:
        board.close()


@pytest.mark.process
def test_resuming_a_journal_without_a_board_line_says_what_it_cannot_check(tmp_path, monkeypatch,
                                                                            capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    _started(path, ticket=False)  # no board line: an older version's journal, no die yet
    board = ScriptedBoard(UID, A, seq=3, acked=3)
    try:
        monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
        assert cli.main(["play", "--resume", str(path), "--plain", "--pyramid", board.port]) == 0
    finally:
        board.close()
    out = capsys.readouterr().out.splitlines()
    assert ("%s does not say which pyramid the game was played with (an older version wrote "
            "it, or it was cut before the pyramid's first HELLO): the pyramid on %s is not "
            "checked to be that one; its dice are taken from those no table took"
            % (path, board.port)) in out, out


def _another_board(ours, theirs):
    """``open_pyramid`` with the journal's board id ``ours`` against a scripted device on
    a pty that says it is board ``theirs``: ``(error, port, names sent, messages)``."""
    import os
    import select
    import threading
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    sent, asked = [], []

    done = threading.Event()

    def answer():
        buf = b""
        while not done.is_set():
            try:
                r, _, _ = select.select([master], [], [], 0.05)
                if not r:
                    continue
                buf += os.read(master, 4096)
            except OSError:  # the test closed the pty
                return
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                msg = protocol.decode(line)
                sent.append(msg.name)
                asked.append(msg)
                if msg.name == "HELLO?" and msg.get("s"):
                    os.write(master, protocol.encode("HI", proto=1, boot=B, seq=1, prev=None, acked=0))
                elif msg.name == "HELLO?":
                    os.write(master, protocol.encode(
                        "HELLO", proto=1, fw="0.9.0", uid=theirs, boot=B, seq=1, oldest=1,
                        ed="classic", sensor="ok", vb=True, prev=None, acked=0))

    answering = threading.Thread(target=answer, daemon=True)
    answering.start()
    try:
        with pytest.raises(CliError) as err:
            open_pyramid(port, "classic", resume=(A, 3), uid=ours)
    finally:
        done.set()
        answering.join(5)
        os.close(slave)
        os.close(master)
    return err, port, sent, asked


@pytest.mark.process
def test_pyramid_play_refuses_another_board_in_one_line_before_the_table_starts(tmp_path):
    """``open_pyramid`` with the journal's board id against a scripted device on a pty that
    says it is another board: one line naming both, nothing acknowledged."""
    err, port, sent, asked = _another_board(UID, OTHER)
    assert str(err.value) == (
        "the pyramid on %s is board E66164084B1F3A21 (boot 51C0FFEE), not the one this game "
        "was played with, board E6614103E7452D2F (boot 0A9B0E33): connect that pyramid, or "
        "resume with --pyramid manual and type the dice" % port)
    assert "ACK" not in sent
    # the one SYNC asked is for its record of the journal's boot (``to=``: nothing replayed)
    assert [m for m in asked if m.name == "SYNC"] == [
        m for m in asked if m.name == "SYNC" and m["boot"] == A and m["to"] == m["seq"] == 3]


@pytest.mark.process
def test_another_emulated_pico_is_refused_saying_only_the_same_image_is_the_same_board():
    """Tester s40, finding 12: a game on ``pyramid emulate`` (without ``--flash``) resumed
    on a new emulator run was refused as another board, with nothing saying why or how
    to keep one board across runs."""
    from camelhost.device.sources import EMULATED_UID_MARK

    ours, theirs = EMULATED_UID_MARK + "AB3431F9", EMULATED_UID_MARK + "79BCDE3F"
    err, port, _sent, _asked = _another_board(ours, theirs)
    assert str(err.value) == (
        "the pyramid on %s is board %s (boot 51C0FFEE), not the one this game was played "
        "with, board %s (boot 0A9B0E33): connect that pyramid, or resume with --pyramid "
        "manual and type the dice. An emulated Pico is the same board only when started "
        "from the same image (pyramid emulate --flash FILE); without --flash each start is "
        "a new board (docs/emulator.md)" % (port, theirs, ours))


@pytest.mark.process
def test_another_emulated_pico_is_refused_naming_the_emulator_that_runs_the_games_board(
        tmp_path, emulated_dice):
    """Tester s45b, finding 4: a running ``pyramid emulate`` records its board's uid; when
    the game's board runs in another one than the port given, the refusal names that port."""
    from camelhost.device.sources import EMULATED_UID_MARK

    ours, theirs = EMULATED_UID_MARK + "AB3431F9", EMULATED_UID_MARK + "79BCDE3F"
    running = tmp_path / "pts9"
    running.write_text("")
    emulated_dice("classic", str(running), uid=ours, image=str(tmp_path / "board1.img"))
    err, port, _sent, _asked = _another_board(ours, theirs)
    assert str(err.value) == (
        "the pyramid on %s is board %s (boot 51C0FFEE), not the one this game was played "
        "with, board %s (boot 0A9B0E33): this game's board runs on %s (its pyramid emulate "
        "recorded it): resume with --pyramid %s, or with --pyramid manual and type the dice"
        % (port, theirs, ours, running, running))


@pytest.mark.process
@pytest.mark.parametrize("played_on, fix", [
    ("/dev/ttyACM0", "connect that pyramid, or resume with --pyramid manual and type the dice"),
    ("virtual", "this game was played on the virtual pyramid: resume with --pyramid virtual, "
                "or with --pyramid manual and type the dice"),
])
def test_pyramid_play_says_another_boards_refusal_once_with_a_fix_for_the_games_pyramid(
        tmp_path, played_on, fix):
    """``pyramid play --resume`` on another board: stderr is the refusal, once, ending
    with what can be done for the pyramid the journal was played on (a virtual
    pyramid's board can't be connected: ``--pyramid virtual`` resumes it); exit 1, the
    journal unchanged (tester 3 finding 4)."""
    import subprocess
    import sys
    path = tmp_path / "g.jsonl"
    _started(path, _identity(), pyramid=played_on)
    before = path.read_bytes()
    board = ScriptedBoard(OTHER, B, seq=1, acked=0)
    try:
        done = subprocess.run(
            [sys.executable, "-c", "import sys; from camelhost.cli import main; "
             "sys.exit(main(sys.argv[1:]))", "play", "--resume", str(path), "--plain",
             "--pyramid", board.port],
            input="quit\n", capture_output=True, text=True, timeout=60)
    finally:
        board.close()
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "pyramid: the pyramid on %s is board E66164084B1F3A21 (boot 51C0FFEE), not the one "
        "this game was played with, board E6614103E7452D2F (boot 0A9B0E33): %s"
        % (board.port, fix)]
    assert path.read_bytes() == before


class _RefusingLink:
    """What ``OpenPyramid.events()`` reads of a link that refused the board on its port
    after the table started (its HELLO came late)."""

    noisy, quality, on_quality, identity = False, None, None, None
    refused = "the pyramid on /dev/ttyACM0 is board B, not the one this game was played with"

    def next_event(self, timeout):
        raise AssertionError("a refused link is not read")

    def close(self):
        pass


def test_a_link_that_refuses_the_board_later_ends_the_events_with_its_line(tmp_path):
    from camelhost.device.open import OpenPyramid
    opened = OpenPyramid("/dev/ttyACM0")
    opened.link = _RefusingLink()
    kind, event = opened.events().get(timeout=5)
    opened.close()
    assert (event.kind, event.raw) == ("fault", _RefusingLink.refused)
    # the table says it in one line and asks for the dice typed; nothing is journaled
    path = tmp_path / "g.jsonl"
    _started(path, _identity())
    table, out = resumed(path)
    before = path.read_bytes()
    said = out.tell()
    table.pyramid_event(event)
    assert out.getvalue()[said:].splitlines()[0] == (
        "TYPE THE DIE BY HAND: the link to the pyramid stopped (%s); type the die by hand"
        % _RefusingLink.refused)
    assert path.read_bytes() == before
    table.session.journal.close()


@pytest.mark.hil
@pytest.mark.micropython
@pytest.mark.process
def test_a_game_quit_before_its_first_die_names_another_tables_pushes_on_the_real_firmware(
        micropython, tmp_path, monkeypatch):
    """The real firmware on the virtual pyramid (its pty as the port): a game starts and
    is left before any die; another table takes two pushes (acknowledged); ``pyramid play
    --resume`` says them in one line and journals nothing of them. Before the journal
    recorded its board the resume started after the pyramid's acked= and said nothing."""
    from camelhost import cli
    from camelhost.device.link import Link
    from camelhost.device.virtual import VirtualPyramid

    path = str(tmp_path / "g.jsonl")
    shown = io.StringIO()

    def lines(*typed, until=None):
        for line in typed:
            yield line
        deadline = time.monotonic() + 30
        while until is not None and not until() and time.monotonic() < deadline:
            time.sleep(0.05)
        yield "quit\n"

    def journaled():
        with open(path, encoding="utf-8") as fh:
            return fh.read()

    with VirtualPyramid("classic", seed=3, value_buttons=True) as vp:
        monkeypatch.setattr("sys.stdout", shown)
        monkeypatch.setattr("sys.stdin", lines("draw\n", until=lambda: '"board"' in journaled()))
        assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--edition", "classic",
                         "--journal", path, "--seed", "3", "--pyramid", vp.port]) == 0
        board = [e for e in read_events(path) if e["type"] == "board"]
        assert len(board) == 1 and board[0]["uid"] == vp.uid
        with Link(vp.port, heartbeat_timeout=2.0) as link:  # another table, two pushes
            taken = []
            for _ in range(2):
                vp.release_empty()
            deadline = time.monotonic() + 30
            while len(taken) < 2 and time.monotonic() < deadline:
                event = link.next_event(0.5)
                if event is not None:
                    taken.append(event)
            assert [e.kind for e in taken] == ["nodie", "nodie"]
            while (link.hello is None or link.hello.get("acked") != 2) and time.monotonic() < deadline:
                link.send("HELLO?")
                time.sleep(0.2)
            assert link.hello.get("acked") == 2
        before = journaled()
        said = shown.tell()
        monkeypatch.setattr("sys.stdin", lines(until=lambda: "another table" in shown.getvalue()[said:]))
        assert cli.main(["play", "--resume", path, "--plain", "--pyramid", vp.port]) == 0
    told = [x for x in shown.getvalue()[said:].splitlines() if "another table" in x]
    assert told == [
        "the pyramid served another table since this game's last die, or lines were cut from "
        "this journal's end: the pyramid acknowledged events 1, 2 of boot %s, which the journal "
        "does not hold (its last is none: the game began after event %d); they are left out. "
        "If lines were cut, quit and resume a whole copy of the journal. Else put back in the "
        "pyramid any of these dice that are out of it: %s"
        % (board[0]["boot"], board[0]["seq"], _inside(shown.getvalue()[said:].splitlines()))], told
    assert journaled() == before  # nothing of the other table's pushed or journaled
