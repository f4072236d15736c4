"""Seeded table positions for the full-screen tests (snapshots and Pilot): each
scene is an app and the keys that bring it to a position, so a snapshot shows
exactly what a table would have seen after typing them."""

import random

from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import odds_view
from camelhost.ui.tui import TableApp
from textual.worker import WorkerCancelled

#: Textual's parsed rules of a style source, by the source and the theme's variables,
#: kept for every app the tests start (``share_parsed_styles``).
_PARSED = {}


def share_parsed_styles():
    """Every app the tests start parses its styles (``table.tcss``, each widget's
    ``DEFAULT_CSS``) once, not once an app: Textual keeps the rules it parsed for one
    stylesheet (``Stylesheet._parse_rules``), and a new app starts a new one (some 11 ms
    of its 60-70 ms start, a hundred starts in the full-screen tests). The rules
    are kept by the source, where it was read from and the theme's variables, as
    Textual keeps them, and used as Textual uses its own kept ones (never changed once
    parsed). Installed once, when this module is imported."""
    from textual.css.stylesheet import Stylesheet

    parse = Stylesheet._parse_rules
    if getattr(parse, "shared", False):
        return

    def shared(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        key = (css, read_from, is_default_rules, tie_breaker, scope,
               tuple(sorted(self._variables.items())))
        rules = _PARSED.get(key)
        if rules is None:
            rules = _PARSED[key] = parse(self, css, read_from, is_default_rules,
                                         tie_breaker, scope)
        return rules

    shared.shared = True
    Stylesheet._parse_rules = shared


share_parsed_styles()

SECOND_SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
CLASSIC_SETUP = "setup 1:blue 2:green,orange 3:yellow,white"


def keys_of(text):
    """Pilot key names that type ``text``."""
    return [{" ": "space", ":": "colon", ",": "comma", "+": "plus", "-": "minus",
             "?": "question_mark"}.get(ch, ch) for ch in text]


#: Most rounds ``settle`` waits for workers before it gives up (a screen that never
#: settles is a failure, not a hang).
SETTLE_ROUNDS = 20


async def settle(pilot):
    """Wait until the odds worker is done and the screen has caught up; the command
    line's cursor stops blinking (a snapshot must not catch it half-way). Raises
    ``AssertionError`` when the screen has not settled after ``SETTLE_ROUNDS`` rounds."""
    for box in pilot.app.query("Input"):
        box.cursor_blink = False
    app = pilot.app
    # round after round (the workers waited for, then a pause: every message handled,
    # the screen drawn, the process idle) until no worker runs and the odds panel shows
    # the figures of the position in play: a message handled in a round (a picker
    # closing, a worker's result) may start another worker, and on a loaded machine a
    # worker's result can arrive after the round that waited for it (seen once, with
    # two fixed rounds: two screens that should match differed)
    for _ in range(SETTLE_ROUNDS):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:  # an odds worker superseded by a newer position's (its
            pass  # group is exclusive) while waited for: the next round waits for that one
        await pilot.pause()
        if not app.odds_pending and all(
                worker.is_finished for worker in app.workers) and _caught_up(app):
            return
    raise AssertionError("the screen did not settle in %d rounds" % SETTLE_ROUNDS)


def _caught_up(app):
    """True when no widget of the screen (nor the app) has a message waiting and no
    after-refresh callback waits. The pause's last step draws the screen, and that
    drawing may lay it out anew (on a loaded machine the screen's own update had not
    run in the pause's idle wait): the ``Resize`` it posts, and the history's answer to
    it (its scroll to the newest line), would otherwise still wait when the test looks
    (seen once in CI: the history one row short of its newest line after the error
    line took its rows)."""
    screen = app.screen
    return (not app.message_queue_size and not screen._callbacks
            and not any(node.message_queue_size
                        for node in screen.walk_children(with_self=True)))


async def type_line(pilot, text):
    """Put ``text`` in the command line and press Enter (as if pasted)."""
    pilot.app.query_one("#command").value = text
    await pilot.press("enter")
    await pilot.pause()


#: A line that opens the finish-card picker (``win`` alone): what follows it is typed
#: into the picker, so from there on ``type_lines`` types line by line.
PICKER_WORDS = ("win", "winner", "lose", "loser")


async def type_lines(pilot, lines):
    """Hand ``lines`` to the command line's handler as its Enter would (``Input.Submitted``,
    Textual's public message), all at once, and wait until the app has taken them: the
    table takes each line as typed, the screen is drawn once for the last (a screen
    drawn for every line on the way cost most of the full-screen tests' CPU time). From
    a line that opens the finish-card picker on, the lines are typed one by one
    (``type_line``)."""
    lines = list(lines)
    bulk = next((i for i, text in enumerate(lines)
                 if text.strip().lower() in PICKER_WORDS), len(lines))
    await submit_lines(pilot, lines[:bulk])
    for text in lines[bulk:]:
        await type_line(pilot, text)


async def submit_lines(pilot, lines):
    """Post each of ``lines`` to the app as its command line does on Enter, in order,
    then wait until the app has handled them: no screen drawn in between (the lines are
    taken inside one ``App.batch_update``, which holds the screen's update timer: without
    it the timer laid out and drew the screen two or three times during a burst of
    lines), then the one update for the last."""
    if not lines:
        return
    import asyncio

    from textual.widgets import Input

    app = pilot.app
    box = app.query_one("#command", Input)
    taken = asyncio.Event()
    with app.batch_update():
        for text in lines:
            app.post_message(Input.Submitted(box, text))
        # the app handles its messages in order: this callback runs after the lines
        app.call_later(taken.set)
        await taken.wait()
    await pilot.pause()


#: Race samples of the tests' odds (``quick_odds``); the table's own are
#: ``camelhost.table.view.RACE_SAMPLES``.
QUICK_SAMPLES = 100


def quick_odds(snap):
    """The odds function the full-screen tests pass the app (``TableApp(odds=...)``):
    the table's own (``camelhost.table.view.odds_view``: exact leg odds, the coach's
    advice) with a race simulation of ``QUICK_SAMPLES`` samples, some twenty times
    cheaper: the same panel and lines, the race figures from fewer samples. A scene
    whose figures are compared with stored ones works out the real ones for its last
    position only (``type_lines_real_last``)."""
    return odds_view(snap, samples=QUICK_SAMPLES)


def app_for(edition, players, seed=2, theme="dark", tmp=None, odds=quick_odds, bots=(),
            pyramid=None, auto_setup=False):
    """The app on a new seeded table (journal in ``tmp`` when given); ``odds``: its
    odds function (``None``: the table's own); ``bots``: the names of the players whose
    seats bots play (``pyramid play --bots``); ``pyramid``, ``auto_setup``: as
    ``TableApp`` takes them (``pyramid_queue``: a pyramid whose events a test puts)."""
    if tmp is not None:
        tmp.mkdir(parents=True, exist_ok=True)
    journal = Journal(str(tmp / "scene.jsonl") if tmp is not None else None)
    session = Session(edition, players, seed=seed, journal=journal,
                      bots=[players.index(name) for name in bots])
    return TableApp(session, theme_name=theme, odds=odds, pyramid=pyramid,
                    auto_setup=auto_setup)


def pyramid_queue():
    """A pyramid for ``app_for`` whose events the test puts: ``(pyramid, queue)``; put
    ``("event", camelhost.device.events.DieEvent(...))`` items on the queue, the app
    takes them as it takes a real pyramid's (``TableApp.take_events``)."""
    import queue
    import types

    events = queue.Queue()
    return types.SimpleNamespace(events=lambda: events, virtual=None, manual=False), events


async def type_lines_real_last(pilot, lines):
    """``type_lines``, the position after the last line with the table's own odds
    (``odds_view``, what a player sees), those before it with the app's odds function
    as it was (the screen shows only the last)."""
    app = pilot.app
    await type_lines(pilot, lines[:-1])
    app.odds_function = odds_view
    await type_lines(pilot, lines[-1:])


#: A second-edition leg half played: tickets, a tile, a grey die, a finish card.
SECOND_MID_LEG = [SECOND_SETUP, "leg green", "blue 3", "tile 8 +", "grey white 2",
                  "leg blue", "win green"]
#: ... and on to the end of the leg.
SECOND_LEG_SCORED = SECOND_MID_LEG + ["red 1", "purple 2", "lose yellow", "yellow 3"]


def no_odds(_snapshot):
    """An odds function for the app (``TableApp.odds_function``, ``app_for(odds=...)``)
    that computes nothing: the panel says there are no odds now, and mid-race ``odds``
    says they were not worked out for the position, ``best`` that there are no action
    values (what the table says when the odds engine refuses a position: true of this
    one too, never "race over" mid-race). For a test that reads neither the odds panel
    nor a layout whose height the odds decide (one that reads the history's words, the
    banner, the error line, the leg-scoring panel): the exact leg odds and the coach's
    advice of ``quick_odds`` cost some 45 ms a new position."""
    return None


def leg_odds_only(snap):
    """An odds function for the app that works out the exact leg odds alone (about 2 ms
    a position): the ``odds`` entry of ``camelhost.table.view.odds_view`` with its
    ``race`` and ``actions`` left ``None`` (as the table leaves them when those fail), so
    the panel shows the leg odds and no overall odds nor advice. For a test that reads
    the panel's leg odds, or types while odds arrive, but never the overall odds or the
    coach's advice (``quick_odds`` spends some 45 ms a new position on those)."""
    from camelup import odds
    from camelup.odds.game import position_from_game

    g = snap.game
    if g is None or snap.phase in ("setup", "over", "unscored") or g.is_over:
        return None
    leg = odds.leg_odds(position_from_game(g))
    return {"leg": [{"colour": c, "first": leg.p_first(c), "second": leg.p_second(c),
                     "last": leg.p_last(c)} for c in g.edition.racing],
            "race": None, "actions": None}


async def play_race_out(pilot, seed=7):
    """Type seeded dice (and a few tickets) until the race is over: the lines are
    drawn on a copy of the game (``race_out_lines``), handed to the app together
    (``submit_lines``) but the last, which is typed (``type_line``): the race-over panel
    opens as after a die typed on its own (opened at the end of a burst of lines, the
    panel of a 80x24 screen has been seen scrolled to its end). The odds of the
    positions on the way are not what a race-over scene shows, so they are not computed
    (``no_odds``); the app's own odds function is back once the race is over."""
    app = pilot.app
    lines = race_out_lines(app.session.game, random.Random(seed))
    real = app.odds_function
    app.odds_function = no_odds
    try:
        await submit_lines(pilot, lines[:-1])
        await type_line(pilot, lines[-1])
    finally:
        app.odds_function = real
    if app.session.phase != "over":
        raise AssertionError("the race did not end: %s" % app.session.phase)


def race_out_lines(game, rng):
    """The lines a table types to play ``game`` out, drawn with ``rng`` (a leg ticket
    now and then, else a die from the pyramid with a random value), each pushed on a
    copy of ``game`` (the rules engine's notation) to know the next position."""
    import copy

    g = copy.deepcopy(game)
    lines = []
    for _ in range(400):
        if g.is_over:
            return lines
        roll = rng.random()
        if roll < 0.15 and g.legal_actions():
            colours = [c for c in g.edition.racing if g.leg_tickets_left(c)]
            if colours:
                line = "leg %s" % rng.choice(sorted(colours))
                g.push(line)
                lines.append(line)
                continue
        dice = sorted(g.dice_in_pyramid())
        die = rng.choice(dice)
        value = rng.randint(1, 3)
        if die == "grey":
            line = "grey %s %d" % (rng.choice(("black", "white")), value)
        else:
            line = "%s %d" % (die, value)
        g.push("pyramid " + line)
        lines.append(line)
    raise AssertionError("the race did not end")

#: Six players: two partnerships formed, tickets, a booing tile.
SIX_PARTNERS = [SECOND_SETUP, "leg green", "partner Dee", "blue 3", "leg blue", "partner Flo",
                "tile 8 -"]
#: A classic leg half played, on the light screen.
CLASSIC_MID_LEG = [CLASSIC_SETUP, "leg orange", "green 2", "tile 7 +", "white 1"]

#: Ten finish cards for four players (Ann, Ben, Cy, Dee in turn), five on each pile.
FINISH_CARDS_4 = ["win purple", "lose red", "win blue", "lose yellow", "lose green",
                  "win green", "lose purple", "win red", "win yellow", "lose blue"]


def finish_cards(players, racing=("blue", "green", "yellow", "red", "purple")):
    """Every player plays every finish card, round by round (each player one card a
    round, winner and loser piles alternating): ``players * len(racing)`` cards."""
    return ["%s %s" % ("win" if (p + r) % 2 else "lose", racing[(p + r) % len(racing)])
            for r in range(len(racing)) for p in range(players)]
