"""A table on the plain screen fed typed lines, with no pyramid (dice typed) or a given
one, and the one-line refusal it answers a typed line with: shared by the tests of
what the table says to what players type."""

import io


def typed_table(edition, players, *lines, pyramid=None, seed=3):
    """``(table, out)``: a started ``Table`` of ``edition`` for ``players`` (``seed``, a
    journal kept in memory) on a ``PlainDisplay`` writing to ``out`` (``io.StringIO``),
    after each of ``lines`` typed; dice are typed unless ``pyramid`` is given."""
    from camelhost.table.controller import Table
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from camelhost.ui.plain import PlainDisplay

    out = io.StringIO()
    session = Session(edition, list(players), seed=seed, journal=Journal(None))
    table = Table(session, PlainDisplay(out), pyramid=pyramid, manual=pyramid is None)
    table.start()
    for line in lines:
        table.line(line)
    return table, out


def refusal(table, out, typed):
    """The one line ``table`` answers ``typed`` with, without its ``! ``: asserted to be
    one refusal line that journaled nothing (an illegal action changes nothing)."""
    before, events = len(out.getvalue()), len(table.session.journal.events)
    table.line(typed)
    said = out.getvalue()[before:]
    assert said.count("\n") == 1 and said.startswith("! "), said
    assert len(table.session.journal.events) == events  # refused: nothing journaled
    return said[2:].rstrip("\n")


#: A second-edition board every race-end test starts from.
SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def ended_table(lang, end, pyramid=None):
    """``(table, out)`` as ``typed_table`` gives them, second edition, Ann, Ben and Cy at
    the table in language ``lang``, after the race ended: ``end`` ``"unscored"`` typed
    at once, else (``"over"``) dice of 3 typed until a camel crosses the finish."""
    from camelhost.i18n import set_language

    set_language(lang)
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP, pyramid=pyramid)
    session = table.session
    if end == "unscored":
        table.line("unscored")
    while session.phase not in ("over", "unscored"):
        table.line("pyramid")
        table.line("%s 3" % next(d for d in session.game.dice_in_pyramid() if d != "grey"))
    return table, out


class StoppedVirtualPyramid:
    """A virtual pyramid whose simulated board stopped (its micropython child killed):
    its slider can't be pushed (``release`` raises ``VirtualPyramidError``)."""

    port = "/tmp/vpyramid-x/ttyPYRAMID"

    def release(self):
        from camelhost.device.virtual import VirtualPyramidError

        raise VirtualPyramidError("the board is not listening: [Errno 32] Broken pipe")

    def return_dice(self):
        pass
