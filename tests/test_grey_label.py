"""One name for the grey die's inks (RULES 3.1): ``grey-black`` / ``grey-white``, from
``camelup.editions.die_label``, on the sensor's labels, the value prompt and the die
line after the value is keyed (it said ``DIE grey (black numeral) 2`` under ``The
grey-black die is out``); and a player copying that label (``grey-black 2``,
German ``grau-schwarz 2``) is understood as the notation ``grey black 2`` (it was
refused as an unknown command)."""

import io

import pytest
from camelhost.device.events import DieEvent
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.plain import PlainDisplay
from camelup import calibration, editions

# Crazy camels apart, nothing on them: RULES 3.5 (c), the numeral's colour decides.
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _table(manual=True, setup=SETUP):
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None, manual=manual)
    t.start()
    if setup:
        t.line(setup)
    return t, out


def _said(out, since):
    return out.getvalue()[since:].splitlines()


def test_the_label_has_one_source_for_the_sensor_and_the_calibration():
    assert editions.die_label("grey", "black") == "grey-black"
    assert editions.die_label("grey", "white") == "grey-white"
    assert editions.die_label("red") == "red" and editions.die_label("grey") == "grey"
    assert editions.SECOND.sensor_labels[-2:] == ("grey-black", "grey-white")
    assert all("-" not in label for label in editions.CLASSIC.sensor_labels)
    for ink in editions.INKS:
        assert calibration.die_label("grey", ink) == editions.die_label("grey", ink)
        assert calibration.split_label(editions.die_label("grey", ink)) == ("grey", ink)


@pytest.mark.parametrize("lang, prompt, line", [
    ("en", "The grey-black die is out, value unknown: press 1, 2 or 3",
     "DIE grey-black 3 (Ben's pyramid ticket): the black camel"),
    ("de", "Würfel grau-schwarz ist heraus",
     "WÜRFEL grau-schwarz 3 (Pyramidenplättchen von Ben): das Kamel schwarz"),
])
def test_a_keyed_grey_die_keeps_the_label_the_value_prompt_named(lang, prompt, line):
    set_language(lang)
    t, out = _table(manual=False)
    t.line("leg red")  # Ann
    t.line("pyramid")  # Ben
    since = len(out.getvalue())
    t.pyramid_event(DieEvent("die", "B1", 1, "EVT 1 DIE c=grey k=black v=?", colour="grey",
                             ink="black", value=None))
    assert t.session.phase == "value"
    assert any(said.startswith(prompt) for said in _said(out, since)), _said(out, since)
    since = len(out.getvalue())
    t.line("3")
    die = [said for said in _said(out, since) if said.startswith(line.split()[0] + " ")]
    assert len(die) == 1 and die[0].startswith(line), _said(out, since)
    assert t.session.game.stacks[12] == ["black"]  # RULES 3.5 (c): black numeral, 15 -> 12


@pytest.mark.parametrize("lang, typed, ink", [
    ("en", "grey-black 2", "black"), ("en", "Grey-White 1", "white"),
    ("en", "gray-white 1", "white"), ("de", "grau-schwarz 2", "black"),
    ("de", "grau-weiß 1", "white"),
])
def test_a_grey_die_typed_by_its_label_is_the_notation(lang, typed, ink):
    set_language(lang)
    t, out = _table()
    since = len(out.getvalue())
    t.line(typed)
    said = _said(out, since)
    assert not any(line.startswith("!") for line in said), said
    assert table_view(t.session, odds=False)["players"][0]["pyramid_tickets"] == 1
    assert t.session.game.history[-1].ink == ink
    assert str(t.session.game.history[-1]).startswith("pyramid grey %s " % ink)


@pytest.mark.parametrize("lang, typed, said", [
    ("en", "grey-purple 2", "! 'purple' is not a numeral colour of the grey die (one of: "
                            "black, white)"),
    ("de", "grau-lila 2", "! 'lila' ist keine Ziffernfarbe des grauen Würfels (eine von: "
                          "schwarz, weiß)"),
])
def test_a_label_with_no_ink_after_it_is_refused_as_the_notation_is(lang, typed, said):
    set_language(lang)
    t, out = _table()
    before = table_view(t.session, odds=False)
    t.line(typed)
    assert out.getvalue().splitlines()[-1] == said
    t.line(typed.replace("-", " "))  # the same words as the notation types them
    assert out.getvalue().splitlines()[-1] == said
    assert table_view(t.session, odds=False) == before


def test_the_crazy_camels_set_up_by_the_grey_die_typed_by_its_label():
    t, out = _table(setup=None)
    for die in ("blue 1", "green 1", "red 2", "yellow 3", "purple 3"):
        t.line(die)
    t.line("grey-black 2")  # black first (docs/rules-decisions.md 3)
    t.line("grey-white 3")
    assert "!" not in "".join(line[:1] for line in out.getvalue().splitlines())
    stacks = t.session.game.stacks
    assert stacks[15] == ["black"] and stacks[14] == ["white"]  # RULES 3.2: 17 - value


def test_the_ink_question_takes_the_grey_die_by_its_label():
    t, out = _table(manual=False)
    t.line("pyramid")  # Ann
    t.pyramid_event(DieEvent("unknown", "B1", 1, "EVT 1 unknown best=grey-white",
                             best="grey-white", value=2))
    assert t.session.phase == "ink"
    t.line("grey-white")
    assert t.session.phase == "turn" and t.session.current == 1
    assert t.session.game.stacks[14] == ["white"]  # RULES 3.5 (c): white numeral, 16 -> 14


def _named(names):
    out = io.StringIO()
    s = Session("second", names, seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None, manual=True)
    t.start()
    t.line(SETUP)
    return t, out


def test_a_players_name_that_looks_like_a_label_stays_a_name():
    t, out = _named(["Grey-Black", "Ben", "Cy"])
    t.line("Grey-Black: leg red")  # the player to act, named first
    assert "a command takes no player's name" in out.getvalue().splitlines()[-1]
    assert t.session.current == 0 and t.session.game.history == []
    t, out = _named(["Gre", "Ben", "Cy"])
    t.line("grey-black 2")  # a name the label starts with is no name typed first
    assert table_view(t.session, odds=False)["players"][0]["pyramid_tickets"] == 1
