"""`pyramid odds` with a position written the way the case files write it (read by the
scenario parser, docs/odds.md): boards with brackets and letters, `--pyramid` for the
dice inside, `--tile`, labels, left-out camels; and its errors."""

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


def test_D2_as_the_case_writes_it(capsys):
    # odds-cases D2: pyramid {G,B} -> B 1st, G 2nd, R last, certain; with a tile too
    assert main(["odds", "--edition", "second", "2:[R,Y,P] 9:[G] 13:[B] 14:[K,W]",
                 "--pyramid", "G,B", "--tile", "booing 3", "--samples", "300"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert rows["blue"][0] == "100.0%" and rows["green"][1] == "100.0%"
    assert rows["red"][2] == "100.0%"
    assert "dice inside: blue, green; 1 to come out" in out
    assert "booing    on  3" in out
    assert "race odds: 300 simulated races" in out  # every camel listed: the whole report


def test_full_board_without_options_is_the_full_leg(capsys):
    # odds-cases P2a: purple leads the leg 39.5 % (.394816)
    assert main(["odds", "1:[B,G] 2:[R] 3:[Y,P] 15:[K] 16:[W]", "--samples", "200"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert rows["purple"][0] == "39.5%" and rows["blue"][2] == "40.9%"


def test_labels_and_left_out_camels_give_the_leg_odds_only(capsys):
    # odds-cases C1 (classic, colours as labels): red 191/486 = 39.3 %
    assert main(["odds", "--edition", "classic", "3:[purple,green,blue,yellow,red]",
                 "--dice", "blue, yellow, green, red"]) == 0
    out = capsys.readouterr().out
    assert "labels" in out and _rows(out)["red"][0] == "39.3%"
    assert "Actions for" not in out
    # odds-cases C4 in its own words: red 2/3; no crazy camel and no --edition: classic
    assert main(["odds", "red on 1, yellow on 3; die red"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("classic edition") and _rows(out)["red"][0] == "66.7%"
    # a second-edition board leaving camels out: the listed camels are the race
    assert main(["odds", "9:[G] 12:[W]", "--pyramid", "G,grey"]) == 0
    out = capsys.readouterr().out
    assert "left out" in out and list(_rows(out)) == ["green"]


def test_case_style_errors_are_readable(capsys):
    cases = [(["not a position"], 1, "not a position: 'not a position'"),
             (["9:[Q]"], 1, "'q' is not a camel of the classic edition"),
             (["3:[B,G,Y,R,P] 14:[K,W]", "--pyramid", "orange"], 1,
              "die 'orange' is not in the second pyramid"),
             (["3:[B,G,Y,R,P] 14:[K,W] -> B 1st"], 1, "a position only"),
             (["3:[B,G,Y,R,P] 14:[K,W]", "--tile", "booing 3"], 1, "tile on space 3"),
             (["second | leg 1 turn p0 start p0 | 1:blue,green 2:red 3:yellow,purple "
               "15:black 16:white | out - | legs blue:5322 green:5322 yellow:5322 red:5322 "
               "purple:5322 | pyramid 5 | p0 coins=3 | p1 coins=3 | p2 coins=3 | winner - | "
               "loser -", "--pyramid", "G"], 2, "the project's notation holds them")]
    for argv, code, needle in cases:
        assert main(["odds"] + argv) == code, argv
        err = capsys.readouterr().err
        assert err.startswith("pyramid: ") and needle in err, (argv, err)
        assert "Traceback" not in err
