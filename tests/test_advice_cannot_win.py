"""End-game advice for a player who can't win the race (tester s37tp finding 3): when
every action the coach plays out leaves the player the same chance to win, 0% above all,
the advice does not list equal chances ("0% chance to win the race" on every line, "as
likely to win as the best") over a hidden order; it says the chance once and ranks the
actions by the balance it shows, in plain mode's ``best all``, on the web page and in
German."""

import re

import pytest
from camelhost.i18n import set_language
from camelhost.table.narration import advice_words, best_lines, short_advice_note
from camelhost.table.view import table_view
from seeded_race import BEHIND, played

pytestmark = pytest.mark.slow  # the coach's end-game play-outs

@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


@pytest.fixture(scope="module")
def session():
    """Ann, 20 coins to Ben's 39, as the race likely ends this leg (``seeded_race``)."""
    return played(BEHIND)


def _balances(lines):
    """The balance each advice line of ``best all`` shows, in its order."""
    return [float(m.group(1).replace(",", ".").replace("\u2212", "-"))
            for m in (re.search(r"(?:balance|Bilanz) ([-+]?[0-9]+[.,][0-9]+)", line)
                      for line in lines) if m]


def test_a_player_who_wins_in_no_play_out_is_told_so_once_and_ranked_by_balance(session):
    view = table_view(session, odds=True)
    values = view["odds"]["actions"]["values"]
    assert view["odds"]["actions"]["player"] == "Ann"
    lines = best_lines(view, count=None)
    text = "\n".join(lines)
    # no line says a chance that tells nothing between the actions
    assert "chance to win the race" not in text, text
    assert "as likely to win" not in text, text
    # it says why once, and what the order is
    assert ("you win it in none of the play-outs, whatever you do: ranked by balance"
            in text), text
    # every action shows its balance, and the order is the order of those balances
    shown = _balances(lines[:-1])
    assert len(shown) == len(values) >= 5
    assert shown == sorted(shown, reverse=True), shown
    assert lines[0].endswith("ahead of the next"), lines[0]
    # the web page says the same numbers and the same note
    said = advice_words(view, 3)
    assert all("balance" in s["figure"] for s in said), said
    assert "you win in no play-out: by balance" in short_advice_note(values[:3], 3)


def test_the_same_in_german(session):
    set_language("de")
    view = table_view(session, odds=True)
    lines = best_lines(view, count=None)
    text = "\n".join(lines)
    assert "Chance, das Rennen zu gewinnen (jetzt" not in text, text
    assert "gleiche Siegchance" not in text, text
    assert "du gewinnst es in keinem der ausgespielten Verl\u00e4ufe" in text, text
    shown = _balances(lines[:-1])
    assert len(shown) >= 5 and shown == sorted(shown, reverse=True), shown


@pytest.mark.parametrize("lang, label", [("en", "(balance)"), ("de", "(Bilanz)")])
def test_the_narrow_advice_never_leaves_its_label_alone_on_a_line(session, lang, label):
    """Tester s38 finding 1: Ann, who can't win, is advised by balance; on a narrow
    panel of 46-48 columns the advice filled its first line and its label went to the
    second alone, a bare "(balance)" naming nothing. At every narrow width the label
    stands on the line of the number it labels, or is left out; the advice keeps its
    two lines (a third where the screen has a row to spare for a second action on two
    rows of its own, ``split``) and every line its width."""
    from camelhost.ui.odds_view import NARROW, NARROW_ADVICE_LINES, odds_lines

    set_language(lang)
    view = table_view(session, odds=True)
    for width, split in ((w, s) for w in range(40, NARROW) for s in (False, True)):
        text = odds_lines(view["odds"], view, width=width, split=split).plain.splitlines()
        at = next(i for i, line in enumerate(text) if line.startswith(("For ", "F\u00fcr ")))
        advice = text[at:]
        assert len(advice) <= NARROW_ADVICE_LINES + split, (width, advice)
        assert all(len(line) <= width for line in advice), (width, advice)
        # the best action and its number are there, its value now beside it
        assert re.search(r"[+-]1[.,]33 \((now|jetzt) \+3[.,]61\)", " ".join(advice)), advice
        for line in advice:
            assert line.strip() != label, (width, advice)
            if label in line:  # on the line of the number it labels, at its end
                assert re.search(r"[+-]\d+[.,]\d\d(\)| \((now|jetzt) [+-]\d+[.,]\d\d\)) "
                                 + re.escape(label) + "$", line), (width, advice)
    # the widths the tester saw: the label kept, with the number it labels, the
    # action's words whole on the heading's line (tester 43 finding 1: never "lose (a
    # loser" / "card) +1.33 ...")
    if lang == "en":
        for width in (46, 47, 48):
            advice = odds_lines(view["odds"], view, width=width,
                                split=False).plain.splitlines()[-2:]
            assert advice == ["For Ann: lose (a loser card)",
                              "  +1.33 (now +3.61) (balance)"], (width, advice)
