"""The full screen's plan (``camelhost.ui.plan``) without a running app: what shows and
how tall each part is, for terminal sizes 60x20, 80x24 and 120x40, three to eight
players, long names and partnerships (RULES 5: everything the table needs in view, at
80x24 too; below it the screen says the size it needs)."""

import io
import random

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
             "players_compact": players_text(view, plan.players_width(view, width),
                                             compact=True).plain,
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
    players = plan.text_rows(texts["players_compact" if shown.players_compact else "players"], 0)
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


def test_a_compact_stack_never_touches_the_next_space():
    # tester s33 finding 10: at 80x24 the compact track drew white and black stacked on
    # 12 as 'W K', filling the space edge to edge, read as W on 12 and K on 13; a stack
    # keeps a gap between its camels only with room to spare beside them
    from camelhost.ui.panels import track_text

    view = _view("second", P5, [scenes.SECOND_SETUP, "blue 1",
                                "fix 5:blue,green,yellow,red,purple 12:white,black",
                                "leg red"])
    rows = track_text(view, width=72, rows=2).plain.splitlines()
    assert [row.split() for row in rows[:2]] == [["RP"], ["BGY", "WK"]], rows
    numbers = rows[2]
    assert rows[1].index("WK") == numbers.index("12") - 1, rows  # over its space
    roomy = track_text(view, width=80, rows=2).plain.splitlines()
    assert "W K" in roomy[1] and "BGYR" in roomy[1], roomy  # a cell of 4: room to spare


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


#: The tester's 8-player table in leg 1 (finding 1): three partnerships, a player with
#: two leg tickets, two tiles, a five-high stack and a die whose detail takes two lines.
TESTER_8 = ["Annabelle", "Bartholomew", "Cy", "Dee", "Eve", "Fritz", "Gudrun", "Hal"]
TESTER_8_LINES = ["setup 1:blue 2:purple 3:yellow,green,red 15:black,white", "leg red",
                  "partner Annabelle", "tile 4 +", "tile 6 -", "blue 1", "finish winner red",
                  "partner Hal", "leg green", "leg red", "purple 1", "partner Eve", "yellow 1"]
TESTER_8_DETAIL = ("Dee's pyramid ticket: die yellow 1. Carries green, red, purple, blue. "
                   "From space 3 to 4 on Cy's cheering tile, on to 5; Cy +1 coin.")


def test_eight_partnered_players_leave_the_history_three_lines_at_80x24():
    """Tester 2's finding 1: at 80x24 the players table (a row of tickets spilling, the
    partnerships on two lines) took the history down to one line, or none. The history
    keeps its 3 lines: the players table goes compact (every ticket on its row, the
    partnerships on one line), then the die's detail line goes (the history has it)."""
    view = _view("second", TESTER_8, TESTER_8_LINES)
    texts = _texts(view, 80, odds_rows=8)
    whole = plan.text_rows(texts["players"], 0)
    compact = plan.text_rows(texts["players_compact"], 0)
    assert compact == len(TESTER_8) + 2 < whole  # heading, a row each, the partnerships
    banner = ["YELLOW  FORWARD 1", leaders_text(view).plain]
    shown = plan.plan(view, (80, 24), texts, banner=banner, digits=True,
                      detail=TESTER_8_DETAIL)
    assert shown.log >= plan.LOG_MIN, shown
    assert shown.players_compact and shown.middle >= compact
    assert shown.track and not shown.detail
    # with room, the whole table and the detail line stay
    roomy = plan.plan(view, (120, 40), _texts(view, 120, odds_rows=8), banner=banner,
                      digits=True, detail=TESTER_8_DETAIL)
    assert not roomy.players_compact and roomy.detail and roomy.log >= plan.LOG_MIN


def test_when_nothing_else_gives_the_panels_scroll_and_the_history_keeps_three_lines():
    view = _view("second", TESTER_8, TESTER_8_LINES)
    texts = _texts(view, 80, odds_rows=8)
    # two counts' lines more: the digits and the banner give way too (tester s34-2),
    # and still the panels do not fit
    texts["info"] += "\ncounts line\ncounts line"
    shown = plan.plan(view, (80, 24), texts, banner=["YELLOW  FORWARD 1", "Race 1"],
                      digits=True, detail=TESTER_8_DETAIL, scrolled_back=True,
                      error="! " + "word " * 100)
    assert shown.log >= plan.LOG_MIN, shown
    assert shown.middle < plan.text_rows(texts["players_compact"], 0)


def test_the_line_under_the_die_that_ended_a_leg_says_so():
    """Tester 2's finding 12: the die that ended leg 1 stood over ``Race 1, leg 2.``, as
    if it were leg 2's. Until leg 2's first die the line says leg 1 ended."""
    lines = TESTER_8_LINES + ["leg blue", "green 1", "red 2"]
    view = _view("second", TESTER_8, lines)
    assert view["leg"] == 2 and view["leg_scored"]["leg"] == 1
    assert leaders_text(view).plain.startswith("Leg 1 ended. Race 1, leg 2. Leading: 1st ")
    taken = _view("second", TESTER_8, lines + ["leg yellow"])  # the die is still the last
    assert leaders_text(taken).plain.startswith("Leg 1 ended. Race 1, leg 2.")
    rolled = _view("second", TESTER_8, lines + ["blue 1"])
    assert leaders_text(rolled).plain.startswith("Race 1, leg 2. Leading: 1st ")
    first = _view("second", TESTER_8, TESTER_8_LINES)
    assert leaders_text(first).plain.startswith("Race 1, leg 1. Leading: 1st ")


def test_the_narrow_advices_note_line_shows_only_when_it_costs_nothing_else():
    """Tester 2's finding 9: at 80x24 the advice showed negative numbers with no value
    now and no word on what they are. The odds panel's noted form (a line more) is
    taken when the history can spare the row, never at the cost of the track's rows."""
    view = _view("second", P4, TWO_TICKETS)
    texts = _texts(view, 80, odds_rows=8)
    texts["odds_noted"] = "\n".join("odds line %d" % i for i in range(9))
    shown = plan.plan(view, (80, 24), texts, banner=[leaders_text(view).plain])
    assert shown.odds_noted
    plain = plan.plan(view, (80, 24), {k: v for k, v in texts.items() if k != "odds_noted"},
                      banner=[leaders_text(view).plain])
    assert not plain.odds_noted and shown.log >= plan.LOG_MIN
    # a five-high stack (two rows compact), a tile, an error and the history scrolled
    # back: no row to spare
    tight = _view("second", P4, [scenes.SECOND_SETUP, "blue 1", "fix 5:blue,green,yellow,red,purple",
                                 "leg red", "tile 9 +"])
    texts = _texts(tight, 80, odds_rows=8)
    texts["odds_noted"] = "\n".join("odds line %d" % i for i in range(9))
    kw = dict(banner=["BLUE  FORWARD 1", leaders_text(tight).plain], digits=True,
              scrolled_back=True, error="! that is not a command")
    without = plan.plan(tight, (80, 24), {k: v for k, v in texts.items() if k != "odds_noted"},
                        **kw)
    noted = plan.plan(tight, (80, 24), texts, **kw)
    assert without.log == plan.LOG_MIN  # no row to spare
    assert not noted.odds_noted
    assert noted.track_used == without.track_used and noted.log == without.log


def test_the_note_line_never_undoes_the_last_resort_the_history_keeps_three_lines():
    """Tester 3's finding 1: when only the panels' scrolling left the history its 3
    lines, the odds panel's noted form was tried after it and the height shared out
    again without that limit: the history had no line left. The capped plan stays."""
    view = _view("second", TESTER_8, TESTER_8_LINES)
    texts = _texts(view, 80, odds_rows=8)
    texts["odds_noted"] = "\n".join("odds line %d" % i for i in range(9))
    # two counts' lines more: the digits and the banner give way too (tester s34-2),
    # and still the panels do not fit
    texts["info"] += "\ncounts line\ncounts line"
    shown = plan.plan(view, (80, 24), texts, banner=["YELLOW  FORWARD 1", "Race 1"],
                      digits=True, detail=TESTER_8_DETAIL, scrolled_back=True,
                      error="! " + "word " * 100)
    assert shown.log >= plan.LOG_MIN, shown
    assert not shown.odds_noted
    assert shown.middle < plan.text_rows(texts["players_compact"], 0)


def test_the_compact_players_table_says_the_bots_on_one_line_under_it():
    """Tester 3's finding 1: each bot's ``(bot)`` mark took a line of its own under its
    row in the compact table (six bots, six rows more). The compact form names the bots
    once, on one line under the table (names cut when they would not fit, never alike);
    the whole table keeps the mark on the bot's row."""
    session = Session("second", TESTER_8, seed=11, bots=range(2, 8), journal=Journal(None))
    table = Table(session, PlainDisplay(io.StringIO()), manual=True)
    table.start()
    for text in TESTER_8_LINES[:3]:
        table.line(text)
    view = table_view(session, odds=False)
    width = plan.players_width(view, 80)
    compact = players_text(view, width, compact=True).plain.splitlines()
    assert len(compact) == len(TESTER_8) + 3  # heading, a row each, partners, bots
    assert compact[-2].startswith(" & ")
    bots = compact[-1].split()
    assert bots[0] == "(bot)" and len(compact[-1]) <= width
    assert [b.rstrip("…") for b in bots[1:]] == [n[:len(b.rstrip("…"))] for n, b in
                                                   zip(TESTER_8[2:], bots[1:], strict=True)]
    assert all("(bot)" not in row for row in compact[:-1])
    whole = players_text(view, 120).plain.splitlines()
    assert sum("(bot)" in row for row in whole) == 6


def test_the_compact_bots_and_partners_lines_keep_a_name_a_cut_would_save_one_column_of():
    """Tester s34-2: the bots' line read ``(bot) An… Be… Ch… Di… Em… Fr…``, ``Anna`` cut
    to ``An…`` to save one column. A name one character longer than the cut stays whole
    while the line has the room; the line still fits, the names told apart."""
    names = ["Ömer", "Zoë", "Anna", "Bernd", "Chloé", "Dieter", "Emma", "Fritz"]
    session = Session("second", names, seed=34, bots=range(2, 8), journal=Journal(None))
    for line in (TESTER_8_LINES[0], "partner Zoë", "leg blue", "partner Emma"):
        session.command(line)
    view = table_view(session, odds=False)
    width = plan.players_width(view, 80)
    compact = players_text(view, width, compact=True).plain.splitlines()
    assert compact[-1] == " (bot) Anna Be… Ch… Di… Emma Fr…", compact
    assert all(len(row) <= width for row in compact), compact
    assert compact[-2].startswith(" & Ömer+Zoë ") and "Anna" in compact[-2], compact


def test_the_race_over_names_the_bots_on_one_line_not_a_row_each():
    """Tester s34-2: on the race-over screen at 80x24 a bot's ``(bot)`` mark stood on a
    row of its own under the bot's row (the leg screens name the bots once, on one
    line). The players panel the plan shows names the bots once, on one line, and no
    row carries a mark (since tester s34-3 the whole table does so too, so the plan
    need not take the compact form for it)."""
    names = ["Augustine", "Beatrice", "Cornelius", "Desmond", "Evangeline", "Frederick",
             "Gwendolyn", "Harrison"]
    session = Session("second", names, seed=11, journal=Journal(None))
    session.command(scenes.SECOND_SETUP)
    for line in scenes.race_out_lines(session.game, random.Random(7)):
        session.command(line)
    view = table_view(session, odds=False)
    assert view["phase"] == "over"
    view = dict(view, players=[dict(p, bot=i >= 2) for i, p in enumerate(view["players"])])
    texts = _texts(view, 80)
    shown = plan.plan(view, (80, 24), texts, panel="over", banner=["RACE OVER"])
    rows = texts["players_compact" if shown.players_compact else "players"].splitlines()
    assert rows[-1].startswith(" (bot) Co"), rows
    assert sum("(bot)" in row for row in rows) == 1, rows
    assert texts["players_compact"].splitlines()[-1].startswith(" (bot) Co")


def test_the_counts_say_the_waiting_ticket_on_the_prompt_before_the_players_scroll():
    """Tester s34-2 (and a seeded eight-seat German game played out at 80x24): a tall
    stack over the tiles' row, three partnerships, a bot's pyramid ticket waiting and a
    two-line refusal left the players panel a row short even with the digits and the
    leaders line gone: it scrolled. The counts then leave out whose ticket waits (the
    prompt line asks that player for the die), a row less, before the banner goes; no
    scrolling, the history keeps its three lines."""
    view = _view("second", TESTER_8, TESTER_8_LINES)
    texts = _texts(view, 80, odds_rows=8)
    texts["info"] = ("Can still come out: blu gre yel gry (one stays inside).\n"
                     "Pyramid tickets left: 2 (Eve's ticket waits for its die).\n"
                     "Finish piles (hidden): winner 5 cards, loser 8 cards")
    texts["info_brief"] = ("Can still come out: blu gre yel gry (one stays inside).\n"
                           "Pyramid tickets left: 2. Finish piles (hidden): winner 5 cards")
    kw = dict(banner=["YELLOW  FORWARD 1"], leaders="Race 1, leg 2. Leading: 1st blue",
              digits=True, detail=TESTER_8_DETAIL, error="! " + "word " * 40)
    whole = dict(texts)
    del whole["info_brief"]
    assert plan.plan(view, (80, 24), whole, **kw).middle < plan.text_rows(
        texts["players_compact"], 0)  # without the brief counts: the last resort
    shown = plan.plan(view, (80, 24), texts, **kw)
    assert shown.info_brief and shown.players_compact and shown.log >= plan.LOG_MIN, shown
    assert shown.middle >= plan.text_rows(texts["players_compact"], 0), shown


def test_four_partnerships_stay_on_one_line_of_the_compact_table_at_80_columns():
    """Tester s34-2: eight players in four partnerships, the compact table at 80 columns:
    the partnerships' line, each name cut to 3 (``& Öm…+Zo… ...``), took one column too
    many and a pair went to a second line (hidden behind the scrollbar then). The ``&``
    stands against the first pair and every pair is on one line."""
    names = ["Ömer", "Zoë Marie-Luise", "Anna", "Bernd", "Chloé", "Dieter", "Emma", "Fritz"]
    session = Session("second", names, seed=34, journal=Journal(None))
    for line in (TESTER_8_LINES[0], "partner Zoë Marie-Luise", "leg blue", "partner Bernd",
                 "leg blue", "partner Dieter", "leg blue", "partner Fritz"):
        session.command(line)
    view = table_view(session, odds=False)
    width = plan.players_width(view, 80)
    compact = players_text(view, width, compact=True).plain.splitlines()
    assert all(len(row) <= width for row in compact), compact
    pairs = compact[-1]
    assert pairs.startswith(" &Ö") and len(pairs.split()) == 4, compact
    assert [pair.lstrip("&").split("+")[0][:2] for pair in pairs.split()] == [
        "Öm", "An", "Ch", "Em"], compact


def test_a_question_asked_in_the_history_gets_its_rows_but_never_makes_a_panel_scroll():
    """s35: the question of an ``undo`` that takes back a scoring must show whole at
    80x24, its answers with it: the parts above give way for its rows (``log_need``) as
    they do for the history's three lines, the banner too, as while an error shows; when
    even that is not enough the history gets the most they can give, and no panel is
    capped for it (every player stays in view)."""
    view = _view("second", TESTER_8, TESTER_8_LINES)
    texts = _texts(view, 80, odds_rows=8)
    banner = ["YELLOW  FORWARD 1"]
    leaders = leaders_text(view).plain
    usual = plan.plan(view, (80, 24), texts, banner=banner, digits=True, leaders=leaders,
                      detail=TESTER_8_DETAIL)
    asked = plan.plan(view, (80, 24), texts, banner=banner, digits=True, leaders=leaders,
                      detail=TESTER_8_DETAIL, log_need=usual.log + 2)
    assert asked.log == usual.log + 2, (usual, asked)
    assert not asked.digits and not asked.detail  # what gave way for the rows
    compact = plan.text_rows(texts["players_compact"], 0)
    assert asked.middle >= compact  # no player out of view
    most = plan.plan(view, (80, 24), texts, banner=banner, digits=True, leaders=leaders,
                     detail=TESTER_8_DETAIL, log_need=40)
    assert most.log >= asked.log and most.middle >= compact and not most.banner


def test_a_second_action_on_two_rows_of_its_own_only_where_the_history_spares_the_row():
    """s46: the narrow advice's second action, left out where it fits no row with its
    label, stands on two rows of its own (``odds_lines``' ``split``), a row more: the
    plan takes that form where the row costs nothing but a history line the history
    can spare, else the form with the second action left out (``odds_single``): at
    80x24 with five players, an error and the history scrolled back, its row would
    take the row of the history's marker."""
    view = _view("second", ["Ann", "Ben", "Cy", "Dee", "Eve"], [scenes.SECOND_SETUP])

    def shown(size, **kw):
        texts = _texts(view, size[0], odds_rows=ODDS_ROWS + 2)
        texts["odds_single"] = "\n".join("odds line %d" % i for i in range(ODDS_ROWS))
        return plan.plan(view, size, texts, banner=[leaders_text(view).plain], **kw)

    roomy = shown((80, 40))
    assert not roomy.odds_single and roomy.log >= plan.LOG_MIN
    squeezed = shown((80, 24), error="unknown command 'foo'", scrolled_back=True)
    assert squeezed.odds_single, squeezed
    alone = plan.plan(view, (80, 24), _texts(view, 80), banner=[leaders_text(view).plain],
                      error="unknown command 'foo'", scrolled_back=True)
    assert [getattr(squeezed, name) for name in plan.Plan.__slots__ if name != "odds_single"] \
        == [getattr(alone, name) for name in plan.Plan.__slots__ if name != "odds_single"]
