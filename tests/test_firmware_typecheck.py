"""Type-check the firmware against MicroPython's stubs (micropython-rp2-stubs).

This is CI's one mypy run (``make test``; ``make lint`` runs the same check by hand):
every firmware file, and what it imports of ``camelup``, must be clean.

Uses the stubs `make typings` installs into .venv/typings; when they are absent
the test installs them into a temporary folder with pip, and skips only when pip
cannot reach the package index.
"""

import os
import re
import subprocess
import sys

import pytest
from camelhost import paths

# both tests on one xdist worker, so a missing stub set is installed once
pytestmark = [pytest.mark.xdist_group("firmware-typecheck"), pytest.mark.process]

STUBS = "micropython-rp2-stubs==1.29.0.post1"
CONFIG = os.path.join(paths.FIRMWARE_DIR, "mypy.ini")
#: Files of the sensor side (checked among the rest; named so a failure says so).
SENSOR_FILES = (
    "firmware/pyramid/tcs34725.py",
    "firmware/pyramid/sensor.py",
    "firmware/pyramid/profile.py",
    "shared/camelup/board/classifier.py",
)
_UNREACHABLE = ("No matching distribution", "Could not find a version", "connection", "resolve")


@pytest.fixture(scope="module")
def typings(tmp_path_factory):
    here = os.path.join(paths.REPO_ROOT, ".venv", "typings")
    if os.path.exists(os.path.join(here, "machine.pyi")):
        return here
    target = str(tmp_path_factory.mktemp("typings"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--target", target, STUBS],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        if any(word.lower() in done.stderr.lower() for word in _UNREACHABLE):
            pytest.skip("pip cannot reach the index for %s" % STUBS)
        pytest.fail("pip install %s failed:\n%s" % (STUBS, done.stderr))
    return target


def run_mypy(typings, files=(), cache=None):
    env = dict(os.environ)
    env["MYPYPATH"] = os.pathsep.join([typings, paths.SHARED_DIR])
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        CONFIG,
        "--custom-typeshed-dir",
        typings,
        "--no-error-summary",
    ]
    if cache:
        cmd += ["--cache-dir", cache]
    done = subprocess.run(
        cmd + list(files), capture_output=True, text=True, cwd=paths.REPO_ROOT, env=env, timeout=300
    )
    errors = [line for line in done.stdout.splitlines() if re.match(r"^\S+:\d+: error:", line)]
    return done, errors


def test_the_firmware_typechecks_against_rp2_stubs(typings, tmp_path):
    done, errors = run_mypy(typings, cache=str(tmp_path / "cache"))
    assert done.returncode in (0, 1), done.stderr  # 2 = mypy itself failed
    checked = done.stdout + done.stderr
    sensor = [e for e in errors if e.split(":")[0].replace(os.sep, "/") in SENSOR_FILES]
    assert not sensor, "the sensor side:\n" + "\n".join(sensor)
    assert not errors, "\n".join(errors)
    assert done.returncode == 0 and "error: " not in done.stderr, checked


def test_stubs_catch_cpython_only_and_misspelt_names(typings, tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import time\n"
        "from machine import I2C, Pin\n"
        "p = Pin(15, Pin.IN, Pin.PULL_DOWNN)\n"  # misspelt constant
        "time.sleep_milli(5)\n"  # no such function
        "t = time.monotonic()\n"  # CPython only
        "time.sleep_ms(5)\n"  # fine on MicroPython
        "i2c = I2C(0, scl=Pin(5), sda=Pin(4), freq=400_000)\n"
    )
    done, errors = run_mypy(typings, [str(bad)], cache=str(tmp_path / "cache"))
    assert len(errors) == 3, done.stdout + done.stderr
    assert "PULL_DOWNN" in errors[0] and "sleep_milli" in errors[1] and "monotonic" in errors[2]
