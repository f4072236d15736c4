"""A journal resumed at a plain table, as ``pyramid play --resume`` does it without a
pyramid attached, for the resume tests (``from resumed_tables import resumed``:
``tests/`` is on the path)."""

import io

from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay


def resumed(path):
    """The journal at ``path`` resumed (stale lines checked as the table does) into a
    started plain ``Table`` with no pyramid: ``(table, out)``, ``out`` the ``StringIO``
    its display writes to."""
    journal = Journal.resume(str(path), check=Session.stale_line)
    session = Session.resume(journal)
    out = io.StringIO()
    table = Table(session, PlainDisplay(out), pyramid=None, manual=False)
    table.start()
    return table, out
