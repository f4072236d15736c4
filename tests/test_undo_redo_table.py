"""s32 tester findings 1, 2 and 8 (undo of a moved tile): an ``undo`` at a real table.

1. An undo of a leg's last die (or of the die that ended the race) takes back that
   scoring too: the table asks first, then says in one line what it took back (coins as
   they were, tickets and tiles back), which dice come out of the pyramid again and
   which stays in, and shows the whole table. The virtual pyramid's dice follow those
   words, as a real pyramid's would after the players act: it is not set to the game's
   own count before each release.
2. ``redo`` applies again exactly what the last undo took back, its die too (a die
   released again would be another), journaled as a ``redo`` line; anything new done
   since leaves nothing to redo. The undo of a die says so.
8. The undo of a moved tile says where the tile goes back to.

Tester s32-2: the words name each piece as it goes back, so that a table can rebuild the
board from them (finding 1: tickets to whom, tiles on their spaces, partners, camels with
their stacks, finish cards already seen); the virtual pyramid releases the camels' dice
after a drawn setup is undone (3); redo of 'again' says the race starts again (5); the
bots' undo question names the scoring where it happened, and replay gives no 'redo'
hint (10).
"""

import io
import json

from camelhost.i18n import set_language
from camelhost.table.controller import Table, help_text
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from seeded_pyramid import SeededPyramid, arrives

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
CLASSIC = "setup 1:blue 2:green 3:orange,yellow,white"




def _table(pyramid=None, journal=None, edition="second", setup=SETUP):
    out = io.StringIO()
    s = Session(edition, ["Ann", "Ben", "Cy"], seed=9,
                journal=Journal(None) if journal is None else journal)
    t = Table(s, PlainDisplay(out), pyramid=pyramid)
    t.start()
    t.line(setup)
    return t, out


def _said(t, out, *typed):
    before = len(out.getvalue())
    for line in typed:
        t.line(line)
    return out.getvalue()[before:].splitlines()


def _release(t, pyramid):
    """``release`` typed, and the die that fell reaching the table from the link."""
    t.line("release")
    return arrives(t, pyramid)


def _die(label, value):
    colour, _, ink = label.partition("-")
    return "%s %s %d" % (colour, ink, value) if ink else "%s %d" % (colour, value)


def test_undo_of_a_legs_last_die_asks_first_then_says_the_scoring_and_the_dice_to_take_out():
    pyramid = SeededPyramid(seed=3)
    t, out = _table(pyramid)
    s = t.session
    released = [_release(t, pyramid) for _ in range(5)]  # Ann, Ben, Cy, Ann, Ben
    assert s.game.leg == 2 and s.game.coins == [5, 5, 4]
    written = len(s.journal.events)
    said = _said(t, out, "undo")
    last = _die(*released[-1])
    assert said[0] == ("undo would take back Ben's pyramid ticket and its die %s and with it "
                       "the leg 1 scoring (its coins, and the tickets and spectator tiles returned): "
                       "type 'undo' again or y/yes to do it; n/no or anything else leaves it" % last)
    assert s.game.leg == 2 and len(s.journal.events) == written  # nothing done yet
    said = _said(t, out, "undo")
    first = [label.partition("-")[0] for label, _ in released[:4]]
    assert said[0] == (
        "undone: Ben's pyramid ticket and its die %s; this also takes back the leg 1 "
        "scoring: coins back to Ann 3, Ben 3, Cy 3; tickets back: Ann (2 pyramid tickets), "
        "Ben (1 pyramid ticket), Cy (1 pyramid ticket); move the blue camel back to space 1; "
        "take the %s, %s, %s and %s dice out of the pyramid again, leaving the %s and "
        "yellow dice in it (or type 'redo' to keep %s)"
        % (last, *first, released[-1][0].partition("-")[0], last))
    # yellow never came out in leg 1 (the sixth die stays inside): it stays in too
    assert "yellow" not in [label.partition("-")[0] for label, _ in released]
    assert "Race 1, leg 1" in said  # the whole table, as it is again
    assert s.game.leg == 1 and s.game.coins == [3, 3, 3] and s.game.dice_out == first
    # the virtual pyramid holds what a real one holds once the players did as told
    assert sorted(pyramid.table.inside) == sorted(s.game.dice_in_pyramid())
    before = len(out.getvalue())
    _release(t, pyramid)  # the leg's last die again: one the game counts inside
    assert "RETURN THE DICE" not in out.getvalue()[before:]
    assert s.game.leg == 2


def test_redo_of_a_legs_last_die_puts_the_legs_other_dice_back_and_takes_none_out():
    """s34 tester 3 finding 9: the redo of the die that ended a leg said to take that die
    out of the pyramid again, in the same output as 'New leg: all dice back in the
    pyramid'. It now names what the pyramid holds after it: the leg's other dice go back
    in; the virtual pyramid, which follows the words, holds every die for the new leg."""
    pyramid = SeededPyramid(seed=3)
    t, out = _table(pyramid)
    s = t.session
    released = [_release(t, pyramid) for _ in range(5)]
    _said(t, out, "undo", "undo")
    said = _said(t, out, "redo")
    first = [label.partition("-")[0] for label, _ in released[:4]]
    assert said[0] == ("redone: Ben's pyramid ticket and its die %s; put the %s, %s, %s and "
                       "%s dice back in the pyramid" % (_die(*released[-1]), *first))
    assert "out of the pyramid" not in "\n".join(said)
    assert s.game.leg == 2 and s.game.dice_out == []
    assert sorted(pyramid.table.inside) == sorted(s.edition.dice)
    _release(t, pyramid)  # leg 2's first die: one the game counts inside
    assert s.game.dice_out == [pyramid.fell[-1][0][0].partition("-")[0]]


def test_a_line_other_than_undo_after_the_question_leaves_the_scoring():
    pyramid = SeededPyramid(seed=3)
    t, out = _table(pyramid)
    s = t.session
    for _ in range(5):
        _release(t, pyramid)
    position = s.game.position()
    said = _said(t, out, "undo", "show", "undo")
    assert said[0].startswith("undo would take back ")
    assert said[-2].startswith("undo would take back ")  # asked again, not done
    assert s.game.position() == position
    said = _said(t, out, "")
    assert said[0] == "nothing undone" and s.game.position() == position


def test_undo_of_the_die_that_ended_the_race_takes_back_the_race_end_and_redo_gives_it_back():
    t, out = _race_ended()
    s = t.session
    final, scores = s.game.coins, list(s.scores)
    last = s.reports[-1]["move"]["die"]
    ender = s.names[s.reports[-1]["player"]]
    leg = s.game.leg
    said = _said(t, out, "undo", "undo")
    assert said[0] == ("undo would take back %s's pyramid ticket and its die %s 3 and with it "
                       "the end of race 1 and the leg %d scoring (every coin paid): type 'undo' "
                       "again or y/yes to do it; n/no or anything else leaves it"
                       % (ender, last, leg))
    coins = ", ".join("%s %d" % (n, c) for n, c in zip(s.names, s.game.coins, strict=True))
    assert said[2] == (
        "undone: %s's pyramid ticket and its die %s 3; this also takes back the end of race "
        "1 and the leg %d scoring: coins back to %s; move "
        "the %s camel back to space 15, on top of yellow and white; put the %s die back in "
        "the pyramid (or type 'redo' to keep %s 3)" % (ender, last, leg, coins, last, last, last))
    assert s.phase == "turn" and s.scores == [] and last in s.game.dice_in_pyramid()
    said = _said(t, out, "redo")
    assert said[0] == ("redone: %s's pyramid ticket and its die %s 3; take the %s die out of "
                       "the pyramid again" % (ender, last, last))
    assert any(line.startswith("RACE 1 OVER") for line in said)
    assert s.phase == "over" and s.game.coins == final and s.scores == scores


def test_redo_gives_back_the_very_die_an_undo_took_back_and_is_journaled(tmp_path):
    pyramid = SeededPyramid(seed=5)
    path = str(tmp_path / "g.jsonl")
    t, out = _table(pyramid, journal=Journal(path))
    s = t.session
    _release(t, pyramid)
    label, value = _release(t, pyramid)  # Ben's
    after = s.game.position()
    said = _said(t, out, "undo")
    colour = label.partition("-")[0]
    assert said[0] == ("undone: Ben's pyramid ticket and its die %s; move the %s camel back to "
                       "space 3; put the %s die back in the pyramid (or type 'redo' to keep %s)"
                       % (_die(label, value), colour, colour, _die(label, value)))
    assert colour in pyramid.table.inside
    said = _said(t, out, "redo")
    assert said[0] == ("redone: Ben's pyramid ticket and its die %s; take the %s die out of "
                       "the pyramid again" % (_die(label, value), colour))
    assert said[1] == "Ben takes a pyramid ticket: %s" % _die(label, value)
    assert said[2].startswith("DIE ") and "(Ben's pyramid ticket)" in said[2]
    assert not any("release one die" in line for line in said)  # the die is given
    assert s.game.position() == after and s.current == 2
    assert colour not in pyramid.table.inside  # out again, as at the table
    assert s.journal.events[-1]["type"] == "redo" and s.journal.events[-2]["type"] == "undo"
    s.journal.close()
    again = Session.resume(Journal.resume(path))
    assert again.game.position() == after and again.current == 2


def test_anything_done_after_an_undo_leaves_nothing_to_redo():
    t, out = _table()
    s = t.session
    t.line("pyramid")
    t.line("red 2")
    t.line("undo")
    t.line("leg blue")  # Ben's own action instead
    position, written = s.game.position(), len(s.journal.events)
    said = _said(t, out, "redo")
    assert said[0] == ("! nothing to redo: 'redo' gives back what the last 'undo' took back, "
                       "until something else is done")
    assert s.game.position() == position and len(s.journal.events) == written
    said = _said(t, out, "redo now")
    assert said[0].startswith("! redo: check the form") and s.game.position() == position


def test_two_undos_are_redone_newest_first_and_a_resume_keeps_what_is_left_to_redo(tmp_path):
    path = str(tmp_path / "g.jsonl")
    t, out = _table(journal=Journal(path))
    s = t.session
    t.line("leg red")  # Ann
    t.line("tile 8 +")  # Ben
    both = s.game.position()
    t.line("undo")
    t.line("undo")
    said = _said(t, out, "redo")
    assert said[0] == "redone: Ann's leg ticket on red"
    s.journal.close()
    again = Session.resume(Journal.resume(path))
    assert again.command("redo")[0]["text"] == "redone: Ben's tile on space 8, cheering side up"
    assert again.game.position() == both


def test_redo_is_a_command_in_the_help_and_at_a_german_table():
    assert any(line.startswith("  redo ") for line in help_text("second").splitlines())
    set_language("de")
    t, out = _table()
    t.line("pyramid")
    t.line("rot 2")
    said = _said(t, out, "redo")  # a command, not 'did you mean red': nothing to redo
    assert said[0] == ("! nichts wiederherzustellen: 'redo' gibt zurück, was das letzte "
                       "'undo' zurücknahm, bis etwas anderes getan wird")
    said = _said(t, out, "undo", "redo")
    assert said[0] == ("Zurückgenommen: das Pyramidenplättchen von Ann mit seinem Würfel rot 2; "
                       "setze das Kamel rot auf Feld 2 zurück; lege den Würfel rot in die "
                       "Pyramide zurück (oder tippe 'redo', um rot 2 zu behalten)")
    assert said[2] == ("Wiederhergestellt: das Pyramidenplättchen von Ann mit seinem Würfel rot "
                       "2; nimm den Würfel rot wieder aus der Pyramide")
    assert t.session.game.dice_out == ["red"]
    assert any(line.startswith("  redo ") for line in help_text("second").splitlines())


def test_undo_of_a_moved_tile_says_where_it_goes_back_to():
    s = Session("second", ["Ann", "Ben", "Cy"])
    s.command(SETUP)
    s.command("tile 6 +")  # Ann
    s.command("leg red")
    s.command("leg blue")
    s.command("tile 9 -")  # Ann moves her tile
    assert s.command("undo")[0]["text"] == ("undone: Ann's tile on space 9, booing side up "
                                            "(back on space 6, cheering side up)")
    assert s.game.tile_of(0) == (6, "+")
    assert s.command("redo")[0]["text"] == "redone: Ann's tile on space 9, booing side up"
    assert s.game.tile_of(0) == (9, "-")


def test_a_journal_line_of_a_redo_reads_back_as_written():
    s = Session("second", ["Ann", "Ben", "Cy"], journal=Journal(None))
    s.command(SETUP)
    s.command("leg red")
    s.command("undo")
    s.command("redo")
    line = json.loads(json.dumps(s.journal.events[-1]))
    assert line["type"] == "redo" and "steps" not in line
    again = Session.from_events(s.journal.events)
    assert again.game.position() == s.game.position()


def test_a_redo_after_a_damaged_line_set_aside_stops_the_resume_there(tmp_path):
    """Without the second undo (damaged, set aside), the redo after it would give back
    Ben's leg ticket instead of Ann's: the resume keeps the lines before the redo only."""
    path = tmp_path / "g.jsonl"
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in (SETUP, "leg red", "leg blue", "undo", "undo", "redo"):
        s.command(text)
    journal.close()
    lines = path.read_bytes().splitlines(keepends=True)
    undos = [i for i, line in enumerate(lines) if b'"type":"undo"' in line]
    lines[undos[1]] = lines[undos[1]].replace(b'"type":"undo"', b'"type":"undx"')
    path.write_bytes(b"".join(lines))
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line)
    assert [e["type"] for e in j.events][-3:] == ["action", "action", "undo"]
    assert any("a redo, which without line %d would give back another action" % (undos[1] + 1)
               in note for note in j.notes)
    again = Session.resume(j)
    assert again.game.held_tickets(0) == [("red", 5)] and again.game.held_tickets(1) == []
    j.close()


def test_after_a_drawn_setup_is_undone_the_virtual_pyramid_releases_the_camels_dice():
    """s32 tester 2 finding 3: the prompt says to release each camel's die; it is taken."""
    pyramid = SeededPyramid(seed=4)
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=pyramid, auto_setup=True)
    t.start()
    assert s.phase == "turn"  # drawn by the table itself
    said = _said(t, out, "undo")
    assert said[0] == ("undone: the setup; race 1 is at its setup again: release each camel's "
                       "die, type the stacks or 'draw' ('redo' gives the setup back)")
    assert s.phase == "setup"
    for _die_no in range(12):  # a grey die that came out for nothing goes back in
        if s.phase != "setup":
            break
        before = len(out.getvalue())
        _release(t, pyramid)
        assert "no die is wanted now" not in out.getvalue()[before:]
    assert s.phase == "turn" and "Race 1 set up (dice)" in out.getvalue()
    assert sorted(pyramid.table.inside) == sorted(s.edition.dice)  # leg 1: every die in


def _race_ended(language="en"):
    """A classic race played to its end by typed dice (each the first die inside, 3)."""
    set_language(language)
    t, out = _table(edition="classic", setup=CLASSIC)
    s = t.session
    for _turn in range(60):
        if s.phase == "over":
            break
        inside = [c for c in s.edition.racing if c not in s.game.dice_out]
        t.line("%s 3" % inside[0])
    assert s.phase == "over"
    return t, out


def test_redo_of_again_says_the_new_race_starts_again():
    """s32 tester 2 finding 5: not 'the race before is back', which is the undo's."""
    t, out = _race_ended()
    said = _said(t, out, "again", "undo", "redo")
    assert t.session.race_no == 2 and t.session.phase == "setup"
    redone = [line for line in said if line.startswith("redone: ")]
    assert redone == ["redone: 'again': race 2 starts again"]


def test_redo_of_again_in_german():
    t, out = _race_ended("de")
    said = _said(t, out, "again", "undo", "redo")
    redone = [line for line in said if line.startswith("Wiederhergestellt: ")]
    assert redone == ["Wiederhergestellt: 'again': Rennen 2 beginnt von Neuem"]


def test_replay_says_an_undo_without_the_hint_to_type_redo(capsys, tmp_path):
    """s32 tester 2 finding 10: replay cannot redo, so it never says 'type redo'."""
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    t, out = _table(journal=Journal(str(path)))
    said = _said(t, out, "pyramid", "red 2", "undo")
    assert said[-2].endswith(" (or type 'redo' to keep red 2)")  # at the table: said
    t.session.journal.close()
    assert cli.main(["replay", str(path)]) == 0
    replay = capsys.readouterr().out
    undone = [line for line in replay.splitlines() if line.startswith("undone: ")]
    # nor what the table was told to do with its camel and its pyramid (s36: a replay
    # has neither; tests/test_replay_undo_words.py)
    assert said[-2].startswith("undone: Ann's pyramid ticket and its die red 2; move the red "
                               "camel back to space 2; put the red die back in the pyramid")
    assert undone == ["undone: Ann's pyramid ticket and its die red 2; the red camel went "
                      "back to space 2"]
    assert "redo" not in replay


def _bots_after_a_leg_end():
    """Ann (a person) ends leg 1 with her pyramid ticket's die; Ben and Cy (bots) move
    after it in leg 2. Dice typed: each the first inside but grey, 1."""
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy"], seed=9, bots=[1, 2], journal=Journal(None))
    t = Table(s, PlainDisplay(out))
    t.start()
    t.line(SETUP)

    def typed_die():
        t.line("%s 1" % [d for d in s.game.dice_in_pyramid() if d != "grey"][0])
    for _turn in range(40):
        if s.phase == "die":  # a bot's pyramid ticket
            typed_die()
        elif s.current == 0:
            leg = s.game.leg
            t.line("pyramid")
            typed_die()
            if s.game.leg != leg:
                while s.phase == "die":
                    typed_die()
                break
    assert s.game.leg == 2 and s.current == 0 and s.game.dice_out == []
    return t, out


def test_the_bots_undo_question_names_the_leg_scoring_where_it_happened():
    """s32 tester 2 finding 10: the scoring came with Ann's die, before the bots' moves."""
    t, out = _bots_after_a_leg_end()
    said = _said(t, out, "undo")
    assert said[0] == (
        "undo would take back Ann's pyramid ticket and its die purple 1 and with it the leg 1 "
        "scoring (its coins, and the tickets and spectator tiles returned), and the bots' moves after "
        "it: Ben's leg ticket on green, Cy's tile on space 6, booing side up (back to Cy): "
        "type 'undo' again or y/yes to do it; n/no or anything else leaves it")


SIX_LEG = ["tile 7 +", "leg red", "partner Dee", "pyramid", "yellow 2", "pyramid", "blue 1",
           "pyramid", "green 2", "pyramid", "purple 1", "pyramid", "red 1"]


def _six_after_a_leg_end(language="en"):
    """Six seats: Ann's tile on 7, Ben's red 5, Cy and Dee partners, then five pyramid
    tickets; Ben's red 1 ends leg 1 (red carries blue from 2 to 3)."""
    set_language(language)
    out = io.StringIO()
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"], seed=9,
                journal=Journal(None))
    t = Table(s, PlainDisplay(out))
    t.start()
    t.line(SETUP)
    for line in SIX_LEG:
        t.line(line)
    assert s.game.leg == 2 and s.game.tiles == {} and s.game.stacks[3] == ["red", "blue"]
    return t, out


def test_undo_across_a_leg_end_names_each_piece_as_it_goes_back():
    """s32 tester 2 finding 1: the tile back on its space (not to its player), the tickets
    to whom, the partners, and the camels with their stacks, as 'show' then lists them."""
    t, out = _six_after_a_leg_end()
    said = _said(t, out, "undo", "undo")
    assert said[2] == (
        "undone: Ben's pyramid ticket and its die red 1; this also takes back the leg 1 "
        "scoring: coins back to Ann 3, Ben 3, Cy 3, Dee 3, Eve 3, Fay 3; tickets back: Ann "
        "(1 pyramid ticket), Ben (red 5), Dee (1 pyramid ticket), Eve (1 pyramid ticket), "
        "Fay (1 pyramid ticket); back on the track: Ann's tile on space 7, cheering side up; "
        "Cy and Dee are partners again: they exchange their partnership cards again; move "
        "the red camel, carrying blue, back to space 2; take the yellow, blue, green and purple "
        "dice out of the pyramid again, leaving the red and grey dice in it (or type 'redo' to "
        "keep "
        "red 1)")
    shown = "\n".join(said[3:])  # the table as 'show' gives it agrees with the words
    assert "2:[red,blue]" in shown and "tiles: 7 Ann cheering" in shown
    assert "Ben: 3 coins; red 5;" in shown and "Cy: 3 coins; no leg tickets; partner Dee;" in shown


def test_undo_across_a_leg_end_in_german_names_each_piece():
    t, out = _six_after_a_leg_end("de")
    said = _said(t, out, "undo", "undo")
    assert said[2] == (
        "Zurückgenommen: das Pyramidenplättchen von Ben mit seinem Würfel rot 1; das nimmt "
        "auch die Etappenwertung 1 zurück: EP wie davor: Ann 3, Ben 3, Cy 3, Dee 3, Eve 3, "
        "Fay 3; Wett- und Pyramidenplättchen zurück an ihre Spieler: Ann (1 "
        "Pyramidenplättchen), Ben (rot 5), "
        "Dee (1 Pyramidenplättchen), Eve (1 Pyramidenplättchen), Fay (1 Pyramidenplättchen); "
        "wieder auf die Strecke: das Plättchen von Ann auf Feld 7, Seite Anfeuern oben; Cy "
        "und Dee sind wieder Partner: sie tauschen ihre Partnerkarten wieder; setze das "
        "Kamel rot, das blau trägt, auf Feld 2 zurück; nimm die Würfel gelb, blau, grün und lila "
        "wieder aus der Pyramide, die Würfel rot und grau bleiben darin (oder tippe 'redo', "
        "um rot 1 "
        "zu behalten)")


def test_redo_across_a_leg_end_in_german_puts_the_dice_back_in():
    t, out = _six_after_a_leg_end("de")
    _said(t, out, "undo", "undo")
    said = _said(t, out, "redo")
    assert said[0] == ("Wiederhergestellt: das Pyramidenplättchen von Ben mit seinem Würfel "
                       "rot 1; lege die Würfel gelb, blau, grün und lila in die Pyramide "
                       "zurück")


def test_undo_of_a_die_mid_leg_says_where_its_camels_go_back_and_a_tiles_coin():
    """s32 tester 2 finding 1: an ordinary die's undo names its camels' stack too."""
    t, out = _table()
    t.line("tile 4 +")  # Ann's cheering tile on 4
    said = _said(t, out, "pyramid", "red 2", "undo")  # red lands on 4: Ann's coin, on to 5
    assert t.session.game.coins == [3, 3, 3]
    assert said[-2] == ("undone: Ben's pyramid ticket and its die red 2; coins back to Ann 3; "
                        "move the red camel back to space 2; put the red die back in the pyramid "
                        "(or type 'redo' to keep red 2)")


def test_undo_of_the_race_end_in_german_says_what_it_takes_back():
    """s32 tester 2 finding 1: the question warns first, the undo says what goes back; no
    finish card was played here, so none is named (s35 tester finding 15; the cards'
    words, one and several: tests/test_undo_and_labels.py)."""
    t, out = _race_ended("de")
    said = _said(t, out, "undo", "undo")
    assert said[0] == (
        "undo würde das Pyramidenplättchen von Ann mit seinem Würfel orange 3 und damit das "
        "Ende von Rennen 1 und die Etappenwertung 3 (alle ausgezahlten EP) zurücknehmen: "
        "tippe noch einmal 'undo' oder j/ja, um es zu tun; n/nein oder alles andere lässt es")
    assert said[2] == (
        "Zurückgenommen: das Pyramidenplättchen von Ann mit seinem Würfel orange 3; das nimmt "
        "auch das Ende von Rennen 1 und die Etappenwertung 3 zurück: EP wie davor: Ann 7, "
        "Ben 6, Cy 6; "
        "setze das Kamel orange auf Feld 15 zurück, oben auf gelb und weiß; lege den Würfel "
        "orange in die Pyramide zurück (oder tippe 'redo', um orange 3 zu behalten)")


def test_undo_of_a_correction_says_no_coins_or_tickets_change_back_and_moves_the_camels():
    """s33: the undo of a correction named no coins or tickets, as every other undo line
    does; a correction moves camels only, so nothing of either changes back: said so."""
    t, out = _table()
    t.line("leg red")  # Ann's red 5 stays hers through the correction and its undo
    said = _said(t, out, "fix 1:green 2:red,blue", "undo")
    undone = [line for line in said if line.startswith("undone: ")]
    assert undone == ["undone: the board correction; no coins or tickets change back; move "
                      "the blue camel back to space 1, under green"]
    assert t.session.game.stacks[1] == ["blue", "green"]
    assert t.session.game.held_tickets(0) == [("red", 5)]


def test_undo_of_an_unscored_end_says_no_coins_or_tickets_change_back_in_german():
    set_language("de")
    t, out = _table()
    t.line("leg red")
    said = _said(t, out, "unscored", "undo")
    undone = [line for line in said if line.startswith("Zurückgenommen: ")]
    assert undone == ["Zurückgenommen: das Rennende ohne Wertung; EP, Wett- und Pyramidenplättchen "
                      "bleiben, wie sie sind"]
    assert t.session.phase == "turn" and t.session.game.held_tickets(0) == [("red", 5)]



def test_the_bots_undo_line_names_the_scoring_where_the_question_named_it():
    """s33: the question named the leg 1 scoring right after Ann's die, before the bots'
    moves; the line after the undo named it after all of them. Now both agree: Ann's
    die, the scoring and what it gives back, then the bots' moves, then the camels."""
    t, out = _bots_after_a_leg_end()
    said = _said(t, out, "undo", "undo")
    undone = [line for line in said if line.startswith("undone: ")]
    assert undone == [
        "undone: Ann's pyramid ticket and its die purple 1; this also takes back the leg 1 "
        "scoring: coins back to Ann 3, Ben 3, Cy 3; tickets back: Ann (4 pyramid tickets), "
        "Ben (purple 5, green 3, green 2, purple 3), Cy (green 5, green 2, blue 5, purple 2); "
        "and the bots' moves after the scoring: Ben's leg ticket on green, Cy's tile on "
        "space 6, booing side up (back to Cy); move the purple camel, carrying green, back "
        "to space 4, on top of yellow; take the blue, green, yellow and red dice out of the "
        "pyramid again, leaving the purple and grey dice in it (or type 'redo' to keep "
        "purple 1)"]
    # the order of the question before it: the die, the scoring, the bots' moves
    question = said[0]
    for line in (question, undone[0]):
        assert (line.index("purple 1") < line.index("the leg 1 scoring")
                < line.index("Ben's leg ticket on green"))


def test_a_bots_die_that_scored_is_named_with_its_scoring_before_the_next_bots_moves():
    """The scoring where it happened when a bot's die scored too: after that bot's move,
    before the moves after it (``undone_steps`` with the session's ``at``)."""
    from camelhost.table.narration import undone_steps
    steps = [([{"type": "action", "player": 0, "action": "leg red"}], 0),
             ([{"type": "pyramid", "player": 1}, {"type": "die", "colour": "red", "value": 1}],
              1),
             ([{"type": "action", "player": 2, "action": "leg blue"}], 2)]
    scoring = {"legs": [1], "race": False, "race_no": 1, "coins": [3, 3, 3], "at": 1}
    text, _hint = undone_steps(steps, ["Ann", "Ben", "Cy"], scoring=scoring)
    assert text == ("Ann's leg ticket on red, and the bots' moves after it: Ben's pyramid "
                    "ticket and its die red 1; this also takes back the leg 1 scoring: coins "
                    "back to Ann 3, Ben 3, Cy 3; and the bots' moves after the scoring: Cy's "
                    "leg ticket on blue; put the red die back in the pyramid")


def test_the_bots_undo_line_in_german_names_the_scoring_before_the_bots_moves():
    set_language("de")
    t, out = _bots_after_a_leg_end()
    undone = [line for line in _said(t, out, "undo", "undo")
              if line.startswith("Zurückgenommen: ")]
    assert len(undone) == 1
    assert undone[0].startswith(
        "Zurückgenommen: das Pyramidenplättchen von Ann mit seinem Würfel lila 1; das nimmt "
        "auch die Etappenwertung 1 zurück: EP wie davor: Ann 3, Ben 3, Cy 3; ")
    assert ("; und die Züge der Bots nach der Wertung: das Wettplättchen grün von Ben, das "
            "Plättchen von Cy auf Feld 6, Seite Ausbuhen oben (zurück zu Cy); setze das Kamel "
            "lila, das grün trägt, auf Feld 4 zurück, oben auf gelb; ") in undone[0]


def test_redo_of_a_correction_says_no_coins_or_tickets_change():
    """s33: the redo of a correction said only 'redone: the board correction', where its
    undo says no coins or tickets change back; now the redo says it too, and the board's
    line after it says where the camels stand again."""
    t, out = _table()
    t.line("leg red")
    said = _said(t, out, "fix 1:green 2:red,blue", "undo", "redo")
    redone = said[said.index(next(line for line in said if line.startswith("redone: "))):]
    assert redone[:2] == ["redone: the board correction; no coins or tickets change",
                          "Board corrected: 1:[green] 2:[red,blue] 3:[yellow,purple] 15:[black] "
                          "16:[white]"]
    assert t.session.game.stacks[2] == ["red", "blue"]
    assert t.session.game.held_tickets(0) == [("red", 5)]


def test_redo_of_an_unscored_end_says_no_coins_or_tickets_change_in_german():
    set_language("de")
    t, out = _table()
    t.line("leg red")
    said = _said(t, out, "unscored", "undo", "redo")
    redone = [line for line in said if line.startswith("Wiederhergestellt: ")]
    assert redone == ["Wiederhergestellt: das Rennende ohne Wertung; EP, Wett- und Pyramidenplättchen "
                      "bleiben, wie sie sind"]
    assert t.session.phase == "unscored" and t.session.game.held_tickets(0) == [("red", 5)]


def test_redo_of_a_die_names_no_coins_or_tickets_of_a_correction():
    # only a correction or an unscored end adds the words: a die's redo is said as before
    t, out = _table()
    said = _said(t, out, "pyramid", "blue 1", "undo", "redo")
    redone = [line for line in said if line.startswith("redone: ")]
    assert redone == ["redone: Ann's pyramid ticket and its die blue 1; take the blue die out "
                      "of the pyramid again"]


def test_the_watchers_words_of_an_undo_count_many_bots_moves_and_leave_the_coins_to_the_table():
    """The web page's brief form of an undo (tester s33-2 finding 5): the scoring taken
    back in one clause, the bots' moves after it counted when more than two, the camels
    counted when they go back to more than two spaces; the table's own line names them
    all."""
    out = io.StringIO()
    names = ["Ann", "Ben", "Cy", "Dee", "Eve"]
    s = Session("second", names, seed=9, bots=[1, 2, 3, 4], journal=Journal(None))
    t = Table(s, PlainDisplay(out))
    t.start()
    t.line(SETUP)

    def typed_die():
        t.line("%s 1" % [d for d in s.game.dice_in_pyramid() if d != "grey"][0])
    for _turn in range(60):
        if s.phase == "die":
            typed_die()
        elif s.current == 0:
            leg = s.game.leg
            t.line("pyramid")
            typed_die()
            if s.game.leg != leg:
                while s.phase == "die":
                    typed_die()
                ended = leg
                break
    assert s.current == 0 and s.game.leg == ended + 1  # Ann's die ended the leg
    notice = s.command("undo")[0]  # the session's: the table asks first
    full, brief = notice["text"], notice["brief"]
    moves = full.split("; and the bots' moves after the scoring: ")[1].split(";")[0]
    assert all(name + "'s " in moves for name in names[1:]), full  # four, named
    assert "; and the bots' moves after the scoring: 4 moves" in brief, brief
    assert ("; this also takes back the leg %d scoring: every player's coins, tickets and "
            "tiles as before it" % ended) in brief, brief
    assert "coins back to" in full and "coins back to" not in brief
    assert not any(name + "'s" in brief for name in names[1:]), brief
    assert brief.startswith("undone: Ann's pyramid ticket and its die ")
    assert brief.endswith(full[full.index("; take the "):]), (brief, full)  # the dice, as said


def test_a_correction_while_a_ticket_waits_for_its_die_stays_when_the_die_is_undone():
    """s36 player tester finding 9: a board bumped while the pyramid was shaken, ``fix``
    typed before the die: the die was glued to the correction's step, so one ``undo`` took
    back both, named only the correction and left the ticket waiting. Now the die is a
    step of its own: ``undo`` takes back the die (named, with its camel's way back), the
    correction stands and the ticket waits for its die again; the next ``undo`` takes back
    the correction; ``redo`` gives each back in turn."""
    t, out = _table(setup="setup 1:blue,green 2:red 3:yellow,purple 14:black 15:white")
    t.line("pyramid")
    t.line("fix 5:red")
    t.line("red 2")
    said = _said(t, out, "undo")
    undone = [line for line in said if line.startswith("undone: ")]
    assert undone == ["undone: the die red 2 of Ann's pyramid ticket (the ticket waits for its "
                      "die again); move the red camel back to space 5; put the red die back in "
                      "the pyramid (or type 'redo' to keep red 2)"]
    assert t.session.phase == "die" and t.session.pending_player == 0
    assert t.session.game.stacks[5] == ["red"] and t.session.game.dice_out == []
    said = _said(t, out, "undo")
    assert [line for line in said if line.startswith("undone: ")] == [
        "undone: the board correction; no coins or tickets change back; move the red camel "
        "back to space 2"]
    said = _said(t, out, "redo", "redo")
    redone = [line for line in said if line.startswith("redone: ")]
    assert redone[0].startswith("redone: the board correction")
    assert redone[1] == ("redone: the die red 2 of Ann's pyramid ticket; take the red die out "
                         "of the pyramid again")
    assert t.session.phase == "turn" and t.session.game.dice_out == ["red"]
