"""Undo goes back through ``Game.pop`` (no replay): after every step, ``undo`` gives
back exactly the table before it, and a journal rebuilt from its events is the same
table as the live one after every step (seeded random games with every kind of step)."""

import json

import pytest
from camelhost.table import bots
from camelhost.table.journal import Journal
from camelhost.table.session import Session, TableError
from camelhost.table.view import table_view
from camelup.rng import XorShift32
from depth import examples

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _state(s):
    return json.dumps(dict(table_view(s, odds=False), version=0), sort_keys=True), \
        s.phase, s.current, s.game.position() if s.game is not None else None


def _step(s, rng):
    """One random step of the table: an action, a pyramid ticket with its die (maybe
    with '?' and its value, a grey die with its ink asked), a correction, a setup."""
    if s.phase == "setup":
        return [SETUP] if rng.below(2) else ["draw"]
    if s.phase in ("over", "unscored"):
        return ["again"]
    inside = s.game.dice_in_pyramid()
    pick = rng.below(10)
    if pick < 4:
        text, _ = bots.choose(s.game, s.names, quick=True)
        if text != "pyramid":
            return [text]
    if pick == 9:
        stacks = s.game.stacks
        space = sorted(stacks)[0]
        return ["fix %d:%s" % (space, ",".join(reversed(stacks[space])))]
    die = inside[rng.below(len(inside))]
    value = 1 + rng.below(3)
    first = ["pyramid"] if rng.below(2) else []
    if die == "grey":
        ink = ("black", "white")[rng.below(2)]
        if rng.below(2):
            return first + [{"type": "die", "colour": "grey", "ink": None, "value": value,
                             "best": "grey-" + ink}, ink[0]]
        return first + ["grey %s %d" % (ink, value)]
    if rng.below(3) == 0:
        return first + ["%s ?" % die, str(value)]
    return first + ["%s %d" % (die, value)]


def _do(s, item):
    return s.feed(item) if isinstance(item, dict) else s.command(item)


@pytest.mark.slow
@pytest.mark.deep
@pytest.mark.parametrize("seed", range(1, 1 + examples(8)))  # 8 seeds in make deep
def test_every_step_undone_gives_back_the_table_before_it(seed):
    rng = XorShift32(seed)
    journal = Journal(None)
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"], seed=seed,
                journal=journal)
    undone = 0
    # the journal rebuilt: its events applied one by one to a session of their own, as
    # Session.from_events does from the game line on (the same session a rebuild from
    # scratch gives after each step, without replaying the whole journal every time)
    again = Session.from_events(journal.events[:1])
    replayed = 1
    for _ in range(160):
        before = _state(s)
        items = _step(s, rng)
        try:
            for item in items:
                _do(s, item)
        except TableError:
            continue  # a bot's choice or a fix the rules refuse: nothing changed
        if items == ["again"]:
            continue
        if rng.below(4) == 0:
            s.command("undo")
            assert _state(s) == before, items
            undone += 1
            for item in items:  # and once more, so the game goes on
                _do(s, item)
        for event in journal.events[replayed:]:
            again.apply(event)
        replayed = len(journal.events)
        assert _state(again) == _state(s)
    assert undone > 10


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_every_step_undone_then_redone_gives_back_the_table_after_it(seed):
    """``redo`` after an ``undo`` applies the same events again: after every kind of step
    (a die across a leg end or the race's end, a setup, an ``again``, a correction...)
    the table is the one the step left, two undos are redone newest first, and the
    journal with its ``undo``/``redo`` lines rebuilds the same table."""
    rng = XorShift32(seed)
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"], seed=seed,
                journal=Journal(None))
    redone = 0
    for _ in range(120):
        items = _step(s, rng)
        try:
            for item in items:
                _do(s, item)
        except TableError:
            continue
        if len(s.steps) < 2:
            continue
        after = _state(s)
        s.command("undo")
        middle = _state(s)
        s.command("undo")
        s.command("redo")
        assert _state(s) == middle, items
        s.command("redo")
        assert _state(s) == after, items
        with pytest.raises(TableError, match="nothing to redo"):
            s.command("redo")
        redone += 1
    assert redone > 40
    assert _state(Session.from_events(s.journal.events)) == _state(s)


def test_undo_back_to_the_setup_then_nothing_to_undo():
    s = Session("classic", ["Ann", "Ben"], seed=2)
    s.command("setup 1:blue,green 2:orange 3:yellow,white")
    for text in ("leg blue", "pyramid", "blue 2", "tile 5 +", "fix 3:blue,green,yellow,white"):
        s.command(text)
    for _ in range(4):  # the fix, the tile, the pyramid ticket with its die, the leg ticket
        s.command("undo")
    assert s.game.history == [] and s.game.coins == [3, 3]
    s.command("undo")
    assert s.phase == "setup" and s.game is None
    with pytest.raises(TableError, match="nothing to undo"):
        s.command("undo")


def test_a_typed_undo_takes_back_the_bots_moves_with_the_players_and_says_so_in_its_line():
    """With bots after a person, a typed ``undo`` takes back the bots' moves since the
    person's last step, and that step: its journal line says how many steps
    (``steps``), so a resume takes back the same. An ``undo`` line without ``steps``
    (an older journal) still takes back one step, as it did when written."""
    s = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=4, bots=[2, 3],
                journal=Journal(None))
    for text in (SETUP, "leg red", "leg blue", "leg green", "leg yellow"):  # Cy, Dee: bots
        s.command(text)
    older = s.journal.events + [{"type": "undo"}]
    assert Session.from_events(older).current == 3  # Dee's leg ticket only
    notices = s.command("undo")
    assert s.journal.events[-1] == {"type": "undo", "steps": 3}
    assert s.current == 1 and s.phase == "turn"
    assert notices[0]["text"] == ("undone: Ben's leg ticket on blue, and the bots' moves "
                                  "after it: Cy's leg ticket on green, Dee's leg ticket on "
                                  "yellow")
    assert _state(Session.from_events(s.journal.events)) == _state(s)
    s.command("undo")  # Ann's step: no bot after it
    assert s.journal.events[-1] == {"type": "undo"} and s.current == 0
