"""QA round 2: the table's help in each edition (classic's help turned every 'red' into
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
    screen = help_text("second", cards="masked")  # the full screen: a key per colour
    assert "its colour picked next, one key per colour" in screen
    plain = help_text("second", cards="unseen")  # plain mode: the colour typed unseen
    assert "its colour typed next, never shown" in plain and "picked" not in plain


def test_three_winners_read_as_a_list():
    from camelhost.table.narration import final_scores_line, name_list
    assert name_list(["Ann"]) == "Ann"
    assert name_list(["Ann", "Ben"]) == "Ann and Ben"
    assert name_list(["Ann", "Ben", "Cy"]) == "Ann, Ben and Cy"
    assert final_scores_line(["Ann", "Ben", "Cy"], [9, 9, 9], [0, 1, 2]) == \
        "FINAL SCORES: Ann 9, Ben 9, Cy 9 | winners: Ann, Ben and Cy"
