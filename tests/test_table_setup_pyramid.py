"""Setup and leg ends with a pyramid that reports its dice (a real or emulated board):
the grey die's second release, refusals said once and without ticket words, a bare
value, and the dice put back by hand (tester findings 5 and 13; RULES 3.2, 1.12)."""

import io

from camelhost.device.events import DieEvent
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay


class _Board:
    """A table on a reporting pyramid (no virtual one, dice not typed) and its dice."""

    def __init__(self, manual=False):
        self.out = io.StringIO()
        self.session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
        self.table = Table(self.session, PlainDisplay(self.out), pyramid=None, manual=manual)
        self.table.start()
        self.seq = 0

    def said(self, work):
        before = len(self.out.getvalue())
        work()
        return self.out.getvalue()[before:].splitlines()

    def die(self, colour, value=None, ink=None):
        self.seq += 1
        return self.said(lambda: self.table.pyramid_event(DieEvent(
            "die", "B1", self.seq, "EVT %d DIE %s" % (self.seq, colour), colour=colour,
            ink=ink, value=value)))

    def nodie(self):
        self.seq += 1
        return self.said(lambda: self.table.pyramid_event(DieEvent(
            "nodie", "B1", self.seq, "EVT %d NODIE" % self.seq)))

    def line(self, text):
        return self.said(lambda: self.table.line(text))


def _racing_and_black(board):
    board.die("red", 2)
    first_grey = board.die("grey", 2, "white")  # white numerals: still black first
    for colour, value in (("purple", 1), ("yellow", 3), ("blue", 1), ("green", 2)):
        board.die(colour, value)
    return first_grey


def test_the_first_grey_die_at_setup_says_why_black_and_to_put_it_back():
    board = _Board()
    said = _racing_and_black(board)
    assert said[0].startswith("Setup: black camel on space 15; still to place: ")
    assert "(at setup the grey die places black then white, its numeral colour ignored, " \
        "RULES 3.2)" in said[0]
    assert said[0].endswith("; put the grey die back in the pyramid: it comes out again "
                            "for the white camel")
    assert board.session.setup_rolls[1] == ("black", 2)


def test_a_release_refused_at_setup_says_what_to_do_once_and_no_ticket_words():
    board = _Board()
    _racing_and_black(board)
    expected = ("PUT THE GREY DIE BACK IN THE PYRAMID AND RELEASE AGAIN for the white camel "
                "(%s), or type 'grey white 3' with its value")
    said = board.nodie()
    assert said[0] == expected % "no die came out"
    said = board.die("blue", 1)  # the racing dice were put back instead
    assert said[0] == expected % "the blue camel is already placed: release the other dice"
    assert len([line for line in said if "already placed" in line]) == 1  # once
    assert not any("ticket" in line for line in board.out.getvalue().splitlines())
    assert board.session.phase == "setup" and len(board.session.setup_rolls) == 6


def test_a_bare_value_at_setup_names_the_form_to_type():
    board = _Board()
    board.die("red", 2)
    assert board.line("3") == ["! '3': at setup type the die with its colour, e.g. 'blue 3'"]
    board = _Board()
    _racing_and_black(board)
    assert board.line("3") == ["! '3': at setup type the die with its colour, e.g. "
                               "'grey white 3'"]
    said = board.line("grey white 3")
    assert said[0].startswith("Setup: white camel on space 14")
    assert "Put all the dice back in the pyramid for leg 1" in said


def _to_leg_two(board):
    _racing_and_black(board)
    board.die("grey", 1, "black")
    said = []
    for colour in ("blue", "green", "yellow", "red", "purple"):
        board.line("pyramid")
        said += board.die(colour, 1)
    assert board.session.game.leg == 2
    return said


def test_a_new_leg_with_a_reporting_pyramid_says_to_put_the_dice_back():
    said = _to_leg_two(_Board())
    assert any(line.startswith("New leg: put all the dice back in the pyramid (")
               for line in said)


def test_a_new_leg_with_dice_typed_keeps_its_line():
    board = _Board(manual=True)
    board.line("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    said = []
    for colour in ("blue", "green", "yellow", "red", "purple"):
        board.line("pyramid")
        said += board.line("%s 1" % colour)
    assert any(line.startswith("New leg: all dice back in the pyramid (") for line in said)
    assert not any("put all the dice back" in line for line in said)


def test_a_die_released_while_the_grey_die_s_value_is_asked_at_setup_goes_back_alone():
    # tester s33 F6: 'RETURN THE DICE AND RELEASE AGAIN (press 1, 2 or 3 ...); the pyramid
    # ticket already taken still covers this action': no ticket at setup, and the two
    # instructions contradict; the purple die that fell was never named
    board = _Board()
    board.die("red", 2)
    asked = board.die("grey", None, "black")
    assert asked[0].endswith("value unknown: press 1, 2 or 3"), asked
    said = board.die("purple", 1)
    assert said[:1] == ["PUT THE PURPLE DIE BACK IN THE PYRAMID (it came out after the "
                    "grey-black die, which stays out): press 1, 2 or 3 for the value of the "
                    "grey-black die"], said
    assert board.session.phase == "value"  # the question stands
    placed = board.line("2")
    assert placed[0].startswith("Setup: black camel on space 15; still to place: ")
    assert "purple" in placed[0].split("still to place: ")[1]  # not placed by the die that fell
    assert board.session.setup_rolls == [("red", 2), ("black", 2)]


def test_a_release_while_a_value_is_asked_on_a_turn_keeps_the_question():
    board = _Board()
    board.line("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    board.line("pyramid")  # Ann
    board.die("blue")  # no value: asked
    board.seq += 1
    said = board.said(lambda: board.table.pyramid_event(DieEvent(
        "double", "B1", board.seq, "EVT %d DOUBLE" % board.seq)))
    assert said[:1] == ["PUT THE DICE OF THIS RELEASE BACK IN THE PYRAMID (they came out "
                        "after the blue die, which stays out): press 1, 2 or 3 for the value "
                        "of the blue die"], said
    said = board.nodie()
    assert said[:1] == ["No die came out (the blue die stays out): press 1, 2 or 3 for the "
                        "value of the blue die"], said
    board.seq += 1  # one die whose colour the sensor could not read
    said = board.said(lambda: board.table.pyramid_event(DieEvent(
        "unknown", "B1", board.seq, "EVT %d UNKNOWN" % board.seq)))
    assert said[:1] == ["PUT THE DIE OF THIS RELEASE BACK IN THE PYRAMID (it came out after "
                        "the blue die, which stays out): press 1, 2 or 3 for the value of "
                        "the blue die"], said
    assert "RELEASE AGAIN" not in " ".join(said) and "ticket" not in " ".join(said)
    board.line("3")
    assert board.session.game.stacks[4] == ["blue", "green"]  # blue carried green
    assert board.session.current == 1


def test_the_full_screen_s_banner_says_which_die_goes_back_while_a_value_is_asked():
    import pytest
    from camelhost.table import events
    from camelhost.table.session import TableError
    from camelhost.ui.tui import announce_text

    board = _Board()
    board.die("grey", None, "black")
    board.seq += 1
    event = events.from_link(DieEvent("die", "B1", board.seq, "EVT %d DIE purple"
                                      % board.seq, colour="purple", value=1))
    with pytest.raises(TableError) as refused:  # the table's path: refused, then
        board.session.feed(event)               # journalled as rejected
    retry = board.session.reject(event, str(refused.value))
    assert announce_text(retry, None).plain == "PUT THE PURPLE DIE BACK IN THE PYRAMID"


def test_setup_with_the_dice_typed_says_type_not_release():
    # tester s33 finding 10: '--pyramid manual' setup said 'release each camel's die' and
    # 'release the other dice', with no pyramid reporting dice: the dice are typed
    from camelhost.table.view import table_view
    from camelhost.ui import plain
    from camelhost.ui.panels import leaders_text

    board = _Board(manual=True)
    view = table_view(board.session, odds=False)
    assert plain.status_lines(view)[0] == ("Race 1 setup: type each camel's die as it comes "
                                           "out (like 'red 2'), or type 'setup 1:blue,green "
                                           "...' or 'draw'"), plain.status_lines(view)
    assert leaders_text(view).plain == "Race 1: setup (type each camel's die, or the stacks, " \
                                       "or 'draw')"
    board.line("blue 2")
    assert board.line("blue 1") == ["! the blue camel is already placed: type the other dice"]
    assert "release" not in board.out.getvalue()
