"""Every acceptance case as a scenario file, run through the engine and `pyramid check`.

Case ids (E2-01 ... S-04 of ../shared/cases/rules-cases.md; P1, P1t, C1..C4, P2a, P2b,
D1..D12, M1..M10 and K1..K3 of ../shared/cases/odds-cases.md) are the test ids:
``test_scenario[E2-01]``.
"""

import os
import re

import pytest
from camelhost import cli
from camelup.scenario import build_game, parse_scenarios, run_case

HERE = os.path.join(os.path.dirname(__file__), "scenarios")
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
    assert not problems, "\n".join(problems)


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
    (deep / "one.scn").write_text("board 3:[B,G,Y,R,P] 14:[K] 15:[W]\nexpect 3:[B,G,Y,R,P]\n")
    (tmp_path / "top.scn").write_text("board 3:[B,G,Y,R,P] 14:[K] 15:[W]\nexpect 14:[K]\n")
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
        "board 3:blue 4:green 5:yellow 6:purple 10:white,red 14:black\n"
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
    bad.write_text("position %s\ndo leg red\nexpect position %s\n" % (text, text))
    assert cli.main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "- want: legs blue:5322 green:5322 yellow:5322 red:5322 purple:5322" in out
    assert "+ got:  legs blue:5322 green:5322 yellow:5322 red:322 purple:5322" in out


def test_check_command_rejects_unreadable_files(tmp_path, capsys):
    bad = tmp_path / "junk.scn"
    bad.write_text("frobnicate 3\n")
    assert cli.main(["check", str(bad)]) == 2
    assert "junk.scn:1: unknown scenario line 'frobnicate 3'" in capsys.readouterr().err
    assert cli.main(["check", str(tmp_path / "none.scn")]) == 2


def test_case_file_style_is_accepted(tmp_path, capsys):
    """E2-07 written the way the case files write it: brackets, letters, F-, bare dice."""
    f = tmp_path / "style.scn"
    f.write_text(
        "case E2-07/style lone crazy camel crosses backwards\n"
        "edition second\nplayers 3\n"
        "board 1:[W] 3:[R] 4:[B] 5:[G] 6:[Y] 7:[P] 12:[K]\n"
        "do grey WHITE 1\n"
        "expect space F- W\nexpect at W F-\nexpect at K 12\n"
        "expect ranking P, Y, G, B, R\nexpect winner P\nexpect loser R\n"
        "expect space F+ -\nexpect over yes\n"
    )
    assert cli.main(["check", str(f)]) == 0, capsys.readouterr().out
    f.write_text(f.read_text().replace("expect at K 12", "expect at K F-"))
    assert cli.main(["check", str(f)]) == 1
    assert "black at: want F-, got 12" in capsys.readouterr().out


def test_unlisted_camels_are_placed_out_of_the_way(tmp_path, capsys):
    """E2-11 written with only the camels it lists: the rest go behind the race."""
    f = tmp_path / "partial.scn"
    f.write_text(
        "case E2-11/partial cheering under a crazy camel\n"
        "edition second\nplayers 3\n"
        "board 9:[G] 10:+p1 12:[W] 16:[K]\n"
        "do grey WHITE 2\n"
        "expect space 9 G,W\nexpect coins 3 4 3\n"
        "expect board 9:[G,W] 10:+p1 16:[K]\n"
    )
    assert cli.main(["check", str(f)]) == 0, capsys.readouterr().out


def _placed(text):
    case = parse_scenarios(text, "t.scn")[0]
    game = build_game(case)
    return {s: game.stacks[s] for s in game.stacks if set(game.stacks[s]) & set(case.unlisted)}


def test_unlisted_camels_form_one_stack_each_out_of_reach():
    """Decision 24, derived by hand. Board 9:[G], the case names space 2 (a tile action):
    2 and its neighbours are kept clear; green reaches 10..13, so the racing camels go
    behind green on the lowest space whose own moves (1..4 ahead) reach nothing listed
    (4: 5..8 are empty; 5 would reach 9); the crazy camels on the highest space nothing
    reaches (16)."""
    assert _placed("edition second\nplayers 3\nboard 9:[G]\nlegal P1 tile 2\n") == {
        4: ["blue", "yellow", "red", "purple"], 16: ["black", "white"]}
    # A crazy camel on 16 would be landed on by green 3 from 13: not there. Racing
    # camels behind both (13 is the rear racer), away from white's backward reach 6..9.
    placed = _placed("edition second\nplayers 3\nboard 10:[W] 13:[G]\n"
                     "green 3 -> 16:[G]\ngrey WHITE 1 -> 9:[W]\n")
    assert placed[1] == ["blue", "yellow", "red", "purple"]
    crazy = [s for s in placed if placed[s] == ["black"]]
    assert crazy and crazy[0] not in (9, 10, 13, 14, 15, 16, 17)
    # Classic: no crazy camels; the missing racers stack behind the race.
    assert _placed("edition classic\nplayers 3\nboard 7:[orange] 9:[blue]\n"
                   "orange 2 -> 9:[blue,orange]\n") == {
        1: ["green", "yellow", "white"]}


def test_flexible_expectations(tmp_path, capsys):
    """E2-17 with one-seat coins, a seat on the action, a ranking prefix and payout amount."""
    f = tmp_path / "flex.scn"
    f.write_text(
        "case E2-17/flex one payout per landing unit\n"
        "edition second\nplayers 3\n"
        "board 2:[R] 5:[B,G,Y] 7:+p1 8:[P] 14:[K] 15:[W]\n"
        "do p0 blue 2\n"
        "expect payout p1 1\nexpect coins p1 4\nexpect ranking Y,G\n"
        "do p2 leg red\n"
    )
    assert cli.main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert "line 9: do p2 leg red: it is p1's turn, not p2's" in out
    assert out.count("line ") == 1


def test_edition_and_players_can_be_left_out(tmp_path, capsys):
    """E1-01 and E2-13 without edition/players lines."""
    f = tmp_path / "short.scn"
    f.write_text(
        "case E1-01/short mirage goes under\n"
        "board 1:[orange] 3:[blue,yellow] 5:[green] 6:-p1\n"
        "do blue 3\nexpect space 5 blue,yellow,green\nexpect coins 3 4\n"
        "case E2-13/short booing back onto the space it left\n"
        "board 3:[B,R,G] 4:-p1\n"
        "do red 1\nexpect space 3 R,G,B\nexpect coins 3 4 3\n"
        "case T-3 white alone says nothing about the edition\n"
        "board 3:[white]\n"
    )
    assert cli.main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert "2 passed, 1 failed" in out
    assert "add an 'edition classic|second' line" in out


def test_case_file_forms_report_mismatches(tmp_path, capsys):
    """Every case-file form is checked, not skipped: wrong values in each form fail."""
    f = tmp_path / "wrong.scn"
    f.write_text(
        "case W-1 wrong expectations in the case files' style\n"
        "board 5:[B,R,G] 1:[Y] 2:[P] 14:[K] 15:[W]\n"
        "P2 booing on 6\n"
        "red 1 -> 5:[R,B,G]; P2 +2\n"
        "P1 +1\n"
        "order G, B\n"
        "winner R\n"
        "loser B\n"
        "runner-up R\n"
        "race over\n"
        "W at F-\n"
        "owner +2\n"
        "expect coins P2 5\n"
        "expect tiles -\n"
    )
    assert cli.main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    for line in range(4, 15):
        assert "line %d:" % line in out, (line, out)
    assert "P2 coins: want +2, got +1 (3 -> 4)" in out
    assert "p1 (P2) coins: want 5, got 4" in out


def test_case_file_seats_count_from_one(tmp_path, capsys):
    f = tmp_path / "seats.scn"
    f.write_text(
        "case W-2 P1 is seat p0\n"
        "edition second\nplayers 6\n"
        "board 1:[B,G,Y,R,P] 14:[K] 15:[W]\n"
        "do P1 partner P4\n"
        "expect partner p0 p3\n"
        "do P3 leg red\n"
        "case W-3 P0 does not exist\n"
        "edition second\nplayers 3\n"
        "board 1:[B,G,Y,R,P] 14:[K] 15:[W]\n"
        "do P0 leg red\n"
    )
    assert cli.main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert "line 7: do P3 leg red: it is p1's turn, not p2's" in out
    assert "count players from P1" in out
    assert "1 passed" not in out and "0 passed, 2 failed" in out


def test_malformed_steps_get_readable_messages(tmp_path, capsys):
    """A malformed step names itself and how it should read; never a traceback."""
    f = tmp_path / "malformed.scn"
    cases = [("expect partner P1", "expect partner needs two seats"),
             ("expect held P7 red5", "there is no seat P7 with 3 players"),
             ("expect pyramid rule a", "expected numbers, got 'rule a'"),
             ("expect net", "write it like 'expect net P1 4'"),
             ("expect at W", "'at' needs a camel and a space"),
             ("undo", "nothing to undo"),
             ("do leg white", "white is not a racing camel"),
             ("do frobnicate", "not an action: 'frobnicate'")]
    text = ""
    for i, (step, _) in enumerate(cases):
        text += "case M-%d\nboard 1:[B,G,Y,R,P] 14:[K] 15:[W]\n%s\n" % (i, step)
    f.write_text(text)
    assert cli.main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    for step, needle in cases:
        assert needle in out, (step, out)
    assert "Traceback" not in out
    assert "0 passed, %d failed" % len(cases) in out


def test_odds_expectations_report_mismatches(tmp_path, capsys):
    """Leg-odds expectations in the odds cases' words: wrong values fail with want/got
    (exact fraction and 6-place decimal), unreadable ones name the text, never a
    traceback."""
    f = tmp_path / "odds.scn"
    f.write_text(
        "case O-1 D4 with wrong figures\n"
        "2:[Y,P] 9:[G] 10:[B] 11:[R] 14:[K,W]; pyramid {G,B} -> 1st: B 6/12, G 5/12\n"
        "second: B .5\n"
        "P(R 1st) = 2/12\n"
        "case O-2 a weight without its total\n"
        "2:[Y,G,R,B,P] 14:[K,W]; pyramid {P,R,B}\n"
        "1st: P 144\n"
        "case O-3 an unknown camel\n"
        "2:[Y,G,R,B,P] 14:[K,W]; pyramid {P,R,B}\n"
        "1st: Q 1/2\n"
        "case O-4 labels take odds only\n"
        "edition classic\n"
        "3:[purple,green,blue,yellow,red]; dice blue, yellow\n"
        "do blue 1\n"
        "case O-5 a die that is not in the pyramid\n"
        "2:[Y,G,R,B,P] 14:[K,W]; pyramid {P,orange}\n"
        "1st: P 1/2\n"
    )
    assert cli.main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert "P(green 1st): want 5/12, got 1/3 = 0.333333" in out
    assert "P(blue 2nd): want .5, got 0 (0.000000)" in out
    assert "line 4:" not in out  # P(R 1st) = 2/12 holds
    assert "'144' is a weight: give the total" in out
    assert "cannot read 'q'" in out
    assert "the board names purple, red, not camels of the classic edition" in out
    assert "die 'orange' is not in the second pyramid" in out
    assert "Traceback" not in out
    assert "0 passed, 5 failed" in out


def test_odds_expectations_use_the_listed_camels_only():
    """Left-out racing camels and their dice are not part of the race the odds are about
    (decision 25): a second-edition board with only red and yellow and red's die inside is
    C4 in the second edition: one die inside, none revealed -> yellow leads, certain. With
    red's and yellow's dice inside one of the two is revealed (12 outcomes, by hand): red's
    die (6) puts red on yellow (2) or past it (3) in 4 of them, on 2 in 2; yellow's die (6)
    always keeps yellow ahead -> P(red 1st) = 4/12 = 1/3, P(yellow 1st) = 8/12 = 2/3."""
    text = ("edition second\nplayers 3\nred on 1, yellow on 3; pyramid {R}\n"
            "nothing is revealed; yellow 1st, red last, certain\n")
    case = parse_scenarios(text, "t.scn")[0]
    assert run_case(case) == []
    text = ("edition second\nplayers 3\nred on 1, yellow on 3; pyramid {R,Y}\n"
            "exactly one is revealed; P(R 1st) = 1/3; P(Y 1st) = 2/3\n")
    case = parse_scenarios(text, "t.scn")[0]
    assert run_case(case) == []


def _steps(text):
    return [(c.id, c.setup, c.checks, c.steps) for c in parse_scenarios(text, "t.scn")]


def test_one_whole_case_file_line_is_a_case():
    """A case written on one line as rules-cases.md writes it: id, title, colon, board in
    backticks, setup, action, arrow, expectations; prose and remarks are dropped."""
    cases = parse_scenarios(
        "E2-13 booing back onto the space it left: `3:[B,R,G]`, P2 booing on 4, red 1 -> "
        "P2 +1, R and G return under what stayed: `3:[R,G,B]` (B leads that space).\n",
        "t.scn")
    assert len(cases) == 1
    case = cases[0]
    assert case.id == "E2-13" and case.title == "booing back onto the space it left"
    assert [k for _, k, _ in case.setup] == ["board", "tile"]
    assert [(v, t) for _, v, t in case.steps] == [
        ("do", "red 1"), ("expect", "delta P2 +1"), ("expect", "3:[R,G,B]")]
    assert run_case(case) == []


def test_case_file_lines_over_several_lines_and_second_sentences():
    text = ("G-1 a lone crazy camel crossing backwards ends the race:\n"
            "`2:[K] 4:[R] 5:[B] 6:[G] 7:[Y] 8:[P] 12:[W]`, grey BLACK 2 -> K at F-, race over at\n"
            "once; the leg is scored (P first, Y second), then finish piles (winner P, loser R).\n"
            "\n"
            "G-2 grey exception (a): `2:[B] 3:[G] 4:[Y] 5:[P] 12:[W,R] 14:[K]`, grey BLACK 3 ->\n"
            "`9:[W,R]`, `14:[K]`. Grey WHITE 3 gives the same.\n"
            "\n"
            "G-3 `5:[blue,green,yellow] 7:[orange]`, green 2 -> `5:[blue]`,\n"
            "`7:[orange,green,yellow]`. Same start with a mirage on 8, green 3 ->\n"
            "`5:[blue]`, `7:[green,yellow,orange]`.\n"
            "\n"
            "G-4 crazy setup: setup rolls grey 2 and grey 2 -> `15:[K,W]` (second on top).\n"
            "First grey reveal BLACK 3 -> exception (b): W moves to 12, K stays.\n"
            "\n"
            "G-5 ranking: `2:[K,G] 4:[P] 11:[B] 12:[R,W,Y]` -> order Y, R, B, P, G. Leg: Y\n"
            "first, R second; overall loser G.\n")
    cases = parse_scenarios(text, "t.scn")
    assert [c.id for c in cases] == ["G-1", "G-2", "G-3", "G-3/2", "G-4", "G-5"]
    for case in cases:
        assert run_case(case) == [], case.id
    steps = [t for _, _, t in cases[0].steps]
    assert steps == ["grey BLACK 2", "at K F-", "over yes", "leg is scored", "P first",
                     "Y second", "winner P", "loser R"]
    assert [v for _, v, _ in cases[1].steps].count("undo") == 1
    assert [t for _, k, t in cases[3].setup if k == "tile"] == ["a mirage on 8"]
    assert [t for _, _, t in cases[4].checks] == ["15:[K,W]"]
    # a wrong expectation in such a line is reported, not dropped
    bad = parse_scenarios("G-6 x: `2:[K] 12:[W]`, grey BLACK 1 -> `1:[K]`, K stays\n", "t.scn")
    assert run_case(bad[0])


def test_case_file_line_prose_that_cannot_be_read_says_what_can():
    with pytest.raises(ValueError) as err:
        parse_scenarios("G-7 tickets: `3:[B]`, red 1 -> 4:[B]. Something else happens\n", "t.scn")
    assert "'<die> gives the same'" in str(err.value)
    with pytest.raises(ValueError) as err:
        parse_scenarios("frobnicate 3\n", "t.scn")
    assert "docs/notation.md section 3 lists every form" in str(err.value)


def test_race_over_at_once_and_colons_after_keys():
    """'race over at once' is over (the 'on' of 'once' is not 'race on'); 'order: P, G'."""
    cases = parse_scenarios(
        "case G-8 x\nboard 1:[K] 3:[R] 4:[B] 5:[G] 6:[Y] 7:[P] 12:[W]\n"
        "grey BLACK 1\nrace over at once\norder: P, Y, G, B, R\nfirst: P\nK ignored\n"
        "case G-9 y\nboard 1:[B] 3:[R] 4:[K] 5:[G] 6:[Y] 7:[P] 12:[W]\nred 1\nrace goes on\n"
        "W ignored\n", "t.scn")
    assert run_case(cases[0]) == [] and run_case(cases[1]) == []
    wrong = parse_scenarios("case G-10 z\nboard 1:[B] 3:[R] 4:[K] 5:[G] 6:[Y] 7:[P] "
                            "12:[W]\nred 1\nrace over at once\nB ignored\n", "t.scn")
    problems = run_case(wrong[0])
    assert len(problems) == 2 and "race over" in problems[0] and "ranked" in problems[1]


#: rules-cases.md cases whose own paragraph reads as a case-file line (board, action,
#: arrow, expectations); the others are prose and are written as keyword lines.
LITERAL = ("E1-01", "E1-03", "E1-05", "E2-01", "E2-02", "E2-04", "E2-06", "E2-07", "E2-13",
           "E2-15", "E2-17", "E2-21", "E2-23")


def test_rules_cases_paragraphs_run_as_written(reference_dir):
    with open(os.path.join(reference_dir, "cases", "rules-cases.md"), encoding="utf-8") as fh:
        text = fh.read()
    paragraphs = {}
    for para in re.split(r"\n\s*\n", text):
        head = para.strip().split(None, 1)
        if head and head[0] in LITERAL:
            paragraphs[head[0]] = para.strip() + "\n"
    assert sorted(paragraphs) == sorted(LITERAL)
    for cid in LITERAL:
        cases = parse_scenarios(paragraphs[cid], cid + ".scn")
        assert cases and cases[0].id == cid
        for case in cases:
            assert case.steps or case.checks, case.id
            assert run_case(case) == [], case.id
    # E2-04: "...; grey WHITE 1 instead -> ...". And `board`, ... -> ...": undo + a new case
    e204 = parse_scenarios(paragraphs["E2-04"], "E2-04.scn")
    assert [c.id for c in e204] == ["E2-04", "E2-04/2"]
    assert [v for _, v, _ in e204[0].steps].count("undo") == 1
    # E2-15: "Same with `14:[Y,R,W]` (W ignored in ranking)": same die, same expectations
    e215 = parse_scenarios(paragraphs["E2-15"], "E2-15.scn")
    assert [t for _, k, t in e215[1].setup if k == "board"] == ["14:[Y,R,W]"]
    assert e215[1].steps == e215[0].steps


def test_prose_case_lines_say_how_to_write_them():
    with pytest.raises(ValueError) as err:
        parse_scenarios("E2-18 leg tickets: four per colour taken in order 5, 3, 2, 2; a "
                        "fifth is illegal\n", "t.scn")
    assert "write this one as keyword lines" in str(err.value)
    with pytest.raises(ValueError) as err:
        parse_scenarios("E2-03 x: `10:[K,R,W]`, grey WHITE 2 -> only K has a racer above it, "
                        "so K moves with everything above: `8:[K,R,W]`\n", "t.scn")
    assert "put remarks in parentheses" in str(err.value)
    fixed = parse_scenarios("E2-03 x: `10:[K,R,W]`, grey WHITE 2 -> (only K has a racer above "
                            "it) so K moves with everything above: `8:[K,R,W]`\n", "t.scn")
    assert run_case(fixed[0]) == []


def test_out_without_pyramid_tickets_deals_them_round_from_p0():
    """docs/rules-decisions.md 26: 'out' with nobody holding pyramid tickets."""
    case = parse_scenarios(
        "case G-11 x\nedition second\nplayers 3\n"
        "board 1:[B] 2:[G] 3:[Y] 4:[R] 5:[P] 10:[K] 14:[W]\n"
        "out red, blue, green, yellow\nexpect pyramid 1\ndo purple 1\nleg scored\n"
        "expect coins 6 4 4\n", "t.scn")[0]
    assert [t.pyramid_tickets(s) for t in [build_game(case)] for s in range(3)] == [2, 1, 1]
    assert run_case(case) == []


def test_case_file_clauses_after_an_arrow_and_on_their_own():
    case = parse_scenarios(
        "case G-12 x\nboard 3:[B,R,G] 1:[Y] 2:[P] 14:[K] 15:[W]\nP2 booing on 4\n"
        "red 1 -> P2 +1, R and G return under what stayed: `3:[R,G,B]` (B leads that space)\n"
        "P2 +1 (not +3)\nthen `3:[R,G,B]`\n", "t.scn")[0]
    assert [t for _, v, t in case.steps if v == "expect"] == [
        "P2 +1", "3:[R,G,B]", "delta P2 +1", "3:[R,G,B]"]
    assert run_case(case) == []
    # a coin list stays a coin list; a wrong figure is still caught
    bad = parse_scenarios("case G-13 y\nboard 3:[B,R,G] 1:[Y] 2:[P] 14:[K] 15:[W]\n"
                          "P2 booing on 4\nred 1 -> P1 +0, P2 +2\n", "t.scn")[0]
    assert [t for _, v, t in bad.steps if v == "expect"] == ["P1 +0", "P2 +2"]
    assert "want +2, got +1" in run_case(bad)[0]


def test_several_leg_ticket_evs_on_one_line():
    cases = parse_scenarios("G-EV2: 1:[yellow] 2:[white] 4:[green]; die yellow -> "
                            "EV(yellow 5) = 7/3, EV(green 5) = 11/3, EV(white 2) = -1\n", "t.scn")
    assert cases[0].id == "G-EV2" and run_case(cases[0]) == []
    bad = parse_scenarios("G-EV3: 1:[yellow] 2:[white] 4:[green]; die yellow -> "
                          "EV(yellow 5) = 11/3, EV(green 5) = 11/3\n", "t.scn")
    assert "want 11/3, got 7/3" in run_case(bad[0])[0]


def test_winners_before_the_race_ends_say_so():
    case = parse_scenarios("case G-14 x\ncoins 17 17 12\n1:[B] 2:[G] 3:[Y] 4:[R] 5:[P] 10:[K] "
                           "14:[W]\nexpect winners P1, P2\n", "t.scn")[0]
    problems = run_case(case)
    assert len(problems) == 1 and "the race is not over" in problems[0]


def test_an_unreadable_case_file_line_is_never_taken_as_expectations():
    """A case-file line that does not read as one must not be swallowed by the case
    before it as a list of expectations."""
    text = ("G-15 x: `12:[W,G,K]`, grey BLACK 1 -> `11:[W,G,K]`\n\n"
            "G-16 y: `12:[W,G,K]`, grey BLACK 1 => `11:[W,G,K]`\n")
    with pytest.raises(ValueError) as err:
        parse_scenarios(text, "t.scn")
    assert "G-16" in str(err.value)
    # an arrow character reads as '->', also on a continued line
    cases = parse_scenarios("G-17 x: `12:[W,G,K]`,\ngrey BLACK 1 \u2192 `11:[W,G,K]`\n", "t.scn")
    assert run_case(cases[0]) == [] and cases[0].steps[0][2] == "grey BLACK 1"


def test_unknown_expectation_lists_the_supported_ones():
    case = parse_scenarios("case G-18 x\nboard 1:[B] 2:[G] 3:[Y] 4:[R] 5:[P] 10:[K] 14:[W]\n"
                           "red 1\nexpect frobnicated red\n", "t.scn")[0]
    problems = run_case(case)
    assert "unknown expectation 'frobnicated'" in problems[0]
    assert "'order P, G, B, R, Y'" in problems[0] and "'P2 +1'" in problems[0]


def test_case_file_second_sentences_without_a_new_board_or_action():
    # "And ..." without a board adds to the case; "Same with `board`" with no action
    cases = parse_scenarios("G-19 x: `12:[W,G,K]`, grey BLACK 1 -> `11:[W,G,K]`. And P2 +0\n"
                            "\nG-20 y: `2:[K,B] 12:[W]` -> first B. Same with `3:[K,B] 13:[W]`\n",
                            "t.scn")
    assert [c.id for c in cases] == ["G-19", "G-20", "G-20/2"]
    assert cases[0].steps[-1][2] == "delta P2 +0"
    assert [t for _, k, t in cases[2].setup if k == "board"] == ["3:[K,B] 13:[W]"]
    for case in cases:
        assert run_case(case) == [], case.id
