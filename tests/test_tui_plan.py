"""The full screen's plan (``camelhost.ui.plan``) without a running app: what shows and
how tall each part is, for terminal sizes 60x20, 80x24 and 120x40, three to eight
players, long names and partnerships (RULES 5: everything the table needs in view, at
80x24 too; below it the screen says the size it needs)."""

import io

import pytest
import tui_scenes as scenes
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui import plan
from camelhost.ui.panels import (
    info_text,
    leaders_text,
    leg_score_text,
    players_text,
    race_over_text,
    track_rows,
)
from camelhost.ui.plain import PlainDisplay

P3 = ["Ann", "Ben", "Cy"]
P4 = ["Ann", "Ben", "Cy", "Dee"]
P5 = P4 + ["Eve"]
P6 = P4 + ["Eve", "Flo"]
LONG6 = ["Alexandria", "Bartholomew", "Christopher", "Dominique", "Evangeline", "Frederick"]
EIGHT = ["Augustine", "Beatrice", "Cornelius", "Desmond", "Evangeline", "Frederick",
         "Gwendolyn", "Harrison"]
#: Rows of a whole odds panel at 80 columns (the heading, five camels, overall winner
#: and loser, the best tile and two lines of advice, at most): what the real one takes
#: for six to eight players; the plan is given the text, whatever its figures.
ODDS_ROWS = 10


def _view(edition, names, lines):
    """The published view after ``lines`` typed at a plain table (no odds)."""
    session = Session(edition, names, seed=11, journal=Journal(None))
    table = Table(session, PlainDisplay(io.StringIO()), manual=True)
    table.start()
    for text in lines:
        table.line(text)
    return table_view(session, odds=False)


def _texts(view, width, odds_rows=ODDS_ROWS):
    """The parts' texts as the app puts them for ``view`` at ``width`` columns."""
    panel = plan.odds_width(view, width) - 2
    texts = {"players": players_text(view, plan.players_width(view, width)).plain,
             "info": info_text(view).plain,
             "odds": "\n".join("odds line %d" % i for i in range(odds_rows))}
    if view["leg_scored"] is not None:
        texts["legscore"] = leg_score_text(view["leg_scored"], width=panel).plain
    if view["final"] is not None:
        texts["raceover"] = race_over_text(view, panel).plain
    return texts


def _plan(view, size, **kw):
    kw.setdefault("banner", [leaders_text(view).plain])
    return plan.plan(view, size, _texts(view, size[0]), **kw)


TWO_TICKETS = [scenes.SECOND_SETUP, "leg green", "blue 3", "leg blue"]
PARTNERS_6 = [scenes.SECOND_SETUP, "leg green", "partner Dominique", "blue 3", "leg blue",
              "partner Frederick", "tile 8 -"]
PARTNERS_8 = [scenes.SECOND_SETUP, "leg green", "partner Desmond", "blue 3", "leg red",
              "partner Augustine", "leg green", "leg yellow", "leg blue"]

CASES = [  # (edition, names, lines)
    ("classic", P3, [scenes.CLASSIC_SETUP, "leg orange", "green 2"]),
    ("second", P4, scenes.SECOND_MID_LEG),
    ("second", P5, TWO_TICKETS),
    ("second", P6, scenes.SIX_PARTNERS),
    ("second", LONG6, PARTNERS_6),
    ("second", EIGHT, PARTNERS_8),
]


@pytest.mark.parametrize("edition, names, lines", CASES)
def test_below_80x24_the_plan_is_the_notice_alone(edition, names, lines):
    view = _view(edition, names, lines)
    for size in ((60, 20), (79, 24), (80, 23)):
        shown = _plan(view, size)
        assert shown.too_small
        assert not shown.track and shown.middle is None and shown.log is None
    assert "60x20" in plan.too_small_text(60, 20).plain
    assert "80x24" in plan.too_small_text(60, 20).plain


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("edition, names, lines", CASES)
def test_every_player_the_odds_whole_the_track_and_three_history_lines(
        edition, names, lines, size):
    view = _view(edition, names, lines)
    texts = _texts(view, size[0])
    shown = _plan(view, size)
    players = plan.text_rows(texts["players"], 0)
    assert not shown.too_small
    assert shown.middle >= players  # every player's row
    assert shown.middle >= ODDS_ROWS  # the odds whole
    assert shown.track and shown.track_used >= 3  # the numbers, the tiles, one camel row
    assert shown.log >= plan.LOG_MIN, shown
    assert shown.odds_width == (46 if size[0] < 110 else 64)
    assert shown.players_width == size[0] - shown.odds_width - 1
    assert not shown.hint and shown.panel_rows is None


@pytest.mark.parametrize("names", [P4, EIGHT])
def test_a_bigger_terminal_gives_the_history_the_rows(names):
    view = _view("second", names, PARTNERS_8 if names is EIGHT else TWO_TICKETS)
    small, big = _plan(view, (80, 24)), _plan(view, (120, 40))
    assert big.log > small.log
    assert big.track_used >= small.track_used


def test_a_tall_stack_is_drawn_compact_so_the_history_keeps_its_lines():
    stack = ["blue", "green", "yellow", "red", "purple", "white", "black"]
    view = _view("second", P5, [scenes.SECOND_SETUP, "blue 1",
                                "fix 5:%s" % ",".join(stack), "leg red", "tile 3 +"])
    full = track_rows(view)
    shown = _plan(view, (80, 24), error="that is not a command", scrolled_back=True)
    assert shown.track and shown.track_used < full  # two or more camels a row
    assert shown.log >= plan.LOG_MIN
    roomy = _plan(view, (120, 40))
    assert roomy.track_used == full  # room enough: one camel a row


def test_the_error_line_takes_at_most_three_rows_and_the_history_gives_them():
    view = _view("second", P4, TWO_TICKETS)
    quiet = _plan(view, (80, 24))
    short = _plan(view, (80, 24), error="! that is not a command")
    long = _plan(view, (80, 24), error="! " + "word " * 200)
    assert short.log + short.track_used == quiet.log + quiet.track_used - 1
    assert long.log + long.track_used == quiet.log + quiet.track_used - plan.ERROR_ROWS


def test_the_big_digits_make_the_banner_three_rows_and_narrower():
    view = _view("second", P4, TWO_TICKETS)
    line = "x" * 75  # one row at 79 columns, two beside the digits
    plain = _plan(view, (80, 24), banner=[line])
    digits = _plan(view, (80, 24), banner=[line], digits=True)
    assert plain.log + plain.track_used - (digits.log + digits.track_used) == 2


def test_the_leg_scoring_panel_takes_as_many_rows_as_the_players():
    view = _view("second", P4, scenes.SECOND_LEG_SCORED)
    assert view["leg_scored"] is not None
    shown = _plan(view, (80, 24), panel="leg")
    players = plan.text_rows(_texts(view, 80)["players"], 0)
    assert shown.middle >= players and shown.log >= plan.LOG_MIN


def _finished(names, cards):
    """The view of a seeded race typed out to its end, ``cards`` played first."""
    import random
    session = Session("second", names, seed=11, journal=Journal(None))
    table = Table(session, PlainDisplay(io.StringIO()), manual=True)
    table.start()
    table.line(scenes.SECOND_SETUP)
    for text in cards:
        assert table.line(text) is not False
    rng = random.Random(7)
    for _ in range(400):
        if session.phase == "over":
            break
        die = rng.choice(sorted(session.game.dice_in_pyramid()))
        value = rng.randint(1, 3)
        table.line("grey white %d" % value if die == "grey" else "%s %d" % (die, value))
    assert session.phase == "over"
    return table_view(session, odds=False)


def test_the_race_over_panel_takes_three_fifths_and_scrolls_with_a_hint_when_too_long():
    view = _finished(EIGHT, scenes.finish_cards(8))
    assert plan.race_over(view)
    shown = _plan(view, (80, 24), panel="over", banner=["RACE OVER"],
                  detail="Ann's pyramid ticket: die blue 3.")
    assert shown.odds_width == 48  # 3/5 of 80
    assert shown.hint and shown.panel_rows == shown.middle - 1
    assert not shown.detail  # the panel comes before the last die's detail line
    assert not shown.track  # ... and before the track
    roomy = _plan(view, (120, 40), panel="over", banner=["RACE OVER"])
    assert roomy.odds_width == 72


def test_a_short_race_over_panel_keeps_the_track_and_no_hint():
    view = _finished(P3, [])
    shown = _plan(view, (120, 40), panel="over", banner=["RACE OVER"])
    assert not shown.hint and shown.panel_rows is None
    assert shown.track


def test_no_view_yet_and_an_unknown_panel():
    shown = plan.plan(None, (80, 24), {})
    assert not shown.too_small and shown.middle is None
    with pytest.raises(ValueError, match="unknown panel 'dice'"):
        plan.plan(None, (80, 24), {}, panel="dice")
