"""The calibration report's heading names the grey die's labels only for an edition that
has a grey die (tester2 s35, finding 14 m: the classic report explained ``grey-black and
grey-white``, dice the classic edition has not). What it explains comes from the edition's
own fields (``camelup.editions``: ``sensor_labels`` that are no die of ``dice``)."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.tools import calibrate


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _heading(edition, lang="en"):
    set_language(lang)
    result = calibrate.Result({"edition": edition}, {}, [
        {"a": "blue", "b": "green", "sigma": 9.5, "too_close": False}], {"_total": {"n": 0}},
        0, None)
    out = io.StringIO()
    calibrate.print_report(result, out)
    return out.getvalue().splitlines()[0]


def test_the_classic_report_heading_names_no_grey_die():
    heading = _heading("classic")
    assert heading == ("separation of every pair of classes, closest first (sigma; under 6 "
                       "is too close):")
    assert "grey" not in _heading("classic") and "grau" not in _heading("classic", "de")


def test_the_second_edition_report_heading_explains_the_grey_dies_labels():
    assert _heading("second") == (
        "separation of every pair of classes, closest first (sigma; under 6 is too close; "
        "grey-black and grey-white: the grey die with its black or its white numeral):")


def test_the_german_headings_name_the_labels_as_the_report_rows_do():
    assert _heading("second", "de") == (
        "Trennung jedes Klassenpaars, das nächste zuerst (Sigma; unter 6 ist zu nah; "
        "grau-schwarz und grau-weiß: der graue Würfel mit schwarzer oder weißer Ziffer):")
    assert _heading("classic", "de") == (
        "Trennung jedes Klassenpaars, das nächste zuerst (Sigma; unter 6 ist zu nah):")


def test_the_heading_follows_the_editions_fields():
    from camelup.editions import CLASSIC, SECOND
    for edition in (CLASSIC, SECOND):
        inked = [label for label in edition.sensor_labels if label not in edition.dice]
        heading = calibrate.report_heading(edition.name)
        assert all(label in heading for label in inked)
        assert ("grey die" in heading) == bool(inked)


@pytest.mark.hil
@pytest.mark.micropython
def test_a_classic_calibration_on_the_virtual_pyramid_names_no_grey_die(capsys, micropython):
    from camelhost import cli
    assert cli.main(["calibrate", "--port", "virtual", "--auto", "--edition", "classic",
                     "--samples", "3", "--no-save"]) == 0
    out = capsys.readouterr().out
    heading = [line for line in out.splitlines() if line.startswith("separation of")]
    assert heading == ["separation of every pair of classes, closest first (sigma; under 6 "
                       "is too close):"]
    assert "grey" not in out
