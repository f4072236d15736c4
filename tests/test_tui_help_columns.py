"""The F1 help reads the odds panel's and the players table's columns (tester s41
finding 4: F1 listed the commands, keys and ticket letters but not what ``1st 2nd
last win± lose± ticket left`` or ``coin pyr card now`` hold, ``+2.35`` under
``ticket`` or the ``±``; only docs/screen.md said it). Each column is named by the word
the 80-column screen heads it with, in the table's language."""

import pytest
import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.ui.odds_view import odds_heading
from camelhost.ui.panels import players_heading
from test_tui_help_speech import P3, _help_lines

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


@pytest.mark.parametrize("lang, heading, meanings", [
    ("en", "The odds panel's and the players table's columns:",
     {"1st 2nd last": "to be first, second or last when this leg ends",
      "win± lose±": "the whole race, ± the 95% interval",
      "ticket": "its top leg ticket and what it is worth, in coins",
      "left": "how many of its leg tickets are left",
      "coin pyr card": "coins, pyramid tickets and finish cards",
      "now": "if the leg ended now"}),
    ("de", "Die Spalten der Quoten und der Spielertabelle:",
     {"1. 2. Ltz.": "Erstes, Zweites oder Letztes",
      "Sieg± Verl±": "das ganze Rennen zu gewinnen oder zu verlieren",
      "Wette": "sein oberstes Wettplättchen",
      "Rest": "wie viele seiner Wettplättchen",
      "EP Pyr Kart": "Pyramidenplättchen und die Wettkarten",
      "jetzt": "wenn die Etappe jetzt endete"})])
def test_f1_says_what_each_column_of_the_odds_and_players_holds(lang, heading, meanings):
    set_language(lang)
    lines = _help_lines(scenes.app_for("second", P3, odds=scenes.no_odds))
    at = lines.index(heading)
    rows = {line[:21].strip(): line[21:] for line in lines[at + 1:at + 7]}
    assert set(rows) == set(meanings), rows
    for key, words in meanings.items():
        assert words in rows[key], (key, rows[key])
    # each key is the screen's own heading word, so the two never drift apart
    columns = odds_heading(False).split()[-7:]
    columns += [players_heading(k) for k in ("coin", "pyr", "card", "now")]
    assert sorted(" ".join(rows).split()) == sorted(columns)
