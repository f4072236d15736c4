"""`pyramid doctor` on the emulated Pico asks for a die of the board's own edition
(tester2 s35, finding 17: a classic-edition board was asked for `p red`, a die the
classic edition has none of, and the LED and reading steps failed as instructed)."""

import re

import pytest
from camelhost.commands import doctor
from camelup import editions

pytestmark = [pytest.mark.hil, pytest.mark.micropython]


def _run_as_the_maker(edition, given):
    """The checklist on a virtual pyramid of ``edition``, its hands the emulated Pico's
    maker: each prompt's ``p COLOUR`` typed as the emulate console takes it (a die the
    board's edition lacks is refused there: the head stays empty). ``given``: the
    edition doctor was told (``args.edition or "second"``)."""
    from camelhost.tools import monitor

    asked = []
    with monitor.connect("virtual", edition=edition, seed=5) as pyramid:
        vp = pyramid.virtual

        def ask(prompt):
            asked.append(prompt)
            typed = re.search(r"type p (\S+) and Enter", prompt).group(1)
            labels = editions.get_edition(edition).sensor_labels
            vp.place(typed if typed in labels else "empty")
            return ""

        def say(_text):
            vp.release(wait=False)

        steps = doctor.checklist(pyramid, doctor._Maker(ask=ask, say=say, emulated=True), given)
    return asked, steps


def test_a_classic_board_is_asked_for_a_classic_die_and_passes(micropython):
    asked, steps = _run_as_the_maker("classic", "second")
    classic = editions.get_edition("classic").sensor_labels
    named = [re.search(r"type p (\S+) and Enter", prompt).group(1) for prompt in asked]
    assert named and all(die in classic for die in named), asked
    assert [s.status for s in steps if s.name in ("LED", "reading", "light")] == ["ok"] * 3, steps


def test_a_second_edition_board_is_asked_for_its_own_die(micropython):
    asked, steps = _run_as_the_maker("second", "second")
    second = editions.get_edition("second").sensor_labels
    assert all(re.search(r"type p (\S+) and Enter", p).group(1) in second for p in asked), asked
    assert all(s.status == "ok" for s in steps if s.name in ("LED", "reading", "light")), steps
