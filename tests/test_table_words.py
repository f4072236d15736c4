"""s32 tester findings 3, 5, 6, 8 and 9: the table's words (suggestions that help, a
name that can be corrected, wording a player trusts) and the maker's next step."""

import os

import pytest
from camelhost import cli
from typed_table import refusal, typed_table

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


_table = typed_table
_reply = refusal


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


# --- finding 5: a name that can be corrected --------------------------------------


def _said(t, out, typed):
    before = len(out.getvalue())
    t.line(typed)
    return out.getvalue()[before:]


def test_rename_corrects_a_name_everywhere_from_then_on(tmp_path):
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    t, out = _table("second", ["Maria", "Jonsa", "Leonie", "Tariq", "Sofia", "Ömer"],
                    "draw", "partner Jonsa", "win red")
    assert _said(t, out, "rename jonsa Jonas") == (
        "Jonsa is called Jonas from now on\n"
        "> Leonie's turn (leg / tile / win / lose / partner / pyramid)\n")
    shown = _said(t, out, "show")
    assert "Maria: 3 coins; no leg tickets; partner Jonas; 0 finish cards played" in shown
    assert "Jonas: 3 coins; no leg tickets; partner Maria; 1 finish card played" in shown
    assert "Jonsa" not in shown
    assert "  rename Jonas NAME  correct Jonas's name" in _said(t, out, "help")
    assert t.session.journal.events[-1] == {"type": "rename", "player": 1, "name": "Jonas"}
    # a resumed table and a replay read it: the new name from that line on
    path = tmp_path / "g.jsonl"
    with Journal(str(path)) as journal:
        for event in t.session.journal.events:
            journal.append(dict(event))
    with Journal.resume(str(path)) as journal:
        assert Session.resume(journal).names == ["Maria", "Jonas", "Leonie", "Tariq", "Sofia",
                                                 "Ömer"]


def test_the_finish_pile_the_scoring_and_replay_name_the_renamed_player(capsys, tmp_path):
    from camelhost.table.journal import Journal
    t, out = _table("second", ["Ann", "Bne", "Cy"], "draw", "leg red")
    before = out.getvalue()
    for line in ("rename Bne Ben", "lose blue", "blue 1", "green 1", "yellow 1", "red 1",
                 "purple 1"):
        t.line(line)
    after = out.getvalue()[len(before):]
    assert "Bne is called Ben from now on" in after
    assert "Ben plays a finish card face down on the overall-loser pile" in after
    scored = after.split("LEG 1 SCORED", 1)[1]
    assert "Ben" in scored and "Bne" not in after.split("from now on", 1)[1]
    path = tmp_path / "g.jsonl"
    with Journal(str(path)) as journal:
        for event in t.session.journal.events:
            journal.append(dict(event))
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 0
    replay = capsys.readouterr().out
    assert "players Ann, Bne, Cy" in replay  # the game as it started
    assert "Bne" not in replay.split("Bne is called Ben from now on", 1)[1]
    assert "LEG 1 SCORED" in replay


@pytest.mark.parametrize("typed, refusal", [
    ("rename Jonas Maria", "rename Jonas Maria: Maria is already a player's name; the names "
                           "must differ"),
    ("rename Jonas maria", "rename Jonas maria: Maria is already a player's name; the names "
                           "must differ"),
    ("rename Jonas Jonas", "rename: Jonas is already called so"),
    ("rename Jonas Jo,nas", "rename Jonas Jo,nas: a name holds no comma (commas separate the "
                            "names of --players)"),
    ("rename Jonas", "rename: check the form: rename <old name> <new name>; the player's "
                     "name, then the new one (players: Maria, Jonas, Leonie)"),
    ("rename Jonsa Jonas", "no player called 'Jonsa' (players: Maria, Jonas, Leonie); did you "
                           "mean Jonas?"),
])
def test_a_rename_that_breaks_the_name_rules_is_refused_unchanged(typed, refusal):
    t, out = _table("second", ["Maria", "Jonas", "Leonie"], "draw")
    assert _reply(t, out, typed) == refusal
    assert t.session.names == ["Maria", "Jonas", "Leonie"]


def test_rename_takes_names_with_spaces_and_a_change_of_letter_case():
    t, out = _table("second", ["Ann Marie", "jonas", "Cy"], "draw")
    assert _said(t, out, "rename Ann Marie Anne Marie").startswith(
        "Ann Marie is called Anne Marie from now on\n")
    assert _said(t, out, "rename jonas Jonas").startswith("jonas is called Jonas from now on")
    assert t.session.names == ["Anne Marie", "Jonas", "Cy"]


def test_rename_in_german(german):
    t, out = _table("second", ["Maria", "Jonsa", "Leonie"], "draw")
    assert _said(t, out, "rename Jonsa Jonas").startswith("Jonsa heißt ab jetzt Jonas\n")
    assert _reply(t, out, "rename Jonas Maria") == ("rename Jonas Maria: Maria ist schon der "
                                                   "Name eines Spielers; die Namen müssen sich "
                                                   "unterscheiden")


def test_help_gives_its_examples_with_the_tables_players(german):
    t, out = _table("second", ["Maria", "Jonas", "Leonie", "Tariq", "Sofia"], "draw")
    shown = _said(t, out, "help")
    assert "  partner Jonas      Partnerschaft mit Jonas (Zweitausgabe, 6-8 Spieler)\n" in shown
    assert "  rename Jonas NAME  den Namen von Jonas berichtigen" in shown
    assert "Ben" not in shown


# --- finding 8: wording a player trusts -------------------------------------------


class _UntouchedPyramid:
    """A virtual pyramid whose slider is never pushed in these tests."""

    def release(self, *args, **kwargs):
        raise AssertionError("no release expected")

    def return_dice(self, *args, **kwargs):
        raise AssertionError("no return expected")


def test_a_die_typed_at_the_virtual_pyramid_names_its_slider_command(german):
    t, out = _table("second", ["Ann", "Ben", "Cy"], "draw", pyramid=_UntouchedPyramid())
    assert _reply(t, out, "red 2") == ("red 2: ein Würfel, getippt während Ann am Zug ist: "
                                       "tippe erst 'pyramid' oder 'release' (der Schieber der "
                                       "virtuellen Pyramide)")
    from camelhost.i18n import set_language
    set_language("en")
    assert _reply(t, out, "red 2") == ("red 2: a die typed on Ann's turn: type 'pyramid' "
                                       "first, or 'release' (the virtual pyramid's slider)")


FLOOR = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg blue", "leg red",
         "leg red", "leg green", "purple 3", "yellow 3", "leg blue", "red 3", "grey white 1",
         "leg green"]


def test_the_zero_floor_says_the_coin_it_forgave(german):
    t, out = _table("second", ["Ann", "Ben", "Cy"], *FLOOR)
    said = _said(t, out, "green 1")
    assert ("  Ann: Wettplättchen blau 5: -1, Wettplättchen grün 5: -1, Wettplättchen blau "
            "3: -1, Wettplättchen grün 3: -1 => netto -4, 3 -> 0 (1 EP erlassen: niemand fällt "
            "unter 0, RULES 1.9)\n") in said, said
    assert "=> netto +2, 3 -> 5\n" in said  # paid in full: nothing said


def test_the_zero_floor_in_english():
    t, out = _table("second", ["Ann", "Ben", "Cy"], *FLOOR)
    assert ("=> net -4, 3 -> 0 (1 coin forgiven: nobody goes below 0, RULES 1.9)\n"
            in _said(t, out, "green 1"))


def test_setup_after_camels_placed_by_their_dice_says_what_is_really_wrong():
    t, out = _table("classic", ["Ann", "Ben"], "red 2", "blue 1")
    assert _reply(t, out, "setup 1:blue") == (
        "setup types the whole board at once, but blue is already placed by its die: go on "
        "with the dice, or undo it first")
    t.line("green 2")
    assert _reply(t, out, "setup 1:blue,green 2:orange 3:yellow,white") == (
        "setup types the whole board at once, but blue and green are already placed by their "
        "dice: go on with the dice, or undo them first")


def test_show_counts_pyramid_tickets_as_tickets(german):
    t, out = _table("second", ["Maria", "Jonas", "Leonie"], "draw", "pyramid", "red 2")
    shown = _said(t, out, "show")
    assert "Pyramidenplättchen übrig: 4\n" in shown
    assert "Maria: 3 EP; keine Wettplättchen; 1 Pyramidenplättchen; " in shown
    from camelhost.i18n import set_language
    set_language("en")
    shown = _said(t, out, "show")
    assert "Pyramid tickets left: 4\n" in shown
    assert "Maria: 3 coins; no leg tickets; 1 pyramid ticket; 0 finish cards played" in shown


def test_a_classic_game_takes_the_second_editions_tile_words_as_the_docs_say():
    t, out = _table("classic", ["Ann", "Ben"], "draw")
    assert _said(t, out, "cheer 6").startswith("Ann places the tile on space 6, oasis side up\n")
    here = os.path.dirname(__file__)
    with open(os.path.join(here, "..", "docs", "table.md"), encoding="utf-8") as f:
        docs = " ".join(f.read().split())
    assert "in either edition (`cheer 6` in a classic game" in docs


# --- finding 3: every finish card typed in view at a terminal ----------------------


def test_a_first_finish_card_typed_in_view_at_a_terminal_is_refused_the_same_for_any_colour(
        german):
    t, out = _table("second", ["Ann", "Ben", "Cy"], "draw")
    t.watched = True  # a terminal people read, as pyramid play sets it
    said = {_reply(t, out, "win %s" % colour) for colour in ("rot", "blau", "lila")}
    assert said == {"Ann: eine Wettkarte wird verdeckt gelegt, darum wird eine offen mit "
                    "ihrer Farbe getippte Karte nicht gespielt; tippe 'win' allein, dann die "
                    "Farbe (wird nicht gezeigt) (RULES 1.8)"}
    assert t.session.game.pile("winner") == []
    t.line("win")
    assert _said(t, out, "rot").startswith("Ann legt eine Wettkarte verdeckt auf den Stapel")
    assert t.session.game.pile("winner") == [(0, "red")]


def test_a_script_still_lays_its_first_card_as_typed():
    t, out = _table("second", ["Ann", "Ben", "Cy"], "draw", "win red")
    assert t.session.game.pile("winner") == [(0, "red")]


def test_a_resume_with_other_names_points_to_rename(tmp_path, capsys):
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    path = tmp_path / "g.jsonl"
    with Journal(str(path), pyramid="manual") as journal:
        Session("second", ["Maria", "Jonsa", "Leonie"], seed=3, journal=journal).command("draw")
    before = path.read_bytes()
    assert cli.main(["play", "--plain", "--resume", str(path), "--players",
                     "Maria,Jonas,Leonie"]) != 0
    assert capsys.readouterr().err == (
        "pyramid: --players Maria,Jonas,Leonie conflicts with the journal's players "
        "(Maria,Jonsa,Leonie): leave it out with --resume (a name is corrected at the table: "
        "rename OLD NEW)\n")
    assert path.read_bytes() == before
