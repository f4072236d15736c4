"""A second fresh tester on a German table (s31 tester 2): the table's own colour
words may be shortened as English ones are, the help says so in German (finding 4)."""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table, help_text
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _table(lang="de"):
    set_language(lang)
    out = io.StringIO()
    table = Table(Session("second", ["Anna", "Ben", "Cora"], seed=5, journal=Journal(None)),
                  PlainDisplay(out), manual=True)
    table.start()
    table.line(SETUP)
    return table, out


@pytest.mark.parametrize("typed, colour", [
    ("li", "purple"), ("lil", "purple"), ("ro", "red"), ("gel", "yellow"),
    ("grü", "green"), ("gru", "green"), ("bl", "blue"), ("pu", "purple"), ("r", "red")])
def test_a_german_table_shortens_its_own_colour_words_for_a_leg_ticket(typed, colour):
    table, out = _table()
    table.line("leg %s" % typed)
    game = table.session.game
    assert [c for c, _v in game.held_tickets(0)] == [colour], out.getvalue()


@pytest.mark.parametrize("typed, colour", [("li 2", "purple"), ("gel 1", "yellow"),
                                           ("ro 3", "red")])
def test_a_german_table_types_a_die_with_a_shortened_german_colour(typed, colour):
    table, out = _table()
    table.line("pyramid")
    table.line(typed)
    assert colour in table.session.game.dice_out, out.getvalue()


def test_a_german_prefix_of_two_dice_is_refused_as_ambiguous_and_changes_nothing():
    table, out = _table()
    table.line("pyramid")
    before = out.getvalue()
    table.line("gr 2")  # grün or grau
    said = out.getvalue()[len(before):]
    assert "grün" in said and "grau" in said
    assert table.session.game.dice_out == []


def test_an_english_table_still_refuses_german_prefixes():
    table, out = _table("en")
    table.line("leg li")
    assert table.session.game.held_tickets(0) == []
    assert "'li' is not a racing camel" in out.getvalue()


def test_the_german_help_shortens_german_colour_words_and_each_example_works():
    set_language("de")
    first = help_text("second").splitlines()[0]
    assert first.endswith("r, l, grü):"), first
    table, out = _table()
    for short in ("l", "grü"):
        table.line("leg %s" % short)
    assert [c for c, _v in table.session.game.held_tickets(0)] == ["purple"]
    assert [c for c, _v in table.session.game.held_tickets(1)] == ["green"]


def test_the_english_help_keeps_its_english_examples():
    set_language("en")
    assert help_text("second").splitlines()[0].endswith("r, pu, gre):")


def _said(table, out, *lines):
    before = len(out.getvalue())
    for line in lines:
        table.line(line)
    return out.getvalue()[before:]


def test_an_ambiguous_german_prefix_is_refused_in_german_words():
    table, out = _table()
    said = _said(table, out, "pyramid", "gr 2", "leg g")
    assert "grün oder grau" in said and "grün oder gelb" in said
    assert " or " not in said


def test_a_bare_colour_word_is_answered_with_a_german_example():
    table, out = _table()
    said = _said(table, out, "lila")
    assert "'lila 2'" in said and "purple" not in said


def test_an_unscored_end_says_it_was_typed_not_that_the_board_was_lost():
    for lang, typed in (("en", "'unscored' was typed"), ("de", "'unscored' wurde getippt")):
        table, out = _table(lang)
        said = _said(table, out, "unscored")
        assert typed in said, said
        assert "restore" not in said and "wiederherstellen" not in said


def test_the_german_help_gives_its_examples_in_german_colour_words_and_they_work():
    set_language("de")
    text = help_text("second", "manual")
    for example in ("leg rot ", "win rot  lose rot", "Wettplättchen rot", "rot 2  grau weiß 3",
                    "'rot ?'", "fix 7:rot,blau", "darauf blau", "setup 1:blau,grün 2:rot"):
        assert example in text, example
    for english in ("red", "blue", "green", "grey", "white"):
        assert english not in text.split(), english
    # the examples are commands the German table takes
    table, out = _table()
    _said(table, out, "leg rot", "win rot", "pyramid", "rot 2")
    game = table.session.game
    assert game.held_tickets(0) == [("red", 5)] and game.dice_out == ["red"]


def test_the_english_help_keeps_english_colour_words():
    set_language("en")
    text = help_text("second", "manual")
    assert "leg red " in text and "fix 7:red,blue" in text and "red 2  grey white 3" in text


def test_the_german_table_calls_the_finish_piles_by_the_rules_words_only():
    table, out = _table()
    said = _said(table, out, "win", "rot", "lose", "blau", "odds")
    assert "Gesamtsieger" in said and "Gesamtverlierer" in said, said
    for other in ("Gesamt-", "-Stapel", "Sieger-", "Verlierer-"):
        assert other not in said, other


def test_a_die_line_names_the_tile_before_the_space_it_sends_the_unit_back_to():
    from camelhost.table.view import move_path
    from camelup.editions import get_edition

    move = {"from": 8, "to": 9, "crossed": False, "tile": {"space": 10, "side": "-", "owner": 4}}
    names = ["Anna", "Ben", "Cora", "Dirk", "Eva"]
    set_language("en")
    assert move_path(move, names, get_edition("second")) == \
        "from space 8 to 10 on Eva's booing tile, back 1 to 9"
    set_language("de")
    assert move_path(move, names, get_edition("second")) == \
        "von Feld 8 auf 10: Plättchen von Eva (Ausbuhen), 1 zurück auf 9"


def test_pyramid_odds_in_german_lists_the_commands_in_the_colour_words_the_table_takes(capsys):
    from camelhost import cli
    assert cli.main(["odds", "--lang", "de", "2:[R,Y,P] 9:[G] 13:[B] 14:[K,W] 4:+",
                     "--pyramid", "G,B", "--samples", "50", "--top", "0"]) == 0
    rows = [line.split()[1:3] for line in capsys.readouterr().out.splitlines()
            if line[:4].strip().rstrip(".").isdigit()]
    commands = [" ".join(row) for row in rows if row[0] in ("leg", "win", "lose")]
    assert "leg blau" in commands and "lose rot" in commands and "win grün" in commands
    assert not [c for c in commands if c.split()[1] in ("blue", "red", "green", "yellow",
                                                          "purple")]
    # and each is a command the German table takes
    table, out = _table()
    table.line("lose rot")
    assert table.session.game.pile("loser")


def test_position_pastes_a_german_odds_command_with_its_language():
    table, out = _table()
    said = _said(table, out, "position")
    command = [line for line in said.splitlines() if "pyramid odds" in line][0]
    assert command.endswith(" --players Anna,Ben,Cora --lang de"), command
    table, out = _table("en")
    command = [line for line in _said(table, out, "position").splitlines()
               if "pyramid odds" in line][0]
    assert command.endswith(" --players Anna,Ben,Cora"), command


def test_pyramid_check_in_german_names_a_stacks_colours_in_german_and_passes_in_german(
        tmp_path, capsys):
    from camelhost import cli
    path = tmp_path / "bad.scn"
    head = ("case T-02 a stack\nedition second\nplayers 3\nboard 1:[blue] 2:[green] "
            "3:[yellow,purple] 5:[red,black] 15:[white]\n")
    path.write_text(head + "expect space 5 black,red\n", encoding="utf-8")
    (tmp_path / "good.scn").write_text(head.replace("T-02", "T-03")
                                       + "expect space 5 red,black\n", encoding="utf-8")
    assert cli.main(["check", str(tmp_path), "--lang", "de"]) == 1
    out = capsys.readouterr().out
    assert "Feld 5: erwartet schwarz,rot, tatsächlich rot,schwarz" in out, out
    assert "bestanden T-03 a stack" in out and "\nok " not in out, out


@pytest.mark.screen
def test_the_f1_box_of_a_german_table_reads_the_ticket_codes_in_german():
    import asyncio

    import tui_scenes as scenes
    from camelhost.ui.screens import HelpScreen

    set_language("de")
    app = scenes.app_for("second", ["Anna", "Ben", "Cora"], seed=5)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f1")
            await scenes.settle(pilot)
            assert isinstance(app.screen, HelpScreen)
            text = app.screen.text
            # the letters are the table's language's own since tester s34-2 (a German
            # G was both gelb and grün): each colour one letter, the legend beside it
            assert "B5 G5 E5 R5 L5     ein Wettplättchen auf dem Bildschirm: der Buchstabe " \
                   "seiner Farbe, dann sein Wert" in text, text
            assert "(B blau, G grün, E gelb, R rot, L lila, S schwarz, W weiß)" in text
            assert "leg rot " in text and "leg red" not in text

    asyncio.run(play())


def test_a_german_colour_word_in_a_board_is_refused_saying_the_notation_is_english(capsys):
    from camelhost import cli
    assert cli.main(["odds", "--lang", "de", "2:[R,Y,P] 3:[blau] 9:[G] 14:[K,W]"]) == 1
    err = capsys.readouterr().err
    assert "'blau' auf Feld 3 ist kein Kamel (die Notation schreibt Kamele englisch" in err, err


def test_the_fix_and_release_refusals_give_german_examples_that_work():
    table, out = _table()
    said = _said(table, out, "fix 7", "fix 7:", "release")
    assert "fix 7:rot,blau" in said and "fix 7:blau" in said, said
    assert "'blau 2'" in said, said
    for english in ("red", "blue"):
        assert english not in said.replace("'", " ").replace(",", " ").split(), said
    _said(table, out, "fix 7:rot,blau")
    assert table.session.game.stacks[7] == ["red", "blue"]


def test_the_setup_prompt_and_the_grey_dies_refusal_give_german_examples_that_work():
    set_language("de")
    out = io.StringIO()
    table = Table(Session("second", ["Anna", "Ben", "Cora"], seed=5, journal=Journal(None)),
                  PlainDisplay(out), manual=True)
    table.start()
    assert "'setup 1:blau,grün ...'" in out.getvalue(), out.getvalue()
    table.line(SETUP)
    said = _said(table, out, "pyramid", "grau 2")
    assert "'grau schwarz 2' oder 'grau weiß 2'" in said, said
    _said(table, out, "grau weiß 2")
    assert table.session.game.dice_out == ["grey"]
