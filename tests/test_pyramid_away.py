"""The pyramid unplugged mid-game (tester s33 finding F5): the table says so in one
translated line, the same for a real port and the virtual pyramid, says it once (not
again at each die awaited, tester s41 finding 2; never on a timer), takes the dice typed meanwhile, and says when
the pyramid answers again; a port whose path now names another program's terminal is
never written to, and the table says how to point it at the pyramid's port."""

import argparse
import contextlib
import io
import os
import select
import time
import tty
from types import SimpleNamespace

import pytest
from camelhost.commands.play import resume_command
from camelhost.device.open import PyramidPresence, open_pyramid, presence
from camelhost.device.transport import PortIdentity
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from typed_table import StoppedVirtualPyramid

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
AWAY = ("the pyramid is not answering: check its USB cable; type the dice meanwhile, "
        "e.g. '%s'")
VIRTUAL_AWAY = ("the virtual pyramid stopped: type the dice meanwhile, e.g. '%s'; for its "
                "dice again, quit and resume: pyramid play --resume %s --pyramid virtual")


def _table(out, pyramid=None, journal=None):
    session = Session("second", ["Ann", "Ben", "Cy"], seed=5,
                      journal=journal or Journal(None, pyramid="/dev/ttyACM0"))
    table = Table(session, PlainDisplay(out), pyramid=pyramid, manual=False)
    table.start()
    table.line(SETUP)
    return table


def _said(out, since):
    return out.getvalue()[since:].splitlines()


def _pty_link(port, state="connecting", refused_port=None, is_open=False, **more):
    """The table's link as ``presence`` reads it: at ``port``, in ``state``, its
    transport's ``refused_port`` (a str saying whose the port is now, or None) and
    ``is_open``, its port's identity a pseudo-terminal's; ``more``: the link's other
    attributes (``hello``)."""
    return SimpleNamespace(port=port, state=state, transport=SimpleNamespace(
        refused_port=refused_port, is_open=is_open, identity=PortIdentity("pty", (0, 0, 0))),
        **more)


@contextlib.contextmanager
def _journalled_table(tmp_path, port):
    """A table whose game is journalled at ``tmp_path/g.jsonl``, its resume command
    ``pyramid play --resume g.jsonl --plain --pyramid <port>`` as ``run`` keeps it: yields
    ``say(presence)``, which hands the table that pyramid event and returns the lines it
    said (a list of str). The journal is closed on leaving."""
    out = io.StringIO()
    with Journal(str(tmp_path / "g.jsonl"), pyramid=port) as journal:
        journal.resume_command = "pyramid play --resume g.jsonl --plain --pyramid %s" % port
        table = _table(out, journal=journal)

        def say(event):
            said = out.tell()
            table.pyramid_event(event)
            return _said(out, said)

        yield say


@contextlib.contextmanager
def _quit_line(tmp_path, port, link):
    """A plain table's game at ``port`` journalled at ``tmp_path/h.jsonl``: yields
    ``(resume, path)``, ``resume()`` the command its quit line names (``resume_command``
    asked with ``link``, each call anew), ``path`` the journal's."""
    args = argparse.Namespace(speak=False, web=None)
    with Journal(str(tmp_path / "h.jsonl"), pyramid=port) as journal:
        Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        yield (lambda: resume_command(args, journal, port, plain=True, link=link)), journal.path


def test_the_table_says_once_that_the_pyramid_is_not_answering_not_at_each_die_awaited():
    # tester s41 finding 2: a real or emulated port's line came again at every die the
    # table awaited while the pyramid stayed away; once, and once that it is back
    out = io.StringIO()
    table = _table(out)
    said = out.tell()
    table.pyramid_event(PyramidPresence(False, "/dev/ttyACM0"))
    table.pyramid_event(PyramidPresence(False, "/dev/ttyACM0"))  # still away: nothing new
    lines = _said(out, said)
    assert lines.count(AWAY % "blue 2") == 1
    assert lines[-1] == "> Ann's turn (leg / tile / win / lose / pyramid)"
    said = out.tell()
    table.line("pyramid")  # a die awaited: the prompt asks it typed, the line not again
    assert _said(out, said) == ["Ann takes a pyramid ticket: type the die that came out",
                                "> Ann: type the die that came out, like blue 2"]
    table.line("blue 2")
    table.line("pyramid")  # Ben's die, awaited while the pyramid is still away
    table.line("show")
    table.line("green 1")
    assert table.session.game.dice_out == ["blue", "green"]
    assert _said(out, 0).count(AWAY % "blue 2") == 1
    said = out.tell()
    table.pyramid_event(PyramidPresence(True, "/dev/ttyACM0"))
    table.pyramid_event(PyramidPresence(True, "/dev/ttyACM0"))  # still back: nothing new
    back = [line for line in _said(out, said) if line.startswith("the pyramid answers again")]
    assert back == ["the pyramid answers again: release the dice from it; the blue, green dice "
                    "came out this leg: keep them out of the pyramid (take out any that is back "
                    "in it)"], back


def test_a_die_typed_on_a_turn_while_the_pyramid_is_away_takes_the_pyramid_ticket():
    out = io.StringIO()
    table = _table(out)
    table.line("green 1")  # the pyramid answers: typing a die on a turn is refused
    assert table.session.game.dice_out == []
    table.pyramid_event(PyramidPresence(False, "/dev/ttyACM0"))
    said = out.tell()
    table.line("green 1")
    assert _said(out, said)[0] == "Ann takes a pyramid ticket: green 1"
    assert table.session.game.dice_out == ["green"]


def test_the_table_says_when_the_pyramid_answers_again_and_waits_for_its_dice_again():
    out = io.StringIO()
    table = _table(out)
    table.pyramid_event(PyramidPresence(False, "/dev/ttyACM0"))
    said = out.tell()
    table.pyramid_event(PyramidPresence(True, "/dev/ttyACM0"))
    assert _said(out, said)[0] == "the pyramid answers again: release the dice from it"
    assert table.pyramid_away is None
    said = out.tell()
    table.line("pyramid")
    assert _said(out, said) == ["Ann takes a pyramid ticket: release one die",
                                "> Ann: release a die from the pyramid (or type it, e.g. 'blue 2')"]
    said = out.tell()
    table.pyramid_event(PyramidPresence(True, "/dev/ttyACM0"))  # no change: nothing said
    assert _said(out, said) == []


def test_a_port_now_another_programs_is_said_with_how_to_point_the_table_at_the_pyramid(tmp_path):
    out = io.StringIO()
    journal = Journal(str(tmp_path / "g.jsonl"), pyramid="/dev/pts/7")
    table = _table(out, journal=journal)
    try:
        table.pyramid_event(PyramidPresence(False, "/dev/pts/7"))
        said = out.tell()
        why = "a new pseudo-terminal, another program's (the pyramid's had ended)"
        table.pyramid_event(PyramidPresence(False, "/dev/pts/7", why))
        assert _said(out, said)[0] == (
            "the pyramid's port /dev/pts/7 is now %s: nothing is written to it. Type the dice "
            "meanwhile, e.g. 'blue 2'; for the pyramid's dice again, plug it in again, or quit "
            "and resume with its port: pyramid play --resume %s --pyramid PORT"
            % (why, journal.path))
        # the command as the table runs: the journal's resume command, its port PORT
        journal.resume_command = "pyramid play --resume g.jsonl --plain --pyramid /dev/pts/7"
        table.pyramid_event(PyramidPresence(False, "/dev/pts/7", "another device"))
        assert out.getvalue().splitlines()[-2].endswith(
            "quit and resume with its port: pyramid play --resume g.jsonl --plain --pyramid PORT")
    finally:
        journal.close()


def test_the_virtual_pyramids_board_stopped_says_to_resume_on_it_never_a_cable_or_an_errno():
    # tester s33-2 F7: "check its USB cable" was said of the virtual pyramid, which has
    # no cable and comes back only by quitting and resuming
    out = io.StringIO()
    table = _table(out, pyramid=StoppedVirtualPyramid())
    table.line("pyramid")
    said = out.tell()
    table.line("release")
    text = out.getvalue()[said:]
    assert text.splitlines()[0] == VIRTUAL_AWAY % ("blue 2", "FILE")
    assert "Errno" not in out.getvalue() and "Broken pipe" not in out.getvalue()
    assert "USB" not in out.getvalue()
    said = out.tell()
    table.line("release")  # asked again: one line, the slider not pushed (tester s40 6)
    assert _said(out, said) == ["! release: the virtual pyramid stopped, so the dice are "
                                "typed now: type the die, e.g. 'blue 2'"]
    table.line("blue 2")
    assert table.session.game.dice_out == ["blue"]


def test_a_bots_release_on_a_stopped_virtual_pyramid_waits_for_the_die_typed():
    # every seat a bot: they play until one takes a pyramid ticket, whose release fails;
    # the table says so once, raises nothing, and waits for that die typed
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=5, bots=[0, 1, 2],
                      journal=Journal(None, pyramid="virtual"))
    table = Table(session, PlainDisplay(out), pyramid=StoppedVirtualPyramid(), manual=False)
    table.start()
    table.line(SETUP)
    assert session.phase == "die"
    text = out.getvalue()
    assert text.count("the virtual pyramid stopped") == 1 and "Errno" not in text
    said = out.tell()
    table.line("blue 2")  # typed for the bot: the bots play on to the next pyramid ticket
    assert "DIE blue 2" in out.getvalue()[said:]


def _presence(events, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            kind, item = events.get(timeout=0.2)
        except Exception:  # queue.Empty
            continue
        if isinstance(item, PyramidPresence):
            return item
    return None


@pytest.mark.process
def test_the_virtual_pyramid_killed_mid_leg_the_table_says_so_and_never_writes_into_the_next_pty():
    out = io.StringIO()
    pyramid = open_pyramid("virtual", "second", seed=3)
    other = None
    try:
        session = Session("second", ["Ann", "Ben", "Cy"], seed=3,
                          journal=Journal(None, pyramid="virtual"))
        table = Table(session, PlainDisplay(out), pyramid=pyramid.virtual, link=pyramid.link)
        events = pyramid.events()
        table.start()
        table.line(SETUP)
        table.line("leg red")  # mid-leg
        port = pyramid.virtual.port
        folder = os.path.dirname(port)
        pyramid.virtual.close()  # the virtual pyramid killed: its pty ended
        away = _presence(events, 15)
        assert away is not None and not away.present and away.other is None
        said = out.tell()
        table.pyramid_event(away)
        assert _said(out, said)[0] == VIRTUAL_AWAY % ("blue 2", "FILE")
        # another program's terminal at the same path
        os.makedirs(folder, exist_ok=True)
        master, slave = os.openpty()
        other = (master, slave)
        tty.setraw(slave)
        os.symlink(os.ttyname(slave), port)
        refused = _presence(events, 10)
        assert refused is not None and not refused.present
        assert refused.other == "a new pseudo-terminal, another program's (the pyramid's had ended)"
        said = out.tell()
        table.pyramid_event(refused)
        assert _said(out, said)[0].startswith("the pyramid's port %s is now a new pseudo-terminal"
                                              % port)
        got = b""
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            ready, _w, _x = select.select([master], [], [], 0.05)
            if ready:
                got += os.read(master, 4096)
        assert got == b""  # not one byte typed into it
        table.line("pyramid")
        table.line("yellow 1")  # typed meanwhile
        assert session.game.dice_out == ["yellow"]
        assert "Errno" not in out.getvalue()
    finally:
        pyramid.close()
        if other is not None:
            for fd in other:
                os.close(fd)


def test_a_script_at_a_table_whose_pyramid_is_away_types_its_dice_without_waiting_for_one():
    import queue

    from camelhost.ui.loop import run_plain
    out = io.StringIO()
    session = Session("second", ["Ann", "Ben", "Cy"], seed=5,
                      journal=Journal(None, pyramid="/dev/ttyACM0"))
    table = Table(session, PlainDisplay(out), pyramid=None, manual=False)
    events = queue.Queue()
    events.put(("event", PyramidPresence(False, "/dev/ttyACM0")))
    lines = iter([SETUP, "pyramid", "blue 2", "quit"])
    run_plain(table, lines=lines, events=events, die_wait_s=0.2)
    text = out.getvalue()
    assert "no die from the pyramid" not in text  # no die was waited for from it
    assert "DIE blue 2 (Ann's pyramid ticket)" in text


class _Silent:
    """What ``OpenPyramid.events()`` reads of a link whose port is open but silent
    (``stale``) for ``patience`` s more so far."""

    noisy, quality, on_quality, identity, refused = False, None, None, None, None
    port, state = "/dev/ttyACM0", "stale"

    def __init__(self, patience):
        self.transport = SimpleNamespace(refused_port=None, is_open=True)
        self.sequencer = SimpleNamespace(patience=patience)

    def next_event(self, timeout):
        time.sleep(0.02)

    def close(self):
        pass


@pytest.mark.parametrize("patience, said", [(0.0, True), (1000.0, False)])
def test_a_silent_pyramid_is_said_away_only_once_the_silence_lasted_the_patience_again(
        patience, said):
    # the emulated board at its start is silent for longer than 6 s before the link has
    # learnt its heartbeat: never said away then, a real board's silence still is
    from camelhost.device.open import OpenPyramid
    opened = OpenPyramid("/dev/ttyACM0")
    opened.link = _Silent(patience)
    try:
        got = _presence(opened.events(), 0.5 if not said else 5)
    finally:
        opened.close()
    assert (got is not None) == said
    if said:
        assert got == PyramidPresence(False, "/dev/ttyACM0")


_LINK_WARNS = """
import io, sys
from camelhost.cli import main
sys.stdin = io.StringIO("quit\\n")
main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "manual", "--plain",
      "--journal", sys.argv[1]] + sys.argv[2:])
from camelhost.device.sequencer import log  # the link's own logger
log.warning("no valid line from the pyramid for %.1f s", 6.0)
"""


@pytest.mark.process
@pytest.mark.parametrize("verbose", [False, True])
def test_the_links_english_warnings_never_reach_the_tables_terminal_unless_asked(
        tmp_path, verbose):
    # tester s33-2 F7: 'no valid line from the pyramid for 6.0 s' reached the plain table
    # (stderr), in English at a German table too; the table says it in its own words
    import subprocess
    import sys
    argv = [sys.executable, "-c", _LINK_WARNS, str(tmp_path / "g.jsonl"), "--lang", "de"]
    done = subprocess.run(argv + (["--verbose"] if verbose else []), capture_output=True,
                          text=True, timeout=60, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert ("no valid line from the pyramid" in done.stderr) == verbose


class _Connected(_Silent):
    """A link that still reads as connected: the virtual pyramid's pty stays open (this
    process holds both its ends) after its board's process ended."""

    state = "connected"


class _Ended:
    """A virtual pyramid whose simulated board's process ended (killed, crashed)."""

    stopped = True
    port = "/dev/ttyACM0"

    def close(self):
        pass


def test_the_virtual_pyramids_board_ended_is_said_at_once_not_after_the_silence():
    # tester s33-2 F7: said 13 s after the kill (the silence, twice the patience), while
    # docs/table.md says at once; the link still reads connected then
    from camelhost.device.open import OpenPyramid
    opened = OpenPyramid("virtual")
    opened.link = _Connected(1000.0)
    opened.virtual = _Ended()
    try:
        got = _presence(opened.events(), 5)
    finally:
        opened.close()
    assert got == PyramidPresence(False, "/dev/ttyACM0", reopened=False)


def test_a_lost_pseudo_terminal_is_never_said_to_come_back_by_plugging_in(tmp_path):
    # tester s33-2 F8: "plug it in again" for a pty the table never reopens
    link = _pty_link("/dev/pts/3")
    assert presence(link) == PyramidPresence(False, "/dev/pts/3", reopened=False, pty=True)
    link.transport.identity = PortIdentity("usb", (0, 0, 0), (0x2E8A, 5, "E661"))
    assert presence(link) == PyramidPresence(False, "/dev/pts/3", reopened=True)
    with _journalled_table(tmp_path, "/dev/pts/3") as say:
        assert say(PyramidPresence(False, "/dev/pts/3", reopened=False))[0] == (
            "the pyramid is not answering: its port /dev/pts/3, a pseudo-terminal, ended and "
            "is not opened again; type the dice meanwhile, e.g. 'blue 2'; for its dice again, "
            "quit and resume with its port: pyramid play --resume g.jsonl --plain --pyramid PORT")
        why = "a new pseudo-terminal, another program's (the pyramid's had ended)"
        line = say(PyramidPresence(False, "/dev/pts/3", why, reopened=False))[0]
        assert line.startswith("the pyramid's port /dev/pts/3 is now a new pseudo-terminal")
        assert "plug" not in line and line.endswith(
            "for the pyramid's dice again, quit and resume with its port: "
            "pyramid play --resume g.jsonl --plain --pyramid PORT")


def test_a_pseudo_terminal_open_but_silent_is_said_as_an_emulated_pyramid_never_a_cable(
        tmp_path):
    # s33 tester 2, F7: "check its USB cable" for a pseudo-terminal that stays open (the
    # emulated pyramid stopped answering): it has no cable and comes back when its emulator
    # restarts the board
    link = _pty_link("/dev/pts/3", state="stale", is_open=True,
                     hello={"uid": "55565758595A5B5C"})  # the emulated Pico's (sources.EMULATED_UID)
    away = presence(link)
    assert away == PyramidPresence(False, "/dev/pts/3", reopened=True, pty=True, emulated=True)
    with _journalled_table(tmp_path, "/dev/pts/3") as say:
        assert say(away)[0] == (
            "the pyramid is not answering: its port /dev/pts/3 is a pseudo-terminal (an "
            "emulated pyramid, no cable to check), still open; type the dice meanwhile, e.g. "
            "'blue 2'; it answers again once its emulator restarts the board (x in the "
            "emulator's terminal), or quit and resume with its port: pyramid play --resume "
            "g.jsonl --plain --pyramid PORT")
    # a USB serial port still open but silent: its cable, as before
    link.transport.identity = PortIdentity("usb", (0, 0, 0), (0x2E8A, 5, "E661"))
    assert presence(link) == PyramidPresence(False, "/dev/pts/3", reopened=True)
    out = io.StringIO()
    table = _table(out)
    table.pyramid_event(presence(link))
    assert AWAY % "blue 2" in _said(out, 0)


def test_release_while_the_real_pyramid_is_away_says_it_is_away_and_to_type_the_die():
    # tester s33-2 F8: 'release' on the next ticket said "the pyramid here is a real one:
    # release the die from it", which it can't while away
    out = io.StringIO()
    table = _table(out)
    table.pyramid_event(PyramidPresence(False, "/dev/ttyACM0"))
    table.line("pyramid")
    said = out.tell()
    table.line("release")
    lines = _said(out, said)
    assert lines[0] == AWAY % "blue 2"
    assert "real one" not in out.getvalue()
    table.line("blue 2")
    assert table.session.game.dice_out == ["blue"]


def test_every_view_asks_for_the_die_typed_while_the_pyramid_is_away_and_released_after():
    # tester s33-2 F10: the web page's header said 'Ann: release a die' while the table
    # asked for the die typed (the views were not handed out again)
    from camelhost.table.display import Display

    class Views(Display):
        def __init__(self):
            self.views = []

        def changed(self, view):
            self.views.append(view)

    out = io.StringIO()
    table = _table(out)
    table.line("pyramid")
    views = table.seam.subscribe(Views())
    assert views.views[-1]["dice_typed"] is False
    table.pyramid_event(PyramidPresence(False, "/dev/ttyACM0"))
    assert views.views[-1]["dice_typed"] is True
    table.pyramid_event(PyramidPresence(True, "/dev/ttyACM0"))
    assert views.views[-1]["dice_typed"] is False


def test_the_web_board_says_the_pyramid_is_away_and_advises_nothing_while_a_ticket_waits():
    # tester s33-2 F10: the page had no word that the pyramid is not answering, and its
    # advice offered Ann a leg ticket while her pyramid ticket waited for its die
    from camelhost.table.display import Seam
    from camelhost.web.follow import LiveBoard
    from camelhost.web.server import with_advice_words

    class Board:
        def __init__(self):
            self.views = []

        def publish(self, view):
            self.views.append(with_advice_words(view))  # as the page gets it

    session = Session("second", ["Ann", "Ben", "Cy"], seed=5,
                      journal=Journal(None, pyramid="/dev/ttyACM0"))
    table = Table(session, PlainDisplay(io.StringIO()), pyramid=None, manual=False,
                  seam=Seam(session))
    table.start()
    table.line(SETUP)
    board = Board()
    with LiveBoard(board, table.seam) as follower:
        assert follower.wait_idle()
        turn = board.views[-1]
        assert turn["pyramid_away"] is None and turn["odds"]["actions"]["player"] == "Ann"
        table.line("pyramid")
        table.pyramid_event(PyramidPresence(False, "/dev/ttyACM0"))
        assert follower.wait_idle()
        away = board.views[-1]
        assert away["pyramid_away"] == {"port": "/dev/ttyACM0", "virtual": False}
        assert away["phase"] == "die" and away["dice_typed"] is True
        # her ticket waits for its die: the odds stand, no action is advised
        assert away["odds"]["leg"] == turn["odds"]["leg"]
        assert away["odds"]["actions"] is None
        table.pyramid_event(PyramidPresence(True, "/dev/ttyACM0"))
        assert follower.wait_idle()
        assert board.views[-1]["pyramid_away"] is None
        assert board.views[-1]["dice_typed"] is False


def test_a_lost_pseudo_terminal_an_emulated_pico_runs_on_again_is_said_so_with_its_resume(
        tmp_path, emulated_dice):
    """Tester s45, finding 1: the emulated Pico started again (the same --flash image) got
    the lost pseudo-terminal's number, and the table called it another program's; while
    a running ``pyramid emulate`` records that port as its own, the table says an emulated
    Pico runs there and gives the resume command with that port."""
    port = str(tmp_path / "pts5")
    ended = "a new pseudo-terminal, another program's (the pyramid's had ended)"
    link = _pty_link(port, refused_port=ended)
    # nothing says the new terminal is a pyramid's: another program's, as before
    assert presence(link) == PyramidPresence(False, port, ended, reopened=False, pty=True)
    emulated_dice("classic", port)  # pyramid emulate runs on that port again
    away = presence(link)
    assert away == PyramidPresence(
        False, port, "a new pseudo-terminal, on which an emulated Pico runs (pyramid emulate)",
        reopened=False, pty=True, emulated=True)
    with _journalled_table(tmp_path, port) as say:
        assert say(away)[0] == (
            "the pyramid's port %s is now a new pseudo-terminal, on which an emulated Pico "
            "runs (pyramid emulate): nothing is written to it until you resume on it. Type "
            "the dice meanwhile, e.g. 'blue 2'; for its dice, quit and resume on it: pyramid "
            "play --resume g.jsonl --plain --pyramid %s" % (port, port))
    # the quit line's resume names that port too, not PORT
    open(port, "w").close()
    with _quit_line(tmp_path, port, link) as (resume, path):
        assert resume() == "pyramid play --resume %s --plain --pyramid %s" % (path, port)


@pytest.mark.parametrize("refused", [True, False])
def test_an_emulated_pico_started_again_on_another_pseudo_terminal_is_named_for_the_resume(
        tmp_path, emulated_dice, refused):
    """Tester s45b, finding 3: the emulated Pico killed and started again came back on
    another pseudo-terminal (its old number taken by another program, or gone); the
    table's line and the quit line offered ``--pyramid PORT``. While exactly one running
    ``pyramid emulate`` records its port, both name it; with two, neither guesses."""
    lost = str(tmp_path / "pts1")
    taken = "a new pseudo-terminal, another program's (the pyramid's had ended)"
    link = _pty_link(lost, refused_port=taken if refused else None)
    before = presence(link)
    assert before.emulator is None  # no emulator runs: nothing to name
    new = tmp_path / "pts4"
    new.write_text("")  # the restarted emulator's pseudo-terminal
    emulated_dice("classic", str(new))
    away = presence(link)
    assert away == PyramidPresence(False, lost, taken if refused else None, reopened=False,
                                   pty=True, emulator=str(new))
    with _journalled_table(tmp_path, lost) as say:
        line = say(away)[0]
        start = ("the pyramid's port %s is now %s: nothing is written to it. Type the dice "
                 "meanwhile, e.g. 'blue 2'; " % (lost, taken) if refused else
                 "the pyramid is not answering: its port %s, a pseudo-terminal, ended and is "
                 "not opened again; type the dice meanwhile, e.g. 'blue 2'; " % lost)
        assert line == start + (
            "an emulated Pico runs on %s: quit and resume with --pyramid %s: pyramid play "
            "--resume g.jsonl --plain --pyramid %s" % (new, new, new)), line
    with _quit_line(tmp_path, lost, link) as (resume, path):
        assert resume() == "pyramid play --resume %s --plain --pyramid %s" % (path, new)
        other = tmp_path / "pts6"
        other.write_text("")
        emulated_dice("classic", str(other))  # two run: the maker picks, PORT
        assert presence(link).emulator is None
        assert resume().endswith("--pyramid PORT")
