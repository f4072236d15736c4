"""The full screen's plan measures wrapped text in terminal columns, not characters
(``camelhost.ui.plan.text_rows``): a wide character (山, an emoji) takes two columns
and a combining mark none, as the screen draws it (Rich's ``cell_len``, the measure of
``session.name_columns``), so a refusal or a die's detail line naming a player with a
wide name gets the rows it takes on the screen, not fewer."""

import io

import pytest
from camelhost.table.session import name_columns
from camelhost.ui import plan
from rich.console import Console
from rich.text import Text

WIDE = "山田太郎山田太郎山田"  # 10 characters, 20 columns: the widest name a table takes
EMOJI = "🐪🐪🐪🐪🐪🐪🐪🐪🐪🐪"  # 10 characters, 20 columns
MARKS = "Zoe\u0301" * 5  # 20 characters, 15 columns: each accent is a combining mark


def drawn_rows(text, width):
    """The rows Rich draws ``text`` in at ``width`` columns (the screen's wrapping)."""
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    return len(console.render_lines(Text(text), console.options.update_width(width), pad=False))


@pytest.mark.parametrize("name", [WIDE, EMOJI])
def test_a_wide_name_takes_its_columns_not_its_characters(name):
    assert name_columns(name) == 20 and len(name) == 10
    # at ten columns the name is two rows on the screen: counted in characters it
    # fitted one (the players' lines, the error line and the banner then got a row too few)
    assert plan.text_rows(name, 10) == 2 == drawn_rows(name, 10)
    assert plan.text_rows(name, 20) == 1 == drawn_rows(name, 20)


def test_a_combining_mark_takes_no_column():
    assert plan.text_rows(MARKS, 15) == 1 == drawn_rows(MARKS, 15)


@pytest.mark.parametrize("width", [30, 46, 79])
def test_a_refusal_naming_wide_names_gets_the_rows_the_screen_draws(width):
    # a refusal as the error line shows it: the rows the plan keeps for it are the rows
    # the screen wraps it to
    error = ("%s can't take a leg ticket now: it is %s's turn, then %s's (RULES 1.2)"
             % (WIDE, EMOJI, WIDE))
    assert plan.text_rows(error, width) == drawn_rows(error, width)
    assert plan.text_rows(error + "\n" + WIDE, width) == drawn_rows(error, width) + \
        drawn_rows(WIDE, width)
