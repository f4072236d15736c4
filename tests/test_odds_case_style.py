"""`pyramid odds` with a board in the short form of docs/notation.md (`1:[R,Y,P] 9:[G]`,
names or capital letters, tiles `3:-` / `6:+p1`), `--pyramid` for the dice inside, the
edition from the colours; and its errors."""

import camelup
from camelhost.cli import main


def _rows(out):
    """camel -> the columns of its leg-odds row."""
    rows = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 4 and words[0] in camelup.actions.COLOURS and words[1].endswith("%"):
            rows[words[0]] = words[1:]
    return rows


def test_D2_in_the_short_form(capsys):
    # odds-cases D2: pyramid {G,B} -> B 1st, G 2nd, R last, certain; with a tile too
    assert main(["odds", "2:[R,Y,P] 9:[G] 13:[B] 14:[K,W] 3:-", "--pyramid", "G,B",
                 "--samples", "300"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert rows["blue"][0] == "100.0%" and rows["green"][1] == "100.0%"
    assert rows["red"][2] == "100.0%"
    assert "dice inside: blue, green; 1 to come out" in out
    # a tile given without an owner is shown without one
    assert "  booing    on  3: " in out and "on  3 (" not in out
    assert "race odds: 300 simulated races" in out  # every camel listed: the whole report


def test_a_tile_with_its_owner_shows_it(capsys):
    assert main(["odds", "2:[R,Y,P] 9:[G] 13:[B] 14:[K,W] 3:-p2", "--pyramid", "G,B",
                 "--samples", "50"]) == 0
    assert "  booing    on  3 (Cy): " in capsys.readouterr().out  # p2: the third seat


def test_second_edition_colours_select_the_second_edition(capsys):
    # red, purple, black: second (these letters used to be read as classic labels)
    assert main(["odds", "1:[R,Y,P] 9:[G] 10:[B] 14:[K,W]", "--samples", "50"]) == 0
    assert capsys.readouterr().out.startswith("second edition")
    # the grey die names the second edition too
    assert main(["odds", "1:[blue,yellow] 9:[green] 10:[white]", "--pyramid", "grey"]) == 1
    assert "camel red is missing" in capsys.readouterr().err
    # orange: classic
    assert main(["odds", "1:[B,G,Y,W] 3:[O]", "--samples", "50"]) == 0
    assert capsys.readouterr().out.startswith("classic edition")


def test_full_board_without_options_is_the_full_leg(capsys):
    # odds-cases P2a: purple leads the leg 39.5 % (.394816)
    assert main(["odds", "1:[B,G] 2:[R] 3:[Y,P] 15:[K] 16:[W]", "--samples", "200"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert rows["purple"][0] == "39.5%" and rows["blue"][2] == "40.9%"


def test_one_die_inside_gives_the_leg_odds_only(capsys):
    # odds-cases D1: one die inside reveals nothing (no game holds five dice out)
    assert main(["odds", "1:[B,K,W] 2:[G] 3:[R] 4:[Y] 5:[P]", "--pyramid", "P"]) == 0
    out = capsys.readouterr().out
    assert "dice inside: purple; 0 to come out" in out and "Actions for" not in out
    assert _rows(out)["purple"][0] == "100.0%"


def test_only_the_grey_die_inside_says_its_counts_in_the_singular_and_advises_no_empty_tile(
        capsys):
    # tester 2, finding 11: "only 1 dice inside", "1 outcomes", a best tile worth 0.000
    assert main(["odds", "1:[R,Y,P,B,G] 16:[K,W]", "--dice", "grey"]) == 0
    out = capsys.readouterr().out
    assert "(only 1 die inside: " in out and "Leg odds (exact, 1 outcome)" in out
    assert "0.000" not in out
    assert "Best new tile: none (no camel lands on a free space in any outcome left this " \
        "leg)" in out
    assert main(["odds", "1:[R,Y,P,B,G] 16:[K,W]", "--dice", "grey,red", "--samples", "50"]) == 0
    out = capsys.readouterr().out
    assert "Leg odds (exact, 12 outcomes)" in out and "Best tile for Ann: " in out


def test_short_form_errors_are_readable(capsys):
    cases = [(["not a position"], 1, "board token 'not' must look like 3:[blue,red]"),
             (["9:[Q]"], 1, "'Q' on space 9 is not a camel"),
             (["9:[G] 12:[W]"], 1, "which edition?"),
             (["1:[R,Y,P] 9:[G]"], 1, "camel blue is missing"),
             (["3:[B,G,Y,R,P] 14:[K,W]", "--pyramid", "orange"], 1,
              "the board names red (second edition only) and orange (classic only)"),
             (["3:[B,G,Y,W,O]", "--edition", "second"], 1,
              "the board names classic camels or dice, but --edition is second"),
             (["3:[B,G,Y,R,P] 14:[K,W] -> B 1st"], 1, "board token '->'"),
             (["3:[B,G,Y,R,P] 51:[K,W]"], 1, "space 51 is off the track"),
             (["3:[B,G,Y,R,P] 14:[K,W] 3:-"], 1, "space 3 given twice"),
             (["second | leg 1 turn p0 start p0 | 1:blue,green 2:red 3:yellow,purple "
               "15:black 16:white | out - | legs blue:5322 green:5322 yellow:5322 red:5322 "
               "purple:5322 | pyramid 5 | p0 coins=3 | p1 coins=3 | p2 coins=3 | winner - | "
               "loser -", "--pyramid", "G"], 2, "the project's notation holds them")]
    for argv, code, needle in cases:
        assert main(["odds"] + argv) == code, argv
        err = capsys.readouterr().err
        assert err.startswith("pyramid: ") and needle in err, (argv, err)
        assert "Traceback" not in err



def test_a_huge_bad_token_is_quoted_short(capsys):
    # tester's finding: a 100,000-character token was quoted back whole
    assert main(["odds", "1:[R,Y,P,G,B] " + "x" * 100000]) == 1
    err = capsys.readouterr().err
    assert err == ("pyramid: board token %r... (100000 characters) must look like "
                   "3:[blue,red], 3:blue,red or 6:+p1\n" % ("x" * 40))
    assert main(["odds", "second | leg 1 turn p0 start p0 | " + "y" * 5000]) == 1
    assert len(capsys.readouterr().err) < 400
