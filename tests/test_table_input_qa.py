"""QA findings on the table: each test is named after the finding it pins down."""

import io

import pytest
from camelhost.commands.odds import report
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelup.game import parse_position
from camelup.notation import position_text

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def _table(names=("Ann", "Ben", "Cy"), edition="second", setup=SETUP):
    out = io.StringIO()
    s = Session(edition, list(names), seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    if setup:
        t.line(setup)
    return t, out


def _position_line(out):
    lines = [ln for ln in out.getvalue().splitlines() if "Position:" in ln]
    return lines[-1].split("Position:", 1)[1].strip()


def test_position_command_hides_finish_card_colours_and_pastes_into_odds():
    t, out = _table()
    t.line("win purple")   # Ann
    t.line("lose green")   # Ben
    t.line("win red")      # Cy
    t.line("position")
    text = _position_line(out)
    piles = text.split(" | ")[-2:]
    assert piles == ["winner 2", "loser 1"]
    for colour in ("purple", "green", "red"):
        assert colour not in " ".join(piles)
    assert "p0:" not in text and "p2:" not in text
    # what the table printed reads back and gives the odds report
    game = parse_position(text)
    assert len(game.pile("winner")) == 2 and len(game.pile("loser")) == 1
    assert position_text(game) == text
    lines = report(game, samples=200)
    assert any("finish card on the winner pile" in ln and "2 cards on the pile" in ln for ln in lines)
    # the hidden cards are nobody's: every seat still holds all its finish cards
    assert game.finish_cards_in_hand(0) == list(game.edition.racing)


def _refusal(s, text):
    from camelhost.table.session import TableError
    try:
        s.command(text)
    except TableError as exc:
        return str(exc)
    raise AssertionError("%r was accepted" % text)


@pytest.mark.parametrize("text,wording", [
    ("tile 5 -", "tile 5 -: there is already Ann's tile on space 5 (RULES 1.5)"),
    ("tile 6 +", "tile 6 +: space 6 is next to Ann's tile on space 5: tiles never lie side "
                 "by side (RULES 1.5)"),
    ("tile 4 -", "tile 4 -: space 4 is next to Ann's tile on space 5"),
    ("tile 3 +", "tile 3 +: space 3 holds camels (yellow, purple) (RULES 1.5)"),
    ("tile 2 +", "tile 2 +: space 2 holds the red camel (RULES 1.5)"),
    ("tile 1 +", "tile 1 +: a tile may never go on space 1 (RULES 1.5)"),
])
def test_tile_refusals_read_naturally(text, wording):
    s = Session("second", ["Ann", "Ben", "Cy"], journal=Journal(None))
    s.command(SETUP)
    s.command("tile 5 +")  # Ann's tile on 5; Ben to act
    message = _refusal(s, text)
    assert message.startswith(wording)
    assert " is on " not in message and "p0" not in message


def test_tile_refusal_for_moving_the_own_tile_onto_its_space_reads_naturally():
    s = Session("second", ["Ann", "Ben", "Cy"], journal=Journal(None))
    s.command(SETUP)
    s.command("tile 5 +")
    s.command("leg red")
    s.command("leg red")  # Ann again
    for text in ("tile 5 +", "tile 5 -"):
        assert _refusal(s, text).startswith(
            "%s: Ann's own tile already lies on space 5; moving it must go to a different "
            "space" % text)


def _prompt(session):
    from camelhost.table.view import table_view
    from camelhost.ui.plain import prompt_line
    return prompt_line(table_view(session, odds=False))


def test_turn_prompt_offers_only_what_is_legal_now():
    # three or four players, second edition: no partnerships (RULES 3.8)
    for names in (["Ann", "Ben", "Cy"], ["Ann", "Ben", "Cy", "Dee"]):
        s = Session("second", names, journal=Journal(None))
        s.command(SETUP)
        assert _prompt(s) == "> Ann's turn (leg / tile / win / lose / pyramid)"
    # classic never has partnerships
    s = Session("classic", ["Ann", "Ben"], journal=Journal(None))
    s.command("setup 1:blue,green 2:orange 3:yellow,white")
    assert _prompt(s) == "> Ann's turn (leg / tile / win / lose / pyramid)"
    # six players: partner is offered until no partner is left to take
    six = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]
    s = Session("second", six, journal=Journal(None))
    s.command(SETUP)
    assert _prompt(s) == "> Ann's turn (leg / tile / win / lose / partner / pyramid)"
    s.command("partner Ben")   # Ann & Ben: Ben, now partnered, may not take another
    assert _prompt(s) == "> Ben's turn (leg / tile / win / lose / pyramid)"
    s.command("leg blue")
    assert _prompt(s) == "> Cy's turn (leg / tile / win / lose / partner / pyramid)"
    # every finish card played: no win / lose
    s = Session("second", ["Ann", "Ben", "Cy"], journal=Journal(None))
    s.command(SETUP)
    for colour in ("blue", "green", "red", "yellow", "purple"):
        s.command("win %s" % colour)  # Ann
        s.command("leg %s" % colour)  # Ben
        s.command("leg %s" % colour)  # Cy
    assert _prompt(s) == "> Ann's turn (leg / tile / pyramid)"


SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]


def test_best_values_partnerships_by_name_with_six_players():
    from camelhost.table import narration
    from camelhost.table.view import table_view
    s = Session("second", SIX, seed=3, journal=Journal(None))
    s.command(SETUP)
    s.command("leg blue")  # Ann holds blue 5: a partnership with her is worth something
    lines = narration.best_lines(table_view(s))
    assert lines[0].startswith("Best for Ben: ")
    assert lines[-2].startswith("(balance: ")  # the note under the actions
    assert lines[-1].startswith("Partnership for Ben (the partner's best ticket to copy): "
                                "Ann +0.")
    for name in ("Cy", "Dee", "Eve", "Flo"):  # holding no leg ticket: said so, never 0.00
        assert "%s no leg or pyramid ticket yet" % name in lines[-1]
    assert "Ben +" not in lines[-1] and "p0" not in " ".join(lines)
    s.command("partner Ann")  # Ben & Ann for this leg
    s.command("leg yellow")   # Cy
    s.command("leg green")    # Dee
    s.command("leg red")      # Eve
    s.command("leg purple")   # Flo
    lines = narration.best_lines(table_view(s))  # Ann again: partnered with Ben
    assert lines[0].startswith("Best for Ann: ")
    assert not any(line.startswith("Partnership for Ann (") for line in lines)
    # Ben holds nothing to copy: never "worth 0.00", what is true instead (s33)
    assert lines[-1] == ("Partnership for Ann: with Ben this leg, but Ben holds no leg or "
                         "pyramid ticket yet, so it pays Ann nothing this leg unless Ben "
                         "takes one (RULES 3.8)")
    # three players: no partnership line at all
    s = Session("second", ["Ann", "Ben", "Cy"], seed=3, journal=Journal(None))
    s.command(SETUP)
    s.command("leg blue")
    assert not any("artner" in line for line in narration.best_lines(table_view(s)))


RACING_SETUP = ("red 2", "blue 1", "green 1", "yellow 3", "purple 2")


def test_setup_takes_a_crazy_camels_name_as_the_grey_die_in_rules_order():
    from camelhost.table.session import TableError
    s = Session("second", ["Ann", "Ben", "Cy"], journal=Journal(None))
    for text in RACING_SETUP:
        s.command(text)
    with pytest.raises(TableError) as info:
        s.command("white 3")  # the table places black first (rules-decisions 3)
    assert str(info.value) == ("'white 3': at setup the grey die's first roll places the "
                               "black crazy camel, the second the white one (the table's "
                               "order: RULES 3.2 rolls once for each, "
                               "docs/rules-decisions.md 3): type 'black 3' (or 'grey 3') for the black camel now, or "
                               "the whole board with 'setup ...'")
    assert s.setup_rolls[-1] == ("purple", 2)  # nothing changed
    s.command("black 2")  # as 'grey black 2'
    assert s.setup_rolls[-1] == ("black", 2)
    die = [e for e in s.journal.events if e.get("type") == "die"][-1]
    assert die["colour"] == "grey" and die["ink"] == "black" and die["value"] == 2
    s.command("white 3")
    assert s.phase == "turn"
    assert "14:white" in s.game.position() and "15:black" in s.game.position()
    # after the setup a crazy camel's name is not a die: say which die to type
    with pytest.raises(TableError) as info:
        s.command("black 2")
    assert "type 'grey black 2'" in str(info.value)
    assert "unknown command" not in str(info.value)


def test_classic_help_offers_no_partnership():
    from camelhost.table.controller import help_text
    assert "partner" not in help_text("classic")
    assert "partner Ben" in help_text("second")


def test_a_command_typed_at_the_private_finish_card_prompt_runs_as_the_command():
    t, out = _table()
    t.line("win")
    t.line("pyramid")  # not a colour: no finish card, and Ann takes a pyramid ticket
    assert t.session.game.pile("winner") == []
    assert t.session.phase == "die"
    text = out.getvalue()
    # what ran is named: the prompt didn't show it
    assert "no finish card played ('pyramid' is a command, not a colour)" in text
    # a word that is not a command is still asked again, unseen
    t.line("undo")
    t.line("win")
    t.line("undo")  # at the prompt: this card only, nothing else taken back
    assert t.private is None and t.session.phase == "turn"
    assert "no finish card played (nothing else undone)" in out.getvalue()
    t.line("win")
    before = len(out.getvalue())
    t.line("red\x1b[D")  # an arrow key pressed while typing unseen
    t.line("gre\x7f\x7fen")
    said = out.getvalue()[before:]
    assert t.private == "winner" and "can't read" in said
    for typed in ("red", "gre", "x1b", "x7f"):  # nothing of what was typed is repeated
        assert typed not in said
    t.line("banana")
    assert t.private == "winner" and "not a racing camel's colour" in out.getvalue()
    before = len(out.getvalue())
    t.line("win red")  # a finish word is no command there: asked again, never echoed
    assert t.private == "winner" and "red" not in out.getvalue()[before:]
    t.line("red")
    assert len(t.session.game.pile("winner")) == 1


@pytest.mark.parametrize("command", ["win", "lose"])
def test_a_bare_finish_word_out_of_turn_names_what_the_table_waits_for(command):
    t, out = _table(setup=None)
    t.line(command)
    assert "%s: the setup comes first" % command in out.getvalue()
    t.line(SETUP)
    t.line("pyramid")
    t.line(command)
    assert "%s: Ann's pyramid ticket waits for its die" % command in out.getvalue()
    assert t.private is None


def test_the_grey_die_without_its_ink_is_hinted_with_the_value_typed():
    t, out = _table()
    t.line("grey 1")
    assert "needs its numeral colour: 'grey black 1' or 'grey white 1'" in out.getvalue()


def test_partner_takes_a_name_with_a_space():
    names = ("Ann Marie", "Ben", "Cy", "Dee", "Eve", "Fay")
    t, out = _table(names=names)
    t.line("leg red")  # Ann Marie; Ben to act
    t.line("partner Ann Marie")
    assert t.session.game.partner_of(1) == 0


def test_fix_refusals_say_where_the_camels_or_the_tile_are():
    t, out = _table()
    t.line("tile 7 +")  # Ann
    before = position_text(t.session.game)
    t.line("fix 1:green")
    assert ("fix 1:green: blue stood on space 1 too; list every camel there, bottom to top "
            "(fix 1:blue,green), or say where it went (e.g. fix 1:green 2:blue)") in out.getvalue()
    t.line("fix 7:red")
    assert "fix 7:red: space 7 holds Ann's tile, and a camel never stands on a tile (RULES 1.5)" \
        in out.getvalue()
    assert position_text(t.session.game) == before
    assert "bad position" not in out.getvalue()


@pytest.mark.parametrize("typed,canonical", [
    ("cheer 6", "tile 6 +"), ("boo  4", "tile 4 -"), ("booing 5", "tile 5 -"),
    ("tile 6 cheer", "tile 6 +"),
])
def test_a_tile_refusal_is_headed_with_the_words_typed(typed, canonical):
    # second edition names its tiles cheering / booing; a refusal quotes what the player
    # typed, not the engine's canonical form, and still gives the reason
    s = Session("second", ["Ann", "Ben", "Cy"], journal=Journal(None))
    s.command(SETUP)
    s.command("tile 5 +")  # Ann's tile on 5; Ben to act
    message = _refusal(s, typed)
    assert message.startswith(" ".join(typed.split()) + ": "), message
    assert not message.startswith(canonical)
    assert "RULES 1.5" in message
    # the full-screen and plain table show the same words
    t, out = _table()
    t.line("tile 5 +")
    t.line(typed)
    assert (" ".join(typed.split()) + ": ") in out.getvalue()
    assert (canonical + ": ") not in out.getvalue()


def test_finish_words_at_the_private_prompt_are_refused_unseen_as_the_guide_says():
    # QA: docs/table.md said any command typed at the private colour prompt runs; the
    # finish words never do (naming them back could show a colour): the guide says
    # which words are refused and with what line, and the table says exactly that
    import os

    from camelhost import paths
    with open(os.path.join(paths.REPO_ROOT, "docs", "table.md"), encoding="utf-8") as fh:
        row = next(line for line in fh if line.startswith("| `win`, `lose` alone |"))
    for quoted in ("`win yellow`", "`lose yellow`", "`that is not a racing camel's colour`",
                   "`type just the colour`"):
        assert quoted in row
    t, out = _table()
    t.line("win")
    for typed, said in (("win", "that is not a racing camel's colour"),
                        ("win yellow", "type just the colour"),
                        ("lose yellow", "type just the colour"),
                        ("finish winner red", "type just the colour")):
        before = len(out.getvalue())
        t.line(typed)
        reply = out.getvalue()[before:]
        assert reply.startswith("! " + said) and reply.count("\n") == 1
        assert "'%s'" % typed not in reply and t.private == "winner"  # never repeated
    assert t.session.game.pile("winner") == [] and t.session.current == 0


def test_a_private_finish_cards_refusals_come_in_german():
    from camelhost.i18n import set_language
    set_language("de")
    t, out = _table()
    t.line("win")
    before = len(out.getvalue())
    t.line("win yellow")
    assert out.getvalue()[before:] == ("! tippe nur die Farbe der Wettkarte; tippe die Farbe "
                                       "noch einmal (sie wird nicht gezeigt), oder eine leere "
                                       "Zeile zum Abbrechen\n")
    assert t.private == "winner" and t.session.game.pile("winner") == []


def test_the_guides_say_a_pasted_position_values_finish_cards_apart_from_best():
    # QA: 'best' and 'pyramid odds' on the line 'position' printed disagreed on a finish
    # card's value: the public line keeps the piles' sizes only, so every card there is
    # another player's (the notation is unchanged; the guides say so)
    import os

    from camelhost import paths
    t, out = _table()
    t.line("win red")  # Ann
    t.line("position")
    game = parse_position(_position_line(out))
    assert len(game.pile("winner")) == 1 and game.finish_cards_in_hand(0) == list(
        game.edition.racing)  # Ann's own card is nobody's in the pasted line
    for doc in ("table.md", "notation.md"):
        with open(os.path.join(paths.REPO_ROOT, "docs", doc), encoding="utf-8") as fh:
            text = " ".join(fh.read().split())
        assert "sizes only" in text and "can differ from `best`" in text, doc


@pytest.mark.parametrize("command", ["leg red", "pyramid", "tile 5 +", "win red"])
def test_a_players_command_before_the_setup_says_the_setup_comes_first(command):
    # a tester typed 'leg red' before setting up and read "a seat is a number: None"
    t, out = _table(setup=None)
    t.line(command)
    text = out.getvalue()
    assert "the setup comes first" in text
    assert "a seat is a number" not in text
    assert t.session.phase == "setup"
