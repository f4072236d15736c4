"""Each fault code the pyramid's firmware can send (``EVT <seq> fault code=...``) has one
clear line on the table and in ``pyramid monitor``, in English and in German, from one
place (``camelhost.device.events.FAULTS``)."""

import io
import pathlib
import re

import pytest
from camelhost.device.events import FAULTS, DieEvent, fault_text
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.tools.monitor import format_event
from camelhost.ui.plain import PlainDisplay

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _firmware_codes():
    """The fault codes the firmware's source emits: ``emit("fault", {"code": "x"})`` and
    the sensor's ``code = "a" if ... else "b"``."""
    codes = set()
    for path in (ROOT / "firmware" / "pyramid").glob("*.py"):
        text = path.read_text()
        codes.update(re.findall(r'emit\("fault", \{"code": "(\w+)"\}\)', text))
        for a, b in re.findall(r'code = "(\w+)" if [^\n]* else "(\w+)"', text):
            codes.update((a, b))
    return codes


def test_every_fault_code_the_firmware_sends_has_its_words_and_is_documented():
    assert _firmware_codes() == set(FAULTS)
    row = [x for x in (ROOT / "docs" / "protocol.md").read_text().splitlines()
           if x.startswith("| `EVT <seq> fault`")]
    assert len(row) == 1
    for code in FAULTS:
        assert "`%s`" % code in row[0], code


def _table_says(code, reason=None):
    out = io.StringIO()
    table = Table(Session("classic", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None)),
                  PlainDisplay(out), manual=False)
    table.start()
    table.line("draw")
    said = out.tell()
    boot, seq = ("0A9B0E33", 4) if code else (None, None)
    table.pyramid_event(DieEvent("fault", boot, seq, "EVT 4 fault", code=code) if code
                        else DieEvent("fault", None, None, raw=reason))
    return [x for x in out.getvalue()[said:].splitlines() if x.startswith(("TYPE", "WÜRFEL"))]


@pytest.fixture(params=["en", "de"])
def language(request):
    set_language(request.param)
    yield request.param
    set_language("en")


@pytest.mark.parametrize("code", sorted(FAULTS))
def test_a_fault_is_one_line_in_words_on_the_table_and_in_the_monitor(code, language):
    words = fault_text(code)
    assert "\n" not in words and len(words.split()) > 5  # words, not the bare code
    told = _table_says(code)
    assert len(told) == 1 and words in told[0], told
    line = format_event(DieEvent("fault", "0A9B0E33", 4, "EVT 4 fault", code=code))
    assert line.endswith(": " + words) and "4" in line
    if language == "de":
        set_language("en")
        assert fault_text(code) != words  # translated
        set_language("de")


def test_the_fault_lines_say_what_happened_and_what_to_do():
    assert _table_says("timeout") == [
        "TYPE THE DIE BY HAND: pyramid: sensor fault: the sensor did not answer in time (I2C "
        "timeout; the pyramid starts it again); type the die by hand"]
    assert _table_says("memory") == [
        "TYPE THE DIE BY HAND: pyramid: the pyramid's memory was too full to read the die (it "
        "freed some and goes on); type the die by hand"]
    assert _table_says(None, reason="the port went away") == [
        "TYPE THE DIE BY HAND: the link to the pyramid stopped (the port went away); type the "
        "die by hand"]


def test_a_fault_code_this_program_does_not_know_is_named_with_what_to_do():
    assert fault_text("brownout") == (
        "fault brownout, which this program does not know (update it: pip install --upgrade "
        "the pyramid host package)")
    assert _table_says("brownout")[0].startswith("TYPE THE DIE BY HAND: pyramid: fault brownout")
