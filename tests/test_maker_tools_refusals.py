"""s31 tester findings 6 and 11, the maker's tools: ``monitor --place`` refuses, in one
line and before any pyramid starts, a die the virtual pyramid's edition does not have;
``calibrate --help`` gives ``--samples``' range, the one the option checks."""

import pytest
from camelhost import cli
from camelhost.tools import calibrate


@pytest.mark.parametrize("argv,expected", [
    (["--place", "orange"],
     "pyramid: --place orange: the second edition has no orange die (its dice: blue green "
     "yellow red purple grey-black grey-white; --edition chooses the edition)\n"),
    (["--place", "orange+red", "--edition", "classic"],
     "pyramid: --place orange+red: the classic edition has no red die (its dice: blue "
     "green orange yellow white; --edition chooses the edition)\n"),
    (["--place", "grey-black", "--edition", "classic"],
     "pyramid: --place grey-black: the classic edition has no grey-black die (its dice: "
     "blue green orange yellow white; --edition chooses the edition)\n"),
])
def test_monitor_refuses_a_die_not_in_the_virtual_pyramids_edition(capsys, argv, expected):
    rc = cli.main(["monitor", "--port", "virtual", "--count", "1"] + argv)
    out, err = capsys.readouterr()
    assert rc != 0 and out == ""
    assert err == expected


def test_monitor_refuses_it_in_german_too(capsys):
    rc = cli.main(["monitor", "--port", "virtual", "--count", "1", "--place", "orange",
                   "--lang", "de"])
    err = capsys.readouterr().err
    assert rc != 0
    assert err.startswith("pyramid: --place orange: die Zweitausgabe hat keinen Würfel "
                          "orange (ihre Würfel: "), err


def test_calibrate_help_gives_the_range_of_samples_it_checks(capsys):
    with pytest.raises(SystemExit):
        cli.main(["calibrate", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "for the grey die's inks), %d..%d; default 12" % (
        calibrate.MIN_SAMPLES, calibrate.MAX_SAMPLES) in shown
    for samples in (calibrate.MIN_SAMPLES - 1, calibrate.MAX_SAMPLES + 1):
        with pytest.raises(ValueError, match="--samples must be 3..100"):
            calibrate.check_samples(samples)
    calibrate.check_samples(calibrate.MIN_SAMPLES)
    calibrate.check_samples(calibrate.MAX_SAMPLES)
