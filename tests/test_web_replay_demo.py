"""The replay of a whole seeded eight-seat demo (``pyramid demo --seats 8``: the second
edition, the bots' partnerships, three-letter names) step by step at 1280x720 and
1024x768, in the real headless browser: at no step is the page taller than the screen,
is anything a player reads off it, or lies the replay's control bar over it.

Tester s44's English demo (seed 44, 162 steps) had 4 steps whose players' cards (three
tickets and a partner each, under a three-line last die) ended 1-17 px under the bar's
top at 1280x720, and 22 steps 769-794 px tall at 1024x768: the bar was a row across the
page under the tallest column. The journal here is that demo's, played again from its
seed (``pyramid demo`` plays the same game for the same ``--seed``); every view is the
replay's own (``camelhost.web.replay.Replay``), its odds and advice from a smaller
seeded sample (``test_web_layout.view_of``)."""

import pytest
from camelhost import cli
from camelhost.table.journal import read_events
from camelhost.web.replay import Replay
from test_web_layout import (  # noqa: F401  (tab: the module's browser page, a fixture)
    SMALL_LAPTOP,
    TV,
    Shown,
    boxes_of,
    extent,
    inside,
    publish,
    resize,
    tab,
    under_the_bar,
    view_of,
)
from test_web_tv_game import NEEDED as ON_A_TV

pytestmark = [pytest.mark.xdist_group("web_browser"), pytest.mark.process]

#: What a player reads during a replay's race, the leg scorings and its end (a whole game
#: on a TV's, and the advice's note): each on the screen and clear of the control bar
#: wherever the page shows it
NEEDED = ON_A_TV + ("#best-note",)


class Kept:
    """A board that keeps the view a ``Replay`` publishes (``view``), for the test to
    publish on the page's board and wait until the page drew it."""

    view = None

    def publish(self, view):
        self.view = view


def misfits(page, step):
    """Where the page showing a replay's ``step`` does not fit a TV's or a small laptop's
    screen: a list of (step, (width, height) in px, what, ...), empty when all fits.
    The page is measured first at the size it stands at (the step drawn there, as a
    page showing the replay draws it), then resized to the other: one resize a step;
    each size's boxes asked of the page at once (``boxes_of``)."""
    wrong = []
    sizes = (TV, SMALL_LAPTOP)
    if page.viewport_size != {"width": TV[0], "height": TV[1]}:
        sizes = sizes[::-1]
    for size in sizes:
        resize(page, size)
        width, height = extent(page)
        if width > size[0] or height > size[1]:
            wrong.append((step, size, "page", width, height))
        measured = boxes_of(page, ("#replay",) + NEEDED)
        bar = measured.pop("#replay")
        assert len(bar) == 1 and inside(bar[0], size), (step, size, bar)
        found = [(s, b) for s in NEEDED for b in measured[s]]
        wrong += [(step, size, "off the screen", s, b) for s, b in found
                  if not inside(b, size)]
        wrong += [(step, size, "under the bar", b)
                  for b in under_the_bar(page, [b for _s, b in found], bar)]
    return wrong


def replay_misfits(tab, tmp_path, seed, lang, steps, shown):  # noqa: F811
    """The misfits (``misfits``) of the replay of ``pyramid demo --seats 8 --seed seed``
    in ``lang`` at each step ``shown(steps)`` gives (``steps``: the replay's count)."""
    from camelhost.i18n import set_language
    journal = str(tmp_path / "demo8.jsonl")
    try:
        assert cli.main(["demo", "--seats", "8", "--seed", str(seed), "--lang", "en", "--quiet",
                         "--journal", journal]) == 0
        set_language(lang)
        replay = Replay(Kept(), read_events(journal), view=view_of)
        assert replay.steps == steps
        replay.show()
        wrong = []
        with Shown(tab, replay.board.view, TV) as page:
            for step in shown(steps):
                replay.step = step
                replay.show()
                publish(page, replay.board.view)
                wrong += misfits(page, step)
            assert page.problems == []
        return wrong
    finally:
        set_language("en")


def test_every_step_of_an_eight_seat_demos_replay_fits_a_tv_and_a_small_laptop(tab, tmp_path):  # noqa: F811
    assert replay_misfits(tab, tmp_path, 44, "en", 162, lambda n: range(n + 1)) == []


def test_a_german_eight_seat_replays_last_leg_end_fits_a_tv(tab, tmp_path):  # noqa: F811
    """Tester s45b finding 5: seed 5's German replay (206 steps) stood 724 and 728 px tall
    at 1280x720 at steps 202 and 203, the players' cards under the screen's foot in the
    TV's last column set. Only the race's last steps are shown (the suite stays lean)."""
    assert replay_misfits(tab, tmp_path, 5, "de", 206, lambda n: range(n - 5, n + 1)) == []
