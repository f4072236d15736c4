"""Colour classifier benchmark: accuracy, rejection and error rates; speed; memory.

1. Simulated dice (hardware/sim/sim_optics.py) at realistic noise, both editions:
   the built-in default profile, and profiles calibrated like `pyramid calibrate`
   does (12 or 40 readings per class), on the reference box and on another box
   (variation 0.05: other dyes, LED and chip gains), at 1x and 2x noise.
2. Two dice in the head: how often each pair is reported as `double`.
3. Real third-party readings from ../shared/data/sensor (not in the repository;
   skipped when absent): calibrate on part of each class's log (every 4th
   reading; 12 readings spread over the log, like a calibration session; or
   only the first quarter, the harsh case), test on the rest; per class figures
   for each edition's colours. These sensors have no clear channel: clear
   is taken as R + G + B (the TCS34725's clear photodiode sees about that).
4. Cost: classify time on CPython and on the MicroPython unix port, heap taken by
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

from camelup import classifier as C  # noqa: E402
from sim_optics import DEFAULT_SETTINGS, EDITION_DICE, OpticalModel  # noqa: E402

REFERENCE = os.path.abspath(os.path.join(REPO, "..", "shared", "data", "sensor"))
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
                        profile = C.fit(cal, edition, DEFAULT_SETTINGS)
                        how = "calibrated %d" % n_cal
                    report = C.evaluate(C.Classifier(profile), test)
                    print(_row("%s / %s / %s / %gx" % (edition, how, box, noise), report))
                    if variation == 0 and noise == 1.0 and n_cal == 12:
                        keep[edition] = (profile, report)
    for edition in ("classic", "second"):
        profile, report = keep[edition]
        print("\n  %s, calibrated with 12 readings per class, reference box, 1x noise:" % edition)
        print(_per_class(report))
        close = [p for p in C.separation(profile) if p["too_close"]]
        worst = C.separation(profile)[0]
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
            report = C.evaluate(C.Classifier(C.fit(cal, "second", DEFAULT_SETTINGS)), test)
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


def releases(runs=4, per_class=60):
    """Whole releases as the firmware runs them: the die settles once (one seating),
    readings every 64 ms (24 ms integration) go through ``pyramid.release.Release``
    (150 ms settling, 3 agreeing readings, 1.5 s timeout) and the app's rule that a
    rejected reading nearest the empty head counts as empty."""
    sys.path.insert(0, os.path.join(REPO, "firmware"))
    from pyramid.release import Release

    print("\n1c. Second edition, whole releases (firmware release logic), %d calibrations of 12 "
          "readings, %d releases per die each" % (runs, per_class))
    for noise in (1.0, 2.0):
        counts = {"die": 0, "wrong": 0, "unknown": 0, "other": 0}
        grey = [0, 0]
        for run in range(runs):
            model = OpticalModel(6000 + run, noise=noise)
            labels = C.classes_for("second")
            cal = {label: model.samples(label, 12) for label in labels}
            clf = C.Classifier(C.fit(cal, "second", DEFAULT_SETTINGS))
            for die in EDITION_DICE["second"]:
                for _ in range(per_class):
                    model._content = die
                    model.reseat()
                    rel = Release(150, 1500, 3)
                    rel.start(0)
                    now = 0
                    result = None
                    while result is None:
                        now += 64
                        reading = model.samples(die, 1, reseat=False)[0]
                        label, margin, detail = clf.classify_detail(reading)
                        if label == "unknown" and detail["best"][0] == "empty":
                            label = "empty"
                        result = rel.feed(now, label, margin, reading)
                    kind, got = result[0], result[1]
                    if kind == "die":
                        counts["die" if got == die else "wrong"] += 1
                        if die.startswith("grey"):
                            grey[got == die] += 1
                    elif kind == "unknown":
                        counts["unknown"] += 1
                    else:
                        counts["other"] += 1
        total = sum(counts.values())
        print("  %gx noise: %d releases: die named %.1f%%, wrong die %.2f%% (%d), unknown %.1f%%, "
              "double/nodie %.1f%%" % (
                  noise, total, 100 * counts["die"] / total, 100 * counts["wrong"] / total,
                  counts["wrong"], 100 * counts["unknown"] / total, 100 * counts["other"] / total))


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


def real_data():
    print("\n3. Real third-party readings (%s)" % REFERENCE)
    if not os.path.isdir(REFERENCE):
        print("  skipped: ../shared/data/sensor is not beside this checkout")
        return
    sets = []
    waddle = os.path.join(REFERENCE, "Waddl-E")
    if os.path.isdir(waddle):
        sets.append(("Waddl-E (LEGO EV3 RGB, MIT)", _read_waddle(waddle), None))
    tcs230 = os.path.join(REFERENCE, "tcs230", "color.csv")
    if os.path.exists(tcs230):
        sets.append(("tcs230 (TCS3200 pulse widths)", _read_tcs230(tcs230), "black"))
    for name, data, dark in sets:
        for edition in ("classic", "second"):
            subset = _real_edition(data, edition, dark)
            for how in ("every 4th reading", "12 readings spread out", "the first 25 %"):
                cal = {}
                test = {}
                for label, rows in subset.items():
                    if how == "every 4th reading":
                        picked = set(range(0, len(rows), 4))
                    elif how == "12 readings spread out":
                        picked = set(range(0, len(rows), len(rows) // 12)[:12])
                    else:  # one stretch of the log: no later seating or drift seen
                        picked = set(range(len(rows) // 4))
                    cal[label] = [rows[i] for i in sorted(picked)]
                    test[label] = [rows[i] for i in range(len(rows)) if i not in picked]
                # other sensors, other units: settings that never saturate these counts
                profile = C.fit(cal, edition, {"integration_ms": 614.4, "gain": 1})
                report = C.evaluate(C.Classifier(profile), test)
                print(_row("%s, %s dice, cal. on %s" % (name.split()[0], edition, how), report))
                if how == "every 4th reading":
                    print(_per_class(report))


_MP_BENCH = r"""
import gc, json, time
import camelup.classifier as C
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
import camelup.classifier as C
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
    print("\n4. Cost")
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
        print("  MicroPython classify bench failed:", done.stderr.strip()[-300:])
    else:
        got = json.loads(done.stdout)
        print("  MicroPython unix port: %.0f us per classify; classifier + profile hold %d bytes "
              "of heap; one classify allocates %d bytes (floats are boxed)" % (
                  got["us"], got["held"], got["per_call"]))
    done = run_micropython(
        ["-c", _MP_SENSOR],
        [os.path.join(REPO, "hardware", "sim"), os.path.join(REPO, "firmware"),
         os.path.join(REPO, "shared")], heapsize="180K")
    if done.returncode != 0:
        print("  MicroPython sensor bench failed:", done.stderr.strip()[-300:])
    else:
        f = done.stdout.split()
        print("  MicroPython, 180K heap: driver+sensor+classifier modules %s bytes, their objects "
              "(default second profile) %s bytes; one sample+classify %.0f ms at 24 ms "
              "integration (real-time register model)" % (f[1], f[3], float(f[5])))


def main():
    started = time.perf_counter()
    keep = simulated()
    many_calibrations()
    releases()
    doubles(keep)
    real_data()
    cost(keep)
    print("\n(bench_classifier: %.1f s)" % (time.perf_counter() - started))


if __name__ == "__main__":
    main()
