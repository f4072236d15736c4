"""German word order and words on the plain screen (tester s42 German findings): the
distance before the direction ("zieht 2 Felder vorwärts", not "zieht vorwärts 2
Felder"), a resume line that does not start with a lower-case participle, and the tiles
a new leg returns named for each edition (no vague "andere Plättchen")."""

import pytest
from camelhost.i18n import set_language
from typed_table import typed_table

SECOND_SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
#: A second-edition leg (a grey die moving a crazy camel backward; ended by the fifth
#: die, yellow 2), then the next leg's first die (purple 1, a single space).
SECOND_LEG = [SECOND_SETUP, "pyramid", "blue 2", "pyramid", "grey black 1", "pyramid",
              "red 1", "pyramid", "green 3", "pyramid", "yellow 2", "pyramid", "purple 1"]
CLASSIC_SETUP = "setup 1:blue,green 2:orange 3:yellow,white"
CLASSIC_LEG = [CLASSIC_SETUP, "pyramid", "blue 2", "pyramid", "green 1", "pyramid",
               "orange 3", "pyramid", "yellow 1", "pyramid", "white 2"]


@pytest.fixture
def german():
    set_language("de")
    yield
    set_language("en")


def _said(edition, lines, players=("Ann", "Ben", "Cy")):
    table, out = typed_table(edition, players, *lines, seed=4)
    return out.getvalue()


def test_a_die_line_says_the_distance_before_the_direction(german):
    said = _said("second", SECOND_LEG)
    assert "das Kamel blau zieht 2 Felder vorwärts" in said
    assert "das Kamel lila zieht 1 Feld vorwärts" in said
    assert "das Kamel schwarz (die Farbe der Ziffer) zieht 1 Feld rückwärts\n" in said
    assert "zieht vorwärts" not in said and "zieht rückwärts" not in said


def test_a_new_second_edition_leg_names_the_spectator_tiles_it_returns(german):
    said = _said("second", SECOND_LEG)
    assert ("Neue Etappe: alle Würfel wieder in der Pyramide (blau, grün, gelb, rot, lila, "
            "grau); Wett-, Pyramiden- und Zuschauerplättchen zurückgegeben") in said
    assert "andere Plättchen" not in said and "Würfel zurück in" not in said


def test_a_new_classic_leg_names_the_desert_tiles_it_returns(german):
    said = _said("classic", CLASSIC_LEG)
    assert "; Wett-, Pyramiden- und Wüstenplättchen zurückgegeben" in said
    assert "andere Plättchen" not in said and "Zuschauer" not in said


def test_the_undo_of_a_leg_end_names_the_tiles_it_returns(german):
    said = _said("second", SECOND_LEG[:-2] + ["undo"])  # right after the leg's last die
    assert ("(ihre EP und die zurückgegebenen Wett-, Pyramiden- und Zuschauerplättchen)"
            in said)
    said = _said("classic", CLASSIC_LEG + ["undo"])
    assert "(ihre EP und die zurückgegebenen Wett-, Pyramiden- und Wüstenplättchen)" in said


def _table(monkeypatch, capsys, lines, *argv):
    from camelhost import cli
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in lines))
    rc = cli.main(["play", "--plain"] + list(argv))
    out = capsys.readouterr()
    assert rc == 0, out.err
    return out.out.splitlines()


def test_a_german_resume_names_the_journal_first_and_the_last_die_in_german_order(
        tmp_path, monkeypatch, capsys, german):
    path = str(tmp_path / "de.jsonl")
    _table(monkeypatch, capsys, [SECOND_SETUP, "pyramid", "blue 1"], "--players",
           "Ann,Ben,Cy", "--journal", path, "--seed", "3", "--lang", "de")
    out = _table(monkeypatch, capsys, ["quit"], "--resume", path)
    assert "%s fortgesetzt: 3 Ereignisse wiederhergestellt (Rennen 1, Etappe 1)" % path in out
    assert ("Letzter Würfel: blau 1 (Ann): Kamel blau 1 Feld vorwärts, von Feld 1 auf 2"
            in out), out


def test_an_undo_and_a_redo_line_start_with_a_capital_like_a_german_sentence(german):
    # "zurückgenommen: ..." opened the line with a lower-case participle, as the resume
    # line did
    said = _said("second", [SECOND_SETUP, "leg red", "undo", "redo"]).splitlines()
    assert "Zurückgenommen: das Wettplättchen rot von Ann" in said
    assert "Wiederhergestellt: das Wettplättchen rot von Ann" in said
    assert not [line for line in said if line.startswith(("zurückgenommen", "wieder"))]


def test_an_undone_die_puts_the_separable_zurueck_at_the_end(german):
    # "setze das Kamel blau zurück auf Feld 1" put the verb's prefix before its place
    said = _said("second", [SECOND_SETUP, "pyramid", "blue 2", "undo"])
    assert ("Zurückgenommen: das Pyramidenplättchen von Ann mit seinem Würfel blau 2; setze "
            "das Kamel blau, das grün trägt, auf Feld 1 zurück; lege den Würfel blau in die "
            "Pyramide zurück (oder tippe 'redo', um blau 2 zu behalten)") in said


def test_a_new_leg_with_a_reporting_pyramid_says_to_put_the_dice_back_in_german(german):
    # the infinitive keeps the separable verb whole: "in die Pyramide zurücklegen"
    from test_table_setup_pyramid import _Board, _to_leg_two
    said = _to_leg_two(_Board())
    assert [line for line in said if line.startswith(
        "Neue Etappe: alle Würfel in die Pyramide zurücklegen (")], said
    assert [line for line in said if line.endswith(
        "; Wett-, Pyramiden- und Zuschauerplättchen zurückgegeben")], said
