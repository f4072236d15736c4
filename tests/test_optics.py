"""Optical model of the pyramid head: physics it must respect, and reproducibility."""

import json
import math
import os
import sys

import pytest
from camelhost import paths

sys.path[:0] = [paths.SIM_DIR]

import sim_optics  # noqa: E402
from sim_optics import EDITION_DICE, LABELS, OpticalModel  # noqa: E402


def chroma(reading):
    c = reading[0]
    return tuple(v / c for v in reading[1:])


def test_same_seed_same_counts_other_seed_differs():
    a = OpticalModel(11).samples("red", 5)
    b = OpticalModel(11).samples("red", 5)
    c = OpticalModel(12).samples("red", 5)
    assert a == b
    assert a != c


@pytest.mark.parametrize("label", LABELS)
def test_every_label_reads_within_full_scale(label):
    model = OpticalModel(3)
    for led in (False, True):
        reading = model.counts(label, led, 24, 4)
        assert all(isinstance(v, int) and 0 <= v <= 10240 for v in reading)


def test_brightness_order_matches_the_dyes():
    model = OpticalModel(0, noise=0.0)
    clear = {label: model.samples(label, 1)[0][0] for label in LABELS}
    assert clear["white"] > clear["yellow"] > clear["orange"] > clear["red"]
    assert clear["grey-white"] > clear["grey-black"] > 2 * clear["empty"]
    assert clear["empty"] < 0.05 * clear["white"]
    assert 2500 < clear["white"] < 3300  # under a third of full scale at 24 ms, gain 4


def test_hues_point_the_right_way():
    model = OpticalModel(0, noise=0.0)
    r, g, b = chroma(model.samples("red", 1)[0])
    assert r > 2 * g and r > 2 * b
    r, g, b = chroma(model.samples("green", 1)[0])
    assert g > r and g > b
    r, g, b = chroma(model.samples("blue", 1)[0])
    assert b > r and b > g
    r, g, b = chroma(model.samples("yellow", 1)[0])
    assert r > 3 * b and g > 3 * b
    # the grey die's two inks change brightness, not hue
    black = chroma(model.samples("grey-black", 1)[0])
    white = chroma(model.samples("grey-white", 1)[0])
    assert all(abs(x - y) < 0.02 for x, y in zip(black, white, strict=True))


def test_counts_scale_with_integration_time_and_gain():
    model = OpticalModel(0, noise=0.0, ambient=0.0)
    base = model.counts("blue", True, 24, 1)
    assert model.counts("blue", True, 48, 1)[0] == pytest.approx(2 * base[0], rel=0.01)
    assert model.counts("blue", True, 24, 16)[0] == pytest.approx(16 * base[0], rel=0.02)


def test_saturation_clips_and_compresses():
    model = OpticalModel(0, noise=0.0, ambient=0.0)
    assert model.counts("white", True, 24, 60)[0] == 10240  # min(65535, 1024 * 10)
    assert model.counts("white", True, 614.4, 60) == (65535,) * 4
    # above 75 % of full scale (short integration) the front end compresses
    linear = model.counts("white", True, 24, 1)[0] * 4 * 1.35
    assert model.counts("white", True, 24, 4)[0] == pytest.approx(linear / 1.35, rel=0.02)


def test_led_fraction_and_ambient():
    model = OpticalModel(0, noise=0.0, ambient=0.05)
    off = model.counts("white", False, 24, 4)
    half = model.counts("white", 0.5, 24, 4)
    on = model.counts("white", True, 24, 4)
    assert off[0] == pytest.approx(0.05 * 2900, rel=0.25)  # the leak, LED off
    assert half[0] - off[0] == pytest.approx((on[0] - off[0]) / 2, rel=0.01)
    # warm room light is red-heavy compared with the LED
    assert off[1] / off[3] > on[1] / on[3]


def test_seating_jitter_changes_brightness_not_chromaticity_much():
    readings = OpticalModel(4).samples("green", 60)
    clears = [r[0] for r in readings]
    spread = (max(clears) - min(clears)) / (sum(clears) / len(clears))
    assert 0.08 < spread < 0.5
    greens = [chroma(r)[1] for r in readings]
    assert max(greens) - min(greens) < 0.12


def test_two_dice_read_between_the_two():
    model = OpticalModel(9, noise=0.0)
    blue = chroma(model.samples("blue", 1)[0])
    yellow = chroma(model.samples("yellow", 1)[0])
    both = chroma(model.samples(("blue", "yellow"), 1)[0])
    for k in range(3):
        assert min(blue[k], yellow[k]) <= both[k] <= max(blue[k], yellow[k])


def test_variation_changes_the_box_of_dice():
    ref = OpticalModel(1, noise=0.0).samples("orange", 1)[0]
    other = OpticalModel(1, noise=0.0, variation=0.05).samples("orange", 1)[0]
    assert ref != other


def test_unknown_label_raises():
    with pytest.raises(ValueError):
        OpticalModel(0).counts("pink", True, 24, 4)


def test_calibration_samples_cover_the_edition():
    samples = sim_optics.calibration_samples("classic", n=3)
    assert sorted(samples) == sorted(EDITION_DICE["classic"] + ("empty",))
    assert all(len(v) == 3 for v in samples.values())


@pytest.mark.micropython
def test_micropython_gives_the_same_counts(micropython):
    code = (
        "import json\nfrom sim_optics import OpticalModel\n"
        "m = OpticalModel(21)\n"
        "print(json.dumps([m.samples(l, 3) for l in ('purple', 'grey-black', 'empty')]"
        " + [m.counts(('red', 'green'), True, 50.4, 16)]))"
    )
    done = micropython(code, [paths.SIM_DIR, paths.SHARED_DIR])
    assert done.returncode == 0, done.stderr
    m = OpticalModel(21)
    expected = [m.samples(label, 3) for label in ("purple", "grey-black", "empty")]
    expected.append(m.counts(("red", "green"), True, 50.4, 16))
    assert json.loads(done.stdout) == json.loads(json.dumps(expected))


# --- a seeded virtual game is the same every run (issue 9) ---


def _pause_repeatedly(vp, stop):
    """Stop the board's process for 25 ms every 45 ms until ``stop`` is set: the
    firmware's CPU time as on a loaded machine (the soak's 2 cores shared by many)."""
    import signal
    import time

    while not stop.is_set():
        boot = vp._boot
        if boot is not None:
            try:
                os.kill(boot.proc.pid, signal.SIGSTOP)
                time.sleep(0.025)
                os.kill(boot.proc.pid, signal.SIGCONT)
            except OSError:
                pass
        time.sleep(0.02)


def _seeded_leg(seed, reboot_after=None, loaded=False):
    import threading

    from camelhost.device.virtual import VirtualPyramid

    out = []
    stop = threading.Event()
    with VirtualPyramid("second", seed=seed) as vp:
        pauser = threading.Thread(target=_pause_repeatedly, args=(vp, stop), daemon=True)
        if loaded:
            pauser.start()
        for i in range(6):
            if i == reboot_after:
                vp.reboot()
            fell = vp.release(timeout=30.0)
            ev = fell.event
            out.append((fell.dice[0][0], ev.name, ev.kind, ev.get("col"), ev.get("ink"),
                        ev.get("m"), tuple(ev.get("raw") or ())))
        stop.set()
        if loaded:
            pauser.join()
    return out


@pytest.mark.hil
@pytest.mark.micropython
def test_a_seeded_virtual_game_reads_the_same_dice_and_counts_every_run(micropython):
    """The optics' noise is keyed by (seed, release, reading), not by how many
    cycles a loaded machine let the firmware read: same seed, same events, raw
    counts and margins included."""
    first = _seeded_leg(23)
    again = _seeded_leg(23)
    assert first == again
    assert all(kind in ("die", "unknown") for _, _, kind, *_ in first)
    assert len({raw for *_, raw in first}) == 6


def test_the_led_drift_at_a_release_depends_only_on_the_seed_and_the_release_number():
    """A rebooted board builds a new model and begins at the release count so far
    (``SIM_RELEASES``): its LED drift, and so its counts, are those of a model that
    began every release before (the soak's faulted games read what their fault-free
    runs read)."""
    ran = OpticalModel(101)
    for release in range(1, 9):
        ran.begin(release)
        ran.counts("grey-white", True, 7.2, 4, index=0)
    rebooted = OpticalModel(101)
    rebooted.begin(8)
    assert (rebooted.drift, rebooted.balance_drift) == (ran.drift, ran.balance_drift)
    assert ran.drift != 1.0
    assert [rebooted.counts("grey-white", True, 7.2, 4, index=i) for i in range(5)] == [
        ran.counts("grey-white", True, 7.2, 4, index=i) for i in range(5)
    ]
    # going back to an earlier release replays the walk: the same level again
    again = OpticalModel(101)
    again.begin(3)
    ran.begin(3)
    assert (ran.drift, ran.balance_drift) == (again.drift, again.balance_drift)


@pytest.mark.hil
@pytest.mark.micropython
def test_a_seeded_virtual_game_reads_the_same_counts_with_a_reboot_in_it(micropython):
    """A pyramid rebooted between releases reads the dice after the reboot exactly as
    one that never rebooted (raw counts and margins included)."""
    assert _seeded_leg(23, reboot_after=3) == _seeded_leg(23)


@pytest.mark.hil
@pytest.mark.micropython
def test_a_seeded_virtual_game_reads_the_same_counts_on_a_loaded_machine(micropython):
    """A firmware that gets the CPU only part of the time takes fewer readings per
    second: a release still decides on the same readings (its settle and timeout are
    counted in readings), so seed 101's grey die (read near the black/white
    boundary) gives the same events as on an idle machine."""
    assert _seeded_leg(101, loaded=True) == _seeded_leg(101)


# --- the noise model against real sensors (issue 14) ---


def _bench():
    sys.path.insert(0, os.path.join(paths.REPO_ROOT, "tests", "bench"))
    import bench_classifier

    return bench_classifier


@pytest.fixture(scope="module")
def real_sets():
    sets = _bench().real_sets()
    if not sets:
        pytest.skip("real readings (../shared/data/sensor) absent")
    return sets


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def _slope(xs, ys):
    mx = sum(xs) / len(xs)
    my = sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def test_simulated_logs_have_the_real_noise_chromaticity_spread_and_autocorrelation(real_sets):
    """Fitted to each real set (sim_fit), simulated logs of the same lengths match it:
    noise (first differences) against level within a factor 1.35 at the median, 2.5
    at worst, growing with the level with the same exponent (+/- 0.25); the
    chromaticity spread within a factor 1.25 at the median, 2 at worst; lag-1
    autocorrelation within 0.06 at the median, 0.2 at worst (per class and channel)."""
    import sim_fit

    bench = _bench()
    for _name, units, data in real_sets:
        sim = bench.replica(data, units)
        noise, chroma, lag = [], [], []
        levels = {"real": [], "sim": []}
        noises = {"real": [], "sim": []}
        for label in data:
            a = sim_fit.log_stats(data[label])
            b = sim_fit.log_stats(sim[label])
            for k in range(3):
                noise.append(b["noise"][k] / a["noise"][k])
                chroma.append(b["chroma_sd"][k] / a["chroma_sd"][k])
                lag.append(abs(b["lag1"][k] - a["lag1"][k]))
                for which, st in (("real", a), ("sim", b)):
                    levels[which].append(math.log(st["level"][k]))
                    noises[which].append(math.log(st["noise"][k]))
        assert 1 / 1.35 <= _median(noise) <= 1.35, (units, sorted(noise))
        assert 0.4 <= min(noise) and max(noise) <= 2.5, (units, sorted(noise))
        exponent = (_slope(levels["real"], noises["real"]), _slope(levels["sim"], noises["sim"]))
        assert exponent[0] > 0.3 and abs(exponent[0] - exponent[1]) <= 0.25, (units, exponent)
        assert 0.8 <= _median(chroma) <= 1.25, (units, sorted(chroma))
        assert 0.5 <= min(chroma) and max(chroma) <= 2.0, (units, sorted(chroma))
        assert _median(lag) <= 0.06 and max(lag) <= 0.2, (units, sorted(lag))


def test_the_pyramid_models_sensor_noise_is_the_ev3_fit(real_sets):
    """sim_optics.SENSOR_NOISE's shot noise and drift-step rate are the EV3 set's
    (LED-lit reflectance, the pyramid head's kind of reading), pooled over its classes."""
    import sim_fit

    ev3 = [data for _name, units, data in real_sets if units == "ev3"]
    if not ev3:
        pytest.skip("EV3 readings absent")
    fitted = sim_fit.pooled(sim_fit.fit_set(ev3[0]))
    assert sim_optics.SENSOR_NOISE["shot"] == pytest.approx(fitted["shot"], rel=0.3)
    assert sim_optics.SENSOR_NOISE["step_p"] == pytest.approx(fitted["p"], abs=0.03)


def test_a_seated_die_sits_at_few_levels_and_dim_channels_at_fractions_of_a_count():
    """Readings of one seating (one release): the slow drift is stepwise (long runs at
    one level, lag-1 autocorrelation high), noise grows with the count, and a channel
    at a 2-count level moves by well under a count."""
    model = OpticalModel(8)
    model.begin(1)
    bright = [model.counts("yellow", True, 24, 4, index=i) for i in range(200)]
    clear = [r[0] for r in bright]
    lag1 = _autocorr(clear)
    assert lag1 > 0.5
    dark = OpticalModel(8)
    dark.begin(1)
    dim = [dark.counts("empty", True, 2.4, 1, index=i)[3] for i in range(200)]
    level = sum(dim) / len(dim)
    assert 1 <= level <= 4
    assert _noise(dim) < 0.5 < _noise(clear)


def _autocorr(xs):
    m = sum(xs) / len(xs)
    v = sum((x - m) ** 2 for x in xs)
    return sum((xs[i] - m) * (xs[i + 1] - m) for i in range(len(xs) - 1)) / v


def _noise(xs):
    return math.sqrt(sum((xs[i + 1] - xs[i]) ** 2 for i in range(len(xs) - 1)) / (len(xs) - 1) / 2)


def test_the_channels_lag_behind_a_moving_object_is_fitted_back():
    """A sensor that reads its filters one after another sees a moving object at
    another brightness in each: a log simulated on a brightness path with a known lag
    (``sim_fit.LogModel``, red -0.3, green 0, blue +0.35 of how fast the brightness
    moves) gives that lag back from ``sim_fit.fit_lag`` within 0.05, and a log
    without one gives about none."""
    import random

    import sim_fit

    rng = random.Random(5)
    path = [0.0]
    for _ in range(599):
        path.append(0.8 * path[-1] + rng.gauss(0.0, 0.15))
    fit = {"n": 600, "m": [math.log(300), math.log(500), math.log(400)], "s": [1.0, 1.0, 1.0],
           "q": [0.0, 0.0, 0.0], "sigma_s": [0.0, 0.0, 0.0], "p": 0.1, "shot": 0.05,
           "sigma_l": 0.25, "rho_l": 0.8}
    lag = [-0.3, 0.0, 0.35]
    for want in (lag, None):
        fits = {"cube": dict(fit, lag=want, shots=[0.05] * 3) if want else fit}
        log = sim_fit.LogModel(fits, "ev3", seed=3, paths={"cube": path}).log("cube", 600)
        got = sim_fit.fit_lag({"cube": log})
        for k in range(3):
            assert abs(got[k] - (want[k] if want else 0.0)) < 0.05, (want, got)
