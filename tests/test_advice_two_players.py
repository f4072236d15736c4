"""The advice at two seats (s36 player tester finding 20): every balance line said "the
others' replies" while the note under it said "the other player"; at two seats there is
one reply, said so on the lines, in the note and on the web page's short note, in both
languages. At three seats and more the words stay "the others'"."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.session import Session
from camelhost.table.view import odds_view, table_view
from camelhost.web.server import with_advice_words
from typed_table import typed_table

CLASSIC = "setup 1:blue 2:green 3:orange,yellow,white"


def _best(players, lang):
    set_language(lang)
    try:
        table, out = typed_table("classic", players, CLASSIC)
        before = len(out.getvalue())
        table.line("best")
        return out.getvalue()[before:].splitlines()
    finally:
        set_language("en")


@pytest.mark.parametrize("lang, one, many", [
    ("en", "the other player's reply", "the others' replies"),
    ("de", "Antwort des anderen Spielers", "Antworten der anderen")])
def test_two_players_hear_of_one_reply_on_every_balance_line(lang, one, many):
    lines = _best(["Ann", "Ben"], lang)
    balances = [line for line in lines if one in line]
    assert len(balances) >= 3 and not [line for line in lines if many in line]
    lines = _best(["Ann", "Ben", "Cy"], lang)
    assert [line for line in lines if many in line] and not [line for line in lines
                                                           if one in line]


def _page_note(players):
    s = Session("classic", players, seed=4)
    s.command(CLASSIC)
    view = dict(table_view(s, odds=False), odds=odds_view(s, samples=300))
    return with_advice_words(view)["odds"]["actions"]["said_note"]


def test_the_web_pages_note_names_the_other_player_at_two_seats():
    assert _page_note(["Ann", "Ben"]) == ("(balance: now less the other player's gains; below "
                                          "zero costs you no coins)")
    assert _page_note(["Ann", "Ben", "Cy"]) == ("(balance: now less the others' gains; below "
                                                "zero costs you no coins)")
