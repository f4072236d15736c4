"""The German status's "If the leg ended now" line reads as a conditional, not as a
question (tester38 finding 12: "Endete die Etappe jetzt: ..." read "Did the leg end
now?")."""

import io

from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay


def test_german_show_says_what_the_leg_would_pay_if_it_ended_now():
    set_language("de")
    try:
        out = io.StringIO()
        session = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
        table = Table(session, PlainDisplay(out))
        table.start()
        table.line("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
        table.line("pyramid")
        table.line("show")
        shown = out.getvalue().split("> show")[-1]
        assert "Wenn die Etappe jetzt endete: Ann +1, Ben +0, Cy +0" in shown
        assert "Endete die Etappe" not in out.getvalue()
    finally:
        set_language("en")
