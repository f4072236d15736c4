"""A reading judged among the dice that can be in the head: the dice still in the
pyramid this leg (RULES 1.4), a prior of zero for the dice already out
(``Classifier.among``, ``classify_detail(reading, among)``; docs/classifier.md, "In
play")."""

import json
import math

import pytest
from camelhost import paths
from camelup import calibration
from camelup.board import classifier as C

SETTINGS = {"integration_ms": 2.4, "gain": 1}
#: Two dice about a count of red and one of blue apart at 2.4 ms x1 (3.2-3.3 sigma the
#: smaller way, as the EV3 set's red and purple cubes), a yellow one far from both.
CLOSE = {"red": (19.0, 15.4, 2.6, 1.0), "purple": (15.0, 11.0, 2.1, 1.8), "yellow": (29.0, 14.7, 13.2, 1.3)}


def _counted(mean, n, seed):
    """``n`` readings of a die whose mean light gives ``mean`` counts at 2.4 ms x1, as the
    simulated chip counts them (``sim_optics.led_reading``), brightness spread 10 %,
    each colour channel another 10 %."""
    import sys

    sys.path[:0] = [paths.SIM_DIR]
    import sim_optics

    rng = sim_optics.Rng(seed)
    out = []
    for _ in range(n):
        light = math.exp(rng.normal(0.0, 0.1))
        hue = [1.0] + [math.exp(rng.normal(0.0, 0.1)) for _ in range(3)]
        out.append(sim_optics.led_reading([v * light * h for v, h in zip(mean, hue, strict=True)],
                                          C._tcs.steps(2.4), 1, rng))
    return out


@pytest.fixture(scope="module")
def close():
    """A classifier calibrated on the three dice (120 readings each) and 300 test
    readings of each, seeded."""
    cal = {label: _counted(mean, 120, seed) for seed, (label, mean) in enumerate(sorted(CLOSE.items()))}
    test = {label: _counted(mean, 300, 10 + seed) for seed, (label, mean) in enumerate(sorted(CLOSE.items()))}
    return C.Classifier(calibration.fit(cal, "second", SETTINGS)), test


BETWEEN = (17, 13, 2, 1)  # between red and purple: refused when both can be there


def test_a_reading_between_two_dice_is_named_when_one_of_them_is_out(close):
    clf, _test = close
    label, _m, detail = clf.classify_detail(BETWEEN)
    assert label == C.UNKNOWN and {detail["best"][0], detail["second"][0]} == {"red", "purple"}
    both = clf.among(["red", "purple", "yellow"])
    assert clf.classify_detail(BETWEEN, both)[0] == C.UNKNOWN  # both in: still refused
    assert clf.classify(BETWEEN, clf.among(["red", "purple"]))[0] == C.UNKNOWN  # yellow out: the same
    label, _m, detail = clf.classify_detail(BETWEEN, clf.among(["purple", "yellow"]))
    assert label == "purple" and detail["second"][0] != "red", detail
    label, _m, detail = clf.classify_detail(BETWEEN, clf.among(["red", "yellow"]))
    assert label == "red", detail


def test_a_die_that_is_out_is_never_named_even_when_its_reading_is_perfect(close):
    clf, test = close
    perfect = [r for r in test["yellow"] if clf.classify(r)[0] == "yellow"]
    assert len(perfect) >= 290
    among = clf.among(["red", "purple"])
    for reading in perfect:
        label, _m, detail = clf.classify_detail(reading, among)
        assert label in (C.UNKNOWN, C.DOUBLE), (reading, label, detail)
        # the pyramid's rule names it as the reading alone does: the table refuses a
        # die already out, saying so (tests/test_dice_out.py)
        assert clf.classify_in_play(reading, among)[0] == "yellow"


def test_the_dice_still_in_name_more_and_never_wrongly(close):
    """With one of the close pair out, the other's readings are named (most of them
    were refused between the two), none as a die that cannot be there; with both in,
    exactly what the single-reading judgement names."""
    clf, test = close
    for label, other in (("red", "purple"), ("purple", "red")):
        alone = [clf.classify(r)[0] for r in test[label]]
        among = clf.among([label, "yellow"])
        prior = [clf.classify(r, among)[0] for r in test[label]]
        assert alone.count(label) < 0.5 * len(alone)
        assert prior.count(label) >= 0.9 * len(prior), (label, prior.count(label))
        assert not [a for a in prior if a not in (label, C.UNKNOWN, C.DOUBLE)]
        both = clf.among([label, other, "yellow"])
        assert [clf.classify(r, both)[0] for r in test[label]] == alone


def test_among_keeps_the_profiles_order_and_the_empty_head():
    clf = C.Classifier(C.default_profile("second"))
    assert clf.among(["red", "grey-white", "orange", "blue"]) == ("blue", "empty", "grey-white", "red")


_MP_SCRIPT = """
import json
import camelup.board.classifier as C
clf = C.Classifier(json.loads(%r))
among = clf.among(%r)
out = []
for r in json.loads(%r):
    label, m, detail = clf.classify_detail(r, among)
    out.append([label, detail["best"][0]])
print(json.dumps(out))
"""


@pytest.mark.micropython
def test_the_same_answers_among_the_dice_in_under_micropython(close, micropython, tmp_path):
    clf, test = close
    readings = [BETWEEN] + test["red"][:20] + test["purple"][:20] + test["yellow"][:10]
    among = clf.among(["purple", "yellow"])
    expected = [[label, detail["best"][0]] for label, _m, detail in
                (clf.classify_detail(r, among) for r in readings)]
    script = tmp_path / "run.py"
    script.write_text(_MP_SCRIPT % (json.dumps(clf.profile), ["purple", "yellow"],
                                    json.dumps([list(r) for r in readings])))
    done = micropython([str(script)], [paths.FIRMWARE_DIR, paths.SHARED_DIR])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().split("\n")[-1]) == expected


def test_in_play_a_reading_refused_alone_is_judged_again_among_the_dice_in(close):
    """The pyramid's rule (``classify_in_play``): what the reading alone names stays
    named (a die already out too: the table refuses it, saying so); a reading refused
    alone is named only when the judgement among the dice in names a die (``prior``)."""
    clf, test = close
    label, _m, detail = clf.classify_in_play(BETWEEN, clf.among(["purple", "yellow"]))
    assert label == "purple" and detail["prior"] is True
    assert clf.classify_in_play(BETWEEN, clf.among(["red", "purple", "yellow"]))[0] == C.UNKNOWN
    assert clf.classify_in_play(BETWEEN)[0] == C.UNKNOWN
    yellow = next(r for r in test["yellow"] if clf.classify(r)[0] == "yellow")
    label, _m, detail = clf.classify_in_play(yellow, clf.among(["red", "purple"]))
    assert label == "yellow" and "prior" not in detail
    saturated = (70000, 40000, 20000, 10000)
    assert clf.classify_in_play(saturated, clf.among(["purple"]))[2]["reason"] == "saturated"


def test_the_last_die_alone_is_named_unless_nothing_like_it(close):
    """A profile without the empty head (the bench's real sets) and one die left: it is
    named within ``reject`` sigma, a reading far from it is not."""
    clf, test = close
    only = clf.among(["purple"])
    assert only == ("purple",)
    assert clf.classify(test["purple"][0], only)[0] == "purple"
    assert clf.classify((300, 10, 10, 280), only)[0] == C.UNKNOWN
