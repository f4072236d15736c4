"""Position notation and transcripts: exact round trips, readable errors (docs/notation.md)."""

import pytest
from camelup.editions import CLASSIC, SECOND
from camelup.errors import IllegalAction, NotationError
from camelup.game import Game, parse_position
from camelup.notation import position_text
from camelup.transcript import parse_transcript, replay, transcript_of
from hypothesis import given, settings
from hypothesis import strategies as st

FULL = ("second | leg 3 turn p4 start p2 | 0:white,purple 1:blue 4:+p1 6:green,black "
        "9:-p3 12:yellow,red | out red,grey | legs blue:5322 green:22 yellow:5322 red:2 "
        "purple:5322 | pyramid 3 | p0 coins=0 tickets=green5,red5 pyramid=1 partner=p5 "
        "| p1 coins=12 tickets=red3 | p2 coins=3 tickets=green3,red2 | p3 coins=7 pyramid=1 "
        "| p4 coins=1 | p5 coins=4 partner=p0 | winner p0:red,p2:blue | loser p4:purple")

START = ("second | leg 1 turn p0 start p0 | 1:blue,green 2:red 3:yellow,purple 15:black "
         "16:white | out - | legs blue:5322 green:5322 yellow:5322 red:5322 purple:5322 | "
         "pyramid 5 | p0 coins=3 | p1 coins=3 | p2 coins=3 | winner - | loser -")


def test_full_position_round_trips_exactly():
    g = parse_position(FULL)
    assert g.position() == FULL
    assert g.players == 6 and g.turn == 4 and g.start_player == 2 and g.leg == 3
    assert g.stacks[0] == ["white", "purple"] and g.is_over  # purple carried backwards
    assert g.tiles == {4: (1, "+"), 9: (3, "-")}
    assert g.held_tickets(0) == [("green", 5), ("red", 5)]
    assert g.leg_tickets_left("red") == [2] and g.partner_of(5) == 0
    assert g.pile("winner") == [(0, "red"), (2, "blue")]
    assert g.ranking() == ["red", "yellow", "green", "blue", "purple"]  # RULES 3.7


def test_start_position_and_constructor_agree():
    g = Game("second", 3, {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"],
                           15: ["black"], 16: ["white"]})
    assert g.position() == START == str(g)
    assert parse_position(START) == g == Game.from_position(START)


def test_classic_position_round_trips():
    g = Game("classic", 2, {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]})
    g.push("tile 7 -")
    g.push("pyramid white 3")
    text = g.position()
    assert text.startswith("classic | leg 1 turn p0 start p0 | 1:blue,green 2:orange 3:yellow 6:white 7:-p0")
    assert "legs blue:532 " in text
    assert parse_position(text).position() == text


def test_public_form_hides_finish_piles():
    g = parse_position(FULL)
    public = position_text(g, public=True)
    assert public.endswith("| winner 2 | loser 1")
    assert "p0:red" not in public
    # the public form reads back (docs/notation.md): the piles hold hidden cards
    hidden = parse_position(public)
    assert hidden.pile("winner") == [(None, None), (None, None)]
    assert hidden.pile("loser") == [(None, None)]
    assert hidden.position() == public
    with pytest.raises(NotationError):
        parse_position(public.replace("winner 2", "winner two"))


@pytest.mark.parametrize("change,needle", [
    (("second |", "third |"), "unknown edition 'third'"),
    (("1:blue,green", "1:blue,blue"), "camel blue appears twice"),
    (("red:5322 purple", "red:322 purple"), "legs red:322 does not match"),
    (("pyramid 5", "pyramid 4"), "pyramid 4 does not match 0 dice out"),
    (("turn p0", "turn p7"), "turn must be a seat 0..2"),
    (("p1 coins=3", "p1 coins=-2"), "coins"),
    (("p1 coins=3", "p1 cash=3"), "unknown player key 'cash'"),
    (("15:black", "15:black 15:white"), "space 15 given twice"),
    (("| winner -", "| winner p0-red"), "finish card 'p0-red' must be pN:colour"),
    (("| out -", "| out - | weather sunny"), "unknown section 'weather sunny'"),
    (("3:yellow,purple", "3:yellow,purple 5:+p1 6:-p2"), "neighbouring"),
    (("3:yellow,purple", "3:Y,P"), "'Y' is not a camel colour"),
    (("3:yellow,purple", "3:[yellow,purple]"), "is not a camel colour"),
    (("15:black", "\u0661\u0665:black"), "is not a number"),
    (("p1 coins=3", "p1 coins=\u00b2"), "coins '\u00b2' is not a number"),
    (("| winner -", "| p3 coins=3 tickets=red\u00b2 | winner -"), "leg ticket 'red\u00b2'"),
])
def test_bad_positions_name_the_problem(change, needle):
    old, new = change
    assert old in START
    with pytest.raises(NotationError) as err:
        parse_position(START.replace(old, new, 1))
    assert needle in str(err.value)


@pytest.mark.parametrize("space", [51, 20, 100, -3, -51])
def test_a_camel_off_the_track_is_refused(space):
    """Issue 10: a camel on space 51 was read as a race over. Spaces are 1..16 (RULES 1.1);
    only a finished race's crossing stack stands past the line, on 17..19 or -2..0."""
    text = START.replace("16:white", "%d:white" % space)
    with pytest.raises(NotationError) as err:
        parse_position(text)
    msg = str(err.value)
    assert "space %d is off the track (spaces 1..16;" % space in msg
    assert "\n" not in msg


@pytest.mark.parametrize("space", [17, 19, 0, -2])
def test_a_finished_race_stack_past_the_line_reads(space):
    game = parse_position(START.replace("16:white", "%d:white" % space))
    assert game.is_over and game.stacks[space] == ["white"]
    assert parse_position(game.position()) == game


def test_transcript_round_trip_and_replay():
    text = ("# camelup transcript 1\nsetup second players=4 seed=17\n"
            "p0 leg red\np1 tile 8 -\n\n# dice\npyramid grey black 2\np3 pyramid red 1\n")
    t = parse_transcript(text)
    g = t.play()
    assert [str(a) for a in g.history] == ["leg red", "tile 8 -", "pyramid grey black 2",
                                           "pyramid red 1"]
    canonical = t.text()
    assert canonical.splitlines()[1] == "setup second players=4 seed=17"
    assert canonical.splitlines()[4] == "p2 pyramid grey black 2"
    assert replay(canonical) == g
    # a transcript made from a game starts from its exact position
    again = transcript_of(g)
    assert again.splitlines()[1].startswith("position second | leg 1 turn p0")
    assert replay(again) == g and replay(again).coins == g.coins


def test_transcript_errors_name_the_line():
    with pytest.raises(NotationError, match="line 2: .*'jump 3'"):
        parse_transcript("setup classic players=3 seed=1\njump 3\n")
    with pytest.raises(NotationError, match="line 3: leg red is marked p2 but it is p1's turn"):
        replay("setup classic players=3 seed=1\nleg blue\np2 leg red\n")
    with pytest.raises(IllegalAction, match="line 5: leg blue: no blue leg tickets left"):
        replay("setup classic players=3 seed=1\nleg blue\nleg blue\nleg blue\nleg blue\n")
    with pytest.raises(NotationError, match="players=N"):
        parse_transcript("setup second seed=3\n")
    with pytest.raises(NotationError, match="empty transcript"):
        parse_transcript("# nothing\n")


def test_examples_in_the_docs_are_valid():
    import os
    import re

    from camelhost import paths

    with open(os.path.join(paths.REPO_ROOT, "docs", "notation.md"), encoding="utf-8") as fh:
        doc = fh.read()
    lines = re.findall(r"^((?:second|classic) \| .*)$", doc, re.M)
    assert lines
    for line in lines:
        assert parse_position(line).position() == line
    block = re.search(r"```\n(# camelup transcript 1\n.*?)```", doc, re.S).group(1)
    assert len(replay(block).history) == 4
    # the scenario example runs, and the short board example reads
    from camelup.notation import read_board
    from camelup.scenario import run_scenarios

    block = re.search(r"```\n(# RULES 3.5 \(b\)\ncase .*?)```", doc, re.S).group(1)
    results = run_scenarios(block, "notation.md")
    assert len(results) == 1 and results[0][1] == []
    board = re.search(r"```\n(2:\[R,Y,P\] .*?)\n```", doc, re.S).group(1)
    assert read_board(board) == ({2: ["red", "yellow", "purple"], 9: ["green"],
                                  13: ["blue"], 14: ["black", "white"]},
                                 {3: (1, "-"), 6: (None, "+")}, [6])


@st.composite
def positions(draw):
    """Any consistent position the constructor accepts, crossed stacks included."""
    ed = draw(st.sampled_from([CLASSIC, SECOND]))
    n = draw(st.integers(ed.min_players, 8))
    stacks = {}
    for camel in draw(st.permutations(list(ed.camels))):
        stacks.setdefault(draw(st.integers(1, 16)), []).append(camel)
    if draw(st.booleans()):  # a finished race: one stack past the line
        space = draw(st.sampled_from(sorted(stacks)))
        stacks[draw(st.sampled_from([17, 18, 19, 0, -1, -2]))] = stacks.pop(space)
    over = any(not 1 <= s <= 16 for s in stacks)
    tiles = {}
    for owner in range(n):
        s = draw(st.integers(2, 16))
        if draw(st.booleans()) and s not in stacks and not {s - 1, s, s + 1} & set(tiles):
            tiles[s] = (owner, draw(st.sampled_from("+-")))
    held = [[] for _ in range(n)]
    for colour in ed.racing:
        for value in ed.leg_values[:draw(st.integers(0, len(ed.leg_values)))]:
            held[draw(st.integers(0, n - 1))].append((colour, value))
    out = draw(st.lists(st.sampled_from(list(ed.dice)), unique=True, max_size=5 if over else 4))
    pyramid = [0] * n
    for _ in out:
        pyramid[draw(st.integers(0, n - 1))] += 1
    partners = [None] * n
    if ed.has_partnerships(n) and draw(st.booleans()):
        a, b = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
        partners[a], partners[b] = b, a
    cards = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from(list(ed.racing))),
                          unique=True, max_size=12))
    split = draw(st.integers(0, len(cards)))
    return Game(ed, n, stacks, tiles=tiles, turn=draw(st.integers(0, n - 1)),
                start=draw(st.integers(0, n - 1)), coins=draw(st.lists(
                    st.integers(0, 60), min_size=n, max_size=n)), held=held, pyramid=pyramid,
                out=out, partners=partners, winner_pile=cards[:split],
                loser_pile=cards[split:], leg=draw(st.integers(1, 9)))


@settings(max_examples=150, deadline=None)
@given(positions())
def test_any_position_round_trips(game):
    text = game.position()
    again = parse_position(text)
    assert again.position() == text and again == game
    assert again.stacks == game.stacks and again.tiles == game.tiles
    assert again.coins == game.coins and again.dice_out == game.dice_out
    assert [again.held_tickets(p) for p in range(game.players)] == [
        game.held_tickets(p) for p in range(game.players)]
    assert again.pile("winner") == game.pile("winner") and again.is_over == game.is_over


def test_the_track_of_a_printed_position_line_is_a_short_board_as_it_is(capsys):
    # tester's finding: the table prints '3:blue,red' (the position line) while pyramid
    # odds asked for '3:[blue,red]': a stack reads in either form, strict as before
    import re

    from camelhost.cli import main
    from camelup.notation import read_board
    line = ("second | leg 2 turn p1 start p1 | 1:blue 3:yellow,green 6:+p2 9:red,purple "
            "12:-p0 14:black,white | out red,grey | legs blue:5322 green:22 yellow:5322 "
            "red:5322 purple:322 | pyramid 3 | p0 coins=4 tickets=green5,purple5 pyramid=1 | "
            "p1 coins=7 tickets=green3 | p2 coins=2 pyramid=1 | winner p0:red | loser -")
    track = line.split(" | ")[2]
    bracketed = "1:[blue] 3:[yellow,green] 6:+p2 9:[red,purple] 12:-p0 14:[black,white]"
    assert read_board(track) == read_board(bracketed) == (
        {1: ["blue"], 3: ["yellow", "green"], 9: ["red", "purple"], 14: ["black", "white"]},
        {6: (2, "+"), 12: (0, "-")}, [])
    assert read_board("3:B,G 4:W") == read_board("3:[B,G] 4:[W]")
    for bad, why in (("3:blue,,red", "'' on space 3 is not a camel"),
                     ("3:blue,[red]", "must look like 3:[blue,red], 3:blue,red or 6:+p1"),
                     ("3:[blue,red", "must look like"), ("3:blue red", "must look like"),
                     ("3:the blue one", "'the' on space 3 is not a camel")):
        with pytest.raises(NotationError, match=re.escape(why)):
            read_board(bad)
    board = "1:blue,green 2:red 3:yellow,purple 15:black 16:white"
    assert main(["odds", board]) == 0
    plain = capsys.readouterr().out
    assert main(["odds", "1:[blue,green] 2:[red] 3:[yellow,purple] 15:[black] 16:[white]"]) == 0
    assert capsys.readouterr().out == plain
