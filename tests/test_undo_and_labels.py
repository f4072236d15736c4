"""s35 tester finding 15 and s35 tester 2 finding 14 b), at a table through its public
interface (``Table.line``, what the plain display prints).

15: the undo of a race's end (its question first, then the undo's line) named the finish
cards going back face down even when no finish card was played: a table then looks for
cards that are not there. It now says only what is undone: no card clause without a card,
one card in the singular, several in the plural, in both languages.

14 b): the table asked ``The grey black die is out, value unknown`` where every maker tool
(``pyramid monitor``, ``calibrate``, ``doctor``) and the emulate console say
``grey-black`` (German ``grau-schwarz``): the value prompt now names the die by the same
label, from the same source (``camelup.calibration.die_label``, shown in the table's
language as the maker tools show it, ``camelhost.tools.monitor.shown_label``).
"""

import io

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.tools.monitor import shown_label
from camelhost.ui.plain import PlainDisplay
from camelhost.ui.tui import announce_text

CLASSIC = "setup 1:blue 2:green 3:orange,yellow,white"
SECOND = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _table(edition, setup, language="en"):
    set_language(language)
    out = io.StringIO()
    s = Session(edition, ["Ann", "Ben", "Cy"], seed=9, journal=Journal(None))
    t = Table(s, PlainDisplay(out), pyramid=None)
    t.start()
    t.line(setup)
    return t, out


def _said(t, out, *typed):
    before = len(out.getvalue())
    for line in typed:
        t.line(line)
    return out.getvalue()[before:].splitlines()


def _race_ended(cards, language="en"):
    """A classic race played to its end by typed dice (each the first die inside, 3),
    after ``cards`` (typed lines: finish cards) were played, one per turn."""
    t, out = _table("classic", CLASSIC, language)
    s = t.session
    for line in cards:
        t.line(line)
    piles = len(s.game.pile("winner")) + len(s.game.pile("loser"))
    assert piles == len(cards)
    for _turn in range(60):
        if s.phase == "over":
            break
        inside = [c for c in s.edition.racing if c not in s.game.dice_out]
        t.line("%s 3" % inside[0])
    assert s.phase == "over"
    return t, out


def _undo_lines(t, out):
    said = _said(t, out, "undo", "undo")
    question = said[0]
    undone = next(line for line in said if line.startswith(("undone: ", "Zurückgenommen: ")))
    return question, undone


def test_undo_of_a_race_end_without_finish_cards_names_none():
    t, out = _race_ended([])
    question, undone = _undo_lines(t, out)
    assert question.startswith("undo would take back ")
    assert "the end of race 1 and the leg" in question and "(every coin paid)" in question
    assert "finish card" not in question and "face down" not in question
    assert "this also takes back the end of race 1 and the leg" in undone
    assert "finish card" not in undone and "face down" not in undone
    assert "coins back to Ann" in undone
    assert t.session.phase == "turn" and t.session.scores == []


def test_undo_of_a_race_end_with_one_finish_card_says_it_goes_back():
    t, out = _race_ended(["win orange"])
    question, undone = _undo_lines(t, out)
    assert ("(every coin paid; the finish card, already seen, goes back face down)"
            in question)
    assert ("the finish card, which everyone saw, goes back face down on its pile; coins "
            "back to " in undone)
    assert "finish cards" not in question + undone
    assert t.session.game.pile("winner") == [(0, "orange")]


def test_undo_of_a_race_end_with_two_finish_cards_says_each_pile_in_its_order():
    t, out = _race_ended(["win orange", "lose white"])
    question, undone = _undo_lines(t, out)
    assert ("(every coin paid; the finish cards, already seen, go back face down)"
            in question)
    assert ("the finish cards, which everyone saw, go back face down on their piles, each "
            "pile in the order its cards were played; coins back to " in undone)


def test_undo_of_a_race_end_in_german_says_only_what_is_undone():
    t, out = _race_ended([], "de")
    question, undone = _undo_lines(t, out)
    assert question.startswith("undo würde ")
    assert "(alle ausgezahlten EP)" in question
    assert "Wettkarte" not in question and "verdeckt" not in question
    assert "Wettkarte" not in undone and "verdeckt" not in undone
    t, out = _race_ended(["win orange"], "de")
    question, undone = _undo_lines(t, out)
    assert "die schon gesehene Wettkarte kommt verdeckt zurück" in question
    assert "die Wettkarte, die alle gesehen haben, kommt verdeckt auf ihren Stapel zurück" in undone


def test_the_watchers_words_of_a_race_end_undone_name_no_card_that_was_not_played():
    """The web page's one notice (``brief``) says the same as the table's line."""
    t, out = _race_ended([])
    t.line("undo")
    notices = t.session.command("undo")
    brief = notices[0]["brief"]
    assert "this also takes back the end of race 1" in brief
    assert "finish card" not in brief and "face down" not in brief
    t, out = _race_ended(["win orange", "lose white"])
    t.line("undo")
    brief = t.session.command("undo")[0]["brief"]
    assert "the finish cards go back face down on their piles" in brief


@pytest.mark.parametrize("language, label", [("en", "grey-black"), ("de", "grau-schwarz")])
def test_the_value_prompt_names_the_grey_die_as_the_maker_tools_do(language, label):
    t, out = _table("second", SECOND, language)
    assert shown_label("grey-black") == label  # the maker tools' word for the die
    said = _said(t, out, "pyramid", "grey black ?")
    asked = [line for line in said if "1, 2" in line]
    assert asked, said
    assert any(label in line for line in asked), asked
    assert not any("grey black" in line or "grau schwarz" in line for line in asked), asked
    # the full screen's banner says it in capitals, the same word
    t2, _out = _table("second", SECOND, language)
    t2.line("pyramid")
    notices = t2.session.command("grey black ?")
    assert label.upper() in str(announce_text(notices, None))
    # the phase's prompt, given with a line that is no value
    said = _said(t, out, "leg red")
    assert any(label in line for line in said), said


def _typed_journal(folder, lines):
    """The bytes of a journal ``pyramid play --pyramid manual`` wrote for ``lines``."""
    from camelhost import cli

    path = str(folder / "g.jsonl")
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr("sys.stdin", iter(line + "\n" for line in list(lines) + ["quit"]))
        assert cli.main(["play", "--plain", "--players", "Ann,Ben,Cy", "--pyramid", "manual",
                         "--journal", path]) == 0
    finally:
        mp.undo()
    with open(path, "rb") as fh:
        return fh.read()


def test_a_damaged_value_line_names_the_grey_die_as_the_value_prompt_did(
        tmp_path, monkeypatch, capsys):
    """The journal's recovery words for a value pressed name the die it was pressed for
    by the same label as the prompt the players answered."""
    from camelhost import cli

    data = _typed_journal(tmp_path, [SECOND, "pyramid", "grey black ?", "2", "leg blue"])
    capsys.readouterr()
    damaged = data.replace(b'"value":2', b'"valeu":2', 1)
    assert damaged != data
    path = tmp_path / "g.jsonl"
    path.write_bytes(damaged)
    monkeypatch.setattr("sys.stdin", iter([]))
    assert cli.main(["play", "--plain", "--resume", str(path)]) != 0
    err = capsys.readouterr().err
    assert "the value pressed for the grey-black die (1, 2 or 3 alone)" in err, err
    assert path.read_bytes() == damaged
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--plain", "--resume", str(path), "--upto-damage",
                     "--retype", "grey black 2"]) != 0
    err = capsys.readouterr().err
    assert "the line before it is the grey-black die, read without its value" in err, err
    assert path.read_bytes() == damaged
