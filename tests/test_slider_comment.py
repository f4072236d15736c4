"""The slider module's word on its pull-up agrees with the build (``pyramid.config``,
hardware/README.md "Pins"): the external pull-up, the RP2040's internal one also on.
It said "(internal pull-up)", which a maker reading the driver would take as enough."""

import ast
import os

from camelhost import paths


def _source(name):
    with open(os.path.join(paths.FIRMWARE_DIR, "pyramid", name), encoding="utf-8") as f:
        return f.read()


def test_the_slider_docstring_names_the_external_pull_up_config_names():
    doc = " ".join(ast.get_docstring(ast.parse(_source("slider.py"))).split())
    assert "(internal pull-up)" not in doc
    assert "external pull-up ``pyramid.config``" in doc and "internal pull-up is also on" in doc
    slider = next(x for x in _source("config.py").splitlines() if x.startswith("SLIDER ="))
    assert "external" in slider and "internal one too" in slider  # what it points to says so
