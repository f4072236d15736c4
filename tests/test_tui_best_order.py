"""QA: the full screen's 'Best for' list was in a fixed order (best action last);
it lists the best first, as plain mode's ``best`` does."""

import re

from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.odds_view import odds_lines

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _best_values(players, commands):
    s = Session("second", players, seed=3)
    for line in [SETUP] + commands:
        s.command(line)
    view = table_view(s, odds=True)
    text = str(odds_lines(view["odds"], view, width=120))
    best = text.split("Best for", 1)[1].split("\n", 1)[0]
    return [float(v) for v in re.findall(r" ([+-]\d+\.\d\d)(?:;|$)", best)]


def test_full_screen_best_for_lists_the_best_action_first():
    for players, commands in ((["Ann", "Ben", "Cy"], []),
                              (["Ann", "Ben", "Cy"], ["leg blue", "leg blue"]),
                              (["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"], ["leg red"])):
        values = _best_values(players, commands)
        assert len(values) >= 3, values
        assert values == sorted(values, reverse=True), values
