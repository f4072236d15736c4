"""The full screen's panels in German (issue 30): the players table's headings, the
race-over panel's labels and ranking headings, the finish piles' counts and the hint
under a long panel come from the catalogue, with German plurals, and every heading
still fits over its column at the widths the screen plan gives (80x24, 4 to 8
players, long names). Colours stay English by design (typed commands read them)."""

import asyncio
import io
import random
import re

import pytest
import tui_scenes as scenes
from camelhost.i18n import colour_word, ngettext, set_language
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.table.view import table_view
from camelhost.ui.panels import info_text, players_text, race_over_text
from camelhost.ui.tui import announce_text

NAMES8 = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
LONG8 = ["Annabelle-Marguerite Xu", "Bartholomew Fitzwilliam", "Cyrano de Bergerac Jr",
         "Dee", "Evangeline Oduya-Smith", "Florentyna Kowalczyk", "Gus", "Hildegard Brun"]

#: The players table's English headings: none of them in a German table.
ENGLISH_HEADINGS = {"player", "name", "coins", "coin", "pyr", "cards", "card", "now",
                    "tickets", "tix"}


def _session(names, seed=2):
    session = Session("second", names, seed=seed, journal=Journal(None))
    session.command(scenes.SECOND_SETUP)
    for line in ("leg green", "leg blue", "win purple", "lose red", "leg green"):
        session.command(line)
    return session


def _race_out(session, seed=7):
    """Seeded dice (and a few leg tickets) until the race is over."""
    rng = random.Random(seed)
    for _step in range(400):
        if session.phase == "over":
            return
        game = session.game
        if rng.random() < 0.15:
            colours = [c for c in game.edition.racing if game.leg_tickets_left(c)]
            if colours:
                session.command("leg %s" % rng.choice(sorted(colours)))
                continue
        die = rng.choice(sorted(game.dice_in_pyramid()))
        value = rng.randint(1, 3)
        session.command("grey %s %d" % (rng.choice(("black", "white")), value)
                        if die == "grey" else "%s %d" % (die, value))
    raise AssertionError("the race did not end")


def _number_columns(heading):
    """``[(heading word, column of its last character)]`` of the number columns: the
    words after the first (the name's) and before the last (the tickets')."""
    words = [(m.group(), m.end() - 1) for m in re.finditer(r"\S+", heading)]
    return words[1:-1]


@pytest.mark.parametrize("names", [NAMES8[:4], NAMES8[:6], NAMES8, LONG8[:6], LONG8])
@pytest.mark.parametrize("width", [80, 60, 44])
def test_the_players_table_is_headed_in_german_and_each_heading_stands_over_its_column(
        names, width):
    set_language("de")
    view = table_view(_session(names), odds=False)
    lines = players_text(view, width).plain.splitlines()
    assert all(len(line) <= width for line in lines), lines
    heading = lines[0].split()
    assert not set(heading) & ENGLISH_HEADINGS, lines[0]
    assert heading[0] in ("Spieler", "Name") and heading[-1] in ("Wetten", "Wette")
    # a number right-aligned under each heading: its last digit under the heading's end
    rows = [line for line in lines[1:] if line[:1] in (" ", "▶") and line[1:2] != " "]
    assert len(rows) == len(names)
    for word, end in _number_columns(lines[0]):
        for row in rows:
            assert row[end] != " " and (end + 1 == len(row) or row[end + 1] == " "), (
                word, lines[0], row)


def test_the_players_table_at_80_columns_is_headed_in_whole_german_words():
    # the panel beside the odds at 80 columns has 33 columns: German was cut to
    # 'Name EP Pyr Kart. jetzt Pl.' where English kept its words
    from camelhost.ui import plan
    set_language("de")
    view = table_view(_session(NAMES8[:4]), odds=False)
    width = plan.players_width(view, 80)
    assert players_text(view, width).plain.splitlines()[0].split() == [
        "Name", "EP", "Pyr", "Karten", "jetzt", "Wetten"]
    set_language("en")
    assert players_text(view, width).plain.splitlines()[0].split() == [
        "name", "coins", "pyr", "cards", "now", "tickets"]


def test_the_players_table_keeps_its_english_headings_in_english():
    view = table_view(_session(NAMES8[:4]), odds=False)
    assert players_text(view, 80).plain.splitlines()[0].split() == [
        "player", "coins", "pyr", "cards", "now", "tickets"]


def test_the_race_over_panel_speaks_german_and_lines_up_the_two_camels():
    session = _session(NAMES8)
    _race_out(session)
    set_language("de")
    view = table_view(session, odds=False)
    text = race_over_text(view, 80, last_leg=False).plain
    lines = text.splitlines()
    final = view["final"]
    winner = lines[0].index(" %s " % colour_word(final["winner"]).upper())
    loser = lines[1].index(" %s " % colour_word(final["loser"]).upper())
    assert "Gesamtsieger" in lines[0] and "Gesamtverlierer" in lines[1] and winner == loser
    ranking = [line for line in lines if line.startswith("Endwertung")]
    assert ranking and ranking[0].split() == ["Endwertung", "EP", "Wettkarten", "letzte",
                                               "Etappe"]
    for english in ("overall", "Final ranking", "none", "finish cards", "last leg", "coins"):
        assert english not in text, english
    assert "keine" in text  # a player who laid no finish card
    assert all(len(line) <= 80 for line in lines), lines


def test_the_race_over_banner_reads_as_german_with_german_colours():
    session = _session(NAMES8[:4])
    _race_out(session)
    set_language("de")
    final = table_view(session, odds=False)["final"]
    banner = announce_text([{"kind": "final", "final": final}], None).plain
    assert banner == "RENNEN VORBEI: GESAMTSIEGER %s, GESAMTVERLIERER %s" % (
        colour_word(final["winner"]).upper(), colour_word(final["loser"]).upper())
    assert final["winner"].upper() not in banner


def test_the_finish_piles_are_counted_with_german_and_english_plurals():
    session = _session(NAMES8[:4])
    session.command("lose blue")  # the loser pile: two cards, the winner pile one
    view = table_view(session, odds=False)
    assert "winner 1 card, loser 2 cards" in info_text(view).plain
    set_language("de")
    text = info_text(view).plain
    assert "Stapel verdeckt: Sieger 1 Karte, Verlierer 2 Karten" in text
    assert "(n)" not in text


def test_the_counts_under_the_panels_break_between_phrases_never_inside_one():
    # at 80 columns the counts took three rows in German, the last
    # 'Karten' alone: 'Verlierer 0' / 'Karten'; now a phrase that does not fit starts a
    # line, in both languages
    session = _session(NAMES8[:4])
    session.command("lose blue")
    view = table_view(session, odds=False)
    for lang, piles in (("en", "Finish piles (hidden): winner 1 card, loser 2 cards"),
                        ("de", "Stapel verdeckt: Sieger 1 Karte, Verlierer 2 Karten")):
        set_language(lang)
        lines = info_text(view, 80).plain.split("\n")
        assert len(lines) == 2 and all(len(line) <= 80 for line in lines), lines
        assert lines[1].endswith(". " + piles), lines
        assert lines[0].endswith(".") and lines[1].count(".") == 1, lines


def test_the_german_counts_say_the_pyramid_tickets_left_and_keep_to_two_rows_at_80():
    # s32 tester 2 finding 10: 'Pyramidenplättchen: 5.' said no 'left' (the English does;
    # the plain mode says 'übrig'), but 'Pyramidenplättchen übrig: 5.' took the counts to
    # three rows at 80 columns: 'Noch 5 Pyramidenplättchen.' says it in two, with every
    # die still inside (the widest dice row) and up to 9 cards on each finish pile
    set_language("de")
    session = Session("second", NAMES8, seed=2, journal=Journal(None))
    session.command(scenes.SECOND_SETUP)
    view = table_view(session, odds=False)
    view["piles"] = {"winner": 9, "loser": 9}
    lines = info_text(view, 80).plain.split("\n")
    assert lines == ["Können noch herauskommen: bla grü gel rot lil gra (einer bleibt drin).",
                     "Noch 5 Pyramidenplättchen. Stapel verdeckt: Sieger 9 Karten, "
                     "Verlierer 9 Karten"], lines


def test_the_german_counts_say_kann_for_one_die_and_koennen_for_several():
    # tester s33 F4: the full screen said 'Kann noch herauskommen:' for six dice, where
    # the plain mode says 'Können noch herauskommen:'
    set_language("de")
    session = Session("second", NAMES8[:4], seed=2, journal=Journal(None))
    session.command(scenes.SECOND_SETUP)
    view = table_view(session, odds=False)
    first = info_text(view, 80).plain.split("\n")[0]
    assert first.startswith("Können noch herauskommen: bla grü"), first
    view["dice_inside"], view["dice_left_inside"] = view["dice_inside"][:1], False
    first = info_text(view, 80).plain.split("\n")[0]
    assert first.startswith("Kann noch herauskommen: bla."), first
    set_language("en")
    assert info_text(view, 80).plain.startswith("Can still come out: blu."), view


def test_the_hint_under_a_long_panel_has_a_german_plural():
    # the full screen's "more lines below" hint (TableApp's panels) says one line or lines
    one = "▼ %d more line below: Down (or the wheel)"
    many = "▼ %d more lines below: Down (or the wheel)"
    assert ngettext(one, many, 1) % 1 == "▼ 1 more line below: Down (or the wheel)"
    set_language("de")
    # short: the hint is one line under a panel half the width of an 80-column screen
    assert ngettext(one, many, 1) % 1 == "▼ noch 1 Zeile: Pfeil runter oder Mausrad"
    assert ngettext(one, many, 11) % 11 == "▼ noch 11 Zeilen: Pfeil runter oder Mausrad"


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("pyramid", [None, "real", "manual"])
def test_every_help_description_starts_in_one_column(lang, pyramid):
    # a command too long for its column ('red 2  grey white 3', 'release two  release
    # none') has a line of its own, its description under the others
    from camelhost.table.controller import HELP_COLUMN, help_text
    set_language(lang)
    lines = help_text("second", pyramid).splitlines()[1:]
    at = HELP_COLUMN
    for i, line in enumerate(lines):
        # a command alone on its line (too long for its column): its description next
        alone = (i + 1 < len(lines) and not lines[i + 1][:at].strip()
                 and (len(line) <= at or line[at - 1] != " "))
        assert alone or (line[at - 1] == " " and line[at] != " "), (i, line)
    assert "GAP" not in "\n".join(lines) or lang == "en"


def test_the_full_screen_help_keeps_a_long_commands_description_beside_it():
    from camelhost.table.controller import help_text
    from camelhost.ui.screens import help_table
    from rich.console import Console
    set_language("de")
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(help_table(help_text("second")))
    text = console.export_text()
    row = [line for line in text.splitlines() if line.startswith("rot 2  grau weiß 3")]
    assert row and "Würfel von Hand getippt" in row[0], text


def test_a_die_asked_for_its_value_names_its_colour_in_german():
    # the sentence starts with a capital, not the colour inside it (tester s33 F6: 'Blue
    # die is out' read unlike every other line)
    from camelhost.table.narration import notice_lines
    notice = {"kind": "ask_value", "die": "red"}
    assert notice_lines(notice, None) == ["The red die is out, value unknown: press 1, 2 or 3"]
    set_language("de")
    assert notice_lines(notice, None)[0].startswith("Würfel rot ist heraus")
    assert notice_lines(notice, None, past=True)[0].startswith("Würfel rot ist heraus")


def test_the_grey_die_is_grau_in_german_as_in_every_list():
    set_language("de")
    from camelhost.i18n import colours_in
    from camelhost.table.narration import die_words
    from camelup.editions import die_label
    assert colours_in(die_label("grey", "black")) == "grau-schwarz"  # the die line's label
    # the die with its value, as every screen names it (s36: was 'grau weiß 2' on some)
    assert die_words({"colour": "grey", "ink": "white", "value": 2}) == "grau-weiß 2"
    assert colour_word("grey") == "grau"  # as a list of the dice names it


def _die_view(names, typed):
    """The view of a table waiting for the die of the first player's pyramid ticket;
    ``typed``: no pyramid (the die is typed)."""
    session = Session("second", names, seed=2, journal=Journal(None))
    session.command(scenes.SECOND_SETUP)
    session.command("pyramid")
    session.dice_typed = typed
    view = table_view(session, odds=False)
    assert view["phase"] == "die"
    return view


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("typed", [False, True])
def test_the_die_prompt_fits_80_columns_its_example_left_out_when_it_would_not(lang, typed):
    """Tester 3's finding 6: the German prompt for a pyramid ticket's die was cut at 80
    columns (``... (oder tippe ihn, z. B.``). Given the width, a die's prompt that
    would not fit leaves its example die out, never cut mid-sentence; a short one
    keeps it."""
    from camelhost.ui.plain import prompt_line

    set_language(lang)
    example = "blau 2" if lang == "de" else "blue 2"  # a German table may type it so
    short = prompt_line(_die_view(["Annabelle", "Ben", "Cy"], typed), 80)
    assert len(short) <= 80 and example in short, short
    view = _die_view(["Bartholomew Fitzwilliam", "Ben", "Cy"], typed)
    whole = prompt_line(view)
    assert example in whole and prompt_line(view, len(whole)) == whole
    fitted = prompt_line(view, len(whole) - 1)  # a column short
    assert len(fitted) < len(whole) and example not in fitted
    assert fitted.startswith("> Bartholomew Fitzwilliam: ")
    assert fitted.endswith(")" if not typed else ("herauskam" if lang == "de" else "came out"))


def test_the_german_full_screen_prompt_asks_for_the_die_whole_at_80x24():
    """The tester's 80x24 German screen after ``pyramid``: the prompt row reads whole."""
    set_language("de")
    pyramid, _events = scenes.pyramid_queue()
    app = scenes.app_for("second", ["Annabelle", "Bartholomew", "Cy"], pyramid=pyramid)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            await scenes.type_lines(pilot, [scenes.SECOND_SETUP, "pyramid"])
            await scenes.settle(pilot)
            row = app.query_one("#prompt").region
            line = [s.text for s in app.screen._compositor.render_strips()][row.y].rstrip()
            assert line == "> Annabelle: lass einen Würfel heraus (oder tippe ihn, z. B. '%s')" % (
                "blau 2"), line

    asyncio.run(play())


@pytest.mark.parametrize("names", [NAMES8, LONG8])
def test_the_compact_players_table_heads_its_tickets_with_a_whole_abbreviation(names):
    """Tester 3's finding 13: the compact table's tickets column was headed ``Wett``, a
    cut word beside ``Kart.``; the abbreviations were ``Kart`` and ``Wett`` then, without
    dots as ``Pyr`` (session 30: as short as English's). ``Wett`` still read as a word
    cut (tester s33-2): the heading is the whole word ``Wette``, as the odds panel heads
    a leg ticket's value."""
    from camelhost.ui import plan

    set_language("de")
    view = table_view(_session(names), odds=False)
    heading = players_text(view, plan.players_width(view, 80), compact=True).plain
    assert heading.splitlines()[0].split()[-3:] == ["Kart", "jetzt", "Wette"]
