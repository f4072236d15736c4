"""A table on the plain screen fed typed lines, with no pyramid (dice typed) or a given
one, and the one-line refusal it answers a typed line with: shared by the tests of
what the table says to what players type."""

import io


def typed_table(edition, players, *lines, pyramid=None):
    """``(table, out)``: a started ``Table`` of ``edition`` for ``players`` (seed 3, a
    journal kept in memory) on a ``PlainDisplay`` writing to ``out`` (``io.StringIO``),
    after each of ``lines`` typed; dice are typed unless ``pyramid`` is given."""
    from camelhost.table.controller import Table
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from camelhost.ui.plain import PlainDisplay

    out = io.StringIO()
    session = Session(edition, list(players), seed=3, journal=Journal(None))
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
