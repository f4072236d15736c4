"""``pyramid calibrate --plot``: the brightness panel's title names the edition's own
classes (tester s42, finding 3: a classic plot said ``grey inks``, a die the classic
edition has not)."""

import pytest
from camelhost.i18n import set_language
from camelhost.tools import calibrate
from camelup.board import classifier

pytest.importorskip("matplotlib")


def _result(edition):
    labels = classifier.classes_for(edition)
    samples = {label: [(400 + 40 * i, 100 + 9 * i, 120 + 5 * i, 90 + 7 * i),
                       (410 + 40 * i, 104 + 9 * i, 118 + 5 * i, 93 + 7 * i)]
               for i, label in enumerate(labels)}
    pairs = [{"a": labels[0], "b": labels[1], "sigma": 20.0, "too_close": False}]
    profile = {"edition": edition, "ref_clear": 1000.0,
               "settings": {"integration_ms": 7.2, "gain": 4}}
    return calibrate.Result(profile, samples, pairs, None, [], None)


def _titles(edition, path, monkeypatch):
    import matplotlib
    monkeypatch.setitem(matplotlib.rcParams, "svg.fonttype", "none")  # text kept as text
    calibrate.plot(_result(edition), str(path))
    return path.read_text()


@pytest.mark.parametrize("edition, title, absent", [
    ("classic", "brightness (white, empty)", "grey"),
    ("second", "brightness (grey inks, empty)", "white"),
])
def test_the_brightness_panel_names_the_editions_classes(edition, title, absent, tmp_path,
                                                          monkeypatch):
    svg = _titles(edition, tmp_path / "sep.svg", monkeypatch)
    assert title in svg, svg[:2000]
    assert "brightness (" + absent not in svg and "grey inks, white" not in svg


def test_the_brightness_panel_speaks_the_tables_language(tmp_path, monkeypatch):
    set_language("de")
    try:
        svg = _titles("classic", tmp_path / "sep.svg", monkeypatch)
    finally:
        set_language("en")
    assert "Helligkeit (weiß, leer)" in svg, svg[:2000]
