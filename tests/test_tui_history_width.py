"""What a die leaves in the full screen's history at 80 columns, and the lines the table
says after it. After each die the table says which dice can still come out and how many
pyramid tickets are left; on one line that took 95 columns in English and 102 in German
(``Können noch herauskommen: ...; Pyramidenplättchen übrig: 4``), wrapped onto a second
row and, scrolled to, started the pane with a ``…`` row (tester s33 brief, item 4). They
are two lines, each within 80 columns, in both languages and both editions, as the plain
mode prints them. The full screen leaves them out of its history: its counts' rows show
both at every size, and at 80x24 the two lines repeated them word for word while they
pushed the die's own line out of a short pane (tester s33-2, finding 11)."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.i18n import colour_words, set_language
from camelhost.ui.tui import HistoryLog

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

P4 = ["Ann", "Ben", "Cy", "Dee"]

#: the dice-left line's and the tickets' line's start, by language
DICE_WORDS = {"en": ("Can still come out: ", "Pyramid tickets left: "),
              "de": ("Können noch herauskommen: ", "Pyramidenplättchen übrig: ")}


def _dice_and_tickets(log, lang):
    dice, tickets = DICE_WORDS[lang]
    one = dice.replace("Können", "Kann")
    return [line for line in log.history if line.startswith((dice, one, tickets))]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("edition, setup, dice", [
    # second edition: the five dice still inside that make the longest line (red out)
    ("second", scenes.SECOND_SETUP, ["red 1", "blue 1", "green 1"]),
    ("classic", scenes.CLASSIC_SETUP, ["orange 1", "blue 1", "green 1"]),
])
def test_the_dice_left_and_the_tickets_left_each_fit_a_row_at_80_columns(lang, edition, setup, dice):
    from camelhost.table.narration import notice_lines
    from camelhost.table.session import Session
    from camelhost.table.view import table_view

    set_language(lang)
    try:
        app = scenes.app_for(edition, P4)

        async def play():
            async with app.run_test(size=(80, 24)) as pilot:
                await scenes.type_lines(pilot, [setup] + dice)
                await scenes.settle(pilot)
                log = app.query_one("#log", HistoryLog)
                info = str(app.query_one("#info").render())
                return _dice_and_tickets(log, lang), info

        shown, info = asyncio.run(play())
        # the full screen: not in the history, in the counts' rows
        assert shown == [], shown
        assert DICE_WORDS[lang][0].split()[0] in info, info
        # the table's lines (the plain mode's): two a die, each within 80 columns
        s = Session(edition, P4, seed=2)
        said = []
        for line in [setup] + dice:
            notices = s.command(line)
            view = table_view(s, odds=False)
            said += [text for n in notices for text in notice_lines(n, view)
                     if text.startswith(DICE_WORDS[lang] + (DICE_WORDS[lang][0].replace(
                         "Können", "Kann"),))]
        assert len(said) == 2 * len(dice), said
        assert said[1::2] == ["%s%d" % (DICE_WORDS[lang][1], n) for n in (4, 3, 2)], said
        first = said[0]
        words = colour_words()
        inside = [c for c in (("blue", "green", "yellow", "purple", "grey") if edition == "second"
                              else ("blue", "green", "yellow", "white"))]
        assert all(words[c] in first for c in inside), first
        too_long = [line for line in said if len(line) > 80]
        assert too_long == [], too_long
    finally:
        set_language("en")
