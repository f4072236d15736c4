"""Between two races (tester 4 findings 10, 15): a mistaken ``again`` is taken back by
``undo`` (the race before is back as it ended, its final scores shown again); the next
race is begun by the seat the start marker passed to (RULES 1.12), said with why;
``pyramid replay --brief`` shows every earlier race's result; an undone ``draw`` draws
anew; the undo line says an action in the table's words."""

import io

from camelhost import cli
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

CLASSIC = "setup 1:blue 2:green 3:orange,yellow,white"


def _race_over(journal=None):
    """A classic table of Ann, Ben and Cy whose race 1 is over: every die typed shows 3,
    the first die still in the pyramid each time. Returns (table, output)."""
    out = io.StringIO()
    s = Session("classic", ["Ann", "Ben", "Cy"], seed=4,
                journal=Journal(None) if journal is None else journal)
    t = Table(s, PlainDisplay(out))
    t.start()
    t.line(CLASSIC)
    for _turn in range(60):
        if s.phase == "over":
            break
        inside = [c for c in s.edition.racing if c not in s.game.dice_out]
        t.line("%s 3" % inside[0])
    assert s.phase == "over"
    return t, out


def _said(t, out, *typed):
    before = len(out.getvalue())
    for line in typed:
        t.line(line)
    return out.getvalue()[before:].splitlines()


def test_undo_after_again_brings_the_ended_race_back_with_its_final_scores():
    t, out = _race_over()
    s = t.session
    final = [line for line in out.getvalue().splitlines() if line.startswith("FINAL SCORES")]
    coins = s.game.coins
    _said(t, out, "again")
    assert s.race_no == 2 and s.phase == "setup"
    said = _said(t, out, "undo")
    assert said[0].startswith("undone: 'again'")
    assert final[0] in said  # the ended race's final scores, shown again
    assert s.race_no == 1 and s.phase == "over" and s.game.coins == coins
    assert s.scores == [coins]
    # the race before is as it was: undo goes on into its last die (asked first: it
    # takes back the race's end)
    said = _said(t, out, "undo", "undo")
    assert said[0].startswith("undo would take back ") and said[2].startswith("undone: ")
    assert s.phase == "turn" and s.scores == []


def test_undo_across_again_replays_from_the_journal_the_same():
    t, out = _race_over()
    s = t.session
    _said(t, out, "again", "undo", "again", "draw")
    again = Session.from_events(s.journal.events)
    assert (again.race_no, again.phase, again.game.turn, again.scores) == \
        (s.race_no, s.phase, s.game.turn, s.scores)


def test_the_next_race_starts_with_the_seat_the_start_marker_passed_to():
    t, out = _race_over()
    s = t.session
    ended = s.reports[-1]["player"]  # whose die ended race 1
    said = _said(t, out, "again")
    starter = s.names[(ended + 1) % 3]
    assert said[1] == ("%s starts: the start marker passed on to the left of %s, whose die "
                       "ended the race before (RULES 1.12)" % (starter, s.names[ended]))
    _said(t, out, "draw")
    assert s.game.turn == (ended + 1) % 3 and s.game.start_player == (ended + 1) % 3
    assert s.journal.events[-2] == {"type": "race", "start": (ended + 1) % 3}


def test_an_older_journals_again_still_starts_with_the_first_seat():
    t, out = _race_over()
    events = t.session.journal.events + [{"type": "race"}, {"type": "setup", "how": "typed",
                                         "stacks": [[1, ["blue", "green", "orange",
                                                         "yellow", "white"]]]}]
    assert Session.from_events(events).game.turn == 0


def test_replay_brief_shows_the_result_of_every_earlier_race(tmp_path, capsys):
    path = str(tmp_path / "two.jsonl")
    with Journal(path, pyramid="manual") as journal:
        t, out = _race_over(journal)
        final = [line for line in out.getvalue().splitlines()
                 if line.startswith("FINAL SCORES")][0]
        t.line("again")
        t.line("draw")
    assert cli.main(["replay", path, "--brief"]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert final in shown
    assert shown.index(final) < shown.index("Race 2, leg 1")


def test_an_undone_draw_draws_anew_and_the_first_draw_stays_the_seeds():
    s = Session("classic", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None))
    first = s.command("draw")[0]["stacks"]
    assert Session("classic", ["Ann", "Ben", "Cy"], seed=4).command("draw")[0]["stacks"] == first
    s.command("undo")
    second = s.command("draw")[0]["stacks"]
    assert second != first
    assert Session.from_events(s.journal.events).game.stacks == s.game.stacks


def test_the_undo_line_says_the_action_in_the_tables_words():
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4)
    s.command("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    s.command("leg blue")
    assert s.command("undo")[0]["text"] == "undone: Ann's leg ticket on blue"
    s.command("tile 7 -")
    assert s.command("undo")[0]["text"] == "undone: Ann's tile on space 7, booing side up (back to Ann)"


def test_help_says_undo_takes_again_back():
    from camelhost.table.controller import help_text
    line = [x for x in help_text("classic", "manual").splitlines() if x.split()[:1] == ["again"]]
    assert line == ["  again              another race with the same seats (undo takes it back)"]
