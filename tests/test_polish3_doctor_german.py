"""``pyramid doctor`` in German names the dice it asks for and reads in German (the
last round's English colour names at a German table): the light step's darkest die is
``lila``, never ``purple``, and the reading step names what it read the same way."""

import pytest
from camelhost.commands import doctor
from camelhost.i18n import set_language
from camelhost.tools import monitor

pytestmark = [pytest.mark.hil, pytest.mark.micropython, pytest.mark.process]


def test_the_doctors_steps_name_the_dice_in_german(micropython):
    set_language("de")
    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        steps = doctor.checklist(pyramid, doctor._Sim(pyramid.virtual), "second")
    light = [s for s in steps if s.name == "light"][0]
    assert light.status == "ok", light
    assert "der dunkelste Würfel (lila)" in light.detail and \
        light.detail.endswith("die Platine erkennt ihn als lila"), light.detail
    reading = [s for s in steps if s.name == "reading"][0]
    text = " ".join(s.detail + " " + s.advice for s in steps)
    for english in ("purple", "yellow", "green", "blue", " red"):
        assert english not in text, (english, text)
    assert reading.status == "ok", reading
