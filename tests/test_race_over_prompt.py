"""Plain mode's prompt after the race names both ways on, 'again' and 'quit' (before, it
named 'again' only while every refusal then named both), in the short form of the words
the refusals say (``narration.after_race``), in English and German."""

import pytest
from camelhost.i18n import set_language
from typed_table import ended_table, refusal


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    set_language("en")


_ended = ended_table


@pytest.mark.parametrize("lang, end, prompt, refused", [
    ("en", "over", "> race over: 'again' for another race, 'quit' to leave",
     "the race is over: 'again' starts another race with the same seats, 'quit' leaves "
     "the table"),
    ("en", "unscored", "> race ended unscored: 'again' for another race, 'quit' to leave",
     "the race was ended unscored: 'again' starts another race, 'quit' leaves the table"),
    ("de", "over", "> Rennen vorbei: 'again' für ein neues Rennen, 'quit' zum Verlassen",
     "das Rennen ist vorbei: 'again' startet ein neues Rennen mit denselben Plätzen, "
     "'quit' verlässt den Tisch"),
    ("de", "unscored",
     "> Rennen ohne Wertung beendet: 'again' für ein neues Rennen, 'quit' zum Verlassen",
     "das Rennen wurde ohne Wertung beendet: 'again' startet ein neues Rennen, 'quit' "
     "verlässt den Tisch"),
])
def test_the_prompt_after_the_race_names_again_and_quit(lang, end, prompt, refused):
    table, out = _ended(lang, end)
    assert out.getvalue().splitlines()[-1] == prompt  # what the table waits for, last
    version = table.session.version
    assert refusal(table, out, "leg red") == refused  # the long form, unchanged
    assert table.session.version == version and table.session.phase == end
