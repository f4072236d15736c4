"""``pyramid doctor`` on the emulated Pico: its first prompt names a die (blue, the key
``p blue``); another die in the head there is said at once and asked for again, as the
light step does, so that the LED and reading steps measure the die asked for (maker2
s42, finding 3: the yellow die was taken, the LED measured on it, and only the light
step's identical prompt said the head held the wrong die)."""

import pytest
from camelhost.commands import doctor
from camelhost.i18n import set_language


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


@pytest.mark.process
@pytest.mark.micropython
def test_the_first_die_asked_for_on_the_emulated_pico_is_checked_and_asked_again(micropython):
    from camelhost.tools import monitor

    events = []
    slips = {"blue": "yellow"}  # the first time blue is asked, yellow goes in
    with monitor.connect("virtual", edition="second", seed=5) as pyramid:
        vp = pyramid.virtual

        def ask(prompt):
            events.append(("ask", prompt))
            asked = next(c for c in ("blue", "purple", "yellow") if "the %s die" % c in prompt)
            vp.place(slips.pop(asked, asked))
            return ""

        def say(text):
            events.append(("say", text))
            if text.startswith("push the slider"):
                vp.release(wait=False)

        hands = doctor._Maker(ask=ask, say=say, emulated=True)
        steps = doctor.checklist(pyramid, hands, "second")
    assert events[0][0] == "ask" and "type p blue and Enter" in events[0][1], events
    assert events[1] == ("say", "the head holds the yellow die, not the blue die"), events
    assert events[2] == ("ask", "put the blue die in the pyramid's head: on the emulated Pico, "
                                "type p blue and Enter in its terminal; then press Enter here "
                                "to read it again (s goes on without it): "), events
    assert "the purple die" in events[3][1], events
    by_name = {s.name: s for s in steps}
    assert by_name["LED"].status == "ok", steps
    assert by_name["reading"].detail.startswith("the die in the head reads blue,"), steps
    assert all(s.status == "ok" for s in steps), steps
