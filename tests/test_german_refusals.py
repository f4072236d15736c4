"""s31 tester finding 9 (the wording, not the colour names): a German table's partner
refusal says what is wrong at a second-edition table (too few players, counted as the
help writes them), the open finish card's refusal says why it is refused, the coach's
partner line names no gender, and ``play --help --lang de`` has no English left in
``--journal``'s default and says plainly what ``--bots`` can't choose."""

import io

import pytest
from camelhost import cli
from camelhost.i18n import _, set_language
from camelhost.table.controller import Table
from camelhost.table.errors import TableError
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
FIVE = ["Anna", "Ben", "Cora", "Dirk", "Eva"]


def _refusal(lang, edition, names, typed):
    set_language(lang)
    s = Session(edition, names, seed=4, journal=Journal(None))
    s.command(SETUP if edition == "second" else "setup 1:blue 2:green 3:orange,yellow,white")
    before = len(s.journal.events)
    with pytest.raises(TableError) as info:
        s.command(typed)
    assert len(s.journal.events) == before  # nothing changed
    return str(info.value)


@pytest.mark.parametrize("lang,expected", [
    ("en", "partner Ben: partnerships need 6-8 players, and this game has 5 (RULES 3.8)"),
    ("de", "partner Ben: Partnerschaften brauchen 6-8 Spieler, und dieses Spiel hat 5 "
           "(RULES 3.8)"),
])
def test_a_partnership_at_five_seats_of_the_second_edition_names_the_player_count(lang,
                                                                                  expected):
    assert _refusal(lang, "second", FIVE, "partner Ben") == expected


def test_the_partnership_refusal_writes_the_counts_as_the_help_does():
    set_language("de")
    help_line = _("partnership with Ben (second edition, 6-8 players)")
    assert "6-8" in help_line
    classic = _refusal("de", "classic", FIVE + ["Finn"], "partner Ben")
    assert classic == ("partner Ben: Partnerschaften gibt es nur in der Zweitausgabe, mit 6-8 "
                       "Spielern (RULES 3.8)")
    assert _refusal("en", "classic", FIVE + ["Finn"], "partner Ben") == (
        "partner Ben: partnerships are played in the second edition only, with 6-8 players "
        "(RULES 3.8)")


def test_an_open_finish_card_refusal_says_why_in_german():
    set_language("de")
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    for line in (SETUP, "win", "green", "leg red", "leg red"):
        t.line(line)
    before = len(out.getvalue())
    t.line("win red")
    said = out.getvalue()[before:]
    assert said.startswith("! Ann hat schon eine Wettkarte verdeckt liegen, darum wird eine "
                           "offen mit ihrer Farbe getippte Karte nicht gespielt"), said
    assert "verraten, welche Farben verdeckt liegen" in said
    assert "wird nicht geprüft" not in said


def test_the_coachs_partner_line_names_no_gender_in_german():
    set_language("de")
    line = _("partner %(partner)s: %(worth)s (best of their tickets to copy)") % {
        "partner": "Ben", "worth": "gesamt -2,07"}
    # a partner copies a leg or a pyramid ticket (RULES 3.8; tester s44, 6)
    assert line == ("Partner Ben: gesamt -2,07 (das beste der mitnutzbaren Wett- oder "
                    "Pyramidenplättchen)")


def test_play_help_in_german_has_no_english_placeholder_and_a_plain_bots_line(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "--help", "--lang", "de"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "<time>" not in shown
    assert "benannt nach Datum und Uhrzeit des Spielbeginns, z. B. " \
           "journals/20260314-201500.jsonl" in shown
    assert "jeder Bot spielt hier die Strategie coach (nur --bots von pyramid tournament " \
           "wählt eine Strategie)" in shown
