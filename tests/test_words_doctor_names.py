"""s32 tester 2 findings 7, 8, 9 and 10: doctor's next step only when true, names that
are no camel's colour, the names after renames on resume, and wording a player trusts."""


import pytest
from camelhost import cli
from typed_table import refusal, typed_table


@pytest.fixture
def german():
    from camelhost.i18n import set_language
    set_language("de")
    yield
    set_language("en")


_table = typed_table
_reply = refusal


# --- finding 9: a camel's colour is no player's name ------------------------------


@pytest.mark.parametrize("typed, name", [
    ("rename Ann blue", "blue"), ("rename Ann Red", "Red"), ("rename Ann orange", "orange"),
    ("rename Ann grey", "grey"), ("rename Ann gray", "gray"), ("rename Ann White", "White"),
])
def test_a_rename_to_a_camels_colour_is_refused_unchanged(typed, name):
    t, out = _table("second", ["Ann", "Ben", "Cy"], "draw")
    # s35: the line names the word's colour, where it reads so, and a variant
    thing = "die" if name.lower() in ("grey", "gray") else "camel"
    assert _reply(t, out, typed) == (
        "rename Ann %s: %s is the %s %s's word at every table, and a player called so would "
        "read as the %s: choose another name, e.g. %s A."
        % (name, name, "grey" if thing == "die" else name.lower(), thing, thing, name))
    assert t.session.names == ["Ann", "Ben", "Cy"]


def test_a_rename_to_a_german_colour_is_refused_in_german(german):
    t, out = _table("second", ["Ann", "Ben", "Cy"], "draw")
    for typed in ("rename Ann Blau", "rename Ann grün", "rename Ann gruen", "rename Ann blue"):
        said = _reply(t, out, typed)
        assert said.startswith(typed + ": ") and "Kamel" in said, said
    assert t.session.names == ["Ann", "Ben", "Cy"]
    t.line("rename Ann Anna")  # a name that is no colour is still taken
    assert t.session.names == ["Anna", "Ben", "Cy"]


@pytest.mark.parametrize("players, colour", [("red,Ben,Cy", "red"), ("Ann,Ben,PURPLE", "PURPLE"),
                                             ("Ann,black,Cy", "black")])
def test_players_named_after_a_camels_colour_are_refused(players, colour, tmp_path, capsys,
                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["play", "--players", players, "--plain"]) != 0
    err = capsys.readouterr().err
    assert err == ("pyramid: --players %s: %s is the %s camel's word at every table, and a "
                   "player called so would read as the camel: choose another name, e.g. %s A.\n"
                   % (players, colour, colour.lower(), colour))  # s35: its word, a variant
    assert list(tmp_path.iterdir()) == []  # no journal begun


def test_a_journal_that_already_holds_a_colour_name_resumes_as_it_was(tmp_path, capsys,
                                                                      monkeypatch):
    from camelhost.table.journal import Journal
    path = tmp_path / "g.jsonl"
    with Journal(str(path), pyramid="manual") as journal:
        journal.append({"type": "game", "edition": "second", "players": ["Ann", "red", "Cy"],
                        "seed": 3, "pyramid": "manual"})
        journal.append({"type": "setup", "how": "drawn", "stacks": [
            [1, ["blue", "green"]], [2, ["red"]], [3, ["yellow", "purple"]], [15, ["black"]],
            [16, ["white"]]]})
        journal.append({"type": "rename", "player": 0, "name": "blue"})
    monkeypatch.setattr("sys.stdin", iter(["show\n", "quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain"]) == 0
    assert "> blue's turn" in capsys.readouterr().out


# --- finding 7: doctor's next step only when true ---------------------------------


@pytest.mark.hil
@pytest.mark.micropython
def test_doctor_names_play_once_the_pyramid_runs_a_saved_profile(micropython, capsys,
                                                                 monkeypatch):
    # tester s32-2 finding 7: doctor said "not fitted, calibrate" after calibrate saved a
    # profile on the pyramid; it now goes by what the board says it runs (INFO cal)
    import camelup.board.classifier as classifier
    from camelhost.tools import monitor
    connect = monitor.connect
    saved = []

    def connect_and_calibrate(*args, **kwargs):  # the profile calibrate would save
        pyramid = connect(*args, **kwargs)
        profile = classifier.default_profile("second")
        fitted = profile["settings"]  # saved at the settings it was fitted at, as calibrate's
        pyramid.link.configure(integration_ms=fitted["integration_ms"], gain=fitted["gain"])
        saved.append(pyramid.link.save_profile(profile))
        return pyramid

    assert cli.main(["doctor", "--port", "virtual"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "next, teach the pyramid these dice (the built-in profile is not fitted to them): "
        "pyramid calibrate --port virtual --autorange")
    monkeypatch.setattr(monitor, "connect", connect_and_calibrate)
    assert cli.main(["doctor", "--port", "virtual"]) == 0
    assert saved
    assert capsys.readouterr().out.splitlines()[-1] == (
        "next, play: pyramid play --pyramid virtual (the pyramid runs the profile calibrate "
        "saved on it)")


def test_doctors_next_step_when_the_firmware_does_not_say_and_in_german(german):
    import argparse

    from camelhost.commands.doctor import next_step
    args = argparse.Namespace(port="/dev/ttyACM0", edition=None)
    from camelhost.i18n import set_language
    set_language("en")
    assert next_step(args, None) == (
        "next, unless calibrate already taught this pyramid its dice (its firmware does not "
        "say): pyramid calibrate --port /dev/ttyACM0 --autorange; then play: pyramid play "
        "--pyramid /dev/ttyACM0")
    set_language("de")
    assert next_step(args, True).startswith("als Nächstes spielen: pyramid play --pyramid "
                                            "/dev/ttyACM0")


def test_the_firmware_says_in_info_whether_a_saved_profile_runs():
    import binascii

    from camelup.board import protocol

    def framed(body):
        return (body + "*%08X\n" % (binascii.crc32(body.encode()) & 0xFFFFFFFF)).encode()
    line = protocol.encode("INFO", impl="micropython", mp="1.28.0", mpy=2822, sl=False, cal=True)
    assert line == framed("INFO impl=micropython mp=1.28.0 mpy=2822 sl=0 cal=1")
    assert protocol.decode(line)["cal"] is True
    assert "cal" not in protocol.decode(framed("INFO impl=micropython mp=1.28.0 mpy=2822 sl=0")).fields


# --- finding 10: wording ------------------------------------------------------------


def test_the_german_start_marker_line_names_whose_die_ended_the_race(german):
    # tester s32-2 finding 10: "an den linken Nachbarn von Ann, dessen Würfel ..." read
    # as the neighbour's die
    t, out = _table("classic", ["Ann", "Ben", "Cy"], "setup 1:blue 2:green 3:orange,yellow,white")
    s = t.session
    for _turn in range(60):
        if s.phase == "over":
            break
        t.line("%s 3" % [c for c in s.edition.racing if c not in s.game.dice_out][0])
    assert s.phase == "over"
    ended = s.reports[-1]["player"]
    before = len(out.getvalue())
    t.line("again")
    said = out.getvalue()[before:].splitlines()
    assert said[1] == ("%s beginnt: %s beendete mit dem Würfel das Rennen davor, also ging der "
                       "Startspielermarker einen Platz nach links weiter (RULES 1.12)"
                       % (s.names[(ended + 1) % 3], s.names[ended]))


def test_show_sets_a_partner_apart_with_a_semicolon_after_pyramid_tickets_too():
    # tester s32-2 finding 10: '1 pyramid ticket, partner Finn;' beside 'partner Cy;'
    t, out = _table("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"], "draw",
                    "partner Ben", "pyramid")
    if t.session.phase == "die":
        inside = [c for c in t.session.edition.racing if c not in t.session.game.dice_out]
        t.line("%s 1" % inside[0])
    t.line("partner Dee")
    before = len(out.getvalue())
    t.line("show")
    shown = out.getvalue()[before:]
    assert "Ann: 3 coins; no leg tickets; partner Ben; 0 finish cards played" in shown
    assert "Ben: 3 coins; no leg tickets; 1 pyramid ticket; partner Ann; 0 finish cards " \
           "played" in shown
    assert "Cy: 3 coins; no leg tickets; partner Dee; 0 finish cards played" in shown


def test_a_german_wiederholen_is_answered_with_redo_as_zurueck_is_with_undo(german):
    t, out = _table("second", ["Ann", "Ben", "Cy"], "draw")
    assert _reply(t, out, "zurück").startswith("unbekannter Befehl 'zurück'; meintest du 'undo'?")
    for word in ("wiederholen", "Wiederherstellen"):
        assert _reply(t, out, word).startswith(
            "unbekannter Befehl '%s'; meintest du 'redo'?" % word)


def test_a_misspelt_die_is_never_answered_with_a_die_already_out_this_leg():
    t, out = _table("second", ["Ann", "Ben", "Cy"], "draw")
    assert _reply(t, out, "bleu 2").startswith("unknown command 'bleu 2'; did you mean 'blue 2'?")
    t.line("blue 2")  # Ann's pyramid ticket: blue is out this leg
    assert "blue" in t.session.game.dice_out
    said = _reply(t, out, "bleu 2")
    assert "blue 2" not in said and said.startswith("unknown command 'bleu 2'"), said
    assert _reply(t, out, "grean 1").startswith("unknown command 'grean 1'; did you mean "
                                                "'green 1'?")
