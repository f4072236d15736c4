"""The typed command's parser (``camelhost.table.parser.parse_command``) in each phase:
which part answers (the table's commands, the keyed value, a player's action, a die)
and the one-line refusal of each form it can't take. The parser changes nothing."""

import pytest
from camelhost.table.errors import TableError
from camelhost.table.session import Session


def _session(phase):
    s = Session("classic", ["Ann", "Ben", "Cy"], seed=3)
    if phase in ("turn", "value"):
        s.command("draw")
    if phase == "value":  # the pyramid read a die without its value
        s.feed({"type": "die", "colour": s.game.dice_in_pyramid()[0], "value": None,
                "source": "pyramid", "raw": "EVT 1 die"})
    assert s.phase == phase
    return s


REFUSED = [
    ("setup", "undo now", "undo: check the form: undo; nothing comes after it"),
    ("setup", "draw 2", "draw: check the form: draw; nothing comes after it"),
    ("turn", "again please", "again: check the form: again; nothing comes after it"),
    ("setup", "setup", "setup: check the form: setup 1:blue,green 2:red ... ('help' shows "
                       "every command)"),
    ("turn", "setup 1:blue", "the setup is already done"),
    ("setup", "fix 7:blue", "nothing to fix before the setup is complete"),
    ("turn", "pyramid now", "pyramid: check the form: pyramid; nothing comes after it: the die "
                            "that comes out completes it"),
    ("turn", "leg", "leg: check the form: leg <colour> ('help' shows every command)"),
    ("turn", "finish top blue", "finish: check the form: finish winner|loser <colour> ('help' "
                                "shows every command)"),
    ("turn", "lose blue green", "lose: check the form: lose <colour> ('help' shows every "
                                "command)"),
    # a finish card's colour is never echoed (RULES 1.8, 5)
    ("turn", "win pink", "win <colour>: that is not a racing camel of the classic edition "
                         "(blue, green, orange, yellow, white): type the colour in full"),
    # no partnership at a classic table: that, not a form to follow (s36 tester 5)
    ("turn", "partner", "partner: partnerships are played in the second edition only, with "
                        "6-8 players (RULES 3.8)"),
    ("value", "4", "press 1, 2 or 3 for the value of the blue die (or undo)"),
    ("value", "leg blue", "press 1, 2 or 3 for the value of the blue die (or undo)"),
    ("value", "?", "press 1, 2 or 3 for the value"),
]


@pytest.mark.parametrize("phase, text, message", REFUSED)
def test_a_command_the_parser_cannot_take_is_refused_in_one_line(phase, text, message):
    s = _session(phase)
    with pytest.raises(TableError) as caught:
        s.parse_command(text)
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)


TAKEN = [
    ("setup", "undo", {"type": "undo"}),
    ("turn", "again", {"type": "race"}),
    ("turn", "unscored", {"type": "unscored"}),
    ("turn", "pyramid", {"type": "pyramid", "player": 0}),
    ("turn", "p", {"type": "pyramid", "player": 0}),
    ("turn", "bet orange", {"type": "action", "player": 0, "action": "leg orange"}),
    ("turn", "finish loser blue", {"type": "action", "player": 0, "action": "finish loser blue"}),
    ("turn", "win Gre", {"type": "action", "player": 0, "action": "finish winner green"}),
    ("turn", "partner Cy", {"type": "action", "player": 0, "action": "partner 2"}),
    ("turn", "cheer 7", {"type": "action", "player": 0, "action": "tile 7 +"}),
    ("value", "2", {"type": "value", "value": 2}),
    ("value", "undo", {"type": "undo"}),  # the table's commands come before the value
]


@pytest.mark.parametrize("phase, text, event", TAKEN)
def test_each_part_of_the_parser_gives_its_event(phase, text, event):
    s = _session(phase)
    before = (s.phase, s.version)
    assert s.parse_command(text) == event
    assert (s.phase, s.version) == before  # parsing changes nothing
