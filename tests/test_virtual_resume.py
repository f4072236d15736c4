"""Resuming a game played against the virtual pyramid (QA finding: every resume raised a
false "the pyramid lost events" alarm and asked for a phantom die by hand)."""

import pytest
from camelhost import cli
from camelhost.table.journal import read_events


def _play(monkeypatch, capsys, lines, *argv):
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in lines))
    rc = cli.main(["play", "--plain"] + list(argv))
    out = capsys.readouterr()
    assert rc == 0, out.err
    return out.out + out.err


@pytest.mark.hil
def test_resume_with_a_virtual_pyramid_reports_no_lost_events(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "g.jsonl")
    first = _play(monkeypatch, capsys, ["leg red", "pyramid", "release", "quit"],
                  "--players", "Ann,Ben,Cy", "--pyramid", "virtual", "--seed", "5",
                  "--journal", path)
    dice = [e for e in read_events(path) if e.get("type") == "die"]
    assert dice and dice[-1]["source"] == "pyramid", first  # a die came from the pyramid
    again = _play(monkeypatch, capsys, ["quit"], "--resume", path)
    assert "events restored" in again
    assert "lost" not in again and "TYPE THE DIE" not in again.upper(), again


@pytest.mark.hil
def test_a_virtual_pyramid_opened_for_a_resumed_journal_reports_no_gap():
    """The journal's last pyramid event names a boot of the virtual board that ran
    before; the new virtual board never had it, so nothing may be reported lost."""
    from camelhost.device.open import open_pyramid
    with open_pyramid("virtual", "second", seed=5, resume=("0A9B0E33", 7)) as p:
        p.link.wait_hello(timeout=10)
        got = []
        for _ in range(20):  # 2 s: the link's SYNC of an unknown boot answers well within
            event = p.link.next_event(timeout=0.1)
            if event is not None:
                got.append(event)
        assert [e for e in got if e.kind == "gap"] == []


@pytest.mark.hil
def test_the_virtual_pyramid_lets_a_table_try_two_dice_and_a_jam(tmp_path, monkeypatch, capsys):
    # README "when something goes wrong": two dice together or none, read by the real
    # firmware on the simulated sensor; the ticket still covers the action, and the next
    # release completes it (the dice are put back as the game has them)
    path = str(tmp_path / "g.jsonl")
    out = _play(monkeypatch, capsys, ["pyramid", "release two", "release none", "release",
                                      "release sideways", "quit"],
                "--players", "Ann,Ben,Cy", "--pyramid", "virtual", "--seed", "5",
                "--journal", path)
    assert "RETURN THE DICE AND RELEASE AGAIN (two dice came out at once)" in out, out
    assert "RETURN THE DICE AND RELEASE AGAIN (no die came out)" in out, out
    dice = [e for e in read_events(path) if e.get("type") == "die"]
    assert len(dice) == 1 and dice[0]["source"] == "pyramid"
    assert "Ann's pyramid ticket" in out
    assert "! unknown command 'release sideways'" in out and "Traceback" not in out


@pytest.mark.hil
def test_release_two_at_the_start_of_a_turn_announces_the_ticket_before_the_retry(
        tmp_path, monkeypatch, capsys):
    # QA: the slider pushed without 'pyramid' first and two dice fell: "RETURN THE
    # DICE" came before the line saying that Ann takes the pyramid ticket it covers
    out = _play(monkeypatch, capsys, ["release two", "release", "quit"],
                "--players", "Ann,Ben,Cy", "--pyramid", "virtual", "--seed", "5",
                "--journal", str(tmp_path / "g.jsonl")).splitlines()
    ticket = out.index("Ann takes a pyramid ticket: release one die")
    assert out[ticket + 1].startswith(
        "RETURN THE DICE AND RELEASE AGAIN (two dice came out at once)"), out
    assert sum(line.startswith("RETURN THE DICE") for line in out) == 1, out
    assert any(line.startswith("DIE ") and "(Ann's pyramid ticket)" in line
               for line in out[ticket:]), out


def _pyramid_dice(path):
    return [(e["colour"], e["value"]) for e in read_events(path)
            if e.get("type") == "die" and e.get("source") == "pyramid"]


@pytest.mark.hil
def test_a_resumed_virtual_pyramid_goes_on_with_dice_the_table_has_not_seen(
        tmp_path, monkeypatch, capsys):
    # s34 tester finding 6: seed 4242, leg 1 came out yellow 1, blue 3, orange 2...; after
    # each resume a leg began yellow 1, blue 3, orange 2 again (the journal's seed reused
    # from its start): a table that resumes played a leg it had already seen
    import shutil
    path = str(tmp_path / "g.jsonl")
    _play(monkeypatch, capsys, ["pyramid", "release"] * 5 + ["quit"],
          "--players", "Ann,Ben,Cy", "--pyramid", "virtual", "--seed", "4242",
          "--journal", path)
    leg1 = _pyramid_dice(path)
    assert len(leg1) == 5  # the leg is over: every die back in the pyramid
    shutil.copy(path, str(tmp_path / "copy.jsonl"))
    _play(monkeypatch, capsys, ["pyramid", "release"] * 3 + ["quit"], "--resume", path)
    leg2 = _pyramid_dice(path)[5:]
    assert len(leg2) == 3 and leg2 != leg1[:3], (leg1, leg2)
    # the same journal resumed again goes on with the same dice: a seeded game stays
    # one game, however often it is resumed at the same point
    copy = str(tmp_path / "copy.jsonl")
    _play(monkeypatch, capsys, ["pyramid", "release"] * 3 + ["quit"], "--resume", copy)
    assert _pyramid_dice(copy)[5:] == leg2
