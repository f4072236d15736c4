"""Snapshots of the full screen (pytest-textual-snapshot): each scene is typed in
through the command line from a seeded table, the odds worker is waited for, and
the screen must match the stored SVG in ``__snapshots__`` (update with
``pytest --snapshot-update`` after looking at the new picture).

Scenes (RULES 5): the second edition mid-leg at 120x40 and 80x24, a leg just
scored (its panel), the race over (final order, the winner, the final ranking with
what the finish cards paid, piles revealed in play order; also at 80x24 with five
cards on each pile), six players with partnerships, the classic edition mid-leg on the
light screen, and the finish-card picker open; in German too: the size notice, six long
names, eight players mid-leg and the race over at 80x24.
"""

import pytest
import tui_scenes as scenes

pytestmark = pytest.mark.screen  # the full screen driven through Textual's Pilot

P4 = ["Ann", "Ben", "Cy", "Dee"]


def _steps(lines, then=None, real_last=True):
    """Type ``lines`` (the last position's odds the table's own when ``real_last``: the
    snapshot shows them; the app's are ``scenes.quick_odds``), then ``then(pilot)``."""
    async def run_before(pilot):
        if real_last:
            await scenes.type_lines_real_last(pilot, lines)
        else:
            await scenes.type_lines(pilot, lines)
        if then is not None:
            await then(pilot)
        await scenes.settle(pilot)
    return run_before


def test_second_edition_mid_leg_120x40(snap_compare):
    assert snap_compare(scenes.app_for("second", P4), terminal_size=(120, 40),
                        run_before=_steps(scenes.SECOND_MID_LEG))


def test_second_edition_mid_leg_80x24(snap_compare):
    assert snap_compare(scenes.app_for("second", P4), terminal_size=(80, 24),
                        run_before=_steps(scenes.SECOND_MID_LEG))


def test_leg_scored_panel(snap_compare):
    assert snap_compare(scenes.app_for("second", P4), terminal_size=(100, 32),
                        run_before=_steps(scenes.SECOND_LEG_SCORED))


def test_race_over_screen(snap_compare):
    assert snap_compare(scenes.app_for("second", P4), terminal_size=(100, 32),
                        run_before=_steps([scenes.SECOND_SETUP, "win purple", "lose red"],
                                          scenes.play_race_out, real_last=False))


def test_race_over_ten_finish_cards_80x24(snap_compare):
    assert snap_compare(scenes.app_for("second", P4, seed=11), terminal_size=(80, 24),
                        run_before=_steps([scenes.SECOND_SETUP] + scenes.FINISH_CARDS_4,
                                          scenes.play_race_out, real_last=False))


def test_six_players_with_partnerships(snap_compare):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]
    assert snap_compare(scenes.app_for("second", players), terminal_size=(120, 40),
                        run_before=_steps(scenes.SIX_PARTNERS))


def test_classic_mid_leg_light_screen(snap_compare):
    assert snap_compare(scenes.app_for("classic", ["Ann", "Ben", "Cy"], theme="light"),
                        terminal_size=(80, 24), run_before=_steps(scenes.CLASSIC_MID_LEG))


def test_finish_card_picker_open(snap_compare):
    assert snap_compare(scenes.app_for("second", P4), terminal_size=(80, 24),
                        run_before=_steps(scenes.SECOND_MID_LEG[:4], _open_picker))


async def _open_picker(pilot):
    await scenes.type_line(pilot, "win")


#: Six players with long names, in partnerships, each holding leg tickets (issue 30:
#: at 80x24 every ticket stays in view, none cut to ``&Be...``).
LONG6 = ["Annabelle-Marguerite Xu", "Bartholomew Fitzwilliam", "Cyrano de Bergerac Jr",
         "Dee", "Evangeline Oduya-Smith", "Florentyna Kowalczyk"]
LONG6_LINES = scenes.SIX_PARTNERS + ["leg red", "leg yellow", "leg blue", "pyramid", "red 1"]


def test_a_terminal_below_80x24_says_the_size_it_needs(snap_compare):
    assert snap_compare(scenes.app_for("second", P4), terminal_size=(60, 20),
                        run_before=_steps(scenes.SECOND_MID_LEG, real_last=False))


def test_six_long_names_in_partnerships_keep_every_ticket_in_view_at_80x24(snap_compare):
    assert snap_compare(scenes.app_for("second", LONG6), terminal_size=(80, 24),
                        run_before=_steps(LONG6_LINES))


def test_a_terminal_below_80x24_says_the_size_it_needs_in_german(snap_compare):
    from camelhost.i18n import set_language
    set_language("de")
    assert snap_compare(scenes.app_for("second", P4), terminal_size=(60, 20),
                        run_before=_steps(scenes.SECOND_MID_LEG, real_last=False))


def test_six_long_names_keep_every_ticket_in_view_at_80x24_in_german(snap_compare):
    from camelhost.i18n import set_language
    set_language("de")
    assert snap_compare(scenes.app_for("second", LONG6), terminal_size=(80, 24),
                        run_before=_steps(LONG6_LINES))


#: Eight players, each with a leg ticket (issue 30: the German headings fit 80x24).
P8 = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
P8_LINES = [scenes.SECOND_SETUP, "leg green", "leg blue", "leg red", "leg yellow",
            "leg purple", "leg green", "blue 3", "leg blue", "leg red"]


def test_eight_players_at_80x24_in_german(snap_compare):
    from camelhost.i18n import set_language
    set_language("de")
    assert snap_compare(scenes.app_for("second", P8), terminal_size=(80, 24),
                        run_before=_steps(P8_LINES))


def test_race_over_ten_finish_cards_80x24_in_german(snap_compare):
    from camelhost.i18n import set_language
    set_language("de")
    assert snap_compare(scenes.app_for("second", P4, seed=11), terminal_size=(80, 24),
                        run_before=_steps([scenes.SECOND_SETUP] + scenes.FINISH_CARDS_4,
                                          scenes.play_race_out, real_last=False))
