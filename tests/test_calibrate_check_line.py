"""calibrate's check line and advice say what the check covered (tester s35-2, finding 9).

At ``--samples 3`` (docs/emulator.md's session) the leave-one-out check can only leave
out a reading of a class read 4 or more times: the grey die's two inks. The report said
``100.0% named right`` and ``good: ... 100.0% of the readings were named right``, and the
profile then rejected the yellow die in play. Now both lines name what was checked, and
the advice says what so few readings cost.
"""

import pytest
from camelhost import cli
from camelhost.tools import calibrate


def _loo(checked, skipped):
    rows = {label: {"n": 6, "correct": 6, "rejected": 0, "wrong": {}} for label in checked}
    rows.update({label: {"n": 0, "correct": 0, "rejected": 0, "wrong": {}} for label in skipped})
    rows["_total"] = {"n": 6 * len(checked), "correct": 6 * len(checked), "accuracy": 1.0,
                      "rejected": 0.0, "error": 0.0}
    return rows


PAIRS = [{"a": "grey-black", "b": "grey-white", "sigma": 8.9, "too_close": False}]


def test_the_advice_claims_only_the_classes_the_check_covered():
    loo = _loo(["grey-black", "grey-white"], ["blue", "empty", "yellow"])
    assert calibrate.checked(loo) == (["grey-black", "grey-white"], ["blue", "empty", "yellow"])
    line = calibrate.advise(PAIRS, 0, loo, 30)
    assert line.startswith("good: every pair of classes is at least 8.9 sigma apart")
    assert "named right" not in line and "%" not in line, line
    assert ("but the check covered only grey-black and grey-white: the other classes were read "
            "fewer than 4 times") in line and "reject such a die in play" in line, line
    assert "(12 readings a class, the default, are advised)" in line
    # every class checked: the share named right, as before
    whole = calibrate.advise(PAIRS, 0, _loo(["grey-black", "grey-white", "blue"], []), 60)
    assert whole.endswith("; 100.0% of the readings were named right when left out of the fit")


@pytest.mark.hil
@pytest.mark.micropython
def test_a_session_of_three_readings_says_its_check_covered_the_grey_inks_only(capsys,
                                                                               micropython):
    assert cli.main(["calibrate", "--port", "virtual", "--auto", "--samples", "3",
                     "--no-save"]) == 0
    out = capsys.readouterr().out
    check = [line for line in out.splitlines() if line.startswith("check")]
    assert check and check[0].startswith(
        "check of grey-black and grey-white only (each reading left out of the fit in turn; the "
        "other classes were read fewer than 4 times): "), out
    advice = [line for line in out.splitlines() if line.startswith("advice:")][0]
    assert "the check covered only grey-black and grey-white" in advice, advice
