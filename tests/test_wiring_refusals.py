"""``wiring.py`` answers a pin assignment that cannot work with one line naming what is
wrong and what to set, never a traceback (tester s36tm, finding 2: ``I2C_SDA = 2`` and
``I2C_SCL = 3`` with ``I2C_ID = 0`` gave nine lines of ``Traceback ... ValueError``;
hardware/README.md promises "``wiring.py --check`` tells you").

The pins each I2C block takes come from the RP2040 datasheet's GPIO function table
(``wiring.I2C_SDA_PINS`` / ``I2C_SCL_PINS``), those a maker can solder to from the Pico
header (``wiring.PICO_HEADER``)."""

import os
import re
import shutil
import subprocess
import sys

import pytest
from camelhost import paths
from wiring_under_test import HW, wiring


def _run(monkeypatch, capsys, argv, **change):
    cfg = dict(wiring.load_config(), **change)
    monkeypatch.setattr(wiring, "load_config", lambda: cfg)
    rc = wiring.main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("argv", [["--check"], ["--table"], ["--out", os.devnull]])
def test_i2c1_pins_with_i2c_id_0_name_the_block_and_what_to_set(monkeypatch, capsys, argv):
    rc, out, err = _run(monkeypatch, capsys, argv, I2C_SDA=2, I2C_SCL=3)
    assert rc == 1 and out == ""
    assert err == ("wiring.py: config.py: I2C_SDA = GP2 and I2C_SCL = GP3 are I2C1 pins: set "
                   "I2C_ID = 1, or use SDA GP0/4/8/12/16/20/28 and SCL GP1/5/9/13/17/21 for "
                   "I2C0\n")


def test_one_i2c_pin_of_the_other_block_names_the_pins_of_this_one(monkeypatch, capsys):
    rc, _out, err = _run(monkeypatch, capsys, ["--check"], I2C_SDA=6, SENSOR_LED=7)
    assert rc == 1
    assert err == ("wiring.py: config.py: I2C_SDA = GP6 is an I2C1 pin, not I2C0's (I2C_ID = "
                   "0, I2C_SCL = GP5): use SDA GP0/4/8/12/16/20/28 for I2C0\n")


def test_sda_and_scl_swapped_say_so(monkeypatch, capsys):
    rc, _out, err = _run(monkeypatch, capsys, ["--check"], I2C_SDA=5, I2C_SCL=4)
    assert rc == 1
    assert err == ("wiring.py: config.py: I2C_SDA = GP5 and I2C_SCL = GP4 are swapped: GP5 is "
                   "an SCL pin and GP4 an SDA pin; set I2C_SDA = 4 and I2C_SCL = 5\n")


def test_every_problem_in_one_line_each_with_its_fix(monkeypatch, capsys):
    rc, _out, err = _run(monkeypatch, capsys, ["--check"], I2C_SDA=6, STATUS_LED=29)
    assert rc == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert "I2C_SDA and SENSOR_LED both use GP6: give one of them a free GPIO" in err
    assert ("STATUS_LED = GP29 is not on the Pico header (VSYS/3 (ADC3)): use a GPIO of the "
            "header (GP0-GP22, GP26-GP28) or GP25 (the on-board LED)") in err
    assert "I2C_SDA = GP6 is an I2C1 pin" in err


def test_an_unknown_i2c_block_names_the_two(monkeypatch, capsys):
    rc, _out, err = _run(monkeypatch, capsys, ["--check"], I2C_ID=2)
    assert rc == 1
    assert err == ("wiring.py: config.py: I2C_ID = 2: the RP2040 has I2C0 and I2C1 (set "
                   "I2C_ID = 0 or 1)\n")


def test_the_shipped_configuration_passes():
    assert wiring.check_config(wiring.load_config()) == []


def test_the_valid_pins_named_are_the_header_pins_of_the_datasheet_table():
    named = wiring.header_i2c_pins("SDA", 0)
    assert named == [g for g in wiring.I2C_SDA_PINS[0] if wiring.gpio_to_header(g)]
    assert named == [0, 4, 8, 12, 16, 20, 28]


@pytest.mark.process
def test_the_script_run_as_the_maker_runs_it_prints_one_line(tmp_path):
    """The tester's reproduction: config.py edited in a copy of the checkout, then
    ``python hardware/wiring/wiring.py --check``."""
    root = tmp_path / "clone"
    shutil.copytree(os.path.join(HW, "wiring"), root / "hardware" / "wiring")
    shutil.copy(os.path.join(HW, "README.md"), root / "hardware" / "README.md")
    (root / "firmware" / "pyramid").mkdir(parents=True)
    with open(os.path.join(paths.REPO_ROOT, "firmware", "pyramid", "config.py"),
              encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"(?m)^I2C_SDA = 4\b", "I2C_SDA = 2", text)
    text = re.sub(r"(?m)^I2C_SCL = 5\b", "I2C_SCL = 3", text)
    (root / "firmware" / "pyramid" / "config.py").write_text(text, encoding="utf-8")
    for argv in (["--check"], []):
        done = subprocess.run([sys.executable, "hardware/wiring/wiring.py"] + argv, cwd=root,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.splitlines() == [
            "wiring.py: config.py: I2C_SDA = GP2 and I2C_SCL = GP3 are I2C1 pins: set "
            "I2C_ID = 1, or use SDA GP0/4/8/12/16/20/28 and SCL GP1/5/9/13/17/21 for I2C0"]
    with open(root / "hardware" / "wiring" / "wiring.svg", encoding="utf-8") as f:
        with open(os.path.join(HW, "wiring", "wiring.svg"), encoding="utf-8") as g:
            assert f.read() == g.read()  # the refused run left the diagram as it was
