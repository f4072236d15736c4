"""The table's help in each edition (QA: classic's help turned every 'red' into
'orange', 'unscored' into 'unscoorange', and pushed the descriptions out of line)."""

from camelhost.table.controller import help_text


def test_classic_help_names_orange_as_a_word_and_keeps_its_columns():
    classic = help_text("classic")
    assert "unscored" in classic and "restored" in classic
    assert "scoorange" not in classic and "restoorange" not in classic
    assert "red" not in [w.strip(",.;:'()") for w in classic.split()]
    assert "  leg orange         take the top orange leg ticket" in classic.splitlines()
    assert "  fix 7:orange,blue  correct the board: space 7 holds orange then blue on top" \
        in classic.splitlines()


def test_help_says_how_a_private_finish_card_is_played_in_each_mode():
    text = help_text("second")
    assert "picker" in text and "type the colour next" not in text
