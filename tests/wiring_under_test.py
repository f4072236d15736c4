"""``hardware/wiring/wiring.py`` loaded for the tests (it is a script beside its data, not
a package), and the text of an SVG it draws: one place for the wiring tests of
``test_hardware_docs.py`` and ``test_wiring_diagram.py``."""

import importlib.util
import os
import xml.etree.ElementTree as ET

from camelhost import paths

HW = os.path.join(paths.REPO_ROOT, "hardware")


def _load_wiring():
    spec = importlib.util.spec_from_file_location(
        "_wiring_under_test", os.path.join(HW, "wiring", "wiring.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wiring = _load_wiring()


def svg_texts(svg):
    """Every ``<text>`` element's text of the SVG document ``svg`` (str), in order."""
    root = ET.fromstring(svg.encode("utf-8"))
    return [el.text or "" for el in root.iter("{http://www.w3.org/2000/svg}text")]
