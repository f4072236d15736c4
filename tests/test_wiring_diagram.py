"""The wiring diagram names the parts the bill of materials recommends and draws the
slider's pull-up (tester 4, finding 3: it showed the Omron B3F-1000 the BOM says cannot
reach through a wall, the D2F-L the BOM lists only as the higher-force alternative, and
left the required 3.3 kohm pull-up to a footnote)."""

import os
import re

import pytest
from wiring_under_test import HW, svg_texts, wiring


@pytest.fixture(scope="module")
def drawn():
    with open(os.path.join(HW, "wiring", "wiring.svg"), encoding="utf-8") as f:
        return svg_texts(f.read())


def test_the_diagram_names_the_parts_the_bill_of_materials_recommends(drawn):
    bom = wiring.load_bom()
    assert bom["lever microswitch for the slider"] == "Omron D2F-01L"
    assert "hinge lever, e.g. Omron D2F-01L; closed by the slider" in drawn
    assert "e.g. 6 x 6 mm tactile switch with a tall plunger" in drawn
    assert not [t for t in drawn if "B3F" in t or re.search(r"D2F-L\b", t)], drawn
    for part in wiring.load_layout()["parts"]:
        if "bom" in part:
            assert any(bom[part["bom"]] in t for t in drawn), part["id"]


def test_a_part_renamed_in_the_bill_of_materials_is_renamed_in_the_diagram():
    with open(os.path.join(HW, "README.md"), encoding="utf-8") as f:
        text = f.read()
    bom = wiring.bom_examples(text.replace("| Omron D2F-01L (", "| Omron D2F-01LV ("))
    texts = svg_texts(wiring.render(wiring.load_config(), wiring.load_layout(), bom))
    assert "hinge lever, e.g. Omron D2F-01LV; closed by the slider" in texts
    del bom["lever microswitch for the slider"]
    with pytest.raises(ValueError, match="'slider' names the bill of materials row"):
        wiring.render(wiring.load_config(), wiring.load_layout(), bom)


def test_the_slider_pull_up_is_drawn_from_slider_to_3v3(drawn):
    cfg = wiring.load_config()
    pin = wiring.gpio_to_header(cfg["SLIDER"])
    slider = "SLIDER = GP%d (pin %d)" % (cfg["SLIDER"], pin)
    # two wires reach the slider's pin (the switch's NO and the resistor), two reach
    # 3V3 (the sensor's VIN and the resistor)
    assert drawn.count(slider) == 2, drawn
    assert drawn.count("3V3 (pin %d)" % wiring.POWER_PIN) == 2
    assert "slider pull-up resistor (required)" in drawn
    assert "3.3 kohm, 1/4 W, from SLIDER to 3V3" in drawn
