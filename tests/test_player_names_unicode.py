"""s34 tester 2, players' names: a name is compared and kept in one Unicode form (NFC),
so ``Zoë`` typed with its one letter and pasted as ``e`` and a combining diaeresis are
one name (given twice: refused; ``partner Zoë`` finds it); a name takes at most
``NAME_MAX`` terminal columns (s34 tester 3: a wide character such as 山 or an emoji
takes 2, a combining mark none); a name written as a seat (``p1``) is refused, at ``pyramid
play --players``, a typed ``rename`` and ``pyramid odds --players`` (whose ``--turn
p1`` is a seat); ``--players 'Anna;Bernd;Cy'`` says the names are separated by commas.
Through the CLI and the plain table fed typed lines."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.table.session import NAME_MAX
from typed_table import refusal, typed_table

COMPOSED = "Zo\u00eb"  # what a keyboard types
DECOMPOSED = "Zoe\u0308"  # what a paste (macOS) can give: reads exactly alike
SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _play_refused(tmp_path, capsys, players, lang="en"):
    path = tmp_path / "g.jsonl"
    code = cli.main(["play", "--plain", "--lang", lang, "--pyramid", "manual",
                     "--players", players, "--journal", str(path)])
    err = capsys.readouterr().err.strip()
    assert code != 0 and not path.exists(), err  # nothing started, no journal
    assert len(err.splitlines()) == 1, err
    return err


def test_one_name_in_two_unicode_forms_is_given_twice(tmp_path, capsys):
    err = _play_refused(tmp_path, capsys, "%s,%s,Ann" % (COMPOSED, DECOMPOSED))
    assert "player names must differ" in err and "given twice" in err, err


def test_a_pasted_decomposed_name_is_found_as_typed_on_a_keyboard():
    t, out = typed_table("second", [DECOMPOSED] + SIX[1:], "draw")
    assert t.session.names[0] == COMPOSED  # kept composed: one form for every comparison
    t.line("leg blue")  # Zoë's turn: now Ben's, who partners Zoë
    t.line("partner " + COMPOSED)
    assert "no player called" not in out.getvalue()
    assert t.session.game.partner_of(1) == 0


def test_a_typed_name_pasted_decomposed_finds_the_composed_one():
    t, out = typed_table("second", [COMPOSED] + SIX[1:], "draw", "leg blue")
    t.line("partner " + DECOMPOSED)
    assert "no player called" not in out.getvalue()
    assert t.session.game.partner_of(1) == 0


def test_a_rename_to_the_same_name_in_another_form_is_refused():
    t, out = typed_table("second", [COMPOSED, "Ben", "Cy"], "draw")
    said = refusal(t, out, "rename Ben " + DECOMPOSED)
    assert "is already a player's name" in said, said


def test_a_name_longer_than_the_limit_is_refused_at_the_start(tmp_path, capsys):
    long = "Zoë Marie-Luise Schmidt-Leutheusser von Hohenzollern"
    err = _play_refused(tmp_path, capsys, "Ann,Ben,%s" % long)
    assert "at most %d columns" % NAME_MAX in err and "takes %d" % len(long) in err, err
    german = _play_refused(tmp_path, capsys, "Ann,Ben,%s" % long, lang="de")
    assert "höchstens %d Spalten" % NAME_MAX in german, german


def test_a_name_of_the_limit_is_taken_and_one_more_letter_is_refused_by_rename():
    name = "A" * (NAME_MAX - 5) + "nnika"
    assert len(name) == NAME_MAX
    t, out = typed_table("second", ["Ann", "Ben", "Cy"], "draw")
    said = refusal(t, out, "rename Ann %sx" % name)
    assert "at most %d columns" % NAME_MAX in said, said
    t.line("rename Ann %s" % name)
    assert t.session.names[0] == name


#: 20 characters in 40 columns: the name s34 tester 3 gave, which broke the full screen
WIDE = "山田太郎" * 5
#: 10 wide characters: 20 columns, the most a name takes
WIDE_OF_THE_LIMIT = "山田太郎山田太郎山田"
#: 19 letters, a q and a combining dot above (no composed form): 21 characters, 20 columns
COMBINED_OF_THE_LIMIT = "Annika" * 3 + "Aq̇"


def test_a_name_of_wide_characters_is_counted_in_columns_at_the_start(tmp_path, capsys):
    err = _play_refused(tmp_path, capsys, "Ann,Ben,%s" % WIDE)
    assert err.endswith("a name takes at most %d columns on a screen (a wide character "
                        "such as 山 takes 2), so that the screens show it whole where they "
                        "name the player to act, and %s takes 40: give a shorter one"
                        % (NAME_MAX, WIDE)), err
    german = _play_refused(tmp_path, capsys, "Ann,Ben,%s" % WIDE, lang="de")
    assert "höchstens %d Spalten" % NAME_MAX in german and "belegt 40" in german, german
    emoji = _play_refused(tmp_path, capsys, "Ann,Ben,%s" % ("Anna😀" * 4))  # 20 characters
    assert "takes 24" in emoji, emoji


def test_a_rename_to_wide_characters_is_counted_in_columns():
    t, out = typed_table("second", ["Ann", "Emil", "Cy"], "draw")
    said = refusal(t, out, "rename Emil %s" % WIDE)
    assert "at most %d columns" % NAME_MAX in said and "takes 40" in said, said
    said = refusal(t, out, "rename Emil %s山" % WIDE_OF_THE_LIMIT)
    assert "takes 22" in said, said
    assert t.session.names[1] == "Emil"  # refused: nothing changed
    t.line("rename Emil %s" % WIDE_OF_THE_LIMIT)
    assert t.session.names[1] == WIDE_OF_THE_LIMIT


def test_a_combining_mark_takes_no_column():
    assert len(COMBINED_OF_THE_LIMIT) == NAME_MAX + 1
    t, out = typed_table("second", ["Ann", "Ben", "Cy"], "draw")
    t.line("rename Cy %s" % COMBINED_OF_THE_LIMIT)
    assert t.session.names[2] == COMBINED_OF_THE_LIMIT, out.getvalue()


@pytest.mark.parametrize("name", ["W" * NAME_MAX, WIDE_OF_THE_LIMIT])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_limit_keeps_the_turn_line_whole_at_80_columns(lang, name):
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    from camelhost.table.view import table_view
    from camelhost.ui.plain import prompt_line
    from rich.cells import cell_len
    set_language(lang)
    # six seats of the second edition: the longest turn line (partner among the choices)
    s = Session("second", [name] + SIX[1:], seed=1, journal=Journal(None))
    s.command("draw")
    line = prompt_line(table_view(s, odds=False))
    assert "partner" in line and cell_len(line) <= 80, (cell_len(line), line)


@pytest.mark.parametrize("name", ["p1", "P2", "3"])
def test_a_name_written_as_a_seat_is_refused(tmp_path, capsys, name):
    err = _play_refused(tmp_path, capsys, "Anna,Ann,%s,Eve" % name)
    assert "written as a seat" in err, err
    t, out = typed_table("second", ["Ann", "Ben", "Cy"], "draw")
    assert "written as a seat" in refusal(t, out, "rename Cy %s" % name)


def test_pyramid_odds_refuses_a_player_named_as_a_seat_so_turn_p1_is_a_seat(capsys):
    with pytest.raises(SystemExit):
        cli.main(["odds", "b1 g1 r2 y3 p3", "--players", "Anna,Ann,p2,p1,Eve,Flo",
                  "--turn", "p1"])
    err = capsys.readouterr().err
    assert "written as a seat" in err and "Actions for" not in err, err


@pytest.mark.parametrize("lang,said", [
    ("en", "--players Anna;Bernd;Cy: the names are separated by commas (Anna,Bernd,Cy)"),
    ("de", "--players Anna;Bernd;Cy: die Namen werden durch Kommas getrennt (Anna,Bernd,Cy)"),
])
def test_players_separated_by_semicolons_are_told_to_use_commas(tmp_path, capsys, lang, said):
    err = _play_refused(tmp_path, capsys, "Anna;Bernd;Cy", lang=lang)
    assert err.endswith(said), err


def test_a_resume_takes_players_and_bots_given_in_the_other_unicode_form(tmp_path, capsys,
                                                                         monkeypatch):
    from camelhost.table.journal import Journal
    from camelhost.table.session import Session
    path = tmp_path / "g.jsonl"
    with Journal(str(path), pyramid="manual") as journal:
        s = Session("second", [COMPOSED, "Ben", "Cy"], seed=4, bots=[0], journal=journal)
        s.command("draw")
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    assert cli.main(["play", "--resume", str(path), "--plain", "--players",
                     "%s,Ben,Cy" % DECOMPOSED, "--bots", DECOMPOSED]) == 0, \
        capsys.readouterr().err
