"""What the table says around a game (issue 11): the quit line, the resume line, a fresh
seed, the position, plain-mode odds and best, private finish cards, the classic setup
words, and ``replay`` into a closed pipe."""

import io
import os
import re
import shlex
import subprocess
import sys

import pytest
from camelhost import cli
from camelhost.device.events import DieEvent
from camelhost.table.controller import Table
from camelhost.table.journal import Journal, read_events
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui import plain
from camelhost.ui.plain import PlainDisplay

PYRAMID = os.path.join(os.path.dirname(sys.executable), "pyramid")
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _play(monkeypatch, capsys, lines, *argv):
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in lines))
    rc = cli.main(["play", "--plain"] + list(argv))
    out = capsys.readouterr()
    assert rc == 0, out.err
    return out.out.splitlines()


def test_on_quit_one_line_names_the_journal_and_the_resume_command(tmp_path, monkeypatch,
                                                                   capsys):
    path = str(tmp_path / "g.jsonl")
    out = _play(monkeypatch, capsys, ["draw", "leg red", "quit"],
                "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "3")
    assert out[-1] == ("game saved in %s; continue it with: pyramid play --resume %s --plain"
                       % (path, path))


def test_the_quit_line_command_reopens_the_game_as_it_ran(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "a game.jsonl")  # a space: the command quotes the file
    with Journal(path, pyramid="virtual") as journal:  # started with the virtual pyramid
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        s.command(SETUP)
        s.command("leg red")
    # resumed with the dice typed instead: the journal still says virtual
    out = _play(monkeypatch, capsys, ["quit"], "--resume", path, "--pyramid", "manual")
    hint = out[-1].split("; continue it with: ", 1)[1]
    assert hint == "pyramid play --resume '%s' --plain --pyramid manual" % path
    argv = shlex.split(hint)
    assert argv[:2] == ["pyramid", "play"]
    monkeypatch.setattr("sys.stdin", iter(["show\n", "quit\n"]))
    assert cli.main(argv[1:]) == 0  # plain (it reads the piped lines), dice typed
    again = capsys.readouterr().out.splitlines()
    assert again[:2] == ["journal: %s" % path,  # in plain mode
                         "resumed %s: 2 events restored (race 1, leg 1)" % path]
    assert again[-1] == out[-1]


def test_a_full_disk_stops_the_table_with_the_same_resume_command(tmp_path, monkeypatch,
                                                                   capsys):
    """The disk fills up mid-game: the table stops, the journal keeps every event taken
    before, and the error gives the command that reopens the game as it ran (here with
    --plain and the dice typed), in one line (the README's promise: the ordinary quit
    line before it read as a close that then failed, s36 tester 18)."""
    import errno
    path = str(tmp_path / "g.jsonl")
    real = os.fsync
    writes = []

    def fsync(fd):
        writes.append(fd)
        if len(writes) > 3:  # the game line, the setup, one ticket: then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in
                                          ["draw", "leg red", "leg blue", "quit"]))
    rc = cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--journal", path,
                   "--seed", "3", "--pyramid", "manual"])
    monkeypatch.undo()
    out = capsys.readouterr()
    assert rc == 1
    command = "pyramid play --resume %s --plain" % path
    assert not [line for line in out.out.splitlines() if "continue it with" in line]
    assert out.err.strip() == ("pyramid: the disk is full: the game is safe in %s up to the "
                               "last event; free some space, then continue with: %s"
                               % (path, command))
    kinds = [e["type"] for e in read_events(path)]
    assert kinds == ["game", "setup", "action"]  # Ben's ticket was not taken


def test_the_resume_command_gives_the_options_the_journal_does_not_keep(tmp_path):
    import argparse

    from camelhost.commands.play import resume_command
    path = str(tmp_path / "g.jsonl")
    with Journal(path, pyramid="auto") as journal:
        Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        full = argparse.Namespace(speak=False, web=None)
        assert resume_command(full, journal, "auto", plain=False) == \
            "pyramid play --resume %s" % path  # the full screen, the journal's pyramid
        port = argparse.Namespace(speak=True, web="0.0.0.0:8080")
        assert resume_command(port, journal, "/dev/ttyACM1", plain=True) == (
            "pyramid play --resume %s --plain --pyramid /dev/ttyACM1 --speak --web 0.0.0.0:8080"
            % path)
        local = argparse.Namespace(speak=False, web="127.0.0.1:8765")  # plain --web
        assert resume_command(local, journal, "auto", plain=False).endswith(" --web")


def test_a_german_table_resumes_german(tmp_path, monkeypatch, capsys):
    # tester 2, finding 5: the hint left out --lang de, so the table came back English
    path = str(tmp_path / "de.jsonl")
    out = _play(monkeypatch, capsys, ["draw", "leg red", "quit"],
                "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "3", "--lang", "de")
    hint = out[-1].split("; weiter geht es mit: ", 1)[1]
    assert hint == "pyramid play --resume %s --plain --lang de" % path
    from camelhost.i18n import set_language
    set_language("en")  # the locale of whoever types the hint: English
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(shlex.split(hint)[1:]) == 0
    again = capsys.readouterr().out.splitlines()
    assert again[1].startswith("%s fortgesetzt: 2 Ereignisse" % path), again[:2]
    assert again[-1] == out[-1]


def test_after_a_resume_a_line_counts_the_events_and_shows_the_last_die(tmp_path,
                                                                        monkeypatch, capsys):
    path = str(tmp_path / "g.jsonl")
    _play(monkeypatch, capsys, [SETUP, "leg red", "pyramid", "blue 2", "quit"],
          "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "3")
    out = _play(monkeypatch, capsys, ["quit"], "--resume", path)
    at = out.index("resumed %s: 4 events restored (race 1, leg 1)" % path)
    assert out[at + 1] == "Last die: blue 2 (Ben): blue camel forward 2, from space 1 to 3"


def test_the_full_screen_table_also_says_what_a_resume_restored(tmp_path):
    path = str(tmp_path / "g.jsonl")
    with Journal(path) as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        s.command(SETUP)
        s.command("red 1")
    journal = Journal.resume(path)
    out = io.StringIO()
    t = Table(Session.resume(journal), PlainDisplay(out))  # as TableApp builds it
    t.start()
    journal.close()
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["resumed %s: 2 events restored (race 1, leg 1)" % path,
                         "Last die: red 1 (Ann): red camel forward 1, from space 2 to 3"]


def test_without_seed_a_new_seed_is_drawn_and_printed(tmp_path, monkeypatch, capsys):
    seeds = []
    for n in range(3):
        path = str(tmp_path / ("g%d.jsonl" % n))
        out = _play(monkeypatch, capsys, ["quit"], "--players", "Ann,Ben,Cy", "--journal", path)
        line = [x for x in out if x.startswith("seed: ")]
        assert len(line) == 1
        seed = int(line[0].split()[1])
        assert "--seed %d" % seed in line[0]
        assert read_events(path)[0]["seed"] == seed
        seeds.append(seed)
    assert len(set(seeds)) > 1


#: race odds from a small seeded sample where a test reads the notation, not the odds
FEW = "1000"


def test_position_prints_the_notation_that_pyramid_odds_reads(tmp_path, monkeypatch, capsys):
    out = _play(monkeypatch, capsys, [SETUP, "tile 6 +", "pyramid", "red 2", "position",
                                      "quit"],
                "--players", "Ann,Ben,Cy", "--journal", str(tmp_path / "g.jsonl"))
    line = [x for x in out if x.startswith("Position: ")]
    assert len(line) == 1
    position = line[0][len("Position: "):]
    # (--samples FEW: the notation is what is checked here, not the sampled race odds)
    assert cli.main(["odds", position, "--samples", FEW]) == 0
    odds_out = capsys.readouterr().out
    assert "red" in odds_out and "purple" in odds_out
    # the whole line as the table printed it, label and all, pastes too
    assert cli.main(["odds", line[0], "--samples", FEW]) == 0
    assert capsys.readouterr().out == odds_out


def test_position_also_gives_the_odds_command_with_the_players_names(tmp_path, monkeypatch,
                                                                    capsys):
    out = _play(monkeypatch, capsys, [SETUP, "tile 6 +", "pyramid", "red 2", "position",
                                      "quit"],
                "--players", "Alice,Bruno,Chiara", "--journal", str(tmp_path / "g.jsonl"))
    at = [i for i, x in enumerate(out) if x.startswith("Position: ")][0]
    position = out[at][len("Position: "):]
    # with the table's race odds, so that the pasted figures are its own (s37tp finding 5)
    assert re.fullmatch(r"pyramid odds %s --seed \d+ --samples 5000 --players "
                        r"Alice,Bruno,Chiara" % re.escape(shlex.quote(position)), out[at + 1])
    argv = shlex.split(out[at + 1])  # as a POSIX shell reads the pasted line
    assert argv[:2] == ["pyramid", "odds"] and argv[2] == position
    assert cli.main(argv[1:] + ["--samples", FEW]) == 0
    report = capsys.readouterr().out
    assert "Alice" in report and "Chiara" in report  # the tile owner, the player to act
    assert "p0" not in report and "p2" not in report


def test_position_quotes_a_name_with_a_space_in_the_odds_command(capsys):
    # odds takes the names play took: a space is quoted, never a seat number instead
    t, out = _table(players=("Ann Marie", "Ben", "Cy"))
    t.line("position")
    lines = out.getvalue().splitlines()
    at = [i for i, x in enumerate(lines) if x.startswith("Position: ")][0]
    assert lines[at + 1].startswith("pyramid odds '")
    assert lines[at + 1].endswith(" --players 'Ann Marie,Ben,Cy'")
    capsys.readouterr()
    assert cli.main(shlex.split(lines[at + 1])[1:] + ["--samples", FEW]) == 0
    assert "Ann Marie to act" in capsys.readouterr().out


def _table(players=("Ann", "Ben", "Cy")):
    out = io.StringIO()
    s = Session("second", list(players), seed=4, journal=Journal(None))
    t = Table(s, PlainDisplay(out))
    t.start()
    t.line(SETUP)
    return t, out


def test_plain_mode_has_odds_and_best_commands():
    t, out = _table()
    start = len(out.getvalue())
    t.line("odds")
    t.line("best")
    lines = out.getvalue()[start:].splitlines()
    assert lines[0].startswith("Leg odds: ") and " 1st " in lines[0] and " last " in lines[0]
    assert lines[1].startswith("Overall winner odds (") and "\u00b1" in lines[1]
    assert "+/-" not in lines[1]
    assert lines[2].startswith("Overall loser odds (")
    assert lines[3].startswith("Best for Ann: ") and "leg ticket" in lines[3]
    # the screen is shared: a finish card is advised as if held, never from the hand,
    # and by its pile only, its colour chosen unseen
    for line in lines[3:]:
        assert "finish" not in line or line.startswith("(") or re.search(
            r"a finish card on the (winner|loser) pile, its colour chosen unseen"
            r"(, for the camel [^(]*)? \((type )?'(win|lose)'\)", line), line


def test_a_bare_win_takes_the_colour_privately_and_never_shows_it():
    t, out = _table()
    t.line("win")
    start = len(out.getvalue())
    t.line("purple")
    shown = out.getvalue()[start:]
    assert "purple" not in shown
    assert shown.startswith("Ann plays a finish card face down on the overall-winner pile")
    assert t.session.game.pile("winner") == [(0, "purple")]


def test_win_red_in_plain_mode_is_echoed_without_the_colour():
    t, out = _table()
    start = len(out.getvalue())
    t.line("win red")
    t.line("lose purple")
    shown = out.getvalue()[start:]
    assert "red" not in shown and "purple" not in shown
    assert "Ben plays a finish card face down on the overall-loser pile" in shown


def test_a_mistyped_finish_colour_is_not_echoed():
    t, out = _table()
    start = len(out.getvalue())
    t.line("win purpel")
    shown = out.getvalue()[start:]
    assert shown.startswith("! ") and "purpel" not in shown


def test_plain_mode_tells_the_leg_scoring_and_the_race_result_one_per_line():
    t, out = _table()
    s = t.session
    t.line("leg red")
    for die in ("red 3", "blue 1", "green 1", "yellow 1", "purple 1"):
        t.line("pyramid")
        t.line(die)
        if s.game.leg == 2:
            break
    lines = out.getvalue().splitlines()
    scored = [i for i, x in enumerate(lines) if x.startswith("LEG 1 SCORED: 1st ")]
    assert len(scored) == 1
    ann = lines[scored[0] + 1]
    assert ann.startswith("  Ann: red 5 ticket ") and " => net " in ann
    assert [x.split(":")[0] for x in lines[scored[0] + 1:scored[0] + 4]] == [
        "  Ann", "  Ben", "  Cy"]


def test_classic_setup_dice_say_which_space_the_camel_goes_on():
    s = Session("classic", ["Ann", "Ben"], seed=1)
    notices = s.command("orange 2")
    lines = plain.notice_lines(notices[0], table_view(s, odds=False))
    assert lines == ["Setup: orange camel on space 2; still to place: blue, green, yellow, "
                     "white"]


def test_second_edition_crazy_setup_die_says_its_space():
    s = Session("second", ["Ann", "Ben", "Cy"], seed=1)
    notices = s.command("grey 1")
    lines = plain.notice_lines(notices[0], table_view(s, odds=False))
    assert lines[0].startswith("Setup: black camel on space 16; ")


def test_replay_of_a_missing_file_says_so_in_one_line(capsys, tmp_path):
    assert cli.main(["replay", str(tmp_path / "nothing.jsonl")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No such file" in err and "nothing.jsonl" in err


@pytest.mark.process
def test_replay_into_head_ends_quietly(tmp_path):
    path = str(tmp_path / "g.jsonl")
    with Journal(path) as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        s.command(SETUP)
        for _ in range(30):
            s.command("leg red" if s.game.leg_tickets_left("red") else "pyramid")
            if s.phase == "die":
                s.command("%s 1" % [d for d in s.game.dice_in_pyramid() if d != "grey"][0])
    proc = subprocess.run("'%s' replay '%s' | head -2" % (PYRAMID, path), shell=True,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert len(proc.stdout.splitlines()) == 2
    assert proc.stderr == ""


def test_the_race_over_lines_give_the_camels_order_and_the_players_ranking():
    from camelhost.table import bots
    from camelup.rng import XorShift32
    s = Session("classic", ["Ann", "Ben"], seed=5)
    s.command("draw")
    rng = XorShift32(5)
    notices = []
    while s.phase != "over":
        text, _ = bots.choose(s.game, s.names, quick=True)
        if text == "pyramid":
            inside = s.game.dice_in_pyramid()
            text = "%s %d" % (inside[rng.below(len(inside))], 1 + rng.below(3))
        notices = s.command(text)
    final = [n for n in notices if n["kind"] == "final"][0]
    lines = plain.notice_lines(final, table_view(s, odds=False))
    assert lines[1] == "Final order of the camels: " + ", ".join(s.game.ranking())
    coins = s.result["coins"]
    order = sorted([(-coins[0], 0, "Ann"), (-coins[1], 1, "Ben")])
    assert lines[-1] == "Final ranking: 1. %s %d, 2. %s %d" % (
        order[0][2], -order[0][0], order[1][2], -order[1][0])
    assert lines[-2].startswith("FINAL SCORES: Ann ")


def test_auto_without_a_board_hints_the_option_of_the_command_asking(monkeypatch):
    import types

    import pytest
    from camelhost.device.open import open_pyramid
    from camelhost.errors import CliError
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports",
                        lambda: [types.SimpleNamespace(device="/dev/ttyS0", vid=None)])
    with pytest.raises(CliError) as info:
        open_pyramid("auto", option="--port")  # monitor, calibrate
    assert "give --port PORT" in str(info.value) and "--pyramid" not in str(info.value)
    with pytest.raises(CliError) as info:
        open_pyramid("auto")  # play
    assert "give --pyramid PORT" in str(info.value) and "--pyramid manual" in str(info.value)


def test_players_with_the_same_coins_share_their_place_in_the_final_ranking():
    from camelhost.table import narration
    view = {"players": [{"name": n} for n in ("Ann", "Ben", "Cy", "Dee")], "ranking": []}
    final = {"winner": "red", "loser": "blue", "cards": [], "coins": [33, 24, 22, 24],
             "winners": [0]}
    lines = narration.final_lines({"final": final, "race": 1}, view)
    assert lines[-1] == "Final ranking: 1. Ann 33, 2. Ben 24, 2. Dee 24, 4. Cy 22"


def test_ctrl_c_in_plain_mode_leaves_like_quit(tmp_path, monkeypatch, capsys):
    import camelhost.ui.loop

    def interrupted(table, **kw):
        table.line("draw")
        raise KeyboardInterrupt

    monkeypatch.setattr(camelhost.ui.loop, "run_plain", interrupted)
    path = str(tmp_path / "g.jsonl")
    rc = cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--journal", path,
                   "--seed", "2"])
    out = capsys.readouterr()
    assert rc == 0 and out.err == ""
    assert out.out.splitlines()[-1].startswith("game saved in %s; continue it with: " % path)
    assert [e["type"] for e in read_events(path)] == ["game", "setup"]


@pytest.mark.process
def test_play_without_plain_on_piped_input_plays_in_plain_mode_and_says_so(tmp_path):
    path = str(tmp_path / "g.jsonl")
    run = subprocess.run([PYRAMID, "play", "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "3"],
                         input="draw\nleg red\nquit\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "not a terminal: playing in plain line mode (--plain)" in run.stderr
    assert read_events(path)[-1] == {"type": "action", "action": "leg red", "player": 0}


@pytest.mark.process
def test_a_web_board_that_cannot_start_leaves_no_journal_behind(tmp_path):
    import socket

    path = str(tmp_path / "g.jsonl")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        run = subprocess.run([PYRAMID, "play", "--plain", "--players", "Ann,Ben,Cy", "--journal", path,
                              "--web", "127.0.0.1:%d" % port], input="quit\n", capture_output=True,
                             text=True, timeout=60)
    finally:
        taken.close()
    assert run.returncode != 0
    assert "can't serve there" in run.stderr and "Traceback" not in run.stderr
    assert "seed:" not in run.stdout  # the game never started
    assert not os.path.exists(path)  # so a retry with the same --journal is not blocked


def test_a_resume_says_it_left_out_a_line_cut_off_by_a_crash(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "g.jsonl")
    _play(monkeypatch, capsys, [SETUP, "leg red", "quit"],
          "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "3")
    with open(path, "ab") as fh:
        fh.write(b'{"type":"action","player":1,"act')  # the program died mid-write
    out = _play(monkeypatch, capsys, ["quit"], "--resume", path)
    at = out.index("resumed %s: 2 events restored (race 1, leg 1)" % path)
    assert out[at + 1] == ("line 4 was cut off when the program stopped (32 bytes): left out, "
                           "kept in %s.damaged. It held Ben's action (its words cut off), as far "
                           "as it can be read: if that happened at the table, type it again "
                           "for Ben, whose turn it is" % path)


def test_the_resume_line_counts_one_event_in_the_singular():
    from camelhost.table.narration import resumed_lines
    view = {"race": 1, "phase": "setup", "leg": 1, "last_die": None}
    assert resumed_lines(view, "g.jsonl", 1) == ["resumed g.jsonl: 1 event restored (race 1, "
                                                  "setup)"]
    assert resumed_lines(view, "g.jsonl", 2)[0].startswith("resumed g.jsonl: 2 events restored")


def test_replay_of_a_game_without_pyramid_asks_for_the_die_typed(tmp_path, capsys):
    # the journal's game line says the dice were typed (--pyramid manual): the replay
    # tells the ticket as past (no prompt in the history) and the next step as that
    # table would ask it
    path = str(tmp_path / "g.jsonl")
    with Journal(path, pyramid="manual") as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        s.command(SETUP)
        s.command("pyramid")
    assert cli.main(["replay", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "Ann takes a pyramid ticket" in out
    assert not any("type the die" in line for line in out[:-1])
    assert out[-1] == "Next: Ann: type the die that came out, like blue 2"


def _all_five_laid_by_ann():
    """Ann lays all five finish cards, Ben and Cy take leg tickets between them. The
    cards are laid privately (``win``, then the colour): once one lies face down, the
    plain mode refuses a colour typed in view (RULES 1.8, 5)."""
    lines = [SETUP]
    for word, colour in (("win", "red"), ("win", "blue"), ("lose", "green"),
                         ("lose", "yellow"), ("win", "purple")):
        lines += [word, colour, "leg %s" % colour, "leg %s" % colour]
    return lines


def test_a_bare_win_or_lose_with_every_finish_card_laid_is_refused_at_once(
        tmp_path, monkeypatch, capsys):
    # QA: 'win' alone still opened the private colour prompt, then refused every colour
    path = str(tmp_path / "g.jsonl")
    out = _play(monkeypatch, capsys, _all_five_laid_by_ann() + ["win", "lose", "quit"],
                "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "4")
    at = out.index("> Ann's turn (leg / tile / pyramid)")
    refusal = "Ann has laid all five finish cards: none is left to play (RULES 1.8)"
    assert out[at + 1:at + 3] == ["! win: " + refusal, "! lose: " + refusal]
    assert not any("type the colour" in line for line in out[at:])
    assert out[at + 3].startswith("game saved in ")
    assert len(read_events(path)) == 17  # the game line, the setup, 15 actions: no more


def test_setup_during_a_race_is_refused_as_draw_is_whatever_follows_it(
        tmp_path, monkeypatch, capsys):
    # QA: a whole board typed during a race answered "it is Ann's turn", and 'setup
    # 1:blue' "setup is missing: green, ..." as if a full board would be taken
    path = str(tmp_path / "g.jsonl")
    again = [SETUP, "setup 1:blue", "setup", "setup 9:zebra", "draw"]
    out = _play(monkeypatch, capsys, [SETUP] + again + ["quit"],
                "--players", "Ann,Ben,Cy", "--journal", path, "--seed", "4")
    at = out.index("> Ann's turn (leg / tile / win / lose / pyramid)")
    assert out[at + 1:at + 1 + len(again)] == ["! the setup is already done"] * len(again)
    assert [e["type"] for e in read_events(path)] == ["game", "setup"]


def test_replay_tells_a_ticket_taken_without_pyramid_first_as_the_live_table_did(
        tmp_path, capsys):
    # QA: the slider pushed without 'pyramid' first showed "Ann takes a pyramid ticket:
    # red 3" live, but the replay showed only the DIE line; so did a die typed on a turn
    for source, pyramid in (("slider", "virtual"), ("typed", "manual")):
        path = str(tmp_path / ("%s.jsonl" % source))
        out = io.StringIO()
        with Journal(path, pyramid=pyramid) as journal:
            s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
            t = Table(s, PlainDisplay(out), manual=pyramid == "manual")
            t.start()
            t.line(SETUP)
            if source == "slider":
                t.pyramid_event(DieEvent("die", "B1", 1, "EVT 1 DIE red 3*0", colour="red",
                                         value=3))
            else:
                t.line("red 3")
        live = out.getvalue().splitlines()
        at = live.index("Ann takes a pyramid ticket: red 3")
        assert live[at + 1].startswith("DIE red 3 (Ann's pyramid ticket)")
        assert cli.main(["replay", path]) == 0
        replayed = capsys.readouterr().out.splitlines()
        again = replayed.index("Ann takes a pyramid ticket: red 3")
        assert replayed[again + 1] == live[at + 1]
        assert sum("takes a pyramid ticket" in line for line in live) == 1  # said once


def test_an_error_that_stops_the_full_screen_exits_non_zero(tmp_path, monkeypatch, capsys):
    """Tester's finding: the full screen stopped on an error (its traceback printed)
    and ``pyramid play`` still exited 0. Now it exits non-zero, saying so, after the
    line that names the journal."""
    from camelhost.commands import play
    from camelhost.ui.tui import TableApp

    path = str(tmp_path / "g.jsonl")
    _play(monkeypatch, capsys, [SETUP, "leg red", "quit"],
          "--players", "Ann,Ben,Cy", "--pyramid", "manual", "--seed", "3", "--journal", path)
    monkeypatch.setattr(play, "_plain", lambda args: False)  # as in a terminal
    run = TableApp.run
    monkeypatch.setattr(TableApp, "run", lambda app: run(app, headless=True, size=(80, 24)))

    def broken(app):
        raise RuntimeError("a broken panel")

    monkeypatch.setattr(TableApp, "refresh_panels", broken)
    rc = cli.main(["play", "--resume", path])
    out = capsys.readouterr()
    assert rc == 1
    assert "game saved in %s" % path in out.out
    assert out.err.strip().splitlines()[-1] == (
        "pyramid: the full screen stopped on an error (its traceback is above)")


def test_the_resume_command_names_no_pseudo_terminal_that_is_gone(tmp_path):
    # s33 tester 2: a game played on /dev/pts/7 was suggested to resume there once that
    # pseudo-terminal had ended (the table never reopens one; its number goes to the next
    # program that asks)
    import argparse
    import os
    from types import SimpleNamespace

    from camelhost.commands.play import resume_command
    from camelhost.device.transport import PortIdentity
    gone = next("/dev/pts/%d" % n for n in range(4000, 5000)
                if not os.path.exists("/dev/pts/%d" % n))
    args = argparse.Namespace(speak=False, web=None)
    path = str(tmp_path / "g.jsonl")
    with Journal(path, pyramid=gone) as journal:
        Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        assert resume_command(args, journal, gone, plain=True) == (
            "pyramid play --resume %s --plain --pyramid PORT" % path)
    # a pseudo-terminal still there, whose pyramid ended (its path another program's now)
    here = str(tmp_path / "pts")
    open(here, "w").close()
    link = SimpleNamespace(port=here, state="connecting", transport=SimpleNamespace(
        refused_port=None, is_open=False, identity=PortIdentity("pty", (0, 0, 0))))
    with Journal(str(tmp_path / "h.jsonl"), pyramid=here) as journal:
        Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        assert resume_command(args, journal, here, plain=True, link=link).endswith(
            " --pyramid PORT")
        link.state, link.transport.is_open = "connected", True  # it answers: kept
        # and named (s34 tester S1: a resume opens the journal's pseudo-terminal only
        # when --pyramid gives it again)
        assert resume_command(args, journal, here, plain=True, link=link) == (
            "pyramid play --resume %s --plain --pyramid %s" % (journal.path, here))


@pytest.mark.process  # a pseudo-terminal
def test_a_resume_never_opens_the_journals_pseudo_terminal_unless_given_again(tmp_path,
                                                                              capsys):
    # s34 tester S1: a game on an emulated Pico at /dev/pts/6; the emulator ended and a new
    # terminal got /dev/pts/6; the quit line's resume (no --pyramid) wrote HELLO? a dozen
    # times into that terminal and left it a raw serial line
    import fcntl
    import termios
    master, slave = os.openpty()  # the other program's terminal, at the journal's number
    try:
        fcntl.fcntl(master, fcntl.F_SETFL, os.O_NONBLOCK)
        before = termios.tcgetattr(slave)
        port = os.ttyname(slave)
        path = str(tmp_path / "emu.jsonl")
        with Journal(path, pyramid=port) as journal:
            s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
            s.command(SETUP)
            s.command("leg red")
        kept = open(path, "rb").read()
        rc = cli.main(["play", "--plain", "--resume", path])
        err = capsys.readouterr().err.strip()
        assert rc != 0
        # no number: the journal's is the port the game began on, not the one it last
        # ran on, which its last quit line named (tester s45, finding 5)
        assert err == ("pyramid: %s was played on a pseudo-terminal (an emulated pyramid's), "
                       "whose number may be another program's terminal now, so a resume "
                       "opens one only when its port is given again; nothing was changed. "
                       "Continue with the port the emulator prints: pyramid play --resume %s "
                       "--plain --pyramid PORT (or --pyramid manual and type the dice)"
                       % (path, path))
        assert port not in err
        with pytest.raises(BlockingIOError):
            os.read(master, 100)  # nothing was written into that terminal
        assert termios.tcgetattr(slave) == before
        assert open(path, "rb").read() == kept
        # the options that go with --resume are kept in the command it gives
        rc = cli.main(["play", "--plain", "--resume", path, "--upto-damage", "--retype",
                       "white 3"])
        assert rc != 0 and capsys.readouterr().err.strip().endswith(
            "pyramid play --resume %s --upto-damage --retype 'white 3' --plain --pyramid "
            "PORT (or --pyramid manual and type the dice)" % path)
        with pytest.raises(BlockingIOError):
            os.read(master, 100)
        # the port given again is the table's word: it is asked (and, not answering as a
        # pyramid, refused), its terminal settings as they were
        from camelhost.device import link as link_module
        saved = link_module.IDENTIFY_S
        link_module.IDENTIFY_S = 1.0
        try:
            rc = cli.main(["play", "--plain", "--resume", path, "--pyramid", port])
        finally:
            link_module.IDENTIFY_S = saved
        assert rc != 0 and "does not look like a smart pyramid" in capsys.readouterr().err
        assert termios.tcgetattr(slave) == before
        assert open(path, "rb").read() == kept
    finally:
        os.close(master)
        os.close(slave)


def test_a_refused_resume_fills_in_the_port_of_the_emulated_pico_running_now(
        tmp_path, capsys, emulated_dice):
    # the journal's pseudo-terminal is gone; a running pyramid emulate recorded its
    # emulated Pico's port: the refusal's command names it, as the table's lost-port line
    # does, and still opens nothing
    path = str(tmp_path / "emu.jsonl")
    with Journal(path, pyramid="/dev/pts/98765") as journal:
        s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
        s.command(SETUP)
        s.command("leg red")
    kept = open(path, "rb").read()
    running = tmp_path / "pts7"
    running.write_text("")  # the emulated Pico's port is there
    port = emulated_dice("second", str(running))
    for lang, word in (("en", "Continue with the port"), ("de", "Weiter mit dem Anschluss")):
        rc = cli.main(["play", "--plain", "--resume", path, "--lang", lang])
        err = capsys.readouterr().err.strip()
        assert rc != 0 and word in err
        assert ("pyramid play --resume %s --plain --lang %s --pyramid %s" % (path, lang, port)
                in err)
        assert "/dev/pts/98765" not in err and "PORT" not in err and "ANSCHLUSS" not in err
    assert open(path, "rb").read() == kept
    # two emulators, neither on the journal's port nor known as its board: the maker
    # picks one of these, PORT
    other = tmp_path / "pts8"
    other.write_text("")
    emulated_dice("classic", str(other))
    rc = cli.main(["play", "--plain", "--resume", path])
    assert rc != 0 and capsys.readouterr().err.strip().endswith(
        "--plain --pyramid PORT (or --pyramid manual and type the dice). Emulated Picos run "
        "on %s, %s: this game's board may be one of these" % (port, other))
    # none runs: PORT, as before
    emulated_dice.withdraw(port)
    emulated_dice.withdraw(str(other))
    rc = cli.main(["play", "--plain", "--resume", path])
    assert rc != 0 and "--pyramid PORT (or" in capsys.readouterr().err
    assert open(path, "rb").read() == kept
