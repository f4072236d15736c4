"""Plain mode's ``best`` read at a real table (tester s31 finding 10): the best action on
a line of its own, in words and with the command that takes it, and how far it is ahead
of the next one on the number the coach ranks by; under it that number's sum, the parts
as shown adding up (so a near tie can be checked at the table); then the next actions, one
a line, each with how far it is behind the best; ``best all`` lists every one. The coach's
order and numbers are the view's, unchanged: only their wording."""

import io
import re

import pytest
from camelhost.i18n import set_language
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.narration import best_lines
from camelhost.table.session import Session
from camelhost.table.view import signed, table_view
from camelhost.ui.plain import PlainDisplay

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"
#: Seven seats, Dee to act: every balance below zero (six players reply before her turn).
SEVEN = (["Ann", "Ben", "Cy", "Dee", "Eva", "Fay", "Gus"],
         [SETUP, "leg blue", "pyramid", "red 2", "leg red"])
#: Four seats, Cy to act, a finish card among the best.
FOUR = (["Ann", "Ben", "Cy", "Dee"], [SETUP, "leg purple", "tile 4 -"])


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _session(case):
    names, lines = case
    s = Session("second", names, seed=2, journal=Journal(None))
    for line in lines:
        s.command(line)
    return s


def _number(text):
    return float(text.replace(",", "."))


NUM = r"([+-]?\d+[.,]\d\d)"


def _sums(lines, balance, now, kept, replies):
    """Each ``balance B: N now, [K kept ...,] R replies`` in ``lines`` as numbers; the
    words of each part are the language's (``balance``, ``now``... given)."""
    out = []
    for line in lines:
        m = re.search(r"%s %s: (.*)$" % (balance, NUM), line)
        if m is None:
            continue
        parts = {}
        for part in m.group(2).split(", "):
            for key, word in (("now", now), ("kept", kept), ("replies", replies)):
                if word in part:
                    parts[key] = _number(re.search(NUM, part).group(1))
        out.append((_number(m.group(1)), parts))
    return out


@pytest.mark.parametrize("lang,words", [
    ("en", ("balance", "now", "the card's worth in a later leg", "the others' replies", "ahead of the next",
            "behind the best")),
    ("de", ("Bilanz", "jetzt", "Wert der Karte in einer späteren Etappe", "Antworten der anderen",
            "vor der nächsten", "hinter der besten"))])
@pytest.mark.parametrize("case", [SEVEN, FOUR], ids=["seven", "four"])
def test_best_leads_with_its_margin_and_each_sum_adds_up(lang, words, case):
    set_language(lang)
    view = table_view(_session(case), odds=True)
    values = view["odds"]["actions"]["values"]
    lines = best_lines(view)
    balance, now, kept, replies, ahead, behind = words
    # the first number a player reads is how far the best is ahead: never a bare
    # negative value (at seven seats every balance is below zero)
    head = re.search(r"%s %s$" % (NUM, ahead), lines[0])
    assert head, lines[0]
    scores = [_number(signed(v["score"])) for v in values]
    assert _number(head.group(1)) == round(scores[0] - scores[1], 2)
    assert not re.search(r"\(|: -", lines[0].split("'")[-1])
    # one action a line: the best, its sum, then three more, each behind the best
    assert len([line for line in lines if re.match(r"  \d\. ", line)]) == 3
    sums = _sums(lines, balance, now, kept, replies)
    assert [b for b, _parts in sums] == scores[:4]
    for (total, parts), value in zip(sums, values, strict=False):
        assert parts["now"] == _number(signed(value["ev"]))
        # the parts as shown add up to the balance shown
        assert round(parts["now"] + parts.get("kept", 0.0) + parts["replies"], 2) == total
        assert ("kept" in parts) == (value.get("hold") is not None)
    gaps = [_number(x) for x in re.findall(r": %s %s; " % (NUM, behind), "\n".join(lines))]
    assert gaps == [round(scores[0] - s, 2) for s in scores[1:4]]
    if lang == "de":
        said = "\n".join(lines)
        for english in ("balance", "now", "behind", "ahead", "type", "leg ticket", "replies"):
            assert english not in said, english
        assert not re.search(r"\d\.\d\d", said)


def test_a_seven_seat_note_says_a_balance_below_zero_costs_no_coins():
    view = table_view(_session(SEVEN), odds=True)
    assert all(v["score"] < 0 for v in view["odds"]["actions"]["values"])
    note = [line for line in best_lines(view) if line.startswith("(")][0]
    assert note.startswith("(balance: what an action pays now less what the next 6 players "
                           "gain in reply before your turn")
    assert "below zero it costs you no coins" in note and "'best all'" in note


def _synthetic(scores, wins=None):
    """A view whose player to act has leg tickets with these coach scores (and chances
    to win): the order and numbers of ``best`` come from the view alone."""
    colours = ["blue", "green", "red", "yellow"][:len(scores)]
    values = [{"kind": "leg", "action": "leg %s" % c, "ev": 2.0, "score": s,
               "win": None if wins is None else wins[i], "text": ""}
              for i, (c, s) in enumerate(zip(colours, scores, strict=True))]
    return {"phase": "turn", "edition": "second", "players": [
        {"name": n, "tile": None} for n in ("Ann", "Ben", "Cy")],
        "leg_tickets": [{"colour": c, "top": 5, "left": [5, 3, 2]} for c in colours],
        "odds": {"actions": {"player": "Ann", "values": values, "partnership": None}}}


def test_a_tie_to_the_hundredth_is_said_as_level_not_as_ahead():
    lines = best_lines(_synthetic([-0.921, -0.924, -1.5]))
    assert lines[0] == ("Best for Ann: blue leg ticket 5 (type 'leg blue'), level with the "
                        "next to the hundredth")
    assert lines[2].startswith("  2. green leg ticket 5 ('leg green'): level with the best "
                               "to the hundredth; balance -0.92: ")
    assert lines[3].startswith("  3. red leg ticket 5 ('leg red'): 0.58 behind the best; ")


def test_the_end_games_chance_to_win_is_compared_in_points_and_the_rest_is_not():
    lines = best_lines(_synthetic([-0.5, -0.2, -0.1], wins=[0.49, 0.21, None]))
    assert lines[0].endswith("(type 'leg blue'), 28 points ahead of the next")
    assert lines[1] == "  49% chance to win the race (+2.00 now)"
    assert lines[2].startswith("  2. green leg ticket 5 ('leg green'): 28 points behind the best; ")
    # ranked after the chances, by its balance: no gap to a chance is made up
    assert lines[3] == ("  3. red leg ticket 5 ('leg red'): balance -0.10: +2.00 now, "
                        "-2.10 the others' replies")


def test_best_all_lists_every_action_and_best_the_first_four():
    s = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=2, journal=Journal(None))
    out = io.StringIO()
    t = Table(s, PlainDisplay(out))
    t.line(SETUP)
    count = len(table_view(s, odds=True)["odds"]["actions"]["values"])
    assert count > 4
    before = s.game.position()
    t.line("best")
    said = out.getvalue()
    assert len(re.findall(r"^  \d+\. ", said, re.M)) == 3 and "'best all'" in said
    out.truncate(0)
    out.seek(0)
    t.line("best all")
    said = out.getvalue()
    assert said.startswith("Best for Ann: ")
    assert len(re.findall(r"^  \d+\. ", said, re.M)) == count - 1
    assert "'best all'" not in said
    assert s.game.position() == before  # a question only: nothing played


def test_the_partnership_line_says_why_nothing_is_there_to_copy_at_a_legs_start():
    # Tester s32-2, finding 10: at a leg's start the partnership line read "Maria 0,00;
    # Jonas 0,00; ..." as if a partnership were worthless. It is true (its value now is
    # the partner's best leg ticket copied, RULES 3.8, and nobody holds one yet): said so
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"], seed=2)
    s.command(SETUP)
    line = best_lines(table_view(s, odds=True))[-1]
    assert line == ("Partnership for Ann: no partner on offer holds a leg or pyramid ticket "
                    "yet, so there is nothing to copy now; its worth comes with the "
                    "partner's tickets this leg")
    s.command("leg blue")  # Ann holds one: her value for Ben, the others hold none
    line = best_lines(table_view(s, odds=True))[-1]
    assert line.startswith("Partnership for Ben (the partner's best ticket to copy): Ann +")
    assert line.endswith("; Cy no leg or pyramid ticket yet; Dee no leg or pyramid ticket "
                         "yet; Eve no leg or pyramid ticket yet; Fay no leg or pyramid "
                         "ticket yet"), line
    assert "0.00" not in line


def test_a_held_partnership_with_a_partner_holding_no_ticket_says_it_pays_nothing_yet():
    # s33: "with Ann this leg, copying Ann's best ticket is worth 0.00 now" read as a
    # partnership worth nothing; it copies one of the partner's tickets (RULES 3.8), so
    # with none held it pays nothing this leg unless the partner takes one: said so
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"], seed=2)
    s.command(SETUP)
    s.command("partner Ben")  # Ben to act, partnered with Ann, who holds nothing
    line = best_lines(table_view(s, odds=True))[-1]
    assert line == ("Partnership for Ben: with Ann this leg, but Ann holds no leg or "
                    "pyramid ticket yet, so it pays Ben nothing this leg unless Ann takes "
                    "one (RULES 3.8)")
    set_language("de")
    assert best_lines(table_view(s, odds=True))[-1] == (
        "Partnerschaft für Ben: mit Ann in dieser Etappe, aber Ann hat noch kein Wett- "
        "oder Pyramidenplättchen, also bringt sie Ben in dieser Etappe nichts, solange "
        "Ann keins nimmt (RULES 3.8)")
    set_language("en")
    for line in ("leg blue", "leg green", "leg green", "leg green", "leg green"):
        s.command(line)  # round the table to Ann, whose partner Ben holds blue now
    line = best_lines(table_view(s, odds=True))[-1]
    assert re.fullmatch(r"Partnership for Ann: with Ben this leg, copying Ben's best "
                        r"ticket is worth \+\d\.\d\d now \(RULES 3\.8\)", line), line
    assert "0.00" not in line


def test_a_partner_on_offer_holding_a_pyramid_ticket_only_is_valued_not_said_to_hold_none():
    # a pyramid ticket is copied as a leg ticket is (RULES 3.8: it pays 1 whatever the
    # die): Ann, holding one, is worth +1.00 to Ben, not "no leg or pyramid ticket yet"
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"], seed=2)
    s.command(SETUP)
    s.command("pyramid")
    s.command("red 2")
    line = best_lines(table_view(s, odds=True))[-1]
    assert line.startswith("Partnership for Ben (the partner's best ticket to copy): "
                           "Ann +1.00; Cy no leg or pyramid ticket yet;"), line


def test_in_german_the_copied_ticket_is_a_leg_or_pyramid_ticket_not_a_wettplaettchen():
    # tester s44, 6: Ann's +1.00 is her pyramid ticket, but German called what a partner
    # copies a Wettplättchen (leg ticket); RULES 3.8 copies either kind, as the English
    # 'ticket' says, so German names both (its own rules: 'Wett- oder Pyramidenplättchen')
    s = Session("second", ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"], seed=2)
    s.command(SETUP)
    s.command("pyramid")
    s.command("red 2")
    set_language("de")
    line = best_lines(table_view(s, odds=True))[-1]
    assert line.startswith("Partnerschaft für Ben (das beste Wett- oder Pyramidenplättchen "
                           "des Partners zum Mitnutzen): Ann +1,00; Cy noch kein "
                           "Wett- oder Pyramidenplättchen;"), line
    set_language("en")
    s.command("partner Ann")  # Ben partners Ann, who holds a pyramid ticket only
    for line in ("leg blue", "leg green", "leg green", "leg green", "leg green"):
        s.command(line)  # round the table to Ben
    set_language("de")
    line = best_lines(table_view(s, odds=True))[-1]
    assert re.fullmatch(r"Partnerschaft für Ben: mit Ann in dieser Etappe ist das Mitnutzen "
                        r"des besten Wett- oder Pyramidenplättchens von Ann jetzt \+\d,\d\d "
                        r"wert \(RULES 3\.8\)", line), line
