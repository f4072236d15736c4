"""Type-check the firmware against MicroPython's stubs (micropython-rp2-stubs).

This is CI's one mypy run (``make test``; ``make lint`` runs the same check by hand):
every firmware file, and what it imports of ``camelup``, must be clean.

Uses the stubs `make setup` installs into .venv/typings (PyPI
``micropython-rp2-stubs``, pinned in the Makefile); nothing is downloaded while the
tests run: without them the tests fail, naming the command that installs them.
"""

import os
import re
import subprocess
import sys

import pytest
from camelhost import paths

# both tests on one xdist worker: the second reads the stubs' types from the first's
# mypy cache (builtins and the rp2 modules are not analysed twice)
pytestmark = [pytest.mark.xdist_group("firmware-typecheck"), pytest.mark.process]

CONFIG = os.path.join(paths.FIRMWARE_DIR, "mypy.ini")
#: Files of the sensor side (checked among the rest; named so a failure says so).
SENSOR_FILES = (
    "firmware/pyramid/tcs34725.py",
    "firmware/pyramid/sensor.py",
    "firmware/pyramid/profile.py",
    "shared/camelup/board/classifier.py",
)


@pytest.fixture(scope="module")
def typings():
    here = os.path.join(paths.REPO_ROOT, ".venv", "typings")
    if not os.path.exists(os.path.join(here, "machine.pyi")):
        pytest.fail("the rp2 stubs are not in %s: run make setup (it installs them)" % here)
    return here


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory):
    """One mypy cache folder for the module's runs (same stubs, same config)."""
    return str(tmp_path_factory.mktemp("mypy-cache"))


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


def test_the_firmware_typechecks_against_rp2_stubs(typings, mypy_cache):
    done, errors = run_mypy(typings, cache=mypy_cache)
    assert done.returncode in (0, 1), done.stderr  # 2 = mypy itself failed
    checked = done.stdout + done.stderr
    sensor = [e for e in errors if e.split(":")[0].replace(os.sep, "/") in SENSOR_FILES]
    assert not sensor, "the sensor side:\n" + "\n".join(sensor)
    assert not errors, "\n".join(errors)
    assert done.returncode == 0 and "error: " not in done.stderr, checked


def test_stubs_catch_cpython_only_and_misspelt_names(typings, tmp_path, mypy_cache):
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
    done, errors = run_mypy(typings, [str(bad)], cache=mypy_cache)
    assert len(errors) == 3, done.stdout + done.stderr
    assert "PULL_DOWNN" in errors[0] and "sleep_milli" in errors[1] and "monotonic" in errors[2]
