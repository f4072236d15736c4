"""The web page's undo notice stays across a ``rename``, in the new name: docs/web.md
says the notice of an undo (or a redo) stays "until the next action", and a rename is
no action of the race. Before (tester s40 finding 14: ``pyramid``, ``blau 1``, ``undo``,
``rename Ben Benno`` at a German table) the rename took the notice off the page at
once, and watchers who looked away missed why the coins and camels went back."""

import pytest
from camelhost.i18n import set_language
from camelhost.web.follow import LiveBoard
from camelhost.web.replay import Replay
from typed_table import SETUP, typed_table


class FakeBoard:
    """What a ``LiveBoard`` publishes to, kept."""

    def __init__(self):
        self.published = []

    def publish(self, view):
        self.published.append(view)


def _page(lang, *lines):
    """What the page shows (its ``undo``) after each of ``lines`` typed at a table in
    ``lang`` (Ann, Ben and Cy; the dice typed), the board following the table."""
    set_language(lang)
    try:
        table, _out = typed_table("second", ["Ann", "Ben", "Cy"], SETUP, "leg red")
        board = FakeBoard()
        shown = []
        with LiveBoard(board, table.seam):
            for line in lines:
                table.line(line)
                table.seam.catch_up()
                shown.append(board.published[-1]["undo"])
        table.seam.close()
        return table, shown
    finally:
        set_language("en")


@pytest.mark.parametrize("lang, blue, undone, renamed", [
    ("en", "blue 1", "undone: Ben's pyramid ticket and its die blue 1",
     "undone: Benno's pyramid ticket and its die blue 1"),
    ("de", "blau 1", "Zurückgenommen: das Pyramidenplättchen von Ben",
     "Zurückgenommen: das Pyramidenplättchen von Benno")])
def test_a_rename_after_an_undo_keeps_the_pages_notice_in_the_new_name(lang, blue, undone,
                                                                      renamed):
    table, shown = _page(lang, "pyramid", blue, "undo", "rename Ben Benno", "leg green")
    assert shown[0] is None and shown[1] is None
    assert shown[2].startswith(undone), shown[2]
    assert shown[3].startswith(renamed), shown[3]  # kept across the rename, renamed
    assert "Ben " not in shown[3] and "Ben'" not in shown[3], shown[3]
    assert shown[4] is None  # the next action: the notice has had its time


def test_a_rename_after_a_redo_keeps_it_and_a_replay_shows_it_at_the_rename_too():
    table, shown = _page("en", "pyramid", "blue 1", "undo", "redo", "rename Cy Cyd",
                         "rename Ann Anna")
    assert shown[3] == shown[4] == shown[5] == (
        "redone: Ben's pyramid ticket and its die blue 1; take the blue die out of the "
        "pyramid again")
    events = table.session.journal.events
    board = FakeBoard()
    replay = Replay(board, events)
    said = []
    for step in range(len(events)):
        replay.step = step
        replay.show()
        said.append(board.published[-1]["undo"])
    replay.stop()
    assert said[-3:] == ["redone: Ben's pyramid ticket and its die blue 1"] * 3


def test_after_a_resume_a_rename_brings_back_no_undo_the_page_never_showed(tmp_path):
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from resumed_tables import resumed

    path = tmp_path / "g.jsonl"
    with Journal(str(path), pyramid="manual") as journal:
        session = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=journal)
        for line in (SETUP, "leg red", "pyramid", "blue 1", "undo"):
            session.command(line)
    table, _out = resumed(path)
    board = FakeBoard()
    with LiveBoard(board, table.seam):
        table.seam.catch_up()
        assert board.published[-1]["undo"] is None  # the resumed page: no undo shown
        table.line("rename Ben Benno")
        table.seam.catch_up()
    table.seam.close()
    assert board.published[-1]["turn"] == "Benno" and board.published[-1]["undo"] is None
