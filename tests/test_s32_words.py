"""s32 tester findings 3, 5, 6, 8 and 9: the table's words (suggestions that help, a
name that can be corrected, wording a player trusts) and the maker's next step."""

import os

import pytest
from camelhost import cli

# --- finding 9: the maker's side --------------------------------------------------


def test_a_failed_auto_pyramid_leaves_no_journals_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda *a, **k: [])  # no board
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "auto", "--plain"])
    err = capsys.readouterr().err
    assert rc != 0 and err.startswith("pyramid: ") and err.count("\n") == 1, err
    assert os.listdir(tmp_path) == []


def test_a_failed_start_keeps_a_journals_folder_that_was_there(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "journals").mkdir()
    rc = cli.main(["play", "--players", "Ann,Ben,Cy", "--pyramid", "/dev/nonexistent-pyr",
                   "--plain"])
    assert rc == 1 and "cannot open" in capsys.readouterr().err
    assert os.listdir(tmp_path) == ["journals"]


@pytest.mark.hil
@pytest.mark.micropython
def test_calibrate_on_the_virtual_pyramid_runs_unattended_without_auto(tmp_path, capsys,
                                                                       micropython):
    rc = cli.main(["calibrate", "--port", "virtual", "--edition", "classic", "--samples", "3",
                   "--no-save"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert out.splitlines()[0] == ("virtual pyramid: the simulated table puts each die in the "
                                   "head itself, so calibrate runs unattended (--auto is "
                                   "implied)")
    here = os.path.dirname(__file__)
    with open(os.path.join(here, "..", "hardware", "README.md"), encoding="utf-8") as f:
        readme = " ".join(f.read().split())
    assert "there `calibrate` runs unattended" in readme and "(`--auto` is implied" in readme


def test_doctors_next_step_names_the_port_and_the_edition_given():
    import argparse

    from camelhost.commands.doctor import next_step
    from camelhost.i18n import set_language
    args = argparse.Namespace(port="/dev/tty ACM0", edition="classic")
    assert next_step(args).endswith(": pyramid calibrate --port '/dev/tty ACM0' --edition "
                                    "classic --autorange")
    set_language("de")
    try:
        assert next_step(args).startswith("als Nächstes der Pyramide diese Würfel beibringen")
    finally:
        set_language("en")


# --- finding 6: suggestions that help ---------------------------------------------

SIX = ["Maria", "Jonas", "Leonie", "Tariq", "Sofia", "Ömer"]


def _table(edition, players, *lines, pyramid=None):
    import io

    from camelhost.table.controller import Table
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from camelhost.ui.plain import PlainDisplay
    out = io.StringIO()
    s = Session(edition, list(players), seed=3, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=pyramid, manual=pyramid is None)
    t.start()
    for line in lines:
        t.line(line)
    return t, out


def _reply(t, out, typed):
    """The one line the table answers ``typed`` with: a refusal that changed nothing."""
    before, events = len(out.getvalue()), len(t.session.journal.events)
    t.line(typed)
    said = out.getvalue()[before:]
    assert said.count("\n") == 1 and said.startswith("! "), said
    assert len(t.session.journal.events) == events
    return said[2:].rstrip("\n")


@pytest.fixture
def german():
    from camelhost.i18n import set_language
    set_language("de")
    yield
    set_language("en")


def test_a_german_hilfe_is_answered_with_help_as_the_german_help_lists_it(german):
    from camelhost.table.controller import help_text
    t, out = _table("second", SIX)
    assert "\n  show " in help_text("second", "manual")  # the commands typed in English
    assert _reply(t, out, "hilfe") == ("unbekannter Befehl 'hilfe'; meintest du 'help'? "
                                       "(help zeigt die Befehle)")
    t.line("draw")
    assert _reply(t, out, "Hilfe") == ("unbekannter Befehl 'Hilfe'; meintest du 'help'? "
                                       "(help zeigt die Befehle)")
    assert _reply(t, out, "zurück").startswith("unbekannter Befehl 'zurück'; meintest du 'undo'?")


def test_a_one_word_typo_of_a_table_command_is_answered_with_it():
    t, out = _table("second", SIX, "draw")
    assert _reply(t, out, "hepl") == ("unknown command 'hepl'; did you mean 'help'? (help "
                                      "lists the commands)")
    assert _reply(t, out, "postion") == ("unknown command 'postion'; did you mean 'position'? "
                                         "(help lists the commands)")


def test_a_name_without_its_accent_is_suggested_never_taken():
    t, out = _table("second", SIX, "draw")
    assert _reply(t, out, "partner Omer") == ("no player called 'Omer' (players: Maria, Jonas, "
                                              "Leonie, Tariq, Sofia, Ömer); did you mean Ömer?")
    assert _reply(t, out, "partner sofiia").endswith("; did you mean Sofia?")
    assert _reply(t, out, "partner Xaver") == ("no player called 'Xaver' (players: Maria, "
                                               "Jonas, Leonie, Tariq, Sofia, Ömer)")


def test_bots_suggest_a_name_without_its_accent(tmp_path, capsys):
    rc = cli.main(["play", "--plain", "--players", ",".join(SIX), "--bots", "omer",
                   "--journal", str(tmp_path / "g.jsonl")])
    assert rc != 0
    assert capsys.readouterr().err.rstrip().endswith("; did you mean Ömer?")
    assert os.listdir(tmp_path) == []


def test_a_bare_value_while_a_die_is_awaited_asks_for_its_colour(german):
    t, out = _table("second", SIX, "draw", "pyramid")
    assert _reply(t, out, "2") == "'2': den Würfel mit seiner Farbe eingeben, z. B. 'rot 2'"


def test_a_bare_value_on_a_turn_asks_for_its_colour():
    t, out = _table("classic", ["Ann", "Ben"], "draw")
    assert _reply(t, out, "3") == "'3': type the die with its colour, e.g. 'orange 3'"


def test_a_misspelt_leg_colour_gets_the_nearest_colour(german):
    t, out = _table("second", SIX, "draw")
    assert _reply(t, out, "leg gelbb").endswith("(eines von: blau, grün, gelb, rot, lila); "
                                                "meintest du gelb?")
    from camelhost.i18n import set_language
    set_language("en")
    assert _reply(t, out, "leg yelow") == ("'yelow' is not a racing camel of the second "
                                           "edition (one of: blue, green, yellow, red, "
                                           "purple); did you mean yellow?")
    # a camel that is no racing camel is not 'corrected' to another colour
    assert _reply(t, out, "leg black") == ("'black' is not a racing camel of the second "
                                           "edition (one of: blue, green, yellow, red, purple)")
