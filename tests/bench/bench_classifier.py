"""Colour classifier benchmark: accuracy, rejection and error rates; speed; memory.

1. Simulated dice (hardware/sim/sim_optics.py) at the fitted noise, both editions:
   the built-in default profile, and profiles calibrated like `pyramid calibrate`
   does (12 or 40 readings per class), on the reference box and on another box
   (variation 0.05: other dyes, LED and chip gains), at 1x and 2x noise; then 20
   seeded 12-reading calibrations of the second edition (both grey inks).
2. Two dice in the head: how often each pair is reported as `double`.
3. Real third-party readings (../shared/data/sensor, not in the repository;
   skipped when absent) and their simulated replicas (hardware/sim/sim_fit.py,
   fitted to the same logs): 20 seeded splits, each calibrating on a random 25 %
   of every class's log and testing on the rest, for each edition's colours;
   rejected = `unknown`, `double` or `empty` for a die. Ours next to a plain LDA
   of the same features (pooled covariance, no shrinkage, no count noise, no
   guard), forced to choose and with a posterior reject. These sensors have no
   clear channel: clear is taken as R + G + B.
3b. Across the light range: the same sets scaled down to what a TCS34725 counts at
   five exposures, 2.4 ms x1 to 153.6 ms x16 (``scaled_set``: the simulated chip's
   noise and integer counts), their replicas (on the real logs' brightness paths)
   alike, and the simulated pyramid at the same exposures; ours next to a plain
   LDA per edition and the most that LDA names with no wrong die (``LDA0``: its
   posterior threshold chosen after the fact), what the data allows (``data_bound``:
   the most any classifier names with none wrong on the row's readings, and
   ``halves_bound``, the same fitted on one half and judged on the other), whether
   ours names >= 99 % with no wrong die where the LDA names >= 99 % rightly (or the
   row is data-limited: the bound under 99 %), and the darkest die against its floor
   (enough light); at the real rows that fail that rule, why ours refuses (by reason
   and colour, its posterior's right share, readings more than one colour gives) and
   how its closest pair's readings lie along the line between them (``pair_axis``), what
   Chow's rule names there with a cost ratio fixed beforehand (``chow``), and what the data
   allows as the readings grow (``pooled_bound``, the EV3 replica pooled over 10 seeds), the
   model's spread against the readings' (``model_shape``) and a quadratic discriminant with
   each die's own covariance in two feature spaces (``feature_spaces``), the count lattice
   (``lattice``: each die a mixture over its lights of the chip's integer counts, 5 splits),
   k nearest calibration readings with a reject option (``knn_reject``, its parameters by
   leave-one-out on the calibration readings, 5 splits, two passing rows beside them);
   every real row by release beside by reading (``per_release``: each reading's light counted afresh through
   the firmware's release logic); then two dice in the simulated pyramid's head at each
   exposure: how many are named as one die.
4. Whole releases through the firmware's release logic (``pyramid.release``, the
   app's ``_judge``): 100,000 simulated releases (single dice, two dice, a jam);
   silent misreads counted (a wrong colour, a double for one die, an empty for a die).
5. Cost: classify time on CPython and on the MicroPython unix port, heap taken by
   the classifier and by one sample + classify under MicroPython (gc.mem_alloc).

Rates: accuracy = named correctly; rejected = `unknown` or `double` (the host
asks the player); error = named as another die (the failure that matters);
worst = the highest wrong rate of one class, and under each row every pair
with wrong reads (true class -> read as, rate of the true class's readings).
"""

import csv
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path[:0] = [os.path.join(REPO, "shared"), os.path.join(REPO, "hardware", "sim")]

from camelup import calibration  # noqa: E402
from camelup.board import classifier as C  # noqa: E402
from camelup.editions import get_edition  # noqa: E402
from sim_optics import DEFAULT_SETTINGS, EDITION_DICE, OpticalModel  # noqa: E402


def _reference():
    """The real readings: $PYRAMID_REFERENCE/data/sensor, ../shared beside the checkout,
    or beside the worktrees' folder (../../shared); None when absent."""
    roots = [os.environ.get("PYRAMID_REFERENCE"), os.path.join(REPO, "..", "shared"),
             os.path.join(REPO, "..", "..", "shared")]
    for root in roots:
        if root and os.path.isdir(os.path.join(root, "data", "sensor")):
            return os.path.abspath(os.path.join(root, "data", "sensor"))
    return None


REFERENCE = _reference()
TEST_PER_CLASS = 300


def _sim_sets(edition, variation, noise, n_cal, seed):
    """Calibration and test readings from one model (one box, one chip)."""
    model = OpticalModel(seed, variation=variation, noise=noise)
    labels = C.classes_for(edition)
    cal = {label: model.samples(label, n_cal) for label in labels} if n_cal else None
    test = {label: model.samples(label, TEST_PER_CLASS) for label in labels}
    return cal, test


def _wrong_pairs(report):
    """``[(rate, true, read_as, count, n)]`` for every pair with wrong reads, worst first."""
    out = []
    for label in report:
        if label == "_total":
            continue
        r = report[label]
        for got, count in r["wrong"].items():
            out.append((count / r["n"], label, got, count, r["n"]))
    out.sort(key=lambda p: (-p[0], p[1], p[2]))
    return out


def _row(name, report):
    t = report["_total"]
    pairs = _wrong_pairs(report)
    line = "%-44s %6d %8.2f%% %8.2f%% %7.2f%% %7.2f%%" % (
        name, t["n"], 100 * t["accuracy"], 100 * t["rejected"], 100 * t["error"],
        100 * pairs[0][0] if pairs else 0.0)
    if pairs:
        line += "\n      wrong: " + ", ".join(
            "%s->%s %.2f%% (%d/%d)" % (a, b, 100 * rate, count, n) for rate, a, b, count, n in pairs)
    return line


def _per_class(report):
    lines = []
    for label in sorted(k for k in report if k != "_total"):
        r = report[label]
        wrong = ", ".join("%s %d" % (k, v) for k, v in sorted(r["wrong"].items())) or "-"
        lines.append("    %-11s n=%-4d correct %5.1f%%  unknown %4.1f%%  double %4.1f%%  wrong: %s" % (
            label, r["n"], 100 * r["correct"] / r["n"], 100 * r["unknown"] / r["n"],
            100 * r["double"] / r["n"], wrong))
    return "\n".join(lines)


def simulated():
    print("1. Simulated dice, %d test readings per class (dice + empty)" % TEST_PER_CLASS)
    print("%-44s %6s %9s %9s %8s %8s" % (
        "edition / profile / box / noise", "n", "accuracy", "rejected", "error", "worst"))
    keep = {}
    for edition in ("classic", "second"):
        for variation, box in ((0.0, "reference box"), (0.05, "other box")):
            for noise in (1.0, 2.0):
                for n_cal in (0, 12, 40):
                    seed = 1000 + int(variation * 100) + int(noise * 10) + n_cal
                    cal, test = _sim_sets(edition, variation, noise, n_cal, seed)
                    if cal is None:
                        profile = C.default_profile(edition)
                        how = "default"
                    else:
                        profile = calibration.fit(cal, edition, DEFAULT_SETTINGS)
                        how = "calibrated %d" % n_cal
                    report = calibration.evaluate(C.Classifier(profile), test)
                    print(_row("%s / %s / %s / %gx" % (edition, how, box, noise), report))
                    if variation == 0 and noise == 1.0 and n_cal == 12:
                        keep[edition] = (profile, report)
    for edition in ("classic", "second"):
        profile, report = keep[edition]
        print("\n  %s, calibrated with 12 readings per class, reference box, 1x noise:" % edition)
        print(_per_class(report))
        close = [p for p in calibration.separation(profile) if p["too_close"]]
        worst = calibration.separation(profile)[0]
        print("    closest pair: %s/%s %.1f sigma; too close: %s" % (
            worst["a"], worst["b"], worst["sigma"],
            ", ".join("%s/%s" % (p["a"], p["b"]) for p in close) or "none"))
    return keep


def many_calibrations(runs=16):
    """One 12-reading calibration is a random draw: the same figures over ``runs``."""
    print("\n1b. Second edition, %d calibrations of 12 readings per class, reference box, %d test "
          "readings per class each" % (runs, TEST_PER_CLASS))
    for noise in (1.0, 2.0):
        n = correct = 0
        pooled = {}
        worst = []
        for run in range(runs):
            cal, test = _sim_sets("second", 0.0, noise, 12, 5000 + run)
            report = calibration.evaluate(C.Classifier(calibration.fit(cal, "second", DEFAULT_SETTINGS)), test)
            n += report["_total"]["n"]
            correct += report["_total"]["correct"]
            pairs = _wrong_pairs(report)
            worst.append(pairs[0][0] if pairs else 0.0)
            for _rate, a, b, count, _n in pairs:
                pooled[(a, b)] = pooled.get((a, b), 0) + count
        worst.sort()
        per_class = runs * TEST_PER_CLASS
        print("  %gx noise: accuracy %.2f%%; worst class of one calibration: median %.2f%%, "
              "max %.2f%%; %d of %d calibrations with any wrong read" % (
                  noise, 100 * correct / n, 100 * worst[len(worst) // 2], 100 * worst[-1],
                  sum(1 for w in worst if w > 0), runs))
        print("      wrong, all runs: " + (", ".join(
            "%s->%s %.3f%% (%d/%d)" % (a, b, 100 * count / per_class, count, per_class)
            for (a, b), count in sorted(pooled.items(), key=lambda kv: -kv[1])) or "none"))


class _Judge:
    """Runs the firmware app's own ``App._judge`` (firmware/pyramid/app.py) on a
    classifier: the label the release logic is fed (a rejected reading stays
    ``unknown``, whatever its nearest class), margin in hundredths of a sigma: its
    verdict record (``pyramid.release.verdict``)."""

    def __init__(self, clf):
        sys.path.insert(0, os.path.join(REPO, "firmware"))
        from pyramid.app import App

        self.classifier = clf
        self.guess = None
        self.among = None  # no dice out: each reading judged alone, as the bench's rows
        self.among_out = 0
        self._judge = App._judge

    def __call__(self, reading):
        return self._judge(self, reading)


def simulate_releases(n, seed=1, edition="second", settings=None, cal_settings=None,
                      profile=None, double_share=0.05, jam_share=0.05, reading_ms=None):
    """``n`` whole releases through ``pyramid.release.Release`` (the firmware's
    settle / stable / timeout logic, its default 150 ms, 3 readings, 1.5 s) with
    readings every ``reading_ms`` (two integrations + LED settling), each release a
    new seating of the die (or two dice, or none: a jam) from one
    ``OpticalModel(seed)``. The profile: ``profile``, or a 12-reading calibration
    at ``cal_settings`` (default ``settings``, default 24 ms / 4x). Returns a dict of
    counts: ``releases``, ``singles`` (releases of one die), ``named`` (the die that fell), ``unknown``, ``double_ok``
    (two dice reported as double), ``nodie_ok`` (a jam reported as no die), and
    the silent misreads of a die ``wrong`` (another colour, or a die for a jam),
    ``double_for_one`` and ``empty_for_die``, and ``double_named`` (two dice fell,
    one die was named); ``misreads`` lists the first few."""
    sys.path.insert(0, os.path.join(REPO, "firmware"))
    from pyramid.release import Release

    settings = settings or DEFAULT_SETTINGS
    cal_settings = cal_settings or settings
    model = OpticalModel(seed)
    labels = C.classes_for(edition)
    if profile is None:
        cal = {label: model.samples(label, 12, cal_settings["integration_ms"], cal_settings["gain"])
               for label in labels}
        profile = calibration.fit(cal, edition, cal_settings)
    clf = C.Classifier(profile, settings)
    judge = _Judge(clf)
    it = settings["integration_ms"]
    step = reading_ms or int(2 * (3 + it * 1.1) + 4 + 2)
    dice = EDITION_DICE[edition]
    box = get_edition(edition).dice
    rng = model._rng

    def ink(die):
        return die + ("-black" if rng.random() < 0.5 else "-white") if die == "grey" else die
    out = {"releases": 0, "singles": 0, "named": 0, "unknown": 0, "double_ok": 0, "nodie_ok": 0,
           "wrong": 0, "double_for_one": 0, "empty_for_die": 0, "double_named": 0,
           "misreads": []}
    for index in range(n):
        u = rng.random()
        if u < jam_share:
            content = "empty"
        elif u < jam_share + double_share:  # two of the box's dice (there is one grey die)
            i = int(rng.random() * len(box))
            j = (i + 1 + int(rng.random() * (len(box) - 1))) % len(box)
            content = (ink(box[i]), ink(box[j]))
        else:
            content = dice[int(rng.random() * len(dice))]
        model.begin(index)
        rel = Release(150, 1500, 3)
        rel.start(0)
        now = 0
        result = None
        reading_index = 0
        while result is None:
            now += step
            off = model.counts(content, False, it, settings["gain"], index=reading_index)
            on = model.counts(content, True, it, settings["gain"], index=reading_index + 1)
            reading_index += 2
            reading = tuple(max(0, on[k] - off[k]) for k in range(4))
            result = rel.feed(now, judge(reading))
        kind, got = result["kind"], result["label"]
        out["releases"] += 1
        bad = None
        if content == "empty":
            if kind == "nodie":
                out["nodie_ok"] += 1
            elif kind == "die":
                bad = "wrong"
            else:
                out["unknown"] += 1  # asked: never silent
        elif isinstance(content, tuple):
            if kind == "double":
                out["double_ok"] += 1
            elif kind == "die":
                bad = "wrong"
            elif kind == "nodie":
                bad = "empty_for_die"
            else:
                out["unknown"] += 1
        else:
            out["singles"] += 1
            if kind == "die" and got == content:
                out["named"] += 1
            elif kind == "die":
                bad = "wrong"
            elif kind == "double":
                bad = "double_for_one"
            elif kind == "nodie":
                bad = "empty_for_die"
            else:
                out["unknown"] += 1
        if bad == "wrong" and isinstance(content, tuple):
            bad = "double_named"  # two dice fell, one die was named
        if bad:
            out[bad] += 1
            if len(out["misreads"]) < 5:
                out["misreads"].append((index, content, kind, got, result["raw"]))
    return out


def releases(n=100000):
    """100,000 releases through the firmware's release logic, second edition."""
    print("\n4. Whole releases through the firmware's release logic (pyramid.release.Release, "
          "the app's _judge), second edition: 90 % one die, 5 % two dice, 5 % a jam")
    runs = (
        ("24 ms / 4x, calibrated with 12 readings per class", DEFAULT_SETTINGS, None, None, n),
        ("7.2 ms / 4x (the virtual pyramid), the built-in 24 ms profile rescaled",
         {"integration_ms": 7.2, "gain": 4}, None, C.default_profile("second"), n),
        ("2.4 ms / 4x (one integration step: a few hundred counts), calibrated there",
         {"integration_ms": 2.4, "gain": 4}, None, None, n // 5),
    )
    for name, settings, cal, profile, count in runs:
        started = time.perf_counter()
        per = count // 5
        total = {}
        for part in range(5):  # five calibrations (seeds), a fifth of the releases each
            got = simulate_releases(per, seed=7000 + part, settings=settings, cal_settings=cal,
                                    profile=profile)
            for key, value in got.items():
                if key == "misreads":
                    total.setdefault(key, []).extend(value)
                else:
                    total[key] = total.get(key, 0) + value
        silent = total["wrong"] + total["double_for_one"] + total["empty_for_die"]
        print("  %s: %d releases in %.0f s: %d silent misreads (wrong colour %d, double for one "
              "die %d, empty for a die %d); single dice named %.2f %%; asked (unknown) %d; "
              "two dice reported double %d, named as one die %d; jams reported no die %d" % (
                  name, total["releases"], time.perf_counter() - started, silent, total["wrong"],
                  total["double_for_one"], total["empty_for_die"],
                  100.0 * total["named"] / max(1, total["singles"]),
                  total["unknown"], total["double_ok"], total["double_named"], total["nodie_ok"]))
        for m in total.get("misreads", [])[:5]:
            print("      misread: release %d %r -> %s %s %r" % m)


def doubles(keep):
    print("\n2. Two dice in the head (30 readings per pair, calibrated profile above)")
    for edition in ("classic", "second"):
        clf = C.Classifier(keep[edition][0])
        model = OpticalModel(77)
        dice = EDITION_DICE[edition]
        counts = {"double": 0, "unknown": 0, "one of the two": 0, "another die": 0}
        worst = []
        for i in range(len(dice)):
            for j in range(i + 1, len(dice)):
                if dice[i].startswith("grey-") and dice[j].startswith("grey-"):
                    continue  # one grey die: its two inks never fall together
                got = [clf.classify(s)[0] for s in model.samples((dice[i], dice[j]), 30)]
                for g in got:
                    if g in ("double", "unknown"):
                        counts[g] += 1
                    elif g in (dice[i], dice[j]):
                        counts["one of the two"] += 1
                    else:
                        counts["another die"] += 1
                worst.append((got.count("double"), dice[i] + "+" + dice[j]))
        total = sum(counts.values())
        worst.sort()
        print("  %-8s %s; pairs least often seen as double: %s" % (
            edition,
            ", ".join("%s %.1f%%" % (k, 100 * v / total) for k, v in counts.items()),
            ", ".join("%s %d/30" % (name, n) for n, name in worst[:3])))


def _read_waddle(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        if name.startswith("color_data_") and name.endswith(".csv"):
            label = name[len("color_data_"):-4]
            rows = []
            with open(os.path.join(folder, name)) as f:
                for line in f:
                    line = line.strip().strip("[]")
                    if line:
                        r, g, b = (int(v) for v in line.split(","))
                        rows.append((r + g + b, r, g, b))
            out[label] = rows
    return out


_SPANISH = {"Rojo": "red", "Verde": "green", "Azul": "blue", "Amarillo": "yellow",
            "Morado": "purple", "Naranja": "orange", "Blanco": "white", "Negro": "black"}


def _read_tcs230(path):
    out = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            # pulse widths in us: lower = brighter; intensity ~ 1 / width
            r, g, b = (10000.0 / max(1, int(row[k])) for k in ("r", "g", "b"))
            out.setdefault(_SPANISH[row["name"]], []).append((r + g + b, r, g, b))
    return out


def _real_edition(data, edition, dark):
    """Subset of a data set holding an edition's colours (+ a dark class as `empty`).

    The tcs230 set's black card stands in for the empty head (dark, no hue)."""
    labels = [label for label in EDITION_DICE[edition] if label in data]
    subset = {label: data[label] for label in labels}
    if dark and dark in data:
        subset["empty"] = data[dark]
    return subset


REAL_SETTINGS = {"integration_ms": 614.4, "gain": 1}  # other units: settings that never saturate
#: The real sets in their own units are not TCS34725 counts: their count noise is
#: not the chip's (``camelup.board.classifier.SHOT`` per unit of gain, ``STEP``), so they are
#: fitted with the classifier v2 constants (0.05 counts^2 per count, one count
#: squared) and the measured spread kept whole. Scaled to TCS34725 counts
#: (``scaled_set``) they are fitted as a pyramid is.
NATIVE_NOISE = {"shot": 0.05, "step": 1.0, "denoise": False}


def fit_native(cal, edition):
    """Our profile of a real set in its own units (``NATIVE_NOISE``)."""
    return calibration.fit(cal, edition, REAL_SETTINGS, **NATIVE_NOISE)


class PlainLDA:
    """A textbook linear discriminant of the same four features: one covariance
    pooled over every class (no shrinkage, no count noise, no guard), equal priors.
    ``reject``: smallest posterior to name a class (0 = always choose).
    ``saturation``: a clear count from which a reading's colour is lost (the
    sensor's, ``camelup.board.tcs34725.saturation_level``): such a reading is not named,
    as ours does not name it; ``None`` for other units."""

    def __init__(self, cal, reject=0.0, saturation=None):
        import numpy as np

        self.np = np
        labels = sorted(cal)
        dice = [label for label in labels if label != C.EMPTY]
        ref = max(sorted(r[0] for r in cal[label])[len(cal[label]) // 2] for label in dice)
        self.ref = float(ref)
        rows = {label: np.array([C.features(r, self.ref) for r in cal[label]]) for label in labels}
        self.labels = labels
        self.means = np.array([rows[label].mean(axis=0) for label in labels])
        scatter = sum(((rows[label] - rows[label].mean(axis=0)).T @ (rows[label] - rows[label].mean(axis=0)))
                      for label in labels)
        dof = sum(len(rows[label]) - 1 for label in labels)
        self.inv = np.linalg.pinv(scatter / dof)
        self.reject = reject
        self.saturation = saturation

    def rank(self, reading):
        """``(label, posterior)`` of the likeliest class (``None``, 0 when saturated)."""
        np = self.np
        if self.saturation is not None and reading[0] >= self.saturation:
            return (None, 0.0)
        d = self.means - np.array(C.features(reading, self.ref))
        score = np.einsum("ij,jk,ik->i", d, self.inv, d)
        order = np.argsort(score)
        return (self.labels[order[0]], float(1.0 / np.exp(-(score - score[order[0]]) / 2).sum()))

    def classify(self, reading):
        label, post = self.rank(reading)
        if label is None or post < self.reject:
            return (C.UNKNOWN, 0.0)
        return (label, 0.0)


def _split(subset, rng, share, per_class=None):
    """One split of ``subset`` (``{label: [reading, ...]}``): ``(cal, test)``, a random
    ``share`` of each label's log (or ``per_class`` readings of it) drawn with ``rng``
    (a ``random.Random``, labels in sorted order) to calibrate, the rest to test,
    each in log order."""
    cal = {}
    test = {}
    for label in sorted(subset):
        rows = subset[label]
        order = list(range(len(rows)))
        rng.shuffle(order)
        k = per_class if per_class else int(len(rows) * share)
        cal[label] = [rows[i] for i in sorted(order[:k])]
        test[label] = [rows[i] for i in sorted(order[k:])]
    return cal, test


def split_protocol(data, make, splits=20, share=0.25, dark="black", per_class=None, first_seed=0):
    """The real-set protocol: for each of ``splits`` seeds (from ``first_seed``) and each
    edition, calibrate on a random ``share`` of every class's log (or ``per_class``
    readings of it, as ``pyramid calibrate`` takes) (``make(cal, edition)`` -> object
    with ``classify``) and classify the rest. Returns counts over single dice: ``n``,
    ``named``, ``rejected`` (unknown, double, or empty for a die), ``wrong``, and the
    same counts of each edition under its name."""
    import random

    out = {"n": 0, "named": 0, "rejected": 0, "wrong": 0}
    for edition in ("classic", "second"):
        out[edition] = {"n": 0, "named": 0, "rejected": 0, "wrong": 0}
    for seed in range(first_seed, first_seed + splits):
        rng = random.Random(seed)
        for edition in ("classic", "second"):
            cal, test = _split(_real_edition(data, edition, dark), rng, share, per_class)
            clf = make(cal, edition)
            for label in sorted(test):
                if label == C.EMPTY:
                    continue
                for reading in test[label]:
                    got = clf.classify(reading)[0]
                    if got == label:
                        key = "named"
                    elif got in (C.UNKNOWN, C.DOUBLE, C.EMPTY):
                        key = "rejected"
                    else:
                        key = "wrong"
                    for counts in (out, out[edition]):
                        counts["n"] += 1
                        counts[key] += 1
    return out


def zero_wrong_coverage(data, splits=20, share=0.25, saturation=None):
    """The plain LDA's best case with a reject option, per edition: over the
    ``split_protocol`` splits, every test reading of a die ranked by the LDA's
    posterior, the share of them named correctly before the first wrong one (the
    threshold chosen after the fact, on the test readings themselves: no rule that
    rejects by that posterior names more with no wrong die). ``{edition: %}``."""
    import random

    ranked = {"classic": [], "second": []}
    for seed in range(splits):
        rng = random.Random(seed)
        for edition in ("classic", "second"):
            cal, test = _split(_real_edition(data, edition, "black"), rng, share)
            lda = PlainLDA(cal, saturation=saturation)
            for label in sorted(test):
                if label == C.EMPTY:
                    continue
                for reading in test[label]:
                    got, post = lda.rank(reading)
                    ranked[edition].append((post, got == label))
    return {edition: _coverage(rows) for edition, rows in ranked.items()}


def _coverage(ranked):
    """``ranked``: ``[(posterior, right)]``: the % of them that are right and whose
    posterior is above that of every wrong one (a tie with a wrong one is no lead)."""
    first = None
    for post, right in ranked:
        if not right and (first is None or post > first):
            first = post
    named = sum(1 for post, right in ranked if right and (first is None or post > first))
    return 100.0 * named / max(1, len(ranked))


def split_tests(data, splits=20, share=0.25, dark="black"):
    """The test readings of ``split_protocol``'s splits (the same seeds and draws):
    ``{edition: [{label: [reading, ...]}, ...]}``, one dict a split, dice only."""
    import random

    out = {"classic": [], "second": []}
    for seed in range(splits):
        rng = random.Random(seed)
        for edition in ("classic", "second"):
            _cal, test = _split(_real_edition(data, edition, dark), rng, share)
            out[edition].append({label: rows for label, rows in test.items() if label != C.EMPTY})
    return out


def _colours_by_reading(subset):
    """``{reading: {label, ...}}``: the dice of ``subset`` (``{label: [reading]}``) that
    give each reading (its counts as a tuple)."""
    by = {}
    for label in sorted(subset):
        for reading in subset[label]:
            by.setdefault(tuple(reading), set()).add(label)
    return by


def data_bound(sets):
    """What the data allows: the largest share of the readings that any classifier of
    one reading could name with none wrong, on those very readings. ``sets``: a list
    of ``{label: [reading, ...]}`` (dice only; e.g. each split's test readings), each
    judged on its own. A classifier sees only the reading's counts, so counts that two
    dice of one set give cannot be named without a wrong die (whichever die it names,
    the other's reading is wrong), and counts that one die alone gives can at best
    all be named rightly. Returns ``(nameable, n)``: the readings whose counts only
    their own die gives in their set, and all of them. An upper bound: a rule that
    must also name readings it has not seen does no better."""
    nameable = n = 0
    for subset in sets:
        by = _colours_by_reading(subset)
        for label in sorted(subset):
            for reading in subset[label]:
                n += 1
                nameable += len(by[tuple(reading)]) == 1
    return nameable, n


def halves_bound(subset, halvings=10, seed=0):
    """``data_bound`` out of sample: ``subset`` (``{label: [reading]}``, dice only) is
    split ``halvings`` times (seeded from ``seed``) into two random halves of each
    die's log; a rule fitted on one half (counts it saw from one die named that die,
    counts it saw from two or more refused) is judged on the other, both ways. A
    reading counts as nameable unless its counts came from another die in the fitted
    half (the rule would refuse it or name it wrongly); counts never seen there are
    taken as named rightly, the best any rule could do with them, so it stays a bound
    on what a rule fitted on half the data can name, and a bound that is not a fit
    to the readings it is judged on. Returns ``(nameable, n)``."""
    import random

    rng = random.Random(seed)
    nameable = n = 0
    for _ in range(halvings):
        one = {}
        other = {}
        for label in sorted(subset):
            rows = subset[label]
            order = list(range(len(rows)))
            rng.shuffle(order)
            half = len(rows) // 2
            one[label] = [rows[i] for i in order[:half]]
            other[label] = [rows[i] for i in order[half:]]
        for fitted, judged in ((one, other), (other, one)):
            by = _colours_by_reading(fitted)
            for label in sorted(judged):
                for reading in judged[label]:
                    n += 1
                    nameable += by.get(tuple(reading), set()) <= {label}
    return nameable, n


def _percent(pair):
    return 100.0 * pair[0] / max(1, pair[1])


def bounds(data, splits=20):
    """What the data allows on each edition's row of section 3b: ``{edition: {"tests":
    %, "halves": %}}``, ``data_bound`` on the test readings of ``split_protocol``'s
    ``splits`` splits of ``data`` (``{label: [reading]}``, the black card as the empty
    head, left out) and ``halves_bound`` on the edition's dice."""
    tests = split_tests(data, splits)
    out = {}
    for edition in ("classic", "second"):
        dice = {label: rows for label, rows in _real_edition(data, edition, "black").items()
                if label != C.EMPTY}
        out[edition] = {"tests": _percent(data_bound(tests[edition])),
                        "halves": _percent(halves_bound(dice))}
    return out


def _rates(got):
    n = float(got["n"] or 1)
    return (100 * got["named"] / n, 100 * got["rejected"] / n, 100 * got["wrong"] / n)


def real_sets():
    """``[(name, units, data)]`` of the real sets found (``_reference()``)."""
    sets = []
    if REFERENCE is None:
        return sets
    waddle = os.path.join(REFERENCE, "Waddl-E")
    if os.path.isdir(waddle):
        sets.append(("EV3 (Waddl-E, LEGO EV3 RGB)", "ev3", _read_waddle(waddle)))
    tcs230 = os.path.join(REFERENCE, "tcs230", "color.csv")
    if os.path.exists(tcs230):
        sets.append(("TCS230 (pulse widths)", "tcs230", _read_tcs230(tcs230)))
    return sets


def replica(data, units, seed=1, real_brightness=False):
    """A simulated copy of a real set: ``sim_fit`` fitted to its logs, logs of the same
    lengths drawn from the fit; with ``real_brightness``, each log follows the real
    log's own brightness path (``sim_fit.brightness_paths``), and the channels lag
    its movement as the real sensor's do (``sim_fit.fit_lag``: the TCS230 reads its
    filters one after another)."""
    import sim_fit

    fits = sim_fit.fit_set(data, units, lag=real_brightness)
    paths = sim_fit.brightness_paths(data) if real_brightness else None
    return sim_fit.LogModel(fits, units, seed, paths=paths).sets({k: len(v) for k, v in data.items()})


def real_data(splits=20):
    print("\n3. Real third-party readings (%s) and their simulated replicas: %d seeded splits, "
          "calibrate on a random 25 %% of each class's log, test on the rest, both editions' "
          "colours; rejected = unknown, double or empty" % (REFERENCE, splits))
    sets = real_sets()
    if not sets:
        print("  skipped: the real readings (../shared/data/sensor) are not beside this checkout")
        return
    ours = lambda cal, edition: C.Classifier(fit_native(cal, edition))  # noqa: E731
    lda = lambda cal, edition: PlainLDA(cal)  # noqa: E731
    lda_rej = lambda cal, edition: PlainLDA(cal, 0.999)  # noqa: E731
    print("  %-30s %-34s %8s %9s %8s" % ("set", "classifier", "named", "rejected", "wrong"))
    for name, units, data in sets:
        sim = replica(data, units)
        for which, rows in (("real", data), ("simulated", sim)):
            for how, make in (("ours (v2)", ours), ("plain LDA, forced choice", lda),
                              ("plain LDA, posterior >= 0.999", lda_rej)):
                if which == "simulated" and how != "ours (v2)":
                    continue
                got = split_protocol(rows, make, splits)
                named, rejected, wrong = _rates(got)
                print("  %-30s %-34s %7.2f%% %8.2f%% %7.3f%%  (%d wrong of %d)" % (
                    name.split(" (")[0] + " " + which, how, named, rejected, wrong, got["wrong"],
                    got["n"]))
    print("  Other calibration sizes, ours, 20 other seeds (100-119): named / wrong (count)")
    for name, _units, data in sets:
        cells = []
        for how, share, per_class in (("12 per class", 0.25, 12), ("24 per class", 0.25, 24),
                                      ("10 %", 0.1, None), ("50 %", 0.5, None)):
            got = split_protocol(data, ours, splits, share=share, per_class=per_class, first_seed=100)
            named, _rejected, wrong = _rates(got)
            cells.append("%s %.2f%% / %.3f%% (%d)" % (how, named, wrong, got["wrong"]))
        print("  %-30s %s" % (name.split(" (")[0], "; ".join(cells)))


#: The five exposures of section 3b, from the sensor's least light to far more than a
#: pyramid needs: (integration ms, gain); 153.6 ms is the 64-step setting `154 ms` rounds to.
EXPOSURES = ((2.4, 1), (2.4, 4), (24.0, 4), (153.6, 4), (153.6, 16))


def _simulated(edition, it, gain):
    """The simulated pyramid at ``it`` ms and gain ``gain``, as every simulator row of
    the sections uses it: ``(model, labels, cal)``, the seeded ``OpticalModel``, the
    edition's classes and 12 calibration readings of each."""
    model = OpticalModel(4100 + int(it * 10) + gain)
    labels = C.classes_for(edition)
    return model, labels, {label: model.samples(label, 12, it, gain) for label in labels}


def scaled_set(data, settings, seed=1):
    """A real set as a TCS34725 reads it at ``settings`` (``{"integration_ms", "gain"}``).

    Each native reading is taken as light (``c, r, g, b`` intensities) and scaled
    so that the median clear reading of the set's brightest class gives
    ``RANGE_HIGH`` (65 %) of the saturation level at the longest of ``EXPOSURES``
    (where gain auto-ranging, ``camelup.board.tcs34725.choose_gain``, would put it), in
    proportion to the exposure
    (integration steps x gain, ``camelup.board.tcs34725.exposure``); then counted by the
    chip's own arithmetic (``sim_optics.led_reading``: dark counts, shot and read
    noise, analog knee, integer counts rounded as the model's ADC rounds, LED-on less
    LED-off, clipped at 0), seeded by ``seed``. At 2.4 ms x1 the channels read from
    0 to about 30 counts. Returns ``{label: [(c, r, g, b), ...]}`` in the same order."""
    import camelup.board.tcs34725 as tcs
    from sim_optics import Rng, led_reading

    light = scaled_light(data, settings)
    steps = tcs.steps(settings["integration_ms"])
    gain = settings["gain"]
    rng = Rng(seed)
    out = {}
    for label in sorted(data):
        out[label] = [led_reading(r, steps, gain, rng) for r in light[label]]
    return out


def scaled_light(data, settings):
    """The light ``scaled_set`` counts: each native reading of ``data`` times the one
    factor of the set at ``settings`` (the counts the LED's light alone gives, before
    the chip's noise and rounding), ``{label: [(c, r, g, b) floats, ...]}`` in the
    same order."""
    import camelup.board.tcs34725 as tcs

    top_ms, top_gain = EXPOSURES[-1]
    top = {"integration_ms": top_ms, "gain": top_gain}
    brightest = max(sorted(r[0] for r in rows)[len(rows) // 2] for rows in data.values())
    per_exposure = tcs.RANGE_HIGH * tcs.saturation_level(top_ms) / tcs.exposure(top) / brightest
    k = per_exposure * tcs.exposure(settings)
    return {label: [[v * k for v in r] for r in data[label]] for label in sorted(data)}


def _exposure_name(settings):
    return "%g ms x%d" % (settings["integration_ms"], settings["gain"])


def _cell(got):
    named, rejected, wrong = _rates(got)
    return "%6.2f %6.2f %5.2f (%d)" % (named, rejected, wrong, got["wrong"])


def _sources(only=None):
    """Section 3b's real sources: ``[(name, data)]``, each real set (``"EV3 real"``,
    ``"TCS230 real"``) and its replica on the real log's own brightness path
    (``"EV3 replica"``, ...): what differs is the simulator's colours, drift, noise
    and counts. ``only``: the names wanted (default all)."""
    sources = []
    for name, units, data in real_sets():
        short = name.split(" (")[0]
        if only is None or short + " real" in only:
            sources.append((short + " real", data))
        if only is None or short + " replica" in only:
            sources.append((short + " replica", replica(data, units, real_brightness=True)))
    return sources


def _edition_splits(data, edition, splits, share=0.25):
    """``(cal, test)`` of ``edition`` for each of ``splits`` seeded splits of ``data``
    (``share`` to calibrate): the very splits ``split_protocol`` draws, both editions'
    from each seed's generator, only ``edition``'s handed on."""
    import random

    for seed in range(splits):
        rng = random.Random(seed)
        for ed in ("classic", "second"):
            cal, test = _split(_real_edition(data, ed, "black"), rng, share)
            if ed == edition:
                yield cal, test


def _rows_by_source(rows):
    """``[(data, [row])]``: the ``(source, edition, settings)`` rows grouped by their
    source's data (``_sources``), each source built once, in the sources' name order."""
    wanted = {}
    for source, data in _sources(set(row[0] for row in rows)):
        for row in rows:
            if row[0] == source:
                wanted.setdefault(source, (data, []))[1].append(row)
    return [wanted[source] for source in sorted(wanted)]


def exposure_table(splits=20, sim_per_class=300):
    """Section 3b: named / rejected / wrong per edition at ``EXPOSURES``, ours next to
    a plain LDA (forced choice; both leave a saturated reading unnamed), on every
    real set scaled to TCS34725 counts (``scaled_set``), on its simulated replica
    (following the real logs' brightness paths) scaled alike, and on the simulated pyramid (``OpticalModel``: 12 calibration
    readings per class as ``pyramid calibrate`` takes, ``sim_per_class`` test
    readings). Returns ``[(source, edition, settings, ours, lda, lda0, light, bound)]`` (count
    dicts; ``lda0``: ``zero_wrong_coverage``, %; ``light``: ``_light``; ``bound``: what the
    data allows, ``{"tests": %, "halves": %}``, ``data_bound`` on the row's very test
    readings and ``halves_bound`` on the edition's whole set) and prints the table and,
    for every row where the LDA names at least 99 % rightly (the issue's rule,
    ``verdict``), whether ours names at least 99 % with no wrong die, or that no
    classifier can there (``data-limited``)."""
    print("\n3b. Across the light range: named / rejected / wrong %% (wrong count) per edition at "
          "five exposures; ours next to a plain LDA (forced choice); real sets scaled to "
          "TCS34725 counts by the chip's arithmetic (%d seeded splits, 25 %% calibrates), their "
          "replicas alike, the simulated pyramid (12 per class calibrate, %d per class tested)"
          % (splits, sim_per_class))
    rows = []
    sources = _sources()
    print("  %-16s %-8s %-14s %-26s %-26s %6s %-13s %-13s %s" % (
        "source", "edition", "exposure", "ours", "plain LDA", "LDA0", "bound/halves", "ok?",
        "darkest/floor"))
    print("  (LDA0: the most the plain LDA names with no wrong die, its posterior threshold chosen"
          " after the fact on the test readings; ok?: where the LDA names >= 99 % rightly"
          " (the colours separable by its measure), ours names >= 99 % with 0 wrong, '-'"
          " where it names fewer rightly, data-limited where the bound is under 99 %: no classifier"
          " can; bound: the most any classifier of one reading can name with none wrong on the row's"
          " test readings (counts two dice give are never named), halves: the same fitted on one half"
          " of the set and judged on the other; darkest/floor: the darkest die's median clear count"
          " against enough light, DIM when under it: pyramid calibrate refuses those settings)")
    for source, data in sources:
        for it, gain in EXPOSURES:
            settings = {"integration_ms": it, "gain": gain}
            scaled = scaled_set(data, settings)
            sat = C.saturation_level(settings)
            ours = split_protocol(scaled, lambda cal, edition, s=settings: C.Classifier(
                calibration.fit(cal, edition, s, floor=False)), splits)
            lda = split_protocol(scaled, lambda cal, edition, s=sat: PlainLDA(cal, saturation=s), splits)
            best = zero_wrong_coverage(scaled, splits, saturation=sat)
            bound = bounds(scaled, splits)
            for edition in ("classic", "second"):
                rows.append((source, edition, settings, ours[edition], lda[edition], best[edition],
                             _light(_real_edition(scaled, edition, "black"), edition, settings),
                             bound[edition]))
    for edition in ("classic", "second"):
        for it, gain in EXPOSURES:
            settings = {"integration_ms": it, "gain": gain}
            model, labels, cal = _simulated(edition, it, gain)
            test = {label: model.samples(label, sim_per_class, it, gain) for label in labels
                    if label != C.EMPTY}
            counts = []
            lda = PlainLDA(cal, saturation=C.saturation_level(settings))
            ranked = [(post, got == label) for label in sorted(test) for got, post in
                      (lda.rank(reading) for reading in test[label])]
            for clf in (C.Classifier(calibration.fit(cal, edition, settings)), lda):
                got = {"n": 0, "named": 0, "rejected": 0, "wrong": 0}
                for label in sorted(test):
                    for reading in test[label]:
                        answer = clf.classify(reading)[0]
                        got["n"] += 1
                        if answer == label:
                            got["named"] += 1
                        elif answer in (C.UNKNOWN, C.DOUBLE, C.EMPTY):
                            got["rejected"] += 1
                        else:
                            got["wrong"] += 1
                counts.append(got)
            bound = {"tests": _percent(data_bound([test])), "halves": _percent(halves_bound(test))}
            rows.append(("pyramid sim", edition, settings, counts[0], counts[1], _coverage(ranked),
                         _light(cal, edition, settings), bound))
    for source, edition, settings, ours, lda, best, light, bound in rows:
        print("  %-16s %-8s %-14s %-26s %-26s %6.2f %6.2f/%-6.2f %-13s %s" % (
            source, edition, _exposure_name(settings), _cell(ours), _cell(lda), best,
            bound["tests"], bound["halves"], verdict(ours, lda, bound["tests"]), light))
    return rows


def leg_point(edition, die, rng):
    """The dice already out when ``die`` (a sensor label) comes out at a uniformly random
    point of a leg (RULES 1.4: each die leaves the pyramid once a leg; in the second
    edition one die stays inside when the leg ends, ``Edition.dice_left_inside``): its
    place among the dice that leave is uniform, the dice before it a uniform draw of
    the others, with ``rng`` (a ``random.Random``). Returns the sensor labels of the
    dice still in the pyramid, ``die`` among them (the grey die is both its inks)."""
    ed = get_edition(edition)
    own = die.split("-")[0]
    others = [d for d in ed.dice if d != own]
    rng.shuffle(others)
    out = set(others[:rng.randrange(len(ed.dice) - ed.dice_left_inside)])
    return [label for label in ed.sensor_labels if label.split("-")[0] not in out]


def _count(pair, label, alone, among, in_play):
    """Count one reading of die ``label`` into ``pair`` (alone, in play: count dicts): named,
    rejected (``unknown``, ``double``, ``empty``; in play also a die already out, which
    the table refuses saying so) or wrong."""
    for counts, got in ((pair[0], alone), (pair[1], in_play)):
        counts["n"] += 1
        if got == label:
            counts["named"] += 1
        elif got in (C.UNKNOWN, C.DOUBLE, C.EMPTY) or (counts is pair[1] and got not in among):
            counts["rejected"] += 1
        else:
            counts["wrong"] += 1


def split_in_play(data, settings, splits=20, share=0.25, per_class=None):
    """``split_protocol`` for ours at ``settings``, each test reading of a die judged twice:
    alone (every die of the edition alike) and in play (``Classifier.classify_in_play``:
    a reading refused alone is judged again among the dice still in the pyramid at a
    uniformly random point of a leg, ``leg_point``, seeded by the split:
    ``random.Random(1000 * split + 7)``). Returns ``{edition: (alone, in_play)}``, count
    dicts (``_count``)."""
    import random

    out = {}
    for edition in ("classic", "second"):
        out[edition] = ({"n": 0, "named": 0, "rejected": 0, "wrong": 0},
                        {"n": 0, "named": 0, "rejected": 0, "wrong": 0})
    for seed in range(splits):
        rng = random.Random(seed)
        for edition in ("classic", "second"):
            cal, test = _split(_real_edition(data, edition, "black"), rng, share, per_class)
            clf = C.Classifier(calibration.fit(cal, edition, settings, floor=False))
            legs = random.Random(1000 * seed + 7)
            for label in sorted(test):
                if label == C.EMPTY:
                    continue
                for reading in test[label]:
                    among = clf.among([d for d in leg_point(edition, label, legs)
                                       if d in clf.profile["classes"]])
                    _count(out[edition], label, clf.classify(reading)[0], among, clf.classify_in_play(reading, among)[0])
    return out


def in_play(splits=20, sim_per_class=300, sources=None):
    """Section 3b in play: the rows of ``exposure_table`` (real sets and their replicas,
    20 splits; the simulated pyramid, 12 readings per class calibrate and
    ``sim_per_class`` tested) judged alone and among the dice still in the pyramid at a
    uniformly random point of a leg (``split_in_play``). The single-reading figures stay
    the issue's rule; in play is what a table sees. Returns ``[(source, edition,
    settings, alone, in_play)]`` and prints them."""
    import random

    print("\n3b in play. The same readings, each judged alone (every die alike) and among the "
          "dice still in the pyramid at a uniformly random point of a leg (seeded): named / "
          "rejected / wrong %% (wrong count); %d splits, the simulated pyramid %d per class"
          % (splits, sim_per_class))
    print("  %-16s %-8s %-14s %-26s %-26s" % ("source", "edition", "exposure", "alone", "in play"))
    rows = []
    for source, data in sources if sources is not None else _sources():
        for it, gain in EXPOSURES:
            settings = {"integration_ms": it, "gain": gain}
            got = split_in_play(scaled_set(data, settings), settings, splits)
            for edition in ("classic", "second"):
                rows.append((source, edition, settings) + got[edition])
    for edition in ("classic", "second"):
        for it, gain in EXPOSURES:
            settings = {"integration_ms": it, "gain": gain}
            model, labels, cal = _simulated(edition, it, gain)
            clf = C.Classifier(calibration.fit(cal, edition, settings))
            legs = random.Random(4200 + int(it * 10) + gain)
            pair = ({"n": 0, "named": 0, "rejected": 0, "wrong": 0},
                    {"n": 0, "named": 0, "rejected": 0, "wrong": 0})
            for label in labels:
                if label == C.EMPTY:
                    continue
                for reading in model.samples(label, sim_per_class, it, gain):
                    among = clf.among(leg_point(edition, label, legs))
                    _count(pair, label, clf.classify(reading)[0], among, clf.classify_in_play(reading, among)[0])
            rows.append(("pyramid sim", edition, settings) + pair)
    for source, edition, settings, alone, play in rows:
        print("  %-16s %-8s %-14s %-26s %-26s" % (source, edition, _exposure_name(settings),
                                                  _cell(alone), _cell(play)))
    return rows


def verdict(ours, lda, bound=None):
    """The issue's rule on one row of section 3b (count dicts of ``split_protocol``):
    ``"-"`` where the plain LDA names fewer than 99 % of the readings rightly (the
    colours are not separable there by its measure); ``"data-limited"`` where
    ``bound`` (``data_bound`` of the row's test readings, %, when given) is under 99:
    no classifier of one reading names 99 % of them with none wrong, so the rule
    cannot be met there; else ``"yes"`` when ours names at least 99 % with no wrong
    die, ``"NO"`` otherwise. The LDA's right share is the reference of separability
    (the issue: "a plain linear discriminant ... names 100 % with none wrong, so the
    colours are separable there"); the rule read strictly (named right or wrong)
    judged rows where the LDA is wrong on 1-2 %."""
    if _rates(lda)[0] < 99.0:
        return "-"
    if bound is not None and bound < 99.0:
        return "data-limited"
    return "yes" if _rates(ours)[0] >= 99.0 and ours["wrong"] == 0 else "NO"


def reason(clf, detail):
    """Why ``clf`` (a ``Classifier``) refused a reading, from its ``classify_detail``:
    its ``reason`` with the rules told apart that share one: ``guard`` (the reading
    too near the runner-up) from ``pair test`` (winner and runner-up a pair these
    counts make close, whose guard is ``near`` sigma, ``Classifier._axis``), ``far`` (beyond
    ``reject`` sigma) from ``tail rule`` (beyond ``near`` without the lead, a
    mixture fits or the posterior is under ``TAIL_POSTERIOR``); ``double/...`` for
    a ``double`` says which rule refused the die first."""
    why = detail["reason"]
    first = detail.get("rejected", why)
    pair = (detail["best"][0], detail["second"][0])
    if first == "guard" and (clf._axis(pair[0], pair[1]) is None or pair in clf._close):
        first = "pair test"
    elif first == "far" and detail["best"][1] <= clf.reject:
        first = "tail rule"
    return "double/" + first if why == C.DOUBLE else first


#: Bands of ours' posterior (of the likeliest class) in ``rejections``' calibration line.
POSTERIOR_BANDS = (0.0, 0.8, 0.9, 0.95, 0.99, 0.999)


def rejections(rows, splits=20, top=8):
    """Section 3b, why ours refuses what the plain LDA names: for each ``(source,
    edition, settings)`` of ``rows`` (source ``"EV3 real"``, ``"EV3 replica"``, ...,
    as ``exposure_table`` names them), the same splits, and per refused reading of a
    die its ``reason``, its colour, the likeliest class and the runner-up, and whether
    the LDA names it rightly; then how often ours' likeliest class is the right die
    per band of its posterior (``POSTERIOR_BANDS``: whether a posterior under
    ``POSTERIOR`` hides readings that are right anyway), and the readings (counts)
    that more than one colour of the set gives (no rule names them all rightly).
    Returns ``{(source, edition, exposure name): {"n", "named", "wrong", "reasons":
    {reason: count}, "lda_right": {reason: count}, "cells": {(colour, reason, best,
    second): count}, "bands": [(low, n, right)], "shared": [(count, reading, {colour:
    count})]}}``."""
    import collections

    print("\n3b. Why ours refuses readings at the rows the rule judges and fails (%d splits): "
          "by reason, colour (true, likeliest, runner-up), how many of them the plain LDA "
          "names rightly; ours' likeliest class right per band of its posterior; readings "
          "that more than one colour gives" % splits)
    out = {}
    for data, jobs in _rows_by_source(rows):
        for source, edition, settings in jobs:
            scaled = scaled_set(data, settings)
            sat = C.saturation_level(settings)
            got = {"n": 0, "named": 0, "wrong": 0, "reasons": collections.Counter(),
                   "lda_right": collections.Counter(), "cells": collections.Counter(),
                   "bands": [[low, 0, 0] for low in POSTERIOR_BANDS]}
            for cal, test in _edition_splits(scaled, edition, splits):
                clf = C.Classifier(calibration.fit(cal, edition, settings, floor=False))
                lda = PlainLDA(cal, saturation=sat)
                for label in sorted(test):
                    if label == C.EMPTY:
                        continue
                    for reading in test[label]:
                        answer, _margin, detail = clf.classify_detail(reading)
                        got["n"] += 1
                        for band in got["bands"]:
                            if detail["posterior"] >= band[0]:
                                last = band
                        last[1] += 1
                        last[2] += detail["best"][0] == label
                        if answer == label:
                            got["named"] += 1
                        elif answer in (C.UNKNOWN, C.DOUBLE, C.EMPTY):
                            why = reason(clf, detail)
                            got["reasons"][why] += 1
                            got["cells"][(label, why, detail["best"][0], detail["second"][0])] += 1
                            if lda.classify(reading)[0] == label:
                                got["lda_right"][why] += 1
                        else:
                            got["wrong"] += 1
            got["shared"] = shared_readings(_real_edition(scaled, edition, None))
            out[(source, edition, _exposure_name(settings))] = got
            n = float(got["n"] or 1)
            print("  %s, %s, %s: %d readings, named %.2f %%, %d wrong" % (
                source, edition, _exposure_name(settings), got["n"], 100 * got["named"] / n, got["wrong"]))
            print("    refused: " + "; ".join("%s %.2f %% (LDA right on %d)" % (
                why, 100 * count / n, got["lda_right"][why]) for why, count in got["reasons"].most_common()))
            print("    most refused (colour, reason, likeliest, runner-up): " + "; ".join(
                "%s %s %s/%s %d" % (cell + (count,)) for cell, count in got["cells"].most_common(top)))
            print("    ours' likeliest class right, by its posterior: " + "; ".join(
                ">= %g: %d, %.2f %%" % (low, k, 100.0 * right / k) for low, k, right in got["bands"] if k))
            print("    readings more than one colour gives: " + ("; ".join(
                "%s %s" % (reading, ", ".join("%s %d" % item for item in sorted(by.items())))
                for _count, reading, by in got["shared"][:top]) or "none"))
    return out


def reading_ms(settings):
    """The nominal length (ms) of one reading of a release at ``settings``: two
    integrations (LED off, LED on) with the chip's start-up, the LED's settling and the
    classifier's turn, as ``simulate_releases`` steps its clock."""
    return int(2 * (3 + settings["integration_ms"] * 1.1) + 4 + 2)


def per_release(rows, splits=5, settle_ms=150, timeout_ms=1500, stable=3):
    """Section 3b by release, beside by reading: for each ``(source, edition, settings)``
    of ``rows`` (as ``exposure_table`` names them) and the first ``splits`` of its splits
    (the same calibrations), every test reading of a die taken as one release: the die
    sits still where that reading saw it (its light, ``scaled_light``) and the chip
    counts it afresh at every reading of the release (``sim_optics.led_reading``,
    seeded by split, colour and reading; only the count noise is new), fed through
    the firmware's ``pyramid.release.Release`` (``settle_ms``, ``timeout_ms``,
    ``stable`` agreeing readings: the firmware's defaults) and the app's ``_judge``, one
    reading every ``reading_ms(settings)``. A release names a die, reports a double, no
    die or an unread colour (``unknown`` at the timeout). Returns ``{(source, edition,
    exposure name): {"n", "named", "rejected", "wrong", "readings", "by_reading":
    (n, named, wrong)}}``: releases named rightly, refused (``unknown``, ``double``,
    ``nodie``), named as another die, the readings they classified in all, the wrong
    ones ``"misreads"``: ``(die, named as, split, reading index, light, deciding
    reading)``, and the same test readings judged one by one (``classify``, the
    table's figure)."""
    import camelup.board.tcs34725 as tcs
    from sim_optics import Rng, led_reading

    sys.path.insert(0, os.path.join(REPO, "firmware"))
    from pyramid.release import Release, verdict

    print("\n3b by release (%d splits): each test reading of a die as one release, the die still "
          "where that reading saw it and counted afresh at every reading (only the count noise "
          "new), through the firmware's Release (settle %d ms, %d agreeing readings, timeout %d "
          "ms) and _judge: named / rejected / wrong %% (wrong count), readings classified per "
          "release; beside it the same readings one by one" % (splits, settle_ms, stable, timeout_ms))
    out = {}
    for data, jobs in _rows_by_source(rows):
        for source, edition, settings in jobs:
            light = scaled_light(data, settings)
            scaled = scaled_set(data, settings)
            steps = tcs.steps(settings["integration_ms"])
            gain = settings["gain"]
            period = reading_ms(settings)
            index = {label: list(range(len(rows_))) for label, rows_ in data.items()}
            light = _real_edition(light, edition, "black")
            scaled = _real_edition(scaled, edition, "black")
            got = {"n": 0, "named": 0, "rejected": 0, "wrong": 0, "readings": 0, "misreads": []}
            one = [0, 0, 0]
            for split, (cal, test) in enumerate(_edition_splits(index, edition, splits)):
                clf = C.Classifier(calibration.fit(
                    {label: [scaled[label][i] for i in cal[label]] for label in cal}, edition,
                    settings, floor=False))
                judge = _Judge(clf)
                for number, label in enumerate(sorted(test)):
                    if label == C.EMPTY:
                        continue
                    for i in test[label]:
                        answer = clf.classify(scaled[label][i])[0]
                        one[0] += 1
                        one[1] += answer == label
                        one[2] += answer not in (label, C.UNKNOWN, C.DOUBLE, C.EMPTY)
                        rng = Rng(1000003 * split + 10007 * number + i)
                        rel = Release(settle_ms, timeout_ms, stable)
                        rel.period_ms = period
                        rel.start(0)
                        result = None
                        fed = 0
                        while result is None:
                            fed += 1
                            if fed * period < settle_ms:  # settling: the release looks at none
                                result = rel.feed(0, verdict(C.UNKNOWN))
                                continue
                            got["readings"] += 1
                            result = rel.feed(0, judge(led_reading(light[label][i], steps, gain, rng)))
                        got["n"] += 1
                        if result["kind"] == "die" and result["label"] == label:
                            got["named"] += 1
                        elif result["kind"] == "die":
                            got["wrong"] += 1
                            got["misreads"].append((label, result["label"], split, i, tuple(
                                round(v, 1) for v in light[label][i]), result["raw"]))
                        else:
                            got["rejected"] += 1
            got["by_reading"] = tuple(one)
            key = (source, edition, _exposure_name(settings))
            out[key] = got
            print("  %s, %s, %s: by release %s, %.1f readings a release; by reading %.2f %% named, "
                  "%d wrong, of %d" % (key + (_cell(got), got["readings"] / float(got["n"] or 1),
                                               100.0 * one[1] / (one[0] or 1), one[2], one[0])))
            for misread in got["misreads"][:5]:
                print("      %s read as %s (split %d, reading %d): light %r, the deciding reading %r"
                      % misread)
    return out


#: What a wrong camel costs against a refusal (the table asks the player), for Chow's
#: rule (``chow``): name the likeliest die when its posterior is at least ``1 - R/W``.
#: 20: the classifier's own ``POSTERIOR`` (0.95); 100: a wrong camel as a ``fix`` of a
#: minute against a one-key answer of a second or two (docs/classifier.md).
COSTS = (20, 100)


#: The rules ``ceilings`` switches off, each alone and together: every rule of the
#: decision but the posterior and the guard (docs/classifier.md, "The last row, by the
#: rule that refuses").
def _tail_off(clf):
    clf.near = float("inf")  # the tail rule: a reading beyond near needs no lead


def _far_off(clf):
    clf.reject = float("inf")


def _mixture_off(clf):
    clf._mixture = lambda *_args: None


def _dimmed_off(clf):
    clf._named = lambda _x, _reading, best, margin, detail, _labels: (best, margin, detail)


CEILINGS = (("as it is", ()), ("tail rule off", (_tail_off,)),
            ("mixture test off", (_mixture_off,)),
            ("tail rule and mixture test off", (_tail_off, _mixture_off)),
            ("tail rule and far off", (_tail_off, _far_off)),
            ("all but the posterior and guard off", (_tail_off, _far_off, _mixture_off, _dimmed_off)))


def ceilings(rows, splits=20):
    """Section 3b, how far a change to any rule but the posterior could take each row of
    ``rows`` (``(source, edition, settings)`` as ``exposure_table`` names them): the same
    splits and calibrations, named % and wrong dice with the rules of ``CEILINGS`` switched
    off on the fitted classifier (a ceiling, not a rule: a gentler version of a rule names
    at most what the rule off names). Returns ``{(source, edition, exposure name): [(name,
    named %, wrong)]}``."""
    print("\n3b. Ceilings: each failing row with rules switched off (%d splits), named %% / wrong"
          % splits)
    out = {}
    for data, jobs in _rows_by_source(rows):
        for source, edition, settings in jobs:
            scaled = scaled_set(data, settings)
            got = [[name, 0, 0, 0] for name, _off in CEILINGS]
            for cal, test in _edition_splits(scaled, edition, splits):
                profile = calibration.fit(cal, edition, settings, floor=False)
                for cell, (_name, off) in zip(got, CEILINGS, strict=True):
                    clf = C.Classifier(profile)
                    for switch in off:
                        switch(clf)
                    for label in sorted(test):
                        if label == C.EMPTY:
                            continue
                        for reading in test[label]:
                            answer = clf.classify(reading)[0]
                            cell[1] += 1
                            cell[2] += answer == label
                            cell[3] += answer not in (label, C.UNKNOWN, C.DOUBLE, C.EMPTY)
            key = (source, edition, _exposure_name(settings))
            out[key] = [(name, 100.0 * named / n, wrong) for name, n, named, wrong in got]
            print("  %s, %s, %s: " % key + "; ".join("%s %.2f / %d" % cell for cell in out[key]))
    return out


def chow(rows, splits=20):
    """Chow's rule on section 3b's rows with ours' fitted model: for each ``(source,
    edition, settings)`` of ``rows`` (as ``rejections`` takes them), the same splits, every
    test reading of a die classified with the posterior rule off (``posterior`` 0: every
    other rule as it is) and its posterior kept. Then for each cost ratio ``W/R`` of
    ``COSTS`` (a threshold ``1 - R/W`` fixed before any reading is seen): what ours names
    with that posterior threshold (right %, wrong), and what the model's posterior alone
    names (the Bayes rule under the fitted model: the likeliest die whenever its posterior
    reaches the threshold; right %, wrong, and the wrong dice the model itself expects,
    the sum of ``1 - posterior`` over what it names); and the threshold at which ours would
    first name 99 % rightly, with the ``W/R`` it implies and its wrong dice. Returns
    ``{(source, edition, exposure name): {"n", "at": {W/R: (ours right, ours wrong, bayes
    right, bayes wrong, expected)}, "for99": (threshold, W/R, wrong) or None}}`` (right
    in %), ``"open"``: ours with no posterior rule at all (right %, wrong; at the
    threshold of ``for99`` when ours gets there)."""

    print("\n3b. Chow's rule on the failing rows (%d splits): a threshold 1 - R/W fixed by what a "
          "wrong camel (W) costs against a refusal (R); ours (every other rule kept) and the "
          "model's posterior alone (the Bayes rule under the fitted model: named right %%, "
          "wrong, wrong the model expects); the threshold ours needs to name 99 %%" % splits)
    out = {}
    for data, jobs in _rows_by_source(rows):
        for source, edition, settings in jobs:
            scaled = scaled_set(data, settings)
            seen = []  # (posterior, ours: "right" / "wrong" / "refused" without the posterior rule, best right)
            for cal, test in _edition_splits(scaled, edition, splits):
                clf = C.Classifier(calibration.fit(cal, edition, settings, floor=False))
                clf.posterior = 0.0
                for label in sorted(test):
                    if label == C.EMPTY:
                        continue
                    for reading in test[label]:
                        answer, _margin, detail = clf.classify_detail(reading)
                        how = "right" if answer == label else (
                            "refused" if answer in (C.UNKNOWN, C.DOUBLE, C.EMPTY) else "wrong")
                        seen.append((detail["posterior"], how, detail["best"][0] == label))
            n = float(len(seen) or 1)
            got = {"n": len(seen), "at": {}, "for99": None}
            cells = []
            for ratio in COSTS:
                t = 1.0 - 1.0 / ratio
                named = [row for row in seen if row[0] >= t]
                ours = (100 * sum(1 for row in named if row[1] == "right") / n,
                        sum(1 for row in named if row[1] == "wrong"))
                bayes = (100 * sum(1 for row in named if row[2]) / n,
                         sum(1 for row in named if not row[2]), sum(1.0 - row[0] for row in named))
                got["at"][ratio] = ours + bayes
                cells.append("W/R %d (posterior %.2f): ours %.2f %%, %d wrong; the model alone %.2f %%, "
                             "%d wrong, expects %.1f" % ((ratio, t) + ours + bayes))
            right = wrong = 0
            for post, how, _best in sorted(seen, key=lambda row: -row[0]):
                right += how == "right"
                wrong += how == "wrong"
                if right >= 0.99 * len(seen):
                    got["for99"] = (post, 1.0 / (1.0 - post) if post < 1 else float("inf"), wrong)
                    break
            got["open"] = (100.0 * right / n, wrong)
            out[(source, edition, _exposure_name(settings))] = got
            print("  %s, %s, %s: %s; ours names 99 %% %s" % (
                source, edition, _exposure_name(settings), "; ".join(cells),
                "at posterior %.3f (W/R %.1f), %d wrong" % got["for99"] if got["for99"] else
                "at no threshold (%.2f %% with no posterior rule, %d wrong)" % got["open"]))
    return out


def pooled_bound(data, units, settings, edition, seeds=10):
    """``data_bound`` as the readings grow: ``seeds`` replicas of a real set (``replica``
    on its brightness paths, replica seeds 1..``seeds``, each counted at ``settings``
    with its own seed), pooled one after another; for 1, 2, 5 and ``seeds`` of them, the
    share of the edition's readings whose counts no other colour gives in the pool, and
    the forced-choice error of naming each count by the colour that gives it most. A
    bound computed on a few thousand readings is generous: counts two dice both give
    turn up as the readings grow. Returns ``[(replicas, readings, bound %, error %)]``."""
    pooled = {}
    out = []
    for k in range(1, seeds + 1):
        sim = scaled_set(replica(data, units, seed=k, real_brightness=True), settings, seed=k)
        for label, rows in _real_edition(sim, edition, None).items():
            pooled.setdefault(label, []).extend(rows)
        if k in (1, 2, 5, seeds):
            nameable, n = data_bound([pooled])
            by = {}
            for label in sorted(pooled):
                for reading in pooled[label]:
                    counts = by.setdefault(tuple(reading), {})
                    counts[label] = counts.get(label, 0) + 1
            error = sum(sum(c.values()) - max(c.values()) for c in by.values())
            out.append((k, n, 100.0 * nameable / max(1, n), 100.0 * error / max(1, n)))
    return out


def pair_axis(data, edition, settings, pair, splits=5):
    """How the readings of two close dice lie along the line between them, against
    ours' model of them: for each way ``(b, a)`` of ``pair`` (two labels), over the
    first ``splits`` splits of ``data`` (a set already counted at ``settings``), each
    test reading of ``b`` in ``b``'s whitened spread (the classifier's own, count
    noise at these settings included), projected on the unit line towards ``a``'s
    centroid. The model says: mean 0, standard deviation 1, a Gaussian's tails (99th
    percentile 2.33, 99.9th 3.09); ``sep`` is ``a``'s centroid on that line (sigma).
    Returns ``{(b, a): {"sep", "mean", "sd", "q99", "q999", "max", "n"}}``."""

    out = {}
    for cal, test in _edition_splits(data, edition, splits):
        clf = C.Classifier(calibration.fit(cal, edition, settings, floor=False))
        for b, a in (tuple(pair), tuple(pair)[::-1]):
            w = clf._whiten[b]
            mean = clf.profile["classes"][b]["mean"]

            def whitened(x, w=w, mean=mean):
                d = [x[k] - mean[k] for k in range(4)]
                return [sum(w[i][k] * d[k] for k in range(i + 1)) for i in range(4)]

            v = whitened(clf.profile["classes"][a]["mean"])
            sep = sum(t * t for t in v) ** 0.5
            got = out.setdefault((b, a), {"seps": [], "z": []})
            got["seps"].append(sep)
            for reading in test[b]:
                z = whitened(C.features(reading, clf.ref_clear))
                got["z"].append(sum(z[k] * v[k] for k in range(4)) / sep)
    for got in out.values():
        z = sorted(got.pop("z"))
        n = len(z)
        mz = sum(z) / n
        got.update({"sep": sum(got.pop("seps")) / splits, "mean": mz,
                    "sd": (sum((t - mz) ** 2 for t in z) / n) ** 0.5, "q99": z[int(0.99 * n)],
                    "q999": z[int(0.999 * n)], "max": z[-1], "n": n})
    return out


def _without_noise_whole(scatter, dof, noise):
    """``camelup.calibration._without_noise`` taken as a whole matrix: the count noise
    (``noise``, 4x4) out of ``scatter / dof`` in every direction of the measured spread
    (its whitened space, eigen-directions of the noise there), each direction keeping at
    least ``calibration.KEEP`` of its measured variance; returned over ``dof`` as the fit
    takes it. The fit's own takes each feature's variance alone and keeps the measured
    correlations, which hold the count noise's own (every chromaticity shares the clear
    count): ``model_shape``'s variant."""
    import numpy as np

    low = np.linalg.cholesky(np.array(scatter) / dof)
    inv = np.linalg.inv(low)
    share, vec = np.linalg.eigh(inv @ np.array(noise) @ inv.T)
    keep = np.maximum(1.0 - share, calibration.KEEP)
    return (low @ vec @ np.diag(keep) @ vec.T @ low.T * dof).tolist()


def model_shape(data, edition, settings, splits=5):
    """Is ours' model of each die's cloud wider, or otherwise shaped, than its readings?
    Over the first ``splits`` splits of ``data`` (a set counted at ``settings``), each
    die's test readings whitened in its class's spread (the classifier's own, count
    noise at these settings included): the eigenvalues of their covariance, 1 in every
    direction when the model is right (under 1: the model wider than the readings that
    way). Beside it the same with the count noise taken out of the calibration readings
    as a whole matrix (``_without_noise_whole``). Returns ``{variant: {"eig": {label:
    [4 floats, smallest first]}, "n", "named", "wrong"}}`` (named and wrong over the
    test readings of the dice)."""
    import numpy as np

    out = {}
    for cal, test in _edition_splits(data, edition, splits):
        for name, strip in (("as it is", None), ("count noise out as a whole matrix",
                                                 _without_noise_whole)):
            kept = calibration._without_noise
            if strip is not None:
                calibration._without_noise = strip
            try:
                clf = C.Classifier(calibration.fit(cal, edition, settings, floor=False))
            finally:
                calibration._without_noise = kept
            got = out.setdefault(name, {"z": {}, "n": 0, "named": 0, "wrong": 0})
            for label in sorted(test):
                if label == C.EMPTY:
                    continue
                w = np.array(clf._whiten[label])
                mean = np.array(clf.profile["classes"][label]["mean"])
                x = np.array([C.features(reading, clf.ref_clear) for reading in test[label]])
                got["z"].setdefault(label, []).append((x - mean) @ w.T)
                for reading in test[label]:
                    answer = clf.classify(reading)[0]
                    got["n"] += 1
                    got["named"] += answer == label
                    got["wrong"] += answer not in (label, C.UNKNOWN, C.DOUBLE, C.EMPTY)
    for got in out.values():
        got["eig"] = {label: [float(v) for v in np.linalg.eigvalsh(np.cov(np.vstack(z).T))]
                      for label, z in sorted(got.pop("z").items())}
    return out


def _stabilised(rows, ref, settings):
    """Readings as the chip's variance-stabilised counts, ``(2 / a) sqrt(a n + b)`` per
    channel (``a`` = ``SHOT`` x gain, ``b`` = ``STEP``: the count noise ours models,
    ``a n + b``, becomes one count squared in every channel), a numpy array; ``ref``
    unused (``_qda``'s feature maps share a signature)."""
    import numpy as np

    a = C.SHOT * settings["gain"]
    return (2.0 / a) * np.sqrt(a * np.asarray(rows, float) + C.STEP)


def _ratios(rows, ref, settings):
    """Ours' four features (``classifier.features``) of ``rows``, a numpy array."""
    import numpy as np

    return np.array([C.features(r, ref) for r in rows])


def _qda(cal, space, settings):
    """A quadratic discriminant of the dice of ``cal`` in ``space`` (``_ratios`` or
    ``_stabilised``): each die's mean and own measured covariance (no pooling,
    shrinkage, count-noise model or rule: the cloud's shape as its calibration readings
    give it). Returns ``(labels, [(mean, inverse, log det)], ref)``."""
    import numpy as np

    labels = [label for label in sorted(cal) if label != C.EMPTY]
    ref = max(sorted(r[0] for r in cal[label])[len(cal[label]) // 2] for label in labels)
    model = []
    for label in labels:
        f = space(cal[label], ref, settings)
        cov = np.cov(f.T)
        model.append((f.mean(axis=0), np.linalg.inv(cov), np.linalg.slogdet(cov)[1]))
    return labels, model, ref


def _qda_rank(fitted, space, rows, settings, tail):
    """``[(label, posterior)]`` of the likeliest die for each of ``rows`` under ``_qda``'s
    ``fitted`` model, equal priors, a normal likelihood (``tail`` 0) or a Student-t of
    ``tail`` degrees of freedom whose covariance is the die's (as ours scores)."""
    import numpy as np

    labels, model, ref = fitted
    f = space(rows, ref, settings)
    scores = []
    for mean, inv, logdet in model:
        d = f - mean
        d2 = np.einsum("ij,jk,ik->i", d, inv, d)
        scores.append((tail + 4) * np.log1p(d2 / (tail - 2)) + logdet if tail else d2 + logdet)
    scores = np.array(scores)
    best = scores.argmin(axis=0)
    post = 1.0 / np.exp(-(scores - scores.min(axis=0)) / 2).sum(axis=0)
    return [(labels[i], float(p)) for i, p in zip(best, post, strict=True)]


#: ``feature_spaces``' models: (name, feature map, Student-t degrees of freedom or 0).
SPACES = (("ours' features, normal", _ratios, 0), ("ours' features, t3", _ratios, 3),
          ("stabilised counts, normal", _stabilised, 0), ("stabilised counts, t3", _stabilised, 3))


def feature_spaces(data, edition, settings, splits=5):
    """Would another feature space, or each die's cloud as its calibration readings shape
    it, name more with no wrong die? Over the first ``splits`` splits of ``data`` (a set
    counted at ``settings``), a quadratic discriminant (``_qda``: each die's own measured
    covariance, nothing else) in ours' features and in the chip's variance-stabilised
    counts (``_stabilised``, the Anscombe transform for the count noise ours models),
    normal and Student-t (``SPACES``); per model the share its likeliest die is right
    (forced choice), named % and wrong dice at a posterior of at least 0.95 and 0.99
    (the thresholds of ``POSTERIOR`` and Chow's ``W/R`` = 100, fixed beforehand), and the
    most it names with none wrong by a threshold chosen after the fact on the test
    readings (``_coverage``, as ``LDA0``). Returns ``{name: {"forced", "at": {0.95:
    (named %, wrong), 0.99: ...}, "zero_wrong"}}``."""
    ranked = {name: [] for name, _space, _tail in SPACES}
    for cal, test in _edition_splits(data, edition, splits):
        for name, space, tail in SPACES:
            fitted = _qda(cal, space, settings)
            for label in sorted(test):
                if label != C.EMPTY:
                    ranked[name] += [(post, got == label) for got, post in
                                     _qda_rank(fitted, space, test[label], settings, tail)]
    out = {}
    for name, rows in ranked.items():
        n = float(len(rows) or 1)
        out[name] = {"forced": 100.0 * sum(right for _post, right in rows) / n,
                     "zero_wrong": _coverage(rows), "at": {}}
        for low in (0.95, 0.99):
            out[name]["at"][low] = (100.0 * sum(1 for post, right in rows if post >= low and right) / n,
                                    sum(1 for post, right in rows if post >= low and not right))
    return out


def _log_q(z):
    """``log Q(z)``, the log of a standard normal's upper tail ``0.5 erfc(z / sqrt 2)``, for
    a numpy array, stable far out in either tail (the Chebyshev fit of ``erfc`` in
    Numerical Recipes, ``erfcc``: relative error under 1.2e-7 everywhere)."""
    import numpy as np

    x = np.abs(z) / 2.0 ** 0.5
    t = 1.0 / (1.0 + 0.5 * x)
    poly = (-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (
        -0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
            -0.82215223 + t * 0.17087277)))))))))
    upper = np.log(0.5 * t) + poly
    return np.where(z >= 0, upper, np.log1p(-np.exp(np.minimum(upper, -1e-300))))


def _log_cell(n, mean, var):
    """``log P(N = n)`` (numpy, broadcast) for the chip's integer count ``N`` of a normal
    value of ``mean`` and ``var`` (counts, counts^2), as ``sim_optics.chip_count`` counts
    it below the analog knee: ``int(value + 0.5)`` clipped at 0, so a count ``k >= 1`` is
    a value in ``[k - 0.5, k + 0.5)`` and 0 is every value under 0.5."""
    import numpy as np

    s = np.sqrt(var)
    lo = (n - 0.5 - mean) / s
    hi = (n + 0.5 - mean) / s
    la, lb = _log_q(lo), _log_q(hi)  # both tails above: Q(lo) - Q(hi)
    up = la + np.log1p(-np.exp(np.minimum(lb - la, -1e-12)))
    la, lb = _log_q(-hi), _log_q(-lo)  # both below: Q(-hi) - Q(-lo)
    down = la + np.log1p(-np.exp(np.minimum(lb - la, -1e-12)))
    mid = np.log(np.maximum(1.0 - np.exp(_log_q(hi)) - np.exp(_log_q(-lo)), 1e-300))
    cell = np.where(lo >= 0, up, np.where(hi <= 0, down, mid))
    return np.where(n <= 0, _log_q((mean - 0.5) / s), cell)


def chip_pmf(top, settings, per_count=1):
    """The exact distribution of one channel of ``sim_optics.led_reading`` (the LED-on
    count less the LED-off count, clipped at 0) at ``settings``, for every light
    0..``top`` counts in steps of ``1 / per_count``: ``T[i, n] = log P(reading n | light
    i / per_count)``, ``n`` 0..``top`` (a numpy array). Each count is ``chip_count``'s: dark counts ``dark_per_step`` x
    steps x gain / 4 added, a normal of variance ``shot`` x gain / 4 x mean + ``read``^2
    (``sim_optics.SENSOR_NOISE``), rounded and clipped as the chip does (``_log_cell``);
    the LED-off count the same at no light; the two independent. Exact below the
    analog knee (``tcs34725.saturation_steps``): ``ValueError`` when ``top`` reaches it."""
    import camelup.board.tcs34725 as tcs
    import numpy as np
    from sim_optics import SENSOR_NOISE as sn

    steps = tcs.steps(settings["integration_ms"])
    gain = settings["gain"]
    if top + 10 >= tcs.saturation_steps(steps):
        raise ValueError("chip_pmf: %d counts reach the analog knee at %s" % (top, settings))
    dark = sn["dark_per_step"] * steps * gain / 4.0
    shot = sn["shot"] * gain / 4.0
    span = top + 12  # on counts beyond top + off's largest that matters
    k = np.arange(span + 1, dtype=float)
    off = np.exp(_log_cell(k[:8], dark, shot * dark + sn["read"] ** 2))  # the LED-off count
    mean = np.arange(top * per_count + 1, dtype=float)[:, None] / per_count + dark
    on = np.exp(_log_cell(k[None, :], mean, shot * mean + sn["read"] ** 2))  # [light, on]
    pmf = np.zeros((len(mean), top + 1))
    for o in range(len(off)):
        pmf[:, 1:] += off[o] * on[:, 1 + o:top + 1 + o]  # on - off = n >= 1
    pmf[:, 0] = np.maximum(1.0 - pmf[:, 1:].sum(axis=1), 0.0)
    return np.log(np.maximum(pmf, 1e-300))


def _logsumexp(a, axis):
    import numpy as np

    top = a.max(axis=axis, keepdims=True)
    return (top + np.log(np.exp(a - top).sum(axis=axis, keepdims=True))).squeeze(axis)


class ReadingsLattice:
    """Issue 32's count lattice, every calibration reading a light: a die's likelihood of
    an integer reading ``n`` (``(c, r, g, b)`` counts) is the mean over its calibration
    readings ``m`` of ``prod_k P(n_k | light m_k)``, ``P`` the chip's own arithmetic
    (``chip_pmf``: count noise, rounding, the LED-off subtraction and its clip at 0),
    channel by channel. ``rank(rows)`` -> ``[(label, posterior)]`` of the likeliest die,
    equal priors, the empty head a class as in ours."""

    def __init__(self, cal, settings):
        import numpy as np

        self.labels = sorted(cal)
        self.lights = {label: np.array(cal[label], int) for label in self.labels}
        self.top = int(max(rows.max() for rows in self.lights.values())) * 2 + 20
        self.table = chip_pmf(self.top, settings)

    def loglik(self, rows):
        import numpy as np

        x = np.minimum(np.array(rows, int), self.top)
        out = []
        for label in self.labels:
            m = self.lights[label]
            ll = sum(self.table[m[None, :, k], x[:, None, k]] for k in range(4))
            out.append(_logsumexp(ll, 1) - np.log(len(m)))
        return np.array(out)

    def rank(self, rows):
        import numpy as np

        ll = self.loglik(rows)
        post = 1.0 / np.exp(ll - ll.max(axis=0)).sum(axis=0)
        return [(self.labels[i], float(p)) for i, p in zip(ll.argmax(axis=0), post, strict=True)]


class ClusterLattice(ReadingsLattice):
    """The count lattice with ``k`` kernel points a die: the centres of a k-means of its
    calibration counts (seeded by the readings' clear order, 25 rounds), each weighted by
    its readings, each a normal light per channel of its cluster's own spread (the
    rounding's 1/12 count^2 taken out, at least the chip's count noise at the centre:
    ``shot`` x light + ``read``^2 of the LED-on and LED-off counts), plus the centre's own
    error (1/readings), counted on the lattice (``_log_cell``). At most one point per 8
    readings."""

    def __init__(self, cal, settings, k=16):
        import camelup.board.tcs34725 as tcs
        import numpy as np
        from sim_optics import SENSOR_NOISE as sn

        self.labels = sorted(cal)
        steps = tcs.steps(settings["integration_ms"])
        shot = sn["shot"] * settings["gain"] / 4.0
        dark = sn["dark_per_step"] * steps * settings["gain"] / 4.0
        self.points = {}
        for label in self.labels:
            x = np.array(cal[label], float)
            kk = min(k, max(1, len(x) // 8))
            centre = x[np.argsort(x[:, 0], kind="stable")[np.linspace(0, len(x) - 1, kk).astype(int)]]
            for _ in range(25):
                which = ((x[:, None, :] - centre[None]) ** 2).sum(axis=2).argmin(axis=1)
                centre = np.array([x[which == j].mean(axis=0) if (which == j).any() else centre[j]
                                   for j in range(kk)])
            which = ((x[:, None, :] - centre[None]) ** 2).sum(axis=2).argmin(axis=1)
            weight, mean, var = [], [], []
            for j in range(kk):
                pts = x[which == j]
                if not len(pts):
                    continue
                chip = shot * (np.maximum(centre[j], 0) + 2 * dark) + 2 * sn["read"] ** 2
                own = pts.var(axis=0) - 1.0 / 12 if len(pts) > 1 else chip
                weight.append(len(pts))
                mean.append(centre[j])
                var.append(np.maximum(own, chip) * (1.0 + 1.0 / len(pts)))
            self.points[label] = (np.log(np.array(weight, float) / sum(weight)), np.array(mean),
                                  np.array(var))

    def loglik(self, rows):
        import numpy as np

        x = np.array(rows, float)
        out = []
        for label in self.labels:
            logw, mean, var = self.points[label]
            ll = sum(_log_cell(x[:, None, k], mean[None, :, k], var[None, :, k]) for k in range(4))
            out.append(_logsumexp(ll + logw[None, :], 1))
        return np.array(out)


class DimmedLattice(ReadingsLattice):
    """The count lattice with every die seen at the pooled brightness: a die's lights are
    its calibration readings brought to its median clear count (its colours), each seen at
    ``levels`` brightnesses, the quantiles of every die's calibration readings' clear count
    over its own median, pooled over the dice (the seating, the LED and a die leaving the
    view dim every die alike: ours' pooling premise, and the dimmed-die test's); each such
    light counted by the chip's exact arithmetic (``chip_pmf`` on a grid of a quarter
    count). The empty head keeps its readings as lights."""

    def __init__(self, cal, settings, levels=8):
        import numpy as np

        self.labels = sorted(cal)
        dice = [label for label in self.labels if label != C.EMPTY]
        colours = {}
        ratios = []
        for label in dice:
            rows = np.array([r for r in cal[label] if r[0] > 0], float)
            median = float(np.median(rows[:, 0]))
            ratios += list(rows[:, 0] / median)
            colours[label] = rows * (median / rows[:, :1])
        scale = np.quantile(np.array(ratios), (np.arange(levels) + 0.5) / levels)
        self.lights = {}
        for label in self.labels:
            if label in colours:
                lights = (colours[label][:, None, :] * scale[None, :, None]).reshape(-1, 4)
            else:
                lights = np.array(cal[label], float)
            self.lights[label] = np.rint(lights * 4).astype(int)
        top = max(int(rows.max()) for rows in self.lights.values()) // 4 + 20
        self.top = top
        self.table = chip_pmf(top, settings, per_count=4)

    def loglik(self, rows):
        import numpy as np

        x = np.minimum(np.array(rows, int), self.top)
        out = []
        for label in self.labels:
            m = self.lights[label]
            ll = sum(self.table[m[None, :, k], x[:, None, k]] for k in range(4))
            out.append(_logsumexp(ll, 1) - np.log(len(m)))
        return np.array(out)


#: The count lattice's candidates (``lattice``): name and maker ``(cal, settings)``, decided
#: before any reading was judged: every calibration reading a light (the chip's exact
#: arithmetic), and 8, 16 and 32 kernel points a die (the brief's range).
LATTICE_MODELS = (("readings as lights", ReadingsLattice),
                  ("8 points a die", lambda cal, s: ClusterLattice(cal, s, 8)),
                  ("16 points a die", lambda cal, s: ClusterLattice(cal, s, 16)),
                  ("32 points a die", lambda cal, s: ClusterLattice(cal, s, 32)))
#: The posteriors the lattice names at, fixed beforehand: ours' ``POSTERIOR`` (0.95, a
#: wrong camel worth 20 questions) and Chow's ``W/R`` = 100 (0.99, "Chow's rule" above).
LATTICE_POSTERIORS = (0.95, 0.99)
#: The rows the count lattice is for: the three judged rows of section 3b that fail the
#: issue's rule, every one under the light floor (the switch: counts too few for ours).
LATTICE_ROWS = (("EV3 real", "classic", {"integration_ms": 2.4, "gain": 1}),
                ("EV3 real", "second", {"integration_ms": 2.4, "gain": 4}),
                ("EV3 replica", "classic", {"integration_ms": 2.4, "gain": 1}))


def lattice(rows=LATTICE_ROWS, splits=5, models=LATTICE_MODELS):
    """Issue 32's count lattice on section 3b's rows (``(source, edition, settings)``):
    the same splits and calibrations as the table, each test reading of a die judged by
    ours and by each model of ``models`` (``LATTICE_MODELS``); for each, at each
    posterior of ``LATTICE_POSTERIORS``, what three rules name (named %, wrong dice):
    ``alone``, the lattice's likeliest die when its posterior reaches the threshold
    (refused otherwise; the two-dice test only relabels a refusal); ``rules``, ours with
    its posterior replaced by the lattice's (ours with the posterior rule off names the
    die, the lattice names the same one at the threshold; every other rule of ours
    kept); ``either``, ours as it is or ``rules`` (a die named by either posterior, the
    most the lattice can add to ours). Also the lattice's forced choice (right %), the
    most ``alone`` and ``rules`` name with no wrong die by a threshold chosen after the
    fact on the test readings (``("after the fact", rule)``, %: a ceiling, as ``LDA0``,
    not a rule) and ours. Returns ``{(source, edition, exposure name): {"ours": (named
    %, wrong), "n", model name: {"forced": %, (rule, threshold): (named %, wrong),
    ("after the fact", rule): %}}}`` and prints it."""
    print("\n3b. The count lattice on the failing rows (%d splits): each die's likelihood a mixture "
          "over its lights of the chip's integer counts, channel by channel; named %% / wrong at "
          "posteriors fixed beforehand, alone, in place of ours' posterior (every other rule of "
          "ours kept), or either posterior" % splits)
    out = {}
    for data, jobs in _rows_by_source(rows):
        for source, edition, settings in jobs:
            scaled = scaled_set(data, settings)
            seen = {name: [] for name, _make in models}  # (label, ours, ours open, lattice, posterior)
            for cal, test in _edition_splits(scaled, edition, splits):
                clf = C.Classifier(calibration.fit(cal, edition, settings, floor=False))
                fitted = [(name, make(cal, settings)) for name, make in models]
                for label in sorted(test):
                    if label == C.EMPTY:
                        continue
                    answers = []
                    for reading in test[label]:
                        clf.posterior = C.POSTERIOR
                        ours = clf.classify(reading)[0]
                        clf.posterior = 0.0
                        answers.append((ours, clf.classify(reading)[0]))
                    for name, model in fitted:
                        seen[name] += [(label, ours, open_, got, post) for (ours, open_), (got, post)
                                       in zip(answers, model.rank(test[label]), strict=True)]
            key = (source, edition, _exposure_name(settings))
            first = seen[models[0][0]]
            n = len(first)

            def score(named, n=n):
                return (100.0 * sum(1 for label, got in named if got == label) / max(1, n),
                        sum(1 for label, got in named if got != label))

            def die(answer):
                return answer not in (C.UNKNOWN, C.DOUBLE, C.EMPTY)

            got = {"n": n, "ours": score([(row[0], row[1]) for row in first if die(row[1])])}
            lines = []
            for name, _make in models:
                rows_ = seen[name]
                cell = {"forced": 100.0 * sum(1 for row in rows_ if row[3] == row[0]) / max(1, n)}
                for t in LATTICE_POSTERIORS:
                    lat = [row for row in rows_ if row[4] >= t]
                    cell[("alone", t)] = score([(row[0], row[3]) for row in lat])
                    agree = [row[4] >= t and die(row[2]) and row[2] == row[3] for row in rows_]
                    cell[("rules", t)] = score([(row[0], row[3]) for row, ok in zip(rows_, agree, strict=True)
                                                if ok])
                    cell[("either", t)] = score([(row[0], row[1] if die(row[1]) else row[3]) for row, ok
                                                 in zip(rows_, agree, strict=True) if die(row[1]) or ok])
                for rule, candidates in (("alone", rows_), ("rules", [row for row in rows_
                                                                     if die(row[2]) and row[2] == row[3]])):
                    ranked = [(row[4], row[3] == row[0]) for row in candidates]
                    cell[("after the fact", rule)] = _coverage(ranked) * len(ranked) / max(1, n)
                got[name] = cell
                lines.append("    %s: forced %.2f; %s; none wrong after the fact: alone %.2f, rules %.2f" % (
                    name, cell["forced"], "; ".join(
                        "%s %.2f: %.2f / %d" % ((rule, t) + cell[(rule, t)])
                        for t in LATTICE_POSTERIORS for rule in ("alone", "rules", "either")),
                    cell[("after the fact", "alone")], cell[("after the fact", "rules")]))
            out[key] = got
            print("  %s, %s, %s: ours %.2f / %d of %d" % (key + got["ours"] + (n,)))
            for line in lines:
                print(line)
    return out


def _anscombe(rows, ref, settings):
    """Readings as Anscombe's counts, ``2 sqrt(n + 3/8)`` per channel (a Poisson count's
    variance made one), a numpy array; ``ref`` and ``settings`` unused (``_qda``'s feature
    maps share a signature)."""
    import numpy as np

    return 2.0 * np.sqrt(np.asarray(rows, float) + 0.375)


#: ``KnnReject``'s candidates, every combination tried by leave-one-out on the calibration
#: readings: ``k`` neighbours that must all be the die, the ratio ``r`` the nearest reading
#: of any other class must keep beyond the ``k``-th, and the quantile ``q`` of the die's
#: own calibration readings' ``k``-th-neighbour distance a reading may not exceed.
KNN_GRID = {"k": (1, 2, 3, 5, 8), "r": (1.0, 1.25, 1.5, 2.0, 3.0), "q": (0.9, 0.95, 0.99, 1.0)}
#: The leave-one-out's price of a wrong die, in refusals: Chow's ``W/R`` = 100 ("Chow's rule"
#: in docs/classifier.md), fixed before any reading was judged.
KNN_COST = 100
#: The least ``k``-th-neighbour distance rule (b) multiplies, in the metric's units (one
#: count-noise standard deviation in a stabilised metric): nearer than that, two readings
#: differ by count noise alone, and ``r`` times nothing would let a reading one count from
#: another die's be named.
KNN_FLOOR = 1.0


class KnnReject:
    """k nearest calibration readings with a reject option (issue 32's ninth stop).

    ``cal``: ``{label: [(c, r, g, b) counts, ...]}``, the dice and the empty head;
    ``settings``: the sensor's (``{"integration_ms", "gain"}``); ``space``: the metric's
    map, ``_stabilised`` (the chip's count noise made one, as ours models it) or
    ``_anscombe``; distances are Euclidean there. A reading is named die ``d`` only when
    (a) its ``k`` nearest calibration readings are all ``d`` (every reading at most as far
    as the ``k``-th is ``d``'s), (b) the nearest reading of any other class is at least
    ``r`` times farther than that ``k``-th neighbour (taken at least ``KNN_FLOOR``): a
    reading between two colours is refused, and (c) that ``k``-th-neighbour distance is at
    most the ``q`` quantile of the same distance for ``d``'s own calibration readings
    (each among the others): a reading beyond every light of ``d`` is refused. Naming the
    empty head is a refusal for a die. ``k``, ``r``, ``q`` left ``None`` are chosen by
    leave-one-out on ``cal`` alone (``_choose``: every die's calibration reading judged
    by the rest, the grid ``grid``, most named less ``cost`` per wrong die). ``chosen``:
    the ``(k, r, q)`` used; ``loo``: their leave-one-out ``(right, wrong, dice readings)``
    (``None`` when all three were given). ``name(rows)`` -> ``[label or None]``."""

    def __init__(self, cal, settings, space=_stabilised, k=None, r=None, q=None, grid=KNN_GRID,
                 cost=KNN_COST):
        import numpy as np

        self.labels = sorted(cal)
        self.settings = settings
        self.space = space
        self.x = space([row for label in self.labels for row in cal[label]], None, settings)
        self.y = np.array([i for i, label in enumerate(self.labels) for _row in cal[label]])
        self.kmax = max(grid["k"] + ((k,) if k else ()))
        loo = self._sorted(self.x, self_excluded=True)
        self.loo = None
        if None in (k, r, q):
            k, r, q = self._choose(loo, grid, cost)
        self.chosen = (k, r, q)
        self.limit = {}
        for j in range(len(self.labels)):
            own = np.sort(loo[j][self.y == j, k - 1])
            self.limit[j] = own[min(len(own) - 1, int(np.ceil(q * (len(own) - 1))))] if len(own) else -1.0

    def _sorted(self, x, self_excluded=False):
        """``{label index: the distances from each row of x to that label's calibration
        readings, nearest first, the first kmax}`` (inf where a label has fewer)."""
        import numpy as np

        dist = np.sqrt(((x[:, None, :] - self.x[None, :, :]) ** 2).sum(axis=2))
        if self_excluded:
            np.fill_diagonal(dist, np.inf)
        out = {}
        for j in range(len(self.labels)):
            part = np.sort(dist[:, self.y == j], axis=1)[:, :self.kmax]
            if part.shape[1] < self.kmax:
                part = np.hstack([part, np.full((len(x), self.kmax - part.shape[1]), np.inf)])
            out[j] = part
        return out

    def _decide(self, near, k, r, limit):
        """``(named label index or -1)`` per row from ``_sorted``'s ``near``; ``limit``
        ``[rows, labels]``: rule (c)'s distance per row and label."""
        import numpy as np

        first = np.stack([near[j][:, 0] for j in range(len(self.labels))], axis=1)
        kth = np.stack([near[j][:, k - 1] for j in range(len(self.labels))], axis=1)
        rows = np.arange(len(first))
        d = first.argmin(axis=1)
        dk = kth[rows, d]
        other = first.copy()
        other[rows, d] = np.inf
        do = other.min(axis=1)
        ok = (do > dk) & (do >= r * np.maximum(dk, KNN_FLOOR)) & (dk <= limit[rows, d])
        return np.where(ok, d, -1)

    def _choose(self, loo, grid, cost):
        """The ``(k, r, q)`` of ``grid`` whose leave-one-out on the calibration dice names
        the most rightly less ``cost`` per wrong die; ties to the larger ``r``, the smaller
        ``q``, the larger ``k`` (the more cautious). Rule (c)'s limit for a left-out reading
        is its die's quantile over the die's other readings."""
        import numpy as np

        dice = np.array([self.labels[j] != C.EMPTY for j in self.y])
        best = None
        for k in grid["k"]:
            limits = {}
            for q in grid["q"]:
                lim = np.zeros((len(self.y), len(self.labels)))
                for j in range(len(self.labels)):
                    mine = self.y == j
                    vals = loo[j][mine, k - 1]
                    order = np.sort(vals)
                    n = len(order)
                    if n < 2:
                        lim[:, j] = order[0] if n else -1.0
                        continue
                    lim[:, j] = order[min(n - 1, int(np.ceil(q * (n - 1))))]
                    at = min(n - 2, int(np.ceil(q * (n - 2))))  # the same without one reading
                    rank = np.searchsorted(order, vals, side="left")
                    lim[mine, j] = np.where(at < rank, order[at], order[np.minimum(at + 1, n - 1)])
                limits[q] = lim
            for r in grid["r"]:
                for q in grid["q"]:
                    got = self._decide(loo, k, r, limits[q])[dice]
                    right = int((got == self.y[dice]).sum())
                    wrong = int(((got >= 0) & (got != self.y[dice]) &
                                 (np.array(self.labels)[np.maximum(got, 0)] != C.EMPTY)).sum())
                    key = (right - cost * wrong, r, -q, k)
                    if best is None or key > best[0]:
                        best = (key, (k, r, q))
                        self.loo = (right, wrong, int(dice.sum()))
        return best[1]

    def name(self, rows):
        """The die each of ``rows`` (``(c, r, g, b)`` counts) is named, or ``None``
        (refused, or the empty head)."""
        import numpy as np

        if not len(rows):
            return []
        k, r, _q = self.chosen
        near = self._sorted(self.space(rows, None, self.settings))
        limit = np.tile([self.limit[j] for j in range(len(self.labels))], (len(rows), 1))
        got = self._decide(near, k, r, limit)
        return [self.labels[i] if i >= 0 and self.labels[i] != C.EMPTY else None for i in got]


#: ``knn_reject``'s metrics: (name, feature map), fixed before any reading was judged.
KNN_SPACES = (("stabilised counts", _stabilised), ("Anscombe", _anscombe))
#: ``knn_reject``'s rows: section 3b's three judged rows that fail the issue's rule, and two
#: that pass it (EV3 classic 2.4 ms x4 and 24 ms x4), to see that it breaks none.
KNN_ROWS = LATTICE_ROWS + (("EV3 real", "classic", {"integration_ms": 2.4, "gain": 4}),
                           ("EV3 real", "classic", {"integration_ms": 24.0, "gain": 4}))


def knn_reject(rows=KNN_ROWS, splits=5, spaces=KNN_SPACES):
    """k nearest readings with a reject option (``KnnReject``) on section 3b's rows
    (``(source, edition, settings)``): the table's splits and calibrations, ``k``, ``r`` and
    ``q`` chosen by leave-one-out on each split's calibration readings alone, then each
    test reading of a die judged by ours and by the rule. Per metric of ``spaces``, named %
    and wrong dice of: ``alone``, the rule's name; ``either``, ours as it is, or ours'
    likeliest die (``classify_detail``'s ``best``) when the rule names that die;
    ``either, rules kept``, ours as it is, or ours with the posterior rule off (every other
    rule kept) naming the die the rule names (``lattice``'s ``either``). Also ours, the
    parameters chosen (``{(k, r, q): splits}``) and what their leave-one-out promised on the
    calibration dice (``"loo"``: named %, wrong, over the splits). Returns ``{(source,
    edition, exposure name): {"ours": (named %, wrong), "n", metric name: {rule: (named %,
    wrong), "chosen": {...}, "loo": (...)}}}`` and prints it."""
    print("\n3b. k nearest readings with a reject option (%d splits): named %% / wrong, k, r and "
          "the quantile chosen by leave-one-out on each split's calibration readings" % splits)
    out = {}
    for data, jobs in _rows_by_source(rows):
        for source, edition, settings in jobs:
            scaled = scaled_set(data, settings)
            seen = {name: [] for name, _space in spaces}  # (label, ours, open, likeliest, knn)
            chosen = {name: {} for name, _space in spaces}
            loo = {name: [0, 0, 0] for name, _space in spaces}
            for cal, test in _edition_splits(scaled, edition, splits):
                clf = C.Classifier(calibration.fit(cal, edition, settings, floor=False))
                fitted = [(name, KnnReject(cal, settings, space)) for name, space in spaces]
                for name, model in fitted:
                    chosen[name][model.chosen] = chosen[name].get(model.chosen, 0) + 1
                    loo[name] = [a + b for a, b in zip(loo[name], model.loo, strict=True)]
                for label in sorted(test):
                    if label == C.EMPTY:
                        continue
                    answers = []
                    for reading in test[label]:
                        clf.posterior = C.POSTERIOR
                        ours = clf.classify(reading)[0]
                        clf.posterior = 0.0
                        open_, _margin, detail = clf.classify_detail(reading)
                        answers.append((ours, open_, detail["best"][0]))
                    for name, model in fitted:
                        seen[name] += [(label,) + answer + (got,) for answer, got
                                       in zip(answers, model.name(test[label]), strict=True)]
            key = (source, edition, _exposure_name(settings))
            first = seen[spaces[0][0]]
            n = len(first)

            def score(named, n=n):
                return (100.0 * sum(1 for label, got in named if got == label) / max(1, n),
                        sum(1 for label, got in named if got != label))

            def die(answer):
                return answer not in (C.UNKNOWN, C.DOUBLE, C.EMPTY, None)

            got = {"n": n, "ours": score([(row[0], row[1]) for row in first if die(row[1])])}
            print("  %s, %s, %s: ours %.2f / %d of %d" % (key + got["ours"] + (n,)))
            for name, _space in spaces:
                rows_ = seen[name]
                right, wrong, judged = loo[name]
                cell = {"chosen": chosen[name], "loo": (100.0 * right / max(1, judged), wrong),
                        "alone": score([(row[0], row[4]) for row in rows_ if die(row[4])]),
                        "either": score([(row[0], row[1] if die(row[1]) else row[4]) for row in rows_
                                         if die(row[1]) or (die(row[4]) and row[3] == row[4])]),
                        "either, rules kept": score([(row[0], row[1] if die(row[1]) else row[4])
                                                     for row in rows_ if die(row[1]) or
                                                     (die(row[4]) and row[2] == row[4])])}
                got[name] = cell
                print("    %s: alone %.2f / %d; either %.2f / %d; either, rules kept %.2f / %d; "
                      "leave-one-out %.2f / %d; chosen (k, r, q): %s" % (
                          (name,) + cell["alone"] + cell["either"] + cell["either, rules kept"] +
                          cell["loo"] + (", ".join("%s x%d" % (p, c) for p, c
                                                   in sorted(cell["chosen"].items())),)))
            out[key] = got
    return out


def shared_readings(subset):
    """The readings (``(c, r, g, b)`` counts) that more than one die of ``subset``
    (``{label: [reading, ...]}``, ``empty`` left out) gives, most frequent first:
    ``[(count, reading, {label: count})]``. No classifier of one reading names
    every one of them rightly."""
    by = {}
    for label in sorted(subset):
        if label == C.EMPTY:
            continue
        for reading in subset[label]:
            seen = by.setdefault(tuple(reading), {})
            seen[label] = seen.get(label, 0) + 1
    out = [(sum(seen.values()), reading, seen) for reading, seen in by.items() if len(seen) > 1]
    out.sort(key=lambda row: (-row[0], row[1]))
    return out


def doubles_by_exposure(per_pair=30):
    """Section 3b, two dice: at each of ``EXPOSURES``, the simulated pyramid calibrated
    as in the table above (12 readings per class, the same seeds) reads ``per_pair``
    readings of every pair of the edition's dice in the head together (the grey die's
    inks never together); how many are reported ``double``, ``unknown``, named as
    one of the two dice or as another die (both a wrong camel). Returns
    ``[(edition, settings, counts)]``."""
    print("\n3b. Two dice at each exposure (simulated pyramid, %d readings per pair): double / "
          "unknown / named as one of the two / named as another die, %%" % per_pair)
    out = []
    for edition in ("classic", "second"):
        dice = EDITION_DICE[edition]
        for it, gain in EXPOSURES:
            settings = {"integration_ms": it, "gain": gain}
            model, _labels, cal = _simulated(edition, it, gain)
            clf = C.Classifier(calibration.fit(cal, edition, settings))
            got = {"n": 0, "double": 0, "unknown": 0, "one": 0, "other": 0}
            for i in range(len(dice)):
                for j in range(i + 1, len(dice)):
                    if dice[i].startswith("grey-") and dice[j].startswith("grey-"):
                        continue
                    for reading in model.samples((dice[i], dice[j]), per_pair, it, gain):
                        answer = clf.classify(reading)[0]
                        got["n"] += 1
                        if answer in (C.DOUBLE, C.UNKNOWN):
                            got[answer] += 1
                        elif answer in (dice[i], dice[j]):
                            got["one"] += 1
                        else:
                            got["other"] += 1
            n = float(got["n"])
            print("  %-8s %-14s %6.1f %6.1f %6.1f %6.1f  (%d readings)" % (
                edition, _exposure_name(settings), 100 * got["double"] / n, 100 * got["unknown"] / n,
                100 * got["one"] / n, 100 * got["other"] / n, got["n"]))
            out.append((edition, settings, got))
    return out


def _light(samples, edition, settings):
    """``darkest/floor`` of a whole set as ``pyramid calibrate`` would see it: the
    darkest die's median clear count against the floor of the profile fitted on it
    (``calibration.light_floor``), ``DIM`` appended when under it (calibrate refuses)."""
    profile = calibration.fit(samples, edition, settings)
    darkest = None
    for label in sorted(samples):
        if label == C.EMPTY:
            continue
        clears = sorted(r[0] for r in samples[label])
        median = clears[len(clears) // 2]
        darkest = median if darkest is None or median < darkest else darkest
    return "%d/%d%s" % (darkest, int(profile["floor"] + 0.999),
                        " DIM" if darkest < profile["floor"] else "")


_MP_BENCH = r"""
import gc, json, time
import camelup.board.classifier as C
readings = json.loads(%r)
gc.collect()
before = gc.mem_alloc()
clf = C.Classifier(C.default_profile("second"))
gc.collect()
held = gc.mem_alloc() - before
t0 = time.ticks_us()
for r in readings:
    clf.classify(r)
us = time.ticks_diff(time.ticks_us(), t0) / len(readings)
gc.collect()
before = gc.mem_alloc()
gc.disable()
start = gc.mem_alloc()
clf.classify(readings[0])
per_call = gc.mem_alloc() - start
gc.enable()
print(json.dumps({"held": held, "us": us, "per_call": per_call}))
"""

_MP_SENSOR = r"""
import gc, time, machine
from sim_optics import OpticalModel
from sim_tcs34725 import TCS34725Model
gc.collect()
base = gc.mem_alloc()
from pyramid.tcs34725 import TCS34725
from pyramid.sensor import ColourSensor
import camelup.board.classifier as C
gc.collect()
code = gc.mem_alloc() - base
model = TCS34725Model(OpticalModel(3), lambda: "red", lambda: machine.output_level(6))
machine.register_i2c(0x29, model)
gc.collect()
base = gc.mem_alloc()
tcs = TCS34725(machine.I2C(0), 0x29, 24, 4)
sensor = ColourSensor(tcs, machine.Pin(6, machine.Pin.OUT))
clf = C.Classifier(C.default_profile("second"))
gc.collect()
objects = gc.mem_alloc() - base
sensor.sample()
t0 = time.ticks_ms()
for _ in range(5):
    label = clf.classify(sensor.sample())[0]
ms = time.ticks_diff(time.ticks_ms(), t0) / 5
print("code", code, "objects", objects, "sample_ms", ms, "label", label)
"""


def cost(keep):
    print("\n5. Cost")
    clf = C.Classifier(C.default_profile("second"))
    model = OpticalModel(5)
    readings = []
    for label in C.classes_for("second"):
        readings += model.samples(label, 50)
    t0 = time.perf_counter()
    for r in readings:
        clf.classify(r)
    print("  CPython: %.1f us per classify (8 classes, %d readings)" % (
        1e6 * (time.perf_counter() - t0) / len(readings), len(readings)))
    text = json.dumps(C.default_profile("second"))
    print("  second-edition profile: %d bytes of JSON" % len(text))
    sys.path.insert(0, os.path.join(REPO, "host"))
    from camelhost.device.micropython import find_micropython, run_micropython

    if find_micropython() is None:
        print("  MicroPython: skipped (unix port not installed)")
        return
    done = run_micropython(["-c", _MP_BENCH % json.dumps(readings[:200])],
                           [os.path.join(REPO, "shared")], heapsize="180K")
    if done.returncode != 0:
        print("  MicroPython classify bench failed:", (done.stderr or done.stdout).strip()[-300:])
    else:
        got = json.loads(done.stdout)
        print("  MicroPython unix port: %.0f us per classify; classifier + profile hold %d bytes "
              "of heap; one classify allocates %d bytes (floats are boxed)" % (
                  got["us"], got["held"], got["per_call"]))
    # the board runs the modules compiled by mpy-cross (as `make flash` ships them)
    from camelhost.device.virtual import compiled_tree

    tree = compiled_tree()
    done = run_micropython(
        ["-c", _MP_SENSOR],
        [os.path.join(tree, "sim"), os.path.join(tree, "firmware"), os.path.join(tree, "shared")],
        heapsize="180K")
    if done.returncode != 0:
        print("  MicroPython sensor bench failed:", (done.stderr or done.stdout).strip()[-300:])
    else:
        f = done.stdout.split()
        print("  MicroPython, 180K heap, .mpy modules: driver+sensor+classifier %s bytes, their objects "
              "(default second profile) %s bytes; one sample+classify %.0f ms at 24 ms "
              "integration (real-time register model)" % (f[1], f[3], float(f[5])))


def main():
    started = time.perf_counter()
    keep = simulated()
    many_calibrations()
    doubles(keep)
    real_data()
    table = exposure_table()
    in_play()
    failing = [(source, edition, settings) for source, edition, settings, ours, lda, _best, _light,
               bound in table if source != "pyramid sim" and verdict(ours, lda, bound["tests"]) == "NO"]
    refused = rejections(failing)
    print("\n3b. The closest pair of each failing row along the line between the two dice (5 splits):"
          " each die's test readings in its spread, projected towards the other (the model: sd 1,"
          " a Gaussian's 99th / 99.9th percentile 2.33 / 3.09)")
    sources = dict(_sources(set(row[0] for row in failing)))
    for source, edition, settings in failing:
        cells = refused[(source, edition, _exposure_name(settings))]["cells"]
        pairs = {}
        for (_colour, why, best, second), count in cells.items():
            if why.endswith("between"):
                key = tuple(sorted((best, second)))
                pairs[key] = pairs.get(key, 0) + count
        if not pairs:
            continue
        pair = max(sorted(pairs), key=lambda key: pairs[key])
        for (b, a), got in sorted(pair_axis(scaled_set(sources[source], settings), edition, settings,
                                            pair).items()):
            print("  %s, %s, %s: %s towards %s (%.2f sigma apart): mean %.2f, sd %.2f, 99th %.2f, "
                  "99.9th %.2f, largest %.2f of %d" % (
                      source, edition, _exposure_name(settings), b, a, got["sep"], got["mean"],
                      got["sd"], got["q99"], got["q999"], got["max"], got["n"]))
    ceilings(failing)
    chow(failing)
    print("\n3b. Each failing row's model against its readings (5 splits): each die's test readings "
          "whitened in its class's spread, the eigenvalues of their covariance (1: the model right; "
          "under 1: wider than the readings that way), as it is and with the count noise taken out "
          "as a whole matrix, named % / wrong; then a quadratic discriminant (each die's own "
          "measured covariance) in ours' features and in the variance-stabilised counts: forced "
          "choice right %, named % / wrong at a posterior of 0.95 and 0.99, the most named with "
          "none wrong (threshold after the fact)")
    for source, edition, settings in failing:
        counted = scaled_set(sources[source], settings)
        where = "%s, %s, %s" % (source, edition, _exposure_name(settings))
        for name, got in model_shape(counted, edition, settings).items():
            print("  %s, %s: %.2f / %d; %s" % (where, name, 100.0 * got["named"] / (got["n"] or 1),
                                               got["wrong"], "; ".join(
                "%s %s" % (label, " ".join("%.2f" % v for v in eig)) for label, eig in got["eig"].items())))
        for name, got in feature_spaces(counted, edition, settings).items():
            print("  %s, QDA in %s: forced %.2f, at 0.95 %.2f / %d, at 0.99 %.2f / %d, none wrong "
                  "%.2f" % ((where, name, got["forced"]) + got["at"][0.95] + got["at"][0.99] +
                            (got["zero_wrong"],)))
    lattice(failing)
    knn_reject()
    per_release([(source, edition, settings) for source, edition, settings, *_rest in table
                 if source != "pyramid sim"])
    print("\n3b. What the data allows as the readings grow: replicas of the EV3 set (seeds 1..10) "
          "pooled, the share of readings whose counts no other colour gives, and the forced-choice "
          "error of naming each count by its commonest colour")
    for name, units, data in real_sets():
        if units != "ev3":
            continue
        for settings, edition in (({"integration_ms": 2.4, "gain": 1}, "classic"),
                                  ({"integration_ms": 2.4, "gain": 4}, "second")):
            for k, n, bound, error in pooled_bound(data, units, settings, edition):
                print("  %s, %s, %s: %d replicas, %d readings: %.2f %% only one colour gives, "
                      "majority error %.3f %%" % (name.split(" (")[0], edition, _exposure_name(settings),
                                                  k, n, bound, error))
    doubles_by_exposure()
    releases()
    cost(keep)
    print("\n(bench_classifier: %.1f s)" % (time.perf_counter() - started))


if __name__ == "__main__":
    main()
