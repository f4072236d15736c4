"""Draw the pyramid's wiring diagram (SVG) from the firmware's configuration.

Sources: ``firmware/pyramid/config.py`` (which GPIO each signal uses),
``hardware/wiring/layout.json`` (which part terminal goes to which configuration
name, wire colours, part order) and the bill of materials in ``hardware/README.md``
(each part's example name). Output: ``hardware/wiring/wiring.svg``. Pure
Python, no third-party packages, and deterministic: the same sources always give
the same bytes, so a test can regenerate the file and compare.

Usage::

    python hardware/wiring/wiring.py            # rewrite wiring.svg
    python hardware/wiring/wiring.py --check    # exit 1 if wiring.svg is stale
    python hardware/wiring/wiring.py --table    # print the README pin table

Each refuses (exit 1, nothing written) a configuration that cannot work, in one line
naming what is wrong and what to set (``check_config``).

Header pin numbers are those of the Raspberry Pi Pico (datasheet, "Pinout"):
USB at the top, pins 1-20 down the left edge, 40-21 down the right edge. On an
RP2040-Zero class board use the ``GPn`` labels printed on the board instead.
"""

import argparse
import importlib.util
import json
import os
import sys
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
CONFIG_PATH = os.path.join(REPO, "firmware", "pyramid", "config.py")
LAYOUT_PATH = os.path.join(HERE, "layout.json")
SVG_PATH = os.path.join(HERE, "wiring.svg")
#: The bill of materials (its table's "example part number" column names each part).
README_PATH = os.path.join(REPO, "hardware", "README.md")

#: Raspberry Pi Pico header: physical pin -> name (Pico datasheet pinout).
PICO_HEADER = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17",
    23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22",
    30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF",
    36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
#: GPIOs wired on the Pico board itself, not brought to the header.
PICO_INTERNAL = {23: "SMPS mode", 24: "VBUS sense", 25: "on-board LED", 29: "VSYS/3 (ADC3)"}
#: Digital grounds usable for return wires (AGND, pin 33, is kept for the ADC).
GROUND_PINS = (3, 8, 13, 18, 23, 28, 38)
POWER_PIN = 36  # 3V3(OUT): the Pico's regulator output, up to about 300 mA for add-ons

#: RP2040 datasheet, GPIO function table: which GPIOs carry I2C0/I2C1 SDA and SCL.
I2C_SDA_PINS = {0: (0, 4, 8, 12, 16, 20, 24, 28), 1: (2, 6, 10, 14, 18, 22, 26)}
I2C_SCL_PINS = {0: (1, 5, 9, 13, 17, 21, 25, 29), 1: (3, 7, 11, 15, 19, 23, 27)}

#: Configuration names that hold GPIO numbers (VALUE_BUTTONS holds three).
PIN_NAMES = ("I2C_SDA", "I2C_SCL", "SENSOR_LED", "SLIDER", "VALUE_BUTTONS", "STATUS_LED")


def gpio_to_header(gpio):
    """Return the Pico header pin (1-40) of ``GPn`` ``gpio``, or ``None`` if not on the header."""
    for pin, name in PICO_HEADER.items():
        if name == "GP%d" % gpio:
            return pin
    return None


def load_config(path=CONFIG_PATH):
    """Import ``config.py`` by path (CPython, ``const`` fallback); return its UPPER names."""
    spec = importlib.util.spec_from_file_location("_pyramid_config_for_wiring", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {k: getattr(module, k) for k in dir(module) if k.isupper()}


def load_layout(path=LAYOUT_PATH):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def bom_examples(text):
    """``{part: example}`` from the bill of materials' table in ``text`` (hardware/README.md):
    ``part`` the table's "part" cell, ``example`` its "example part number" cell up to the
    first `` (`` (the short name a diagram can carry: ``Omron D2F-01L``). The diagram's
    parts name their row by ``bom`` in layout.json and take ``{example}`` from it, so a
    part's name is written once, in the bill of materials."""
    rows = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("| qty | part | example part number |"):
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                cells = [c.strip() for c in row.strip().strip("|").split("|")]
                rows[cells[1]] = cells[2].split(" (", 1)[0].replace("`", "").strip()
            return rows
    raise ValueError("hardware/README.md: no bill of materials table")


def load_bom(path=README_PATH):
    with open(path, encoding="utf-8") as f:
        return bom_examples(f.read())


def subtitle(part, bom):
    """A part's subtitle, its ``{example}`` the bill of materials' part (``bom_examples``);
    raises ``ValueError`` naming the part when its ``bom`` row is missing."""
    text = part["subtitle"]
    if "bom" in part:
        if part["bom"] not in bom:
            raise ValueError("layout.json: part %r names the bill of materials row %r, which "
                             "hardware/README.md does not have" % (part["id"], part["bom"]))
        text = text.replace("{example}", bom[part["bom"]])
    return text


def config_pins(cfg):
    """Return ``[(name, gpio)]`` for every pin-valued setting, buttons as ``VALUE_BUTTONS[i]``."""
    rows = []
    for name in PIN_NAMES:
        value = cfg[name]
        if isinstance(value, (tuple, list)):
            for i, gpio in enumerate(value):
                rows.append(("%s[%d]" % (name, i), int(gpio)))
        else:
            rows.append((name, int(value)))
    return rows


def resolve(cfg, ref):
    """Value of ``NAME`` or ``NAME[i]`` in the configuration."""
    if "[" in ref:
        name, index = ref[:-1].split("[")
        return int(cfg[name][int(index)])
    return int(cfg[ref])


class ConfigError(ValueError):
    """A pin assignment in ``config.py`` that cannot work; its text names every problem
    and what to set, in one line (``main`` prints it, no traceback)."""


def header_i2c_pins(role, bus):
    """The GPIOs a maker can solder to (on the Pico header) that carry ``role`` ("SDA" or
    "SCL") of I2C block ``bus`` (0 or 1): RP2040 datasheet, GPIO function table."""
    table = I2C_SDA_PINS if role == "SDA" else I2C_SCL_PINS
    return [g for g in table[bus] if gpio_to_header(g) is not None]


def _pins_text(role, bus):
    return "%s GP%s" % (role, "/".join(str(g) for g in header_i2c_pins(role, bus)))


def _i2c_block(role, gpio):
    """The I2C block whose ``role`` pin ``gpio`` is, or ``None``."""
    table = I2C_SDA_PINS if role == "SDA" else I2C_SCL_PINS
    for bus, pins in table.items():
        if gpio in pins:
            return bus
    return None


def _header_gpios():
    """``GP0-GP22, GP26-GP28``: the header's GPIOs as ranges."""
    gpios = sorted(int(n[2:]) for n in PICO_HEADER.values() if n.startswith("GP"))
    runs = []
    for g in gpios:
        if runs and g == runs[-1][1] + 1:
            runs[-1][1] = g
        else:
            runs.append([g, g])
    return ", ".join("GP%d-GP%d" % (a, b) if a != b else "GP%d" % a for a, b in runs)


def _i2c_problems(cfg):
    """What is wrong with ``I2C_ID``, ``I2C_SDA`` and ``I2C_SCL`` together, each with what
    to set (RP2040 datasheet, GPIO function table)."""
    bus, sda, scl = cfg["I2C_ID"], int(cfg["I2C_SDA"]), int(cfg["I2C_SCL"])
    if bus not in I2C_SDA_PINS:
        return ["I2C_ID = %r: the RP2040 has I2C0 and I2C1 (set I2C_ID = 0 or 1)" % (bus,)]
    if sda in I2C_SDA_PINS[bus] and scl in I2C_SCL_PINS[bus]:
        return []
    other = 1 - bus
    if sda in I2C_SDA_PINS[other] and scl in I2C_SCL_PINS[other]:
        return ["I2C_SDA = GP%d and I2C_SCL = GP%d are I2C%d pins: set I2C_ID = %d, or use "
                "%s and %s for I2C%d" % (sda, scl, other, other, _pins_text("SDA", bus),
                                         _pins_text("SCL", bus), bus)]
    if _i2c_block("SCL", sda) is not None and _i2c_block("SDA", scl) is not None:
        return ["I2C_SDA = GP%d and I2C_SCL = GP%d are swapped: GP%d is an SCL pin and GP%d "
                "an SDA pin; set I2C_SDA = %d and I2C_SCL = %d" % (sda, scl, sda, scl, scl, sda)]
    problems = []
    for role, gpio, mate in (("SDA", sda, ("SCL", scl)), ("SCL", scl, ("SDA", sda))):
        pins = I2C_SDA_PINS if role == "SDA" else I2C_SCL_PINS
        if gpio in pins[bus]:
            continue
        if gpio in pins[other]:
            what = "is an I2C%d pin, not I2C%d's" % (other, bus)
        elif _i2c_block(mate[0], gpio) is not None:
            what = "is an %s pin, not %s" % (mate[0], role)
        else:
            what = "carries no I2C"
        problems.append("I2C_%s = GP%d %s (I2C_ID = %d, I2C_%s = GP%d): use %s for I2C%d"
                        % (role, gpio, what, bus, mate[0], mate[1], _pins_text(role, bus), bus))
    return problems


def check_config(cfg):
    """Return a list of problems with the pin assignment (empty when it is buildable),
    each naming the setting that is wrong and what to set instead."""
    problems = []
    seen = {}
    for name, gpio in config_pins(cfg):
        if not 0 <= gpio <= 29:
            problems.append("%s = %d: the RP2040 has GP0..GP29 (use a GPIO of the header: %s)"
                            % (name, gpio, _header_gpios()))
            continue
        if gpio in seen:
            problems.append("%s and %s both use GP%d: give one of them a free GPIO"
                            % (seen[gpio], name, gpio))
        seen[gpio] = name
        if gpio_to_header(gpio) is None and not (name == "STATUS_LED" and gpio == 25):
            problems.append("%s = GP%d is not on the Pico header (%s): use a GPIO of the "
                            "header (%s)%s"
                            % (name, gpio, PICO_INTERNAL.get(gpio, "internal"), _header_gpios(),
                               " or GP25 (the on-board LED)" if name == "STATUS_LED" else ""))
    problems.extend(_i2c_problems(cfg))
    return problems


# ---------------------------------------------------------------- geometry

PITCH = 22  # px between header pins (0.1 inch in the drawing)
BOARD_X = 690
BOARD_W = 190
BOARD_Y = 170
BOARD_H = 30 + 19 * PITCH + 54
PART_X = 20
PART_W = 280
LANE_RIGHT = BOARD_X - 36  # rightmost vertical lane on the left side
LANE_STEP = 13
WIDTH = 1090


def pad_xy(pin):
    """Centre of header pad ``pin`` (1-40)."""
    if pin <= 20:
        return BOARD_X, BOARD_Y + 30 + (pin - 1) * PITCH
    return BOARD_X + BOARD_W, BOARD_Y + 30 + (40 - pin) * PITCH


def _fmt(v):
    return str(int(round(v)))


class _Svg:
    def __init__(self):
        self.items = []

    def add(self, text):
        self.items.append(text)

    def text(self, x, y, s, size=12, anchor="start", weight=None, fill="#111111", style=None):
        attrs = 'x="%s" y="%s" font-size="%d"' % (_fmt(x), _fmt(y), size)
        if anchor != "start":
            attrs += ' text-anchor="%s"' % anchor
        if weight:
            attrs += ' font-weight="%s"' % weight
        if style:
            attrs += ' font-style="%s"' % style
        if fill != "#111111":
            attrs += ' fill="%s"' % fill
        self.add("<text %s>%s</text>" % (attrs, escape(s)))

    def rect(self, x, y, w, h, fill="none", stroke="#111111", dash=False, rx=6):
        extra = ' stroke-dasharray="6 4"' if dash else ""
        self.add('<rect x="%s" y="%s" width="%s" height="%s" rx="%d" fill="%s" stroke="%s"'
                 ' stroke-width="1.5"%s/>' % (_fmt(x), _fmt(y), _fmt(w), _fmt(h), rx, fill,
                                             stroke, extra))

    def circle(self, x, y, r, fill):
        self.add('<circle cx="%s" cy="%s" r="%d" fill="%s" stroke="#111111"/>'
                 % (_fmt(x), _fmt(y), r, fill))

    def path(self, points, colour, dash=False):
        d = " ".join("%s%s,%s" % ("M" if i == 0 else "L", _fmt(x), _fmt(y))
                     for i, (x, y) in enumerate(points))
        extra = ' stroke-dasharray="6 4"' if dash else ""
        # a dark casing under each wire keeps white and yellow wires visible
        self.add('<path d="%s" fill="none" stroke="#111111" stroke-width="4.5"'
                 ' stroke-linejoin="round"%s/>' % (d, extra))
        self.add('<path d="%s" fill="none" stroke="%s" stroke-width="2.5"'
                 ' stroke-linejoin="round"%s/>' % (d, colour, extra))


def _segments(points):
    return [(points[i], points[i + 1]) for i in range(len(points) - 1)]


def _crossings(a, b):
    """Number of proper crossings between two orthogonal polylines."""
    n = 0
    for (p1, p2) in _segments(a):
        for (q1, q2) in _segments(b):
            h = p1[1] == p2[1]
            hq = q1[1] == q2[1]
            if h == hq:
                continue
            (hs, vs) = ((p1, p2), (q1, q2)) if h else ((q1, q2), (p1, p2))
            y = hs[0][1]
            x = vs[0][0]
            if min(hs[0][0], hs[1][0]) < x < max(hs[0][0], hs[1][0]) and \
                    min(vs[0][1], vs[1][1]) < y < max(vs[0][1], vs[1][1]):
                n += 1
    return n


def _route(src, pin, lane, top_lane):
    """Polyline from a part terminal ``src`` (on the left) to header ``pin``."""
    px, py = pad_xy(pin)
    lx = LANE_RIGHT - lane * LANE_STEP
    if pin <= 20:
        return [src, (lx, src[1]), (lx, py), (px, py)]
    ty = BOARD_Y - 40 - top_lane * LANE_STEP
    rx = BOARD_X + BOARD_W + 30 + top_lane * LANE_STEP
    return [src, (lx, src[1]), (lx, ty), (rx, ty), (rx, py), (px, py)]


def _assign_lanes(wires):
    """Pick a lane per wire (deterministic local search for few crossings)."""
    order = list(range(len(wires)))

    def total(order_):
        routes = []
        tops = 0
        for lane, i in enumerate(order_):
            src, pin = wires[i]
            routes.append(_route(src, pin, lane, tops))
            if pin > 20:
                tops += 1
        return sum(_crossings(routes[a], routes[b])
                   for a in range(len(routes)) for b in range(a + 1, len(routes)))

    best = total(order)
    improved = True
    while improved and best:
        improved = False
        for a in range(len(order)):
            for b in range(a + 1, len(order)):
                trial = list(order)
                trial[a], trial[b] = trial[b], trial[a]
                cost = total(trial)
                if cost < best:
                    order, best, improved = trial, cost, True
    lanes = {}
    tops = 0
    for lane, i in enumerate(order):
        lanes[i] = (lane, tops)
        if wires[i][1] > 20:
            tops += 1
    return lanes


def _pick_ground(used, near_y, side_left=True):
    """Free ground pin closest to ``near_y`` (prefer the left edge, where the parts are)."""
    best = None
    for pin in GROUND_PINS:
        if pin in used:
            continue
        _, y = pad_xy(pin)
        cost = abs(y - near_y) + (0 if (pin <= 20) == side_left else 1000)
        if best is None or cost < best[0]:
            best = (cost, pin)
    return best[1] if best else GROUND_PINS[0]


def render(cfg, layout, bom=None):
    """Return the SVG text for configuration ``cfg`` and layout ``layout``; the parts'
    examples from ``bom`` (``bom_examples``; default: hardware/README.md's)."""
    bom = load_bom() if bom is None else bom
    problems = check_config(cfg)
    if problems:
        raise ConfigError("config.py: " + "; ".join(problems))
    svg = _Svg()
    parts = []
    y = BOARD_Y - 10
    terminal_xy = {}
    for part in layout["parts"]:
        gate = part.get("only_if_header_pin")
        if gate and gpio_to_header(resolve(cfg, gate)) is None:
            continue
        h = 46 + len(part["terminals"]) * PITCH
        parts.append((part, y, h))
        for i, term in enumerate(part["terminals"]):
            terminal_xy[part["id"] + "." + term] = (PART_X + PART_W, y + 46 + i * PITCH)
        y += h + 22
    height = max(y + 10, BOARD_Y + BOARD_H + 40) + 100

    # wires: resolve header pins
    drawn = []
    used_ground = set()
    optional = {p["id"] for p, _, _ in parts if p.get("optional")}
    for wire in layout["wires"]:
        if wire["from"] not in terminal_xy:
            continue
        src = terminal_xy[wire["from"]]
        to = wire["to"]
        label = None
        if to.startswith("config:"):
            ref = to[len("config:"):]
            gpio = resolve(cfg, ref)
            pin = gpio_to_header(gpio)
            label = "%s = GP%d (pin %d)" % (ref, gpio, pin)
        elif to == "3V3":
            pin = POWER_PIN
            label = "3V3 (pin %d)" % pin
        elif to == "GND":
            # ground next to the part's own signal wires
            part_id = wire["from"].split(".")[0]
            ys = [pad_xy(gpio_to_header(resolve(cfg, w["to"][7:])))[1]
                  for w in layout["wires"]
                  if w["from"].startswith(part_id + ".") and w["to"].startswith("config:")]
            near = sum(ys) / len(ys) if ys else src[1]
            pin = _pick_ground(used_ground, near)
            used_ground.add(pin)
            label = "GND (pin %d)" % pin
        else:
            raise ValueError("layout.json: unknown wire end %r" % to)
        drawn.append((src, pin, wire["colour"], label, wire["from"].split(".")[0] in optional))
    lanes = _assign_lanes([(d[0], d[1]) for d in drawn])

    svg.add('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % (WIDTH, height))
    svg.text(20, 34, layout["title"], size=18, weight="bold")
    svg.text(20, 56, "Generated by hardware/wiring/wiring.py from firmware/pyramid/config.py, "
             "hardware/wiring/layout.json and the bill of materials (hardware/README.md); "
             "do not edit by hand.", size=11, fill="#555555")

    # board
    svg.rect(BOARD_X, BOARD_Y, BOARD_W, BOARD_H, fill="#1e6b3a", rx=10)
    svg.rect(BOARD_X + BOARD_W / 2 - 22, BOARD_Y - 14, 44, 22, fill="#bbbbbb", rx=3)
    svg.text(BOARD_X + BOARD_W / 2, BOARD_Y - 20, "micro-USB: power + serial", size=10,
             anchor="middle")
    svg.text(BOARD_X + BOARD_W / 2, BOARD_Y + BOARD_H - 22, "Raspberry Pi Pico (RP2040)",
             size=11, anchor="middle", weight="bold", fill="#ffffff")
    used_pins = {d[1] for d in drawn}
    for pin in range(1, 41):
        x, py = pad_xy(pin)
        name = PICO_HEADER[pin]
        fill = "#f2c14e" if pin in used_pins else "#d9d9d9"
        svg.circle(x, py, 5, fill)
        weight = "bold" if pin in used_pins else None
        colour = "#ffffff" if pin in used_pins else "#a8d5b5"
        if pin <= 20:
            svg.text(x + 10, py + 4, "%d %s" % (pin, name), size=10, weight=weight, fill=colour)
        else:
            svg.text(x - 10, py + 4, "%s %d" % (name, pin), size=10, anchor="end",
                     weight=weight, fill=colour)
    status = int(cfg["STATUS_LED"])
    if gpio_to_header(status) is None:
        svg.text(BOARD_X + BOARD_W / 2, BOARD_Y + BOARD_H - 8,
                 "STATUS_LED = GP%d (%s)" % (status, PICO_INTERNAL.get(status, "internal")),
                 size=10, anchor="middle", fill="#ffffff")

    # parts
    for part, py, h in parts:
        dash = bool(part.get("optional"))
        svg.rect(PART_X, py, PART_W, h, fill="#f7f7f7", dash=dash)
        svg.text(PART_X + 10, py + 18, part["title"], size=12, weight="bold")
        svg.text(PART_X + 10, py + 33, subtitle(part, bom), size=9, fill="#555555",
                 style="italic")
        for term in part["terminals"]:
            tx, ty = terminal_xy[part["id"] + "." + term]
            note = part.get("unconnected", {}).get(term)
            svg.circle(tx, ty, 4, "#ffffff" if note else "#f2c14e")
            svg.text(tx - 10, ty + 4, term, size=11, anchor="end", weight="bold")
            if note:
                svg.text(tx - 50, ty + 4, note, size=9, anchor="end", fill="#777777",
                         style="italic")

    # wires, then their labels on top
    for i, (src, pin, colour, _label, dash) in enumerate(drawn):
        lane, top = lanes[i]
        svg.path(_route(src, pin, lane, top), colour, dash=dash)
    for src, _pin, _colour, label, _dash in drawn:
        svg.add('<rect x="%s" y="%s" width="%d" height="13" fill="#ffffff" opacity="0.85"/>'
                % (_fmt(src[0] + 8), _fmt(src[1] - 16), 6 * len(label) + 4))
        svg.text(src[0] + 10, src[1] - 6, label, size=10)

    # settings legend
    ly = max(y, BOARD_Y + BOARD_H + 40) + 10
    settings = [
        "I2C%d at %d kHz, TCS34725 at address 0x%02X; integration time %s ms, gain %dx"
        % (cfg["I2C_ID"], cfg["I2C_FREQ"] // 1000, cfg["SENSOR_ADDR"], cfg["INTEGRATION_MS"],
           cfg["GAIN"]),
        "SLIDER and VALUE_BUTTONS: switch to GND, closed reads 0; SLIDER with its pull-up "
        "resistor to 3V3 (drawn: lever switch minimum load); debounce %d ms" % cfg["DEBOUNCE_MS"],
        "SENSOR_LED drives the breakout's LED pin (high = illumination LED on); "
        "VIN from 3V3(OUT), not VBUS",
        "Dashed: optional value buttons (set VALUE_BUTTONS_FITTED = True in config.py).",
    ]
    for i, line in enumerate(settings):
        svg.text(20, ly + i * 18, line, size=11)

    head = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, sans-serif">\n'
            % (WIDTH, height, WIDTH, height))
    return head + "\n".join(svg.items) + "\n</svg>\n"


def pin_table(cfg, layout=None):
    """Markdown rows ``| config name | GPIO | Pico pin | connects to |`` for the README,
    in its words: each part's ``table`` (``{terminal}`` the terminal's name) from
    layout.json, else its title and the terminal; a pin on the board itself ``the
    Pico's on-board LED``."""
    layout = layout or load_layout()
    goes_to = {}
    for wire in layout["wires"]:
        if wire["to"].startswith("config:"):
            part_id, term = wire["from"].split(".")
            part = [p for p in layout["parts"] if p["id"] == part_id][0]
            words = part.get("table", part["title"] + " {terminal}").format(terminal=term)
            goes_to.setdefault(wire["to"][7:], words)  # the first wire
    lines = ["| config name | GPIO | Pico pin | connects to |", "| --- | --- | --- | --- |"]
    for name, gpio in config_pins(cfg):
        pin = gpio_to_header(gpio)
        if pin is None:
            where = "the Pico's %s" % PICO_INTERNAL.get(gpio, "internal pin")
        else:
            where = goes_to.get(name, "")
        lines.append("| `%s` | GP%d | %s | %s |" % (
            name, gpio, pin if pin is not None else "on board", where))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if wiring.svg is stale")
    parser.add_argument("--table", action="store_true", help="print the README pin table")
    parser.add_argument("--out", default=SVG_PATH, help="output file (default: %(default)s)")
    args = parser.parse_args(argv)
    cfg = load_config()
    layout = load_layout()
    problems = check_config(cfg)
    if problems:
        # one line naming what to set (hardware/README.md: "wiring.py --check tells you")
        print("wiring.py: config.py: " + "; ".join(problems), file=sys.stderr)
        return 1
    if args.table:
        print(pin_table(cfg, layout))
        return 0
    text = render(cfg, layout)
    if args.check:
        try:
            with open(args.out, encoding="utf-8") as f:
                same = f.read() == text
        except FileNotFoundError:
            same = False
        if not same:
            print("%s is stale: run python hardware/wiring/wiring.py" % args.out,
                  file=sys.stderr)
            return 1
        return 0
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
