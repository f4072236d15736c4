"""The running emulator's record names its board (tester s45b, findings 3 and 4): ``pyramid
emulate`` records, beside its port and dice, the board's uid as its ``HELLO`` names it and
the absolute path of its ``--flash`` image (``sources.publish_emulated_dice``). So

- every printed command that starts an emulated Pico again starts the same board
  (``--flash IMAGE``) when the running one was started with one: a resume's board check
  then takes it;
- with several emulators running, the table's lost-port line, the quit line, a refused
  resume and play's missing-port line name the one whose record carries the game's board
  uid, and say "one of these" only when none or several can be it.

The records are written as emulate writes them (conftest ``emulated_dice``), without
booting an emulator; an older record (no uid, no image) still reads."""

import argparse
import io
import json
import os
from types import SimpleNamespace

import pytest
from camelhost import cli
from camelhost.commands.play import resume_command
from camelhost.device import emulated, sources, uf2
from camelhost.device.open import PyramidPresence, presence
from camelhost.device.transport import PortIdentity
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from test_emulate_edition_line import _Board

#: the game's board and another one, both emulated Picos (``sources.EMULATED_UID_MARK``)
GAME = sources.EMULATED_UID_MARK + "A9226454"
OTHER = sources.EMULATED_UID_MARK + "80BC741E"
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
TAKEN = "a new pseudo-terminal, another program's (the pyramid's had ended)"


@pytest.fixture
def console(monkeypatch):
    """``pyramid emulate`` on a stand-in board (``_Board``: its ``HELLO`` names uid
    ``5556575801020304``); the console's input is read while the record stands."""
    monkeypatch.setattr(emulated, "EmulatedPyramid", _Board)
    monkeypatch.setattr(emulated, "node_runner", lambda: None)
    monkeypatch.setattr(emulated, "find_uf2", lambda given: "/tmp/RPI_PICO.uf2")
    monkeypatch.setattr(uf2, "check", lambda image: None)
    seen = []

    class Keys(io.StringIO):
        def __iter__(self):
            seen.append(sources.emulator_on("/dev/null"))
            return iter(())

    def run(*options):
        seen.clear()
        monkeypatch.setattr("sys.stdin", Keys(""))
        assert cli.main(["emulate", "--edition", "classic"] + list(options)) == 0
        return seen[0]
    return run


def test_emulate_records_the_boards_uid_and_its_flash_image_made_absolute(
        console, emulated_dice, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    record = console("--flash", "board1.img")
    assert record["uid"] == "5556575801020304"  # as the board's HELLO names it
    assert record["image"] == str(tmp_path / "board1.img")
    assert record["dice"] == "classic"
    assert console()["image"] is None  # without --flash: a new board each start
    assert sources.emulator_on("/dev/null") is None  # withdrawn when it stopped
    capsys.readouterr()


def test_a_fresh_boards_record_names_its_uid_once_its_firmware_says_hello(
        emulated_dice, tmp_path, monkeypatch, capsys):
    """``--fresh``: no firmware, no ``HELLO`` yet, so no uid; once ``pyramid flash``
    restarts the board into the firmware, its ``HELLO`` names it and the record does."""
    import threading

    boards = []

    class Fresh(_Board):
        def __init__(self, *args, **options):
            _Board.__init__(self, *args, **options)
            self.emitted = []  # MicroPython only: nothing said yet
            boards.append(self)

    monkeypatch.setattr(emulated, "EmulatedPyramid", Fresh)
    monkeypatch.setattr(emulated, "node_runner", lambda: None)
    monkeypatch.setattr(emulated, "find_uf2", lambda given: "/tmp/RPI_PICO.uf2")
    monkeypatch.setattr(uf2, "check", lambda image: None)
    published = threading.Event()
    publish = sources.publish_emulated_dice

    def publishing(*args, **kwargs):
        path = publish(*args, **kwargs)
        published.set()
        return path
    monkeypatch.setattr(sources, "publish_emulated_dice", publishing)
    seen = []

    class Keys(io.StringIO):
        def __iter__(self):
            seen.append(sources.emulator_on("/dev/null")["uid"])
            published.clear()
            boards[0].emitted.append((1.0, boards[0].hello))  # the firmware flashed: HELLO
            assert published.wait(60)  # the console's watch sees it (every 0.5 s)
            seen.append(sources.emulator_on("/dev/null")["uid"])
            return iter(())

    monkeypatch.setattr("sys.stdin", Keys(""))
    assert cli.main(["emulate", "--fresh", "--flash", str(tmp_path / "new.img")]) == 0
    assert seen == [None, "5556575801020304"]
    capsys.readouterr()


def test_an_older_record_without_uid_or_image_still_reads(emulated_dice, tmp_path):
    port = emulated_dice("second")
    path = sources._dice_record(port)
    with open(path, "w", encoding="utf-8") as f:  # as emulate wrote it before
        json.dump({"port": os.path.realpath(port), "pid": os.getpid(), "dice": "second"}, f)
    assert sources.emulated_dice(port) == "second"
    assert sources.emulator_on(port)["uid"] is None
    assert sources.emulate_words(port, "classic") == ("pyramid emulate --edition classic", None)


# --- the edition fixes start the same board again --------------------------------------

@pytest.mark.process  # a pty and a thread answering on it
def test_the_edition_fixes_restart_the_same_flash_image(emulated_dice, capsys, tmp_path,
                                                        monkeypatch):
    """Tester s45b, finding 4: the fix printed for a board set to classic holding second-
    edition dice sent the maker to ``pyramid emulate --edition classic``, a new board,
    which the resume then refused as another board."""
    from test_play_board_edition import Board

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    image = str(tmp_path / "my boards" / "board1.img")
    again = ("stop the emulated Pico on %s (q in its terminal) and start the same board again "
             "with the classic edition's dice: pyramid emulate --edition classic --flash '%s'")
    board = Board("classic", uid=GAME)
    try:
        emulated_dice("second", board.port, uid=GAME, image=image)
        # play --edition classic: the firmware's edition, the dice's apart
        assert cli.main(["play", "--plain", "--pyramid", board.port, "--players", "Ann,Ben,Cy",
                         "--edition", "classic", "--seed", "3"]) != 0
        err = capsys.readouterr().err.strip()
        assert err.endswith(": " + again % (board.port, image)), err
        # calibrate --edition classic: the dice asked for are not the table's
        assert cli.main(["calibrate", "--port", board.port, "--edition", "classic",
                         "--samples", "3"]) == 1
        err = capsys.readouterr().err.strip()
        assert err.endswith("(or leave --edition out), or " + again % (board.port, image)), err
        # German: the same command
        assert cli.main(["--lang", "de", "calibrate", "--port", board.port, "--edition",
                         "classic", "--samples", "3"]) == 1
        err = capsys.readouterr().err.strip()
        assert err.endswith("beende den emulierten Pico an %s (q in seinem Terminal) und "
                            "starte dieselbe Platine wieder mit den Würfeln der Erstausgabe: "
                            "pyramid emulate --edition classic --flash '%s' --lang de"
                            % (board.port, image)), err  # the emulator speaks German too
    finally:
        board.close()


# --- the table's lost-port line names the game's board among several -------------------

def _lost_link(port, uid, refused=True):
    """A link whose pseudo-terminal ``port`` ended (its path now another program's when
    ``refused``); ``uid``: the board it checks, the game's (``Sequencer.uid``)."""
    return SimpleNamespace(port=port, state="connecting", sequencer=SimpleNamespace(uid=uid),
                           transport=SimpleNamespace(
                               refused_port=TAKEN if refused else None, is_open=False,
                               identity=PortIdentity("pty", (0, 0, 0))))


def _said_away(tmp_path, away, lost):
    out = io.StringIO()
    journal = Journal(str(tmp_path / "g.jsonl"), pyramid=lost)
    try:
        journal.resume_command = "pyramid play --resume g.jsonl --plain --pyramid %s" % lost
        session = Session("second", ["Ann", "Ben", "Cy"], seed=5, journal=journal)
        table = Table(session, PlainDisplay(out), pyramid=None, manual=False)
        table.start()
        table.line(SETUP)
        said = out.tell()
        table.pyramid_event(away)
        return out.getvalue()[said:].splitlines()[0]
    finally:
        journal.close()


@pytest.mark.parametrize("refused", [True, False])
def test_of_two_emulators_the_one_recording_the_games_board_is_named(tmp_path, emulated_dice,
                                                                      refused):
    lost = str(tmp_path / "pts1")
    theirs, ours = tmp_path / "pts4", tmp_path / "pts5"
    for made in (theirs, ours):
        made.write_text("")
    emulated_dice("classic", str(theirs), uid=OTHER, image=str(tmp_path / "b2.img"))
    emulated_dice("classic", str(ours), uid=GAME, image=str(tmp_path / "b1.img"))
    link = _lost_link(lost, GAME, refused)
    away = presence(link)
    assert away.emulator == str(ours) and away.emulators == ()
    line = _said_away(tmp_path, away, lost)
    assert line.endswith("an emulated Pico runs on %s: quit and resume with --pyramid %s: "
                         "pyramid play --resume g.jsonl --plain --pyramid %s"
                         % (ours, ours, ours)), line
    assert str(theirs) not in line
    # the quit line's resume: the game's board's port too
    args = argparse.Namespace(speak=False, web=None)
    with Journal(str(tmp_path / "h.jsonl"), pyramid=lost) as journal:
        Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        assert resume_command(args, journal, lost, plain=True, link=link).endswith(
            "--pyramid %s" % ours)


def test_an_emulator_of_another_board_on_the_lost_path_is_not_offered_as_the_games(
        tmp_path, emulated_dice):
    """The lost pseudo-terminal's number went to a new emulate of another image, while the
    game's board runs on another number: the table names the game's, not the path."""
    lost, ours = tmp_path / "pts1", tmp_path / "pts5"
    for made in (lost, ours):
        made.write_text("")
    emulated_dice("classic", str(lost), uid=OTHER)
    link = _lost_link(str(lost), GAME)
    assert presence(link) == PyramidPresence(False, str(lost), TAKEN, reopened=False,
                                             pty=True)  # another board: no resume there
    emulated_dice("classic", str(ours), uid=GAME)
    assert presence(link) == PyramidPresence(False, str(lost), TAKEN, reopened=False,
                                             pty=True, emulator=str(ours))
    # the game's board on the lost path itself: an emulated Pico runs there, as before
    emulated_dice("classic", str(lost), uid=GAME)
    assert presence(link).emulated and presence(link).emulator is None


def test_two_emulators_neither_known_as_the_games_board_are_named_as_one_of_these(
        tmp_path, emulated_dice):
    lost = str(tmp_path / "pts1")
    first, second = tmp_path / "pts4", tmp_path / "pts5"
    for made in (first, second):
        made.write_text("")
    emulated_dice("classic", str(first))  # older emulates: no uid recorded
    emulated_dice("classic", str(second))
    away = presence(_lost_link(lost, GAME))
    assert away == PyramidPresence(False, lost, TAKEN, reopened=False, pty=True,
                                   emulators=(str(first), str(second)))
    assert _said_away(tmp_path, away, lost) == (
        "the pyramid's port %s is now %s: nothing is written to it. Type the dice meanwhile, "
        "e.g. 'blue 2'; emulated Picos run on %s, %s: quit and resume with --pyramid and the "
        "port of this game's board, one of these: pyramid play --resume g.jsonl --plain "
        "--pyramid PORT" % (lost, TAKEN, first, second))
    from camelhost.i18n import set_language
    set_language("de")  # the table's German line (the fixture speaks English again after)
    assert _said_away(tmp_path, away, lost).endswith(
        "emulierte Picos laufen auf %s, %s: beende und setze mit --pyramid und dem Anschluss "
        "fort, auf dem die Platine dieser Partie läuft (einer von diesen): pyramid play "
        "--resume g.jsonl --plain --pyramid ANSCHLUSS" % (first, second))
    set_language("en")
    away = presence(_lost_link(lost, GAME, refused=False))
    assert _said_away(tmp_path, away, lost).endswith(
        "type the dice meanwhile, e.g. 'blue 2'; emulated Picos run on %s, %s: quit and "
        "resume with --pyramid and the port of this game's board, one of these: pyramid play "
        "--resume g.jsonl --plain --pyramid PORT" % (first, second))


def test_an_emulator_recorded_as_another_board_is_not_offered_for_the_game(tmp_path,
                                                                            emulated_dice):
    lost = str(tmp_path / "pts1")
    theirs = tmp_path / "pts4"
    theirs.write_text("")
    emulated_dice("classic", str(theirs), uid=OTHER)
    away = presence(_lost_link(lost, GAME))
    assert away.emulator is None and away.emulators == ()
    assert _said_away(tmp_path, away, lost).endswith("--pyramid PORT")
    # a game whose board is not known yet: the one running is named, as before
    assert presence(_lost_link(lost, None)).emulator == str(theirs)


# --- a refused resume and play's missing port name the game's board's emulator ---------

def _journal_on_board(path, port, uid):
    with Journal(path, pyramid=port) as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        s.record_board({"uid": uid, "fw": "0.1.0", "ed": "second", "boot": "958586CF",
                        "seq": 0})
        s.command(SETUP)
        s.command("leg red")
    return open(path, "rb").read()


def test_a_refused_resume_fills_in_the_emulator_recording_the_games_board(
        tmp_path, capsys, emulated_dice):
    path = str(tmp_path / "emu.jsonl")
    kept = _journal_on_board(path, "/dev/pts/98765", GAME)
    theirs, ours = tmp_path / "pts4", tmp_path / "pts5"
    for made in (theirs, ours):
        made.write_text("")
    emulated_dice("second", str(theirs), uid=OTHER)
    emulated_dice("second", str(ours), uid=GAME)
    assert cli.main(["play", "--plain", "--resume", path]) != 0
    err = capsys.readouterr().err.strip()
    assert ("pyramid play --resume %s --plain --pyramid %s (or --pyramid manual and type the "
            "dice)" % (path, ours)) in err, err
    assert str(theirs) not in err and "one of these" not in err
    # a missing port given: play names the game's board's emulated Pico only
    assert cli.main(["play", "--plain", "--resume", path, "--pyramid",
                     str(tmp_path / "pts55")]) != 0
    err = capsys.readouterr().err.strip()
    assert err.endswith("An emulated Pico runs on %s: give --pyramid %s" % (ours, ours)), err
    assert open(path, "rb").read() == kept
