"""Tester 4 finding 12: ``pyramid odds POSITION --names`` (now ``--players``) with five
names and no seat count: five names are five seats (fixed on main by the options'
rework; this keeps the tester's own command working)."""

from camelhost import cli

POSITION = "9:[Y] 11:[B,O,W] 13:[G]"
NAMES = "Anna,Bert,Carl,Dora,Emil"


def test_five_names_alone_are_five_seats(capsys):
    for option in ("--players", "--names"):  # the old spelling as the tester typed it
        assert cli.main(["odds", POSITION, option, NAMES, "--samples", "200",
                         "--top", "3"]) == 0
        captured = capsys.readouterr()
        assert "seats" not in captured.err
        assert "Anna to act" in captured.out and "Actions for Anna" in captured.out
    # a tile of the fifth seat is Emil's: the names are the seats, in order
    assert cli.main(["odds", POSITION + " 5:-p4", "--players", NAMES, "--samples", "200",
                     "--top", "0"]) == 0
    assert "on  5 (Emil)" in capsys.readouterr().out
