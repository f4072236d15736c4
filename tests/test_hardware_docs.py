"""The build kit's documents agree with the firmware's configuration.

- the pin, power and settings tables in ``hardware/README.md`` match
  ``firmware/pyramid/config.py`` (and the Pico header);
- ``hardware/wiring/wiring.svg`` is exactly what ``wiring.py`` draws from its sources;
- the SVG is well-formed XML and names every configured pin;
- ``wiring.py`` refuses pin assignments that cannot work.
"""

import ast
import importlib.util
import os
import re

import pytest
from camelhost import paths
from wiring_under_test import HW, svg_texts, wiring

README = os.path.join(HW, "README.md")




@pytest.fixture(scope="module")
def cfg():
    return wiring.load_config()


@pytest.fixture(scope="module")
def readme():
    with open(README, encoding="utf-8") as f:
        return f.read()


def _table(text, header):
    """Rows (lists of stripped cells) of the markdown table whose header row starts with ``header``."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("| " + header):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return rows
    raise AssertionError("no table starting with %r in hardware/README.md" % header)




def test_pin_table_matches_config(cfg, readme):
    rows = _table(readme, "config name | GPIO | Pico pin")
    documented = {}
    for cells in rows:
        name = cells[0].strip("`")
        assert name not in documented, "%s listed twice" % name
        documented[name] = (cells[1], cells[2])
    expected = {}
    for name, gpio in wiring.config_pins(cfg):
        pin = wiring.gpio_to_header(gpio)
        expected[name] = ("GP%d" % gpio, str(pin) if pin is not None else "on board")
    assert documented == expected


def test_the_readme_pin_table_is_what_wiring_py_prints(cfg, readme):
    """hardware/README.md calls ``wiring.py --table`` "the pin table above, from
    config.py", inviting a maker who changed a pin to paste its table in (tester s40,
    finding 10: it printed ``value buttons (optional) 1`` and ``Pico on-board LED
    (on-board LED)`` where the README says ``value button 1 (other side to GND)`` and
    ``the Pico's on-board LED``)."""
    printed = wiring.pin_table(cfg).splitlines()
    start = readme.splitlines().index(printed[0])
    assert readme.splitlines()[start:start + len(printed)] == printed


def test_power_table_matches_header_and_diagram(cfg, readme):
    svg_text = " ".join(svg_texts(wiring.render(cfg, wiring.load_layout())))
    rows = _table(readme, "from | Pico pin | to")
    assert rows
    for what, pin, _to in rows:
        header_name = wiring.PICO_HEADER[int(pin)]
        assert header_name == what, "pin %s is %s, not %s" % (pin, header_name, what)
        short = "3V3" if what.startswith("3V3") else what
        assert "%s (pin %s)" % (short, pin) in svg_text, "diagram does not wire %s" % pin


def test_settings_table_matches_config(cfg, readme):
    rows = _table(readme, "setting | config name | value")
    assert len(rows) >= 6
    for cells in rows:
        name = cells[1].strip("`")
        assert name in cfg, "README documents %s, which config.py does not have" % name
        assert ast.literal_eval(cells[2]) == cfg[name], name


def test_every_setting_of_config_py_is_documented(cfg, readme):
    documented = {c[0].strip("`") for c in _table(readme, "config name | GPIO | Pico pin")}
    documented |= {c[1].strip("`") for c in _table(readme, "setting | config name | value")}
    for name in cfg:
        if name == "VALUE_BUTTONS":
            assert "VALUE_BUTTONS[0]" in documented
        else:
            assert name in documented, "%s is in config.py but not in hardware/README.md" % name


def test_every_pin_like_setting_is_in_the_table(cfg):
    # a new constant whose comment names a GPn must be listed in wiring.PIN_NAMES
    with open(wiring.CONFIG_PATH, encoding="utf-8") as f:
        source = f.read()
    for match in re.finditer(r"^([A-Z_0-9]+)\s*=.*#.*\bGP\d+", source, re.M):
        assert match.group(1) in wiring.PIN_NAMES, match.group(1)


def test_svg_is_regenerated_byte_identical(cfg):
    layout = wiring.load_layout()
    first = wiring.render(cfg, layout)
    assert first == wiring.render(cfg, layout)
    with open(wiring.SVG_PATH, encoding="utf-8", newline="") as f:
        committed = f.read()
    assert committed == first, "run: python hardware/wiring/wiring.py"


def test_svg_is_well_formed_and_names_every_pin(cfg):
    with open(wiring.SVG_PATH, encoding="utf-8") as f:
        texts = svg_texts(f.read())
    joined = "\n".join(texts)
    for name, gpio in wiring.config_pins(cfg):
        if name.startswith("VALUE_BUTTONS") or wiring.gpio_to_header(gpio) is not None:
            assert "%s = GP%d (pin %d)" % (name, gpio, wiring.gpio_to_header(gpio)) in joined
        else:
            assert "%s = GP%d" % (name, gpio) in joined


def test_changing_a_pin_moves_the_wire(cfg):
    moved = dict(cfg, SLIDER=22, STATUS_LED=14)
    texts = "\n".join(svg_texts(wiring.render(moved, wiring.load_layout())))
    assert "SLIDER = GP22 (pin 29)" in texts
    assert "STATUS_LED = GP14 (pin 19)" in texts  # external LED drawn when on the header
    assert "SLIDER = GP15" not in texts


@pytest.mark.parametrize("change, complaint", [
    ({"SLIDER": 4}, "both use GP4"),
    ({"I2C_SDA": 5, "I2C_SCL": 4}, "are swapped: GP5 is an SCL pin"),
    ({"I2C_ID": 1}, "are I2C0 pins: set I2C_ID = 0"),
    ({"SENSOR_LED": 24}, "not on the Pico header"),
    ({"VALUE_BUTTONS": (10, 11, 30)}, "GP0..GP29"),
])
def test_impossible_pin_assignments_are_refused(cfg, change, complaint):
    assert wiring.check_config(cfg) == []
    with pytest.raises(ValueError, match=re.escape(complaint)):
        wiring.render(dict(cfg, **change), wiring.load_layout())


def test_pico_header_map_is_complete():
    gpios = [int(n[2:]) for n in wiring.PICO_HEADER.values() if n.startswith("GP")]
    assert sorted(gpios) == [g for g in range(30) if g not in wiring.PICO_INTERNAL]
    assert sorted(wiring.PICO_HEADER) == list(range(1, 41))


def test_i2c_pin_tables_follow_the_rp2040_function_table():
    # RP2040 datasheet, GPIO function 3 (I2C): GPn is I2C((n // 2) % 2), SDA if n is even
    for n in range(30):
        block = (n // 2) % 2
        table = wiring.I2C_SDA_PINS if n % 2 == 0 else wiring.I2C_SCL_PINS
        assert n in table[block] and n not in table[1 - block], n


def test_status_led_table_matches_the_firmware(readme):
    import sys

    if paths.FIRMWARE_DIR not in sys.path:
        sys.path.insert(0, paths.FIRMWARE_DIR)
    from pyramid import status
    rows = _table(readme, "state | on / off (ms)")
    documented = {}
    for cells in rows:
        on, off = (int(v) for v in cells[1].split("/"))
        documented[cells[0].strip("`")] = (on, off)
    assert documented == status.PATTERNS


def _load_mount():
    spec = importlib.util.spec_from_file_location(
        "_mount_under_test", os.path.join(HW, "wiring", "mount.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mount_drawing_regenerates_and_shows_the_advised_numbers(readme):
    mount = _load_mount()
    text = mount.render()
    with open(mount.SVG_PATH, encoding="utf-8", newline="") as f:
        assert f.read() == text, "run: python hardware/wiring/mount.py"
    joined = " ".join(svg_texts(text))
    m = mount.MOUNT
    assert "%.0f mm (%d-%d)" % ((m["distance_mm"],) + tuple(m["distance_range_mm"])) in joined
    assert "tilt %.0f deg (%d-%d)" % ((m["tilt_deg"],) + tuple(m["tilt_range_deg"])) in joined
    # the README gives the same ranges in words
    assert "%d to %d mm from the sensor window" % tuple(m["distance_range_mm"]) in readme
    assert "%d to %d degrees" % tuple(m["tilt_range_deg"]) in readme
    with pytest.raises(ValueError, match="outside the advised"):
        mount.render(dict(m, distance_mm=30.0))


def test_every_mpremote_command_on_a_running_board_says_safe_boot_first(readme):
    """Tester s33 finding 6: the settings paragraph gave ``mpremote ... rm
    :settings.json`` with no safe boot: on a board running the firmware (which ignores
    mpremote's Ctrl-C) it waits for ever. Each paragraph or list item giving an
    ``mpremote connect`` command says to safe boot first."""
    blocks = re.split(r"\n\s*\n|\n(?=\d+\. |- )", readme)
    giving = [b for b in blocks if "mpremote connect" in b]
    assert giving
    for block in giving:
        assert "safe boot" in block, block


# -- s35 tester 2 finding 14 f) g) h) i): the maker's docs match the hardware ---------------


def _sim_optics():
    import sys

    if paths.SIM_DIR not in sys.path:
        sys.path.insert(0, paths.SIM_DIR)
    import sim_optics
    return sim_optics


def test_the_slider_comment_in_config_py_names_the_external_pull_up_the_firmware_adds_to(
        readme):
    """14 f): config.py said 'internal pull-up' where hardware/README.md requires the
    external 3.3 kohm one. The firmware turns the internal pull-up on too (``build_board``
    on the simulated machine); the README says it stays on in parallel, and the comment a
    maker editing the pin reads names the external resistor of the bill of materials."""
    import sys

    if paths.FIRMWARE_DIR not in sys.path:
        sys.path.insert(0, paths.FIRMWARE_DIR)
    sim = _sim_optics()  # puts hardware/sim on the path: its ``machine``
    del sim
    import machine
    from pyramid import app, config

    board = app.build_board(machine, config)
    assert board.slider._pull == machine.Pin.PULL_UP  # the internal pull-up is on
    assert "internal pull-up (about 50-80 kohm, so about 50 uA) stays on in parallel" in \
        " ".join(readme.split())
    bom = {c[1]: c[2] for c in _table(readme, "qty | part | example part number")}
    resistor = bom["pull-up resistor for the slider switch"].split(",")[0]
    assert resistor == "3.3 kohm"
    with open(wiring.CONFIG_PATH, encoding="utf-8") as f:
        line = next(x for x in f if x.startswith("SLIDER ="))
    assert "external %s pull-up" % resistor in line, line


def test_the_nc_wiring_has_its_own_line_where_the_switch_is_wired_and_checked(readme):
    """14 g): "Switch at the slider" allows NC wiring, but the meter check called a beep
    at rest "NC wired instead of NO" and the pull-up went on "the NO tab" only."""
    switch = readme.split("### Switch at the slider", 1)[1].split("\n### ", 1)[0]
    items = [b for b in re.split(r"\n(?=- )", switch) if b.startswith("- ")]
    assert any(b.startswith("- **NC instead of NO**") for b in items)
    assert any("pull-up" in b and "NC tab" in b for b in items)
    check = readme.split("## Before you plug it in", 1)[1].split("\n## ", 1)[0]
    step3 = check.split("3. **The slider switch**", 1)[1].split("\n4. ", 1)[0]
    wirings = [b for b in re.split(r"\n\s+(?=- )", step3) if b.lstrip().startswith("- ")]
    assert [b.lstrip()[:12] for b in wirings] == ["- NO wiring ", "- NC wiring "]
    assert "move the wire to NO" in wirings[0] and "move the wire to NC" in wirings[1]


def test_the_sim_optics_docstring_names_its_constants_instead_of_repeating_them():
    """14 h): the docstring gave +/-0.6 mm, 8 % tilt, shot noise 0.15 and read noise 2
    counts where ``SEATING`` and ``SENSOR_NOISE`` hold 0.25 mm, 0.03, 0.014 and 0.3. It
    names the constants now; its seating and sensor items state no figure of their own
    beyond the fixed ones (the nominal distance's name, the datasheet's limits)."""
    sim = _sim_optics()
    doc = sim.__doc__
    for name in ("SEATING", "SENSOR_NOISE", "WHITE_COUNTS_PER_MS_GAIN", "_NOMINAL_MM"):
        assert "``%s" % name in doc, name
        assert hasattr(sim, name), name
    items = dict(re.findall(r"^(\d)\. (.*?)(?=^\d\. |^\S|\Z)", doc, re.M | re.S))
    seating, sensor = items["3"], items["5"]
    assert "SEATING[\"height_mm\"]" in seating and "SEATING[\"tilt\"]" in seating
    assert "SENSOR_NOISE" in sensor
    # numbers left: the exponent 2, and the sensor's fixed limits (TCS3472 datasheet)
    assert set(re.findall(r"\d+(?:\.\d+)?", seating)) <= {"2"}, seating
    assert set(re.findall(r"\d+(?:\.\d+)?", sensor)) <= {"3472", "75", "153.6", "65535",
                                                        "1024"}, sensor


def test_the_white_die_count_the_scale_constant_gives_is_what_the_model_reads():
    """14 h): the docstring's scale ("about 5100") was not the model's: it names
    ``WHITE_COUNTS_PER_MS_GAIN``, whose comment gives the white die's clear count at
    24 ms and gain 4; the noiseless model reads that count, within 5 %."""
    sim = _sim_optics()
    with open(sim.__file__, encoding="utf-8") as f:
        source = f.read()
    comment = source.split("WHITE_COUNTS_PER_MS_GAIN =", 1)[0].rsplit("#: Clear counts", 1)[1]
    comment = " ".join(comment.replace("#:", " ").split())
    stated = int(re.search(r"about (\d+) at 24 ms and gain 4", comment).group(1))
    model = sim.OpticalModel(seed=1, noise=0.0)
    clear = [model.samples("white", 1, integration_ms=24, gain=4)[0][0] for _ in range(3)]
    assert all(abs(c - stated) <= 0.05 * stated for c in clear), (clear, stated)


def _readme_commands(text):
    """Every ``pyramid ...`` command line of ``text``: the code blocks' lines (a comment
    after two spaces cut off) and the inline code spans (their line breaks joined)."""
    fence = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)
    commands = []
    for block in fence.findall(text):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("pyramid "):
                commands.append(line)
    for span in re.findall(r"`([^`]+)`", fence.sub("", text)):
        span = " ".join(span.split())
        if span.startswith("pyramid "):
            commands.append(span)
    return commands


def test_every_pyramid_command_line_in_the_build_kit_parses():
    """14 i): a maker copies these lines; each must be one the ``pyramid`` command takes
    (its options and their values; ``...`` in a line is an elision, the words the text
    writes in capitals stand for the maker's own: ``PORT`` a port, ``SECONDS`` a wait)."""
    import shlex

    from camelhost import cli

    with open(README, encoding="utf-8") as f:
        commands = _readme_commands(f.read())
    assert "pyramid monitor --port virtual --place purple --count 5" in commands
    assert "pyramid calibrate --port /dev/ttyACM0 --edition second" in commands
    names = dict(cli.COMMANDS)
    for command in commands:
        argv = shlex.split(command.replace("...", " ").replace("SECONDS", "30"))[1:]
        assert argv and argv[0] in names, command
        sub = cli.Parser(prog="pyramid " + argv[0], description="")
        sub.add_argument("--lang", default=None)
        cli._load(argv[0]).add_arguments(sub)
        try:
            sub.parse_args(argv[1:])
        except SystemExit as exc:  # argparse's refusal (exit 2), said on stderr
            raise AssertionError("hardware/README.md: %r does not parse" % command) from exc


def test_safe_boot_slider_hold_covers_the_timing_budget(readme):
    """Tester s36tm finding 13: the slider bullet said 'keep it down for about 1 s' while
    the timing paragraph below budgets up to 1.8 s from power-up to the check: a maker
    following the bullet can miss the safe boot. The hold the bullet asks for must
    cover the budget's upper end, and agree with the paragraph's own conclusion."""
    bullet = re.search(r"- \*\*Slider\*\*:(.*?)(?=\n- \*\*)", readme, re.S).group(1)
    hold = re.search(r"keep it down\s+for (?:about )?([0-9.]+) s", bullet)
    assert hold, bullet
    budget = re.search(r"budget ([0-9.]+) to ([0-9.]+) s from power-up", readme)
    concluded = re.search(r"holding the slider for ([0-9.]+) s from plug-in is always long "
                          r"enough", readme.replace("\n", " "))
    assert budget and concluded
    assert float(hold.group(1)) >= float(budget.group(2))
    assert float(hold.group(1)) == float(concluded.group(1))
    assert "about" not in bullet.split("keep it down")[1].split(" s")[0]
