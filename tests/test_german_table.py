"""A whole leg in German (issue 30): the plain mode and the full screen say the same
facts as in English, in the words of the German rules summary (Etappe,
Etappenwertung, Wettplättchen, Pyramidenplättchen, EP, ...)."""

import asyncio
import io
import re

import tui_scenes as scenes
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from typed_table import typed_table

#: One whole second-edition leg typed at the table: tickets, a tile, a grey die, a
#: finish card, a refused command, then dice until the leg is scored.
LEG = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg red", "pyramid",
       "blue 2", "tile 7 +", "pyramid", "grey black 1", "win red", "leg orange", "pyramid",
       "red 1", "pyramid", "green 3", "pyramid", "yellow 2", "pyramid", "purple 1"]


def _plain_leg(lang):
    set_language(lang)
    table, out = typed_table("second", ["Ann", "Ben", "Cy"], *LEG, seed=4)
    return out.getvalue().splitlines(), table.session


def test_a_whole_leg_in_german_in_the_plain_mode_says_the_english_facts():
    english, s_en = _plain_leg("en")
    german, s_de = _plain_leg("de")
    assert s_de.game.coins == s_en.game.coins and s_de.game.leg == s_en.game.leg == 2
    # line for line the same numbers: the same facts, told in German
    assert len(german) == len(english)
    for de, en in zip(german, english, strict=True):
        assert re.findall(r"\d+", de) == re.findall(r"\d+", en), (de, en)
    text = "\n".join(german)
    for words in ("ETAPPENWERTUNG 1: 1. ", "nimmt das Wettplättchen rot im Wert von 5",
                  "nimmt ein Pyramidenplättchen", "zieht 2 Felder vorwärts",
                  "zieht 1 Feld rückwärts\n",
                  "legt eine Wettkarte verdeckt", "Neue Etappe: alle Würfel wieder in der Pyramide",
                  "Rennen 1, Etappe 2", "ist am Zug",
                  "'orange' ist kein Rennkamel der Zweitausgabe (eines von: "):
        assert words in text, words
    for words in ("LEG 1 SCORED", "takes a pyramid ticket", "'s turn"):
        assert words not in text, words


def test_a_whole_leg_in_german_on_the_full_screen():
    set_language("de")
    app = scenes.app_for("second", ["Ann", "Ben", "Cy"], seed=4)

    async def play():
        async with app.run_test(size=(100, 32)) as pilot:
            await scenes.type_lines(pilot, LEG)
            await scenes.settle(pilot)
            panel = str(app.query_one("#legscore").content)
            assert panel.startswith("ETAPPE 1 GEWERTET")
            assert "LILA  1 FELD VORWÄRTS" in str(app.query_one("#announce").content)
            assert str(app.query_one("#detail").content).startswith(
                "Würfel für Cy: lila 1. Trägt blau. Von Feld 5 auf 6")
            assert "Rennen 1, Etappe 2. " in str(app.query_one("#leaders").content)
            log = "\n".join(app.query_one("#log").lines)
            assert "ETAPPENWERTUNG 1" in log and "LEG 1 SCORED" not in log
            assert app.session.game.leg == 2

    asyncio.run(play())


def test_the_dice_are_spoken_in_german_with_a_german_voice():
    from camelhost.table.speaker import Speaker
    set_language("de")
    calls = []
    speaker = Speaker(which=lambda name: "/usr/bin/" + name,
                      popen=lambda argv, **kw: calls.append(argv))
    table = Table(Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None)),
                  PlainDisplay(io.StringIO()), speaker=speaker, manual=True)
    table.start()
    for line in LEG[:7]:
        table.line(line)
    assert calls == [["/usr/bin/espeak-ng", "-v", "de", "Kamel blau, 2 Felder vorwärts"],
                     ["/usr/bin/espeak-ng", "-v", "de", "Kamel schwarz, 1 Feld rückwärts"]]
    assert "espeak-ng" in Speaker(which=lambda name: None).missing


SIX = ["Ann", "Ben", "Cy", "Dee", "Eva", "Fritz"]


def _plain_lines(lang, lines, players=SIX, edition="second", seed=5):
    set_language(lang)
    out = io.StringIO()
    table = Table(Session(edition, list(players), seed=seed, journal=Journal(None)),
                  PlainDisplay(out), manual=True)
    table.start()
    for line in lines:
        table.line(line)
    return out.getvalue().splitlines()


#: Refused actions at a six-player second-edition table: each rules-engine refusal
#: kind a tester found in English at a German table (issue 30).
REFUSED = ["setup 1:red,purple,yellow 3:blue,green 15:black,white", "tile 1 +", "tile 3 +",
           "tile 5 +", "tile 6 -", "leg red", "leg red", "leg red", "leg red", "leg red",
           "partner Ben", "partner Fritz", "partner Ann", "pyramid", "blue 1", "pyramid",
           "blue 2"]


def test_the_rules_engines_refusals_are_told_in_german():
    english = [x for x in _plain_lines("en", REFUSED) if x.startswith("!")]
    german = [x for x in _plain_lines("de", REFUSED) if x.startswith("!")]
    assert len(german) == len(english) >= 6
    for de, en in zip(german, english, strict=True):
        assert re.findall(r"\d+", de) == re.findall(r"\d+", en), (de, en)
    text = "\n".join(german)
    for words in ("auf Feld 1 darf nie ein Plättchen liegen (RULES 1.5)",
                  "auf Feld 3 stehen Kamele (blau, grün)",
                  "Feld 6 liegt neben dem Plättchen von Ann auf Feld 5: Plättchen liegen nie "
                  "nebeneinander",
                  "in dieser Etappe sind keine Wettplättchen rot mehr übrig (RULES 1.6)",
                  "bildet in dieser Etappe schon eine Partnerschaft mit",
                  "der Würfel blau kam in dieser Etappe schon heraus"):
        assert words in text, (words, text)
    for words in ("tile may never", "holds camels", "side by side", "leg tickets left",
                  "already partnered", "already came out"):
        assert words not in text, words


def test_tile_sides_are_told_in_the_rules_summarys_words():
    lines = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "tile 5 +",
             "pyramid", "red 3", "show"]
    text = "\n".join(_plain_lines("de", lines, players=["Ann", "Ben", "Cy"], seed=4))
    for words in ("Ann legt das Plättchen auf Feld 5, Seite Anfeuern oben",
                  "landet dort auf dem Plättchen von Ann (Anfeuern): Ann +1 EP",
                  "| Plättchen: 5 Ann Anfeuern"):
        assert words in text, (words, text)
    assert "cheering" not in text and "tiles:" not in text
    classic = "\n".join(_plain_lines("de", ["setup 1:blue,green 2:orange 3:yellow,white",
                                            "tile 7 -", "tile 9 +", "show"],
                                     players=["Ann", "Ben", "Cy"], edition="classic"))
    assert "Seite Fata Morgana oben" in classic and "Seite Oase oben" in classic
    assert "| Plättchen: 7 Ann Fata Morgana, 9 Ben Oase" in classic
    assert "mirage" not in classic and "oasis" not in classic


def test_the_marked_tile_side_words_are_the_editions_own():
    from camelhost.table.view import SIDE_WORDS
    from camelup.editions import get_edition
    words = set()
    for name in ("classic", "second"):
        ed = get_edition(name)
        words.update((ed.forward_name, ed.backward_name))
    assert set(SIDE_WORDS) == words


def test_undo_and_the_leg_scoring_lines_have_no_english_words_in_german():
    lines = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg red",
             "leg red", "leg red", "leg red", "undo", "partner Ann", "undo", "undo",
             "undo", "undo", "undo"]
    text = "\n".join(_plain_lines("de", lines))
    for words in ("(rot übrig: keine)", "Zurückgenommen: das Wettplättchen rot von Dee",
                  "Zurückgenommen: die Partnerschaft von Dee mit Ann",
                  "Zurückgenommen: der Aufbau"):
        assert words in text, (words, text)
    for words in ("none", "undone", "'s ", "den Aufbau"):
        assert words not in text, words
    scored = "\n".join(_plain_lines("de", ["setup 1:blue,green 2:red 3:yellow,purple "
                                           "15:black 16:white", "leg red"] + LEG[2:]))
    assert ": nichts => netto +0" in scored and "nothing" not in scored
    die = "\n".join(_plain_lines("de", lines[:1] + ["pyramid", "blue 2", "undo"]))
    assert ("Zurückgenommen: das Pyramidenplättchen von Ann mit seinem Würfel blau 2; setze das "
            "Kamel blau, das grün trägt, auf Feld 1 zurück; lege den Würfel blau in die Pyramide "
            "zurück") in die, die


def _journal(path):
    journal = Journal(str(path), pyramid="manual")
    s = Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=journal)
    for text in ("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "leg red",
                 "pyramid", "purple 2"):
        s.command(text)
    journal.close()


def test_a_replay_in_german_ends_in_german(tmp_path, capsys):
    from camelhost import cli
    path = tmp_path / "g.jsonl"
    _journal(path)
    assert cli.main(["replay", str(path), "--lang", "de"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "Als Nächstes: Cy ist am Zug (leg / tile / win / lose / pyramid)", last


def test_a_replay_of_a_file_that_is_not_a_journal_says_so_in_one_line(tmp_path, capsys):
    from camelhost import cli
    path = tmp_path / "notes.txt"
    path.write_text("camels are fun\n")
    assert cli.main(["replay", str(path), "--lang", "de"]) != 0
    out = capsys.readouterr()
    assert out.out == ""
    err = out.err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and "kein Spielprotokoll" in err
    assert "kein JSON-Text" in err and "Expecting" not in err and "char 0" not in err
    assert path.read_text() == "camels are fun\n"


def test_the_parsers_refusals_name_what_was_expected_in_german():
    lines = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "tile 17 +",
             "tile five +", "leg black", "leg", "tile", "cheer", "fix 3:blue,purpel"]
    english = [x for x in _plain_lines("en", lines) if x.startswith("!")]
    german = [x for x in _plain_lines("de", lines) if x.startswith("!")]
    assert len(german) == len(english) == 7
    assert german == [
        "! Feld 17 liegt nicht auf der Rennstrecke (1..16)",
        "! 'five' ist kein Feld (1..16)",
        "! 'black' ist kein Rennkamel der Zweitausgabe "
        "(eines von: blau, grün, gelb, rot, lila)",
        "! leg: prüfe die Form: leg <Farbe> ('help' zeigt jeden Befehl)",
        "! tile: prüfe die Form: tile <Feld> + oder tile <Feld> -; z. B. 'tile 7 +'",
        "! cheer: prüfe die Form: cheer <Feld>; z. B. 'cheer 7'",
        "! 'purpel' ist kein Kamel (eines von: blau, grün, gelb, rot, lila, schwarz, "
        "weiß); meintest du lila?"]  # the nearest colour, in the table's word (s32 finding 6)
    assert english[0] == "! space 17 is not on the track (1..16)"
    assert english[2] == ("! 'black' is not a racing camel of the second edition "
                          "(one of: blue, green, yellow, red, purple)")


def test_pyramid_odds_in_german_counts_and_names_in_german(capsys):
    from camelhost import cli
    board = "2:[R,Y,P] 9:[G] 13:[B] 14:[K,W] 4:+"
    assert cli.main(["odds", "--lang", "de", board, "--pyramid", "G,B", "--samples", "50",
                     "--top", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Zweitausgabe, Etappe 1, Ann ist am Zug; Würfel in der Pyramide: "
                          "blau, grün; 1 kommt noch heraus\n"), out.splitlines()[0]
    assert "  Anfeuern     auf  4: " in out
    assert "Plättchen (Ausbuhen) auf 10: " in out
    for words in ("cheering", "booing", " on ", "to come out"):
        assert words not in out, words


def test_pyramid_odds_in_german_refuses_bad_notation_in_german(capsys):
    from camelhost import cli
    assert cli.main(["odds", "--lang", "de", "2:[R,Y,blu] 9:[G]"]) == 1
    assert capsys.readouterr().err == (
        "pyramid: board: 'blu' auf Feld 2 ist kein Kamel (die Notation schreibt Kamele "
        "englisch: ein Name wie blue oder ein Großbuchstabe B G O Y W R P K)\n")
    assert cli.main(["odds", "--lang", "de", "second | leg 1 turn p0"]) == 1
    assert capsys.readouterr().err == (
        "pyramid: zu wenige Abschnitte (nötig: Ausgabe | leg ... | Rennstrecke | ...) in der "
        "Stellung 'second | leg 1 turn p0'\n")
    assert cli.main(["odds", "2:[R,Y,blu] 9:[G]"]) == 1
    assert capsys.readouterr().err == (
        "pyramid: board: 'blu' on space 2 is not a camel (a name like blue, or a capital "
        "letter B G O Y W R P K)\n")


def test_show_counts_pyramid_tickets_in_german():
    lines = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white", "pyramid",
             "blue 1", "leg red", "leg red", "pyramid", "green 1", "show"]
    text = "\n".join(_plain_lines("de", lines, players=["Ann", "Ben", "Cy"], seed=4))
    assert "Ann: 3 EP; keine Wettplättchen; 2 Pyramidenplättchen; 0 Wettkarten" in text, text


def test_no_german_message_hedges_its_article():
    """'kein(e)' is what a translator writes when one message serves nouns of every
    gender: each noun gets its own message instead (or the one that serves them all
    shares their gender: die colour and numeral colour, both Farbe)."""
    import os

    from babel.messages.pofile import read_po
    from camelhost.i18n import LOCALE_DIR
    with open(os.path.join(LOCALE_DIR, "de", "LC_MESSAGES", "pyramid.po"), "rb") as fh:
        catalog = read_po(fh)
    hedged = []
    for m in catalog:
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            if re.search(r"\b(k?ein|jede|diese)\(", text or ""):
                hedged.append((m.id, text))
    assert hedged == []


def test_a_die_typed_with_an_unknown_colour_is_refused_in_german():
    set_language("de")
    out = io.StringIO()
    table = Table(Session("second", ["Ann", "Ben", "Cy"], seed=4, journal=Journal(None)),
                  PlainDisplay(out), manual=True)
    table.start()
    table.line("setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white")
    table.line("pyramid")
    table.line("grey pink 2")
    assert "! 'pink' ist keine Ziffernfarbe des grauen Würfels (eine von: schwarz, weiß)" \
        in out.getvalue().splitlines(), out.getvalue()
