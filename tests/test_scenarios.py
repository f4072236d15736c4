"""Every acceptance case as a scenario file, run through the engine and `pyramid check`.

Case ids (E2-01 ... S-04 of ../shared/cases/rules-cases.md; P1, P1t, C1..C4, P2a, P2b,
D1..D12, M1..M10 and K1..K3 of ../shared/cases/odds-cases.md) are the test ids:
``test_scenario[E2-01]``.
"""

import os
import re

import pytest
from camelhost import cli
from camelup.errors import ParseError
from camelup.odds.game import position_from_game
from camelup.scenario import build_game, parse_scenarios, run_case
from camelup.scenario_odds import place_weights

HERE = os.path.join(os.path.dirname(__file__), "scenarios")
#: A complete case head (id to fill in): edition, players and every camel.
CASE_HEAD = "case %s\nedition second\nplayers 3\nboard 3:[B,G,Y,R,P] 14:[K] 15:[W]\n"
FILES = sorted(f for f in os.listdir(HERE) if f.endswith(".scn"))
#: More cases of the same kinds (tests/scenarios/variants/V-*.scn), some written in the
#: case files' own style (P2 +1, order P, G, B, race over, ...).
VARIANTS = os.path.join(HERE, "variants")
VARIANT_FILES = sorted(os.path.join("variants", f) for f in os.listdir(VARIANTS)
                       if f.endswith(".scn"))


def _cases():
    out = []
    for name in FILES + VARIANT_FILES:
        with open(os.path.join(HERE, name), encoding="utf-8") as fh:
            for case in parse_scenarios(fh.read(), name):
                out.append(pytest.param(case, id=case.id))
    return out


@pytest.mark.parametrize("case", _cases())
def test_scenario(case):
    problems = run_case(case)
    assert not problems, "\n".join(str(p) for p in problems)


def test_every_acceptance_case_has_a_scenario_file(reference_dir):
    ids = set()
    with open(os.path.join(reference_dir, "cases", "rules-cases.md"), encoding="utf-8") as fh:
        ids |= set(re.findall(r"^([A-Z][0-9]?-\d\d) ", fh.read(), re.M))
    with open(os.path.join(reference_dir, "cases", "odds-cases.md"), encoding="utf-8") as fh:
        ids |= set(re.findall(r"^([A-Z]\d+[a-z]?): ", fh.read(), re.M))
    assert len(ids) > 60
    assert {"P1", "P1t", "C1", "C4", "P2a", "P2b", "D1", "D8", "D12", "M10", "K3"} <= ids
    missing = sorted(i for i in ids if i + ".scn" not in FILES)
    assert not missing


def test_check_command_passes_on_the_cases(capsys):
    assert cli.main(["check", "-q", HERE]) == 0
    assert "0 failed" in capsys.readouterr().out


def test_check_command_searches_folders_recursively(tmp_path, capsys):
    """`pyramid check tests/scenarios` runs tests/scenarios/variants as well."""
    assert cli.main(["check", "-q", HERE]) == 0
    out = capsys.readouterr().out
    total = sum(len(parse_scenarios(open(os.path.join(HERE, f), encoding="utf-8").read(), f))
                for f in FILES + VARIANT_FILES)
    assert "%d passed, 0 failed" % total in out
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    (deep / "one.scn").write_text(CASE_HEAD % "one" + "expect space 3 blue,green,yellow,red,"
                                  "purple\n")
    (tmp_path / "top.scn").write_text(CASE_HEAD % "top" + "expect space 14 black\n")
    assert cli.main(["check", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.index("ok   top") < out.index("ok   one")
    assert "2 passed, 0 failed" in out


def test_check_command_passes_on_the_variants(capsys):
    assert len(VARIANT_FILES) >= 60
    assert cli.main(["check", "-q", VARIANTS]) == 0
    assert "0 failed" in capsys.readouterr().out


def test_check_command_fails_with_a_readable_diff(tmp_path, capsys):
    bad = tmp_path / "bad.scn"
    bad.write_text(
        "case T-1 wrong expectation\n"
        "edition second\nplayers 3\n"
        "board 3:[blue] 4:[green] 5:[yellow] 6:[purple] 10:[white,red] 14:[black]\n"
        "do pyramid grey black 1\n"
        "expect space 9 red,white\n"
        "expect coins 3 3 3\n"
        "illegal pyramid red 1\n"
    )
    assert cli.main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "FAIL T-1" in out
    assert "space 9: want red,white, got white,red" in out
    assert "line 8: illegal pyramid red 1: the engine allowed it" in out
    assert "0 passed, 1 failed" in out


def test_check_command_reports_position_diff_by_section(tmp_path, capsys):
    text = ("second | leg 1 turn p0 start p0 | 1:blue,green 2:red 3:yellow,purple 15:black "
            "16:white | out - | legs blue:5322 green:5322 yellow:5322 red:5322 purple:5322 | "
            "pyramid 5 | p0 coins=3 | p1 coins=3 | p2 coins=3 | winner - | loser -")
    bad = tmp_path / "pos.scn"
    bad.write_text("case P-1 x\nposition %s\ndo leg red\nexpect position %s\n" % (text, text))
    assert cli.main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "- want: legs blue:5322 green:5322 yellow:5322 red:5322 purple:5322" in out
    assert "+ got:  legs blue:5322 green:5322 yellow:5322 red:322 purple:5322" in out


def test_check_command_rejects_unreadable_files(tmp_path, capsys):
    bad = tmp_path / "junk.scn"
    bad.write_text("frobnicate 3\n")
    assert cli.main(["check", str(bad)]) == 2
    assert "junk.scn:1: a scenario file starts with 'case ID title', got 'frobnicate 3'" \
        in capsys.readouterr().err
    bad.write_text(CASE_HEAD % "J-1" + "frobnicate 3\n")
    assert cli.main(["check", str(bad)]) == 2
    assert "junk.scn:5: unknown keyword 'frobnicate'" in capsys.readouterr().err
    assert cli.main(["check", str(tmp_path / "none.scn")]) == 2


def test_crossed_stacks_and_letters_on_the_board(tmp_path, capsys):
    """E2-07 with the board in capital letters and the crossed stack named F-."""
    f = tmp_path / "style.scn"
    f.write_text(
        "case E2-07/style lone crazy camel crosses backwards\n"
        "edition second\nplayers 3\n"
        "board 1:[W] 3:[R] 4:[B] 5:[G] 6:[Y] 7:[P] 12:[K]\n"
        "do pyramid grey white 1\n"
        "expect space F- white\nexpect at white F-\nexpect at black 12\n"
        "expect ranking purple,yellow,green,blue,red\nexpect place 1 purple\n"
        "expect place 5 red\nexpect space F+ -\nexpect over yes\n"
    )
    assert cli.main(["check", str(f)]) == 0, capsys.readouterr().out
    f.write_text(f.read_text().replace("expect at black 12", "expect at black F-"))
    assert cli.main(["check", str(f)]) == 1
    assert "black at: want F-, got 12" in capsys.readouterr().out


def _refused(text, needle):
    """Parsing ``text`` (as file t.scn) raises ParseError whose message holds ``needle``."""
    with pytest.raises(ParseError) as err:
        parse_scenarios(text, "t.scn")
    assert needle in str(err.value), str(err.value)
    return str(err.value)


def test_a_case_missing_its_edition_players_or_a_camel_is_refused_with_file_and_line():
    board = "board 3:[blue,green,yellow,red,purple] 14:[black] 15:[white]\n"
    _refused("# x\ncase T-1 no edition\nplayers 3\n" + board,
             "t.scn:2: case T-1 does not say its edition")
    _refused("case T-2 no players\nedition second\n" + board,
             "t.scn:1: case T-2 does not say its players")
    _refused("case T-3 no board\nedition second\nplayers 3\nexpect leg 1\n",
             "t.scn:1: case T-3 needs exactly one of 'board' or 'rolls'")
    _refused("case T-4 white left out\nedition second\nplayers 3\n\n"
             "board 3:[blue,green,yellow,red,purple] 14:[black]\n",
             "t.scn:5: case T-4: bad position: camel white is missing")
    _refused("case T-5 a tile without its owner\nedition second\nplayers 3\n"
             "board 3:[blue,green,yellow,red,purple] 14:[black] 15:[white] 6:+\n",
             "t.scn:4: the tile on space 6 needs its owner")
    _refused("case T-6 classic colours in second\nedition second\nplayers 3\n"
             "board 3:[blue,green,yellow,red,orange] 14:[black] 15:[white]\n",
             "t.scn:4: case T-6: bad position: 'orange' is not a camel of the second edition")
    _refused(CASE_HEAD % "T-7" + "players 4\n", "t.scn:5: a second 'players' line")
    _refused(CASE_HEAD % "T-8" + "edition 2024\n", "t.scn:5:")
    _refused("case T-9 x\nedition second\nplayers two\n", "t.scn:3: players must be a whole")


def test_unknown_keywords_expectations_and_prose_are_refused_with_file_and_line():
    msg = _refused(CASE_HEAD % "T-10" + "do pyramid red 1\nexpect frobnicated red\n",
                   "t.scn:6: unknown expectation 'frobnicated'")
    assert "known: ahead, at, board, coins" in msg
    _refused(CASE_HEAD % "T-11" + "frobnicate 3\n", "t.scn:5: unknown keyword 'frobnicate'")
    # the case files' own wording is not read any more: one form per line
    _refused(CASE_HEAD % "T-12" + "do pyramid red 1\nP2 +1\n", "t.scn:6: unknown keyword 'P2'")
    _refused(CASE_HEAD % "T-13" + "do red 1\n", "write the action as 'pyramid red 1'")
    _refused(CASE_HEAD % "T-14" + "do pyramid red 1\nexpect ranking Y, R\n",
             "t.scn:6: a list reads a,b,c without blanks")
    _refused(CASE_HEAD % "T-15" + "expect coins P2 4\n", "t.scn:5: coins must be a whole")
    _refused(CASE_HEAD % "T-16" + "expect over\n", "write it like 'expect over yes (or no)'")
    _refused(CASE_HEAD % "T-17" + "expect gain p1 1\n", "a gain carries its sign")
    _refused(CASE_HEAD % "T-18" + "expect odds first blue 1/2\n", "a place (1st..5th)")
    _refused(CASE_HEAD % "T-19" + "do pyramid red 1\nturn p1\n",
             "t.scn:6: setup line 'turn' after the first step")
    _refused("expect leg 1\n", "t.scn:1: a scenario file starts with 'case ID title'")
    _refused(CASE_HEAD % "T-20" + CASE_HEAD % "T-20", "t.scn:5: case T-20 is given twice")
    _refused(CASE_HEAD % "T-21" + "expect space 3 blue,Q\n",
             "t.scn:5: 'Q' is not a camel of the second edition")


#: A six-to-eight-player second-edition case head (id, players to fill in).
TABLE_HEAD = ("case %s\nedition second\nplayers %d\n"
              "board 1:[yellow] 2:[green] 3:[purple] 8:[blue] 10:[red] 13:[black] 15:[white]\n")


def test_partners_lines_give_every_partnership_of_the_table():
    """RULES 3.8 (up to four partnerships at eight seats): one 'partners' line per
    partnership, or one line with seats two by two, give the same table."""
    several = parse_scenarios(TABLE_HEAD % ("S-1", 8) + "partners p5 p3\npartners p7 p6\n"
                              "partners p4 p0\npartners p1 p2\n", "t.scn")[0]
    one = parse_scenarios(TABLE_HEAD % ("S-2", 8) + "partners p5 p3 p7 p6 p4 p0 p1 p2\n",
                          "t.scn")[0]
    for case in (several, one):
        game = build_game(case)
        assert [game.partner_of(p) for p in range(8)] == [4, 2, 1, 5, 0, 3, 7, 6]
    two = build_game(parse_scenarios(TABLE_HEAD % ("S-3", 6) + "partners p0 p3 p1 p4\n",
                                     "t.scn")[0])
    assert [two.partner_of(p) for p in range(6)] == [3, 4, None, 0, 1, None]


def test_a_wrong_partners_line_is_refused_naming_what_is_wrong():
    msg = _refused(TABLE_HEAD % ("S-4", 8) + "partners p5 p3\npartners p7 p3\n",
                   "t.scn:6: p3 is in two partnerships: p5 p3 (line 5) and p7 p3")
    assert "\n" not in msg
    _refused(TABLE_HEAD % ("S-5", 8) + "partners p5 p3 p3 p1\n",
             "t.scn:5: p3 is in two partnerships: p5 p3 (line 5) and p3 p1")
    # one partnership written twice is not two (tester s44b, 5)
    _refused(TABLE_HEAD % ("S-6", 6) + "partners p0 p1\npartners p1 p0\n",
             "t.scn:6: partners p1 p0: that partnership is given already (p0 p1, line 5)")
    _refused(TABLE_HEAD % ("S-6", 8) + "partners p5 p3 p7\n",
             "t.scn:5: p7 has no partner on this line: 'partners' takes seats two by two")
    _refused(TABLE_HEAD % ("S-7", 8) + "partners p2 p2\n",
             "t.scn:5: partners p2 p2: a seat cannot partner itself")
    _refused(TABLE_HEAD % ("S-8", 8) + "partners Anna p2\n",
             "t.scn:5: a seat reads p0, p1, ... (0-based), got 'Anna'")
    _refused(TABLE_HEAD % ("S-9", 6) + "partners p0 p1\npartners p2 p6\n",
             "t.scn:6: partners p2 p6: no seat p6 with 6 players (p0..p5)")
    _refused(TABLE_HEAD % ("S-10", 5) + "partners p0 p1\n",
             "t.scn:5: partners p0 p1: partnerships need the second edition with 6..8 "
             "players (RULES 3.8); this case is the second edition with 5 players")
    _refused("case S-11 classic\nedition classic\nplayers 8\n"
             "board 1:[blue] 2:[green] 3:[orange] 4:[yellow] 5:[white]\npartners p0 p1\n",
             "t.scn:5: partners p0 p1: partnerships need the second edition with 6..8 "
             "players (RULES 3.8); this case is the classic edition with 8 players")
    _refused("case S-12 x\nposition second | leg 1 turn p0 start p0 | 1:yellow | out - | "
             "pyramid 5\npartners p0 p1\n", "t.scn:3: a case with a position line has no "
             "other setup (partners)")


def test_check_command_exits_2_naming_file_and_line(tmp_path, capsys):
    bad = tmp_path / "noed.scn"
    bad.write_text("case N-1 x\nplayers 3\nboard 3:[B,G,Y,R,P] 14:[K] 15:[W]\n")
    assert cli.main(["check", str(bad)]) == 2
    assert "noed.scn:1: case N-1 does not say its edition" in capsys.readouterr().err


def test_every_expectation_reports_its_mismatch(tmp_path, capsys):
    """Each strict expectation, given a wrong value, fails on its own line with want/got."""
    head = ("case W-1 wrong values\nedition second\nplayers 3\n"
            "board 2:[red] 5:[blue,green,yellow] 7:+p1 8:[purple] 14:[black] 15:[white]\n"
            "do pyramid blue 2\n")
    wrong = ["expect space 8 purple,blue", "expect at blue 7", "expect board 8:[purple]",
             "expect tiles -", "expect coins 3 3 3", "expect gain p1 +2", "expect payout p0",
             "expect ranking blue", "expect place 2 blue", "expect ahead blue yellow",
             "expect over yes", "expect turn p0", "expect start p1", "expect leg 2",
             "expect out -", "expect in-pyramid blue", "expect pyramid 5",
             "expect legs blue 322", "expect held p0 blue5", "expect partner p0 p1",
             "expect moved green", "expect rule a", "expect leg-scored yes",
             "expect winners p0", "expect net p0 1"]
    f = tmp_path / "wrong.scn"
    f.write_text(head + "\n".join(wrong) + "\n")
    assert cli.main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    for i in range(len(wrong)):
        assert "line %d: %s" % (6 + i, wrong[i]) in out, (wrong[i], out)
    assert "p1 coins: want +2, got +1 (3 -> 4)" in out
    assert "winning seats: want p0, but the race is not over" in out
    assert "net: the last action did not score a leg" in out
    # and the right values pass
    right = ["expect space 8 purple,blue,green,yellow", "expect at blue 8",
             "expect board 2:[red] 7:+p1 8:[purple,blue,green,yellow] 14:[black] 15:[white]",
             "expect tiles 7:+p1", "expect coins 3 4 3", "expect gain p1 +1",
             "expect payout p1", "expect ranking yellow,green", "expect place 4 purple",
             "expect ahead yellow blue", "expect over no", "expect turn p1", "expect start p0",
             "expect leg 1", "expect out blue", "expect in-pyramid green,yellow,red,purple,grey",
             "expect pyramid 4", "expect legs blue 5322", "expect held p0 -",
             "expect partner p0 -", "expect moved blue", "expect leg-scored no"]
    f.write_text(head + "\n".join(right) + "\n")
    assert cli.main(["check", str(f)]) == 0, capsys.readouterr().out


def test_odds_expectations_report_mismatches(tmp_path, capsys):
    """Leg odds in the strict form: wrong values fail with want/got (exact fraction and a
    6-place decimal); a decimal must round to the places written."""
    f = tmp_path / "odds.scn"
    f.write_text(
        "case O-1 D4 with wrong figures\n"
        "edition second\nplayers 3\n"
        "board 2:[Y,P] 9:[G] 10:[B] 11:[R] 14:[K,W]\n"
        "out yellow,red,purple,grey\npyramid p0 4\n"
        "expect odds 1st blue 6/12 green 5/12\n"
        "expect odds 2nd blue .5\n"
        "expect odds 1st red 2/12\n"
        "expect reveals 2\n"
        "expect outcomes 12\n"
        "expect ev blue 5 3\n"
        "expect odds 3rd blue 1/3\n"
        "expect landings 6 1\n"
    )
    assert cli.main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert "P(green 1st): want 5/12, got 1/3 = 0.333333" in out
    assert "P(blue 2nd): want .5, got 0 (0.000000)" in out
    assert "line 9:" not in out and "line 11:" not in out  # red 2/12 and 12 outcomes hold
    assert "dice revealed this leg: want 2, got 1" in out
    assert "EV of blue leg ticket 5: want 3, got 2 (2.000000)" in out
    # green's die (1/2) puts green on blue, onto red or past it: blue third every time
    assert "P(blue 3rd): want 1/3, got 1/2 = 0.500000" in out
    assert "landings on 6: there is no tile on space 6" in out


def test_inside_gives_the_dice_of_a_leg_no_game_holds():
    """odds-cases D1: one die inside (five out would already have scored the leg)."""
    text = (CASE_HEAD % "I-1" + "inside purple\nexpect reveals 0\n"
            "expect odds 1st purple 1\nexpect odds 3rd red 0\n")
    assert run_case(parse_scenarios(text, "t.scn")[0]) == []
    bad = parse_scenarios(CASE_HEAD % "I-2" + "inside purple\ndo leg red\nexpect reveals 0\n",
                          "t.scn")[0]
    assert "the 'inside' line is for the start position" in str(run_case(bad)[0])
    _refused(CASE_HEAD % "I-3" + "inside orange\n", "die 'orange' is not in the second pyramid")


@pytest.mark.slow
def test_place_weights_agree_with_the_oracle():
    """Every place (3rd, 4th too) the scenario reader checks (``leg_odds``' places, the
    one enumeration of them) equals the oracle's plain enumeration on its own list
    stacks (tests/oracles), on seeded random positions."""
    import random

    from camelup.odds import Position
    from oracles.odds_expect import place_weights as oracle

    rnd = random.Random(7)
    for edition, camels in (("classic", ["blue", "green", "orange", "yellow", "white"]),
                            ("second", ["blue", "green", "yellow", "red", "purple", "black",
                                        "white"])):
        for _ in range(12):
            stacks = {}
            for c in camels:
                stacks.setdefault(rnd.randint(10, 16), []).append(c)
            dice = rnd.sample([c for c in camels if c not in ("black", "white")
                               or edition == "classic"] + (["grey"] if edition == "second"
                                                          else []), 3)
            pos = Position(edition, stacks, dice=dice)
            assert place_weights(pos) == oracle(pos), (stacks, dice)


#: odds-cases.md vectors whose strict scenario keeps the case's board and dice: their own
#: text (after the arrow), read by the oracle, holds on the strict file's position.
ODDS_TEXT = ("D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D12")


def test_strict_odds_files_say_what_the_case_file_says(reference_dir):
    from camelup.odds import Position
    from oracles.odds_expect import check, parse

    with open(os.path.join(reference_dir, "cases", "odds-cases.md"), encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    vectors = {}
    for i, line in enumerate(lines):
        m = re.match(r"^([A-Z]\d+[a-z]?): .*?->(.*)$", line)
        if m:
            text = m.group(2)
            while i + 1 < len(lines) and lines[i + 1].startswith("  "):
                i += 1
                text += " " + lines[i].strip()
            vectors[m.group(1)] = text.replace("(1.0 means the engine wrongly rolled the last "
                                               "die.)", "").rstrip(". ").rstrip(":")
    for cid in ODDS_TEXT:
        with open(os.path.join(HERE, cid + ".scn"), encoding="utf-8") as fh:
            case = parse_scenarios(fh.read(), cid + ".scn")[0]
        pos = position_from_game(build_game(case))
        if "inside" in case.setup:
            pos = Position(pos.edition, pos.stacks, dice=case.setup["inside"][1])
        for part in vectors[cid].split(";"):
            if "order" in part:
                continue  # D1's 'order P, Y, R, G, B': the file's expect ranking
            if cid == "D7":  # "D6 plus a booing tile": D6's weights of 216
                part = part.replace("1st:", "1st (of 216):")
            assert check(pos, parse(part)) is None, (cid, part)


def test_steps_that_cannot_run_say_why(tmp_path, capsys):
    """A step that fails stops its case with a one-line reason; never a traceback."""
    f = tmp_path / "steps.scn"
    f.write_text(CASE_HEAD % "S-1" + "do p1 leg red\n"
                 + CASE_HEAD % "S-2" + "undo\n"
                 + CASE_HEAD % "S-3" + "do leg white\n"
                 + CASE_HEAD % "S-4" + "legal tile 3 +\n"
                 + CASE_HEAD % "S-5" + "illegal leg red\n"
                 + CASE_HEAD % "S-6" + "expect moved red\n"
                 + CASE_HEAD % "S-7" + "expect held p5 -\n")
    with pytest.raises(ParseError) as err:
        parse_scenarios(f.read_text(), "steps.scn")
    assert "steps.scn:35: no seat p5 with 3 players" in str(err.value)
    f.write_text(f.read_text().replace("expect held p5 -", "expect held p2 -"))
    assert cli.main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert "line 5: do p1 leg red: it is p0's turn, not p1's" in out
    assert "line 10: undo: nothing to undo" in out
    assert "line 15: do leg white: " in out and "white is not a racing camel" in out
    assert "line 20: legal tile 3 +: " in out
    assert "line 25: illegal leg red: the engine allowed it" in out
    assert "line 30: expect moved red\n    moved: no action was pushed yet" in out
    assert "Traceback" not in out and "1 passed, 6 failed" in out


def test_damaged_scenario_files_are_refused_or_run_never_a_traceback():
    """Seeded byte-level damage of the real files: each is either refused as a ParseError
    (FILE:LINE: ...) or runs to its list of mismatches; nothing else escapes."""
    import random

    rnd = random.Random(9)
    texts = []
    for name in FILES + VARIANT_FILES:
        with open(os.path.join(HERE, name), encoding="utf-8") as fh:
            texts.append(fh.read())
    alphabet = list("0123456789:,[]-+p|# \n") + ["\u00b2", "\u0661", "\x00", "blue", "F+",
                                                  "expect ", "do ", "grey"]
    refused = ran = 0
    for _ in range(400):
        chars = list(rnd.choice(texts))
        for _ in range(rnd.randint(1, 4)):
            k = rnd.randrange(len(chars))
            op = rnd.random()
            if op < 0.4:
                chars[k] = rnd.choice(alphabet)
            elif op < 0.7:
                del chars[k]
            else:
                chars.insert(k, rnd.choice(alphabet))
        try:
            cases = parse_scenarios("".join(chars), "d.scn")
        except ParseError as exc:
            assert str(exc).startswith("d.scn:") and "\n" not in str(exc).split(": ", 1)[0]
            refused += 1
            continue
        for case in cases:
            assert isinstance(run_case(case), list)
        ran += 1
    assert refused > 50 and ran > 50
