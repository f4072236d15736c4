"""Colour classifier: features, fit, decisions, reports, default profiles, MicroPython."""

import json
import math
import os
import sys

import pytest
from camelhost import paths
from depth import examples

sys.path[:0] = [paths.SIM_DIR, paths.FIRMWARE_DIR]

import sim_optics  # noqa: E402
from camelup import calibration  # noqa: E402
from camelup.board import classifier as C  # noqa: E402
from pyramid import profile as stored  # noqa: E402
from sim_optics import OpticalModel  # noqa: E402

SETTINGS = {"integration_ms": 24.0, "gain": 4}


@pytest.fixture(scope="module")
def second():
    """A profile fitted on one simulated box, and a test set from the same box."""
    samples = sim_optics.calibration_samples("second", seed=31, n=24)
    profile = calibration.fit(samples, "second", SETTINGS)
    return profile, sim_optics.calibration_samples("second", seed=32, n=60)


def test_chromaticity_ignores_distance_brightness_does_not():
    near = C.features((4000, 2000, 1200, 600), 5000)
    far = C.features((1000, 500, 300, 150), 5000)
    for k in range(3):
        assert near[k] == pytest.approx(far[k], rel=0.03)
    assert near[3] - far[3] == pytest.approx(math.log(4), rel=0.03)


def test_classes_per_edition():
    assert C.classes_for("classic") == ("blue", "green", "orange", "yellow", "white", "empty")
    assert "grey-black" in C.classes_for("second") and "white" not in C.classes_for("second")
    with pytest.raises(ValueError):
        C.classes_for("third")
    assert calibration.die_label("grey", "white") == "grey-white" and calibration.die_label("red") == "red"
    assert calibration.split_label("grey-black") == ("grey", "black")
    assert calibration.split_label("blue") == ("blue", None)


def test_fit_records_settings_and_is_json(second):
    profile, _ = second
    assert profile["settings"] == {"integration_ms": 24.0, "gain": 4}
    assert profile["edition"] == "second"
    assert sorted(profile["classes"]) == sorted(C.classes_for("second"))
    again = json.loads(json.dumps(profile))
    assert again == profile
    C.check_profile(again)


@pytest.mark.parametrize(
    "samples, edition, match",
    [
        ({"blue": [(1, 1, 1, 1)] * 3}, "second", "two classes"),
        ({"blue": [(1, 1, 1, 1)] * 3, "orange": [(1, 1, 1, 1)] * 3}, "second", "orange"),
        ({"blue": [(1, 1, 1, 1)] * 3, "green": [(1, 1, 1, 1)] * 2}, "classic", "3 readings"),
        ({"blue": [(1, 1, 1, 1)] * 3, "green": [(1, 1, 1, 1)] * 3}, "third", "edition"),
    ],
)
def test_fit_rejects_bad_input(samples, edition, match):
    with pytest.raises(ValueError, match=match):
        calibration.fit(samples, edition, SETTINGS)


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.pop("settings"),
        lambda p: p.update(format=99),
        lambda p: p.update(ref_clear=0),
        lambda p: p["classes"]["blue"].pop("base"),
        lambda p: p.update(classes={"blue": p["classes"]["blue"]}),
        lambda p: p.update(guard=-1),
        lambda p: p.update(guard_se="3"),
        lambda p: p.update(tail=2.0),  # a Student-t at 2 degrees of freedom has no covariance
    ],
)
def test_check_profile_names_the_problem(second, damage):
    profile = json.loads(json.dumps(second[0]))
    damage(profile)
    with pytest.raises(ValueError):
        C.Classifier(profile)


def test_accuracy_and_rejection_on_the_same_box(second):
    profile, test = second
    report = calibration.evaluate(C.Classifier(profile), test)
    total = report["_total"]
    assert total["error"] <= 0.01  # a wrong colour is rare...
    assert total["accuracy"] >= 0.9  # ...and most are named (the grey inks' guard costs some)
    for label in ("blue", "green", "yellow", "red", "purple"):
        assert report[label]["correct"] >= 0.97 * report[label]["n"], report[label]


def test_far_off_reading_is_unknown(second):
    clf = C.Classifier(second[0])
    label, margin = clf.classify((3000, 2600, 300, 2500))  # magenta: no such die
    assert label in ("unknown", "double")
    # halfway between two grey inks: ambiguous, so unknown (never a guess)
    black = second[0]["classes"]["grey-black"]
    white = second[0]["classes"]["grey-white"]
    mid = math.exp((black["mean"][3] + white["mean"][3]) / 2) * clf.ref_clear
    rgb = [(black["mean"][k] + white["mean"][k]) / 2 * mid for k in range(3)]
    assert clf.classify((mid, rgb[0], rgb[1], rgb[2]))[0] == "unknown"


def test_saturated_reading_is_unknown(second):
    clf = C.Classifier(second[0])  # 24 ms: full scale 10240, saturated from 7680
    assert clf.saturation == 7680
    white = OpticalModel(3).samples("grey-white", 1)[0]
    scaled = tuple(v * 5 for v in white)  # as if read at 5x the exposure
    assert scaled[0] >= 7680
    assert clf.classify(scaled) == ("unknown", 0.0)
    assert clf.classify_detail(scaled)[2]["reason"] == "saturated"
    assert C.saturation_level({"integration_ms": 614.4, "gain": 60}) == 65535
    assert C.Classifier(second[0], {"integration_ms": 153.6, "gain": 4}).saturation == 65535


def test_margin_is_large_for_a_typical_reading(second):
    profile, test = second
    clf = C.Classifier(profile)
    label, margin = clf.classify(test["red"][0])
    assert label == "red" and margin > 3.0
    detail = clf.classify_detail(test["red"][0])[2]
    assert detail["best"][0] == "red" and detail["reason"] == "ok"


def test_two_dice_are_reported_as_double(second):
    clf = C.Classifier(second[0])
    optics = OpticalModel(41)
    got = [clf.classify(s)[0] for s in optics.samples(("blue", "yellow"), 30)]
    assert got.count("double") >= 24
    assert got.count("blue") + got.count("yellow") == 0  # never one of the two


def test_singles_are_rarely_called_double(second):
    profile, test = second
    report = calibration.evaluate(C.Classifier(profile), test)
    assert report["_total"]["double"] <= 0.01 * report["_total"]["n"]


def test_settings_rescale_brightness(second):
    profile, _ = second
    optics = OpticalModel(43)
    readings = optics.samples("grey-white", 20, integration_ms=48, gain=4)
    as_fitted = C.Classifier(profile)
    rescaled = C.Classifier(profile, settings={"integration_ms": 48, "gain": 4})
    assert rescaled.ref_clear == pytest.approx(2 * as_fitted.ref_clear)
    good = sum(rescaled.classify(r)[0] == "grey-white" for r in readings)
    wrong = sum(rescaled.classify(r)[0] not in ("grey-white", "unknown", "double") for r in readings)
    bad = sum(as_fitted.classify(r)[0] == "grey-white" for r in readings)
    # the guard leaves the dimmer grey-white readings unknown (the table asks), never black
    assert good >= 12 and wrong == 0 and bad <= 2


def test_observe_tracks_led_drift(second):
    profile, test = second
    clf = C.Classifier(profile)
    dimmer = [(int(c * 0.85), int(r * 0.85), int(g * 0.85), int(b * 0.85)) for c, r, g, b in test["grey-white"]]
    before = sum(clf.classify(s)[0] == "grey-white" for s in dimmer)
    for s in test["yellow"] + test["blue"]:
        clf.observe("yellow" if s in test["yellow"] else "blue", (int(s[0] * 0.85),) + s[1:])
    assert clf.drift == pytest.approx(0.85, abs=0.04)
    after = sum(clf.classify(s)[0] == "grey-white" for s in dimmer)
    assert after > before + 10


def test_separation_report_flags_the_close_pair(second):
    pairs = calibration.separation(second[0])
    assert len(pairs) == 28  # 8 classes
    assert pairs == sorted(pairs, key=lambda p: p["sigma"])
    assert {pairs[0]["a"], pairs[0]["b"]} == {"grey-black", "grey-white"}
    assert all(not p["too_close"] for p in pairs[1:])
    far = [p for p in pairs if {p["a"], p["b"]} == {"red", "empty"}][0]
    assert far["sigma"] > 10


def test_advice_names_close_pairs(second):
    assert str(calibration.advice(calibration.separation(second[0]))).startswith(
        "all classes separate well")
    cal, _ = _close_greys(7, 24, 0, bias=1.0)
    pairs = calibration.separation(calibration.fit(cal, "second", SETTINGS))
    assert {pairs[0]["a"], pairs[0]["b"]} == {"grey-black", "grey-white"} and pairs[0]["too_close"]
    text = str(calibration.advice(pairs))
    # names what would fix it, not "more readings"
    assert "grey-black/grey-white" in text and "ink question" in text and "more readings" not in text
    assert str(calibration.advice(pairs[1:])).startswith("all classes separate well")


@pytest.mark.parametrize("edition", ["classic", "second"])
def test_default_profiles_are_the_optical_models_fit(edition):
    assert C.default_profile(edition) == json.loads(json.dumps(sim_optics.default_profile(edition)))


@pytest.mark.parametrize("edition", ["classic", "second"])
def test_default_profile_works_on_other_seeds(edition):
    clf = C.Classifier(C.default_profile(edition))
    report = calibration.evaluate(clf, sim_optics.calibration_samples(edition, seed=77, n=25))
    assert report["_total"]["error"] <= 0.01
    assert report["_total"]["accuracy"] >= 0.93


def test_profile_store_roundtrip_and_atomic(tmp_path):
    path = str(tmp_path / "profile.json")
    assert stored.load(path) is None
    first = C.default_profile("classic")
    stored.save(first, path)
    assert stored.load(path) == first
    second = C.default_profile("second")
    stored.save(second, path)
    assert stored.load(path) == second
    assert not (tmp_path / "profile.json.tmp").exists()
    # a torn temporary file (power cut while writing) never replaces the profile
    (tmp_path / "profile.json.tmp").write_text(json.dumps(first)[:50])
    assert stored.load(path) == second
    # a corrupt profile counts as none
    (tmp_path / "profile.json").write_text("{not json")
    assert stored.load(path) is None
    with pytest.raises(ValueError):
        stored.save({"format": 1}, path)
    stored.remove(path)
    assert not list(tmp_path.iterdir())


_MP_SCRIPT = """
import json
import os
import camelup.calibration as calibration
import camelup.board.classifier as C
from pyramid import profile as P
readings = json.loads(%r)
clf = C.Classifier(C.default_profile("second"))
print(json.dumps([clf.classify(r)[0] for r in readings]))
samples = json.loads(%r)
p = calibration.fit(samples, "classic", {"integration_ms": 24, "gain": 4})
P.save(p, %r)
q = P.load(%r)
print(json.dumps(q["classes"]["blue"]["mean"]))
"""


@pytest.mark.micropython
def test_same_answers_under_micropython(micropython, tmp_path):
    readings = []
    truth = []
    data = sim_optics.calibration_samples("second", seed=55, n=4)
    for label in sorted(data):
        readings += data[label]
        truth += [label] * len(data[label])
    readings.append(OpticalModel(56).samples(("green", "red"), 1)[0])
    clf = C.Classifier(C.default_profile("second"))
    expected = [clf.classify(r)[0] for r in readings]
    cal = sim_optics.calibration_samples("classic", seed=57, n=5)
    path = str(tmp_path / "p.json")
    script = tmp_path / "run.py"
    script.write_text(_MP_SCRIPT % (json.dumps(readings), json.dumps(cal), path, path))
    done = micropython([str(script)], [paths.FIRMWARE_DIR, paths.SHARED_DIR])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().split("\n")
    assert json.loads(lines[0]) == expected
    assert sum(e == t for e, t in zip(expected[:-1], truth, strict=True)) >= len(truth) - 2
    host = calibration.fit(cal, "classic", {"integration_ms": 24, "gain": 4})
    assert json.loads(lines[1]) == pytest.approx(host["classes"]["blue"]["mean"], rel=1e-4)


# --- rejection margin: a wrong colour is far worse than `unknown` (RULES 3.5(c)) ---


def _wrong_rates(profile, test):
    """``{(true, got): rate}`` of readings named as another die or empty."""
    clf = C.Classifier(profile)
    rates = {}
    for label, readings in test.items():
        for r in readings:
            got = clf.classify(r)[0]
            if got not in (label, "unknown", "double"):
                rates[(label, got)] = rates.get((label, got), 0) + 1 / len(readings)
    return rates


@pytest.mark.parametrize("noise, limit", [(1.0, 0.002), (2.0, 0.005)])
def test_calibrated_profile_rarely_names_a_wrong_die(noise, limit):
    """12 readings per class (the advice), the bench's seeds: per class, under
    0.2 % wrong at the model's noise and 0.5 % at twice it; most dice still named."""
    for seed in (1000 + int(noise * 10) + 12, 4242):
        model = OpticalModel(seed, noise=noise)
        labels = C.classes_for("second")
        cal = {label: model.samples(label, 12) for label in labels}
        test = {label: model.samples(label, 300) for label in labels}
        profile = calibration.fit(cal, "second", SETTINGS)
        worst = _wrong_rates(profile, test)
        assert all(rate < limit for rate in worst.values()), (seed, worst)
        report = calibration.evaluate(C.Classifier(profile), test)
        for label in ("blue", "green", "yellow", "red", "purple"):
            assert report[label]["correct"] >= 0.95 * report[label]["n"], (seed, report[label])
        if noise == 1.0:  # the price: an unlucky calibration leaves many grey readings unknown
            assert report["_total"]["accuracy"] >= 0.85, (seed, report["_total"])


def _close_greys(seed, n_cal, n_test, bias=1.03):
    """Calibration and test readings of a head where the grey die's inks barely
    differ (white numerals 15 % brighter than black, instead of about 40 %), and
    the calibration of grey-white happened to catch it bright (``bias``)."""
    model = OpticalModel(seed)
    labels = C.classes_for("second")
    cal = {label: model.samples(label, n_cal) for label in labels}
    black = model.samples("grey-black", n_cal + n_test)
    cal["grey-white"] = [tuple(int(v * 1.15 * bias) for v in r) for r in black[:n_cal]]
    test = {"grey-white": [tuple(int(v * 1.15) for v in r) for r in black[n_cal:]]}
    return cal, test


def test_guard_rejects_what_the_margin_lets_through():
    """Unlucky 12-reading calibrations of two close classes (grey-white's centroid
    caught 3 % bright, about a sigma): without the guard, dim grey-white readings
    are named grey-black (up to 8 % of them); the guard cuts that fourfold (the
    rest is the table's to catch: such a pair is reported TOO CLOSE)."""
    unguarded = guarded = 0.0
    for seed in range(1020, 1028):
        cal, test = _close_greys(seed, 12, 300)
        off = calibration.fit(cal, "second", SETTINGS, guard=0, guard_se=0)
        unguarded += _wrong_rates(off, test).get(("grey-white", "grey-black"), 0)
        on = calibration.fit(cal, "second", SETTINGS)
        guarded += _wrong_rates(on, test).get(("grey-white", "grey-black"), 0)
    assert unguarded / 8 > 0.02
    assert guarded < 0.3 * unguarded
    clf = C.Classifier(on)
    reasons = set()
    for r in test["grey-white"]:
        label, margin, detail = clf.classify_detail(r)
        assert (label, margin) == clf.classify(r)
        reasons.add(detail["reason"])
    assert "guard" in reasons and "ok" in reasons


def test_guard_grows_for_small_calibrations(second):
    profile, _ = second
    clf = C.Classifier(profile)  # 24 readings per class
    assert clf._guard("grey-black", "grey-white") == pytest.approx(
        C.GUARD + C.GUARD_SE * math.sqrt(2 / 24))
    small = json.loads(json.dumps(profile))
    for entry in small["classes"].values():
        entry["n"] = 12
    assert C.Classifier(small)._guard("grey-black", "grey-white") > clf._guard("grey-black", "grey-white")


def test_profile_without_guard_still_loads(second):
    """Profiles saved before the guard existed (same format 1) get the defaults."""
    old = json.loads(json.dumps(second[0]))
    del old["guard"], old["guard_se"]
    C.check_profile(old)
    clf = C.Classifier(old)
    assert (clf.guard, clf.guard_se) == (C.GUARD, C.GUARD_SE)
    assert C.Classifier(second[0]).classify(second[1]["red"][0])[0] == "red"
    assert clf.classify(second[1]["red"][0])[0] == "red"


def test_pooling_steadies_a_class_spread():
    """A die whose 12 readings happen to be tight gets a spread nearer the others'
    (the pooled covariance weighs 20 readings against its own 11 degrees of freedom)."""
    samples = sim_optics.calibration_samples("second", seed=5, n=12)
    c, r, g, b = samples["grey-white"][0]
    samples["grey-white"] = [(c + i % 3, r + i % 2, g, b + i % 2) for i in range(12)]
    own = calibration.fit(samples, "second", SETTINGS, pool=0)
    pooled = calibration.fit(samples, "second", SETTINGS)
    lda = calibration.fit(samples, "second", SETTINGS, pool=None)
    sd = {name: {label: calibration.spread(p, label) for label in ("grey-white", "empty")}
          for name, p in (("own", own), ("pooled", pooled), ("lda", lda))}
    for k in range(4):
        # every feature: the seating and the LED spread every die alike
        assert sd["pooled"]["grey-white"][k] > 1.2 * sd["own"]["grey-white"][k]
        assert sd["lda"]["grey-white"][k] >= sd["pooled"]["grey-white"][k]
    assert sd["pooled"]["empty"] == sd["own"]["empty"]  # the empty head keeps its own
    # plain LDA: every die has the same base spread (their count noise differs)
    assert lda["classes"]["grey-white"]["base"] == lda["classes"]["blue"]["base"]


# --- whole releases through the firmware's release logic (the bench runs 100,000) ---


def _bench():
    sys.path.insert(0, os.path.join(paths.REPO_ROOT, "tests", "bench"))
    import bench_classifier

    return bench_classifier


@pytest.mark.parametrize("settings, profile", [
    ({"integration_ms": 24.0, "gain": 4}, None),  # calibrated with 12 readings per class
    ({"integration_ms": 7.2, "gain": 4}, "default"),  # the virtual pyramid: built-in 24 ms profile
])
@pytest.mark.slow
@pytest.mark.deep
def test_seeded_releases_never_misread_a_die_silently(settings, profile):
    """3,000 simulated releases in make deep, 750 in make test (90 % one die,
    5 % two dice, 5 % a jam) through ``pyramid.release.Release`` and the app's rule for
    rejected readings: no wrong colour, no double for one die, no empty for a die;
    nearly every die named."""
    got = _bench().simulate_releases(
        examples(3000), seed=11, settings=settings,
        profile=C.default_profile("second") if profile == "default" else None)
    assert got["wrong"] == 0 and got["double_for_one"] == 0 and got["empty_for_die"] == 0, got
    assert got["named"] >= 0.99 * got["singles"], got
    assert got["nodie_ok"] > 0 and got["double_ok"] > 0


def test_a_profile_saved_with_whitening_matrices_still_classifies_alike(second):
    """Profiles written before ``base`` (v1: each class's ``whiten`` stored) still load,
    and decide as the ``base`` form does at the profile's settings."""
    profile, test = second
    old = json.loads(json.dumps(profile))
    for label, entry in old["classes"].items():
        entry["whiten"] = [list(row) for row in C.whitening(profile, label)]
        del entry["base"]
    C.check_profile(old)
    new, former = C.Classifier(profile), C.Classifier(old)
    for readings in test.values():
        for r in readings[:20]:
            assert new.classify(r)[0] == former.classify(r)[0]


def test_two_dice_need_two_dice_worth_of_light(second):
    """A dim reading mixed like two dice is no double: the shares must add up to at
    least DOUBLE_LIGHT of a seated die (the empty head was reported as double)."""
    clf = C.Classifier(second[0])
    pairs = OpticalModel(41).samples(("blue", "yellow"), 30)
    assert sum(clf.classify(s)[0] == "double" for s in pairs) >= 24
    dim = [tuple(int(v * 0.3) for v in s) for s in pairs]
    assert all(clf.classify(s)[0] != "double" for s in dim)
    assert C.DOUBLE_LIGHT == pytest.approx(0.8)


def test_the_firmware_never_turns_a_rejected_reading_into_no_die():
    """``App._judge`` (firmware/pyramid/app.py): a reading the classifier rejects stays
    ``unknown`` even when the empty head is its nearest class (a dim blue die is no
    "no die"); the nearest die is kept as the event's guess."""
    from pyramid.app import App

    class Stub:
        guess = None
        among = None  # no dice out told (``OUT``): each reading judged alone

        def __init__(self, answer):
            self.classifier = self
            self.answer = answer

        def classify_detail(self, reading):
            return self.answer

    near_empty = Stub(("unknown", 0.4, {"best": ("empty", 5.1), "second": ("blue", 6.0)}))
    assert App._judge(near_empty, (40, 5, 9, 20)) == {"label": "unknown", "m": 40, "raw": (40, 5, 9, 20)}
    assert near_empty.guess is None
    near_blue = Stub(("unknown", 0.2, {"best": ("blue", 5.5), "second": ("empty", 5.7)}))
    assert App._judge(near_blue, (60, 8, 14, 30)) == {"label": "unknown", "m": 20, "raw": (60, 8, 14, 30)}
    assert near_blue.guess == "blue"
    # and the real classifier on a dim blue die at 2.4 ms: never "empty" from a rejection
    clf = C.Classifier(C.default_profile("second"), {"integration_ms": 2.4, "gain": 4})
    stub = Stub(None)
    stub.classifier = clf
    for reading in OpticalModel(12).samples("blue", 200, 2.4, 4):
        label, _margin, detail = clf.classify_detail(reading)
        if label == "unknown":
            assert App._judge(stub, reading)["label"] == "unknown"


def _cloud(rng, mean, sd, n):
    """``n`` readings (c, r, g, b) around ``mean`` counts, ``sd`` counts per channel."""
    return [tuple(max(0, int(round(rng.gauss(m, sd)))) for m in mean) for _ in range(n)]


def test_a_tail_reading_is_named_unless_two_dice_explain_it():
    """A reading beyond ``near`` sigma without a ``lead`` over the runner-up is named
    when no mixture of two dice explains it (a die's own tail: seated a little low),
    and is not when one does (a die with another in view); it used to be unknown
    either way."""
    import random

    rng = random.Random(5)
    mean = {"red": (3000, 1800, 600, 600), "purple": (3000, 1640, 600, 760),
            "yellow": (3000, 1400, 1400, 200)}
    clf = C.Classifier(calibration.fit({label: _cloud(rng, m, 25, 40) for label, m in mean.items()},
                             "second", SETTINGS))
    for reading, expect in (((2820, 1701, 564, 554), "red"),  # red, 6 % dimmer
                            ((3000, 1720, 760, 520), "double")):  # 80 % red, 20 % yellow
        label, _margin, detail = clf.classify_detail(reading)
        assert detail["best"][0] == "red" and clf.near < detail["best"][1] <= clf.reject
        assert detail["second"][1] - detail["best"][1] < clf.lead
        assert detail["posterior"] >= clf.posterior
        assert label == expect, detail
    assert detail["pair"] == ("red", "yellow") and detail["rejected"] == "far"


def test_posterior_is_the_multivariate_t_whose_covariance_is_the_class_spread(second):
    """The posterior of ``classify_detail`` is computed independently here (numpy):
    each class a 4-variate Student-t with the profile's degrees of freedom and the
    class's spread (``whitening``) as its covariance, equal priors. A t scaled as
    if the spread were its scale matrix (``d^2 / tail`` instead of ``d^2 / (tail - 2)``)
    gives other posteriors for readings between two classes."""
    np = pytest.importorskip("numpy")
    profile, test = second
    clf = C.Classifier(profile)
    nu = profile["tail"]
    assert nu > 2

    def posterior(x, covariance_is_spread):
        logs = []
        for label in clf.labels:
            w = np.array(C.whitening(profile, label))
            cov = np.linalg.inv(w.T @ w)  # the class spread: W^T W is its inverse
            shape = cov * (nu - 2) / nu if covariance_is_spread else cov
            diff = np.array(x) - np.array(profile["classes"][label]["mean"])
            d2 = diff @ np.linalg.solve(shape, diff)
            logs.append(-0.5 * (nu + 4) * math.log(1 + d2 / nu) - 0.5 * math.log(np.linalg.det(shape)))
        top = max(logs)
        return 1.0 / sum(math.exp(v - top) for v in logs)

    readings = []
    for a, b in (("grey-black", "grey-white"), ("red", "purple")):
        for i in range(10):  # from one class towards the other: some readings between them
            ra, rb = test[a][i], test[b][i]
            t = 0.3 + 0.04 * i
            readings += [ra, rb, tuple((1 - t) * ra[k] + t * rb[k] for k in range(4))]
    moved = 0
    for reading in readings:
        x = C.features(reading, clf.ref_clear)
        got = clf.classify_detail(reading)[2]["posterior"]
        assert got == pytest.approx(posterior(x, True), rel=1e-6, abs=1e-9), reading
        if abs(posterior(x, False) - got) > 1e-3:
            moved += 1
    assert moved >= 3, moved


def test_the_board_never_loads_the_calibration_code():
    """The fit and the reports are host-only (``camelup.calibration``): the module
    list shipped to the board (the firmware, `camelup.board` and the editions) holds the
    classifier and not them, and the classifier does not import them."""
    from camelhost.device import flash

    needed = [rel for _source, rel in flash.firmware_modules()]
    assert "camelup/board/classifier.py" in needed, needed
    assert not [rel for rel in needed if "calibration" in rel], needed
    import ast

    with open(os.path.join(paths.SHARED_DIR, "camelup", "board", "classifier.py")) as f:
        tree = ast.parse(f.read())
    imported = set()
    for node in ast.walk(tree):  # at any depth: an import inside a function counts
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported |= {"%s.%s" % (node.module, a.name) for a in node.names}
            imported.add(node.module or "")
    assert not [name for name in imported if "calibration" in name], imported
    for name in ("fit", "separation", "advice", "evaluate", "REMEDIES", "GREY_REMEDY"):
        assert not hasattr(C, name) and hasattr(calibration, name), name


def _low_light(edition, seed, settings, n_cal=12, n_test=200):
    """A calibration as ``pyramid calibrate`` takes it (``n_cal`` readings per class)
    and ``n_test`` test readings per die, all at ``settings``, from one simulated head."""
    model = OpticalModel(seed)
    it, gain = settings["integration_ms"], settings["gain"]
    labels = C.classes_for(edition)
    cal = {label: model.samples(label, n_cal, it, gain) for label in labels}
    test = {label: model.samples(label, n_test, it, gain) for label in labels if label != C.EMPTY}
    return cal, test


@pytest.mark.parametrize("edition", ["classic", "second"])
def test_low_count_readings_of_well_separated_colours_are_named(edition):
    """At the sensor's least light (2.4 ms, gain 1: a blue die reads a dozen counts of
    clear, two or three in its weakest channel) a reading that is clearly one
    colour is named: the count noise is the chip's (quantisation, read noise,
    shot noise per unit of gain), taken once, not twice, and the guard's
    calibration term shrinks where count noise is most of the spread."""
    settings = {"integration_ms": 2.4, "gain": 1}
    named = wrong = n = 0
    for seed in (61, 62, 63):
        cal, test = _low_light(edition, seed, settings)
        assert max(r[0] for r in test["blue"]) < 40  # dim indeed
        report = calibration.evaluate(C.Classifier(calibration.fit(cal, edition, settings)), test)
        named += report["_total"]["correct"]
        wrong += report["_total"]["wrong"]
        n += report["_total"]["n"]
    assert wrong == 0
    assert named >= 0.99 * n, (named, n)


def _between(clf, a, b):
    """The reading (integer counts) on the line between classes ``a`` and ``b``'s mean
    readings that is as far from one as from the other (sigma), or ``None`` when a
    third class is nearer there (a mix that looks like another die: the two-dice
    limit of docs/classifier.md, not a reading between ``a`` and ``b``)."""
    ua = clf.profile["classes"][a]["unit"]
    ub = clf.profile["classes"][b]["unit"]
    low, high = 0.0, 1.0
    for _ in range(30):
        t = (low + high) / 2
        reading = tuple(int(((1 - t) * ua[k] + t * ub[k]) * clf.ref_clear + 0.5) for k in range(4))
        near = {label: d for d, label in calibration.distances(clf, reading)}
        if near[a] < near[b]:
            low = t
        else:
            high = t
    # at a few counts a channel the rounded reading at the crossing can jump past it:
    # of the rounded readings around it, the one nearest to as far from both
    best = None
    for t in range(-40, 41):
        share = (low + high) / 2 + t * 0.0025
        candidate = tuple(int(((1 - share) * ua[k] + share * ub[k]) * clf.ref_clear + 0.5)
                          for k in range(4))
        near = {label: d for d, label in calibration.distances(clf, candidate)}
        gap = abs(near[a] - near[b])
        if best is None or gap < best[0]:
            best = (gap, candidate)
    reading = best[1]
    nearest = calibration.distances(clf, reading)[0][1]
    return reading if nearest in (a, b) else None


@pytest.mark.parametrize("settings", [{"integration_ms": 2.4, "gain": 1}, {"integration_ms": 2.4, "gain": 4},
                                      {"integration_ms": 24.0, "gain": 4}])
@pytest.mark.parametrize("edition", ["classic", "second"])
def test_a_reading_between_two_colours_is_still_refused(edition, settings):
    """However few counts: a reading as far from one colour as from another is
    neither (``unknown``, or ``double`` when two dice explain it), for every pair
    of the edition's dice whose in-between no third die claims."""
    checked = 0
    for seed in (61, 62, 63):
        cal, _test = _low_light(edition, seed, settings, n_test=1)
        clf = C.Classifier(calibration.fit(cal, edition, settings))
        dice = [label for label in clf.labels if label != C.EMPTY]
        for i, a in enumerate(dice):
            for b in dice[i + 1:]:
                reading = _between(clf, a, b)
                if reading is None:
                    continue
                checked += 1
                label = clf.classify(reading)[0]
                assert label in (C.UNKNOWN, C.DOUBLE), (seed, a, b, reading, label)
    assert checked >= 3  # at least one pair in every head


def _doubles(edition, seed, settings, n=20):
    """Readings of every pair of the edition's dice in the head together (``n`` each;
    the grey die's two inks never fall together) at ``settings``: ``[(pair, reading)]``."""
    model = OpticalModel(seed)
    dice = sim_optics.EDITION_DICE[edition]
    out = []
    for i, a in enumerate(dice):
        for b in dice[i + 1:]:
            if a.startswith("grey-") and b.startswith("grey-"):
                continue
            out += [((a, b), r) for r in model.samples((a, b), n, settings["integration_ms"],
                                                        settings["gain"])]
    return out


@pytest.mark.parametrize("settings", [{"integration_ms": 2.4, "gain": 4}, {"integration_ms": 24.0, "gain": 4}])
@pytest.mark.parametrize("edition", ["classic", "second"])
def test_two_dice_at_low_counts_are_not_named_as_one_of_them(edition, settings):
    """Two dice in the head are a wrong camel when named as one die. At 2.4 ms (a few
    dozen counts in a dark die's weakest channel) a die's spread is mostly count
    noise, and a double can sit where the distance, guard and tail rules trust the
    die whose colour dominates: the mixture test measures what the mixture gains in
    that spread (``MIX_GAIN``). 10-14 % of these doubles were named as one of
    their dice there before it, 1-2.5 % are now (seeds 71-74); single dice keep
    being named (``test_low_count_readings_of_well_separated_colours_are_named``)."""
    one = n = 0
    for seed in (71, 72):
        cal, _test = _low_light(edition, seed, settings, n_test=1)
        clf = C.Classifier(calibration.fit(cal, edition, settings))
        for pair, reading in _doubles(edition, seed, settings):
            n += 1
            one += clf.classify(reading)[0] in pair
    assert one <= 0.03 * n, (one, n)


def test_the_mixture_test_takes_a_double_the_other_rules_name(monkeypatch):
    """Yellow with a quarter of green in view, at 2.4 ms and gain 4: the reading lies a
    few sigma from yellow and far from every other die, so the distance, posterior,
    guard and tail rules all name it yellow (as they do with the mixture test off);
    the mixture with green gains more than ``MIX_GAIN`` in yellow's spread, so it is
    reported as the double it is. Yellow's own mean reading is still yellow."""
    settings = {"integration_ms": 2.4, "gain": 4}
    cal, _test = _low_light("classic", 71, settings, n_test=1)
    clf = C.Classifier(calibration.fit(cal, "classic", settings))
    yellow = clf.profile["classes"]["yellow"]["unit"]
    green = clf.profile["classes"]["green"]["unit"]
    mix = tuple(int((0.75 * yellow[k] + 0.25 * green[k]) * clf.ref_clear + 0.5) for k in range(4))
    label, _margin, detail = clf.classify_detail(mix)
    assert label == C.DOUBLE and detail["rejected"] == "mixture", detail
    assert detail["best"][0] == "yellow" and detail["pair"] == ("green", "yellow")
    alone = tuple(int(yellow[k] * clf.ref_clear + 0.5) for k in range(4))
    assert clf.classify(alone)[0] == "yellow"
    monkeypatch.setattr(C, "MIX_GAIN", 1e9)  # the mixture test off: the old rules name it
    assert clf.classify(mix)[0] == "yellow"


def test_a_brighter_die_partly_in_view_is_not_named_as_a_darker_one(monkeypatch):
    """At 2.4 ms and gain 1 a white die with a third of its top face in view (its mean
    reading at 30 %: (23, 7, 8, 6) counts) reads like a seated green die by its
    brightness, and the distance, posterior, guard, tail and mixture rules name it
    green (as they do with the dimmed-die test off). Its colour, at those counts,
    is white's: the dimmed-die test refuses it (``unknown``, reason ``dimmed``).
    A seated green or blue die's own mean reading is still named."""
    settings = {"integration_ms": 2.4, "gain": 1}
    cal, _test = _low_light("classic", 61, settings, n_test=1)
    clf = C.Classifier(calibration.fit(cal, "classic", settings))
    classes = clf.profile["classes"]
    white = tuple(int(classes["white"]["unit"][k] * clf.ref_clear * 0.3 + 0.5) for k in range(4))
    assert white == (23, 7, 8, 6)
    label, _margin, detail = clf.classify_detail(white)
    assert label == C.UNKNOWN and detail["reason"] == "dimmed", detail
    assert detail["best"][0] == "green" and detail["dimmed"] == "white"
    for die in ("green", "blue"):
        seated = tuple(int(classes[die]["unit"][k] * clf.ref_clear + 0.5) for k in range(4))
        assert clf.classify(seated)[0] == die, (die, seated)
    monkeypatch.setattr(C, "DIM_GAIN", 1e9)  # the test off: the other rules name it green
    assert clf.classify(white)[0] == "green"


def test_the_empty_head_with_a_die_in_view_is_never_a_double(second, monkeypatch):
    """When the mixture test finds that the empty head's reading is better explained
    with a die partly in view, the answer is ``unknown`` (no "no die", no "two
    dice"): the empty head is not a die of a pair."""
    clf = C.Classifier(second[0])
    empty = next(r for r in second[1]["empty"] if clf.classify(r)[0] == C.EMPTY)
    monkeypatch.setattr(C.Classifier, "_mixture", lambda self, x, best, labels: (20.0, "blue"))
    label, _margin, detail = clf.classify_detail(empty)
    assert detail["best"][0] == C.EMPTY
    assert label == C.UNKNOWN and detail["reason"] == "mixture", detail


@pytest.mark.parametrize("edition", ["classic", "second"])
def test_the_floor_counts_two_dice_so_the_sensors_least_light_is_refused(edition):
    """At 2.4 ms and gain 1 the simulated head's single dice are named (99.6-100 %),
    but a double is named as one of its dice 13-20 % of the time (section 3b): the
    even mixture of green and white (classic) or purple and a grey ink (second)
    lies about 2-3 sigma from its nearer die in colour, where no one-reading test
    can tell it. The floor counts that pair, so the darkest die there is under it
    (``pyramid calibrate`` refuses) where the floor of single dice alone let the
    classic head through; at 2.4 ms x4 (four times the light) it is over it."""
    for seed in (61, 62, 63):
        for settings, dim in (({"integration_ms": 2.4, "gain": 1}, True),
                              ({"integration_ms": 2.4, "gain": 4}, False)):
            cal, _test = _low_light(edition, seed, settings, n_test=1)
            profile = calibration.fit(cal, edition, settings)
            darkest = min(sorted(r[0] for r in cal[label])[len(cal[label]) // 2]
                          for label in cal if label != C.EMPTY)
            assert (darkest < profile["floor"]) is dim, (seed, settings, darkest, profile["floor"])
            if dim and edition == "classic":
                assert darkest >= calibration.light_floor(profile, doubles=False)


def test_enough_light_is_one_number_from_the_fit_to_the_board():
    """The floor is computed once, by ``calibration.light_floor`` when the profile is
    fitted, and travels in the profile: the classifier the board runs reads that
    number, at any settings (a count floor: the counts themselves are what the
    noise is made of); a profile of the same dice under a fortieth of the light
    gets a floor of the same order (the dice set it, not the light); an older
    profile (no floor) calls nothing dim."""
    samples = sim_optics.calibration_samples("second", seed=41, n=12)
    profile = calibration.fit(samples, "second", SETTINGS)
    assert profile["floor"] == pytest.approx(calibration.light_floor(profile), rel=1e-5)
    assert C.Classifier(profile).floor == profile["floor"]
    assert C.Classifier(profile, {"integration_ms": 7.2, "gain": 4}).floor == profile["floor"]
    dim = {label: [tuple(int(v / 40.0 + 0.5) for v in r) for r in rows]
           for label, rows in samples.items()}
    dim_profile = calibration.fit(dim, "second", {"integration_ms": 2.4, "gain": 1})
    assert 20.0 < profile["floor"] < 60.0 and 20.0 < dim_profile["floor"] < 60.0
    # two dice set it here: single dice alone ask for less
    assert calibration.light_floor(profile, doubles=False) < 0.7 * profile["floor"]
    old = json.loads(json.dumps(profile))
    del old["floor"]
    assert C.Classifier(old).floor == 0.0


#: Each colour channel's light spread around the die's mean (the seat, the die's own hue).
JITTER = 0.1


def _counted(mean, n, settings, seed):
    """``n`` readings of a die whose mean light gives ``mean`` ``(c, r, g, b)`` counts at
    2.4 ms and gain 1, counted by the simulated chip at ``settings`` (its integer
    counts, LED-on less LED-off: ``sim_optics.led_reading``), brightness spread 10 %,
    each colour channel's light another ``JITTER`` (the seat, the die's own hue)."""
    rng = sim_optics.Rng(seed)
    scale = C._tcs.exposure(settings) / C._tcs.exposure({"integration_ms": 2.4, "gain": 1})
    steps = C._tcs.steps(settings["integration_ms"])
    out = []
    for _ in range(n):
        light = scale * math.exp(rng.normal(0.0, 0.1))
        hue = [1.0] + [math.exp(rng.normal(0.0, JITTER)) for _ in range(3)]
        out.append(sim_optics.led_reading([v * light * h for v, h in zip(mean, hue, strict=True)], steps,
                                          settings["gain"], rng))
    return out


#: Two dice about a count of red and a count of blue apart at 2.4 ms x1, 3.2-3.3 sigma the
#: smaller way (as the EV3 set's red and purple cubes, bench section 3b), and a yellow
#: one far from both.
_CLOSE = {"red": (19.0, 15.4, 2.6, 1.0), "purple": (15.0, 11.0, 2.1, 1.8), "yellow": (29.0, 14.7, 13.2, 1.3)}


@pytest.mark.parametrize("settings", [{"integration_ms": 2.4, "gain": 1}, {"integration_ms": 24.0, "gain": 4}])
def test_two_dice_the_counts_make_close_are_not_named_one_for_the_other(settings, monkeypatch):
    """At 2.4 ms and gain 1 the red and the purple die differ by about one count of red
    and one of blue: a red reading whose red count rounds down and blue count up is
    purple's typical reading, and with the guard alone (measured in red's spread
    only) such readings of red were named purple. The two are less than ``near``
    sigma apart there, the smaller of the two ways, and more than that without
    count noise: so neither is named over the other unless the reading lies ``near``
    sigma from the other (most do not: refused), and none is named wrongly; the
    yellow die, far from both, is named. At 24 ms and gain 4 (40 times the counts)
    the same dice are named."""
    cal = {label: _counted(mean, 120, settings, seed) for seed, (label, mean) in enumerate(sorted(_CLOSE.items()))}
    test = {label: _counted(mean, 300, settings, 10 + seed) for seed, (label, mean) in enumerate(sorted(_CLOSE.items()))}
    clf = C.Classifier(calibration.fit(cal, "second", settings))
    got = {label: [clf.classify(r)[0] for r in rows] for label, rows in test.items()}
    wrong = sum(1 for label in got for a in got[label] if a not in (label, C.UNKNOWN, C.DOUBLE))
    assert wrong == 0, {label: [a for a in got[label] if a != label][:5] for label in got}
    assert got["yellow"].count("yellow") >= 0.99 * len(got["yellow"])
    if settings["gain"] == 1:
        # most red and purple readings have the other as runner-up: refused by the guard
        assert got["purple"].count("purple") < 0.5 * len(got["purple"])
        monkeypatch.setattr(C, "LIGHT_SHARE", 1e-9)  # every pair as close without count noise: the test off
        clf = C.Classifier(calibration.fit(cal, "second", settings))
        wrong = sum(1 for label in ("red", "purple") for r in test[label]
                    if clf.classify(r)[0] not in (label, C.UNKNOWN, C.DOUBLE))
        assert wrong > 0  # without it, red and purple name each other
    else:
        assert got["red"].count("red") >= 0.99 * len(got["red"])
        assert got["purple"].count("purple") >= 0.99 * len(got["purple"])


def test_two_dice_the_counts_make_close_are_named_where_the_reading_is_far_from_the_other():
    """The red and the purple die of the test above at 2.4 ms and gain 1, 3.2-3.3 sigma
    apart the smaller way: a reading of either is named when it lies ``near`` (4) sigma
    from the other towards it, measured in the other's spread as the guard measures
    (the other's own readings beyond ``near`` are its tail, about 1 in 100 by distance,
    fewer along one line), the guard's pair test. A fifth to a quarter of their
    readings are (before, the pair was never named: 0 of 600), still none wrongly; a
    reading between the two ((17, 13, 2, 1)) and one at red's mean counts, 3 sigma
    from purple, are refused."""
    settings = {"integration_ms": 2.4, "gain": 1}
    cal = {label: _counted(mean, 120, settings, seed) for seed, (label, mean) in enumerate(sorted(_CLOSE.items()))}
    test = {label: _counted(mean, 300, settings, 10 + seed) for seed, (label, mean) in enumerate(sorted(_CLOSE.items()))}
    clf = C.Classifier(calibration.fit(cal, "second", settings))
    got = {label: [clf.classify(r)[0] for r in test[label]] for label in ("red", "purple")}
    assert all(a in (label, C.UNKNOWN, C.DOUBLE) for label in got for a in got[label]), got
    assert got["red"].count("red") >= 0.15 * len(got["red"]), got["red"].count("red")
    assert got["purple"].count("purple") >= 0.15 * len(got["purple"]), got["purple"].count("purple")
    for reading in ((17, 13, 2, 1), (19, 15, 3, 1)):
        label, _margin, detail = clf.classify_detail(reading)
        assert label == C.UNKNOWN and {detail["best"][0], detail["second"][0]} == {"red", "purple"}, detail
