"""The finish cards' value "now": the ``pyramid odds`` command the table's ``position``
prints to paste gives the table's own figures for the same position (tester s37tp
finding 5: the table read the cards on the piles from who laid which pile and when, the
pasted odds took each hidden card as a colour by that colour's chance, and a person
checking the coach's figure got another one). The line carries the table's reading of
the piles (``--read``) and its race odds' seed and count."""

import re
import shlex

from camelhost.cli import main
from camelhost.i18n import set_language
from camelhost.table.narration import best_lines, position_line
from camelhost.table.view import signed, table_view
from seeded_race import PILES, played


def _session():
    """Leg 5, Ann to act: one card on the winner pile, three on the loser pile."""
    return played(PILES)


def _pasted(session, capsys):
    """What the ``pyramid odds`` command of ``position`` prints, run as pasted."""
    command = position_line(session).splitlines()[-1]
    words = shlex.split(command)
    assert words[:2] == ["pyramid", "odds"], command
    assert main(words[1:] + ["--top", "0"]) == 0
    return capsys.readouterr().out


def test_the_pasted_odds_value_the_finish_cards_as_the_table_does(capsys):
    s = _session()
    assert s.game.turn == 0 and len(s.game.pile("loser")) == 3
    view = table_view(s, odds=True)
    cards = [v for v in view["odds"]["actions"]["values"] if v["kind"] == "finish"]
    assert sorted(v["pile"] for v in cards) == ["loser", "winner"]
    out = _pasted(s, capsys)
    for card in cards:
        word = "win" if card["pile"] == "winner" else "lose"
        rows = [line for line in out.splitlines()
                if re.match(r"\s+\d+\. %s \w+ " % word, line)]
        assert len(rows) == 5, out
        # the table's figure is the figure of one of the colours the odds list
        figures = [re.search(r": ([-+][0-9.]+) \(", row).group(1) for row in rows]
        assert signed(card["ev"]) in figures, (card, rows)
    assert "the table's figures" in out and "count by number only" not in out


def test_a_reading_that_is_no_camel_or_too_many_cards_is_refused_in_one_line(capsys):
    s = _session()
    text = position_line(s).splitlines()[0].split(" ", 1)[1]
    assert main(["odds", text, "--read", "loser pink 1"]) == 2
    err = capsys.readouterr().err
    assert "--read: pink is no racing camel" in err and err.count("\n") == 1
    assert main(["odds", text, "--read", "loser blue 2, green 2"]) == 2
    err = capsys.readouterr().err
    assert "4 cards read on the loser pile, which holds 3" in err, err


def test_a_finish_card_says_which_camel_its_figure_is_for_and_following_it_gets_it(capsys):
    # tester s37tp finding 7: 'lose ... (now +1.35)' and nothing said which colour earns
    # it. The advice names the camel by its place in the race odds shown beside it, never
    # by its colour; the colour at that place, laid, is worth the figure shown.
    s = _session()
    view = table_view(s, odds=True)
    lines = best_lines(view)
    out = _pasted(s, capsys)
    race = view["odds"]["race"]
    cards = [v for v in view["odds"]["actions"]["values"] if v["kind"] == "finish"]
    loser = [v for v in cards if v["pile"] == "loser"][0]
    assert loser["place"] == 2  # the coach's card here is not the likeliest last camel
    assert ("a finish card on the loser pile, its colour chosen unseen, for the camel at "
            "place 2 of the overall loser odds (type 'lose')") in lines[0], lines[0]
    assert "its figures are for the camel named by its place in the race odds" in lines[-1]
    for card in cards:
        assert card["text"].count("for the camel") == 1, card["text"]  # the web page's
        # the player reads the camel at that place off the odds and lays that colour
        colour = sorted(race[card["pile"]], key=lambda r: -r["p"])[card["place"] - 1]["colour"]
        word = "win" if card["pile"] == "winner" else "lose"
        row = [line for line in out.splitlines() if ". %s %s " % (word, colour) in line]
        assert len(row) == 1 and ": %s (" % signed(card["ev"]) in row[0], (card, row)
    # no colour is named in the advice
    for name in ("yellow", "green", "purple", "red", "blue"):
        assert name not in lines[0] and name not in loser["text"]


def test_the_camel_is_named_in_german_too():
    set_language("de")
    try:
        lines = best_lines(table_view(_session(), odds=True))
    finally:
        set_language("en")
    assert "für Platz 2 der Chancen Gesamtverlierer (tippe 'lose')" in lines[0]
