"""Safe boot by BOOTSEL (or the slider) on the simulated board: the way back to the REPL
for a maker whose slider switch is not wired yet (hardware/README.md, "Watchdog and
safe boot")."""

import os
import subprocess
import sys

import pytest
from camelhost import paths
from camelhost.device.micropython import find_micropython, micropython_env
from camelhost.device.virtual import compiled_tree

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

from pyramid import app as app_mod  # noqa: E402
from pyramid import config  # noqa: E402
from pyramid.safeboot import SAMPLE_MS, SAMPLES, safe_boot  # noqa: E402


class Pin:
    def __init__(self, level):
        self.level = level
        self.history = []

    def value(self, x=None):
        if x is None:
            return self.level
        self.level = x
        self.history.append(x)


class Clock:
    def __init__(self):
        self.now = 0

    def sleep(self, ms):
        self.now += ms

    def ticks(self):
        return self.now


def _board(slider_level=1):
    return app_mod.Board(None, Pin(slider_level), Pin(0), Pin(0), (), b"\0" * 8)


def test_bootsel_pressed_in_the_window_is_a_safe_boot_and_the_led_shows_the_window():
    clock = Clock()
    board = _board()
    pressed = lambda: 1 if 300 <= clock.now < 400 else 0  # noqa: E731
    got = safe_boot(board, sleep_ms_=clock.sleep, bootsel=pressed, window_ms=1500, clock=clock.ticks)
    assert got == "bootsel"
    assert board.status_led.history == [1, 0]  # lit while watching, out again
    assert 300 + SAMPLES * SAMPLE_MS <= clock.now < 400


def test_a_bootsel_blip_shorter_than_the_reads_or_after_the_window_is_not():
    clock = Clock()
    blip = lambda: 1 if 100 <= clock.now < 120 else 0  # noqa: E731  (20 ms < 50 ms of reads)
    assert safe_boot(_board(), sleep_ms_=clock.sleep, bootsel=blip, window_ms=1500, clock=clock.ticks) is None
    clock = Clock()
    late = lambda: 1 if clock.now >= 1600 else 0  # noqa: E731
    assert safe_boot(_board(), sleep_ms_=clock.sleep, bootsel=late, window_ms=1500, clock=clock.ticks) is None
    assert clock.now <= 1500 + SAMPLE_MS
    # no window (a watchdog reset): BOOTSEL is not even read
    calls = []
    assert safe_boot(_board(), sleep_ms_=clock.sleep, bootsel=lambda: calls.append(1) or 1, window_ms=0) is None
    assert calls == []


def test_the_slider_still_gives_the_safe_boot_without_any_window():
    clock = Clock()
    assert safe_boot(_board(slider_level=0), sleep_ms_=clock.sleep, bootsel=None) == "slider"
    assert clock.now == SAMPLES * SAMPLE_MS


def _boot_sim(tmp_path, bootsel, wdt_reset=False, timeout=8.0):
    """Power up the simulated board (firmware compiled as flashed) with BOOTSEL pressed
    ``bootsel`` = (press, release) ms after power-up. Returns (stdout, stderr)."""
    exe = find_micropython()
    if exe is None:
        pytest.skip("micropython unix port not installed")
    tree = compiled_tree()
    if wdt_reset:  # the previous boot ended in a watchdog reset (machine.RESET_FILE)
        (tmp_path / ".sim_reset_cause").write_text("3")
    env = micropython_env([os.path.join(tree, "sim"), os.path.join(tree, "firmware"), os.path.join(tree, "shared")])
    env["SIM_BOOTSEL"] = "%d:%d" % bootsel
    env.pop("SIM_SAFE_BOOT_WINDOW_MS", None)
    proc = subprocess.Popen(
        [exe, "-X", "heapsize=224K", os.path.join(paths.SIM_DIR, "sim_board.py")],
        cwd=str(tmp_path), env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:  # the firmware started and serves until reset
        proc.kill()
        out, err = proc.communicate()
    return out.decode(errors="replace"), err.decode(errors="replace")


@pytest.mark.micropython
def test_bootsel_pressed_after_power_up_gives_the_repl_on_the_simulated_board(tmp_path):
    out, err = _boot_sim(tmp_path, (200, 1000))
    assert "pyramid: safe boot (BOOTSEL held): firmware not started" in out
    assert "HELLO" not in out
    # the check reads BOOTSEL this soon after power-up (the figure hardware/README gives)
    first = int(err.split("BOOTSEL first read ")[1].split()[0])
    assert 0 <= first < config.SAFE_BOOT_WINDOW_MS


@pytest.mark.micropython
def test_bootsel_after_the_window_or_after_a_watchdog_reset_starts_the_firmware(tmp_path):
    late = config.SAFE_BOOT_WINDOW_MS + 500
    out, _err = _boot_sim(tmp_path, (late, late + 2000), timeout=late / 1000 + 3)
    assert "HELLO" in out and "safe boot" not in out
    wdt = tmp_path / "wdt"
    wdt.mkdir()
    out, _err = _boot_sim(wdt, (0, 5000), wdt_reset=True, timeout=3)
    assert "HELLO" in out and "rst=wdt" in out and "safe boot" not in out
