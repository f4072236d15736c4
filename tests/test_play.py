"""``pyramid play`` / ``pyramid replay`` from the command line: arguments, port
discovery, journal handling; errors are one ``pyramid: ...`` line, never a traceback."""

import types

import pytest
from camelhost import cli
from camelhost.commands import play


def _port(device, vid):
    return types.SimpleNamespace(device=device, vid=vid)


def test_auto_finds_the_rp2040_by_vendor_id(monkeypatch):
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports",
                        lambda: [_port("/dev/ttyS0", None), _port("/dev/ttyACM3", 0x2E8A)])
    assert play.find_rp2040_port() == "/dev/ttyACM3"


def test_auto_without_a_pyramid_says_so(monkeypatch, capsys, tmp_path):
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports", lambda: [_port("/dev/ttyS0", None)])
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "auto", "--plain",
                   "--journal", str(tmp_path / "g.jsonl")])
    err = capsys.readouterr().err
    assert rc == 1
    assert err.startswith("pyramid: no smart pyramid found") and "/dev/ttyS0" in err
    assert err.count("\n") == 1


def test_auto_without_a_pyramid_names_the_virtual_one_and_typed_dice(monkeypatch, capsys,
                                                                    tmp_path):
    # s42 tester finding 2: the simulated pyramid offered, as calibrate's and monitor's do
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports", lambda: [_port("/dev/ttyS0", None)])
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "auto", "--plain",
                   "--journal", str(tmp_path / "g.jsonl")])
    assert rc == 1
    assert capsys.readouterr().err == (
        "pyramid: no smart pyramid found (no USB serial port with vendor id 0x2E8A; ports "
        "seen: /dev/ttyS0). Plug it in, or give --pyramid PORT, --pyramid virtual (the "
        "simulated pyramid) or --pyramid manual to type the dice\n")
    assert not (tmp_path / "g.jsonl").exists()


def test_a_missing_port_names_the_ports_seen_and_the_virtual_pyramid(monkeypatch, capsys,
                                                                     tmp_path):
    # s42 tester finding 2: the line calibrate and monitor say, with play's option
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports",
                        lambda: [_port("/dev/ttyS0", None), _port("/dev/ttyACM0", None)])
    missing = str(tmp_path / "ttyACM7")
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", missing, "--plain",
                   "--journal", str(tmp_path / "g.jsonl")])
    assert rc == 1
    assert capsys.readouterr().err == (
        "pyramid: cannot open %s: no such port (serial ports seen: /dev/ttyACM0, /dev/ttyS0). "
        "Plug the pyramid in, or give --pyramid auto (the first RP2040 on USB), --pyramid "
        "virtual (the simulated pyramid) or --pyramid manual to type the dice\n" % missing)
    assert not (tmp_path / "g.jsonl").exists()
    rc = cli.main(["calibrate", "--port", missing])  # the maker's: the same advice, its option
    assert rc == 1
    assert capsys.readouterr().err == (
        "pyramid: cannot open %s: no such port (serial ports seen: /dev/ttyACM0, /dev/ttyS0). "
        "Plug the pyramid in, or give --port auto (the first RP2040 on USB) or --port virtual "
        "(the simulated pyramid). Without a board: pyramid emulate runs the firmware on an "
        "emulated Pico and prints its port (docs/emulator.md)\n" % missing)


@pytest.mark.parametrize("argv,why", [
    (["play", "--plain"], "give the players"),
    (["play", "--players", "Ann,Ben", "--plain"], "3 to 8 players"),
    (["play", "--players", "Ann,Ann,Cy", "--plain"], "must differ"),
    (["play", "--players", "Ann,Ben,Cy", "--bots", "Zed", "--plain"], "not among the players"),
    (["replay", "/nonexistent/game.jsonl"], "No such file"),
])
def test_bad_arguments_are_one_line(argv, why, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = cli.main(argv)
    err = capsys.readouterr().err
    assert rc == 1 and why in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_journal_in_use_is_not_overwritten(tmp_path, capsys, monkeypatch):
    path = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", iter(["draw\n", "leg red\n"]))
    assert cli.main(["play", "--players", "Ann,Ben,Cy", "--plain", "--journal", str(path)]) == 0
    capsys.readouterr()
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--plain", "--journal", str(path)])
    assert rc == 1 and "--resume" in capsys.readouterr().err
    # replay shows the game as it stands
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ann takes the red leg ticket worth 5" in out
    assert "Next: Ben's turn" in out


def test_replay_of_a_finished_game_reveals_the_piles_and_final_scores(tmp_path, capsys):
    from camelhost.table import bots
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from camelup.rng import XorShift32

    path = str(tmp_path / "done.jsonl")
    with Journal(path) as journal:
        s = Session("classic", ["Ann", "Ben"], seed=5, journal=journal)
        s.command("draw")
        rng = XorShift32(5)
        while s.phase != "over":
            text, _ = bots.choose(s.game, s.names, quick=True)
            if s.game.leg == 1 and not s.game.pile("winner"):
                text = "win blue"  # a card in the pile, to be revealed at the end
            if text == "pyramid":
                inside = s.game.dice_in_pyramid()
                text = "%s %d" % (inside[rng.below(len(inside))], 1 + rng.below(3))
            s.command(text)
    assert cli.main(["replay", path]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    reveal = lines.index("Winner pile revealed in play order:")
    assert lines[reveal + 1].startswith("  1. Ann blue: ")
    assert "FINAL SCORES: Ann %d, Ben %d" % tuple(s.result["coins"]) in out
    assert out.count("LEG ") >= 1 and "The race is over." in out


def test_replay_tells_a_pyramid_ticket_as_past_not_as_a_prompt(tmp_path, capsys, monkeypatch):
    """Tester's finding: a replay printed "Ben takes a pyramid ticket: type the die that
    came out", the live table's prompt. It tells the ticket, then the die's own line."""
    path = str(tmp_path / "typed.jsonl")
    setup = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in
                                          [setup, "leg red", "pyramid", "blue 2", "quit"]))
    assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--pyramid", "manual",
                     "--seed", "3", "--journal", path]) == 0
    live = capsys.readouterr().out
    assert "Ben takes a pyramid ticket: type the die that came out" in live
    assert cli.main(["replay", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    ticket = lines.index("Ben takes a pyramid ticket")
    assert lines[ticket + 1].startswith("DIE blue 2 (Ben's pyramid ticket)")
    assert not any("type the die" in line for line in lines)
