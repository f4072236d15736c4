"""German: a leg ticket is a Wettplättchen wherever the table names one (tester s39
finding 11). The leg scoring said `gelb 5 Plättchen -1`, the word of a spectator tile,
while the same table said `Wettplättchen rot` elsewhere; the full screen's scoring row
of a player without tickets said `keine Plättchen`."""


import pytest
from camelhost.i18n import _, set_language
from typed_table import typed_table

#: a leg typed at the table: Ann takes the red leg ticket, then dice until it is scored
LEG = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg red", "pyramid",
       "blue 2", "pyramid", "red 1", "pyramid", "green 3", "pyramid", "yellow 2", "pyramid",
       "purple 1", "pyramid", "grey black 1"]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def test_the_german_leg_scoring_calls_a_leg_ticket_wettplaettchen():
    set_language("de")
    _table, out = typed_table("second", ["Ann", "Ben", "Cy"], *LEG, seed=4)
    lines = out.getvalue().splitlines()
    at = [i for i, line in enumerate(lines) if line.startswith("ETAPPENWERTUNG 1")]
    assert at, lines
    ann = lines[at[0] + 1]
    # the ticket named first, then what it paid (s43 German finding 2: 'rot 5
    # Wettplättchen -1' read as English word order)
    assert ann.startswith("  Ann: Wettplättchen rot 5: -1, Pyramidenplättchen: +1"), ann
    assert " Plättchen" not in ann and "rot 5 Wettplättchen" not in ann


def test_the_full_screens_row_without_tickets_says_nothing_was_paid_as_the_plain_row_does():
    # the row is empty when the player holds neither a leg nor a pyramid ticket: never
    # 'keine Wettplättchen' (a pyramid ticket is none; tester s44, 6) nor the spectator
    # tile's bare 'Plättchen'; 'nichts', as the plain mode's leg scoring says it, keeps
    # the row on one line in the leg-scoring panel at 80x24 (the longer 'keine Wett-
    # oder Pyramidenplättchen' wrapped three of four rows at the race's end)
    set_language("de")
    assert _(" no tickets") == " nichts" and _("nothing") == "nichts"


def test_pyramid_play_in_german_names_the_leg_ticket_before_what_it_paid(tmp_path, monkeypatch,
                                                                         capsys):
    # s43 German finding 2: 'rot 5 Wettplättchen -1' (English order); through the command
    from camelhost import cli
    monkeypatch.setattr("sys.stdin", iter(line + "\n" for line in LEG + ["quit"]))
    rc = cli.main(["play", "--plain", "--lang", "de", "--players", "Ann,Ben,Cy", "--pyramid",
                   "manual", "--seed", "4", "--journal", str(tmp_path / "g.jsonl")])
    out = capsys.readouterr().out
    assert rc == 0
    assert "\n  Ann: Wettplättchen rot 5: -1, Pyramidenplättchen: +1" in out, out
    assert "Wettplättchen -1" not in out and "Wettplättchen +" not in out
